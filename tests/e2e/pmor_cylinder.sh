#!/usr/bin/env bash
# The small version of the seed's cylinder (scripts/ccx_cylinder.py: 16 x 4
# C3D20R, clamped, CalculiX exports K and M): dynred pmor reads the deck,
# moves the load in x over half the tip ring (17 nodes, arc length), 5
# supports.  Reference: the full model's FRF (MUMPS, one solve per
# frequency).  Below half the first eigenfrequency the support ROMs are
# exact up to the truncated modes' dynamic part, eps <= (w / w_21)^2 /
# (1 - (w / w_21)^2) ~ 1e-2 at most (modal truncation with a static
# correction); asserted: support ROMs eps < 1e-2 there, and at 10 Hz the
# support ROMs equal the full FRF to (w / w_1)^2.  The full FRF's static
# limit, independently: scipy reads CalculiX's K, M and DOF list (cyl.sti,
# .mas, .dof), forms the static flexibility s = b^T K^-1 b of every path
# node (b: the unit load in x there) and w_1 (shift-invert Lanczos); with
# the Rayleigh stiffness damping D = beta K, the modal expansion
# H = sum_i (phi_i^T b)^2 / (w_i^2 (1 + i w beta) - w^2), s = sum_i
# (phi_i^T b)^2 / w_i^2 bounds |H(10 Hz) - s| / s <= ((w / w_1)^2 +
# w beta) / (1 - (w / w_1)^2) = 2.3e-4, asserted on every path node.
set -euo pipefail
cd "$T"
/usr/bin/python3 "$ROOT/scripts/ccx_cylinder.py" cyl 16 4
ccx -i cyl > ccx.log 2>&1
$MPIEXEC -n 2 $DYNRED -config cyl.yaml -pmor_nmodes 10 -pmor_frf_n 31 -pmor_frf_fmin 10 > cyl.log
cat cyl.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.sparse as sp, scipy.sparse.linalg as sla
g = h5py.File("cyl_pmor.h5", "r")["/pmor"]
lab = [tuple(int(t) for t in l.split(".")) for l in open("cyl.dof").read().split()]
N = len(lab)


def ccx(path):
    """CalculiX's exported matrix: one triangle, (i, j, v) 1-based; repeated entries add"""
    i, j, v = np.loadtxt(path, unpack=True, ndmin=2)
    i, j = i.astype(int) - 1, j.astype(int) - 1
    off = i != j
    return sp.coo_matrix((np.r_[v, v[off]], (np.r_[i, j[off]], np.r_[j, i[off]])), (N, N)).tocsc()


K, M = ccx("cyl.sti"), ccx("cyl.mas")
w1 = np.sqrt(sla.eigsh(K, 1, M, sigma=0, which="LM", return_eigenvectors=False)[0])
f1 = w1 / (2 * np.pi)
print(f"f1 = {f1:.3f} Hz (scipy), {g['frequencies_hz'][0]:.3f} Hz (dynred)")
# tol: both converge the eigenvalue to far below 1e-8 relative (residual targets 1e-12, kappa(K) u = 2.6e7 x 1.1e-16 = 3e-9)
assert abs(g["frequencies_hz"][0] - f1) <= 1e-8 * f1
fr = g["frf/omega"][:] / (2 * np.pi)
low = fr < 0.5 * f1
se = g["frf/support_error"][:]
print(f"f1 = {f1:.1f} Hz; support ROMs below {0.5 * f1:.0f} Hz: max eps_rel {se[:, low].max():.2e}")
assert low.sum() >= 3 and se[:, low].max() < 1e-2
# static limit: the ROM with the static mode is exact at w = 0, so H_support
# at 10 Hz and H_full at 10 Hz agree to the dynamic part, (10 / f1)^2
Hf, Hs = g["frf/H_full"][:, 0, 0], g["frf/H_support"][:, 0, 0]
idx = g["supports/index"][:]
p_grid = g["frf/p"][:]
d = np.abs(Hs - Hf[idx]) / np.abs(Hf[idx])
print(f"10 Hz: support ROMs vs full {d.max():.2e} (bound {(10 / f1) ** 2:.1e})")
assert d.max() < (10 / f1) ** 2
# the full FRF at 10 Hz against the static flexibility b^T K^-1 b at every path node
assert np.allclose(g["frf/p"][:], g["path/p"][:], rtol=0, atol=1e-9), "the FRF's p grid is not the path nodes"
B = np.zeros((N, len(p_grid)))
for c, node in enumerate(g["path/nodes"][:]):
    B[lab.index((int(node), int(g.attrs["direction"]))), c] = 1
s = np.einsum("ij,ij->j", B, sla.splu(K).solve(B))
w, beta = g["frf/omega"][0], g.attrs["beta"]
r = (w / w1) ** 2
H = g["frf/H_full"][:, 0, 0] + 1j * g["frf/H_full"][:, 0, 1]
e = np.abs(H - s) / s
# tol: the modal-expansion bound of the header; + 1e-8 for the two solves' rounding (kappa(K) u = 3e-9 relative each)
tol = (r + w * beta) / (1 - r) + 1e-8
print(f"{w / (2 * np.pi):.0f} Hz: full FRF vs b^T K^-1 b (scipy, {s.min():.4g} .. {s.max():.4g}): max relative {e.max():.2e} (bound {tol:.2e})")
assert s.min() > 0 and e.max() <= tol
PY
