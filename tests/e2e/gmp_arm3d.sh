#!/usr/bin/env bash
# dynred gmp on configs/arm3d_gmp.yaml (spatial two-link arm, two rigid DOFs,
# 9 x 5 tensor grid) on 1 and 3 ranks.  Asserts:
#  - rotating the whole arm about the vertical axis (theta1) changes no
#    eigenvalue: lambda(theta1, theta2) = lambda(0, theta2) to 1e-9, while
#    theta2 (the arm's shape) does change them;
#  - two zero eigenvalues (two rigid modes) at every point, K's rigid rows 0;
#  - tracking along both axes: every neighbour MAC > 0.9 (no veering here);
#  - 1 and 3 ranks agree to 1e-9.
set -euo pipefail
cd "$T"
$DYNRED -config $ROOT/configs/arm3d_gmp.yaml -output np1.h5 > np1.log
$MPIEXEC -n 3 $DYNRED -config $ROOT/configs/arm3d_gmp.yaml -output np3.h5 > np3.log
cat np1.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
a, b = h5py.File("np1.h5", "r"), h5py.File("np3.h5", "r")
th, lam, K = a["/gmp/grid/theta"][:], a["/gmp/grid/lambda"][:], a["/gmp/grid/K"][:]
assert th.shape == (45, 2) and lam.shape == (45, 8)
assert np.abs(K[:, :2, :]).max() == 0
assert np.abs(lam[:, :2]).max() < 1e-9 * lam[:, 2].min()
ls = np.sort(lam, axis=1)
for j in range(5):
    blk = ls[j * 9:(j + 1) * 9, 2:]
    d = np.abs(blk - blk[0]).max() / blk[0].max()
    assert d < 1e-9, (j, d)
assert np.abs(ls[0, 2:] - ls[-1, 2:]).max() / ls[0, 2:].max() > 1e-3
assert a["/gmp/track/mac_diag"][:].min() > 0.9
for d in ("/gmp/grid/M", "/gmp/grid/K", "/gmp/grid/lambda", "/gmp/grid/psi"):
    x, y = a[d][:], b[d][:]
    e = np.abs(x - y).max() / np.abs(x).max()
    assert e < 1e-9, (d, e)
print("ok")
PY
