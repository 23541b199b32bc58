/* Dense generalized symmetric eigenproblem on one process by LAPACK (see
 * eigen.h; a few modes of a large pencil go to dense_lanczos.c, the sign
 * rule of mode shapes is mode_sign.c). */
#include <dynred/eigen.h>
#include <petscblaslapack.h>
#include "denseimpl.h"

void dsygst_(const PetscBLASInt *itype, const char *uplo, const PetscBLASInt *n, PetscReal *a, const PetscBLASInt *lda, const PetscReal *b, const PetscBLASInt *ldb, PetscBLASInt *info, size_t);
void dsyevr_(const char *jobz, const char *range, const char *uplo, const PetscBLASInt *n, PetscReal *a, const PetscBLASInt *lda, const PetscReal *vl, const PetscReal *vu, const PetscBLASInt *il, const PetscBLASInt *iu, const PetscReal *abstol, PetscBLASInt *m, PetscReal *w, PetscReal *z, const PetscBLASInt *ldz, PetscBLASInt *isuppz, PetscReal *work, const PetscBLASInt *lwork, PetscBLASInt *iwork, const PetscBLASInt *liwork, PetscBLASInt *info, size_t, size_t, size_t);

/* The one dense path: the shifted, inverted pencil M x = mu (K - sigma M) x
 * reduced to standard form as dsygvx does (dpotrf: K - sigma M = U^T U,
 * dsygst: C = U^-T M U^-1, x = U^-1 y), but solved by dsyevr (MRRR:
 * O(n m) for m eigenvectors) instead of dsyevx's inverse iteration (dstein
 * reorthogonalizes within clusters, O(n m^2): 10000 of 12558 modes of a
 * Craig-Bampton system were still in dstein after 10 min).  Eigenvectors
 * only when X is given (jobz 'N' otherwise: eigenvalue-only callers such as
 * the GA fitness pay no back-transformation).  Returns info as dsygvx
 * would (n + i: the leading minor of order i of K - sigma M is not positive
 * definite) instead of raising, so DRDenseEigen and DRDenseEigenvalues can
 * report failures their own way. */
static PetscErrorCode DenseEigenCore(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscBLASInt *infoout)
{
  PetscBLASInt nn, itype = 1, il = 1, iu = 1, m = 0, lwork, info, *iwork, off = 0;
  PetscReal    sigma, vl = 0, vu = 0, abstol = 0, *A, *B, *w, *Z, *work, wq;
  char         range, rng;
  const char  *jobz = X ? "V" : "N";

  PetscFunctionBeginUser;
  *nfound  = 0;
  *infoout = 0;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DREigenInitializePackage());
  PetscCall(PetscLogEventBegin(DR_EIGEN_Dense, 0, 0, 0, 0));
  PetscCall(PetscBLASIntCast(n, &nn));
  sigma = DRDenseShiftOf(n, K, M);
  PetscCall(PetscMalloc4(n * n, &A, n * n, &B, n, &w, X ? n * n : 1, &Z));
  for (PetscInt i = 0; i < n * n; i++) {
    A[i] = M[i];
    B[i] = K[i] - sigma * M[i];
  }
  if (nwant > 0) {
    range = 'I';
    PetscCall(PetscBLASIntCast(PetscMin(nwant, n), &m));
    iu = nn;
    il = nn - m + 1;
  } else {
    range = 'V';
    DRDenseRange(sigma, lmax, &vl, &vu);
  }
  /* dsyevr runs MRRR (dstemr) only for the whole spectrum and falls back to
   * dstebz + dstein for a part: vectors for a quarter of the spectrum or
   * more are cheaper taken from the whole one (the top m of mu kept) */
  rng = range;
  if (X && range == 'I' && 4 * m >= nn) {
    rng = 'A';
    off = nn - m;
  }
  LAPACKpotrf_("U", &nn, B, &nn, &info);
  if (info > 0) info += nn; /* as dsygvx reports it */
  if (info == 0) {
    PetscBLASInt liwork = -1, iwq, *isuppz;
    dsygst_(&itype, "U", &nn, A, &nn, B, &nn, &info, 1);
    PetscCall(PetscMalloc1(2 * n + 2, &isuppz));
    lwork = -1;
    dsyevr_(jobz, &rng, "U", &nn, A, &nn, &vl, &vu, &il, &iu, &abstol, &m, w, Z, &nn, isuppz, &wq, &lwork, &iwq, &liwork, &info, 1, 1, 1);
    lwork  = (PetscBLASInt)wq + 1;
    liwork = iwq + 1;
    PetscCall(PetscMalloc2(lwork, &work, liwork, &iwork));
    dsyevr_(jobz, &rng, "U", &nn, A, &nn, &vl, &vu, &il, &iu, &abstol, &m, w, Z, &nn, isuppz, work, &lwork, iwork, &liwork, &info, 1, 1, 1);
    PetscCall(PetscFree2(work, iwork));
    PetscCall(PetscFree(isuppz));
    if (info == 0 && off > 0) { /* the whole spectrum: the top m = n - off */
      m -= off;
      for (PetscInt k = 0; k < m; k++) w[k] = w[k + off];
      PetscCall(PetscArraymove(Z, Z + (size_t)off * n, (size_t)m * n));
    }
    if (info == 0 && X && m > 0) { /* x = U^-1 y */
      PetscReal one = 1;
      BLAStrsm_("L", "U", "N", "N", &nn, &m, &one, B, &nn, Z, &nn);
    }
  }
  *infoout = info;
  if (info == 0) {
    PetscReal *MZ = NULL;
    if (X && m > 0) { /* M Z for the M-normalization (one dgemm) */
      PetscReal one = 1, zero = 0;
      PetscCall(PetscMalloc1(n * m, &MZ));
      BLASgemm_("N", "N", &nn, &m, &nn, &one, M, &nn, Z, &nn, &zero, MZ, &nn);
    }
    /* mu ascending -> lambda descending: reverse, and M-normalize */
    for (PetscInt k = 0; k < m; k++) {
      PetscInt src = m - 1 - k;
      lam[k]       = sigma + 1.0 / w[src];
      if (X) {
        PetscReal *z = Z + src * n, xmx = 0, sg;
        for (PetscInt j = 0; j < n; j++) xmx += z[j] * MZ[j + src * n];
        sg = DRModeSign(n, z);
        for (PetscInt i = 0; i < n; i++) X[i + k * n] = sg * z[i] / PetscSqrtReal(xmx);
      }
    }
    *nfound = m;
    PetscCall(PetscFree(MZ));
  }
  PetscCall(PetscFree4(A, B, w, Z));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigenMinor(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscInt *minor)
{
  PetscBLASInt info, nn = (PetscBLASInt)n;

  PetscFunctionBeginUser;
  PetscCall(DenseEigenCore(n, K, M, nwant, lmax, nfound, lam, X, &info));
  /* info = n + i: dpotrf finds the leading minor of order i of K - sigma M not positive definite */
  *minor = info > nn ? (PetscInt)(info - nn) : 0;
  PetscCheck(info == 0 || info > nn, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dsyevr: internal error %d (MRRR)", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigen(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X)
{
  PetscFunctionBeginUser;
  PetscCall(DRDenseEigenWork(n, (PetscReal *)K, M, nwant, lmax, nfound, lam, X, NULL, NULL)); /* K read only without reload */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigenWork(PetscInt n, PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscErrorCode (*reload)(void *, PetscReal *), void *ctx)
{
  PetscInt  minor;
  PetscBool done;

  PetscFunctionBeginUser;
  PetscCall(DRDenseEigenLanczos(n, K, M, nwant, lmax, nfound, lam, X, reload, ctx, &done));
  if (done) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRDenseEigenMinor(n, K, M, nwant, lmax, nfound, lam, X, &minor));
  PetscCheck(!minor, PETSC_COMM_SELF, DR_ERR_INPUT, "reduced stiffness matrix is not positive semidefinite (LAPACK dpotrf: K - sigma M fails at its leading minor of order %" PetscInt_FMT "): expected a semidefinite K", minor);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigenvalues(PetscInt n, const PetscReal *K, const PetscReal *M, PetscReal *lam, PetscBool *ok)
{
  PetscBLASInt info;
  PetscInt     nfound;

  PetscFunctionBeginUser;
  PetscCall(DenseEigenCore(n, K, M, n, 0, &nfound, lam, NULL, &info));
  *ok = (PetscBool)(info == 0 && nfound == n);
  PetscFunctionReturn(PETSC_SUCCESS);
}
