/* Guyan (static) condensation, METHODS.md 1.4: T_G = [I; Phi_c], i.e.
 * Craig-Bampton without fixed-interface modes.  Exact for static loads
 * applied at the boundary (master) DOFs. */
#include "fixed_interface.h"

static PetscErrorCode DRReductionApply_Guyan(DRReduction r, DRComponent c, const PetscBool isboundary[], DRSuperelement *se)
{
  PetscFunctionBeginUser;
  /* no fixed-interface modes kept: the one computed only proves K_II regular */
  PetscCall(DRFixedInterfaceBasis(r, c, isboundary, PETSC_FALSE, se));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate_Guyan(DRReduction r)
{
  PetscFunctionBeginUser;
  r->ops->apply = DRReductionApply_Guyan;
  PetscFunctionReturn(PETSC_SUCCESS);
}
