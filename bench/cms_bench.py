#!/usr/bin/python3
"""CMS against the full-model modal solve, side by side on the same model
and ranks (issue 3 benchmark).

  bench/cms_bench.py [--cases plate50k,plate200k,ccxbar50k] [--modes 20,200] [--ranks 2]
                     [--out bench/results/cms.md]

For each case and mode count N: fmax = f_N, the N-th full-model frequency
(given with --fmax, else from a `dynred modal` run), then one `dynred cms`
job with fmax = f_N and verification: the job times its CMS phases and, in
the same process right after, the full-model solve of its verification (the
same modal solve `dynred modal` does, N + 5 modes), so the two times are
measured side by side.  Reported: both times and their ratio, the CMS phase
split (/timing), reduced and coupled size, the K_II solves of the
reductions (/timing block_solve_columns: right-hand sides of block solves;
single_solves: the component eigensolvers' single-vector solves), peak RSS
per rank, and the max deviation over the modes up to fmax.
"""
import argparse
import os
import subprocess
import sys
import time

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
# plate 1 x 0.5 x 0.02 m clamped at x0, cut along x: (nx, ny, nz, parts[, cms.partition]).
# parts 1 with a cms.partition: ONE component, substructured automatically
# (issue 13 item 5); "parts" in the table is then the components made
# (subdomains + the separator).  Sizes of the -auto cases as bench/modal_bench.py.
CASES = {
    "plate50k": (100, 50, 2, 4),
    "plate200k": (180, 90, 3, 4),
    "plate50k-auto": (100, 50, 2, 1, "auto"),
    "plate50k-p4": (100, 50, 2, 1, "4"),
    "plate200k-auto": (180, 90, 3, 1, "auto"),
    "plate200k-p8": (180, 90, 3, 1, "8"),
    "plate1M-auto": (400, 200, 3, 1, "auto"),
}
# CalculiX assemblies (the issue's case): (lx, ly, lz, nx, ny, nz, parts), a
# C3D8 steel bar clamped at x = 0, one conforming mesh cut into `parts` decks
# along x (scripts/ccx_bar_parts.py: parts 2.. float), each exported by
# CalculiX (*FREQUENCY, SOLVER=MATRIXSTORAGE) and read as format calculix.
CCX = {
    "ccxbar50k": (1.2, 0.12, 0.1, 120, 12, 10, 4),
}


def ccx_case(case, workdir):
    """The decks of a CCX case exported once into workdir/case; the job
    options that read them (components listed in a job file)."""
    lx, ly, lz, nx, ny, nz, parts = CCX[case]
    d = os.path.join(workdir, case)
    os.makedirs(d, exist_ok=True)
    job = os.path.join(d, "job.yaml")
    if not os.path.exists(job):
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts/ccx_bar_parts.py"), "bar", str(lx), str(ly), str(lz),
                        str(nx), str(ny), str(nz), str(parts), "210e9", "0.3", "7850", "1"], cwd=d, check=True)
        for p in range(1, parts + 1):
            subprocess.run(["ccx", "-i", f"bar_p{p}"], cwd=d, check=True, capture_output=True)
        with open(job + ".tmp", "w") as f:
            f.write("job: cms\ncomponents:\n" + "".join(f"  - {{name: p{p}, format: calculix, path: bar_p{p}}}\n" for p in range(1, parts + 1)))
        os.rename(job + ".tmp", job)
    return ["-config", job], parts


def run(args, np_):
    cmd = ["mpiexec", "--oversubscribe", "-n", str(np_), os.path.join(ROOT, "bin/dynred")] + args
    t0 = time.time()
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-2000:]}")
    return time.time() - t0, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="plate50k,plate200k", help="plate cases " + ",".join(CASES) + "; CalculiX assemblies " + ",".join(CCX))
    ap.add_argument("--modes", default="20,200")
    ap.add_argument("--ranks", default="2")
    ap.add_argument("--cutoff-factor", default="", help="explicit cms.cutoff_factor (final: no refinement); default: dynred's choice with cms.tol_pct")
    ap.add_argument("--method", default="craig-bampton")
    ap.add_argument("--fmax", default="", help="f_N per case and N, e.g. plate200k:20=1476.586,plate200k:200=14182.817")
    ap.add_argument("--extra", default="", help="more dynred options for the CMS run, space-separated")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/cms.md"))
    ap.add_argument("--workdir", default="/tmp/dynred-bench")
    ap.add_argument("--no-verify", action="store_true",
                    help="CMS without its in-process verification (needs --fmax); the reference is the separate `dynred modal` "
                         "job run right after it (k-th vs k-th frequency): for the 1M case, where both solves in one process "
                         "would not fit in memory")
    ap.add_argument("--no-modal-job", action="store_true",
                    help="skip the separate `dynred modal` job (its time columns show nan) when --fmax gives f_N; for the 1M case, where it "
                         "costs 20+ minutes.  With --no-verify the accuracy columns then come from the modal job's result an earlier run "
                         "left in --workdir (full_CASE_N_RANKS.h5), or show nan without one")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    hdr = ("| case | DOFs | parts | modes | ranks | full [s] | CMS [s] | CMS/full | modal job [s] | CMS/modal job | reduced / coupled size | comp. eig [s] | constraint [s] "
           "| projection [s] | coupled [s] | recovery [s] | estimate [s] | comp. modes | K_II solves: block columns / single / eigensolver block columns | refinements | peak RSS/rank [MiB] | max dev [%] | max estimate [%] | est/true median, max | est < true | RR bound |\n"
           "|" + "---|" * 26)
    print(hdr, flush=True)
    rows = []
    for case in a.cases.split(","):
        if case in CCX:
            model, parts = ccx_case(case, a.workdir)
            partition, cut = [], []
        else:
            nx, ny, nz, parts = CASES[case][:4]
            # cms.nmodes has no effect on a job with fmax except as auto's expected mode count
            partition = ["-cms_partition", CASES[case][4]] if len(CASES[case]) > 4 else []
            model = ["-model_builtin", "plate", "-model_plate_nx", str(nx), "-model_plate_ny", str(ny), "-model_plate_nz", str(nz)]
            cut = ["-model_cut_axis", "x", "-model_cut_parts", str(parts)]
        for nm in map(int, a.modes.split(",")):
            for np_ in map(int, a.ranks.split(",")):
                given = dict(kv.split("=") for kv in a.fmax.split(",") if kv)
                tmodal = float("nan")
                if f"{case}:{nm}" in given:
                    fN = float(given[f"{case}:{nm}"])
                full = os.path.join(a.workdir, f"full_{case}_{nm}_{np_}.h5")

                def modal_job():
                    return run(["modal"] + model + ["-modal_nmodes", str(nm), "-modal_write_modes", "false", "-output", full], np_)[0]
                if a.no_verify and f"{case}:{nm}" not in given:
                    sys.exit(f"--no-verify needs --fmax {case}:{nm}=F")
                if not a.no_verify and (f"{case}:{nm}" not in given or not a.no_modal_job):
                    # the job a user would run instead of CMS: `dynred modal` for N modes, its wall time
                    # right before the CMS job (the verify column is the same solve inside the CMS job,
                    # for 5 more modes and after re-reading the model)
                    tmodal = modal_job()
                    with h5py.File(full) as f:
                        if f"{case}:{nm}" not in given:
                            fN = f["/modal/frequencies_hz"][-1]
                cms = os.path.join(a.workdir, f"cms_{case}_{nm}_{np_}.h5")
                tc, out = run(["cms"] + model + cut + ["-cms_fmax", f"{fN * 1.0001:.9g}",
                               "-cms_method", a.method, "-verify", "false" if a.no_verify else "true",
                               # no checkpoint: a rerun in the same workdir would read the components back (cms.reuse) and time nothing
                               "-cms_checkpoint", "none",
                               # the modal job above writes no modes either: both jobs write their frequencies only
                               "-cms_write_modes", "false", "-output", cms] + (["-cms_cutoff_factor", a.cutoff_factor] if a.cutoff_factor else [])
                              + (partition + ["-cms_nmodes", str(nm)] if partition else []) + a.extra.split(), np_)
                with open(cms[:-3] + ".log", "w") as lf:  # the job's log (refinement rounds, phases) beside its result
                    lf.write(out)
                if a.no_verify and not a.no_modal_job:
                    tmodal = modal_job()
                with h5py.File(cms) as f:
                    t = f["/timing"].attrs
                    ndof = int(f["/cms"].attrs["ndof"])
                    rss_full = float("nan")
                    made = f"1 -> {len(f['/cms/components'])}" if partition else parts
                    v = f["/verify"].attrs if not a.no_verify else reference(f, full if os.path.exists(full) else None)
                    if a.no_verify and a.no_modal_job:
                        v["t_modal"] = float("nan")  # an earlier run's time is not side by side
                    tver = float(t["verify"]) if not a.no_verify else 0.0
                    r = dict(case=case, ndof=ndof, parts=made, nm=nm, np=np_, tfull=tver if not a.no_verify else v["t_modal"], tcms=float(t["cms_total"]), tmodal=tmodal, tcmswall=tc - tver,
                             nred=int(f["/cms/reduced"].attrs["size"]), ncoup=int(f["/cms/reduced"].attrs.get("coupled_size", 0)), eig=float(t["component_eigensolve"]),
                             static=float(t["constraint_modes"]), proj=float(t["projection"]), coupled=float(t["coupled_solve"]),
                             rec=float(t["recovery"]), rss_full=rss_full, rss_cms=float(t["peak_rss_mib_per_rank"]),
                             maxdev=float(v["max_error_pct"]), rr=None if v["rayleigh_ritz_bound_ok"] is None else bool(v["rayleigh_ritz_bound_ok"]),
                             ncms=f["/cms/frequencies_hz"].shape[0],
                             est=float(f["/cms/error_estimate_pct"][:].max()) if "error_estimate_pct" in f["/cms"] else float("nan"),
                             nref=int(f["/cms"].attrs.get("refinements", 0)), qtot=sum(int(g.attrs["n_modes"]) for g in f["/cms/components"].values()),
                             nbsc=int(t.get("block_solve_columns", -1)), nss=int(t.get("single_solves", -1)), neig=int(t.get("eigen_block_columns", 0)),
                             testim=float(t["error_estimate"]) if "error_estimate" in t else float("nan"),
                             tmed=float(v.get("estimate_tightness_median", float("nan"))),
                             tmax=float(v.get("estimate_tightness_max", float("nan"))),
                             nbelow=int(v.get("estimate_below_true", -1)))
                rows.append(r)
                print(fmt(r), flush=True)
    with open(a.out, "w") as f:
        f.write(f"Command: `{' '.join(['bench/cms_bench.py'] + sys.argv[1:])}` on {os.uname().nodename}, {os.cpu_count()} cores, "
                f"{time.strftime('%Y-%m-%d')}.  CMS time = model + reduction + coupled solve + recovery (/timing/cms_total; its verification solve excluded); "
                f"full = the same job's verification solve (`dynred modal`'s solver, N + 5 modes), measured right after CMS in the same process; modal job = the wall time of the `dynred modal` job for N modes run right before (what a user would run instead), CMS/modal job = the CMS job's wall time without its verification over it.\n\n{hdr}\n" + "\n".join(fmt(r) for r in rows) + "\n")


def reference(f, full):
    """--no-verify: the verification numbers from the separate modal job's
    frequencies, k-th against k-th (the model has no rigid-body modes: the
    plates are clamped), computed here with numpy."""
    import numpy as np
    nan = float("nan")
    if full is None:  # --no-modal-job and no earlier modal result in the workdir
        return dict(max_error_pct=nan, rayleigh_ritz_bound_ok=None, t_modal=nan)
    with h5py.File(full) as g:
        ff = g["/modal/frequencies_hz"][:]
        tm = g["/timing"].attrs
        t_modal = float(tm["model"]) + float(tm["eigensolve"])
    fc = f["/cms/frequencies_hz"][:]
    n = min(len(fc), len(ff))
    fc, ff = fc[:n], ff[:n]
    true = 100 * np.abs(fc - ff) / ff
    # Rayleigh-Ritz: f_cms >= f_full up to the reference's own solver tolerance (relative 1e-8 on lambda)
    out = dict(max_error_pct=true.max(), rayleigh_ritz_bound_ok=bool(np.all(fc >= ff * (1 - 1e-8))), t_modal=t_modal)
    if "error_estimate_pct" in f["/cms"]:
        est = f["/cms/error_estimate_pct"][:n]
        # the job's own slack (1e-5 %): a true error below it is round-off of the reference
        ok = true > 1e-5
        ratio = est[ok] / true[ok]
        out.update(estimate_tightness_median=float(np.median(ratio)), estimate_tightness_max=float(ratio.max()),
                   estimate_below_true=int(np.sum(est < true - 1e-5)))
    return out


def fmt(r):
    return (f"| {r['case']} | {r['ndof']} | {r['parts']} | {r['nm']} ({r['ncms']} CMS) | {r['np']} | {r['tfull']:.1f} | {r['tcms']:.1f} | "
            f"{r['tcms'] / r['tfull']:.2f} | {r['tmodal']:.1f} | {r['tcmswall'] / r['tmodal']:.2f} | {r['nred']} / {r['ncoup']} | {r['eig']:.1f} | {r['static']:.1f} | {r['proj']:.1f} | {r['coupled']:.1f} | "
            f"{r['rec']:.1f} | {r['testim']:.1f} | {r['qtot']} | {r['nbsc']} / {r['nss']} / {r['neig']} | {r['nref']} | {r['rss_cms']:.0f} | {r['maxdev']:.3f} | {r['est']:.3f} | {r['tmed']:.2g}, {r['tmax']:.2g} | {r['nbelow']} | {'-' if r['rr'] is None else 'ok' if r['rr'] else 'VIOLATED'} |")


if __name__ == "__main__":
    main()
