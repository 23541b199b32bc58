#!/usr/bin/env bash
# A gmp result as the source of dynred ss (issue 7: "a cms, ga or gmp
# result"): /gmp/export holds the free-mechanism modes Psi Phi at grid point
# gmp.export_point.  Asserts: the state space's frequencies equal
# sqrt(lambda)/(2 pi) of that grid point (1e-10), eig(A) = +-i omega, and B's
# velocity rows equal the exported modes at the input DOF.  Independent:
# grid point 5's ROM and the exported modes Psi Phi against the numpy
# slider-crank ROM of tests/e2e/slider_crank_ref.py.
set -euo pipefail
cd "$T"
$DYNRED -config $ROOT/configs/slider_crank_gmp.yaml -output g.h5 -gmp_verify_step 0 -gmp_transient_enabled 0 -gmp_export_point 5 > g.log
cat > ss.yaml <<'YAML'
job: ss
output: ss.h5
ss:
  source: g.h5
  group: /gmp/export
  inputs: [6.2]
  outputs: [6.2, 12.1]
YAML
$DYNRED -config ss.yaml > ss.log
cat ss.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
a, g = h5py.File("ss.h5", "r"), h5py.File("g.h5", "r")
f = a["/ss/frequencies_hz"][:]
ref = np.sqrt(np.maximum(g["/gmp/grid/lambda"][5], 0)) / (2 * np.pi)
# tol: sqrt of the same eigenvalues recomputed by dynred ss from the exported modes: kappa(M_R) u ~ 1e-11
assert f.shape == ref.shape and np.abs(f[1:] - ref[1:]).max() / ref[1:].max() < 1e-10, (f, ref)
# tol: a copy of the same double
assert abs(g["/gmp/export/theta"][0] - g["/gmp/grid/theta"][5, 0]) < 1e-15
w = np.sort(np.abs(np.linalg.eigvals(a["/ss/A"][:]).imag))[::2] / (2 * np.pi)
# tol: eig of the 16 x 16 A with a defective zero block (the rigid mode): that pair comes out at up to
# sqrt(u) omega_max = 1.5e-8 omega_max (the flexible ones to ~u); was 1e-8, below that bound: loosened to 5e-8
assert np.abs(w - ref).max() < 5e-8 * ref.max(), (w, ref)
lab = g["/gmp/export/labels"][:]
i = int(np.where((lab[:, 0] == 6) & (lab[:, 1] == 2))[0][0])
B = a["/ss/B"][:]
# tol: B's velocity rows are copies of the mode entries: exact up to one rounding (1e-12 is looser, left)
assert np.abs(B[1::2, 0] - g["/gmp/export/modes"][i, :]).max() < 1e-12 * np.abs(B).max()
print("ok")
PY
/usr/bin/python3 $ROOT/tests/e2e/slider_crank_ref.py g.h5 5 --export
