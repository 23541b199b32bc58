/* Enrichment of a Craig-Bampton superelement with more fixed-interface
 * modes (the CMS refinement for cms.tol_pct): the constraint modes, the
 * boundary blocks of K_r and M_r and the K_II factorization do not change,
 * so only the modes, the new columns of T and the mass coupling
 * T^T M T_q are computed -- not the nb block solves and the O(n nb^2)
 * boundary projection of a full Apply. */
#include "fixed_interface.h"
#include <petscblaslapack.h>

PetscErrorCode DRFixedInterfaceEnrich(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt nmodes)
{
  PetscInt         nb = se->nb, nq, N, Nold = se->nb + se->nq, nloc = fi->re - fi->rs, ldt, ldo, ldw;
  const PetscReal *f, *lam;
  Vec             *modes;
  DRModal          modal;
  Mat              T, Tq, W;
  PetscScalar     *t;
  const PetscScalar *to, *w;
  PetscReal       *loc, *MqAll = NULL, *K = NULL, *M = NULL;
  PetscMPIInt      rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  PetscCall(PetscLogEventBegin(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(DRModalCreate(fi->comm, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, DRReductionPrefix(r)));
  PetscCall(DRModalSetOperators(modal, fi->KII, fi->MII, fi->source));
  PetscCall(DRModalSetRange(modal, PetscMin(nmodes, fi->nI), 0));
  PetscCall(DRModalSetDenseMax(modal, DR_COMPONENT_DENSE_MAX));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &nq, &f, &lam, &modes, NULL));
  PetscCall(PetscLogEventEnd(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DRRED_Project, 0, 0, 0, 0));
  N = nb + nq;
  /* T' = [T(:, 0:nb) | new modes on the interior rows] */
  PetscCall(MatCreateDense(fi->comm, nloc, PETSC_DECIDE, fi->n, N, NULL, &T));
  PetscCall(MatDenseGetLDA(T, &ldt));
  PetscCall(MatDenseGetLDA(se->T, &ldo));
  PetscCall(MatDenseGetArray(T, &t));
  PetscCall(MatDenseGetArrayRead(se->T, &to));
  for (PetscInt j = 0; j < nb; j++)
    for (PetscInt i = 0; i < nloc; i++) t[i + j * ldt] = to[i + j * ldo];
  for (PetscInt k = 0; k < nq; k++) {
    const PetscScalar *ph;
    PetscInt           li = 0;
    PetscCall(VecGetArrayRead(modes[k], &ph));
    for (PetscInt i = fi->rs; i < fi->re; i++) t[i - fi->rs + (nb + k) * ldt] = fi->bcol[i] >= 0 ? 0 : ph[li++];
    PetscCall(VecRestoreArrayRead(modes[k], &ph));
  }
  PetscCall(MatDenseRestoreArrayRead(se->T, &to));
  PetscCall(MatDenseRestoreArray(T, &t));
  PetscCall(MatAssemblyBegin(T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(T, MAT_FINAL_ASSEMBLY));
  /* [M_bq; M_qq] = T'^T M T'_q: one sparse-dense product and a local GEMM */
  PetscCall(PetscCalloc1(N * nq + 1, &loc));
  if (nq > 0) {
    PetscCall(MatDenseGetSubMatrix(T, PETSC_DECIDE, PETSC_DECIDE, nb, N, &Tq));
    PetscCall(MatMatMult(fi->M, Tq, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &W));
    PetscCall(MatDenseRestoreSubMatrix(T, &Tq));
    PetscCall(MatDenseGetLDA(W, &ldw));
    PetscCall(MatDenseGetArrayRead(T, &to));
    PetscCall(MatDenseGetArrayRead(W, &w));
    if (nloc > 0) {
      PetscBLASInt mm, nn, kk, la, lb, lc;
      PetscScalar  one = 1, zero = 0;
      PetscCall(PetscBLASIntCast(N, &mm));
      PetscCall(PetscBLASIntCast(nq, &nn));
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
  if (!rank) PetscCall(PetscMalloc1(N * nq + 1, &MqAll));
  PetscCallMPI(MPI_Reduce(loc, MqAll, (PetscMPIInt)(N * nq), MPIU_REAL, MPIU_SUM, 0, fi->comm));
  PetscCall(PetscFree(loc));
  if (!rank) { /* the boundary blocks kept, the modal ones new, symmetric */
    PetscCall(PetscCalloc1(N * N + 1, &K));
    PetscCall(PetscCalloc1(N * N + 1, &M));
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i < nb; i++) {
        K[i + j * N] = se->K[i + j * Nold];
        M[i + j * N] = se->M[i + j * Nold];
      }
    for (PetscInt k = 0; k < nq; k++) {
      K[(nb + k) * (N + 1)] = lam[k];
      for (PetscInt i = 0; i < N; i++) M[i + (nb + k) * N] = M[nb + k + i * N] = MqAll[i + k * N];
    }
    for (PetscInt k = 0; k < nq; k++)
      for (PetscInt l = 0; l < k; l++) M[nb + l + (nb + k) * N] = M[nb + k + (nb + l) * N] = 0.5 * (MqAll[nb + l + k * N] + MqAll[nb + k + l * N]);
  }
  PetscCall(PetscFree(MqAll));
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  PetscCall(PetscFree(se->qfreq_hz));
  PetscCall(MatDestroy(&se->T));
  se->T = T;
  se->K = K;
  se->M = M;
  se->nq = nq;
  fi->nq = nq;
  PetscCall(PetscMalloc1(nq + 1, &se->qfreq_hz));
  for (PetscInt k = 0; k < nq; k++) se->qfreq_hz[k] = f[k];
  PetscCall(DRModalDestroy(&modal));
  PetscCall(PetscLogEventEnd(DRRED_Project, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
