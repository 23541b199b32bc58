#!/usr/bin/env bash
# sysred.energy.model modal (issue 14 item 6b): the chain cms -> ss -> sysred
# on the clamped beam of tests/data/cms/beam.yaml (10 modes, 2 % modal
# damping, a y force at the tip, a 60 Hz sine): each mode is a unit mass, a
# spring omega^2 and a damper driven by input_map u (/ss/second_order);
# checked against an independent scipy integration of the same modal
# oscillators (tests/data/sysred/energy_ref.py):
#  - activity and 2-norm of power of every mode's mass, spring and damper;
#  - the modes removed are exactly those whose summed relative 2-norm is
#    below the threshold (here: the modes of the other bending plane and the
#    higher ones), recomputed here;
#  - the output error of the kept modes before and after the refit,
#    recomputed from dynred's values, and the refit lowers it;
#  - 1 and 3 ranks agree.
set -euo pipefail
cd "$T"
cp $ROOT/tests/data/cms/beam.yaml .
$DYNRED -config beam.yaml -verify false -output beam.h5 > cms.log
cat > ss.yaml <<'Y'
job: ss
output: ss.h5
ss:
  source: beam.h5
  inputs: [41.2]
  outputs: [41.2, 21.2]
  nmodes: 10
  damping: {type: modal, zeta: [0.02]}
Y
$DYNRED -config ss.yaml > ss.log
cat > em.yaml <<'Y'
job: sysred
output: em.h5
sysred:
  source: ss.h5
  method: energy
  input: {signal: sine, amplitude: 1.0, freq_hz: 60}
  energy: {model: modal, output: 1, t_end: 0.2, h: 0.001, threshold_pct: 2}
Y
$DYNRED -config em.yaml > em.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config em.yaml -output em3.h5 > em3.log
grep -A3 "mode 4 " em.log | head -3
PYTHONPATH=$ROOT/tests/data/sysred /usr/bin/python3 - <<'PY'
import h5py, numpy as np, energy_ref as R
f = h5py.File("ss.h5")["/ss/second_order"]
M, D, K, Bm, Cm = (f[k][:] for k in ("M", "D", "K", "input_map", "output_map"))
n = len(M)
assert np.count_nonzero(M - np.diag(np.diag(M))) == 0
shape = lambda t: np.sin(2 * np.pi * 60 * t)
def model(keep, m, k, c):
    idx = {q: i + 1 for i, q in enumerate(keep)}
    return (len(keep), [(idx[q], m[q]) for q in keep], [(idx[q], 0, k[q]) for q in keep], [(idx[q], 0, c[q]) for q in keep],
            [(idx[q], Bm[q, 0]) for q in keep], Cm[0, keep])
m0, k0, c0 = np.diag(M), np.diag(K), np.diag(D)
nq, ms, ks, cs, fs, cout = model(list(range(n)), m0, k0, c0)
t, y, act, p2 = R.chain(nq, ms, ks, cs, fs, cout, shape, 0.2, 0.001)
o = h5py.File("em.h5")["/sysred/energy"]
# dynred's components: per mode (mass, stiffness, damper), then the forces;
# the reference: all masses, all springs, all dampers, all forces
perm = np.concatenate([np.ravel(np.column_stack([np.arange(n), n + np.arange(n), 2 * n + np.arange(n)])), 3 * n + np.arange(n)])
a_ref, p_ref = act[perm], p2[perm]
# PETSc TS rk5dp at rtol 1e-10 vs DOP853 at 1e-12: the error control is
# relative to the largest states, so the weak high modes (powers 1e-5 of the
# largest) are compared on the scale of the largest power: 1e-7 (2-norm) and
# 1e-6 (activity: the |P| kinks, as in sysred_energy.sh)
assert abs(o["power_2norm"][:] - p_ref).max() < 1e-7 * p_ref.max(), "2-norm of power"
assert abs(o["activity"][:] - a_ref).max() < 1e-6 * a_ref.max(), "activity"
pct = 100 * p_ref[:3 * n] / p_ref[:3 * n].sum()
mode_pct = pct.reshape(n, 3).sum(axis=1)
rm = o["removed"][:]
kept = [q for q in range(n) if mode_pct[q] >= 2]
print("mode shares of the 2-norm [%]:", np.round(mode_pct, 3), "kept:", [q + 1 for q in kept])
assert all((rm[3 * q] == 1) == (q not in kept) for q in range(n)) and len(kept) >= 1 and len(kept) < n
vr = o["value_refit"][:]
mr, kr, cr = vr[0:3 * n:3], vr[1:3 * n:3], vr[2:3 * n:3]
_, yb, *_ = R.chain(*model(kept, m0, k0, c0)[:5], model(kept, m0, k0, c0)[5], shape, 0.2, 0.001)
_, ya, *_ = R.chain(*model(kept, mr, kr, cr)[:5], model(kept, mr, kr, cr)[5], shape, 0.2, 0.001)
Eb, Ea = ((yb - y) ** 2).sum(), ((ya - y) ** 2).sum()
print(f"error before {Eb:.6g} (dynred {o.attrs['error_before']:.6g}), after {Ea:.6g} (dynred {o.attrs['error_after']:.6g})")
# E is a sum of squared differences of nearly equal responses: the 1e-6
# relative accuracy of y is amplified by |y| / |y - y_r| ~ 1e2..1e3
assert abs(Eb / o.attrs["error_before"] - 1) < 1e-3 and abs(Ea / o.attrs["error_after"] - 1) < 1e-3
assert Ea < Eb, "the refit lowers the output error"
g = h5py.File("em3.h5")["/sysred/energy"]
for k in ("activity", "power_2norm", "value_refit", "removed"):
    assert np.array_equal(g[k][:], o[k][:]), k
print("ok")
PY
E=$ROOT/tests/expect.sh
$E 'em.yaml:7: sysred.energy.output = 3, expected the output 1..2' $DYNRED -config em.yaml -sysred_energy_output 3
$E 'expected sysred.source, not sysred.mtx' $DYNRED -config em.yaml -sysred_source '' -sysred_mtx_A x.mtx -sysred_mtx_B x.mtx -sysred_mtx_C x.mtx
