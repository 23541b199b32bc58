/* Moving-load simulation (Fischer and Eberhard 2014, METHODS.md 3 with the corrected load
 * law): p(t) = p0 + speed t along the path, F(t) = F_max/2 (1 - cos(pi t /
 * t_ramp)) for t <= t_ramp (the seed: t_ramp = 0.5 s), then F_max; the
 * deflection y = b(p)^T q under the load.  Both models use Newmark's
 * average acceleration rule (gamma 1/2, beta 1/4, fixed step h), so their
 * difference is the reduction and interpolation error alone:
 *  full: PETSc TS, TSALPHA2 with alpha_m = alpha_f = 1 (Newmark), one
 *    Newton step per time step with one MUMPS Cholesky of K + sv D + sa M
 *    reused by every step (K, M do not depend on p; a second one serves
 *    TSALPHA2's start-up, two backward-Euler half steps that give the
 *    initial acceleration);
 *    With the tool at the load point (K(p), M(p) = K, M + (k, m) b(p) b(p)^T,
 *    tool.c) the Jacobian K(p) + sv D(p) + sa M(p) is J0 + c b b^T, c = k (1
 *    + sv beta) + m (sa + sv alpha), at p(t) of the step: a shell matrix,
 *    solved exactly (no approximation) by Sherman-Morrison through the same
 *    factorization of J0 and one more solve J0^-1 b(p(t)) per step;
 *  reduced: the interpolated ROM re-interpolated every step (n x n, LAPACK),
 *    in acceleration form (M + h/2 D + h^2/4 K) a_{n+1} = f_{n+1} - D (v_n +
 *    h/2 a_n) - K (q_n + h v_n + h^2/4 a_n), from a_0 = 0 (rest, F(0) = 0). */
#include "pmorimpl.h"
#include <petscblaslapack.h>
#include <petscts.h>

static PetscReal Load(DRPMOR pm, PetscReal t)
{
  return t <= pm->sim_ramp ? 0.5 * pm->sim_fmax * (1 - PetscCosReal(PETSC_PI * t / pm->sim_ramp)) : pm->sim_fmax;
}

typedef struct {
  DRPMOR    pm;
  Mat       J;
  Vec       f, w;
  PetscReal sv, sa; /* the shifts J was assembled for */
  PetscInt  nfact;  /* factorizations (assemblies of J) */
  PetscReal *y;
  /* the tool (K, M depend on p): J = J0 + cj bj bj^T */
  Mat       Js;    /* shell: J0 x + cj bj (bj^T x) */
  KSP       inner; /* MUMPS Cholesky of J0 */
  Vec       bv, bj, z; /* b(p(t)) of the residual, of the Jacobian; z = J0^-1 bj */
  PetscReal cj, zb;    /* zb = bj^T z */
  PetscBool zok;
  PetscLogDouble t0, last; /* progress lines (rank 0, every 5 s) */
} FullCtx;

/* b = b(p(t)), assembled */
static PetscErrorCode BVec(DRPMOR pm, PetscReal t, Vec b)
{
  PetscMPIInt rank;
  PetscInt    idx[DRPMOR_NLOAD];
  PetscReal   c[DRPMOR_NLOAD];

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  PetscCall(DRPMORLoadAt(pm, pm->sim_p0 + pm->sim_speed * t, idx, c));
  PetscCall(VecSet(b, 0));
  if (rank == 0)
    for (int k = 0; k < DRPMOR_NLOAD; k++) PetscCall(VecSetValue(b, pm->path_rows[idx[k]], c[k], ADD_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ShellMult(Mat J, Vec x, Vec y)
{
  FullCtx    *c;
  PetscScalar s;

  PetscFunctionBeginUser;
  PetscCall(MatShellGetContext(J, &c));
  PetscCall(MatMult(c->J, x, y));
  PetscCall(VecDot(x, c->bj, &s));
  PetscCall(VecAXPY(y, c->cj * s, c->bj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = (J0 + cj bj bj^T)^-1 x = J0^-1 x - z cj (bj^T J0^-1 x) / (1 + cj bj^T z) */
static PetscErrorCode ShellApply(PC pc, Vec x, Vec y)
{
  FullCtx    *c;
  PetscScalar s;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &c));
  if (!c->zok) {
    PetscScalar zb;
    PetscCall(KSPSolve(c->inner, c->bj, c->z));
    PetscCall(VecDot(c->z, c->bj, &zb));
    c->zb = PetscRealPart(zb), c->zok = PETSC_TRUE;
  }
  PetscCall(KSPSolve(c->inner, x, y));
  PetscCall(VecDot(y, c->bj, &s));
  PetscCall(VecAXPY(y, -c->cj * s / (1 + c->cj * c->zb), c->z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f(t) = F(t) b(p(t)) */
static PetscErrorCode Force(DRPMOR pm, PetscReal t, Vec f, PetscInt idx[DRPMOR_NLOAD], PetscReal c[DRPMOR_NLOAD])
{
  PetscMPIInt rank;
  PetscReal   F = Load(pm, t);

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  PetscCall(DRPMORLoadAt(pm, pm->sim_p0 + pm->sim_speed * t, idx, c));
  PetscCall(VecSet(f, 0));
  if (rank == 0) /* once: ADD_VALUES from every rank would sum */
    for (int k = 0; k < DRPMOR_NLOAD; k++) PetscCall(VecSetValue(f, pm->path_rows[idx[k]], F * c[k], ADD_VALUES));
  PetscCall(VecAssemblyBegin(f));
  PetscCall(VecAssemblyEnd(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G = M (a + alpha v) + K (q + beta v) - f(t)  (D = alpha M + beta K) */
static PetscErrorCode I2Function(TS ts, PetscReal t, Vec q, Vec v, Vec a, Vec G, void *ctx)
{
  FullCtx  *c = (FullCtx *)ctx;
  DRPMOR    pm = c->pm;
  PetscInt  idx[DRPMOR_NLOAD];
  PetscReal cc[DRPMOR_NLOAD];

  PetscFunctionBeginUser;
  (void)ts;
  PetscCall(VecWAXPY(c->w, pm->alpha, v, a));
  PetscCall(MatMult(pm->M, c->w, G));
  PetscCall(VecWAXPY(c->w, pm->beta, v, q));
  PetscCall(MatMultAdd(pm->K, c->w, G, G));
  PetscCall(Force(pm, t, c->f, idx, cc));
  PetscCall(VecAXPY(G, -1, c->f));
  if (c->Js) { /* + b (m b^T (a + alpha v) + k b^T (q + beta v)) */
    PetscScalar s1, s2;
    PetscCall(BVec(pm, t, c->bv));
    PetscCall(VecWAXPY(c->w, pm->alpha, v, a));
    PetscCall(VecDot(c->w, c->bv, &s1));
    PetscCall(VecWAXPY(c->w, pm->beta, v, q));
    PetscCall(VecDot(c->w, c->bv, &s2));
    PetscCall(VecAXPY(G, pm->tool_m * s1 + pm->tool_k * s2, c->bv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J = K + sv D + sa M, assembled only when the shifts change (the start-up
 * steps and then every step of the fixed step size): the PC keeps its
 * factorization while J's state does not change */
static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec q, Vec v, Vec a, PetscReal sv, PetscReal sa, Mat J, Mat P, void *ctx)
{
  FullCtx *c  = (FullCtx *)ctx;
  DRPMOR   pm = c->pm;

  PetscFunctionBeginUser;
  (void)ts, (void)t, (void)q, (void)v, (void)a, (void)J;
  if (c->Js) { /* the tool's rank-one term at p(t) */
    PetscCall(BVec(pm, t, c->bj));
    c->cj  = pm->tool_k * (1 + sv * pm->beta) + pm->tool_m * (sa + sv * pm->alpha);
    c->zok = PETSC_FALSE;
  }
  if (c->nfact && sv == c->sv && sa == c->sa) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatZeroEntries(P));
  PetscCall(MatAXPY(P, 1 + sv * pm->beta, pm->K, SUBSET_NONZERO_PATTERN));
  PetscCall(MatAXPY(P, sa + sv * pm->alpha, pm->M, SUBSET_NONZERO_PATTERN));
  c->sv = sv, c->sa = sa, c->nfact++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = b(p(t))^T q after every step */
static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec q, void *ctx)
{
  FullCtx           *c  = (FullCtx *)ctx;
  DRPMOR             pm = c->pm;
  PetscInt           idx[DRPMOR_NLOAD], rs, re;
  PetscReal          cc[DRPMOR_NLOAD], yy = 0;
  const PetscScalar *x;

  PetscFunctionBeginUser;
  (void)ts;
  if (step > pm->sim_n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRPMORLoadAt(pm, pm->sim_p0 + pm->sim_speed * t, idx, cc));
  PetscCall(VecGetOwnershipRange(q, &rs, &re));
  PetscCall(VecGetArrayRead(q, &x));
  for (int k = 0; k < DRPMOR_NLOAD; k++) {
    PetscInt row = pm->path_rows[idx[k]];
    if (row >= rs && row < re) yy += cc[k] * PetscRealPart(x[row - rs]);
  }
  PetscCall(VecRestoreArrayRead(q, &x));
  PetscCallMPI(MPI_Allreduce(&yy, &c->y[step], 1, MPIU_REAL, MPIU_SUM, pm->comm));
  {
    PetscLogDouble now = DRTime();
    if (step > 0 && (now - c->last >= 5 || step == pm->sim_n)) {
      PetscReal rate = step / PetscMax(now - c->t0, 1e-9);
      PetscCall(DRProgress(pm->comm, "pmor: full moving-load run: step %" PetscInt_FMT "/%" PetscInt_FMT " (%.3g steps/s), ETA %.0f s", step, pm->sim_n, (double)rate, (double)((pm->sim_n - step) / rate)));
      c->last = now;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The full model on PETSc TS: TSALPHA2 with Newmark's parameters (alpha_m =
 * alpha_f = 1, gamma = 1/2, beta = 1/4: the average acceleration rule of the
 * reduced model), linear: one Newton step, one MUMPS Cholesky of K + sv D + sa M
 * for all steps of size h (TSALPHA2 starts with two backward-Euler half
 * steps for a consistent initial acceleration: one more factorization). */
static PetscErrorCode Full(DRPMOR pm, PetscInt ns, PetscReal *y)
{
  TS      ts;
  SNES    snes;
  KSP     ksp;
  PC      pc;
  TSAdapt adapt;
  Vec     q, v;
  FullCtx c;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.pm = pm, c.y = y;
  PetscCall(MatDuplicate(pm->K, MAT_COPY_VALUES, &c.J));
  PetscCall(MatAXPY(c.J, 1, pm->M, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatSetOption(c.J, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatCreateVecs(pm->K, &q, &v));
  PetscCall(VecDuplicate(q, &c.f));
  PetscCall(VecDuplicate(q, &c.w));
  PetscCall(VecSet(q, 0));
  PetscCall(VecSet(v, 0));
  PetscCall(TSCreate(pm->comm, &ts));
  PetscCall(TSSetType(ts, TSALPHA2));
  PetscCall(TSAlpha2SetParams(ts, 1, 1, 0.5, 0.25));
  PetscCall(TSSetI2Function(ts, NULL, I2Function, &c));
  if (pm->tool_m != 0 || pm->tool_k != 0) {
    PetscInt mloc, nglob;
    PetscCall(MatGetLocalSize(c.J, &mloc, NULL));
    PetscCall(MatGetSize(c.J, &nglob, NULL));
    PetscCall(MatCreateShell(pm->comm, mloc, mloc, nglob, nglob, &c, &c.Js));
    PetscCall(MatShellSetOperation(c.Js, MATOP_MULT, (void (*)(void))ShellMult));
    PetscCall(VecDuplicate(q, &c.bv));
    PetscCall(VecDuplicate(q, &c.bj));
    PetscCall(VecDuplicate(q, &c.z));
    PetscCall(KSPCreate(pm->comm, &c.inner));
    PetscCall(KSPSetOperators(c.inner, c.J, c.J));
    PetscCall(KSPSetType(c.inner, KSPPREONLY));
    PetscCall(KSPGetPC(c.inner, &pc));
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
    PetscCall(KSPSetOptionsPrefix(c.inner, "pmor_sim_inner_"));
    PetscCall(KSPSetFromOptions(c.inner));
  }
  PetscCall(TSSetI2Jacobian(ts, c.Js ? c.Js : c.J, c.J, I2Jacobian, &c));
  PetscCall(TSSetTime(ts, 0));
  PetscCall(TSSetTimeStep(ts, pm->sim_h));
  PetscCall(TSSetMaxSteps(ts, ns));
  PetscCall(TSSetMaxTime(ts, (ns + 0.5) * pm->sim_h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSGetSNES(ts, &snes));
  /* Newton with a full step: one linear solve per step, and a residual at
   * the new state, which TSALPHA2 needs (SNESKSPONLY would leave its stage
   * velocity and acceleration at the predictor's values) */
  PetscCall(SNESSetType(snes, SNESNEWTONLS));
  {
    SNESLineSearch ls;
    PetscCall(SNESGetLineSearch(snes, &ls));
    PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  }
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  if (c.Js) {
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetContext(pc, &c));
    PetscCall(PCShellSetApply(pc, ShellApply));
    PetscCall(PCShellSetName(pc, "Sherman-Morrison: MUMPS Cholesky of K + sv D + sa M and the tool's rank-one term"));
  } else {
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  }
  PetscCall(TSMonitorSet(ts, Monitor, &c, NULL));
  PetscCall(TSSetOptionsPrefix(ts, "pmor_sim_"));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TS2SetSolution(ts, q, v));
  y[0]  = 0;
  c.t0 = c.last = DRTime();
  PetscCall(TSSolve(ts, NULL));
  PetscCall(PetscInfo(NULL, "pmor: full moving-load run: %" PetscInt_FMT " assemblies and factorizations of K + sv D + sa M\n", c.nfact));
  pm->sim_nfact = c.nfact;
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&q));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&c.f));
  PetscCall(VecDestroy(&c.w));
  PetscCall(MatDestroy(&c.J));
  PetscCall(MatDestroy(&c.Js));
  PetscCall(KSPDestroy(&c.inner));
  PetscCall(VecDestroy(&c.bv));
  PetscCall(VecDestroy(&c.bj));
  PetscCall(VecDestroy(&c.z));
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
