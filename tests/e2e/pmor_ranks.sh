#!/usr/bin/env bash
# 1, 2 and 3 ranks (one farm group; then 3 groups of 1) give the same pmor
# result, the moving-load simulation included: the support matrices, transforms and FRFs agree to 1e-8 relative
# (the only differences are the order of the parallel dot products and
# MUMPS's pivot order: round-off amplified by cond(T)^2 ~ 1e6 in the
# transforms and by cond(K_r - w^2 M_r) ~ 1e7 near an interpolated pole).
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
$MPIEXEC -n 1 $DYNRED -config ring.yaml -pmor_frf_n 12 -pmor_sim_enabled 1 -pmor_sim_t_end 0.2 -pmor_sim_h 5e-4 -output r1.h5 > r1.log
$MPIEXEC -n 2 $DYNRED -config ring.yaml -pmor_frf_n 12 -pmor_sim_enabled 1 -pmor_sim_t_end 0.2 -pmor_sim_h 5e-4 -output r2.h5 > r2.log
$MPIEXEC -n 3 $DYNRED -config ring.yaml -pmor_frf_n 12 -pmor_sim_enabled 1 -pmor_sim_t_end 0.2 -pmor_sim_h 5e-4 -output r3.h5 > r3.log
$MPIEXEC -n 3 $DYNRED -config ring.yaml -pmor_frf_n 12 -pmor_sim_enabled 1 -pmor_sim_t_end 0.2 -pmor_sim_h 5e-4 -output r3g.h5 -ranks_per_group 1 > r3g.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
def walk(g, out):
    for k, v in g.items():
        if isinstance(v, h5py.Dataset): out[v.name] = v[:]
        else: walk(v, out)
ref = {}
walk(h5py.File("r1.h5", "r")["/pmor"], ref)
for f in ("r2.h5", "r3.h5", "r3g.h5"):
    d = {}
    walk(h5py.File(f, "r")["/pmor"], d)
    assert d.keys() == ref.keys(), set(d) ^ set(ref)
    worst = 0.0
    for k in ref:
        a, b = ref[k].astype(float), d[k].astype(float)
        if k.endswith("/error") or k.endswith("support_error"):
            # eps_rel entry by entry, relative where it exceeds 1 (an
            # interpolated pole near that frequency amplifies round-off)
            dev = (np.abs(a - b) / np.maximum(np.abs(a), 1)).max()
        else:
            dev = np.abs(a - b).max() / max(np.abs(a).max(), 1e-300)
        worst = max(worst, dev)
        assert dev < 1e-8, (f, k, dev)
    print(f"{f}: every /pmor dataset within {worst:.1e} of 1 rank")
PY
