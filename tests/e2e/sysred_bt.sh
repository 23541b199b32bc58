#!/usr/bin/env bash
# dynred sysred on random systems (tests/data/sysred/randsys.py), checked in
# numpy/scipy against independent references:
#  1. bt: Hankel singular values vs sqrt(eig(P Q)) with P, Q from
#     scipy.linalg.solve_continuous_lyapunov; the reduced model is balanced
#     (its own Gramians are diag(sigma_1..r)); Ti T = I, A_r = Ti A T; the
#     H-infinity error on a dense grid (computed here) <= 2 sum_{i>r} sigma_i;
#     /sysred/frf/full equals C (iw - A)^-1 B + D; sysred.tol picks the
#     smallest order whose bound is below it; same run from Matrix Market files.
#  2. spa: the DC gain is matched, error <= the same bound.
#  3. minreal: a 6-state minimal system with 3 uncontrollable and 2
#     unobservable states planted (then rotated) comes back with 6 states and
#     the same transfer function.
#  4. marginal: a rigid-body block and an undamped pair (+-3i) are kept
#     exactly, the error bound holds for the rest.
#  5. identical results on 1, 2 and 3 ranks; -log_view shows the events.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/randsys.py sys.h5
cat > bt.yaml <<'Y'
job: sysred
output: bt.h5
sysred:
  source: sys.h5
  group: /stable
  method: bt
  order: 6
  frf: {n: 300}
Y
cat > mtx.yaml <<'Y'
job: sysred
output: mtx.h5
sysred:
  mtx: {A: stable_A.mtx, B: stable_B.mtx, C: stable_C.mtx, D: stable_D.mtx}
  order: 6
Y
$DYNRED -config bt.yaml > bt.log
$DYNRED -config mtx.yaml > mtx.log
$DYNRED -config bt.yaml -sysred_order 0 -sysred_tol 1.0 -output tol.h5 > tol.log
$DYNRED -config bt.yaml -sysred_method spa -output spa.h5 > spa.log
$DYNRED -config bt.yaml -sysred_method minreal -sysred_order 0 -sysred_group /planted -output minreal.h5 > minreal.log
$DYNRED -config bt.yaml -sysred_group /marginal -output marginal.h5 > marginal.log
grep -q "4 poles kept exactly" marginal.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("sys.h5")
def sysof(g): return [f[f"/{g}/{k}"][:] for k in "ABCD"]
def red(fn): 
    h = h5py.File(fn)
    return [h["/sysred/" + k][:] for k in "ABCD"], h
def G(A, B, C, D, w): return C @ np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) + D
def fac(X):  # X = F F^T of a symmetric semidefinite Gramian
    d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
def hsv(A, B, C):
    # sigma_i = sqrt(eig(P Q)), computed as the singular values of F_Q^T F_P
    # (eig of the nonsymmetric product loses the small ones)
    P = sl.solve_continuous_lyapunov(A, -B @ B.T); Q = sl.solve_continuous_lyapunov(A.T, -C.T @ C)
    return P, Q, np.linalg.svd(fac(Q).T @ fac(P), compute_uv=False)
def hinf_err(S, R, w):
    return max(np.linalg.svd(G(*S, x) - G(*R, x), compute_uv=False)[0] for x in w)
wdense = np.logspace(-3, 3, 4000)

A, B, C, D = S = sysof("stable")
P, Q, s = hsv(A, B, C)
R, h = red("bt.h5")
# 1e-8 relative to sigma_1: both are backward stable Lyapunov solvers on a
# system with ||A|| ~ 1e2 and well separated poles (cond ~ 1e4): errors ~1e-12.
e = abs(h["/sysred/hsv"][:] - s).max() / s[0]
print(f"bt: HSV vs scipy Lyapunov, max |diff| / sigma_1 = {e:.2e}")
assert e < 1e-8, e
bound = 2 * s[6:].sum()
assert abs(h["/sysred/error_bound"][0] - bound) < 1e-10 * bound
Ar, Br, Cr, Dr = R
assert Ar.shape == (6, 6) and Br.shape == (6, 2) and Cr.shape == (3, 6)
Pr, Qr, _ = hsv(Ar, Br, Cr)
e = max(abs(Pr - np.diag(s[:6])).max(), abs(Qr - np.diag(s[:6])).max()) / s[0]
print(f"bt: reduced Gramians vs diag(sigma_1..6), max diff / sigma_1 = {e:.2e}")
assert e < 1e-8, e
T, Ti = h["/sysred/T"][:], h["/sysred/Ti"][:]
assert abs(Ti @ T - np.eye(6)).max() < 1e-10, "Ti T != I"
assert abs(Ti @ A @ T - Ar).max() < 1e-10 * abs(A).max(), "A_r != Ti A T"
eh = hinf_err(S, R, wdense)
print(f"bt: H-inf error on 4000 frequencies {eh:.4f} <= bound {bound:.4f} (sigma_7 = {s[6]:.4f} is a lower bound)")
# the bound is a theorem; 1e-10 relative slack for round-off in G on the grid
assert s[6] * (1 - 1e-6) <= eh <= bound * (1 + 1e-10), (eh, bound)
w = h["/sysred/frf/omega"][:]
Gf = h["/sysred/frf/full"][:]; Gf = (Gf[..., 0] + 1j * Gf[..., 1]).reshape(len(w), 3, 2)
Gr = h["/sysred/frf/reduced"][:]; Gr = (Gr[..., 0] + 1j * Gr[..., 1]).reshape(len(w), 3, 2)
ref = np.array([G(*S, x) for x in w])
e = abs(Gf - ref).max() / abs(ref).max()
print(f"frf: /sysred/frf/full vs C (iw - A)^-1 B + D, max rel error {e:.2e}")
assert e < 1e-10, e  # Schur-based solve vs LU, both backward stable; cond(iw - A) <= 1e4 on this grid
gr = np.array([G(*R, x) for x in w])
assert abs(Gr - gr).max() < 1e-10 * abs(gr).max()
eg = max(np.linalg.svd(a - b, compute_uv=False)[0] for a, b in zip(ref, gr))
assert abs(h["/sysred/frf"].attrs["hinf_error"] - eg) < 1e-9 * eg
# Matrix Market source: the same system, the same result
Rm, _ = red("mtx.h5")
assert all(np.allclose(x, y, rtol=0, atol=1e-12 * abs(y).max()) for x, y in zip(Rm, R)), "mtx source differs"
# tol: the smallest order with 2 sum_{i>r} sigma_i <= 1
Rt, ht = red("tol.h5")
tails = np.array([2 * s[r:].sum() for r in range(len(s) + 1)])
r = int(np.argmax(tails <= 1.0))
print(f"tol 1.0: order {Rt[0].shape[0]}, expected {r} (bound {tails[r]:.3f}; order {r-1} has {tails[r-1]:.3f})")
assert Rt[0].shape[0] == r and ht["/sysred/error_bound"][0] <= 1.0
# spa: same bound, exact DC gain
Rs, hs = red("spa.h5")
g0 = D - C @ np.linalg.solve(A, B); g0r = Rs[3] - Rs[2] @ np.linalg.solve(Rs[0], Rs[1])
e = abs(g0 - g0r).max() / abs(g0).max()
print(f"spa: DC gain error {e:.2e}; H-inf error {hinf_err(S, Rs, wdense):.4f} <= {bound:.4f}")
assert e < 1e-9, e  # cond(A) ~ 3e2 (poles 0.1..30)
assert hinf_err(S, Rs, wdense) <= bound * (1 + 1e-10)
# minreal: exactly the planted states removed, transfer function unchanged
S2 = sysof("planted")
R2, _ = red("minreal.h5")
print(f"minreal: {S2[0].shape[0]} -> {R2[0].shape[0]} states")
assert R2[0].shape[0] == 6
Am = S2[0]
e = max(abs(G(*S2, x) - G(*R2, x)).max() for x in np.logspace(-2, 2, 200)) / max(abs(G(*S2, x)).max() for x in np.logspace(-2, 2, 200))
print(f"minreal: transfer function max rel change {e:.2e}")
assert e < 1e-9, e  # orthogonal staircase transformations on an orthogonally mixed system: round-off only
# marginal: rigid-body pair and +-3i kept exactly, error bound for the rest
S3 = sysof("marginal")
R3, h3 = red("marginal.h5")
ev = np.linalg.eigvals(R3[0])
assert h3["/sysred"].attrs["n_kept_exactly"] == 4
assert sum(abs(ev) < 1e-6) == 2, ev   # the double zero of [[0,1],[0,0]]: sqrt(eps) accuracy
assert min(abs(ev - 3j)) < 1e-10 and min(abs(ev + 3j)) < 1e-10, ev
s3 = h3["/sysred/hsv"][:]
b3 = h3["/sysred/error_bound"][0]
assert abs(b3 - 2 * s3[2:].sum()) < 1e-12 * b3
w3 = np.logspace(-1, 3, 3000)
w3 = w3[abs(w3 - 3) > 1e-3]   # off the undamped pole
e3 = hinf_err(S3, R3, w3)
print(f"marginal: H-inf error {e3:.4f} <= bound {b3:.4f} (rigid and undamped poles kept: their terms cancel)")
assert e3 <= b3 * (1 + 1e-8), (e3, b3)  # 1e-8: the kept poles' terms cancel to round-off x cond of the split
print("ok")
PY
# stable part HSV of the marginal system vs scipy on the stable block of the
# generator: independent of the split (the stable transfer function is unique)
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("sys.h5"); A, B, C = (f["/marginal/" + k][:] for k in "ABC")
ev, V = np.linalg.eig(A)
st = ev.real < -1e-6
Vi = np.linalg.inv(V)
As = np.diag(ev[st]); Bs = Vi[st] @ B; Cs = C @ V[:, st]
P = sl.solve_continuous_lyapunov(As, -Bs @ Bs.conj().T); Q = sl.solve_continuous_lyapunov(As.conj().T, -Cs.conj().T @ Cs)
def fac(X):
    d, U = np.linalg.eigh((X + X.conj().T) / 2); return U * np.sqrt(np.clip(d, 0, None))
s = np.linalg.svd(fac(Q).conj().T @ fac(P), compute_uv=False)
h = h5py.File("marginal.h5")["/sysred/hsv"][:]
e = abs(h - s).max() / s[0]
print(f"marginal: stable-part HSV vs modal decomposition + scipy Lyapunov, max diff / sigma_1 = {e:.2e}")
assert e < 1e-7, e  # eigenvector basis of a random 12-state system: cond(V) ~ 1e2..1e3
PY
for n in 1 2 3; do
  timeout 300 $MPIEXEC -n $n $DYNRED -config bt.yaml -sysred_group /marginal -output r$n.h5 > r$n.log
done
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
ref = h5py.File("r1.h5")
for n in (2, 3):
    f = h5py.File(f"r{n}.h5")
    assert f.attrs["nranks"] == n
    for d in ("A", "B", "C", "D", "T", "Ti", "hsv", "error_bound", "frf/full", "frf/reduced"):
        assert np.array_equal(ref["/sysred/" + d][:], f["/sysred/" + d][:]), f"{d} differs on {n} ranks"
print("ranks ok")
PY
$DYNRED -config bt.yaml -output lv.h5 -log_view > lv.log
for e in DRSysRedRead DRSysRedSplit DRSysRedBalance DRSysRedFRF DRSysRedWrite; do
  grep -q "^$e " lv.log || { echo "-log_view lacks $e"; exit 1; }
done
# time-response comparison (sysred.sim.*): both histories vs scipy.signal.lsim
# (exact for the piecewise-linear interpolated input) on the marginal system
$DYNRED -config bt.yaml -sysred_group /marginal -sysred_order 8 -sysred_sim_t_end 5 -sysred_sim_h 1e-3 -sysred_input_signal sine -sysred_input_freq_hz 0.5 -output sim.h5 > sim.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.signal as ss
f = h5py.File("sys.h5"); o = h5py.File("sim.h5")
t = o["/sysred/sim/t"][:]; u = np.sin(2 * np.pi * 0.5 * t)
U = np.column_stack([u] * f["/marginal/B"].shape[1])
emax = 0
for name, g in (("full", lambda k: f["/marginal/" + k][:]), ("reduced", lambda k: o["/sysred/" + k][:])):
    A, B, C, D = (g(k) for k in "ABCD")
    _, y, _ = ss.lsim((A, B, C, D), U, t)
    y = y.reshape(len(t), -1)
    yd = o["/sysred/sim/" + name][:]
    e = abs(yd - y).max() / abs(y).max()
    print(f"time response {name}: Crank-Nicolson vs lsim, max rel error {e:.2e}")
    # CN is second order: error ~ h^2 |lambda|^2 / 12 over the run; the
    # input band (0.5 Hz) and poles up to ~30 rad/s give ~1e-4; 1e-3 allowed
    assert e < 1e-3, e
yf, yr = o["/sysred/sim/full"][:], o["/sysred/sim/reduced"][:]
assert abs(o["/sysred/sim"].attrs["max_rel_error"] - abs(yf - yr).max() / abs(yf).max()) < 1e-12
print("sim ok")
PY
