/* Enrichment of a Craig-Bampton superelement with more fixed-interface
 * modes in place (the CMS refinement for cms.tol_pct; the columns are
 * appended by append.c, not a full Apply's nb block solves and O(n nb^2)
 * projection).  The new modes continue the earlier solve: the kept modes
 * are SLEPc's deflation space and the shift-and-invert runs through the
 * factorization of K_II the component already holds, so a round costs the
 * solve for the added modes only.  Interiors solved densely (at most
 * DR_COMPONENT_DENSE_MAX DOFs), and components that carry residual
 * corrections (correct.c: their kept vectors are no longer an invariant
 * subspace, so deflating them would not give eigenvectors), are solved
 * again for all modes, which replace every kept mode; the earlier
 * corrections are then appended again. */
#include "fixed_interface.h"

/* The modes to add: nnew of them (continuation), or all nmodes (nold = 0,
 * the modes replaced). */
static PetscErrorCode NewModes(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt nmodes, DRModal *modal, PetscInt *nold)
{
  PetscBool cont = (PetscBool)(fi->nI > DR_COMPONENT_DENSE_MAX && fi->F && se->T && fi->nq > 0 && nmodes > fi->nq && !fi->ncorr);

  PetscFunctionBeginUser;
  *nold = cont ? fi->nq : 0;
  PetscCall(DRModalCreate(fi->comm, modal));
  PetscCall(DRModalSetOptionsPrefix(*modal, DRReductionPrefix(r)));
  PetscCall(DRModalSetOperators(*modal, fi->KII, fi->MII, fi->source));
  if (cont) {
    PetscCall(DRModalSetFactor(*modal, fi->F));
    Vec *kept; /* the kept modes: the interior rows of T's modal columns */
    PetscCall(DRFixedInterfaceKeptVecs(fi, se->T, se->nb, fi->nq, &kept));
    PetscCall(DRModalSetDeflationSpace(*modal, fi->nq, kept)); /* copied */
    PetscCall(VecDestroyVecs(fi->nq, &kept));
    PetscCall(DRModalSetRange(*modal, PetscMin(nmodes, fi->nI) - fi->nq, 0));
  } else PetscCall(DRModalSetRange(*modal, PetscMin(nmodes, fi->nI), 0));
  PetscCall(DRFixedInterfaceModalDefaults(*modal));
  PetscCall(DRModalSetFromOptions(*modal));
  PetscCall(DRModalSolve(*modal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceEnrich(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt nmodes)
{
  PetscInt         nnew, nold;
  const PetscReal *f, *lam;
  Vec             *modes;
  DRModal          modal;

  Vec             *corr = NULL;
  PetscInt         ncorr = 0, nadded;

  PetscFunctionBeginUser;
  if (se->T && fi->nq > 0 && !fi->ncorr) PetscCall(DRFixedInterfaceFactor(fi, r)); /* the continuation's shift-and-invert (made again if released) */
  PetscCall(PetscLogEventBegin(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(NewModes(fi, r, se, nmodes, &modal, &nold));
  PetscCall(DRModalGetModes(modal, &nnew, &f, &lam, &modes, NULL));
  PetscCall(PetscLogEventEnd(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DRRED_Project, 0, 0, 0, 0));
  /* modes replaced after residual corrections: the corrections (the last
   * ncorr kept vectors: they are only ever appended) are appended again
   * to the new modes, so a round never loses what earlier ones gained */
  if (!nold && fi->ncorr > 0 && se->T) {
    ncorr = fi->ncorr;
    PetscCall(DRFixedInterfaceKeptVecs(fi, se->T, se->nb + fi->nq - ncorr, ncorr, &corr));
  }
  PetscCall(DRFixedInterfaceAppend(fi, se, nold, nnew, modes, lam, f, PETSC_TRUE));
  if (ncorr) {
    PetscCall(DRFixedInterfaceCorrectAgain(fi, se, ncorr, corr, &nadded));
    PetscCall(VecDestroyVecs(ncorr, &corr));
  }
  PetscCall(DRModalDestroy(&modal));
  PetscCall(PetscLogEventEnd(DRRED_Project, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
