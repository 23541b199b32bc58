#!/usr/bin/python3
"""Plot the Pareto front of a `dynred ga` result: r (masters) vs e.

usage: /usr/bin/python3 scripts/ga_plot.py OUT.h5 [OUT.png]
"""
import sys
import h5py
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

src = sys.argv[1]
png = sys.argv[2] if len(sys.argv) > 2 else src.rsplit('.h5', 1)[0] + '_front.png'
with h5py.File(src, 'r') as f:
    r = f['/ga/pareto/r'][:]
    e = f['/ga/pareto/e'][:]
    m = [s.decode() for s in f['/ga/pareto/masters'][:]]
    a = f['/ga'].attrs
    title = 'dynred ga: %s condensation, b = %d, %d generations, %d evaluations' % (
        a['method'].decode() if isinstance(a['method'], bytes) else a['method'], a['b'], a['generations'], a['evaluations'])
fig, ax = plt.subplots(figsize=(8, 5))
ax.semilogy(r, [max(x, 1e-12) for x in e], 'o-', color='C0')
for ri, ei, mi in list(zip(r, e, m))[:6]:
    ax.annotate(mi if len(mi) < 40 else mi[:37] + '...', (ri, max(ei, 1e-12)), fontsize=7, xytext=(4, 4), textcoords='offset points')
ax.set_xlabel('r (number of master DOFs)')
ax.set_ylabel('e = sum (omega_hR - omega_h) / omega_h, h <= b')
ax.set_title(title, fontsize=9)
ax.grid(True, which='both', alpha=0.3)
fig.tight_layout()
fig.savefig(png, dpi=120)
print('wrote', png)
