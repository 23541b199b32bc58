/* Automatic substructuring: a model that arrives as ONE
 * component (a built-in model without a cut, one CalculiX deck, one Matrix
 * Market pair) is split algebraically into N subdomains and a separator,
 * and the CMS pipeline runs unchanged on those N + 1 components.
 *
 *   1. The full model is built once on the world communicator.
 *   2. Its NODE graph (DOFs grouped by node, edges from the patterns of K
 *      and M) is gathered to world rank 0 and partitioned there, sequentially,
 *      by PTScotch (MatPartitioning on PETSC_COMM_SELF, vertex weight = DOFs
 *      of the node); the part of every node is broadcast.  The graph and the
 *      partitioner do not depend on the number of ranks, so neither do the
 *      components (tests/e2e/cms_partition.sh: 1, 2, 3 ranks agree to 1e-8).
 *   3. Vertex separator: a node of part p with a neighbour in a part q > p
 *      goes to the separator.  Every edge between two parts then has an end
 *      in the separator: subdomain interiors do not couple directly.
 *   4. Subdomain i = its interior nodes' DOFs plus the separator DOFs
 *      adjacent to them, with the blocks K_ii, K_iS, K_Si and a ZERO K_SS
 *      (the same for M); the component `separator` = all separator DOFs
 *      with the full K_SS, M_SS.  Assembled by label, the N + 1 components
 *      give back K and M exactly.  The separator DOFs of a subdomain are its
 *      boundary (shared labels), so Craig-Bampton only factors K_ii, a
 *      principal submatrix of K (definite); the indefinite subdomain
 *      matrices are never checked by DRComponentValidate (they are built
 *      here, not by a reader).  Free-interface methods would need the
 *      subdomain's own free modes, which a zero K_SS block does not have:
 *      substructured components always use craig-bampton (one log line when
 *      cms.method asked for another).
 *   5. Each world rank takes the rows it will own of its group's components
 *      (MatCreateSubMatrices on the world matrices, collective on world,
 *      empty index sets for the others), MatCreateMPIMatConcatenateSeqMat
 *      builds the group's matrices.  Labels and node sets go with every
 *      component, the mesh (nodes, cells) with sub1 only: the XDMF output
 *      merges the components' meshes by node id.
 *
 * Cost model (also the LPT costs of the group assignment, partition.c), per
 * component with n DOFs, nb boundary DOFs, nI = n - nb interior, nnz(K)
 * entries (nnz_I = nnz nI / n of them in K_II), m expected kept modes and
 * nsys = cms.nmodes system modes; the unit is about 1 ns of one core:
 *   L      = nnz_I max(1, log2(nI) / 4)        entries of the Cholesky factor of K_II
 *   cost   = 2 L^2 / nI                        factorizations (K_II; the inertia count)
 *          + 6 L (m + 10)                      eigensolve (block shift-invert solves)
 *          + 2 nI (m + 10)^2                   its orthogonalization
 *          + 0.3 L nb                          constraint modes: one block solve
 *          + 0.15 nI (m + r)^2                 projection on the kept modes and the
 *                                              r = min(nb, 2.5 nsys) CC modes (nb
 *                                              without interface reduction)
 *          + 2 L nsys                          the error estimate's residuals and solves
 * The root: the separator's dense pencil (S DOFs, r of its modes) and the
 * coupled system (r + sum m coordinates, nsys modes) at the operation counts
 * of DRDenseEigenOps, 0.058 ns each (DR_SUB_NS_PER_OP; without interface
 * reduction one dense solve of S + sum m).  The full-model solve, `dynred
 * modal`'s spectrum slicing, costs L^2 / n + 14 L (m + 10) + 2 n (m + 10)^2
 * with m = nsys, on all ranks (divided by their number); a component group
 * of size / g ranks runs its makespan in g / size of it.
 * m: cms.component_modes when fmax = 0; else the component's DOF share of
 * cutoff_factor * cms.nmodes (the expected system modes below fmax), plus 1.
 * Calibration (2 ranks, bench/README.md "CMS: cms.partition auto calibration", CMS wall over the modal job's):
 * the 46k-DOF plate at 20 modes, 2 / 4 / 8 subdomains: 1.14 / 1.05 / 1.20
 * predicted, 1.02 / 1.06 / 1.45 measured; at 200 modes, 2 / 4 / 8 / 16:
 * 0.78 / 0.50 / 0.42 / 0.74 predicted, 0.52-0.61 / 0.47-0.51 / 0.62-0.65 / 1.5
 * measured; the 1M plate, 200 modes, 8: 0.81 predicted, 0.66 measured (the
 * root's dense work 139 s predicted, 115 s measured; the modal job 570 s
 * predicted, 590 s measured).  So the model is good to about +-35 % where
 * it decides, and too optimistic for many small subdomains (16 of 2900 DOFs).
 *
 * `cms.partition: auto` (the default) substructures only a model of one
 * component of at least DR_SUB_MIN_DOFS DOFs.  It partitions the graph for
 * N = 2, 4, 8, ... (subdomains of at least DR_SUB_MIN_PART DOFs, at most
 * DR_SUB_MAX_PARTS), predicts each with the model above (LPT makespan over
 * the rank groups + the root) and takes the cheapest; when none is
 * predicted below DR_SUB_MARGIN (0.85) times the full-model solve, the
 * model stays one component.  The margin keeps the splits the model
 * favours by less than its error (the 46k plate at 20 modes: 1.05-1.20
 * predicted for 2-16 subdomains, kept whole).  -info prints the predicted
 * parts per N.  Below 20k DOFs the one solve takes a few seconds (the
 * 46k-DOF plate: 12 s for 20 modes) and a split cannot pay. */
#include "substructureimpl.h"
#include <dynred/eigen.h> /* DRDenseEigenOps: the root's dense cost */
#include <string.h>

/* Rank 0: separator codes from the parts; nsep DOFs; nempty parts without
 * an interior node. */
static void Separate(DRSubstructure s, PetscInt N, const PetscInt part[], PetscInt code[], PetscInt *nsep, PetscInt *nempty)
{
  PetscInt *nint = (PetscInt *)calloc((size_t)N + 1, sizeof(PetscInt));

  *nsep = *nempty = 0;
  for (PetscInt u = 0; u < s->nnodes; u++) {
    code[u] = part[u];
    for (PetscInt j = s->xadj[u]; j < s->xadj[u + 1]; j++)
      if (part[s->adj[j]] > part[u]) {
        code[u] = -1 - part[u];
        break;
      }
    if (code[u] < 0) *nsep += s->ndof[u];
    else nint[code[u]]++;
  }
  for (PetscInt p = 0; p < N; p++)
    if (!nint[p]) (*nempty)++;
  free(nint);
}

/* Rank 0: per separator node the parts whose interior it touches. */
static PetscErrorCode SeparatorAdjacency(DRSubstructure s)
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->sx));
  PetscCall(PetscFree(s->sa));
  PetscCall(PetscMalloc1(s->nnodes + 1, &s->sx));
  PetscCall(PetscMalloc1(s->xadj[s->nnodes] + 1, &s->sa));
  for (PetscInt u = 0; u < s->nnodes; u++) {
    PetscInt len = 0;
    s->sx[u]     = k;
    if (s->code[u] >= 0) continue;
    for (PetscInt j = s->xadj[u]; j < s->xadj[u + 1]; j++)
      if (s->code[s->adj[j]] >= 0) s->sa[k + len++] = s->code[s->adj[j]];
    PetscCall(PetscSortRemoveDupsInt(&len, s->sa + k));
    k += len;
  }
  s->sx[s->nnodes] = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Entries of the Cholesky factor of a matrix of n rows with nnz entries
 * (the header comment's L). */
static PetscReal FactorEntries(PetscReal nnz, PetscReal n)
{
  return nnz * PetscMax(1.0, PetscLog2Real(n) / 4);
}

/* The cost model of the header comment for one component. */
static PetscReal CompCost(DRCMS c, PetscReal n, PetscReal nb, PetscReal nnz, PetscReal m)
{
  PetscReal nI = n - nb, L, r, nsys = (PetscReal)c->nmodes;

  if (nI < 1) return nnz; /* nothing to factor: the projection is a copy */
  L = FactorEntries(nnz * nI / n, nI);
  m = PetscMin(m, nI);
  r = c->iface ? PetscMin(nb, DR_SUB_CC_PER_MODE * nsys) : nb;
  return 2 * L * L / nI + 6 * L * (m + 10) + 2 * nI * (m + 10) * (m + 10) + 0.3 * L * nb + 0.15 * nI * (m + r) * (m + r) + 2 * L * nsys;
}

/* The full-model solve (the modal job's spectrum slicing) of the header
 * comment. */
static PetscReal FullCost(PetscReal n, PetscReal nnz, PetscReal m)
{
  PetscReal L = FactorEntries(nnz, n);

  m = PetscMin(m, n);
  return L * L / n + 14 * L * (m + 10) + 2 * n * (m + 10) * (m + 10);
}

/* The root's dense work on a separator of S DOFs with summ component modes. */
static PetscReal RootCost(DRCMS c, PetscReal S, PetscReal summ)
{
  PetscReal nsys = (PetscReal)c->nmodes, r = PetscMin(S, DR_SUB_CC_PER_MODE * nsys);

  if (!c->iface) return DR_SUB_NS_PER_OP * DRDenseEigenOps((PetscInt)(S + summ), (PetscInt)nsys);
  return DR_SUB_NS_PER_OP * (DRDenseEigenOps((PetscInt)S, (PetscInt)r) + DRDenseEigenOps((PetscInt)(r + summ), (PetscInt)nsys));
}

/* Expected kept modes of a component of n DOFs (of s->n). */
static PetscReal ExpectedModes(DRCMS c, PetscReal n, PetscReal ntot)
{
  if (c->fmax <= 0) return (PetscReal)c->comp_modes;
  return c->cutoff_factor * (PetscReal)c->nmodes * n / ntot + 1;
}

/* Rank 0: sizes and costs of the N + 1 components of the current codes
 * (nc, cost may be NULL); returns the root's predicted cost. */
static PetscErrorCode ComponentCosts(DRCMS c, DRSubstructure s, PetscInt N, PetscInt nc[], PetscReal cost[], PetscReal *root)
{
  PetscReal *n, *nb, *nnz, summ = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc3(N + 1, &n, N + 1, &nb, N + 1, &nnz));
  for (PetscInt u = 0; u < s->nnodes; u++) {
    PetscReal du = (PetscReal)s->ndof[u];
    PetscInt  k  = s->code[u] >= 0 ? s->code[u] : N;
    PetscBool touches = PETSC_FALSE;
    n[k] += du;
    nnz[k] += du * du;
    for (PetscInt j = s->xadj[u]; j < s->xadj[u + 1]; j++) {
      PetscInt  v  = s->adj[j];
      PetscReal dv = (PetscReal)s->ndof[v];
      if (k < N) nnz[k] += du * dv * (s->code[v] >= 0 ? 1 : 2); /* K_ii; K_iS and K_Si */
      else if (s->code[v] < 0) nnz[N] += du * dv;               /* K_SS */
      else touches = PETSC_TRUE;
    }
    if (k == N && touches) nb[N] += du;
  }
  for (PetscInt u = 0; u < s->nnodes; u++)
    if (s->code[u] < 0)
      for (PetscInt j = s->xadj[u]; j < s->xadj[u + 1]; j++) {
        PetscInt v = s->adj[j];
        if (s->code[v] < 0) continue;
        /* counted once per (separator node, part): the first neighbour in that part */
        PetscBool seen = PETSC_FALSE;
        for (PetscInt i = s->xadj[u]; i < j && !seen; i++) seen = (PetscBool)(s->code[s->adj[i]] == s->code[v]);
        if (!seen) {
          n[s->code[v]] += s->ndof[u];
          nb[s->code[v]] += s->ndof[u];
        }
      }
  for (PetscInt k = 0; k <= N; k++) {
    PetscReal m = k < N ? ExpectedModes(c, n[k], (PetscReal)s->n) : 0;
    if (nc) nc[k] = (PetscInt)n[k];
    if (cost) cost[k] = CompCost(c, n[k], nb[k], nnz[k], m);
    summ += m;
  }
  *root = RootCost(c, n[N], summ);
  PetscCall(PetscFree3(n, nb, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: LPT makespan of the costs over g groups. */
static PetscReal Makespan(PetscInt ncomp, const PetscReal cost[], PetscInt g)
{
  PetscReal *load = (PetscReal *)calloc((size_t)g, sizeof(PetscReal)), *cs = (PetscReal *)malloc(sizeof(PetscReal) * (size_t)ncomp), mx = 0;

  for (PetscInt k = 0; k < ncomp; k++) cs[k] = cost[k];
  for (PetscInt i = 1; i < ncomp; i++)
    for (PetscInt j = i; j > 0 && cs[j] > cs[j - 1]; j--) {
      PetscReal t = cs[j];
      cs[j]       = cs[j - 1];
      cs[j - 1]   = t;
    }
  for (PetscInt k = 0; k < ncomp; k++) {
    PetscInt b = 0;
    for (PetscInt h = 1; h < g; h++)
      if (load[h] < load[b]) b = h;
    load[b] += cs[k];
  }
  for (PetscInt h = 0; h < g; h++) mx = PetscMax(mx, load[h]);
  free(load);
  free(cs);
  return mx;
}

/* Rank 0, cms.partition auto: the cheapest predicted N (0: keep one component);
 * the codes of the chosen partition in s->code. */
static PetscErrorCode ChooseAuto(DRCMS c, DRSubstructure s, PetscInt *Nbest, char *msg, size_t len)
{
  PetscReal nnz = 0, full, best = PETSC_MAX_REAL;
  PetscInt *part, *bestcode;
  size_t    l;

  PetscFunctionBeginUser;
  *Nbest = 0;
  for (PetscInt u = 0; u < s->nnodes; u++) {
    PetscReal dn = (PetscReal)s->ndof[u];
    for (PetscInt j = s->xadj[u]; j < s->xadj[u + 1]; j++) dn += (PetscReal)s->ndof[s->adj[j]];
    nnz += (PetscReal)s->ndof[u] * dn;
  }
  full = FullCost((PetscReal)s->n, nnz, (PetscReal)c->nmodes) / (PetscReal)c->size; /* the modal job on the same ranks */
  PetscCall(PetscSNPrintf(msg, len, "cms: partition auto: %" PetscInt_FMT " DOFs; predicted cost relative to one solve:", s->n));
  PetscCall(PetscMalloc2(s->nnodes + 1, &part, s->nnodes + 1, &bestcode));
  for (PetscInt N = 2; N <= DR_SUB_MAX_PARTS && s->n / N >= DR_SUB_MIN_PART && N <= s->nnodes; N *= 2) {
    PetscInt   nsep, nempty, g;
    PetscReal *cost, root, pred;
    PetscCall(DRSubPartition(s, N, part));
    Separate(s, N, part, s->code, &nsep, &nempty);
    if (nempty) break;
    PetscCall(PetscMalloc1(N + 1, &cost));
    PetscCall(ComponentCosts(c, s, N, NULL, cost, &root));
    g    = c->ngroups_opt ? c->ngroups_opt : PetscMin((PetscInt)c->size, N + 1);
    pred = Makespan(N + 1, cost, g) * (PetscReal)g / (PetscReal)c->size + root; /* a group of size / g ranks */
    PetscCall(PetscInfo(NULL, "partition auto: N=%" PetscInt_FMT ", separator %" PetscInt_FMT ": components %g s (makespan over %" PetscInt_FMT " groups), root %g s, the one solve %g s (model)\n", N, nsep, (double)(pred - root) * 1e-9, g, (double)root * 1e-9, (double)full * 1e-9));
    PetscCall(PetscFree(cost));
    PetscCall(PetscStrlen(msg, &l));
    PetscCall(PetscSNPrintf(msg + l, len - l, " N=%" PetscInt_FMT " %.2f", N, (double)(pred / full)));
    if (pred < best && pred < DR_SUB_MARGIN * full) {
      best   = pred;
      *Nbest = N;
      PetscCall(PetscArraycpy(bestcode, s->code, s->nnodes));
    }
  }
  if (*Nbest) PetscCall(PetscArraycpy(s->code, bestcode, s->nnodes));
  PetscCall(PetscStrlen(msg, &l));
  if (*Nbest) PetscCall(PetscSNPrintf(msg + l, len - l, " -> %" PetscInt_FMT " subdomains", *Nbest));
  else PetscCall(PetscSNPrintf(msg + l, len - l, " -> kept as one component"));
  PetscCall(PetscFree2(part, bestcode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* All ranks: N, the separator size, the codes and the separator adjacency
 * from rank 0. */
static PetscErrorCode Broadcast(DRSubstructure s, MPI_Comm comm)
{
  PetscMPIInt rank;
  PetscInt    nsa = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Bcast(s->code, (PetscMPIInt)s->nnodes, MPIU_INT, 0, comm));
  if (rank) PetscCall(PetscMalloc1(s->nnodes + 1, &s->sx));
  PetscCallMPI(MPI_Bcast(s->sx, (PetscMPIInt)(s->nnodes + 1), MPIU_INT, 0, comm));
  nsa = s->sx[s->nnodes];
  if (rank) PetscCall(PetscMalloc1(nsa + 1, &s->sa));
  PetscCallMPI(MPI_Bcast(s->sa, (PetscMPIInt)nsa, MPIU_INT, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the partition (given N, or chosen by the cost model), its
 * separator and the sizes and costs of the components.  info: N, the parts
 * without an interior node and, if any, the largest count that has none
 * (bisection search: the limit the error message names). */
static PetscErrorCode RootPartition(DRCMS c, DRSubstructure s, PetscInt info[3], PetscInt nc[], PetscReal cost[], char *msg, size_t len)
{
  PetscInt  nsep = 0, N = c->partition;
  PetscReal root;

  PetscFunctionBeginUser;
  if (N > 0) {
    PetscInt *part;
    PetscCall(PetscMalloc1(s->nnodes + 1, &part));
    PetscCall(DRSubPartition(s, N, part));
    Separate(s, N, part, s->code, &nsep, &info[1]);
    if (info[1]) {
      PetscInt lo = 1, hi = N, ne;
      while (hi - lo > 1) {
        PetscInt mid = (lo + hi) / 2;
        PetscCall(DRSubPartition(s, mid, part));
        Separate(s, mid, part, s->code, &nsep, &ne);
        if (ne) hi = mid;
        else lo = mid;
      }
      info[2] = lo;
    }
    PetscCall(PetscFree(part));
  } else PetscCall(ChooseAuto(c, s, &N, msg, len));
  info[0] = N;
  if (!N || info[1]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SeparatorAdjacency(s));
  PetscCall(ComponentCosts(c, s, N, nc, cost, &root));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Names sub1..subN, separator; every method craig-bampton (see the header). */
static PetscErrorCode SetComponents(DRCMS c, PetscInt N, const PetscInt nc[], PetscReal cost[])
{
  char     sizes[1024] = "";
  PetscInt nsep        = nc[N];

  PetscFunctionBeginUser;
  if (strcmp(c->methods[0], "craig-bampton") && strcmp(c->methods[0], "auto"))
    PetscCall(DRProgress(c->comm, "cms: substructured components use craig-bampton, not '%s' (a subdomain's separator block K_SS is zero: it has no free-interface modes of its own)", c->methods[0]));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscCall(PetscFree(c->names[k]));
    PetscCall(PetscFree(c->methods[k]));
  }
  PetscCall(PetscFree(c->names));
  PetscCall(PetscFree(c->methods));
  c->ncomp = N + 1;
  c->nsub  = N;
  PetscCall(PetscCalloc1(c->ncomp, &c->names));
  PetscCall(PetscCalloc1(c->ncomp, &c->methods));
  for (PetscInt k = 0; k <= N; k++) {
    size_t l;
    PetscCall(PetscMalloc1(64, &c->names[k]));
    if (k < N) PetscCall(PetscSNPrintf(c->names[k], 64, "sub%" PetscInt_FMT, k + 1));
    else PetscCall(PetscStrncpy(c->names[k], "separator", 64));
    PetscCall(PetscStrallocpy("craig-bampton", &c->methods[k]));
    PetscCall(PetscStrlen(sizes, &l));
    if (k < N && l + 32 < sizeof(sizes)) PetscCall(PetscSNPrintf(sizes + l, sizeof(sizes) - l, "%s%" PetscInt_FMT, k ? " " : "", nc[k]));
  }
  PetscCall(PetscFree(c->cost));
  PetscCall(PetscMalloc1(c->ncomp, &c->cost));
  PetscCall(PetscArraycpy(c->cost, cost, c->ncomp));
  PetscCall(DRProgress(c->comm, "cms: substructured the model (%" PetscInt_FMT " DOFs) into %" PetscInt_FMT " subdomains + a separator of %" PetscInt_FMT " DOFs (%.1f %%); subdomain DOFs incl. their separator DOFs: %s", c->sub->n, N, nsep, 100.0 * (double)nsep / (double)c->sub->n, sizes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSSubstructureDestroy_Private(DRCMS c)
{
  DRSubstructure s = c->sub;

  PetscFunctionBeginUser;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRComponentDestroy(&s->full));
  PetscCall(PetscFree(s->dofnode));
  PetscCall(PetscFree(s->nodeid));
  PetscCall(PetscFree(s->ndof));
  PetscCall(PetscFree(s->xadj));
  PetscCall(PetscFree(s->adj));
  PetscCall(PetscFree(s->code));
  PetscCall(PetscFree(s->sx));
  PetscCall(PetscFree(s->sa));
  PetscCall(PetscFree(c->sub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cms.partition on a model of one component: the full model, its
 * partition and the names, methods and costs of the N + 1 components
 * (built on the rank groups by DRCMSSubstructureComponents_Private).
 * Under auto a model that does not pay keeps its one component. */
PetscErrorCode DRCMSSubstructure_Private(DRCMS c)
{
  DRSubstructure s;
  PetscErrorCode ierr;
  PetscInt       info[3] = {0, 0, 0}, *nc = NULL;
  PetscReal     *cost = NULL;
  char           where[PETSC_MAX_PATH_LEN + 32], msg[1024] = "";

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Substructure, 0, 0, 0, 0));
  PetscCall(PetscNew(&c->sub));
  s = c->sub;
  PetscCall(DRModelCreateFull(c->cfg, c->comm, &s->full));
  {
    DRUnits sec;
    PetscCall(DRModelToSeconds(c->cfg, s->full, &sec)); /* model.units: frequencies in Hz */
  }
  PetscCall(DRSubNodeMap(s));
  PetscCall(DRConfigWhere(c->cfg, "cms.partition", where, sizeof(where)));
  if (c->partition < 0 && s->n < DR_SUB_MIN_DOFS) {
    PetscCall(DRProgress(c->comm, "cms: partition auto: %" PetscInt_FMT " DOFs (below %d): kept as one component", s->n, DR_SUB_MIN_DOFS));
    PetscCall(DRCMSSubstructureDestroy_Private(c));
    PetscCall(PetscLogEventEnd(DRCMS_Substructure, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(c->partition <= s->nnodes, c->comm, DR_ERR_INPUT, "%s: cms.partition = %" PetscInt_FMT ", expected at most %" PetscInt_FMT " (the nodes of the model)", where, c->partition, s->nnodes);
  PetscCall(DRSubGatherGraph(s, c->comm));
  PetscCall(PetscMalloc1(s->nnodes + 1, &s->code));
  PetscCall(PetscCalloc2(PetscMax(DR_SUB_MAX_PARTS, c->partition) + 1, &nc, PetscMax(DR_SUB_MAX_PARTS, c->partition) + 1, &cost));
  ierr = c->rank ? PETSC_SUCCESS : RootPartition(c, s, info, nc, cost, msg, sizeof(msg));
  PetscCall(DRRootAgree(c->comm, ierr));
  PetscCallMPI(MPI_Bcast(info, 3, MPIU_INT, 0, c->comm));
  if (msg[0]) PetscCall(DRProgress(c->comm, "%s", msg));
  PetscCheck(!info[1] || info[2] > 1, c->comm, DR_ERR_INPUT, "%s: cms.partition = %" PetscInt_FMT " leaves %" PetscInt_FMT " of the %" PetscInt_FMT " subdomains without an interior node (every node on the separator); the model is too small to split, expected off", where, c->partition, info[1], c->partition);
  PetscCheck(!info[1], c->comm, DR_ERR_INPUT, "%s: cms.partition = %" PetscInt_FMT " leaves %" PetscInt_FMT " of the %" PetscInt_FMT " subdomains without an interior node (every node on the separator); expected at most %" PetscInt_FMT " for this model", where, c->partition, info[1], c->partition, info[2]);
  if (info[0]) {
    s->N = info[0];
    PetscCallMPI(MPI_Bcast(nc, (PetscMPIInt)(s->N + 1), MPIU_INT, 0, c->comm));
    PetscCallMPI(MPI_Bcast(cost, (PetscMPIInt)(s->N + 1), MPIU_REAL, 0, c->comm));
    PetscCall(Broadcast(s, c->comm));
    PetscCall(SetComponents(c, s->N, nc, cost));
  } else PetscCall(DRCMSSubstructureDestroy_Private(c));
  PetscCall(PetscFree2(nc, cost));
  PetscCall(PetscLogEventEnd(DRCMS_Substructure, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Node u in component k (k = N: the separator). */
static PetscBool InComp(DRSubstructure s, PetscInt k, PetscInt u)
{
  if (k == s->N) return (PetscBool)(s->code[u] < 0);
  if (s->code[u] == k) return PETSC_TRUE;
  if (s->code[u] >= 0) return PETSC_FALSE;
  for (PetscInt j = s->sx[u]; j < s->sx[u + 1]; j++)
    if (s->sa[j] == k) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* The separator block of a subdomain's local rows set to zero (explicit
 * zeros stay in the pattern): rows lo.. of the component, sep[] per column. */
static PetscErrorCode ZeroSeparatorBlock(Mat *A, PetscInt lo, const PetscBool sep[])
{
  PetscInt        nr;
  const PetscInt *ia, *ja;
  PetscBool       done, aij;
  PetscScalar    *a;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)*A, MATSEQAIJ, &aij));
  if (!aij) PetscCall(MatConvert(*A, MATSEQAIJ, MAT_INPLACE_MATRIX, A));
  PetscCall(MatGetRowIJ(*A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ failed on a substructure block");
  PetscCall(MatSeqAIJGetArray(*A, &a));
  for (PetscInt r = 0; r < nr; r++)
    if (sep[lo + r])
      for (PetscInt j = ia[r]; j < ia[r + 1]; j++)
        if (sep[ja[j]]) a[j] = 0;
  PetscCall(MatSeqAIJRestoreArray(*A, &a));
  PetscCall(MatRestoreRowIJ(*A, 0, PETSC_FALSE, PETSC_FALSE, &nr, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Component k on my group's communicator from my rows of it (Kl, Ml: the
 * local rows x all columns): labels, node sets, the mesh for sub1. */
static PetscErrorCode BuildComponent(DRCMS c, PetscInt k, Mat Kl, Mat Ml, PetscInt nloc, PetscInt nk, const PetscInt rows[], DRComponent *comp)
{
  DRSubstructure   s = c->sub;
  const DRLabel   *lab;
  DRLabel         *l;
  const DRNodeSet *sets;
  PetscInt         nsets;
  Mat              K, M;
  const char      *src;
  char             source[PETSC_MAX_PATH_LEN + 64];

  PetscFunctionBeginUser;
  PetscCall(DRComponentCreate(c->gcomm, c->names[k], comp));
  PetscCall(DRComponentGetSource(s->full, &src));
  PetscCall(PetscSNPrintf(source, sizeof(source), "%s (%s of %" PetscInt_FMT " subdomains)", src, c->names[k], s->N));
  PetscCall(DRComponentSetSource(*comp, source));
  PetscCall(DRComponentGetLabels(s->full, NULL, &lab));
  PetscCall(PetscMalloc1(nk + 1, &l));
  for (PetscInt j = 0; j < nk; j++) l[j] = lab[rows[j]];
  PetscCall(DRComponentSetLabels(*comp, nk, l));
  PetscCall(PetscFree(l));
  PetscCall(MatCreateMPIMatConcatenateSeqMat(c->gcomm, Kl, nloc, MAT_INITIAL_MATRIX, &K));
  PetscCall(MatCreateMPIMatConcatenateSeqMat(c->gcomm, Ml, nloc, MAT_INITIAL_MATRIX, &M));
  PetscCall(MatSetOption(K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(DRComponentSetOperators(*comp, K, M, NULL));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&M));
  PetscCall(DRComponentGetNodeSets(s->full, &nsets, &sets));
  for (PetscInt i = 0; i < nsets; i++) PetscCall(DRComponentAddNodeSet(*comp, sets[i].name, sets[i].n, sets[i].nodes));
  if (k == 0) {
    PetscInt         nn, ncell;
    const PetscInt  *ids, *cells;
    const PetscReal *xyz;
    DRCellType       ct;
    PetscCall(DRComponentGetGeometry(s->full, &nn, &ids, &xyz));
    if (nn) PetscCall(DRComponentSetGeometry(*comp, nn, ids, xyz));
    PetscCall(DRComponentGetCells(s->full, &ct, &ncell, &cells));
    if (ncell) PetscCall(DRComponentSetCells(*comp, ct, ncell, cells));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* My group's components (c->comps[i] for c->mine[i]) from the world
 * matrices: one MatCreateSubMatrices per component, collective on the
 * world (empty index sets outside the component's group); then the full
 * model is freed. */
PetscErrorCode DRCMSSubstructureComponents_Private(DRCMS c)
{
  DRSubstructure s = c->sub;
  Mat            K, M;
  PetscMPIInt    grank, gsize;
  PetscInt      *rows;
  PetscBool     *sep;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Substructure, 0, 0, 0, 0));
  PetscCall(DRComponentGetOperators(s->full, &K, &M, NULL));
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  PetscCallMPI(MPI_Comm_size(c->gcomm, &gsize));
  PetscCall(PetscMalloc2(s->n + 1, &rows, s->n + 1, &sep));
  for (PetscInt k = 0; k <= s->N; k++) {
    PetscBool mine = (PetscBool)(c->group_of[k] == c->mygroup);
    PetscInt  nk = 0, lo = 0, nloc = 0;
    IS        isr, isc;
    Mat      *Ks, *Ms;
    if (mine) {
      for (PetscInt r = 0; r < s->n; r++)
        if (InComp(s, k, s->dofnode[r])) {
          sep[nk]    = (PetscBool)(s->code[s->dofnode[r]] < 0);
          rows[nk++] = r;
        }
      /* PETSc's default split of nk rows over the group */
      for (PetscMPIInt q = 0; q <= grank; q++) {
        PetscInt sz = nk / gsize + (q < nk % gsize ? 1 : 0);
        if (q < grank) lo += sz;
        else nloc = sz;
      }
    }
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nloc, rows + lo, PETSC_COPY_VALUES, &isr));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nk, rows, PETSC_COPY_VALUES, &isc));
    PetscCall(MatCreateSubMatrices(K, 1, &isr, &isc, MAT_INITIAL_MATRIX, &Ks));
    PetscCall(MatCreateSubMatrices(M, 1, &isr, &isc, MAT_INITIAL_MATRIX, &Ms));
    if (mine) {
      PetscInt i = 0;
      while (c->mine[i] != k) i++;
      if (k < s->N) {
        PetscCall(ZeroSeparatorBlock(&Ks[0], lo, sep));
        PetscCall(ZeroSeparatorBlock(&Ms[0], lo, sep));
      }
      PetscCall(BuildComponent(c, k, Ks[0], Ms[0], nloc, nk, rows, &c->comps[i]));
    }
    PetscCall(MatDestroySubMatrices(1, &Ks));
    PetscCall(MatDestroySubMatrices(1, &Ms));
    PetscCall(ISDestroy(&isr));
    PetscCall(ISDestroy(&isc));
  }
  PetscCall(PetscFree2(rows, sep));
  PetscCall(DRCMSSubstructureDestroy_Private(c));
  PetscCall(PetscLogEventEnd(DRCMS_Substructure, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
