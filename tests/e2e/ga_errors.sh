#!/usr/bin/env bash
# dynred ga input errors: one line naming the file and entry, exit 1, no
# output left behind.
set -euo pipefail
cd "$T"
E=$ROOT/tests/expect.sh
C=$ROOT/configs/bicycle_frame_ga.yaml
oneline() { local n; n=$( ($DYNRED "$@" 2>&1 >/dev/null || true) | wc -l); [ "$n" -eq 1 ] || { echo "error message is $n lines, expected 1: $*"; exit 1; }; }
$E "bicycle_frame_ga\.yaml:[0-9]+: ga\.forced_masters entry '99H' \(99\.1\) is not a DOF of the model" $DYNRED ga -config $C -output o.h5 -ga_forced_masters 15H,99H
oneline ga -config $C -output o.h5 -ga_forced_masters 15H,99H
$E "ga\.forced_masters entry '15Q' is not a DOF label, expected NODE followed by H, V" $DYNRED ga -config $C -output o.h5 -ga_forced_masters 15Q
oneline ga -config $C -output o.h5 -ga_forced_masters 15Q
$E "ga\.forced_masters lists '15H' twice" $DYNRED ga -config $C -output o.h5 -ga_forced_masters 15H,15H
$E "command line -ga_mutation: ga\.mutation = 2, expected 0\.\.1" $DYNRED ga -config $C -output o.h5 -ga_mutation 2
$E "ga\.method = 'serep', expected idc, irs or guyan" $DYNRED ga -config $C -output o.h5 -ga_method serep
$E "ga\.population = 7, expected an even number >= 4" $DYNRED ga -config $C -output o.h5 -ga_population 7
$E "no mode of the model reaches 3 x ga\.fmax" $DYNRED ga -config $C -output o.h5 -ga_fmax 1e6
# the CSV front and the checkpoint are written by rank 0: a place that
# cannot take them is refused before the run, and a write that fails during
# or after it (here: the temporary name taken by a directory) reaches every
# rank: one line and a clean exit on 2 and 3 ranks, not the -error_wait
# abort ("not every rank"), no output left (the checkpoint of a finished
# run stays: it continues the run)
$E "command line -ga_csv: ga\.csv = '/nonexistent-dir/x\.csv': directory '/nonexistent-dir' does not exist .*expected an existing writable directory" $MPIEXEC -n 2 $DYNRED ga -config $C -output o.h5 -ga_csv /nonexistent-dir/x.csv
$E "command line -ga_checkpoint: ga\.checkpoint = '\.': '\.' is a directory|ga\.checkpoint = '\.' is a directory, expected a file name" $MPIEXEC -n 3 $DYNRED ga -config $C -output o.h5 -ga_checkpoint .
mkdir ranks
(
  cd ranks
  mkdir x.csv.tmp c.h5.tmp
  if $MPIEXEC -n 2 $DYNRED ga -config $C -output o.h5 -ga_csv x.csv > csv.log 2>&1; then echo "FAIL: exit 0 with x.csv.tmp a directory"; exit 1; fi
  grep "dynred: error: x.csv: cannot write the CSV front (Is a directory)" csv.log
  left=$(ls -d o.h5 o.h5.tmp.* x.csv 2>/dev/null || true)
  if grep -q "not every rank" csv.log || [ -n "$left" ]; then cat csv.log; echo "FAIL: the CSV failure on 2 ranks aborted or left $left"; exit 1; fi
  if $MPIEXEC -n 3 $DYNRED ga -config $C -output o.h5 -ga_checkpoint c.h5 -ga_checkpoint_every 1 > ckpt.log 2>&1; then echo "FAIL: exit 0 with c.h5.tmp a directory"; exit 1; fi
  grep "dynred: error: c.h5.tmp: cannot create the GA checkpoint (HDF5) for ga.checkpoint = c.h5, expected a writable file" ckpt.log
  left=$(ls -d o.h5 o.h5.tmp.* c.h5 2>/dev/null || true)
  if grep -q "not every rank" ckpt.log || [ -n "$left" ]; then cat ckpt.log; echo "FAIL: the checkpoint failure on 3 ranks aborted or left $left"; exit 1; fi
)
rm -rf ranks
left=$(ls | grep -E "\.h5|\.tmp|\.csv" || true)
[ -z "$left" ] || { echo "output left behind: $left"; exit 1; }
echo ok
