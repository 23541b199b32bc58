#!/usr/bin/env bash
# CMS resume after a kill and reuse of unchanged components (issue 16 item 6;
# src/couple/checkpoint.c, src/reduce/restore.c).
#
# 1. Kill and resume (tests/data/cms/resume_plate.yaml: 4 plate parts whose
#    interiors go through SLEPc + MUMPS, a refinement round for tol_pct):
#    -cms_test_kill_after 2 sends SIGKILL (a real kill -9: mpiexec reports
#    signal 9, no result file) once 2 superelements are stored; the same
#    command then reuses exactly the stored ones (log, by hash = file name),
#    reduces the others, and ends BIT-IDENTICAL to an uninterrupted run
#    (every dataset and attribute but /timing and the job text, with ==).  On 1 rank
#    (one group: exactly 2 stored) and 3 ranks (3 groups of one rank writing
#    concurrently: 2 to 4 stored when the job dies, by timing: a group that
#    stores its first part after the others stored theirs sees 4).
# 2. Kill and resume on 3 ranks in ONE group (ranks_per_group 3: distributed
#    matrices, the basis gathered to and scattered from the group's rank 0;
#    the small chain of 3., as oversubscribed groups are slow).
#    Two uninterrupted runs of a multi-rank group are not bit-identical
#    themselves (parallel MUMPS and SLEPc reductions sum in varying order;
#    seen: 1e-11 relative in frequencies), so there the frequencies must
#    agree to the suite's rank-independence tolerance for CMS, 1e-8 relative
#    (DESIGN.md, parallel model).
# 3. cms.reuse (tests/data/cms/resume_chain.yaml, resume_gen.py: an 80-mass
#    chain in 4 Matrix Market parts, 12 of ~20 interior modes kept): the
#    springs of part c scaled by 1.3, reuse of the earlier result reduces
#    exactly c (the log names a, b, d reused) and the result is bit-identical
#    to a from-scratch run of the changed model, on 1 and 3 ranks.
#    Independent reference: numpy's eigenvalues of the assembled changed
#    chain: every CMS frequency lies above it (Rayleigh-Ritz) and its true
#    error lies below the job's own error estimate.
# 4. A damaged checkpoint is ignored, one log line per file, never an error:
#    truncated file, another component's file under this key, one changed
#    value of T (checksum); the result is still bit-identical.  A missing
#    cms.reuse source and an uncreatable checkpoint directory are one
#    `dynred: error:` line each, before any reduction.
set -euo pipefail
cd "$T"
PLATE=$ROOT/tests/data/cms/resume_plate.yaml
run() { # name np [options]: must succeed
  local name=$1 np=$2; shift 2
  timeout 300 $MPIEXEC -n $np $DYNRED "$@" > $name.log 2> $name.err || { echo "$name: exit $? (124: hung)"; tail -5 $name.log $name.err; exit 1; }
}
cat > cmp.py <<'PY'
# cmp.py A.h5 B.h5: every dataset and attribute outside /timing identical
# (==); the root attribute config (the job file's text) may differ
import sys, h5py, numpy as np
def walk(f):
    out = {"/@" + k: v for k, v in f.attrs.items() if k != "config"}
    def visit(name, o):
        if name == "timing" or name.startswith("timing/"): return
        if isinstance(o, h5py.Dataset): out["/" + name] = o[()]
        for k, v in o.attrs.items():
            if k not in ("t_start_s", "t_end_s"): out["/" + name + "@" + k] = v  # the schedule: times, like /timing
    f.visititems(visit)
    return out
with h5py.File(sys.argv[1], "r") as fa, h5py.File(sys.argv[2], "r") as fb:
    a, b = walk(fa), walk(fb)
assert a.keys() == b.keys(), f"{sys.argv[1:]}: items differ: {sorted(set(a) ^ set(b))}"
bad = [k for k in a if not np.array_equal(np.asarray(a[k]), np.asarray(b[k]))]
assert not bad, f"{sys.argv[1:]}: not bit-identical: {bad}"
print(f"{sys.argv[1]} == {sys.argv[2]}: {len(a)} datasets and attributes identical")
PY
cat > reused.py <<'PY'
# reused.py LOG DIR: the components the log names reused, as {name: hash}
import re, sys
print(" ".join(sorted(f"{n}:{h}" for n, h in re.findall(r"cms: component '([^']+)' reused from \S+ \(hash ([0-9a-f]{16})\)", open(sys.argv[1]).read()))))
PY

# ---- 1. kill and resume, bit-identical ----------------------------------
for np in 1 3; do
  run ref$np $np -config $PLATE -output ref$np.h5 -cms_checkpoint none
  if timeout 300 $MPIEXEC -n $np $DYNRED -config $PLATE -output k$np.h5 -cms_test_kill_after 2 > k${np}a.log 2>&1; then echo "np$np: the killed run exited 0"; exit 1; fi
  grep -q "signal 9" k${np}a.log || { echo "np$np: not killed by SIGKILL"; tail -5 k${np}a.log; exit 1; }
  test ! -e k$np.h5 || { echo "np$np: a result file after the kill"; exit 1; }
  stored=$(ls k$np.h5.ckpt | grep -c '^[0-9a-f]\{16\}\.h5$' || true)
  if [ $np = 1 ]; then test "$stored" = 2; else test "$stored" -ge 2 -a "$stored" -le 4; fi || { echo "np$np: $stored superelements stored at the kill"; exit 1; }
  hashes=$(ls k$np.h5.ckpt | sed -n 's/^\([0-9a-f]\{16\}\)\.h5$/\1/p' | sort | tr '\n' ' ')
  run k${np}b $np -config $PLATE -output k$np.h5
  got=$(/usr/bin/python3 reused.py k${np}b.log | tr ' ' '\n' | sed 's/.*://' | sort | tr '\n' ' ')
  [ "$got" = "$hashes" ] || { echo "np$np: reused hashes '$got', stored '$hashes'"; exit 1; }
  n_red=$(grep -c "reduced 'plate_part[1-4]' (craig-bampton)" k${np}b.log)
  grep -q "cms: $stored of 4 components reused" k${np}b.log
  grep -q "refinement 1:.*plate_part1" k${np}b.log # a refinement round enriched a restored component
  /usr/bin/python3 cmp.py ref$np.h5 k$np.h5
  test "$(ls k$np.h5.ckpt | grep -c '\.h5$')" = 4 # complete, temporaries of the killed run removed
  echo "np$np: killed with $stored stored; resumed: $stored reused, bit-identical ($n_red reduction lines incl. refinements)"
done

# ---- 3. cms.reuse: one part changed ----------------------------------------
mkdir -p old new
/usr/bin/python3 $ROOT/tests/data/cms/resume_gen.py old
/usr/bin/python3 $ROOT/tests/data/cms/resume_gen.py new 1.3
cp $ROOT/tests/data/cms/resume_chain.yaml old/
sed 's/^cms: {\(.*\)}$/cms: {\1, reuse: ..\/old\/old.h5}/' $ROOT/tests/data/cms/resume_chain.yaml > new/reuse.yaml
grep -q "reuse: ../old/old.h5" new/reuse.yaml
cp $ROOT/tests/data/cms/resume_chain.yaml new/
for np in 1 3; do
  (cd old && run old$np $np -config resume_chain.yaml -output old.h5)
  (cd new && run new$np $np -config reuse.yaml -output new$np.h5)
  (cd new && run scratch$np $np -config resume_chain.yaml -output scratch$np.h5 -cms_checkpoint none)
  got=$(/usr/bin/python3 reused.py new/new$np.log | sed 's/:[0-9a-f]*//g')
  [ "$got" = "a b d" ] || { echo "np$np: reused '$got', expected a b d"; exit 1; }
  grep -q "reduced 'c' (craig-bampton)" new/new$np.log
  if grep -q "component 'c' reused" new/new$np.log; then echo "np$np: c reused"; exit 1; fi
  /usr/bin/python3 cmp.py new/scratch$np.h5 new/new$np.h5
  test "$(ls new/new$np.h5.ckpt | grep -c '\.h5$')" = 4 # the reused ones copied: a complete checkpoint for the next loop
done
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
ref = np.loadtxt("new/ref_hz.txt")
with h5py.File("new/new1.h5") as f:
    fc, est = f["/cms/frequencies_hz"][:], f["/cms/error_estimate_pct"][:]
r = ref[: len(fc)]
err = (fc - r) / r
# Rayleigh-Ritz: CMS frequencies lie above the exact ones; slack 1e-11 for
# the round-off of the two dense solves (cms_exact_chain.sh: sqrt(n) u kappa,
# n = 80, kappa = 2e4 for this chain: 3e-11 in lambda, 1.5e-11 in f)
assert np.all(err > -1.5e-11), err
# the job's error estimate bounds the true error (est_pct in %, same slack)
assert np.all(100 * err <= est + 1.5e-9), np.c_[100 * err, est]
print(f"changed chain: CMS errors {err.min():.1e} .. {err.max():.1e}, all below their estimates")
PY

# ---- 2. one group of 3 ranks (the changed chain of 3.) -------------------
G="-config resume_chain.yaml -ranks_per_group 3"
(cd new && run g3ref 3 $G -output g3ref.h5 -cms_checkpoint none)
if (cd new && timeout 300 $MPIEXEC -n 3 $DYNRED $G -output g3.h5 -cms_test_kill_after 2 > g3a.log 2>&1); then echo "g3: the killed run exited 0"; exit 1; fi
grep -q "signal 9" new/g3a.log
(cd new && run g3b 3 $G -output g3.h5)
grep -q "cms: 2 of 4 components reused" new/g3b.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
with h5py.File("new/g3ref.h5") as a, h5py.File("new/g3.h5") as b, h5py.File("new/scratch1.h5") as c:
    fa, fb, fc = a["/cms/frequencies_hz"][:], b["/cms/frequencies_hz"][:], c["/cms/frequencies_hz"][:]
# 1e-8: the suite's rank-independence tolerance for CMS (see the header)
assert fa.shape == fb.shape == fc.shape and np.max(np.abs(fb - fa) / fa) < 1e-8 and np.max(np.abs(fb - fc) / fc) < 1e-8, (fa, fb, fc)
print(f"one group of 3 ranks: resumed vs uninterrupted {np.max(np.abs(fb - fa) / fa):.1e}, vs 1 rank {np.max(np.abs(fb - fc) / fc):.1e}")
PY

# ---- 4. damaged checkpoints and bad settings ----------------------------
cd new
/usr/bin/python3 - <<'PY'
import h5py, glob, os, shutil
files = {h5py.File(p, "r").attrs["component"].decode(): p for p in glob.glob("new1.h5.ckpt/*.h5")}
assert sorted(files) == ["a", "b", "c", "d"], files
open("damaged.txt", "w").write(" ".join(os.path.basename(files[k]) for k in "abd"))
with open(files["a"], "r+b") as f:  # truncated
    f.truncate(os.path.getsize(files["a"]) // 2)
shutil.copy(files["c"], files["b"])  # another component's file under b's key
with h5py.File(files["d"], "r+") as f:  # one value of T changed
    T = f["T"]
    T[3, 2] = T[3, 2] + 1.0
PY
run damaged 1 -config resume_chain.yaml -output new1.h5
cat damaged.log | grep "ignored" || true
test "$(grep -c 'ignored' damaged.log)" = 3
for h in $(cat damaged.txt); do grep -q "checkpoint new1.h5.ckpt/$h ignored" damaged.log; done
grep -q "ignored: not an HDF5 file" damaged.log
grep -q "ignored: its key is" damaged.log
grep -q "ignored: checksum" damaged.log
got=$(/usr/bin/python3 ../reused.py damaged.log | sed 's/:[0-9a-f]*//g')
[ "$got" = "c" ] || { echo "damaged: reused '$got', expected c"; exit 1; }
if grep -q "dynred: error" damaged.log damaged.err; then echo "damaged: an error"; exit 1; fi
/usr/bin/python3 ../cmp.py scratch1.h5 new1.h5
# bad settings: one error line each, before any reduction, no output
if $DYNRED -config resume_chain.yaml -output bad1.h5 -cms_reuse nowhere.h5 > bad1.log 2>&1; then echo "missing cms.reuse accepted"; exit 1; fi
cat bad1.log
test "$(grep -c 'dynred: error' bad1.log)" = 1
grep -q "cms.reuse = 'nowhere.h5'" bad1.log
if grep -q "reduced '" bad1.log; then echo "bad1: reductions before the error"; exit 1; fi
test ! -e bad1.h5
touch afile
if $DYNRED -config resume_chain.yaml -output bad2.h5 -cms_checkpoint afile/ckpt > bad2.log 2>&1; then echo "uncreatable checkpoint accepted"; exit 1; fi
cat bad2.log
test "$(grep -c 'dynred: error' bad2.log)" = 1
grep -q "cannot make the CMS checkpoint directory afile/ckpt" bad2.log
if grep -q "reduced '" bad2.log; then echo "bad2: reductions before the error"; exit 1; fi
test ! -e bad2.h5
echo "cms_resume: ok"
