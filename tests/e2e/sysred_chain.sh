#!/usr/bin/env bash
# CMS -> ss -> sysred on a built-in model: the free-free beam of
# tests/data/cms/beam_free.yaml (6 rigid-body modes), state space with 2 %
# modal damping, balanced truncation to 18 states.  Checked in numpy:
#  - the 12 zero poles of the rigid-body blocks are kept exactly
#    (/sysred attribute n_kept_exactly, eigenvalues of A_r);
#  - the reduced model's frequency response, computed here from /ss/A..D and
#    /sysred/A..D on a dense grid, is within the error bound of the full one;
#  - the HSV of the stable part equal scipy's from the elastic modes alone
#    (the stable part of the transfer function does not depend on the split).
set -euo pipefail
cd "$T"
cp $ROOT/tests/data/cms/beam_free.yaml .
$DYNRED -config beam_free.yaml -verify false -output free.h5 > cms.log
cat > ss.yaml <<'Y'
job: ss
output: ss.h5
ss:
  source: free.h5
  inputs: [31.2, 16.3]
  outputs: [31.2, 1.3, 12.2]
  damping: {type: modal, zeta: 0.02}
Y
$DYNRED -config ss.yaml > ss.log
cp $ROOT/configs/beam_sysred.yaml sr.yaml
timeout 300 $MPIEXEC -n 2 $DYNRED -config sr.yaml -sysred_source ss.h5 -output sr.h5 > sr.log
grep -q "12 poles kept exactly" sr.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
f = h5py.File("ss.h5"); A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
g = h5py.File("sr.h5"); Ar, Br, Cr, Dr = (g["/sysred/" + k][:] for k in "ABCD")
assert g["/sysred"].attrs["n_kept_exactly"] == 12 and Ar.shape == (18, 18)
ev = np.linalg.eigvals(Ar)
# double zeros of [[0,1],[0,0]] blocks: eigenvalues accurate to sqrt(eps ||A||)
nz = np.sum(abs(ev) < 1e-6 * np.sqrt(abs(A).max()))
print(f"reduced A: {nz} zero poles (rigid-body), smallest |pole| of the others {abs(ev[abs(ev) >= 1e-6]).min():.3g}")
assert nz == 12, ev
# stable part: the elastic modes (2x2 blocks of /ss/A) alone
el = [k for k in range(0, A.shape[0], 2) if A[k + 1, k] != 0]
idx = np.array([[k, k + 1] for k in el]).ravel()
As, Bs, Cs = A[np.ix_(idx, idx)], B[idx], C[:, idx]
P = sl.solve_continuous_lyapunov(As, -Bs @ Bs.T); Q = sl.solve_continuous_lyapunov(As.T, -Cs.T @ Cs)
def fac(X):
    d, U = np.linalg.eigh((X + X.T) / 2); return U * np.sqrt(np.clip(d, 0, None))
s = np.linalg.svd(fac(Q).T @ fac(P), compute_uv=False)
h = g["/sysred/hsv"][:]
e = abs(h - s).max() / s[0]
print(f"HSV vs scipy on the elastic modes: max diff / sigma_1 = {e:.2e}")
assert e < 1e-8, e  # modal blocks with zeta = 0.02: Lyapunov solutions well conditioned
bound = g["/sysred/error_bound"][0]
assert abs(bound - 2 * s[6:].sum()) < 1e-8 * bound
def G(A, B, C, D, w): return C @ np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) + D
wn = abs(np.linalg.eigvals(As))
w = np.logspace(np.log10(wn.min() / 10), np.log10(wn.max() * 10), 3000)
err = max(np.linalg.svd(G(A, B, C, D, x) - G(Ar, Br, Cr, Dr, x), compute_uv=False)[0] for x in w)
print(f"H-inf error on 3000 frequencies {err:.4g} <= bound {bound:.4g} (sigma_7 = {s[6]:.4g})")
# the bound is a theorem; slack 1e-9 ||G||: the kept rigid-body terms 1/w^2 cancel to round-off
gmax = max(np.linalg.svd(G(A, B, C, D, x), compute_uv=False)[0] for x in w)
assert s[6] * (1 - 1e-6) <= err <= bound + 1e-9 * gmax, (err, bound)
print("ok")
PY
