#!/usr/bin/python3
"""Independent reference for the substructure powers of `dynred sysred`
(method energy, model modal, sysred.energy.cms; tests/e2e/sysred_energy_sub.sh).

simulate(cms, ss, comps, shape, t_end): the modal equations of the ss result
    eta'' + C eta' + Lambda eta = B u(t),  u_j = shape(t) on every input,
integrated with scipy's DOP853 (rtol 1e-12) with the power integrals riding
along.  The powers are formed in PHYSICAL coordinates, a different route from
dynred's projected matrices: for component s (K_s, M_s read from its Matrix
Market files here), q_s = Phi_s eta, v_s = Phi_s eta', a_s = Phi_s eta'' (Phi_s
the rows of /cms/modes at the component's DOF labels), the forces on its DOFs
    f_s = M_s a_s + M_s Phi_s C eta' + K_s q_s  (modal damping split by mass)
and P_s = v_s . f_s, dissipation v_s . M_s Phi_s C eta', energy
(v_s.M_s v_s + q_s.K_s q_s)/2; the input power on its DOFs: the inputs whose
label it holds (the first component holding a shared one).  Per mode:
P_k = eta_k' (B u)_k, dissipation c_k eta_k'^2, energy (eta_k'^2 + w_k^2 eta_k^2)/2.

`energy_sub_ref.py balance OUT.h5`: the energy balances on dynred's own
output (work = energy at t_end + dissipated per mode and per part; the parts'
and the modes' works sum to the input work; the interface works cancel)."""
import sys

import h5py
import numpy as np
import scipy.io
from scipy.integrate import solve_ivp


def component(d, name):
    """K, M (dense) and (node, dir) labels of a chain_gen.py component"""
    K = scipy.io.mmread(f"{d}/{name}_K.mtx").toarray()
    M = scipy.io.mmread(f"{d}/{name}_M.mtx").toarray()
    lab = [tuple(int(x) for x in line.split(".")) for line in open(f"{d}/{name}.dof") if line.strip()]
    return K, M, lab


def simulate(cms, ss, comps, shape, t_end):
    so = h5py.File(ss)["/ss/second_order"]
    Mm, Dm, Km, B = (so[k][:] for k in ("M", "D", "K", "input_map"))
    m, nin = B.shape
    assert np.allclose(Mm, np.eye(m), atol=1e-12)
    c, lam = np.diag(Dm), np.diag(Km)
    inputs = [tuple(x) for x in h5py.File(ss)["/ss/inputs"][:]]
    f = h5py.File(cms)["/cms"]
    row = {tuple(l): i for i, l in enumerate(f["labels"][:])}
    Phi = f["modes"][:, :m]
    parts = []
    for K, M, lab in comps:
        P = Phi[[row[l] for l in lab]]
        parts.append((K, M, P, lab))
    owner = [next(s for s, p in enumerate(parts) if l in p[3]) for l in inputs]
    ns = len(parts)
    Pin = Phi[[row[l] for l in inputs]]  # nin x m: the inputs' DOF rows

    def powers(t, x):
        eta, v = x[:m], x[m:2 * m]
        u = shape(t)
        F = B @ np.full(nin, u)
        acc = F - c * v - lam * eta
        mk = np.concatenate([[v[k] * F[k] for k in range(m)], c * v * v])
        sub = []
        for s, (K, M, P, lab) in enumerate(parts):
            q, vs, a = P @ eta, P @ v, P @ acc
            fd = M @ (P @ (c * v))
            fs = M @ a + fd + K @ q
            Ps, ds = vs @ fs, vs @ fd
            pe = sum(Pin[j] @ v * u for j in range(nin) if owner[j] == s)
            sub.append((Ps, ds, pe))
        return mk, sub

    def rhs(t, x):
        eta, v = x[:m], x[m:2 * m]
        u = shape(t)
        F = B @ np.full(nin, u)
        mk, sub = powers(t, x)
        Pk, dk = mk[:m], mk[m:]
        out = [v, F - c * v - lam * eta, np.abs(Pk), Pk ** 2, Pk, dk]
        for Ps, ds, pe in sub:
            pi = Ps - pe
            out.append([abs(Ps), Ps ** 2, Ps, ds, pe, abs(pi), pi ** 2, pi])
        return np.concatenate([np.ravel(o) for o in out])

    nx = 2 * m + 4 * m + 8 * ns
    r = solve_ivp(rhs, (0, t_end), np.zeros(nx), method="DOP853", rtol=1e-12, atol=1e-16)
    x = r.y[:, -1]
    eta, v = x[:m], x[m:2 * m]
    I = x[2 * m:6 * m].reshape(4, m)
    J = x[6 * m:].reshape(ns, 8)
    mode = {"activity": I[0], "power_2norm": np.sqrt(I[1]), "work": I[2], "dissipated": I[3],
            "energy_end": 0.5 * (v ** 2 + lam * eta ** 2)}
    E = []
    for K, M, P, lab in parts:
        q, vs = P @ eta, P @ v
        E.append(0.5 * (vs @ M @ vs + q @ K @ q))
    sub = {"activity": J[:, 0], "power_2norm": np.sqrt(J[:, 1]), "work": J[:, 2], "dissipated": J[:, 3],
           "input_work": J[:, 4], "interface_activity": J[:, 5], "interface_power_2norm": np.sqrt(J[:, 6]),
           "interface_work": J[:, 7], "energy_end": np.array(E)}
    return {"mode": mode, "sub": sub}


def balance(path):
    o = h5py.File(path)["/sysred/energy"]
    m, s = o["modes"], o["substructures"]
    W = m["work"][:].sum()
    # rk5dp at rtol 1e-10 on states whose largest is the accumulated work:
    # the global error of a signed integral stays below ~1e3 local steps'
    # tolerance, 1e-7 of the input work
    tol = 1e-7 * abs(W)
    for g, name in ((m, "mode"), (s, "substructure")):
        d = g["work"][:] - g["energy_end"][:] - g["dissipated"][:]
        assert abs(d).max() < tol, f"{name}: int P dt - E(t_end) - dissipated = {d}"
    assert abs(s["work"][:].sum() - W) < tol, "the parts' works sum to the input work"
    assert abs(s["input_work"][:].sum() - W) < tol, "the parts' input works sum to the input work"
    assert abs(s["interface_work"][:].sum()) < tol, "the interface works cancel"
    assert abs(s["energy_end"][:].sum() - m["energy_end"][:].sum()) < tol, "the parts' energies sum to the modes'"
    assert abs(s["dissipated"][:].sum() - m["dissipated"][:].sum()) < tol, "the parts' dissipation sums to the modes'"
    assert abs(W - m.attrs["dissipated"] - m.attrs["energy_end"]) < tol
    print(f"ok: {path}: input work {W:.6g} = dissipated {m.attrs['dissipated']:.6g} + energy {m.attrs['energy_end']:.6g}; "
          f"interface works {np.round(s['interface_work'][:], 9)} cancel")


if __name__ == "__main__":
    if sys.argv[1] == "balance":
        balance(sys.argv[2])
