/* dynred ss: the PETSc TS integrators of the modal state-space model, all
 * fixed-step (TSAdapt none), options prefix ss_:
 *   rk3bs rk4 rk5dp rk8vr beuler cn theta   first-order form x' = A x + B u
 *   alpha2                                  the second-order form
 *                                           q'' + c q' + omega^2 q = Bm u
 *                                           on the shared DRODE2 (src/ode). */
#include "ssimpl.h"
#include <dynred/ode.h>
#include <petscts.h>
#include <string.h>

static PetscErrorCode RHSFunction(TS ts, PetscReal t, Vec X, Vec F, void *ctx)
{
  DRSSSim            s  = (DRSSSim)ctx;
  DRSS               ss = s->ss;
  const PetscScalar *x;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(DRSSSimForce(s, t, s->f));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt k = 0; k < ss->m; k++) {
    f[2 * k]     = x[2 * k + 1];
    f[2 * k + 1] = -ss->omega[k] * ss->omega[k] * x[2 * k] - ss->c[k] * x[2 * k + 1] + s->f[k];
  }
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec X, void *ctx)
{
  DRSSSim            s = (DRSSSim)ctx;
  const PetscScalar *x;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  DRSSSimRecord(s, step, x, NULL, NULL);
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TS type (and RK type) of a first-order method name. */
static PetscErrorCode SetTSType(TS ts, const char *method)
{
  static const struct {
    const char *name;
    TSType      type;
    TSRKType    rk;
  } map[] = {
    {"beuler", TSBEULER, NULL}, {"cn", TSCN, NULL}, {"theta", TSTHETA, NULL}, {"rk3bs", TSRK, TSRK3BS}, {"rk4", TSRK, TSRK4}, {"rk5dp", TSRK, TSRK5DP}, {"rk8vr", TSRK, TSRK8VR},
  };

  PetscFunctionBeginUser;
  for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
    if (!strcmp(method, map[i].name)) {
      PetscCall(TSSetType(ts, map[i].type));
      if (map[i].rk) PetscCall(TSRKSetType(ts, map[i].rk));
      if (!strcmp(map[i].type, TSTHETA)) PetscCall(TSThetaSetTheta(ts, 0.5));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "ss: no TS type for method %s", method);
}

PetscErrorCode DRSSIntegrate_TS(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  DRSS         ss = s->ss;
  PetscInt     m  = ss->m, steps;
  TS           ts;
  TSAdapt      adapt;
  Mat          J;
  Vec          X;
  PetscScalar *x;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "ss_"));
  PetscCall(TSSetProblemType(ts, TS_LINEAR));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, 2 * m, &X));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2 * m, 2 * m, 2, NULL, &J));
  for (PetscInt k = 0; k < m; k++) {
    PetscInt    r[2] = {2 * k, 2 * k + 1};
    PetscScalar a[4] = {0, 1, -ss->omega[k] * ss->omega[k], -ss->c[k]};
    PetscCall(MatSetValues(J, 2, r, 2, r, a, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscCall(TSSetRHSFunction(ts, NULL, RHSFunction, s));
  PetscCall(TSSetRHSJacobian(ts, J, J, TSComputeRHSJacobianConstant, NULL));
  PetscCall(VecGetArrayWrite(X, &x));
  for (PetscInt i = 0; i < 2 * m; i++) x[i] = x0 ? x0[i] : 0;
  PetscCall(VecRestoreArrayWrite(X, &x));
  PetscCall(TSSetSolution(ts, X));
  PetscCall(TSMonitorSet(ts, Monitor, s, NULL));
  PetscCall(SetTSType(ts, method));
  {
    SNES snes;
    KSP  ksp;
    PC   pc;
    PetscCall(TSGetSNES(ts, &snes));
    PetscCall(SNESGetKSP(snes, &ksp));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCLU));
  }
  PetscCall(TSSetTime(ts, 0.0));
  PetscCall(TSSetTimeStep(ts, s->h));
  PetscCall(TSSetMaxSteps(ts, s->nsteps));
  PetscCall(TSSetMaxTime(ts, (s->nsteps + 0.5) * s->h));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_STEPOVER));
  PetscCall(TSSetFromOptions(ts));
  PetscCall(TSGetAdapt(ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSSolve(ts, NULL));
  PetscCall(TSGetStepNumber(ts, &steps));
  PetscCheck(steps == s->nsteps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TS %s took %" PetscInt_FMT " steps, expected %" PetscInt_FMT, method, steps, s->nsteps);
  if (xT) {
    const PetscScalar *u;
    Vec                Uf;
    PetscCall(TSGetSolution(ts, &Uf));
    PetscCall(VecGetArrayRead(Uf, &u));
    for (PetscInt i = 0; i < 2 * m; i++) xT[i] = u[i];
    PetscCall(VecRestoreArrayRead(Uf, &u));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- alpha2: the second-order form on DRODE2 ------------------------------ */

static PetscErrorCode Residual2(PetscReal t, const PetscReal u[], const PetscReal v[], const PetscReal a[], PetscReal f[], void *ctx)
{
  DRSSSim s  = (DRSSSim)ctx;
  DRSS    ss = s->ss;

  PetscFunctionBeginUser;
  PetscCall(DRSSSimForce(s, t, s->f));
  for (PetscInt k = 0; k < ss->m; k++) f[k] = a[k] + ss->c[k] * v[k] + ss->omega[k] * ss->omega[k] * u[k] - s->f[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Jacobian2(PetscReal t, const PetscReal u[], const PetscReal v[], const PetscReal a[], PetscReal shiftV, PetscReal shiftA, Mat P, void *ctx)
{
  DRSSSim s  = (DRSSSim)ctx;
  DRSS    ss = s->ss;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ss->m; k++) PetscCall(MatSetValue(P, k, k, shiftA + shiftV * ss->c[k] + ss->omega[k] * ss->omega[k], INSERT_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor2(PetscInt step, PetscReal t, const PetscReal u[], const PetscReal v[], void *ctx)
{
  PetscFunctionBeginUser;
  DRSSSimRecord((DRSSSim)ctx, step, NULL, u, v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegrate_Alpha2(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m, steps;
  DRODE2     ode;
  Mat        J;
  PetscReal *q, *v;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, m, 1, NULL, &J));
  for (PetscInt k = 0; k < m; k++) PetscCall(MatSetValue(J, k, k, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscMalloc2(PetscMax(m, 1), &q, PetscMax(m, 1), &v));
  for (PetscInt k = 0; k < m; k++) {
    q[k] = x0 ? x0[2 * k] : 0;
    v[k] = x0 ? x0[2 * k + 1] : 0;
  }
  PetscCall(DRODE2Create(PETSC_COMM_SELF, &ode));
  PetscCall(DRODE2SetSizes(ode, m));
  PetscCall(DRODE2SetOptionsPrefix(ode, "ss_"));
  PetscCall(DRODE2SetResidual(ode, Residual2, s));
  PetscCall(DRODE2SetJacobian(ode, J, Jacobian2, s));
  PetscCall(DRODE2SetMonitor(ode, Monitor2, s));
  PetscCall(DRODE2SetRadius(ode, 1.0));
  PetscCall(DRODE2SetTimeSpan(ode, 0.0, s->h, s->nsteps, 0.0));
  PetscCall(DRODE2Solve(ode, q, v, &steps));
  PetscCheck(steps == s->nsteps, PETSC_COMM_SELF, PETSC_ERR_PLIB, "TS %s took %" PetscInt_FMT " steps, expected %" PetscInt_FMT, method, steps, s->nsteps);
  if (xT)
    for (PetscInt k = 0; k < m; k++) {
      xT[2 * k]     = q[k];
      xT[2 * k + 1] = v[k];
    }
  PetscCall(DRODE2Destroy(&ode));
  PetscCall(MatDestroy(&J));
  PetscCall(PetscFree2(q, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
