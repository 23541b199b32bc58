/* The streaming machinery every text reader of src/model/io_*.c uses
 * (declared in io_impl.h):
 *
 *   rank 0 reads lines -> chunk of triplets -> scatter to owning ranks
 *   -> each rank sorts its triplets, counts diagonal/off-diagonal nonzeros
 *   per row, preallocates MATAIJ and inserts its rows.
 *
 * The reader loop itself (open, header, chunks, collective errors) is
 * DRMatStreamRead in io_common.c. */
#include "io_impl.h"
#include <stdint.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Buffered line reader                                                     */
/* ======================================================================== */

PetscErrorCode DRLineReaderOpen(DRLineReader *r, const char *path, PetscBool *ok)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->path, path, sizeof(r->path)));
  r->f = fopen(path, "r");
  *ok  = r->f ? PETSC_TRUE : PETSC_FALSE;
  /* stdio allocates the (large) buffer itself and frees it at fclose. */
  if (r->f) (void)setvbuf(r->f, NULL, _IOFBF, DR_IO_BUFSIZE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLineReaderNext(DRLineReader *r, PetscBool *got)
{
  ssize_t len;

  PetscFunctionBeginUser;
  *got = PETSC_FALSE;
  if (!r->f) PetscFunctionReturn(PETSC_SUCCESS);
  len = getline(&r->line, &r->cap, r->f);
  if (len < 0) PetscFunctionReturn(PETSC_SUCCESS);
  while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r')) r->line[--len] = '\0';
  r->len = (size_t)len;
  r->lineno++;
  *got = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLineReaderClose(DRLineReader *r)
{
  PetscFunctionBeginUser;
  if (r->f) (void)fclose(r->f);
  free(r->line); /* allocated by getline() */
  r->f    = NULL;
  r->line = NULL;
  r->cap  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool DRStrBlank(const char *s)
{
  for (; *s; s++)
    if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') return PETSC_FALSE;
  return PETSC_TRUE;
}

/* ======================================================================== */
/* Collective input errors                                                  */
/* ======================================================================== */

PetscErrorCode DRInputStatusInit(MPI_Comm comm, DRInputStatus *st)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &st->rank));
  PetscCallMPI(MPI_Comm_size(comm, &st->size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputFail(DRInputStatus *st, const char *fmt, ...)
{
  va_list ap;

  PetscFunctionBeginUser;
  if (!st->bad) {
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof(st->msg), fmt, ap);
    va_end(ap);
    st->bad = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputSync(DRInputStatus *st, PetscInt *more)
{
  PetscInt buf[2];

  PetscFunctionBeginUser;
  buf[0] = st->bad ? 1 : 0;
  buf[1] = more ? *more : 0;
  PetscCallMPI(MPI_Bcast(buf, 2, MPIU_INT, 0, st->comm));
  st->bad = buf[0] ? PETSC_TRUE : PETSC_FALSE;
  if (more) *more = buf[1];
  if (st->bad) PetscCallMPI(MPI_Bcast(st->msg, (PetscMPIInt)sizeof(st->msg), MPI_CHAR, 0, st->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputSyncAll(DRInputStatus *st)
{
  PetscMPIInt who = st->bad ? st->rank : st->size, first;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, st->comm));
  if (first < st->size) {
    PetscCallMPI(MPI_Bcast(st->msg, (PetscMPIInt)sizeof(st->msg), MPI_CHAR, first, st->comm));
    st->bad = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Triplets sent to the owning ranks                                        */
/* ======================================================================== */

static MPI_Datatype dr_triplet_type = MPI_DATATYPE_NULL;

static PetscErrorCode TripletTypeFree(void)
{
  PetscFunctionBeginUser;
  if (dr_triplet_type != MPI_DATATYPE_NULL) PetscCallMPI(MPI_Type_free(&dr_triplet_type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The MPI datatype of one DRTriplet: plain bytes, as the struct travels
 * between identical processes.  Created once, freed by PetscFinalize. */
PetscErrorCode DRTripletType(MPI_Datatype *type)
{
  PetscFunctionBeginUser;
  if (dr_triplet_type == MPI_DATATYPE_NULL) {
    PetscCallMPI(MPI_Type_contiguous((PetscMPIInt)sizeof(DRTriplet), MPI_BYTE, &dr_triplet_type));
    PetscCallMPI(MPI_Type_commit(&dr_triplet_type));
    PetscCall(PetscRegisterFinalize(TripletTypeFree));
  }
  *type = dr_triplet_type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsCreate(MPI_Comm comm, PetscInt n, DRTriplets *t)
{
  PetscInt cap = DR_IO_CHUNK;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  t->comm = comm;
  t->n    = n;
  PetscCallMPI(MPI_Comm_rank(comm, &t->rank));
  PetscCallMPI(MPI_Comm_size(comm, &t->size));
  PetscCall(PetscLayoutCreate(comm, &t->map));
  PetscCall(PetscLayoutSetSize(t->map, n));
  PetscCall(PetscLayoutSetBlockSize(t->map, 1));
  PetscCall(PetscLayoutSetUp(t->map));
  /* -dr_io_chunk lets the tests push a tiny file through many exchanges. */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_io_chunk", &cap, NULL));
  t->cap = PetscMax(cap, 2);
  if (t->rank == 0) {
    PetscCall(PetscMalloc1(t->cap, &t->chunk));
    if (t->size > 1) PetscCall(PetscMalloc1(t->cap, &t->sendbuf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsDestroy(DRTriplets *t)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(t->chunk));
  PetscCall(PetscFree(t->sendbuf));
  PetscCall(PetscFree(t->local));
  PetscCall(PetscLayoutDestroy(&t->map));
  t->nchunk = t->nlocal = t->caplocal = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TripletsReserve(DRTriplets *t, PetscInt more)
{
  PetscFunctionBeginUser;
  if (t->nlocal + more > t->caplocal) {
    PetscInt   cap = PetscMax(t->nlocal + more, t->caplocal + t->caplocal / 2 + 16);
    DRTriplet *tmp;
    PetscCall(PetscMalloc1(cap, &tmp));
    if (t->nlocal) PetscCall(PetscArraycpy(tmp, t->local, t->nlocal));
    PetscCall(PetscFree(t->local));
    t->local    = tmp;
    t->caplocal = cap;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsExchange(DRTriplets *t)
{
  PetscMPIInt  *counts = NULL, *displs = NULL, mine = 0;
  MPI_Datatype  type;

  PetscFunctionBeginUser;
  if (t->size == 1) {
    PetscCall(TripletsReserve(t, t->nchunk));
    if (t->nchunk) PetscCall(PetscArraycpy(t->local + t->nlocal, t->chunk, t->nchunk));
    t->nlocal += t->nchunk;
    t->nchunk = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRTripletType(&type));
  if (t->rank == 0) {
    PetscMPIInt *fill;
    PetscCall(PetscCalloc2(t->size, &counts, t->size + 1, &displs));
    PetscCall(PetscCalloc1(t->size, &fill));
    /* Counting sort of the chunk by owner: rows are in contiguous ranges. */
    for (PetscInt k = 0; k < t->nchunk; k++) {
      PetscMPIInt owner;
      PetscCall(PetscLayoutFindOwner(t->map, t->chunk[k].i, &owner));
      counts[owner]++;
    }
    for (PetscMPIInt r = 0; r < t->size; r++) displs[r + 1] = displs[r] + counts[r];
    for (PetscInt k = 0; k < t->nchunk; k++) {
      PetscMPIInt owner;
      PetscCall(PetscLayoutFindOwner(t->map, t->chunk[k].i, &owner));
      t->sendbuf[displs[owner] + fill[owner]++] = t->chunk[k];
    }
    PetscCall(PetscFree(fill));
  }
  PetscCallMPI(MPI_Scatter(counts, 1, MPI_INT, &mine, 1, MPI_INT, 0, t->comm));
  PetscCall(TripletsReserve(t, mine));
  PetscCallMPI(MPI_Scatterv(t->sendbuf, counts, displs, type, t->local + t->nlocal, mine, type, 0, t->comm));
  t->nlocal += mine;
  t->nchunk = 0;
  if (t->rank == 0) PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CmpTripletCol(const void *a, const void *b, void *ctx)
{
  const DRTriplet *x = (const DRTriplet *)a, *y = (const DRTriplet *)b;
  (void)ctx;
  return x->j < y->j ? -1 : (x->j > y->j);
}

/* t->local sorted by (row, col), stably (entries of one (row, col) keep
 * their arrival order, so repeated entries add in file order on any
 * machine): a counting sort by row, O(nnz + m), then each row by column
 * (PETSc's stable TimSort on its few dozen entries).  One qsort of all
 * entries took 2 % of a CMS job on the 51k-DOF CalculiX bar and grows like
 * nnz log nnz on a large model. */
static PetscErrorCode SortByRow(DRTriplets *t, PetscInt rstart, PetscInt m)
{
  PetscInt  *start;
  DRTriplet *sorted;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(m + 1, &start));
  for (PetscInt k = 0; k < t->nlocal; k++) {
    PetscInt r = t->local[k].i - rstart;
    PetscCheck(r >= 0 && r < m, PETSC_COMM_SELF, PETSC_ERR_PLIB, "received row %" PetscInt_FMT " outside %" PetscInt_FMT "..%" PetscInt_FMT, t->local[k].i, rstart, rstart + m);
    start[r + 1]++;
  }
  for (PetscInt r = 0; r < m; r++) start[r + 1] += start[r];
  PetscCall(PetscMalloc1(t->nlocal, &sorted));
  for (PetscInt k = 0; k < t->nlocal; k++) sorted[start[t->local[k].i - rstart]++] = t->local[k];
  /* start[r] is now the end of row r */
  for (PetscInt r = 0, b = 0; r < m; b = start[r++])
    if (start[r] - b > 1) PetscCall(PetscTimSort(start[r] - b, sorted + b, sizeof(DRTriplet), CmpTripletCol, NULL));
  PetscCall(PetscFree(start));
  PetscCall(PetscFree(t->local));
  t->local    = sorted;
  t->caplocal = t->nlocal;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (row, column, given before mirrored) of DRTripletsAddEither's entries */
static int CmpEither(const void *a, const void *b, void *ctx)
{
  const DRTriplet *x = (const DRTriplet *)a, *y = (const DRTriplet *)b;
  PetscInt         xj = x->j < 0 ? -x->j - 1 : x->j, yj = y->j < 0 ? -y->j - 1 : y->j;
  (void)ctx;
  if (x->i != y->i) return x->i < y->i ? -1 : 1;
  if (xj != yj) return xj < yj ? -1 : 1;
  return (x->j < 0) - (y->j < 0);
}

/* At each (row, column): the entry the file gave there if any (a square
 * file, or the stored triangle), else the mirror of the other triangle.
 * The files read this way (Abaqus, Harwell-Boeing) hold each position once:
 * *dup is the first position (row * n + column, 0-based; over all ranks)
 * given twice, or -1. */
PetscErrorCode DRTripletsResolve(DRTriplets *t, PetscInt64 *dup)
{
  PetscInt   nu = 0;
  PetscInt64 first = INT64_MAX;

  PetscFunctionBeginUser;
  if (t->nlocal > 1) PetscCall(PetscTimSort(t->nlocal, t->local, sizeof(DRTriplet), CmpEither, NULL));
  for (PetscInt k = 0; k < t->nlocal;) {
    PetscInt  i = t->local[k].i, j = t->local[k].j < 0 ? -t->local[k].j - 1 : t->local[k].j, e = k, ngiven = 0;
    PetscBool given = t->local[k].j >= 0 ? PETSC_TRUE : PETSC_FALSE; /* sorted first */
    for (; e < t->nlocal && t->local[e].i == i && (t->local[e].j < 0 ? -t->local[e].j - 1 : t->local[e].j) == j; e++) {
      if (given && t->local[e].j < 0) continue;
      if (t->local[e].j >= 0 && ++ngiven == 2) first = PetscMin(first, (PetscInt64)i * t->n + j);
      t->local[nu] = t->local[e];
      t->local[nu++].j = j;
    }
    k = e;
  }
  t->nlocal = nu;
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPIU_INT64, MPI_MIN, t->comm));
  *dup = first == INT64_MAX ? -1 : first;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsAssemble(DRTriplets *t, Mat *A)
{
  PetscInt     rstart, rend, m, nu = 0, maxrow = 0, *dnnz, *onnz, *cols;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(PetscLayoutGetRange(t->map, &rstart, &rend));
  m = rend - rstart;
  /* Sorted by (row, col); repeated entries add, as in FE assembly. */
  if (t->nlocal) PetscCall(SortByRow(t, rstart, m));
  for (PetscInt k = 0; k < t->nlocal; k++) {
    if (nu && t->local[nu - 1].i == t->local[k].i && t->local[nu - 1].j == t->local[k].j) t->local[nu - 1].v += t->local[k].v;
    else t->local[nu++] = t->local[k];
  }
  t->nlocal = nu;
  PetscCall(PetscCalloc2(m + 1, &dnnz, m + 1, &onnz));
  for (PetscInt k = 0; k < nu; k++) {
    PetscInt j = t->local[k].j; /* its row checked by SortByRow */
    if (j >= rstart && j < rend) dnnz[t->local[k].i - rstart]++;
    else onnz[t->local[k].i - rstart]++;
  }
  for (PetscInt r = 0; r < m; r++) maxrow = PetscMax(maxrow, dnnz[r] + onnz[r]);
  PetscCall(MatCreate(t->comm, A));
  PetscCall(MatSetSizes(*A, m, m, t->n, t->n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatXAIJSetPreallocation(*A, 1, dnnz, onnz, NULL, NULL));
  PetscCall(MatSetOption(*A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscCall(PetscMalloc2(maxrow + 1, &cols, maxrow + 1, &vals));
  for (PetscInt k = 0; k < nu;) {
    PetscInt row = t->local[k].i, nc = 0;
    for (; k < nu && t->local[k].i == row; k++) {
      cols[nc]   = t->local[k].j;
      vals[nc++] = t->local[k].v;
    }
    PetscCall(MatSetValues(*A, 1, &row, nc, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  /* The triplets are in the matrix now: free them before assembly. */
  PetscCall(PetscFree(t->local));
  t->nlocal = t->caplocal = 0;
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (t->symmetric) {
    PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(*A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Entry lines "row col value"                                              */
/* ======================================================================== */

int DRParseEntry(char *s, long long *i, long long *j, double *v, char **vtok, int *vlen)
{
  char *e;
  *i = strtoll(s, &e, 10);
  if (e == s) return 0;
  s  = e;
  *j = strtoll(s, &e, 10);
  if (e == s) return 0;
  s = e;
  while (*s == ' ' || *s == '\t') s++;
  *v = strtod(s, &e);
  if (e == s) return 0;
  *vtok = s;
  *vlen = (int)(e - s);
  while (*e == ' ' || *e == '\t') e++;
  return *e == '\0';
}

PetscErrorCode DRCheckEntry(DRInputStatus *st, const char *path, PetscInt64 lineno, const char *line, int parsed, long long i, long long j, double v, const char *vtok, int vlen, PetscInt n, const char *expect)
{
  PetscFunctionBeginUser;
  if (!parsed) {
    while (*line == ' ' || *line == '\t') line++;
    PetscCall(DRInputFail(st, "%s:%lld: found '%.80s', expected %s", path, (long long)lineno, line, expect));
  } else if (i < 1 || i > n) PetscCall(DRInputFail(st, "%s:%lld: row index %lld out of range 1..%" PetscInt_FMT, path, (long long)lineno, i, n));
  else if (j < 1 || j > n) PetscCall(DRInputFail(st, "%s:%lld: column index %lld out of range 1..%" PetscInt_FMT, path, (long long)lineno, j, n));
  else if (!isfinite(v)) PetscCall(DRInputFail(st, "%s:%lld: value '%.*s' is not a finite number (NaN or Inf), expected a finite real", path, (long long)lineno, vlen, vtok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

