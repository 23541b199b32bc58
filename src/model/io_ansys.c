/* Ansys component reader (components[].format ansys): K, M [, D] as the
 * Harwell-Boeing files HBMAT writes from a .full file, or as the Matrix
 * Market files of APDL Math's *EXPORT (format MMF), and the mapping file
 * (HBMAT, ..., Mapping = YES: Fname.MAPPING) that labels the equations.
 * Each matrix file's kind is found from its first line ("%%MatrixMarket":
 * the Matrix Market reader of io_mtx.c; anything else: Harwell-Boeing).
 *
 * Harwell-Boeing (assembled, real): the header
 *   1: title (A72), key (A8)
 *   2: TOTCRD PTRCRD INDCRD VALCRD [RHSCRD]   (lines of the file, sections)
 *   3: MXTYPE NROW NCOL NNZERO [NELTVL]       (MXTYPE RSA or RUA)
 *   4: PTRFMT INDFMT VALFMT [RHSFMT]          (Fortran formats, e.g. (16I5)
 *                                              (1P,4E20.12))
 *   5: RHSTYP NRHS NRHSIX                     (only when RHSCRD > 0)
 * then NCOL + 1 column pointers (PTRCRD lines), NNZERO row indices (INDCRD
 * lines) and NNZERO values (VALCRD lines), each section in fixed-width
 * fields of its format, and the right-hand side (ignored).  Integers of
 * lines 2 and 3 are read blank-separated, the formats as the parenthesized
 * groups of line 4.  Values accept E or D exponents, Fortran's exponent
 * without a letter ("1.5-100") and a kP scale factor (applied to a field
 * without exponent, as Fortran input does).  RSA stores one triangle (the
 * standard's lower, by columns); it is expanded as the Abaqus reader does
 * (DRTripletsAddEither: the upper triangle, or both, read the same way).
 * The row indices and the values are two sections of the file: rank 0 reads
 * them with two line readers side by side, so nothing of size NNZERO is
 * held.
 *
 * Mapping file: an optional header line ("Matrix Eqn   Node   DOF"), then
 * one "equation node label" line per equation, label UX UY UZ ROTX ROTY ROTZ
 * (directions 1..6); every equation 1..n once, n = the matrices' size. */
#include "io_impl.h"
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ======================================================================== */
/* Mapping file                                                             */
/* ======================================================================== */

static const char *const ans_dof[6] = {"UX", "UY", "UZ", "ROTX", "ROTY", "ROTZ"};

static PetscErrorCode ReadMapping(MPI_Comm comm, const char *path, PetscInt *n, DRLabel **labels)
{
  DRInputStatus st;
  DRLineReader  r;
  PetscInt      cnt = 0, cap = 0;
  DRLabel      *lab = NULL;
  PetscInt     *eq = NULL;
  PetscInt64   *line = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    PetscBool got, first = PETSC_TRUE;
    PetscCall(DRInputOpen(&st, &r, path, "an Ansys mapping file (equation node DOF per line)"));
    while (!st.bad) {
      char      t[4][64];
      int       nt, dir = 0;
      long long e, node = 0;
      char     *end;
      PetscCall(DRLineReaderNext(&r, &got));
      if (!got) break;
      if (DRStrBlank(r.line)) continue;
      nt = sscanf(r.line, "%63s %63s %63s %63s", t[0], t[1], t[2], t[3]);
      e  = strtoll(t[0], &end, 10);
      if (first && isalpha((unsigned char)t[0][0])) { /* the header line */
        first = PETSC_FALSE;
        continue;
      }
      first = PETSC_FALSE;
      if (nt != 3 || end == t[0] || *end || (node = strtoll(t[1], &end, 10), end == t[1] || *end)) {
        char *s = r.line;
        while (*s == ' ' || *s == '\t') s++;
        PetscCall(DRInputFail(&st, "%s:%lld: found '%.60s', expected 'equation node DOF' (e.g. '12 4 UY')", path, (long long)r.lineno, s));
        break;
      }
      for (int d = 0; d < 6; d++)
        if (!strcasecmp(t[2], ans_dof[d])) dir = d + 1;
      if (!dir) {
        PetscCall(DRInputFail(&st, "%s:%lld: DOF '%s' at node %lld, expected UX UY UZ ROTX ROTY ROTZ (dynred's components are structural)", path, (long long)r.lineno, t[2], node));
        break;
      }
      if (node < 0 || node > LLONG_MAX / 8 || e < 1 || e > PETSC_MAX_INT) {
        PetscCall(DRInputFail(&st, "%s:%lld: equation %lld node %lld, expected an equation >= 1 and a node >= 0", path, (long long)r.lineno, e, node));
        break;
      }
      if (cnt == cap) {
        DRLabel    *l2;
        PetscInt   *e2;
        PetscInt64 *n2;
        cap = 2 * cap + 1024;
        PetscCall(PetscMalloc3(cap, &l2, cap, &e2, cap, &n2));
        if (cnt) {
          PetscCall(PetscArraycpy(l2, lab, cnt));
          PetscCall(PetscArraycpy(e2, eq, cnt));
          PetscCall(PetscArraycpy(n2, line, cnt));
        }
        PetscCall(PetscFree3(lab, eq, line));
        lab  = l2;
        eq   = e2;
        line = n2;
      }
      lab[cnt]    = DRLabelMake(node, dir);
      eq[cnt]     = (PetscInt)(e - 1);
      line[cnt++] = r.lineno;
    }
    PetscCall(DRLineReaderClose(&r));
    if (!st.bad && cnt == 0) PetscCall(DRInputFail(&st, "%s: has no equations, expected one 'equation node DOF' line per matrix row", path));
    if (!st.bad) {
      /* every equation 1..cnt once; labels in equation order */
      PetscInt *where;
      DRLabel  *byeq;
      PetscCall(PetscMalloc2(cnt, &where, cnt, &byeq));
      for (PetscInt k = 0; k < cnt; k++) where[k] = -1;
      for (PetscInt k = 0; k < cnt && !st.bad; k++) {
        if (eq[k] >= cnt) PetscCall(DRInputFail(&st, "%s:%lld: equation %" PetscInt_FMT " out of range 1..%" PetscInt_FMT " (the file's equations), expected each equation once", path, (long long)line[k], eq[k] + 1, cnt));
        else if (where[eq[k]] >= 0) PetscCall(DRInputFail(&st, "%s:%lld: equation %" PetscInt_FMT " repeats line %lld, expected each equation once", path, (long long)line[k], eq[k] + 1, (long long)line[where[eq[k]]]));
        else {
          where[eq[k]] = k;
          byeq[eq[k]]  = lab[k];
        }
      }
      if (!st.bad) {
        DRLabel  *sorted;
        PetscInt *perm;
        char      b[32];
        PetscCall(DRLabelsSort(cnt, byeq, &sorted, &perm));
        for (PetscInt k = 1; k < cnt && !st.bad; k++)
          if (sorted[k] == sorted[k - 1]) {
            PetscInt a = where[PetscMin(perm[k], perm[k - 1])], z = where[PetscMax(perm[k], perm[k - 1])];
            PetscCall(DRInputFail(&st, "%s:%lld: node %lld %s repeats line %lld (label %s), expected one equation per node and DOF", path, (long long)line[z], (long long)DRLabelNode(sorted[k]), ans_dof[DRLabelDir(sorted[k]) - 1], (long long)line[a], DRLabelString(sorted[k], b)));
          }
        PetscCall(PetscFree(sorted));
        PetscCall(PetscFree(perm));
      }
      PetscCall(PetscArraycpy(lab, byeq, cnt));
      PetscCall(PetscFree2(where, byeq));
    }
  }
  PetscCall(DRInputSync(&st, &cnt));
  if (st.bad) PetscCall(PetscFree3(lab, eq, line));
  DRInputCheck(&st);
  PetscCall(PetscMalloc1(cnt, labels));
  if (st.rank == 0) {
    PetscCall(PetscArraycpy(*labels, lab, cnt));
    PetscCall(PetscFree3(lab, eq, line));
  }
  PetscCallMPI(MPI_Bcast(*labels, (PetscMPIInt)cnt, MPIU_INT64, 0, comm));
  *n = cnt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Harwell-Boeing                                                           */
/* ======================================================================== */

/* A Fortran edit descriptor: [kP[,]][r]Xw[.d] with X in I E D F G. */
typedef struct {
  char type;
  int  per, width, scale;
} HBFmt;

static PetscBool ParseFmt(const char *s, HBFmt *f)
{
  char  b[64], *p, *e;
  long  v;
  size_t k = 0;
  for (; *s && k < sizeof(b) - 1; s++)
    if (*s != ' ' && *s != '(' && *s != ')') b[k++] = (char)toupper((unsigned char)*s);
  b[k]     = 0;
  p        = b;
  f->scale = 0;
  v        = strtol(p, &e, 10);
  if (*e == 'P') { /* scale factor */
    f->scale = (int)v;
    p        = e + 1;
    if (*p == ',') p++;
  }
  v = strtol(p, &e, 10);
  f->per = e == p ? 1 : (int)v;
  p      = e;
  if (!*p || !strchr("IEDFG", *p)) return PETSC_FALSE;
  f->type = *p++;
  v       = strtol(p, &e, 10);
  if (e == p || v < 1 || v > 60 || f->per < 1) return PETSC_FALSE;
  f->width = (int)v;
  p        = e;
  if (*p == '.') {
    v = strtol(p + 1, &e, 10);
    if (e == p + 1) return PETSC_FALSE;
    p = e;
  }
  if (*p == 'E') { /* exponent digits: Ew.dEe */
    v = strtol(p + 1, &e, 10);
    p = e;
  }
  return *p ? PETSC_FALSE : PETSC_TRUE;
}

/* The text of a Fortran real field as a C number: D exponents, an exponent
 * without its letter ("1.5-100"); *hasexp for the scale factor. */
static PetscBool FortranReal(const char *field, int scale, double *v)
{
  char      b[80], *e;
  size_t    k = 0;
  PetscBool hasexp = PETSC_FALSE, digit = PETSC_FALSE;
  for (const char *s = field; *s && k < sizeof(b) - 2; s++) {
    char ch = *s;
    if (ch == ' ') continue;
    if (ch == 'D' || ch == 'd' || ch == 'E' || ch == 'e' || ch == 'Q' || ch == 'q') {
      ch     = 'E';
      hasexp = PETSC_TRUE;
    } else if ((ch == '+' || ch == '-') && digit && !hasexp && k > 0 && b[k - 1] != 'E') {
      b[k++] = 'E';
      hasexp = PETSC_TRUE;
    }
    if (isdigit((unsigned char)ch) || ch == '.') digit = PETSC_TRUE;
    b[k++] = ch;
  }
  b[k] = 0;
  if (!k) return PETSC_FALSE;
  *v = strtod(b, &e);
  if (e == b || *e) return PETSC_FALSE;
  if (!hasexp && scale) *v *= pow(10.0, -scale);
  return PETSC_TRUE;
}

/* The fields of one section read by a line reader. */
typedef struct {
  DRLineReader *r;
  HBFmt         fmt;
  PetscInt      pos;  /* fields used on the current line */
  PetscInt64    last; /* last line of the section */
  const char   *name; /* for messages */
} HBSection;

/* The next field's text into buf; *ok false (and st failed) at a wrong
 * end.  A section's lines hold fmt.per fields (the last may hold fewer). */
static PetscErrorCode SectionNext(HBSection *sec, DRInputStatus *st, char *buf, size_t len)
{
  DRLineReader *r = sec->r;
  size_t        a, w = (size_t)sec->fmt.width, m;
  PetscBool     got;

  PetscFunctionBeginUser;
  if (sec->pos >= sec->fmt.per || (size_t)sec->pos * w >= r->len || DRStrBlank(r->line + (size_t)sec->pos * w)) {
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      PetscCall(DRInputFail(st, "%s: ends on line %lld inside the %s, expected them to run to line %lld (the header's line counts)", r->path, (long long)r->lineno, sec->name, (long long)sec->last));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (r->lineno > sec->last) {
      PetscCall(DRInputFail(st, "%s:%lld: is past the %s, which end on line %lld by the header's line counts, expected more of them before", r->path, (long long)r->lineno, sec->name, (long long)sec->last));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    sec->pos = 0;
  }
  a = (size_t)sec->pos * w;
  m = PetscMin(w, r->len - a);
  while (m > 0 && r->line[a] == ' ') a++, m--; /* right-justified fields */
  m = PetscMin(m, len - 1);
  memcpy(buf, r->line + a, m);
  buf[m] = 0;
  sec->pos++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt    n; /* labels of the mapping file */
  const char *role, *kpath, *mapping;
  PetscInt    ncol;
  PetscInt64  nnz, done;
  PetscInt64 *ptr;
  PetscInt    col;
  PetscBool   sym;
  DRLineReader v;
  HBSection   ind, val;
} HBReader;

static PetscErrorCode HBHeader(DRMatStream *s, DRInputStatus *st, DRLineReader *r)
{
  HBReader  *hb = (HBReader *)s->ctx;
  const char *path = s->path;
  PetscBool  got;
  long long  c[5] = {0, 0, 0, 0, 0}, d[4] = {0, 0, 0, 0};
  char       mx[8] = "", *p, *e;
  HBFmt      fp = {'I', 1, 1, 0};
  char       fmt[4][64];
  int        nf = 0, nc = 0, nd = 0;
  PetscInt64 hdrlines;

  PetscFunctionBeginUser;
  for (int l = 1; l <= 4; l++) {
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      PetscCall(DRInputFail(st, "%s: ends on line %d of the Harwell-Boeing header, expected 4 header lines (or a %%%%MatrixMarket file)", path, l - 1));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (l == 2) {
      for (p = r->line; nc < 5; nc++, p = e) {
        c[nc] = strtoll(p, &e, 10);
        if (e == p) break;
      }
      if (nc < 4 || !DRStrBlank(p) || c[0] < 0 || c[1] < 0 || c[2] < 0 || c[3] < 0 || c[4] < 0) {
        PetscCall(DRInputFail(st, "%s:2: '%.60s' is not 'TOTCRD PTRCRD INDCRD VALCRD [RHSCRD]', expected a Harwell-Boeing header (or a %%%%MatrixMarket file)", path, r->line));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    } else if (l == 3) {
      p = r->line;
      while (*p == ' ') p++;
      for (int k = 0; k < 3 && isalpha((unsigned char)p[k]); k++) mx[k] = (char)toupper((unsigned char)p[k]);
      p += strlen(mx);
      for (; nd < 4; nd++, p = e) {
        d[nd] = strtoll(p, &e, 10);
        if (e == p) break;
      }
      if (strlen(mx) != 3 || nd < 3 || !DRStrBlank(p)) {
        PetscCall(DRInputFail(st, "%s:3: '%.60s' is not 'MXTYPE NROW NCOL NNZERO [NELTVL]', expected a Harwell-Boeing header", path, r->line));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (mx[0] != 'R' || (mx[1] != 'S' && mx[1] != 'U') || mx[2] != 'A') {
        PetscCall(DRInputFail(st, "%s:3: matrix type %s, expected RSA (real symmetric assembled) or RUA", path, mx));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (d[0] != d[1] || d[2] < 0) {
        PetscCall(DRInputFail(st, "%s:3: matrix is %lld x %lld with %lld entries, expected a square matrix", path, d[0], d[1], d[2]));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    } else if (l == 4) {
      for (p = r->line; nf < 4 && (p = strchr(p, '('));) {
        char *q = strchr(p, ')');
        if (!q) break;
        PetscCall(PetscSNPrintf(fmt[nf++], sizeof(fmt[0]), "%.*s", (int)(q - p + 1), p));
        p = q + 1;
      }
      if (nf < 3) {
        PetscCall(DRInputFail(st, "%s:4: '%.72s' holds %d parenthesized formats, expected PTRFMT INDFMT VALFMT [RHSFMT] such as (16I5) (16I5) (1P,4E20.12)", path, r->line, nf));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
      if (!ParseFmt(fmt[0], &fp) || fp.type != 'I' || !ParseFmt(fmt[1], &hb->ind.fmt) || hb->ind.fmt.type != 'I' || !ParseFmt(fmt[2], &hb->val.fmt) || hb->val.fmt.type == 'I') {
        PetscCall(DRInputFail(st, "%s:4: formats %s %s %s, expected integer formats (rIw) for pointers and indices and a real one (rEw.d, rDw.d, rFw.d, rGw.d, optionally kP,) for values", path, fmt[0], fmt[1], fmt[2]));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
  }
  hdrlines = 4;
  if (c[4] > 0) {
    PetscCall(DRLineReaderNext(r, &got));
    hdrlines = 5;
  }
  if (d[0] != hb->n) {
    if (!strcmp(hb->role, "K")) PetscCall(DRInputFail(st, "%s: has %" PetscInt_FMT " equations but K (%s) has %lld rows, expected one equation per row", hb->mapping, hb->n, path, d[0]));
    else PetscCall(DRInputFail(st, "%s: %s is %lld x %lld but K (%s) is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", path, hb->role, d[0], d[0], hb->kpath, hb->n, hb->n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  hb->ncol = (PetscInt)d[1];
  hb->nnz  = d[2];
  hb->sym  = mx[1] == 'S' ? PETSC_TRUE : PETSC_FALSE;
  /* column pointers: 1, non-decreasing, NNZERO + 1 */
  {
    HBSection sec = {r, fp, fp.per, hdrlines + c[1], "column pointers"};
    PetscCall(PetscMalloc1(hb->ncol + 1, &hb->ptr));
    for (PetscInt k = 0; k <= hb->ncol && !st->bad; k++) {
      char      b[64];
      long long x;
      PetscCall(SectionNext(&sec, st, b, sizeof(b)));
      if (st->bad) break;
      x = strtoll(b, &e, 10);
      if (e == b || !DRStrBlank(e)) PetscCall(DRInputFail(st, "%s:%lld: column pointer '%s' is not an integer, expected %d per line in fields of %d characters (%s)", path, (long long)r->lineno, b, fp.per, fp.width, fmt[0]));
      else if ((k == 0 && x != 1) || (k > 0 && x < hb->ptr[k - 1]) || x > hb->nnz + 1 || (k == hb->ncol && x != hb->nnz + 1)) PetscCall(DRInputFail(st, "%s:%lld: column pointer %" PetscInt_FMT " is %lld, expected pointers from 1 up to NNZERO + 1 = %lld, non-decreasing", path, (long long)r->lineno, k + 1, x, (long long)hb->nnz + 1));
      else hb->ptr[k] = x - 1;
    }
    if (!st->bad && r->lineno != hdrlines + c[1]) PetscCall(DRInputFail(st, "%s:%lld: the column pointers end here, but PTRCRD = %lld puts their end on line %lld, expected the header's line counts", path, (long long)r->lineno, c[1], (long long)(hdrlines + c[1])));
  }
  if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
  /* the values: a second reader, at the values section */
  {
    PetscBool ok;
    PetscCall(DRLineReaderOpen(&hb->v, path, &ok));
    for (PetscInt64 l = 0; ok && l < hdrlines + c[1] + c[2]; l++) PetscCall(DRLineReaderNext(&hb->v, &ok));
    if (!ok) {
      PetscCall(DRInputFail(st, "%s: ends before line %lld where the values begin (PTRCRD %lld, INDCRD %lld), expected the header's line counts", path, (long long)(hdrlines + c[1] + c[2] + 1), c[1], c[2]));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  hb->ind.r    = r;
  hb->ind.pos  = hb->ind.fmt.per;
  hb->ind.last = hdrlines + c[1] + c[2];
  hb->ind.name = "row indices";
  hb->val.r    = &hb->v;
  hb->val.pos  = hb->val.fmt.per;
  hb->val.last = hdrlines + c[1] + c[2] + c[3];
  hb->val.name = "values";
  s->n         = hb->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HBEntries(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more)
{
  HBReader *hb = (HBReader *)s->ctx;

  PetscFunctionBeginUser;
  while (!st->bad && hb->done < hb->nnz && !DRTripletsFull(t)) {
    char      b[80], *e;
    long long i;
    double    v;
    while (hb->ptr[hb->col + 1] <= hb->done) hb->col++;
    PetscCall(SectionNext(&hb->ind, st, b, sizeof(b)));
    if (st->bad) break;
    i = strtoll(b, &e, 10);
    if (e == b || !DRStrBlank(e)) {
      PetscCall(DRInputFail(st, "%s:%lld: row index '%s' is not an integer, expected %d per line in fields of %d characters", s->path, (long long)r->lineno, b, hb->ind.fmt.per, hb->ind.fmt.width));
      break;
    }
    if (i < 1 || i > hb->n) {
      PetscCall(DRInputFail(st, "%s:%lld: row index %lld out of range 1..%" PetscInt_FMT, s->path, (long long)r->lineno, i, hb->n));
      break;
    }
    PetscCall(SectionNext(&hb->val, st, b, sizeof(b)));
    if (st->bad) break;
    if (!FortranReal(b, hb->val.fmt.scale, &v)) {
      PetscCall(DRInputFail(st, "%s:%lld: value '%s' is not a number, expected %d per line in fields of %d characters", s->path, (long long)hb->v.lineno, b, hb->val.fmt.per, hb->val.fmt.width));
      break;
    }
    if (!isfinite(v)) {
      PetscCall(DRInputFail(st, "%s:%lld: value '%s' is not a finite number (NaN or Inf), expected a finite real", s->path, (long long)hb->v.lineno, b));
      break;
    }
    if (hb->sym) DRTripletsAddEither(t, (PetscInt)(i - 1), hb->col, (PetscScalar)v);
    else DRTripletsAdd(t, (PetscInt)(i - 1), hb->col, (PetscScalar)v, PETSC_FALSE);
    hb->done++;
  }
  if (!st->bad && hb->done == hb->nnz) {
    if (r->lineno != hb->ind.last) PetscCall(DRInputFail(st, "%s:%lld: the row indices end here, but INDCRD puts their end on line %lld, expected the header's line counts", s->path, (long long)r->lineno, (long long)hb->ind.last));
    else if (hb->v.lineno != hb->val.last) PetscCall(DRInputFail(st, "%s:%lld: the values end here, but VALCRD puts their end on line %lld, expected the header's line counts", s->path, (long long)hb->v.lineno, (long long)hb->val.last));
  }
  *more = !st->bad && hb->done < hb->nnz ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode HBDestroy(DRMatStream *s)
{
  HBReader *hb = (HBReader *)s->ctx;

  PetscFunctionBeginUser;
  PetscCall(DRLineReaderClose(&hb->v));
  PetscCall(PetscFree(hb->ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One matrix file: Matrix Market or Harwell-Boeing, by its first line. */
static PetscErrorCode ReadAnsysMat(MPI_Comm comm, const char *path, PetscInt n, const char *role, const char *kpath, const char *mapping, Mat *A)
{
  DRInputStatus st;
  PetscInt      mm = 0;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    DRLineReader r;
    PetscBool    got;
    PetscCall(DRInputOpen(&st, &r, path, "an Ansys HBMAT (Harwell-Boeing) or *EXPORT Matrix Market file"));
    if (!st.bad) {
      PetscCall(DRLineReaderNext(&r, &got));
      mm = got && !strncasecmp(r.line, "%%MatrixMarket", 14);
    }
    PetscCall(DRLineReaderClose(&r));
  }
  PetscCall(DRInputSync(&st, &mm));
  DRInputCheck(&st);
  if (mm) PetscCall(DRMatReadMatrixMarketSized(comm, path, n, role, kpath, mapping, A));
  else {
    HBReader    hb;
    DRMatStream s;
    PetscCall(PetscMemzero(&hb, sizeof(hb)));
    PetscCall(PetscMemzero(&s, sizeof(s)));
    hb.n       = n;
    hb.role    = role;
    hb.kpath   = kpath;
    hb.mapping = mapping;
    s.path     = path;
    s.what     = "an Ansys HBMAT (Harwell-Boeing) file";
    s.n        = n;
    s.either   = PETSC_TRUE; /* RUA adds no mirrors: nothing to resolve */
    s.header   = HBHeader;
    s.entries  = HBEntries;
    s.destroy  = HBDestroy;
    s.ctx      = &hb;
    PetscCall(DRMatStreamRead(comm, &s, A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadAnsys(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *mapping, DRComponent *c)
{
  DRComponent C;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, K, sizeof(C->source)));
  PetscCall(PetscStrncpy(C->msource, M, sizeof(C->msource)));
  /* The equations first: their count is the size K, M and D must have. */
  PetscCall(ReadMapping(comm, mapping, &C->n, &C->labels));
  PetscCall(ReadAnsysMat(comm, K, C->n, "K", K, mapping, &C->K));
  PetscCall(ReadAnsysMat(comm, M, C->n, "M", K, mapping, &C->M));
  if (D && D[0]) PetscCall(ReadAnsysMat(comm, D, C->n, "D", K, mapping, &C->D));
  PetscCall(DRComponentCheckSizes(C, K, M, D, mapping));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
