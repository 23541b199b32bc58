/* Craig-Bampton (fixed-interface) reduction, METHODS.md 1.1:
 *   T = [ I      0     ]   coordinates (u_B, eta)
 *       [ Phi_c  Phi_n ]
 * constraint modes Phi_c = -K_II^{-1} K_IB from one MUMPS Cholesky
 * factorization of K_II and one block solve (MatMatSolve) for all boundary
 * columns; fixed-interface modes Phi_n of (K_II, M_II) by SLEPc, the lowest
 * nmodes or all below the cutoff, mass-normalized. */
#include "fixed_interface.h"

static PetscErrorCode DRReductionApply_CraigBampton(DRReduction r, DRComponent c, const PetscBool isboundary[], DRSuperelement *se)
{
  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceBasis(r, c, isboundary, PETSC_TRUE, se));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate_CraigBampton(DRReduction r)
{
  PetscFunctionBeginUser;
  r->ops->apply = DRReductionApply_CraigBampton;
  PetscFunctionReturn(PETSC_SUCCESS);
}
