/* dynred ss: modes of a reduced pencil (K, M) by the eigen layer's dense
 * solver, and the Matrix Market export of A..D. */
#include "ssimpl.h"
#include <dynred/eigen.h>
#include <petscblaslapack.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

PetscErrorCode DRSSModesFromKM(PetscInt n, const PetscReal K[], const PetscReal M[], PetscReal omega[], PetscReal Phi[], const char *what)
{
  PetscBLASInt nn, info;
  PetscReal   *L, *lam, *X, lmax = 0;
  PetscInt     nf;

  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(PetscLogEventBegin(DR_SS_ModalBasis, 0, 0, 0, 0));
  PetscCall(PetscBLASIntCast(n, &nn));
  for (PetscInt i = 0; i < n * n; i++) PetscCheck(isfinite(K[i]) && isfinite(M[i]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: K or M has a non-finite entry at (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, i / n + 1, i % n + 1);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < i; j++) {
      PetscReal sk = PetscAbsReal(K[i * n + i]) + PetscAbsReal(K[j * n + j]), sm = PetscAbsReal(M[i * n + i]) + PetscAbsReal(M[j * n + j]);
      PetscCheck(PetscAbsReal(K[i * n + j] - K[j * n + i]) <= 1e-8 * sk, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: K is not symmetric at (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, i + 1, j + 1);
      PetscCheck(PetscAbsReal(M[i * n + j] - M[j * n + i]) <= 1e-8 * sm, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is not symmetric at (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, i + 1, j + 1);
    }
  PetscCall(PetscMalloc3(n * n, &L, n, &lam, n * n, &X));
  /* M positive definite (Cholesky), so the error names M and the source */
  PetscCall(PetscArraycpy(L, M, n * n));
  LAPACKpotrf_("U", &nn, L, &nn, &info);
  PetscCheck(info >= 0, PETSC_COMM_WORLD, PETSC_ERR_LIB, "%s: LAPACK dpotrf failed (info %d)", what, (int)info);
  PetscCheck(info == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is not positive definite (LAPACK dpotrf info %d)", what, (int)info);
  /* symmetric: the row-major arrays are their own column-major transposes */
  PetscCall(DRDenseEigen(n, K, M, n, 0, &nf, lam, X));
  PetscCheck(nf == n, PETSC_COMM_WORLD, PETSC_ERR_LIB, "%s: %" PetscInt_FMT " of %" PetscInt_FMT " eigenpairs", what, nf, n);
  for (PetscInt k = 0; k < n; k++) lmax = PetscMax(lmax, PetscAbsReal(lam[k]));
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(lam[k] >= -1e-10 * lmax, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: K is not positive semidefinite (eigenvalue %g)", what, (double)lam[k]);
    omega[k] = lam[k] > 0 ? PetscSqrtReal(lam[k]) : 0;
    /* column k of the column-major X (mass-normalized, signed by DRModeSign) */
    for (PetscInt i = 0; i < n; i++) Phi[i * n + k] = X[k * n + i];
  }
  PetscCall(PetscFree3(L, lam, X));
  PetscCall(PetscLogEventEnd(DR_SS_ModalBasis, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
