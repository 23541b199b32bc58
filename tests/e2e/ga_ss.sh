#!/usr/bin/env bash
# A ga result as the source of dynred ss: the reduced model of a Pareto
# solution (/ga/solutions/001: K, M over its master DOFs, dof_labels).
# Asserts: the state space's frequencies equal the generalized eigenvalues
# of that (K, M) from scipy (1e-10), in Hz (the model is in ms), and B's velocity rows are the
# mass-normalized modes at the input DOF (|B| = |Phi[input, :]|).
set -euo pipefail
cd "$T"
$DYNRED ga -config $ROOT/configs/bicycle_frame_ga.yaml -output ga.h5 -ga_population 40 -ga_generations 5 > ga.log
cat > ss.yaml <<'YAML'
job: ss
output: ss.h5
ss:
  source: ga.h5
  group: /ga/solutions/001
  inputs: [6.2]
  outputs: [15.1, 16.1]
YAML
$DYNRED -config ss.yaml > ss.log
cat ss.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
a, g = h5py.File("ss.h5", "r"), h5py.File("ga.h5", "r")["/ga/solutions/001"]
lam, phi = sl.eigh(g["K"][:], g["M"][:])
# configs/bicycle_frame_ga.yaml is in N-mm-ms-g: ss writes Hz and modes mass-normalized in N s^2/mm (Phi / 1 ms)
tu = 1e-3
w = np.sqrt(lam) / (2 * np.pi * tu)
phi = phi / tu
f = a["/ss/frequencies_hz"][:]
# tol: two LAPACK eigensolves of the same small pencil differ by ~kappa(M_R) u relative to lambda_max: 1e-10 allows kappa(M_R) up to 4e5
assert np.abs(f - w).max() < 1e-10 * w.max(), (f, w)
lab = g["dof_labels"][:]
i = int(np.where((lab[:, 0] == 6) & (lab[:, 1] == 2))[0][0])
B = a["/ss/B"][:]
# tol: eigenvectors of two solves agree to kappa(M_R) u / relative gap; 1e-8 allows that ratio up to 4e7
assert np.abs(np.abs(B[1::2, 0]) - np.abs(phi[i, :])).max() < 1e-8 * np.abs(phi[i]).max()
print("ok")
PY
