/* A few modes of a large dense pencil by block Lanczos (DRDenseEigen's path
 * for n >= -dr_dense_lanczos_min, default DR_DENSE_LANCZOS_MIN, where its
 * operation count is below LAPACK's; see eigen.h).
 *
 * Why: the LAPACK path (dense_eigen.c: dpotrf, dsygst, dsyevr) costs about
 * (1/3 + 1 + 4/3) n^3 whatever the count, and the tridiagonal reduction
 * in dsyevr is half matrix-vector work.  The root's interface pencil of a
 * substructured model is such a problem with few wanted modes: the 1M-DOF
 * plate in 8 subdomains has a separator of 12000 DOFs, whose lowest 657 CC
 * modes took 265 s (bench/README.md "CMS at 1M DOF: substructured, the root's CC problem by block Lanczos"), the 200k plate's 5400 DOFs 25 s
 * (2o).  This path costs
 *   - the Cholesky factor of K - sigma M (n^3 / 3, in place, BLAS 3);
 *   - with a value range (nwant = 0): the count below lmax by the inertia of
 *     K - lmax M (Sylvester; dsytrf, n^3 / 3), as the sparse solvers count
 *     by MUMPS's inertia;
 *   - per Krylov column 4 n^2 (the two triangular solves, one product with
 *     M), about 3 columns per wanted mode w (block.c's basis): 12 w n^2;
 *   - block.c's Gram-Schmidt (4 n p^2 for a basis of p = 3 w columns) and
 *     its Rayleigh-Ritz steps (dsyev on the p x p projection, about 8 per
 *     basis fill, 9 p^3 each): a cost independent of n.
 * LanczosPays compares that with LAPACK's (8/3) n^3.  Measured (bench/README
 * 2r): n = 12000, 657 modes: 265 s by LAPACK, 115 s by this path (predicted
 * 2.45e12 against 4.6e12); n = 5400, 670 modes: 23-28 s by LAPACK, 31-33 s
 * by this path (predicted 9.6e11 against 4.2e11: LAPACK, as it now goes).
 * With a value range the count is paid before the choice (n^3 / 3: an
 * eighth of LAPACK's work when it declines).
 *
 * The method is block.c's (block shift-and-invert Lanczos with thick
 * restarts, the same shift as the LAPACK path); its tolerance
 * DR_DENSE_LANCZOS_TOL on the relative residual of the inverted operator
 * gives eigenvalues to about its square and vectors to about itself.  The
 * vectors are M-orthonormal (block.c's basis) and signed by DRModeSign, as
 * the LAPACK path's. */
#include <dynred/eigen.h>
#include <dynred/modal.h> /* the DRModal type of modalimpl.h */
#include <petscblaslapack.h>
#include "modalimpl.h"
#include "denseimpl.h"

#define DR_DENSE_LANCZOS_MIN   3000  /* n below this: LAPACK (its n^3 is seconds) */
#define DR_DENSE_LANCZOS_TOL   1e-10 /* eigenvalues to ~1e-20 relative, vectors to ~1e-10 */
#define DR_DENSE_LANCZOS_BLOCK 32    /* right-hand sides per triangular solve (BLAS 3) */

/* The operation counts of the header: the block path (after the count)
 * below LAPACK's */
static PetscReal LanczosOps(PetscInt n, PetscInt w)
{
  PetscReal N = (PetscReal)n, p = (PetscReal)(PetscMax(3 * w, w + 2 * DR_DENSE_LANCZOS_BLOCK) + DR_DENSE_LANCZOS_BLOCK);
  return N * N * N / 3 + 12 * (PetscReal)w * N * N + 4 * N * p * p + 8 * 9 * p * p * p;
}

static PetscBool LanczosPays(PetscInt n, PetscInt w)
{
  PetscReal N = (PetscReal)n;
  return (PetscBool)(3 * w < n && LanczosOps(n, w) < 8.0 / 3 * N * N * N);
}

PetscReal DRDenseEigenOps(PetscInt n, PetscInt nwant)
{
  PetscReal N = (PetscReal)n, lapack = 8.0 / 3 * N * N * N;

  if (n < DR_DENSE_LANCZOS_MIN || nwant <= 0 || !LanczosPays(n, nwant)) return lapack;
  return N * N * N / 3 + LanczosOps(n, nwant); /* the count by inertia first (value range) */
}

/* The number of eigenvalues of (K, M) below lmax: the negative inertia of
 * K - lmax M from its Bunch-Kaufman factorization (LAPACK dsytrf, lower). */
static PetscErrorCode CountBelow(PetscInt n, PetscReal *K, const PetscReal *M, PetscReal lmax, PetscErrorCode (*reload)(void *, PetscReal *), void *ctx, PetscInt *count)
{
  PetscBLASInt nn, info, lwork = -1, *ipiv;
  PetscReal   *A, wq, *work;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &nn));
  PetscCall(PetscMalloc1(n, &ipiv));
  if (reload) A = K; /* K's storage is the work (made again below) */
  else PetscCall(PetscMalloc1((size_t)n * n, &A));
  for (size_t i = 0; i < (size_t)n * n; i++) A[i] = K[i] - lmax * M[i];
  LAPACKsytrf_("L", &nn, A, &nn, ipiv, &wq, &lwork, &info);
  lwork = (PetscBLASInt)wq + 1;
  PetscCall(PetscMalloc1(lwork, &work));
  LAPACKsytrf_("L", &nn, A, &nn, ipiv, work, &lwork, &info);
  PetscCall(PetscFree(work));
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dsytrf: argument %d invalid", (int)-info);
  /* info > 0: an exactly singular D (an eigenvalue at lmax): the count of
   * the negative blocks still holds */
  *count = 0;
  for (PetscInt k = 0; k < n;) {
    if (ipiv[k] > 0) { /* a 1 x 1 block */
      if (A[k + (size_t)k * n] < 0) (*count)++;
      k++;
    } else { /* a 2 x 2 block in rows k, k + 1 */
      PetscReal a = A[k + (size_t)k * n], b = A[k + 1 + (size_t)k * n], c = A[k + 1 + (size_t)(k + 1) * n];
      if (a * c - b * b < 0) (*count)++;
      else if (a + c < 0) *count += 2;
      k += 2;
    }
  }
  PetscCall(PetscFree(ipiv));
  if (reload) PetscCall((*reload)(ctx, K));
  else PetscCall(PetscFree(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigenLanczos(PetscInt n, PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscErrorCode (*reload)(void *, PetscReal *), void *ctx, PetscBool *done)
{
  PetscInt       nmin = DR_DENSE_LANCZOS_MIN, nconv = 0;
  PetscReal      sigma, *l = NULL;
  Mat            Km, Mm, F;
  Vec           *v = NULL;
  struct _p_DRModal m;
  MatFactorInfo  info;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  *done = PETSC_FALSE;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_dense_lanczos_min", &nmin, NULL));
  if (!X || nmin <= 0 || n < nmin || n < 4 * DR_DENSE_LANCZOS_BLOCK) PetscFunctionReturn(PETSC_SUCCESS);
  if (nwant > 0 && !LanczosPays(n, nwant)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DREigenInitializePackage());
  PetscCall(PetscLogEventBegin(DR_EIGEN_Dense, 0, 0, 0, 0));
  sigma = DRDenseShiftOf(n, K, M);
  if (nwant <= 0) { /* the eigenvalues up to lmax, counted */
    PetscCall(CountBelow(n, K, M, lmax, reload, ctx, &nwant));
    if (nwant > 0 && !LanczosPays(n, nwant)) { /* too many for the block path: LAPACK */
      PetscCall(PetscInfo(NULL, "dense pencil of %" PetscInt_FMT ": %" PetscInt_FMT " eigenvalues below lmax, LAPACK\n", n, nwant));
      PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (nwant == 0) {
    *nfound = 0;
    *done   = PETSC_TRUE;
    PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* F = chol(K - sigma M) in place (with reload: in K's storage, K made
   * again afterwards); not definite: LAPACK's path reports it */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, reload ? K : NULL, &F));
  {
    PetscScalar *f;
    PetscCall(MatDenseGetArrayWrite(F, &f));
    for (size_t i = 0; i < (size_t)n * n; i++) f[i] = K[i] - sigma * M[i];
    PetscCall(MatDenseRestoreArrayWrite(F, &f));
  }
  PetscCall(MatSetOption(F, MAT_SPD, PETSC_TRUE)); /* dpotrf, not dsytrf */
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatCholeskyFactor(F, NULL, &info);
  PetscCall(PetscPopErrorHandler());
  if (ierr) {
    PetscCall(MatDestroy(&F));
    if (reload) PetscCall((*reload)(ctx, K));
    PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the operators as Mats over the caller's arrays (read only; block.c
   * takes only the sizes of K, which with reload holds the factor now) */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, (PetscScalar *)K, &Km));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, (PetscScalar *)M, &Mm));
  /* block.c's settings filled in directly (the fields block.c reads), not
   * through DRModalCreate: the sparse solver (modal.c) calls DRDenseEigen,
   * so this file stays below it */
  PetscCall(PetscMemzero(&m, sizeof(m)));
  m.comm        = PETSC_COMM_SELF;
  m.K           = Km;
  m.M           = Mm;
  m.tol         = DR_DENSE_LANCZOS_TOL;
  m.block       = DR_DENSE_LANCZOS_BLOCK;
  m.block_basis = 3; /* DRModal's default (block.c's measured choice) */
  m.sigma       = sigma;
  m.uncounted   = PETSC_TRUE; /* not a component's solves (DREigenBlockColumns) */
  PetscCall(PetscStrncpy(m.prefix, "dense pencil: ", sizeof(m.prefix))); /* progress: "dense pencil: eigensolve (block 32): ..." */
  PetscCall(PetscStrncpy(m.what, "dense pencil", sizeof(m.what)));
  PetscCall(DRModalBlockSolve(&m, F, nwant, &nconv, &l, &v));
  for (PetscInt k = 0; k < nconv; k++) {
    const PetscScalar *a;
    PetscReal         *x = X + (size_t)k * n;
    lam[k]               = l[k];
    PetscCall(VecGetArrayRead(v[k], &a));
    PetscCall(PetscArraycpy(x, a, n));
    PetscCall(VecRestoreArrayRead(v[k], &a));
    if (DRModeSign(n, x) < 0)
      for (PetscInt i = 0; i < n; i++) x[i] = -x[i];
  }
  *nfound = nconv;
  *done   = PETSC_TRUE;
  PetscCall(PetscInfo(NULL, "dense pencil of %" PetscInt_FMT ": the lowest %" PetscInt_FMT " modes by block Lanczos\n", n, nconv));
  PetscCall(VecDestroyVecs(nconv + 1, &v));
  PetscCall(PetscFree(l));
  PetscCall(MatDestroy(&Km));
  PetscCall(MatDestroy(&Mm));
  PetscCall(MatDestroy(&F));
  if (reload) PetscCall((*reload)(ctx, K));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
