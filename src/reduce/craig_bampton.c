/* Craig-Bampton (fixed-interface) reduction, METHODS.md 1.1:
 *   T = [ I      0     ]   coordinates (u_B, eta)
 *       [ Phi_c  Phi_n ]
 * constraint modes Phi_c = -K_II^{-1} K_IB from one MUMPS Cholesky
 * factorization of K_II and one block solve (MatMatSolve) for all boundary
 * columns; fixed-interface modes Phi_n of (K_II, M_II) by SLEPc, the lowest
 * nmodes or all below the cutoff, mass-normalized. */
#include "fixed_interface.h"

PetscErrorCode DRReduceCraigBampton(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se)
{
  DRFixedInterface fi;

  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, &fi));
  PetscCall(DRFixedInterfaceModes(&fi, opt, PETSC_TRUE, se));
  PetscCall(DRFixedInterfaceConstraintModes(&fi, se));
  PetscCall(DRFixedInterfaceBuildT(&fi, se));
  PetscCall(DRFixedInterfaceReducedStiffness(&fi, se));
  PetscCall(DRSuperelementProject(c, se));
  PetscCall(DRFixedInterfaceDestroy(&fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
