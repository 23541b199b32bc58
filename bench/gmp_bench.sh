#!/usr/bin/env bash
# GMP sweep throughput: grid points per second on 1 and 2 ranks, and the
# parallel efficiency (points/s on 2 ranks / (2 x points/s on 1 rank)).
#   bash bench/gmp_bench.sh [OUT.md]
# Cases:
#   slider-crank  configs/slider_crank_gmp.yaml, 36 DOFs, grid 0.1 rad plus
#                 exact ROMs every 0.001 rad (6348 points; LAPACK per point)
#   arm3d lattice configs/arm3d_lattice_gmp.yaml: the two-link arm with
#                 lattice-box links, 100 224 DOFs per point (SLEPc + MUMPS
#                 per point), 4 x 2 grid; on 2 ranks as two 1-rank groups
#                 and as one 2-rank group
# The sweep time is the job's own /timing/sweep (the farm's wall time).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
OUT=${1:-bench/results/gmp.md}
W=$(mktemp -d /tmp/gmp-bench.XXXXXX)
row() { # label np extra-options...
  local label=$1 np=$2; shift 2
  $MPIEXEC -n $np bin/dynred "$@" -output $W/r.h5 > $W/log 2>&1 || { cat $W/log; exit 1; }
  /usr/bin/python3 - "$W/r.h5" "$label" "$np" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
t = f["/timing"].attrs["sweep"]
n = f["/gmp/grid/theta"].shape[0] + (f["/gmp/verify/theta"].shape[0] if "/gmp/verify/theta" in f else 0)
ndof = f["/gmp/labels"].shape[0]
print(f"{sys.argv[2]}|{ndof}|{n}|{sys.argv[3]}|{t:.2f}|{n / t:.4g}")
PY
  rm -f $W/r.h5
}
{
  echo "case|DOFs/point|points|ranks|sweep [s]|points/s"
  SC="-config configs/slider_crank_gmp.yaml -gmp_transient_enabled 0 -gmp_verify_step 0.001"
  row slider-crank 1 $SC
  row slider-crank 2 $SC
  ARM="-config configs/arm3d_lattice_gmp.yaml -gmp_theta1_stop 1.2 -gmp_theta2_stop 0.2"
  row "arm3d lattice" 1 $ARM
  row "arm3d lattice" 2 $ARM
  row "arm3d lattice (1 group of 2)" 2 $ARM -ranks_per_group 2
} > $W/rows
/usr/bin/python3 - $W/rows "$OUT" "$(uptime)" <<'PY'
import sys
rows = [l.strip().split("|") for l in open(sys.argv[1]) if l.strip()]
hdr, rows = rows[0], rows[1:]
base = {}
for r in rows:
    if r[3] == "1": base[r[0]] = int(r[2]) / float(r[4])
out = ["| " + " | ".join(hdr + ["parallel efficiency"]) + " |", "|" + "---|" * (len(hdr) + 1)]
for r in rows:
    key = "arm3d lattice" if r[0].startswith("arm3d lattice") else r[0]
    eff = int(r[2]) / float(r[4]) / (int(r[3]) * base[key])
    out.append("| " + " | ".join(r + [f"{eff:.2f}"]) + " |")
text = "\n".join(out) + f"\n\nmachine load at the end: {sys.argv[3].strip()}\n"
print(text)
open(sys.argv[2], "w").write("# GMP sweep throughput (bash bench/gmp_bench.sh)\n\n" + text)
PY
rm -rf $W
