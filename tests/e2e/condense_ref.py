#!/usr/bin/python3
"""Independent Guyan and IRS (numpy) on the model test_condense -dump DIR
wrote (full K, M of the 60-DOF cantilever, 5 masters), against the
condensation kernels' reduced matrices and eigenvalues.

  Guyan: T_G = [I; -K_ss^{-1} K_sm]          K_G = T_G^T K T_G, M_G = T_G^T M T_G
  IRS (O'Callahan): T_I = T_G + S M T_G M_G^{-1} K_G, S = [0 0; 0 K_ss^{-1}]
                    K_I = T_I^T K T_I,  M_I = T_I^T M T_I
Both reductions are Rayleigh-Ritz projections, so their eigenvalues are
upper bounds of the full model's lowest ones (checked too, against
scipy.linalg.eigh of the full pencil).
"""
import sys
import numpy as np
import scipy.linalg as sla

d = sys.argv[1]
L = lambda n: np.loadtxt(f"{d}/{n}.txt", ndmin=2)
K, M = L("K"), L("M")
mst = L("masters")[:, 0].astype(int)
n, r = K.shape[0], len(mst)
sl = np.setdiff1d(np.arange(n), mst)
Kss, Ksm = K[np.ix_(sl, sl)], K[np.ix_(sl, mst)]

TG = np.zeros((n, r))
TG[mst] = np.eye(r)
TG[sl] = -np.linalg.solve(Kss, Ksm)
KG, MG = TG.T @ K @ TG, TG.T @ M @ TG
S_MT = np.zeros((n, r))
S_MT[sl] = np.linalg.solve(Kss, (M @ TG)[sl])
TI = TG + S_MT @ np.linalg.solve(MG, KG)
KI, MI = TI.T @ K @ TI, TI.T @ M @ TI

u = np.finfo(float).eps
kk, kss, kmg = np.linalg.cond(K), np.linalg.cond(Kss), np.linalg.cond(MG)
# Guyan here: one backward-stable solve with K_ss, relative error of T_G and
# its projections <= kappa(K_ss) u; the kernels factor the whole K (the
# flexibility route): <= kappa(K) u.  Tolerance 2 (kappa(K) + kappa(K_ss)) u.
# IRS adds a second K_ss / K solve and a solve with M_G: + 2 kappa(M_G) u.
tolG = 2 * (kk + kss) * u
tolI = 2 * (kk + kss + kmg) * u
print(f"kappa(K) = {kk:.3g}, kappa(K_ss) = {kss:.3g}, kappa(M_G) = {kmg:.3g}: tolerances Guyan {tolG:.3g}, IRS {tolI:.3g}")
fails = 0
for name, A, B, tol in (("guyan K_R", L("guyan_K"), KG, tolG), ("guyan M_R", L("guyan_M"), MG, tolG),
                        ("irs K_R", L("irs_K"), KI, tolI), ("irs M_R", L("irs_M"), MI, tolI)):
    e = np.abs(A - B).max() / np.abs(B).max()
    ok = e <= tol
    fails += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name}: kernel vs numpy max rel diff {e:.3g} (tol {tol:.3g})")
# M may be singular (lumped mass, massless rotations): eigenvalues of the
# pencil through K^{-1} M (K is positive definite: clamped cantilever)
mu = np.sort(np.linalg.eigvals(np.linalg.solve(K, M)).real)[::-1]
lf = 1 / mu[:r]
for name, lam, KR, MR, tol in (("guyan", L("guyan_lambda")[:, 0], KG, MG, tolG), ("irs", L("irs_lambda")[:, 0], KI, MI, tolI)):
    ref = sla.eigh(KR, MR, eigvals_only=True)
    # eigenvalues of a definite pencil perturbed by tol (relative): moved by
    # <= kappa(M_R) tol relative to the largest
    tl = np.linalg.cond(MR) * tol
    e = np.abs(lam - ref).max() / ref.max()
    ok = e <= tl and np.all(ref >= lf * (1 - tl))
    fails += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name} eigenvalues: kernel {lam} numpy {ref} (max rel diff {e:.3g}, tol {tl:.3g}); full {lf}")
# IRS is the better Ritz basis: each IRS eigenvalue lies between the full
# one and Guyan's (O'Callahan 1989), the relative gap far above rounding
lg, li = sla.eigh(KG, MG, eigvals_only=True), sla.eigh(KI, MI, eigvals_only=True)
ok = np.all(li <= lg) and np.all(li >= lf * (1 - tolI))
fails += not ok
print(f"{'ok  ' if ok else 'FAIL'} full <= irs <= guyan: full {lf} irs {li} guyan {lg}")
sys.exit(1 if fails else 0)
