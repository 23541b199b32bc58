#!/usr/bin/env bash
# Low-rank Gramian factors (SLEPc LME, Krylov) against the dense SLICOT path
# and scipy, on modal state spaces in the form `dynred ss` writes
# (tests/data/sysred/modal_gen.py):
#  - 50 modes, omega 1..10 rad/s, zeta 0.3: the leading Hankel singular values
#    of the dense and the low-rank path agree, both match scipy, and the two
#    order-10 models have the same transfer function (balanced truncation is
#    unique up to state signs when the kept values are distinct);
#  - the low-rank path on 1 and 3 ranks;
#  - 100 modes, 10..200 rad/s, zeta 0.05 (lightly damped, wide band): the
#    Krylov solve cannot resolve the Gramian (a clear error when forced with
#    sysred.lowrank.solver krylov); by default the low-rank ADI path takes
#    over and its Hankel values match scipy's;
#  - the block-by-block paths for a block-diagonal A (src/sysred/blocks.c):
#    /sysred/frf/full of the modal systems (and the pole-based default
#    grid) against C (iw - A)^-1 B + D by numpy, and the time response of
#    the sparse Crank-Nicolson path (AIJ, PETSc LU) against scipy's lsim;
#    that result file written in slabs of 100 bytes (-dr_h5_slab_bytes: the
#    single writer's slabs, 1 GiB by default), so the slab offsets are
#    checked by the same comparisons.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/modal_gen.py m.h5 50 1 10 0.3
/usr/bin/python3 $ROOT/tests/data/sysred/modal_gen.py wide.h5 100 10 200 0.05
cat > lr.yaml <<'Y'
job: sysred
output: lr.h5
sysred:
  source: m.h5
  order: 10
  gramians: lowrank
Y
$DYNRED -config lr.yaml > lr.log
$DYNRED -config lr.yaml -sysred_gramians dense -output dense.h5 > dense.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config lr.yaml -output lr3.h5 > lr3.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("m.h5"); A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
P = sl.solve_continuous_lyapunov(A, -B @ B.T); Q = sl.solve_continuous_lyapunov(A.T, -C.T @ C)
def fac(X):
    d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
s = np.linalg.svd(fac(Q).T @ fac(P), compute_uv=False)
L, Dn, L3 = (h5py.File(x) for x in ("lr.h5", "dense.h5", "lr3.h5"))
hl, hd, h3 = (x["/sysred/hsv"][:] for x in (L, Dn, L3))
assert L["/sysred"].attrs["gramians"] == b"lowrank" or L["/sysred"].attrs["gramians"] == "lowrank"
how = L["/sysred"].attrs["lowrank_solver"]; how = how.decode() if isinstance(how, bytes) else how
assert how.startswith("SLEPc LME Krylov"), how  # zeta 0.3, one decade: the Krylov path converges
# LME stops at a relative residual of 1e-10; the Lyapunov operator's condition
# here is about max|lambda| / min|Re lambda| = 10 / 0.3 ~ 33: Gramian errors
# ~3e-9 relative, Hankel values (square roots) about half of that
e_ld = abs(hl[:10] - hd[:10]).max() / hd[0]; e_ls = abs(hl[:10] - s[:10]).max() / s[0]
print(f"leading 10 HSV: low-rank vs dense {e_ld:.2e}, low-rank vs scipy {e_ls:.2e} (relative to sigma_1)")
assert e_ld < 1e-8 and e_ls < 1e-8, (e_ld, e_ls)
assert abs(hd - s).max() / s[0] < 1e-10  # dense path: backward stable solvers, cond ~ 33
e3 = abs(h3[:10] - hl[:10]).max() / hl[0]
print(f"low-rank on 3 ranks vs 1 rank: {e3:.2e}")
assert e3 < 1e-8, e3  # the same Krylov method; only the order of parallel sums differs, residual 1e-10
def G(A, B, C, D, w): return C @ np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) + D
Rl = [L["/sysred/" + k][:] for k in "ABCD"]; Rd = [Dn["/sysred/" + k][:] for k in "ABCD"]
w = np.logspace(-1, 2, 500)
e = max(abs(G(*Rl, x) - G(*Rd, x)).max() for x in w) / max(abs(G(*Rd, x)).max() for x in w)
print(f"order-10 transfer functions, low-rank vs dense: max rel difference {e:.2e}")
# sensitivity of the balanced subspace: HSV error / gap sigma_10 - sigma_11
gap = (hd[9] - hd[10]) / hd[0]
assert e < 1e-8 / gap, (e, gap)
T, Ti, Ar = L["/sysred/T"][:], L["/sysred/Ti"][:], Rl[0]
assert abs(Ti @ T - np.eye(10)).max() < 1e-8 and abs(Ti @ A @ T - Ar).max() < 1e-8 * abs(A).max()
print("ok")
PY
$DYNRED -config lr.yaml -sysred_source wide.h5 -output wide_lr.h5 > wide_lr.log
grep -q "SLEPc LME Krylov failed.*low-rank ADI" wide_lr.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("wide.h5"); A, B, C = (f["/ss/" + k][:] for k in "ABC")
P = sl.solve_continuous_lyapunov(A, -B @ B.T); Q = sl.solve_continuous_lyapunov(A.T, -C.T @ C)
def fac(X):
    d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
s = np.linalg.svd(fac(Q).T @ fac(P), compute_uv=False)
h = h5py.File("wide_lr.h5")["/sysred/hsv"][:]
e = abs(h[:10] - s[:10]).max() / s[0]
print(f"wide band, low-rank ADI: leading 10 HSV vs scipy {e:.2e} (relative to sigma_1)")
# ADI stops at the relative residual 1e-10; the Lyapunov operator's
# condition here is about max|lambda| / min|Re lambda| = 200 / 0.5 = 400
assert e < 400 * 1e-10, e
PY
$ROOT/tests/expect.sh 'wide.h5: /ss: the low-rank Gramians failed: SLEPc LME Krylov failed \(controllability Gramian: PETSc error 76 .*use sysred.lowrank.solver adi or auto' $DYNRED -config lr.yaml -sysred_source wide.h5 -sysred_lowrank_solver krylov
$ROOT/tests/expect.sh 'sysred.gramians lowrank with sysred.method spa, expected method bt' $DYNRED -config lr.yaml -sysred_method spa
# the block-diagonal (modal) paths: FRF and time response of the full model
$DYNRED -config lr.yaml -sysred_source wide.h5 -sysred_lowrank_solver adi -sysred_sim_t_end 2 -sysred_sim_h 1e-4 -sysred_input_signal sine -sysred_input_freq_hz 5 -output wide_sim.h5 -dr_h5_slab_bytes 100 > wide_sim.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.signal as ss
for src, out in (("m.h5", "lr.h5"), ("wide.h5", "wide_sim.h5")):
    f = h5py.File(src); A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
    o = h5py.File(out); w = o["/sysred/frf/omega"][:]
    lam = np.linalg.eigvals(A); lam = abs(lam[abs(lam) > 0])
    # the default grid: a decade beyond the poles on either side
    assert abs(w[0] - 0.1 * lam.min()) < 1e-12 * lam.min() and abs(w[-1] - 10 * lam.max()) < 1e-12 * lam.max(), (w[0], w[-1])
    Gf = o["/sysred/frf/full"][:]; Gf = Gf[..., 0] + 1j * Gf[..., 1]
    ref = np.array([C @ np.linalg.solve(1j * x * np.eye(A.shape[0]) - A, B) + D for x in w]).reshape(Gf.shape)
    e = abs(Gf - ref).max() / abs(ref).max()
    print(f"{src}: block-by-block frf vs numpy C (iw - A)^-1 B + D, max rel error {e:.2e}")
    # both backward stable; cond(iw - A) <= |lambda|max / (zeta |lambda|min) ~ 4e3
    assert e < 1e-10, e
o = h5py.File("wide_sim.h5"); f = h5py.File("wide.h5")
t = o["/sysred/sim/t"][:]; u = np.sin(2 * np.pi * 5 * t)
A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
_, y, _ = ss.lsim((A, B, C, D), np.column_stack([u] * B.shape[1]), t)
e = abs(o["/sysred/sim/full"][:] - y).max() / abs(y).max()
print(f"wide.h5: sparse Crank-Nicolson vs lsim, max rel error {e:.2e}")
# CN is second order: phase error ~ (h w)^2 / 12 per unit of w t; poles up to
# 200 rad/s over 2 s, h = 1e-4: (0.02)^2 / 12 * 400 ~ 1.3e-2 worst-case
# for the fastest (lightly damped, barely excited) mode, 1e-4 at the 31 rad/s
# input; 1e-2 allowed
assert e < 1e-2, e
print("block paths ok")
PY
