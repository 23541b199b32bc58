#!/usr/bin/env bash
# A sweep killed after 150 of its points (-farm_stop_after: MPI_Abort on every
# rank, as a killed job) leaves no output but its checkpoint; the same
# command restarts, skips the 150 finished points and ends with a file equal
# to that of an uninterrupted run; the checkpoint is then removed.  A
# checkpoint of a different sweep is refused with one line naming it.
set -euo pipefail
cd "$T"
C="-config $ROOT/configs/slider_crank_gmp.yaml -gmp_transient_enabled 0 -gmp_verify_step 0.02"
$MPIEXEC -n 2 $DYNRED $C -output ref.h5 > ref.log
if $MPIEXEC -n 3 $DYNRED $C -output out.h5 -farm_stop_after 150 > kill.log 2>&1; then echo "interrupted run exited 0"; exit 1; fi
test ! -e out.h5
test -e out.h5.sweep.h5
$MPIEXEC -n 2 $DYNRED $C -output out.h5 > restart.log
cat restart.log
grep -q "150 of 379 restored" restart.log
grep -q "229 computed, 150 restored" restart.log
test -e out.h5
test ! -e out.h5.sweep.h5
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
a, b = h5py.File("ref.h5", "r"), h5py.File("out.h5", "r")
def walk(g, out):
    for k, v in g.items():
        if isinstance(v, h5py.Dataset): out[v.name] = v[:]
        else: walk(v, out)
da, db = {}, {}
walk(a["/gmp"], da); walk(b["/gmp"], db)
assert da.keys() == db.keys(), set(da) ^ set(db)
for k in da:
    assert np.array_equal(da[k], db[k]), k
print(f"ok: {len(da)} datasets identical")
PY
# a checkpoint from another sweep
$MPIEXEC -n 1 $DYNRED $C -output other.h5 -farm_stop_after 5 > /dev/null 2>&1 || true
if $MPIEXEC -n 1 $DYNRED $C -output other.h5 -gmp_nmodes 6 > bad.log 2>&1; then echo "foreign checkpoint accepted"; exit 1; fi
cat bad.log
grep -q "other.h5.sweep.h5: checkpoint of a different sweep" bad.log
test "$(grep -c 'dynred: error' bad.log)" = 1
