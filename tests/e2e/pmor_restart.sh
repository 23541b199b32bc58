#!/usr/bin/env bash
# A support sweep killed after 5 of its 12 static modes (-farm_stop_after:
# MPI_Abort, as a killed job) leaves no output but its checkpoint; the same
# command resumes, restores the 5, computes 7 and ends with a file equal to
# an uninterrupted run's; the checkpoint is then removed.  A checkpoint of
# another sweep (other supports) is refused with one line.  The same for the
# per-support path (a tool mass and spring: K(p), M(p)), at the end.
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
C="-config ring.yaml -ranks_per_group 1"
$MPIEXEC -n 2 $DYNRED $C -output ref.h5 > ref.log
if $MPIEXEC -n 2 $DYNRED $C -output out.h5 -farm_stop_after 5 > kill.log 2>&1; then echo "interrupted run exited 0"; exit 1; fi
test ! -e out.h5
test -e out.h5.supports.h5
# the same command with another pmor.nmodes would mix 12-mode and 10-mode
# supports: its checkpoint is refused in one line on 3 ranks (the count is
# in the signature; it used to reach a rank-0 check that left the others
# waiting for the -error_wait abort), and the checkpoint is kept
if $MPIEXEC -n 3 $DYNRED $C -output out.h5 -pmor_nmodes 10 > nm.log 2>&1; then echo "a checkpoint of 12-mode supports accepted for pmor.nmodes 10"; exit 1; fi
grep -q "out.h5.supports.h5: checkpoint of a different sweep" nm.log
test "$(grep -c 'dynred: error' nm.log)" = 1
if grep -q "not every rank" nm.log; then cat nm.log; echo "FAIL: the refused checkpoint ended in the -error_wait abort"; exit 1; fi
test -e out.h5.supports.h5
test ! -e out.h5
$MPIEXEC -n 2 $DYNRED $C -output out.h5 > restart.log
cat restart.log
grep -Eq "static modes: 7 computed, 5 restored" restart.log
test -e out.h5
test ! -e out.h5.supports.h5
# the restored static modes are the stored bits of the same solves; the
# rest is the same computation on the same ranks: identical, except that
# the farm's dynamic scheduling may send a support to the other group
# (a different MUMPS factorization of the same K): 1e-12 relative, and
# 1e-12 absolute for the relative errors (near zero at the supports)
/usr/bin/python3 $ROOT/tests/e2e/h5check.py group ref.h5 out.h5 /pmor 1e-12 error 1e-12
$MPIEXEC -n 1 $DYNRED $C -output other.h5 -farm_stop_after 2 > /dev/null 2>&1 || true
if $MPIEXEC -n 1 $DYNRED $C -output other.h5 -pmor_support_every 3 > bad.log 2>&1; then echo "foreign checkpoint accepted"; exit 1; fi
cat bad.log
grep -q "other.h5.supports.h5: checkpoint of a different sweep" bad.log
test "$(grep -c 'dynred: error' bad.log)" = 1

# The per-support path (issue 15 item 2: K and M depend on p through a tool
# mass and spring, each support its own eigensolve and factorization, one
# farm task each): killed after 5 of its 12 supports, it leaves only the
# checkpoint; the same command restores the 5 support ROMs, computes 7 and
# ends with the uninterrupted run's file (same 1e-12 argument as above).
TOOL="-pmor_tool_mass 0.1 -pmor_tool_stiffness 2000"
$MPIEXEC -n 2 $DYNRED $C $TOOL -output tref.h5 > tref.log
grep -q "supports: 12 computed, 0 restored" tref.log
if $MPIEXEC -n 2 $DYNRED $C $TOOL -output tool.h5 -farm_stop_after 5 > tkill.log 2>&1; then echo "interrupted per-support run exited 0"; exit 1; fi
test ! -e tool.h5
ck=$(ls tool.h5.*.h5)
echo "checkpoint left: $ck"
$MPIEXEC -n 2 $DYNRED $C $TOOL -output tool.h5 > trestart.log
cat trestart.log
grep -Eq "supports: 7 computed, 5 restored" trestart.log
test -e tool.h5
test ! -e "$ck"
/usr/bin/python3 $ROOT/tests/e2e/h5check.py group tref.h5 tool.h5 /pmor 1e-12 error 1e-12
