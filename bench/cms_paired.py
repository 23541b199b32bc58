#!/usr/bin/python3
"""CMS against the `dynred modal` job in adjacent pairs (issue 13, the
1/3 target), and optionally against another build's CMS job.

  bench/cms_paired.py [--case ccxbar50k] [--modes 200] [--fmax 27263.1569] [--ranks 2]
                      [--pairs 5] [--other /path/to/old/bin/dynred] [--write-modes] [--out FILE.md] [--workdir /tmp/cb]

On a shared machine whose speed drifts by 10-15 % within minutes, one CMS
job and one modal job minutes apart give ratios anywhere in 0.3-0.4 for the
same build.  So the jobs run in turn, CMS, modal[, other CMS], CMS, modal,
..., after one unmeasured round, each timed as a whole process (wall clock
from start to exit, what a user waits for), and the ratio is taken pair by
pair (adjacent runs see about the same machine): printed per round, then
the median and range.  Beside the wall ratio, the solve ratio of
bench/cms_bench.py from the jobs' /timing: the CMS time (/timing/cms_total:
model, reduction, coupled solve, recovery) over the modal job's model +
eigensolve; neither counts start-up or the writing of results.  The CMS job is the benchmark's (bench/cms_bench.py:
default settings, fmax = f_N * 1.0001, no checkpoint, no verification);
the modal job is `dynred modal` for N modes without writing the modes (as
cms_bench.py runs it).  Neither writes its modes (cms.write_modes false,
modal.write_modes false; --write-modes: both do, as with default settings:
188 MB of modes and ParaView shapes for the CMS job on the CalculiX bar).
A build older than cms.write_modes (--other) ignores the option with a
warning and writes its modes.
"""
import argparse
import os

import h5py
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cms_bench  # noqa: E402  (the decks and the environment of the benchmark)


def timed(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=cms_bench.ENV, capture_output=True, text=True)
    t = time.perf_counter() - t0
    if p.returncode:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", default="ccxbar50k", choices=sorted(cms_bench.CCX))
    ap.add_argument("--modes", type=int, default=200)
    ap.add_argument("--fmax", type=float, default=27263.1569, help="f_N of the case (the N-th frequency of the full model)")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--other", default="", help="another dynred binary whose CMS job runs in each round too (before/after a change)")
    ap.add_argument("--workdir", default="/tmp/dynred-bench")
    ap.add_argument("--out", default="", help="also write the table to this file (markdown)")
    ap.add_argument("--write-modes", action="store_true", help="every job writes its modes and ParaView shapes (both jobs with default output settings)")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    model, _ = cms_bench.ccx_case(a.case, a.workdir)
    mine = os.path.join(cms_bench.ROOT, "bin/dynred")
    mpi = ["mpiexec", "--oversubscribe", "-n", str(a.ranks)]

    def cms(binary, tag):
        return mpi + [binary, "cms"] + model + ["-cms_fmax", f"{a.fmax * 1.0001:.9g}", "-verify", "false", "-cms_checkpoint", "none",
                                                "-cms_write_modes", "false" if not a.write_modes else "true",
                                                "-output", os.path.join(a.workdir, f"paired_{tag}.h5")]
    modal = mpi + [mine, "modal"] + model + ["-modal_nmodes", str(a.modes), "-modal_write_modes", "true" if a.write_modes else "false",
                                             "-output", os.path.join(a.workdir, "paired_modal.h5")]
    jobs = [("cms", cms(mine, "cms")), ("modal", modal)] + ([("other", cms(a.other, "other"))] if a.other else [])
    out = []

    def emit(line):  # printed at once, and kept for --out
        print(line, flush=True)
        out.append(line)
    emit(f"{a.case}, {a.modes} modes, {a.ranks} ranks, {a.pairs} rounds after one unmeasured; wall seconds per job; modes written: {'yes' if a.write_modes else 'no'}")
    def solve_ratio():
        with h5py.File(os.path.join(a.workdir, "paired_cms.h5")) as f, h5py.File(os.path.join(a.workdir, "paired_modal.h5")) as g:
            tm = g["/timing"].attrs
            return float(f["/timing"].attrs["cms_total"]) / (float(tm["model"]) + float(tm["eigensolve"]))
    emit("| round | " + " | ".join(n for n, _ in jobs) + " | cms / modal (wall) | CMS / full (solve) |" + (" cms / other |" if a.other else ""))
    emit("|---" * (len(jobs) + 3 + (1 if a.other else 0)) + "|")
    for _, c in jobs:
        timed(c)
    rows = []
    for k in range(a.pairs):
        t = {n: timed(c) for n, c in jobs}
        t["solve"] = solve_ratio()
        rows.append(t)
        emit(f"| {k + 1} | " + " | ".join(f"{t[n]:.2f}" for n, _ in jobs) + f" | {t['cms'] / t['modal']:.3f} | {t['solve']:.3f} |"
             + (f" {t['cms'] / t['other']:.3f} |" if a.other else ""))

    def stat(f):
        v = [f(t) for t in rows]
        return f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})"
    emit(f"| median (range) | " + " | ".join(stat(lambda t, n=n: t[n]) for n, _ in jobs) + f" | {stat(lambda t: t['cms'] / t['modal'])} | {stat(lambda t: t['solve'])} |"
         + (f" {stat(lambda t: t['cms'] / t['other'])} |" if a.other else ""))
    if a.out:
        with open(a.out + ".tmp", "w") as f:
            f.write("Command: `bench/cms_paired.py " + " ".join(sys.argv[1:]) + "`\n\n" + "\n".join(out) + "\n")
        os.rename(a.out + ".tmp", a.out)


if __name__ == "__main__":
    main()
