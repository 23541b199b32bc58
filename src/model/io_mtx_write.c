/* The one Matrix Market writer: distributed sparse matrices (and
 * components as K, M, D and a label file) and small dense arrays. */
#include "io_impl.h"
#include <errno.h>
#include <string.h>

/* Banner, one comment line, size line: the header of both entry points. */
static void WriteHeader(FILE *f, PetscBool symmetric, PetscInt64 m, PetscInt64 n, PetscInt64 nnz, const char *comment)
{
  fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n", symmetric ? "symmetric" : "general");
  fprintf(f, "%% %s\n", comment ? comment : "");
  fprintf(f, "%lld %lld %lld\n", (long long)m, (long long)n, (long long)nnz);
}

PetscErrorCode DRMatWriteMatrixMarket(Mat A, const char *path, PetscBool symmetric)
{
  MPI_Comm   comm;
  char       tmp[PETSC_MAX_PATH_LEN + 32];
  FILE      *f;
  PetscInt   m, n;
  PetscInt64 nnz;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetSize(A, &m, &n));
  PetscCheck(!symmetric || m == n, comm, PETSC_ERR_ARG_SIZ, "%s: a symmetric Matrix Market file needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, path, m, n);
  PetscCall(DRMatCountEntries(A, symmetric, &nnz));
  PetscCall(DRTmpPath(comm, path, tmp, sizeof(tmp)));
  PetscCall(DRFileOpenWrite(comm, tmp, &f));
  if (f) {
    char comment[64];
    PetscCall(PetscSNPrintf(comment, sizeof(comment), "written by dynred %s%s", DYNRED_VERSION, symmetric ? " (lower triangle)" : ""));
    WriteHeader(f, symmetric, m, n, nnz, comment);
  }
  PetscCall(DRMatStreamToRoot(A, symmetric, PETSC_FALSE, f));
  PetscCall(DRFileCommit(comm, &f, tmp, path));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Symmetric storage when the matrix is known to be symmetric (a validated
 * component always is). */
static PetscErrorCode WriteMaybeSymmetric(Mat A, const char *path)
{
  PetscBool known, sym;

  PetscFunctionBeginUser;
  PetscCall(MatIsSymmetricKnown(A, &known, &sym));
  PetscCall(DRMatWriteMatrixMarket(A, path, (PetscBool)(known && sym)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWriteMTX(DRComponent c, const char *prefix)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s_K.mtx", prefix));
  PetscCall(WriteMaybeSymmetric(c->K, path));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s_M.mtx", prefix));
  PetscCall(WriteMaybeSymmetric(c->M, path));
  if (c->D) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s_D.mtx", prefix));
    PetscCall(WriteMaybeSymmetric(c->D, path));
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.dof", prefix));
  PetscCall(DRLabelsWrite(c->comm, path, c->n, c->labels));
  PetscFunctionReturn(PETSC_SUCCESS);
}


PetscErrorCode DRDenseWriteMatrixMarket(const char *path, PetscInt m, PetscInt n, const PetscReal a[], PetscBool rowmajor, const char *comment)
{
  char       tmp[PETSC_MAX_PATH_LEN + 32];
  FILE      *f;
  PetscInt64 nnz = 0;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  for (PetscInt64 k = 0; k < (PetscInt64)m * n; k++)
    if (a[k] != 0) nnz++;
  PetscCall(DRTmpPath(PETSC_COMM_SELF, path, tmp, sizeof(tmp)));
  PetscCall(DRFileOpenWrite(PETSC_COMM_SELF, tmp, &f));
  WriteHeader(f, PETSC_FALSE, m, n, nnz, comment);
  /* Row by row, nonzeros only, whatever the storage order. */
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal v = rowmajor ? a[(size_t)i * n + j] : a[(size_t)j * m + i];
      if (v != 0) fprintf(f, "%lld %lld %.17g\n", (long long)i + 1, (long long)j + 1, (double)v);
    }
  PetscCall(DRFileCommit(PETSC_COMM_SELF, &f, tmp, path));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
