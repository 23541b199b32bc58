/* Improved Reduced System (O'Callahan), METHODS.md 1.4:
 *   T_IRS = T_G + S M T_G M_G^{-1} K_G,   S = [0 0; 0 K_II^{-1}],
 * with T_G the Guyan basis and K_G, M_G its reduced matrices.  The interior
 * correction K_II^{-1} (M T_G)_I reuses the Guyan factorization of K_II
 * (one more block solve); boundary rows stay [I]. */
#include "fixed_interface.h"
#include <petscblaslapack.h>

static PetscErrorCode DRReductionApply_IRS(DRReduction r, DRComponent c, const PetscBool isboundary[], DRSuperelement *se)
{
  DRFixedInterface fi;
  PetscInt         nb;
  PetscReal       *Z;
  PetscMPIInt      rank;
  int              bad = 0;

  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, &fi));
  PetscCall(DRFixedInterfaceModes(&fi, r, PETSC_FALSE, se));
  PetscCall(DRFixedInterfaceConstraintModes(&fi, r));
  PetscCall(DRFixedInterfaceBuildT(&fi, se));
  PetscCall(DRSuperelementProject(c, se)); /* K_G, M_G on rank 0 */
  nb = fi.nb;
  PetscCallMPI(MPI_Comm_rank(fi.comm, &rank));
  if (fi.nI > 0 && nb > 0) {
    PetscCall(PetscLogEventBegin(DRRED_Constraint, 0, 0, 0, 0));
    /* Z = M_G^{-1} K_G on every rank of the component */
    PetscCall(PetscMalloc1(nb * nb, &Z));
    if (!rank) {
      PetscBLASInt n, info, ld;
      PetscReal   *A;
      PetscCall(PetscBLASIntCast(nb, &n));
      ld = n;
      PetscCall(PetscMalloc1(nb * nb, &A));
      PetscCall(PetscArraycpy(A, se->M, nb * nb));
      PetscCall(PetscArraycpy(Z, se->K, nb * nb));
      LAPACKpotrf_("L", &n, A, &ld, &info);
      bad = (int)info; /* raised below on every rank, not on rank 0 alone */
      if (!bad) LAPACKpotrs_("L", &n, &n, A, &ld, Z, &ld, &info);
      PetscCall(PetscFree(A));
    }
    PetscCallMPI(MPI_Bcast(&bad, 1, MPI_INT, 0, fi.comm));
    PetscCheck(!bad, fi.comm, PETSC_ERR_LIB, "IRS: Guyan mass matrix of '%s' not positive definite (LAPACK info %d)", fi.name, bad);
    PetscCallMPI(MPI_Bcast(Z, (PetscMPIInt)(nb * nb), MPIU_REAL, 0, fi.comm));
    {
      Mat                MT, W, Y;
      const PetscScalar *mt, *y;
      PetscScalar       *w, *t;
      PetscInt           ldmt, ldw, ldy, ldt, nil = 0, li;
      PetscCall(MatMatMult(fi.M, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MT));
      for (PetscInt i = fi.rs; i < fi.re; i++) nil += fi.bcol[i] < 0 ? 1 : 0;
      PetscCall(MatCreateDense(fi.comm, nil, PETSC_DECIDE, fi.nI, nb, NULL, &W));
      PetscCall(MatDenseGetArrayRead(MT, &mt));
      PetscCall(MatDenseGetLDA(MT, &ldmt));
      PetscCall(MatDenseGetArray(W, &w));
      PetscCall(MatDenseGetLDA(W, &ldw));
      li = 0;
      for (PetscInt i = fi.rs; i < fi.re; i++)
        if (fi.bcol[i] < 0) {
          for (PetscInt j = 0; j < nb; j++) w[li + j * ldw] = mt[(i - fi.rs) + j * ldmt];
          li++;
        }
      PetscCall(MatDenseRestoreArray(W, &w));
      PetscCall(MatDenseRestoreArrayRead(MT, &mt));
      PetscCall(MatAssemblyBegin(W, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(W, MAT_FINAL_ASSEMBLY));
      PetscCall(MatDuplicate(W, MAT_DO_NOT_COPY_VALUES, &Y));
      PetscCall(DRReductionBlockSolve(fi.F, W, Y)); /* K_II^{-1} (M T_G)_I */
      /* T interior rows += Y Z */
      PetscCall(MatDenseGetArrayRead(Y, &y));
      PetscCall(MatDenseGetLDA(Y, &ldy));
      PetscCall(MatDenseGetArray(se->T, &t));
      PetscCall(MatDenseGetLDA(se->T, &ldt));
      {
        PetscReal *C;
        PetscCall(PetscMalloc1(nil * nb + 1, &C));
        if (nil) {
          PetscBLASInt m, n, k, la, lb, lc;
          PetscScalar  one = 1, zero = 0;
          PetscCall(PetscBLASIntCast(nil, &m));
          PetscCall(PetscBLASIntCast(nb, &n));
          k = n;
          PetscCall(PetscBLASIntCast(ldy, &la));
          lb = n;
          lc = m;
          BLASgemm_("N", "N", &m, &n, &k, &one, y, &la, Z, &lb, &zero, C, &lc);
        }
        li = 0;
        for (PetscInt i = fi.rs; i < fi.re; i++)
          if (fi.bcol[i] < 0) {
            for (PetscInt j = 0; j < nb; j++) t[(i - fi.rs) + j * ldt] += C[li + j * nil];
            li++;
          }
        PetscCall(PetscFree(C));
      }
      PetscCall(MatDenseRestoreArray(se->T, &t));
      PetscCall(MatDenseRestoreArrayRead(Y, &y));
      PetscCall(MatDestroy(&MT));
      PetscCall(MatDestroy(&W));
      PetscCall(MatDestroy(&Y));
    }
    PetscCall(PetscFree(Z));
    PetscCall(PetscLogEventEnd(DRRED_Constraint, 0, 0, 0, 0));
  }
  /* DRReductionApply projects on the final T */
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  se->K_formed = PETSC_FALSE;
  PetscCall(DRFixedInterfaceDestroy(&fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate_IRS(DRReduction r)
{
  PetscFunctionBeginUser;
  r->ops->apply = DRReductionApply_IRS;
  PetscFunctionReturn(PETSC_SUCCESS);
}
