#!/usr/bin/env bash
# GMP transient against the unreduced nonlinear flexible slider-crank
# (configs/slider_crank_gmp_nonlinear.yaml: co-rotational beams on the same
# mesh, exact joints, PETSc TSALPHA2; src/gmp/flexref.c, checked on its own
# by test_gmp_flexref: Euler-Bernoulli statics, rigid limit, energy balance,
# step and mesh convergence).  Seed 004's torque, h = 0.05 ms, 0.3 s; grid
# step 0.1 rad and 0.05 rad.  Asserts:
#  1. seed 004's ordering against the true reference: eigenspace keeps the
#     crank-end deflection in phase (correlation > 0.9, above linear and
#     quadratic);
#  2. theta tracking: every method within 1 % of the crank's travel (the
#     interpolation error of M(theta) at grid step 0.1 rad is ~ step^2 / 8 =
#     1.3e-3 relative for the O(step^2) methods); quadratic (O(step^3)) closer
#     than linear;
#  3. the finer grid is closer: linear and eigenspace (O(step^2)) theta
#     errors drop by > 2.5 (4 asymptotically) from step 0.1 to 0.05 rad, the
#     linear and quadratic deflection correlations rise, and the quadratic
#     theta error reaches its O(step^3) share plus the reduction's floor:
#     the reduced equations linearize K about rho(theta) and drop the
#     delta dPsi/dtheta inertia terms, both O(deflection / length), so the
#     floor is max|w| / L1 of the reference;
#  4. the dropped delta dPsi_d/dtheta theta' velocity field (Naets et al.'s
#     terms the reduced equations leave out) is O(|w| / L1) of the kept one:
#     asserted < 10 max|w| / L1 (rotation of the mode shapes with the crank
#     moves a deflection |w| at the crank speed, against the rigid velocity
#     theta' L);
#  5. results independent of the number of ranks (1, 2, 3: the reference is
#     computed on rank 0; the grid on the farm), over 0.05 s.
set -euo pipefail
cd "$T"
CFG=$ROOT/configs/slider_crank_gmp_nonlinear.yaml
$ROOT/tests/par.sh "$DYNRED -config $CFG -output a.h5 -gmp_verify_step 0 > a.log" \
  "$DYNRED -config $CFG -output b.h5 -gmp_verify_step 0 -gmp_theta1_step 0.05 > b.log"
cat a.log
tail -7 b.log
for n in 1 2 3; do
  $MPIEXEC -n $n $DYNRED -config $CFG -output r$n.h5 -gmp_verify_step 0 -gmp_transient_t_end 0.05 > r$n.log
done
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
M = ("linear", "quadratic", "eigenspace")
def load(fn):
    f = h5py.File(fn, "r")
    a = {m: dict(f[f"/gmp/transient/{m}"].attrs) for m in M}
    ref = f["/gmp/transient/nonlinear/deflection"][:]
    return f, a, ref
fa, A, wa = load("a.h5")
fb, B, wb = load("b.h5")
ref = fa["/gmp/transient"].attrs["reference"]
ref = ref.decode() if isinstance(ref, bytes) else ref
assert ref == "nonlinear", ref
L1 = 0.3
wmax = np.abs(wa).max() / L1
print("max |w| / L1 of the reference:", wmax)
print(f"{'grid':>6} {'method':>11} {'theta err':>10} {'phase [deg]':>11} {'corr':>7} {'dropped':>9}")
for step, X in (("0.1", A), ("0.05", B)):
    for m in M:
        x = X[m]
        print(f"{step:>6} {m:>11} {x['theta_error_rel']:10.3e} {x['phase_error_deg']:11.2f} {x['correlation']:7.4f} {x['dropped_inertia_ratio']:9.2e}")
c = {m: A[m]["correlation"] for m in M}
e = {m: A[m]["theta_error_rel"] for m in M}
eb = {m: B[m]["theta_error_rel"] for m in M}
# 1. tol: 0.9 and the ordering are seed 004's reported behaviour (Figs. 4-6), not a rounding bound
assert c["eigenspace"] > 0.9 and c["eigenspace"] > c["linear"] and c["eigenspace"] > c["quadratic"], c
# 2. tol: 1 % of the travel: the M(theta) interpolation error at step 0.1 rad (~1.3e-3), 8x margin
assert max(e.values()) < 1e-2, e
assert e["quadratic"] < e["linear"], e
# 3. tol: order 2 in the grid step -> 4x for half the step; 2.5 asserted
for m in ("linear", "eigenspace"):
    assert e[m] / eb[m] > 2.5, (m, e[m], eb[m])
assert B["linear"]["correlation"] > A["linear"]["correlation"], (A["linear"], B["linear"])
assert B["quadratic"]["correlation"] > A["quadratic"]["correlation"], (A["quadratic"], B["quadratic"])
# tol: O(step^3) share of the 0.1 rad error plus the reduction floor O(max|w| / L1)
assert eb["quadratic"] < e["quadratic"] / 8 + wmax, (eb["quadratic"], e["quadratic"], wmax)
# 4. tol: O(|w| / L1) with an order-one factor from the mode shapes' rotation; 10 asserted
for X in (A, B):
    for m in M:
        assert 0 < X[m]["dropped_inertia_ratio"] < 10 * wmax, (m, X[m]["dropped_inertia_ratio"], wmax)
t = fa["/gmp/transient/t"][:]
# tol: t_end reached by 6000 steps of 5e-5: accumulated rounding 6000 u * 0.3 = 4e-13
assert abs(t[-1] - 0.3) < 1e-9 and len(t) == 601
# 5. ranks: the reference is sequential on rank 0 (identical); the methods
# interpolate grid ROMs computed on the farm: identical up to the rounding
# of the eigen-solves (tol: 1e-6 relative on the error measures, which
# are differences of O(1e-3))
r = [h5py.File(f"r{n}.h5", "r") for n in (1, 2, 3)]
for f in r[1:]:
    assert np.array_equal(f["/gmp/transient/nonlinear/theta"][:], r[0]["/gmp/transient/nonlinear/theta"][:])
    assert np.array_equal(f["/gmp/transient/nonlinear/deflection"][:], r[0]["/gmp/transient/nonlinear/deflection"][:])
    for m in M:
        a0, a1 = r[0][f"/gmp/transient/{m}"].attrs["theta_error_rel"], f[f"/gmp/transient/{m}"].attrs["theta_error_rel"]
        assert abs(a1 - a0) <= 1e-6 * abs(a0), (m, a0, a1)
print("ok")
PY
