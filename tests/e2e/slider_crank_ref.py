#!/usr/bin/python3
"""Independent numpy slider-crank ROM (seed 004, configs/slider_crank_gmp.yaml)
at a few grid points of a dynred gmp result, built from the config's data
only:
  - configuration: closed form, crank O-A at angle theta, connector A-B with
    B = (L1 cos theta + sqrt(L2^2 - L1^2 sin^2 theta), 0);
  - 5 + 5 planar Euler-Bernoulli beams (axial bar + Hermite bending,
    consistent mass), slider mass on node 12 (u, v); nodes 6 (crank end) and
    7 (connector start) share u, v (revolute A), pin O (u = v = 0 at node 1),
    slider v = 0 at node 12;
  - theta fixed (rotation of node 1 = 0): the 7 lowest modes X of
    (N^T K N, N^T M N); the rigid mode r = n_theta + N z with
    N^T K N z = -N^T K n_theta (static completion: strain-free);
  - Psi = [r | N X], K_R = [0 0; 0 X^T K X], M_R = Psi^T M Psi, lambda =
    eigenvalues of (K_R, M_R).
Checked against /gmp/grid/{rho, lambda, K, M} (invariants only, since
tracking may flip signs and reorder deformation modes: M_R[0,0], sorted
diag(K_R), |M_R[0, k]| in the order of diag(K_R), the eigenvalues).

With --export (a result with gmp.export_point = the one GRID_INDEX): the
exported free-mechanism modes /gmp/export/modes equal the numpy Psi Phi
(Phi: (K_R, M_R) eigenvectors, mass-normalized) up to each mode's sign.

  slider_crank_ref.py RESULT.h5 GRID_INDEX... [--export]
"""
import sys
import h5py
import numpy as np
import scipy.linalg as sla

L1, L2, nel, E, rho, A, I, ms, nm = 0.3, 0.7, 5, 210e9, 7800.0, 1e-4, 8.333333333333333e-10, 0.1, 7
u = np.finfo(float).eps


def beam(x1, x2):
    d = np.subtract(x2, x1)
    L = np.hypot(*d)
    c, s = d / L
    k, m = np.zeros((6, 6)), np.zeros((6, 6))
    ea, mm = E * A / L, rho * A * L
    for (i, j), v in {(0, 0): 1, (0, 3): -1, (3, 0): -1, (3, 3): 1}.items():
        k[i, j] = ea * v
    m[np.ix_([0, 3], [0, 3])] = mm / 6 * np.array([[2, 1], [1, 2]])
    b = [1, 2, 4, 5]
    k[np.ix_(b, b)] = E * I / L ** 3 * np.array([[12, 6 * L, -12, 6 * L], [6 * L, 4 * L * L, -6 * L, 2 * L * L],
                                                 [-12, -6 * L, 12, -6 * L], [6 * L, 2 * L * L, -6 * L, 4 * L * L]])
    m[np.ix_(b, b)] = mm / 420 * np.array([[156, 22 * L, 54, -13 * L], [22 * L, 4 * L * L, 13 * L, -3 * L * L],
                                           [54, 13 * L, 156, -22 * L], [-13 * L, -3 * L * L, -22 * L, 4 * L * L]])
    R = np.zeros((6, 6))
    for o in (0, 3):
        R[o:o + 3, o:o + 3] = [[c, s, 0], [-s, c, 0], [0, 0, 1]]
    return R.T @ k @ R, R.T @ m @ R


def rom(theta):
    a = L1 * np.array([np.cos(theta), np.sin(theta)])
    b = np.array([L1 * np.cos(theta) + np.sqrt(L2 ** 2 - (L1 * np.sin(theta)) ** 2), 0.0])
    xy = np.array([a * k / nel for k in range(nel + 1)] + [a + (b - a) * k / nel for k in range(nel + 1)])
    nn = len(xy)
    K, M = np.zeros((3 * nn, 3 * nn)), np.zeros((3 * nn, 3 * nn))
    for body in (0, 1):
        for e in range(nel):
            i = body * (nel + 1) + e
            ke, me = beam(xy[i], xy[i + 1])
            idx = list(range(3 * i, 3 * i + 6))
            K[np.ix_(idx, idx)] += ke
            M[np.ix_(idx, idx)] += me
    tip = nn - 1
    M[3 * tip, 3 * tip] += ms
    M[3 * tip + 1, 3 * tip + 1] += ms
    # null-space basis of the joints with theta fixed: independent DOFs
    ia, ib = nel, nel + 1
    dep = {0: None, 1: None, 2: None, 3 * tip + 1: None, 3 * ib: 3 * ia, 3 * ib + 1: 3 * ia + 1}
    cols = [i for i in range(3 * nn) if i not in dep]
    N = np.zeros((3 * nn, len(cols)))
    for c, i in enumerate(cols):
        N[i, c] = 1
    for i, j in dep.items():
        if j is not None:
            N[i] = N[j]
    nth = np.zeros(3 * nn)
    nth[2] = 1
    Kf, Mf = N.T @ K @ N, N.T @ M @ N
    lf, X = sla.eigh(Kf, Mf, subset_by_index=[0, nm - 1])
    r = nth + N @ np.linalg.solve(Kf, -N.T @ K @ nth)
    Psi = np.column_stack([r, N @ X])
    MR = Psi.T @ M @ Psi
    KR = np.zeros_like(MR)
    KR[1:, 1:] = (N @ X).T @ K @ (N @ X)
    lam, Phi = sla.eigh(KR, MR)
    rom.modes = Psi @ Phi
    return xy, KR, MR, lam, np.linalg.cond(Mf), np.linalg.norm(K @ r) / np.linalg.norm(K, 2)


f = h5py.File(sys.argv[1], "r")
g = f["/gmp/grid"]
fails = 0
export = "--export" in sys.argv
for gi in (int(a) for a in sys.argv[2:] if a != "--export"):
    th = g["theta"][gi, 0]
    xy, KR, MR, lam, kap, strain = rom(th)
    Kd, Md, ld, rd = g["K"][gi], g["M"][gi], g["lambda"][gi], g["rho"][gi]
    # rho: the closed form vs dynred's Newton on the joint equations, stopped
    # at a residual of 1e-14 (L1 + L2) (src/gmp/mechanism.c): 10x that
    e_rho = np.abs(rd - xy).max()
    # LAPACK eigenpairs of a definite pencil: eigenvalue errors <= a few u
    # kappa(M_ff) lambda_max (Weyl on the Cholesky-reduced pencil); relative
    # to the largest of them: 100 u kappa(M_ff).  The same bound carries to
    # the Ritz matrices K_R, M_R (projections on the modes).
    tol = 100 * u * kap
    e_lam = np.abs(ld - lam).max() / lam.max()
    o_me, o_dy = np.argsort(np.diag(KR)[1:]), np.argsort(np.diag(Kd)[1:])
    e_k = np.abs(np.diag(Kd)[1:][o_dy] - np.diag(KR)[1:][o_me]).max() / KR.max()
    e_m00 = abs(Md[0, 0] - MR[0, 0]) / MR[0, 0]
    e_mc = np.abs(np.abs(Md[0, 1:][o_dy]) - np.abs(MR[0, 1:][o_me])).max() / np.abs(MR).max()
    ok = e_rho <= 1e-13 * (L1 + L2) and max(e_lam, e_k, e_m00, e_mc) <= tol and abs(ld[0]) <= tol * lam.max()
    fails += not ok
    print(f"{'ok  ' if ok else 'FAIL'} grid point {gi} (theta {th:.4f}): rho {e_rho:.2g} m, lambda {e_lam:.2g}, diag K_R {e_k:.2g}, "
          f"M_R[0,0] {e_m00:.2g}, |M_R[0,k]| {e_mc:.2g} (tol {tol:.2g}: 100 u kappa(M_ff), kappa {kap:.3g}); "
          f"rigid mode strain |K r|/|K| {strain:.2g}; f = {np.sqrt(np.maximum(lam[1:4], 0)) / (2 * np.pi)} Hz ...")
    if export:
        ex = f["/gmp/export/modes"][:]
        assert abs(f["/gmp/export/theta"][0] - th) < 1e-15, "export point is not this grid point"
        # eigenvectors move by (eigenvalue tolerance) / (relative gap to the
        # nearest other eigenvalue) (Davis-Kahan)
        gap = np.min(np.diff(lam)) / lam.max()
        tv = tol / gap
        sg = np.sign(np.sum(ex * rom.modes, axis=0))
        e_v = np.abs(ex - rom.modes * sg).max() / np.abs(rom.modes).max()
        ok = e_v <= tv and np.all(sg != 0)
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL'} grid point {gi}: exported modes Psi Phi = numpy, max rel diff {e_v:.2g} (tol {tv:.2g} = eigenvalue tol / relative gap {gap:.2g})")
sys.exit(1 if fails else 0)
