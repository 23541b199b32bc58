/* The shift and the value range of the dense path, shared by the LAPACK
 * (dense_eigen.c) and the ScaLAPACK (dense_eigen_par.c) solvers so that
 * both solve the same shifted, inverted pencil M x = mu (K - sigma M) x. */
#pragma once
#include <petscsys.h>

/* sigma = -1e-8 trace(K) / trace(M) (-1e-8 when that is 0 or not normal):
 * K - sigma M is definite for a semidefinite K, and lambda = sigma + 1/mu */
static inline PetscReal DRDenseShift(PetscReal trk, PetscReal trm)
{
  PetscReal sigma = -1e-8 * PetscAbsReal(trk / trm);
  return (sigma == 0 || !PetscIsNormalReal(sigma)) ? -1e-8 : sigma;
}

/* DRDenseShift of a dense n x n pencil held whole (column-major) */
static inline PetscReal DRDenseShiftOf(PetscInt n, const PetscReal *K, const PetscReal *M)
{
  PetscReal trk = 0, trm = 0;
  for (PetscInt i = 0; i < n; i++) {
    trk += K[i + (size_t)i * n];
    trm += M[i + (size_t)i * n];
  }
  return DRDenseShift(trk, trm);
}

/* the mu interval (vl, vu] of the eigenvalues lambda <= lmax */
static inline void DRDenseRange(PetscReal sigma, PetscReal lmax, PetscReal *vl, PetscReal *vu)
{
  *vl = 1.0 / (lmax - sigma);
  *vu = 2.0 / PetscAbsReal(sigma); /* above 1/(lambda_min - sigma) for lambda >= 0 */
}
