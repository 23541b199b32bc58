/* CalculiX matrix storage (*FREQUENCY, SOLVER=MATRIXSTORAGE) and deck geometry.
 *
 * What CalculiX 2.20 (Debian's ccx) really writes, checked by running it on
 * C3D8, C3D8R, C3D8I, C3D10 and C3D20 decks with and without *BOUNDARY:
 *
 *  - JOB.sti (stiffness) and JOB.mas (mass): one entry per line,
 *    "i j value" formatted "%d %d %20.13e" (14 significant digits), 1-based,
 *    no header and no entry count.  Only the upper triangle is stored,
 *    i <= j, written column by column: for column j the off-diagonal rows
 *    i < j in ascending order, then the diagonal (j, j).  Every column has
 *    its diagonal, so the last line is (n, n).  Structural zeros of the
 *    element matrices appear as explicit "0.0000000000000e+00" entries; they
 *    are kept.  Both files have exactly the same (i, j) sequence.
 *  - JOB.dof: one "node.direction" label per line; line k labels row and
 *    column k of both matrices (ascending node id, then direction).
 *  - *BOUNDARY removes the constrained DOFs: they have no row and no label;
 *    nodes of the deck without a free DOF simply do not appear in JOB.dof.
 *  - C3D8I adds three internal nodes per element (ids above the deck's
 *    largest) whose DOFs appear in JOB.dof; they have no coordinates here.
 *
 * The reader streams JOB.sti / JOB.mas on rank 0, mirrors the off-diagonal
 * entries and marks K and M symmetric.  It checks i <= j, the index range
 * 1..n (n = lines of JOB.dof), finite values and one diagonal entry per row
 * (which is what catches a truncated file, as there is no entry count).
 * JOB.dam, in the same format, is read as the damping matrix D when present;
 * CalculiX itself does not write one, DRComponentWriteCalculiX does.
 *
 * Shells, beams and 2-D elements are expanded by CalculiX: JOB.dof then
 * repeats a label once per row of the expanded nodes (DESIGN.md "CalculiX
 * expanded elements"); DRLabelsRead numbers the repeats as copies.
 *
 * When JOB.inp exists next to the matrices, its geometry is read:
 *   *NODE (NSET= adds the nodes to a set), *ELEMENT of any TYPE= (ELSET= is
 *   ignored; a node list may continue on the next lines, as C3D20 needs),
 *   *NSET (NSET=name, ids and set names, or GENERATE ranges "first, last[,
 *   step]") and *INCLUDE, INPUT=file (relative to the deck's directory).
 *   Keywords and parameters are case-insensitive, "**" lines are comments,
 *   other keyword blocks are skipped.  As in CalculiX, a node or element
 *   defined twice keeps its last definition.  The mesh shows every element
 *   whose type has a cell (InpCells: solids as volumes, shell/membrane/2-D
 *   faces, beam/truss/spring lines, mass vertices), in one mesh of mixed
 *   cells when the deck has several; a type without a cell is left out with
 *   one warning line.  The matrices never depend on the deck.
 *
 * Node order: CalculiX's C3D4/C3D10/C3D8/C3D20 local numbering is the VTK
 * order (VTK_TETRA, VTK_QUADRATIC_TETRA, VTK_HEXAHEDRON,
 * VTK_QUADRATIC_HEXAHEDRON), and XDMF's Tetrahedron_10 / Hexahedron_20 are
 * read by ParaView as those VTK cells without reordering.  For C3D20 the
 * C3D6/C3D15, S3..S8R, CPS/CPE/CAX 3..8 follow VTK's wedge, triangle and
 * quadrilateral orders too; B32/T3D3 (end, middle, end) become Edge_3 (end,
 * end, middle).  For C3D20 the
 * mid-side nodes are 9-12 on the bottom edges 1-2, 2-3, 3-4, 4-1, 13-16 on
 * the top edges 5-6, 6-7, 7-8, 8-5 and 17-20 on the vertical edges 1-5, 2-6,
 * 3-7, 4-8: exactly VTK's 8-11, 12-15, 16-19.  (Checked with ccx: a C3D20
 * with its nodes placed in VTK order gives mass rho*V; with 13-16 and 17-20
 * swapped, the Exodus/gmsh-like order, ccx stops with "nonpositive
 * jacobian".  Likewise for C3D10.)  So connectivity is copied unchanged, but
 * for Edge_3. */
#include "io_impl.h"
#include <petscbt.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ======================================================================== */
/* JOB.sti / JOB.mas                                                        */
/* ======================================================================== */

/* Reader state (rank 0): which diagonal entries were seen. */
typedef struct {
  const DRLabel *labels;
  const char    *dofpath; /* JOB.dof: n is its number of labels */
  PetscBT        diag;
  PetscInt       ndiag;
  PetscInt64     nent;
} CcxReader;

static PetscErrorCode CcxEntries(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more)
{
  CcxReader  *cr     = (CcxReader *)s->ctx;
  const char *path   = s->path;
  const char *expect = "'row column value' (1-based, upper triangle)";
  PetscInt    n      = s->n;
  PetscBool   got    = PETSC_FALSE;

  PetscFunctionBeginUser;
  while (!st->bad && !DRTripletsFull(t)) {
    long long i, j;
    double    v;
    char     *vtok = NULL;
    int       vlen = 0, parsed;
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) break;
    if (DRStrBlank(r->line)) continue;
    parsed = DRParseEntry(r->line, &i, &j, &v, &vtok, &vlen);
    if (parsed && i >= 1 && j >= 1 && i <= j && j > n) { /* the usual cause: a JOB.dof that does not match */
      PetscCall(DRInputFail(st, "%s:%lld: column index %lld beyond the %" PetscInt_FMT " DOFs labelled in %s, expected 1..%" PetscInt_FMT ": a JOB.dof of another model?", path, (long long)r->lineno, j, n, cr->dofpath, n));
      break;
    }
    PetscCall(DRCheckEntry(st, path, r->lineno, r->line, parsed, i, j, v, vtok, vlen, n, expect));
    if (st->bad) break;
    if (i > j) {
      PetscCall(DRInputFail(st, "%s:%lld: entry (%lld, %lld) is below the diagonal, expected the upper triangle (row <= column) as CalculiX writes it", path, (long long)r->lineno, i, j));
      break;
    }
    if (i == j && !PetscBTLookupSet(cr->diag, (PetscInt)(i - 1))) cr->ndiag++;
    DRTripletsAdd(t, (PetscInt)(i - 1), (PetscInt)(j - 1), (PetscScalar)v, PETSC_TRUE);
    cr->nent++;
  }
  if (!got && !st->bad && cr->ndiag < n) {
    PetscInt miss = 0;
    char     b[32];
    while (miss < n && PetscBTLookup(cr->diag, miss)) miss++;
    if (miss == cr->ndiag) /* the first ndiag rows complete, none after: the label file has more lines than the matrices rows */
      PetscCall(DRInputFail(st, "%s: labels %" PetscInt_FMT " DOFs, but %s ends after %lld entries with diagonal entries for its first %" PetscInt_FMT " only (none from row %" PetscInt_FMT ", DOF %s), expected one per label: extra lines in %s, or a truncated file", cr->dofpath, n, path, (long long)cr->nent, cr->ndiag, miss + 1, DRLabelString(cr->labels[miss], b), cr->dofpath));
    else PetscCall(DRInputFail(st, "%s: ends after %lld entries with diagonal entries for %" PetscInt_FMT " of %" PetscInt_FMT " DOFs (none for row %" PetscInt_FMT ", DOF %s), expected one per DOF: truncated file, or a JOB.dof of another model?", path, (long long)cr->nent, cr->ndiag, n, miss + 1, DRLabelString(cr->labels[miss], b)));
  }
  *more = got;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CcxDestroy(DRMatStream *s)
{
  CcxReader *cr = (CcxReader *)s->ctx;

  PetscFunctionBeginUser;
  PetscCall(PetscBTDestroy(&cr->diag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadCcxMatrix(MPI_Comm comm, const char *path, const char *dofpath, PetscInt n, const DRLabel labels[], Mat *A)
{
  CcxReader   cr;
  DRMatStream s;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMemzero(&cr, sizeof(cr)));
  PetscCall(PetscMemzero(&s, sizeof(s)));
  cr.labels  = labels;
  cr.dofpath = dofpath;
  if (rank == 0) PetscCall(PetscBTCreate(n, &cr.diag));
  s.path      = path;
  s.what      = "CalculiX matrix storage";
  s.n         = n;
  s.symmetric = PETSC_TRUE;
  s.entries   = CcxEntries;
  s.destroy   = CcxDestroy;
  s.ctx       = &cr;
  PetscCall(DRMatStreamRead(comm, &s, A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* JOB.inp geometry (rank 0)                                                */
/* ======================================================================== */

#define INP_MAX_DEPTH 8

typedef struct {
  char      name[64];
  PetscInt  n, cap;
  PetscInt *ids;
} InpSet;

#define INP_MAX_TYPES 64

/* One CalculiX element type met in the deck. */
typedef struct {
  char       name[32];
  char       where[PETSC_MAX_PATH_LEN + 32]; /* its first *ELEMENT line */
  DRCellType cell;                           /* DR_CELL_NONE: not drawn */
  PetscInt   nv, count;
} InpType;

typedef struct {
  DRInputStatus *st;
  char           dir[PETSC_MAX_PATH_LEN]; /* the deck's directory, for *INCLUDE */
  DRLineReader   rd[INP_MAX_DEPTH];
  int            depth;
  /* nodes in file order */
  PetscInt       nn, capn, *nid;
  PetscReal     *xyz;
  /* elements in file order, each with its cell type, DR_CELL_MAXNV apart */
  PetscInt       ne, cape, *eid, *conn;
  DRCellType    *etype;
  /* element types of the deck in order of appearance */
  InpType        types[INP_MAX_TYPES];
  int            ntypes, curtype; /* curtype: of the *ELEMENT block, -1 when not read */
  PetscInt       nv;              /* nodes per element of the block */
  PetscInt       cur[DR_CELL_MAXNV + 1], ncur; /* element being read (id + nodes) */
  char           curwhere[PETSC_MAX_PATH_LEN + 32];
  /* sets */
  PetscInt       nsets;
  InpSet        *sets;
} Inp;

/* "path:line" of the current line, for messages. */
static const char *Where(Inp *p, char *buf, size_t len)
{
  DRLineReader *r = &p->rd[p->depth - 1];
  snprintf(buf, len, "%s:%lld", r->path, (long long)r->lineno);
  return buf;
}

static void Trim(char *s)
{
  char  *b = s, *e;
  size_t n;
  while (*b && isspace((unsigned char)*b)) b++;
  n = strlen(b);
  memmove(s, b, n + 1);
  e = s + n;
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
}

/* Comma-separated fields of s (modified in place), trimmed.  A trailing
 * empty field (line ending with a comma) is dropped. */
static int SplitFields(char *s, char *f[], int max)
{
  int n = 0;
  for (char *p = s;;) {
    char *c = strchr(p, ',');
    if (c) *c = '\0';
    if (n < max) {
      Trim(p);
      f[n++] = p;
    }
    if (!c) break;
    p = c + 1;
  }
  if (n && !f[n - 1][0]) n--;
  return n;
}

/* Keyword name of a "*KEYWORD, PARAM=VALUE, ..." line, upper case. */
static void KeywordName(const char *line, char *kw, size_t len)
{
  size_t k = 0;
  const char *s = line + 1;
  while (*s && *s != ',' && k + 1 < len) kw[k++] = (char)toupper((unsigned char)*s++);
  kw[k] = '\0';
  Trim(kw);
}

/* Value of parameter key (case-insensitive); "" for a flag without value. */
static PetscBool KeywordParam(const char *line, const char *key, char *val, size_t len)
{
  char  copy[1024], *f[64];
  int   nf;
  PetscBool found = PETSC_FALSE;
  snprintf(copy, sizeof(copy), "%s", line);
  nf = SplitFields(copy, f, 64);
  for (int k = 1; k < nf && !found; k++) {
    char *eq = strchr(f[k], '=');
    if (eq) *eq = '\0';
    Trim(f[k]);
    if (!strcasecmp(f[k], key)) {
      found = PETSC_TRUE;
      if (eq) {
        snprintf(val, len, "%s", eq + 1);
        Trim(val);
      } else val[0] = '\0';
    }
  }
  return found;
}

static PetscBool ParseInt(const char *s, PetscInt *v)
{
  char     *e;
  long long x = strtoll(s, &e, 10);
  if (e == s || *e || x < 0 || x > PETSC_MAX_INT) return PETSC_FALSE;
  *v = (PetscInt)x;
  return PETSC_TRUE;
}

static PetscErrorCode InpSetFind(Inp *p, const char *name, PetscBool create, InpSet **s)
{
  PetscFunctionBeginUser;
  *s = NULL;
  for (PetscInt k = 0; k < p->nsets; k++)
    if (!strcasecmp(p->sets[k].name, name)) *s = &p->sets[k];
  if (!*s && create) {
    InpSet *sets;
    PetscCall(PetscCalloc1(p->nsets + 1, &sets));
    if (p->nsets) PetscCall(PetscArraycpy(sets, p->sets, p->nsets));
    PetscCall(PetscFree(p->sets));
    p->sets = sets;
    *s      = &p->sets[p->nsets++];
    PetscCall(PetscStrncpy((*s)->name, name, sizeof((*s)->name)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpSetAdd(InpSet *s, PetscInt id)
{
  PetscFunctionBeginUser;
  if (s->n == s->cap) {
    PetscInt *ids;
    s->cap = 2 * s->cap + 64;
    PetscCall(PetscMalloc1(s->cap, &ids));
    if (s->n) PetscCall(PetscArraycpy(ids, s->ids, s->n));
    PetscCall(PetscFree(s->ids));
    s->ids = ids;
  }
  s->ids[s->n++] = id;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpNodeLine(Inp *p, char *line, InpSet *nset)
{
  char     *f[8], w[PETSC_MAX_PATH_LEN + 32];
  int       nf;
  PetscInt  id;
  PetscReal x[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  nf = SplitFields(line, f, 8);
  if (nf < 2 || nf > 4 || !ParseInt(f[0], &id)) {
    PetscCall(DRInputFail(p->st, "%s: node line is not 'id, x, y, z'", Where(p, w, sizeof(w))));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int k = 1; k < nf; k++) {
    char *e;
    x[k - 1] = strtod(f[k], &e);
    if (e == f[k] || *e || !isfinite(x[k - 1])) {
      PetscCall(DRInputFail(p->st, "%s: coordinate '%.40s' of node %" PetscInt_FMT " is not a finite number, expected 'id, x, y, z'", Where(p, w, sizeof(w)), f[k], id));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (p->nn == p->capn) {
    PetscInt  *nid;
    PetscReal *xyz;
    p->capn = 2 * p->capn + 1024;
    PetscCall(PetscMalloc2(p->capn, &nid, 3 * p->capn, &xyz));
    if (p->nn) {
      PetscCall(PetscArraycpy(nid, p->nid, p->nn));
      PetscCall(PetscArraycpy(xyz, p->xyz, 3 * p->nn));
    }
    PetscCall(PetscFree2(p->nid, p->xyz));
    p->nid = nid;
    p->xyz = xyz;
  }
  p->nid[p->nn] = id;
  for (int d = 0; d < 3; d++) p->xyz[3 * p->nn + d] = x[d];
  p->nn++;
  if (nset) PetscCall(InpSetAdd(nset, id));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpElementLine(Inp *p, char *line)
{
  char    *f[64], w[PETSC_MAX_PATH_LEN + 32];
  int      nf;
  InpType *t = &p->types[p->curtype];

  PetscFunctionBeginUser;
  nf = SplitFields(line, f, 64);
  if (!p->ncur) Where(p, p->curwhere, sizeof(p->curwhere));
  for (int k = 0; k < nf; k++) {
    PetscInt v;
    if (!ParseInt(f[k], &v)) {
      PetscCall(DRInputFail(p->st, "%s: '%.40s' is not an integer, expected element id and %" PetscInt_FMT " node ids for %s", Where(p, w, sizeof(w)), f[k], p->nv, t->name));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (p->ncur == p->nv + 1) {
      PetscCall(DRInputFail(p->st, "%s: element %" PetscInt_FMT " has more than %" PetscInt_FMT " nodes, expected %" PetscInt_FMT " for %s", Where(p, w, sizeof(w)), p->cur[0], p->nv, p->nv, t->name));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    p->cur[p->ncur++] = v;
  }
  if (p->ncur == p->nv + 1) {
    if (p->ne == p->cape) {
      PetscInt   *eid, *conn;
      DRCellType *et;
      p->cape = 2 * p->cape + 1024;
      PetscCall(PetscMalloc3(p->cape, &eid, p->cape * DR_CELL_MAXNV, &conn, p->cape, &et));
      if (p->ne) {
        PetscCall(PetscArraycpy(eid, p->eid, p->ne));
        PetscCall(PetscArraycpy(conn, p->conn, p->ne * DR_CELL_MAXNV));
        PetscCall(PetscArraycpy(et, p->etype, p->ne));
      }
      PetscCall(PetscFree3(p->eid, p->conn, p->etype));
      p->eid   = eid;
      p->conn  = conn;
      p->etype = et;
    }
    p->eid[p->ne]   = p->cur[0];
    p->etype[p->ne] = t->cell;
    /* CalculiX's local node order is the VTK/XDMF one, except the 3-node
     * beam/truss (end, middle, end) that XDMF's Edge_3 takes as (end, end,
     * middle). */
    if (t->cell == DR_CELL_LINE3) {
      PetscInt *c = p->conn + p->ne * DR_CELL_MAXNV;
      c[0] = p->cur[1];
      c[1] = p->cur[3];
      c[2] = p->cur[2];
    } else PetscCall(PetscArraycpy(p->conn + p->ne * DR_CELL_MAXNV, p->cur + 1, p->nv));
    p->ne++;
    t->count++;
    p->ncur = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpNsetLine(Inp *p, char *line, InpSet *s, PetscBool generate)
{
  char    *f[256], w[PETSC_MAX_PATH_LEN + 32];
  int      nf;
  PetscInt a, b, inc = 1;

  PetscFunctionBeginUser;
  nf = SplitFields(line, f, 256);
  if (generate) {
    if (nf < 2 || nf > 3 || !ParseInt(f[0], &a) || !ParseInt(f[1], &b) || (nf == 3 && !ParseInt(f[2], &inc)) || inc < 1 || b < a) {
      PetscCall(DRInputFail(p->st, "%s: *NSET, GENERATE line is not 'first, last[, increment]' with first <= last", Where(p, w, sizeof(w))));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    for (PetscInt id = a; id <= b; id += inc) PetscCall(InpSetAdd(s, id));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int k = 0; k < nf; k++) {
    InpSet *other;
    if (ParseInt(f[k], &a)) {
      PetscCall(InpSetAdd(s, a));
      continue;
    }
    PetscCall(InpSetFind(p, f[k], PETSC_FALSE, &other));
    if (!other || other == s) {
      PetscCall(DRInputFail(p->st, "%s: '%.40s' is neither a node id nor a node set defined before, expected node ids or set names", Where(p, w, sizeof(w)), f[k]));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    for (PetscInt i = 0; i < other->n; i++) PetscCall(InpSetAdd(s, other->ids[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CalculiX element types and the cell that shows each: solids as volumes,
 * shells, membranes and 2-D elements (plane stress/strain, axisymmetric) as
 * faces of their reference surface or section, beams, trusses, two-node
 * springs, dashpots and gaps as lines, masses and one-node springs as
 * vertices.  A type not listed is left out of the mesh (its matrices are in
 * JOB.sti / JOB.mas whatever it is). */
static const struct {
  const char *name;
  DRCellType  cell;
} InpCells[] = {
  {"C3D4", DR_CELL_TET4},      {"C3D10", DR_CELL_TET10},     {"C3D10T", DR_CELL_TET10},   {"C3D8", DR_CELL_HEX8},      {"C3D8R", DR_CELL_HEX8},
  {"C3D8I", DR_CELL_HEX8},     {"C3D20", DR_CELL_HEX20},     {"C3D20R", DR_CELL_HEX20},   {"C3D6", DR_CELL_WEDGE6},    {"C3D15", DR_CELL_WEDGE15},
  {"S3", DR_CELL_TRI3},        {"S4", DR_CELL_QUAD4},        {"S4R", DR_CELL_QUAD4},      {"S6", DR_CELL_TRI6},        {"S8", DR_CELL_QUAD8},
  {"S8R", DR_CELL_QUAD8},      {"M3D3", DR_CELL_TRI3},       {"M3D4", DR_CELL_QUAD4},     {"M3D4R", DR_CELL_QUAD4},    {"M3D6", DR_CELL_TRI6},
  {"M3D8", DR_CELL_QUAD8},     {"M3D8R", DR_CELL_QUAD8},     {"CPS3", DR_CELL_TRI3},      {"CPS4", DR_CELL_QUAD4},     {"CPS4R", DR_CELL_QUAD4},
  {"CPS6", DR_CELL_TRI6},      {"CPS8", DR_CELL_QUAD8},      {"CPS8R", DR_CELL_QUAD8},    {"CPE3", DR_CELL_TRI3},      {"CPE4", DR_CELL_QUAD4},
  {"CPE4R", DR_CELL_QUAD4},    {"CPE6", DR_CELL_TRI6},       {"CPE8", DR_CELL_QUAD8},     {"CPE8R", DR_CELL_QUAD8},    {"CAX3", DR_CELL_TRI3},
  {"CAX4", DR_CELL_QUAD4},     {"CAX4R", DR_CELL_QUAD4},     {"CAX6", DR_CELL_TRI6},      {"CAX8", DR_CELL_QUAD8},     {"CAX8R", DR_CELL_QUAD8},
  {"B31", DR_CELL_LINE2},      {"B31R", DR_CELL_LINE2},      {"B32", DR_CELL_LINE3},      {"B32R", DR_CELL_LINE3},     {"T3D2", DR_CELL_LINE2},
  {"T3D3", DR_CELL_LINE3},     {"SPRINGA", DR_CELL_LINE2},   {"SPRING2", DR_CELL_LINE2},  {"DASHPOTA", DR_CELL_LINE2}, {"GAPUNI", DR_CELL_LINE2},
  {"SPRING1", DR_CELL_VERTEX}, {"DASHPOT1", DR_CELL_VERTEX}, {"MASS", DR_CELL_VERTEX}
};

static PetscErrorCode InpElementType(Inp *p, const char *line)
{
  char val[64], w[PETSC_MAX_PATH_LEN + 32];
  int  k;

  PetscFunctionBeginUser;
  p->curtype = -1;
  if (!KeywordParam(line, "TYPE", val, sizeof(val))) {
    PetscCall(DRInputFail(p->st, "%s: *ELEMENT without TYPE=, expected e.g. '*ELEMENT, TYPE=C3D8, ELSET=EALL'", Where(p, w, sizeof(w))));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (char *c = val; *c; c++) *c = (char)toupper((unsigned char)*c);
  for (k = 0; k < p->ntypes; k++)
    if (!strcmp(p->types[k].name, val)) break;
  if (k == p->ntypes) {
    InpType *t;
    if (p->ntypes == INP_MAX_TYPES) {
      PetscCall(DRInputFail(p->st, "%s: element type %s is the deck's %d-th, expected at most %d element types", Where(p, w, sizeof(w)), val, INP_MAX_TYPES + 1, INP_MAX_TYPES));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    t = &p->types[p->ntypes++];
    PetscCall(PetscStrncpy(t->name, val, sizeof(t->name)));
    PetscCall(PetscStrncpy(t->where, Where(p, w, sizeof(w)), sizeof(t->where)));
    t->cell = DR_CELL_NONE;
    for (size_t i = 0; i < sizeof(InpCells) / sizeof(InpCells[0]); i++)
      if (!strcmp(val, InpCells[i].name)) t->cell = InpCells[i].cell;
    t->nv = DRCellNodes(t->cell);
  }
  /* The node lines of a type without a cell are skipped unread. */
  if (p->types[k].cell == DR_CELL_NONE) p->types[k].count++;
  else {
    p->curtype = k;
    p->nv      = p->types[k].nv;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum {
  INP_SKIP,
  INP_NODE,
  INP_ELEMENT,
  INP_NSET
} InpMode;

/* An element whose node list did not end before the next keyword or EOF. */
static PetscErrorCode InpElementDone(Inp *p)
{
  PetscFunctionBeginUser;
  if (p->ncur) PetscCall(DRInputFail(p->st, "%s: element %" PetscInt_FMT " has %" PetscInt_FMT " of %" PetscInt_FMT " node ids, expected %" PetscInt_FMT " for %s", p->curwhere, p->cur[0], p->ncur - 1, p->nv, p->nv, p->types[p->curtype].name));
  p->ncur = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpParse(Inp *p, const char *path)
{
  InpMode   mode = INP_SKIP;
  InpSet   *set  = NULL;
  PetscBool generate = PETSC_FALSE, ok, got;
  char      kw[64], val[PETSC_MAX_PATH_LEN], w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRInputOpen(p->st, &p->rd[0], path, NULL));
  p->depth = 1;
  while (!p->st->bad && p->depth > 0) {
    DRLineReader *r = &p->rd[p->depth - 1];
    char         *line;
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      PetscCall(DRLineReaderClose(r));
      p->depth--;
      continue;
    }
    line = r->line;
    while (*line == ' ' || *line == '\t') line++;
    if (!*line || (line[0] == '*' && line[1] == '*')) continue;
    if (line[0] != '*') {
      switch (mode) {
      case INP_NODE: PetscCall(InpNodeLine(p, line, set)); break;
      case INP_ELEMENT: PetscCall(InpElementLine(p, line)); break;
      case INP_NSET: PetscCall(InpNsetLine(p, line, set, generate)); break;
      default: break;
      }
      continue;
    }
    if (mode == INP_ELEMENT) PetscCall(InpElementDone(p));
    if (p->st->bad) break;
    KeywordName(line, kw, sizeof(kw));
    mode = INP_SKIP;
    set  = NULL;
    if (!strcmp(kw, "NODE")) {
      mode = INP_NODE;
      if (KeywordParam(line, "NSET", val, sizeof(val)) && val[0]) PetscCall(InpSetFind(p, val, PETSC_TRUE, &set));
    } else if (!strcmp(kw, "ELEMENT")) {
      PetscCall(InpElementType(p, line));
      if (p->curtype >= 0) mode = INP_ELEMENT;
    } else if (!strcmp(kw, "NSET")) {
      if (!KeywordParam(line, "NSET", val, sizeof(val)) || !val[0]) PetscCall(DRInputFail(p->st, "%s: *NSET without NSET=name", Where(p, w, sizeof(w))));
      else {
        PetscCall(InpSetFind(p, val, PETSC_TRUE, &set));
        generate = KeywordParam(line, "GENERATE", val, sizeof(val));
        mode     = INP_NSET;
      }
    } else if (!strcmp(kw, "INCLUDE")) {
      char file[2 * PETSC_MAX_PATH_LEN];
      if (!KeywordParam(line, "INPUT", val, sizeof(val)) || !val[0]) PetscCall(DRInputFail(p->st, "%s: *INCLUDE without INPUT=file", Where(p, w, sizeof(w))));
      else if (p->depth == INP_MAX_DEPTH) PetscCall(DRInputFail(p->st, "%s: *INCLUDE nested more than %d deep", Where(p, w, sizeof(w)), INP_MAX_DEPTH));
      else {
        if (val[0] == '/' || !p->dir[0]) snprintf(file, sizeof(file), "%s", val);
        else snprintf(file, sizeof(file), "%s/%s", p->dir, val);
        PetscCall(DRLineReaderOpen(&p->rd[p->depth], file, &ok));
        if (!ok) PetscCall(DRInputFail(p->st, "%s: cannot open include file '%s' (%s)", Where(p, w, sizeof(w)), file, strerror(errno)));
        else p->depth++;
      }
    }
  }
  if (!p->st->bad && mode == INP_ELEMENT) PetscCall(InpElementDone(p));
  while (p->depth > 0) PetscCall(DRLineReaderClose(&p->rd[--p->depth]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sorted, last definition wins (as in CalculiX): keep[k] = index of the
 * entry kept for the k-th distinct id. */
static PetscErrorCode LastWins(PetscInt n, const PetscInt ids[], PetscInt *nkeep, PetscInt **keep)
{
  PetscInt *sid, *idx, k = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n, &sid, n, &idx));
  PetscCall(PetscMalloc1(n, keep));
  for (PetscInt i = 0; i < n; i++) {
    sid[i] = ids[i];
    idx[i] = i;
  }
  PetscCall(PetscSortIntWithArray(n, sid, idx));
  for (PetscInt i = 0; i < n; i++) {
    if (k && sid[i] == sid[i - 1]) (*keep)[k - 1] = PetscMax((*keep)[k - 1], idx[i]);
    else (*keep)[k++] = idx[i];
  }
  *nkeep = k;
  PetscCall(PetscFree2(sid, idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpToComponent(Inp *p, DRComponent c)
{
  PetscInt *keep, nk;

  PetscFunctionBeginUser;
  PetscCall(LastWins(p->nn, p->nid, &nk, &keep));
  c->nnodes = nk;
  PetscCall(PetscMalloc1(nk, &c->node_ids));
  PetscCall(PetscMalloc1(3 * nk, &c->xyz));
  for (PetscInt k = 0; k < nk; k++) {
    c->node_ids[k] = p->nid[keep[k]];
    for (int d = 0; d < 3; d++) c->xyz[3 * k + d] = p->xyz[3 * keep[k] + d];
  }
  PetscCall(PetscFree(keep));
  /* Every element type with a cell is drawn: one type gives a mesh of that
   * cell, several a DR_CELL_MIXED mesh (XDMF's Mixed topology) where solids
   * are volumes, shells and 2-D elements faces, beams and springs lines and
   * masses vertices.  A type without a cell is left out with one warning. */
  {
    DRCellType show = DR_CELL_NONE;
    PetscInt  *eid, *idx, ns = 0;
    for (int k = 0; k < p->ntypes; k++) {
      InpType *t = &p->types[k];
      if (!t->count) continue;
      if (t->cell == DR_CELL_NONE) PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDERR, "dynred: warning: %s: element type %s is left out of the mesh for ParaView, which has no cell for it (its stiffness and mass are in the matrices)\n", t->where, t->name));
      else if (show == DR_CELL_NONE) show = t->cell;
      else if (show != t->cell) show = DR_CELL_MIXED;
    }
    if (show != DR_CELL_NONE) {
      PetscInt nv = DRCellNodes(show);
      PetscCall(PetscMalloc2(p->ne, &eid, p->ne, &idx));
      for (PetscInt e = 0; e < p->ne; e++) {
        eid[ns]   = p->eid[e];
        idx[ns++] = e;
      }
      /* element ids are shared by all types: the last definition wins */
      PetscCall(LastWins(ns, eid, &nk, &keep));
      c->celltype = show;
      c->ncells   = nk;
      PetscCall(PetscMalloc1(nk * nv, &c->cells));
      for (PetscInt k = 0; k < nk; k++) {
        PetscInt   e   = idx[keep[k]];
        PetscInt  *row = c->cells + k * nv;
        DRCellType t   = p->etype[e];
        if (show == DR_CELL_MIXED) {
          row[0] = -(PetscInt)t;
          PetscCall(PetscArraycpy(row + 1, p->conn + e * DR_CELL_MAXNV, DRCellNodes(t)));
          for (PetscInt a = 1 + DRCellNodes(t); a < nv; a++) row[a] = -1;
        } else PetscCall(PetscArraycpy(row, p->conn + e * DR_CELL_MAXNV, nv));
      }
      PetscCall(PetscFree(keep));
      PetscCall(PetscFree2(eid, idx));
    }
  }
  for (PetscInt s = 0; s < p->nsets; s++) PetscCall(DRComponentAddNodeSet(c, p->sets[s].name, p->sets[s].n, p->sets[s].ids));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode InpDestroy(Inp *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(p->nid, p->xyz));
  PetscCall(PetscFree3(p->eid, p->conn, p->etype));
  for (PetscInt s = 0; s < p->nsets; s++) PetscCall(PetscFree(p->sets[s].ids));
  PetscCall(PetscFree(p->sets));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometry of JOB.inp on rank 0, broadcast; nothing when there is no deck. */
static PetscErrorCode ReadCcxDeck(DRComponent c, const char *job)
{
  DRInputStatus st;
  char          path[PETSC_MAX_PATH_LEN];
  PetscBool     exists;
  Inp          *p;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(c->comm, &st));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.inp", job));
  PetscCall(DRFileExists(c->comm, path, &exists));
  if (!exists) PetscFunctionReturn(PETSC_SUCCESS);
  if (st.rank == 0) {
    char *slash;
    PetscCall(PetscNew(&p));
    p->st = &st;
    PetscCall(PetscStrncpy(p->dir, path, sizeof(p->dir)));
    slash = strrchr(p->dir, '/');
    if (slash) *slash = '\0';
    else p->dir[0] = '\0';
    PetscCall(InpParse(p, path));
    if (!st.bad) PetscCall(InpToComponent(p, c));
    PetscCall(InpDestroy(p));
    PetscCall(PetscFree(p));
  }
  PetscCall(DRInputSync(&st, NULL));
  DRInputCheck(&st);
  PetscCall(DRComponentBcastGeometry(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadCalculiX(MPI_Comm comm, const char *name, const char *job, DRComponent *c)
{
  DRComponent C;
  char        kpath[PETSC_MAX_PATH_LEN], mpath[PETSC_MAX_PATH_LEN], dpath[PETSC_MAX_PATH_LEN], dofpath[PETSC_MAX_PATH_LEN];
  PetscBool   hasd;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadCalculiX, 0, 0, 0, 0));
  PetscCall(PetscSNPrintf(kpath, sizeof(kpath), "%s.sti", job));
  PetscCall(PetscSNPrintf(mpath, sizeof(mpath), "%s.mas", job));
  PetscCall(PetscSNPrintf(dpath, sizeof(dpath), "%s.dam", job));
  PetscCall(PetscSNPrintf(dofpath, sizeof(dofpath), "%s.dof", job));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, job, sizeof(C->source)));
  PetscCall(PetscStrncpy(C->msource, mpath, sizeof(C->msource)));
  PetscCall(DRLabelsRead(comm, dofpath, &C->n, &C->labels));
  PetscCall(ReadCcxMatrix(comm, kpath, dofpath, C->n, C->labels, &C->K));
  PetscCall(ReadCcxMatrix(comm, mpath, dofpath, C->n, C->labels, &C->M));
  PetscCall(DRFileExists(comm, dpath, &hasd));
  if (hasd) PetscCall(ReadCcxMatrix(comm, dpath, dofpath, C->n, C->labels, &C->D));
  PetscCall(ReadCcxDeck(C, job));
  PetscCall(DRCcxKnots(C));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadCalculiX, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One triangle is all CalculiX stores: refuse a matrix that is not symmetric. */
static PetscErrorCode WriteCcxMatrix(Mat A, const char *path)
{
  MPI_Comm  comm;
  PetscBool known, sym;
  char      tmp[PETSC_MAX_PATH_LEN + 32];
  FILE     *f;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatIsSymmetricKnown(A, &known, &sym));
  if (!known) {
    PetscReal nrm;
    PetscCall(MatNorm(A, NORM_FROBENIUS, &nrm));
    PetscCall(MatIsSymmetric(A, DR_SYMMETRY_RTOL * nrm, &sym));
  }
  PetscCheck(sym, comm, PETSC_ERR_ARG_WRONG, "%s: CalculiX storage holds one triangle, expected a symmetric matrix", path);
  PetscCall(DRTmpPath(comm, path, tmp, sizeof(tmp)));
  PetscCall(DRFileOpenWrite(comm, tmp, &f));
  /* Lower triangle by rows = upper triangle by columns, diagonal last in
   * each column: CalculiX's own order. */
  PetscCall(DRMatStreamToRoot(A, PETSC_TRUE, PETSC_TRUE, f));
  PetscCall(DRFileCommit(comm, &f, tmp, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWriteCalculiX(DRComponent c, const char *job)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.sti", job));
  PetscCall(WriteCcxMatrix(c->K, path));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.mas", job));
  PetscCall(WriteCcxMatrix(c->M, path));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.dam", job));
  if (c->D) PetscCall(WriteCcxMatrix(c->D, path));
  else {
    /* A JOB.dam left from an earlier write would be read back as D. */
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
    if (rank == 0) (void)remove(path);
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.dof", job));
  PetscCall(DRLabelsWrite(c->comm, path, c->n, c->labels));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
