#!/usr/bin/env bash
# The per-pole marginal split of balanced truncation (issue 14): a modal
# state space (tests/data/sysred/split_gen.py) with 2 rigid-body modes, 3
# undamped modes and 24 damped modes over 5.3 decades (0.5..1e5 rad/s,
# zeta 0.01..0.05).  Checked in numpy/scipy:
#  - exactly the 4 + 6 states of the rigid-body and undamped modes are kept
#    (a threshold relative to ||A||_F alone, ~0.01 rad/s here, is of the
#    order of the lowest damped poles' Re(s) = -zeta w >= -0.025);
#  - the poles of the reduced model include the kept ones exactly;
#  - the Hankel values equal scipy's solve_continuous_lyapunov on the stable
#    block alone;
#  - the H-infinity error on a dense grid stays below 2 sum sigma_i;
#  - the same for the low-rank path (sysred.gramians lowrank, 2 ranks),
#    which splits the modal blocks the same way before its Gramian solves.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/split_gen.py split.h5
cat > sp.yaml <<'Y'
job: sysred
output: sp.h5
sysred:
  source: split.h5
  order: 20
  frf: {n: 0}
Y
timeout 300 $MPIEXEC -n 2 $DYNRED -config sp.yaml > sp.log
grep -q "10 poles kept exactly" sp.log
timeout 300 $MPIEXEC -n 2 $DYNRED -config sp.yaml -sysred_gramians lowrank -output splr.h5 > splr.log
grep -q "10 poles kept exactly" splr.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("split.h5"); A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
As, Bs, Cs = (f["/stable/" + k][:] for k in "ABC"); kind = f["/kind"][:]
for fn in ("sp.h5", "splr.h5"):
  print(fn)
  g = h5py.File(fn); Ar, Br, Cr, Dr = (g["/sysred/" + k][:] for k in "ABCD")
  at = g["/sysred"].attrs
  nkept = 2 * np.sum(kind < 2)
  print(f"kept exactly: {at['n_kept_exactly']} (expected {nkept}), stable states {at['n_stable']} (expected {As.shape[0]})")
  # n_stable: the Hankel values resolved (low-rank: the factors' rank after
  # compression, which drops values below 1e-8 sigma_1)
  assert at["n_kept_exactly"] == nkept == 10 and (at["n_stable"] == As.shape[0] == 48 or fn == "splr.h5" and 20 <= at["n_stable"] <= 48)
  # the kept poles: 4 zeros (rigid-body double zeros: accurate to sqrt(eps ||A||))
  # and +-3i, +-300i, +-3e4i (simple: accurate to eps ||A|| * condition of the
  # modal block, ||[[0,1],[-w^2,0]]|| ~ w^2 <= 1e10: 1e-5 absolute, with margin 1e-3)
  ev = np.linalg.eigvals(Ar)
  nrm = np.linalg.norm(A)
  nz = np.sum(abs(ev) < 10 * np.sqrt(np.finfo(float).eps * nrm))
  assert nz == 4, ev
  for wu in (3.0, 300.0, 3e4):
      d = abs(ev - 1j * wu).min()
      assert d < 1e-3, (wu, d)
  # Hankel values of the stable block.  Tolerance from the conditioning of the
  # block-diagonal Lyapunov equation: a pair of modal blocks (i, j) couples
  # through sep = |lambda_i + lambda_j| >= zeta_i w_i + zeta_j w_j, with
  # ||A_i|| + ||A_j|| <= w_i^2 + w_j^2 + 2: error <= eps * max(that ratio) *
  # sigma_1 for backward-stable solvers (both codes), with a factor 100 for
  # the Schur reorderings and the SVD of the factors
  P = sl.solve_continuous_lyapunov(As, -Bs @ Bs.T); Q = sl.solve_continuous_lyapunov(As.T, -Cs.T @ Cs)
  def fac(X):
      d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
  s = np.linalg.svd(fac(Q).T @ fac(P), compute_uv=False)
  lam = np.linalg.eigvals(As)
  nb = np.array([np.linalg.norm(As[k:k + 2, k:k + 2], 2) for k in range(0, As.shape[0], 2)])
  ev2 = [np.linalg.eigvals(As[k:k + 2, k:k + 2]) for k in range(0, As.shape[0], 2)]
  cond = max((nb[i] + nb[j]) / abs(ev2[i][:, None] + ev2[j][None, :]).min() for i in range(len(nb)) for j in range(len(nb)))
  tol = 100 * np.finfo(float).eps * cond
  h = g["/sysred/hsv"][:]
  e = abs(h - s[:len(h)]).max() / s[0]
  print(f"HSV vs scipy on the stable block: max diff / sigma_1 = {e:.2e} (tolerance {tol:.1e}, condition {cond:.2e})")
  # (low-rank: ADI with the 24 stable poles as shifts is exact after 24 steps)
  assert e < tol, (e, tol)
  # the dense path writes the bound; the low-rank path the same sum over its
  # resolved Hankel values as /sysred/error_estimate (all 48 resolved here:
  # ADI with the 24 stable poles as shifts is exact, so it bounds too)
  bound = g["/sysred/error_bound" if fn == "sp.h5" else "/sysred/error_estimate"][0]
  assert ("/sysred/error_bound" in g) == (fn == "sp.h5")
  assert abs(bound - 2 * s[10:].sum()) < tol * s[0] * len(s) + 1e-12 * bound
  def G(A, B, C, D, w): return C @ np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) + D
  w = np.logspace(-1.5, 5.5, 4000)
  w = w[np.min(abs(w[:, None] - np.array([3, 300, 3e4])[None, :]) / w[:, None], axis=1) > 1e-3]  # off the undamped resonances
  err, gm = 0, 0
  for x in w:
      Gf = G(A, B, C, D, x)
      e = np.linalg.svd(Gf - G(Ar, Br, Cr, Dr, x), compute_uv=False)[0]
      gn = np.linalg.svd(Gf, compute_uv=False)[0]
      # slack: the kept rigid-body (1/w^2) and undamped terms cancel to the
      # round-off of the split (eps times the condition of W, well below 1e-8)
      assert e <= bound + 1e-8 * gn, (x, e, bound, gn)
      err = max(err, e)
  print(f"H-inf error on {len(w)} frequencies {err:.4g} <= bound {bound:.4g} (sigma_11 = {s[10]:.4g})")
  # sigma_11 <= ||G - G_r||_inf (a theorem); the grid may miss the peak: its
  # spacing 0.4 % against the half-power bandwidth 2 zeta >= 2 % of a
  # resonance loses at most 1 - 1/sqrt(1 + (0.002/0.01)^2) = 2 %
  assert err >= 0.95 * s[10], (err, s[10])
print("ok")
PY
$ROOT/tests/expect.sh 'split.h5: /ss: A is not stable: 10 of 58 poles are zero, undamped or unstable' $DYNRED -config sp.yaml -sysred_split false
