#!/usr/bin/env bash
# sysred.energy.cms (issue 14 item 6b): power per modal coordinate and per
# substructure of a CMS model over a simulation of its modal state space
# (cms -> ss -> sysred energy, model modal).
#  1. The 60-mass chain of tests/data/cms/chain_gen.py in 3 Matrix Market
#     components a, b, c (sharing nodes 20 and 40), 8 modes, 2 % modal
#     damping, forces at nodes 60 (in c) and 30 (in b), a 3 Hz sine:
#     against an independent numpy/scipy simulation (DOP853) of the same
#     modal equations that builds each component's projected K, M from the
#     component files itself and computes the same powers P = v^T f over
#     each component's DOFs (tests/data/sysred/energy_sub_ref.py).
#  2. Physics on dynred's own numbers, for the chain and the built-in frame3d
#     beam in 2 parts (tests/data/cms/beam.yaml): per mode and per part
#     int P dt = energy at t_end + dissipated; the parts' works and the modes'
#     works sum to the input work; the interface works sum to zero (the
#     parts' interface forces cancel); the input work on each part is the
#     work of the forces on its DOFs.
#  3. 1, 2 and 3 ranks give identical numbers; bad sysred.energy.cms sources
#     (not a cms result, missing, another model, an automatic partition)
#     give one clear line.
set -euo pipefail
cd "$T"
mkdir -p ch && cd ch
/usr/bin/python3 $ROOT/tests/data/cms/chain_gen.py chain .
cp $ROOT/tests/data/cms/chain.yaml .
cat > ss.yaml <<'Y'
job: ss
output: ss.h5
ss:
  source: chain.h5
  inputs: [60.1, 30.1]
  outputs: [60.1]
  nmodes: 8
  damping: {type: modal, zeta: [0.02]}
Y
cat > em.yaml <<'Y'
job: sysred
output: em.h5
sysred:
  source: ss.h5
  method: energy
  input: {signal: sine, amplitude: 1.0, freq_hz: 3}
  energy: {model: modal, output: 1, t_end: 2, h: 0.01, threshold_pct: 2, refit: false, cms: chain.h5}
Y
cd "$T"
# the beam in 2 parts and the automatically partitioned beam (further down)
cp $ROOT/tests/data/cms/beam.yaml .
cat > bss.yaml <<'Y'
job: ss
output: bss.h5
ss:
  source: beam.h5
  inputs: [41.2, 21.3]
  outputs: [41.2]
  nmodes: 10
  damping: {type: modal, zeta: [0.02]}
Y
cat > bem.yaml <<'Y'
job: sysred
output: bem.h5
sysred:
  source: bss.h5
  method: energy
  input: {signal: sine, amplitude: 1.0, freq_hz: 60}
  energy: {model: modal, output: 1, t_end: 0.2, h: 0.001, threshold_pct: 2, refit: false, cms: beam.h5}
Y
cat > bp.yaml <<'Y'
job: cms
output: bp.h5
model:
  builtin: frame3d
  frame3d: {lx: 1.0, nx: 1, ny: 0, nz: 0, nel: 40, clamp: x0}
cms: {nmodes: 12, component_modes: 1000, partition: 2}
verify: false
Y
# the three one-rank chains cms -> ss -> sysred side by side (tests/par.sh:
# two at a time on 2 cores); the multi-rank runs after them
$ROOT/tests/par.sh "cd ch; \$DYNRED -config chain.yaml -verify false -cms_nmodes 8 > cms.log; \$DYNRED -config ss.yaml > ss.log; \$DYNRED -config em.yaml > em.log" \
  "\$DYNRED -config beam.yaml -verify false -output beam.h5 > bcms.log; \$DYNRED -config bss.yaml > bss.log; \$DYNRED -config bem.yaml > bem.log" \
  "\$DYNRED -config bp.yaml > bp.log; \$DYNRED -config bss.yaml -ss_source bp.h5 -output bpss.h5 > bpss.log"
cd ch
timeout 300 $MPIEXEC -n 2 $DYNRED -config em.yaml -output em2.h5 > em2.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config em.yaml -output em3.h5 > em3.log
grep -A5 "power per substructure" em.log
PYTHONPATH=$ROOT/tests/data/sysred /usr/bin/python3 - <<'PY'
import h5py, numpy as np, energy_sub_ref as R
comps = [R.component(".", n) for n in "abc"]
ref = R.simulate("chain.h5", "ss.h5", comps, lambda t: np.sin(2 * np.pi * 3 * t), 2.0)
o = h5py.File("em.h5")["/sysred/energy"]
m, s = o["modes"], o["substructures"]
assert [x.decode() for x in s["names"][:]] == ["a", "b", "c"]
# PETSc TS rk5dp at rtol 1e-10 (atol 1e-12) vs DOP853 at 1e-12: the error
# control is relative to the largest states, so every quantity is compared
# on the scale of its largest entry: 1e-7 (signed integrals, energies,
# 2-norms) and 1e-6 for the activities (|P| has kinks at its zeros, where
# both integrators lose an order)
def close(a, b, tol, what):
    a, b = np.asarray(a), np.asarray(b)
    d = abs(a - b).max() / abs(b).max()
    assert d < tol, f"{what}: rel. difference {d:.2e}"
for k, tol in (("activity", 1e-6), ("power_2norm", 1e-7), ("work", 1e-7), ("dissipated", 1e-7), ("energy_end", 1e-7)):
    close(m[k][:], ref["mode"][k], tol, "mode " + k)
    close(s[k][:], ref["sub"][k], tol, "substructure " + k)
for k, tol in (("input_work", 1e-7), ("interface_work", 1e-7), ("interface_activity", 1e-6), ("interface_power_2norm", 1e-7)):
    close(s[k][:], ref["sub"][k], tol, "substructure " + k)
for g, a in ((m, ref["mode"]), (s, ref["sub"])):
    for k in ("activity", "power_2norm"):
        close(g[k + "_pct"][:], 100 * a[k] / a[k].sum(), 1e-6, k + "_pct")
        assert abs(g[k + "_pct"][:].sum() - 100) < 1e-9
print("substructure 2-norm shares [%]:", np.round(s["power_2norm_pct"][:], 3))
for other in ("em2.h5", "em3.h5"):
    g = h5py.File(other)["/sysred/energy"]
    for grp in ("modes", "substructures"):
        for k in g[grp]:
            assert np.array_equal(g[grp][k][:], o[grp][k][:]), other + ": " + grp + "/" + k
print("ok: chain vs the independent simulation, 1 = 2 = 3 ranks")
PY
/usr/bin/python3 $ROOT/tests/data/sysred/energy_sub_ref.py balance em.h5
cd "$T"
# the built-in frame3d beam in 2 parts (clamped, y force at the tip; run above)
grep -A4 "power per substructure" bem.log
/usr/bin/python3 $ROOT/tests/data/sysred/energy_sub_ref.py balance bem.h5
E=$ROOT/tests/expect.sh
$E 'bss.h5: no /cms/modes, expected a dynred cms result with its modes \(sysred.energy.cms; not cms.write_modes false\)' $DYNRED -config bem.yaml -sysred_energy_cms bss.h5
$E "command line -sysred_energy_cms: sysred.energy.cms = 'nothere.h5': cannot read 'nothere.h5' \(No such file or directory\), expected a readable file" $DYNRED -config bem.yaml -sysred_energy_cms nothere.h5
# another model's cms result: too few modes, or other modes
$E 'ch/chain.h5: /cms/modes has 8 modes, expected at least the 10 of the ss model' $DYNRED -config bem.yaml -sysred_energy_cms ch/chain.h5
cd ch
$E 'beam.h5: mode 1 of the ss model has M 1\.?, K [^,]*, the cms result [^ ]* Hz \(K [^)]*\), expected the ss result of these mass-normalized modes \(sysred.energy.cms\)' $DYNRED -config em.yaml -sysred_energy_cms ../beam.h5
cd "$T"
# an automatic partition (cms.partition, run above): the parts are not in the job text
$E 'bp.h5: /cms/components has 3 parts, the model of its job text 1 components, expected the same parts \(a model cut by model.cut or a components: list; not an automatic partition, cms.partition\)' $DYNRED -config bem.yaml -sysred_source bpss.h5 -sysred_energy_cms bp.h5
