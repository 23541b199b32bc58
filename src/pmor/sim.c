/* Moving-load simulation (seed 001, METHODS.md 3 with the corrected load
 * law): p(t) = p0 + speed t along the path, F(t) = F_max/2 (1 - cos(pi t /
 * t_ramp)) for t <= t_ramp (the seed: t_ramp = 0.5 s), then F_max; the
 * deflection y = b(p)^T q under the load.  Both models use the same
 * integrator, Newmark's average acceleration (gamma 1/2, beta 1/4, fixed
 * step h), in acceleration form (M + h/2 D + h^2/4 K) a_{n+1} = f_{n+1} -
 * D (v_n + h/2 a_n) - K (q_n + h v_n + h^2/4 a_n), so their difference is
 * the reduction and interpolation error alone: the full model with one MUMPS
 * Cholesky of the constant matrix (K, M do not depend on p), the reduced
 * one re-interpolated every step (n x n, LAPACK). */
#include "pmorimpl.h"
#include <petscblaslapack.h>

static PetscReal Load(DRPMOR pm, PetscReal t)
{
  return t <= pm->sim_ramp ? 0.5 * pm->sim_fmax * (1 - PetscCosReal(PETSC_PI * t / pm->sim_ramp)) : pm->sim_fmax;
}

static PetscErrorCode Full(DRPMOR pm, PetscInt ns, PetscReal *y)
{
  Mat       S;
  KSP       ksp;
  PC        pc;
  Vec       q, v, a, r, w, f;
  PetscReal   h = pm->sim_h;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  PetscCall(MatDuplicate(pm->M, MAT_COPY_VALUES, &S));
  PetscCall(MatScale(S, 1 + 0.5 * h * pm->alpha));
  PetscCall(MatAXPY(S, 0.25 * h * h + 0.5 * h * pm->beta, pm->K, DIFFERENT_NONZERO_PATTERN));
  PetscCall(KSPCreate(pm->comm, &ksp));
  PetscCall(KSPSetOperators(ksp, S, S));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetOptionsPrefix(ksp, "pmor_sim_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(MatCreateVecs(pm->K, &q, &v));
  PetscCall(VecDuplicate(q, &a));
  PetscCall(VecDuplicate(q, &r));
  PetscCall(VecDuplicate(q, &w));
  PetscCall(VecDuplicate(q, &f));
  PetscCall(VecSet(q, 0));
  PetscCall(VecSet(v, 0));
  PetscCall(VecSet(a, 0));
  y[0] = 0;
  for (PetscInt s = 1; s <= ns; s++) {
    PetscReal t = s * h, c[DRPMOR_NLOAD], F = Load(pm, t);
    PetscInt  idx[DRPMOR_NLOAD];
    PetscCall(DRPMORLoadAt(pm, pm->sim_p0 + pm->sim_speed * t, idx, c));
    PetscCall(VecSet(f, 0));
    if (rank == 0) /* once: ADD_VALUES from every rank would sum */
      for (int k = 0; k < DRPMOR_NLOAD; k++) PetscCall(VecSetValue(f, pm->path_rows[idx[k]], F * c[k], ADD_VALUES));
    PetscCall(VecAssemblyBegin(f));
    PetscCall(VecAssemblyEnd(f));
    /* r = f - K (q + h v + h^2/4 a) - D (v + h/2 a), D = alpha M + beta K */
    PetscCall(VecWAXPY(w, h, v, q));
    PetscCall(VecAXPY(w, 0.25 * h * h, a));
    PetscCall(VecAXPY(w, pm->beta, v));
    PetscCall(VecAXPY(w, 0.5 * h * pm->beta, a));
    PetscCall(MatMult(pm->K, w, r));
    PetscCall(VecAYPX(r, -1, f));
    if (pm->alpha != 0) {
      PetscCall(VecWAXPY(w, 0.5 * h, a, v));
      PetscCall(MatMult(pm->M, w, f));
      PetscCall(VecAXPY(r, -pm->alpha, f));
    }
    PetscCall(VecCopy(a, w)); /* a_n */
    PetscCall(KSPSolve(ksp, r, a));
    /* q += h v + h^2/4 (a_n + a); v += h/2 (a_n + a) */
    PetscCall(VecAXPY(q, h, v));
    PetscCall(VecAXPBYPCZ(q, 0.25 * h * h, 0.25 * h * h, 1, w, a));
    PetscCall(VecAXPBYPCZ(v, 0.5 * h, 0.5 * h, 1, w, a));
    {
      PetscReal yy = 0;
      PetscInt  rs, re;
      const PetscScalar *x;
      PetscCall(VecGetOwnershipRange(q, &rs, &re));
      PetscCall(VecGetArrayRead(q, &x));
      for (int k = 0; k < DRPMOR_NLOAD; k++) {
        PetscInt row = pm->path_rows[idx[k]];
        if (row >= rs && row < re) yy += c[k] * PetscRealPart(x[row - rs]);
      }
      PetscCall(VecRestoreArrayRead(q, &x));
      PetscCallMPI(MPI_Allreduce(&yy, &y[s], 1, MPIU_REAL, MPIU_SUM, pm->comm));
    }
  }
  PetscCall(VecDestroy(&q));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&a));
  PetscCall(VecDestroy(&r));
  PetscCall(VecDestroy(&w));
  PetscCall(VecDestroy(&f));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(MatDestroy(&S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Reduced(DRPMOR pm, PetscInt ns, PetscReal *y)
{
  PetscInt     n = pm->n;
  PetscReal    h = pm->sim_h, *M, *K, *D, *B, *C, *S, *q, *v, *a, *r, *w;
  PetscBLASInt bn, one = 1, info, *piv;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscMalloc6(n * n, &M, n * n, &K, n * n, &D, n, &B, n, &C, n * n, &S));
  PetscCall(PetscCalloc5(n, &q, n, &v, n, &a, n, &r, n, &w));
  PetscCall(PetscMalloc1(n, &piv));
  y[0] = 0;
  for (PetscInt s = 1; s <= ns; s++) {
    PetscReal t = s * h, F = Load(pm, t);
    PetscCall(DRPMORInterpolate(pm, pm->sim_p0 + pm->sim_speed * t, M, D, K, B, C));
    for (PetscInt i = 0; i < n; i++) w[i] = q[i] + h * v[i] + 0.25 * h * h * a[i];
    for (PetscInt i = 0; i < n; i++) {
      PetscReal kw = 0, dv = 0;
      for (PetscInt j = 0; j < n; j++) {
        PetscReal u = v[j] + 0.5 * h * a[j];
        kw += K[i + j * n] * w[j];
        dv += D[i + j * n] * u;
      }
      r[i] = F * B[i] - kw - dv;
    }
    for (PetscInt q2 = 0; q2 < n * n; q2++) S[q2] = M[q2] + 0.5 * h * D[q2] + 0.25 * h * h * K[q2];
    PetscCallBLAS("LAPACKgesv", LAPACKgesv_(&bn, &one, S, &bn, piv, r, &bn, &info));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "reduced Newmark matrix singular at t = %g (LAPACK gesv info %d)", (double)t, (int)info);
    y[s] = 0;
    for (PetscInt i = 0; i < n; i++) {
      q[i] += h * v[i] + 0.25 * h * h * (a[i] + r[i]);
      v[i] += 0.5 * h * (a[i] + r[i]);
      a[i] = r[i];
      y[s] += C[i] * q[i];
    }
  }
  PetscCall(PetscFree6(M, K, D, B, C, S));
  PetscCall(PetscFree5(q, v, a, r, w));
  PetscCall(PetscFree(piv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSimulate(DRPMOR pm)
{
  PetscInt       ns = (PetscInt)PetscCeilReal(pm->sim_tend / pm->sim_h - 1e-9);
  PetscLogDouble t0, t1, t2;
  PetscReal      ymax = 0, emax = 0, erms = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Sim, 0, 0, 0, 0));
  pm->sim_n = ns;
  PetscCall(PetscMalloc3(ns + 1, &pm->sim_t, ns + 1, &pm->sim_yf, ns + 1, &pm->sim_yr));
  for (PetscInt s = 0; s <= ns; s++) pm->sim_t[s] = s * pm->sim_h;
  PetscCall(PetscTime(&t0));
  PetscCall(Full(pm, ns, pm->sim_yf));
  PetscCall(PetscTime(&t1));
  PetscCall(Reduced(pm, ns, pm->sim_yr));
  PetscCall(PetscTime(&t2));
  for (PetscInt s = 0; s <= ns; s++) {
    ymax = PetscMax(ymax, PetscAbsReal(pm->sim_yf[s]));
    emax = PetscMax(emax, PetscAbsReal(pm->sim_yr[s] - pm->sim_yf[s]));
    erms += PetscSqr(pm->sim_yr[s] - pm->sim_yf[s]);
  }
  pm->sim_emax = emax / ymax, pm->sim_erms = PetscSqrtReal(erms / (ns + 1)) / ymax;
  pm->sim_wfull = (PetscReal)(t1 - t0), pm->sim_wred = (PetscReal)(t2 - t1);
  PetscCall(PetscPrintf(pm->comm, "pmor: moving load, %" PetscInt_FMT " Newmark steps of %g s: full %.3f s (%.3g ms/step), reduced %.3f s (%.3g ms/step); deflection error max %.3e, rms %.3e (of max |y| %.4g)\n", ns, (double)pm->sim_h, (double)pm->sim_wfull, (double)(1e3 * pm->sim_wfull / ns), (double)pm->sim_wred, (double)(1e3 * pm->sim_wred / ns), (double)pm->sim_emax, (double)pm->sim_erms, (double)ymax));
  PetscCall(PetscLogEventEnd(DRPMOR_Sim, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
