#!/usr/bin/python3
"""Error map of a dynred pmor result (as the seed's Fig. 4): eps_rel of the
interpolated ROM over load position p and frequency, with the supports
marked, and the support ROMs' own error beside it.  The figure is
scripts/dynred_plot.py's "frf" figure of a pmor result; this is a shortcut
with the old command line.

  pmor_plot.py RESULT.h5 [OUT.png]      (default RESULT_frf.png)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dynred_plot  # noqa: E402


def main():
    if len(sys.argv) < 2:
        print("usage: pmor_plot.py RESULT.h5 [OUT.png]", file=sys.stderr)
        return 2
    res = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else res.rsplit(".", 1)[0] + "_frf.png"
    try:
        dynred_plot.plot(res, what=["frf"], single=out)
    except dynred_plot.PlotError as e:
        print("pmor_plot: error: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
