#!/usr/bin/env bash
# pmor.interpolation: manifold (Amsallem-Farhat: M and K interpolated as
# X_ref^1/2 expm(sum w_i logm(X_ref^-1/2 X_i X_ref^-1/2)) X_ref^1/2, D, B,
# C linear) on the ring, checked by tests/e2e/pmor_check.py against scipy:
# at a support the interpolated M, K equal the transformed support ROM (to
# the round-off bound of the log-exp round trip, n eps cond(X_ref)(1 +
# |log lambda|)); halfway between supports M and K are SPD and agree with
# scipy's sqrtm/logm/expm (Schur-based, another algorithm); the FRF of the
# interpolated ROM on the whole grid agrees with a dense numpy solve of the
# scipy-interpolated ROM.  Panzer + cubic spline + Rayleigh damping on 2
# ranks; Amsallem-Farhat + linear weights, undamped, on 3 ranks.
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
$MPIEXEC -n 2 $DYNRED -config ring.yaml -output a.h5 -pmor_interpolation manifold -pmor_frf_n 20 > a.log
/usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . a.h5 | tee a.check
grep -q "manifold K at the midpoints vs scipy" a.check
$MPIEXEC -n 3 $DYNRED -config ring.yaml -output b.h5 -pmor_interpolation manifold -pmor_method amsallem -pmor_weights linear \
  -pmor_damping_beta 0 -pmor_frf_fmin 7 -pmor_frf_n 20 > b.log
/usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . b.h5 | tee b.check
grep -q "manifold M at the midpoints vs scipy" b.check
echo ok
