#!/usr/bin/env bash
# dynred modal on the small plate: output layout, and identical results
# (frequencies 1e-9 relative, mode shapes MAC 1 - 1e-6) on 1, 2 and 3 ranks.
set -euo pipefail
cd "$T"
J=$ROOT/tests/data/jobs/small_plate.yaml
for np in 1 2 3; do
  $MPIEXEC -n $np $DYNRED -config $J -output np$np.h5 > np$np.log
done
cat np1.log
/usr/bin/python3 $ROOT/tests/e2e/h5check.py layout np1.h5
# tol: SLEPc residual tol 1e-12 and MUMPS kappa u on the small plate (kappa ~ 1e6): eigenvalue differences <= 2 (1e-12 + 2e-10), 1e-9 in frequency; MAC 1 - 1e-6 in h5check.py
/usr/bin/python3 $ROOT/tests/e2e/h5check.py same np1.h5 np2.h5 1e-9
/usr/bin/python3 $ROOT/tests/e2e/h5check.py same np1.h5 np3.h5 1e-9
