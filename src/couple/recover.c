/* CMS recovery: system modes u = T q per component, inserted into world
 * vectors over the full model's labels (c->full); each component's basis is
 * released once its part is recovered (a solved DRCMS keeps the reduced
 * matrices, not the bases). */
#include "cmsimpl.h"

PetscErrorCode DRCMSComponentCoordinates_Private(DRCMS c, PetscInt i, const PetscReal *Q, PetscInt ncol, PetscReal **Qcout)
{
  PetscInt       N = c->nred, nb, nq, nr, off = c->nbglob;
  PetscReal     *Qc;
  const DRLabel *bl;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < c->mine[i]; k++) off += c->nq[k];
  PetscCall(DRReductionGetBoundary(c->red[i], &nb, &bl));
  PetscCall(DRReductionGetModes(c->red[i], &nq, NULL));
  nr = nb + nq;
  PetscCall(PetscMalloc1(nr * ncol + 1, &Qc));
  for (PetscInt m = 0; m < ncol; m++) {
    for (PetscInt j = 0; j < nb; j++) Qc[j + m * nr] = Q[DRLabelsFind(c->nbglob, c->bglob, bl[j]) + m * N];
    for (PetscInt j = 0; j < nq; j++) Qc[nb + j + m * nr] = Q[off + j + m * N];
  }
  *Qcout = Qc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* My component i: its reduced coordinates Qc, U = T Qc on the rows this
 * rank owns, inserted at the rows' full-label positions. */
static PetscErrorCode RecoverComponent(DRCMS c, PetscInt i, const PetscReal *Q)
{
  PetscInt       rs, re, *grow;
  PetscReal     *Qc, *U;
  const DRLabel *labels;
  Mat            T;

  PetscFunctionBeginUser;
  PetscCall(DRReductionGetBasis(c->red[i], &T));
  PetscCall(DRComponentGetLabels(c->comps[i], NULL, &labels));
  PetscCall(DRCMSComponentCoordinates_Private(c, i, Q, c->nm, &Qc));
  PetscCall(DRReductionExpand(c->red[i], c->nm, Qc, &U));
  PetscCall(MatGetOwnershipRange(T, &rs, &re));
  PetscCall(PetscMalloc1(re - rs + 1, &grow));
  for (PetscInt r = rs; r < re; r++) grow[r - rs] = DRLabelsFind(c->nfull, c->full, labels[r]);
  for (PetscInt m = 0; m < c->nm; m++) PetscCall(VecSetValues(c->modes[m], re - rs, grow, U + m * (re - rs), INSERT_VALUES));
  PetscCall(PetscFree(grow));
  PetscCall(PetscFree(U));
  PetscCall(PetscFree(Qc));
  /* the last reader of the basis: what is written afterwards (reduced
   * matrices, shapes) does not need it, and the modes take its place */
  PetscCall(DRReductionRelease(c->red[i], DR_REDUCTION_HELD_BASIS, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u = T q per component, inserted into world vectors over the full labels. */
PetscErrorCode DRCMSRecover_Private(DRCMS c, const PetscReal *Q)
{
  Vec proto;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Recover, 0, 0, 0, 0));
  PetscCall(VecCreateMPI(c->comm, PETSC_DECIDE, c->nfull, &proto));
  PetscCall(VecDuplicateVecs(proto, c->nm, &c->modes));
  PetscCall(VecDestroy(&proto));
  for (PetscInt i = 0; i < c->nmine; i++) PetscCall(RecoverComponent(c, i, Q));
  for (PetscInt m = 0; m < c->nm; m++) {
    PetscCall(VecAssemblyBegin(c->modes[m]));
    PetscCall(VecAssemblyEnd(c->modes[m]));
  }
  PetscCall(PetscLogEventEnd(DRCMS_Recover, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
