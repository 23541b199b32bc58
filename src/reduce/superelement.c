/* The pieces every reduction method shares: the boundary bookkeeping, the
 * projection T^T K T, T^T M T (rank 0) and the superelement's storage. */
#include "reduceimpl.h"
#include <petscblaslapack.h>

PetscErrorCode DRSuperelementSetBoundary(DRComponent c, const PetscBool isboundary[], DRSuperelement *se, PetscInt **bcol)
{
  PetscInt       nb = 0, k = 0, n;
  const DRLabel *labels;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetLabels(c, &n, &labels));
  for (PetscInt i = 0; i < n; i++) nb += isboundary[i] ? 1 : 0;
  PetscCall(PetscMalloc1(nb + 1, &se->blabels));
  PetscCall(PetscMalloc1(n + 1, bcol));
  for (PetscInt i = 0; i < n; i++)
    if (isboundary[i]) se->blabels[k++] = labels[i];
  PetscCall(PetscSortInt64(nb, se->blabels));
  for (PetscInt i = 0; i < n; i++) (*bcol)[i] = isboundary[i] ? DRLabelsFind(nb, se->blabels, labels[i]) : -1;
  se->nb = nb;
  PetscCall(PetscFree(se->pblabels));
  PetscCall(PetscMalloc1(nb + 1, &se->pblabels));
  PetscCall(PetscArraycpy(se->pblabels, se->blabels, nb));
  se->pnb = nb;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The storage of a basis T: an array dynred allocates itself (calloc) and
 * frees with T (a container composed on it), so that Append (append.c) can
 * grow a Craig-Bampton T in place with realloc: for arrays of this size
 * glibc maps them and realloc moves the pages (mremap) instead of copying,
 * so the old and the new T (680 MB each for a 121k-DOF part of the 1M
 * plate) are never resident at once; and so that a basis put aside in a
 * scratch file (reduce.c, DR_REDUCTION_HELD_BASIS_SPILL) comes back as
 * such a T.  The header is made again over a grown array.  A T made
 * elsewhere (restored from a checkpoint) is copied as before. */
#define DR_BASIS_ARRAY "DRBasisArray"

static PetscErrorCode BasisFree(void *p)
{
  free(p);
  return PETSC_SUCCESS;
}

PetscErrorCode DRSuperelementBasisWrap(MPI_Comm comm, PetscInt nloc, PetscInt n, PetscInt N, PetscContainer c, Mat *T)
{
  void *a;

  PetscFunctionBeginUser;
  PetscCall(PetscContainerGetPointer(c, &a));
  PetscCall(MatCreateDense(comm, nloc, PETSC_DECIDE, n, N, (PetscScalar *)a, T));
  PetscCall(PetscObjectCompose((PetscObject)*T, DR_BASIS_ARRAY, (PetscObject)c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementBasisCreate(MPI_Comm comm, PetscInt nloc, PetscInt n, PetscInt N, const char name[], Mat *T)
{
  void          *a = calloc((size_t)PetscMax(nloc * N, 1), sizeof(PetscScalar));
  PetscContainer c;

  PetscFunctionBeginUser;
  PetscCheck(a, PETSC_COMM_SELF, PETSC_ERR_MEM, "component '%s': out of memory for its basis (%" PetscInt_FMT " x %" PetscInt_FMT " local)", name, nloc, N);
  PetscCall(PetscContainerCreate(PETSC_COMM_SELF, &c));
  PetscCall(PetscContainerSetPointer(c, a));
  PetscCall(PetscContainerSetUserDestroy(c, BasisFree));
  PetscCall(DRSuperelementBasisWrap(comm, nloc, n, N, c, T));
  PetscCall(PetscContainerDestroy(&c)); /* T holds it */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementBasisOwn(Mat T, PetscContainer *c)
{
  PetscInt refct;

  PetscFunctionBeginUser;
  *c = NULL;
  PetscCall(PetscObjectQuery((PetscObject)T, DR_BASIS_ARRAY, (PetscObject *)c));
  PetscCall(PetscObjectGetReference((PetscObject)T, &refct));
  if (refct != 1) *c = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementReset(DRSuperelement *se)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(se->blabels));
  PetscCall(PetscFree(se->pblabels));
  PetscCall(PetscFree(se->qfreq_hz));
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  PetscCall(MatDestroy(&se->T));
  PetscCall(PetscMemzero(se, sizeof(*se)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A^T B for two dense matrices with the same row distribution, summed on
 * rank 0 of their communicator: local GEMMs per rank and one reduction
 * (the result is small: (nb+nq)^2), column-major.  Every caller's product
 * is symmetric (T^T (M T), X^T K_IB = -K_BI K_II^{-1} K_IB, ...), so only
 * its upper block triangle is computed -- column blocks of DR_TP_BLOCK
 * columns, each against the columns up to its end: about (1 + 1/nblocks)/2
 * of the full GEMM's flops -- and mirrored (exactly symmetric). */
#define DR_TP_BLOCK 96
PetscErrorCode DRDenseTransposeProduct(Mat A, Mat B, PetscReal **out)
{
  PetscInt           m, N, rs, re, lda, ldb;
  const PetscScalar *a, *b;
  PetscReal         *loc, *all = NULL;
  PetscMPIInt        rank;
  MPI_Comm           comm;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetSize(A, &m, &N));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(MatDenseGetLDA(B, &ldb));
  PetscCall(PetscCalloc1(N * N + 1, &loc));
  PetscCall(MatDenseGetArrayRead(A, &a));
  PetscCall(MatDenseGetArrayRead(B, &b));
  if (re > rs && N > 0) {
    PetscBLASInt k, la, lb, ln;
    PetscScalar  one = 1, zero = 0;
    PetscCall(PetscBLASIntCast(re - rs, &k));
    PetscCall(PetscBLASIntCast(lda, &la));
    PetscCall(PetscBLASIntCast(ldb, &lb));
    PetscCall(PetscBLASIntCast(N, &ln));
    for (PetscInt j0 = 0; j0 < N; j0 += DR_TP_BLOCK) {
      PetscInt     j1 = PetscMin(N, j0 + DR_TP_BLOCK);
      PetscBLASInt mm, nn;
      PetscCall(PetscBLASIntCast(j1, &mm));
      PetscCall(PetscBLASIntCast(j1 - j0, &nn));
      BLASgemm_("T", "N", &mm, &nn, &k, &one, a, &la, b + j0 * ldb, &lb, &zero, loc + j0 * N, &ln);
    }
  }
  PetscCall(MatDenseRestoreArrayRead(A, &a));
  PetscCall(MatDenseRestoreArrayRead(B, &b));
  if (!rank) PetscCall(PetscMalloc1(N * N + 1, &all));
  PetscCallMPI(MPI_Reduce(loc, all, (PetscMPIInt)(N * N), MPIU_REAL, MPIU_SUM, 0, comm));
  PetscCall(PetscFree(loc));
  if (!rank) /* the upper triangle mirrored (the diagonal blocks' lower parts were computed too: overwritten) */
    for (PetscInt j = 0; j < N; j++)
      for (PetscInt i = j + 1; i < N; i++) all[i + j * N] = all[j + i * N];
  *out = all;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementProject(DRComponent c, DRSuperelement *se)
{
  Mat KT, MT, K, M;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetOperators(c, &K, &M, NULL));
  PetscCall(PetscLogEventBegin(DRRED_Project, 0, 0, 0, 0));
  if (!se->K_formed) { /* a method may have formed K_r more accurately itself (flag set on every rank) */
    PetscCall(PetscFree(se->K));
    PetscCall(MatMatMult(K, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KT));
    PetscCall(DRDenseTransposeProduct(se->T, KT, &se->K));
    PetscCall(MatDestroy(&KT));
  }
  if (se->M_formed) { /* formed with the basis, from the previous one's products (interface_basis.c) */
    se->M_formed = PETSC_FALSE;
    PetscCall(PetscLogEventEnd(DRRED_Project, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscFree(se->M));
  PetscCall(MatMatMult(M, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MT));
  PetscCall(DRDenseTransposeProduct(se->T, MT, &se->M));
  PetscCall(MatDestroy(&MT));
  PetscCall(PetscLogEventEnd(DRRED_Project, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementExpand(const DRSuperelement *se, PetscInt ncol, const PetscReal Qc[], PetscReal **Uout)
{
  PetscInt           nr = se->nb + se->nq, rs, re, ldt;
  const PetscScalar *t;
  PetscReal         *U;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(se->T, &rs, &re));
  PetscCall(PetscMalloc1((re - rs) * ncol + 1, &U));
  PetscCall(MatDenseGetLDA(se->T, &ldt));
  PetscCall(MatDenseGetArrayRead(se->T, &t));
  if (re > rs && ncol > 0 && nr > 0) {
    PetscBLASInt mm, nn, kk, lda, ldb, ldc;
    PetscReal    one = 1, zero = 0;
    PetscCall(PetscBLASIntCast(re - rs, &mm));
    PetscCall(PetscBLASIntCast(ncol, &nn));
    PetscCall(PetscBLASIntCast(nr, &kk));
    PetscCall(PetscBLASIntCast(ldt, &lda));
    ldb = kk;
    ldc = mm;
    BLASgemm_("N", "N", &mm, &nn, &kk, &one, t, &lda, Qc, &ldb, &zero, U, &ldc);
  } else PetscCall(PetscArrayzero(U, (re - rs) * ncol));
  PetscCall(MatDenseRestoreArrayRead(se->T, &t));
  *Uout = U;
  PetscFunctionReturn(PETSC_SUCCESS);
}
