#!/usr/bin/env bash
# pmor.distribute: quadratic (a point load at p shared by the three nodes of
# a 3-node path edge by its shape functions).  On the ring (index
# parameter: equally spaced, so the Lagrange functions in p are the
# isoparametric ones) with 4 FRF positions per segment, tests/e2e/
# pmor_check.py recomputes the full FRF b(p)^T (K - w^2 M + i w D)^-1 b(p)
# with b(p) from the analytic shape functions xi (xi - 1)/2, 1 - xi^2,
# xi (xi + 1)/2 (dense numpy solve; 1e-8 from cond(K - w^2 M) as there);
# a linear-distribution check of the same file must fail (the test sees
# the difference).  An open 48-node path (47 segments) is refused.
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
$MPIEXEC -n 2 $DYNRED -config ring.yaml -output q.h5 -pmor_distribute quadratic -pmor_frf_refine 4 -pmor_frf_n 8 > q.log
/usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . q.h5 | tee q.check
/usr/bin/python3 - <<'PY'
import h5py
with h5py.File("q.h5", "r+") as f:
    f["/pmor"].attrs["distribute"] = "linear"
PY
if /usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . q.h5 > lin.check 2>&1; then echo "a linear distribution matched the quadratic run"; exit 1; fi
grep -q "AssertionError" lin.check
if $MPIEXEC -n 1 $DYNRED -config ring.yaml -output bad.h5 -pmor_distribute quadratic -pmor_closed 0 > bad.log 2>&1; then echo "odd segments accepted"; exit 1; fi
/usr/bin/python3 "$ROOT/scripts/pmor_plot.py" q.h5 q.png && test -s q.png  # the error-map shortcut (dynred_plot.py's frf figure)
grep -E "dynred: error: .*pmor.distribute quadratic groups the path into 3-node edges, but the path has 47 segments, expected an even number" bad.log
test "$(grep -c 'dynred: error' bad.log)" = 1
echo ok
