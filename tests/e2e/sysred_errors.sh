#!/usr/bin/env bash
# Bad input to dynred sysred: one line naming the file (and line) and what
# was expected, non-zero exit, no output file left behind.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/randsys.py sys.h5
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
with h5py.File("bad.h5", "w") as f:
    f["/s/A"] = np.eye(6) * -1.0; f["/s/B"] = np.ones((5, 1)); f["/s/C"] = np.ones((1, 6))
    f["/d/A"] = -np.eye(6); f["/d/B"] = np.ones((6, 1)); f["/d/C"] = np.ones((2, 6)); f["/d/D"] = np.ones((1, 1))
    f["/v/A"] = -np.ones(6); f["/v/B"] = np.ones((6, 1)); f["/v/C"] = np.ones((1, 6))
PY
printf '%%%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1.0 0.0\n' > cplx.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 -1.0\n3 1 2.0\n' > range.mtx
printf '%%%%MatrixMarket matrix array real general\n2 1\n1.0\n' > short.mtx
printf '%%%%MatrixMarket matrix array real general\n1 2\n1.0\n1.0\n' > c.mtx
cat > ok.yaml <<'Y'
job: sysred
output: out.h5
sysred:
  source: sys.h5
  group: /stable
  order: 4
Y
$DYNRED -config ok.yaml > ok.log && rm out.h5
E=$ROOT/tests/expect.sh
$E 'sys.h5: /unstable: A is not stable: 1 of 20 poles are zero, undamped or unstable \(damping ratio below .*expected a stable system for sysred.split false' $DYNRED -config ok.yaml -sysred_group /unstable -sysred_split false
$E 'sys.h5: /undamped: the stable part is empty: all 6 poles have a damping ratio below .* add damping' $MPIEXEC -n 2 $DYNRED -config ok.yaml -sysred_group /undamped
$E 'ok.yaml:6: sysred.order = 21 is larger than the minimal order 20 of the system' $DYNRED -config ok.yaml -sysred_order 21
$E 'ok.yaml:6: sysred.order = 3 is below the 4 zero, undamped or unstable poles kept exactly, expected 4\.\.16' $DYNRED -config ok.yaml -sysred_group /marginal -sysred_order 3
$E 'ok.yaml:6: neither sysred.order nor sysred.tol is given' $DYNRED -config ok.yaml -sysred_order 0
$E 'ok.yaml:6: both sysred.order and sysred.tol are given' $DYNRED -config ok.yaml -sysred_tol 0.1
$E "command line -sysred_method: sysred.method = 'pca', expected" $DYNRED -config ok.yaml -sysred_method pca
$E 'bad.h5: /s/B: B is 5 x 1, expected 6 rows \(A is 6 x 6\)' $DYNRED -config ok.yaml -sysred_source bad.h5 -sysred_group /s
$E 'bad.h5: /d/D: D is 1 x 1, expected 2 x 1' $DYNRED -config ok.yaml -sysred_source bad.h5 -sysred_group /d
$E 'bad.h5: /v/A: 1-dimensional, expected a matrix' $DYNRED -config ok.yaml -sysred_source bad.h5 -sysred_group /v
$E 'sys.h5: no dataset /nothing/A, expected A, B, C\[, D\] in group /nothing' $DYNRED -config ok.yaml -sysred_group /nothing
$E "command line -sysred_source: sysred.source = 'none.h5': cannot read 'none.h5' \(No such file or directory\), expected a readable file" $DYNRED -config ok.yaml -sysred_source none.h5
cat > mtx.yaml <<'Y'
job: sysred
output: out.h5
sysred:
  mtx: {A: range.mtx, B: short.mtx, C: c.mtx}
  order: 1
Y
$E 'range.mtx:4: found .3 1 2.0., expected .row col value. \(1-based\) of a 2 x 2 matrix' $DYNRED -config mtx.yaml
$E 'cplx.mtx:1: found .*expected .%%MatrixMarket matrix coordinate\|array real' $DYNRED -config mtx.yaml -sysred_mtx_A cplx.mtx
$E 'short.mtx:3: 1 entries, expected 2' $DYNRED -config mtx.yaml -sysred_mtx_A stable_A.mtx
$E 'mtx.yaml:4: both sysred.source and sysred.mtx are given' $DYNRED -config mtx.yaml -sysred_source sys.h5
[ ! -e out.h5 ] && [ -z "$(ls -d out.h5.tmp* 2>/dev/null)" ] || { echo "FAIL: out.h5 or out.h5.tmp* was left"; exit 1; }
