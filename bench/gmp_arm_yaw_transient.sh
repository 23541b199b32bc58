#!/usr/bin/env bash
# The arm3d transient with the yaw and the elbow driven at once against the
# unreduced spatial arm (bench/README.md "GMP transient: the arm with both
# motors"): configs/arm3d_gmp_transient_yaw.yaml (base torque
# 50 N m, elbow torque 8 N m, 5 Hz ramp, 0.4 s, h = 0.1 ms, grid 0.1 rad in
# both axes), for a stiff (E), a softer (E/2) and a flexible (E/10) arm, 6
# and 12 deformation modes, without and with Naets' terms, in the hinge
# frame and the chord frame (6 + 1).  Accuracy, not timing: per method the
# elevation's and the yaw's error (max over the run / travel), link 2's tip
# deflection in the arm's plane (correlation over the last 25 %, L2 error
# over the run) and out of it (the same).  Two runs at a time.
#   bash bench/gmp_arm_yaw_transient.sh [OUT.md]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/results/gmp_2g_arm_yaw.md}
W=$(mktemp -d /tmp/gmp-yaw-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
runs=() names=()
for fr in hinge chord; do
  for E in 210e9 105e9 21e9; do
    for nm in 6 12; do
      [ $fr = chord ] && [ $nm = 12 ] && continue
      for nv in false true; do
        n=${fr}_${E}_${nm}_$nv
        names+=("$n")
        runs+=("bin/dynred gmp -config configs/arm3d_gmp_transient_yaw.yaml -output $W/$n.h5 -gmp_E $E -gmp_nmodes $nm -gmp_transient_naets $nv -gmp_frame $fr > $W/$n.log 2>&1")
      done
    done
  done
done
NPAR=2 tests/par.sh "${runs[@]}" || true # a diverged run is a row of the table
{
  echo "| frame | E | modes | Naets' terms | method | elevation error | in-plane correlation | in-plane L2 error | yaw error | out-of-plane correlation | out-of-plane L2 error |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for n in "${names[@]}"; do
    if [ ! -e $W/$n.h5 ]; then
      echo "| $(tr _ ' ' <<<"$n" | awk '{printf "%s | %s | %s | %s", $1, ($2=="210e9"?"E":$2=="105e9"?"E/2":"E/10"), $3, ($4=="true"?"on":"off")}') | all | $(grep -o 'diverged at t = [0-9.e-]* s' $W/$n.log | head -1) | | | | | |"
      continue
    fi
    /usr/bin/python3 - "$W/$n.h5" $(tr _ ' ' <<<"$n") <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
fr, E, nm, nv = sys.argv[2:6]
lab = {"210e9": "E", "105e9": "E/2", "21e9": "E/10"}[E]
for m in ("linear", "quadratic", "eigenspace"):
    a = f[f"/gmp/transient/{m}"].attrs
    print(f"| {fr} | {lab} | {nm}{' + 1' if fr == 'chord' else ''} | {'on' if nv == 'true' else 'off'} | {m} | {a['theta_error_rel']:.3g} | {a['correlation']:.3f} | "
          f"{a['deflection_error_rel']:.3g} | {a['yaw_error_rel']:.3g} | {a['out_of_plane_correlation']:.3f} | {a['out_of_plane_error_rel']:.3g} |")
PY
  done
} | tee "$OUT"
