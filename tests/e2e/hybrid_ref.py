#!/usr/bin/python3
"""Independent reference for dynred's hybrid loop with the nonlinear absorber
laws B (N = 120 dl + dl^3) and C (N = 150 dl - 0.2 dl^3) of METHODS.md
section 4: scipy's solve_ivp (Radau, rtol 1e-10) on the same model

    M q'' + D q' + K q + g N(g^T q) = P u(t),   q(0) = q'(0) = 0,
    u = (-600, -300) N * min(t / 20 ms, 1),     g = (-e at node 7, +e at node 3),

for the full frame and its Guyan reduction, written by test_hybrid -dump DIR
together with the hybrid loop's response at 3V for central difference and
Newmark at h = 0.005 and h/2.

Tolerance (derived, not measured): both integrators are second order, so
the error at h is E_h ~ C h^2 and Y_h - Y_{h/2} ~ (3/4) C h^2, i.e.
E_h ~ (4/3) |Y_h - Y_{h/2}| (Richardson).  Asserted: max |Y_h - Y_ref| <=
2 (4/3) max |Y_h - Y_{h/2}| (factor 2: the pointwise maximum of a
pre-asymptotic error) + the reference's own error (1e-8 of max |Y|: 100 x
its rtol), and that the error decreases with h (order >= 1: E_{h/2} <= E_h / 2).
"""
import sys
import numpy as np
from scipy.integrate import solve_ivp

d = sys.argv[1]
L = lambda n: np.loadtxt(f"{d}/{n}.txt", ndmin=2)
laws = {"B": (lambda x: 120 * x + x ** 3, lambda x: 120 + 3 * x ** 2),
        "C": (lambda x: 150 * x - 0.2 * x ** 3, lambda x: 150 - 0.6 * x ** 2)}
h, tend = 0.005, 40.0
fails = 0
for model in ("full", "guyan"):
    M, K, D, P = L(f"{model}_M"), L(f"{model}_K"), L(f"{model}_D"), L(f"{model}_P")
    el = L(f"{model}_element")[0]
    idx, e, obs = el[:4].astype(int), el[4:6], int(el[6])
    n = M.shape[0]
    g = np.zeros(n)
    for t, s in zip(idx, (-e[0], -e[1], e[0], e[1])):
        if t >= 0:
            g[t] += s
    Mi = np.linalg.inv(M)
    for law, (N, dN) in laws.items():
        def f(t, y):
            q, v = y[:n], y[n:]
            u = np.array([-600.0, -300.0]) * min(t / 20.0, 1.0)
            return np.concatenate([v, Mi @ (P @ u - D @ v - K @ q - g * N(g @ q))])

        def jac(t, y):
            q = y[:n]
            Kt = K + dN(g @ q) * np.outer(g, g)
            return np.block([[np.zeros((n, n)), np.eye(n)], [-Mi @ Kt, -Mi @ D]])
        tt = np.linspace(0, tend, int(round(tend / h)) + 1)
        Y, y0 = [], np.zeros(2 * n)
        # the load's kink at 20 ms: two pieces, so the step control never straddles it
        for a, b in ((0.0, 20.0), (20.0, tend)):
            te = np.clip(tt[(tt >= a - 1e-12) & (tt <= b + 1e-12)], a, b)
            sol = solve_ivp(f, (a, b), y0, method="Radau", jac=jac, t_eval=te, rtol=1e-10, atol=1e-12)
            assert sol.success, sol.message
            Y.append(sol.y[obs] if a == 0 else sol.y[obs][1:])
            y0 = sol.y[:, -1]
        yref = np.concatenate(Y)
        scale = np.abs(yref).max()
        for meth in ("central", "newmark"):
            y0h, y1h = L(f"{model}_{law}_{meth}_0")[:, 0], L(f"{model}_{law}_{meth}_1")[:, 0]
            e0 = np.abs(y0h - yref).max()
            e1 = np.abs(y1h[::2] - yref).max()
            rich = (4 / 3) * np.abs(y0h - y1h[::2]).max()
            tol = 2 * rich + 1e-8 * scale
            ok = e0 <= tol and e1 <= e0 / 2 + 1e-8 * scale
            fails += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {model} frame ({n} DOFs), law {law}, {meth}: max |3V - scipy| {e0:.3g} mm at h, "
                  f"{e1:.3g} at h/2 (Richardson estimate {rich:.3g}, tol {tol:.3g}; max |3V| {scale:.3g} mm)")
sys.exit(1 if fails else 0)
