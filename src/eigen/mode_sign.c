/* The sign rule of mode shapes (see eigen.h): the entry of largest
 * magnitude positive.  Shared by the dense solvers (dense_eigen.c,
 * dense_lanczos.c, dense_eigen_par.c) and the sparse one (modal.c). */
#include <dynred/eigen.h>

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
