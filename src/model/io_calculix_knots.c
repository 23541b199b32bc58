/* CalculiX's knots and generated nodes in a component read from JOB.dof:
 * the rows CalculiX adds for a node where beams meet shells relabelled as the
 * knot's rotations and dilatations, every other generated node tagged, so
 * that components cut through knots couple by label (io_calculix.c reads
 * the matrices and the deck; DESIGN.md "CalculiX expanded elements"). */
#include "io_impl.h"
#include <stdint.h>
#include <stdlib.h>

/* Where a shell or beam node carries rotations (beams meeting shells, shells
 * meeting at an angle) CalculiX makes it a knot: the node's expanded nodes
 * follow, by MPCs it eliminates, the node's translations (rows n.1-3), a
 * rotation node r (rows r.1-3: the rotation vector about x, y, z) and an
 * expansion node r + 1 (1 to 3 rows: dilatations of the knot).  r and r + 1
 * are ids above the deck's largest, given in ascending order of the knot
 * nodes (ccx 2.20), so two decks number the same knot differently and JOB.dof
 * does not say which knot they belong to.  They have exactly the row pattern
 * of the knot node: every element on the knot couples all of their rows.  So
 * in a group of nodes with one common pattern, k deck nodes with exactly
 * rows n.1-3 and k generated rotation nodes (rows r.1-3, each followed by
 * its r + 1) are knots, paired in ascending order; nodes with
 * copies (plain expanded nodes) may share the pattern and are not candidates.
 * r.d becomes n.(3+d) (rotations of n) and (r+1).d becomes n.0 with
 * DR_LABEL_DILATATION | d in its copy bits: labels every other deck of the
 * same structure gives the same knot.  Every other generated node (C3D8I
 * internal nodes, a knot not found) keeps its id with DR_LABEL_GENERATED in
 * its copy bits, so it is never taken for a node of another component.  Row
 * patterns are compared by a 64-bit hash of their column sets. */
static uint64_t Mix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

typedef struct {
  PetscInt64  node;
  PetscInt    dir, copy, row;
} CcxRow;

static int cmp_ccxrow(const void *a, const void *b)
{
  const CcxRow *x = (const CcxRow *)a, *y = (const CcxRow *)b;
  if (x->node != y->node) return x->node < y->node ? -1 : 1;
  if (x->dir != y->dir) return x->dir < y->dir ? -1 : 1;
  return (x->copy > y->copy) - (x->copy < y->copy);
}

/* One node's rows: kind 3 = exactly n.1 n.2 n.3, kind 1 = exactly n.1,
 * 0 = other; uniform = all its rows have one pattern. */
typedef struct {
  uint64_t hash;
  PetscInt64  node;
  PetscInt    first, nrows, kind;
  PetscBool   generated;
} CcxNode;

static int cmp_ccxnode(const void *a, const void *b)
{
  const CcxNode *x = (const CcxNode *)a, *y = (const CcxNode *)b;
  if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
  return (x->node > y->node) - (x->node < y->node);
}

PetscErrorCode DRCcxKnots(DRComponent C)
{
  PetscInt     n = C->n, rs, re, nn = 0;
  uint64_t *hloc, *hash;
  PetscMPIInt  size, *cnt, *disp;
  CcxRow      *rows;
  CcxNode     *nodes;

  PetscFunctionBeginUser;
  if (!C->nnodes) PetscFunctionReturn(PETSC_SUCCESS); /* no deck: no node list to tell generated ids */
  PetscCall(MatGetOwnershipRange(C->K, &rs, &re));
  PetscCall(PetscMalloc1(re - rs + 1, &hloc));
  for (PetscInt i = rs; i < re; i++) {
    PetscInt        nc;
    const PetscInt *cols;
    uint64_t     h = 0;
    PetscCall(MatGetRow(C->K, i, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++) h += Mix64((uint64_t)cols[k]);
    PetscCall(MatRestoreRow(C->K, i, &nc, &cols, NULL));
    hloc[i - rs] = h;
  }
  PetscCallMPI(MPI_Comm_size(C->comm, &size));
  PetscCall(PetscMalloc3(n + 1, &hash, size, &cnt, size, &disp));
  {
    PetscMPIInt mine = (PetscMPIInt)(re - rs);
    PetscCallMPI(MPI_Allgather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, C->comm));
    disp[0] = 0;
    for (PetscMPIInt r = 1; r < size; r++) disp[r] = disp[r - 1] + cnt[r - 1];
    PetscCallMPI(MPI_Allgatherv(hloc, mine, MPI_UINT64_T, hash, cnt, disp, MPI_UINT64_T, C->comm));
  }
  PetscCall(PetscFree(hloc));
  /* rows grouped by node (every rank the same, from the same data) */
  PetscCall(PetscMalloc2(n + 1, &rows, n + 1, &nodes));
  for (PetscInt i = 0; i < n; i++) {
    rows[i].node = DRLabelNode(C->labels[i]);
    rows[i].dir  = DRLabelDir(C->labels[i]);
    rows[i].copy = DRLabelCopy(C->labels[i]);
    rows[i].row  = i;
  }
  qsort(rows, (size_t)n, sizeof(*rows), cmp_ccxrow);
  for (PetscInt i = 0; i < n;) {
    PetscInt  j = i, loc;
    PetscBool uniform = PETSC_TRUE, plain = PETSC_TRUE;
    for (; j < n && rows[j].node == rows[i].node; j++) {
      if (hash[rows[j].row] != hash[rows[i].row]) uniform = PETSC_FALSE;
      if (rows[j].copy || rows[j].dir < 1 || rows[j].dir > 3 || (j > i && rows[j].dir == rows[j - 1].dir)) plain = PETSC_FALSE;
    }
    PetscCall(PetscFindInt((PetscInt)rows[i].node, C->nnodes, C->node_ids, &loc));
    nodes[nn].hash      = uniform ? hash[rows[i].row] : 0;
    nodes[nn].node      = rows[i].node;
    nodes[nn].first     = i;
    nodes[nn].nrows     = j - i;
    nodes[nn].kind      = uniform && plain ? (j - i == 3 ? 3 : 1) : 0;
    nodes[nn].generated = loc < 0 ? PETSC_TRUE : PETSC_FALSE;
    nn++;
    i = j;
  }
  qsort(nodes, (size_t)nn, sizeof(*nodes), cmp_ccxnode);
  for (PetscInt i = 0; i < nn;) {
    PetscInt j = i, nk = 0, nr = 0, other = 0, kn[64], rn[64], en[64];
    for (; j < nn && nodes[j].hash == nodes[i].hash; j++) {
      if (!nodes[j].generated && nodes[j].kind == 3) {
        if (nk < 64) kn[nk] = j;
        nk++;
      } /* deck nodes with copies (plain expanded nodes) may share the pattern: not candidates */
    }
    /* generated nodes of the class, ascending: a rotation node (r.1-3), then
     * its expansion node r + 1 when there is one */
    for (PetscInt g = i; g < j; g++) {
      if (!nodes[g].generated || nodes[g].kind == -1) continue;
      if (nodes[g].kind != 3 || nr >= 64) {
        other++;
        continue;
      }
      rn[nr] = g;
      en[nr] = -1;
      for (PetscInt h = g + 1; h < j; h++)
        if (nodes[h].generated && nodes[h].node == nodes[g].node + 1 && nodes[h].kind > 0) en[nr] = h;
      if (en[nr] >= 0) nodes[en[nr]].kind = -1; /* taken */
      nr++;
    }
    for (PetscInt k = 0; k < PetscMin(nr, 64); k++)
      if (en[k] < 0) other++; /* every knot has its expansion node; C3D8I's internal triples do not pair up so */
    if (nodes[i].hash && nk >= 1 && nk == nr && nk <= 64 && !other)
      for (PetscInt k = 0; k < nk; k++) {
        PetscInt64 knot = nodes[kn[k]].node;
        for (PetscInt d = 0; d < 3; d++) C->labels[rows[nodes[rn[k]].first + d].row] = DRLabelMake(knot, 4 + d);
        nodes[rn[k]].generated = PETSC_FALSE;
        {
          CcxNode *e = &nodes[en[k]];
          for (PetscInt d = 0; d < e->nrows; d++) C->labels[rows[e->first + d].row] = DRLabelWithCopy(DRLabelMake(knot, 0), DR_LABEL_DILATATION | rows[e->first + d].dir);
          e->generated = PETSC_FALSE;
        }
      }
    i = j;
  }
  for (PetscInt i = 0; i < nn; i++)
    if (nodes[i].generated)
      for (PetscInt k = 0; k < nodes[i].nrows; k++) {
        DRLabel *l = &C->labels[rows[nodes[i].first + k].row];
        *l         = DRLabelWithCopy(*l, DRLabelCopy(*l) | DR_LABEL_GENERATED);
      }
  PetscCall(PetscFree2(rows, nodes));
  PetscCall(PetscFree3(hash, cnt, disp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
