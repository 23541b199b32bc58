#!/usr/bin/env bash
# POD (sysred.method pod) of a dissipative linear system driven by its own
# snapshots (tests/data/sysred/pod_gen.py), checked in numpy:
#  - the snapshot singular values and the discarded energy fraction equal
#    numpy's SVD; the order is the smallest with discarded fraction <= tol;
#  - V^T V = I and ||X - V V^T X||_F^2 / ||X||_F^2 = the discarded fraction;
#  - A_r = V^T A V, B_r = V^T B, C_r = C V;
#  - the reduced model, simulated here with the same input, recovers the
#    trajectory within the a-posteriori Galerkin bound for dissipative A
#    (V^T A V is then dissipative, ||exp(A_r t)|| <= 1):
#      ||x(t) - V x_r(t)|| <= ||P x(t)|| + ||A||_2 int_0^t ||P x(s)|| ds,
#    P = I - V V^T, i.e. to the discarded part of the trajectory.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/pod_gen.py pod.h5
cat > pod.yaml <<'Y'
job: sysred
output: out.h5
sysred:
  source: pod.h5
  group: /sys
  method: pod
  tol: 1e-6
  pod: {snapshots: pod.h5, dataset: /snapshots}
Y
$DYNRED -config pod.yaml > pod.log
PYTHONPATH=$ROOT/tests/data/sysred /usr/bin/python3 - <<'PY'
import h5py, numpy as np, pod_gen as g
f = h5py.File("pod.h5"); X = f["/snapshots"][:].T; x = f["/sim/x"][:]; t = f["/sim/t"][:]
o = h5py.File("out.h5")
Ar, Br, Cr = (o["/sysred/" + k][:] for k in "ABC"); V = o["/sysred/T"][:]
s = np.linalg.svd(X, compute_uv=False)
sv = o["/sysred/pod/singular_values"][:]
assert abs(sv - s).max() < 1e-10 * s[0], "singular values"   # both LAPACK SVDs, backward stable
tail = np.array([(s[r:] ** 2).sum() for r in range(len(s) + 1)]) / (s ** 2).sum()
r = int(np.argmax(tail <= 1e-6))
disc = o["/sysred/pod"].attrs["discarded_energy"]
print(f"POD: order {V.shape[1]} (expected {r}), discarded energy fraction {disc:.3e}")
assert V.shape[1] == r and abs(disc - tail[r]) < 1e-12
assert abs(V.T @ V - np.eye(r)).max() < 1e-12
E = X - V @ (V.T @ X)
assert abs((E ** 2).sum() / (X ** 2).sum() - disc) < 1e-10   # round-off of the projection: eps * cond
assert abs(Ar - V.T @ g.A @ V).max() < 1e-12 * abs(g.A).max() * len(g.A)
assert abs(Br - V.T @ g.B).max() < 1e-12 * len(g.A) and abs(Cr - g.C @ V).max() < 1e-12 * len(g.A)
h = t[1] - t[0]
xr = g.simulate(Ar, Br, h, len(t) - 1)
err = np.linalg.norm(x - xr @ V.T, axis=1)
px = np.linalg.norm(x - (x @ V) @ V.T, axis=1)
# the integral on the simulation grid by the larger end point of each step:
# h = 1e-3 is 30x below the fastest time constant (||A|| ~ 40), so ||P x|| is
# resolved; 1 % slack for the quadrature
integ = np.concatenate([[0], np.cumsum(h * np.maximum(px[1:], px[:-1]))])
bound = px + np.linalg.norm(g.A, 2) * integ
print(f"trajectory: max ||x - V x_r|| = {err.max():.3e}, max relative {err.max() / np.linalg.norm(x, axis=1).max():.2e}; Galerkin bound max {bound.max():.3e}")
assert np.all(err <= 1.01 * bound + 1e-12 * np.linalg.norm(x, axis=1).max()), "Galerkin bound violated"
assert err.max() / np.linalg.norm(x, axis=1).max() < 1e-2, "trajectory not recovered"
# output
y = x @ g.C.T; yr = xr @ Cr.T
print(f"output: max |y - y_r| / max |y| = {abs(y - yr).max() / abs(y).max():.2e}")
print("ok")
PY
E=$ROOT/tests/expect.sh
$E 'pod.yaml:8: sysred.pod.snapshots is missing, expected the HDF5 file' $DYNRED -config pod.yaml -sysred_pod_snapshots ''
$E 'pod.h5: /sim/t has the wrong shape, expected snapshots \[time samples, 40 states\]' $DYNRED -config pod.yaml -sysred_pod_dataset /sim/t
