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
#include <petscblaslapack.h>

/* R = K U - M U diag(lam), U = T Qc (this rank's rows x ncol): two sparse
 * products with the ncol columns of U (any basis T). */
static PetscErrorCode ResidualFormed(DRFixedInterface *fi, const DRSuperelement *se, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal R[])
{
  PetscInt           nloc = fi->re - fi->rs, lk, lm;
  PetscReal         *U;
  Mat                Um, KU, MU;
  const PetscScalar *ku, *mu;

  PetscFunctionBeginUser;
  PetscCall(DRSuperelementExpand(se, ncol, Qc, &U));
  PetscCall(MatCreateDense(fi->comm, nloc, PETSC_DECIDE, fi->n, ncol, U, &Um));
  PetscCall(MatMatMult(fi->K, Um, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KU));
  PetscCall(MatMatMult(fi->M, Um, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MU));
  PetscCall(MatDenseGetLDA(KU, &lk));
  PetscCall(MatDenseGetLDA(MU, &lm));
  PetscCall(MatDenseGetArrayRead(KU, &ku));
  PetscCall(MatDenseGetArrayRead(MU, &mu));
  for (PetscInt k = 0; k < ncol; k++)
    for (PetscInt i = 0; i < nloc; i++) R[i + k * nloc] = ku[i + k * lk] - lam[k] * mu[i + k * lm];
  PetscCall(MatDenseRestoreArrayRead(KU, &ku));
  PetscCall(MatDenseRestoreArrayRead(MU, &mu));
  PetscCall(MatDestroy(&KU));
  PetscCall(MatDestroy(&MU));
  PetscCall(MatDestroy(&Um));
  PetscCall(PetscFree(U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* C (m x n, ldc) = alpha A (m x k, lda) B (k x n, ldb) + beta C */
static void Gemm(PetscInt m, PetscInt n, PetscInt k, PetscReal alpha, const PetscReal *A, PetscInt lda, const PetscReal *B, PetscInt ldb, PetscReal beta, PetscReal *C, PetscInt ldc)
{
  PetscBLASInt mm = (PetscBLASInt)m, nn = (PetscBLASInt)n, kk = (PetscBLASInt)k, la = (PetscBLASInt)lda, lb = (PetscBLASInt)ldb, lc = (PetscBLASInt)ldc;

  if (m > 0 && n > 0 && k > 0) BLASgemm_("N", "N", &mm, &nn, &kk, &alpha, A, &la, B, &lb, &beta, C, &lc);
  else if (beta == 0)
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < m; i++) C[i + j * ldc] = 0;
}

/* The same for fi's own Craig-Bampton basis T = [V 0 0; X Phi P] (V the
 * boundary basis, X = -K_II^{-1} K_IB V, Phi fixed-interface modes with
 * K_II Phi = M_II Phi Lambda, P residual corrections) with one sparse
 * product instead of two: on the interior rows K T = [0, M_II Phi Lambda,
 * K_II P], so with KC = K [0; P] (kept since the corrections were appended)
 *   R_I = (M T Qd)_I + (KC)_I Q_P,   Qd_ij = (lt_i - lam_j) Q_ij,
 * lt_i the eigenvalue of a mode column (0 for the others): the
 * cancellation of K u and lam M u happens in the scalars lt_i - lam_j.
 * The boundary rows from K_B. T and M_B. T (few rows). */
static PetscErrorCode ResidualStructured(DRFixedInterface *fi, DRSuperelement *se, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal R[])
{
  PetscInt           nloc = fi->re - fi->rs, nb = se->nb, nq = se->nq, N = nb + nq, ncorr = fi->ncorr, nm = nq - ncorr, nBloc = 0, ldk = 0, ldb, ldm, nkc = 0, ldt, ldr;
  PetscReal         *Qd, *A, *Y;
  const PetscScalar *kc = NULL, *kbt, *mbt, *t, *r;
  Mat                KB, MB, KBT, MBT, Ym, MY;
  IS                 all;

  PetscFunctionBeginUser;
  PetscCheck(nq == fi->nq && ncorr >= 0 && ncorr <= nq, fi->comm, PETSC_ERR_PLIB, "component '%s': basis of %" PetscInt_FMT " interior vectors (%" PetscInt_FMT " corrections) for %" PetscInt_FMT " kept", fi->name, nq, ncorr, fi->nq);
  if (ncorr > 0 && !fi->KC) { /* a basis restored without them */
    Mat Tc;
    PetscCall(MatDenseGetSubMatrix(se->T, PETSC_DECIDE, PETSC_DECIDE, N - ncorr, N, &Tc));
    PetscCall(MatMatMult(fi->K, Tc, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &fi->KC));
    PetscCall(MatDenseRestoreSubMatrix(se->T, &Tc));
  }
  if (ncorr > 0) PetscCall(MatGetSize(fi->KC, NULL, &nkc));
  PetscCheck(nkc == ncorr, fi->comm, PETSC_ERR_PLIB, "component '%s': K P with %" PetscInt_FMT " columns for %" PetscInt_FMT " corrections", fi->name, nkc, ncorr);
  PetscCall(PetscMalloc1(N * ncol + 1, &Qd));
  for (PetscInt j = 0; j < ncol; j++)
    for (PetscInt i = 0; i < N; i++) {
      PetscReal lt = (i >= nb && i < nb + nm) ? PetscSqr(2 * PETSC_PI * se->qfreq_hz[i - nb]) : 0;
      Qd[i + j * N] = (lt - lam[j]) * Qc[i + j * N];
    }
  /* R = M (T Qd) + KC Q_P on this rank's rows */
  PetscCall(PetscMalloc1(nloc * ncol + 1, &Y));
  PetscCall(MatDenseGetLDA(se->T, &ldt));
  PetscCall(MatDenseGetArrayRead(se->T, &t));
  Gemm(nloc, ncol, N, 1, t, ldt, Qd, N, 0, Y, nloc);
  PetscCall(MatDenseRestoreArrayRead(se->T, &t));
  PetscCall(MatCreateDense(fi->comm, nloc, PETSC_DECIDE, fi->n, ncol, Y, &Ym));
  PetscCall(MatMatMult(fi->M, Ym, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MY));
  PetscCall(MatDestroy(&Ym));
  PetscCall(PetscFree(Y));
  PetscCall(MatDenseGetLDA(MY, &ldr));
  PetscCall(MatDenseGetArrayRead(MY, &r));
  for (PetscInt j = 0; j < ncol; j++) PetscCall(PetscArraycpy(R + j * nloc, r + j * ldr, nloc));
  PetscCall(MatDenseRestoreArrayRead(MY, &r));
  PetscCall(MatDestroy(&MY));
  if (ncorr > 0) {
    PetscCall(MatDenseGetLDA(fi->KC, &ldk));
    PetscCall(MatDenseGetArrayRead(fi->KC, &kc));
    Gemm(nloc, ncol, ncorr, 1, kc, ldk, Qc + (N - ncorr), N, 1, R, nloc);
    PetscCall(MatDenseRestoreArrayRead(fi->KC, &kc));
  }
  /* boundary rows: R_B = (K_B. T) Q - (M_B. T) Q diag(lam) */
  for (PetscInt i = fi->rs; i < fi->re; i++)
    if (fi->bcol[i] >= 0) nBloc++;
  PetscCall(ISCreateStride(fi->comm, nloc, fi->rs, 1, &all));
  PetscCall(MatCreateSubMatrix(fi->K, fi->isB, all, MAT_INITIAL_MATRIX, &KB));
  PetscCall(MatCreateSubMatrix(fi->M, fi->isB, all, MAT_INITIAL_MATRIX, &MB));
  PetscCall(ISDestroy(&all));
  PetscCall(MatMatMult(KB, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KBT));
  PetscCall(MatMatMult(MB, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MBT));
  PetscCall(MatDestroy(&KB));
  PetscCall(MatDestroy(&MB));
  PetscCall(PetscMalloc1(nBloc * ncol + 1, &A));
  PetscCall(MatDenseGetLDA(MBT, &ldm));
  PetscCall(MatDenseGetArrayRead(MBT, &mbt));
  Gemm(nBloc, ncol, N, 1, mbt, ldm, Qc, N, 0, A, nBloc); /* (M_B. T) Q */
  PetscCall(MatDenseRestoreArrayRead(MBT, &mbt));
  for (PetscInt j = 0; j < ncol; j++)
    for (PetscInt l = 0; l < nBloc; l++) A[l + j * nBloc] *= -lam[j];
  PetscCall(MatDenseGetLDA(KBT, &ldb));
  PetscCall(MatDenseGetArrayRead(KBT, &kbt));
  Gemm(nBloc, ncol, N, 1, kbt, ldb, Qc, N, 1, A, nBloc);
  PetscCall(MatDenseRestoreArrayRead(KBT, &kbt));
  PetscCall(MatDestroy(&KBT));
  PetscCall(MatDestroy(&MBT));
  for (PetscInt i = fi->rs, l = 0; i < fi->re; i++)
    if (fi->bcol[i] >= 0) {
      for (PetscInt j = 0; j < ncol; j++) R[(i - fi->rs) + j * nloc] = A[l + j * nBloc];
      l++;
    }
  PetscCall(PetscFree(A));
  PetscCall(PetscFree(Qd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* R = K U - M U diag(lam) on this rank's rows (the structured or the formed
 * path) and its interior rows RI (nIloc x ncol, K_II's layout); the caller
 * frees both. */
static PetscErrorCode ResidualRows(DRFixedInterface *fi, DRSuperelement *se, PetscBool cb, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscInt nIloc, PetscReal **R, PetscReal **RI)
{
  PetscInt nloc = fi->re - fi->rs;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(nloc * ncol + 1, R));
  if (cb) PetscCall(ResidualStructured(fi, se, ncol, Qc, lam, *R));
  else PetscCall(ResidualFormed(fi, se, ncol, Qc, lam, *R));
  PetscCall(PetscMalloc1(nIloc * ncol + 1, RI));
  for (PetscInt k = 0, l; k < ncol; k++) {
    l = 0;
    for (PetscInt i = fi->rs; i < fi->re; i++)
      if (fi->bcol[i] < 0) (*RI)[l++ + k * nIloc] = (*R)[i - fi->rs + k * nloc];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceResidual(DRFixedInterface *fi, DRComponent c, DRSuperelement *se, PetscBool cb, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB)
{
  PetscInt           nloc = fi->re - fi->rs, nIloc = 0, nBloc = 0;
  PetscReal         *R, *RI, *gl, *loc;
  Mat                RIm = NULL, W = NULL;
  PetscMPIInt        rank;

  PetscFunctionBeginUser;
  (void)c;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  *gB = NULL;
  for (PetscInt i = fi->rs; i < fi->re; i++) {
    if (fi->bcol[i] >= 0) nBloc++;
    else nIloc++;
  }
  PetscCall(ResidualRows(fi, se, cb, ncol, Qc, lam, nIloc, &R, &RI));
  /* interior part: W = K_II^{-1} R_I, eta2 = diag(R_I^T W) */
  for (PetscInt k = 0; k < ncol; k++) eta2[k] = 0;
  if (fi->nI > 0 && ncol > 0) {
    const PetscScalar *w;
    PetscReal         *part;
    PetscCall(MatCreateDense(fi->comm, nIloc, PETSC_DECIDE, fi->nI, ncol, RI, &RIm));
    { /* the previous round's W as the output when it fits (a fresh n_I x ncol block costs its zeroing and first touch) */
      PetscInt m = -1, nc = -1;
      if (fi->Wres) PetscCall(MatGetSize(fi->Wres, &m, &nc));
      if (m == fi->nI && nc == ncol) {
        W        = fi->Wres;
        fi->Wres = NULL;
      } else PetscCall(MatDuplicate(RIm, MAT_DO_NOT_COPY_VALUES, &W));
    }
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
  /* kept for residual corrections (correct.c), and what makes them again */
  PetscCall(MatDestroy(&fi->Wres));
  PetscCall(PetscFree(fi->Qres));
  PetscCall(PetscFree(fi->lamres));
  fi->Wres  = W;
  fi->nWres = W ? ncol : 0;
  fi->Nres  = se->nb + se->nq;
  fi->cbres = cb;
  if (W) {
    PetscCall(PetscMalloc1(fi->Nres * ncol, &fi->Qres));
    PetscCall(PetscMalloc1(ncol, &fi->lamres));
    PetscCall(PetscArraycpy(fi->Qres, Qc, fi->Nres * ncol));
    PetscCall(PetscArraycpy(fi->lamres, lam, ncol));
  }
  PetscCall(MatDestroy(&RIm));
  PetscCall(PetscFree(RI));
  PetscCall(PetscFree(R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceResidualColumns(DRFixedInterface *fi, DRSuperelement *se, PetscInt nsel, const PetscInt sel[], Mat *Z)
{
  PetscInt     nl = 0, ldz, N = fi->Nres;
  PetscScalar *z;

  PetscFunctionBeginUser;
  *Z = NULL;
  PetscCall(MatGetLocalSize(fi->KII, &nl, NULL));
  for (PetscInt j = 0; j < nsel; j++) PetscCheck(sel[j] >= 0 && sel[j] < fi->nWres, fi->comm, PETSC_ERR_ARG_OUTOFRANGE, "component '%s': residual correction %" PetscInt_FMT " of %" PetscInt_FMT " held", fi->name, sel[j], fi->nWres);
  PetscCall(MatCreateDense(fi->comm, nl, PETSC_DECIDE, fi->nI, nsel, NULL, Z));
  PetscCall(MatDenseGetLDA(*Z, &ldz));
  if (fi->Wres) { /* held: the selected columns copied */
    const PetscScalar *w;
    PetscInt           ldw;
    PetscCall(MatDenseGetLDA(fi->Wres, &ldw));
    PetscCall(MatDenseGetArray(*Z, &z));
    PetscCall(MatDenseGetArrayRead(fi->Wres, &w));
    for (PetscInt j = 0; j < nsel; j++) PetscCall(PetscArraycpy(z + j * ldz, w + sel[j] * ldw, nl));
    PetscCall(MatDenseRestoreArrayRead(fi->Wres, &w));
    PetscCall(MatDenseRestoreArray(*Z, &z));
  } else { /* released: r of the selected modes formed again, K_II^{-1} r_I solved for them */
    PetscReal *Q, *lam, *R, *RI;
    Mat        RIm;
    PetscCheck(N == se->nb + se->nq, fi->comm, PETSC_ERR_ORDER, "component '%s': the basis changed (%" PetscInt_FMT " columns, the residual had %" PetscInt_FMT ") before its residual corrections", fi->name, se->nb + se->nq, N);
    PetscCheck(fi->F, fi->comm, PETSC_ERR_ORDER, "component '%s': residual columns made again without the factorization of K_II", fi->name);
    PetscCall(PetscMalloc2(N * nsel + 1, &Q, nsel + 1, &lam));
    for (PetscInt j = 0; j < nsel; j++) {
      PetscCall(PetscArraycpy(Q + j * N, fi->Qres + sel[j] * N, N));
      lam[j] = fi->lamres[sel[j]];
    }
    PetscCall(ResidualRows(fi, se, fi->cbres, nsel, Q, lam, nl, &R, &RI));
    PetscCall(MatCreateDense(fi->comm, nl, PETSC_DECIDE, fi->nI, nsel, RI, &RIm));
    PetscCall(DRReductionBlockSolve(fi->F, RIm, *Z));
    PetscCall(MatDestroy(&RIm));
    PetscCall(PetscFree2(Q, lam));
    PetscCall(PetscFree(R));
    PetscCall(PetscFree(RI));
    PetscCall(PetscInfo(NULL, "component '%s': %" PetscInt_FMT " of %" PetscInt_FMT " residual columns K_II^{-1} r_I solved again (the block was released)\n", fi->name, nsel, fi->nWres));
  }
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
