"""Independent references for `dynred sysred` method energy (tests/e2e/sysred_energy.sh).

piston_crank(): the seed-002 piston-crank (section 5.8) derived here from the
positions alone with sympy (Lagrange's equations, component powers as the time
derivatives of each component's kinetic energy, rod angle by atan2 of A - B),
not from dynred's velocity Jacobians; integrated with scipy's DOP853 with the
integrals int |P| dt and int P^2 dt riding along.
chain(): the element model of the test (masses, springs, dampers, a force)
as M x'' + C x' + K x = f(t), assembled here from the element lists."""
import numpy as np, sympy as sp
from scipy.integrate import solve_ivp

L1, L2 = 0.15, 0.35
PC_NAMES = ["m1", "m2", "m3", "I1", "I2"]


def _pc_lambdas():
    th, w, al = sp.symbols("theta omega alpha")
    m1, m2, m3, I1, I2 = sp.symbols("m1 m2 m3 I1 I2")
    A = sp.Matrix([L1 * sp.cos(th), L1 * sp.sin(th)])
    B = sp.Matrix([L1 * sp.cos(th) + sp.sqrt(L2 ** 2 - L1 ** 2 * sp.sin(th) ** 2), 0])
    G1, G2 = A / 2, (A + B) / 2
    phi = sp.atan2(A[1] - B[1], A[0] - B[0])
    vel = lambda P: P.diff(th) * w              # d/dt of a position that depends on theta only
    T = {"m1": m1 * vel(G1).dot(vel(G1)) / 2, "m2": m2 * vel(G2).dot(vel(G2)) / 2,
         "m3": m3 * vel(B).dot(vel(B)) / 2, "I1": I1 * w ** 2 / 2, "I2": I2 * (phi.diff(th) * w) ** 2 / 2}
    Ttot = sum(T.values())
    # Lagrange: d/dt dT/dw - dT/dth = tau  ->  M al + h = tau
    dTdw = Ttot.diff(w)
    M = dTdw.diff(w)
    h = dTdw.diff(th) * w - Ttot.diff(th)
    P = {k: v.diff(th) * w + v.diff(w) * al for k, v in T.items()}  # dT_c/dt
    args = (th, w, m1, m2, m3, I1, I2)
    f_M, f_h = sp.lambdify(args, M, cse=True), sp.lambdify(args, h, cse=True)
    f_P = sp.lambdify(args + (al,), [P[k] for k in PC_NAMES], cse=True)
    f_y = sp.lambdify(th, B[0])
    return f_M, f_h, f_P, f_y


_PC = None


def piston_crank(par, t_end=5.0, h=0.01, rtol=1e-12):
    """par = (m1, m2, m3, I1, I2), 0 for a removed one.  Returns t, y, activity[5], 2-norm[5], P_torque_2norm."""
    global _PC
    if _PC is None:
        _PC = _pc_lambdas()
    f_M, f_h, f_P, f_y = _PC
    tau = lambda t: 0.25 * np.exp(-0.2 * t) * np.sin(np.pi * t)

    def rhs(t, x):
        th, w = x[0], x[1]
        al = (tau(t) - f_h(th, w, *par)) / f_M(th, w, *par)
        P = np.array(f_P(th, w, *par, al), dtype=float)
        Pt = tau(t) * w
        return np.concatenate([[w, al], np.abs(P), P ** 2, [abs(Pt), Pt ** 2]])

    n = int(round(t_end / h))
    t = np.arange(n + 1) * h
    s = solve_ivp(rhs, (0, t[-1]), np.zeros(2 + 10 + 2), method="DOP853", t_eval=t, rtol=rtol, atol=rtol * 1e-2)
    assert s.success, s.message
    x = s.y
    return t, f_y(x[0]), x[2:7, -1], np.sqrt(x[7:12, -1]), (x[12, -1], np.sqrt(x[13, -1]))


def chain(ndof, masses, springs, dampers, forces, out, shape, t_end, h, rtol=1e-12):
    """Element lists as in the job file (1-based dofs, 0 ground); out: a dof
    (1-based) or a vector c with y = c . q.  Returns t, y, activity and
    2-norm per element in the order masses, springs, dampers, forces."""
    els = [("m", int(d) - 1, -1, v) for d, v in masses] + [("k", int(i) - 1, int(j) - 1, v) for i, j, v in springs] \
        + [("c", int(i) - 1, int(j) - 1, v) for i, j, v in dampers] + [("f", int(d) - 1, -1, v) for d, v in forces]
    M, K, C = np.zeros(ndof), np.zeros((ndof, ndof)), np.zeros((ndof, ndof))
    for kind, i, j, v in els:
        if kind == "m":
            M[i] += v
        elif kind in "kc":
            X = K if kind == "k" else C
            X[i, i] += v
            if j >= 0:
                X[j, j] += v; X[i, j] -= v; X[j, i] -= v
    ne = len(els)

    def rhs(t, x):
        q, v = x[:ndof], x[ndof:2 * ndof]
        f = np.zeros(ndof)
        for kind, i, j, a in els:
            if kind == "f":
                f[i] += a * shape(t)
        acc = (f - K @ q - C @ v) / M
        P = []
        for kind, i, j, a in els:
            L = q[i] - (q[j] if j >= 0 else 0); dL = v[i] - (v[j] if j >= 0 else 0)
            P.append(a * v[i] * acc[i] if kind == "m" else a * L * dL if kind == "k" else a * dL * dL if kind == "c" else a * shape(t) * v[i])
        P = np.array(P)
        return np.concatenate([v, acc, np.abs(P), P ** 2])

    n = int(round(t_end / h))
    t = np.arange(n + 1) * h
    s = solve_ivp(rhs, (0, t[-1]), np.zeros(2 * ndof + 2 * ne), method="DOP853", t_eval=t, rtol=rtol, atol=rtol * 1e-2)
    assert s.success, s.message
    x = s.y
    y = np.asarray(out) @ x[:ndof] if np.ndim(out) else x[out - 1]
    return t, y, x[2 * ndof:2 * ndof + ne, -1], np.sqrt(x[2 * ndof + ne:, -1])
