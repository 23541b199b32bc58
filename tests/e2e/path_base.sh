#!/usr/bin/env bash
# Where relative paths point (src/core/config.c DRConfigPathBase, used by
# every reader of a path key): a path in a job file is relative to the job
# file's folder, a path given on the command line is relative to the working
# directory (the README's `dynred ss -config configs/frame_ss.yaml
# -ss_source frame_cms.h5` run from the repository's root).  Asserts:
#  1. the job file's `ss.source: ../r.h5` (in sub/) and the command line's
#     `-ss_source r.h5` (from the working directory) read the same file: the
#     two state-space results are equal;
#  2. `-ss_source sub/../r.h5` works from the working directory too, and
#     `-ss_source ../r.h5` (which the job file's folder would have found)
#     fails naming the command-line option and the file it tried;
#  3. the same for a signal file (ss.input.file) and for hybrid.source.
set -euo pipefail
cd "$T"
mkdir sub
$DYNRED -config $ROOT/bench/ss/frame_cms.yaml -output r.h5 > cms.log
printf '0 0\n0.05 1000\n0.5 1000\n' > sub/load.txt
cp sub/load.txt load.txt
cat > sub/ss.yaml <<Y
job: ss
output: out_file.h5
ss:
  source: ../r.h5
  inputs: [909.1]
  outputs: [909.1]
  fmax: 30
  damping: {type: modal, zeta: [0.02]}
  sim: {methods: "newmark", h: 1e-3, t_end: 0.1}
  input: {signal: file, file: load.txt}
Y
$DYNRED -config sub/ss.yaml > file.log
$DYNRED -config sub/ss.yaml -ss_source r.h5 -ss_input_file load.txt -output out_cl.h5 > cl.log
$DYNRED -config sub/ss.yaml -ss_source sub/../r.h5 -output out_cl2.h5 > cl2.log
$ROOT/tests/expect.sh "command line -ss_source: ss.source = '../r.h5': cannot read '../r.h5'" $DYNRED -config sub/ss.yaml -ss_source ../r.h5 -output bad.h5
test ! -e bad.h5
$ROOT/tests/expect.sh "ss.input.file = 'sub/nope.txt': cannot read" $DYNRED -config sub/ss.yaml -ss_input_file sub/nope.txt -output bad.h5
test ! -e bad.h5
$ROOT/tests/expect.sh "cannot open as HDF5|cannot read" $DYNRED hybrid -config $ROOT/configs/bicycle_hybrid.yaml -hybrid_source sub/nope.h5 -output bad.h5
$ROOT/tests/expect.sh "'?sub/nope.h5'?" $DYNRED hybrid -config $ROOT/configs/bicycle_hybrid.yaml -hybrid_source sub/nope.h5 -output bad.h5
test ! -e bad.h5
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
a, b, c = (h5py.File(f, "r") for f in ("out_file.h5", "out_cl.h5", "out_cl2.h5"))
for g in ("/ss/A", "/ss/B", "/ss/C", "/ss/sim/y"):
    # the same source file and signal: bitwise the same results
    assert np.array_equal(a[g][:], b[g][:]) and np.array_equal(a[g][:], c[g][:]), g
print("ok: the job file's ../r.h5 and the command line's r.h5 and sub/../r.h5 are the same file")
PY
