/* Enrichment of a Craig-Bampton superelement with more fixed-interface
 * modes (the CMS refinement for cms.tol_pct): the constraint modes, the
 * boundary blocks of K_r and M_r and the K_II factorization do not change,
 * so only the new modes, the new columns of T and their mass coupling
 * T^T M T_new are computed -- not the nb block solves and the O(n nb^2)
 * boundary projection of a full Apply.
 *
 * The new modes continue the earlier solve: the kept modes are SLEPc's
 * deflation space and the shift-and-invert runs through the factorization
 * of K_II the component already holds, so a round costs the solve for the
 * added modes only (no new factorization, no recomputed modes).  Interiors
 * solved densely (at most DR_COMPONENT_DENSE_MAX DOFs) are simply solved
 * again for all modes. */
#include "fixed_interface.h"
#include <petscblaslapack.h>

/* The modes to add: nnew of them (continuation), or all nmodes (nold = 0,
 * the modes replaced). */
static PetscErrorCode NewModes(DRFixedInterface *fi, DRReduction r, PetscInt nmodes, DRModal *modal, PetscInt *nold)
{
  PetscBool cont = (PetscBool)(fi->nI > DR_COMPONENT_DENSE_MAX && fi->F && fi->kept && fi->nq > 0 && nmodes > fi->nq);

  PetscFunctionBeginUser;
  *nold = cont ? fi->nq : 0;
  PetscCall(DRModalCreate(fi->comm, modal));
  PetscCall(DRModalSetOptionsPrefix(*modal, DRReductionPrefix(r)));
  PetscCall(DRModalSetOperators(*modal, fi->KII, fi->MII, fi->source));
  if (cont) {
    PetscCall(DRModalSetFactor(*modal, fi->F));
    PetscCall(DRModalSetDeflationSpace(*modal, fi->nq, fi->kept));
    PetscCall(DRModalSetRange(*modal, PetscMin(nmodes, fi->nI) - fi->nq, 0));
  } else PetscCall(DRModalSetRange(*modal, PetscMin(nmodes, fi->nI), 0));
  PetscCall(DRModalSetDenseMax(*modal, DR_COMPONENT_DENSE_MAX));
  PetscCall(DRModalSetFromOptions(*modal));
  PetscCall(DRModalSolve(*modal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceEnrich(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt nmodes)
{
  PetscInt         nb = se->nb, nnew, nold, nq, N, Nold, Nkeep, nloc = fi->re - fi->rs, ldt, ldo, ldw;
  const PetscReal *f, *lam;
  Vec             *modes;
  DRModal          modal;
  Mat              T, Tq, W;
  PetscScalar     *t;
  const PetscScalar *to, *w;
  PetscReal       *loc, *MqAll = NULL, *K = NULL, *M = NULL, *qf;
  PetscMPIInt      rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  PetscCall(PetscLogEventBegin(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(NewModes(fi, r, nmodes, &modal, &nold));
  PetscCall(DRModalGetModes(modal, &nnew, &f, &lam, &modes, NULL));
  PetscCall(PetscLogEventEnd(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DRRED_Project, 0, 0, 0, 0));
  Nold  = se->nb + se->nq;
  Nkeep = nb + nold; /* columns of the old T kept */
  nq    = nold + nnew;
  N     = nb + nq;
  /* T' = [T(:, 0:Nkeep) | new modes on the interior rows] */
  PetscCall(MatCreateDense(fi->comm, nloc, PETSC_DECIDE, fi->n, N, NULL, &T));
  PetscCall(MatDenseGetLDA(T, &ldt));
  PetscCall(MatDenseGetLDA(se->T, &ldo));
  PetscCall(MatDenseGetArray(T, &t));
  PetscCall(MatDenseGetArrayRead(se->T, &to));
  for (PetscInt j = 0; j < Nkeep; j++)
    for (PetscInt i = 0; i < nloc; i++) t[i + j * ldt] = to[i + j * ldo];
  for (PetscInt k = 0; k < nnew; k++) {
    const PetscScalar *ph;
    PetscInt           li = 0;
    PetscCall(VecGetArrayRead(modes[k], &ph));
    for (PetscInt i = fi->rs; i < fi->re; i++) t[i - fi->rs + (Nkeep + k) * ldt] = fi->bcol[i] >= 0 ? 0 : ph[li++];
    PetscCall(VecRestoreArrayRead(modes[k], &ph));
  }
  PetscCall(MatDenseRestoreArrayRead(se->T, &to));
  PetscCall(MatDenseRestoreArray(T, &t));
  PetscCall(MatAssemblyBegin(T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(T, MAT_FINAL_ASSEMBLY));
  /* T'^T M T'_new: one sparse-dense product and a local GEMM */
  PetscCall(PetscCalloc1(N * nnew + 1, &loc));
  if (nnew > 0) {
    PetscCall(MatDenseGetSubMatrix(T, PETSC_DECIDE, PETSC_DECIDE, Nkeep, N, &Tq));
    PetscCall(MatMatMult(fi->M, Tq, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &W));
    PetscCall(MatDenseRestoreSubMatrix(T, &Tq));
    PetscCall(MatDenseGetLDA(W, &ldw));
    PetscCall(MatDenseGetArrayRead(T, &to));
    PetscCall(MatDenseGetArrayRead(W, &w));
    if (nloc > 0) {
      PetscBLASInt mm, nn, kk, la, lb, lc;
      PetscScalar  one = 1, zero = 0;
      PetscCall(PetscBLASIntCast(N, &mm));
      PetscCall(PetscBLASIntCast(nnew, &nn));
      PetscCall(PetscBLASIntCast(nloc, &kk));
      PetscCall(PetscBLASIntCast(ldt, &la));
      PetscCall(PetscBLASIntCast(ldw, &lb));
      lc = mm;
      BLASgemm_("T", "N", &mm, &nn, &kk, &one, to, &la, w, &lb, &zero, loc, &lc);
    }
    PetscCall(MatDenseRestoreArrayRead(W, &w));
    PetscCall(MatDenseRestoreArrayRead(T, &to));
    PetscCall(MatDestroy(&W));
  }
  if (!rank) PetscCall(PetscMalloc1(N * nnew + 1, &MqAll));
  PetscCallMPI(MPI_Reduce(loc, MqAll, (PetscMPIInt)(N * nnew), MPIU_REAL, MPIU_SUM, 0, fi->comm));
  PetscCall(PetscFree(loc));
  if (!rank) { /* the kept blocks copied, the new columns added, symmetric */
    PetscCall(PetscCalloc1(N * N + 1, &K));
    PetscCall(PetscCalloc1(N * N + 1, &M));
    for (PetscInt j = 0; j < Nkeep; j++)
      for (PetscInt i = 0; i < Nkeep; i++) {
        K[i + j * N] = se->K[i + j * Nold];
        M[i + j * N] = se->M[i + j * Nold];
      }
    for (PetscInt k = 0; k < nnew; k++) {
      PetscInt c = Nkeep + k;
      K[c * (N + 1)] = lam[k];
      for (PetscInt i = 0; i < Nkeep; i++) M[i + c * N] = M[c + i * N] = MqAll[i + k * N];
      for (PetscInt l = 0; l <= k; l++) M[Nkeep + l + c * N] = M[c + (Nkeep + l) * N] = 0.5 * (MqAll[Nkeep + l + k * N] + MqAll[c + l * N]);
    }
  }
  PetscCall(PetscFree(MqAll));
  PetscCall(PetscMalloc1(nq + 1, &qf));
  for (PetscInt k = 0; k < nold; k++) qf[k] = se->qfreq_hz[k];
  for (PetscInt k = 0; k < nnew; k++) qf[nold + k] = f[k];
  /* the kept modes for the next round (deflation space) */
  {
    Vec *kept = NULL;
    if (nq > 0) {
      PetscCall(VecDuplicateVecs(modes && nnew ? modes[0] : fi->kept[0], nq, &kept));
      for (PetscInt k = 0; k < nold; k++) PetscCall(VecCopy(fi->kept[k], kept[k]));
      for (PetscInt k = 0; k < nnew; k++) PetscCall(VecCopy(modes[k], kept[nold + k]));
    }
    if (fi->kept) PetscCall(VecDestroyVecs(fi->nkept, &fi->kept));
    fi->kept  = kept;
    fi->nkept = nq;
  }
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  PetscCall(PetscFree(se->qfreq_hz));
  PetscCall(MatDestroy(&se->T));
  se->T        = T;
  se->K        = K;
  se->M        = M;
  se->nq       = nq;
  se->qfreq_hz = qf;
  fi->nq       = nq;
  PetscCall(DRModalDestroy(&modal));
  PetscCall(PetscLogEventEnd(DRRED_Project, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
