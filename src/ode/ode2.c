/* dynred ode: the one TSALPHA2 set-up for second-order systems
 * M(q, t) a + f(q, v, t) = 0 (include/dynred/ode.h). */
#include <dynred/ode.h>

struct _p_DRODE2 {
  MPI_Comm       comm;
  PetscInt       n, nsteps;
  PetscReal      t0, h, t_end, rho;
  char          *prefix;
  DRODE2Residual residual;
  DRODE2Jacobian jacobian;
  DRODE2Monitor  monitor;
  DRODE2PreStep  prestep;
  void          *rctx, *jctx, *mctx, *pctx;
  Mat            J;
  TS             ts;
  PetscBool      setup;
  Vec            Q, V;
  Vec            F0, F1, Qp, Vp, Ap; /* forward-difference work */
};

static PetscClassId  DR_ODE_CLASSID;
static PetscLogEvent DR_ODE_Solve;
static PetscBool     ode_pkg = PETSC_FALSE;

static PetscErrorCode DRODEFinalizePackage(void)
{
  PetscFunctionBegin;
  ode_pkg = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODEInitializePackage(void)
{
  PetscFunctionBegin;
  if (ode_pkg) PetscFunctionReturn(PETSC_SUCCESS);
  ode_pkg = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR ODE", &DR_ODE_CLASSID));
  PetscCall(PetscLogEventRegister("DRODE2Solve", DR_ODE_CLASSID, &DR_ODE_Solve));
  PetscCall(PetscRegisterFinalize(DRODEFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2Create(MPI_Comm comm, DRODE2 *ode)
{
  PetscFunctionBeginUser;
  PetscCall(DRODEInitializePackage());
  PetscCall(PetscNew(ode));
  (*ode)->comm = comm;
  (*ode)->rho  = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetSizes(DRODE2 ode, PetscInt n)
{
  PetscFunctionBeginUser;
  PetscCheck(n >= 0, ode->comm, PETSC_ERR_ARG_OUTOFRANGE, "DRODE2: %" PetscInt_FMT " unknowns", n);
  ode->n = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetResidual(DRODE2 ode, DRODE2Residual fn, void *ctx)
{
  PetscFunctionBeginUser;
  ode->residual = fn;
  ode->rctx     = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetJacobian(DRODE2 ode, Mat P, DRODE2Jacobian fn, void *ctx)
{
  PetscFunctionBeginUser;
  if (P) PetscCall(PetscObjectReference((PetscObject)P));
  PetscCall(MatDestroy(&ode->J));
  ode->J        = P;
  ode->jacobian = fn;
  ode->jctx     = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetMonitor(DRODE2 ode, DRODE2Monitor fn, void *ctx)
{
  PetscFunctionBeginUser;
  ode->monitor = fn;
  ode->mctx    = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetPreStep(DRODE2 ode, DRODE2PreStep fn, void *ctx)
{
  PetscFunctionBeginUser;
  ode->prestep = fn;
  ode->pctx    = ctx;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetRadius(DRODE2 ode, PetscReal rho_inf)
{
  PetscFunctionBeginUser;
  PetscCheck(rho_inf >= 0 && rho_inf <= 1, ode->comm, PETSC_ERR_ARG_OUTOFRANGE, "DRODE2: spectral radius %g outside [0, 1]", (double)rho_inf);
  ode->rho = rho_inf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetTimeSpan(DRODE2 ode, PetscReal t0, PetscReal h, PetscInt nsteps, PetscReal t_end)
{
  PetscFunctionBeginUser;
  PetscCheck(h > 0 && nsteps >= 0, ode->comm, PETSC_ERR_ARG_OUTOFRANGE, "DRODE2: step %g, %" PetscInt_FMT " steps", (double)h, nsteps);
  ode->t0     = t0;
  ode->h      = h;
  ode->nsteps = nsteps;
  ode->t_end  = t_end;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetOptionsPrefix(DRODE2 ode, const char prefix[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ode->prefix));
  PetscCall(PetscStrallocpy(prefix, &ode->prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- TS callbacks: Vec <-> raw arrays ------------------------------------ */

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  DRODE2             ode = (DRODE2)ctx;
  const PetscScalar *u, *v, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  PetscCall(ode->residual(t, u, v, a, f, ode->rctx));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Forward differences of the residual along (e_q, sv e_q, sa e_q) into the
 * SeqDense P (column-major, leading dimension n). */
static PetscErrorCode JacobianFD(DRODE2 ode, TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal sv, PetscReal sa, Mat P)
{
  PetscInt     n = ode->n;
  PetscScalar *j;

  PetscFunctionBeginUser;
  if (!ode->F0) {
    PetscCall(VecDuplicate(U, &ode->F0));
    PetscCall(VecDuplicate(U, &ode->F1));
    PetscCall(VecDuplicate(U, &ode->Qp));
    PetscCall(VecDuplicate(U, &ode->Vp));
    PetscCall(VecDuplicate(U, &ode->Ap));
  }
  PetscCall(I2Function(ts, t, U, V, A, ode->F0, ode));
  PetscCall(MatDenseGetArray(P, &j));
  for (PetscInt q = 0; q < n; q++) {
    const PetscScalar *f0, *f1, *u;
    PetscScalar       *x;
    PetscReal          eps;
    PetscCall(VecGetArrayRead(U, &u));
    eps = 1e-7 * PetscMax(1e-3, PetscAbsReal(u[q]));
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecCopy(U, ode->Qp));
    PetscCall(VecCopy(V, ode->Vp));
    PetscCall(VecCopy(A, ode->Ap));
    PetscCall(VecGetArray(ode->Qp, &x));
    x[q] += eps;
    PetscCall(VecRestoreArray(ode->Qp, &x));
    PetscCall(VecGetArray(ode->Vp, &x));
    x[q] += sv * eps;
    PetscCall(VecRestoreArray(ode->Vp, &x));
    PetscCall(VecGetArray(ode->Ap, &x));
    x[q] += sa * eps;
    PetscCall(VecRestoreArray(ode->Ap, &x));
    PetscCall(I2Function(ts, t, ode->Qp, ode->Vp, ode->Ap, ode->F1, ode));
    PetscCall(VecGetArrayRead(ode->F0, &f0));
    PetscCall(VecGetArrayRead(ode->F1, &f1));
    for (PetscInt r = 0; r < n; r++) j[r + q * n] = (f1[r] - f0[r]) / eps;
    PetscCall(VecRestoreArrayRead(ode->F0, &f0));
    PetscCall(VecRestoreArrayRead(ode->F1, &f1));
  }
  PetscCall(MatDenseRestoreArray(P, &j));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal sv, PetscReal sa, Mat J, Mat P, void *ctx)
{
  DRODE2 ode = (DRODE2)ctx;

  PetscFunctionBeginUser;
  if (ode->jacobian) {
    const PetscScalar *u, *v, *a;
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(VecGetArrayRead(V, &v));
    PetscCall(VecGetArrayRead(A, &a));
    PetscCall(ode->jacobian(t, u, v, a, sv, sa, P, ode->jctx));
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecRestoreArrayRead(V, &v));
    PetscCall(VecRestoreArrayRead(A, &a));
  } else PetscCall(JacobianFD(ode, ts, t, U, V, A, sv, sa, P));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor(TS ts, PetscInt step, PetscReal t, Vec X, void *ctx)
{
  DRODE2             ode = (DRODE2)ctx;
  Vec                U, V;
  const PetscScalar *u, *v;

  PetscFunctionBeginUser;
  PetscCall(TS2GetSolution(ts, &U, &V));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(ode->monitor(step, t, u, v, ode->mctx));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PreStep(TS ts)
{
  DRODE2             ode;
  Vec                U, V;
  PetscReal          t, h;
  const PetscScalar *u, *v;

  PetscFunctionBeginUser;
  PetscCall(TSGetApplicationContext(ts, &ode));
  PetscCall(TS2GetSolution(ts, &U, &V));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(TSGetTimeStep(ts, &h));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(ode->prestep(t, h, u, v, ode->pctx));
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- set-up and solve ------------------------------------------------------ */

/* The TS with everything but the options database (DRODE2SetUp). */
static PetscErrorCode CreateTS(DRODE2 ode)
{
  TSAdapt adapt;
  SNES    snes;
  KSP     ksp;
  PC      pc;

  PetscFunctionBeginUser;
  if (ode->ts) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ode->residual, ode->comm, PETSC_ERR_ORDER, "DRODE2: no residual (DRODE2SetResidual)");
  PetscCheck(ode->h > 0, ode->comm, PETSC_ERR_ORDER, "DRODE2: no time span (DRODE2SetTimeSpan)");
  if (!ode->J) PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, ode->n, ode->n, NULL, &ode->J));
  else if (!ode->jacobian) {
    PetscBool dense;
    PetscCall(PetscObjectTypeCompare((PetscObject)ode->J, MATSEQDENSE, &dense));
    PetscCheck(dense, ode->comm, PETSC_ERR_ARG_WRONG, "DRODE2: forward-difference Jacobians need a MATSEQDENSE matrix");
  }
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, ode->n, &ode->Q));
  PetscCall(VecDuplicate(ode->Q, &ode->V));
  PetscCall(TSCreate(ode->comm, &ode->ts));
  if (ode->prefix) PetscCall(TSSetOptionsPrefix(ode->ts, ode->prefix));
  PetscCall(TSSetProblemType(ode->ts, TS_NONLINEAR));
  PetscCall(TSSetType(ode->ts, TSALPHA2));
  PetscCall(TSAlpha2SetRadius(ode->ts, ode->rho));
  PetscCall(TSSetApplicationContext(ode->ts, ode));
  PetscCall(TSSetI2Function(ode->ts, NULL, I2Function, ode));
  PetscCall(TSSetI2Jacobian(ode->ts, ode->J, ode->J, I2Jacobian, ode));
  PetscCall(TSSetTime(ode->ts, ode->t0));
  PetscCall(TSSetTimeStep(ode->ts, ode->h));
  PetscCall(TSSetMaxSteps(ode->ts, ode->nsteps));
  if (ode->t_end > 0) {
    PetscCall(TSSetMaxTime(ode->ts, ode->t_end));
    PetscCall(TSSetExactFinalTime(ode->ts, TS_EXACTFINALTIME_MATCHSTEP));
  } else {
    PetscCall(TSSetMaxTime(ode->ts, ode->t0 + (ode->nsteps + 0.5) * ode->h));
    PetscCall(TSSetExactFinalTime(ode->ts, TS_EXACTFINALTIME_STEPOVER));
  }
  PetscCall(TSGetAdapt(ode->ts, &adapt));
  PetscCall(TSAdaptSetType(adapt, TSADAPTNONE));
  PetscCall(TSGetSNES(ode->ts, &snes));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  if (ode->prestep) PetscCall(TSSetPreStep(ode->ts, PreStep));
  if (ode->monitor) PetscCall(TSMonitorSet(ode->ts, Monitor, ode, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2GetTS(DRODE2 ode, TS *ts)
{
  PetscFunctionBeginUser;
  PetscCall(CreateTS(ode));
  *ts = ode->ts;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2SetUp(DRODE2 ode)
{
  PetscFunctionBeginUser;
  if (ode->setup) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CreateTS(ode));
  PetscCall(TSSetFromOptions(ode->ts));
  ode->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2Solve(DRODE2 ode, PetscReal q[], PetscReal v[], PetscInt *steps)
{
  PetscScalar *x;

  PetscFunctionBeginUser;
  PetscCall(DRODE2SetUp(ode));
  PetscCall(PetscLogEventBegin(DR_ODE_Solve, 0, 0, 0, 0));
  PetscCall(TSSetTime(ode->ts, ode->t0));
  PetscCall(TSSetStepNumber(ode->ts, 0));
  PetscCall(VecGetArrayWrite(ode->Q, &x));
  for (PetscInt i = 0; i < ode->n; i++) x[i] = q[i];
  PetscCall(VecRestoreArrayWrite(ode->Q, &x));
  PetscCall(VecGetArrayWrite(ode->V, &x));
  for (PetscInt i = 0; i < ode->n; i++) x[i] = v[i];
  PetscCall(VecRestoreArrayWrite(ode->V, &x));
  PetscCall(TS2SetSolution(ode->ts, ode->Q, ode->V));
  PetscCall(TSSolve(ode->ts, NULL));
  if (steps) PetscCall(TSGetStepNumber(ode->ts, steps));
  {
    Vec                U, V;
    const PetscScalar *u, *w;
    PetscCall(TS2GetSolution(ode->ts, &U, &V));
    PetscCall(VecGetArrayRead(U, &u));
    PetscCall(VecGetArrayRead(V, &w));
    for (PetscInt i = 0; i < ode->n; i++) {
      q[i] = u[i];
      v[i] = w[i];
    }
    PetscCall(VecRestoreArrayRead(U, &u));
    PetscCall(VecRestoreArrayRead(V, &w));
  }
  PetscCall(PetscLogEventEnd(DR_ODE_Solve, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRODE2Destroy(DRODE2 *ode)
{
  PetscFunctionBeginUser;
  if (!*ode) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(TSDestroy(&(*ode)->ts));
  PetscCall(MatDestroy(&(*ode)->J));
  PetscCall(VecDestroy(&(*ode)->Q));
  PetscCall(VecDestroy(&(*ode)->V));
  PetscCall(VecDestroy(&(*ode)->F0));
  PetscCall(VecDestroy(&(*ode)->F1));
  PetscCall(VecDestroy(&(*ode)->Qp));
  PetscCall(VecDestroy(&(*ode)->Vp));
  PetscCall(VecDestroy(&(*ode)->Ap));
  PetscCall(PetscFree((*ode)->prefix));
  PetscCall(PetscFree(*ode));
  PetscFunctionReturn(PETSC_SUCCESS);
}
