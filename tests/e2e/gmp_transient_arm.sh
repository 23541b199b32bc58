#!/usr/bin/env bash
# The arm3d transient (issue 18 item 2, the arm): configs/arm3d_gmp_transient.yaml,
# the yaw held at one theta1 value and the elbow driven by a torque, each
# interpolation method's reduced GMP transient against the unreduced arm
# (src/gmp/flexref.c: co-rotational beams with the full nonlinear
# kinematics, planar in the vertical plane through link 1, which the
# mirror-symmetric arm keeps; the reference's own tests: test_gmp_flexref,
# arm rigid limit, energy balance, step refinement).  The reduced models are
# those of the spatial arm (6 DOF per node, every mode kept, the yaw's row
# and column dropped: DRGMPRomHold).  Asserts:
#  1. linear range (torque 0.01 N m, 0.1 s): the reduced transient converges
#     to the reference as modes are added (6, 12, 24 modes): the theta error
#     and the deflection error of every method fall by more than 2x per
#     doubling (the dropped modes' share of the response falls as their
#     frequencies rise), and with 24 modes every correlation is > 0.999;
#  2. large motion (torque 8 N m, link 2 rises 0.69 rad through the grid):
#     every method follows the reference's theta within 1 % of the travel,
#     its mean deflection over the last 25 % within 5 % with 6 modes; with
#     12 modes the deflection is closer and correlates > 0.95;
#  3. against the exact ROM recomputed every step (gmp.transient.reference
#     exact-rom: the interpolation alone) the quadratic method is the
#     closest in theta (seed 004's ordering);
#  3b. Naets' terms (E/2, 6 modes) bring every method's theta closer to the
#     reference (below 3/4 of the error without them; bench/README.md "GMP transient: the arm's elbow": they
#     do not bring the deflection closer, as in the slider-crank's hinge
#     frame);
#  4. the transient is the same on 1 and 3 ranks over its first 0.1 s (the grid points are
#     spread over the ranks; rank 0 integrates);
#  5. bad input: two theta1 values with the transient (the yaw must be held),
#     one theta1 value for the slider-crank, the chord frame with lattice
#     links;
#  6. the chord frame (gmp.frame chord: theta_2 is the elevation of link 2's
#     chord, the elbow's relative rotation a free DOF, plus the attachment
#     column, the static response to the motor's moment pair): in the
#     linear range it converges to the reference as in 1; every
#     method's theta error below 1/3 of the hinge frame's floor at E and
#     E/2 (the floor is the elastic root rotation theta carries in the hinge
#     frame); with Naets' terms the deflection error falls below 3/4; its
#     grid is the same on 1 and 3 ranks and with the sparse (SLEPc) path.
# A coarser mesh than the config's (6 + 5 elements, as gmp_transient_yaw)
# and h = 2e-4 s keep it short: the reduced models and the reference share
# that mesh and step, and every assertion compares the two (or two reduced
# runs); the mesh moves only the arm's higher modes (the reference's
# theta(t_end) and its 8.5 Hz deflection stay as with 10 + 8 elements), and
# 2e-4 s still resolves the deflection with about 600 steps a period.  The
# paper-like 0.4 s runs on the config's mesh and step are
# bench/gmp_arm_transient.sh.
set -euo pipefail
cd "$T"
CFG=$ROOT/configs/arm3d_gmp_transient.yaml
# the one-rank runs side by side (tests/par.sh: two at a time on 2 cores)
R="$DYNRED -config $CFG -gmp_nel1 6 -gmp_nel2 5 -gmp_transient_h 2e-4"
$ROOT/tests/par.sh \
  "$R -output big6.h5 > big6.log" \
  "$R -output big12.h5 -gmp_nmodes 12 > big12.log" \
  "$R -output half_false.h5 -gmp_E 105e9 -gmp_transient_naets false > half_false.log" \
  "$R -output half_true.h5 -gmp_E 105e9 -gmp_transient_naets true > half_true.log" \
  "$R -output exact.h5 -gmp_transient_reference exact-rom -gmp_transient_t_end 0.25 > exact.log" \
  "$R -output lin6.h5 -gmp_nmodes 6 -gmp_transient_torque 0.01 -gmp_transient_t_end 0.1 > lin6.log" \
  "$R -output lin12.h5 -gmp_nmodes 12 -gmp_transient_torque 0.01 -gmp_transient_t_end 0.1 > lin12.log" \
  "$R -output lin24.h5 -gmp_nmodes 24 -gmp_transient_torque 0.01 -gmp_transient_t_end 0.1 > lin24.log" \
  "$R -output chord.h5 -gmp_frame chord > chord.log" \
  "$R -output linc6.h5 -gmp_frame chord -gmp_nmodes 6 -gmp_transient_torque 0.01 -gmp_transient_t_end 0.1 > linc6.log" \
  "$R -output linc12.h5 -gmp_frame chord -gmp_nmodes 12 -gmp_transient_torque 0.01 -gmp_transient_t_end 0.1 > linc12.log" \
  "$R -output linc24.h5 -gmp_frame chord -gmp_nmodes 24 -gmp_transient_torque 0.01 -gmp_transient_t_end 0.1 > linc24.log" \
  "$R -output chord_half.h5 -gmp_frame chord -gmp_E 105e9 > chord_half.log" \
  "$R -output chord_naets.h5 -gmp_frame chord -gmp_transient_naets true > chord_naets.log" \
  "$R -output chord_sparse.h5 -gmp_frame chord -gmp_transient_enabled false -dense_max 1 -log_view > chord_sparse.log"
cat big6.log
grep -q "6 deformation modes + 1 attachment column (theta2: link 2's chord elevation)" chord.log
grep -q "^EPSSolve" chord_sparse.log # the sparse path ran
$MPIEXEC -n 3 $R -output chord_np3.h5 -gmp_frame chord -gmp_transient_enabled false > chord_np3.log
$ROOT/tests/expect.sh "gmp.frame chord: expected the slider-crank or arm3d with beam links" $DYNRED -config $CFG -output bad.h5 -gmp_frame chord -gmp_lattice 2 -gmp_width 0.05
test ! -e bad.h5
$MPIEXEC -n 3 $R -output np3.h5 -gmp_transient_t_end 0.1 > np3.log
$ROOT/tests/expect.sh "gmp_theta1_values: gmp.theta1 has 2 values: the arm3d transient holds the yaw" $DYNRED -config $CFG -output bad.h5 -gmp_theta1_values 0.3,0.5
test ! -e bad.h5
$ROOT/tests/expect.sh "gmp.theta1.values has 1 value\(s\): expected at least 2" $DYNRED -config $ROOT/configs/slider_crank_gmp_nonlinear.yaml -output bad.h5 -gmp_theta1_values 0.3
test ! -e bad.h5
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
M = ("linear", "quadratic", "eigenspace")
def att(f, m, a): return f[f"/gmp/transient/{m}"].attrs[a]
# 1 and 6 (the chord frame: 6, 12, 24 modes + the attachment column; the same arm, the same reference)
for frame, pre in (("hinge", "lin"), ("chord", "linc")):
    lin = {n: h5py.File(f"{pre}{n}.h5", "r") for n in (6, 12, 24)}
    for m in M:
        te = [att(lin[n], m, "theta_error_rel") for n in (6, 12, 24)]
        we = [att(lin[n], m, "deflection_error_rel") for n in (6, 12, 24)]
        print(m, frame, "frame, linear range, 6/12/24 modes: theta", te, "deflection", we)
        for k in range(2):
            # tol: modal truncation: the dropped modes' static share falls like (omega_dominant / omega_dropped)^2,
            # more than 4x per doubling of the modes for beams (omega_k ~ k^2); 2x asserted
            assert te[k + 1] < te[k] / 2 and we[k + 1] < we[k] / 2, (frame, m, te, we)
        # tol: correlation 1 - O(err^2) with the deflection error falling below 1e-2 by the rate above
        assert att(lin[24], m, "correlation") > 0.999, (frame, m)
big = {n: h5py.File(f"big{n}.h5", "r") for n in (6, 12)}
ref = big[6]["/gmp/transient/nonlinear/theta"][:]
assert abs(ref[-1] - ref[0]) > 0.5, ref[-1]  # the motion crosses most of the 0..1 rad grid
wr = big[6]["/gmp/transient/nonlinear/deflection"][:]
i0 = int(0.75 * len(wr))
for m in M:
    # tol: 1 % of the travel: the reduction's theta error (rigid-flexible coupling through 6 modes) is O(w / L2) ~ 1e-3
    assert att(big[6], m, "theta_error_rel") < 1e-2, m
    w = big[6][f"/gmp/transient/{m}/deflection"][:]
    # tol: 5 %: the quasi-static deflection under the constant torque is the rigid acceleration's inertia load on the
    # modes, carried by the lowest in-plane modes; 6 modes miss the higher ones' static share (a few %, item 1)
    assert abs(w[i0:].mean() - wr[i0:].mean()) < 0.05 * abs(wr[i0:].mean()), (m, w[i0:].mean(), wr[i0:].mean())
    # tol: 0.95 with 12 modes: the deflection's truncation error is a few % (item 1), and the theta error's floor,
    # O(w / L2) ~ 2e-3, shifts the 8 Hz oscillation by well under a degree: the correlation is 1 - O(err^2)
    assert att(big[12], m, "correlation") > 0.95, m
    assert att(big[12], m, "deflection_error_rel") < att(big[6], m, "deflection_error_rel"), m
    print(m, "large motion: theta error", att(big[6], m, "theta_error_rel"), "deflection error 6 -> 12 modes",
          att(big[6], m, "deflection_error_rel"), att(big[12], m, "deflection_error_rel"), "correlation", att(big[12], m, "correlation"))
ex = h5py.File("exact.h5", "r")
te = {m: att(ex, m, "theta_error_rel") for m in M}
print("against the exact ROM:", te)
assert te["quadratic"] < te["linear"] and te["quadratic"] < te["eigenspace"], te
hf = {nv: h5py.File(f"half_{nv}.h5", "r") for nv in ("false", "true")}
for m in M:
    a, b = att(hf["false"], m, "theta_error_rel"), att(hf["true"], m, "theta_error_rel")
    print(m, "E/2 theta error without -> with Naets' terms", a, b)
    # tol: 3/4: the terms restore inertia forces of the size of the dropped-inertia ratio (1e-2 here), which the
    # theta error (O(w / L2)) follows; a factor 4/3 separates it from step and interpolation effects (< 1e-4, item 3)
    assert b < 0.75 * a, (m, a, b)
n3 = h5py.File("np3.h5", "r")
for m in M + ("nonlinear",):
    for q in ("theta", "deflection"):
        b = n3[f"/gmp/transient/{m}/{q}"][:]
        a = big[6][f"/gmp/transient/{m}/{q}"][:len(b)]  # the same steps: the 0.4 s run's first 0.1 s
        # tol: the grid on 1 vs 3 ranks differs by kappa(M_ff) u ~ 1e-10 relative (gmp_arm3d); the integration
        # propagates it over 500 steps without amplification (undamped, stable): 1e-8 of the signal
        assert np.abs(a - b).max() <= 1e-8 * np.abs(a).max(), (m, q, np.abs(a - b).max())
# 6. the chord frame (gmp.frame chord: theta_2 the elevation of link 2's chord, 6 modes + the attachment column)
ch = {"E": h5py.File("chord.h5", "r"), "E/2": h5py.File("chord_half.h5", "r")}
hi = {"E": big[12], "E/2": hf["false"]}
for m in M:
    for e in ("E", "E/2"):
        a, b = att(hi[e], m, "theta_error_rel"), att(ch[e], m, "theta_error_rel")
        print(m, e, "theta error, hinge frame (E: 12 modes, E/2: 6) -> chord frame (6 + 1):", a, b,
              "deflection error", att(hi[e], m, "deflection_error_rel"), "->", att(ch[e], m, "deflection_error_rel"))
        # tol: 1/3: the hinge frame's floor (theta carries link 2's elastic root rotation, O(w / L2), and Psi is
        # evaluated at that angle) does not fall with modes (item 2: 6 and 12 modes alike); the chord frame's theta
        # holds none, what is left is truncation and interpolation (about 1/10 of the floor at E and E/2)
        assert b < a / 3, (m, e, a, b)
cn = h5py.File("chord_naets.h5", "r")
for m in M:
    a, b = att(ch["E"], m, "deflection_error_rel"), att(cn, m, "deflection_error_rel")
    print(m, "chord frame, E: deflection error without -> with Naets' terms", a, b,
          "theta error", att(ch["E"], m, "theta_error_rel"), "->", att(cn, m, "theta_error_rel"))
    # tol: 3/4: in the chord frame the deformation's inertia coupling delta dPsi/dtheta theta' is what the
    # deflection misses (the dropped-inertia ratio, about 1e-2 of the deflection's velocity at E); the terms
    # restore it (about 1/3 of the error left); a factor 4/3 separates it from step and interpolation effects
    assert b < 0.75 * a, (m, a, b)
# tol: as in gmp_transient_chord: the ranks change the order of parallel sums (round-off 1e-16) seen through the
# conditioning of the reduced pencils (4-5 decades of lambda): 1e-10 of the largest entry
g1, g3 = ch["E"], h5py.File("chord_np3.h5", "r")
for d in ("lambda", "M", "K", "psi"):
    x, y = g1[f"/gmp/grid/{d}"][:], g3[f"/gmp/grid/{d}"][:]
    assert x.shape == y.shape and np.abs(x - y).max() <= 1e-10 * np.abs(x).max(), (d, np.abs(x - y).max())
# tol 1e-8: the dense (LAPACK) and sparse (SLEPc, relative residual 1e-12) paths' modes and attachment column
# differ at the eigensolver's tolerance, seen through the pencils' conditioning, against the largest eigenvalue
ld, ls = g1["/gmp/grid/lambda"][:], h5py.File("chord_sparse.h5", "r")["/gmp/grid/lambda"][:]
assert ld.shape == ls.shape, (ld.shape, ls.shape)
assert np.abs(ld - ls).max() <= 1e-8 * np.abs(ld).max(), np.abs(ld - ls).max() / np.abs(ld).max()
print("ok")
PY
