#!/usr/bin/env bash
# dynred's OP4 component reader (components[].format op4, issue 17 item 2)
# on files written by the test's own writer (tests/e2e/export_op4_ref.py,
# from the format description): a 42-DOF spring-mass model built here (a
# chain with springs to ground and long-range springs, so sparse columns
# hold several strings; a coupled mass matrix; D = 0.5 M + 1e-4 K) in seven
# forms: ASCII dense, ASCII sparse bigmat (with D), ASCII sparse non-bigmat,
# ASCII with another value format (1P,4E25.16), binary dense (with D),
# binary sparse bigmat big-endian, binary sparse non-bigmat.  Each gives the
# same 12 modal frequencies as the same matrices from Matrix Market
# (1e-12 relative: the matrices are bit-identical, only the order the
# entries arrive in differs) and as scipy.linalg.eigh (1e-9 relative:
# SLEPc's relative residual tolerance 1e-12 on a pencil whose condition
# over these modes is below 1e3); the 3-rank read agrees with the 1-rank one
# (1e-9, DESIGN.md's rank-independence bound for modal).  Malformed files:
# one error line each (truncated ASCII and binary, sizes that differ, NaN,
# non-symmetric K, one matrix only, a complex matrix).
set -euo pipefail
cd "$T"
PYTHONPATH=$ROOT/tests/e2e /usr/bin/python3 - <<'PY'
import numpy as np, scipy.io, scipy.sparse as sp, scipy.linalg as la
from export_op4_ref import write_op4
n = 42
rng = np.random.default_rng(7)
K = np.zeros((n, n))
def spring(i, j, k):
    K[i, i] += k; K[j, j] += k; K[i, j] -= k; K[j, i] -= k
for i in range(n - 1):
    spring(i, i + 1, 1e6 * (1 + rng.random()))
for i in range(0, n - 7, 5):
    spring(i, i + 7, 3e5 * (1 + rng.random()))
K[0, 0] += 2e6; K[n // 2, n // 2] += 1e6            # to ground: K definite
M = np.diag(1 + rng.random(n))
for i in range(n - 1):
    M[i, i + 1] = M[i + 1, i] = 0.1                  # coupled mass, still definite
D = 0.5 * M + 1e-4 * K
np.savez("model.npz", K=K, M=M, D=D)
scipy.io.mmwrite("K.mtx", sp.coo_matrix(np.triu(K).T), symmetry="symmetric", precision=17)
scipy.io.mmwrite("M.mtx", sp.coo_matrix(np.triu(M).T), symmetry="symmetric", precision=17)
with open("model.dof", "w") as f:
    for i in range(n):
        f.write(f"{i // 3 + 1}.{i % 3 + 1}\n")
write_op4("a_dense.op4", [("KAA", K), ("MAA", M)])
write_op4("a_bigmat.op4", [("KAA", K), ("MAA", M), ("BAA", D)], sparse="bigmat")
write_op4("a_nonbig.op4", [("KAA", K), ("MAA", M)], sparse="nonbigmat")
write_op4("a_fmt.op4", [("KAA", K), ("MAA", M)], width=25, perline=4)
write_op4("b_dense.op4", [("KAA", K), ("MAA", M), ("BAA", D)], binary=True)
write_op4("b_bigmat.op4", [("KAA", K), ("MAA", M)], binary=True, sparse="bigmat", endian=">")
write_op4("b_nonbig.op4", [("KAA", K), ("MAA", M)], binary=True, sparse="nonbigmat")
# malformed
txt = open("a_dense.op4").read().splitlines(True)
open("bad_trunc.op4", "w").write("".join(txt[:len(txt) // 3]))
raw = open("b_bigmat.op4", "rb").read()
open("bad_trunc_bin.op4", "wb").write(raw[:len(raw) // 3])
write_op4("bad_size.op4", [("KAA", K), ("MAA", M[:-1, :-1])])
write_op4("bad_nan.op4", [("KAA", K), ("MAA", M)])
t = open("bad_nan.op4").read().splitlines(True)
t[3] = t[3][:24] + "%24s" % "NaN" + t[3][48:]
open("bad_nan.op4", "w").write("".join(t))
Kn = K.copy(); Kn[3, 20] = 5.0
write_op4("bad_nonsym.op4", [("KAA", Kn), ("MAA", M)])
write_op4("bad_one.op4", [("KAA", K)])
write_op4("bad_complex.op4", [("KAA", K), ("MAA", M)])
t = open("bad_complex.op4").read().splitlines(True)
t[0] = t[0][:24] + "%8d" % 4 + t[0][32:]
open("bad_complex.op4", "w").write("".join(t))
f = np.sqrt(la.eigh(K, M, eigvals_only=True)[:12]) / (2 * np.pi)
np.save("fref.npy", f)
PY
job() { # name format path-or-K [np]
  if [ "$2" = mtx ]; then comp="{name: c, format: mtx, K: K.mtx, M: M.mtx, dofs: model.dof}"
  else comp="{name: c, format: op4, path: $3, dofs: model.dof}"; fi
  printf 'job: modal\noutput: %s.h5\ncomponents:\n  - %s\nmodal: {nmodes: 12}\n' "$1" "$comp" > $1.yaml
}
job mtx mtx
timeout 300 $DYNRED -config mtx.yaml > mtx.log
for v in a_dense a_bigmat a_nonbig a_fmt b_dense b_bigmat b_nonbig; do
  job $v op4 $v.op4
  timeout 300 $DYNRED -config $v.yaml > $v.log
done
job np3 op4 b_bigmat.op4
timeout 300 $MPIEXEC -n 3 $DYNRED -config np3.yaml > np3.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
fref = np.load("fref.npy")
fr = lambda n: h5py.File(n + ".h5", "r")["/modal/frequencies_hz"][:]
fm = fr("mtx")
assert np.abs(fm - fref).max() <= 1e-9 * fref.max(), (fm, fref)   # tol: see the header (SLEPc 1e-12 residual)
for v in ("a_dense", "a_bigmat", "a_nonbig", "a_fmt", "b_dense", "b_bigmat", "b_nonbig"):
    f = fr(v)
    # tol: the same matrices bit for bit; 1e-12 relative (entry order only)
    assert len(f) == 12 and np.abs(f - fm).max() <= 1e-12 * fm.max(), (v, f, fm)
    print(f"{v}: 12 frequencies equal the Matrix Market ones ({np.abs(f - fm).max() / fm.max():.1e}) and scipy's ({np.abs(f - fref).max() / fref.max():.1e})")
f3 = fr("np3")
assert np.abs(f3 - fr("b_bigmat")).max() <= 1e-9 * fm.max(), f3   # tol: rank independence of modal (DESIGN.md)
print("3 ranks: same frequencies")
PY
grep -q "DOFs" a_bigmat.log
E=$ROOT/tests/expect.sh
bad() { job $1 op4 $1.op4; $E "$2" $DYNRED -config $1.yaml; }
bad bad_trunc 'bad_trunc.op4:[0-9]+: K KAA: file ends (inside|after) column [0-9]+'
bad bad_trunc_bin 'bad_trunc_bin.op4: record [0-9]+ \(byte [0-9]+\): K KAA: file ends (inside|after) column [0-9]+'
bad bad_size 'bad_size.op4:[0-9]+: M MAA: is 41 x 41 but K is 42 x 42, expected the same size'
bad bad_nan 'bad_nan.op4:4: K KAA: entry \([0-9]+, 1\) is nan, expected a finite real'
bad bad_nonsym 'bad_nonsym.op4: K is not symmetric'
bad bad_one 'bad_one.op4: ends after 1 matrix, expected K and M'
bad bad_complex 'bad_complex.op4:1: K KAA: type 4, expected a real matrix'
echo ok
