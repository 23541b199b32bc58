#!/usr/bin/env bash
# The arm3d elbow transient against the unreduced arm (bench/README.md
# "GMP transient: the arm's elbow"): configs/arm3d_gmp_transient.yaml (yaw held at
# 0.3 rad, elbow torque 8 N m with a 5 Hz ramp, 0.4 s, h = 0.1 ms, grid
# 0.1 rad), for a stiff (E), a softer (E/2) and a flexible (E/10) arm, 6 and
# 12 deformation modes, without and with Naets' terms, in the hinge frame
# (theta_2: the elbow's rotation, the default) and the chord frame
# (gmp.frame chord: theta_2 the elevation of link 2's chord; the modes plus
# one attachment column, "6 + 1").  Accuracy, not
# timing: per method theta error (max over the run / travel), phase lag and
# correlation of link 2's tip deflection over the last 25 %, and its L2
# error over the run.
#   bash bench/gmp_arm_transient.sh [OUT.md]
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/results/gmp_2g_arm.md}
W=$(mktemp -d /tmp/gmp-arm-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
{
  echo "| frame | E | modes | Naets' terms | method | theta error | phase [deg] | correlation | deflection L2 error | dropped-inertia ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for fr in hinge chord; do
  for E in 210e9 105e9 21e9; do
    for nm in 6 12; do
      for nv in false true; do
        bin/dynred gmp -config configs/arm3d_gmp_transient.yaml -output $W/r.h5 -gmp_E $E -gmp_nmodes $nm -gmp_transient_naets $nv -gmp_frame $fr > $W/log 2>&1 || { cat $W/log >&2; exit 1; }
        /usr/bin/python3 - "$W/r.h5" "$E" "$nm" "$nv" "$fr" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
lab = {"210e9": "E", "105e9": "E/2", "21e9": "E/10"}[sys.argv[2]]
for m in ("linear", "quadratic", "eigenspace"):
    a = f[f"/gmp/transient/{m}"].attrs
    print(f"| {sys.argv[5]} | {lab} | {sys.argv[3]}{' + 1' if sys.argv[5] == 'chord' else ''} | {'on' if sys.argv[4] == 'true' else 'off'} | {m} | {a['theta_error_rel']:.3g} | {a['phase_error_deg']:.2f} | "
          f"{a['correlation']:.3f} | {a['deflection_error_rel']:.3g} | {a['dropped_inertia_ratio']:.2g} |")
PY
        rm -f $W/r.h5 $W/r.h5.sweep.h5
      done
    done
  done
  done
} | tee "$OUT"
