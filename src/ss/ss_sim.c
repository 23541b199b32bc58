/* dynred ss: fixed-step time integration of the modal state-space model.
 *
 * Exact (quadratic input hold), ZOH, Newmark and central difference are written
 * here: A is block diagonal, so each works mode by mode in O(m) per step
 * (plus the input and output maps, O(m (nin + nout))).  The Runge-Kutta,
 * theta and generalized-alpha schemes are PETSc TS with adaptivity off. */
#include <dynred/ss.h>
#include <petscts.h>
#include <math.h>
#include <string.h>

static const struct {
  const char *name;
  PetscInt    order;
} methods[] = {
  {"exact", 0}, {"zoh", 1}, {"newmark", 2}, {"central", 2}, {"rk3bs", 3}, {"rk4", 4}, {"rk5dp", 5}, {"rk8vr", 8}, {"beuler", 1}, {"cn", 2}, {"theta", 2}, {"alpha2", 2},
};

PetscErrorCode DRSSMethodOrder(const char *method, PetscInt *order, PetscBool *known)
{
  PetscFunctionBeginUser;
  *known = PETSC_FALSE;
  for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
    if (!strcmp(method, methods[i].name)) {
      *known = PETSC_TRUE;
      if (order) *order = methods[i].order;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  DRSS             ss;
  const DRSSInput *u;
  PetscReal       *uval, *f; /* nin, m */
  PetscReal       *Y, *X;
  PetscInt         nsteps;
  PetscReal        h;
} SimCtx;

/* Modal forces f = Bm u(t). */
static PetscErrorCode Force(SimCtx *s, PetscReal t, PetscReal f[])
{
  DRSS ss = s->ss;

  PetscFunctionBeginUser;
  if (!s->u || !ss->nin) {
    for (PetscInt k = 0; k < ss->m; k++) f[k] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(s->u->eval(s->u->ctx, t, s->uval));
  for (PetscInt k = 0; k < ss->m; k++) {
    PetscReal a = 0;
    for (PetscInt j = 0; j < ss->nin; j++) a += ss->Bm[k * ss->nin + j] * s->uval[j];
    f[k] = a;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Output y = C x and optional state at step n; x interleaved (stride 2), or
 * given as separate displacement/velocity arrays when x is NULL. */
static void Record(SimCtx *s, PetscInt n, const PetscReal x[], const PetscReal d[], const PetscReal v[])
{
  DRSS ss = s->ss;
  if (n < 0 || n > s->nsteps) return;
  if (s->Y) {
    PetscReal *y = s->Y + n * 2 * ss->nout;
    for (PetscInt i = 0; i < ss->nout; i++) {
      const PetscReal *c  = ss->Cm + i * ss->m;
      PetscReal        yd = 0, yv = 0;
      if (x)
        for (PetscInt k = 0; k < ss->m; k++) {
          yd += c[k] * x[2 * k];
          yv += c[k] * x[2 * k + 1];
        }
      else
        for (PetscInt k = 0; k < ss->m; k++) {
          yd += c[k] * d[k];
          yv += c[k] * v[k];
        }
      y[2 * i]     = yd;
      y[2 * i + 1] = yv;
    }
  }
  if (s->X) {
    PetscReal *xs = s->X + n * 2 * ss->m;
    for (PetscInt k = 0; k < ss->m; k++) {
      xs[2 * k]     = x ? x[2 * k] : d[k];
      xs[2 * k + 1] = x ? x[2 * k + 1] : v[k];
    }
  }
}

/* exp(Z) of a small (N <= 5) row-major matrix: scaling and squaring with a
 * degree-18 Taylor polynomial on ||Z/2^s||_1 <= 1/2 (truncation < 1e-22). */
#define NX 5
static void Expm(const PetscReal Z[NX * NX], PetscReal E[NX * NX])
{
  PetscReal nrm = 0, S[NX * NX], T[NX * NX];
  int       s   = 0;
  for (int j = 0; j < NX; j++) {
    PetscReal c = 0;
    for (int i = 0; i < NX; i++) c += PetscAbsReal(Z[i * NX + j]);
    nrm = PetscMax(nrm, c);
  }
  while (nrm > 0.5) {
    nrm /= 2;
    s++;
  }
  for (int i = 0; i < NX * NX; i++) S[i] = ldexp(Z[i], -s);
  /* Horner: E = I + S/1 (I + S/2 (I + ... (I + S/18))) */
  for (int i = 0; i < NX * NX; i++) E[i] = (i % (NX + 1) == 0) ? 1 : 0;
  for (int k = 18; k >= 1; k--) {
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NX; j++) {
        PetscReal a = 0;
        for (int l = 0; l < NX; l++) a += S[i * NX + l] * E[l * NX + j];
        T[i * NX + j] = a / k + (i == j ? 1 : 0);
      }
    for (int i = 0; i < NX * NX; i++) E[i] = T[i];
  }
  for (int q = 0; q < s; q++) {
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NX; j++) {
        PetscReal a = 0;
        for (int l = 0; l < NX; l++) a += E[i * NX + l] * E[l * NX + j];
        T[i * NX + j] = a;
      }
    for (int i = 0; i < NX * NX; i++) E[i] = T[i];
  }
}

/* Exact stepping of each 2x2 block.  The modal force over a step is taken as
 * the quadratic through f(t_n), f(t_n + h/2), f(t_n + h) ('exact': exact for
 * inputs that are quadratic, linear or constant on each step; O(h^3) input
 * interpolation otherwise) or as the constant f(t_n) ('zoh').  With
 * z = [eta, deta, f, f', f''], z' = Z z, one 5x5 exponential per mode gives
 * x_{n+1} = Phi x_n + g0 f_n + gm f_{n+1/2} + g1 f_{n+1}. */
static PetscErrorCode SimExact(SimCtx *s, const PetscReal x0[], PetscBool quad, PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m;
  PetscReal *G, *x, *f0, *fm, *f1, h = s->h;

  PetscFunctionBeginUser;
  /* per mode: Phi (4), then for rows 0 and 1: g0, gm, g1 */
  PetscCall(PetscMalloc5(10 * m, &G, 2 * m, &x, m, &f0, m, &fm, m, &f1));
  for (PetscInt k = 0; k < m; k++) {
    PetscReal Z[NX * NX] = {0}, E[NX * NX], *g = G + 10 * k;
    Z[0 * NX + 1] = h;
    Z[1 * NX + 0] = -ss->omega[k] * ss->omega[k] * h;
    Z[1 * NX + 1] = -ss->c[k] * h;
    Z[1 * NX + 2] = h;
    Z[2 * NX + 3] = h;
    Z[3 * NX + 4] = h;
    Expm(Z, E);
    g[0] = E[0 * NX + 0];
    g[1] = E[0 * NX + 1];
    g[2] = E[1 * NX + 0];
    g[3] = E[1 * NX + 1];
    for (int r = 0; r < 2; r++) {
      PetscReal e2 = E[r * NX + 2], e3 = E[r * NX + 3], e4 = E[r * NX + 4];
      /* f' = (4 fm - 3 f0 - f1)/h, f'' = 4 (f1 - 2 fm + f0)/h^2 */
      g[4 + 3 * r + 0] = quad ? e2 - 3 * e3 / h + 4 * e4 / (h * h) : e2;
      g[4 + 3 * r + 1] = quad ? 4 * e3 / h - 8 * e4 / (h * h) : 0;
      g[4 + 3 * r + 2] = quad ? -e3 / h + 4 * e4 / (h * h) : 0;
    }
  }
  for (PetscInt i = 0; i < 2 * m; i++) x[i] = x0 ? x0[i] : 0;
  PetscCall(Force(s, 0, f0));
  Record(s, 0, x, NULL, NULL);
  for (PetscInt n = 0; n < s->nsteps; n++) {
    PetscCall(Force(s, (n + 1) * h, f1));
    if (quad) PetscCall(Force(s, (n + 0.5) * h, fm));
    for (PetscInt k = 0; k < m; k++) {
      const PetscReal *g = G + 10 * k;
      PetscReal        a = x[2 * k], b = x[2 * k + 1];
      if (quad) {
        x[2 * k]     = g[0] * a + g[1] * b + g[4] * f0[k] + g[5] * fm[k] + g[6] * f1[k];
        x[2 * k + 1] = g[2] * a + g[3] * b + g[7] * f0[k] + g[8] * fm[k] + g[9] * f1[k];
      } else {
        x[2 * k]     = g[0] * a + g[1] * b + g[4] * f0[k];
        x[2 * k + 1] = g[2] * a + g[3] * b + g[7] * f0[k];
      }
      f0[k] = f1[k];
    }
    Record(s, n + 1, x, NULL, NULL);
  }
  if (xT) PetscCall(PetscArraycpy(xT, x, 2 * m));
  PetscCall(PetscFree5(G, x, f0, fm, f1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SimNewmark(SimCtx *s, const PetscReal x0[], PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m;
  PetscReal *d, *v, *a, *f, h = s->h;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(m, &d, m, &v, m, &a, m, &f));
  PetscCall(Force(s, 0, f));
  for (PetscInt k = 0; k < m; k++) {
    d[k] = x0 ? x0[2 * k] : 0;
    v[k] = x0 ? x0[2 * k + 1] : 0;
    a[k] = f[k] - ss->c[k] * v[k] - ss->omega[k] * ss->omega[k] * d[k];
  }
  Record(s, 0, NULL, d, v);
  for (PetscInt n = 0; n < s->nsteps; n++) {
    PetscCall(Force(s, (n + 1) * h, f));
    for (PetscInt k = 0; k < m; k++) {
      PetscReal w2 = ss->omega[k] * ss->omega[k], c = ss->c[k];
      PetscReal dp = d[k] + h * v[k] + 0.25 * h * h * a[k], vp = v[k] + 0.5 * h * a[k];
      PetscReal an = (f[k] - c * vp - w2 * dp) / (1 + 0.5 * c * h + 0.25 * w2 * h * h);
      d[k]         = dp + 0.25 * h * h * an;
      v[k]         = vp + 0.5 * h * an;
      a[k]         = an;
    }
    Record(s, n + 1, NULL, d, v);
  }
  if (xT)
    for (PetscInt k = 0; k < m; k++) {
      xT[2 * k]     = d[k];
      xT[2 * k + 1] = v[k];
    }
  PetscCall(PetscFree4(d, v, a, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SimCentral(SimCtx *s, const PetscReal x0[], PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m;
  PetscReal *dp, *d, *dn, *v, *f, h = s->h, wmax = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < m; k++) wmax = PetscMax(wmax, ss->omega[k]);
  PetscCheck(h * wmax < 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "central difference: step %g s is above the stability limit 2/omega_max = %g s of the model", (double)h, (double)(2 / wmax));
  PetscCall(PetscMalloc1(m, &dp));
  PetscCall(PetscMalloc1(m, &d));
  PetscCall(PetscMalloc1(m, &dn));
  PetscCall(PetscMalloc1(m, &v));
  PetscCall(PetscMalloc1(m, &f));
  PetscCall(Force(s, 0, f));
  for (PetscInt k = 0; k < m; k++) {
    PetscReal a0;
    d[k]  = x0 ? x0[2 * k] : 0;
    v[k]  = x0 ? x0[2 * k + 1] : 0;
    a0    = f[k] - ss->c[k] * v[k] - ss->omega[k] * ss->omega[k] * d[k];
    dp[k] = d[k] - h * v[k] + 0.5 * h * h * a0;
  }
  for (PetscInt n = 0; n <= s->nsteps; n++) {
    if (n) PetscCall(Force(s, n * h, f));
    for (PetscInt k = 0; k < m; k++) {
      PetscReal w2 = ss->omega[k] * ss->omega[k], c = ss->c[k];
      dn[k] = (h * h * f[k] - (h * h * w2 - 2) * d[k] - (1 - 0.5 * c * h) * dp[k]) / (1 + 0.5 * c * h);
      v[k]  = (dn[k] - dp[k]) / (2 * h);
    }
    Record(s, n, NULL, d, v);
    if (n == s->nsteps) break;
    {
      PetscReal *t = dp;
      dp           = d;
      d            = dn;
      dn           = t;
    }
  }
  if (xT)
    for (PetscInt k = 0; k < m; k++) {
      xT[2 * k]     = d[k];
      xT[2 * k + 1] = v[k];
    }
  PetscCall(PetscFree(dp));
  PetscCall(PetscFree(d));
  PetscCall(PetscFree(dn));
  PetscCall(PetscFree(v));
  PetscCall(PetscFree(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- PETSc TS ------------------------------------------------------------ */

static PetscErrorCode RHSFunction(TS ts, PetscReal t, Vec X, Vec F, void *ctx)
{
  SimCtx            *s  = (SimCtx *)ctx;
  DRSS               ss = s->ss;
  const PetscScalar *x;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(Force(s, t, s->f));
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
  SimCtx            *s = (SimCtx *)ctx;
  const PetscScalar *x;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(X, &x));
  Record(s, step, x, NULL, NULL);
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode I2Function(TS ts, PetscReal t, Vec U, Vec V, Vec A, Vec F, void *ctx)
{
  SimCtx            *s  = (SimCtx *)ctx;
  DRSS               ss = s->ss;
  const PetscScalar *u, *v, *a;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(Force(s, t, s->f));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  PetscCall(VecGetArrayRead(A, &a));
  PetscCall(VecGetArrayWrite(F, &f));
  for (PetscInt k = 0; k < ss->m; k++) f[k] = a[k] + ss->c[k] * v[k] + ss->omega[k] * ss->omega[k] * u[k] - s->f[k];
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscCall(VecRestoreArrayRead(A, &a));
  PetscCall(VecRestoreArrayWrite(F, &f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode I2Jacobian(TS ts, PetscReal t, Vec U, Vec V, Vec A, PetscReal shiftV, PetscReal shiftA, Mat J, Mat P, void *ctx)
{
  SimCtx *s  = (SimCtx *)ctx;
  DRSS    ss = s->ss;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ss->m; k++) PetscCall(MatSetValue(P, k, k, shiftA + shiftV * ss->c[k] + ss->omega[k] * ss->omega[k], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  if (J != P) {
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor2(TS ts, PetscInt step, PetscReal t, Vec X, void *ctx)
{
  SimCtx            *s = (SimCtx *)ctx;
  Vec                U, V;
  const PetscScalar *u, *v;

  PetscFunctionBeginUser;
  PetscCall(TS2GetSolution(ts, &U, &V));
  PetscCall(VecGetArrayRead(U, &u));
  PetscCall(VecGetArrayRead(V, &v));
  Record(s, step, NULL, u, v);
  PetscCall(VecRestoreArrayRead(U, &u));
  PetscCall(VecRestoreArrayRead(V, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SimTS(SimCtx *s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  DRSS         ss = s->ss;
  PetscInt     m  = ss->m;
  TS           ts;
  TSAdapt      adapt;
  Mat          J;
  Vec          X, V = NULL;
  PetscBool    second = (PetscBool)!strcmp(method, "alpha2");
  PetscInt     steps;
  PetscScalar *x;

  PetscFunctionBeginUser;
  PetscCall(TSCreate(PETSC_COMM_SELF, &ts));
  PetscCall(TSSetOptionsPrefix(ts, "ss_"));
  PetscCall(TSSetProblemType(ts, second ? TS_NONLINEAR : TS_LINEAR));
  if (!second) {
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
    if (!strcmp(method, "beuler")) PetscCall(TSSetType(ts, TSBEULER));
    else if (!strcmp(method, "cn")) PetscCall(TSSetType(ts, TSCN));
    else if (!strcmp(method, "theta")) {
      PetscCall(TSSetType(ts, TSTHETA));
      PetscCall(TSThetaSetTheta(ts, 0.5));
    } else {
      PetscCall(TSSetType(ts, TSRK));
      if (!strcmp(method, "rk3bs")) PetscCall(TSRKSetType(ts, TSRK3BS));
      else if (!strcmp(method, "rk4")) PetscCall(TSRKSetType(ts, TSRK4));
      else if (!strcmp(method, "rk5dp")) PetscCall(TSRKSetType(ts, TSRK5DP));
      else if (!strcmp(method, "rk8vr")) PetscCall(TSRKSetType(ts, TSRK8VR));
      else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "method %s", method);
    }
  } else {
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, m, &X));
    PetscCall(VecDuplicate(X, &V));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, m, 1, NULL, &J));
    for (PetscInt k = 0; k < m; k++) PetscCall(MatSetValue(J, k, k, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
    PetscCall(TSSetType(ts, TSALPHA2));
    PetscCall(TSAlpha2SetRadius(ts, 1.0));
    PetscCall(TSSetI2Function(ts, NULL, I2Function, s));
    PetscCall(TSSetI2Jacobian(ts, J, J, I2Jacobian, s));
    {
      PetscScalar *v;
      PetscCall(VecGetArrayWrite(X, &x));
      PetscCall(VecGetArrayWrite(V, &v));
      for (PetscInt k = 0; k < m; k++) {
        x[k] = x0 ? x0[2 * k] : 0;
        v[k] = x0 ? x0[2 * k + 1] : 0;
      }
      PetscCall(VecRestoreArrayWrite(X, &x));
      PetscCall(VecRestoreArrayWrite(V, &v));
    }
    PetscCall(TS2SetSolution(ts, X, V));
    PetscCall(TSMonitorSet(ts, Monitor2, s, NULL));
  }
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
    const PetscScalar *u, *v;
    Vec                Uf, Vf;
    if (second) {
      PetscCall(TS2GetSolution(ts, &Uf, &Vf));
      PetscCall(VecGetArrayRead(Uf, &u));
      PetscCall(VecGetArrayRead(Vf, &v));
      for (PetscInt k = 0; k < m; k++) {
        xT[2 * k]     = u[k];
        xT[2 * k + 1] = v[k];
      }
      PetscCall(VecRestoreArrayRead(Uf, &u));
      PetscCall(VecRestoreArrayRead(Vf, &v));
    } else {
      PetscCall(TSGetSolution(ts, &Uf));
      PetscCall(VecGetArrayRead(Uf, &u));
      for (PetscInt i = 0; i < 2 * m; i++) xT[i] = u[i];
      PetscCall(VecRestoreArrayRead(Uf, &u));
    }
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&X));
  PetscCall(VecDestroy(&V));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSimulate(DRSS ss, const char *method, PetscReal h, PetscInt nsteps, const PetscReal x0[], const DRSSInput *u, PetscReal Y[], PetscReal X[], PetscReal xT[])
{
  SimCtx    s;
  PetscBool known;

  PetscFunctionBeginUser;
  PetscCall(DRSSMethodOrder(method, NULL, &known));
  PetscCheck(known, PETSC_COMM_WORLD, DR_ERR_INPUT, "unknown integration method '%s'; expected exact zoh newmark central rk3bs rk4 rk5dp rk8vr beuler cn theta alpha2", method);
  PetscCheck(h > 0 && isfinite(h) && nsteps >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "time step %g and %" PetscInt_FMT " steps: expected h > 0", (double)h, nsteps);
  PetscCheck(!u || u->nin == ss->nin, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "input has %" PetscInt_FMT " channels, model %" PetscInt_FMT, u ? u->nin : 0, ss->nin);
  s.ss     = ss;
  s.u      = u;
  s.Y      = Y;
  s.X      = X;
  s.nsteps = nsteps;
  s.h      = h;
  PetscCall(PetscMalloc2(PetscMax(ss->nin, 1), &s.uval, PetscMax(ss->m, 1), &s.f));
  if (!strcmp(method, "exact")) PetscCall(SimExact(&s, x0, PETSC_TRUE, xT));
  else if (!strcmp(method, "zoh")) PetscCall(SimExact(&s, x0, PETSC_FALSE, xT));
  else if (!strcmp(method, "newmark")) PetscCall(SimNewmark(&s, x0, xT));
  else if (!strcmp(method, "central")) PetscCall(SimCentral(&s, x0, xT));
  else PetscCall(SimTS(&s, method, x0, xT));
  PetscCall(PetscFree2(s.uval, s.f));
  PetscFunctionReturn(PETSC_SUCCESS);
}
