#!/usr/bin/env bash
# Between supports the FRF error of the interpolated ROM falls as supports
# are added (every 6th, 4th, 2nd ring node), and cubic-spline weights beat
# linear ones at 4 and 2 (the ring's response varies smoothly with the load
# position: spline interpolation error O(h^4) against O(h^2) for hats, once
# the spacing resolves the variation; every 6th node is too coarse to
# assert an order).  The statistic is the median of eps_rel over the grid
# points off the supports and 40 frequencies (5..200 Hz): the mean is ruled
# by the few points near an interpolated pole.  Support ROMs alone: < 1e-2
# (12 modes + the static mode; the error grows toward 200 Hz, near the
# 12th mode, and vanishes toward 0 Hz where the static mode is exact).
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
for e in 6 4 2; do for w in linear spline; do
  $MPIEXEC -n 2 $DYNRED -config ring.yaml -output c_${e}_$w.h5 -pmor_support_every $e -pmor_weights $w -pmor_frf_refine 1 > c_${e}_$w.log
done; done
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
med = {}
for e in (6, 4, 2):
    for w in ("linear", "spline"):
        g = h5py.File(f"c_{e}_{w}.h5", "r")["/pmor"]
        err, p, ps = g["frf/error"][:], g["frf/p"][:], g["supports/p"][:]
        off = np.array([np.min(np.abs(ps - x)) > 1e-9 for x in p])
        med[e, w] = np.median(err[off])
        assert g["frf/support_error"][:].max() < 1e-2, g["frf/support_error"][:].max()
        print(f"every {e}, {w:6s}: median eps_rel between supports {med[e, w]:.3e}")
for w in ("linear", "spline"):
    assert med[6, w] > med[4, w] > med[2, w], w
for e in (4, 2):
    assert med[e, "spline"] < med[e, "linear"], e
print("ok")
PY
