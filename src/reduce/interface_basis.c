/* Interface reduction before the projection for the
 * fixed-interface family.
 *
 * Phase 1 (DRFixedInterfacePencil): the component's part of the interface
 * pencil, its boundary Schur complement S_c = K_BB - K_BI K_II^{-1} K_IB and
 * Guyan mass M_c = Psi_c^T M Psi_c (Psi_c = [I; -K_II^{-1} K_IB]).  On a
 * one-rank group both come from MUMPS partial factorizations with the
 * boundary as the Schur set, without the nb block solves of the constraint
 * modes: S(s) is the Schur complement of K - s M, S(0) = S_c, and
 * dS/ds(0) = -M_c, so M_c = (S(0) - S(s)) / s + O(s / lambda_1) with a small
 * negative s = -1e-3 lambda_1 (lambda_1: the lowest fixed-interface
 * eigenvalue; the relative error of M_c is about |s| / lambda_1 = 1e-3,
 * harmless: M_c only chooses the interface basis, the projection below is
 * exact).  On a group of several ranks (PETSc's MUMPS interface has no
 * parallel Schur complement) they come from the full constraint modes, as
 * Craig-Bampton computes them.  A component without interior DOFs (the
 * separator of cms.partition) has S_c = K and M_c = M: copied.
 *
 * Phase 2 (DRFixedInterfaceApplyBasis): with V_c, the component's rows of
 * the kept characteristic constraint modes of the assembled pencil (computed
 * by the CMS root), the basis is
 *     T = [ V_c      0   ]     X = -K_II^{-1} K_IB V_c (ncc block solves)
 *         [ X        Phi ]
 * so K_r = [V_c^T K_BB V_c + (K_IB V_c)^T X, 0; 0, Lambda] (no projection of
 * K: exact zero coupling, as Craig-Bampton) and M_r = T^T M T.  Assembled
 * over the components this is the Galerkin projection of the full pencil on
 * the Craig-Bampton basis times blkdiag(V, I): with every CC mode kept it is
 * Craig-Bampton exactly, truncated it still bounds the eigenvalues from
 * above (Rayleigh-Ritz). */
#include "fixed_interface.h"
#include <petscblaslapack.h>

/* Dense nb x nb Schur complement (in superelement boundary order) of
 * K - s M with the boundary as the Schur set: one MUMPS factorization. */
static PetscErrorCode SchurOf(DRFixedInterface *fi, PetscReal s, PetscReal *S)
{
  Mat                  A, F, Sm;
  MatFactorInfo        info;
  MatFactorSchurStatus st;
  const PetscScalar   *a;
  PetscInt             lda, *col, k = 0;
  PetscBool            upper0 = PETSC_TRUE, lower0 = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(fi->K, MAT_COPY_VALUES, &A));
  if (s != 0) PetscCall(MatAXPY(A, -s, fi->M, UNKNOWN_NONZERO_PATTERN));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  /* Only the interior block is eliminated (the Schur block is returned,
   * not factored), and K_II - s M_II with s <= 0 is positive definite: the
   * component's modes, solved before, proved K_II regular.  Told so, MUMPS
   * factors without pivoting (SYM = 1) instead of by its symmetric
   * indefinite LDL^T: the 8 Schur factorizations of the CalculiX bar's 4
   * parts on one rank 2.0-2.2 -> 1.9-2.0 s (bench/README.md "CMS on the CalculiX bar at 200 modes"). */
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_TRUE));
  PetscCall(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(MatFactorSetSchurIS(F, fi->isB));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(F, A, NULL, &info));
  PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  PetscCall(MatFactorCreateSchurComplement(F, &Sm, &st));
  PetscCall(MatDenseGetLDA(Sm, &lda));
  PetscCall(MatDenseGetArrayRead(Sm, &a));
  /* isB holds the boundary DOFs in ascending order; bcol maps them to the
   * superelement's (sorted-label) order */
  PetscCall(PetscMalloc1(fi->nb + 1, &col));
  for (PetscInt i = 0; i < fi->n; i++)
    if (fi->bcol[i] >= 0) col[k++] = fi->bcol[i];
  /* a symmetric factorization may return one triangle only */
  for (PetscInt j = 0; j < fi->nb; j++)
    for (PetscInt i = 0; i < j; i++) {
      if (a[i + j * lda] != 0) upper0 = PETSC_FALSE;
      if (a[j + i * lda] != 0) lower0 = PETSC_FALSE;
    }
  for (PetscInt j = 0; j < fi->nb; j++)
    for (PetscInt i = 0; i < fi->nb; i++) {
      PetscReal v;
      if (upper0 && !lower0) v = i >= j ? a[i + j * lda] : a[j + i * lda];
      else if (lower0 && !upper0) v = i <= j ? a[i + j * lda] : a[j + i * lda];
      else v = 0.5 * (a[i + j * lda] + a[j + i * lda]);
      S[col[i] + col[j] * fi->nb] = v;
    }
  PetscCall(MatDenseRestoreArrayRead(Sm, &a));
  PetscCall(PetscFree(col));
  PetscCall(MatDestroy(&Sm));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Several ranks: S_c and M_c from the full constraint modes (kept in fi->X
 * for phase 2, which then needs no solve). */
static PetscErrorCode PencilFromConstraintModes(DRFixedInterface *fi, DRReduction r, PetscReal **S, PetscReal **MG)
{
  DRSuperelement tmp;
  PetscInt       nq = fi->nq;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&tmp, sizeof(tmp)));
  PetscCall(DRFixedInterfaceConstraintModes(fi, r));
  fi->nq = 0; /* the boundary columns only */
  tmp.nb = fi->nb;
  tmp.nq = 0;
  PetscCall(DRFixedInterfaceBuildT(fi, &tmp));
  PetscCall(DRFixedInterfaceReducedStiffness(fi, &tmp));
  PetscCall(DRSuperelementProject(fi->c, &tmp));
  fi->nq = nq;
  *S     = tmp.K;
  *MG    = tmp.M;
  tmp.K = tmp.M = NULL;
  PetscCall(DRSuperelementReset(&tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A component without interior DOFs (the separator of cms.partition, a
 * component kept physical): S_c = K and M_c = M, in superelement boundary
 * order.  Copied entry by entry, O(nnz); the general path would form the
 * nb x nb identity as "constraint modes" and project it densely, O(nb^3)
 * (0.9 s for the 2250-DOF separator of a 46k-DOF plate in 8, about 13 s for
 * the 5400 of a 200k-DOF one).  On a group of several ranks the rows are
 * gathered to its rank 0 first. */
static PetscErrorCode PencilOfBoundary(DRFixedInterface *fi, PetscReal **S, PetscReal **MG)
{
  PetscMPIInt rank, size;
  PetscInt    nb = fi->nb;
  Mat         A[2] = {fi->K, fi->M};
  PetscReal  *out[2];

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  PetscCallMPI(MPI_Comm_size(fi->comm, &size));
  out[0] = out[1] = NULL;
  if (!rank) { /* the arrays live on the component's rank 0 */
    PetscCall(PetscCalloc1(nb * nb + 1, &out[0]));
    PetscCall(PetscCalloc1(nb * nb + 1, &out[1]));
  }
  for (PetscInt m = 0; m < 2; m++) {
    Mat *sub = NULL, Aseq = A[m];
    IS   is;
    if (size > 1) { /* every row and column on rank 0, none elsewhere */
      PetscCall(ISCreateStride(PETSC_COMM_SELF, rank ? 0 : fi->n, 0, 1, &is));
      PetscCall(MatCreateSubMatrices(A[m], 1, &is, &is, MAT_INITIAL_MATRIX, &sub));
      PetscCall(ISDestroy(&is));
      Aseq = sub[0];
    }
    if (!rank)
      for (PetscInt i = 0; i < fi->n; i++) {
        const PetscInt    *cols;
        const PetscScalar *vals;
        PetscInt           nc;
        PetscCall(MatGetRow(Aseq, i, &nc, &cols, &vals));
        for (PetscInt k = 0; k < nc; k++) out[m][fi->bcol[i] + fi->bcol[cols[k]] * nb] = vals[k];
        PetscCall(MatRestoreRow(Aseq, i, &nc, &cols, &vals));
      }
    if (sub) PetscCall(MatDestroySubMatrices(1, &sub));
  }
  *S  = out[0];
  *MG = out[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfacePencil(DRFixedInterface *fi, DRReduction r, PetscReal **S, PetscReal **MG)
{
  PetscMPIInt size, rank;
  PetscInt    nb = fi->nb;

  PetscFunctionBeginUser;
  *S = *MG = NULL;
  PetscCallMPI(MPI_Comm_size(fi->comm, &size));
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  PetscCall(PetscLogEventBegin(DRRED_Constraint, 0, 0, 0, 0));
  if (fi->nI == 0 && nb > 0) PetscCall(PencilOfBoundary(fi, S, MG));
  else if (size > 1 || nb == 0) PetscCall(PencilFromConstraintModes(fi, r, S, MG));
  else {
    PetscReal        *S0, *Ss, s, lam1;
    const PetscReal  *lam;
    PetscInt          nm;
    PetscCall(DRModalGetModes(fi->modal, &nm, NULL, &lam, NULL, NULL));
    /* no mode kept below the cutoff: lambda_1 lies above it */
    lam1 = nm > 0 ? lam[0] : PetscSqr(2 * PETSC_PI * r->cutoff_hz);
    PetscCheck(lam1 > 0, fi->comm, PETSC_ERR_PLIB, "%s: component '%s': no positive fixed-interface eigenvalue to scale the interface pencil", fi->source, fi->name);
    s = -1e-3 * lam1;
    PetscCall(PetscCalloc2(nb * nb, &S0, nb * nb, &Ss));
    PetscCall(SchurOf(fi, 0, S0));
    PetscCall(SchurOf(fi, s, Ss));
    for (PetscInt i = 0; i < nb * nb; i++) Ss[i] = (S0[i] - Ss[i]) / s;
    PetscCall(PetscMalloc1(nb * nb, S));
    PetscCall(PetscMalloc1(nb * nb, MG));
    PetscCall(PetscArraycpy(*S, S0, nb * nb));
    PetscCall(PetscArraycpy(*MG, Ss, nb * nb));
    PetscCall(PetscFree2(S0, Ss));
  }
  PetscCall(PetscLogEventEnd(DRRED_Constraint, 0, 0, 0, 0));
  if (rank) { /* the arrays live on the component's rank 0 */
    PetscCall(PetscFree(*S));
    PetscCall(PetscFree(*MG));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* This rank's boundary rows of V_c's columns j0 .. ncc - 1 (V_c: nb x ncc,
 * column-major, every rank) as a dense matrix laid out like the columns of
 * K_IB (isB's local part). */
static PetscErrorCode BoundaryRows(DRFixedInterface *fi, PetscInt j0, PetscInt ncc, const PetscReal Vc[], Mat *Vd)
{
  PetscInt     nBloc = 0, l = 0, ld;
  PetscScalar *v;

  PetscFunctionBeginUser;
  for (PetscInt i = fi->rs; i < fi->re; i++)
    if (fi->bcol[i] >= 0) nBloc++;
  PetscCall(MatCreateDense(fi->comm, nBloc, PETSC_DECIDE, fi->nb, ncc - j0, NULL, Vd));
  PetscCall(MatDenseGetLDA(*Vd, &ld));
  PetscCall(MatDenseGetArray(*Vd, &v));
  for (PetscInt i = fi->rs; i < fi->re; i++)
    if (fi->bcol[i] >= 0) {
      for (PetscInt j = j0; j < ncc; j++) v[l + (j - j0) * ld] = Vc[fi->bcol[i] + j * fi->nb];
      l++;
    }
  PetscCall(MatDenseRestoreArray(*Vd, &v));
  PetscCall(MatAssemblyBegin(*Vd, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*Vd, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Applied again on more CC modes (the interface refinement of cms.tol_pct):
 * the leading columns of the new V_c that equal the previous ones (the
 * refinement takes the CC modes the root kept, the same vectors; bitwise
 * on every rank, else none) keep their X = -K_II^{-1} K_IB v, the interior
 * rows of the previous T's CC columns: only the new columns are solved
 * (200k-DOF plate in 4 parts: 676 of 4136 block-solve columns). */
static PetscErrorCode ReusableColumns(DRFixedInterface *fi, Mat Told, PetscInt nold, PetscInt ncc, const PetscReal Vc[], PetscInt *nre)
{
  const PetscScalar *t;
  PetscInt           ld, n = PetscMin(nold, ncc);
  PetscBool          same = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(MatDenseGetLDA(Told, &ld));
  PetscCall(MatDenseGetArrayRead(Told, &t));
  for (PetscInt i = fi->rs; same && i < fi->re; i++)
    if (fi->bcol[i] >= 0)
      for (PetscInt j = 0; same && j < n; j++) same = (PetscBool)(t[(i - fi->rs) + j * ld] == Vc[fi->bcol[i] + j * fi->nb]);
  PetscCall(MatDenseRestoreArrayRead(Told, &t));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, MPIU_BOOL, MPI_LAND, fi->comm));
  *nre = same ? n : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* X's first n columns from the interior rows of Told's (same row layout) */
static PetscErrorCode CopyInteriorColumns(DRFixedInterface *fi, Mat Told, PetscInt n, Mat X)
{
  const PetscScalar *t;
  PetscScalar       *x;
  PetscInt           ldt, ldx, li = 0;

  PetscFunctionBeginUser;
  PetscCall(MatDenseGetLDA(Told, &ldt));
  PetscCall(MatDenseGetLDA(X, &ldx));
  PetscCall(MatDenseGetArrayRead(Told, &t));
  PetscCall(MatDenseGetArray(X, &x));
  for (PetscInt i = fi->rs; i < fi->re; i++)
    if (fi->bcol[i] < 0) {
      for (PetscInt j = 0; j < n; j++) x[li + j * ldx] = t[(i - fi->rs) + j * ldt];
      li++;
    }
  PetscCall(MatDenseRestoreArray(X, &x));
  PetscCall(MatDenseRestoreArrayRead(Told, &t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* X's columns from n0 on: -K_II^{-1} (K_IB V_c), one block solve on the
 * right-hand sides of those columns only (the 1M-DOF plate's subdomains:
 * 238 new of 490 columns in the refinement round, 121k rows each) */
static PetscErrorCode SolveColumns(DRFixedInterface *fi, DRReduction r, Mat KIB, PetscInt n0, PetscInt ncc, const PetscReal Vc[], Mat X)
{
  Mat                Vn, Bn, Xn;
  const PetscScalar *xs;
  PetscScalar       *x;
  PetscInt           m, ldx, ldxn;

  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceFactor(fi, r));
  PetscCall(BoundaryRows(fi, n0, ncc, Vc, &Vn));
  PetscCall(MatMatMult(KIB, Vn, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Bn));
  PetscCall(MatDestroy(&Vn));
  if (!n0) {
    PetscCall(DRReductionBlockSolve(fi->F, Bn, X));
    PetscCall(MatScale(X, -1.0));
    PetscCall(MatDestroy(&Bn));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatDuplicate(Bn, MAT_DO_NOT_COPY_VALUES, &Xn));
  PetscCall(DRReductionBlockSolve(fi->F, Bn, Xn));
  PetscCall(MatDestroy(&Bn));
  PetscCall(MatGetLocalSize(Xn, &m, NULL));
  PetscCall(MatDenseGetLDA(X, &ldx));
  PetscCall(MatDenseGetLDA(Xn, &ldxn));
  PetscCall(MatDenseGetArrayRead(Xn, &xs));
  PetscCall(MatDenseGetArray(X, &x));
  for (PetscInt j = n0; j < ncc; j++)
    for (PetscInt i = 0; i < m; i++) x[i + j * ldx] = -xs[i + (j - n0) * ldxn];
  PetscCall(MatDenseRestoreArray(X, &x));
  PetscCall(MatDenseRestoreArrayRead(Xn, &xs));
  PetscCall(MatDestroy(&Xn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M_r = T^T M T of a basis applied again on more CC modes, from the
 * previous M_r: the new T's interior columns and first nre CC columns are
 * the previous basis' (copied, bitwise), so their blocks are copied and
 * only the ncc - nre new CC columns are multiplied by M and projected (one
 * sparse product and one GEMM against all N columns, instead of N of each:
 * plate 200k in 4 parts, 169 of about 500 columns).  Mold: Told^T M Told on
 * rank 0 (nold CC + nq interior columns). */
static PetscErrorCode ProjectAgain(DRFixedInterface *fi, DRSuperelement *se, PetscInt nold, PetscInt nre, const PetscReal *Mold)
{
  PetscInt     ncc = se->nb, nq = se->nq, N = ncc + nq, Nold = nold + nq, nnew = ncc - nre;
  PetscReal   *TtW = NULL, *M = NULL;
  PetscMPIInt  rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  /* T^T (M T_new) (N x nnew) on rank 0 */
  if (nnew > 0) PetscCall(DRFixedInterfaceColumnCoupling(fi, fi->M, se->T, nre, ncc, N, &TtW, NULL));
  if (!rank) { /* old blocks copied, new columns and rows from T^T W (new-new block symmetrized) */
    PetscInt *o; /* new index -> old index, -1 for a new CC column */
    PetscCall(PetscMalloc1(N + 1, &o));
    for (PetscInt i = 0; i < N; i++) o[i] = i < nre ? i : i < ncc ? -1 : nold + (i - ncc);
    PetscCall(PetscMalloc1(N * N + 1, &M));
    for (PetscInt j = 0; j < N; j++)
      for (PetscInt i = 0; i < N; i++) {
        if (o[i] >= 0 && o[j] >= 0) M[i + j * N] = Mold[o[i] + o[j] * Nold];
        else if (o[j] < 0 && o[i] >= 0) M[i + j * N] = TtW[i + (j - nre) * N];
        else if (o[i] < 0 && o[j] >= 0) M[i + j * N] = TtW[j + (i - nre) * N];
        else M[i + j * N] = 0.5 * (TtW[i + (j - nre) * N] + TtW[j + (i - nre) * N]);
      }
    PetscCall(PetscFree(o));
  }
  PetscCall(PetscFree(TtW));
  PetscCall(PetscFree(se->M));
  se->M        = M;
  se->M_formed = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceApplyBasis(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt ncc, const PetscReal Vc[], const DRLabel cclabels[])
{
  Mat          Vd, KIB, Bv, X = NULL, KBB, KV, Told = NULL;
  PetscInt     nq = fi->nq, N = ncc + nq, ldt, ldx = 0, li = 0, nold = 0, nreM = -1;
  PetscScalar *t;
  const PetscScalar *x = NULL, **ph;
  PetscReal   *kcc = NULL, *XtB = NULL, *lam = NULL, *Mold = NULL;
  PetscMPIInt  rank;
  Vec         *modes = fi->modes, *copies = NULL; /* copies: the kept vectors out of the previous T */
  PetscBool    again = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  /* the interior vectors and their stiffness block: from the eigensolver
   * (first application: the modes, diag(lambda)), or, applied again on more
   * CC modes (the interface refinement of cms.tol_pct), the kept copies and
   * the modal block of the current K_r (rank 0; not diagonal once residual
   * corrections were added), so nothing is recomputed; the modal block does
   * not depend on the boundary basis */
  PetscCall(PetscCalloc1(nq * nq + 1, &lam));
  if (!se->T) { /* phase 1 computed (the modal solver's), or restored (restore.c: kept copies, lam0) */
    const PetscReal *l = fi->lam0;
    if (nq && !l) PetscCall(DRModalGetModes(fi->modal, NULL, NULL, &l, NULL, NULL));
    if (!fi->modes) modes = fi->kept;
    for (PetscInt k = 0; k < nq; k++) lam[k * (nq + 1)] = l[k];
  } else {
    PetscCheck(se->nq == nq, fi->comm, PETSC_ERR_ORDER, "component '%s': interface basis applied again with %" PetscInt_FMT " kept vectors for %" PetscInt_FMT, fi->name, se->nq, nq);
    /* the kept vectors out of the previous T (none held beside it), so it
     * can go once its reusable CC columns are copied */
    if (nq > 0 && fi->nI > 0) PetscCall(DRFixedInterfaceKeptVecs(fi, se->T, se->nb, nq, &copies));
    modes = copies;
    again = PETSC_TRUE;
    if (!rank)
      for (PetscInt j = 0; j < nq; j++)
        for (PetscInt i = 0; i < nq; i++) lam[i + j * nq] = se->K[(se->nb + i) + (se->nb + j) * (se->nb + nq)];
    Told  = se->T; /* its CC columns may be reused below */
    nold  = se->nb;
    se->T = NULL;
    Mold  = se->M; /* the new M_r from it (ProjectAgain) */
    se->M  = NULL;
    PetscCall(PetscFree(se->K));
  }
  PetscCall(PetscLogEventBegin(DRRED_Constraint, 0, 0, 0, 0));
  PetscCall(BoundaryRows(fi, 0, ncc, Vc, &Vd));
  /* X = -K_II^{-1} K_IB V_c: from the full constraint modes when they were
   * made (several ranks), else ncc block solves (none without CC modes) */
  if (fi->nI > 0 && ncc > 0) {
    PetscCall(MatCreateSubMatrix(fi->K, fi->isI, fi->isB, MAT_INITIAL_MATRIX, &KIB));
    if (fi->X) PetscCall(MatMatMult(fi->X, Vd, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &X));
    else {
      PetscInt nre = 0, mI;
      if (Told && !r->no_cc_reuse) PetscCall(ReusableColumns(fi, Told, nold, ncc, Vc, &nre));
      PetscCall(MatGetLocalSize(KIB, &mI, NULL));
      PetscCall(MatCreateDense(fi->comm, mI, PETSC_DECIDE, fi->nI, ncc, NULL, &X));
      PetscCall(PetscInfo(NULL, "component '%s': %" PetscInt_FMT " of %" PetscInt_FMT " CC columns kept from the previous interface basis (%s)\n", fi->name, nre, ncc, Told ? "applied again" : "first"));
      if (nre > 0) PetscCall(CopyInteriorColumns(fi, Told, nre, X));
      nreM = nre;
      PetscCall(MatDestroy(&Told)); /* all of it that is reused is copied: not beside the new T */
      if (nre < ncc) PetscCall(SolveColumns(fi, r, KIB, nre, ncc, Vc, X));
    }
    /* X^T K_IB V_c (rank 0) as V_c^T (K_BI X), symmetric: no n_I x ncc
     * block K_IB V_c beside X */
    PetscCall(MatTransposeMatMult(KIB, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Bv));
    PetscCall(MatDestroy(&KIB));
    PetscCall(DRDenseTransposeProduct(Vd, Bv, &XtB));
    PetscCall(MatDestroy(&Bv));
  }
  /* V_c^T K_BB V_c on rank 0 */
  if (ncc > 0) {
    PetscCall(MatCreateSubMatrix(fi->K, fi->isB, fi->isB, MAT_INITIAL_MATRIX, &KBB));
    PetscCall(MatMatMult(KBB, Vd, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KV));
    PetscCall(MatDestroy(&KBB));
    PetscCall(DRDenseTransposeProduct(Vd, KV, &kcc));
    PetscCall(MatDestroy(&KV));
  }
  PetscCall(MatDestroy(&Vd));
  PetscCall(PetscLogEventEnd(DRRED_Constraint, 0, 0, 0, 0));
  /* T = [V_c 0; X Phi] */
  PetscCall(DRFixedInterfaceBasisCreate(fi, N, &se->T)); /* grown in place by Append */
  PetscCall(MatDenseGetArray(se->T, &t));
  PetscCall(MatDenseGetLDA(se->T, &ldt));
  if (X) {
    PetscCall(MatDenseGetArrayRead(X, &x));
    PetscCall(MatDenseGetLDA(X, &ldx));
  }
  PetscCall(PetscMalloc1(nq + 1, &ph));
  for (PetscInt k = 0; k < nq; k++) PetscCall(VecGetArrayRead(modes[k], &ph[k]));
  for (PetscInt i = fi->rs; i < fi->re; i++) {
    PetscInt rr = i - fi->rs;
    for (PetscInt j = 0; j < N; j++) t[rr + j * ldt] = 0;
    if (fi->bcol[i] >= 0)
      for (PetscInt j = 0; j < ncc; j++) t[rr + j * ldt] = Vc[fi->bcol[i] + j * fi->nb];
    else {
      for (PetscInt j = 0; j < ncc; j++) t[rr + j * ldt] = x[li + j * ldx];
      for (PetscInt k = 0; k < nq; k++) t[rr + (ncc + k) * ldt] = ph[k][li];
      li++;
    }
  }
  for (PetscInt k = 0; k < nq; k++) PetscCall(VecRestoreArrayRead(modes[k], &ph[k]));
  PetscCall(PetscFree(ph));
  if (X) PetscCall(MatDenseRestoreArrayRead(X, &x));
  PetscCall(MatDenseRestoreArray(se->T, &t));
  PetscCall(MatAssemblyBegin(se->T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(se->T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatDestroy(&X));
  /* the coupling coordinates: ncc CC modes shared by all components */
  PetscCall(PetscFree(se->blabels));
  PetscCall(PetscMalloc1(ncc + 1, &se->blabels));
  PetscCall(PetscArraycpy(se->blabels, cclabels, ncc));
  se->nb = ncc;
  /* K_r on rank 0 */
  if (!rank) {
    PetscCall(PetscCalloc1(N * N + 1, &se->K));
    for (PetscInt j = 0; j < ncc; j++)
      for (PetscInt i = 0; i < ncc; i++) se->K[i + j * N] = kcc[i + j * ncc] + (XtB ? 0.5 * (XtB[i + j * ncc] + XtB[j + i * ncc]) : 0);
    for (PetscInt j = 0; j < nq; j++)
      for (PetscInt i = 0; i < nq; i++) se->K[(ncc + i) + (ncc + j) * N] = lam[i + j * nq];
  }
  se->K_formed = PETSC_TRUE;
  /* M_r: from the previous basis' products where it was applied before and
   * kept them (the reused CC columns known: one-rank group), else by the
   * projection that follows */
  {
    PetscBool reuse = (PetscBool)(again && nreM >= 0 && !r->no_cc_reuse);
    if (reuse && !rank) reuse = (PetscBool)(Mold != NULL);
    PetscCallMPI(MPI_Bcast(&reuse, 1, MPIU_BOOL, 0, fi->comm));
    if (reuse) PetscCall(ProjectAgain(fi, se, nold, nreM, Mold));
  }
  PetscCall(MatDestroy(&Told));
  if (copies) PetscCall(VecDestroyVecs(nq, &copies));
  PetscCall(PetscFree(Mold));
  PetscCall(PetscFree(lam));
  PetscCall(PetscFree(kcc));
  PetscCall(PetscFree(XtB));
  PetscFunctionReturn(PETSC_SUCCESS);
}
