/* Craig-Bampton (fixed-interface) reduction, METHODS.md 1.1:
 *   T = [ I      0     ]   coordinates (u_B, eta)
 *       [ Phi_c  Phi_n ]
 * constraint modes Phi_c = -K_II^{-1} K_IB from one MUMPS Cholesky
 * factorization of K_II (the one the eigensolver made) and one block solve
 * (MatMatSolve) for all boundary columns; fixed-interface modes Phi_n of
 * (K_II, M_II) by SLEPc (counted) or LAPACK (small interiors), the lowest
 * nmodes or all below the cutoff, mass-normalized.  The factorization of
 * K_II is kept after Apply for the residual estimate of the system modes
 * (DRReductionResidual, residual.c). */
#include "fixed_interface.h"

static PetscErrorCode DRReductionDestroy_CraigBampton(DRReduction r)
{
  DRFixedInterface *fi = (DRFixedInterface *)r->data;

  PetscFunctionBeginUser;
  if (fi) PetscCall(DRFixedInterfaceDestroy(fi));
  PetscCall(PetscFree(r->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A fresh kit in r->data with the partition and the fixed-interface modes:
 * the common start of Apply and of the interface pencil. */
static PetscErrorCode KitWithModes(DRReduction r, DRComponent c, const PetscBool isboundary[], DRSuperelement *se, DRFixedInterface **out)
{
  DRFixedInterface *fi;

  PetscFunctionBeginUser;
  PetscCall(DRReductionDestroy_CraigBampton(r));
  PetscCall(PetscNew(&fi));
  r->data = fi;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, fi));
  PetscCall(DRFixedInterfaceModes(fi, r, PETSC_TRUE, se));
  *out = fi;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionApply_CraigBampton(DRReduction r, DRComponent c, const PetscBool isboundary[], DRSuperelement *se)
{
  DRFixedInterface *fi;

  PetscFunctionBeginUser;
  PetscCall(KitWithModes(r, c, isboundary, se, &fi));
  PetscCall(DRFixedInterfaceConstraintModes(fi, r));
  PetscCall(DRFixedInterfaceBuildT(fi, se));
  PetscCall(DRFixedInterfaceReducedStiffness(fi, se));
  PetscCall(DRFixedInterfaceFactor(fi, r)); /* no boundary: not made by the constraint modes */
  PetscCall(DRFixedInterfaceKeepFactor(fi, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionResidual_CraigBampton(DRReduction r, DRComponent c, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB)
{
  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceFactor((DRFixedInterface *)r->data, r)); /* made again if released */
  PetscCall(DRFixedInterfaceResidual((DRFixedInterface *)r->data, c, &r->se, (PetscBool)!r->no_cc_reuse, ncol, Qc, lam, eta2, gB));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionEnrich_CraigBampton(DRReduction r, DRComponent c, PetscInt nmodes, DRSuperelement *se)
{
  PetscFunctionBeginUser;
  (void)c;
  PetscCall(DRFixedInterfaceEnrich((DRFixedInterface *)r->data, r, se, nmodes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionCorrect_CraigBampton(DRReduction r, PetscInt nsel, const PetscInt sel[], DRSuperelement *se, PetscInt *nadded)
{
  DRFixedInterface *fi = (DRFixedInterface *)r->data;

  PetscFunctionBeginUser;
  if (nsel > 0 && fi->nWres > 0 && !fi->Wres) PetscCall(DRFixedInterfaceFactor(fi, r)); /* released blocks: solved again */
  PetscCall(DRFixedInterfaceCorrect(fi, se, nsel, sel, nadded));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Phase 1 of the interface reduction: modes and the interface pencil; the
 * kit stays in r->data for phase 2. */
static PetscErrorCode DRReductionPencil_CraigBampton(DRReduction r, DRComponent c, const PetscBool isboundary[], DRSuperelement *se, PetscReal **S, PetscReal **MG)
{
  DRFixedInterface *fi;

  PetscFunctionBeginUser;
  PetscCall(KitWithModes(r, c, isboundary, se, &fi));
  PetscCall(DRFixedInterfacePencil(fi, r, S, MG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionIfaceBasis_CraigBampton(DRReduction r, DRComponent c, PetscInt ncc, const PetscReal Vc[], const DRLabel cclabels[], DRSuperelement *se)
{
  DRFixedInterface *fi = (DRFixedInterface *)r->data;

  PetscFunctionBeginUser;
  (void)c;
  PetscCall(DRFixedInterfaceApplyBasis(fi, r, se, ncc, Vc, cclabels));
  PetscCall(DRFixedInterfaceFactor(fi, r));
  PetscCall(DRFixedInterfaceKeepFactor(fi, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionRelease_CraigBampton(DRReduction r, int what, PetscReal *freed_mib)
{
  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceRelease((DRFixedInterface *)r->data, what, freed_mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionFactorMiB_CraigBampton(DRReduction r, PetscReal *mib)
{
  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceFactorMiB((DRFixedInterface *)r->data, mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate_CraigBampton(DRReduction r)
{
  PetscFunctionBeginUser;
  r->ops->apply    = DRReductionApply_CraigBampton;
  r->ops->residual = DRReductionResidual_CraigBampton;
  r->ops->enrich   = DRReductionEnrich_CraigBampton;
  r->ops->correct  = DRReductionCorrect_CraigBampton;
  r->ops->pencil     = DRReductionPencil_CraigBampton;
  r->ops->ifacebasis = DRReductionIfaceBasis_CraigBampton;
  r->ops->release    = DRReductionRelease_CraigBampton;
  r->ops->factormib  = DRReductionFactorMiB_CraigBampton;
  r->ops->destroy  = DRReductionDestroy_CraigBampton;
  PetscFunctionReturn(PETSC_SUCCESS);
}
