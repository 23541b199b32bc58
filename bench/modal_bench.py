#!/usr/bin/python3
"""Benchmark of `dynred modal` on the built-in plate, and CalculiX *FREQUENCY
on the same mesh (C3D8, same element), run side by side.

  bench/modal_bench.py [--sizes 50k,200k,1M] [--modes 20,200] [--ranks 1,2]
                       [--ccx-max 200k] [--out bench/results/modal.md]

Per run: wall time, peak RSS (largest rank and sum over ranks, from
/proc/self/status VmHWM as written to /timing), and the time split from
-log_view: MUMPS numeric factorization (MatCholFctrNum), triangular solves
(MatSolve), orthogonalization (BVOrthogonalize*), and the rest.
"""
import argparse
import os
import re
import subprocess
import sys
import time

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {  # plate 1 x 0.5 x 0.02 m, clamped at x = 0: (nx, ny, nz)
    "50k": (100, 50, 2),
    "200k": (180, 90, 3),
    "1M": (400, 200, 3),
}
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none")


def logview_times(text):
    """Max-over-ranks time of the events we report, from -log_view."""
    t = {}
    for line in text.splitlines():
        p = line.split()
        if len(p) > 4 and re.match(r"^(MatCholFctrNum|MatCholFctrSym|MatSolve|BVOrthogonalize\w*|EPSSolve|DREigenSolve|DRGenerate|DRWrite)$", p[0]):
            try:
                t[p[0]] = t.get(p[0], 0.0) + float(p[3])
            except ValueError:
                pass
    return t


def run_dynred(size, nmodes, np_, workdir):
    nx, ny, nz = SIZES[size]
    out = os.path.join(workdir, f"dyn_{size}_{nmodes}_{np_}.h5")
    cmd = ["mpiexec", "--oversubscribe", "-n", str(np_), os.path.join(ROOT, "bin/dynred"), "modal",
           "-model_builtin", "plate", "-model_plate_nx", str(nx), "-model_plate_ny", str(ny), "-model_plate_nz", str(nz),
           "-modal_nmodes", str(nmodes), "-modal_write_modes", "false", "-output", out, "-log_view"]
    t0 = time.time()
    p = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode:
        sys.exit(f"dynred failed: {' '.join(cmd)}\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    with h5py.File(out) as f:
        ndof = int(f["/modal"].attrs["ndof"])
        rss = float(f["/timing"].attrs["peak_rss_mib_per_rank"])
        freqs = f["/modal/frequencies_hz"][:]
        tim = {k: float(v) for k, v in f["/timing"].attrs.items() if k != "units"}
    lv = logview_times(p.stdout)
    orth = sum(v for k, v in lv.items() if k.startswith("BVOrthogonalize"))
    return dict(code="dynred", size=size, ndof=ndof, nmodes=nmodes, np=np_, wall=wall, rss=rss, rss_total=rss * np_,
                fact=lv.get("MatCholFctrNum", 0) + lv.get("MatCholFctrSym", 0), solve=lv.get("MatSolve", 0), orth=orth,
                eig=tim.get("eigensolve", 0), gen=tim.get("model", 0), f1=freqs[0], flast=freqs[-1])


def run_ccx(size, nmodes, workdir):
    nx, ny, nz = SIZES[size]
    job = os.path.join(workdir, f"ccx_{size}_{nmodes}")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts/ccx_plate.py"), job, "1.0", "0.5", "0.02",
                    str(nx), str(ny), str(nz), "210e9", "0.3", "7850", str(nmodes)], check=True)
    # a wrapper process of its own, so ru_maxrss is CalculiX's alone
    wrap = ("import resource, subprocess, sys, time; t = time.time(); r = subprocess.run(sys.argv[1:], "
            "stdout=subprocess.DEVNULL).returncode; print(time.time() - t, "
            "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0, r)")
    p = subprocess.run(["/usr/bin/python3", "-c", wrap, "ccx", "-i", os.path.basename(job)], cwd=workdir,
                       env=dict(ENV, OMP_NUM_THREADS="1"), capture_output=True, text=True)
    wall, rss, rc = p.stdout.split()
    wall, rss = float(wall), float(rss)
    if int(rc):
        sys.exit(f"ccx failed on {job}: {p.stdout[-2000:]}")
    fr = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts/ccx_freqs.py"), job + ".dat"],
                        capture_output=True, text=True, check=True).stdout.split()
    ndof = 3 * ((nx + 1) * (ny + 1) * (nz + 1) - (ny + 1) * (nz + 1))
    return dict(code="ccx", size=size, ndof=ndof, nmodes=nmodes, np=1, wall=wall, rss=rss,
                rss_total=rss, fact=float("nan"), solve=float("nan"), orth=float("nan"), eig=float("nan"),
                gen=float("nan"), f1=float(fr[0]), flast=float(fr[-1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="50k,200k,1M")
    ap.add_argument("--modes", default="20,200")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--ccx-max", default="200k", help="largest size CalculiX is run on ('none' to skip)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/modal.md"))
    ap.add_argument("--workdir", default="/tmp/dynred-bench")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    order = list(SIZES)
    ccx_max = order.index(a.ccx_max) if a.ccx_max in order else -1
    rows = []
    hdr = ("| code | DOFs | modes | ranks | wall [s] | eigensolve [s] | factorization [s] | solves [s] | orthog. [s] "
           "| peak RSS/rank [MiB] | RSS total [MiB] | f1 [Hz] | f_last [Hz] |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(hdr, flush=True)
    for size in a.sizes.split(","):
        for nm in map(int, a.modes.split(",")):
            for np_ in map(int, a.ranks.split(",")):
                r = run_dynred(size, nm, np_, a.workdir)
                rows.append(r)
                print(fmt(r), flush=True)
            if order.index(size) <= ccx_max:
                r = run_ccx(size, nm, a.workdir)
                rows.append(r)
                print(fmt(r), flush=True)
    with open(a.out, "w") as f:
        f.write(f"Command: `{' '.join(['bench/modal_bench.py'] + sys.argv[1:])}` on {os.uname().nodename}, "
                f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}\n\n{hdr}\n")
        f.write("\n".join(fmt(r) for r in rows) + "\n")


def fmt(r):
    def n(x, p=2):
        return "-" if x != x else f"{x:.{p}f}"
    return (f"| {r['code']} | {r['ndof']} | {r['nmodes']} | {r['np']} | {n(r['wall'], 1)} | {n(r['eig'], 1)} | {n(r['fact'], 1)} "
            f"| {n(r['solve'], 1)} | {n(r['orth'], 1)} | {n(r['rss'], 0)} | {n(r['rss_total'], 0)} | {r['f1']:.5f} | {r['flast']:.3f} |")


if __name__ == "__main__":
    main()
