#!/usr/bin/env bash
# Read rate of the text matrix readers: a CalculiX .sti/.mas/.dof triple and
# an Abaqus *MATRIX OUTPUT pair (FORMAT=MATRIX INPUT, lower triangle, labels
# from the node/DOF pairs) of the same model, written here, then read by
# build/tests/test_readcomp (the component reader, its checks, nothing else)
# under -log_view on each rank count; the time is the reader's PETSc event
# (DRModelReadCcx, DRModelReadMTX: max over ranks), the size the files'
# bytes.  Prints MB/s and MB/s per rank.
#   bash bench/read_rate.sh [NDOF [NP...]]     defaults: 1000000 DOFs, NP 1 2
#   e.g. bash bench/read_rate.sh 30000 1 2     (a small check, seconds)
# The model: NDOF/3 nodes of 3 DOFs on an nx x nx x nz grid, K the 7-point
# stencil of each DOF (12 on the diagonal, -1 to the DOF's neighbours
# +-1, +-3, +-3nx, +-3nx^2 in the DOF numbering: diagonally dominant, SPD),
# M the same pattern (1, 0.01): about 5 entries per column in one triangle,
# 1M DOFs = 2 x ~210 MB (CalculiX) and 2 x ~250 MB (Abaqus).
# Files in $WORKDIR (default /tmp/dynred-read-rate), kept for a rerun of the
# same size (delete them to regenerate).  Run it alone: the rate is I/O and
# one core's parsing on rank 0.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
ndof=${1:-1000000}; shift || true
nps=${*:-1 2}
W=${WORKDIR:-/tmp/dynred-read-rate}; mkdir -p "$W"
TBIN=${TBIN:-$PWD/build/tests}
[ -x "$TBIN/test_readcomp" ] || { echo "read_rate.sh: $TBIN/test_readcomp missing, expected 'make' run first"; exit 1; }
if [ ! -s "$W/r$ndof.dof" ] || [ ! -s "$W/r${ndof}_MASS1.mtx" ]; then
  /usr/bin/python3 - "$W" "$ndof" <<'PY'
import sys, numpy as np
w, ndof = sys.argv[1], int(sys.argv[2])
nn = max(ndof // 3, 8)
nx = max(int(round(nn ** (1 / 3))), 2)
n = 3 * nn
offs = [3 * nx * nx, 3 * nx, 3, 1]          # lower neighbours of a DOF, farthest first
job = f"{w}/r{ndof}"
with open(job + ".dof", "w") as f:
    k = np.arange(n)
    f.write("\n".join(f"{a}.{b}" for a, b in zip(k // 3 + 1, k % 3 + 1)) + "\n")
fs = {"sti": open(job + ".sti", "w"), "mas": open(job + ".mas", "w"),
      "K": open(job + "_STIF1.mtx", "w"), "M": open(job + "_MASS1.mtx", "w")}
fs["K"].write("** read_rate.sh: 7-point stencil model, lower triangle by rows\n")
fs["M"].write("** read_rate.sh: 7-point stencil model, lower triangle by rows\n")
step = 200000
for j0 in range(0, n, step):
    j = np.arange(j0, min(j0 + step, n))
    rows, cols, kv, mv = [], [], [], []
    for o in offs:                              # off-diagonals, ascending row
        ok = j - o >= 0
        rows.append(np.where(ok, j - o, -1)); cols.append(j); kv.append(np.full(j.size, -1.0)); mv.append(np.full(j.size, 0.01))
    rows.append(j); cols.append(j); kv.append(np.full(j.size, 12.0)); mv.append(np.full(j.size, 1.0))
    R = np.stack(rows, 1).ravel(); C = np.stack(cols, 1).ravel()
    KV = np.stack(kv, 1).ravel(); MV = np.stack(mv, 1).ravel()
    keep = R >= 0
    R, C, KV, MV = R[keep], C[keep], KV[keep], MV[keep]
    # CalculiX: "i j value" 1-based, column by column, diagonal last
    for key, V in (("sti", KV), ("mas", MV)):
        fs[key].write("".join(f"{a} {b} {v:20.13e}\n" for a, b, v in zip(R + 1, C + 1, V)))
    # Abaqus MATRIX INPUT, lower triangle by rows (row = C here): node, dof, node, dof, value
    for key, V in (("K", KV), ("M", MV)):
        fs[key].write("".join(f"{c // 3 + 1},{c % 3 + 1}, {r // 3 + 1},{r % 3 + 1}, {v:.16e}\n" for r, c, v in zip(R, C, V)))
for f in fs.values():
    f.close()
print(f"read_rate.sh: wrote {n} DOFs ({nn} nodes, grid {nx} x {nx} x {nn // (nx * nx)}+) in {w}")
PY
fi
job=$W/r$ndof
mb() { du -cb "$@" | tail -1 | awk '{printf "%.1f", $1 / 1e6}'; }
ccxmb=$(mb $job.sti $job.mas $job.dof)
abqmb=$(mb ${job}_STIF1.mtx ${job}_MASS1.mtx)
printf "%-10s %5s %10s %10s %10s %12s\n" format ranks MB seconds MB/s "MB/s/rank"
for np in $nps; do
  for fmt in calculix abaqus; do
    if [ $fmt = calculix ]; then args=(calculix $job); ev=DRModelReadCcx; size=$ccxmb
    else args=(abaqus ${job}_STIF1.mtx ${job}_MASS1.mtx - -); ev=DRModelReadMTX; size=$abqmb; fi
    log=$W/r${ndof}_${fmt}_np$np.log
    $MPIEXEC -n $np "$TBIN/test_readcomp" "${args[@]}" -n_ref $(wc -l < $job.dof) -log_view > "$log" 2>&1 \
      || { echo "read_rate.sh: test_readcomp failed, see $log"; tail -3 "$log"; exit 1; }
    t=$(awk -v e=$ev '$1 == e { print $4; exit }' "$log")
    [ -n "$t" ] || { echo "read_rate.sh: no $ev event in $log"; exit 1; }
    awk -v f=$fmt -v np=$np -v mb=$size -v t=$t 'BEGIN { printf "%-10s %5d %10.1f %10.3f %10.1f %12.1f\n", f, np, mb, t, mb / t, mb / t / np }'
  done
done
