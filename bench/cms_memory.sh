#!/usr/bin/env bash
# Peak memory of a CMS job by automatic substructuring (issue 13: the 1M-DOF
# plate "in less memory" than `dynred modal`): the built-in plate given as
# one component, 200 modes, cms.partition auto (the default), the ranks'
# RSS sampled every 2 s with ps (a timeline: the peak's phase), wall time,
# phase times and the error estimate.
#   bash bench/cms_memory.sh TAG [NX NY NZ FMAX] [-- extra dynred options]
# defaults: the 1M plate (400 x 200 x 3, fmax 14046.5 = f_200 of 2r); e.g.
#   bash bench/cms_memory.sh keep  -- -cms_keep_factors true
#   bash bench/cms_memory.sh lean  -- -cms_keep_factors false
#   bash bench/cms_memory.sh p200k 180 90 3 14184.235 -- -cms_keep_factors false
#   JOB=modal bash bench/cms_memory.sh modal    # the same model by `dynred modal`
#                                                 (200 modes, the reference row)
# Writes cms_mem_TAG.{log,rss,h5} in $WORKDIR (default /tmp/dynred-cms-mem).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
tag=$1; shift
nx=400 ny=200 nz=3 fmax=14046.5
if [ $# -ge 4 ] && [ "$1" != "--" ]; then nx=$1 ny=$2 nz=$3 fmax=$4; shift 4; fi
[ "${1:-}" = "--" ] && shift
W=${WORKDIR:-/tmp/dynred-cms-mem}; mkdir -p "$W"
NP=${NP:-2}
( set +e; while true; do ps -o pid=,rss= -C dynred | awk -v t=$SECONDS '{printf "%d %s %s\n", t, $1, $2}'; sleep 2; done ) > "$W/cms_mem_$tag.rss" &
sampler=$!
trap 'kill $sampler 2>/dev/null || true' EXIT
if [ "${JOB:-cms}" = modal ]; then
  /usr/bin/time -f "wall %e s" $MPIEXEC -n $NP bin/dynred modal -model_builtin plate -model_plate_nx $nx -model_plate_ny $ny -model_plate_nz $nz \
    -modal_nmodes 200 -modal_write_modes false -output "$W/cms_mem_$tag.h5" "$@" > "$W/cms_mem_$tag.log" 2>&1
else
  /usr/bin/time -f "wall %e s" $MPIEXEC -n $NP bin/dynred cms -model_builtin plate -model_plate_nx $nx -model_plate_ny $ny -model_plate_nz $nz \
    -model_cut_axis x -model_cut_parts 1 -cms_nmodes 200 -cms_fmax $fmax -cms_checkpoint none -verify false \
    -output "$W/cms_mem_$tag.h5" "$@" > "$W/cms_mem_$tag.log" 2>&1
fi
kill $sampler 2>/dev/null || true
echo "== $tag: plate $nx x $ny x $nz, fmax $fmax, $NP ranks, options: $*"
grep -E "partition auto|cms time|modal time|wall|error estimate: max" "$W/cms_mem_$tag.log" || true
# ranks by their pid order (mpiexec starts rank 0 first)
awk '{if ($3 > m[$2]) m[$2] = $3} END {for (p in m) print p, m[p]}' "$W/cms_mem_$tag.rss" | sort -n |
  awk '{printf "peak RSS rank %d: %d MiB\n", NR - 1, $2 / 1024}'
echo "RSS timeline [MiB] (t since start, one line per 20 s):"
awk '{a[$1] = a[$1] " " int($3 / 1024)} END {for (t in a) print t, a[t]}' "$W/cms_mem_$tag.rss" | sort -n | awk '$1 >= last + 20 {print "  t ~" $0; last = $1}'
