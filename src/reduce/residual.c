/* Residuals of system modes on a fixed-interface component, for the CMS
 * error estimate (couple/estimate.c, METHODS-level derivation there).
 *
 * With the component's interior I and boundary B and the static condensation
 *   K^{-1} = [K_II^{-1} 0; 0 0] + Psi S^{-1} Psi^T,  Psi = [-K_II^{-1} K_IB; I],
 * the K^{-1}-norm of a residual r splits into a sum over components of
 * r_I^T K_II^{-1} r_I plus one boundary term g^T S^{-1} g with
 * g = Psi^T r = sum over components of (r_B - K_BI K_II^{-1} r_I).  Each
 * component computes its two parts here with the factorization of K_II it
 * already holds: one block solve with ncol right-hand sides. */
#include "free_interface.h"

PetscErrorCode DRFixedInterfaceResidual(DRFixedInterface *fi, DRComponent c, const DRSuperelement *se, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB)
{
  PetscInt           nloc = fi->re - fi->rs, nIloc = 0, nBloc = 0;
  PetscReal         *U, *R, *RI, *gl, *loc;
  Mat                Um, KU, MU, RIm = NULL, W = NULL;
  PetscMPIInt        rank;

  PetscFunctionBeginUser;
  (void)c;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  *gB = NULL;
  PetscCall(DRSuperelementExpand(se, ncol, Qc, &U));
  /* R = K U - M U diag(lam) */
  PetscCall(MatCreateDense(fi->comm, nloc, PETSC_DECIDE, fi->n, ncol, U, &Um));
  PetscCall(MatMatMult(fi->K, Um, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KU));
  PetscCall(MatMatMult(fi->M, Um, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MU));
  PetscCall(PetscMalloc1(nloc * ncol + 1, &R));
  {
    const PetscScalar *ku, *mu;
    PetscInt           lk, lm;
    PetscCall(MatDenseGetLDA(KU, &lk));
    PetscCall(MatDenseGetLDA(MU, &lm));
    PetscCall(MatDenseGetArrayRead(KU, &ku));
    PetscCall(MatDenseGetArrayRead(MU, &mu));
    for (PetscInt k = 0; k < ncol; k++)
      for (PetscInt i = 0; i < nloc; i++) R[i + k * nloc] = ku[i + k * lk] - lam[k] * mu[i + k * lm];
    PetscCall(MatDenseRestoreArrayRead(KU, &ku));
    PetscCall(MatDenseRestoreArrayRead(MU, &mu));
  }
  PetscCall(MatDestroy(&KU));
  PetscCall(MatDestroy(&MU));
  PetscCall(MatDestroy(&Um));
  PetscCall(PetscFree(U));
  for (PetscInt i = fi->rs; i < fi->re; i++) {
    if (fi->bcol[i] >= 0) nBloc++;
    else nIloc++;
  }
  /* interior part: W = K_II^{-1} R_I, eta2 = diag(R_I^T W) */
  for (PetscInt k = 0; k < ncol; k++) eta2[k] = 0;
  PetscCall(PetscMalloc1(nIloc * ncol + 1, &RI));
  for (PetscInt k = 0, l; k < ncol; k++) {
    l = 0;
    for (PetscInt i = fi->rs; i < fi->re; i++)
      if (fi->bcol[i] < 0) RI[l++ + k * nIloc] = R[i - fi->rs + k * nloc];
  }
  if (fi->nI > 0 && ncol > 0) {
    const PetscScalar *w;
    PetscReal         *part;
    PetscCall(MatCreateDense(fi->comm, nIloc, PETSC_DECIDE, fi->nI, ncol, RI, &RIm));
    PetscCall(MatDuplicate(RIm, MAT_DO_NOT_COPY_VALUES, &W));
    PetscCall(DRReductionBlockSolve(fi->F, RIm, W));
    PetscCall(PetscCalloc1(ncol, &part));
    PetscCall(MatDenseGetArrayRead(W, &w));
    for (PetscInt k = 0; k < ncol; k++)
      for (PetscInt i = 0; i < nIloc; i++) part[k] += RI[i + k * nIloc] * w[i + k * nIloc];
    PetscCall(MatDenseRestoreArrayRead(W, &w));
    PetscCall(MPIU_Allreduce(part, eta2, (PetscMPIInt)ncol, MPIU_REAL, MPIU_SUM, fi->comm));
    PetscCall(PetscFree(part));
  }
  /* boundary part: g = R_B - K_BI W, on rank 0 in boundary-label order */
  PetscCall(PetscCalloc1(fi->nb * ncol + 1, &loc));
  for (PetscInt i = fi->rs; i < fi->re; i++)
    if (fi->bcol[i] >= 0)
      for (PetscInt k = 0; k < ncol; k++) loc[fi->bcol[i] + k * fi->nb] = R[i - fi->rs + k * nloc];
  if (W && fi->nb > 0) {
    Mat                KBI, KW;
    const PetscScalar *kw;
    PetscInt           lkw, l = 0;
    PetscCall(MatCreateSubMatrix(fi->K, fi->isB, fi->isI, MAT_INITIAL_MATRIX, &KBI));
    PetscCall(MatMatMult(KBI, W, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KW));
    PetscCall(MatDenseGetLDA(KW, &lkw));
    PetscCall(MatDenseGetArrayRead(KW, &kw));
    for (PetscInt i = fi->rs; i < fi->re; i++)
      if (fi->bcol[i] >= 0) {
        for (PetscInt k = 0; k < ncol; k++) loc[fi->bcol[i] + k * fi->nb] -= kw[l + k * lkw];
        l++;
      }
    PetscCall(MatDenseRestoreArrayRead(KW, &kw));
    PetscCall(MatDestroy(&KW));
    PetscCall(MatDestroy(&KBI));
  }
  gl = NULL;
  if (!rank) PetscCall(PetscMalloc1(fi->nb * ncol + 1, &gl));
  PetscCallMPI(MPI_Reduce(loc, gl, (PetscMPIInt)(fi->nb * ncol), MPIU_REAL, MPIU_SUM, 0, fi->comm));
  *gB = gl;
  PetscCall(PetscFree(loc));
  /* kept for residual corrections (correct.c) */
  PetscCall(MatDestroy(&fi->Wres));
  fi->Wres  = W;
  fi->nWres = W ? ncol : 0;
  PetscCall(MatDestroy(&RIm));
  PetscCall(PetscFree(RI));
  PetscCall(PetscFree(R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* S_c = K_BB + K_BI Phi_c with Phi_c = -K_II^{-1} K_IB: the constraint modes
 * (one block solve through the held factorization) and the reduced
 * stiffness of a superelement without modal columns; Phi_c is freed again. */
PetscErrorCode DRFixedInterfaceSchur(DRFixedInterface *fi, DRReduction r, PetscReal **S)
{
  DRSuperelement tmp;
  PetscInt       nq = fi->nq;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&tmp, sizeof(tmp)));
  PetscCall(DRFixedInterfaceConstraintModes(fi, r));
  fi->nq = 0; /* the boundary columns only */
  tmp.nb = fi->nb;
  PetscCall(DRFixedInterfaceReducedStiffness(fi, &tmp));
  fi->nq = nq;
  *S     = tmp.K; /* rank 0; NULL elsewhere */
  tmp.K  = NULL;
  PetscCall(DRSuperelementReset(&tmp));
  PetscCall(MatDestroy(&fi->X));
  PetscCall(MatDestroy(&fi->B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
