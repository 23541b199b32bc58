"""A modal state space in the layout `dynred ss` writes (2x2 blocks
[[0, 1], [-w^2, -2 zeta w]]) for the per-pole marginal split (issue 14):
2 rigid-body modes (w = 0, zeta = 0: double zero poles), 3 undamped modes
(w = 3, 300, 3e4 rad/s, zeta = 0) and 24 damped modes with w log-spaced over
0.5..1e5 rad/s (5.3 decades) and zeta uniform in 0.01..0.05; the blocks in a
shuffled order; 2 inputs on the velocities, 3 outputs on the positions;
fixed seed.  Writes the stable block alone to /stable/{A,B,C} (the reference
for the Hankel values) and the block kinds to /kind (0 rigid, 1 undamped,
2 damped).  usage: split_gen.py OUT.h5"""
import sys, h5py, numpy as np, scipy.linalg as sl
rng = np.random.default_rng(14)
w = np.concatenate([[0, 0], [3, 300, 3e4], np.logspace(np.log10(0.5), 5, 24)])
z = np.concatenate([[0] * 5, rng.uniform(0.01, 0.05, 24)])
kind = np.array([0, 0, 1, 1, 1] + [2] * 24)
perm = rng.permutation(len(w))
w, z, kind = w[perm], z[perm], kind[perm]
nm = len(w)
A = sl.block_diag(*[np.array([[0, 1], [-x * x, -2 * zz * x]]) for x, zz in zip(w, z)])
pin, pout = rng.standard_normal((nm, 2)), rng.standard_normal((3, nm))
B = np.zeros((2 * nm, 2)); B[1::2] = pin
C = np.zeros((3, 2 * nm)); C[:, 0::2] = pout
idx = np.array([[2 * k, 2 * k + 1] for k in range(nm) if kind[k] == 2]).ravel()
with h5py.File(sys.argv[1], "w") as f:
    for k, v in zip("ABCD", (A, B, C, np.zeros((3, 2)))):
        f["/ss/" + k] = v
    f["/stable/A"], f["/stable/B"], f["/stable/C"] = A[np.ix_(idx, idx)], B[idx], C[:, idx]
    f["/kind"] = kind
