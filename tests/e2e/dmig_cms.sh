#!/usr/bin/env bash
# CMS on two DMIG components (format dmig) that share GRID 103 (its six
# components are the interface) and carry scalar points of their own (SPOINT
# 50 in a, 99 and 150 in b, on springs to GRID DOFs): a chain of 6 GRIDs with
# full 12 x 12 couplings between neighbours (translations and rotations mix),
# written by the independent writer tests/e2e/dmig_ref.py, component a in
# free field (17 digits), b in large field with IFO=1.  With every interior
# mode kept Craig-Bampton is exact, so the 20 lowest CMS frequencies equal
# scipy.linalg.eigh of the assembled written matrices (a + b by label, the
# scalar points S.0 being DOFs of their own) to 1e-10 relative (cms_exact_chain's
# bound: the reduced pencil is the full one in another basis, solved by
# LAPACK/SLEPc; measured 2e-15); on 1 and 2 ranks.
set -euo pipefail
cd "$T"
PYTHONPATH=$ROOT/tests/e2e /usr/bin/python3 - <<'PY'
import numpy as np, scipy.linalg as la
from dmig_ref import write_dmig
rng = np.random.default_rng(5)
chain = [101, 102, 103, 104, 105, 106]
parts = {"a": ([101, 102, 103], [50]), "b": ([103, 104, 105, 106], [150, 99])}
pts = [(g, c) for g in chain for c in range(1, 7)] + [(s, 0) for s in (50, 99, 150)]
idx = {p: i for i, p in enumerate(pts)}
n = len(pts)
scale = np.array([1e6, 1e6, 1e6, 1e4, 1e4, 1e4])
full = {"K": np.zeros((n, n)), "M": np.zeros((n, n))}
own = {"a": {"K": np.zeros((n, n)), "M": np.zeros((n, n))}, "b": {"K": np.zeros((n, n)), "M": np.zeros((n, n))}}
def part_of(x, y):
    return "a" if max(x, y) <= 103 else "b"
for x, y in zip(chain[:-1], chain[1:]):
    d = [idx[(x, c)] for c in range(1, 7)] + [idx[(y, c)] for c in range(1, 7)]
    s = np.sqrt(np.concatenate([scale, scale]))
    R = rng.standard_normal((12, 6)) * s[:, None]
    Rm = rng.standard_normal((12, 3)) * np.sqrt(np.concatenate([[1, 1, 1, .01, .01, .01]] * 2))[:, None]
    own[part_of(x, y)]["K"][np.ix_(d, d)] += R @ R.T / 6
    own[part_of(x, y)]["M"][np.ix_(d, d)] += 0.02 * Rm @ Rm.T
for g in chain:
    for c in range(1, 7):
        i = idx[(g, c)]
        for p in (["a", "b"] if g == 103 else [part_of(g, g)]):   # GRID 103: half in each
            w = 0.5 if g == 103 else 1.0
            own[p]["K"][i, i] += w * (3 if g == 101 else 0.3) * scale[c - 1]
            own[p]["M"][i, i] += w * (1.5 if c <= 3 else 0.015)
for s, (g, c), p in ((50, (102, 2), "a"), (150, (104, 3), "b"), (99, (106, 5), "b")):
    i, j, k = idx[(s, 0)], idx[(g, c)], 5e5 * (1 + rng.random())
    K = own[p]["K"]
    K[i, i] += k + 2e5; K[j, j] += k; K[i, j] -= k; K[j, i] -= k
    own[p]["M"][i, i] += 0.5 + rng.random()
written = {}
for p, form, ifo in (("a", "free", 6), ("b", "large", 1)):
    grids, sps = parts[p]
    sel = [idx[(g, c)] for g in grids for c in range(1, 7)] + [idx[(s, 0)] for s in sps]
    K = own[p]["K"][np.ix_(sel, sel)]; M = own[p]["M"][np.ix_(sel, sel)]
    K = (K + K.T) / 2; M = (M + M.T) / 2
    Wk, Wm = write_dmig(f"{p}.dat", [("KAAX", K), ("MAAX", M)], [pts[i] for i in sel], form, ifo)
    full["K"][np.ix_(sel, sel)] += Wk
    full["M"][np.ix_(sel, sel)] += Wm
f = np.sqrt(la.eigh(full["K"], full["M"], eigvals_only=True)) / (2 * np.pi)
np.save("fref.npy", f)
PY
cat > cms.yaml <<EOF
job: cms
output: cms.h5
components:
  - {name: a, format: dmig, path: a.dat}
  - {name: b, format: dmig, path: b.dat}
cms: {nmodes: 20, component_modes: 100}
EOF
timeout 300 $DYNRED -config cms.yaml -output np1.h5 > np1.log
timeout 300 $MPIEXEC -n 2 $DYNRED -config cms.yaml -output np2.h5 > np2.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
fref = np.load("fref.npy")[:20]
for name in ("np1", "np2"):
    with h5py.File(name + ".h5", "r") as h:
        f = h["/cms/frequencies_hz"][:]
        bl = [tuple(int(x) for x in l) for l in h["/cms/reduced/boundary_labels"][:]]
    assert bl == [(103, c) for c in range(1, 7)], bl          # the interface: GRID 103 only
    err = (np.abs(f[:20] - fref) / fref).max()
    assert len(f) >= 20 and err <= 1e-10, (name, f[:20], fref, err)   # tol: see the header
    print(f"{name}: interface {bl[0][0]}.1-6, 20 CMS frequencies = eigh of the assembled DMIG matrices to {err:.1e}")
PY
echo ok
