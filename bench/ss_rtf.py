#!/usr/bin/python3
"""Real-time factor of dynred's fixed-step integrators (issue 7, seed 000 style).

Source: bench/ss/frame_cms.yaml (Craig-Bampton CMS of a clamped steel space
frame, every mode below 32 Hz).  For each band fmax = 5, 10, ..., 30 Hz the
state-space model keeps the modes below fmax (`dynred ss -ss_fmax F`), one
force input (top corner, x) and three outputs; 2 % modal damping; the seed
000 trapezoidal profile compressed in time (rise 0.1 s, hold 0.2 s, fall
0.1 s) as input; h = 1e-4 s over 0.5 s; every method run `--repeat` times
(25) in the same process, wall time averaged.  RTF = wall time / simulated
time (< 1: faster than real time).  Accuracy: max |y - y_exact| / max |y_exact|
over all outputs and steps, against exact stepping of each 2x2 block.

    /usr/bin/python3 bench/ss_rtf.py [--repeat 25] [--t-end 0.5]

writes bench/results/ss_rtf.md and bench/results/ss_rtf.png.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DYNRED = os.path.join(ROOT, "bin", "dynred")
METHODS = ["exact", "zoh", "newmark", "central", "rk3bs", "rk4", "rk5dp", "rk8vr", "beuler", "cn", "theta", "alpha2"]
BANDS = [5, 10, 15, 20, 25, 30]


def run(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stdout}\n{r.stderr}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=25)
    ap.add_argument("--t-end", type=float, default=0.5)
    ap.add_argument("--h", type=float, default=1e-4)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ss_rtf.")
    run([DYNRED, "-config", os.path.join(ROOT, "bench", "ss", "frame_cms.yaml"), "-output", os.path.join(tmp, "frame_cms.h5")], tmp)
    with h5py.File(os.path.join(tmp, "frame_cms.h5")) as f:
        lab = f["/cms/labels"][:]
        fr = f["/cms/frequencies_hz"][:]
    top = lab[:, 0].max()  # highest node id: a node of the top storey
    mid = sorted(set(lab[:, 0]))[len(set(lab[:, 0])) // 2]
    yaml = f"""job: ss
output: ss.h5
ss:
  source: frame_cms.h5
  inputs: [{top}.1]
  outputs: [{top}.1, {top}.2, {mid}.1]
  damping: {{type: modal, zeta: [0.02]}}
  mtx: false
  sim: {{methods: "{','.join(METHODS)}", h: {a.h}, t_end: {a.t_end}, repeat: {a.repeat}, reference: exact, write_y: false}}
  input: {{signal: trapezoid, amplitude: 1000, t_rise: 0.1, t_hold: 0.2, t_fall: 0.1}}
"""
    open(os.path.join(tmp, "ss.yaml"), "w").write(yaml)
    rtf, err, nm = {}, {}, {}
    for b in BANDS:
        out = os.path.join(tmp, f"ss_{b}.h5")
        run([DYNRED, "-config", "ss.yaml", "-ss_fmax", str(b), "-output", out], tmp)
        with h5py.File(out) as f:
            nm[b] = int(f["/ss"].attrs["n_modes"])
            for m in METHODS:
                g = f[f"/ss/sim/{m}"]
                rtf[m, b] = float(g.attrs["real_time_factor"])
                err[m, b] = float(g.attrs["max_rel_error"])
        print(f"band {b} Hz: {nm[b]} modes", flush=True)
    os.makedirs(a.out, exist_ok=True)
    hdr = "| method | " + " | ".join(f"{b} Hz ({nm[b]} modes)" for b in BANDS) + " |\n|---|" + "---|" * len(BANDS) + "\n"
    lines = [f"Model: bench/ss/frame_cms.yaml (CMS of a clamped space frame, {len(fr)} modes below 32 Hz, {lab.shape[0]} DOFs); "
             f"input {top}.1, outputs {top}.1 {top}.2 {mid}.1 (displacement + velocity); 2 % modal damping; "
             f"trapezoid input (0.1 s rise, 0.2 s hold, 0.1 s fall); h = {a.h:g} s, {a.t_end:g} s simulated, "
             f"mean of {a.repeat} runs per method in one process.\n",
             "### Real-time factor (wall time / simulated time)\n", hdr]
    for m in METHODS:
        lines.append(f"| {m} | " + " | ".join(f"{rtf[m, b]:.2e}" for b in BANDS) + " |\n")
    lines += ["\n### Accuracy: max |y - y_exact| / max |y_exact|\n", hdr]
    for m in METHODS:
        lines.append(f"| {m} | " + " | ".join(f"{err[m, b]:.1e}" for b in BANDS) + " |\n")
    md = "".join(lines)
    open(os.path.join(a.out, "ss_rtf.md"), "w").write(md)
    print(md)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
        cmap = plt.get_cmap("tab20")
        for i, m in enumerate(METHODS):
            st = dict(color=cmap(i), marker="osd^v<>ph*XP"[i % 12], label=m)
            ax[0].semilogy(BANDS, [rtf[m, b] for b in BANDS], "-", **st)
            if m != "exact":
                ax[1].semilogy(BANDS, [max(err[m, b], 1e-17) for b in BANDS], "-", **st)
        ax[0].set_xlabel("model band [Hz]"); ax[0].set_ylabel("real-time factor"); ax[0].set_title(f"h = {a.h:g} s, mean of {a.repeat} runs")
        ax[1].set_xlabel("model band [Hz]"); ax[1].set_ylabel("max rel. error vs exact")
        ax[0].legend(fontsize=7, ncol=2); ax[1].legend(fontsize=7, ncol=2)
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, "ss_rtf.png"), dpi=110)
    except ImportError:
        print("matplotlib missing: no plot")


if __name__ == "__main__":
    main()
