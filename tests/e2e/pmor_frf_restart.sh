#!/usr/bin/env bash
# The FRF sweep streams its (p, omega) results, one full-model frequency
# (all positions) per record, to a restartable checkpoint (OUTPUT.frf.h5,
# the farm's checkpoint, as the support sweep's OUTPUT.supports.h5).  Each
# farm counts its own tasks, so -farm_stop_after 13 lets the 12-support
# sweep finish and aborts the FRF sweep (MPI_Abort, as a killed job) after
# 13 of its 20 frequencies.  The same command resumes, restores the 12
# supports and 13 frequencies, computes 7 and ends with a file
# bit-identical to an uninterrupted run's (restored records are the stored
# bits; the rest is the same computation on 1 rank); both checkpoints are
# then removed.  A checkpoint of another frequency grid is refused with one
# line.
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
C="-config ring.yaml -pmor_frf_n 20"
$MPIEXEC -n 1 $DYNRED $C -output ref.h5 > ref.log
if $MPIEXEC -n 1 $DYNRED $C -output out.h5 -farm_stop_after 13 > kill.log 2>&1; then echo "interrupted run exited 0"; exit 1; fi
grep "farm_stop_after" kill.log
test ! -e out.h5
test -e out.h5.supports.h5
test -e out.h5.frf.h5
$MPIEXEC -n 1 $DYNRED $C -output out.h5 > restart.log
grep -E "static modes|full FRF" restart.log
grep -Eq "static modes: 0 computed, 12 restored" restart.log
grep -Eq "full FRF: 7 frequencies computed, 13 restored" restart.log
test -e out.h5
test ! -e out.h5.supports.h5
test ! -e out.h5.frf.h5
/usr/bin/python3 $ROOT/tests/e2e/h5check.py group ref.h5 out.h5 /pmor 0
$MPIEXEC -n 1 $DYNRED $C -output other.h5 -farm_stop_after 15 > /dev/null 2>&1 || true
test -e other.h5.frf.h5
if $MPIEXEC -n 1 $DYNRED $C -output other.h5 -pmor_frf_fmax 150 > bad.log 2>&1; then echo "foreign FRF checkpoint accepted"; exit 1; fi
cat bad.log | grep error
grep -q "other.h5.frf.h5: checkpoint of a different sweep" bad.log
test "$(grep -c 'dynred: error' bad.log)" = 1
echo ok
