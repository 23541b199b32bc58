#!/usr/bin/python3
"""Error map of a dynred pmor result (as the seed's Fig. 4): eps_rel of the
interpolated ROM over load position p and frequency, with the supports
marked, and the support ROMs' own error beside it.

  pmor_plot.py RESULT.h5 [OUT.png]      (default RESULT_frf.png)
"""
import sys

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    res = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else res.rsplit(".", 1)[0] + "_frf.png"
    g = h5py.File(res, "r")["/pmor"]
    at = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in g.attrs.items()}
    p, om, err = g["frf/p"][:], g["frf/omega"][:], g["frf/error"][:]
    ps, serr = g["supports/p"][:], g["frf/support_error"][:]
    f = om / (2 * np.pi)
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [3, 1]})
    im = ax[0].pcolormesh(p, f, np.log10(np.maximum(err.T, 1e-16)), shading="nearest", cmap="viridis")
    for x in ps:
        ax[0].axvline(x, color="w", lw=0.5, alpha=0.6)
    ax[0].set_xlabel(f"load position p ({at.get('parameter', 'index')})")
    ax[0].set_ylabel("frequency [Hz]")
    ax[0].set_title(f"log10 eps_rel, interpolated ROM ({at['method']}, {at['weights']})")
    fig.colorbar(im, ax=ax[0])
    for s in range(len(ps)):
        ax[1].semilogx(np.maximum(serr[s], 1e-16), f, lw=0.7)
    ax[1].set_xlabel("eps_rel, support ROMs")
    ax[1].set_title(f"{len(ps)} supports, n = {at['n']}")
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
