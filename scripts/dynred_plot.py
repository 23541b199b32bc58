#!/usr/bin/python3
"""Figures of a dynred result file (any job: modal, cms, gmp, ga, ss, sysred, pmor).

usage: /usr/bin/python3 scripts/dynred_plot.py RESULT.h5 [--what LIST] [--out DIR] [--list]

Draws every figure that applies to the file (or those named in --what, a
comma list) as RESULT_NAME.png next to the result (or in --out DIR), each
written to a temporary name and renamed.  --list prints the figures and
what each one needs.  Headless (matplotlib Agg); only numpy, h5py and
matplotlib.  A file that is not a dynred result, or a figure asked for that
the file has no data for, gives one line "dynred_plot: error: ..." and exit
status 2.

Figures:
  mac          MAC matrix of the reduced vs the full modes (/verify/mac)
  freq_error   frequency error per mode and per band (/verify/freq_error_pct,
               /verify/bands, /cms/error_estimate_pct)
  mode_count   number of modes below f, full vs reduced (every frequency list)
  components   CMS component sizes per rank group; a Gantt chart of the
               component work when per-component start/end times are stored
               (/cms/components/NAME attributes t_start_s, t_end_s)
  timing       seconds per phase (/timing)
  gmp_eig      GMP eigenfrequencies over the grid, veering intervals marked
  pareto       GA Pareto front r vs e (and the hypervolume per generation)
  frf          FRF magnitude and error (sysred: full vs reduced; ss: the
               exported model; pmor: the (p, omega) error map)
  sim          ss time simulation: outputs per integrator and their error
  hankel       Hankel singular values with the kept order and error bound
"""
import argparse
import os
import sys

import numpy as np
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator, NullFormatter  # noqa: E402


class PlotError(Exception):
    pass


def txt(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def units(f):
    """The file's unit system (root attributes of model.units; SI when absent)."""
    a = f.attrs
    return {k: txt(a.get('units_' + k, d)) for k, d in
            (('force', 'N'), ('length', 'm'), ('time', 's'), ('mass', 'kg'))}


def freq_unit(f, path=''):
    """Hz where the writer converted (ga, ss, pmor, sysred) or the model's time
    unit is s; else cycles per model time unit (modal, cms, gmp compute
    sqrt(lambda) / 2 pi in the model's time unit)."""
    t = units(f)['time']
    return 'Hz' if t == 's' or path.startswith(('/ga', '/ss', '/pmor', '/sysred')) else '1/' + t


def has(f, *paths):
    return all(p in f for p in paths)


def ds(f, path):
    return f[path][()]


# ---------------------------------------------------------------- figures
def fig_mac(f, name):
    mac = ds(f, '/verify/mac')  # [n_full, n_reduced]
    nf, nr = mac.shape
    fig, ax = plt.subplots(figsize=(1.6 + 0.32 * min(max(nr, 6), 40), 1.2 + 0.28 * min(max(nf, 6), 40)))
    im = ax.imshow(mac, vmin=0, vmax=1, cmap='viridis', origin='upper', aspect='auto',
                   extent=(0.5, nr + 0.5, nf + 0.5, 0.5))
    if '/verify/pairing' in f:
        pr = ds(f, '/verify/pairing')
        ax.plot(np.arange(1, nr + 1), pr, 'r+', ms=6, label='pairing (largest MAC)')
        ax.legend(loc='lower left', fontsize=7)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel('reduced mode (%s)' % txt(f.attrs['job']))
    ax.set_ylabel('full-model mode')
    ax.set_title('MAC, reduced vs full', fontsize=9)
    fig.colorbar(im, ax=ax, label='MAC')
    return fig


def fig_freq_error(f, name):
    err = ds(f, '/verify/freq_error_pct')
    bands = '/verify/bands/lower_hz' in f
    fig, axs = plt.subplots(1, 2 if bands else 1, figsize=(11 if bands else 6.5, 4.2), squeeze=False)
    ax = axs[0, 0]
    k = np.arange(1, len(err) + 1)
    tiny = 1e-9  # floor of the log axis: an exact frequency would have no bar
    ax.bar(k, np.maximum(np.abs(err), tiny), color='C0', label='|f_red - f_full| / f_full (MAC pair)')
    if '/verify/true_error_pct' in f:
        ax.plot(k, np.maximum(np.abs(ds(f, '/verify/true_error_pct')), tiny), 'k.', label='true error (k-th vs k-th)')
    if '/cms/error_estimate_pct' in f:
        est = ds(f, '/cms/error_estimate_pct')
        ax.plot(k[np.isfinite(est)], est[np.isfinite(est)], 'rv', ms=5, label='error estimate')
    ax.set_yscale('log')
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel('mode')
    ax.set_ylabel('frequency error [%]')
    ax.set_title('per mode: max %.3g %%' % np.nanmax(np.abs(err)) if len(err) else 'no modes', fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, alpha=0.3)
    if bands:
        lo, hi = ds(f, '/verify/bands/lower_hz'), ds(f, '/verify/bands/upper_hz')
        mx, mn = ds(f, '/verify/bands/max_error_pct'), ds(f, '/verify/bands/mean_error_pct')
        nm = ds(f, '/verify/bands/n_modes')
        ax = axs[0, 1]
        w = hi - lo
        ax.bar(lo, np.maximum(np.nan_to_num(mx), tiny), width=w, align='edge', color='C1', alpha=0.6, edgecolor='k',
               label='max')
        ax.bar(lo, np.maximum(np.nan_to_num(mn), tiny), width=w, align='edge', color='C2', alpha=0.8, edgecolor='k',
               label='mean')
        ax.set_yscale('log')
        for a, b, n in zip(lo, w, nm):
            ax.annotate('%d' % n, (a + b / 2, tiny), xytext=(0, 2), textcoords='offset points', ha='center', fontsize=7)
        ax.set_xlabel('band of the full-model frequency [%s] (numbers: modes in the band)' % freq_unit(f, '/verify'))
        ax.set_ylabel('|frequency error| [%]')
        ax.set_title('per band', fontsize=9)
        ax.legend(fontsize=7)
        ax.grid(True, alpha=0.3)
    fig.suptitle('frequency error', fontsize=10)
    return fig


def freq_sets(f):
    """(label, frequencies, is_reference) for every frequency list of the file."""
    out = []
    if '/verify/full_frequencies_hz' in f:
        out.append(('full model (verify)', ds(f, '/verify/full_frequencies_hz'), True))
    if '/modal/frequencies_hz' in f:
        out.append(('full model (modal)', ds(f, '/modal/frequencies_hz'), True))
    if '/ga/full_frequencies_hz' in f:
        out.append(('full model', ds(f, '/ga/full_frequencies_hz'), True))
    for p, lab in (('/cms/frequencies_hz', 'CMS reduced'), ('/ss/frequencies_hz', 'state space'),
                   ('/gmp/export/frequencies_hz', 'GMP export point')):
        if p in f:
            out.append((lab, ds(f, p), False))
    if '/ga/solutions' in f:
        sols = sorted(f['/ga/solutions'].keys())
        for s in sols[:6]:
            g = f['/ga/solutions/' + s]
            out.append(('GA solution %s (r = %d)' % (s, g.attrs['r']), g['frequencies_hz'][()], False))
    return [(a, np.sort(np.asarray(b, float)), c) for a, b, c in out if np.size(b)]


def fig_mode_count(f, name):
    sets = freq_sets(f)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, (lab, fr, ref) in enumerate(sets):
        n = np.arange(1, len(fr) + 1)
        ax.step(np.concatenate(([0.0], fr)), np.concatenate(([0], n)), where='post',
                lw=2.5 if ref else 1.4, color='C%d' % i, ls='-' if ref else '--', label=lab)
    fmax = f['/cms'].attrs.get('fmax_hz', 0) if '/cms' in f else 0
    if fmax:
        ax.axvline(fmax, color='grey', ls=':', label='fmax')
    fu = sorted({freq_unit(f, p) for p in ('/ga', '/modal', '/cms') if p in f} or {freq_unit(f, '/ss')})
    ax.set_xlabel('frequency f [%s]' % ', '.join(fu))
    ax.set_ylabel('number of modes below f')
    ax.set_title('mode count, full vs reduced', fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, alpha=0.3)
    return fig


def fig_components(f, name):
    g = f['/cms/components']
    names = list(g.keys())
    at = [g[n].attrs for n in names]
    grp = np.array([int(a['rank_group']) for a in at])
    order = np.lexsort((np.arange(len(names)), grp))
    names = [names[i] for i in order]
    at = [at[i] for i in order]
    grp = grp[order]
    nb = np.array([int(a['n_boundary']) for a in at])
    ni = np.array([int(a['n_interior']) for a in at])
    nq = np.array([int(a['n_modes']) for a in at])
    gantt = all('t_start_s' in a and 't_end_s' in a for a in at)
    fig, axs = plt.subplots(1, 2, figsize=(13, 2.6 + 0.4 * max(len(names), 5)), squeeze=False)
    ax = axs[0, 0]
    y = np.arange(len(names))
    ax.barh(y - 0.2, ni, height=0.4, color='C0', label='interior DOFs')
    ax.barh(y - 0.2, nb, left=ni, height=0.4, color='C3', label='boundary DOFs')
    ax.barh(y + 0.2, nq, left=nb, height=0.4, color='C2', label='kept modes (reduced: boundary + modes)')
    ax.barh(y + 0.2, nb, height=0.4, color='C3', alpha=0.5)
    ax.set_yticks(y)
    ax.set_yticklabels(['%s [g%d, %s]' % (n, gi, txt(a['method'])) for n, gi, a in zip(names, grp, at)], fontsize=7)
    ax.invert_yaxis()
    if max(ni.max(initial=1) + nb.max(initial=1), 1) > 100 * max(nb.min(initial=1) + nq.min(initial=1), 1):
        ax.set_xscale('log')
    ax.set_xlabel('size (DOFs)')
    ax.set_title('components by rank group (g = rank group)', fontsize=9)
    ax.legend(fontsize=7)
    ax = axs[0, 1]
    if gantt:  # the schedule, when the writer stores it
        t0 = np.array([float(a['t_start_s']) for a in at])
        t1 = np.array([float(a['t_end_s']) for a in at])
        for gi in np.unique(grp):
            s = grp == gi
            ax.barh(y[s], (t1 - t0)[s], left=t0[s], color='C%d' % (gi % 10), edgecolor='k', label='group %d' % gi)
        ax.set_yticks(y)
        ax.set_yticklabels(names, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel('wall time since the start of the CMS job [s]')
        ax.set_title('component work per rank group (Gantt)', fontsize=9)
        ax.legend(fontsize=7)
    else:  # what is stored: the phase totals, in pipeline order
        timing_bars(ax, f, cms_order=True)
        ax.set_title('CMS phases (/timing; the component phases are the maximum over the rank\n'
                     'groups: no per-component start/end times are stored, so no Gantt)', fontsize=8)
    ax.grid(True, axis='x', alpha=0.3)
    fig.suptitle('CMS job: %d components on %d rank group(s), %d rank(s)'
                 % (len(names), len(np.unique(grp)), int(f.attrs.get('nranks', 0))), fontsize=10)
    return fig


CMS_PHASES = ['model', 'component_eigensolve', 'constraint_modes', 'projection', 'gather', 'assembly',
              'interface_reduction', 'coupled_solve', 'recovery', 'error_estimate', 'verify']


def timing_bars(ax, f, cms_order=False):
    a = f['/timing'].attrs
    keys = timing_keys(f)
    if cms_order:
        keys = [k for k in CMS_PHASES if k in keys] + [k for k in keys if k not in CMS_PHASES]
    sec = np.array([float(a[k]) for k in keys])
    left = np.concatenate(([0.0], np.cumsum(sec)[:-1])) if cms_order else np.zeros(len(keys))
    y = np.arange(len(keys))
    ax.barh(y, sec, left=left, color=['C%d' % (i % 10) for i in range(len(keys))], edgecolor='k')
    ax.set_yticks(y)
    ax.set_yticklabels(keys, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel('seconds' + (' (phases laid end to end)' if cms_order else ''))


def fig_timing(f, name):
    a = f['/timing'].attrs
    fig, ax = plt.subplots(figsize=(7, max(3.5, 1.5 + 0.3 * len(a.keys()))))
    timing_bars(ax, f)
    ax.grid(True, axis='x', alpha=0.3)
    rss = a.get('peak_rss_mib_per_rank')
    ax.set_title('%s job, %d rank(s): seconds per phase%s' % (
        txt(f.attrs['job']), int(f.attrs.get('nranks', 0)),
        '; peak RSS %.0f MiB per rank' % rss if rss is not None else ''), fontsize=9)
    return fig


def fig_gmp_eig(f, name):
    th = ds(f, '/gmp/grid/theta')
    lam = ds(f, '/gmp/grid/lambda')
    th = th.reshape(len(th), -1)
    nrig = int(f['/gmp'].attrs.get('n_rigid', 0))
    fr = np.sqrt(np.clip(lam[:, nrig:], 0, None)) / (2 * np.pi)
    veer = ds(f, '/gmp/track/veering') if '/gmp/track/veering' in f else np.zeros(len(th), int)
    x = th[:, 0]
    # points that share the other axes form one curve along theta1 (theta1
    # runs fastest in the grid), up to 8 curves
    rest = [tuple(r) for r in np.round(th[:, 1:], 12)]
    keys = list(dict.fromkeys(rest))
    ver = '/gmp/verify/theta' in f
    fig, axs = plt.subplots(2 if ver else 1, 1, figsize=(8, 8.5 if ver else 5), squeeze=False)
    ax = axs[0, 0]
    for ci, key in enumerate(keys[:8]):
        s = np.array([r == key for r in rest])
        lab = '' if not key else ' (' + ', '.join('theta%d = %.3g' % (j + 2, v) for j, v in enumerate(key)) + ')'
        for m in range(fr.shape[1]):
            ax.plot(x[s], fr[s, m], '.-', color='C%d' % (m % 10), alpha=1.0 if ci == 0 else 0.45,
                    label=('mode %d' % (m + 1) + lab) if (ci == 0 and fr.shape[1] <= 10) else None)
        # an interval (predecessor -> point) whose neighbour MAC fell below mac_warn
        for i in np.nonzero(s & (veer != 0))[0]:
            j = np.nonzero(s[:i])[0]
            if len(j):
                ax.axvspan(x[j[-1]], x[i], color='red', alpha=0.12, lw=0)
            ax.plot([x[i]] * fr.shape[1], fr[i], 'rx', ms=7)
    warn = f['/gmp/track'].attrs.get('mac_warn', None) if '/gmp/track' in f else None
    ax.plot([], [], 'rs', alpha=0.3, label='veering: neighbour MAC < %s' % ('%.2g' % warn if warn is not None else 'mac_warn'))
    ax.set_xlabel('theta1 [rad]')
    ax.set_ylabel('frequency [Hz]')
    ax.set_title('GMP (%s): eigenfrequencies of the reduced model over the grid, %d rigid mode(s) left out%s'
                 % (txt(f['/gmp'].attrs.get('mechanism', '?')), nrig,
                    '' if len(keys) <= 8 else '; first 8 of %d theta2.. slices' % len(keys)), fontsize=8)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, alpha=0.3)
    if ver:  # interpolation between grid points against exact ROMs at fine points
        ax = axs[1, 0]
        vt = ds(f, '/gmp/verify/theta')
        vt = vt.reshape(len(vt), -1)
        s = np.all(np.isclose(vt[:, 1:], vt[0, 1:]), axis=1)  # the first slice along theta1
        for i, m in enumerate(k for k in f['/gmp/verify'].keys() if 'eig_error' in f['/gmp/verify/' + k]):
            e = ds(f, '/gmp/verify/%s/eig_error' % m)
            ax.semilogy(vt[s, 0], np.maximum(e[s], 1e-17), 'o-', color='C%d' % i, label=m)
        for xi in np.unique(x):
            ax.axvline(xi, color='grey', lw=0.5, ls=':')
        ax.set_xlabel('theta1 [rad] (dotted: grid points)')
        ax.set_ylabel('eigenvalue error of the interpolated ROM')
        ax.legend(fontsize=7)
        ax.grid(True, which='both', alpha=0.3)
    return fig


def fig_pareto(f, name):
    r = ds(f, '/ga/pareto/r')
    e = ds(f, '/ga/pareto/e')
    m = [txt(s) for s in ds(f, '/ga/pareto/masters')]
    a = f['/ga'].attrs
    hv = '/ga/history/hypervolume' in f
    fig, axs = plt.subplots(1, 2 if hv else 1, figsize=(12 if hv else 8, 5), squeeze=False,
                            gridspec_kw={'width_ratios': [2, 1]} if hv else None)
    ax = axs[0, 0]
    ax.semilogy(r, np.maximum(e, 1e-12), 'o-', color='C0')
    for ri, ei, mi in list(zip(r, e, m))[:6]:
        ax.annotate(mi if len(mi) < 40 else mi[:37] + '...', (ri, max(ei, 1e-12)), fontsize=7,
                    xytext=(4, 4), textcoords='offset points')
    ax.set_xlabel('r (number of master DOFs)')
    ax.set_ylabel('e = sum (omega_hR - omega_h) / omega_h, h <= b')
    ax.set_title('dynred ga: %s condensation, b = %d, %d generations, %d evaluations'
                 % (txt(a['method']), a['b'], a['generations'], a['evaluations']), fontsize=9)
    ax.grid(True, which='both', alpha=0.3)
    if hv:
        h = ds(f, '/ga/history/hypervolume')
        axs[0, 1].plot(np.arange(len(h)), h, 'o-', color='C2')
        axs[0, 1].xaxis.set_major_locator(MaxNLocator(integer=True))
        axs[0, 1].set_xlabel('generation')
        axs[0, 1].set_ylabel('hypervolume of front 0')
        axs[0, 1].grid(True, alpha=0.3)
    return fig


def frf_of(A, B, C, D, w):
    n = A.shape[0]
    return np.array([C @ np.linalg.solve(1j * x * np.eye(n) - A, B) + D for x in w])


def smax(G):
    return np.array([np.linalg.svd(g, compute_uv=False)[0] if g.size else 0.0 for g in G])


def fig_frf(f, name):
    if '/sysred/frf/omega' in f:
        w = ds(f, '/sysred/frf/omega')
        ny, nu = ds(f, '/sysred/C').shape[0], ds(f, '/sysred/B').shape[1]
        Gf, Gr = (ds(f, '/sysred/frf/' + k) for k in ('full', 'reduced'))
        Gf = (Gf[..., 0] + 1j * Gf[..., 1]).reshape(len(w), ny, nu)
        Gr = (Gr[..., 0] + 1j * Gr[..., 1]).reshape(len(w), ny, nu)
        fig, axs = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
        axs[0].loglog(w, smax(Gf), 'k-', lw=2, label='full (n = %d)' % f['/sysred'].attrs['n_full'])
        axs[0].loglog(w, smax(Gr), 'C1--', label='reduced (r = %d)' % f['/sysred'].attrs['order'])
        axs[0].set_ylabel('sigma_max G(i omega)')
        axs[0].legend(fontsize=7)
        axs[1].loglog(w, np.maximum(smax(Gf - Gr), 1e-300), 'C3-', label='sigma_max (G - G_r)')
        # dense Gramians: the bound 2 sum sigma_i; low-rank: the same sum over
        # the resolved Hankel values, an estimate
        for key, what in (('/sysred/error_bound', 'error bound'), ('/sysred/error_estimate', 'error estimate (low-rank, not a bound)')):
            if key in f:
                b = float(ds(f, key).ravel()[0])
                if np.isfinite(b) and b > 0:
                    axs[1].axhline(b, color='k', ls=':', label='%s %.3g' % (what, b))
        axs[1].set_ylabel('error')
        axs[1].set_xlabel('omega [rad/s]')
        axs[1].legend(fontsize=7)
        for ax in axs:
            ax.grid(True, which='both', alpha=0.3)
        fig.suptitle('sysred (%s): frequency response' % txt(f['/sysred'].attrs['method']), fontsize=10)
        return fig
    if '/pmor/frf/error' in f:
        p, w, err = (ds(f, '/pmor/frf/' + k) for k in ('p', 'omega', 'error'))
        p, w = np.ravel(p), np.ravel(w)
        if err.shape != (len(p), len(w)):
            raise PlotError('/pmor/frf/error is %s, expected [len(p), len(omega)] = [%d, %d]'
                            % (list(err.shape), len(p), len(w)))
        hz = txt(f['/pmor/frf/omega'].attrs.get('units', b'rad/s')) != 'Hz'
        fr = w / (2 * np.pi) if hz else w
        sup = '/pmor/frf/support_error' in f and '/pmor/supports/p' in f
        fig, axs = plt.subplots(1, 2 if sup else 1, figsize=(11 if sup else 8, 4.8), squeeze=False,
                                gridspec_kw={'width_ratios': [3, 1]} if sup else None)
        ax = axs[0, 0]
        im = ax.pcolormesh(p, fr, np.log10(np.maximum(np.abs(err.T), 1e-16)), shading='nearest', cmap='viridis')
        fig.colorbar(im, ax=ax, label='log10 eps_rel = ||H - H_r||_F / ||H||_F')
        if '/pmor/supports/p' in f:
            for x in np.ravel(ds(f, '/pmor/supports/p')):
                ax.axvline(x, color='w', lw=0.6, alpha=0.7)
        ax.set_xlabel('load position p (white: supports)' if '/pmor/supports/p' in f else 'load position p')
        ax.set_ylabel('frequency [Hz]')
        a = {k: txt(f['/pmor'].attrs[k]) for k in ('method', 'weights', 'interpolation') if k in f['/pmor'].attrs}
        ax.set_title('pmor: FRF error of the interpolated ROM' + (' (%s)' % ', '.join(a.values()) if a else ''), fontsize=9)
        if sup:
            serr = ds(f, '/pmor/frf/support_error')
            for k in range(serr.shape[0]):
                axs[0, 1].semilogx(np.maximum(serr[k], 1e-16), fr, lw=0.8)
            axs[0, 1].xaxis.set_minor_formatter(NullFormatter())
            axs[0, 1].set_xlabel('eps_rel of the support ROMs')
            if 'n' in f['/pmor'].attrs:
                axs[0, 1].set_title('%d supports, n = %d' % (serr.shape[0], int(f['/pmor'].attrs['n'])), fontsize=9)
            axs[0, 1].set_ylim(axs[0, 0].get_ylim())
            axs[0, 1].grid(True, which='both', alpha=0.3)
        return fig
    # ss: the exported state space, displacement outputs (rows 0, 2, 4, ... of C)
    A, B, C, D = (ds(f, '/ss/' + k) for k in 'ABCD')
    fr = ds(f, '/ss/frequencies_hz') if '/ss/frequencies_hz' in f else np.array([1.0])
    fr = fr[fr > 0] if np.any(fr > 0) else np.array([1.0])
    w = 2 * np.pi * np.logspace(np.log10(fr.min() / 5), np.log10(fr.max() * 3), 600)
    G = frf_of(A, B, C, D, w)
    outs = ds(f, '/ss/outputs') if '/ss/outputs' in f else None
    ins = ds(f, '/ss/inputs') if '/ss/inputs' in f else None
    fig, ax = plt.subplots(figsize=(8, 5))
    for i in range(0, C.shape[0], 2):
        for j in range(B.shape[1]):
            lo = '%d.%d' % tuple(outs[i // 2]) if outs is not None and i // 2 < len(outs) else str(i // 2)
            li = '%d.%d' % tuple(ins[j]) if ins is not None and j < len(ins) else str(j)
            ax.loglog(w / (2 * np.pi), np.maximum(np.abs(G[:, i, j]), 1e-300), label='out %s / in %s' % (lo, li))
    for x in fr:
        ax.axvline(x, color='grey', lw=0.5, ls=':')
    ax.set_xlabel('frequency [Hz] (dotted: modal frequencies)')
    u = units(f)
    ax.set_ylabel('|displacement / force| [%s/%s]' % (u['length'], u['force']))
    ax.set_title('ss: FRF magnitude of the exported model (%s damping)' % txt(f['/ss'].attrs.get('damping', '?')),
                 fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, which='both', alpha=0.3)
    return fig


def fig_sim(f, name):
    g = f['/ss/sim']
    t = g['t'][()]
    ref = txt(g.attrs.get('reference', b'exact'))
    meths = [k for k in g.keys() if isinstance(g[k], type(g)) and 'y' in g[k]]
    yr = g[ref]['y'][()] if ref in meths else g['y'][()]
    fig, axs = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for i, m in enumerate(meths):
        y = g[m]['y'][()]
        axs[0].plot(t, y[:, 0], '-' if m == ref else '--', color='C%d' % i, label=m)
        if m != ref:
            e = np.abs(y - yr).max(axis=1) / max(np.abs(yr).max(), 1e-300)
            axs[1].semilogy(t, np.maximum(e, 1e-17), color='C%d' % i,
                            label='%s (max %.3g)' % (m, g[m].attrs.get('max_rel_error', np.nan)))
    axs[0].set_ylabel('output 1 (first column of y) [%s]' % units(f)['length'])
    axs[0].legend(fontsize=7)
    axs[1].set_ylabel('max |y - y_%s| / max |y_%s|' % (ref, ref))
    axs[1].set_xlabel('t [s]')
    if axs[1].get_legend_handles_labels()[0]:
        axs[1].legend(fontsize=7)
    for ax in axs:
        ax.grid(True, alpha=0.3)
    fig.suptitle('ss: time simulation, step h = %g s' % g.attrs.get('h', np.nan), fontsize=10)
    return fig


def fig_hankel(f, name):
    s = ds(f, '/sysred/hsv')
    r = int(f['/sysred'].attrs.get('order', 0))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    k = np.arange(1, len(s) + 1)
    ax.semilogy(k[:r], np.maximum(s[:r], 1e-300), 'o', color='C0', label='kept (r = %d)' % r)
    ax.semilogy(k[r:], np.maximum(s[r:], 1e-300), 'o', color='C3', mfc='none', label='discarded')
    ax.axvline(r + 0.5, color='k', ls=':')
    if r < len(s):
        ax.annotate('2 sum of discarded = %.3g' % (2 * s[r:].sum()), (r + 0.6, s[r]), fontsize=7)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel('i')
    ax.set_ylabel('Hankel singular value sigma_i')
    ax.set_title('sysred (%s): Hankel singular values of the stable part (n = %d)'
                 % (txt(f['/sysred'].attrs['method']), len(s)), fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(True, which='both', alpha=0.3)
    return fig


# name -> (function, needs: every path, or any of a list of alternatives)
FIGS = {
    'mac':        (fig_mac, ['/verify/mac']),
    'freq_error': (fig_freq_error, ['/verify/freq_error_pct']),
    'mode_count': (fig_mode_count, [['/verify/full_frequencies_hz', '/modal/frequencies_hz', '/cms/frequencies_hz',
                                     '/ss/frequencies_hz', '/ga/full_frequencies_hz', '/gmp/export/frequencies_hz']]),
    'components': (fig_components, ['/cms/components']),
    'timing':     (fig_timing, ['/timing']),
    'gmp_eig':    (fig_gmp_eig, ['/gmp/grid/theta', '/gmp/grid/lambda']),
    'pareto':     (fig_pareto, ['/ga/pareto/r', '/ga/pareto/e']),
    'frf':        (fig_frf, [['/sysred/frf/omega', '/pmor/frf/error', '/ss/A']]),
    'sim':        (fig_sim, ['/ss/sim/t']),
    'hankel':     (fig_hankel, ['/sysred/hsv']),
}


def timing_keys(f):
    return [k for k in f['/timing'].attrs.keys() if k not in ('units', 'peak_rss_mib_per_rank', 'cms_total')]


def applies(f, needs):
    if needs == ['/timing']:  # a /timing group with at least one phase
        return '/timing' in f and len(timing_keys(f)) > 0
    return all(has(f, n) if isinstance(n, str) else any(has(f, m) for m in n) for n in needs)


def needs_text(needs):
    return ' and '.join(n if isinstance(n, str) else ' or '.join(n) for n in needs)


def open_result(path):
    import h5py
    if not os.path.isfile(path):
        raise PlotError('%s: no such file, expected a dynred result (.h5)' % path)
    try:
        f = h5py.File(path, 'r')
    except OSError as e:
        raise PlotError('%s: cannot open as HDF5 (%s), expected a dynred result' % (path, str(e).split(':')[0]))
    if 'dynred_version' not in f.attrs or 'job' not in f.attrs:
        f.close()
        raise PlotError('%s: not a dynred result (no dynred_version and job attributes on /), '
                        'expected an HDF5 file written by dynred' % path)
    return f


def save(fig, png):
    tmp = '%s.tmp.%d.png' % (png[:-4], os.getpid())
    try:
        fig.tight_layout()
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, png)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)


def plot(path, what=None, outdir=None, stem=None, single=None):
    """Draws the figures `what` (None: every one that applies) of result
    `path`; returns the PNG paths.  `single` names the output of a single
    figure instead of STEM_NAME.png."""
    f = open_result(path)
    try:
        names = what or [n for n, (_, needs) in FIGS.items() if applies(f, needs)]
        for n in names:
            if n not in FIGS:
                raise PlotError('--what %s: unknown figure, expected one of %s' % (n, ', '.join(FIGS)))
            if not applies(f, FIGS[n][1]):
                raise PlotError('%s: figure %s needs %s, not in this %s result'
                                % (path, n, needs_text(FIGS[n][1]), txt(f.attrs['job'])))
        if not names:
            raise PlotError('%s: nothing to draw in this %s result, expected one of: %s'
                            % (path, txt(f.attrs['job']), '; '.join(needs_text(v[1]) for v in FIGS.values())))
        outdir = outdir or os.path.dirname(os.path.abspath(path))
        stem = stem or os.path.basename(path).rsplit('.h5', 1)[0]
        written = []
        for n in names:
            try:
                fig = FIGS[n][0](f, n)
            except (KeyError, ValueError, IndexError) as e:
                raise PlotError('%s: figure %s: %s' % (path, n, e))
            png = single if (single and len(names) == 1) else os.path.join(outdir, '%s_%s.png' % (stem, n))
            save(fig, png)
            written.append(png)
            print('wrote', png)
        return written
    except PlotError as e:
        raise
    finally:
        f.close()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 epilog='figures: ' + ', '.join(FIGS))
    ap.add_argument('result', nargs='?')
    ap.add_argument('--what', help='comma list of figures (default: every one that applies)')
    ap.add_argument('--out', help='directory for the PNG files (default: next to the result)')
    ap.add_argument('--list', action='store_true', help='print the figures and what each needs')
    a = ap.parse_args(argv)
    if a.list:
        for n, (_, needs) in FIGS.items():
            print('%-11s needs %s' % (n, needs_text(needs)))
        return 0
    if not a.result:
        ap.error('RESULT.h5 is required')
    try:
        if a.out:
            if not os.path.isdir(a.out):
                raise PlotError('--out %s: not a directory, expected an existing directory' % a.out)
        plot(a.result, [w.strip() for w in a.what.split(',') if w.strip()] if a.what else None, a.out)
    except PlotError as e:
        print('dynred_plot: error: %s' % e, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
