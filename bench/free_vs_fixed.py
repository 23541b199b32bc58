#!/usr/bin/python3
"""Fixed-interface (Craig-Bampton) against free-interface CMS on the same
model, accuracy per frequency band (seed 000 style) and timings.

  bench/free_vs_fixed.py [--nx 60 --ny 30 --nz 2 --parts 4] [--fmax 1000]
                         [--cutoff-factor 2] [--ranks 1]
                         [--methods craig-bampton,free-interface]
                         [--out bench/results/free_vs_fixed.md]

Runs `dynred cms` once per method (-cms_method) with verification on the
built-in clamped plate 1 x 0.5 x 0.02 m (nx x ny x nz hex8) cut into
--parts parts along x, and reads /verify/bands (bands of width fmax/6,
modes binned by the full-model frequency of their pair), /verify and
/timing.  Prints a markdown table per band: band, modes, max/mean |dev|
for each method; then the sizes and phase times.  --methods takes any two
registered reductions (e.g. craig-bampton,guyan).
"""
import argparse
import math
import os
import subprocess
import sys
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
PHASES = ["model", "component_eigensolve", "constraint_modes", "projection", "gather", "assembly",
          "interface_reduction", "coupled_solve", "recovery", "cms_total", "verify"]


def run(exe, args, np_):
    cmd = [exe] + args
    if np_ > 1:
        cmd = ["mpiexec", "--oversubscribe", "-n", str(np_)] + cmd
    t0 = time.time()
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    if p.returncode:
        sys.exit(f"failed (exit {p.returncode}): {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-2000:]}")
    return time.time() - t0


def load(path):
    with h5py.File(path, "r") as f:
        b = f["/verify/bands"]
        r = dict(lower=b["lower_hz"][:], upper=b["upper_hz"][:], n=b["n_modes"][:], max=b["max_error_pct"][:],
                 mean=b["mean_error_pct"][:], fmax=float(b.attrs["fmax_hz"]),
                 maxdev=float(f["/verify"].attrs["max_error_pct"]), meandev=float(f["/verify"].attrs["mean_error_pct"]),
                 rr=bool(f["/verify"].attrs["rayleigh_ritz_bound_ok"]), ncms=f["/cms/frequencies_hz"].shape[0],
                 ndof=int(f["/cms"].attrs["ndof"]), size=int(f["/cms/reduced"].attrs["size"]),
                 nbound=int(f["/cms/reduced"].attrs["n_boundary"]), nmodal=int(f["/cms/reduced"].attrs["n_modal"]),
                 timing={k: float(v) for k, v in f["/timing"].attrs.items() if k != "units"})
    return r


def num(x, nd=4):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{nd}f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nx", type=int, default=60)
    ap.add_argument("--ny", type=int, default=30)
    ap.add_argument("--nz", type=int, default=2)
    ap.add_argument("--parts", type=int, default=4)
    ap.add_argument("--fmax", type=float, default=1000.0, help="cms.fmax [Hz]")
    ap.add_argument("--cutoff-factor", default="2.0", help="cms.cutoff_factor")
    ap.add_argument("--ranks", type=int, default=1)
    ap.add_argument("--methods", default="craig-bampton,free-interface", help="two methods: fixed,free")
    ap.add_argument("--extra", default="", help="more dynred options for both runs (one string)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/free_vs_fixed.md"))
    ap.add_argument("--workdir", default="/tmp/dynred-bench")
    ap.add_argument("--dynred", default=os.path.join(ROOT, "bin/dynred"), help="the dynred executable")
    a = ap.parse_args()
    methods = a.methods.split(",")
    if len(methods) != 2:
        sys.exit("--methods: expected two comma-separated methods")
    os.makedirs(a.workdir, exist_ok=True)
    if os.path.dirname(a.out):
        os.makedirs(os.path.dirname(a.out), exist_ok=True)
    model = ["-model_builtin", "plate", "-model_plate_nx", str(a.nx), "-model_plate_ny", str(a.ny), "-model_plate_nz", str(a.nz),
             "-model_cut_axis", "x", "-model_cut_parts", str(a.parts)]
    res, wall = {}, {}
    for m in methods:
        out = os.path.join(a.workdir, f"fvf_{m}_{a.nx}x{a.ny}x{a.nz}_{a.parts}.h5")
        args = ["cms"] + model + ["-cms_method", m, "-cms_fmax", f"{a.fmax:.9g}", "-cms_cutoff_factor", a.cutoff_factor,
                                  "-verify", "true", "-output", out] + a.extra.split()
        print(f"running {m} ...", file=sys.stderr, flush=True)
        wall[m] = run(a.dynred, args, a.ranks)
        res[m] = load(out)
    r0, r1 = res[methods[0]], res[methods[1]]
    assert np.array_equal(r0["upper"], r1["upper"]), "different bands"
    lines = []
    lines.append(f"Command: `{' '.join(['bench/free_vs_fixed.py'] + sys.argv[1:])}` on {os.uname().nodename}, {os.cpu_count()} cores, "
                 f"{time.strftime('%Y-%m-%d')}.  Clamped plate {a.nx} x {a.ny} x {a.nz} hex8 ({r0['ndof']} DOFs) cut into {a.parts} parts "
                 f"along x, {a.ranks} rank(s), cms.fmax {a.fmax:g} Hz, cutoff_factor {a.cutoff_factor}.  Deviation |f_cms - f_full| / f_full "
                 f"in %, modes binned by the full-model frequency of their MAC pair.\n")
    a0, a1 = methods
    lines.append(f"| band [Hz] | modes {a0} | modes {a1} | max dev {a0} [%] | mean dev {a0} [%] | max dev {a1} [%] | mean dev {a1} [%] |")
    lines.append("|---|---|---|---|---|---|---|")
    for k in range(len(r0["upper"])):
        close = "]" if k == len(r0["upper"]) - 1 else ")"
        lines.append(f"| [{r0['lower'][k]:.4g}, {r0['upper'][k]:.4g}{close} | {r0['n'][k]} | {r1['n'][k]} | {num(r0['max'][k])} | "
                     f"{num(r0['mean'][k])} | {num(r1['max'][k])} | {num(r1['mean'][k])} |")
    lines.append(f"| all | {r0['n'].sum()} | {r1['n'].sum()} | {num(r0['maxdev'])} | {num(r0['meandev'])} | {num(r1['maxdev'])} | "
                 f"{num(r1['meandev'])} |")
    lines.append("")
    lines.append(f"| | {a0} | {a1} |")
    lines.append("|---|---|---|")
    lines.append(f"| CMS modes below fmax | {r0['ncms']} | {r1['ncms']} |")
    lines.append(f"| reduced size (boundary + modal) | {r0['size']} ({r0['nbound']} + {r0['nmodal']}) | "
                 f"{r1['size']} ({r1['nbound']} + {r1['nmodal']}) |")
    lines.append(f"| Rayleigh-Ritz bound | {'holds' if r0['rr'] else 'VIOLATED'} | {'holds' if r1['rr'] else 'VIOLATED'} |")
    for p in PHASES + sorted(set(r0["timing"]) - set(PHASES) - {"peak_rss_mib_per_rank"}):
        if p in r0["timing"] or p in r1["timing"]:
            lines.append(f"| {p} [s] | {num(r0['timing'].get(p), 2)} | {num(r1['timing'].get(p), 2)} |")
    lines.append(f"| peak RSS per rank [MiB] | {num(r0['timing'].get('peak_rss_mib_per_rank'), 0)} | "
                 f"{num(r1['timing'].get('peak_rss_mib_per_rank'), 0)} |")
    lines.append(f"| wall time incl. verification [s] | {wall[a0]:.2f} | {wall[a1]:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(a.out, "w") as f:
        f.write(text)
    print(f"wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
