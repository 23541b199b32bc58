/* Condensation onto master sets with one shared factorization of K0
 * (condense.h; METHODS.md 1.4 and 4). */
#include <dynred/condense.h>
#include "reduceimpl.h" /* the package's log events */
#include <dynred/eigen.h>
#include <petscblaslapack.h>
#include <string.h>

/* LAPACK's condition estimate (not wrapped by PETSc 3.18's petscblaslapack.h). */
extern void dgecon_(const char *, const PetscBLASInt *, const PetscReal *, const PetscBLASInt *, const PetscReal *, PetscReal *, PetscReal *, PetscBLASInt *, PetscBLASInt *);

struct _p_DRCondense {
  MPI_Comm         comm;
  PetscMPIInt      size;
  Mat              K, M, F;
  Vec              vx, vy; /* column wrappers for K and M products */
  PetscInt         n, nloc, rstart;
  char             type[32];
  DRCondenseFn     reduce; /* the method (registry) */
  PetscInt         inner, outer, ntrack, dense_max;
  PetscReal        tol;
  PetscBool        dense, setup;
  PetscBool        formed; /* the method reached K_R, M_R, lam (in B, C, lam) */
  PetscReal       *Kd, *Md, *Fd, *Qd; /* dense mode: K0, M, K0^{-1}, K0^{-1} M (n x n) */
  PetscInt         cap;                /* work arrays sized for cap columns */
  PetscReal       *T, *X, *Y, *W, *A, *B, *C, *Rf, *G, *lam, *lamprev, *work;
  PetscBLASInt    *ipiv, *iwork, lwork;
  PetscInt         rlast;
};

static PetscFunctionList DRCondenseList              = NULL;
static PetscBool         DRCondenseRegisterAllCalled = PETSC_FALSE;

static PetscErrorCode DRCondenseFinalizeRegistry(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListDestroy(&DRCondenseList));
  DRCondenseRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseRegister(const char name[], DRCondenseFn fn)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListAdd(&DRCondenseList, name, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *DRCondenseStatusString(DRCondenseStatus s)
{
  switch (s) {
  case DR_CONDENSE_OK: return "ok";
  case DR_CONDENSE_SINGULAR_MASTERS: return "singular master block (X_mm or Q_mm; a massless master?)";
  case DR_CONDENSE_MASS_NOT_PD: return "reduced mass matrix not positive definite";
  case DR_CONDENSE_STIFFNESS_NOT_PD: return "reduced stiffness matrix not positive definite";
  }
  return "?";
}

PetscErrorCode DRCondenseCreate(Mat K0, Mat M, DRCondense *c)
{
  DRCondense d;
  PetscInt   re;

  PetscFunctionBeginUser;
  PetscCall(DRReductionInitializePackage());
  PetscCall(DRCondenseRegisterAll());
  PetscCall(PetscNew(&d));
  PetscCall(PetscObjectGetComm((PetscObject)K0, &d->comm));
  PetscCallMPI(MPI_Comm_size(d->comm, &d->size));
  PetscCall(PetscObjectReference((PetscObject)K0));
  PetscCall(PetscObjectReference((PetscObject)M));
  d->K = K0;
  d->M = M;
  PetscCall(MatGetSize(K0, &d->n, NULL));
  PetscCall(MatGetOwnershipRange(K0, &d->rstart, &re));
  d->nloc      = re - d->rstart;
  d->inner     = 1;
  d->outer     = 50;
  d->tol       = 1e-8;
  d->dense_max = 4000;
  PetscCall(DRCondenseSetType(d, DRCONDENSE_IDC));
  *c = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseDestroy(DRCondense *c)
{
  DRCondense d = *c;

  PetscFunctionBeginUser;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDestroy(&d->K));
  PetscCall(MatDestroy(&d->M));
  PetscCall(MatDestroy(&d->F));
  PetscCall(VecDestroy(&d->vx));
  PetscCall(VecDestroy(&d->vy));
  PetscCall(PetscFree4(d->Kd, d->Md, d->Fd, d->Qd));
  PetscCall(PetscFree4(d->T, d->X, d->Y, d->W));
  PetscCall(PetscFree7(d->A, d->B, d->C, d->Rf, d->G, d->lam, d->lamprev));
  PetscCall(PetscFree(d->work));
  PetscCall(PetscFree2(d->ipiv, d->iwork));
  PetscCall(PetscFree(d));
  *c = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseSetType(DRCondense c, const char type[])
{
  DRCondenseFn fn = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRRegistryFind(c->comm, DRCondenseList, "condensation method", type, NULL, &fn));
  PetscCall(PetscStrncpy(c->type, type, sizeof(c->type)));
  c->reduce = fn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseGetType(DRCondense c, const char **type)
{
  PetscFunctionBeginUser;
  *type = c->type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseSetIDC(DRCondense c, PetscInt inner, PetscInt outer, PetscReal tol, PetscInt ntrack)
{
  PetscFunctionBeginUser;
  PetscCheck(inner >= 1 && outer >= 0 && tol >= 0 && ntrack >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "IDC: inner = %" PetscInt_FMT ", outer = %" PetscInt_FMT ", tol = %g, ntrack = %" PetscInt_FMT "; expected inner >= 1, outer >= 0, tol >= 0, ntrack >= 0", inner, outer, (double)tol, ntrack);
  c->inner  = inner;
  c->outer  = outer;
  c->tol    = tol;
  c->ntrack = ntrack;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseSetDenseMax(DRCondense c, PetscInt dense_max)
{
  PetscFunctionBeginUser;
  c->dense_max = dense_max;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ToDense(Mat A, PetscReal *out)
{
  Mat                D;
  const PetscScalar *a;
  PetscInt           n, lda;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatConvert(A, MATSEQDENSE, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatDenseGetArrayRead(D, &a));
  PetscCall(MatDenseGetLDA(D, &lda));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) out[i + j * n] = a[i + j * lda];
  PetscCall(MatDenseRestoreArrayRead(D, &a));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Gemm(const char *ta, const char *tb, PetscInt m, PetscInt n, PetscInt k, PetscReal alpha, const PetscReal *A, PetscInt lda, const PetscReal *B, PetscInt ldb, PetscReal beta, PetscReal *C, PetscInt ldc)
{
  PetscBLASInt bm, bn, bk, la, lb, lc;

  PetscFunctionBeginUser;
  if (m == 0 || n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (k == 0) {
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < m; i++) C[i + j * ldc] *= beta;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscBLASIntCast(m, &bm));
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(k, &bk));
  PetscCall(PetscBLASIntCast(PetscMax(lda, 1), &la));
  PetscCall(PetscBLASIntCast(PetscMax(ldb, 1), &lb));
  PetscCall(PetscBLASIntCast(PetscMax(ldc, 1), &lc));
  BLASgemm_(ta, tb, &bm, &bn, &bk, &alpha, A, &la, B, &lb, &beta, C, &lc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseSetUp(DRCondense c)
{
  MatFactorInfo info;

  PetscFunctionBeginUser;
  if (c->setup) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DRCOND_Factor, 0, 0, 0, 0));
  PetscCall(MatSetOption(c->K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(c->K, MAT_SPD, PETSC_TRUE));
  PetscCall(MatGetFactor(c->K, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &c->F));
  PetscCall(MatSetOptionsPrefix(c->F, "condense_"));
  PetscCall(MatSetFromOptions(c->F));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(c->F, c->K, NULL, &info));
  PetscCall(MatCholeskyFactorNumeric(c->F, c->K, &info));
  {
    MatFactorError err;
    PetscCall(MatFactorGetError(c->F, &err));
    PetscCheck(err == MAT_FACTOR_NOERROR, c->comm, DR_ERR_INPUT, "condensation: the stiffness matrix K0 is singular or not positive definite (factorization error %d); expected a supported model (fix rigid-body motion with fixed DOFs or springs)", (int)err);
  }
  PetscCall(MatCreateVecs(c->K, &c->vx, &c->vy));
  c->dense = (PetscBool)(c->size == 1 && c->n <= c->dense_max);
  if (c->dense) {
    /* K0^{-1} by one block solve with the identity; Q = K0^{-1} M. */
    Mat          Id, X;
    PetscScalar *x;
    PetscInt     n = c->n, lda;
    PetscCall(PetscMalloc4(n * n, &c->Kd, n * n, &c->Md, n * n, &c->Fd, n * n, &c->Qd));
    PetscCall(ToDense(c->K, c->Kd));
    PetscCall(ToDense(c->M, c->Md));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &Id));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &X));
    for (PetscInt i = 0; i < n; i++) PetscCall(MatSetValue(Id, i, i, 1.0, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(Id, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(Id, MAT_FINAL_ASSEMBLY));
    PetscCall(DRReductionBlockSolve(c->F, Id, X));
    PetscCall(MatDenseGetArray(X, &x));
    PetscCall(MatDenseGetLDA(X, &lda));
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < n; i++) c->Fd[i + j * n] = 0.5 * (x[i + j * lda] + x[j + i * lda]);
    PetscCall(MatDenseRestoreArray(X, &x));
    PetscCall(MatDestroy(&Id));
    PetscCall(MatDestroy(&X));
    PetscCall(Gemm("N", "N", n, n, n, 1.0, c->Fd, n, c->Md, n, 0.0, c->Qd, n));
  }
  PetscCall(PetscLogEventEnd(DRCOND_Factor, 0, 0, 0, 0));
  c->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EnsureWork(DRCondense c, PetscInt r)
{
  PetscFunctionBeginUser;
  if (r <= c->cap) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree4(c->T, c->X, c->Y, c->W));
  PetscCall(PetscFree7(c->A, c->B, c->C, c->Rf, c->G, c->lam, c->lamprev));
  PetscCall(PetscFree(c->work));
  PetscCall(PetscFree2(c->ipiv, c->iwork));
  c->cap = PetscMax(r, 2 * c->cap);
  PetscCall(PetscMalloc4(c->nloc * c->cap + 1, &c->T, c->nloc * c->cap + 1, &c->X, c->nloc * c->cap + 1, &c->Y, c->nloc * c->cap + 1, &c->W));
  PetscCall(PetscMalloc7(c->cap * c->cap, &c->A, c->cap * c->cap, &c->B, c->cap * c->cap, &c->C, c->cap * c->cap, &c->Rf, c->cap * c->cap, &c->G, c->cap, &c->lam, c->cap, &c->lamprev));
  c->lwork = (PetscBLASInt)(64 * c->cap + 64);
  PetscCall(PetscMalloc1(c->lwork, &c->work));
  PetscCall(PetscMalloc2(c->cap, &c->ipiv, c->cap, &c->iwork));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y = K0^{-1} B, both nloc x r (ld nloc). */
static PetscErrorCode OpSolve(DRCondense c, PetscInt r, PetscReal *Bv, PetscReal *Yv)
{
  Mat Bm, Ym;

  PetscFunctionBeginUser;
  if (c->dense) PetscCall(Gemm("N", "N", c->n, r, c->n, 1.0, c->Fd, c->n, Bv, c->n, 0.0, Yv, c->n));
  else {
    PetscCall(MatCreateDense(c->comm, c->nloc, PETSC_DECIDE, c->n, r, Bv, &Bm));
    PetscCall(MatCreateDense(c->comm, c->nloc, PETSC_DECIDE, c->n, r, Yv, &Ym));
    PetscCall(DRReductionBlockSolve(c->F, Bm, Ym));
    PetscCall(MatDestroy(&Bm));
    PetscCall(MatDestroy(&Ym));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y = A X for A = K0 or M (sparse: one MatMult per column). */
static PetscErrorCode OpApply(DRCondense c, Mat A, const PetscReal *Ad, PetscInt r, const PetscReal *Xv, PetscReal *Yv)
{
  PetscFunctionBeginUser;
  if (c->dense) PetscCall(Gemm("N", "N", c->n, r, c->n, 1.0, Ad, c->n, Xv, c->n, 0.0, Yv, c->n));
  else
    for (PetscInt j = 0; j < r; j++) {
      PetscCall(VecPlaceArray(c->vx, Xv + j * c->nloc));
      PetscCall(VecPlaceArray(c->vy, Yv + j * c->nloc));
      PetscCall(MatMult(A, c->vx, c->vy));
      PetscCall(VecResetArray(c->vx));
      PetscCall(VecResetArray(c->vy));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y = Q X = K0^{-1} M X (uses c->W as scratch in the sparse case). */
static PetscErrorCode OpApplyQ(DRCondense c, PetscInt r, const PetscReal *Xv, PetscReal *Yv)
{
  PetscFunctionBeginUser;
  if (c->dense) PetscCall(Gemm("N", "N", c->n, r, c->n, 1.0, c->Qd, c->n, Xv, c->n, 0.0, Yv, c->n));
  else {
    PetscCall(OpApply(c, c->M, NULL, r, Xv, c->W));
    PetscCall(OpSolve(c, r, c->W, Yv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G = A^T B (r x r) over all rows, replicated. */
static PetscErrorCode Gram(DRCondense c, PetscInt r, const PetscReal *Av, const PetscReal *Bv, PetscReal *G)
{
  PetscFunctionBeginUser;
  if (c->nloc) PetscCall(Gemm("T", "N", r, r, c->nloc, 1.0, Av, c->nloc, Bv, c->nloc, 0.0, G, r));
  else PetscCall(PetscArrayzero(G, r * r));
  if (c->size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, G, (PetscMPIInt)(r * r), MPIU_REAL, MPIU_SUM, c->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G = rows `masters` of X (r x r), replicated. */
static PetscErrorCode MasterRows(DRCondense c, PetscInt r, const PetscInt masters[], const PetscReal *Xv, PetscReal *G)
{
  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(G, r * r));
  for (PetscInt i = 0; i < r; i++) {
    PetscInt l = masters[i] - c->rstart;
    if (l < 0 || l >= c->nloc) continue;
    for (PetscInt j = 0; j < r; j++) G[i + j * r] = Xv[l + j * c->nloc];
  }
  if (c->size > 1) PetscCall(MPIU_Allreduce(MPI_IN_PLACE, G, (PetscMPIInt)(r * r), MPIU_REAL, MPIU_SUM, c->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* E_m (unit columns at the masters) into Xv. */
static PetscErrorCode UnitBlock(DRCondense c, PetscInt r, const PetscInt masters[], PetscReal *Xv)
{
  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(Xv, c->nloc * r));
  for (PetscInt j = 0; j < r; j++) {
    PetscInt l = masters[j] - c->rstart;
    if (l >= 0 && l < c->nloc) Xv[l + j * c->nloc] = 1.0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T = Y Y_mm^{-1}, master rows set to exactly I.  *ok false when Y_mm is
 * singular to working precision (reciprocal condition number < 1e-13). */
static PetscErrorCode Normalize(DRCondense c, PetscInt r, const PetscInt masters[], const PetscReal *Yv, PetscReal *Tv, PetscBool *ok)
{
  PetscBLASInt n, info, lw = c->lwork;
  PetscReal    anorm = 0, rcond = 0;

  PetscFunctionBeginUser;
  *ok = PETSC_TRUE;
  PetscCall(MasterRows(c, r, masters, Yv, c->A));
  PetscCall(PetscBLASIntCast(r, &n));
  for (PetscInt j = 0; j < r; j++) {
    PetscReal s = 0;
    for (PetscInt i = 0; i < r; i++) s += PetscAbsReal(c->A[i + j * r]);
    anorm = PetscMax(anorm, s);
  }
  LAPACKgetrf_(&n, &n, c->A, &n, c->ipiv, &info);
  if (info == 0) {
    dgecon_("1", &n, c->A, &n, &anorm, &rcond, c->work, c->iwork, &info);
    if (info == 0 && rcond >= 1e-13 && PetscIsNormalReal(rcond)) LAPACKgetri_(&n, c->A, &n, c->ipiv, c->work, &lw, &info);
    else info = -1;
  }
  if (info != 0) {
    *ok = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(Gemm("N", "N", c->nloc, r, r, 1.0, Yv, c->nloc, c->A, r, 0.0, Tv, c->nloc));
  for (PetscInt i = 0; i < r; i++) {
    PetscInt l = masters[i] - c->rstart;
    if (l < 0 || l >= c->nloc) continue;
    for (PetscInt j = 0; j < r; j++) Tv[l + j * c->nloc] = (i == j) ? 1.0 : 0.0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* K_R = T^T K0 T, M_R = T^T M T into KR, MR (symmetrized). Uses c->X. */
static PetscErrorCode Project(DRCondense c, PetscInt r, const PetscReal *Tv, PetscReal *KR, PetscReal *MR)
{
  PetscFunctionBeginUser;
  PetscCall(OpApply(c, c->K, c->Kd, r, Tv, c->X));
  PetscCall(Gram(c, r, Tv, c->X, KR));
  PetscCall(OpApply(c, c->M, c->Md, r, Tv, c->X));
  PetscCall(Gram(c, r, Tv, c->X, MR));
  for (PetscInt j = 0; j < r; j++)
    for (PetscInt i = 0; i < j; i++) {
      PetscReal k = 0.5 * (KR[i + j * r] + KR[j + i * r]), m = 0.5 * (MR[i + j * r] + MR[j + i * r]);
      KR[i + j * r] = KR[j + i * r] = k;
      MR[i + j * r] = MR[j + i * r] = m;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Y (nloc x r) -> Z with orthonormal columns, Y = Z Rf (Rf upper triangular,
 * r x r, replicated).  One process: Householder QR; distributed: Cholesky QR
 * twice (CholQR2).  *ok false when Y is rank deficient to working precision
 * (a column of Q E_m vanishes: a massless master). */
static PetscErrorCode Orth(DRCondense c, PetscInt r, PetscReal *Yv, PetscBool *ok)
{
  PetscBLASInt n, m, ld, info, lw = c->lwork;
  PetscReal    dmax = 0, dmin = PETSC_MAX_REAL;

  PetscFunctionBeginUser;
  *ok = PETSC_TRUE;
  PetscCall(PetscBLASIntCast(r, &n));
  if (c->size == 1) {
    PetscCall(PetscBLASIntCast(c->nloc, &m));
    ld = PetscMax(m, 1);
    lw = c->lwork - n; /* tau in work[0..r), the rest is LAPACK's */
    LAPACKgeqrf_(&m, &n, Yv, &ld, c->work, c->work + r, &lw, &info);
    for (PetscInt j = 0; j < r; j++)
      for (PetscInt i = 0; i < r; i++) c->Rf[i + j * r] = i <= j ? Yv[i + j * c->nloc] : 0;
    {
      LAPACKorgqr_(&m, &n, &n, Yv, &ld, c->work, c->work + r, &lw, &info);
    }
    if (info) *ok = PETSC_FALSE;
  } else {
    PetscCall(PetscArrayzero(c->Rf, r * r));
    for (PetscInt j = 0; j < r; j++) c->Rf[j + j * r] = 1;
    for (int pass = 0; pass < 2 && *ok; pass++) {
      PetscReal one = 1, zero = 0;
      PetscCall(Gram(c, r, Yv, Yv, c->G));
      LAPACKpotrf_("U", &n, c->G, &n, &info);
      if (info) {
        *ok = PETSC_FALSE;
        break;
      }
      for (PetscInt j = 0; j < r; j++)
        for (PetscInt i = j + 1; i < r; i++) c->G[i + j * r] = 0;
      if (c->nloc) {
        PetscCall(PetscBLASIntCast(c->nloc, &m));
        BLAStrsm_("R", "U", "N", "N", &m, &n, &one, c->G, &n, Yv, &m);
      }
      PetscCall(Gemm("N", "N", r, r, r, 1.0, c->G, r, c->Rf, r, zero, c->A, r));
      PetscCall(PetscArraycpy(c->Rf, c->A, r * r));
    }
  }
  for (PetscInt j = 0; j < r && *ok; j++) {
    dmax = PetscMax(dmax, PetscAbsReal(c->Rf[j + j * r]));
    dmin = PetscMin(dmin, PetscAbsReal(c->Rf[j + j * r]));
  }
  if (*ok && !(dmin > 1e-13 * dmax)) *ok = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One subspace step of IDC in its stable form.  In: X (basis, nloc x r) and
 * Y = Q X.  Since K0 Y = M X, Y^T K0 Y = Y^T M X needs no product with K0;
 * with Y = Z Rf (Orth): K_Z = Rf^{-T} (Y^T M X) Rf^{-1}, M_Z = Z^T M Z, the
 * Ritz pencil of span(Y) in an orthonormal basis (into B, C).  Out: X = Z.
 * Uses W. */
static PetscErrorCode SubspaceStep(DRCondense c, PetscInt r, PetscBool *ok)
{
  PetscBLASInt n;
  PetscReal    one = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(r, &n));
  PetscCall(OpApply(c, c->M, c->Md, r, c->X, c->W));
  PetscCall(Gram(c, r, c->Y, c->W, c->B)); /* Y^T M X = Y^T K0 Y */
  PetscCall(Orth(c, r, c->Y, ok));
  if (!*ok) PetscFunctionReturn(PETSC_SUCCESS);
  BLAStrsm_("L", "U", "T", "N", &n, &n, &one, c->Rf, &n, c->B, &n);
  BLAStrsm_("R", "U", "N", "N", &n, &n, &one, c->Rf, &n, c->B, &n);
  PetscCall(OpApply(c, c->M, c->Md, r, c->Y, c->W));
  PetscCall(Gram(c, r, c->Y, c->W, c->C));
  for (PetscInt j = 0; j < r; j++)
    for (PetscInt i = 0; i < j; i++) {
      PetscReal k = 0.5 * (c->B[i + j * r] + c->B[j + i * r]), m = 0.5 * (c->C[i + j * r] + c->C[j + i * r]);
      c->B[i + j * r] = c->B[j + i * r] = k;
      c->C[i + j * r] = c->C[j + i * r] = m;
    }
  {
    PetscReal *t = c->X;
    c->X         = c->Y;
    c->Y         = t;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LAPACK dsygv (Cholesky of M): kept instead of DRDenseEigen, which moved
 * the GA front's dt_critical by up to 7e-12 relative (bicycle_frame_ga). */
PetscErrorCode DRCondenseEigenvalues(PetscInt r, const PetscReal *K, const PetscReal *M, PetscReal *lam, DRCondenseStatus *status)
{
  PetscBLASInt n, info;
  PetscReal   *C;
  PetscBool    ok;

  PetscFunctionBeginUser;
  *status = DR_CONDENSE_OK;
  if (r == 0) PetscFunctionReturn(PETSC_SUCCESS);
  /* M first (a Cholesky factorization, as dsygv did), so "mass not positive
   * definite" keeps its own status; then the one dense eigensolver */
  PetscCall(PetscBLASIntCast(r, &n));
  PetscCall(PetscMalloc1(r * r, &C));
  PetscCall(PetscArraycpy(C, M, r * r));
  LAPACKpotrf_("U", &n, C, &n, &info);
  PetscCall(PetscFree(C));
  if (info != 0) {
    *status = DR_CONDENSE_MASS_NOT_PD;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRDenseEigenvalues(r, K, M, lam, &ok));
  if (!ok) *status = DR_CONDENSE_STIFFNESS_NOT_PD;
  else {
    for (PetscInt i = 0; i < r; i++)
      if (!(lam[i] > 0) || !PetscIsNormalReal(lam[i])) *status = DR_CONDENSE_STIFFNESS_NOT_PD;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Relative change of the tracked frequencies between two eigenvalue sets. */
static PetscReal FreqChange(PetscInt nt, const PetscReal *lam, const PetscReal *prev)
{
  PetscReal d = 0;
  for (PetscInt k = 0; k < nt; k++) d = PetscMax(d, PetscAbsReal(PetscSqrtReal(lam[k]) - PetscSqrtReal(prev[k])) / PetscSqrtReal(lam[k]));
  return d;
}

/* IDC (Qu-Fu) on an orthonormal subspace basis; see condense.h. */
static PetscErrorCode DRCondenseReduce_IDC(DRCondense c, PetscInt r, const PetscInt masters[], DRCondenseInfo *info)
{
  PetscBool ok;
  PetscInt  nt = c->ntrack > 0 ? PetscMin(c->ntrack, r) : r;

  PetscFunctionBeginUser;
  /* R0 = Q_sm Q_mm^{-1}: the subspace span(Q E_m); then T <- Q T.  The
   * iteration runs on an orthonormal basis of the same subspaces (the
   * printed master-row normalization T = Y Y_mm^{-1} loses the low modes
   * to round-off once Q^k has compressed them: METHODS.md 4) and returns
   * to master coordinates T = Z Z_mm^{-1} at the end. */
  PetscCall(UnitBlock(c, r, masters, c->X));
  if (c->dense)
    for (PetscInt j = 0; j < r; j++) PetscCall(PetscArraycpy(c->Y + j * c->n, c->Qd + masters[j] * c->n, c->n));
  else PetscCall(OpApplyQ(c, r, c->X, c->Y));
  PetscCall(SubspaceStep(c, r, &ok));
  if (!ok) {
    info->status = DR_CONDENSE_SINGULAR_MASTERS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRCondenseEigenvalues(r, c->B, c->C, c->lam, &info->status));
  info->converged = (PetscBool)(c->outer == 0);
  for (PetscInt o = 1; o <= c->outer && info->status == DR_CONDENSE_OK; o++) {
    PetscCall(PetscLogEventBegin(DRCOND_IDCIter, 0, 0, 0, 0));
    PetscCall(PetscArraycpy(c->lamprev, c->lam, r));
    for (PetscInt k = 0; k < c->inner && ok; k++) {
      PetscCall(OpApplyQ(c, r, c->X, c->Y));
      PetscCall(SubspaceStep(c, r, &ok));
    }
    if (ok) PetscCall(DRCondenseEigenvalues(r, c->B, c->C, c->lam, &info->status));
    PetscCall(PetscLogEventEnd(DRCOND_IDCIter, 0, 0, 0, 0));
    if (!ok) {
      info->status = DR_CONDENSE_SINGULAR_MASTERS;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    info->outer = o;
    if (info->status != DR_CONDENSE_OK) break;
    info->change = FreqChange(nt, c->lam, c->lamprev);
    if (info->change <= c->tol) {
      info->converged = PETSC_TRUE;
      break;
    }
  }
  if (info->status != DR_CONDENSE_OK) PetscFunctionReturn(PETSC_SUCCESS);
  /* master coordinates: T = Z A, A = Z_mm^{-1}; K_R = A^T K_Z A, M_R = A^T M_Z A */
  PetscCall(Normalize(c, r, masters, c->X, c->T, &ok));
  if (!ok) {
    info->status = DR_CONDENSE_SINGULAR_MASTERS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(Gemm("N", "N", r, r, r, 1.0, c->B, r, c->A, r, 0.0, c->G, r));
  PetscCall(Gemm("T", "N", r, r, r, 1.0, c->A, r, c->G, r, 0.0, c->B, r));
  PetscCall(Gemm("N", "N", r, r, r, 1.0, c->C, r, c->A, r, 0.0, c->G, r));
  PetscCall(Gemm("T", "N", r, r, r, 1.0, c->A, r, c->G, r, 0.0, c->C, r));
  for (PetscInt j = 0; j < r; j++)
    for (PetscInt i = 0; i < j; i++) {
      PetscReal k = 0.5 * (c->B[i + j * r] + c->B[j + i * r]), m = 0.5 * (c->C[i + j * r] + c->C[j + i * r]);
      c->B[i + j * r] = c->B[j + i * r] = k;
      c->C[i + j * r] = c->C[j + i * r] = m;
    }
  c->formed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Guyan (irs = PETSC_FALSE) or IRS from the flexibility of the full model. */
static PetscErrorCode CondenseStatic(DRCondense c, PetscInt r, const PetscInt masters[], PetscBool irs, DRCondenseInfo *info)
{
  PetscBool ok;

  PetscFunctionBeginUser;
  /* Guyan: X = K0^{-1} E_m, T_G = X X_mm^{-1} */
  PetscCall(UnitBlock(c, r, masters, c->Y));
  if (c->dense)
    for (PetscInt j = 0; j < r; j++) PetscCall(PetscArraycpy(c->X + j * c->n, c->Fd + masters[j] * c->n, c->n));
  else PetscCall(OpSolve(c, r, c->Y, c->X));
  PetscCall(Normalize(c, r, masters, c->X, c->T, &ok));
  if (!ok) {
    info->status = DR_CONDENSE_SINGULAR_MASTERS;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (irs) {
    /* T = T_G + (Q T_G - T_G (Q T_G)_mm) M_G^{-1} K_G */
    PetscBLASInt n, nrhs, pinfo;
    PetscCall(Project(c, r, c->T, c->B, c->C)); /* B = K_G, C = M_G */
    PetscCall(OpApplyQ(c, r, c->T, c->Y));       /* Y = Q T_G */
    PetscCall(MasterRows(c, r, masters, c->Y, c->A));
    PetscCall(Gemm("N", "N", c->nloc, r, r, -1.0, c->T, c->nloc, c->A, r, 1.0, c->Y, c->nloc));
    PetscCall(PetscBLASIntCast(r, &n));
    nrhs = n;
    LAPACKpotrf_("L", &n, c->C, &n, &pinfo);
    if (pinfo != 0) {
      info->status = DR_CONDENSE_MASS_NOT_PD;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    LAPACKpotrs_("L", &n, &nrhs, c->C, &n, c->B, &n, &pinfo); /* B = M_G^{-1} K_G */
    PetscCall(Gemm("N", "N", c->nloc, r, r, 1.0, c->Y, c->nloc, c->B, r, 1.0, c->T, c->nloc));
  }
  PetscCall(Project(c, r, c->T, c->B, c->C));
  PetscCall(DRCondenseEigenvalues(r, c->B, c->C, c->lam, &info->status));
  c->formed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRCondenseReduce_Guyan(DRCondense c, PetscInt r, const PetscInt masters[], DRCondenseInfo *info)
{
  PetscFunctionBeginUser;
  PetscCall(CondenseStatic(c, r, masters, PETSC_FALSE, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRCondenseReduce_IRS(DRCondense c, PetscInt r, const PetscInt masters[], DRCondenseInfo *info)
{
  PetscFunctionBeginUser;
  PetscCall(CondenseStatic(c, r, masters, PETSC_TRUE, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DRCondenseRegisterAllCalled) PetscFunctionReturn(PETSC_SUCCESS);
  DRCondenseRegisterAllCalled = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(DRCondenseFinalizeRegistry));
  PetscCall(DRCondenseRegister(DRCONDENSE_GUYAN, DRCondenseReduce_Guyan));
  PetscCall(DRCondenseRegister(DRCONDENSE_IRS, DRCondenseReduce_IRS));
  PetscCall(DRCondenseRegister(DRCONDENSE_IDC, DRCondenseReduce_IDC));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseReduce(DRCondense c, PetscInt r, const PetscInt masters[], PetscReal *KR, PetscReal *MR, PetscReal *lam, DRCondenseInfo *info)
{
  PetscFunctionBeginUser;
  PetscCheck(c->setup, c->comm, PETSC_ERR_ORDER, "call DRCondenseSetUp first");
  PetscCheck(r >= 1 && r <= c->n, c->comm, PETSC_ERR_ARG_OUTOFRANGE, "condensation onto %" PetscInt_FMT " masters of %" PetscInt_FMT " DOFs", r, c->n);
  PetscCall(PetscLogEventBegin(DRCOND_Reduce, 0, 0, 0, 0));
  PetscCall(EnsureWork(c, r));
  PetscCall(PetscMemzero(info, sizeof(*info)));
  c->rlast = r;
  c->formed = PETSC_FALSE;
  PetscCall((*c->reduce)(c, r, masters, info));
  PetscCall(PetscLogEventEnd(DRCOND_Reduce, 0, 0, 0, 0));
  if (!c->formed) PetscFunctionReturn(PETSC_SUCCESS); /* infeasible set: status says why */
  if (KR) PetscCall(PetscArraycpy(KR, c->B, r * r));
  if (MR) PetscCall(PetscArraycpy(MR, c->C, r * r));
  if (lam) PetscCall(PetscArraycpy(lam, c->lam, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCondenseGetBasis(DRCondense c, PetscInt *nloc, PetscInt *r, const PetscReal **T)
{
  PetscFunctionBeginUser;
  *nloc = c->nloc;
  *r    = c->rlast;
  *T    = c->T;
  PetscFunctionReturn(PETSC_SUCCESS);
}
