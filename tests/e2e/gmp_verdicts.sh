#!/usr/bin/env bash
# The negative verdicts of dynred gmp, each on a genuine case and against an
# independent numpy computation from the written matrices.  The mechanism is
# the default slider-crank (configs/slider_crank_gmp.yaml's data) with lumped
# (HRZ) beam mass: its full mass matrix is then diagonal and the same at every
# configuration, so numpy recovers it from the written reduced masses
# (M_R[i] = psi[i]^T D psi[i] at all points, a linear least-squares problem in
# diag D) and recomputes the mass-weighted MACs between neighbours.
#  A (grid step 0.2 rad, full revolution, periodic): lumped mass brings two
#    deformation modes close, so neighbour modes veer: the number of intervals
#    whose smallest neighbour MAC (numpy, written tracked modes) is < mac_warn
#    equals the printed and written count, which is > 0 and below the number
#    of intervals; tracking follows the veering modes, so after the full
#    revolution (the same configuration: rho and the eigenvalues equal) the
#    tracked modes (psi, or the reduced eigenvectors Phi, tracked on their own)
#    are the first point's in another order or sign: "NOT closed", and periodic_closure equals numpy's
#    max(||psi_last - psi_0||_F / ||psi_0||_F, same for Phi).
#  B (grid step 0.8 rad, 9 points; verification every 0.05 rad): quadratic
#    interpolation's Lagrange weights are negative on part of each stencil,
#    and over 0.785 rad the tracked M_R changes enough that the weighted sum
#    loses definiteness: the printed count of indefinite interpolated masses
#    equals numpy's count of verification points where the same stencil of the
#    written grid M has a negative eigenvalue, and those points carry an
#    eigenvalue error of exactly 1 (the 100 % the verdict states).  Linear
#    interpolation is a convex combination of positive definite matrices,
#    hence never indefinite: no such line for it.
set -euo pipefail
cd "$T"
cat > a.yaml <<'EOF'
job: gmp
output: a.h5
gmp:
  mechanism: slider-crank
  nmodes: 7
  lumped: true
  theta1: {start: 0.0, stop: 6.283185307179586, step: 0.2, periodic: true}
  transient: {enabled: false}
EOF
sed 's/a\.h5/b.h5/; s/step: 0.2/step: 0.8/' a.yaml > b.yaml
echo '  verify_step: 0.05' >> b.yaml
$DYNRED -config a.yaml > a.log
$DYNRED -config b.yaml > b.log
cat a.log b.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, re
from scipy.optimize import linear_sum_assignment

def load(fn):
    f = h5py.File(fn, "r"); g = f["/gmp/grid"]
    return f, g["theta"][:, 0], g["M"][:], g["psi"][:], g["Phi"][:], g["lambda"][:]

def lumped_mass(M, psi):
    """diag D with M[i] = psi[i]^T D psi[i] at every point (least squares)"""
    live = np.abs(psi).max(axis=(0, 2)) > 0      # DOFs some mode moves
    P = psi[:, live, :]
    A = np.concatenate([np.einsum("ka,kb->abk", p, p).reshape(-1, P.shape[1]) for p in P])
    d = np.linalg.lstsq(A, M.reshape(-1), rcond=None)[0]
    # DOFs that always move together (the shared u, v of the crank's and the
    # connector's end nodes) leave only their sum determined; the MACs need
    # no more: every neighbour cross product vanishes on the null space
    _, sv, Vt = np.linalg.svd(A)
    for z in Vt[sv < 1e-10 * sv[0]]:
        # tol: null vectors are exact up to the SVD's rounding (1e-15); 1e-12 relative to |psi|^2 |z| = 1
        assert all(np.abs(P[i - 1].T @ (z[:, None] * P[i])).max() < 1e-12 for i in range(1, len(P)))
    # tol: a constant diagonal mass reproduces every M_R to rounding (n u |M| ~ 1e-14); 1e-10 leaves room for the accumulation over 36 DOFs
    res = np.abs(A @ d - M.reshape(-1)).max() / np.abs(M).max()
    assert res < 1e-10, res
    D = np.zeros(psi.shape[1]); D[live] = d
    return D

def count_line(log, pat):
    m = re.search(pat, log); assert m, pat
    return m

# ---- A: veering and periodic closure
f, th, M, psi, Phi, lam = load("a.h5"); log = open("a.log").read()
npt, nd, n = psi.shape; nt = 1
D = lumped_mass(M, psi)
w = f["/gmp/track"].attrs["mac_warn"]
mac = np.ones((npt, n - nt))
for i in range(1, npt):
    G = psi[i - 1].T @ (D[:, None] * psi[i])
    W = G[nt:, nt:] ** 2 / np.outer(np.diag(M[i - 1])[nt:], np.diag(M[i])[nt:])
    mac[i] = np.diag(W)
    # the written modes are tracked: the identity is an optimal assignment and the signs make the diagonal positive
    r, c = linear_sum_assignment(-W)
    # tol: equal totals up to the rounding of n MACs (1e-12)
    assert W[r, c].sum() - np.trace(W) < 1e-12 and (np.diag(G)[nt:] > 0).all(), i
# tol: recomputed MACs vs dynred's: different summation order and D from least squares (residual < 1e-10 relative)
assert np.abs(mac - f["/gmp/track/mac_diag"][:]).max() < 1e-9
mn = mac[1:].min(axis=1)
# tol: no interval within 1e-6 of the threshold, so the count does not hang on rounding
assert np.abs(mn - w).min() > 1e-6
nv = int((mn < w).sum())
m = count_line(log, r"smallest neighbour MAC ([0-9.]+); (\d+) interval\(s\) flagged as veering \(MAC < ([0-9.]+)\)")
print("veering: numpy", nv, "printed", m.group(2), "of", npt - 1, "intervals")
assert 0 < nv < npt - 1 and int(m.group(2)) == nv and float(m.group(3)) == w
assert (f["/gmp/track/veering"][1:] == (mn < w)).all() and f["/gmp/track/veering"][0] == 0
# tol: printed with 4 decimals
assert abs(float(m.group(1)) - mn.min()) <= 5e-5
# the last point is the first configuration: same node coordinates and eigenvalues
# tol: Newton-closed configuration and cos/sin rounding (1e-15); eigenvalues to kappa u ~ 1e-12 of the largest
assert np.abs(f["/gmp/grid/rho"][-1] - f["/gmp/grid/rho"][0]).max() < 1e-12
assert np.abs(np.sort(lam[-1]) - np.sort(lam[0])).max() < 1e-10 * lam.max()
# so the last deformation modes are the first ones up to order and sign
# (normalized mass cross products T a signed permutation), and so are the
# eigenvectors of the reduced pencil (S = Phi_0^T M_0 blockdiag(1, T) Phi_last)
def signed_perm(C):
    P = np.round(C)
    # tol: same configuration, eigenvectors equal up to kappa u / relative gap (relative eigenvalue gaps at theta = 0 are > 0.25 for both pencils): 1e-6 is loose
    assert np.abs(C - P).max() < 1e-6 and (np.abs(P).sum(0) == 1).all() and (np.abs(P).sum(1) == 1).all(), C
    return P
C = psi[0].T @ (D[:, None] * psi[-1])
T = signed_perm((C / np.sqrt(np.outer(np.diag(M[0]), np.diag(M[-1]))))[nt:, nt:])
Tf = np.eye(n); Tf[nt:, nt:] = T
S = signed_perm(Phi[0].T @ M[0] @ Tf @ Phi[-1])
print("deformation modes after a period (rows: first point):\n", T, "\nreduced eigenvectors after a period:\n", S)
# ... and not both the identity: a mode changed sign or order around the period
assert not ((T == np.eye(n - nt)).all() and (S == np.eye(n)).all())
fr = lambda a, r: np.linalg.norm(a - r) / np.linalg.norm(r)
clos = max(fr(psi[-1], psi[0]), fr(Phi[-1], Phi[0]))
a = f["/gmp/track"].attrs["periodic_closure"]
m = count_line(log, r"periodic closure after a full period: relative difference of modes ([0-9.e+-]+) \((NOT closed|closed)")
print("closure: numpy", clos, "attribute", a, "printed", m.group(1), m.group(2))
# tol: the same sums in another order: rounding 1e-14
assert abs(a - clos) < 1e-12 * clos and clos > 1e-6 and m.group(2) == "NOT closed"
# tol: printed with 3 significant digits
assert abs(float(m.group(1)) - clos) <= 5e-3 * clos

# ---- B: indefinite quadratic interpolation of the mass
f, th, M, psi, Phi, lam = load("b.h5"); log = open("b.log").read()
npt = len(th); h = (th[-1] - th[0]) / (npt - 1)
tf = f["/gmp/verify/theta"][:]
emin = []
for t in tf:  # Lagrange through theta_{i-1}, theta_i, theta_{i+1} (the first interval: 0, 1, 2; the last: the last three)
    i = min(max(int(np.floor((t - th[0]) / h)), 0), npt - 2)
    j0 = min(max(i - 1, 0), npt - 3)
    s = t - th[j0]
    wq = [(s - h) * (s - 2 * h) / (2 * h * h), s * (2 * h - s) / (h * h), s * (s - h) / (2 * h * h)]
    Mq = sum(wq[q] * M[j0 + q] for q in range(3))
    emin.append(np.linalg.eigvalsh(Mq).min() / np.abs(Mq).max())
emin = np.array(emin)
# tol: no point within 1e-9 of singular (relative to |M|), far above the rounding of the weighted sum and of the Cholesky test (1e-15)
assert np.abs(emin).min() > 1e-9
bad = emin < 0
ni = int(bad.sum())
m = count_line(log, r"\(quadratic: the interpolated mass matrix is indefinite at (\d+) points; counted as 100 % eigenvalue error\)")
print("indefinite quadratic masses: numpy", ni, "printed", m.group(1), "of", len(tf))
assert ni > 0 and int(m.group(1)) == ni
ee = f["/gmp/verify/quadratic/eig_error"][:]
# tol: 2 lambda vs lambda, sorted: |2l - l| / l = 1 up to rounding
assert np.abs(ee[bad] - 1).max() < 1e-12 and (ee[~bad] < 1).all()
assert "(linear: the interpolated mass matrix is indefinite" not in log
print("ok")
PY
