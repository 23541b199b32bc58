/* Appending interior vectors to a built Craig-Bampton superelement (the
 * shared step of the CMS refinement: more fixed-interface modes, enrich.c,
 * and residual corrections, correct.c).  The constraint columns, the
 * boundary blocks of K_r and M_r and the K_II factorization do not change:
 * only the new columns of T and their couplings T^T M T_new (and, for
 * vectors that are not fixed-interface modes, T^T K T_new) are computed.
 * Any interior vector v (zero on the boundary) has no stiffness coupling
 * with the constraint columns: [V_c; X]^T K [0; v] = V_c^T (K_BI - K_BI
 * K_II^{-1} K_II) v = 0, so the boundary-modal block of K_r stays zero. */
#include "fixed_interface.h"
#include <petscblaslapack.h>

PetscErrorCode DRFixedInterfaceBasisCreate(DRFixedInterface *fi, PetscInt N, Mat *T)
{
  PetscFunctionBeginUser;
  PetscCall(DRSuperelementBasisCreate(fi->comm, fi->re - fi->rs, fi->n, N, fi->name, T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* *T (N0 columns) resized to N columns in place, its first min(N0, N)
 * columns kept; *grown false (nothing done): T is not DRFixedInterfaceBasisCreate's or
 * someone else holds it too. */
static PetscErrorCode BasisResize(DRFixedInterface *fi, Mat *T, PetscInt N, PetscBool *grown)
{
  PetscContainer c = NULL;
  PetscInt       nloc = fi->re - fi->rs;
  void          *a, *b;
  PetscBool      ok;

  PetscFunctionBeginUser;
  PetscCall(DRSuperelementBasisOwn(*T, &c));
  ok = (PetscBool)(c != NULL);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, fi->comm));
  *grown = ok;
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscObjectReference((PetscObject)c));
  PetscCall(MatDestroy(T));
  PetscCall(PetscContainerGetPointer(c, &a));
  b = realloc(a, (size_t)PetscMax(nloc * N, 1) * sizeof(PetscScalar));
  PetscCheck(b, PETSC_COMM_SELF, PETSC_ERR_MEM, "component '%s': out of memory growing its basis to %" PetscInt_FMT " x %" PetscInt_FMT " local", fi->name, nloc, N);
  PetscCall(PetscContainerSetPointer(c, b));
  PetscCall(DRSuperelementBasisWrap(fi->comm, nloc, fi->n, N, c, T));
  PetscCall(PetscContainerDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root of the component: A^T B summed over the component's ranks for local
 * column blocks (nloc rows): out (m x n, column-major, rank 0). */
static PetscErrorCode LocalTransposeProduct(DRFixedInterface *fi, PetscInt nloc, PetscInt m, const PetscScalar *a, PetscInt lda, PetscInt n, const PetscScalar *b, PetscInt ldb, PetscReal **out)
{
  PetscReal  *loc;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  PetscCall(PetscCalloc1(m * n + 1, &loc));
  if (nloc > 0 && m > 0 && n > 0) {
    PetscBLASInt mm, nn, kk, la, lb, lc;
    PetscScalar  one = 1, zero = 0;
    PetscCall(PetscBLASIntCast(m, &mm));
    PetscCall(PetscBLASIntCast(n, &nn));
    PetscCall(PetscBLASIntCast(nloc, &kk));
    PetscCall(PetscBLASIntCast(lda, &la));
    PetscCall(PetscBLASIntCast(ldb, &lb));
    lc = mm;
    BLASgemm_("T", "N", &mm, &nn, &kk, &one, a, &la, b, &lb, &zero, loc, &lc);
  }
  *out = NULL;
  if (!rank) PetscCall(PetscMalloc1(m * n + 1, out));
  PetscCallMPI(MPI_Reduce(loc, *out, (PetscMPIInt)(m * n), MPIU_REAL, MPIU_SUM, 0, fi->comm));
  PetscCall(PetscFree(loc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceColumnCoupling(DRFixedInterface *fi, Mat A, Mat T, PetscInt Nkeep, PetscInt N, PetscInt nrows, PetscReal **out, Mat *AT)
{
  Mat                Tq, W;
  const PetscScalar *t, *w;
  PetscInt           ldt, ldw;

  PetscFunctionBeginUser;
  PetscCall(MatDenseGetSubMatrix(T, PETSC_DECIDE, PETSC_DECIDE, Nkeep, N, &Tq));
  PetscCall(MatMatMult(A, Tq, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &W));
  PetscCall(MatDenseRestoreSubMatrix(T, &Tq));
  PetscCall(MatDenseGetLDA(W, &ldw));
  PetscCall(MatDenseGetLDA(T, &ldt));
  PetscCall(MatDenseGetArrayRead(T, &t));
  PetscCall(MatDenseGetArrayRead(W, &w));
  PetscCall(LocalTransposeProduct(fi, fi->re - fi->rs, nrows, t, ldt, N - Nkeep, w, ldw, out));
  PetscCall(MatDenseRestoreArrayRead(W, &w));
  PetscCall(MatDenseRestoreArrayRead(T, &t));
  if (AT) *AT = W;
  else PetscCall(MatDestroy(&W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* [A(:, 0:na) | B] as a new dense matrix with the rows of A */
static PetscErrorCode ConcatColumns(Mat A, PetscInt na, Mat B, PetscInt nbc, Mat *C)
{
  PetscInt           nloc, n, lda, ldb, ldc;
  const PetscScalar *a, *b;
  PetscScalar       *c;

  PetscFunctionBeginUser;
  PetscCall(MatGetLocalSize(A, &nloc, NULL));
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatCreateDense(PetscObjectComm((PetscObject)A), nloc, PETSC_DECIDE, n, na + nbc, NULL, C));
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(MatDenseGetLDA(*C, &ldc));
  PetscCall(MatDenseGetArrayRead(A, &a));
  PetscCall(MatDenseGetArrayWrite(*C, &c));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(MatDenseGetArrayRead(B, &b));
  for (PetscInt j = 0; j < na; j++) PetscCall(PetscArraycpy(c + j * ldc, a + j * lda, nloc));
  for (PetscInt j = 0; j < nbc; j++) PetscCall(PetscArraycpy(c + (na + j) * ldc, b + j * ldb, nloc));
  PetscCall(MatDenseRestoreArrayRead(B, &b));
  PetscCall(MatDenseRestoreArrayWrite(*C, &c));
  PetscCall(MatDenseRestoreArrayRead(A, &a));
  PetscCall(MatAssemblyBegin(*C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceAppend(DRFixedInterface *fi, DRSuperelement *se, PetscInt nold, PetscInt nnew, Vec modes[], const PetscReal lam[], const PetscReal f[], PetscBool modal)
{
  PetscInt     nb = se->nb, nq, N, Nold, Nkeep, nloc = fi->re - fi->rs, ldt, ldo;
  Mat          T, WK = NULL;
  PetscScalar *t;
  const PetscScalar *to;
  PetscReal   *MqAll = NULL, *KqAll = NULL, *K = NULL, *M = NULL, *qf;
  PetscMPIInt  rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  Nold  = se->nb + se->nq;
  Nkeep = nb + nold; /* columns of the old T kept */
  nq    = nold + nnew;
  N     = nb + nq;
  /* T' = [T(:, 0:Nkeep) | new vectors on the interior rows]: T grown in
   * place (its first Nkeep columns stay where they are), else copied */
  {
    PetscBool grown = PETSC_FALSE;
    PetscCall(BasisResize(fi, &se->T, N, &grown));
    PetscCall(PetscInfo(NULL, "component '%s': basis %s to %" PetscInt_FMT " columns\n", fi->name, grown ? "grown in place" : "copied", N));
    if (grown) {
      T     = se->T;
      se->T = NULL;
    } else {
      PetscCall(DRFixedInterfaceBasisCreate(fi, N, &T));
      PetscCall(MatDenseGetLDA(T, &ldt));
      PetscCall(MatDenseGetLDA(se->T, &ldo));
      PetscCall(MatDenseGetArray(T, &t));
      PetscCall(MatDenseGetArrayRead(se->T, &to));
      for (PetscInt j = 0; j < Nkeep; j++)
        for (PetscInt i = 0; i < nloc; i++) t[i + j * ldt] = to[i + j * ldo];
      PetscCall(MatDenseRestoreArrayRead(se->T, &to));
      PetscCall(MatDenseRestoreArray(T, &t));
      PetscCall(MatDestroy(&se->T));
    }
  }
  PetscCall(MatDenseGetLDA(T, &ldt));
  PetscCall(MatDenseGetArray(T, &t));
  for (PetscInt k = 0; k < nnew; k++) {
    const PetscScalar *ph;
    PetscInt           li = 0;
    PetscCall(VecGetArrayRead(modes[k], &ph));
    for (PetscInt i = fi->rs; i < fi->re; i++) t[i - fi->rs + (Nkeep + k) * ldt] = fi->bcol[i] >= 0 ? 0 : ph[li++];
    PetscCall(VecRestoreArrayRead(modes[k], &ph));
  }
  PetscCall(MatDenseRestoreArray(T, &t));
  PetscCall(MatAssemblyBegin(T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(T, MAT_FINAL_ASSEMBLY));
  if (nnew > 0) {
    PetscCall(DRFixedInterfaceColumnCoupling(fi, fi->M, T, Nkeep, N, N, &MqAll, NULL));
    /* fixed-interface modes: K-orthogonal to every kept mode, diag(lam);
     * other vectors: their stiffness coupling with the kept ones computed */
    if (!modal) PetscCall(DRFixedInterfaceColumnCoupling(fi, fi->K, T, Nkeep, N, N, &KqAll, &WK));
  }
  /* K [0; v] of the appended residual corrections (the last ncorr interior
   * vectors), for the residuals (residual.c) */
  if (modal && !nold) PetscCall(MatDestroy(&fi->KC)); /* every kept vector replaced: no correction left */
  if (!modal && nnew > 0) {
    Mat KCn = NULL;
    if (!fi->ncorr) { /* the first corrections: their products are K P */
      KCn = WK;
      WK  = NULL;
    } else if (fi->KC) PetscCall(ConcatColumns(fi->KC, fi->ncorr, WK, nnew, &KCn));
    PetscCall(MatDestroy(&fi->KC)); /* none held: formed again when a residual needs it */
    fi->KC = KCn;
  }
  PetscCall(MatDestroy(&WK));
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
      for (PetscInt i = 0; i < Nkeep; i++) M[i + c * N] = M[c + i * N] = MqAll[i + k * N];
      for (PetscInt l = 0; l <= k; l++) M[Nkeep + l + c * N] = M[c + (Nkeep + l) * N] = 0.5 * (MqAll[Nkeep + l + k * N] + MqAll[c + l * N]);
      if (modal) K[c * (N + 1)] = lam[k];
      else {
        for (PetscInt i = nb; i < Nkeep; i++) K[i + c * N] = K[c + i * N] = KqAll[i + k * N];
        for (PetscInt l = 0; l <= k; l++) K[Nkeep + l + c * N] = K[c + (Nkeep + l) * N] = 0.5 * (KqAll[Nkeep + l + k * N] + KqAll[c + l * N]);
      }
    }
  }
  PetscCall(PetscFree(MqAll));
  PetscCall(PetscFree(KqAll));
  PetscCall(PetscMalloc1(nq + 1, &qf));
  for (PetscInt k = 0; k < nold; k++) qf[k] = se->qfreq_hz[k];
  for (PetscInt k = 0; k < nnew; k++) qf[nold + k] = f[k];
  /* the highest eigenvalue a component eigensolve found: the truncated
   * spectrum lies above it (the error estimate's gap); corrections do not
   * raise it */
  if (modal) {
    if (!nold) se->qtop_hz = 0;
    for (PetscInt k = 0; k < nnew; k++) se->qtop_hz = PetscMax(se->qtop_hz, f[k]);
  }
  /* the kept vectors for the next round: the interior rows of T's columns
   * nb .. (DRFixedInterfaceKeptVecs), no copies beside T */
  if (fi->kept) PetscCall(VecDestroyVecs(fi->nkept, &fi->kept));
  fi->nkept = 0;
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  PetscCall(PetscFree(se->qfreq_hz));
  se->T        = T;
  se->K        = K;
  se->M        = M;
  se->nq       = nq;
  se->qfreq_hz = qf;
  fi->nq       = nq;
  fi->ncorr    = modal ? (nold ? fi->ncorr : 0) : fi->ncorr + nnew;
  PetscFunctionReturn(PETSC_SUCCESS);
}

