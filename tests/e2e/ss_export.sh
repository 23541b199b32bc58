#!/usr/bin/env bash
# dynred ss export, checked in numpy against independent references:
#  1. cms source (free-free beam, free-interface CMS: 6 rigid-body modes):
#     eigenvalues of A are +-i omega_k of /cms/frequencies_hz (undamped; rigid
#     blocks [[0,1],[0,0]] give double zeros), B and C equal the rows of
#     /cms/modes at the input/output labels; with modal zeta per mode the
#     eigenvalues are -zeta w +- i w sqrt(1 - zeta^2), rigid modes undamped;
#     Matrix Market files equal /ss/A../ss/D.
#  2. reduced-matrix source (/ga/solutions/NNN/K, M, labels written by
#     tests/data/ss/km_gen.py): the transfer function C (iw I - A)^-1 B + D
#     equals S_out^T (K - w^2 M + i w (alpha M + beta K))^-1 S_in (displacement)
#     and i w times it (velocity), from K, M directly; also undamped with a
#     rigid-body mode.
#  3. the same export and simulation on 1, 2 and 3 ranks give identical files.
set -euo pipefail
cd "$T"
cp $ROOT/tests/data/cms/beam_free.yaml .
$DYNRED -config beam_free.yaml -verify false -output free.h5 > cms.log
/usr/bin/python3 $ROOT/tests/data/ss/km_gen.py km.h5
cat > ss_cms.yaml <<'Y'
job: ss
output: ss_cms.h5
ss:
  source: free.h5
  inputs: [31.2, 1.3, 16.1]
  outputs: [31.2, 1.6, 12.3]
Y
cat > ss_zeta.yaml <<'Y'
job: ss
output: ss_zeta.h5
ss:
  source: free.h5
  inputs: [31.2]
  outputs: [31.2]
  damping: {type: modal, zeta: [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.2, 0.3, 0.5, 0.9]}
Y
cat > ss_km.yaml <<'Y'
job: ss
output: ss_km.h5
ss:
  source: km.h5
  group: /ga/solutions/001
  inputs: [10.2, 14.2]
  outputs: [17.2, 12.2, 10.2]
  damping: {type: rayleigh, alpha: 0.8, beta: 2e-4}
Y
$DYNRED -config ss_cms.yaml > cms_ss.log
$DYNRED -config ss_zeta.yaml > zeta.log
$DYNRED -config ss_km.yaml > km.log
$DYNRED -config ss_km.yaml -ss_group ga/solutions/002 -ss_damping_type none -output ss_km0.h5 > km0.log
grep -q "6 rigid-body" cms_ss.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.io
def lab(l): return (int(l), int(round(10 * (l - int(l)))))
with h5py.File("free.h5") as f:
    fz = f["/cms/frequencies_hz"][:]; P = f["/cms/modes"][:]; L = [tuple(r) for r in f["/cms/labels"][:]]
# tol: rigid modes come out at |f| ~ sqrt(u lambda_max)/(2 pi) << 1e-3 Hz; the lowest flexible mode is far above
w = 2 * np.pi * np.where(fz > 1e-3, fz, 0.0)
row = lambda l: P[L.index(lab(l))]
with h5py.File("ss_cms.h5") as f:
    A, B, C, D = (f["/ss/" + x][:] for x in "ABCD")
    assert f["/ss"].attrs["n_rigid"] == 6
m = len(w)
assert A.shape == (2 * m, 2 * m) and B.shape == (2 * m, 3) and C.shape == (6, 2 * m) and D.shape == (6, 3)
ev = np.linalg.eigvals(A)
ref = np.concatenate([1j * w, -1j * w])
e = max(min(abs(ev - r)) for r in ref) / w.max()
print(f"undamped: max |eig(A) - (+-i w)| / w_max = {e:.2e}")
# tol: a rigid mode is a 2x2 Jordan block of A: eig accurate to sqrt(u) w_max = 1.5e-8 w_max; 1e-7 = 7x that
assert e < 1e-7, e  # defective zero eigenvalues (rigid blocks) are only accurate to sqrt(eps)
# tol: between the Jordan-block error sqrt(u) = 1.5e-8 and the lowest flexible omega / omega_max
assert np.sum(abs(ev) < 1e-6 * w.max()) == 12, "rigid blocks must give 12 zero eigenvalues"
Bref = np.zeros((2 * m, 3)); Cref = np.zeros((6, 2 * m))
for j, l in enumerate([31.2, 1.3, 16.1]): Bref[1::2, j] = row(l)
for i, l in enumerate([31.2, 1.6, 12.3]): Cref[2 * i, 0::2] = row(l); Cref[2 * i + 1, 1::2] = row(l)
# tol: B and C are copies of mode-shape entries (no arithmetic): 1e-14 = 45 u of the largest entry
assert np.allclose(B, Bref, rtol=0, atol=1e-14 * abs(Bref).max()), "B != (Phi^T S_in) kron e2"
assert np.allclose(C, Cref, rtol=0, atol=1e-14 * abs(Cref).max()), "C != (S_out^T Phi) kron I2"
assert not D.any()
for x, M_ in zip("ABCD", (A, B, C, D)):
    X = scipy.io.mmread(f"ss_cms_{x}.mtx").toarray()
    assert np.array_equal(X, M_), f"ss_cms_{x}.mtx differs from /ss/{x}"
z = np.array([0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.2, 0.3, 0.5, 0.9])
with h5py.File("ss_zeta.h5") as f:
    A = f["/ss/A"][:]; zs = f["/ss/zeta"][:]
ev = np.linalg.eigvals(A)
flex = w > 0
wd = w[flex] * np.sqrt(1 - z[flex] ** 2)
ref = np.concatenate([-z[flex] * w[flex] + 1j * wd, -z[flex] * w[flex] - 1j * wd])
e = max(min(abs(ev - r)) for r in ref) / w.max()
print(f"modal zeta: max |eig(A) - (-zeta w +- i w sqrt(1-zeta^2))| / w_max = {e:.2e}")
# tol: the damped 2x2 blocks are not defective: LAPACK eig to ~n u ||A|| times the blocks' eigenvector condition 1/sqrt(1 - zeta^2) <= 2.3 (zeta 0.9): ~1e-14 w_max
assert e < 1e-12, e
# tol: as above: sqrt(u) for the Jordan blocks << 1e-6 << the lowest damped |eig|
assert np.sum(abs(ev) < 1e-6 * w.max()) == 12, "rigid modes must stay undamped"
# tol: zeta is copied from the input (default rtol 1e-5 is loose for an exact copy)
assert np.allclose(zs[flex], z[flex]) and not zs[~flex].any()
import importlib.util, os
spec = importlib.util.spec_from_file_location("g", os.path.join(os.environ["ROOT"], "tests/data/ss/km_gen.py"))
g = importlib.util.module_from_spec(spec); spec.loader.exec_module(g)
for fn, grounded, al, be in (("ss_km.h5", True, 0.8, 2e-4), ("ss_km0.h5", False, 0.0, 0.0)):
    K, M = g.chain(8, grounded)
    Dm = al * M + be * K
    with h5py.File(fn) as f:
        A, B, C, D = (f["/ss/" + x][:] for x in "ABCD")
        fr = f["/ss/frequencies_hz"][:]
    Sin = np.zeros((8, 2)); Sin[0, 0] = 1; Sin[4, 1] = 1
    Sout = np.zeros((8, 3)); Sout[7, 0] = 1; Sout[2, 1] = 1; Sout[0, 2] = 1
    lam = np.sort(np.linalg.eigvals(np.linalg.solve(M, K)).real)
    # tol: two eigensolves of an 8-DOF chain: kappa u ~ 1e-14 relative; atol 1e-3 rad/s for the free chain's zero frequency (sqrt(u lambda_max) ~ 1e-6)
    assert np.allclose(2 * np.pi * fr, np.sqrt(np.clip(lam, 0, None)), rtol=1e-10, atol=1e-3), "frequencies"
    emax = 0
    for fhz in np.linspace(0.5, 2.5 * fr.max(), 400):
        s = 2j * np.pi * fhz
        H = C @ np.linalg.solve(s * np.eye(A.shape[0]) - A, B) + D
        Hd = Sout.T @ np.linalg.solve(K + s * Dm + s * s * M, Sin)
        Href = np.zeros_like(H); Href[0::2] = Hd; Href[1::2] = s * Hd
        emax = max(emax, abs(H - Href).max() / abs(Href).max())
    print(f"{fn}: transfer function of (A,B,C,D) vs (K - w^2 M + i w D)^-1, max rel error over 400 frequencies {emax:.2e}")
    # tol: two solves at each of 400 frequencies: ~kappa(sI - A) u, kappa <= omega_max / distance of a sample to the nearest pole (undamped chain: >= 1e-4 omega here): <= 1e-11
    assert emax < 1e-9, emax
print("ok")
PY
# same result on 1, 2, 3 ranks (simulation included)
for n in 1 2 3; do
  timeout 300 $MPIEXEC -n $n $DYNRED -config ss_km.yaml -output r$n.h5 -ss_sim_methods exact,rk4,newmark -ss_sim_t_end 0.05 -ss_input_signal sine -ss_input_freq_hz 7 > r$n.log
done
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
ref = h5py.File("r1.h5")
for n in (2, 3):
    f = h5py.File(f"r{n}.h5")
    assert f.attrs["nranks"] == n
    for d in ("/ss/A", "/ss/B", "/ss/C", "/ss/D", "/ss/frequencies_hz", "/ss/sim/exact/y", "/ss/sim/rk4/y", "/ss/sim/newmark/y"):
        assert np.array_equal(ref[d][:], f[d][:]), f"{d} differs on {n} ranks"
print("ranks ok")
PY
# -log_view shows every phase of the ss package (class "DR SS") and the shared
# second-order integrator (DRODE2, alpha2); /timing and wall_s come from them.
$DYNRED -config ss_km.yaml -output lv.h5 -ss_sim_methods exact,alpha2 -ss_sim_t_end 0.01 -log_view > lv.log
for e in DRSSSourceRead DRSSModalBasis DRSSBuild DRSSSimulate DRSSWrite DRODE2Solve; do
  grep -q "^$e " lv.log || { echo "-log_view lacks $e"; exit 1; }
done
/usr/bin/python3 - <<'PY'
import h5py
f = h5py.File("lv.h5")
t = f["/timing"].attrs
assert t["export"] > 0 and t["simulate"] > 0, dict(t)
for m in ("exact", "alpha2"):
    assert f[f"/ss/sim/{m}"].attrs["wall_s"] > 0, m
print("log events ok")
PY
