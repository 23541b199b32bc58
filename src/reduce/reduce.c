/* Reduction registry and the shared projection T^T K T. */
#include <dynred/reduce.h>
#include <string.h>

#define MAXMETHODS 16
static struct {
  char       name[32];
  DRReduceFn fn;
} methods[MAXMETHODS];
static int nmethods = 0;

PetscErrorCode DRReduceRegister(const char name[], DRReduceFn fn)
{
  PetscFunctionBeginUser;
  for (int i = 0; i < nmethods; i++)
    if (!strcmp(methods[i].name, name)) {
      methods[i].fn = fn;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  PetscCheck(nmethods < MAXMETHODS, PETSC_COMM_SELF, PETSC_ERR_PLIB, "too many reductions");
  PetscCall(PetscStrncpy(methods[nmethods].name, name, sizeof(methods[nmethods].name)));
  methods[nmethods++].fn = fn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReduceRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (nmethods) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRReduceRegister("craig-bampton", DRReduceCraigBampton));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReduce(const char method[], DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se)
{
  PetscFunctionBeginUser;
  PetscCall(DRReduceRegisterAll());
  for (int i = 0; i < nmethods; i++)
    if (!strcmp(methods[i].name, method)) {
      PetscCall(PetscMemzero(se, sizeof(*se)));
      PetscCall(PetscStrncpy(se->name, c->name, sizeof(se->name)));
      PetscCall(PetscStrncpy(se->method, method, sizeof(se->method)));
      se->n = c->n;
      PetscCall(methods[i].fn(c, isboundary, opt, se));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  {
    char known[256] = "";
    for (int i = 0; i < nmethods; i++) {
      if (i) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
      PetscCall(PetscStrlcat(known, methods[i].name, sizeof(known)));
    }
    SETERRQ(c->comm, DR_ERR_INPUT, "component '%s': reduction method '%s' is not available, expected one of: %s", c->name, method, known);
  }
}

PetscErrorCode DRSuperelementDestroy(DRSuperelement *se)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(se->blabels));
  PetscCall(PetscFree(se->qfreq_hz));
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  PetscCall(MatDestroy(&se->T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gather a distributed dense matrix (rows over comm) on rank 0, column-major. */
static PetscErrorCode GatherDense(Mat A, PetscReal **out)
{
  PetscInt           m, N, rs, re, lda;
  const PetscScalar *a;
  PetscMPIInt        size, rank;
  MPI_Comm           comm;
  PetscReal         *loc, *all = NULL;
  PetscMPIInt       *counts = NULL, *displs = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetSize(A, &m, &N));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(MatDenseGetArrayRead(A, &a));
  /* local rows, row-major, so the gathered buffer is row-major m x N */
  PetscCall(PetscMalloc1((re - rs) * N + 1, &loc));
  for (PetscInt i = 0; i < re - rs; i++)
    for (PetscInt j = 0; j < N; j++) loc[i * N + j] = PetscRealPart(a[i + j * lda]);
  PetscCall(MatDenseRestoreArrayRead(A, &a));
  if (!rank) {
    const PetscInt *ranges;
    PetscCall(MatGetOwnershipRanges(A, &ranges));
    PetscCall(PetscMalloc1(size, &counts));
    PetscCall(PetscMalloc1(size, &displs));
    for (PetscMPIInt r = 0; r < size; r++) {
      counts[r] = (PetscMPIInt)((ranges[r + 1] - ranges[r]) * N);
      displs[r] = (PetscMPIInt)(ranges[r] * N);
    }
    PetscCall(PetscMalloc1(m * N + 1, &all));
  }
  PetscCallMPI(MPI_Gatherv(loc, (PetscMPIInt)((re - rs) * N), MPIU_REAL, all, counts, displs, MPIU_REAL, 0, comm));
  PetscCall(PetscFree(loc));
  PetscCall(PetscFree(counts));
  PetscCall(PetscFree(displs));
  if (!rank) {
    /* symmetric result: row-major equals column-major up to round-off; symmetrize */
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = i + 1; j < N; j++) {
        PetscReal v      = 0.5 * (all[i * N + j] + all[j * N + i]);
        all[i * N + j]   = v;
        all[j * N + i]   = v;
      }
  }
  *out = all;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementProject(DRComponent c, DRSuperelement *se)
{
  Mat            KT, Kr, MT, Mr;
  PetscLogDouble t0 = DRTime();

  PetscFunctionBeginUser;
  PetscCall(MatMatMult(c->K, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KT));
  PetscCall(MatTransposeMatMult(se->T, KT, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Kr));
  PetscCall(MatDestroy(&KT));
  PetscCall(MatMatMult(c->M, se->T, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MT));
  PetscCall(MatTransposeMatMult(se->T, MT, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Mr));
  PetscCall(MatDestroy(&MT));
  PetscCall(GatherDense(Kr, &se->K));
  PetscCall(GatherDense(Mr, &se->M));
  PetscCall(MatDestroy(&Kr));
  PetscCall(MatDestroy(&Mr));
  se->t_project += DRTime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
