#!/usr/bin/env bash
# dynred's DMIG component reader (components[].format dmig) on files written
# by the test's own writer (tests/e2e/dmig_ref.py, from the DMIG card
# description): a 39-DOF chain built here (6 GRIDs with all six components,
# coupled through full 12 x 12 blocks between neighbours, so translations
# and rotations mix; 3 scalar points on springs to GRID DOFs; a coupled mass
# matrix; ids out of order in the file, SPOINT ids between GRID ids) in five
# forms:
#   small  small field, IFO=6 upper triangle, component "0" for SPOINTs,
#          continuation ids in field 10, K4AX and a rectangular PAX (IFO=9)
#          in the file that are not read, GRID/SPOINT/PARAM cards around;
#   lower  small field, IFO=6 lower triangle, blank components for SPOINTs,
#          blank field 1 continuations, columns and terms shuffled, tabs;
#   large  large field (DMIG*, D exponents), IFO=6 with each pair from a
#          random triangle, BAAX read as D;
#   free   free field (comma separated), IFO=1 (square: both triangles),
#          the job's own names STIF, MASS;
#   chunk  the large file read on 3 ranks in chunks of 5 entries.
# Each read (test_readcomp -dump) gives the labels "G.C" (scalar points
# "S.0") sorted, and K, M (D) equal entry by entry to the matrices as
# written (the writer parses its own text back): exactly, since both sides
# convert the same decimal text with a correctly rounded conversion and
# every entry is set once.  `dynred modal` on each gives the frequencies of
# scipy.linalg.eigh on the same matrices to 1e-10 relative.
set -euo pipefail
cd "$T"
PYTHONPATH=$ROOT/tests/e2e /usr/bin/python3 - <<'PY'
import numpy as np, scipy.linalg as la
from dmig_ref import write_dmig
rng = np.random.default_rng(11)
grids = [103, 101, 106, 102, 105, 104]          # file order, not sorted
chain = sorted(grids)
spoints = [50, 150, 99]                         # between and around the GRID ids
pts = [(g, c) for g in grids for c in range(1, 7)] + [(s, 0) for s in spoints]
n = len(pts)
idx = {p: i for i, p in enumerate(pts)}
K = np.zeros((n, n)); M = np.zeros((n, n))
scale = np.array([1e6, 1e6, 1e6, 1e4, 1e4, 1e4])
for a, b in zip(chain[:-1], chain[1:]):          # full 12 x 12 coupling per link
    d = [idx[(a, c)] for c in range(1, 7)] + [idx[(b, c)] for c in range(1, 7)]
    s = np.sqrt(np.concatenate([scale, scale]))
    R = rng.standard_normal((12, 6)) * s[:, None]
    K[np.ix_(d, d)] += R @ R.T / 6
    Rm = rng.standard_normal((12, 3)) * np.sqrt(np.concatenate([[1, 1, 1, .01, .01, .01]] * 2))[:, None]
    M[np.ix_(d, d)] += 0.02 * Rm @ Rm.T
for g in grids:                                  # elastic support of every DOF, the
    for c in range(1, 7):                        # first node stiffer: K well conditioned,
        K[idx[(g, c)], idx[(g, c)]] += (3 if g == chain[0] else 0.3) * scale[c - 1]
for s in spoints:                                # so 5-digit small fields keep it definite
    K[idx[(s, 0)], idx[(s, 0)]] += 2e5
for s, (g, c) in zip(spoints, [(104, 2), (106, 3), (102, 5)]):   # scalar springs
    i, j, k = idx[(s, 0)], idx[(g, c)], 5e5 * (1 + rng.random())
    K[i, i] += k; K[j, j] += k; K[i, j] -= k; K[j, i] -= k
    M[i, i] += 0.5 + rng.random()
for g in grids:
    for c in range(1, 7):
        M[idx[(g, c)], idx[(g, c)]] += (1 + rng.random()) * (1 if c <= 3 else 0.01)
K = (K + K.T) / 2; M = (M + M.T) / 2
D = 0.5 * M + 1e-4 * K
K4 = 0.02 * K
extra = ["BEGIN BULK", "PARAM   POST    -1", "GRID         101       0      0.      0.      0.",
         "SPOINT        50     150      99",
         "DMIG    PAX            0       9       2       0                       1",
         "DMIG    PAX            1               101       1      1.     103       2      2."]
ws = {}
ws["small"] = write_dmig("small.dat", [("KAAX", K), ("MAAX", M), ("K4AX", K4)], pts, "small", 6, "upper", extra=extra)
ws["lower"] = write_dmig("lower.dat", [("KAAX", K), ("MAAX", M)], pts, "small", 6, "lower", spoint_blank=True, blank_f1=True, rng=rng)
ws["large"] = write_dmig("large.dat", [("KAAX", K), ("MAAX", M), ("BAAX", D)], pts, "large", 6, "mixed")
ws["free"] = write_dmig("free.dat", [("STIF", K), ("MASS", M)], pts, "free", 1)
# tabs: field 1 of the KAAX header written with a tab (columns 1-8 are field 1)
t = open("lower.dat").read().replace("DMIG        KAAX", "DMIG\t    KAAX", 1)
open("lower.dat", "w").write(t)
assert "\t" in open("lower.dat").read()
np.savez("written.npz", pts=np.array(pts), **{f"{k}_{i}": W for k, v in ws.items() for i, W in enumerate(v)})
PY
$MPIEXEC -n 2 $TBIN/test_readcomp dmig small.dat -n_ref 39 -dump small > small.log
$MPIEXEC -n 1 $TBIN/test_readcomp dmig lower.dat -n_ref 39 -dump lower > lower.log
$MPIEXEC -n 2 $TBIN/test_readcomp dmig large.dat -n_ref 39 -dump large > large.log
$MPIEXEC -n 2 $TBIN/test_readcomp dmig free.dat STIF MASS -n_ref 39 -dump free > free.log
$MPIEXEC -n 3 $TBIN/test_readcomp dmig large.dat -n_ref 39 -dr_io_chunk 5 -dump chunk > chunk.log
job() { # name file [extra component keys]
  printf 'job: modal\noutput: %s.h5\ncomponents:\n  - {name: c, format: dmig, path: %s%s}\nmodal: {nmodes: 12}\n' "$1" "$2" "${3:-}" > $1.yaml
  timeout 300 $DYNRED -config $1.yaml > $1_modal.log
}
job m_small small.dat
job m_lower lower.dat
job m_large large.dat
job m_free free.dat ", k_name: STIF, m_name: MASS"
/usr/bin/python3 - <<'PY'
import numpy as np, scipy.linalg as la, h5py

def petsc_bin(path):
    """PETSc binary AIJ (big-endian: classid, M, N, nz, row lengths, columns, values)."""
    b = open(path, "rb").read()
    it = ">i8" if np.frombuffer(b, ">i4", 2)[0] == 0 else ">i4"
    w = np.dtype(it).itemsize
    hdr = np.frombuffer(b, it, 4)
    m, n, nz = int(hdr[1]), int(hdr[2]), int(hdr[3])
    off = 4 * w
    rl = np.frombuffer(b, it, m, off); off += w * m
    cj = np.frombuffer(b, it, nz, off); off += w * nz
    v = np.frombuffer(b, ">f8", nz, off)
    A = np.zeros((m, n))
    A[np.repeat(np.arange(m), rl), cj] = v
    return A

z = np.load("written.npz")
pts = [tuple(p) for p in z["pts"]]
order = sorted(pts)                       # labels sorted by id, then component
p = np.array([pts.index(q) for q in order])
for name, src, mats in (("small", "small", "KM"), ("lower", "lower", "KM"), ("large", "large", "KMD"), ("free", "free", "KM"), ("chunk", "large", "KMD")):
    lab = [tuple(int(t) for t in l.split(".")) for l in open(name + ".dof").read().split()]
    assert lab == order, (name, lab[:8], order[:8])
    for k, m in enumerate(mats):
        A = petsc_bin(f"{name}_{m}.bin")
        W = z[f"{src}_{k}"][np.ix_(p, p)]
        # tol 0: the same decimal text through correctly rounded conversions
        # (Python float, C strtod), each entry set once: bit-identical
        assert np.array_equal(A, W), (name, m, np.abs(A - W).max())
    import os
    assert not os.path.exists(f"{name}_D.bin") or "D" in mats, name   # K4AX is not damping
    print(f"{name}: labels sorted (scalar points .0), {mats} bit-identical to the matrices written")
for name, src in (("m_small", "small"), ("m_lower", "lower"), ("m_large", "large"), ("m_free", "free")):
    K, M = z[f"{src}_0"], z[f"{src}_1"]
    fref = np.sqrt(la.eigh(K, M, eigvals_only=True)[:12]) / (2 * np.pi)
    f = h5py.File(name + ".h5", "r")["/modal/frequencies_hz"][:]
    err = np.abs(f - fref).max() / fref.max()
    # tol 1e-10: SLEPc's residual tolerance (1e-12 relative) on a pencil
    # with well separated eigenvalues, plus scipy's LAPACK backward error
    # (~1e-15 times kappa(M) < 1e3); measured 1e-15 (dense solve at this size)
    assert len(f) == 12 and err <= 1e-10, (name, f, fref, err)
    print(f"{name}: 12 frequencies = scipy.linalg.eigh's (max rel. difference {err:.1e}), lowest {f[:3]}")
PY
echo ok
