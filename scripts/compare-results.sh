#!/usr/bin/env bash
# Before/after gate of issue 12 (the restructure must not change results):
#
#   scripts/compare-results.sh [REV] [--quick] [--keep] [--np N]
#
# Builds REV (default 6d9d0d8..., the last commit before the restructure) in
# a temporary git worktree under /tmp (`make -j2 all`, no `make deps`), runs
# every config in configs/ and the demo with BOTH that binary ("before") and
# this working tree's bin/dynred ("after", build it first) on N ranks
# (default 2) in two directories, then compares each pair of result files
# with scripts/compare_results.py (tolerances documented there: frequencies
# 1e-10 relative, GA fronts identical, GMP grids 1e-10, mode shapes up to
# sign).  One line per config and a verdict; exit 1 on any difference.
#
#   --quick   skip the heavy config (arm3d_lattice_gmp)
#   --keep    keep the reference worktree /tmp/dynred-ref-HASH (a later run
#             reuses its build) and the run directory
#   --np N    ranks per run (default 2)
#   --runs DIR  reuse the run directory of an earlier --keep run: jobs whose
#             two result files exist there are compared again, not rerun
#             (after a change of the comparator's tolerances)
#
# Run plan (one binary, 2 ranks, idle 2-core machine): slider_crank_gmp
#   26 s, bicycle_frame_ga 18 s, plate_cms 16 s, frame_modal 9 s, demo 9 s,
#   plate_modal 7 s, frame_ss 3 s (with its CMS source bench/ss/frame_cms.yaml,
#   both compared), arm3d_gmp 1 s: ~90 s.  arm3d_lattice_gmp has 100 224 DOFs
#   per grid point, ~20 s a point: its 25 points would take ~8 min per binary.
#   Reduced here to a 3 x 3 grid with -gmp_theta1_stop 0.8
#   -gmp_theta2_stop 0.4 (same model, same steps; ~3 min per binary), so
#   the whole run takes ~10 min idle plus the reference build (1.5 min);
#   LATTICE_FULL=1 runs the whole grid.  With the machine shared (load 15)
#   it took 40 min.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REV=6d9d0d86f5140beb11ebef51690c3a4574c36743
QUICK=0; KEEP=0; NP=2; RUNS=
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1;;
    --keep) KEEP=1;;
    --np) NP=$2; shift;;
    --runs) RUNS=$2; shift;;
    -h|--help) sed -n '2,30p' "$0"; exit 0;;
    -*) echo "compare-results: unknown option $1" >&2; exit 2;;
    *) REV=$1;;
  esac
  shift
done
HASH=$(git rev-parse --verify "$REV^{commit}") || { echo "compare-results: no such revision: $REV" >&2; exit 2; }
[ -x bin/dynred ] || { echo "compare-results: build the working tree first (make -j2 all)" >&2; exit 2; }
source scripts/mpi-env.sh
export PETSC_OPTIONS="${PETSC_OPTIONS:-} -options_left no"

REF=/tmp/dynred-ref-${HASH:0:12}
if [ ! -x "$REF/bin/dynred" ] || [ "$(git -C "$REF" rev-parse HEAD 2>/dev/null)" != "$HASH" ]; then
  [ -d "$REF" ] && { git worktree remove --force "$REF" 2>/dev/null || rm -rf "$REF"; }
  git worktree prune
  echo "building $HASH in $REF"
  git worktree add --detach "$REF" "$HASH" > /dev/null || exit 2
  if ! make -C "$REF" -j2 all > "$REF.build.log" 2>&1; then
    tail -20 "$REF.build.log"; echo "compare-results: build of $HASH failed" >&2; exit 2
  fi
else
  echo "reusing the build in $REF"
fi
if [ -n "$RUNS" ]; then OUT=$(cd "$RUNS" && pwd) || exit 2; KEEP=1; else OUT=$(mktemp -d /tmp/dynred-compare.XXXXXX); fi
cleanup() {
  if [ $KEEP -eq 0 ]; then
    git worktree remove --force "$REF" 2>/dev/null; rm -f "$REF.build.log"; rm -rf "$OUT"
  fi
}
trap cleanup EXIT

# run SIDE NAME ARGS...: one job in $OUT/SIDE/NAME; prints the seconds
run() {
  local side=$1 name=$2; shift 2
  local bin=$ROOT/bin/dynred; [ "$side" = before ] && bin=$REF/bin/dynred
  local d=$OUT/$side/$name t0 rc
  mkdir -p "$d"
  t0=$(date +%s.%N)
  (cd "$d" && timeout 1800 $MPIEXEC -n "$NP" "$bin" "$@" >> log 2>&1) </dev/null; rc=$?
  awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.1f", a-b}'
  return $rc
}

# job list: NAME|ARGS (paths absolute; outputs NAME.h5 in the run directory)
jobs=()
for c in configs/*.yaml; do
  n=$(basename "$c" .yaml)
  case $n in
    frame_ss) continue;;   # needs its CMS source first: below
    cylinder_pmor) continue;;   # needs the generated CalculiX deck (scripts/ccx_cylinder.py), 37.8k DOFs: a benchmark
    arm3d_lattice_gmp)
      [ $QUICK -eq 1 ] && continue
      extra=""; [ "${LATTICE_FULL:-0}" = 1 ] || extra="-gmp_theta1_stop 0.8 -gmp_theta2_stop 0.4"
      jobs+=("$n|-config $ROOT/$c -output $n.h5 $extra");;
    *) jobs+=("$n|-config $ROOT/$c -output $n.h5");;
  esac
done
jobs+=("frame_cms|-config $ROOT/bench/ss/frame_cms.yaml -output frame_cms.h5")
jobs+=("frame_ss|-config $ROOT/configs/frame_ss.yaml -ss_source @frame_cms -output frame_ss.h5")
jobs+=("demo|")

fail=0; total0=$(date +%s)
printf '%-22s %9s %9s  %s\n' config before[s] after[s] result
for j in "${jobs[@]}"; do
  n=${j%%|*}; args=${j#*|}
  declare -A t=()
  ok=1
  h5=$n.h5; [ "$n" = demo ] && h5=dynred_demo.h5
  for side in before after; do
    if [ -n "$RUNS" ] && [ -s "$OUT/$side/$n/$h5" ]; then t[$side]=-; continue; fi
    a=${args//@frame_cms/$OUT/$side/frame_cms/frame_cms.h5}
    # shellcheck disable=SC2086
    t[$side]=$(run $side "$n" $a) || ok=0
  done
  if [ $ok -eq 0 ]; then
    printf '%-22s %9s %9s  %s\n' "$n" "${t[before]}" "${t[after]}" "RUN FAILED (logs: $OUT/{before,after}/$n/log)"
    tail -3 "$OUT"/*/"$n"/log | sed 's/^/    /'
    fail=1; KEEP=1; continue
  fi
  res=$(/usr/bin/python3 scripts/compare_results.py "$OUT/before/$n/$h5" "$OUT/after/$n/$h5" 2>&1); rc=$?
  verdict=$(printf '%s\n' "$res" | tail -1)
  printf '%-22s %9s %9s  %s\n' "$n" "${t[before]}" "${t[after]}" "$verdict"
  printf '%s\n' "$res" | sed '$d' | sed 's/^/    /'
  [ $rc -eq 0 ] || { fail=1; KEEP=1; }
done
echo "total $(( $(date +%s) - total0 )) s (runs only); before: $HASH, after: working tree $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include 2>/dev/null || echo ' + local changes')"
[ $KEEP -eq 1 ] && echo "kept: $REF and $OUT"
if [ $fail -eq 0 ]; then echo "verdict: SAME (every config and the demo reproduce the results)"; exit 0; fi
echo "verdict: DIFFERENT"; exit 1
