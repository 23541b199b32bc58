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
h (the file A) and 2h (file B).  Generalized-alpha with rho_inf = 1 is second
order, so the error at h is E_h ~ |Y_2h - Y_h| / 3 (Richardson); asserted:
max |Y_h - Y_ref| <= 2 |Y_2h - Y_h| / 3 (factor 2: pointwise maximum,
pre-asymptotic) + 1e-8 of max |Y| (the reference's own error, 1000 x rtol).

  gmp_transient_ref.py A.h5 B.h5 T0 f th0
"""
import sys
import h5py
import numpy as np
from scipy.integrate import solve_ivp

fa, fb, T0, fr, th0 = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
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
fails = 0
for name, ref in (("theta", th_ref), ("deflection", w_ref)):
    ya, yb = f[f"/gmp/transient/linear/{name}"][:], g[f"/gmp/transient/linear/{name}"][:]
    scale = np.abs(ref - ref[0]).max()  # theta: its change from th0
    e = np.abs(ya - ref).max()
    rich = np.abs(yb - ya).max() / 3
    tol = 2 * rich + 1e-8 * scale
    ok = e <= tol
    fails += not ok
    print(f"{'ok  ' if ok else 'FAIL'} linear interpolant, {name}: max |dynred - scipy| {e:.3g} "
          f"(Richardson estimate {rich:.3g}, tol {tol:.3g}; range of {name} {scale:.3g})")
sys.exit(1 if fails else 0)
