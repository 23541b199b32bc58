/* A few modes of a large dense pencil by block Lanczos (DRDenseEigen's path
 * for n >= -dr_dense_lanczos_min, default DR_DENSE_LANCZOS_MIN, when at most
 * n / DR_DENSE_LANCZOS_SHARE modes are wanted; see eigen.h).
 *
 * Why: the LAPACK path (dense_eigen.c: dpotrf, dsygst, dsyevr) costs about
 * (1/3 + 1 + 4/3) n^3 whatever the count, and the tridiagonal reduction
 * in dsyevr is half matrix-vector work.  The root's interface pencil of a
 * substructured model is such a problem with few wanted modes: the 1M-DOF
 * plate in 8 subdomains has a separator of 12000 DOFs, whose lowest 250-630
 * CC modes took 265 s (bench/README 2r), the 200k plate's 5400 DOFs 25 s
 * (2o).  This path costs
 *   - the Cholesky factor of K - sigma M (n^3 / 3, in place, BLAS 3);
 *   - with a value range (nwant = 0): the count below lmax by the inertia of
 *     K - lmax M (Sylvester; dsytrf, n^3 / 3), as the sparse solvers count
 *     by MUMPS's inertia;
 *   - per Krylov column 4 n^2 (the two triangular solves, one product with
 *     M), about 3 columns per wanted mode (block.c's basis), and the
 *     Gram-Schmidt and Rayleigh-Ritz work of block.c.
 * With w wanted modes that is about (2/3 + 12 w / n) n^3 against (8/3) n^3:
 * the share limit n / 6 keeps the block path where it wins with margin.
 *
 * The method is block.c's (block shift-and-invert Lanczos with thick
 * restarts, the same shift as the LAPACK path); its tolerance
 * DR_DENSE_LANCZOS_TOL on the relative residual of the inverted operator
 * gives eigenvalues to about its square and vectors to about itself.  The
 * vectors are M-orthonormal (block.c's basis) and signed by DRModeSign, as
 * the LAPACK path's. */
#include <dynred/eigen.h>
#include <dynred/modal.h>
#include <petscblaslapack.h>
#include "modalimpl.h"
#include "denseimpl.h"

#define DR_DENSE_LANCZOS_MIN   3000  /* n below this: LAPACK (its n^3 is seconds) */
#define DR_DENSE_LANCZOS_SHARE 6     /* at most n / 6 wanted modes (the cost balance above) */
#define DR_DENSE_LANCZOS_TOL   1e-10 /* eigenvalues to ~1e-20 relative, vectors to ~1e-10 */
#define DR_DENSE_LANCZOS_BLOCK 32    /* right-hand sides per triangular solve (BLAS 3) */

/* The number of eigenvalues of (K, M) below lmax: the negative inertia of
 * K - lmax M from its Bunch-Kaufman factorization (LAPACK dsytrf, lower). */
static PetscErrorCode CountBelow(PetscInt n, const PetscReal *K, const PetscReal *M, PetscReal lmax, PetscInt *count)
{
  PetscBLASInt nn, info, lwork = -1, *ipiv;
  PetscReal   *A, wq, *work;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &nn));
  PetscCall(PetscMalloc2((size_t)n * n, &A, n, &ipiv));
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
  PetscCall(PetscFree2(A, ipiv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigenLanczos(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscBool *done)
{
  PetscInt       nmin = DR_DENSE_LANCZOS_MIN, nconv = 0;
  PetscReal      trk = 0, trm = 0, sigma, *l = NULL;
  Mat            Km, Mm, F;
  Vec           *v = NULL;
  DRModal        m;
  MatFactorInfo  info;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  *done = PETSC_FALSE;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_dense_lanczos_min", &nmin, NULL));
  if (!X || nmin <= 0 || n < nmin || n < 4 * DR_DENSE_LANCZOS_BLOCK) PetscFunctionReturn(PETSC_SUCCESS);
  if (nwant > n / DR_DENSE_LANCZOS_SHARE) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DREigenInitializePackage());
  PetscCall(PetscLogEventBegin(DR_EIGEN_Dense, 0, 0, 0, 0));
  for (PetscInt i = 0; i < n; i++) {
    trk += K[i + (size_t)i * n];
    trm += M[i + (size_t)i * n];
  }
  sigma = DRDenseShift(trk, trm);
  if (nwant <= 0) { /* the eigenvalues up to lmax, counted */
    PetscCall(CountBelow(n, K, M, lmax, &nwant));
    if (nwant > n / DR_DENSE_LANCZOS_SHARE) { /* most of the spectrum: LAPACK */
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
  /* F = chol(K - sigma M) in place; not definite: LAPACK's path reports it */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, NULL, &F));
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
    PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the operators as Mats over the caller's arrays (read only) */
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, (PetscScalar *)K, &Km));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, n, (PetscScalar *)M, &Mm));
  PetscCall(DRModalCreate(PETSC_COMM_SELF, &m));
  PetscCall(DRModalSetOptionsPrefix(m, "dense pencil: ")); /* progress: "dense pencil: eigensolve (block 32): ..." */
  PetscCall(DRModalSetOperators(m, Km, Mm, "dense pencil"));
  PetscCall(DRModalSetTolerance(m, DR_DENSE_LANCZOS_TOL));
  PetscCall(DRModalSetBlockSize(m, DR_DENSE_LANCZOS_BLOCK));
  m->sigma    = sigma;
  m->uncounted = PETSC_TRUE; /* not a component's solves (DREigenBlockColumns) */
  PetscCall(DRModalBlockSolve(m, F, nwant, &nconv, &l, &v));
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
  PetscCall(DRModalDestroy(&m));
  PetscCall(MatDestroy(&Km));
  PetscCall(MatDestroy(&Mm));
  PetscCall(MatDestroy(&F));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
