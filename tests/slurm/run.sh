#!/usr/bin/env bash
# A real Slurm test (issue 17 item 5; `make check-slurm`).  As root, on a
# private one-node Slurm cluster started here (tests/slurm/cluster.sh:
# slurmctld + slurmd on 127.0.0.1, config, state and logs in one temporary
# directory, all stopped and removed on exit):
#   1. jobs/slurm_modal.sh on a 200-mass spring chain (Matrix Market, 2
#      tasks, srun + PMIx): frequencies against the analytic ones;
#   2. jobs/slurm_cms.sh on a small clamped plate cut in 4 (4 tasks, 2 rank
#      groups of 2): the script's memory request from dynred's own estimate
#      is the job's --mem-per-cpu (Slurm kills a step above it:
#      OverMemoryKill; the same job asking 16 MiB per CPU must be killed
#      for it), the job's peak RSS stays below it, and the
#      frequencies are within cms.tol_pct of a full-model `dynred modal` of
#      the same plate run outside Slurm (Rayleigh-Ritz: never below it);
#   3. jobs/slurm_gmp.sh, a slider-crank sweep requeued with `scontrol
#      requeue` once its checkpoint holds some points: the rerun restores
#      at least those points, computes only the rest, and its /gmp datasets
#      equal those of an uninterrupted run outside Slurm bit for bit.
# Exit 0: all passed; 1: a check failed; 77: skipped (not root, Slurm cannot
# be installed or started), with the reason on one line.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
skip() { echo "slurm test: SKIP: $*"; exit 77; }
fail() { echo "slurm test: FAIL: $*"; exit 1; }
say() { echo "[$(date +%H:%M:%S)] $*"; }

[ "$(id -u)" = 0 ] || skip "not root (uid $(id -u)): slurmctld and slurmd must run as root (they start jobs as other users), and this test starts its own cluster"
if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v sbatch > /dev/null; then
  say "installing slurm-wlm (scripts/install-deps.sh --slurm)"
  bash scripts/install-deps.sh --slurm > /tmp/dynred-slurm-install.log 2>&1 || {
    tail -n 3 /tmp/dynred-slurm-install.log; rm -f /tmp/dynred-slurm-install.log
    skip "slurm-wlm is not installed and scripts/install-deps.sh --slurm failed (output above)"; }
  rm -f /tmp/dynred-slurm-install.log
fi
DYNRED=${DYNRED:-$ROOT/bin/dynred}
[ -x "$DYNRED" ] || fail "$DYNRED is not built (make all)"
source scripts/mpi-env.sh
source tests/slurm/cluster.sh

D=$(mktemp -d /tmp/dynred-slurm.XXXXXX)
KEEP=${T:-}   # under tests/run_tests.sh: logs are copied to the test's scratch
on_exit() {
  local rc=$?
  if [ -n "$KEEP" ] && [ -d "$D" ]; then
    mkdir -p "$KEEP/slurm"; cp -r "$D/log" "$D"/work/*.log "$KEEP/slurm/" 2>/dev/null || true
  fi
  slurm_down
  rm -rf "$D"
  # the shared-memory segments the test's jobs left (the job killed for its
  # memory cannot remove its own); the jobs run with Open MPI's defaults, as
  # a user's do, and only segments that appeared during the test go
  comm -13 "$SHM0" <(ls /dev/shm 2>/dev/null | sort) | { grep '^vader_segment\.' || true; } | sed 's|^|/dev/shm/|' | xargs -r rm -f
  rm -f "$SHM0"
  exit $rc
}
SHM0=$(mktemp /tmp/dynred-slurm-shm.XXXXXX)
ls /dev/shm 2>/dev/null | sort > "$SHM0"
trap on_exit EXIT
trap 'exit 1' INT TERM
rc=0; slurm_up "$D" || rc=$?
[ $rc = 0 ] || { [ $rc = 77 ] && skip "Slurm cannot start: $SLURM_WHY"; exit $rc; }
say "Slurm $(sinfo --version | awk '{print $2}') up: node $SLURM_NODE, $SLURM_CPUS CPUs, config $SLURM_CONF"

# the jobs' working directory: bin/ and configs/ as the job scripts expect
W=$D/work
mkdir -p "$W/results"
ln -s "$(dirname "$DYNRED")" "$W/bin"
ln -s "$ROOT/configs" "$W/configs"
cd "$W"

job_field() { scontrol show job "$1" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# wait_end ID SECONDS: until the job ends, prints its final state
wait_end() {
  local id=$1 limit=$2 t=0 st
  while [ $t -lt "$limit" ]; do
    st=$(job_field "$id" JobState)
    case "$st" in
      COMPLETED|FAILED|CANCELLED|TIMEOUT|OUT_OF_MEMORY|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE) echo "$st"; return 0;;
    esac
    sleep 2; t=$((t + 2))
  done
  echo "still ${st:-unknown} after $limit s"
}
# wait_job ID SECONDS: fails unless the job COMPLETED with exit code 0
wait_job() {
  local st
  st=$(wait_end "$1" "$2")
  [ "$st" = COMPLETED ] && [ "$(job_field "$1" ExitCode)" = 0:0 ] && return 0
  echo "--- job $1 log:"; tail -n 20 "$(job_field "$1" StdOut)" 2>/dev/null || true
  fail "job $1 ended $st (exit code $(job_field "$1" ExitCode), reason $(job_field "$1" Reason))"
}
submitted() { sed -n 's/^Submitted batch job \([0-9][0-9]*\).*/\1/p' "$1"; }

# ---- 1. modal: a fixed-free chain, analytic frequencies (tests/slurm/chain.py)
/usr/bin/python3 "$ROOT/tests/slurm/chain.py" . 200
cat > chain_modal.yaml <<'EOF'
job: modal
output: chain_modal.h5
components:
  - {name: chain, format: mtx, K: chain_K.mtx, M: chain_M.mtx, dofs: chain.dof}
modal:
  nmodes: 10
EOF
# the script asks for 2 nodes x 32 tasks; the command line overrides it
sbatch --nodes=1 --ntasks-per-node=2 --time=20 "$ROOT/jobs/slurm_modal.sh" chain_modal.yaml > modal_submit.log
MODAL=$(submitted modal_submit.log)
[ -n "$MODAL" ] || fail "sbatch jobs/slurm_modal.sh: $(cat modal_submit.log)"
say "modal job $MODAL submitted"

# ---- 2. cms: a clamped plate cut in 4, 2 groups of 2 ranks
cat > plate_cms.yaml <<'EOF'
job: cms
output: plate_cms.h5
model:
  builtin: plate
  plate: {lx: 1.0, ly: 0.5, lz: 0.02, nx: 24, ny: 12, nz: 2, E: 210e9, nu: 0.3, rho: 7850, clamp: x0}
  cut: {axis: x, parts: 4}
cms:
  fmax: 400
  tol_pct: 0.5
EOF
sed -e 's/^job: cms/job: modal/' -e '/cut:/d' -e 's/^cms:/modal:/' -e 's/fmax: 400/fmax: 600/' -e '/tol_pct/d' \
  -e 's/^output: .*/output: plate_full.h5/' plate_cms.yaml > plate_full.yaml
# the memory estimate runs here (outside Slurm) with the job's 4 ranks
MPIEXEC="$MPIEXEC" DYNRED=bin/dynred "$ROOT/jobs/slurm_cms.sh" plate_cms.yaml 2 4 --nodes=1 --time=20 > cms_submit.log 2>&1 ||
  { cat cms_submit.log; fail "jobs/slurm_cms.sh did not submit"; }
cat cms_submit.log
CMS=$(submitted cms_submit.log)
MEM=$(sed -n 's/.*--mem-per-cpu=\([0-9]*\)M$/\1/p' cms_submit.log)
[ -n "$CMS" ] && [ -n "$MEM" ] || fail "jobs/slurm_cms.sh: no job id or no memory request in its output"
[ "$(job_field "$CMS" MinMemoryCPU)" = "${MEM}M" ] || fail "job $CMS has MinMemoryCPU=$(job_field "$CMS" MinMemoryCPU), the script derived ${MEM}M"
say "cms job $CMS submitted with --mem-per-cpu=${MEM}M"

# the memory request is enforced here (OverMemoryKill), so the job above
# fitting in it means something: the same job with 16 MiB per CPU (below a
# rank's libraries alone) must be killed
MEM_PER_CPU=16 "$ROOT/jobs/slurm_cms.sh" plate_cms.yaml 2 4 --nodes=1 --time=20 > oom_submit.log 2>&1 ||
  { cat oom_submit.log; fail "jobs/slurm_cms.sh (MEM_PER_CPU=16) did not submit"; }
OOM=$(submitted oom_submit.log)
[ -n "$OOM" ] || fail "jobs/slurm_cms.sh (MEM_PER_CPU=16): $(cat oom_submit.log)"

# references outside Slurm while the jobs run
$MPIEXEC -n 2 "$DYNRED" -config plate_full.yaml > plate_full.log 2>&1 || { tail plate_full.log; fail "reference modal of the plate"; }
GMPOPT="-gmp_transient_enabled 0 -gmp_verify_step 0.01 -gmp_nel1 40 -gmp_nel2 90"
$MPIEXEC -n 2 "$DYNRED" -config configs/slider_crank_gmp.yaml $GMPOPT -ranks_per_group 1 -output gmp_ref.h5 > gmp_ref.log 2>&1 ||
  { tail gmp_ref.log; fail "reference GMP sweep"; }
say "references done"

wait_job "$MODAL" 600
/usr/bin/python3 "$ROOT/tests/slurm/check.py" modal "results/chain_modal-$MODAL.h5" chain_hz.txt
grep -q "2 rank(s)" "dynred-$MODAL.log" || fail "modal job $MODAL did not run on 2 ranks: $(grep '^model' "dynred-$MODAL.log")"

wait_job "$CMS" 900
grep -q "4 components on 2 rank group(s) of 4 rank(s)" "dynred-cms-$CMS.log" || fail "cms job $CMS: not 2 groups of 2 ranks: $(grep '^cms: ' "dynred-cms-$CMS.log" | head -n 1)"
/usr/bin/python3 "$ROOT/tests/slurm/check.py" cms "results/plate_cms-$CMS.h5" plate_full.h5 0.5
/usr/bin/python3 "$ROOT/tests/slurm/check.py" rss "results/plate_cms-$CMS.h5" "$MEM"

st=$(wait_end "$OOM" 900)
[ "$st" != COMPLETED ] || fail "job $OOM with --mem-per-cpu=16M completed: the memory request is not enforced, so the CMS job's fit proves nothing"
grep -q -i "exceeded .*memory limit" "dynred-cms-$OOM.log" || { tail "dynred-cms-$OOM.log"; fail "job $OOM ended $st, not by the memory limit"; }
say "job $OOM with --mem-per-cpu=16M: $st, $(grep -i -m 1 -o "exceeded .*memory limit" "dynred-cms-$OOM.log")"

# ---- 3. gmp: requeued mid-sweep, resumes from its checkpoint
sbatch --nodes=1 --ntasks-per-node=2 --time=20 --open-mode=append "$ROOT/jobs/slurm_gmp.sh" configs/slider_crank_gmp.yaml 1 \
  $GMPOPT -farm_progress 1 > gmp_submit.log
GMP=$(submitted gmp_submit.log)
[ -n "$GMP" ] || fail "sbatch jobs/slurm_gmp.sh: $(cat gmp_submit.log)"
LOG=dynred-gmp-$GMP.log
say "gmp job $GMP submitted"
# points done, from the progress lines ("grid points: N/M done"), printed
# after each point is in the checkpoint (src/core/farm.c, Arrived)
done_points() { sed -n 's/.*grid points: \([0-9]*\)\/\([0-9]*\) done.*/\1 \2/p' "$LOG" 2>/dev/null | tail -n 1; }
t=0; seen=0; total=0
while [ $t -lt 600 ]; do
  read -r seen total < <(done_points; echo "0 0") || true
  [ "${seen:-0}" -ge 60 ] && break
  case "$(job_field "$GMP" JobState)" in
    PENDING|CONFIGURING|RUNNING) ;;
    *) tail -n 20 "$LOG" 2>/dev/null || true
       fail "gmp job $GMP ended ($(job_field "$GMP" JobState)) before it could be requeued";;
  esac
  sleep 1; t=$((t + 1))
done
[ "${seen:-0}" -ge 60 ] || fail "gmp job $GMP: fewer than 60 points after 600 s"
[ "$seen" -lt "$total" ] || fail "gmp job $GMP: all $total points done before the requeue"
scontrol requeue "$GMP"
say "gmp job $GMP requeued after $seen of $total points"
for t in $(seq 1 60); do [ "$(job_field "$GMP" JobState)" = PENDING ] && break; sleep 1; done
# slurmctld holds a requeued job back for 2 minutes (Reason=BeginTime); only
# the wait is cut short here, the rerun is Slurm's own restart of the script
say "gmp job $GMP: $(job_field "$GMP" JobState) ($(job_field "$GMP" Reason)), eligible $(job_field "$GMP" EligibleTime); releasing it now"
scontrol update JobId="$GMP" StartTime=now
wait_job "$GMP" 900
[ "$(job_field "$GMP" Restarts)" = 1 ] || fail "gmp job $GMP: Restarts=$(job_field "$GMP" Restarts), expected 1"
cat "$LOG"
restored=$(sed -n 's/.*grid points: \([0-9]*\) of \([0-9]*\) restored.*/\1/p' "$LOG" | tail -n 1)
[ -n "$restored" ] || fail "gmp job $GMP: the rerun restored nothing"
[ "$restored" -ge "$seen" ] && [ "$restored" -lt "$total" ] || fail "gmp job $GMP: $restored points restored, expected $seen..$((total - 1))"
grep -q "sweep done in .*: $((total - restored)) computed, $restored restored" "$LOG" ||
  fail "gmp job $GMP: the rerun did not compute exactly the $((total - restored)) missing points"
test -e results/slider_crank_gmp.h5 && test ! -e results/slider_crank_gmp.h5.sweep.h5 ||
  fail "gmp job $GMP: no result, or the checkpoint was left behind"
/usr/bin/python3 "$ROOT/tests/slurm/check.py" same gmp_ref.h5 results/slider_crank_gmp.h5 /gmp
say "ok"
