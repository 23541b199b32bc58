#!/usr/bin/env bash
# Signals and MPI errors end a job with one line (src/core/signals.c):
#  1. a fault in one rank (the test hook -farm_fault_task 1 -farm_fault segv:
#     the group root of GA individual 1, which the farm's static share gives
#     to rank 1 of 2, raises SIGSEGV): one `dynred: error:` line naming rank
#     1 of 2, the signal and the task, and no PETSc traceback (mpiexec then
#     stops rank 0 with SIGTERM, which may add its own "stopped" line);
#  2. an MPI error in one rank (-farm_fault mpi: a send of a negative count,
#     reported by MPI as MPI_ERR_COUNT): the same kind of line;
#  3. SIGTERM to mpiexec (what Ctrl-C, a scheduler's time limit or scancel
#     do) during a GA on 2 ranks once its checkpoint exists: one line naming
#     the checkpoint, no temporary file left, no output; the same command
#     resumes, and the front equals an uninterrupted run's (ga_check.py same:
#     the population and front to the last digit);
#  5. kill -9: a GMP sweep on 3 ranks whose rank 0 gets SIGKILL once 150
#     results are checkpointed (-farm_test_kill_after 150; mpiexec then ends
#     the others): no output, the sweep checkpoint kept; the same command on
#     3 ranks restores the 150 and ends with /gmp identical (==) to an
#     uninterrupted run;
#  4. the same for a CMS job on 2 ranks (tests/data/cms/resume_plate.yaml,
#     whose superelements are checkpointed as they are made): SIGTERM once
#     one superelement is stored (-cms_test_stall 5: each rank group waits
#     5 s after a store, so the job is still running when the signal comes);
#     no OUTPUT.tmp.PID, no HASH.h5.tmp; the rerun
#     reuses what was stored and its result is bit-identical to an
#     uninterrupted run (2 groups of one rank: the same arithmetic whatever
#     is reused, as tests/e2e/cms_resume.sh shows on 1 and 3 ranks).
# scripts/mpi-env.sh shortens Open MPI's grace between the SIGTERM it
# forwards and its SIGKILL; a user's mpiexec keeps the default, so these
# runs do too.  The signal goes to mpiexec itself, as from a terminal or a
# batch system: not through timeout(1), which would signal the whole
# process group (mpiexec and its I/O forwarding with the ranks).
set -euo pipefail
cd "$T"
unset OMPI_MCA_odls_base_sigkill_timeout
C=$ROOT/configs/bicycle_frame_ga.yaml
one_line() { # FILE REGEX [PREFIX]: exactly one line starting PREFIX (default
  # "dynred: "), matching REGEX, and no traceback
  local n
  n=$(grep -c "^${3:-dynred: }" "$1" || true)
  [ "$n" = 1 ] || { echo "$1: $n lines '${3:-dynred: }', expected 1"; cat "$1"; exit 1; }
  grep -qE "$2" "$1" || { echo "$1: the line does not match $2"; cat "$1"; exit 1; }
  if grep -q 'PETSC ERROR' "$1"; then echo "$1: PETSc traceback"; cat "$1"; exit 1; fi
}
# 1., 2.
for kind in segv mpi; do
  rc=0
  timeout 300 $MPIEXEC -n 2 $DYNRED -config $C -ga_population 4 -ga_generations 2 -ga_checkpoint_every 0 -output f.h5 -farm_fault_task 1 -farm_fault $kind > $kind.log 2> $kind.err || rc=$?
  [ $rc != 0 ] && [ $rc != 124 ] || { echo "$kind: exit $rc, expected a failure (124: hung)"; exit 1; }
  case $kind in
    segv) one_line $kind.err '^dynred: error: rank 1 of 2: SIGSEGV \(invalid memory access\) during individual 1: .*try ' 'dynred: error: ';;
    mpi) one_line $kind.err '^dynred: error: rank 1 of 2: MPI failed during individual 1: MPI_ERR_COUNT.*; check ' 'dynred: error: ';;
  esac
  test ! -e f.h5
done
# 3. GA
OPTS="-ga_population 40 -ga_generations 150 -ga_checkpoint_every 1"
timeout 600 $MPIEXEC -n 2 $DYNRED -config $C -output ref.h5 $OPTS > ref.log
$MPIEXEC -n 2 $DYNRED -config $C -output ga.h5 $OPTS > ga1.log 2> ga1.err &
P=$!
for _ in $(seq 3000); do [ -f ga.h5.ckpt.h5 ] && break; sleep 0.02; done
test -f ga.h5.ckpt.h5 || { echo "no GA checkpoint appeared"; exit 1; }
kill -TERM $P
rc=0; wait $P || rc=$?
[ $rc != 0 ] || { echo "GA: exit 0 after SIGTERM (finished before the signal?)"; exit 1; }
echo "GA: mpiexec exited $rc after SIGTERM"; cat ga1.log | tail -2
one_line ga1.err '^dynred: stopped by SIGTERM during .*; kept the checkpoint ga\.h5\.ckpt\.h5: run the same command again to resume$'
test ! -e ga.h5
if ls | grep -q '\.tmp'; then echo "GA: a temporary file was left:"; ls; exit 1; fi
timeout 600 $MPIEXEC -n 2 $DYNRED -config $C -output ga.h5 $OPTS > ga2.log
grep -q "continuing from ga.h5.ckpt.h5" ga2.log
/usr/bin/python3 $ROOT/tests/e2e/ga_check.py same ref.h5 ga.h5
# 4. CMS
PLATE=$ROOT/tests/data/cms/resume_plate.yaml
timeout 600 $MPIEXEC -n 2 $DYNRED -config $PLATE -output cref.h5 > cref.log
rm -rf cref.h5.ckpt
$MPIEXEC -n 2 $DYNRED -config $PLATE -output c.h5 -cms_test_stall 5 > c1.log 2> c1.err &
P=$!
for _ in $(seq 1200); do ls c.h5.ckpt/*.h5 > /dev/null 2>&1 && break; sleep 0.05; done
ls c.h5.ckpt/*.h5 > /dev/null 2>&1 || { echo "no CMS checkpoint file appeared"; exit 1; }
kill -TERM $P
rc=0; wait $P || rc=$?
[ $rc != 0 ] || { echo "CMS: exit 0 after SIGTERM (finished before the signal?)"; exit 1; }
one_line c1.err '^dynred: stopped by SIGTERM during .*; kept the checkpoint c\.h5\.ckpt: run the same command again to resume$'
test ! -e c.h5
if find . -name '*.tmp*' | grep -q .; then echo "CMS: a temporary file was left:"; find .; exit 1; fi
timeout 600 $MPIEXEC -n 2 $DYNRED -config $PLATE -output c.h5 > c2.log
grep -q "reused from" c2.log
/usr/bin/python3 - <<'PY'
# every dataset and attribute outside /timing identical (==)
import h5py, numpy as np, sys
def walk(f):
    out = {"/@" + k: v for k, v in f.attrs.items() if k != "config"}
    def visit(name, o):
        if name == "timing" or name.startswith("timing/"): return
        if isinstance(o, h5py.Dataset): out["/" + name] = o[()]
        for k, v in o.attrs.items():
            if k not in ("t_start_s", "t_end_s"): out["/" + name + "@" + k] = v
    f.visititems(visit)
    return out
a, b = walk(h5py.File("cref.h5")), walk(h5py.File("c.h5"))
diff = [k for k in sorted(set(a) | set(b)) if k not in a or k not in b or not np.array_equal(np.asarray(a[k]), np.asarray(b[k]))]
if diff: sys.exit("CMS resumed after SIGTERM differs from the uninterrupted run in: " + ", ".join(diff[:10]))
print("ok: CMS resumed after SIGTERM is bit-identical to the uninterrupted run")
PY
# 5. GMP sweep, kill -9
G="-config $ROOT/configs/slider_crank_gmp.yaml -gmp_transient_enabled 0 -gmp_verify_step 0.02"
timeout 600 $MPIEXEC -n 3 $DYNRED $G -output gref.h5 > gref.log
rc=0; timeout 600 $MPIEXEC -n 3 $DYNRED $G -output k.h5 -farm_test_kill_after 150 > k1.log 2>&1 || rc=$?
[ $rc != 0 ] && [ $rc != 124 ] || { echo "GMP: exit $rc after kill -9 (124: hung)"; exit 1; }
test ! -e k.h5
test -e k.h5.sweep.h5
timeout 600 $MPIEXEC -n 3 $DYNRED $G -output k.h5 > k2.log
grep -q "150 of 379 restored" k2.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
def walk(g, out):
    for k, v in g.items():
        if isinstance(v, h5py.Dataset): out[v.name] = v[()]
        else: walk(v, out)
da, db = {}, {}
walk(h5py.File("gref.h5", "r")["/gmp"], da); walk(h5py.File("k.h5", "r")["/gmp"], db)
assert da.keys() == db.keys(), set(da) ^ set(db)
bad = [k for k in da if not np.array_equal(da[k], db[k])]
assert not bad, bad
print(f"ok: GMP resumed after kill -9: {len(da)} datasets identical")
PY
echo ok
