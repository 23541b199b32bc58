#!/usr/bin/env bash
# The transformation /sysred/T, /sysred/Ti of minreal and spa (issue 14 item
# 1), on the systems of tests/data/sysred/randsys.py, checked in numpy:
#  - minreal of /planted (a 6-state minimal system x_min, 3 uncontrollable and
#    2 unobservable states, mixed by the orthogonal S the generator draws):
#    T has orthonormal columns, Ti = T^T, the written model is (Ti A T, Ti B,
#    C T, D), and range(T) = controllable subspace minus the unobservable
#    one = S span(e_1..e_6), known here from the construction;
#  - spa of /stable at order 6: Ti T = I; x_r = Ti x are the kept balanced
#    coordinates, the same as bt's at that order; and since the residualized
#    coordinates are at rest in steady state, the reduced steady state of a
#    constant input equals Ti times the full one: A_r^-1 B_r = Ti A^-1 B.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/randsys.py sys.h5
cat > t.yaml <<'Y'
job: sysred
output: minreal.h5
sysred:
  source: sys.h5
  group: /planted
  method: minreal
  frf: {n: 0}
Y
$DYNRED -config t.yaml > minreal.log
$DYNRED -config t.yaml -sysred_group /stable -sysred_method spa -sysred_order 6 -output spa.h5 > spa.log
$DYNRED -config t.yaml -sysred_group /stable -sysred_method bt -sysred_order 6 -output bt.h5 > bt.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config t.yaml -output minreal3.h5 > minreal3.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, runpy, sys
f = h5py.File("sys.h5")
A, B, C, D = (f["/planted/" + k][:] for k in "ABCD")
o = h5py.File("minreal.h5")["/sysred"]
T, Ti = o["T"][:], o["Ti"][:]
Ar, Br, Cr = o["A"][:], o["B"][:], o["C"][:]
print(f"minreal: T {T.shape}, Ti {Ti.shape}")
assert T.shape == (11, 6) and Ti.shape == (6, 11)
# orthogonal transformations (backward stable): round-off level
assert abs(T.T @ T - np.eye(6)).max() < 1e-12 and abs(Ti - T.T).max() == 0
na = abs(A).max()
assert abs(Ar - Ti @ A @ T).max() < 1e-12 * na * 11 and abs(Br - Ti @ B).max() < 1e-12 * 11 * abs(B).max() and abs(Cr - C @ T).max() < 1e-12 * 11 * abs(C).max()
# S of the generator: rerun its random stream (fixed seed) to get the mixing
sys.argv = ["randsys.py", "again.h5"]
import os
g = runpy.run_path(os.environ["ROOT"] + "/tests/data/sysred/randsys.py", run_name="__main__")
S = g["S"]
assert np.allclose(S @ S.T, np.eye(11)) and abs(h5py.File("again.h5")["/planted/A"][:] - A).max() == 0
S6 = S[:, :6]
e = abs(T - S6 @ (S6.T @ T)).max()
print(f"minreal: range(T) vs S span(e1..e6): {e:.2e}")
# an invariant subspace computed with backward error eps ||A|| moves by about
# eps ||A|| / sep, sep the separation of the kept and removed parts (their
# smallest coupling singular values in the staircase, here 1e-5..1e-3 of
# ||A|| for random blocks): 1e-8
assert e < 1e-8, "range(T) is not the controllable and observable subspace"
q = h5py.File("minreal3.h5")["/sysred"]
assert np.array_equal(q["T"][:], T), "3 ranks"
# spa
A, B, C, D = (f["/stable/" + k][:] for k in "ABCD")
s, b = h5py.File("spa.h5")["/sysred"], h5py.File("bt.h5")["/sysred"]
Ts, Tis, Tb, Tib = s["T"][:], s["Ti"][:], b["T"][:], b["Ti"][:]
assert Ts.shape == (20, 6) and Tis.shape == (6, 20)
assert abs(Tis @ Ts - np.eye(6)).max() < 1e-10
sg = np.sign(np.sum(Ts * Tb, axis=0))   # state signs: the SVDs may differ
# both from the same square-root factors (SB03OU) and SVD (MB03UD)
assert abs(Ts - Tb * sg).max() < 1e-10 * abs(Tb).max() and abs(Tis - sg[:, None] * Tib).max() < 1e-10 * abs(Tib).max(), "spa and bt keep the same balanced coordinates"
xs = -np.linalg.solve(A, B); xr = -np.linalg.solve(s["A"][:], s["B"][:])
e = abs(xr - Tis @ xs).max() / abs(xr).max()
print(f"spa: steady state x_r vs Ti x: {e:.2e}")
assert e < 1e-9, "spa: x_r = Ti x at steady state"   # cond(A) ~ 1e3 of the random system times round-off
print("ok")
PY
