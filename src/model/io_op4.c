/* OP4 (Nastran OUTPUT4) component reader: one file holding K, M and
 * optionally D, in this order (their OP4 names are not used), and a DOF
 * label file ("node.direction" per row, as for Matrix Market).
 *
 * Accepted: ASCII and binary files; real matrices (type 1 single or 2
 * double precision), square (form 1, 6 or any form with ncol = nrow);
 * dense columns (icol, irow > 0, nw), sparse columns (icol, 0, nw) made of
 * strings of consecutive rows, in the non-bigmat form (one header word
 * IS = irow + 65536 (L + 1)) when nrow > 0 and the bigmat form (two words
 * L + 1, irow) when nrow < 0; the closing record (icol = ncol + 1).
 *   ASCII: header "%8d%8d%8d%8d" (ncol, nrow, form, type), 8-character
 *   name, a Fortran format such as "1P,3E24.16" giving the values per line
 *   and the field width (E or D exponents); column headers "%8d%8d%8d"
 *   (dense: nw = number of values; sparse: nw in 4-byte words, a double
 *   being 2), string headers "%8d%8d" (bigmat) or one integer (IS); each
 *   run of values starts on a new line.
 *   Binary: Fortran unformatted records (4-byte length before and after),
 *   either byte order (found from the header record's length 24), 4-byte
 *   integers; the counts are words (a double is 2 words).
 * Zero values are skipped; the symmetry of K, M, D is checked by
 * DRComponentValidate like every other reader.
 *
 * Rank 0 first parses the whole file without keeping anything (every
 * structural error found there, as "FILE:LINE: ..." for ASCII and "FILE:
 * record R (byte B): ..." for binary), then reads each matrix with the
 * streaming loop (DRMatStreamRead), skipping the ones before it. */
#include "io_impl.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { ST_COLHDR, ST_STRHDR, ST_VALUES, ST_DONE } Op4State;

typedef struct {
  const char *path;
  PetscBool   binary, swap, bigmat, sparsecol, keep;
  PetscInt    which;            /* matrix index being read (0 K, 1 M, 2 D) */
  PetscInt    n;                /* size of K (-1 before) */
  PetscInt    ncol, nrow, type, wper;
  char        name[9];
  PetscInt    perline, numlen;  /* ASCII values per line and field width */
  Op4State    st;
  PetscInt    icol, row, lastrow, left, leftwords;
  PetscInt    lpos, lcount;     /* ASCII: values used / held by the current line */
  PetscInt64  record, byte;
  PetscInt    reclen, recused;
} Op4;

static const char *const mname[3] = {"K", "M", "D"};

/* "PATH:LINE: " or "PATH: record R (byte B): " */
static void Where(Op4 *o, DRLineReader *r, char *buf, size_t len)
{
  if (o->binary) snprintf(buf, len, "%s: record %lld (byte %lld)", o->path, (long long)o->record, (long long)o->byte);
  else snprintf(buf, len, "%s:%lld", o->path, (long long)r->lineno);
}

#define OP4FAIL(o, st, r, ...) \
  do { \
    char w_[PETSC_MAX_PATH_LEN + 64], m_[512]; \
    Where((o), (r), w_, sizeof(w_)); \
    snprintf(m_, sizeof(m_), __VA_ARGS__); \
    PetscCall(DRInputFail((st), "%s: %s %s: %s", w_, mname[PetscMin((o)->which, 2)], (o)->name, m_)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  } while (0)

/* ---- binary primitives ---------------------------------------------------- */
static PetscBool ReadBytes(Op4 *o, DRLineReader *r, void *buf, size_t n)
{
  if (fread(buf, 1, n, r->f) != n) return PETSC_FALSE;
  o->byte += (PetscInt64)n;
  return PETSC_TRUE;
}

static PetscBool ReadI32(Op4 *o, DRLineReader *r, PetscInt *v)
{
  unsigned char b[4];
  int32_t       x;
  if (!ReadBytes(o, r, b, 4)) return PETSC_FALSE;
  if (o->swap) {
    unsigned char t;
    t = b[0], b[0] = b[3], b[3] = t;
    t = b[1], b[1] = b[2], b[2] = t;
  }
  memcpy(&x, b, 4);
  *v = x;
  return PETSC_TRUE;
}

static PetscBool ReadReal(Op4 *o, DRLineReader *r, double *v)
{
  unsigned char b[8];
  size_t        n = o->type == 1 ? 4 : 8;
  if (!ReadBytes(o, r, b, n)) return PETSC_FALSE;
  if (o->swap)
    for (size_t k = 0; k < n / 2; k++) {
      unsigned char t = b[k];
      b[k]            = b[n - 1 - k];
      b[n - 1 - k]    = t;
    }
  if (n == 4) {
    float x;
    memcpy(&x, b, 4);
    *v = x;
  } else memcpy(v, b, 8);
  return PETSC_TRUE;
}

/* start of a binary record: its length */
static PetscErrorCode RecordBegin(Op4 *o, DRInputStatus *st, DRLineReader *r, PetscBool *eof)
{
  PetscFunctionBeginUser;
  *eof = PETSC_FALSE;
  o->record++;
  if (!ReadI32(o, r, &o->reclen)) {
    *eof = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (o->reclen < 4) OP4FAIL(o, st, r, "record length %lld, expected a Fortran record of at least 4 bytes", (long long)o->reclen);
  o->recused = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RecordEnd(Op4 *o, DRInputStatus *st, DRLineReader *r)
{
  PetscInt len;

  PetscFunctionBeginUser;
  if (o->recused != o->reclen) OP4FAIL(o, st, r, "record holds %lld bytes, its contents %lld, expected equal", (long long)o->reclen, (long long)o->recused);
  if (!ReadI32(o, r, &len)) OP4FAIL(o, st, r, "file ends inside a record, expected its closing length");
  if (len != o->reclen) OP4FAIL(o, st, r, "record closes with length %lld, opened with %lld, expected equal", (long long)len, (long long)o->reclen);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- ASCII primitives ----------------------------------------------------- */
/* integer in s[a, a + w) (w < 0: the rest); ok false when not an integer */
static long long FieldInt(const char *s, size_t len, size_t a, long w, PetscBool *ok)
{
  char      buf[64], *e;
  size_t    n = w < 0 ? (len > a ? len - a : 0) : PetscMin((size_t)w, len > a ? len - a : 0);
  long long v;
  *ok = PETSC_FALSE;
  if (n == 0 || n >= sizeof(buf)) return 0;
  memcpy(buf, s + a, n);
  buf[n] = 0;
  v      = strtoll(buf, &e, 10);
  if (e == buf || !DRStrBlank(e)) return 0;
  *ok = PETSC_TRUE;
  return v;
}

/* three integers of a column header (fixed 8-character fields) */
static PetscErrorCode AsciiInts(Op4 *o, DRInputStatus *st, DRLineReader *r, int nint, long long v[3], const char *what, PetscBool *eof)
{
  PetscBool got, ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  *eof = PETSC_FALSE;
  do PetscCall(DRLineReaderNext(r, &got));
  while (got && DRStrBlank(r->line));
  if (!got) {
    *eof = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (nint == 1) v[0] = FieldInt(r->line, r->len, 0, -1, &ok);
  else
    for (int k = 0; k < nint && ok; k++) v[k] = FieldInt(r->line, r->len, 8 * (size_t)k, k == nint - 1 ? -1 : 8, &ok);
  if (!ok) OP4FAIL(o, st, r, "'%.60s' is not %s, expected %d integer%s in 8-character fields", r->line, what, nint, nint > 1 ? "s" : "");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AsciiValue(Op4 *o, DRInputStatus *st, DRLineReader *r, double *v)
{
  char      buf[64], *e;
  size_t    a;
  PetscBool got;

  PetscFunctionBeginUser;
  if (o->lpos == o->lcount) {
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) OP4FAIL(o, st, r, "file ends inside column %lld, expected %lld more value(s)", (long long)o->icol, (long long)o->left);
    o->lpos   = 0;
    o->lcount = PetscMin(o->perline, o->left);
  }
  a = (size_t)(o->lpos * o->numlen);
  if (r->len <= a) OP4FAIL(o, st, r, "line '%.60s' holds fewer than %lld values of %lld characters, expected the column's values", r->line, (long long)o->lcount, (long long)o->numlen);
  memcpy(buf, r->line + a, PetscMin((size_t)o->numlen, r->len - a));
  buf[PetscMin((size_t)o->numlen, r->len - a)] = 0;
  for (char *p = buf; *p; p++)
    if (*p == 'D' || *p == 'd') *p = 'E';
  errno = 0;
  *v    = strtod(buf, &e);
  if (e == buf || !DRStrBlank(e)) OP4FAIL(o, st, r, "value '%s' is not a number, expected a real in a field of %lld characters", buf, (long long)o->numlen);
  o->lpos++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- matrix header ----------------------------------------------------------- */
/* *eof: no further matrix */
static PetscErrorCode ReadHeader(Op4 *o, DRInputStatus *st, DRLineReader *r, PetscBool *eof)
{
  long long ncol = 0, nrow = 0, form = 0, type = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(o->name, sizeof(o->name)));
  if (o->binary) {
    PetscInt v[4];
    PetscCall(RecordBegin(o, st, r, eof));
    if (st->bad || *eof) PetscFunctionReturn(PETSC_SUCCESS);
    if (o->reclen != 24) OP4FAIL(o, st, r, "header record of %lld bytes, expected 24 (4 integers and an 8-character name; 8-byte integers are not supported)", (long long)o->reclen);
    for (int k = 0; k < 4; k++)
      if (!ReadI32(o, r, &v[k])) OP4FAIL(o, st, r, "file ends inside the header record, expected ncol, nrow, form, type, name");
    if (!ReadBytes(o, r, o->name, 8)) OP4FAIL(o, st, r, "file ends inside the header record, expected the matrix name");
    o->recused = 24;
    PetscCall(RecordEnd(o, st, r));
    if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
    ncol = v[0], nrow = v[1], form = v[2], type = v[3];
  } else {
    PetscBool got, ok1, ok2, ok3, ok4;
    const char *fmt;
    *eof = PETSC_FALSE;
    do PetscCall(DRLineReaderNext(r, &got));
    while (got && DRStrBlank(r->line));
    if (!got) {
      *eof = PETSC_TRUE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    ncol = FieldInt(r->line, r->len, 0, 8, &ok1);
    nrow = FieldInt(r->line, r->len, 8, 8, &ok2);
    form = FieldInt(r->line, r->len, 16, 8, &ok3);
    type = FieldInt(r->line, r->len, 24, 8, &ok4);
    if (!(ok1 && ok2 && ok3 && ok4)) OP4FAIL(o, st, r, "header '%.60s' is not ncol, nrow, form, type in 8-character fields, expected an OP4 matrix header", r->line);
    if (r->len > 32) memcpy(o->name, r->line + 32, PetscMin((size_t)8, r->len - 32));
    o->perline = 5, o->numlen = 16; /* Fortran's default 1P,5E16.9 */
    fmt        = r->len > 40 ? r->line + 40 : "";
    while (*fmt == ' ') fmt++;
    if (!strncmp(fmt, "1P,", 3) || !strncmp(fmt, "1p,", 3)) fmt += 3;
    if (*fmt) {
      char *e;
      long  pl = strtol(fmt, &e, 10), nl;
      if (e == fmt || (*e != 'E' && *e != 'D' && *e != 'e' && *e != 'd')) OP4FAIL(o, st, r, "value format '%.20s' not understood, expected e.g. 1P,3E24.16", fmt);
      nl = strtol(e + 1, NULL, 10);
      if (pl < 1 || nl < 2 || nl > 60) OP4FAIL(o, st, r, "value format '%.20s' not understood, expected e.g. 1P,3E24.16", fmt);
      o->perline = pl, o->numlen = nl;
    }
  }
  for (int k = 7; k >= 0 && (o->name[k] == ' ' || o->name[k] == 0); k--) o->name[k] = 0;
  if (type != 1 && type != 2) OP4FAIL(o, st, r, "type %lld, expected a real matrix (1 single, 2 double precision; complex is not supported)", type);
  if (ncol <= 0 || (nrow != ncol && nrow != -ncol)) OP4FAIL(o, st, r, "is %lld x %lld, expected a square matrix of positive size", llabs(nrow), ncol);
  if (o->n >= 0 && ncol != o->n) OP4FAIL(o, st, r, "is %lld x %lld but K is %lld x %lld, expected the same size", ncol, ncol, (long long)o->n, (long long)o->n);
  (void)form; /* any form: symmetry is checked on the matrix itself */
  o->ncol    = (PetscInt)ncol;
  o->nrow    = (PetscInt)ncol;
  o->bigmat  = nrow < 0 ? PETSC_TRUE : PETSC_FALSE;
  o->type    = (PetscInt)type;
  o->wper    = type == 1 ? 1 : 2;
  o->st      = ST_COLHDR;
  o->icol    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- columns ----------------------------------------------------------------- */
static PetscErrorCode ColumnHeader(Op4 *o, DRInputStatus *st, DRLineReader *r)
{
  long long v[3] = {0, 0, 0};
  PetscBool eof;

  PetscFunctionBeginUser;
  if (o->binary) {
    PetscInt x[3];
    PetscCall(RecordBegin(o, st, r, &eof));
    if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
    if (eof) OP4FAIL(o, st, r, "file ends after column %lld of %lld, expected the next column or the closing record (column %lld)", (long long)o->icol, (long long)o->ncol, (long long)o->ncol + 1);
    for (int k = 0; k < 3; k++)
      if (!ReadI32(o, r, &x[k])) OP4FAIL(o, st, r, "file ends inside a column header, expected icol, irow, nw");
    o->recused = 12;
    v[0] = x[0], v[1] = x[1], v[2] = x[2];
  } else {
    PetscCall(AsciiInts(o, st, r, 3, v, "a column header", &eof));
    if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
    if (eof) OP4FAIL(o, st, r, "file ends after column %lld of %lld, expected the next column or the closing record (column %lld)", (long long)o->icol, (long long)o->ncol, (long long)o->ncol + 1);
  }
  if (v[0] == o->ncol + 1) { /* closing record: skip its value(s) */
    if (o->binary) {
      while (o->recused < o->reclen) {
        unsigned char b;
        if (!ReadBytes(o, r, &b, 1)) OP4FAIL(o, st, r, "file ends inside the closing record");
        o->recused++;
      }
      PetscCall(RecordEnd(o, st, r));
    } else {
      PetscBool got;
      for (long long k = 0; k < (v[2] + o->perline - 1) / o->perline; k++) {
        PetscCall(DRLineReaderNext(r, &got));
        if (!got) OP4FAIL(o, st, r, "file ends inside the closing record, expected its %lld value(s)", v[2]);
      }
    }
    o->st = ST_DONE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (v[0] <= o->icol || v[0] > o->ncol) OP4FAIL(o, st, r, "column %lld after column %lld, expected ascending columns in 1..%lld (or %lld to close)", v[0], (long long)o->icol, (long long)o->ncol, (long long)o->ncol + 1);
  if (v[1] < 0 || v[1] > o->nrow || v[2] < 0) OP4FAIL(o, st, r, "column %lld: irow %lld, nw %lld, expected irow in 0..%lld and nw >= 0", v[0], v[1], v[2], (long long)o->nrow);
  o->icol    = (PetscInt)v[0];
  o->lastrow = -1;
  if (v[1] > 0) { /* dense run */
    o->sparsecol = PETSC_FALSE;
    o->row       = (PetscInt)v[1] - 1;
    o->left      = o->binary ? (PetscInt)(v[2] / o->wper) : (PetscInt)v[2];
    if (o->binary && (v[2] % o->wper || 12 + 4 * v[2] != o->reclen)) OP4FAIL(o, st, r, "column %lld: nw %lld words in a record of %lld bytes, expected whole values filling the record", v[0], v[2], (long long)o->reclen);
    if (o->row + o->left > o->nrow) OP4FAIL(o, st, r, "column %lld: %lld values from row %lld pass row %lld, expected them within the matrix", v[0], (long long)o->left, v[1], (long long)o->nrow);
    o->lcount = o->lpos = 0;
    o->st     = ST_VALUES;
  } else {
    o->sparsecol = PETSC_TRUE;
    o->leftwords = (PetscInt)v[2];
    if (o->binary && 12 + 4 * v[2] != o->reclen) OP4FAIL(o, st, r, "column %lld: nw %lld words in a record of %lld bytes, expected the strings to fill the record", v[0], v[2], (long long)o->reclen);
    o->st = ST_STRHDR;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StringHeader(Op4 *o, DRInputStatus *st, DRLineReader *r)
{
  long long L = 0, irow = 0;

  PetscFunctionBeginUser;
  if (o->binary) {
    PetscInt a, b = 0;
    if (!ReadI32(o, r, &a) || (o->bigmat && !ReadI32(o, r, &b))) OP4FAIL(o, st, r, "file ends inside a string header of column %lld", (long long)o->icol);
    o->recused += o->bigmat ? 8 : 4;
    if (o->bigmat) L = a - 1, irow = b;
    else L = a / 65536 - 1, irow = a - 65536 * (L + 1);
  } else {
    long long v[3];
    PetscBool eof;
    PetscCall(AsciiInts(o, st, r, o->bigmat ? 2 : 1, v, "a string header", &eof));
    if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
    if (eof) OP4FAIL(o, st, r, "file ends inside column %lld, expected a string header", (long long)o->icol);
    if (o->bigmat) L = v[0] - 1, irow = v[1];
    else L = v[0] / 65536 - 1, irow = v[0] - 65536 * (L + 1);
  }
  o->leftwords -= (PetscInt)L + (o->bigmat ? 2 : 1);
  if (L <= 0 || L % o->wper || o->leftwords < 0) OP4FAIL(o, st, r, "column %lld: string of %lld words, expected a positive multiple of %lld within the column's %lld words", (long long)o->icol, L, (long long)o->wper, (long long)(o->leftwords + L + (o->bigmat ? 2 : 1)));
  if (irow - 1 <= o->lastrow || irow < 1 || irow - 1 + L / o->wper > o->nrow) OP4FAIL(o, st, r, "column %lld: string of %lld values at row %lld, expected rows after %lld and within 1..%lld", (long long)o->icol, L / o->wper, irow, (long long)o->lastrow + 1, (long long)o->nrow);
  o->row    = (PetscInt)irow - 1;
  o->left   = (PetscInt)(L / o->wper);
  o->lcount = o->lpos = 0;
  o->st     = ST_VALUES;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Advance the parser until the matrix ends (*done) or t is full (t NULL:
 * keep nothing, run to the end). */
static PetscErrorCode Advance(Op4 *o, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *done)
{
  PetscFunctionBeginUser;
  *done = PETSC_FALSE;
  while (!st->bad) {
    if (o->st == ST_DONE) {
      *done = PETSC_TRUE;
      break;
    }
    if (t && DRTripletsFull(t)) break;
    if (o->st == ST_COLHDR) PetscCall(ColumnHeader(o, st, r));
    else if (o->st == ST_STRHDR) {
      if (o->leftwords == 0) {
        if (o->binary) PetscCall(RecordEnd(o, st, r));
        o->st = ST_COLHDR;
      } else PetscCall(StringHeader(o, st, r));
    } else { /* ST_VALUES */
      double v;
      if (o->left == 0) {
        if (o->sparsecol) o->st = ST_STRHDR;
        else {
          if (o->binary) PetscCall(RecordEnd(o, st, r));
          o->st = ST_COLHDR;
        }
        continue;
      }
      if (o->binary) {
        if (!ReadReal(o, r, &v)) OP4FAIL(o, st, r, "file ends inside column %lld, expected %lld more value(s)", (long long)o->icol, (long long)o->left);
        o->recused += 4 * o->wper;
      } else {
        PetscCall(AsciiValue(o, st, r, &v));
        if (st->bad) break;
      }
      if (!isfinite(v)) OP4FAIL(o, st, r, "entry (%lld, %lld) is %g, expected a finite real", (long long)o->row + 1, (long long)o->icol, v);
      if (t && v != 0) DRTripletsAdd(t, o->row, o->icol - 1, (PetscScalar)v, PETSC_FALSE);
      o->lastrow = o->row;
      o->row++;
      o->left--;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: open path (ASCII or binary, byte order) */
static PetscErrorCode Open(Op4 *o, DRInputStatus *st, DRLineReader *r, const char *path)
{
  unsigned char b[4];
  size_t        got;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(o, sizeof(*o)));
  o->path = path;
  o->n    = -1;
  PetscCall(DRInputOpen(st, r, path, "an OP4 file with K, M [, D]"));
  if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
  got = fread(b, 1, 4, r->f);
  if (got < 4) {
    PetscCall(DRInputFail(st, "%s: holds %d byte(s), expected an OP4 file with K, M [, D]", path, (int)got));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  rewind(r->f);
  if (b[0] == 24 && !b[1] && !b[2] && !b[3]) o->binary = PETSC_TRUE;
  else if (!b[0] && !b[1] && !b[2] && b[3] == 24) o->binary = o->swap = PETSC_TRUE;
  else if (!b[0] || !b[3] || b[0] == 48 || b[3] == 48) {
    PetscCall(DRInputFail(st, "%s: starts with a record of %u bytes, expected an OP4 header record of 24 bytes (binary) or an ASCII header line", path, (unsigned)(b[0] | b[3])));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: parse the whole file; *nmat matrices (2 or 3), size *n. */
static PetscErrorCode Scan(DRInputStatus *st, const char *path, PetscInt *nmat, PetscInt *n)
{
  DRLineReader r;
  Op4          o;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&r, sizeof(r)));
  *nmat = 0;
  PetscCall(Open(&o, st, &r, path));
  for (PetscInt k = 0; !st->bad; k++) {
    PetscBool eof, done;
    o.which = k;
    PetscCall(ReadHeader(&o, st, &r, &eof));
    if (st->bad) break;
    if (eof) {
      if (k < 2) PetscCall(DRInputFail(st, "%s: ends after %" PetscInt_FMT " matri%s, expected K and M (and optionally D)", path, k, k == 1 ? "x" : "ces"));
      break;
    }
    if (k == 3) {
      PetscCall(DRInputFail(st, "%s: a fourth matrix '%s' follows K, M and D, expected at most three matrices", path, o.name));
      break;
    }
    PetscCall(Advance(&o, st, &r, NULL, &done));
    if (k == 0) o.n = o.ncol;
    *nmat = k + 1;
  }
  *n = o.n;
  PetscCall(DRLineReaderClose(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DRMatStream callbacks: skip the matrices before `which`, read its header */
static PetscErrorCode StreamHeader(DRMatStream *s, DRInputStatus *st, DRLineReader *r)
{
  Op4     *o = (Op4 *)s->ctx, save = *o;
  PetscBool eof, done;

  PetscFunctionBeginUser;
  /* the line reader was opened by DRMatStreamRead: detect the kind again */
  {
    unsigned char b[4];
    PetscCall(PetscMemzero(o, sizeof(*o)));
    o->path  = save.path;
    o->n     = -1;
    o->which = save.which;
    if (fread(b, 1, 4, r->f) == 4) {
      o->binary = (b[0] == 24 || b[3] == 24) && (!b[1] && !b[2]) ? PETSC_TRUE : PETSC_FALSE;
      o->swap   = o->binary && b[3] == 24 ? PETSC_TRUE : PETSC_FALSE;
    }
    rewind(r->f);
  }
  for (PetscInt k = 0; k <= save.which && !st->bad; k++) {
    PetscInt which = o->which;
    o->which       = k;
    PetscCall(ReadHeader(o, st, r, &eof));
    if (!st->bad && eof) PetscCall(DRInputFail(st, "%s: ends before matrix %s, expected it", s->path, mname[k]));
    if (st->bad) break;
    if (k == 0) o->n = o->ncol;
    if (k < save.which) PetscCall(Advance(o, st, r, NULL, &done));
    o->which = which;
  }
  s->n         = o->ncol;
  s->symmetric = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StreamEntries(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more)
{
  Op4      *o = (Op4 *)s->ctx;
  PetscBool done;

  PetscFunctionBeginUser;
  PetscCall(Advance(o, st, r, t, &done));
  *more = done ? PETSC_FALSE : PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadOP4(MPI_Comm comm, const char *name, const char *path, const char *dofs, DRComponent *c)
{
  DRComponent   C;
  DRInputStatus st;
  PetscInt      nmat = 0, n = 0;
  Mat          *dst[3];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadOP4, 0, 0, 0, 0));
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) PetscCall(Scan(&st, path, &nmat, &n));
  PetscCall(DRInputSync(&st, &nmat));
  DRInputCheck(&st);
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  dst[0] = &C->K, dst[1] = &C->M, dst[2] = &C->D;
  for (PetscInt k = 0; k < nmat; k++) {
    Op4         o;
    DRMatStream s;
    PetscCall(PetscMemzero(&o, sizeof(o)));
    PetscCall(PetscMemzero(&s, sizeof(s)));
    o.path    = path;
    o.which   = k;
    s.path    = path;
    s.what    = "an OP4 file with K, M [, D]";
    s.header  = StreamHeader;
    s.entries = StreamEntries;
    s.ctx     = &o;
    PetscCall(DRMatStreamRead(comm, &s, dst[k]));
  }
  PetscCall(DRLabelsRead(comm, dofs, &C->n, &C->labels));
  PetscCall(DRComponentCheckSizes(C, path, path, path, dofs));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadOP4, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
