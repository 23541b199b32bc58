#!/usr/bin/env bash
# What the low-rank balanced truncation says about its error, against the
# true H-infinity error.  2 sum_{i>r} sigma_i bounds ||G - G_r||_inf only
# with the exact Gramians (Enns 1984; Glover 1984): the dense path writes it
# as /sysred/error_bound.  The low-rank path sums the Hankel values its
# approximate factors resolve; it must call that an estimate
# (/sysred/error_estimate, "estimated error ... not a bound"), never a bound.
#
# Case: the 50-mode modal state space of sysred_lowrank.sh (omega 1..10
# rad/s, zeta 0.3, 100 states), low-rank ADI forced with 2 shifts and a loose
# Lyapunov tolerance (relative residual 0.05): the factors resolve 20 Hankel
# values of 100, the rest (the tail) is unknown, and order 16 leaves out
# more than the four resolved values it discards.
# Reference: the full and the reduced transfer functions by numpy,
# C (iw - A)^-1 B + D on 4000 frequencies, and scipy's exact Gramians.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/modal_gen.py m.h5 50 1 10 0.3
cat > lr.yaml <<'Y'
job: sysred
output: lr.h5
sysred:
  source: m.h5
  order: 16
  gramians: lowrank
  lowrank: {solver: adi, shifts: 2, tol: 0.05}
  frf: {n: 0}
Y
$DYNRED -config lr.yaml > lr.log
$DYNRED -config lr.yaml -sysred_gramians dense -output dense.h5 > dense.log
cat lr.log
# the verdict text: an estimate on the low-rank path, the bound on the dense one
grep -q "estimated error 2 sum sigma_i over the 20 resolved Hankel values = .* (not a bound: the low-rank Gramians are approximate and the unresolved tail is left out)" lr.log
if grep -q "error bound" lr.log; then echo "the low-rank path calls its estimate a bound"; exit 1; fi
grep -q "error bound 2 sum sigma_i = " dense.log
est=$(sed -n 's/.*resolved Hankel values = \([^ ]*\) (not a bound.*/\1/p' lr.log)
/usr/bin/python3 - "$est" <<'PY'
import sys, h5py, numpy as np, scipy.linalg as sl
printed = float(sys.argv[1])
f = h5py.File("m.h5"); A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
L, Dn = h5py.File("lr.h5"), h5py.File("dense.h5")
assert "/sysred/error_bound" not in L and "/sysred/error_estimate" in L
assert "/sysred/error_estimate" not in Dn and "/sysred/error_bound" in Dn
meaning = L["/sysred"].attrs["error_estimate_meaning"]; meaning = meaning.decode() if isinstance(meaning, bytes) else meaning
assert "not an error bound" in meaning, meaning
h = L["/sysred/hsv"][:]; r = 16
est = L["/sysred/error_estimate"][0]
ns = L["/sysred"].attrs["n_stable"]
# the written estimate is the printed number (6 digits) and 2 sum of the
# written resolved Hankel values beyond the order (the same doubles)
assert len(h) == ns == 20, (len(h), ns)
assert abs(est - printed) <= 5e-6 * est and abs(est - 2 * h[r:].sum()) <= 1e-12 * est, (est, printed, h)
# exact Hankel values (scipy) and the true H-infinity errors on a dense grid
P = sl.solve_continuous_lyapunov(A, -B @ B.T); Q = sl.solve_continuous_lyapunov(A.T, -C.T @ C)
def fac(X):
    d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
s = np.linalg.svd(fac(Q).T @ fac(P), compute_uv=False)
def G(A, B, C, D, w): return C @ np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) + D
w = np.logspace(-1.5, 2, 4000)
def hinf(g):
    R = [g["/sysred/" + k][:] for k in "ABCD"]
    return max(np.linalg.svd(G(A, B, C, D, x) - G(*R, x), compute_uv=False)[0] for x in w)
true_lr, true_d = hinf(L), hinf(Dn)
bound_exact = 2 * s[r:].sum()
print(f"low-rank: printed estimate {est:.4g}, true H-inf error on the grid {true_lr:.4g} (ratio {est / true_lr:.3g}); "
      f"exact bound 2 sum sigma_i {bound_exact:.4g}; unresolved tail 2 sum_(i>20) sigma_i {2 * s[20:].sum():.4g}")
print(f"dense:    bound {Dn['/sysred/error_bound'][0]:.4g}, true H-inf error on the grid {true_d:.4g}")
# the case the naming is about: the low-rank sum is below the true error
# (the grid maximum is a lower bound of the H-infinity norm)
assert est < true_lr, (est, true_lr)
# the references: the exact bound holds for the dense model (a theorem; the
# dense Hankel values match scipy to 1e-10 sigma_1, sysred_lowrank.sh), and
# the dense path writes that bound
assert abs(Dn["/sysred/error_bound"][0] - bound_exact) <= 1e-8 * bound_exact
assert true_d <= bound_exact, (true_d, bound_exact)
print("ok")
PY
