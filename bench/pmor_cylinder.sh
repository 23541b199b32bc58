#!/usr/bin/env bash
# Benchmark of dynred pmor on the seed 001 cylinder (issue 15): 60 x 30
# C3D20R (37 800 DOFs, scripts/ccx_cylinder.py), load in x over half the tip
# ring (61 path nodes), 20 modes + 1 static mode.
#  - offline (eigensolve, static modes, transforms) and FRF sweep time
#    (100 frequencies x 61 positions, one MUMPS LU of the 2x2 block form per
#    frequency) on 1 and 2 ranks (ranks_per_group 1: the frequencies on the
#    farm);
#  - the error table for every 1st / 5th / 10th path node as a support
#    (the seed's Table 2 variants): median / max eps_rel between supports;
#    every 5th once more with M, K interpolated on the SPD manifold ("5m");
#  - online cost per step, reduced (interpolation + n x n Newmark) vs full
#    (PETSc TS, TSALPHA2 with Newmark's parameters: one MUMPS Cholesky
#    reused, one solve per step).
# Usage: [FRF_N=50] bash bench/pmor_cylinder.sh [OUTDIR]   (not part of make check)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/bench/out/pmor}
mkdir -p "$OUT" && cd "$OUT"
source "$ROOT/scripts/mpi-env.sh"
DYNRED=${DYNRED:-$ROOT/bin/dynred}
[ -e cylinder.sti ] || { /usr/bin/python3 "$ROOT/scripts/ccx_cylinder.py" cylinder; ccx -i cylinder > ccx.log 2>&1; }
SIM="-pmor_sim_enabled 1 -pmor_sim_speed 20 -pmor_sim_t_end 1.0 -pmor_sim_h 1e-4"
# FRF_N=50: fewer frequencies over the same band (the job's default is 100)
[ -z "${FRF_N:-}" ] || SIM="$SIM -pmor_frf_n $FRF_N"
FRF=${FRF_N:+-pmor_frf_n $FRF_N}
for np in 1 2; do
  $MPIEXEC -n $np $DYNRED -config cylinder.yaml -output np$np.h5 -ranks_per_group 1 $SIM > np$np.log
done
for e in 1 5 10; do
  $MPIEXEC -n 2 $DYNRED -config cylinder.yaml -output every$e.h5 -pmor_support_every $e -ranks_per_group 1 $FRF > every$e.log
done
$MPIEXEC -n 2 $DYNRED -config cylinder.yaml -output every5m.h5 -pmor_support_every 5 -pmor_interpolation manifold -ranks_per_group 1 $FRF > every5m.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
print("| ranks | offline s | FRF s | sim full ms/step | sim reduced ms/step |")
print("|---|---|---|---|---|")
for np_ in (1, 2):
    f = h5py.File(f"np{np_}.h5", "r")
    t = f["/timing"].attrs
    s = f["/pmor/sim"].attrs
    n = len(f["/pmor/sim/t"]) - 1
    print(f"| {np_} | {t['offline']:.1f} | {t['frf']:.1f} | {1e3 * s['wall_full_s'] / n:.3f} | {1e3 * s['wall_reduced_s'] / n:.4f} |")
print()
print("| supports | k | median eps between supports | max eps between supports | max eps support ROMs |")
print("|---|---|---|---|---|")
for e in (1, 5, 10, "5m"):
    g = h5py.File(f"every{e}.h5", "r")["/pmor"]
    err, p, ps = g["frf/error"][:], g["frf/p"][:], g["supports/p"][:]
    off = np.array([np.min(np.abs(ps - x)) > 1e-9 for x in p])
    med = np.median(err[off]) if off.any() else float("nan")
    mx = err[off].max() if off.any() else float("nan")
    print(f"| every {e} | {len(ps)} | {med:.2e} | {mx:.2e} | {g['frf/support_error'][:].max():.2e} |")
PY
