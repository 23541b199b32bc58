"""A stable modal state space as `dynred ss` writes it (2x2 blocks
[[0, 1], [-w^2, -2 zeta w]], B = phi_in kron [0; 1], C = phi_out kron I2):
nm modes, omega log-spaced in [wlo, whi] rad/s, zeta (default 0.05), fixed seed.
usage: modal_gen.py OUT.h5 NMODES [WLO WHI [ZETA]]"""
import sys, h5py, numpy as np, scipy.linalg as sl
out, nm = sys.argv[1], int(sys.argv[2])
wlo, whi = (float(sys.argv[3]), float(sys.argv[4])) if len(sys.argv) > 4 else (10.0, 200.0)
rng = np.random.default_rng(7)
w = np.logspace(np.log10(wlo), np.log10(whi), nm)
zeta = float(sys.argv[5]) if len(sys.argv) > 5 else 0.05
A = sl.block_diag(*[np.array([[0, 1], [-x * x, -2 * zeta * x]]) for x in w])
pin, pout = rng.standard_normal((nm, 2)), rng.standard_normal((3, nm))
B = np.zeros((2 * nm, 2)); B[1::2] = pin
C = np.zeros((6, 2 * nm)); C[0::2, 0::2] = pout; C[1::2, 1::2] = pout
with h5py.File(out, "w") as f:
    for k, v in zip("ABCD", (A, B, C, np.zeros((6, 2)))):
        f["/ss/" + k] = v
