/* The component data model: life cycle, node sets, validation, assembly by
 * label. */
#include "model_impl.h"
#include <float.h>
#include <math.h>
#include <string.h>

/* Largest matrix entry a component may hold: its square and a few sums of
 * squares stay finite (sqrt(DBL_MAX) = 1.34e154). */
#define DR_ENTRY_MAX 1e150

PetscErrorCode DRComponentCreate(MPI_Comm comm, const char *name, DRComponent *c)
{
  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscNew(c));
  (*c)->comm = comm;
  PetscCall(PetscStrncpy((*c)->name, name ? name : "model", sizeof((*c)->name)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentDestroy(DRComponent *c)
{
  PetscFunctionBeginUser;
  if (!*c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatDestroy(&(*c)->K));
  PetscCall(MatDestroy(&(*c)->M));
  PetscCall(MatDestroy(&(*c)->D));
  PetscCall(PetscFree((*c)->labels));
  PetscCall(PetscFree((*c)->node_ids));
  PetscCall(PetscFree((*c)->xyz));
  PetscCall(PetscFree((*c)->cells));
  for (PetscInt i = 0; i < (*c)->nsets; i++) PetscCall(PetscFree((*c)->sets[i].nodes));
  PetscCall(PetscFree((*c)->sets));
  PetscCall(PetscFree(*c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentAddNodeSet(DRComponent c, const char *name, PetscInt n, const PetscInt ids[])
{
  DRNodeSet *s;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetNodeSet(c, name, &s));
  if (!s) {
    DRNodeSet *sets;
    PetscCall(PetscCalloc1(c->nsets + 1, &sets));
    if (c->nsets) PetscCall(PetscArraycpy(sets, c->sets, c->nsets));
    PetscCall(PetscFree(c->sets));
    c->sets = sets;
    s       = &c->sets[c->nsets++];
    PetscCall(PetscStrncpy(s->name, name, sizeof(s->name)));
  }
  /* A set named twice (e.g. two *NSET blocks) is the union. */
  {
    PetscInt *nodes;
    PetscCall(PetscMalloc1(s->n + n + 1, &nodes));
    if (s->n) PetscCall(PetscArraycpy(nodes, s->nodes, s->n));
    if (n) PetscCall(PetscArraycpy(nodes + s->n, ids, n));
    PetscCall(PetscFree(s->nodes));
    s->n += n;
    PetscCall(PetscSortRemoveDupsInt(&s->n, nodes));
    s->nodes = nodes;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetNodeSet(DRComponent c, const char *name, DRNodeSet **set)
{
  PetscFunctionBeginUser;
  *set = NULL;
  for (PetscInt i = 0; i < c->nsets; i++) {
    PetscBool eq;
    PetscCall(PetscStrcasecmp(c->sets[i].name, name, &eq));
    if (eq) {
      *set = &c->sets[i];
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt DRComponentFindNode(DRComponent c, PetscInt64 node)
{
  PetscInt lo = 0, hi = c->nnodes - 1;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (c->node_ids[mid] == node) return mid;
    if (c->node_ids[mid] < node) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

typedef struct {
  DRLabel  l;
  PetscInt i;
} DRLabelIdx;

static int cmp_label_idx(const void *a, const void *b)
{
  const DRLabelIdx *x = (const DRLabelIdx *)a, *y = (const DRLabelIdx *)b;
  if (x->l != y->l) return x->l < y->l ? -1 : 1;
  return x->i < y->i ? -1 : (x->i > y->i);
}

PetscErrorCode DRLabelsSort(PetscInt n, const DRLabel labels[], DRLabel **sorted, PetscInt **perm)
{
  DRLabelIdx *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &t));
  for (PetscInt i = 0; i < n; i++) {
    t[i].l = labels[i];
    t[i].i = i;
  }
  qsort(t, (size_t)n, sizeof(*t), cmp_label_idx);
  PetscCall(PetscMalloc1(n + 1, sorted));
  if (perm) PetscCall(PetscMalloc1(n + 1, perm));
  for (PetscInt i = 0; i < n; i++) {
    (*sorted)[i] = t[i].l;
    if (perm) (*perm)[i] = t[i].i;
  }
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLabelsNumberCopies(PetscInt n, DRLabel labels[])
{
  DRLabel  *sorted;
  PetscInt *perm, copy = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) labels[i] = DRLabelBase(labels[i]);
  /* DRLabelsSort is stable: equal labels stay in row order */
  PetscCall(DRLabelsSort(n, labels, &sorted, &perm));
  for (PetscInt k = 0; k < n; k++) {
    copy = (k && sorted[k] == sorted[k - 1]) ? copy + 1 : 0;
    labels[perm[k]] = DRLabelWithCopy(sorted[k], copy);
  }
  PetscCall(PetscFree(sorted));
  PetscCall(PetscFree(perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt64 node;
  PetscInt   comp, copy;
} NodeComp;

static int cmp_node_comp(const void *a, const void *b)
{
  const NodeComp *x = (const NodeComp *)a, *y = (const NodeComp *)b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  return (x->comp > y->comp) - (x->comp < y->comp);
}

PetscErrorCode DRLabelsFindExpandedShared(PetscInt ncomp, const PetscInt nlab[], const DRLabel *const lab[], PetscInt64 *node, PetscInt *ka, PetscInt *kb, PetscBool *generated)
{
  NodeComp *t;
  PetscInt  nt = 0;

  PetscFunctionBeginUser;
  *node = -1;
  *ka = *kb  = -1;
  *generated = PETSC_FALSE;
  for (PetscInt k = 0; k < ncomp; k++) nt += nlab[k];
  PetscCall(PetscMalloc1(nt + 1, &t));
  nt = 0;
  for (PetscInt k = 0; k < ncomp; k++)
    for (PetscInt i = 0; i < nlab[k]; i++) {
      t[nt].node   = DRLabelNode(lab[k][i]);
      t[nt].comp   = k;
      t[nt++].copy = DRLabelDilatation(lab[k][i]) ? 0 : DRLabelCopy(lab[k][i]); /* a knot's dilatation is a DOF of its own */
    }
  qsort(t, (size_t)nt, sizeof(*t), cmp_node_comp);
  for (PetscInt i = 0; i < nt && *node < 0;) {
    PetscInt j = i, a = -1, b = -1;
    for (; j < nt && t[j].node == t[i].node; j++) {
      if (t[j].copy && a < 0) {
        a          = t[j].comp;
        *generated = (t[j].copy & DR_LABEL_GENERATED) ? PETSC_TRUE : PETSC_FALSE;
      }
      if (t[j].comp != t[i].comp && b < 0) b = t[j].comp;
    }
    if (a >= 0 && b >= 0) { /* several components, one of them expanded */
      *node = t[i].node;
      *ka   = a;
      *kb   = a == t[i].comp ? b : t[i].comp;
    }
    i = j;
  }
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt DRLabelsFind(PetscInt n, const DRLabel sorted[], DRLabel l)
{
  PetscInt lo = 0, hi = n - 1;
  while (lo <= hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (sorted[mid] == l) return mid;
    if (sorted[mid] < l) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* First non-finite entry, first non-positive diagonal (checkdiag) and the
 * largest |A - A^T| relative to ||A||_F, each reported with its entry. */
static PetscErrorCode CheckMatrix(DRComponent c, Mat A, const char *which, PetscBool checkdiag, PetscReal rtol)
{
  PetscInt           rs, re, ncols, m, n;
  const PetscInt    *cols;
  const PetscScalar *vals;
  PetscInt           bad[4] = {PETSC_MAX_INT, PETSC_MAX_INT, PETSC_MAX_INT, PETSC_MAX_INT}, gbad[4];
  char               b1[32], b2[32];
  const char        *src = (!strcmp(which, "M") && c->msource[0]) ? c->msource : c->source;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCheck(m == c->n && n == c->n, c->comm, DR_ERR_INPUT, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT " (one row per DOF label)", src, which, m, n, c->n, c->n);
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscBool hasdiag = PETSC_FALSE;
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++) {
      if (!isfinite(PetscRealPart(vals[k])) && bad[0] == PETSC_MAX_INT) bad[0] = i;
      /* a subnormal entry (|v| < DBL_MIN, not 0) is no stiffness or mass
         an FE model produces: a corrupt value, whose eigenvalues would
         overflow (a 1e-320 mass) */
      if (vals[k] != 0 && PetscAbsReal(PetscRealPart(vals[k])) < DBL_MIN && bad[2] == PETSC_MAX_INT) bad[2] = i;
      /* norms and inner products square the entries: beyond sqrt(DBL_MAX)
         = 1.3e154 they overflow (the solvers then see an "indefinite" M) */
      if (PetscAbsReal(PetscRealPart(vals[k])) > DR_ENTRY_MAX && isfinite(PetscRealPart(vals[k])) && bad[3] == PETSC_MAX_INT) bad[3] = i;
      if (cols[k] == i) {
        hasdiag = PETSC_TRUE;
        if (!(PetscRealPart(vals[k]) > 0) && bad[1] == PETSC_MAX_INT) bad[1] = i;
      }
    }
    if (!hasdiag && bad[1] == PETSC_MAX_INT) bad[1] = i;
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
  }
  if (!checkdiag) bad[1] = PETSC_MAX_INT;
  PetscCall(MPIU_Allreduce(bad, gbad, 4, MPIU_INT, MPI_MIN, c->comm));
  PetscCheck(gbad[0] == PETSC_MAX_INT, c->comm, DR_ERR_INPUT, "%s: %s has a non-finite value in row %" PetscInt_FMT " (DOF %s), expected finite numbers", src, which, gbad[0] + 1, DRLabelString(c->labels[gbad[0]], b1));
  PetscCheck(gbad[2] == PETSC_MAX_INT, c->comm, DR_ERR_INPUT, "%s: %s has a subnormal value (0 < |v| < %g) in row %" PetscInt_FMT " (DOF %s), expected 0 or a normal number", src, which, (double)DBL_MIN, gbad[2] + 1, DRLabelString(c->labels[gbad[2]], b1));
  PetscCheck(gbad[3] == PETSC_MAX_INT, c->comm, DR_ERR_INPUT, "%s: %s has a value beyond %g in row %" PetscInt_FMT " (DOF %s), expected |entries| <= %g (norms would overflow; rescale the units)", src, which, DR_ENTRY_MAX, gbad[3] + 1, DRLabelString(c->labels[gbad[3]], b1), DR_ENTRY_MAX);
  PetscCheck(gbad[1] == PETSC_MAX_INT, c->comm, DR_ERR_INPUT, "%s: %s diagonal entry %" PetscInt_FMT " (DOF %s) is not positive, expected a positive mass on every DOF", src, which, gbad[1] + 1, DRLabelString(c->labels[gbad[1]], b1));

  {
    PetscBool known, sym;
    PetscCall(MatIsSymmetricKnown(A, &known, &sym));
    if (!(known && sym)) {
      Mat       At, B;
      PetscReal na, nb;
      struct {
        PetscReal v;
        int       r;
      } loc = {0, 0}, glob;
      PetscInt worst[2] = {-1, -1};
      PetscCall(MatNorm(A, NORM_FROBENIUS, &na));
      PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
      PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
      PetscCall(MatAXPY(B, -1.0, At, DIFFERENT_NONZERO_PATTERN));
      PetscCall(MatNorm(B, NORM_FROBENIUS, &nb));
      if (nb > rtol * na) {
        PetscMPIInt rank;
        PetscCall(MatGetOwnershipRange(B, &rs, &re));
        for (PetscInt i = rs; i < re; i++) {
          PetscCall(MatGetRow(B, i, &ncols, &cols, &vals));
          for (PetscInt k = 0; k < ncols; k++)
            if (PetscAbsScalar(vals[k]) > loc.v) {
              loc.v    = PetscAbsScalar(vals[k]);
              worst[0] = i;
              worst[1] = cols[k];
            }
          PetscCall(MatRestoreRow(B, i, &ncols, &cols, &vals));
        }
        PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
        loc.r = rank;
        PetscCallMPI(MPI_Allreduce(&loc, &glob, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c->comm));
        PetscCallMPI(MPI_Bcast(worst, 2, MPIU_INT, glob.r, c->comm));
      }
      PetscCall(MatDestroy(&At));
      PetscCall(MatDestroy(&B));
      PetscCheck(nb <= rtol * na, c->comm, DR_ERR_INPUT, "%s: %s is not symmetric: ||A - A^T|| / ||A|| = %g, largest difference at entry (%" PetscInt_FMT ", %" PetscInt_FMT ") (DOFs %s, %s), expected symmetric within %g", src, which, (double)(nb / na), worst[0] + 1, worst[1] + 1, DRLabelString(c->labels[worst[0]], b1), DRLabelString(c->labels[worst[1]], b2), (double)rtol);
    }
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A necessary condition for a positive definite M: |M_ij| <= sqrt(M_ii M_jj)
 * for every entry (every 2x2 principal minor positive).  Catches an entry
 * grown out of proportion (a corrupt file) with the file and the entry,
 * before an eigensolver finds M indefinite.  Slack 1e-8 relative: a
 * consistent mass rounded to the file's digits stays far below 1 (|M_ij| /
 * sqrt(M_ii M_jj) = 1/2 for a bar), a rigidly coupled pair may reach 1. */
static PetscErrorCode CheckMassMinors(DRComponent c, const char *src)
{
  Vec                d, dg;
  VecScatter         sc;
  IS                 is;
  PetscInt           rs, re, ncols, nneed = 0, cap = 16, *need, bad[2] = {PETSC_MAX_INT, -1}, gbad[2];
  const PetscInt    *cols;
  const PetscScalar *vals, *dl, *dn;
  char               b1[32], b2[32];

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(c->M, &d, NULL));
  PetscCall(MatGetDiagonal(c->M, d));
  PetscCall(MatGetOwnershipRange(c->M, &rs, &re));
  /* the diagonal entries of the columns this rank's rows refer to */
  PetscCall(PetscMalloc1(cap, &need));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(c->M, i, &ncols, &cols, NULL));
    for (PetscInt k = 0; k < ncols; k++) {
      if (nneed == cap) PetscCall(PetscRealloc(sizeof(PetscInt) * (cap *= 2), &need));
      need[nneed++] = cols[k];
    }
    PetscCall(MatRestoreRow(c->M, i, &ncols, &cols, NULL));
    if (nneed > 1 << 20) PetscCall(PetscSortRemoveDupsInt(&nneed, need));
  }
  PetscCall(PetscSortRemoveDupsInt(&nneed, need));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nneed, need, PETSC_USE_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nneed, &dg));
  PetscCall(VecScatterCreate(d, is, dg, NULL, &sc));
  PetscCall(VecScatterBegin(sc, d, dg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, d, dg, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecGetArrayRead(d, &dl));
  PetscCall(VecGetArrayRead(dg, &dn));
  for (PetscInt i = rs; i < re && bad[0] == PETSC_MAX_INT; i++) {
    PetscReal si = PetscSqrtReal(PetscRealPart(dl[i - rs]));
    PetscCall(MatGetRow(c->M, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++) {
      PetscInt  loc;
      PetscReal sj;
      if (cols[k] == i) continue;
      PetscCall(PetscFindInt(cols[k], nneed, need, &loc));
      sj = PetscSqrtReal(PetscRealPart(dn[loc]));
      if (!(PetscAbsScalar(vals[k]) / si / sj <= 1 + 1e-8)) {
        bad[0] = i;
        bad[1] = cols[k];
        break;
      }
    }
    PetscCall(MatRestoreRow(c->M, i, &ncols, &cols, &vals));
  }
  PetscCall(VecRestoreArrayRead(d, &dl));
  PetscCall(VecRestoreArrayRead(dg, &dn));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(ISDestroy(&is));
  PetscCall(VecDestroy(&dg));
  PetscCall(VecDestroy(&d));
  PetscCall(PetscFree(need));
  PetscCall(MPIU_Allreduce(&bad[0], &gbad[0], 1, MPIU_INT, MPI_MIN, c->comm));
  if (bad[0] != gbad[0]) bad[1] = -1;
  PetscCall(MPIU_Allreduce(&bad[1], &gbad[1], 1, MPIU_INT, MPI_MAX, c->comm));
  PetscCheck(gbad[0] == PETSC_MAX_INT, c->comm, DR_ERR_INPUT, "%s: M entry (%" PetscInt_FMT ", %" PetscInt_FMT ") (DOFs %s, %s) exceeds sqrt(M_ii M_jj): M is not positive definite, expected |M_ij| <= sqrt(M_ii M_jj)", src, gbad[0] + 1, gbad[1] + 1, DRLabelString(c->labels[gbad[0]], b1), DRLabelString(c->labels[gbad[1]], b2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentValidate(DRComponent c, PetscReal rtol)
{
  DRLabel *sorted;
  char     b[32];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Validate, 0, 0, 0, 0));
  PetscCheck(c->K && c->M, c->comm, DR_ERR_INPUT, "%s: component '%s' needs both K and M", c->source, c->name);
  PetscCheck(c->n > 0, c->comm, DR_ERR_INPUT, "%s: component '%s' has no free DOFs, expected at least one", c->source, c->name);
  PetscCall(DRLabelsSort(c->n, c->labels, &sorted, NULL));
  for (PetscInt i = 1; i < c->n; i++) PetscCheck(sorted[i] != sorted[i - 1], c->comm, DR_ERR_INPUT, "%s: DOF label %s appears twice, expected one row per label", c->source, DRLabelString(sorted[i], b));
  for (PetscInt i = 0; i < c->n; i++) PetscCheck(DRLabelDir(sorted[i]) >= 0 && DRLabelDir(sorted[i]) <= 6 && DRLabelNode(sorted[i]) >= 0, c->comm, DR_ERR_INPUT, "%s: DOF label %s is invalid, expected node >= 0 and direction 1..6 (0: a scalar point)", c->source, DRLabelString(sorted[i], b));
  PetscCall(PetscFree(sorted));
  PetscCall(CheckMatrix(c, c->K, "K", PETSC_FALSE, rtol));
  PetscCall(CheckMatrix(c, c->M, "M", PETSC_TRUE, rtol));
  PetscCall(CheckMassMinors(c, c->msource[0] ? c->msource : c->source));
  if (c->D) PetscCall(CheckMatrix(c, c->D, "D", PETSC_FALSE, rtol));
  for (PetscInt i = 1; i < c->nnodes; i++) PetscCheck(c->node_ids[i] > c->node_ids[i - 1], c->comm, DR_ERR_INPUT, "%s: node %" PetscInt_FMT " is defined twice (or nodes unsorted), expected unique node ids", c->source, c->node_ids[i]);
  for (PetscInt i = 0; i < 3 * c->nnodes; i++) PetscCheck(isfinite(c->xyz[i]), c->comm, DR_ERR_INPUT, "%s: node %" PetscInt_FMT " has a non-finite coordinate", c->source, c->node_ids[i / 3]);
  if (c->celltype == DR_CELL_MIXED) { /* rows of include/dynred/store.h */
    PetscInt nv = DRCellNodes(c->celltype);
    for (PetscInt e = 0; e < c->ncells; e++) {
      const PetscInt *row = c->cells + e * nv;
      DRCellType      t   = (DRCellType)(-row[0]);
      PetscCheck(row[0] < 0 && t < DR_CELL_MIXED, c->comm, DR_ERR_INPUT, "%s: element %" PetscInt_FMT " of the mixed mesh has cell type code %" PetscInt_FMT ", expected -1..-%d", c->source, e + 1, row[0], (int)DR_CELL_MIXED - 1);
      for (PetscInt k = 1; k < nv; k++) {
        if (k > DRCellNodes(t)) PetscCheck(row[k] == -1, c->comm, DR_ERR_INPUT, "%s: element %" PetscInt_FMT " of the mixed mesh (%s) has entry %" PetscInt_FMT " = %" PetscInt_FMT " after its %" PetscInt_FMT " nodes, expected -1", c->source, e + 1, DRCellName(t), k + 1, row[k], DRCellNodes(t));
        else PetscCheck(DRComponentFindNode(c, row[k]) >= 0, c->comm, DR_ERR_INPUT, "%s: element %" PetscInt_FMT " refers to node %" PetscInt_FMT ", which has no coordinates", c->source, e + 1, row[k]);
      }
    }
  } else {
    PetscInt nv = DRCellNodes(c->celltype);
    for (PetscInt e = 0; e < c->ncells; e++)
      for (PetscInt k = 0; k < nv; k++) PetscCheck(DRComponentFindNode(c, c->cells[e * nv + k]) >= 0, c->comm, DR_ERR_INPUT, "%s: element %" PetscInt_FMT " refers to node %" PetscInt_FMT ", which has no coordinates", c->source, e + 1, c->cells[e * nv + k]);
  }
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Validate, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Add the rows of component matrix A (rows mapped by map[]) into G. */
static PetscErrorCode AddMapped(Mat G, Mat A, const PetscInt map[])
{
  PetscInt           rs, re, ncols, cap = 0, *gcols = NULL;
  const PetscInt    *cols;
  const PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscInt gi = map[i];
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    if (ncols > cap) {
      PetscCall(PetscFree(gcols));
      cap = 2 * ncols;
      PetscCall(PetscMalloc1(cap, &gcols));
    }
    for (PetscInt k = 0; k < ncols; k++) gcols[k] = map[cols[k]];
    PetscCall(MatSetValues(G, 1, &gi, ncols, gcols, vals, ADD_VALUES));
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
  }
  PetscCall(PetscFree(gcols));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Assemble one of K/M/D (which = 0, 1, 2) of all components into *G. */
static PetscErrorCode AssembleOne(MPI_Comm comm, PetscInt N, PetscInt ncomp, DRComponent comps[], PetscInt *maps[], int which, Mat *G)
{
  Mat prealloc;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, &prealloc));
  PetscCall(MatSetSizes(prealloc, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(prealloc, MATPREALLOCATOR));
  PetscCall(MatSetUp(prealloc));
  for (int pass = 0; pass < 2; pass++) {
    Mat T = pass ? *G : prealloc;
    for (PetscInt c = 0; c < ncomp; c++) {
      Mat A = which == 0 ? comps[c]->K : which == 1 ? comps[c]->M : comps[c]->D;
      if (A) PetscCall(AddMapped(T, A, maps[c]));
    }
    PetscCall(MatAssemblyBegin(T, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(T, MAT_FINAL_ASSEMBLY));
    if (!pass) {
      PetscCall(MatCreate(comm, G));
      PetscCall(MatSetSizes(*G, PETSC_DECIDE, PETSC_DECIDE, N, N));
      PetscCall(MatSetType(*G, MATAIJ));
      PetscCall(MatPreallocatorPreallocate(prealloc, PETSC_TRUE, *G));
    }
  }
  PetscCall(MatDestroy(&prealloc));
  PetscCall(MatSetOption(*G, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*G, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentAssemble(MPI_Comm comm, const char *name, PetscInt ncomp, DRComponent comps[], DRComponent *full)
{
  DRComponent F;
  PetscInt    ntot = 0, nn = 0, **maps, nv = 0;
  DRLabel    *all;
  PetscBool   hasD = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Assemble, 0, 0, 0, 0));
  PetscCall(DRComponentCreate(comm, name, &F));
  PetscCall(PetscSNPrintf(F->source, sizeof(F->source), "assembly of %" PetscInt_FMT " components", ncomp));
  for (PetscInt c = 0; c < ncomp; c++) {
    ntot += comps[c]->n;
    nn += comps[c]->nnodes;
    if (comps[c]->D) hasD = PETSC_TRUE;
  }
  {
    PetscInt       *nlab;
    const DRLabel **lab;
    PetscInt64      node;
    PetscInt        ka, kb;
    PetscBool       gen;
    PetscCall(PetscMalloc2(ncomp, &nlab, ncomp, &lab));
    for (PetscInt c = 0; c < ncomp; c++) {
      nlab[c] = comps[c]->n;
      lab[c]  = comps[c]->labels;
    }
    PetscCall(DRLabelsFindExpandedShared(ncomp, nlab, lab, &node, &ka, &kb, &gen));
    PetscCall(PetscFree2(nlab, lab));
    PetscCheck(node < 0 || !gen, comm, DR_ERR_INPUT, "%s and %s: node %" PetscInt64_FMT " is in both, but in %s it is a node CalculiX generated (not in its deck's *NODE: an element's internal node, or a rotation node not tied to a knot), whose rows are no translations of a node, expected shared nodes defined in every deck", comps[ka]->source, comps[kb]->source, node, comps[ka]->source);
    PetscCheck(node < 0, comm, DR_ERR_INPUT, "%s and %s: node %" PetscInt64_FMT " is in both, and %s has several rows per label there (a CalculiX node of a shell, beam or 2-D element, expanded), expected the rows of shared nodes to match one-to-one by label: couple through nodes of solid elements", comps[ka]->source, comps[kb]->source, node, comps[ka]->source);
  }
  /* Global DOFs: sorted union of labels. */
  PetscCall(PetscMalloc1(ntot + 1, &all));
  ntot = 0;
  for (PetscInt c = 0; c < ncomp; c++) {
    PetscCall(PetscArraycpy(all + ntot, comps[c]->labels, comps[c]->n));
    ntot += comps[c]->n;
  }
  PetscCall(PetscSortInt64(ntot, all));
  {
    PetscInt k = 0;
    for (PetscInt i = 0; i < ntot; i++)
      if (!k || all[i] != all[k - 1]) all[k++] = all[i];
    ntot = k;
  }
  F->n      = ntot;
  F->labels = all;
  PetscCall(PetscMalloc1(ncomp, &maps));
  for (PetscInt c = 0; c < ncomp; c++) {
    PetscCall(PetscMalloc1(comps[c]->n + 1, &maps[c]));
    for (PetscInt i = 0; i < comps[c]->n; i++) maps[c][i] = DRLabelsFind(ntot, all, comps[c]->labels[i]);
  }
  PetscCall(AssembleOne(comm, ntot, ncomp, comps, maps, 0, &F->K));
  PetscCall(AssembleOne(comm, ntot, ncomp, comps, maps, 1, &F->M));
  if (hasD) PetscCall(AssembleOne(comm, ntot, ncomp, comps, maps, 2, &F->D));
  for (PetscInt c = 0; c < ncomp; c++) PetscCall(PetscFree(maps[c]));
  PetscCall(PetscFree(maps));

  /* Geometry: nodes merged by id (first coordinates win), cells appended
   * when every component has the same cell type. */
  if (nn) {
    PetscInt *ids, *perm, k = 0;
    PetscReal *xyz;
    PetscCall(PetscMalloc1(nn, &ids));
    PetscCall(PetscMalloc1(nn, &perm));
    PetscCall(PetscMalloc1(3 * nn, &xyz));
    nn = 0;
    for (PetscInt c = 0; c < ncomp; c++)
      for (PetscInt i = 0; i < comps[c]->nnodes; i++) {
        ids[nn]  = comps[c]->node_ids[i];
        perm[nn] = nn;
        for (int d = 0; d < 3; d++) xyz[3 * nn + d] = comps[c]->xyz[3 * i + d];
        nn++;
      }
    PetscCall(PetscSortIntWithArray(nn, ids, perm));
    PetscCall(PetscMalloc1(nn, &F->node_ids));
    PetscCall(PetscMalloc1(3 * nn, &F->xyz));
    for (PetscInt i = 0; i < nn; i++) {
      if (k && F->node_ids[k - 1] == ids[i]) continue;
      F->node_ids[k] = ids[i];
      for (int d = 0; d < 3; d++) F->xyz[3 * k + d] = xyz[3 * perm[i] + d];
      k++;
    }
    F->nnodes = k;
    PetscCall(PetscFree(ids));
    PetscCall(PetscFree(perm));
    PetscCall(PetscFree(xyz));
    /* Components of different cell types give a mixed mesh; one without
     * cells (matrices only) leaves the model without cells. */
    F->celltype = comps[0]->celltype;
    for (PetscInt c = 0; c < ncomp; c++) {
      if (comps[c]->celltype == DR_CELL_NONE || !comps[c]->ncells) {
        F->celltype = DR_CELL_NONE;
        break;
      }
      if (comps[c]->celltype != F->celltype) F->celltype = DR_CELL_MIXED;
    }
    if (F->celltype != DR_CELL_NONE) {
      nv = DRCellNodes(F->celltype);
      for (PetscInt c = 0; c < ncomp; c++) F->ncells += comps[c]->ncells;
      PetscCall(PetscMalloc1(F->ncells * nv + 1, &F->cells));
      k = 0;
      for (PetscInt c = 0; c < ncomp; c++) {
        PetscInt cnv = DRCellNodes(comps[c]->celltype);
        if (comps[c]->celltype == F->celltype) PetscCall(PetscArraycpy(F->cells + k, comps[c]->cells, comps[c]->ncells * nv));
        else /* rows of DR_CELL_MIXED (include/dynred/store.h) */
          for (PetscInt e = 0; e < comps[c]->ncells; e++) {
            PetscInt *row = F->cells + k + e * nv;
            row[0]        = -(PetscInt)comps[c]->celltype;
            for (PetscInt a = 0; a < nv - 1; a++) row[1 + a] = a < cnv ? comps[c]->cells[e * cnv + a] : -1;
          }
        k += comps[c]->ncells * nv;
      }
    }
  }
  for (PetscInt c = 0; c < ncomp; c++)
    for (PetscInt s = 0; s < comps[c]->nsets; s++) PetscCall(DRComponentAddNodeSet(F, comps[c]->sets[s].name, comps[c]->sets[s].n, comps[c]->sets[s].nodes));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Assemble, 0, 0, 0, 0));
  *full = F;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentTranslationalMass(DRComponent c, PetscInt dir, PetscReal *mass)
{
  Vec      u, Mu;
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(c->M, &u, &Mu));
  PetscCall(VecGetOwnershipRange(u, &rs, &re));
  for (PetscInt i = rs; i < re; i++) PetscCall(VecSetValue(u, i, DRLabelDir(c->labels[i]) == dir ? 1.0 : 0.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscCall(MatMult(c->M, u, Mu));
  PetscCall(VecDot(u, Mu, mass));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&Mu));
  PetscFunctionReturn(PETSC_SUCCESS);
}
