/* Dense generalized symmetric eigenproblem on one process and the sign rule
 * of mode shapes (see eigen.h). */
#include <dynred/eigen.h>
#include <petscblaslapack.h>

/* The one dense path: dsygvx on the shifted, inverted pencil
 * M x = mu (K - sigma M) x.  Eigenvectors only when X is given (jobz 'N'
 * otherwise: eigenvalue-only callers such as the GA fitness pay no O(n^3)
 * back-transformation).  Returns LAPACK's info instead of raising, so
 * DRDenseEigen and DRDenseEigenvalues can report failures their own way. */
static PetscErrorCode DenseEigenCore(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscBLASInt *infoout)
{
  PetscBLASInt nn, itype = 1, il = 1, iu = 1, m = 0, lwork, info, *iwork, *ifail;
  PetscReal    trk = 0, trm = 0, sigma, vl = 0, vu = 0, abstol = 0, *A, *B, *w, *Z, *work, wq;
  char         range;
  const char  *jobz = X ? "V" : "N";

  PetscFunctionBeginUser;
  *nfound  = 0;
  *infoout = 0;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DREigenInitializePackage());
  PetscCall(PetscLogEventBegin(DR_EIGEN_Dense, 0, 0, 0, 0));
  PetscCall(PetscBLASIntCast(n, &nn));
  for (PetscInt i = 0; i < n; i++) {
    trk += K[i + i * n];
    trm += M[i + i * n];
  }
  sigma = -1e-8 * PetscAbsReal(trk / trm);
  if (sigma == 0 || !PetscIsNormalReal(sigma)) sigma = -1e-8;
  PetscCall(PetscMalloc4(n * n, &A, n * n, &B, n, &w, X ? n * n : 1, &Z));
  PetscCall(PetscMalloc2(5 * n, &iwork, n, &ifail));
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
    vl    = 1.0 / (lmax - sigma);
    vu    = 2.0 / PetscAbsReal(sigma); /* above 1/(lambda_min - sigma) for lambda >= 0 */
  }
  lwork = -1;
  LAPACKsygvx_(&itype, jobz, &range, "U", &nn, A, &nn, B, &nn, &vl, &vu, &il, &iu, &abstol, &m, w, Z, &nn, &wq, &lwork, iwork, ifail, &info);
  lwork = (PetscBLASInt)wq;
  PetscCall(PetscMalloc1(lwork, &work));
  LAPACKsygvx_(&itype, jobz, &range, "U", &nn, A, &nn, B, &nn, &vl, &vu, &il, &iu, &abstol, &m, w, Z, &nn, work, &lwork, iwork, ifail, &info);
  PetscCall(PetscFree(work));
  *infoout = info;
  if (info == 0) {
    /* mu ascending -> lambda descending: reverse, and M-normalize */
    for (PetscInt k = 0; k < m; k++) {
      PetscInt src = m - 1 - k;
      lam[k]       = sigma + 1.0 / w[src];
      if (X) {
        PetscReal *z = Z + src * n, xmx = 0, sg;
        for (PetscInt j = 0; j < n; j++) {
          PetscReal s = 0;
          for (PetscInt i = 0; i < n; i++) s += M[i + j * n] * z[i];
          xmx += z[j] * s;
        }
        sg = DRModeSign(n, z);
        for (PetscInt i = 0; i < n; i++) X[i + k * n] = sg * z[i] / PetscSqrtReal(xmx);
      }
    }
    *nfound = m;
  }
  PetscCall(PetscFree4(A, B, w, Z));
  PetscCall(PetscFree2(iwork, ifail));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigenMinor(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscInt *minor)
{
  PetscBLASInt info, nn = (PetscBLASInt)n;

  PetscFunctionBeginUser;
  PetscCall(DenseEigenCore(n, K, M, nwant, lmax, nfound, lam, X, &info));
  /* dsygvx: info = n + i, the leading minor of order i of its B = K - sigma M is not positive definite */
  *minor = info > nn ? (PetscInt)(info - nn) : 0;
  PetscCheck(info == 0 || info > nn, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dsygvx: %d eigenvectors did not converge", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRDenseEigen(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X)
{
  PetscInt minor;

  PetscFunctionBeginUser;
  PetscCall(DRDenseEigenMinor(n, K, M, nwant, lmax, nfound, lam, X, &minor));
  PetscCheck(!minor, PETSC_COMM_SELF, DR_ERR_INPUT, "reduced stiffness matrix is not positive semidefinite (LAPACK dsygvx: K - sigma M fails at its leading minor of order %" PetscInt_FMT "): expected a semidefinite K", minor);
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

/* Ties within a relative 1e-8: DRModal has used this rule since the first
 * wave (it keeps the sign of modes with two equal peaks, e.g. symmetric
 * structures, identical on every rank count). */
#define DR_SIGN_TIE 1e-8

PetscReal DRModeSign(PetscInt n, const PetscReal *x)
{
  PetscInt imax = 0;
  for (PetscInt i = 1; i < n; i++)
    if (PetscAbsReal(x[i]) > PetscAbsReal(x[imax]) * (1 + DR_SIGN_TIE)) imax = i;
  return n > 0 && x[imax] < 0 ? -1.0 : 1.0;
}

void DRModeSignFix(PetscInt n, PetscInt ncols, PetscReal *X, PetscInt ld)
{
  for (PetscInt k = 0; k < ncols; k++) {
    PetscReal *x = X + k * ld;
    if (DRModeSign(n, x) < 0)
      for (PetscInt i = 0; i < n; i++) x[i] = -x[i];
  }
}

PetscErrorCode DRVecModeSignFix(Vec x)
{
  PetscInt  imax, imin;
  PetscReal vmax, vmin;

  PetscFunctionBeginUser;
  PetscCall(VecMax(x, &imax, &vmax));
  PetscCall(VecMin(x, &imin, &vmin));
  if (-vmin > vmax * (1 + DR_SIGN_TIE) || (PetscAbsReal(-vmin - vmax) <= DR_SIGN_TIE * vmax && imin < imax)) PetscCall(VecScale(x, -1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
