#!/usr/bin/env bash
# sysred.method energy (issue 14 item 6; seed 002 sections 3.2 and 5.8):
# activity and 2-norm of power per component, removal below the threshold,
# least-squares refit, checked against the independent sympy/scipy models of
# tests/data/sysred/energy_ref.py:
#  - the piston-crank ranking reproduces the thesis (section 5.8): "Based on
#    the Figure 5.33, two most important components are the piston mass m3,
#    and the connecting rod mass m2.  Applying 2NPR, a reduced model is
#    obtained by removing three other components, namely the crank mass m1,
#    the crank moment of inertia I1, and the connecting rod moment of inertia
#    I2."  With threshold 15 % exactly m1, I1, I2 go.  (The thesis's refit
#    values, Table 5.7: m2 0.5 -> 0.744, m3 2 -> 0.925, rest on its unstated
#    centres of mass and error measure: not compared; the direction, m2 up
#    and m3 down, is the same here.)
#  - activity and 2-norm per component equal the independent integration;
#  - the output errors before and after the refit, recomputed here with the
#    independent model from dynred's refit values, equal dynred's, the refit
#    lowers the error, and dynred's refit values are a local minimum of the
#    independent error (no +-2 % change of one value lowers it);
#  - 1, 2 and 3 ranks give the same numbers;
#  - an element model (masses, springs, dampers, force): the same checks, and
#    the tiny mass below the threshold is kept (its removal leaves a dof
#    without mass), as the thesis keeps the wheel inertia.
set -euo pipefail
cd "$T"
cat > pc.yaml <<'Y'
job: sysred
output: pc.h5
sysred:
  method: energy
  energy: {model: piston_crank, threshold_pct: 15}
Y
cat > ch.yaml <<'Y'
job: sysred
output: ch.h5
sysred:
  method: energy
  input: {signal: sine, amplitude: 1.0, freq_hz: 1.5}
  energy:
    model: elements
    ndof: 3
    masses: [1, 1.0, 2, 0.8, 3, 0.02]
    springs: [1, 0, 400, 2, 1, 300, 3, 2, 20]
    dampers: [1, 0, 2.0, 2, 1, 0.5, 3, 2, 0.02]
    forces: [1, 10]
    output: 2
    t_end: 3
    threshold_pct: 3
Y
# the one-rank runs side by side (tests/par.sh: two at a time on 2 cores)
$ROOT/tests/par.sh "$DYNRED -config pc.yaml > pc.log" "$DYNRED -config ch.yaml > ch.log"
timeout 300 $MPIEXEC -n 2 $DYNRED -config pc.yaml -output pc2.h5 > pc2.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config pc.yaml -output pc3.h5 > pc3.log
cat pc.log
cat ch.log
PYTHONPATH=$ROOT/tests/data/sysred /usr/bin/python3 - <<'PY'
import h5py, numpy as np, energy_ref as R
# Tolerances: dynred integrates with PETSc TS rk5dp at rtol 1e-10, the
# reference with DOP853 at 1e-12.  The 2-norm integrand P^2 is smooth: the
# global error is the local tolerance times the error growth over the run
# (a spinning crank, no damping), 1e-7 leaves a factor 1000.  The activity
# integrand |P| has a kink at each zero of P where the embedded error
# estimate does not see the jump of the derivative: 1e-5.
TOL_P2, TOL_ACT = 1e-7, 1e-5
def rel(a, b): return np.abs(np.asarray(a) / np.asarray(b) - 1).max()

o = h5py.File("pc.h5")["/sysred/energy"]
names = [s.decode() if isinstance(s, bytes) else s for s in o["components"][:]]
par0 = (0.12, 0.5, 2.0, 0.001, 0.004)
t, y, act, p2, (act_T, p2_T) = R.piston_crank(par0)
print("piston-crank, 2-norm of power [%]:", dict(zip(names[:5], np.round(o["power_2norm_pct"][:5], 2))))
assert rel(o["activity"][:5], act) < TOL_ACT and abs(o["activity"][5] / act_T - 1) < TOL_ACT, "activity"
assert rel(o["power_2norm"][:5], p2) < TOL_P2 and abs(o["power_2norm"][5] / p2_T - 1) < TOL_P2, "2-norm of power"
assert abs(o["power_2norm_pct"][:5] - 100 * p2 / p2.sum()).max() < 1e-5 and abs(o["activity_pct"][:5] - 100 * act / act.sum()).max() < 1e-3
assert abs(o["y_full"][:] - y).max() < 1e-7 * (R.L1 + R.L2), "piston position"   # rtol 1e-10 times the growth above
# the thesis's qualitative result
order = np.argsort(-p2)
assert {names[i].split()[0] for i in order[:2]} == {"m2", "m3"}, "m3 and m2 carry the most power"
rm = o["removed"][:]
assert [names[i].split()[0] for i in range(5) if rm[i] == 1] == ["m1", "I1", "I2"], rm
assert rm[5] == 0 and rm[1] == 0 and rm[2] == 0
# errors before and after the refit, recomputed
vr = o["value_refit"][:]
kept = lambda v: tuple(0.0 if rm[i] == 1 else v[i] for i in range(5))
_, yb, *_ = R.piston_crank(kept(par0))
_, ya, *_ = R.piston_crank(kept(vr))
Eb, Ea = ((yb - y) ** 2).sum(), ((ya - y) ** 2).sum()
print(f"error before {Eb:.6g} (dynred {o.attrs['error_before']:.6g}), after {Ea:.6g} (dynred {o.attrs['error_after']:.6g}); m2 -> {vr[1]:.4f}, m3 -> {vr[2]:.4f}")
# the refit error is a small difference of positions: 1e-7 relative on y
# (above) over 501 samples of |y - y_r| ~ 1e-3 gives ~1e-4 relative on E
assert abs(Eb / o.attrs["error_before"] - 1) < 1e-6 and abs(Ea / o.attrs["error_after"] - 1) < 1e-4
assert Ea < 1e-3 * Eb, "the refit lowers the output error by orders of magnitude"
for j in (1, 2):
    for f in (0.98, 1.02):
        v = vr.copy(); v[j] *= f
        _, yp, *_ = R.piston_crank(kept(v), rtol=1e-10)
        assert ((yp - y) ** 2).sum() > Ea, f"refit not a minimum: {names[j]} x {f} lowers the error"
# rank independence: every rank computes the same thing
for f in ("pc2.h5", "pc3.h5"):
    g = h5py.File(f)["/sysred/energy"]
    for k in ("activity", "power_2norm", "value_refit", "y_refit"):
        assert np.array_equal(g[k][:], o[k][:]), (f, k)

# element model
o = h5py.File("ch.h5")["/sysred/energy"]
masses, springs, dampers, forces = [(1, 1.0), (2, 0.8), (3, 0.02)], [(1, 0, 400), (2, 1, 300), (3, 2, 20)], [(1, 0, 2.0), (2, 1, 0.5), (3, 2, 0.02)], [(1, 10)]
shape = lambda t: np.sin(2 * np.pi * 1.5 * t)
t, y, act, p2 = R.chain(3, masses, springs, dampers, forces, 2, shape, 3.0, 0.01)
assert rel(o["activity"][:], act) < TOL_ACT and rel(o["power_2norm"][:], p2) < TOL_P2, "element activity / 2-norm"
rm = o["removed"][:]
print("element model: removed", rm)
assert rm[2] == -1, "the dof-3 mass is below the threshold but needed"
passive = p2[:-1]
pct = 100 * passive / passive.sum()
assert all((rm[i] == 1) == (pct[i] < 3 and i != 2) for i in range(9)), (pct, rm)
vr = o["value_refit"][:]
def model(v):
    sel = lambda lst, off: [tuple(e[:-1]) + (v[off + i],) for i, e in enumerate(lst) if rm[off + i] != 1]
    return sel(masses, 0), sel(springs, 3), sel(dampers, 6), forces
_, yb, *_ = R.chain(3, *model([e[-1] for e in masses + springs + dampers]), 2, shape, 3.0, 0.01)
_, ya, *_ = R.chain(3, *model(vr), 2, shape, 3.0, 0.01)
Eb, Ea = ((yb - y) ** 2).sum(), ((ya - y) ** 2).sum()
print(f"element model: error before {Eb:.6g} (dynred {o.attrs['error_before']:.6g}), after {Ea:.6g} (dynred {o.attrs['error_after']:.6g})")
assert abs(Eb / o.attrs["error_before"] - 1) < 1e-4 and abs(Ea / o.attrs["error_after"] - 1) < 1e-3   # as above; y is smaller here
assert Ea < 0.1 * Eb, "the refit lowers the output error"
print("ok")
PY
# the bad inputs side by side (tests/par.sh; each fails at set-up)
$ROOT/tests/par.sh \
  "\$ROOT/tests/expect.sh 'ch.yaml:9: sysred.energy.masses has 5 numbers, expected groups of 2 \(dof, value\)' \$DYNRED -config ch.yaml -sysred_energy_masses 1,1.0,2,0.8,3" \
  "\$ROOT/tests/expect.sh 'ch.yaml:9: dof 3 has no mass, expected a mass on every dof' \$DYNRED -config ch.yaml -sysred_energy_masses 1,1.0,2,0.8" \
  "\$ROOT/tests/expect.sh 'ch.yaml:10: sysred.energy.springs entry 2: second dof 2, expected an integer 0 \(ground\)..3 other than the first' \$DYNRED -config ch.yaml -sysred_energy_springs 1,0,400,2,2,300" \
  "\$ROOT/tests/expect.sh 'ch.yaml:13: sysred.energy.output = 4, expected the dof 1..3' \$DYNRED -config ch.yaml -sysred_energy_output 4" \
  "\$ROOT/tests/expect.sh 'ch.yaml:8: sysred.energy.ndof is missing' \$DYNRED -config ch.yaml -sysred_energy_ndof 0"
