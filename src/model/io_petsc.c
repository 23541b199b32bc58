/* PETSc binary component: PATH holds K, M and optionally D, one after the
 * other as MatView writes them (no .info file); PATH.dof holds the labels.
 * MatLoad distributes the rows itself; rank 0 first reads the whole file
 * once to check it (ValidateFile), which also tells whether D follows.
 * PETSc binary integers are PetscInt wide (4 bytes, 8 with 64-bit indices:
 * make INDEX64=1) and MatLoad reads only its own width; a file of the other
 * width is converted by rank 0 while it checks it, into a temporary file
 * in $TMPDIR (or /tmp) that MatLoad reads and that is removed afterwards
 * (without MPI-IO only rank 0 opens the file: rank 0's /tmp suffices). */
#include "io_impl.h"
#include <petscviewer.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>
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

/* Rank 0's reading of the file: integers `width` bytes wide (PetscInt's, or
 * the other PETSc index size), copied with PetscInt width to `out` when it
 * is open (a conversion for MatLoad). */
typedef struct {
  int fd, out, width;
} PBin;

/* Reads up to k integers, big-endian, of the file's width into buf. */
static PetscErrorCode ReadInts(PBin *b, PetscInt *buf, PetscInt k, PetscInt *got)
{
  PetscFunctionBeginUser;
  if (b->width == (int)sizeof(PetscInt)) PetscCall(PetscBinaryRead(b->fd, buf, k, got, PETSC_INT));
  else {
    unsigned char raw[8 * 512];
    *got = 0;
    while (*got < k) {
      PetscInt m = PetscMin(k - *got, 512);
      ssize_t  r = 0, t;
      while (r < (ssize_t)(m * b->width) && (t = read(b->fd, raw + r, (size_t)(m * b->width - r))) > 0) r += t;
      for (PetscInt a = 0; a < r / b->width; a++) {
        uint64_t u = 0;
        for (int j = 0; j < b->width; j++) u = (u << 8) | raw[a * b->width + j];
        /* an 8-byte value that a 32-bit PetscInt cannot hold becomes -1:
         * every field checked below rejects it */
        if (b->width == 4) buf[*got + a] = (PetscInt)(int32_t)(uint32_t)u;
        else buf[*got + a] = ((int64_t)u < PETSC_MIN_INT || (int64_t)u > PETSC_MAX_INT) ? -1 : (PetscInt)(int64_t)u;
      }
      *got += r / b->width;
      if (r < (ssize_t)(m * b->width)) break;
    }
  }
  if (b->out >= 0 && *got) PetscCall(PetscBinaryWrite(b->out, buf, *got, PETSC_INT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 reads through the whole file before MatLoad sees it: MatLoad
 * trusts the header and the row lengths (a flipped byte made it read past
 * its buffers or crash), so every field is checked here and a bad one is a
 * one-line input error.  Per matrix (MatView's layout, big-endian integers
 * of the file's width and float64): class id MAT_FILE_CLASSID, rows = columns = n > 0 (the same n
 * for every matrix), nonzeros nz >= 0, n row lengths in 0..n summing to nz,
 * nz column indices in 0..n-1 ascending within a row, nz finite values.
 * Two (K, M) or three (K, M, D) matrices, nothing after them. */
#define DR_PETSC_CHUNK 65536
static PetscErrorCode ValidateMatrix(DRInputStatus *st, PBin *fb, const char *path, const char *what, PetscInt *n, PetscInt *buf, PetscReal *vbuf)
{
  PetscInt   hdr[4], got = 0, nz, left, row = 0, inrow, prev = -1, *len;
  PetscInt64 sum = 0;

  PetscFunctionBeginUser;
  PetscCall(ReadInts(fb, hdr, 4, &got));
  if (got < 4) PetscFunctionReturn(DRInputFail(st, "%s: %s: header ends after %" PetscInt_FMT " of 4 integers, expected a matrix written with MatView", path, what, got));
  if (hdr[0] != MAT_FILE_CLASSID) PetscFunctionReturn(DRInputFail(st, "%s: %s has class id %" PetscInt_FMT ", expected a matrix (%d) written with MatView", path, what, hdr[0], MAT_FILE_CLASSID));
  if (hdr[1] <= 0 || hdr[1] != hdr[2]) PetscFunctionReturn(DRInputFail(st, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix of positive size", path, what, hdr[1], hdr[2]));
  if (*n >= 0 && hdr[1] != *n) PetscFunctionReturn(DRInputFail(st, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT " but K is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", path, what, hdr[1], hdr[1], *n, *n));
  if (hdr[3] < 0) PetscFunctionReturn(DRInputFail(st, "%s: %s has %" PetscInt_FMT " nonzeros, expected a count >= 0 (dense storage is not supported)", path, what, hdr[3]));
  *n = hdr[1];
  nz = hdr[3];
  /* n row lengths (n integers held at once: what MatLoad holds too) */
  PetscCall(PetscMalloc1(*n, &len));
  PetscCall(ReadInts(fb, len, *n, &got));
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
    PetscCall(ReadInts(fb, buf, k, &got));
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
    PetscCall(PetscBinaryRead(fb->fd, vbuf, k, &got, PETSC_REAL));
    if (fb->out >= 0 && got) PetscCall(PetscBinaryWrite(fb->out, vbuf, got, PETSC_REAL));
    for (PetscInt a = 0; a < got; a++)
      if (PetscIsInfOrNanReal(vbuf[a])) PetscFunctionReturn(DRInputFail(st, "%s: %s: value %" PetscInt_FMT " is %g, expected a finite real", path, what, nz - left + a + 1, (double)vbuf[a]));
    if (got < k) PetscFunctionReturn(DRInputFail(st, "%s: %s: ends after %" PetscInt_FMT " of %" PetscInt_FMT " values", path, what, nz - left + got, nz));
    left -= k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The width of the file's integers from its first 8 bytes: the class id
 * MAT_FILE_CLASSID as a big-endian int32, or as an int64 (a PETSc with 64-bit
 * indices); anything else is read with PetscInt's width (and rejected). */
static int FileIntWidth(int fd)
{
  unsigned char b[8];
  ssize_t       r = 0, t;
  uint32_t      w0, w1;

  while (r < 8 && (t = read(fd, b + r, (size_t)(8 - r))) > 0) r += t;
  if (lseek(fd, 0, SEEK_SET) < 0 || r < 8) return (int)sizeof(PetscInt);
  w0 = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
  w1 = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
  if (w0 == MAT_FILE_CLASSID) return 4;
  if (w0 == 0 && w1 == MAT_FILE_CLASSID) return 8;
  return (int)sizeof(PetscInt);
}

/* Whether the file ends here (an integer's width more cannot be read). */
static PetscBool AtEnd(PBin *fb)
{
  unsigned char b[8];
  ssize_t       r = 0, t;
  while (r < fb->width && (t = read(fb->fd, b + r, (size_t)(fb->width - r))) > 0) r += t;
  if (r > 0) (void)lseek(fb->fd, -(off_t)r, SEEK_CUR);
  return (PetscBool)(r < fb->width);
}

/* Collective: validate the file on rank 0; *nmat = 2 (K, M) or 3 (K, M, D).
 * A file whose integers have the other PETSc index size is converted to a
 * temporary file named in tmp[len] (then *converted = PETSC_TRUE; the caller
 * loads and removes it). */
static PetscErrorCode ValidateFile(MPI_Comm comm, const char *path, char *tmp, size_t len, PetscInt *nmat, PetscBool *converted)
{
  DRInputStatus st;
  PetscInt      more = 0, conv = 0;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    static const char *what[3] = {"K", "M", "D"};
    PBin       fb = {-1, -1, (int)sizeof(PetscInt)};
    PetscInt   n = -1, *buf;
    PetscReal *vbuf;
    PetscCall(PetscBinaryOpen(path, FILE_MODE_READ, &fb.fd));
    fb.width = FileIntWidth(fb.fd);
    if (fb.width != (int)sizeof(PetscInt)) {
      const char *dir = getenv("TMPDIR");
      PetscCall(PetscSNPrintf(tmp, len, "%s/dynred-petsc-XXXXXX", dir && dir[0] ? dir : "/tmp"));
      fb.out = mkstemp(tmp);
      if (fb.out < 0) PetscCall(DRInputFail(&st, "%s: has %d-bit indices, this dynred %d-bit ones: cannot create a converted copy %s (%s), expected a writable TMPDIR", path, 8 * fb.width, 8 * (int)sizeof(PetscInt), tmp, strerror(errno)));
      else conv = 1;
    }
    PetscCall(PetscMalloc2(DR_PETSC_CHUNK, &buf, DR_PETSC_CHUNK, &vbuf));
    for (PetscInt m = 0; m < 3 && !st.bad; m++) {
      if (m == 2 && AtEnd(&fb)) break; /* D is optional: the file may end after M */
      PetscCall(ValidateMatrix(&st, &fb, path, what[m], &n, buf, vbuf));
      if (!st.bad) more = m + 1;
    }
    if (!st.bad && more == 3 && !AtEnd(&fb)) PetscCall(DRInputFail(&st, "%s: data follows K, M and D, expected at most three matrices written with MatView", path));
    PetscCall(PetscFree2(buf, vbuf));
    PetscCall(PetscBinaryClose(fb.fd));
    if (fb.out >= 0) PetscCall(PetscBinaryClose(fb.out));
    if (conv && st.bad) (void)unlink(tmp);
  }
  PetscCall(DRInputSync(&st, &more));
  DRInputCheck(&st);
  PetscCallMPI(MPI_Bcast(&conv, 1, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(tmp, (PetscMPIInt)len, MPI_CHAR, 0, comm));
  *nmat      = more;
  *converted = (PetscBool)(conv != 0);
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
  PetscBool     conv = PETSC_FALSE;
  PetscMPIInt   rank;
  char          dofpath[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadPETSc, 0, 0, 0, 0));
  PetscCall(DRInputCheckReadable(comm, path, "a PETSc binary file with K, M [, D] written with MatView"));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  tmp[0] = 0;
  PetscCall(ValidateFile(comm, path, tmp, sizeof(tmp), &nmat, &conv));
  PetscCall(OpenBinary(comm, conv ? tmp : path, FILE_MODE_READ, &v));
  PetscCall(LoadMatrix(comm, v, &C->K));
  PetscCall(LoadMatrix(comm, v, &C->M));
  if (nmat == 3) PetscCall(LoadMatrix(comm, v, &C->D));
  PetscCall(PetscViewerDestroy(&v));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (conv && rank == 0) (void)unlink(tmp);
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
