#!/usr/bin/env bash
# dynred pmor on a closed ring (tests/data/pmor/ring.yaml, 144 DOFs), checked
# by tests/e2e/pmor_check.py against numpy/scipy from the Matrix Market files:
# the full FRF (dense solve), every support ROM's FRF (own numpy basis),
# spline weights (scipy CubicSpline, periodic), invariance under T_i, the
# interpolated ROM at p_i = the transformed support ROM, the interpolated
# FRF.  Panzer + cubic spline + Rayleigh damping on 2 ranks; Amsallem-Farhat
# + linear weights undamped on 3 ranks (3 farm groups, each its own model).
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
$MPIEXEC -n 2 $DYNRED -config ring.yaml -output a.h5 > a.log
cat a.log
grep -q "one eigensolve (12 modes) and one factorization of K per rank group (1 group(s)) serve all 12 supports" a.log
/usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . a.h5
$MPIEXEC -n 3 $DYNRED -config ring.yaml -output b.h5 -pmor_method amsallem -pmor_weights linear \
  -pmor_damping_beta 0 -ranks_per_group 1 -pmor_frf_fmin 7 > b.log
grep -q "3 rank group(s)" b.log
/usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . b.h5
test ! -e a.h5.supports.h5
test ! -e b.h5.supports.h5
