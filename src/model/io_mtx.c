/* Matrix Market reader.
 *
 * Matrix Market: "%%MatrixMarket matrix coordinate real|integer
 * general|symmetric", '%' comment lines, a size line "rows cols entries",
 * then one "row col value" line per entry, 1-based.  A symmetric file stores
 * one triangle (the standard says the lower; the upper is accepted too, but
 * not a mix of both); the other is mirrored here, and the matrix is marked
 * symmetric so validation skips the symmetry check.  A general file is read
 * as is and its symmetry is checked by DRComponentValidate. */
#include "io_impl.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
  PetscInt   n;
  PetscInt64 nnz;
  PetscBool  symmetric;
} MMHeader;

/* Rank 0: banner, comments, size line. */
static PetscErrorCode MMReadHeader(DRInputStatus *st, DRLineReader *r, const char *path, MMHeader *h)
{
  PetscBool got;
  char      tok[5][64];
  int       ntok;

  PetscFunctionBeginUser;
  PetscCall(DRLineReaderNext(r, &got));
  if (!got) {
    PetscCall(DRInputFail(st, "%s: is empty, expected a '%%%%MatrixMarket matrix coordinate real symmetric|general' header", path));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ntok = sscanf(r->line, "%63s %63s %63s %63s %63s", tok[0], tok[1], tok[2], tok[3], tok[4]);
  if (ntok != 5 || strcasecmp(tok[0], "%%MatrixMarket") || strcasecmp(tok[1], "matrix") || strcasecmp(tok[2], "coordinate") || (strcasecmp(tok[3], "real") && strcasecmp(tok[3], "integer") && strcasecmp(tok[3], "double")) || (strcasecmp(tok[4], "general") && strcasecmp(tok[4], "symmetric"))) {
    PetscCall(DRInputFail(st, "%s:1: header '%.100s' is not supported, expected '%%%%MatrixMarket matrix coordinate real symmetric|general'", path, r->line));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  h->symmetric = strcasecmp(tok[4], "symmetric") ? PETSC_FALSE : PETSC_TRUE;
  for (;;) {
    long long m = 0, n = 0, nnz = 0;
    char     *s, *e;
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      PetscCall(DRInputFail(st, "%s: ends before the size line, expected 'rows columns entries'", path));
      break;
    }
    if (r->line[0] == '%' || DRStrBlank(r->line)) continue;
    s = r->line;
    m = strtoll(s, &e, 10);
    if (e != s) {
      s = e;
      n = strtoll(s, &e, 10);
    }
    if (e != s) {
      s   = e;
      nnz = strtoll(s, &e, 10);
    }
    if (e == s || !DRStrBlank(e) || m < 0 || n < 0 || nnz < 0) {
      PetscCall(DRInputFail(st, "%s:%lld: size line '%.80s' is not 'rows columns entries'", path, (long long)r->lineno, r->line));
      break;
    }
    if (m != n) {
      PetscCall(DRInputFail(st, "%s:%lld: matrix is %lld x %lld, expected a square matrix", path, (long long)r->lineno, m, n));
      break;
    }
    if (n > PETSC_MAX_INT) {
      PetscCall(DRInputFail(st, "%s:%lld: %lld rows exceed this PETSc build's 32-bit indices, expected a PETSc configured --with-64-bit-indices", path, (long long)r->lineno, n));
      break;
    }
    h->n   = (PetscInt)n;
    h->nnz = nnz;
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reader state (rank 0). */
typedef struct {
  MMHeader   h;
  PetscInt64 done;         /* entries read */
  PetscInt64 below, above; /* line of the first entry in each strict triangle */
  /* A component's matrix: its size must be nexpect (the labels of dofs,
   * known before the matrix is read, so a wrong size line is reported before
   * anything of that size is allocated); -1: any size. */
  PetscInt    nexpect;
  const char *role, *kpath, *dofs;
} MMReader;

static PetscErrorCode MMHeaderCB(DRMatStream *s, DRInputStatus *st, DRLineReader *r)
{
  MMReader *mm = (MMReader *)s->ctx;

  PetscFunctionBeginUser;
  PetscCall(MMReadHeader(st, r, s->path, &mm->h));
  if (!st->bad && mm->nexpect >= 0 && mm->h.n != mm->nexpect) {
    if (!strcmp(mm->role, "K")) PetscCall(DRInputFail(st, "%s: has %" PetscInt_FMT " labels but K (%s) has %" PetscInt_FMT " rows, expected one label per row", mm->dofs, mm->nexpect, s->path, mm->h.n));
    else PetscCall(DRInputFail(st, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT " but K (%s) is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", s->path, mm->role, mm->h.n, mm->h.n, mm->kpath, mm->nexpect, mm->nexpect));
    mm->h.n = 0;
  }
  s->n         = mm->h.n;
  s->symmetric = mm->h.symmetric;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MMEntries(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more)
{
  MMReader   *mm     = (MMReader *)s->ctx;
  const char *path   = s->path;
  const char *expect = "'row column value'";
  PetscBool   got;

  PetscFunctionBeginUser;
  while (!st->bad && mm->done < mm->h.nnz && !DRTripletsFull(t)) {
    long long i, j;
    double    v;
    char     *vtok = NULL;
    int       vlen = 0, parsed;
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      PetscCall(DRInputFail(st, "%s: ends after %lld of %lld entries", path, (long long)mm->done, (long long)mm->h.nnz));
      break;
    }
    if (r->line[0] == '%' || DRStrBlank(r->line)) continue;
    parsed = DRParseEntry(r->line, &i, &j, &v, &vtok, &vlen);
    PetscCall(DRCheckEntry(st, path, r->lineno, r->line, parsed, i, j, v, vtok, vlen, mm->h.n, expect));
    if (st->bad) break;
    if (mm->h.symmetric && i != j) {
      PetscInt64 *mine = i > j ? &mm->below : &mm->above, *other = i > j ? &mm->above : &mm->below;
      if (!*mine) *mine = r->lineno;
      if (*other) {
        PetscCall(DRInputFail(st, "%s:%lld: entry (%lld, %lld) is %s the diagonal but line %lld holds one %s it, expected a 'symmetric' file to store one triangle", path, (long long)r->lineno, i, j, i > j ? "below" : "above", (long long)*other, i > j ? "above" : "below"));
        break;
      }
    }
    DRTripletsAdd(t, (PetscInt)(i - 1), (PetscInt)(j - 1), (PetscScalar)v, mm->h.symmetric);
    mm->done++;
  }
  /* Whatever follows the last entry may only be comments. */
  while (!st->bad && mm->done == mm->h.nnz) {
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) break;
    if (r->line[0] == '%' || DRStrBlank(r->line)) continue;
    PetscCall(DRInputFail(st, "%s:%lld: more entries than the %lld the size line announced", path, (long long)r->lineno, (long long)mm->h.nnz));
  }
  *more = mm->done < mm->h.nnz ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadMM(MPI_Comm comm, const char *path, PetscInt nexpect, const char *role, const char *kpath, const char *dofs, Mat *A)
{
  MMReader    mm;
  DRMatStream s;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&mm, sizeof(mm)));
  PetscCall(PetscMemzero(&s, sizeof(s)));
  mm.nexpect = nexpect;
  mm.role    = role;
  mm.kpath   = kpath;
  mm.dofs    = dofs;
  s.path    = path;
  s.what    = "a Matrix Market file";
  s.header  = MMHeaderCB;
  s.entries = MMEntries;
  s.ctx     = &mm;
  PetscCall(DRMatStreamRead(comm, &s, A));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatReadMatrixMarketSized(MPI_Comm comm, const char *path, PetscInt nexpect, const char *role, const char *kpath, const char *dofs, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(ReadMM(comm, path, nexpect, role, kpath, dofs, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatReadMatrixMarket(MPI_Comm comm, const char *path, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(ReadMM(comm, path, -1, NULL, NULL, NULL, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadMTX(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *dofs, DRComponent *c)
{
  DRComponent C;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, K, sizeof(C->source)));
  PetscCall(PetscStrncpy(C->msource, M, sizeof(C->msource)));
  /* The labels first: their count is the size K, M and D must have. */
  PetscCall(DRLabelsRead(comm, dofs, &C->n, &C->labels));
  PetscCall(ReadMM(comm, K, C->n, "K", K, dofs, &C->K));
  PetscCall(ReadMM(comm, M, C->n, "M", K, dofs, &C->M));
  if (D && D[0]) PetscCall(ReadMM(comm, D, C->n, "D", K, dofs, &C->D));
  PetscCall(DRComponentCheckSizes(C, K, M, D, dofs));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

