/* Writers of the text formats: temporary names renamed on success, and the
 * rows of a distributed matrix streamed to rank 0 in chunks. */
#include "io_impl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ======================================================================== */
/* Writers: temporary names, streaming rows to rank 0                       */
/* ======================================================================== */

PetscErrorCode DRTmpPath(MPI_Comm comm, const char *path, char *tmp, size_t len)
{
  long pid = (long)getpid();

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_LONG, 0, comm));
  snprintf(tmp, len, "%s.tmp.%ld", path, pid);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFileOpenWrite(MPI_Comm comm, const char *tmp, FILE **f)
{
  DRInputStatus st;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  *f = NULL;
  if (st.rank == 0) {
    *f = fopen(tmp, "w");
    if (!*f) PetscCall(DRInputFail(&st, "%s: cannot create (%s), expected a writable directory", tmp, strerror(errno)));
    else (void)setvbuf(*f, NULL, _IOFBF, DR_IO_BUFSIZE);
  }
  PetscCall(DRInputSync(&st, NULL));
  DRInputCheck(&st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFileCommit(MPI_Comm comm, FILE **f, const char *tmp, const char *path)
{
  DRInputStatus st;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  /* Every rank has finished its part once rank 0 gets here after this
   * barrier (HDF5 writers close their file collectively before). */
  PetscCallMPI(MPI_Barrier(comm));
  if (st.rank == 0) {
    if (f && *f) {
      int werr = ferror(*f), cerr = fclose(*f);
      *f       = NULL;
      if (werr || cerr) PetscCall(DRInputFail(&st, "%s: writing failed (%s), expected space on the device", tmp, strerror(errno)));
    }
    if (!st.bad && rename(tmp, path)) PetscCall(DRInputFail(&st, "%s: cannot rename to %s (%s)", tmp, path, strerror(errno)));
    if (st.bad) (void)remove(tmp);
  }
  PetscCall(DRInputSync(&st, NULL));
  DRInputCheck(&st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatCountEntries(Mat A, PetscBool lower, PetscInt64 *nnz)
{
  PetscInt        rs, re, nc;
  const PetscInt *cols;
  PetscInt64      loc = 0;
  MPI_Comm        comm;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    if (!lower) loc += nc;
    else
      for (PetscInt k = 0; k < nc; k++) loc += cols[k] <= i;
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  PetscCallMPI(MPI_Allreduce(&loc, nnz, 1, MPIU_INT64, MPI_SUM, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PrintTriplets(FILE *f, PetscInt n, const DRTriplet *e, PetscBool swap)
{
  for (PetscInt k = 0; k < n; k++) {
    long long r = (long long)e[k].i + 1, c = (long long)e[k].j + 1;
    fprintf(f, "%lld %lld %.17g\n", swap ? c : r, swap ? r : c, (double)PetscRealPart(e[k].v));
  }
}

PetscErrorCode DRMatStreamToRoot(Mat A, PetscBool lower, PetscBool swap, FILE *f)
{
  MPI_Comm           comm;
  PetscMPIInt        rank, size, tag;
  PetscInt           rs, re, nc, cap = DR_IO_CHUNK, nbuf = 0;
  const PetscInt    *cols;
  const PetscScalar *vals;
  PetscInt64         mine = 0, *counts = NULL;
  DRTriplet         *buf;
  MPI_Datatype       type;

  PetscFunctionBeginUser;
  PetscCall(DRTripletType(&type));
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscObjectGetNewTag((PetscObject)A, &tag));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_io_chunk", &cap, NULL));
  cap = PetscMax(cap, 1);
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++) mine += !lower || cols[k] <= i;
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  if (rank == 0) PetscCall(PetscMalloc1(size, &counts));
  PetscCallMPI(MPI_Gather(&mine, 1, MPIU_INT64, counts, 1, MPIU_INT64, 0, comm));
  PetscCall(PetscMalloc1(cap, &buf));
  /* Rank 0 prints its rows, then receives every other rank's in rank order,
   * chunk by chunk: the file is in global row order. */
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++) {
      if (lower && cols[k] > i) continue;
      buf[nbuf].i   = i;
      buf[nbuf].j   = cols[k];
      buf[nbuf++].v = vals[k];
      if (nbuf == cap) {
        if (rank == 0) PrintTriplets(f, nbuf, buf, swap);
        else PetscCallMPI(MPI_Send(buf, (PetscMPIInt)nbuf, type, 0, tag, comm));
        nbuf = 0;
      }
    }
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  if (nbuf) {
    if (rank == 0) PrintTriplets(f, nbuf, buf, swap);
    else PetscCallMPI(MPI_Send(buf, (PetscMPIInt)nbuf, type, 0, tag, comm));
  }
  if (rank == 0) {
    for (PetscMPIInt r = 1; r < size; r++) {
      for (PetscInt64 left = counts[r]; left > 0;) {
        MPI_Status  status;
        PetscMPIInt got;
        PetscCallMPI(MPI_Recv(buf, (PetscMPIInt)cap, type, r, tag, comm, &status));
        PetscCallMPI(MPI_Get_count(&status, type, &got));
        PrintTriplets(f, got, buf, swap);
        left -= got;
      }
    }
  }
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(counts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

