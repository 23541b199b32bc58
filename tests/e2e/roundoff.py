"""Round-off bounds for comparing two computed eigenvalue sets of one model
(a full-model solve and a reduced one), used as the slack of index-wise
Rayleigh-Ritz and error-estimate checks.

Per mode k, relative to the frequency f_k (tests/e2e/cms_exact_beam.sh
derives it): each of the two solves is off by its convergence tolerance,
tol (1 + 1e-8 kappa_k) (SLEPc's relative test on the shift-and-invert
operator with DRModal's shift -1e-8 tr(K)/tr(M)), plus the round-off of a
backward-stable computation, sqrt(n) u (kappa_k + lambda_k / lambda_1),
kappa_k = lambda_max / lambda_k; two solves, halved for frequencies:
    tol (1 + 1e-8 kappa_k) + sqrt(n) u (kappa_k + lambda_k / lambda_1).

lambda_max: for meshes of identical 8-node hexahedra (the built-in plate,
CalculiX C3D8 bars), bounded from above by the largest eigenvalue of one
free element (Irons and Treharne, "A bound theorem in eigenvalue
problems of the finite element method", Int. J. Numer. Meth. Engng 3,
1971: the assembled lambda_max <= the largest element lambda_max), so the
bound below is a worst case, not an estimate.
"""
import numpy as np

U = np.finfo(float).eps / 2          # unit round-off 1.1e-16
SOLVER_TOL = 1e-12                   # modal.tol default, DRModal's for the full and the coupled solves


def hex8_lam_max(hx, hy, hz, E, nu, rho):
    """Largest eigenvalue of K_e x = lambda M_e x for one free hx x hy x hz
    brick: trilinear, 2x2x2 Gauss, consistent mass (src/model/fe_hex8.c,
    CalculiX C3D8)."""
    xi = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                   [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], float)
    lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
    D = lam * np.outer([1, 1, 1, 0, 0, 0], [1, 1, 1, 0, 0, 0]) + mu * np.diag([2, 2, 2, 1, 1, 1])
    h = np.array([hx, hy, hz]) / 2     # Jacobian of the map from [-1, 1]^3
    K, M = np.zeros((24, 24)), np.zeros((24, 24))
    for q in xi / np.sqrt(3):
        f = 1 + xi * q                                      # [8, 3]
        N = 0.125 * f.prod(1)
        dN = np.stack([0.125 * xi[:, d] * np.prod(np.delete(f, d, 1), 1) / h[d] for d in range(3)], 1)
        B = np.zeros((6, 24))
        for a in range(8):
            gx, gy, gz = dN[a]
            B[:, 3 * a:3 * a + 3] = [[gx, 0, 0], [0, gy, 0], [0, 0, gz], [gy, gx, 0], [0, gz, gy], [gz, 0, gx]]
        w = h.prod()
        K += w * B.T @ D @ B
        M += w * rho * np.kron(np.outer(N, N), np.eye(3))
    return float(np.max(np.linalg.eigvals(np.linalg.solve(M, K)).real))


def freq_bound(ff, lam_max, n, lam1=None, tol=SOLVER_TOL):
    """Relative bound on |f_reduced - f_full| / f_full per mode (the header),
    for full-model frequencies ff [Hz] of n DOFs; lam1: the first flexible
    eigenvalue (default: that of the smallest |ff| above 1e-3 Hz)."""
    lam = (2 * np.pi * np.abs(np.asarray(ff, float))) ** 2
    if lam1 is None:
        lam1 = lam[lam > (2 * np.pi * 1e-3) ** 2].min()
    lam = np.maximum(lam, lam1)     # rigid-body modes: no relative bound, take the first flexible one's
    kappa = lam_max / lam
    return tol * (1 + 1e-8 * kappa) + np.sqrt(n) * U * (kappa + lam / lam1)
