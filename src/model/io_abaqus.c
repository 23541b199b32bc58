/* Abaqus component reader (components[].format abaqus): the text files that
 * *MATRIX GENERATE, STIFFNESS, MASS[, VISCOUS DAMPING] with *MATRIX OUTPUT
 * writes (JOB_STIFn.mtx, JOB_MASSn.mtx, JOB_DMPVn.mtx), in either of two
 * layouts, found from the first data line of each file (all of a
 * component's files in the same one):
 *
 *   FORMAT=MATRIX INPUT (the default): "row node, row DOF, column node,
 *   column DOF, value" per line.  The DOF labels "node.direction" are the
 *   node/DOF pairs of the files (the union over K, M, D, sorted), or the
 *   dofs file's when one is given (then every pair must be one of them).
 *   FORMAT=COORDINATE: "row, column, value" per line, 1-based equation
 *   numbers; the labels of the equations come from the dofs file
 *   ("node.direction" per equation, as for Matrix Market).
 *
 * Fields are separated by commas and/or blanks; "**" lines (Abaqus comments)
 * and blank lines are skipped.  A symmetric matrix may be given as the
 * lower triangle (what Abaqus writes), the upper one, or square (as
 * *MATRIX INPUT accepts): at each position the value given there is used,
 * else the one given at the mirrored position (DRTripletsAddEither), and
 * DRComponentValidate checks the symmetry of the result.
 *
 * Not accepted, with a one-line error: DOFs other than 1..6 (pressure,
 * temperature, ...: dynred's components are structural), and the negative
 * node numbers Abaqus gives its internal nodes (Lagrange multipliers of
 * constraints, hybrid elements' internal variables): these rows carry no
 * mass and are not DOFs of a structure, so the message asks for matrices
 * generated without them (penalty instead of Lagrange multiplier
 * constraints).  docs/formats.md lists what is accepted. */
#include "io_impl.h"
#include <petscbt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef enum { AB_NONE, AB_INPUT, AB_COORD } AbqForm;

static const char *const abq_expect[3] = {"", "'node, dof, node, dof, value' (FORMAT=MATRIX INPUT)", "'row, column, value' (FORMAT=COORDINATE)"};

/* Split a data line into at most max fields at commas and blanks; returns
 * the number of fields, max + 1 when there are more. */
static int Fields(char *s, char *f[], int max)
{
  int n = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == ',') s++;
    if (!*s) break;
    if (n == max) return max + 1;
    f[n++] = s;
    while (*s && *s != ' ' && *s != '\t' && *s != ',') s++;
    if (*s) *s++ = '\0';
  }
  return n;
}

static PetscBool ParseInt(const char *s, long long *v)
{
  char *e;
  *v = strtoll(s, &e, 10);
  return e != s && *e == '\0' ? PETSC_TRUE : PETSC_FALSE;
}

static PetscBool ParseReal(const char *s, double *v)
{
  char *e;
  *v = strtod(s, &e);
  return e != s && *e == '\0' ? PETSC_TRUE : PETSC_FALSE;
}

/* Skipped lines: blank, "**" comments. */
static PetscBool Skip(const char *line)
{
  while (*line == ' ' || *line == '\t') line++;
  return !*line || (line[0] == '*' && line[1] == '*') ? PETSC_TRUE : PETSC_FALSE;
}

/* One data line: fields parsed into node/dof pairs (MATRIX INPUT) or
 * equation numbers (COORDINATE); *form AB_NONE on the first line is set from
 * the number of fields.  Errors are recorded in st. */
typedef struct {
  long long a, b, c, d; /* row node, row dof, col node, col dof; or row, col */
  double    v;
  char      vtok[64];
} AbqEntry;

static PetscErrorCode ParseLine(DRInputStatus *st, DRLineReader *r, AbqForm *form, AbqEntry *e)
{
  char     *f[6], *line = r->line, copy[128];
  int       nf;
  PetscBool ok;

  PetscFunctionBeginUser;
  while (*line == ' ' || *line == '\t') line++;
  PetscCall(PetscStrncpy(copy, line, sizeof(copy)));
  if (line[0] == '*') {
    PetscCall(DRInputFail(st, "%s:%lld: keyword line '%.60s', expected matrix entries (an assembled *MATRIX OUTPUT file) or '**' comments", r->path, (long long)r->lineno, copy));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  nf = Fields(line, f, 5);
  if (*form == AB_NONE) {
    if (nf == 5) *form = AB_INPUT;
    else if (nf == 3) *form = AB_COORD;
    else {
      PetscCall(DRInputFail(st, "%s:%lld: found '%.60s', expected %s or %s", r->path, (long long)r->lineno, copy, abq_expect[AB_INPUT], abq_expect[AB_COORD]));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (*form == AB_INPUT) ok = (PetscBool)(nf == 5 && ParseInt(f[0], &e->a) && ParseInt(f[1], &e->b) && ParseInt(f[2], &e->c) && ParseInt(f[3], &e->d) && ParseReal(f[4], &e->v));
  else ok = (PetscBool)(nf == 3 && ParseInt(f[0], &e->a) && ParseInt(f[1], &e->c) && ParseReal(f[2], &e->v));
  if (!ok) {
    PetscCall(DRInputFail(st, "%s:%lld: found '%.60s', expected %s", r->path, (long long)r->lineno, copy, abq_expect[*form]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(e->vtok, f[*form == AB_INPUT ? 4 : 2], sizeof(e->vtok)));
  if (!isfinite(e->v)) {
    PetscCall(DRInputFail(st, "%s:%lld: value '%s' is not a finite number (NaN or Inf), expected a finite real", r->path, (long long)r->lineno, e->vtok));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (*form == AB_INPUT)
    for (int k = 0; k < 2; k++) {
      long long node = k ? e->c : e->a, dof = k ? e->d : e->b;
      if (node < 0) {
        PetscCall(DRInputFail(st, "%s:%lld: node %lld is an Abaqus internal node (a Lagrange multiplier or an element's internal variable), expected the DOFs of user nodes: generate the matrices with penalty constraints instead of Lagrange multipliers", r->path, (long long)r->lineno, node));
        break;
      }
      if (node > LLONG_MAX / 8) {
        PetscCall(DRInputFail(st, "%s:%lld: node %lld is out of range, expected a node number below %lld", r->path, (long long)r->lineno, node, (long long)(LLONG_MAX / 8)));
        break;
      }
      if (dof < 1 || dof > 6) {
        PetscCall(DRInputFail(st, "%s:%lld: DOF %lld at node %lld, expected 1..6 (displacements and rotations: dynred's components are structural)", r->path, (long long)r->lineno, dof, node));
        break;
      }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- pass 1 (rank 0): the layout of each file, the labels of MATRIX INPUT files */
typedef struct {
  DRLabel *lab;
  PetscInt n, cap;
} LabelSet;

/* sort and drop repeats */
static PetscErrorCode LabelSetCompact(LabelSet *s)
{
  PetscInt u = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscSortInt64(s->n, s->lab));
  for (PetscInt k = 0; k < s->n; k++)
    if (!u || s->lab[k] != s->lab[u - 1]) s->lab[u++] = s->lab[k];
  s->n = u;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LabelSetAdd(LabelSet *s, DRLabel l)
{
  PetscFunctionBeginUser;
  if (s->n && s->lab[s->n - 1] == l) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->n == s->cap) {
    PetscCall(LabelSetCompact(s));
    if (2 * s->n >= s->cap) { /* at most half full after compaction: grow */
      DRLabel *l2;
      s->cap = 2 * s->cap + 1024;
      PetscCall(PetscMalloc1(s->cap, &l2));
      if (s->n) PetscCall(PetscArraycpy(l2, s->lab, s->n));
      PetscCall(PetscFree(s->lab));
      s->lab = l2;
    }
  }
  s->lab[s->n++] = l;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the layout of path (first data line); when set is not NULL, the
 * node/DOF pairs of every line are added to it (the whole file is parsed). */
static PetscErrorCode ScanFile(DRInputStatus *st, const char *path, AbqForm *form, LabelSet *set)
{
  DRLineReader r;
  PetscBool    got;
  AbqEntry     e;

  PetscFunctionBeginUser;
  *form = AB_NONE;
  PetscCall(DRInputOpen(st, &r, path, "an Abaqus *MATRIX OUTPUT file"));
  while (!st->bad) {
    PetscCall(DRLineReaderNext(&r, &got));
    if (!got) break;
    if (Skip(r.line)) continue;
    PetscCall(ParseLine(st, &r, form, &e));
    if (st->bad || *form != AB_INPUT || !set) break;
    PetscCall(LabelSetAdd(set, DRLabelMake(e.a, e.b)));
    PetscCall(LabelSetAdd(set, DRLabelMake(e.c, e.d)));
  }
  if (!st->bad && *form == AB_NONE) PetscCall(DRInputFail(st, "%s: has no matrix entries, expected %s or %s lines", path, abq_expect[AB_INPUT], abq_expect[AB_COORD]));
  PetscCall(DRLineReaderClose(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- pass 2: the entries, streamed to their owners ---------------------- */
typedef struct {
  AbqForm        form;
  PetscInt       n;
  const DRLabel *sorted; /* rank 0: labels sorted, and the row of each */
  const DRLabel *labels; /* the labels in equation order */
  const char    *others[2]; /* M and D (or NULL): the other files labels come from */
  const PetscInt *perm;
  const char    *dofs;   /* the label file, or NULL (labels from the files) */
  PetscBool      eof;
  PetscBT        diag;   /* rank 0, K only: the equations with a diagonal entry */
} AbqReader;

static PetscErrorCode AbqEntries(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more)
{
  AbqReader *ab = (AbqReader *)s->ctx;
  PetscBool  got;
  AbqEntry   e;

  PetscFunctionBeginUser;
  while (!st->bad && !DRTripletsFull(t)) {
    PetscInt i, j;
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      ab->eof = PETSC_TRUE;
      break;
    }
    if (Skip(r->line)) continue;
    {
      AbqForm f = ab->form;
      PetscCall(ParseLine(st, r, &f, &e));
    }
    if (st->bad) break;
    if (ab->form == AB_INPUT) {
      PetscInt ki = DRLabelsFind(ab->n, ab->sorted, DRLabelMake(e.a, e.b)), kj = DRLabelsFind(ab->n, ab->sorted, DRLabelMake(e.c, e.d));
      if (ki < 0 || kj < 0) {
        PetscCall(DRInputFail(st, "%s:%lld: DOF %lld.%lld is not labelled in %s, expected the node/DOF pairs of the label file", s->path, (long long)r->lineno, ki < 0 ? e.a : e.c, ki < 0 ? e.b : e.d, ab->dofs));
        break;
      }
      i = ab->perm[ki];
      j = ab->perm[kj];
    } else {
      if (e.a < 1 || e.a > ab->n || e.c < 1 || e.c > ab->n) {
        PetscCall(DRInputFail(st, "%s:%lld: %s index %lld out of range 1..%" PetscInt_FMT " (the equations labelled in %s)", s->path, (long long)r->lineno, e.a < 1 || e.a > ab->n ? "row" : "column", e.a < 1 || e.a > ab->n ? e.a : e.c, ab->n, ab->dofs));
        break;
      }
      i = (PetscInt)(e.a - 1);
      j = (PetscInt)(e.c - 1);
    }
    if (ab->diag && i == j) PetscCall(PetscBTSet(ab->diag, i));
    DRTripletsAddEither(t, i, j, (PetscScalar)e.v);
  }
  /* Abaqus writes a stiffness and a mass diagonal entry for every DOF (the
   * last of its row in the lower triangle): one missing is a truncated
   * file, or a label that belongs to no equation or only to another of the
   * component's files (a mass without it would be singular anyway). */
  if (ab->diag && ab->eof && !st->bad)
    for (PetscInt k = 0; k < ab->n; k++)
      if (!PetscBTLookup(ab->diag, k)) {
        char b[32];
        if (ab->dofs) PetscCall(DRInputFail(st, "%s: ends at line %lld without a diagonal entry for DOF %s (equation %" PetscInt_FMT "), expected one for every DOF labelled in %s: a truncated file?", s->path, (long long)r->lineno, DRLabelString(ab->labels[k], b), k + 1, ab->dofs));
        else PetscCall(DRInputFail(st, "%s: ends at line %lld without a diagonal entry for DOF %s (equation %" PetscInt_FMT "), expected one for every DOF of the component's files (%s%s%s): a truncated file, or a DOF that only another of them has?", s->path, (long long)r->lineno, DRLabelString(ab->labels[k], b), k + 1, ab->others[0], ab->others[1] ? ", " : "", ab->others[1] ? ab->others[1] : ""));
        break;
      }
  *more = !st->bad && !ab->eof ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AbqDestroy(DRMatStream *s)
{
  AbqReader *ab = (AbqReader *)s->ctx;

  PetscFunctionBeginUser;
  PetscCall(PetscBTDestroy(&ab->diag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadAbqMat(MPI_Comm comm, const char *path, AbqReader *ab, PetscBool needdiag, Mat *A)
{
  DRMatStream s;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMemzero(&s, sizeof(s)));
  if (needdiag && rank == 0) PetscCall(PetscBTCreate(ab->n, &ab->diag));
  ab->eof   = PETSC_FALSE;
  s.path    = path;
  s.what    = "an Abaqus *MATRIX OUTPUT file";
  s.n       = ab->n;
  s.either  = PETSC_TRUE;
  s.entries = AbqEntries;
  s.ctx     = ab;
  s.destroy = AbqDestroy;
  PetscCall(DRMatStreamRead(comm, &s, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadAbaqus(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *dofs, DRComponent *c)
{
  DRComponent   C;
  DRInputStatus st;
  AbqReader     ab;
  const char   *path[3] = {K, M, D && D[0] ? D : NULL}, *role[3] = {"K", "M", "D"};
  AbqForm       form[3] = {AB_NONE, AB_NONE, AB_NONE};
  LabelSet      set     = {NULL, 0, 0};
  PetscInt      hdr[2]  = {0, 0};
  DRLabel      *sorted  = NULL;
  PetscInt     *perm    = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscCall(PetscMemzero(&ab, sizeof(ab)));
  if (dofs && !dofs[0]) dofs = NULL;
  /* Pass 1 on rank 0: layouts (the same in every file) and, for MATRIX
   * INPUT files without a label file, the node/DOF pairs. */
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    for (int k = 0; k < 3 && !st.bad; k++) {
      if (!path[k]) continue;
      PetscCall(ScanFile(&st, path[k], &form[k], dofs ? NULL : &set));
      if (!st.bad && k && form[k] != form[0]) PetscCall(DRInputFail(&st, "%s: %s is written as %s but K (%s) as %s, expected one *MATRIX OUTPUT format", path[k], role[k], abq_expect[form[k]], K, abq_expect[form[0]]));
    }
    if (!st.bad && form[0] == AB_COORD && !dofs) PetscCall(DRInputFail(&st, "%s: FORMAT=COORDINATE numbers equations, expected a dofs file naming node.direction per equation (components[].dofs)", K));
    if (!st.bad && form[0] == AB_INPUT && !dofs) PetscCall(LabelSetCompact(&set));
    hdr[0] = form[0];
    hdr[1] = set.n;
  }
  PetscCall(DRInputSync(&st, NULL));
  if (st.bad) PetscCall(PetscFree(set.lab));
  DRInputCheck(&st);
  PetscCallMPI(MPI_Bcast(hdr, 2, MPIU_INT, 0, comm));
  ab.form = (AbqForm)hdr[0];
  ab.dofs = dofs;

  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, K, sizeof(C->source)));
  PetscCall(PetscStrncpy(C->msource, M, sizeof(C->msource)));
  if (dofs) PetscCall(DRLabelsRead(comm, dofs, &C->n, &C->labels));
  else {
    C->n = hdr[1];
    PetscCall(PetscMalloc1(C->n, &C->labels));
    if (st.rank == 0) PetscCall(PetscArraycpy(C->labels, set.lab, C->n));
    PetscCall(PetscFree(set.lab));
    PetscCallMPI(MPI_Bcast(C->labels, (PetscMPIInt)C->n, MPIU_INT64, 0, comm));
  }
  ab.n      = C->n;
  ab.labels = C->labels;
  if (st.rank == 0 && ab.form == AB_INPUT) {
    PetscCall(DRLabelsSort(C->n, C->labels, &sorted, &perm));
    ab.sorted = sorted;
    ab.perm   = perm;
  }
  for (int k = 0; k < 3; k++) {
    Mat *A = k == 0 ? &C->K : k == 1 ? &C->M : &C->D;
    ab.others[0] = path[k == 0 ? 1 : 0]; /* the files a DOF without a diagonal here may come from */
    ab.others[1] = path[k == 2 ? 1 : 2];
    if (path[k]) PetscCall(ReadAbqMat(comm, path[k], &ab, (PetscBool)(k < 2), A));
  }
  PetscCall(PetscFree(sorted));
  PetscCall(PetscFree(perm));
  PetscCall(DRComponentCheckSizes(C, K, M, path[2], dofs ? dofs : K));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadMTX, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
