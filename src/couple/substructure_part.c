/* Automatic substructuring, the graph side (see substructure.c): the node
 * graph of the full model on world rank 0 and its partition into N parts.
 *
 * The partition must not depend on the run: the same model gives the same
 * components on any number of ranks and in every run (tests assert 1, 2, 3
 * ranks agree to 1e-8).  PTScotch through MatPartitioning (Debian's
 * PETSc 3.18 + Scotch 7.0.3) did not give that: on the same graph it
 * returned mirrored partitions of a plate in different runs (the clock-seeded
 * generator; reseeding it with SCOTCH_randomSeed/SCOTCH_randomReset did not
 * help, Scotch's threaded algorithms are not deterministic either).  So the
 * partition is our own recursive bisection, sequential on rank 0:
 *   - with node coordinates (built-in models, CalculiX decks): recursive
 *     coordinate bisection, each cut normal to the subset's longest extent,
 *     at the weighted median snapped to the nearest plane of equal
 *     coordinate (straight cuts, a small separator on plates and solids);
 *   - without (Matrix Market): recursive level-set bisection of the graph,
 *     breadth-first from a pseudo-peripheral node, the cut on the level
 *     boundary nearest the weighted median.
 * N parts: floor(N/2) and ceil(N/2) parts on the two sides, weights in that
 * ratio; vertex weight = the DOFs of the node. */
#include "substructureimpl.h"

typedef struct {
  PetscInt u, v;
} Pair;

static int cmp_pair(const void *a, const void *b)
{
  const Pair *x = (const Pair *)a, *y = (const Pair *)b;
  if (x->u != y->u) return x->u < y->u ? -1 : 1;
  return (x->v > y->v) - (x->v < y->v);
}

static size_t UniquePairs(Pair *p, size_t n)
{
  size_t k = 0;
  qsort(p, n, sizeof(*p), cmp_pair);
  for (size_t i = 0; i < n; i++)
    if (!k || p[i].u != p[k - 1].u || p[i].v != p[k - 1].v) p[k++] = p[i];
  return k;
}

/* Nodes of the full model (sorted ids) and the row -> node map (all ranks:
 * the labels are replicated). */
PetscErrorCode DRSubNodeMap(DRSubstructure s)
{
  const DRLabel *lab;
  PetscInt64    *ids;
  PetscInt       n, k = 0;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetLabels(s->full, &n, &lab));
  PetscCall(PetscMalloc1(n + 1, &ids));
  for (PetscInt i = 0; i < n; i++) ids[i] = DRLabelNode(lab[i]);
  PetscCall(PetscSortInt64(n, ids));
  for (PetscInt i = 0; i < n; i++)
    if (!k || ids[i] != ids[k - 1]) ids[k++] = ids[i];
  s->n      = n;
  s->nnodes = k;
  PetscCall(PetscMalloc1(n + 1, &s->dofnode));
  PetscCall(PetscCalloc1(k + 1, &s->ndof));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt64 node = DRLabelNode(lab[i]);
    PetscInt   lo = 0, hi = k - 1;
    while (lo < hi) {
      PetscInt mid = (lo + hi) / 2;
      if (ids[mid] < node) lo = mid + 1;
      else hi = mid;
    }
    s->dofnode[i] = lo;
    s->ndof[lo]++;
  }
  s->nodeid = ids; /* the first k entries */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Node pairs of my rows of A appended to *p (deduplicated as it grows).
 * mark[v] == u: the pair (u, v) was appended already (mark[] is set only
 * when a pair is appended, so a skip never loses one); the DOF rows of a
 * node come one after the other, so its DOFs' rows and the DOFs of each
 * neighbour add every node pair once instead of (DOFs per node)^2 times
 * (a hex8 solid: 9 times per matrix, 16M pairs for the 200k-DOF plate,
 * sorted by qsort: 2-3 s of the serial setup). */
static PetscErrorCode AddPairs(Mat A, const PetscInt dofnode[], PetscInt mark[], Pair **p, size_t *np, size_t *cap)
{
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt r = rs; r < re; r++) {
    PetscInt        nc;
    const PetscInt *cols;
    PetscCall(MatGetRow(A, r, &nc, &cols, NULL));
    if (*np + (size_t)nc > *cap) {
      *np = UniquePairs(*p, *np);
      if (*np + (size_t)nc > *cap / 2) {
        *cap = 2 * (*cap + (size_t)nc);
        PetscCall(PetscRealloc(sizeof(Pair) * (*cap), p));
      }
    }
    for (PetscInt j = 0; j < nc; j++) {
      PetscInt u = dofnode[r], v = dofnode[cols[j]];
      if (u != v && mark[v] != u) {
        mark[v]         = u;
        (*p)[*np].u     = u;
        (*p)[(*np)++].v = v;
      }
    }
    PetscCall(MatRestoreRow(A, r, &nc, &cols, NULL));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The node graph (patterns of K and M, symmetrized) on world rank 0. */
PetscErrorCode DRSubGatherGraph(DRSubstructure s, MPI_Comm comm)
{
  Mat          K, M;
  Pair        *p   = NULL;
  size_t       np  = 0, cap = 1 << 16;
  PetscMPIInt  rank, size, cnt, *counts = NULL, *displs = NULL;
  PetscInt    *all = NULL, ntot = 0, *mark;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(DRComponentGetOperators(s->full, &K, &M, NULL));
  PetscCall(PetscMalloc1(cap, &p));
  PetscCall(PetscMalloc1(s->nnodes + 1, &mark));
  for (PetscInt v = 0; v < s->nnodes; v++) mark[v] = -1;
  PetscCall(AddPairs(K, s->dofnode, mark, &p, &np, &cap));
  PetscCall(AddPairs(M, s->dofnode, mark, &p, &np, &cap));
  PetscCall(PetscFree(mark));
  np  = UniquePairs(p, np);
  cnt = (PetscMPIInt)(2 * np);
  if (!rank) PetscCall(PetscMalloc2(size, &counts, size + 1, &displs));
  PetscCallMPI(MPI_Gather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, comm));
  if (!rank) {
    displs[0] = 0;
    for (PetscMPIInt r = 0; r < size; r++) displs[r + 1] = displs[r] + counts[r];
    ntot = displs[size] / 2;
    PetscCall(PetscMalloc1(2 * ntot + 1, &all));
  }
  PetscCallMPI(MPI_Gatherv((PetscInt *)p, cnt, MPIU_INT, all, counts, displs, MPIU_INT, 0, comm));
  PetscCall(PetscFree(p));
  if (!rank) {
    PetscInt *fill;
    PetscCall(PetscCalloc1(s->nnodes + 1, &s->xadj));
    for (PetscInt e = 0; e < ntot; e++) {
      s->xadj[all[2 * e] + 1]++;
      s->xadj[all[2 * e + 1] + 1]++;
    }
    for (PetscInt u = 0; u < s->nnodes; u++) s->xadj[u + 1] += s->xadj[u];
    PetscCall(PetscMalloc1(s->xadj[s->nnodes] + 1, &s->adj));
    PetscCall(PetscMalloc1(s->nnodes + 1, &fill));
    PetscCall(PetscArraycpy(fill, s->xadj, s->nnodes));
    for (PetscInt e = 0; e < ntot; e++) {
      s->adj[fill[all[2 * e]]++]     = all[2 * e + 1];
      s->adj[fill[all[2 * e + 1]]++] = all[2 * e];
    }
    /* sort and deduplicate every row, compacting in place */
    {
      PetscInt k = 0, start = 0;
      for (PetscInt u = 0; u < s->nnodes; u++) {
        PetscInt len = s->xadj[u + 1] - start, *row = s->adj + start;
        PetscCall(PetscSortRemoveDupsInt(&len, row));
        start = s->xadj[u + 1];
        PetscCall(PetscArraymove(s->adj + k, row, len));
        s->xadj[u] = k;
        k += len;
      }
      s->xadj[s->nnodes] = k;
    }
    PetscCall(PetscFree(fill));
    PetscCall(PetscFree(all));
    PetscCall(PetscFree2(counts, displs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscReal key;
  PetscInt  u;
} KeyNode;

static int cmp_keynode(const void *a, const void *b)
{
  const KeyNode *x = (const KeyNode *)a, *y = (const KeyNode *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->u > y->u) - (x->u < y->u);
}

/* Position of the cut in keys[0..n) (sorted): the boundary between two
 * different keys whose weight before it is nearest to target; 1..n-1. */
static PetscInt SnapCut(const KeyNode t[], PetscInt n, const PetscInt w[], PetscReal target)
{
  PetscReal acc = 0, bestd = PETSC_MAX_REAL;
  PetscInt  best = n / 2 > 0 ? n / 2 : 1;

  for (PetscInt i = 0; i + 1 < n; i++) {
    acc += (PetscReal)w[t[i].u];
    if (t[i + 1].key != t[i].key && PetscAbsReal(acc - target) < bestd) {
      bestd = PetscAbsReal(acc - target);
      best  = i + 1;
    }
  }
  return best;
}

typedef struct {
  DRSubstructure s;
  const PetscReal *xyz; /* 3 per node index, or NULL: graph bisection */
  PetscInt        *part, *dist, *queue;
  KeyNode         *t;
} Bisect;

/* Breadth-first search within the nodes with dist[] == -1 from root (and
 * from the next unvisited node of list[] when a piece ends); t[] gets the
 * order with key = level.  Returns the last node reached. */
static PetscInt BFS(Bisect *b, const PetscInt list[], PetscInt n, PetscInt root)
{
  PetscInt head = 0, tail = 0, next = 0, last = root;

  for (PetscInt i = 0; i < n; i++) b->dist[list[i]] = -1;
  while (tail < n) {
    if (head == tail) {
      while (b->dist[list[next]] >= 0) next++;
      if (tail > 0) root = list[next];
      b->dist[root]    = tail > 0 ? b->dist[b->queue[tail - 1]] + 1 : 0;
      b->queue[tail++] = root;
    }
    PetscInt u = b->queue[head++];
    last       = u;
    for (PetscInt j = b->s->xadj[u]; j < b->s->xadj[u + 1]; j++) {
      PetscInt v = b->s->adj[j];
      if (b->dist[v] == -1) {
        b->dist[v]       = b->dist[u] + 1;
        b->queue[tail++] = v;
      }
    }
  }
  for (PetscInt i = 0; i < n; i++) {
    b->t[i].u   = b->queue[i];
    b->t[i].key = (PetscReal)b->dist[b->queue[i]];
  }
  return last;
}

/* list[0..n) (ascending node indices; dist[] of them free) into nparts
 * parts p0.. */
static PetscErrorCode BisectRecursive(Bisect *b, PetscInt *list, PetscInt n, PetscInt nparts, PetscInt p0)
{
  DRSubstructure s  = b->s;
  PetscInt       n1 = nparts / 2, k;
  PetscReal      W  = 0;

  PetscFunctionBeginUser;
  if (nparts == 1 || n < 2) {
    for (PetscInt i = 0; i < n; i++) b->part[list[i]] = p0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt i = 0; i < n; i++) W += (PetscReal)s->ndof[list[i]];
  if (b->xyz) {
    PetscReal lo[3], hi[3];
    int       axis = 0;
    for (int d = 0; d < 3; d++) lo[d] = hi[d] = b->xyz[3 * list[0] + d];
    for (PetscInt i = 1; i < n; i++)
      for (int d = 0; d < 3; d++) {
        lo[d] = PetscMin(lo[d], b->xyz[3 * list[i] + d]);
        hi[d] = PetscMax(hi[d], b->xyz[3 * list[i] + d]);
      }
    for (int d = 1; d < 3; d++)
      if (hi[d] - lo[d] > hi[axis] - lo[axis]) axis = d;
    for (PetscInt i = 0; i < n; i++) {
      b->t[i].u   = list[i];
      b->t[i].key = b->xyz[3 * list[i] + axis];
    }
    qsort(b->t, (size_t)n, sizeof(*b->t), cmp_keynode);
  } else {
    /* pseudo-peripheral root: restart from a far node of least degree
     * while the depth grows (George and Liu) */
    PetscInt root = list[0], depth = -1;
    for (int it = 0; it < 8; it++) {
      PetscInt last = BFS(b, list, n, root), far = last, d = b->dist[last];
      if (d <= depth) break;
      depth = d;
      for (PetscInt i = n - 1; i >= 0 && b->t[i].key == (PetscReal)d; i--) {
        PetscInt u = b->t[i].u, du = s->xadj[u + 1] - s->xadj[u], df = s->xadj[far + 1] - s->xadj[far];
        if (du < df || (du == df && u < far)) far = u;
      }
      root = far;
    }
    (void)BFS(b, list, n, root);
  }
  k = SnapCut(b->t, n, s->ndof, W * (PetscReal)n1 / (PetscReal)nparts);
  for (PetscInt i = 0; i < n; i++) list[i] = b->t[i].u;
  PetscCall(PetscSortInt(k, list));
  PetscCall(PetscSortInt(n - k, list + k));
  PetscCall(BisectRecursive(b, list, k, n1, p0));
  PetscCall(BisectRecursive(b, list + k, n - k, nparts - n1, p0 + n1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSubPartition(DRSubstructure s, PetscInt N, PetscInt part[])
{
  Bisect           b;
  PetscInt        *list, nn = s->nnodes, ngeo;
  const PetscInt  *ids;
  const PetscReal *gxyz;
  PetscReal       *xyz = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetGeometry(s->full, &ngeo, &ids, &gxyz));
  if (ngeo > 0) {
    PetscCall(PetscMalloc1(3 * nn + 1, &xyz));
    for (PetscInt u = 0; u < nn && xyz; u++) {
      PetscInt g = DRComponentFindNode(s->full, s->nodeid[u]);
      if (g < 0) PetscCall(PetscFree(xyz)); /* a node without coordinates: use the graph */
      else
        for (int d = 0; d < 3; d++) xyz[3 * u + d] = gxyz[3 * g + d];
    }
  }
  b.s   = s;
  b.xyz = xyz;
  b.part = part;
  PetscCall(PetscMalloc4(nn + 1, &list, nn + 1, &b.dist, nn + 1, &b.queue, nn + 1, &b.t));
  for (PetscInt u = 0; u < nn; u++) list[u] = u;
  PetscCall(BisectRecursive(&b, list, nn, N, 0));
  PetscCall(PetscFree4(list, b.dist, b.queue, b.t));
  PetscCall(PetscFree(xyz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
