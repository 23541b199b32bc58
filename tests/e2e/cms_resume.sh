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
# 5. The default path (the interface reduced before the projection): the
#    record of a component is its phase 1 (kept modes, eigenvalues, S_c,
#    M_c); kill and resume of the plate on 1 and 3 ranks, bit-identical; a
#    damaged record ignored; cms.reuse on the changed chain with
#    interface_modes 2 reuses a, b, d and is bit-identical to a scratch
#    run; one group of 3 ranks killed and resumed (1e-8, as 2.), and its
#    records are not taken from one-rank groups (their M_c differs).
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
# kill_resume TAG NP [options]: uninterrupted reference, a run killed once 2
# records are stored, the same command again: it reuses exactly the stored
# records (by hash) and ends bit-identical to the reference
kill_resume() {
  local tag=$1 np=$2; shift 2
  run ${tag}ref $np "$@" -output ${tag}ref.h5 -cms_checkpoint none
  if timeout 300 $MPIEXEC -n $np $DYNRED "$@" -output $tag.h5 -cms_test_kill_after 2 > ${tag}a.log 2>&1; then echo "$tag: the killed run exited 0"; exit 1; fi
  grep -q "signal 9" ${tag}a.log || { echo "$tag: not killed by SIGKILL"; tail -5 ${tag}a.log; exit 1; }
  test ! -e $tag.h5 || { echo "$tag: a result file after the kill"; exit 1; }
  stored=$(ls $tag.h5.ckpt | grep -c '^[0-9a-f]\{16\}\.h5$' || true)
  if [ $np = 1 ]; then test "$stored" = 2; else test "$stored" -ge 2 -a "$stored" -le 4; fi || { echo "$tag: $stored records stored at the kill"; exit 1; }
  hashes=$(ls $tag.h5.ckpt | sed -n 's/^\([0-9a-f]\{16\}\)\.h5$/\1/p' | sort | tr '\n' ' ')
  run ${tag}b $np "$@" -output $tag.h5
  got=$(/usr/bin/python3 reused.py ${tag}b.log | tr ' ' '\n' | sed 's/.*://' | sort | tr '\n' ' ')
  [ "$got" = "$hashes" ] || { echo "$tag: reused hashes '$got', stored '$hashes'"; exit 1; }
  grep -q "cms: $stored of 4 components reused" ${tag}b.log
  grep -q "refinement 1:.*plate_part" ${tag}b.log # a refinement round (restored components among those it enriches or corrects)
  /usr/bin/python3 cmp.py ${tag}ref.h5 $tag.h5
  test "$(ls $tag.h5.ckpt | grep -c '\.h5$')" = 4 # complete, temporaries of the killed run removed
  echo "$tag: killed with $stored stored; resumed: $stored reused, bit-identical"
}
for np in 1 3; do
  kill_resume k$np $np -config $PLATE
  grep -q "reduced 'plate_part[1-4]' (craig-bampton)" k${np}b.log # the full-boundary path
done

# ---- 5. the default path: interface reduced before the projection ---------
# (cms.interface_auto, the default of a tol_pct job; resume_plate.yaml turns it
# off for 1.).  The record of a component is then its phase 1 (kept modes,
# their eigenvalues, S_c and M_c: iface_early.c), restored instead of the
# eigensolve and the Schur factorizations; the global interface basis and
# phase 2 are recomputed from them, so the result is again bit-identical.
for np in 1 3; do
  kill_resume d$np $np -config $PLATE -cms_interface_auto true
  grep -q "interface reduction before the projection" d${np}b.log
  grep -q "reused from .*: its modes and interface pencil" d${np}b.log
  if grep -q "checkpoint: not used" d${np}b.log; then echo "d$np: checkpoint not used"; exit 1; fi
done
# a damaged phase-1 record (one eigenvalue changed: checksum) is ignored and
# recomputed, the result still bit-identical
/usr/bin/python3 - <<'PY'
import h5py, glob
p = sorted(glob.glob("d1.h5.ckpt/*.h5"))[0]
with h5py.File(p, "r+") as f:
    assert f.attrs["format"].decode() == "dynred cms interface pencil 1", f.attrs["format"]
    f["eigenvalues"][0] = f["eigenvalues"][0] * (1 + 1e-12)
open("d1.damaged", "w").write(p)
PY
run d1c 1 -config $PLATE -cms_interface_auto true -output d1.h5
grep -q "checkpoint $(cat d1.damaged) ignored: checksum" d1c.log
grep -q "cms: 3 of 4 components reused" d1c.log
/usr/bin/python3 cmp.py d1ref.h5 d1.h5

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

# the same on the default path: the interface reduced before the projection
# (cms.interface_modes 2 of the 3 boundary DOFs): the records are the parts'
# phase 1; the changed part's is recomputed, the interface basis from all four
E="-cms_interface_modes 2"
(cd old && run oldE 1 -config resume_chain.yaml -output oldE.h5 $E)
(cd new && run newE 1 -config resume_chain.yaml -output newE.h5 -cms_reuse ../old/oldE.h5 $E)
(cd new && run scratchE 1 -config resume_chain.yaml -output scratchE.h5 -cms_checkpoint none $E)
grep -q "interface reduction before the projection: 3 boundary DOFs -> 2 CC modes" new/newE.log
got=$(/usr/bin/python3 reused.py new/newE.log | sed 's/:[0-9a-f]*//g')
[ "$got" = "a b d" ] || { echo "early path: reused '$got', expected a b d"; exit 1; }
/usr/bin/python3 cmp.py new/scratchE.h5 new/newE.h5

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
# and on the default path (phase 1 there from the full constraint modes:
# the record's key says so, a one-rank group's record is not taken)
(cd new && run g3Eref 3 $G $E -output g3Eref.h5 -cms_checkpoint none)
if (cd new && timeout 300 $MPIEXEC -n 3 $DYNRED $G $E -output g3E.h5 -cms_test_kill_after 2 > g3Ea.log 2>&1); then echo "g3E: the killed run exited 0"; exit 1; fi
grep -q "signal 9" new/g3Ea.log
(cd new && run g3Eb 3 $G $E -output g3E.h5 -cms_reuse newE.h5)
grep -q "cms: 2 of 4 components reused" new/g3Eb.log # the killed run's 2, none of newE's one-rank records
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
with h5py.File("new/g3Eref.h5") as a, h5py.File("new/g3E.h5") as b, h5py.File("new/scratchE.h5") as c:
    fa, fb, fc = a["/cms/frequencies_hz"][:], b["/cms/frequencies_hz"][:], c["/cms/frequencies_hz"][:]
# 1e-8 against the same group's uninterrupted run (see the header); against
# one-rank groups the interface basis differs by the finite-difference M_c
# (interface_basis.c: relative 1e-3 in M_c, second order in the eigenvalues
# of the projected pencil: 5e-6 as in cms_corrections.sh)
assert fa.shape == fb.shape == fc.shape and np.max(np.abs(fb - fa) / fa) < 1e-8 and np.max(np.abs(fb - fc) / fc) < 5e-6, (fa, fb, fc)
print(f"one group of 3 ranks, default path: resumed vs uninterrupted {np.max(np.abs(fb - fa) / fa):.1e}, vs 1 rank {np.max(np.abs(fb - fc) / fc):.1e}")
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
