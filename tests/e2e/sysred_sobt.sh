#!/usr/bin/env bash
# sysred.method sobt: position-velocity second-order balanced truncation
# (Reis & Stykel 2008; src/sysred/sobt.c) of a damped chain of 8 masses
# (consistent, non-diagonal M; Rayleigh damping), checked against scipy:
#  - the pv singular values sqrt(eig(P_p Q_v)) from scipy's Lyapunov solver
#    on the first-order realization [q; q'];
#  - the reduced model is second order: M_r = I (symmetric), Ti T = I, and
#    /sysred/A..D is the first-order realization of (M_r, D_r, K_r, B_r, C_r);
#  - the reduced transfer function equals the one of an SOBT computed here
#    from scipy's Gramians (it does not depend on the choice of Gramian
#    factors), and at full order equals the original;
#  - 1, 2 and 3 ranks agree; bad input (undamped, M not positive definite).
set -euo pipefail
cd "$T"
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
n = 8
k = np.array([900.0, 700, 800, 600, 500, 650, 400, 300])
K = np.zeros((n, n)); M = np.zeros((n, n))
for i in range(n):     # spring i joins mass i to mass i-1 (mass 0 to the wall)
    K[i, i] += k[i]
    if i > 0: K[i - 1, i - 1] += k[i]; K[i, i - 1] -= k[i]; K[i - 1, i] -= k[i]
m = np.linspace(1.0, 2.0, n)
for i in range(n):     # lumped plus a consistent coupling: symmetric positive definite
    M[i, i] += m[i]
    if i > 0: M[i, i - 1] = M[i - 1, i] = 0.1
D = 0.02 * M + 0.002 * K
B = np.zeros((n, 2)); B[n - 1, 0] = 1; B[3, 1] = 1
C = np.zeros((2, n)); C[0, 0] = 1; C[1, 5] = 1
with h5py.File("so.h5", "w") as f:
    for key, v in dict(M=M, D=D, K=K, B=B, C=C).items(): f["/so/" + key] = v
    for key, v in dict(M=M, D=D, K=K, input_map=B, output_map=C).items(): f["/alt/" + key] = v
    for key, v in dict(M=M, D=0 * D, K=K, B=B, C=C).items(): f["/undamped/" + key] = v
    Mb = M.copy(); Mb[2, 2] = -1
    for key, v in dict(M=Mb, D=D, K=K, B=B, C=C).items(): f["/badm/" + key] = v
PY
cat > so.yaml <<'Y'
job: sysred
output: out.h5
sysred:
  source: so.h5
  group: /so
  method: sobt
  order: 3
  frf: {n: 100}
Y
$DYNRED -config so.yaml > so.log
cat so.log
$DYNRED -config so.yaml -sysred_order 8 -output full.h5 > full.log
$DYNRED -config so.yaml -sysred_group /alt -output alt.h5 > alt.log
timeout 300 $MPIEXEC -n 2 $DYNRED -config so.yaml -output out2.h5 > so2.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config so.yaml -output out3.h5 > so3.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("so.h5"); M, D, K, B, C = (f["/so/" + k][:] for k in "MDKBC")
n, m, p = len(M), B.shape[1], C.shape[0]
Mi = np.linalg.inv(M)
A1 = np.block([[np.zeros((n, n)), np.eye(n)], [-Mi @ K, -Mi @ D]])
B1 = np.vstack([np.zeros((n, m)), Mi @ B]); C1 = np.hstack([C, np.zeros((p, n))])
P = sl.solve_continuous_lyapunov(A1, -B1 @ B1.T)
Q = sl.solve_continuous_lyapunov(A1.T, -C1.T @ C1)
def fac(X):
    d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
R, L = fac(P), fac(Q)
Rp, Lv = R[:n], L[n:]
U, s, Vt = np.linalg.svd(Lv.T @ Rp)
sig = np.sort(np.sqrt(np.abs(np.linalg.eigvals(P[:n, :n] @ Q[n:, n:]))))[::-1]
assert abs(s[:n] - sig).max() < 1e-10 * sig[0]        # two routes in numpy agree
o = h5py.File("out.h5")
hsv = o["/sysred/hsv"][:]
print("pv singular values dynred:", hsv[:5], " scipy:", sig[:5])
# both backward-stable Lyapunov solvers on a system with cond(A) ~ 1e3: 1e-8
assert len(hsv) == n and abs(hsv - sig).max() < 1e-8 * sig[0], "pv singular values"
r = 3
T, Ti = o["/sysred/T"][:], o["/sysred/Ti"][:]
Mr, Dr, Kr, Br, Cr = (o["/sysred/second_order/" + k][:] for k in "MDKBC")
assert T.shape == (n, r) and Ti.shape == (r, n) and Mr.shape == (r, r) and Dr.shape == (r, r) and Kr.shape == (r, r)
assert abs(Ti @ T - np.eye(r)).max() < 1e-10 and abs(Mr - np.eye(r)).max() < 1e-10, "M_r = I, Ti T = I"
W = (Ti @ Mi).T  # Ti = W^T M
for X, Xr in ((D, Dr), (K, Kr)):
    assert abs(W.T @ X @ T - Xr).max() < 1e-10 * abs(X).max() * n
assert abs(W.T @ B - Br).max() < 1e-10 and abs(C @ T - Cr).max() < 1e-10
Ar = o["/sysred/A"][:]
assert abs(Ar - np.block([[np.zeros((r, r)), np.eye(r)], [-np.linalg.solve(Mr, Kr), -np.linalg.solve(Mr, Dr)]])).max() < 1e-10 * abs(Kr).max()
def G(Mx, Dx, Kx, Bx, Cx, w): return Cx @ np.linalg.solve(-w * w * Mx + 1j * w * Dx + Kx, Bx)
# SOBT of order r from scipy's factors
V = Rp @ Vt[:r].T / np.sqrt(s[:r]); Wr = Mi @ Lv @ U[:, :r] / np.sqrt(s[:r])
ref = tuple(Wr.T @ X @ V for X in (M, D, K)) + (Wr.T @ B, C @ V)
w = np.logspace(0, 2.5, 300)
g = np.array([G(M, D, K, B, C, x) for x in w])
gr = np.array([G(Mr, Dr, Kr, Br, Cr, x) for x in w])
gs = np.array([G(*ref, x) for x in w])
e = abs(gr - gs).max() / abs(g).max()
print(f"order {r}: |G_r(dynred) - G_r(scipy)| / |G| = {e:.2e}; |G - G_r| / |G| = {abs(g - gr).max() / abs(g).max():.3e}")
assert e < 1e-7, "reduced transfer function"    # Gramian agreement 1e-8 over the smallest kept sigma
o8 = h5py.File("full.h5")
g8 = np.array([G(*(o8["/sysred/second_order/" + k][:] for k in "MDKBC"), x) for x in w])
assert abs(g8 - g).max() < 1e-8 * abs(g).max(), "full order reproduces the model"
assert o8["/sysred/frf"].attrs["hinf_error"] < 1e-8 * o8["/sysred/frf"].attrs["hinf_full"]
assert np.array_equal(h5py.File("alt.h5")["/sysred/hsv"][:], hsv)
for fn in ("out2.h5", "out3.h5"):
    q = h5py.File(fn)
    for k in ("/sysred/hsv", "/sysred/second_order/K", "/sysred/T"):
        assert np.array_equal(q[k][:], o[k][:]), (fn, k)
print("ok")
PY
E=$ROOT/tests/expect.sh
$E 'so.h5: /undamped: the second-order model is not asymptotically stable .*expected damping on every mode' $DYNRED -config so.yaml -sysred_group /undamped
$E 'so.h5: /badm: M is not positive definite' $DYNRED -config so.yaml -sysred_group /badm
$E 'so.yaml:7: sysred.order = 9 is larger than the minimal order 8' $DYNRED -config so.yaml -sysred_order 9
$E 'no dataset /nothere/M, expected M, D, K, B \(or input_map\), C \(or output_map\)' $DYNRED -config so.yaml -sysred_group /nothere
