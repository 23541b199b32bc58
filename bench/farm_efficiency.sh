#!/usr/bin/env bash
# The task farm's parallel efficiency on 1 -> 2 ranks, measured side by side:
# the GA (configs/bicycle_frame_ga.yaml, full run) and the GMP sweep
# (configs/slider_crank_gmp.yaml with exact ROMs every 0.001 rad: 6348 grid
# points, LAPACK per point), each run on 1 rank and on 2 ranks in turn,
# PAIRS times, with a plain mpiexec (scripts/mpi-env.sh: the root and
# oversubscription permissions only, plus the launch-speed settings).
# Efficiency of a pair = T1 / (2 T2) with T the job's own time (GA: setup +
# optimisation + output; GMP: the sweep, /timing/sweep), so mpiexec's
# start-up is left out; the wall time of the whole command is shown too.
# Prints a markdown table (median and range over the pairs) and writes it to
# OUT (default bench/results/farm_efficiency.md).
#   bash bench/farm_efficiency.sh [PAIRS] [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
PAIRS=${1:-3}
OUT=${2:-bench/results/farm_efficiency.md}
W=$(mktemp -d /tmp/farm-eff.XXXXXX)
GA="ga -config configs/bicycle_frame_ga.yaml -ga_checkpoint_every 0"
GMP="-config configs/slider_crank_gmp.yaml -gmp_transient_enabled 0 -gmp_verify_step 0.001"
run() { # case np -> prints "jobtime wall"
  local c=$1 np=$2 args t0 t1
  if [ "$c" = ga ]; then args=$GA; else args=$GMP; fi
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  $MPIEXEC -n "$np" bin/dynred $args -output "$W/$c$np.h5" > "$W/$c$np.log" 2>&1 || { cat "$W/$c$np.log"; exit 1; }
  t1=$(date +%s.%N)
  /usr/bin/python3 - "$W/$c$np.h5" "$c" "$t0" "$t1" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
t = f["/timing"].attrs
job = (t["setup"] + t["optimisation"] + t["output"]) if sys.argv[2] == "ga" else t["sweep"]
print(f"{job:.3f} {float(sys.argv[4]) - float(sys.argv[3]):.3f}")
PY
}
declare -A eff wall
for c in ga gmp; do
  for p in $(seq "$PAIRS"); do
    read -r j1 w1 < <(run $c 1)
    read -r j2 w2 < <(run $c 2)
    eff[$c]+="$(/usr/bin/python3 -c "print(f'{$j1 / (2 * $j2):.3f}')") "
    wall[$c]+="$j1/$j2/$w1/$w2 "
    echo "$c pair $p: 1 rank $j1 s (wall $w1), 2 ranks $j2 s (wall $w2)" >&2
  done
  # the 2-rank result is the 1-rank one (the farm addresses results by task)
  if [ $c = ga ]; then /usr/bin/python3 tests/e2e/ga_check.py same "$W/ga1.h5" "$W/ga2.h5" >&2; fi
done
{
  echo "| case | pairs | job 1 rank [s] | job 2 ranks [s] | wall 1 / 2 ranks [s] | efficiency T1 / (2 T2): median (min..max) |"
  echo "|---|---|---|---|---|---|"
  for c in ga gmp; do
    /usr/bin/python3 - "$c" "${eff[$c]}" "${wall[$c]}" <<'PY'
import sys, statistics as st
c, e, w = sys.argv[1], [float(x) for x in sys.argv[2].split()], [list(map(float, x.split("/"))) for x in sys.argv[3].split()]
name = {"ga": "GA, bicycle frame (full run)", "gmp": "GMP sweep, slider-crank (6348 points)"}[c]
med = lambda k: st.median(r[k] for r in w)
print(f"| {name} | {len(e)} | {med(0):.2f} | {med(1):.2f} | {med(2):.2f} / {med(3):.2f} | **{st.median(e):.3f}** ({min(e):.3f}..{max(e):.3f}) |")
PY
  done
} | tee "$OUT"
rm -rf "$W"
