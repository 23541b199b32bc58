/* Nastran DMIG component reader: K, M and optionally D from the DMIG cards
 * of a bulk data file, such as the punch file PARAM,EXTOUT,DMIGPCH writes
 * (KAAX, MAAX, BAAX, K4AX) or the one `dynred export` writes.
 *
 * Cards (MSC/NX Quick Reference Guide, DMIG):
 *   header  DMIG NAME "0" IFO TIN TOUT POLAR (blank) NCOL
 *   column  DMIG NAME GJ CJ (blank) G1 C1 A1 B1
 *                G2 C2 A2 B2 G3 C3 A3 B3 ...   (continuations)
 * Fields are read in the three bulk data forms: small field (8-character
 * fields, 8 data fields per line), large field (a '*' after the card name,
 * 16-character fields, 4 data fields per line, continuation lines starting
 * with '*'), and free field (comma separated; "DMIG*," gives 4 fields per
 * line).  A continuation line starts with '+', '*', ',' or a blank field 1;
 * columns 73-80 (the continuation id) are not read; tabs advance to the
 * next multiple of 8 columns; '$' starts a comment.  Cards other than DMIG,
 * and DMIG matrices not asked for, are skipped.  Bulk data order is free:
 * a matrix's header may come after its columns.
 *
 * Accepted for the matrices read: IFO 6 (symmetric: each off-diagonal pair
 * given once, in either triangle, mirrored here) or 1 (square: every entry
 * given, symmetry checked by DRComponentValidate); TIN 1 or 2 (real); TOUT,
 * POLAR and NCOL are not used.  A value is a Nastran real: a decimal point,
 * optional exponent E/D or a bare signed exponent ("1.5-3"); the B (imaginary)
 * fields are not read.  An entry given twice (or, for IFO 6, an entry and
 * its mirror) is an error, as in Nastran.
 *
 * DOFs: the union of the points (G, C) the matrices read refer to, sorted
 * by id then component, one label per row: a GRID component 1..6 is label
 * "G.C"; a scalar point (component 0 or blank: SPOINT, EPOINT) is label
 * "G.0", direction 0.  Nastran's GRID and SPOINT ids share one numbering,
 * so an id used both with component 0 and with 1..6 is an error.
 *
 * Rank 0 first parses the whole file (every error found there, as
 * "FILE:LINE: ..."), keeping 24 bytes per entry for the repeat check and
 * the labels, then streams each matrix to its owners with DRMatStreamRead. */
#include "io_impl.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FW 40 /* longest field kept (free field allows long numbers) */

typedef struct {
  char       name[9]; /* card name, upper case, without '*' */
  PetscInt   nf, cap; /* data fields: field 2 onwards, continuation ids left out */
  char     (*f)[FW];
  PetscInt64 *line;   /* line of each field */
  PetscInt64  line0;  /* first line of the card */
} Card;

/* Cards of a bulk data file, on a line reader (rank 0). */
typedef struct {
  DRLineReader *r;
  const char   *path;
  PetscBool     pending; /* r->line is the first line of the next card */
  char         *ln;      /* r->line with tabs expanded and the comment cut */
  size_t        lncap;
} Cards;

typedef struct {
  DRLabel    a, b; /* row and column label */
  PetscInt64 line;
} Entry;

/* A matrix asked for (rank 0's scan) */
typedef struct {
  const char *name, *role, *key;
  PetscBool   header, required;
  PetscInt    ifo, tin;
  PetscInt64  hline, cline; /* header line, first column line */
  PetscInt64  nnz, cap;
  Entry      *e;
} Want;

#define DMIGFAIL(st, path, line, ...) \
  do { \
    char m_[640]; \
    snprintf(m_, sizeof(m_), __VA_ARGS__); \
    PetscCall(DRInputFail((st), "%s:%lld: %s", (path), (long long)(line), m_)); \
    PetscFunctionReturn(PETSC_SUCCESS); \
  } while (0)

/* ---- fields ----------------------------------------------------------------- */
static PetscBool Blank(const char *s)
{
  return s[0] ? PETSC_FALSE : PETSC_TRUE;
}

/* integer field (sign and digits only) */
static PetscBool ParseInt(const char *s, long long *v)
{
  char *e;
  if (!s[0] || !(isdigit((unsigned char)s[0]) || ((s[0] == '+' || s[0] == '-') && isdigit((unsigned char)s[1])))) return PETSC_FALSE;
  *v = strtoll(s, &e, 10);
  return *e ? PETSC_FALSE : PETSC_TRUE;
}

/* Nastran real: [sign] digits with one decimal point, then optionally
 * E|D [sign] digits, or a sign and digits (the implied E of "1.5-3"). */
static PetscBool ParseReal(const char *s, double *v)
{
  char        buf[2 * FW + 8], *e;
  size_t      k = 0;
  int         ndig = 0, ndot = 0;
  const char *p = s;
  if (*p == '+' || *p == '-') buf[k++] = *p++;
  for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
    if (*p == '.') ndot++;
    else ndig++;
    buf[k++] = *p;
  }
  if (ndig == 0 || ndot != 1) return PETSC_FALSE;
  if (*p) {
    int nexp = 0;
    if (*p == 'E' || *p == 'e' || *p == 'D' || *p == 'd') p++;
    else if (*p != '+' && *p != '-') return PETSC_FALSE;
    buf[k++] = 'e';
    if (*p == '+' || *p == '-') buf[k++] = *p++;
    for (; isdigit((unsigned char)*p) && k < sizeof(buf) - 1; p++, nexp++) buf[k++] = *p;
    if (!nexp || *p) return PETSC_FALSE;
  }
  buf[k] = 0;
  *v     = strtod(buf, &e);
  return *e ? PETSC_FALSE : PETSC_TRUE;
}

/* ---- cards ------------------------------------------------------------------ */
/* r->line into c->ln: tabs to the next multiple of 8 columns, '$' cut */
static PetscErrorCode Prepare(Cards *c)
{
  size_t need = 8 * c->r->len + 1, k = 0;

  PetscFunctionBeginUser;
  if (need > c->lncap) {
    PetscCall(PetscFree(c->ln));
    c->lncap = PetscMax(need, 256);
    PetscCall(PetscMalloc1(c->lncap, &c->ln));
  }
  for (const char *s = c->r->line; *s && *s != '$'; s++) {
    if (*s != '\t') c->ln[k++] = *s;
    else
      do c->ln[k++] = ' ';
      while (k % 8);
  }
  while (k > 0 && (c->ln[k - 1] == ' ' || c->ln[k - 1] == '\r')) k--;
  c->ln[k] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* next non-blank line into c->ln; *got false at end of file */
static PetscErrorCode NextLine(Cards *c, PetscBool *got)
{
  PetscFunctionBeginUser;
  if (c->pending) {
    c->pending = PETSC_FALSE;
    *got       = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS); /* c->ln still holds it */
  }
  for (;;) {
    PetscCall(DRLineReaderNext(c->r, got));
    if (!*got) break;
    PetscCall(Prepare(c));
    if (c->ln[0]) break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool Continuation(const char *ln)
{
  return ln[0] == '+' || ln[0] == '*' || ln[0] == ',' || ln[0] == ' ' ? PETSC_TRUE : PETSC_FALSE;
}

/* s[a, a + w) trimmed into out */
static void Slice(const char *s, size_t len, size_t a, size_t w, char *out, size_t cap)
{
  size_t b = PetscMin(a + w, len), k = 0;
  if (a > len) a = len;
  while (a < b && s[a] == ' ') a++;
  while (b > a && s[b - 1] == ' ') b--;
  for (; a < b && k < cap - 1; a++) out[k++] = (char)toupper((unsigned char)s[a]);
  out[k] = 0;
}

static PetscErrorCode AddField(Card *card, const char *s, size_t n, PetscInt64 line)
{
  PetscFunctionBeginUser;
  if (card->nf == card->cap) {
    char (*f)[FW];
    PetscInt64 *l;
    card->cap = 2 * card->cap + 64;
    PetscCall(PetscMalloc2(card->cap, &f, card->cap, &l));
    if (card->nf) {
      PetscCall(PetscArraycpy(f, card->f, card->nf));
      PetscCall(PetscArraycpy(l, card->line, card->nf));
    }
    PetscCall(PetscFree2(card->f, card->line));
    card->f    = f;
    card->line = l;
  }
  Slice(s, n, 0, n, card->f[card->nf], FW);
  card->line[card->nf++] = line;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* data fields of the line in c->ln (field 1 and the continuation id left out) */
static PetscErrorCode SplitLine(Cards *c, DRInputStatus *st, Card *card)
{
  const char *ln = c->ln;
  size_t      len = strlen(ln);
  PetscInt64  line = c->r->lineno;

  PetscFunctionBeginUser;
  if (strchr(ln, ',')) { /* free field */
    const char *tok[12], *s = ln;
    size_t      tl[12];
    int         nt = 0, nd;
    PetscBool   large;
    for (;;) {
      const char *e = strchr(s, ',');
      if (nt == 12) break;
      tok[nt]  = s;
      tl[nt++] = e ? (size_t)(e - s) : strlen(s);
      if (!e) break;
      s = e + 1;
    }
    {
      char f1[FW];
      Slice(tok[0], tl[0], 0, tl[0], f1, sizeof(f1));
      large = f1[0] && f1[strlen(f1) - 1] == '*' ? PETSC_TRUE : PETSC_FALSE;
    }
    nd = large ? 4 : 8;
    if (nt > nd + 2) DMIGFAIL(st, c->path, line, "free-field line of %s%d fields, expected at most %d (field 1, %d data fields, a continuation id)", nt == 12 ? "more than " : "", nt == 12 ? 11 : nt, nd + 2, nd);
    for (int k = 1; k <= nd; k++) {
      if (k < nt && tl[k] >= FW) DMIGFAIL(st, c->path, line, "field %d '%.*s' has %d characters, expected at most %d", k + 1, (int)PetscMin(tl[k], 60), tok[k], (int)tl[k], FW - 1);
      PetscCall(AddField(card, k < nt ? tok[k] : "", k < nt ? tl[k] : 0, line));
    }
  } else {
    char      f1[16];
    PetscBool large;
    Slice(ln, len, 0, 8, f1, sizeof(f1));
    large = ln[0] == '*' || (f1[0] && f1[strlen(f1) - 1] == '*') ? PETSC_TRUE : PETSC_FALSE;
    for (int k = 0; k < (large ? 4 : 8); k++) {
      size_t w = large ? 16 : 8, a = 8 + (size_t)k * w;
      PetscCall(AddField(card, a < len ? ln + a : "", a < len ? PetscMin(w, len - a) : 0, line));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The next DMIG card (all its continuations read); *got false at the end */
static PetscErrorCode NextCard(Cards *c, DRInputStatus *st, Card *card, PetscBool *got)
{
  PetscFunctionBeginUser;
  card->nf = 0;
  for (;;) {
    char      name[FW];
    size_t    n;
    PetscBool more;
    PetscCall(NextLine(c, got));
    if (!*got) PetscFunctionReturn(PETSC_SUCCESS);
    if (Continuation(c->ln)) continue; /* of a card not read, or before the first card */
    n = strcspn(c->ln, ",");
    if (n > 8) n = 8;
    Slice(c->ln, strlen(c->ln), 0, n, name, sizeof(name));
    n = strlen(name);
    if (n && name[n - 1] == '*') name[--n] = 0;
    if (strcmp(name, "DMIG")) continue;
    PetscCall(PetscStrncpy(card->name, name, sizeof(card->name)));
    card->line0 = c->r->lineno;
    PetscCall(SplitLine(c, st, card));
    for (;;) {
      if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
      PetscCall(NextLine(c, &more));
      if (!more) break;
      if (!Continuation(c->ln)) {
        c->pending = PETSC_TRUE;
        break;
      }
      PetscCall(SplitLine(c, st, card));
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
}

static PetscErrorCode CardDestroy(Card *card)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(card->f, card->line));
  card->nf = card->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* field k (0: field 2) or "" past the end */
static const char *F(const Card *card, PetscInt k)
{
  return k < card->nf ? card->f[k] : "";
}

static PetscInt64 L(const Card *card, PetscInt k)
{
  return k < card->nf ? card->line[k] : card->nf ? card->line[card->nf - 1] : card->line0;
}

/* The point (G, C) in fields k, k + 1 as a label; what names them */
static PetscErrorCode Point(Cards *c, DRInputStatus *st, const Card *card, PetscInt k, const char *what, DRLabel *l)
{
  long long g, comp = 0;

  PetscFunctionBeginUser;
  if (!ParseInt(F(card, k), &g) || g < 1) DMIGFAIL(st, c->path, L(card, k), "DMIG %s: %s point '%s' (field %" PetscInt_FMT "), expected a GRID or scalar point id > 0", F(card, 0), what, F(card, k), 2 + k % 8);
  if (!Blank(F(card, k + 1)) && (!ParseInt(F(card, k + 1), &comp) || comp < 0 || comp > 6)) DMIGFAIL(st, c->path, L(card, k + 1), "DMIG %s: %s component '%s' of point %lld, expected 1..6 (GRID) or 0 or blank (scalar point)", F(card, 0), what, F(card, k + 1), g);
  *l = DRLabelMake(g, comp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Term t (0-based) of a column card: *blank when its four fields are blank */
static PetscErrorCode Term(Cards *c, DRInputStatus *st, const Card *card, PetscInt t, DRLabel *row, double *v, PetscBool *blank)
{
  PetscInt k = 4 + 4 * t;

  PetscFunctionBeginUser;
  *blank = Blank(F(card, k)) && Blank(F(card, k + 1)) && Blank(F(card, k + 2)) && Blank(F(card, k + 3)) ? PETSC_TRUE : PETSC_FALSE;
  if (*blank) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Point(c, st, card, k, "row", row));
  if (st->bad) PetscFunctionReturn(PETSC_SUCCESS);
  if (!ParseReal(F(card, k + 2), v)) DMIGFAIL(st, c->path, L(card, k + 2), "DMIG %s: value '%s' of row %s (field %" PetscInt_FMT "), expected a real with a decimal point (e.g. 1.5, -2.E+3, 4.1D-2, 7.-3)", F(card, 0), F(card, k + 2), F(card, k), 2 + (k + 2) % 8);
  if (!isfinite(*v)) DMIGFAIL(st, c->path, L(card, k + 2), "DMIG %s: value '%s' is not finite, expected a finite real", F(card, 0), F(card, k + 2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt NTerms(const Card *card)
{
  return card->nf > 4 ? (card->nf - 4 + 3) / 4 : 0;
}

/* ---- scan (rank 0) ---------------------------------------------------------- */
static PetscErrorCode WantAdd(Want *w, DRLabel a, DRLabel b, PetscInt64 line)
{
  PetscFunctionBeginUser;
  if (w->nnz == w->cap) {
    Entry *e;
    w->cap = 2 * w->cap + 1024;
    PetscCall(PetscMalloc1(w->cap, &e));
    if (w->nnz) PetscCall(PetscArraycpy(e, w->e, w->nnz));
    PetscCall(PetscFree(w->e));
    w->e = e;
  }
  w->e[w->nnz].a      = a;
  w->e[w->nnz].b      = b;
  w->e[w->nnz++].line = line;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CmpEntry(const void *x, const void *y)
{
  const Entry *p = (const Entry *)x, *q = (const Entry *)y;
  if (p->a != q->a) return p->a < q->a ? -1 : 1;
  if (p->b != q->b) return p->b < q->b ? -1 : 1;
  return p->line < q->line ? -1 : p->line > q->line;
}

static int CmpLabel(const void *x, const void *y)
{
  DRLabel p = *(const DRLabel *)x, q = *(const DRLabel *)y;
  return p < q ? -1 : p > q;
}

/* Header card of a matrix asked for */
static PetscErrorCode Header(Cards *c, DRInputStatus *st, const Card *card, Want *w)
{
  long long ifo, tin;

  PetscFunctionBeginUser;
  if (w->header) DMIGFAIL(st, c->path, card->line0, "DMIG %s: a second header card (the first on line %lld), expected one", w->name, (long long)w->hline);
  if (!ParseInt(F(card, 2), &ifo)) DMIGFAIL(st, c->path, L(card, 2), "DMIG %s header: IFO '%s' (field 4), expected an integer (6 symmetric, 1 square)", w->name, F(card, 2));
  if (!ParseInt(F(card, 3), &tin)) DMIGFAIL(st, c->path, L(card, 3), "DMIG %s header: TIN '%s' (field 5), expected an integer (1 or 2: real)", w->name, F(card, 3));
  if (ifo != 6 && ifo != 1) DMIGFAIL(st, c->path, L(card, 2), "DMIG %s header: IFO = %lld, expected 6 (symmetric) or 1 (square) for the %s matrix", w->name, ifo, w->role);
  if (tin != 1 && tin != 2) DMIGFAIL(st, c->path, L(card, 3), "DMIG %s header: TIN = %lld%s, expected 1 or 2 (a real matrix)", w->name, tin, tin == 3 || tin == 4 ? " (complex)" : "");
  w->header = PETSC_TRUE;
  w->hline  = card->line0;
  w->ifo    = (PetscInt)ifo;
  w->tin    = (PetscInt)tin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: parse the whole file; the sorted labels of every point used */
static PetscErrorCode Scan(DRInputStatus *st, const char *path, Want w[3], PetscInt *n, DRLabel **labels)
{
  DRLineReader r;
  Cards        c;
  Card         card;
  PetscBool    got;
  char         found[256] = "";
  PetscInt     nfound = 0;
  PetscInt64   nl = 0, cap = 0;
  DRLabel     *lab = NULL;

  PetscFunctionBeginUser;
  *n      = 0;
  *labels = NULL;
  PetscCall(PetscMemzero(&r, sizeof(r)));
  PetscCall(PetscMemzero(&c, sizeof(c)));
  PetscCall(PetscMemzero(&card, sizeof(card)));
  c.r    = &r;
  c.path = path;
  PetscCall(DRInputOpen(st, &r, path, "a Nastran bulk data file with DMIG matrices"));
  while (!st->bad) {
    long long gj;
    Want     *wm = NULL;
    PetscCall(NextCard(&c, st, &card, &got));
    if (!got || st->bad) break;
    if (Blank(F(&card, 0))) {
      PetscCall(DRInputFail(st, "%s:%lld: DMIG card without a matrix name (field 2), expected DMIG NAME ...", path, (long long)card.line0));
      break;
    }
    for (int k = 0; k < 3; k++)
      if (w[k].name && !strcasecmp(F(&card, 0), w[k].name)) wm = &w[k];
    if (!strcmp(F(&card, 1), "0")) { /* a header: note the name for messages */
      if (nfound < 8 && strlen(found) + strlen(F(&card, 0)) + 3 < sizeof(found)) {
        PetscCall(PetscStrlcat(found, nfound ? ", " : "", sizeof(found)));
        PetscCall(PetscStrlcat(found, F(&card, 0), sizeof(found)));
      }
      nfound++;
    }
    if (!wm) continue;
    if (!ParseInt(F(&card, 1), &gj) || gj < 0) {
      PetscCall(DRInputFail(st, "%s:%lld: DMIG %s: field 3 is '%s', expected \"0\" (header) or the column's point id GJ > 0", path, (long long)L(&card, 1), wm->name, F(&card, 1)));
      break;
    }
    if (gj == 0) {
      PetscCall(Header(&c, st, &card, wm));
      continue;
    }
    {
      DRLabel col;
      PetscCall(Point(&c, st, &card, 1, "column", &col));
      if (!wm->cline) wm->cline = card.line0;
      for (PetscInt t = 0; t < NTerms(&card) && !st->bad; t++) {
        DRLabel   row;
        double    v;
        PetscBool blank;
        PetscCall(Term(&c, st, &card, t, &row, &v, &blank));
        if (blank || st->bad) continue;
        PetscCall(WantAdd(wm, row, col, L(&card, 4 + 4 * t)));
        /* labels: sorted and made unique whenever the buffer fills */
        if (nl + 2 > cap) {
          DRLabel   *l2;
          PetscInt64 u = 0;
          if (nl) qsort(lab, (size_t)nl, sizeof(DRLabel), CmpLabel);
          for (PetscInt64 i = 0; i < nl; i++)
            if (!u || lab[i] != lab[u - 1]) lab[u++] = lab[i];
          nl = u;
          if (nl + 2 > cap / 2) {
            cap = 2 * cap + 1024;
            PetscCall(PetscMalloc1(cap, &l2));
            if (nl) PetscCall(PetscArraycpy(l2, lab, nl));
            PetscCall(PetscFree(lab));
            lab = l2;
          }
        }
        lab[nl++] = row;
        lab[nl++] = col;
      }
    }
  }
  PetscCall(DRLineReaderClose(&r));
  PetscCall(CardDestroy(&card));
  PetscCall(PetscFree(c.ln));
  /* the matrices: present, with a header; no entry twice */
  for (int k = 0; k < 3 && !st->bad; k++) {
    Want *m = &w[k];
    if (!m->name) continue;
    if (!m->header && !m->nnz) {
      if (m->required) PetscCall(DRInputFail(st, "%s: has no DMIG matrix %s (DMIG matrices found: %s%s), expected the %s matrix named by %s", path, m->name, nfound ? found : "none", nfound > 8 ? ", ..." : "", m->role, m->key));
      m->name = NULL; /* an optional matrix absent: not read */
      continue;
    }
    if (!m->header) {
      PetscCall(DRInputFail(st, "%s:%lld: DMIG %s: column cards but no header card (DMIG %s 0 IFO TIN ...), expected one", path, (long long)m->cline, m->name, m->name));
      break;
    }
    for (PetscInt64 i = 0; i < m->nnz && m->ifo == 6; i++)
      if (m->e[i].a > m->e[i].b) {
        DRLabel t  = m->e[i].a;
        m->e[i].a = m->e[i].b;
        m->e[i].b = t;
      }
    if (m->nnz) qsort(m->e, (size_t)m->nnz, sizeof(Entry), CmpEntry);
    for (PetscInt64 i = 1; i < m->nnz; i++)
      if (m->e[i].a == m->e[i - 1].a && m->e[i].b == m->e[i - 1].b) {
        char b1[32], b2[32];
        PetscCall(DRInputFail(st, "%s:%lld: DMIG %s: entry (%s, %s) is given again (first on line %lld)%s, expected each entry once", path, (long long)m->e[i].line, m->name, DRLabelString(m->e[i].a, b1), DRLabelString(m->e[i].b, b2), (long long)m->e[i - 1].line, m->ifo == 6 ? "; IFO=6 stores one of each pair (i, j), (j, i)" : ""));
        break;
      }
    PetscCall(PetscFree(m->e));
    m->nnz = m->cap = 0;
  }
  if (!st->bad) {
    PetscInt64 u = 0;
    if (nl) qsort(lab, (size_t)nl, sizeof(DRLabel), CmpLabel);
    for (PetscInt64 i = 0; i < nl; i++)
      if (!u || lab[i] != lab[u - 1]) lab[u++] = lab[i];
    nl = u;
    for (PetscInt64 i = 1; i < nl && !st->bad; i++)
      if (DRLabelNode(lab[i]) == DRLabelNode(lab[i - 1]) && DRLabelDir(lab[i - 1]) == 0)
        PetscCall(DRInputFail(st, "%s: point %lld is used as a scalar point (component 0 or blank) and as a GRID (component %d), expected one kind per id (GRID and SPOINT ids are one numbering)", path, (long long)DRLabelNode(lab[i]), (int)DRLabelDir(lab[i])));
    if (!st->bad && nl > PETSC_MAX_INT) PetscCall(DRInputFail(st, "%s: %lld DOFs exceed this PETSc build's 32-bit indices, expected a PETSc configured --with-64-bit-indices", path, (long long)nl));
    if (!st->bad && nl == 0) PetscCall(DRInputFail(st, "%s: the DMIG matrices %s and %s have no entries, expected at least one", path, w[0].name, w[1].name));
  }
  for (int k = 0; k < 3; k++) PetscCall(PetscFree(w[k].e));
  if (st->bad) PetscCall(PetscFree(lab));
  else {
    *n      = (PetscInt)nl;
    *labels = lab;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- streaming one matrix ----------------------------------------------------- */
typedef struct {
  const char    *path, *name;
  PetscInt       ifo, n;
  const DRLabel *labels; /* rank 0: sorted labels, row/column of each */
  Cards          c;
  Card           card;
  PetscInt       t, col; /* next term of the current card, its column (-1: no card) */
} Stream;

static PetscErrorCode StreamHeader(DRMatStream *s, DRInputStatus *st, DRLineReader *r)
{
  Stream *x = (Stream *)s->ctx;

  PetscFunctionBeginUser;
  (void)st;
  x->c.r       = r;
  x->c.path    = x->path;
  x->col       = -1;
  s->n         = x->n;
  s->symmetric = x->ifo == 6 ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StreamEntries(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more)
{
  Stream *x = (Stream *)s->ctx;

  PetscFunctionBeginUser;
  (void)r;
  *more = PETSC_TRUE;
  while (!st->bad && !DRTripletsFull(t)) {
    if (x->col < 0) { /* the next column card of this matrix */
      PetscBool got;
      long long gj;
      DRLabel   col;
      PetscCall(NextCard(&x->c, st, &x->card, &got));
      if (!got || st->bad) {
        *more = PETSC_FALSE;
        break;
      }
      if (strcasecmp(F(&x->card, 0), x->name) || !ParseInt(F(&x->card, 1), &gj) || gj == 0) continue;
      PetscCall(Point(&x->c, st, &x->card, 1, "column", &col));
      if (st->bad) break;
      x->col = DRLabelsFind(x->n, x->labels, col);
      x->t   = 0;
      continue;
    }
    if (x->t >= NTerms(&x->card)) {
      x->col = -1;
      continue;
    }
    {
      DRLabel   row;
      double    v;
      PetscBool blank;
      PetscCall(Term(&x->c, st, &x->card, x->t++, &row, &v, &blank));
      if (blank || st->bad || v == 0) continue;
      DRTripletsAdd(t, DRLabelsFind(x->n, x->labels, row), x->col, (PetscScalar)v, x->ifo == 6 ? PETSC_TRUE : PETSC_FALSE);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StreamDestroy(DRMatStream *s)
{
  Stream *x = (Stream *)s->ctx;

  PetscFunctionBeginUser;
  PetscCall(CardDestroy(&x->card));
  PetscCall(PetscFree(x->c.ln));
  x->c.lncap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadDMIG(MPI_Comm comm, const char *name, const char *path, const char *kname, const char *mname, const char *dname, PetscBool drequired, DRComponent *c)
{
  DRComponent   C;
  DRInputStatus st;
  Want          w[3];
  PetscInt      n = 0, ifo[3] = {0, 0, 0}, present[3] = {0, 0, 0}, info[7];
  DRLabel      *labels = NULL;
  Mat          *dst[3];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadDMIG, 0, 0, 0, 0));
  PetscCall(PetscMemzero(w, sizeof(w)));
  w[0].name = kname, w[0].role = "stiffness", w[0].key = "components[].k_name", w[0].required = PETSC_TRUE;
  w[1].name = mname, w[1].role = "mass", w[1].key = "components[].m_name", w[1].required = PETSC_TRUE;
  w[2].name = dname && dname[0] ? dname : NULL, w[2].role = "damping", w[2].key = "components[].d_name", w[2].required = drequired;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    PetscCall(Scan(&st, path, w, &n, &labels));
    for (int k = 0; k < 3; k++) {
      present[k] = w[k].name ? 1 : 0;
      ifo[k]     = w[k].ifo;
    }
  }
  PetscCall(DRInputSync(&st, &n));
  DRInputCheck(&st);
  for (int k = 0; k < 3; k++) info[k] = present[k], info[3 + k] = ifo[k];
  PetscCallMPI(MPI_Bcast(info, 6, MPIU_INT, 0, comm));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  dst[0] = &C->K, dst[1] = &C->M, dst[2] = &C->D;
  for (int k = 0; k < 3; k++) {
    Stream      x;
    DRMatStream s;
    if (!info[k]) continue;
    PetscCall(PetscMemzero(&x, sizeof(x)));
    PetscCall(PetscMemzero(&s, sizeof(s)));
    x.path    = path;
    x.name    = w[k].name;
    x.ifo     = info[3 + k];
    x.n       = n;
    x.labels  = labels;
    s.path    = path;
    s.what    = "a Nastran bulk data file with DMIG matrices";
    s.n       = n;
    s.header  = StreamHeader;
    s.entries = StreamEntries;
    s.destroy = StreamDestroy;
    s.ctx     = &x;
    PetscCall(DRMatStreamRead(comm, &s, dst[k]));
  }
  C->n = n;
  if (st.rank) PetscCall(PetscMalloc1(n, &labels));
  PetscCallMPI(MPI_Bcast(labels, (PetscMPIInt)n, MPIU_INT64, 0, comm));
  C->labels = labels;
  PetscCall(DRComponentCheckSizes(C, path, path, path, path));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadDMIG, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
