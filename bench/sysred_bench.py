#!/usr/bin/python3
"""Balanced truncation of CMS state spaces: dense (SLICOT) vs low-rank
(SLEPc LME) Gramians (issue 14, benchmark).

For each size N (states) the chain of the README builds a CMS state space of
N/2 modes: a clamped steel beam (built-in frame3d, 6 DOF per node) cut into
--parts parts, Craig-Bampton with enough component modes that the reduced
model has more than N/2 DOFs, N/2 system modes (`dynred cms`), then
`dynred ss` with modal damping --zeta, one force input (tip, y) and two
outputs (tip y, middle z).  `dynred sysred` balances and truncates it to
--order states, once with sysred.gramians dense (SLICOT, O(N^3) time, O(N^2)
memory) and once lowrank (low-rank factors: SLEPc LME Krylov, else low-rank
ADI with one MUMPS factorization per shift).  Reported per run: wall
time of the sysred process, its peak resident memory (wait4 ru_maxrss), the
sysred time dynred logs, and for the low-rank row the largest relative
difference of the leading --order Hankel values from the dense ones (or the
error line), and which low-rank solver made the factors (lightly damped
wide-band spectra defeat SLEPc's Krylov LME; ADI takes over, see
tests/e2e/sysred_lowrank_cms.sh).  The frequency response of the full
and the reduced model on sysred's default 200-point grid (the full model's
block-diagonal modal form is solved block by block, src/sysred/blocks.c)
gives the H-infinity error on the grid beside the a-priori bound.

    /usr/bin/python3 bench/sysred_bench.py [--sizes 400,4000,20000] [--order 20]
        [--zeta 0.05] [--parts 4] [--dense-max 4000] [--solver auto] [--keep DIR]

prints a markdown table and writes bench/results/sysred_bench.md.  The 4000
and 20000 cases take long (the CMS eigensolves and the dense O(N^3) path;
20000 dense states need about 10 N^2 * 8 B = 32 GB: rows above --dense-max
are skipped and marked so).  With --keep DIR a size whose DIR/N/ss.h5
exists is not rebuilt (the model build is reported as 0 then).
--gramians dense,lowrank selects the paths.  --source modal replaces the CMS chain by the
synthetic modal state space of tests/data/sysred/modal_gen.py (omega in
[--wlo, --whi] rad/s, zeta --zeta), a spectrum the Krylov solve resolves, to
time the low-rank path where the CMS spectrum defeats it.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DYNRED = os.path.join(ROOT, "bin", "dynred")


def run(cmd, cwd, check=True):
    """Run cmd; return (rc, stdout+stderr, wall s, peak RSS MiB) of the child."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    rc = os.waitstatus_to_exitcode(status)
    p.returncode = rc
    if check and rc:
        sys.exit(f"failed ({rc}): {' '.join(cmd)}\n{out}")
    return rc, out, wall, ru.ru_maxrss / 1024.0


def build(n_states, a, tmp):
    k = n_states // 2
    cm = math.ceil(1.25 * k / a.parts) + 10          # component modes per part
    nel = max(60, math.ceil((cm + 20) / 6) * a.parts)  # DOFs per part > component modes
    cms = f"""job: cms
output: cms.h5
model:
  builtin: frame3d
  frame3d: {{lx: {0.01 * nel:.4g}, nx: 1, ny: 0, nz: 0, nel: {nel}, clamp: x0}}
  cut: {{axis: x, parts: {a.parts}}}
cms: {{method: craig-bampton, nmodes: {k}, component_modes: {cm}}}
verify: false
"""
    open(os.path.join(tmp, "cms.yaml"), "w").write(cms)
    _, _, tc, mc = run([DYNRED, "-config", "cms.yaml"], tmp)
    with h5py.File(os.path.join(tmp, "cms.h5")) as f:
        lab = f["/cms/labels"][:]
    nodes = sorted(set(int(x) for x in lab[:, 0]))
    tip, mid = nodes[-1], nodes[len(nodes) // 2]
    ss = f"""job: ss
output: ss.h5
ss:
  source: cms.h5
  inputs: [{tip}.2]
  outputs: [{tip}.2, {mid}.3]
  nmodes: {k}
  damping: {{type: modal, zeta: [{a.zeta}]}}
"""
    open(os.path.join(tmp, "ss.yaml"), "w").write(ss)
    run([DYNRED, "-config", "ss.yaml"], tmp)
    with h5py.File(os.path.join(tmp, "ss.h5")) as f:
        n = f["/ss/A"].shape[0]
        fr = f["/ss/frequencies_hz"][:]
    return n, fr, tc, mc


def build_modal(n_states, a, tmp):
    """--source modal: the modal state space of tests/data/sysred/modal_gen.py
    (the layout dynred ss writes; omega log-spaced in [--wlo, --whi] rad/s)"""
    k = n_states // 2
    t0 = time.perf_counter()
    subprocess.run([sys.executable, os.path.join(ROOT, "tests", "data", "sysred", "modal_gen.py"), "ss.h5", str(k), str(a.wlo), str(a.whi), str(a.zeta)], cwd=tmp, check=True)
    w = np.logspace(np.log10(a.wlo), np.log10(a.whi), k) / (2 * np.pi)
    return 2 * k, w, time.perf_counter() - t0, 0


def reduce(gram, a, tmp):
    """one sysred run; returns (hsv, wall, rss, solver, error)"""
    y = f"""job: sysred
output: sr_{gram}.h5
sysred:
  source: ss.h5
  method: bt
  order: {a.order}
  gramians: {gram}
  lowrank: {{solver: {a.solver}}}
"""
    open(os.path.join(tmp, f"sr_{gram}.yaml"), "w").write(y)
    rc, out, wall, rss = run([DYNRED, "-config", f"sr_{gram}.yaml"], tmp, check=False)
    if rc:
        err = next((l for l in out.splitlines() if "error" in l), out.strip().splitlines()[-1] if out.strip() else "?")
        err = re.sub(r"^dynred: error: [^:]*: /ss: ", "", err)
        return None, wall, rss, None, err, None
    with h5py.File(os.path.join(tmp, f"sr_{gram}.h5")) as f:
        hsv = f["/sysred/hsv"][:]
        hinf, bound = f["/sysred/frf"].attrs["hinf_error"], f["/sysred/error_bound" if "/sysred/error_bound" in f else "/sysred/error_estimate"][()]
        how = f["/sysred"].attrs.get("lowrank_solver", "")
    how = how.decode() if isinstance(how, bytes) else how
    m = re.search(r"low-rank ADI \((\d+) shifts.*?; (\d+) \+ (\d+) shift applications", how)
    how = f"ADI, {m.group(1)} shifts, {m.group(2)}+{m.group(3)} its" if m else ("Krylov" if how.startswith("SLEPc") else "-")
    return hsv, wall, rss, how, None, (float(hinf), float(np.ravel(bound)[0]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="400,4000,20000")
    ap.add_argument("--order", type=int, default=20)
    ap.add_argument("--zeta", type=float, default=0.05)
    ap.add_argument("--parts", type=int, default=4)
    ap.add_argument("--source", default="cms", choices=["cms", "modal"], help="cms: the CMS chain; modal: a synthetic modal state space (modal_gen.py)")
    ap.add_argument("--wlo", type=float, default=1.0, help="modal: lowest omega [rad/s]")
    ap.add_argument("--whi", type=float, default=10.0, help="modal: highest omega [rad/s]")
    ap.add_argument("--dense-max", type=int, default=4000)
    ap.add_argument("--keep", default="")
    ap.add_argument("--gramians", default="dense,lowrank")
    ap.add_argument("--solver", default="auto", choices=["auto", "krylov", "adi"], help="sysred.lowrank.solver (auto: SLEPc LME, ADI where it fails)")
    ap.add_argument("--name", default="sysred_bench.md", help="the table's file name under --out")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    a = ap.parse_args()
    rows = ["| states | modes [Hz] | model build [s] | Gramians | low-rank solver | sysred wall [s] | peak RSS [MiB] | leading HSV | rel. diff. of the leading %d HSV vs dense | H-inf error on the grid / bound (low-rank: estimate) |" % a.order,
            "|---|---|---|---|---|---|---|---|---|---|"]
    for n_states in (int(s) for s in a.sizes.split(",")):
        tmp = a.keep and os.path.join(a.keep, str(n_states)) or tempfile.mkdtemp(prefix=f"sysred_bench.{n_states}.")
        os.makedirs(tmp, exist_ok=True)
        t0 = time.perf_counter()
        if a.keep and os.path.exists(os.path.join(tmp, "ss.h5")):
            with h5py.File(os.path.join(tmp, "ss.h5")) as f:
                n = f["/ss/A"].shape[0]
                fr = f["/ss/frequencies_hz"][:] if "frequencies_hz" in f["/ss"] else np.array([np.nan, np.nan])
        else:
            n, fr, _, _ = (build if a.source == "cms" else build_modal)(n_states, a, tmp)
        tb = time.perf_counter() - t0
        band = f"{fr[0]:.3g}..{fr[-1]:.3g}"
        hd = None
        for gram in a.gramians.split(","):
            if gram == "dense" and n > a.dense_max:
                rows.append(f"| {n} | {band} | {tb:.1f} | dense | - | skipped (> --dense-max {a.dense_max}) | - | - | - | - |")
                continue
            hsv, wall, rss, how, err, hb = reduce(gram, a, tmp)
            if err:
                rows.append(f"| {n} | {band} | {tb:.1f} | {gram} | - | {wall:.2f} (failed) | {rss:.0f} | {err[:90]} | - | - |")
                continue
            if gram == "dense":
                hd = hsv
            diff = "-" if gram == "dense" or hd is None else f"{np.abs(hsv[:a.order] - hd[:a.order]).max() / hd[0]:.1e}"
            rows.append(f"| {n} | {band} | {tb:.1f} | {gram} | {how} | {wall:.2f} | {rss:.0f} | {hsv[0]:.4g} | {diff} | {hb[0]:.4g} / {hb[1]:.4g} |")
        print(rows[-1], file=sys.stderr, flush=True)
    table = "\n".join(rows)
    print(table)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, a.name), "w") as f:
        f.write(f"<!-- bench/sysred_bench.py --source {a.source} --sizes {a.sizes} --order {a.order} --zeta {a.zeta} --parts {a.parts} --wlo {a.wlo} --whi {a.whi} --gramians {a.gramians} --solver {a.solver} --dense-max {a.dense_max}; load {os.getloadavg()[0]:.1f} at the end -->\n")
        f.write(table + "\n")


if __name__ == "__main__":
    main()
