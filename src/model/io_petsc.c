/* PETSc binary component: PATH holds K, M and optionally D, one after the
 * other as MatView writes them (no .info file); PATH.dof holds the labels.
 * MatLoad distributes the rows itself; rank 0 first reads the whole file
 * once to check it (ValidateFile), which also tells whether D follows. */
#include "io_impl.h"
#include <petscviewer.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

static PetscErrorCode OpenBinary(MPI_Comm comm, const char *path, PetscFileMode mode, PetscViewer *v)
{
  PetscFunctionBeginUser;
  PetscCall(PetscViewerCreate(comm, v));
  PetscCall(PetscViewerSetType(*v, PETSCVIEWERBINARY));
  PetscCall(PetscViewerFileSetMode(*v, mode));
  PetscCall(PetscViewerBinarySetSkipInfo(*v, PETSC_TRUE));
  PetscCall(PetscViewerBinarySetUseMPIIO(*v, PETSC_FALSE));
  PetscCall(PetscViewerFileSetName(*v, path));
  /* Open now, collectively: rank 0 alone peeks at the descriptor later. */
  PetscCall(PetscViewerSetUp(*v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 reads through the whole file before MatLoad sees it: MatLoad
 * trusts the header and the row lengths (a flipped byte made it read past
 * its buffers or crash), so every field is checked here and a bad one is a
 * one-line input error.  Per matrix (MatView's layout, big-endian int32 and
 * float64): class id MAT_FILE_CLASSID, rows = columns = n > 0 (the same n
 * for every matrix), nonzeros nz >= 0, n row lengths in 0..n summing to nz,
 * nz column indices in 0..n-1 ascending within a row, nz finite values.
 * Two (K, M) or three (K, M, D) matrices, nothing after them. */
#define DR_PETSC_CHUNK 65536
static PetscErrorCode ValidateMatrix(DRInputStatus *st, int fd, const char *path, const char *what, PetscInt *n, PetscInt *buf, PetscReal *vbuf)
{
  PetscInt   hdr[4], got = 0, nz, left, row = 0, inrow, prev = -1, *len;
  PetscInt64 sum = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscBinaryRead(fd, hdr, 4, &got, PETSC_INT));
  if (got < 4) PetscFunctionReturn(DRInputFail(st, "%s: %s: header ends after %" PetscInt_FMT " of 4 integers, expected a matrix written with MatView", path, what, got));
  if (hdr[0] != MAT_FILE_CLASSID) PetscFunctionReturn(DRInputFail(st, "%s: %s has class id %" PetscInt_FMT ", expected a matrix (%d) written with MatView", path, what, hdr[0], MAT_FILE_CLASSID));
  if (hdr[1] <= 0 || hdr[1] != hdr[2]) PetscFunctionReturn(DRInputFail(st, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix of positive size", path, what, hdr[1], hdr[2]));
  if (*n >= 0 && hdr[1] != *n) PetscFunctionReturn(DRInputFail(st, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT " but K is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", path, what, hdr[1], hdr[1], *n, *n));
  if (hdr[3] < 0) PetscFunctionReturn(DRInputFail(st, "%s: %s has %" PetscInt_FMT " nonzeros, expected a count >= 0 (dense storage is not supported)", path, what, hdr[3]));
  *n = hdr[1];
  nz = hdr[3];
  /* n row lengths (n integers held at once: what MatLoad holds too) */
  PetscCall(PetscMalloc1(*n, &len));
  PetscCall(PetscBinaryRead(fd, len, *n, &got, PETSC_INT));
  for (PetscInt a = 0; a < got; a++) {
    if (len[a] < 0 || len[a] > *n) {
      PetscInt bad = len[a];
      PetscCall(PetscFree(len));
      PetscFunctionReturn(DRInputFail(st, "%s: %s: row %" PetscInt_FMT " has %" PetscInt_FMT " entries, expected 0..%" PetscInt_FMT, path, what, a + 1, bad, *n));
    }
    sum += len[a];
  }
  if (got < *n) {
    PetscCall(PetscFree(len));
    PetscFunctionReturn(DRInputFail(st, "%s: %s: ends after %" PetscInt_FMT " of %" PetscInt_FMT " row lengths", path, what, got, *n));
  }
  if (sum != nz) {
    PetscCall(PetscFree(len));
    PetscFunctionReturn(DRInputFail(st, "%s: %s: row lengths add up to %" PetscInt64_FMT " but the header says %" PetscInt_FMT " nonzeros, expected equal", path, what, sum, nz));
  }
  /* nz column indices in chunks, walked row by row */
  inrow = 0;
  for (left = nz; left > 0;) {
    PetscInt k = PetscMin(left, DR_PETSC_CHUNK);
    PetscCall(PetscBinaryRead(fd, buf, k, &got, PETSC_INT));
    for (PetscInt a = 0; a < got; a++) {
      while (inrow == 0) { /* sum == nz: a row with entries remains */
        inrow = len[row++];
        prev  = -1;
      }
      if (buf[a] < 0 || buf[a] >= *n || buf[a] <= prev) {
        PetscCall(PetscFree(len));
        if (buf[a] < 0 || buf[a] >= *n) PetscFunctionReturn(DRInputFail(st, "%s: %s: an entry of row %" PetscInt_FMT " has column %" PetscInt_FMT ", expected 1..%" PetscInt_FMT " (0-based 0..%" PetscInt_FMT ")", path, what, row, buf[a] + 1, *n, *n - 1));
        PetscFunctionReturn(DRInputFail(st, "%s: %s: row %" PetscInt_FMT " has column %" PetscInt_FMT " after column %" PetscInt_FMT ", expected ascending columns", path, what, row, buf[a] + 1, prev + 1));
      }
      prev = buf[a];
      inrow--;
    }
    if (got < k) {
      PetscCall(PetscFree(len));
      PetscFunctionReturn(DRInputFail(st, "%s: %s: ends after %" PetscInt_FMT " of %" PetscInt_FMT " column indices", path, what, nz - left + got, nz));
    }
    left -= k;
  }
  PetscCall(PetscFree(len));
  for (left = nz; left > 0;) {
    PetscInt k = PetscMin(left, DR_PETSC_CHUNK);
    PetscCall(PetscBinaryRead(fd, vbuf, k, &got, PETSC_REAL));
    for (PetscInt a = 0; a < got; a++)
      if (PetscIsInfOrNanReal(vbuf[a])) PetscFunctionReturn(DRInputFail(st, "%s: %s: value %" PetscInt_FMT " is %g, expected a finite real", path, what, nz - left + a + 1, (double)vbuf[a]));
    if (got < k) PetscFunctionReturn(DRInputFail(st, "%s: %s: ends after %" PetscInt_FMT " of %" PetscInt_FMT " values", path, what, nz - left + got, nz));
    left -= k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: validate the file on rank 0; *nmat = 2 (K, M) or 3 (K, M, D). */
static PetscErrorCode ValidateFile(MPI_Comm comm, const char *path, PetscInt *nmat)
{
  DRInputStatus st;
  PetscInt      more = 0;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    static const char *what[3] = {"K", "M", "D"};
    int        fd;
    PetscInt   n = -1, *buf, got = 0, extra;
    PetscReal *vbuf;
    PetscCall(PetscBinaryOpen(path, FILE_MODE_READ, &fd));
    PetscCall(PetscMalloc2(DR_PETSC_CHUNK, &buf, DR_PETSC_CHUNK, &vbuf));
    for (PetscInt m = 0; m < 3 && !st.bad; m++) {
      if (m == 2) { /* D is optional: the file may end after M */
        PetscCall(PetscBinaryRead(fd, &extra, 1, &got, PETSC_INT));
        if (got == 0) break;
        if (lseek(fd, -4, SEEK_CUR) < 0) {
          PetscCall(DRInputFail(&st, "%s: cannot seek (%s)", path, strerror(errno)));
          break;
        }
      }
      PetscCall(ValidateMatrix(&st, fd, path, what[m], &n, buf, vbuf));
      if (!st.bad) more = m + 1;
    }
    if (!st.bad && more == 3) {
      PetscCall(PetscBinaryRead(fd, &extra, 1, &got, PETSC_INT));
      if (got) PetscCall(DRInputFail(&st, "%s: data follows K, M and D, expected at most three matrices written with MatView", path));
    }
    PetscCall(PetscFree2(buf, vbuf));
    PetscCall(PetscBinaryClose(fd));
  }
  PetscCall(DRInputSync(&st, &more));
  DRInputCheck(&st);
  *nmat = more;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LoadMatrix(MPI_Comm comm, PetscViewer v, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatLoad(*A, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadPETSc(MPI_Comm comm, const char *name, const char *path, DRComponent *c)
{
  DRComponent   C;
  PetscViewer   v;
  PetscInt      nmat = 0;
  char          dofpath[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadPETSc, 0, 0, 0, 0));
  PetscCall(DRInputCheckReadable(comm, path, "a PETSc binary file with K, M [, D] written with MatView"));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  PetscCall(ValidateFile(comm, path, &nmat));
  PetscCall(OpenBinary(comm, path, FILE_MODE_READ, &v));
  PetscCall(LoadMatrix(comm, v, &C->K));
  PetscCall(LoadMatrix(comm, v, &C->M));
  if (nmat == 3) PetscCall(LoadMatrix(comm, v, &C->D));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(PetscSNPrintf(dofpath, sizeof(dofpath), "%s.dof", path));
  PetscCall(DRLabelsRead(comm, dofpath, &C->n, &C->labels));
  PetscCall(DRComponentCheckSizes(C, path, path, path, dofpath));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadPETSc, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWritePETSc(DRComponent c, const char *path)
{
  PetscViewer v;
  char        tmp[PETSC_MAX_PATH_LEN + 32], dofpath[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCall(DRTmpPath(c->comm, path, tmp, sizeof(tmp)));
  PetscCall(OpenBinary(c->comm, tmp, FILE_MODE_WRITE, &v));
  PetscCall(MatView(c->K, v));
  PetscCall(MatView(c->M, v));
  if (c->D) PetscCall(MatView(c->D, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(DRFileCommit(c->comm, NULL, tmp, path));
  PetscCall(PetscSNPrintf(dofpath, sizeof(dofpath), "%s.dof", path));
  PetscCall(DRLabelsWrite(c->comm, dofpath, c->n, c->labels));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
