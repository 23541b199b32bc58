#!/usr/bin/env bash
# The small version of the seed's cylinder (scripts/ccx_cylinder.py: 16 x 4
# C3D20R, clamped, CalculiX exports K and M): dynred pmor reads the deck,
# moves the load in x over half the tip ring (17 nodes, arc length), 5
# supports.  Reference: the full model's FRF (MUMPS, one solve per
# frequency).  Below half the first eigenfrequency the support ROMs are
# exact up to the truncated modes' dynamic part, eps <= (w / w_21)^2 /
# (1 - (w / w_21)^2) ~ 1e-2 at most (modal truncation with a static
# correction); asserted: support ROMs eps < 1e-2 there, and the full FRF at
# 10 Hz equals the static flexibility b^T K^-1 b to (w / w_1)^2 ~ 2e-4.
set -euo pipefail
cd "$T"
/usr/bin/python3 "$ROOT/scripts/ccx_cylinder.py" cyl 16 4
ccx -i cyl > ccx.log 2>&1
$MPIEXEC -n 2 $DYNRED -config cyl.yaml -pmor_nmodes 10 -pmor_frf_n 31 -pmor_frf_fmin 10 > cyl.log
cat cyl.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
g = h5py.File("cyl_pmor.h5", "r")["/pmor"]
f1 = g["frequencies_hz"][0]
fr = g["frf/omega"][:] / (2 * np.pi)
low = fr < 0.5 * f1
se = g["frf/support_error"][:]
print(f"f1 = {f1:.1f} Hz; support ROMs below {0.5 * f1:.0f} Hz: max eps_rel {se[:, low].max():.2e}")
assert low.sum() >= 3 and se[:, low].max() < 1e-2
# static limit: the ROM with the static mode is exact at w = 0, so H_support
# at 10 Hz and H_full at 10 Hz agree to the dynamic part, (10 / f1)^2
Hf, Hs = g["frf/H_full"][:, 0, 0], g["frf/H_support"][:, 0, 0]
idx = g["supports/index"][:]
p_grid = g["frf/p"][:]
d = np.abs(Hs - Hf[idx]) / np.abs(Hf[idx])
print(f"10 Hz: support ROMs vs full {d.max():.2e} (bound {(10 / f1) ** 2:.1e})")
assert d.max() < (10 / f1) ** 2
PY
