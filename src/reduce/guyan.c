/* Guyan (static) condensation, METHODS.md 1.4: T_G = [I; Phi_c], i.e.
 * Craig-Bampton without fixed-interface modes.  Exact for static loads
 * applied at the boundary (master) DOFs. */
#include "fixed_interface.h"

PetscErrorCode DRReduceGuyan(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se)
{
  DRFixedInterface fi;

  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, &fi));
  PetscCall(DRFixedInterfaceModes(&fi, opt, PETSC_FALSE, se)); /* only proves K_II regular */
  PetscCall(DRFixedInterfaceConstraintModes(&fi, se));
  PetscCall(DRFixedInterfaceBuildT(&fi, se));
  PetscCall(DRFixedInterfaceReducedStiffness(&fi, se));
  PetscCall(DRSuperelementProject(c, se));
  PetscCall(DRFixedInterfaceDestroy(&fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
