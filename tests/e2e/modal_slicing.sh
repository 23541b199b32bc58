#!/usr/bin/env bash
# Spectrum slicing (modal.fmax) finds exactly the modes the lowest-n solve
# finds below fmax, with the same frequencies, on 1 and 2 ranks.
set -euo pipefail
cd "$T"
J=$ROOT/tests/data/jobs/small_plate.yaml
$DYNRED -config $J -modal_nmodes 30 -output n30.h5 > n30.log
for np in 1 2; do
  $MPIEXEC -n $np $DYNRED -config $J -modal_fmax 1000 -output s$np.h5 > s$np.log
done
/usr/bin/python3 - <<PY
import h5py, numpy as np
f30 = h5py.File("n30.h5")["/modal/frequencies_hz"][:]
assert f30[-1] > 1000, "30 modes do not reach 1000 Hz; raise nmodes"
ref = f30[f30 < 1000]
for np_ in (1, 2):
    s = h5py.File(f"s{np_}.h5")["/modal/frequencies_hz"][:]
    assert len(s) == len(ref), f"slicing on {np_} rank(s) found {len(s)} modes below 1000 Hz, lowest-n solve {len(ref)}"
    err = np.max(np.abs(s - ref) / ref)
    # tol: each solve's eigenvalues carry <= 1e-12 (SLEPc tol) + kappa u relative, kappa ~ lambda_max/lambda_1 ~ 1e8:
    # 2.2e-8, 1.1e-8 in frequency, 2.2e-8 between the two solves.  (Was 1e-8, below that bound: loosened.)
    assert err < 5e-8, f"frequencies differ by {err}"
    print(f"ok slicing on {np_} rank(s): {len(s)} modes below 1000 Hz, max rel diff {err:.1e}")
PY
