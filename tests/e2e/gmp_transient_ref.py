#!/usr/bin/python3
"""Independent integration (scipy solve_ivp, DOP853, rtol 1e-11) of the GMP
reduced equations of src/gmp/transient.c with the linear interpolant of the
grid ROMs read from the result file (/gmp/grid/{theta,M,K,psi}):

  M(th) eta'' + th' M_th eta' - 1/2 (eta'^T M_th eta') e_th
              + K(th) eta + 1/2 (eta^T K_th eta) e_th = tau(t) e_th,
  eta = [th | delta], M, K piecewise linear in th (periodic grid),
  tau = T0 sin(2 pi f t) for t < 1/(4 f), then T0; at rest at th = th0,

and the crank-end deflection normal to the crank from the interpolated Psi.
Compared with /gmp/transient/linear/{theta,deflection} of two dynred runs:
step h (the file A) and 2h (file B).  Asserted, for each quantity Y:

1. The error shrinks at the integrator's order, measured against this
   independent reference: generalized-alpha with rho_inf = 1 (the trapezoidal
   rule) is second order, so p = log2(E_2h / E_h), E = max |Y - Y_ref|, lies
   in 2 +- 0.2 (the O((w_max 2h)^2) = 1e-2 correction of the asymptotic
   error moves p by under 0.02; the rest for the pointwise maximum sitting
   at other samples for h and 2h -- the band of the second-order methods in
   tests/unit/test_ss.c).  For p to be dynred's, the reference's own error,
   1e-8 of max |Y| (1000 x rtol), is asserted below 1 % of E_h.
2. E_h <= min(2 |Y_2h - Y_h| / 3 + 1e-8 max |Y|, cap): the Richardson
   estimate of E_h (factor 2: pointwise maximum, pre-asymptotic) plus the
   reference's error, capped by the a priori phase error of the trapezoidal
   rule, relative period error (w h)^2 / 12 accumulated over the run's
   length T, at the ROM's highest frequency w_max on the grid cells the
   reference visits (eigenvalues of the file's grid ROMs, scipy; the linear
   interpolant's lie below its ends'), on an amplitude taken as the range
   of Y:
   cap = (w_max h)^2 w_max T / 12 x max |Y - Y(0)|.  The cap keeps the
   tolerance from growing with dynred's own step-to-step differences.

  gmp_transient_ref.py A.h5 B.h5 T0 f th0 h
"""
import sys
import h5py
import numpy as np
from scipy.integrate import solve_ivp
from scipy.linalg import eigh

fa, fb, T0, fr, th0, hA = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
f = h5py.File(fa, "r")
th_g, Mg, Kg, Pg = f["/gmp/grid/theta"][:, 0], f["/gmp/grid/M"][:], f["/gmp/grid/K"][:], f["/gmp/grid/psi"][:]
t = f["/gmp/transient/t"][:]
ng, n = len(th_g), Mg.shape[1]
h = (th_g[-1] - th_g[0]) / (ng - 1)
period = th_g[-1] - th_g[0]
tip = 5 * 3  # crank end: node 6 (0-based 5) of the 3-DOF-per-node chain, u at 15, v at 16
lab = f["/gmp/labels"][:]
assert tuple(lab[tip]) == (6, 1) and tuple(lab[tip + 1]) == (6, 2), lab[tip:tip + 2]


def locate(th):
    tw = th_g[0] + np.mod(th - th_g[0], period)
    i = min(max(int(np.floor((tw - th_g[0]) / h)), 0), ng - 2)
    return i, (tw - th_g[i]) / h


def model(th):
    i, s = locate(th)
    return ((1 - s) * Mg[i] + s * Mg[i + 1], (1 - s) * Kg[i] + s * Kg[i + 1],
            (Mg[i + 1] - Mg[i]) / h, (Kg[i + 1] - Kg[i]) / h)


def rhs(tt, y):
    q, v = y[:n], y[n:]
    M, K, dM, dK = model(q[0])
    tau = T0 * np.sin(2 * np.pi * fr * tt) if tt < 1 / (4 * fr) else T0
    r = -v[0] * dM @ v - K @ q
    r[0] += tau + 0.5 * v @ dM @ v - 0.5 * q @ dK @ q
    return np.concatenate([v, np.linalg.solve(M, r)])


tk = 1 / (4 * fr)
Y = []
y0 = np.zeros(2 * n)
y0[0] = th0
for a, b in ((0.0, tk), (tk, t[-1])):   # the torque's kink: two pieces
    te = np.clip(t[(t >= a - 1e-12) & (t <= b + 1e-12)], a, b)
    sol = solve_ivp(rhs, (a, b), y0, method="DOP853", t_eval=te, rtol=1e-11, atol=1e-13)
    assert sol.success, sol.message
    Y.append(sol.y if a == 0 else sol.y[:, 1:])
    y0 = sol.y[:, -1]
Y = np.concatenate(Y, axis=1)
th_ref = Y[0]
w_ref = np.empty(len(t))
for k in range(len(t)):
    i, s = locate(th_ref[k])
    Psi = (1 - s) * Pg[i] + s * Pg[i + 1]
    ux, uy = Psi[tip, 1:] @ Y[1:n, k], Psi[tip + 1, 1:] @ Y[1:n, k]
    w_ref[k] = -np.sin(th_ref[k]) * ux + np.cos(th_ref[k]) * uy
g = h5py.File(fb, "r")
assert np.allclose(g["/gmp/transient/t"][:], t, rtol=0, atol=1e-12), "runs A and B saved at different times"
crossed = np.floor((th_ref - th_g[0]) / h)
print(f"theta from {th_ref[0]:.6g} to {th_ref[-1]:.6g} rad: {int(crossed.max() - crossed.min())} grid point(s) crossed")
# the grid points of the cells the reference visits: the interpolated pencil's Rayleigh quotient is a
# mediant of the two ends', so its highest eigenvalue is at most theirs
pts = sorted({i + d for i in (locate(x)[0] for x in th_ref) for d in (0, 1)})
w_max = max(np.sqrt(eigh(Kg[i], Mg[i], eigvals_only=True)[-1]) for i in pts)
phase = (w_max * hA) ** 2 * w_max * (t[-1] - t[0]) / 12
print(f"highest ROM frequency {w_max / (2 * np.pi):.1f} Hz: a priori phase error over {t[-1] - t[0]:.3g} s at h = {hA:.3g} s: {phase:.3g} rad")
fails = 0
for name, ref in (("theta", th_ref), ("deflection", w_ref)):
    ya, yb = f[f"/gmp/transient/linear/{name}"][:], g[f"/gmp/transient/linear/{name}"][:]
    scale = np.abs(ref - ref[0]).max()  # theta: its change from th0
    eh, e2h = np.abs(ya - ref).max(), np.abs(yb - ref).max()
    p = np.log2(e2h / eh) if eh > 0 else np.inf
    eref = 1e-8 * scale
    rich = np.abs(yb - ya).max() / 3
    tol = min(2 * rich + eref, phase * scale)
    # tol: the bands of the docstring (order 2 +- 0.2; reference error below 1 % of E_h)
    ok_p = abs(p - 2) <= 0.2 and eref < 0.01 * eh
    ok = eh <= tol
    fails += (not ok) + (not ok_p)
    print(f"{'ok  ' if ok_p else 'FAIL'} linear interpolant, {name}: observed order log2(E_2h / E_h) = {p:.3f} "
          f"(E_2h {e2h:.3g}, E_h {eh:.3g} against scipy; expected 2 +- 0.2; reference's error {eref:.2g})")
    print(f"{'ok  ' if ok else 'FAIL'} linear interpolant, {name}: max |dynred - scipy| {eh:.3g} "
          f"(Richardson estimate {rich:.3g}, a priori cap {phase * scale:.3g}, tol {tol:.3g}; range of {name} {scale:.3g})")
sys.exit(1 if fails else 0)
