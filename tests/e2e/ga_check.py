#!/usr/bin/python3
"""Checks of `dynred ga` outputs against independent references (numpy/scipy).

  ga_check.py front OUT.h5 [--ndof N --ncand N --b N --method guyan|idc]
      the front is non-dominated, sorted, feasible, contains the
      forced-masters-only solution, and its reduced matrices (/ga/solutions)
      reproduce e (scipy eigh); model counts match.  With --method, the
      first point (forced masters only) is recomputed by the independent
      numpy condensation of 'exhaustive' from /ga/model/{K,M}: its e, and
      the eigenvalues of its K_R, M_R.
  ga_check.py same A.h5 B.h5 ...    identical fronts (r, e, masters)
  ga_check.py identical A.h5 B.h5
      every dataset and attribute under /ga bit for bit equal (except the
      run times and the layout: attributes seconds, evaluations_per_s,
      farm_groups and the group /ga/timing): a before/after check of a
      change that must not change results, or of another rank count.
  ga_check.py exhaustive OUT.h5 METHOD
      every master set (forced + any subset of the candidates) condensed by
      an independent numpy implementation (guyan: T = [I; -K_ss^-1 K_sm];
      idc: one step beyond R0, the subspace span(Q^2 E_m), Q = K^-1 M);
      its exact Pareto front equals the GA's (masters, r; e to 1e-9).

Every numeric check is written so that NaN fails it (`not x <= tol`, never
`x > tol`: a comparison with NaN is false), and a non-finite e on a front
fails by itself; exit status 1 on any failure.
"""
import sys, itertools
import numpy as np, scipy.linalg as sl, h5py

def front_of(f):
    g = f['/ga/pareto']
    r, e = list(g['r'][:]), list(g['e'][:])
    bad = [k + 1 for k, x in enumerate(e) if not np.isfinite(x)]
    if bad: fail('%s: front points %s have a non-finite e' % (f.filename, bad))
    return (r, e, [m.decode() for m in g['masters'][:]])

def fail(msg):
    print('FAIL', msg); sys.exit(1)

def e_of(K, M, ms, lamf, b, method):
    n = K.shape[0]; s = [i for i in range(n) if i not in ms]
    if method == 'guyan':
        T = np.zeros((n, len(ms))); T[ms, :] = np.eye(len(ms))
        T[s, :] = -np.linalg.solve(K[np.ix_(s, s)], K[np.ix_(s, ms)])
    else:
        E = np.zeros((n, len(ms))); E[ms, :] = np.eye(len(ms))
        Q = np.linalg.solve(K, M)
        T, _ = np.linalg.qr(Q @ E); T, _ = np.linalg.qr(Q @ T)
    w = sl.eigh(T.T @ K @ T, T.T @ M @ T, eigvals_only=True)
    return float(np.sum((np.sqrt(w[:b]) - np.sqrt(lamf[:b])) / np.sqrt(lamf[:b])))

def names(lab):
    # the project's one label notation, node.direction (as DRLabelString)
    return ['%d.%d' % (n, d) for n, d in lab]

cmd = sys.argv[1]
if cmd == 'front':
    f = h5py.File(sys.argv[2], 'r')
    a = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    ga = f['/ga']
    for key, attr in (('--ndof', 'ndof'), ('--ncand', 'n_candidates'), ('--b', 'b'), ('--nforced', 'n_forced')):
        if key in a and int(ga.attrs[attr]) != int(a[key]):
            fail('%s = %d, expected %s' % (attr, ga.attrs[attr], a[key]))
    r, e, m = front_of(f)
    if not r: fail('empty front')
    for i in range(len(r)):
        for j in range(len(r)):
            if i != j and r[j] <= r[i] and e[j] <= e[i] and (r[j] < r[i] or e[j] < e[i]):
                fail('front point %d (r %d, e %g) is dominated by %d (r %d, e %g)' % (i, r[i], e[i], j, r[j], e[j]))
        if not e[i] < 1e29: fail('infeasible point on the front')
    forced = set(ga.attrs['forced_masters'].decode().split() if isinstance(ga.attrs['forced_masters'], bytes) else ga.attrs['forced_masters'].split())
    if set(m[0].split()) != forced or r[0] != len(forced):
        fail('first front point %s is not the forced masters %s' % (m[0], sorted(forced)))
    K = f['/ga/model/K'][:]; M = f['/ga/model/M'][:]
    if not (np.all(np.isfinite(K)) and np.all(np.isfinite(M))): fail('/ga/model/K or M holds non-finite values')
    lamf = np.sort(sl.eigh(K, M, eigvals_only=True)); b = int(ga.attrs['b'])
    fhz = f['/ga/full_frequencies_hz'][:b]
    tu = float(ga.attrs['time_unit_s'])
    # tol: lumped (diagonal) M, so Cholesky is a diagonal scaling and each solver's eigenvalues carry ~u lambda_max absolute:
    # u lambda_max / lambda_1 = 5e-10 relative (lambda_max / lambda_1 = 2.2e6 for this frame), 2.5e-10 on f, per solver
    if not np.max(np.abs(np.sqrt(lamf[:b]) / (2 * np.pi * tu) - fhz) / fhz) <= 1e-9: fail('full frequencies differ from scipy (or are not finite): %s' % fhz)
    for k in range(len(r)):
        sg = f['/ga/solutions/%03d' % (k + 1)]
        if not (np.all(np.isfinite(sg['K'][:])) and np.all(np.isfinite(sg['M'][:]))): fail('solution %d: K_R or M_R holds non-finite values' % (k + 1))
        w = sl.eigh(sg['K'][:], sg['M'][:], eigvals_only=True)
        ek = float(np.sum((np.sqrt(w[:b]) - np.sqrt(lamf[:b])) / np.sqrt(lamf[:b])))
        # tol: e sums b = 5 relative frequency errors, each carrying the full frequencies' 2.5e-10 (above) and the reduced ones'
        # (kappa(M_R) u, kappa(M_R) = 36 for the first point): ~1.3e-9 absolute; 1e-7 is looser than needed (left)
        if not abs(ek - e[k]) <= 1e-7 * max(1.0, abs(e[k])) + 1e-9: fail('solution %d: e from its K_R, M_R = %.12g, front says %.12g' % (k + 1, ek, e[k]))
        if [s.decode() for s in sg['labels'][:]] != m[k].split(): fail('solution %d labels differ from the front' % (k + 1))
        dt = 2 / np.sqrt(w[-1]) * tu
        # tol: 2/omega_max from the largest eigenvalue of the same pencil: kappa(M_R) u relative; 1e-6 is looser (left)
        if not abs(dt - sg.attrs['dt_critical_s']) <= 1e-6 * dt: fail('solution %d: dt_critical %g, expected 2/omega_max = %g' % (k + 1, sg.attrs['dt_critical_s'], dt))
    if '--method' in a:
        lab = names(f['/ga/model/labels'][:]); forced_rows = sorted(f['/ga/model/forced_rows'][:])
        if set(lab[i] for i in forced_rows) != forced: fail('forced_rows %s are not the forced masters %s' % ([lab[i] for i in forced_rows], sorted(forced)))
        e0 = e_of(K, M, list(forced_rows), lamf, b, a['--method'])
        # tol: e sums b = 5 relative frequency errors; each side's carry
        # ~2.5e-10 (u lambda_max / lambda_1 / 2 with lumped M, see above)
        # plus the condensation's kappa(K_ss) u: ~1.3e-9 per side, 1e-8 both
        if not abs(e0 - e[0]) <= 1e-8 * max(1.0, abs(e[0])): fail('first point: e %.12g (GA) vs %.12g (numpy %s)' % (e[0], e0, a['--method']))
        print('ok: first point (forced masters) e = %.10g = independent numpy %s %.10g' % (e[0], a['--method'], e0))
    print('ok: %d front points, non-dominated, forced-only first (r %d, e %.4g); e and dt_cr reproduced from /ga/solutions' % (len(r), r[0], e[0]))
elif cmd == 'same':
    ref = front_of(h5py.File(sys.argv[2], 'r'))
    for p in sys.argv[3:]:
        got = front_of(h5py.File(p, 'r'))
        if got != ref: fail('front of %s differs from %s:\n%s\n%s' % (p, sys.argv[2], got, ref))
    print('ok: identical fronts (%d points) in %s' % (len(ref[0]), ' '.join(sys.argv[2:])))
elif cmd == 'identical':
    A, B = h5py.File(sys.argv[2], 'r')['/ga'], h5py.File(sys.argv[3], 'r')['/ga']
    timing = {'seconds', 'evaluations_per_s', 'farm_groups'}
    diffs, nd = [], [0]
    def attrs_same(name, x, y):
        for k in set(x.attrs) | set(y.attrs):
            if k in timing: continue
            if k not in x.attrs or k not in y.attrs or not np.array_equal(np.asarray(x.attrs[k]), np.asarray(y.attrs[k])):
                diffs.append('%s attribute %s' % (name or '/ga', k))
    def visit(name, x):
        if name == 'timing' or name.startswith('timing/'): return
        y = B.get(name)
        if y is None or type(y) is not type(x): diffs.append(name + ' missing or of another kind'); return
        if isinstance(x, h5py.Dataset):
            nd[0] += 1
            if x.shape != y.shape or not np.array_equal(x[()], y[()]): diffs.append(name)
        attrs_same(name, x, y)
    attrs_same('', A, B)
    A.visititems(visit)
    B.visititems(lambda name, y: None if name in A or name.split('/')[0] == 'timing' else diffs.append(name + ' only in ' + sys.argv[3]))
    if diffs: fail('%s and %s differ under /ga: %s' % (sys.argv[2], sys.argv[3], ', '.join(diffs[:20])))
    print('ok: %d datasets and their attributes under /ga identical (front of %d points)' % (nd[0], len(A['pareto/r'])))
elif cmd == 'exhaustive':
    f = h5py.File(sys.argv[2], 'r'); method = sys.argv[3]
    K = f['/ga/model/K'][:]; M = f['/ga/model/M'][:]; lab = names(f['/ga/model/labels'][:])
    if not (np.all(np.isfinite(K)) and np.all(np.isfinite(M))): fail('/ga/model/K or M holds non-finite values')
    cand = list(f['/ga/model/candidate_rows'][:]); forced = list(f['/ga/model/forced_rows'][:])
    b = int(f['/ga'].attrs['b'])
    lamf = np.sort(sl.eigh(K, M, eigvals_only=True))
    pts = []
    for k in range(len(cand) + 1):
        for add in itertools.combinations(cand, k):
            ms = sorted(forced + list(add))
            pts.append((len(ms), e_of(K, M, ms, lamf, b, method), ' '.join(lab[i] for i in ms)))
    # tol: e of two master sets counts as tied within 1e-9 relative: e itself carries ~1.3e-9 absolute (see 'front'); ties are rare
    nd = [p for p in pts if not any(q[0] <= p[0] and q[1] <= p[1] - 1e-9 * max(1, abs(p[1])) or (q[0] < p[0] and q[1] <= p[1] + 1e-9 * max(1, abs(p[1]))) for q in pts)]
    nd.sort()
    r, e, m = front_of(f)
    print('exhaustive: %d master sets, front %s' % (len(pts), [(p[0], '%.6g' % p[1]) for p in nd]))
    print('GA front: %s' % [(ri, '%.6g' % ei) for ri, ei in zip(r, e)])
    if [p[0] for p in nd] != r: fail('front r differ')
    for p, ei, mi in zip(nd, e, m):
        # tol: e carries ~1.3e-9 absolute from each side's eigenvalues (see 'front'): 1e-8 covers both
        if not abs(p[1] - ei) <= 1e-8 * max(1, abs(ei)): fail('r %d: e %.12g (GA) vs %.12g (exhaustive)' % (p[0], ei, p[1]))
        if set(p[2].split()) != set(mi.split()): fail('r %d: masters %s (GA) vs %s (exhaustive)' % (p[0], mi, p[2]))
    print('ok: GA front = exhaustive front over all %d subsets of %d candidates (%s)' % (len(pts), len(cand), method))
else:
    fail('unknown command ' + cmd)
