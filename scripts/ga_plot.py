#!/usr/bin/python3
"""Plot the Pareto front of a `dynred ga` result: r (masters) vs e.

usage: /usr/bin/python3 scripts/ga_plot.py OUT.h5 [OUT.png]

The figure is scripts/dynred_plot.py's `pareto` (one mechanism for every
result figure); this keeps the older command line: the PNG name defaults to
OUT_front.png.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dynred_plot  # noqa: E402

if len(sys.argv) < 2:
    sys.exit(__doc__)
src = sys.argv[1]
png = sys.argv[2] if len(sys.argv) > 2 else src.rsplit('.h5', 1)[0] + '_front.png'
try:
    dynred_plot.plot(src, ['pareto'], single=png)
except dynred_plot.PlotError as e:
    print('ga_plot: error: %s' % e, file=sys.stderr)
    sys.exit(2)
