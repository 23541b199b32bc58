/* dynred sysred: time-response comparison of the full and the reduced
 * system: x' = A x + B u(t), y = C x + D u, x(0) = 0,
 * for one of the input signals of `dynred ss` (DRSignal: step, ramp, sine,
 * trapezoid; the same amplitude on every input), both systems integrated by
 * the same PETSc TS (Crank-Nicolson, fixed step sysred.sim.h, A-stable, so
 * stiff FE spectra are fine) on PETSC_COMM_SELF: every rank computes the same
 * histories.  A is used as a PETSc matrix: sparse (AIJ, PETSc LU) when at
 * most an eighth of its entries are nonzero (the modal form of `dynred ss`:
 * 2x2 blocks, so the LU costs O(n) and a 20000-state model steps in
 * milliseconds), dense otherwise.  Reported: max |y - y_r| / max |y| over the run. */
#include "sysredimpl.h"
#include <dynred/ss.h>
#include <petscts.h>

typedef struct {
  const DRLTI *s;
  Mat          A;
  DRSignal    *sig;
  PetscReal   *u;
} SimCtx;

static PetscErrorCode RHS(TS ts, PetscReal t, Vec X, Vec F, void *ctx)
{
  SimCtx            *c = (SimCtx *)ctx;
  const PetscScalar *x;
  PetscScalar       *f;
  PetscInt           n = c->s->n, m = c->s->m;

  PetscFunctionBegin;
  PetscCall(DRSignalEval(c->sig, t, c->u));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArray(F, &f));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscCall(MatMult(c->A, X, F));
  PetscCall(VecGetArray(F, &f));
  PetscCall(DRGemm('N', 'N', n, 1, m, 1.0, c->s->B, n, c->u, m, 1.0, f, n));
  PetscCall(VecRestoreArray(F, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y: (nt+1) x p row-major */
static PetscErrorCode Run(const DRLTI *s, DRSignal *sig, PetscReal h, PetscInt nt, PetscReal *Y)
{
  TS                 ts;
  Mat                J;
  Vec                x;
  SimCtx             c = {s, NULL, sig, NULL};
  PetscInt           n = s->n, p = s->p, m = s->m, nz = 0, *nnz;
  PetscScalar       *a;
  const PetscScalar *xv;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(m, &c.u));
  PetscCall(PetscCalloc1(n + 1, &nnz));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) if (s->A[i + j * n] != 0) { nnz[i]++; nz++; }
  if (nz <= n * n / 8) { /* sparse: AIJ, the diagonal stored (TS shifts it) */
    for (PetscInt i = 0; i < n; i++) nnz[i]++;
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnz, &J));
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++) if (s->A[i + j * n] != 0 || i == j) PetscCall(MatSetValue(J, i, j, s->A[i + j * n], INSERT_VALUES));
  } else {
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &J));
    PetscCall(MatDenseGetArray(J, &a));
    PetscCall(PetscArraycpy(a, s->A, n * n)); /* column-major, lda n */
    PetscCall(MatDenseRestoreArray(J, &a));
  }
  PetscCall(PetscFree(nnz));
  c.A = J;
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &x));
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetProblemType(ts, TS_LINEAR));
  PetscCall(TSSetType(ts, TSCN));
  PetscCall(TSSetRHSFunction(ts, NULL, RHS, &c));
  PetscCall(TSSetRHSJacobian(ts, J, J, TSComputeRHSJacobianConstant, NULL));
  PetscCall(TSSetTimeStep(ts, h));
  PetscCall(TSSetMaxTime(ts, nt * h * (1 + 1e-12)));
  PetscCall(TSSetExactFinalTime(ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscCall(TSSetSolution(ts, x));
  PetscCall(TSSetUp(ts));
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
  for (PetscInt k = 0; k <= nt; k++) {
    if (k > 0) PetscCall(TSStep(ts));
    PetscCall(DRSignalEval(sig, k * h, c.u));
    PetscCall(VecGetArrayRead(x, &xv));
    for (PetscInt i = 0; i < p; i++) {
      PetscReal y = 0;
      for (PetscInt q = 0; q < n; q++) y += s->C[i + q * p] * xv[q];
      for (PetscInt j = 0; j < m; j++) y += s->D[i + j * p] * c.u[j];
      Y[k * p + i] = y;
    }
    PetscCall(VecRestoreArrayRead(x, &xv));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&x));
  PetscCall(MatDestroy(&J));
  PetscCall(PetscFree(c.u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSimulate(DRSysRed s)
{
  DRSignal  sig;
  PetscInt  nt = (PetscInt)PetscCeilReal(s->sim_t_end / s->sim_h - 1e-9), p = s->full.p;
  PetscReal ymax = 0, emax = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&sig, sizeof(sig)));
  sig.type   = s->sig_type;
  sig.a      = s->sig_a;
  sig.t0     = s->sig_t0;
  sig.f      = s->sig_f;
  sig.t_rise = s->sig_rise;
  sig.t_hold = s->sig_hold;
  sig.t_fall = s->sig_fall;
  sig.nin    = s->full.m;
  PetscCall(PetscMalloc1(sig.nin, &sig.scale));
  for (PetscInt j = 0; j < sig.nin; j++) sig.scale[j] = 1;
  s->nsim = nt;
  PetscCall(PetscFree2(s->Yf, s->Yr));
  PetscCall(PetscMalloc2((nt + 1) * p, &s->Yf, (nt + 1) * p, &s->Yr));
  PetscCall(Run(&s->full, &sig, s->sim_h, nt, s->Yf));
  PetscCall(Run(&s->red, &sig, s->sim_h, nt, s->Yr));
  for (PetscInt k = 0; k < (nt + 1) * p; k++) {
    ymax = PetscMax(ymax, PetscAbsReal(s->Yf[k]));
    emax = PetscMax(emax, PetscAbsReal(s->Yf[k] - s->Yr[k]));
  }
  s->sim_err = ymax > 0 ? emax / ymax : emax;
  PetscCall(PetscFree(sig.scale));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The TS of the energy simulations (energy.c, energy_sub.c). */
PetscErrorCode DREnergyTSCreate(const DREnergy *e, PetscErrorCode (*rhs)(TS, PetscReal, Vec, Vec, void *), void *ctx, TS *ts)
{
  PetscFunctionBegin;
  PetscCall(TSCreate(PETSC_COMM_SELF, ts));
  PetscCall(TSSetProblemType(*ts, TS_NONLINEAR));
  PetscCall(TSSetType(*ts, TSRK));
  PetscCall(TSRKSetType(*ts, TSRK5DP));
  PetscCall(TSSetRHSFunction(*ts, NULL, rhs, ctx));
  PetscCall(TSSetTolerances(*ts, e->rtol * 1e-2, NULL, e->rtol, NULL));
  PetscCall(TSSetTime(*ts, 0.0));
  PetscCall(TSSetTimeStep(*ts, PetscMin(e->h, 1e-4)));
  PetscCall(TSSetMaxTime(*ts, e->nt * e->h));
  PetscCall(TSSetMaxSteps(*ts, 100000000));
  PetscCall(TSSetExactFinalTime(*ts, TS_EXACTFINALTIME_MATCHSTEP));
  PetscFunctionReturn(PETSC_SUCCESS);
}
