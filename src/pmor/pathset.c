/* The load path given as a set of nodes (pmor.path_set) instead of a list:
 * a node set of the model (CalculiX *NSET, the built-in models' sets) or a
 * file of node ids (whitespace separated, '#' starts a comment; relative to
 * the job file).  A set has no order, so the nodes are ordered from their
 * coordinates (pmor.path_order):
 *  chain: a nearest-neighbour chain.  Its ends are found by two sweeps (a =
 *    the node farthest from the set's smallest id, b = the node farthest
 *    from a: the ends of an open line or of an arc of at most half a turn);
 *    the chain starts at the end with the smaller id (a closed path at the
 *    smallest id) and always steps to the nearest unvisited node (ties: the
 *    smaller id).  A step longer than 2.5 times the median step means the
 *    set is not one line: an error.
 *  angle: the angle around the normal of the set's least-squares plane
 *    through its centroid (the eigenvector of the smallest eigenvalue of the
 *    3 x 3 scatter matrix, LAPACK syev; its sign makes its largest component
 *    positive), counter-clockwise about it, starting at the smallest id: a
 *    ring or an arc around an axis. */
#include "pmorimpl.h"
#include <petscblaslapack.h>

typedef struct {
  PetscReal key;
  PetscInt  id, q; /* node id, index into the geometry */
} Node;

static int CmpNode(const void *a, const void *b)
{
  const Node *x = (const Node *)a, *y = (const Node *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static PetscReal Dist2(const PetscReal *xyz, PetscInt a, PetscInt b)
{
  PetscReal d = 0;
  for (int c = 0; c < 3; c++) d += PetscSqr(xyz[3 * a + c] - xyz[3 * b + c]);
  return d;
}

/* node ids of a file, read on rank 0 and broadcast */
static PetscErrorCode ReadIds(DRPMOR pm, const char *file, const char *where, const char *name, PetscInt *n, PetscInt *ids, PetscInt cap)
{
  PetscMPIInt rank;
  PetscInt    cnt = 0, bad = 0, line = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  if (!rank) {
    FILE *f = fopen(file, "r");
    char  buf[4096];
    if (!f) cnt = -1;
    while (f && !bad && fgets(buf, sizeof(buf), f)) {
      char *s = buf, *e;
      line++;
      if (strchr(s, '#')) *strchr(s, '#') = 0;
      for (;;) {
        long long v;
        while (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        v = strtoll(s, &e, 10);
        if (e == s || v < 0 || cnt >= cap || (*e && !strchr(" \t,\r\n", *e))) {
          bad = line;
          break;
        }
        ids[cnt++] = (PetscInt)v, s = e;
      }
    }
    if (f) fclose(f);
  }
  PetscCallMPI(MPI_Bcast(&cnt, 1, MPIU_INT, 0, pm->comm));
  PetscCallMPI(MPI_Bcast(&bad, 1, MPIU_INT, 0, pm->comm));
  PetscCheck(cnt >= 0, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set '%s' is neither a node set of the model nor a readable file, expected a node set name or a file of node ids", where, name);
  PetscCheck(!bad, pm->comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": not a node id (pmor.path_set), expected non-negative integers", file, bad);
  if (cnt) PetscCallMPI(MPI_Bcast(ids, (PetscMPIInt)cnt, MPIU_INT, 0, pm->comm));
  *n = cnt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Chain(DRPMOR pm, const char *where, const char *name, PetscInt n, Node *nd, const PetscReal *xyz)
{
  PetscInt   a = 0, b = 0, start;
  PetscReal *step;
  PetscBool *used;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n, &step, n, &used));
  for (PetscInt i = 0; i < n; i++) used[i] = PETSC_FALSE;
  /* nd is sorted by id: nd[0] is the smallest */
  for (PetscInt i = 1; i < n; i++)
    if (Dist2(xyz, nd[i].q, nd[0].q) > Dist2(xyz, nd[a].q, nd[0].q)) a = i;
  for (PetscInt i = 0; i < n; i++)
    if (Dist2(xyz, nd[i].q, nd[a].q) > Dist2(xyz, nd[b].q, nd[a].q)) b = i;
  start = pm->closed ? 0 : PetscMin(a, b);
  used[start] = PETSC_TRUE, nd[start].key = 0;
  for (PetscInt j = 1, cur = start; j < n; j++) {
    PetscInt  best = -1;
    PetscReal bd   = PETSC_MAX_REAL;
    for (PetscInt i = 0; i < n; i++) /* ascending ids: a tie keeps the smaller */
      if (!used[i] && Dist2(xyz, nd[i].q, nd[cur].q) < bd) best = i, bd = Dist2(xyz, nd[i].q, nd[cur].q);
    used[best] = PETSC_TRUE, nd[best].key = (PetscReal)j, step[j - 1] = PetscSqrtReal(bd), cur = best;
  }
  {
    PetscReal med, *s;
    PetscInt  jmax = 0;
    PetscCall(PetscMalloc1(n - 1, &s));
    PetscCall(PetscArraycpy(s, step, n - 1));
    PetscCall(PetscSortReal(n - 1, s));
    med = s[(n - 1) / 2];
    for (PetscInt j = 0; j < n - 1; j++)
      if (step[j] > step[jmax]) jmax = j;
    PetscCall(PetscFree(s));
    PetscCheck(step[jmax] <= 2.5 * med, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set '%s' is not one line of nodes (the nearest-neighbour chain jumps %g after %" PetscInt_FMT " nodes, the median step is %g), expected a chain of nodes, or pmor.path_order: angle for a ring", where, name, (double)step[jmax], jmax + 1, (double)med);
  }
  PetscCall(PetscFree2(step, used));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Angle(PetscInt n, Node *nd, const PetscReal *xyz)
{
  PetscReal    c[3] = {0, 0, 0}, S[9] = {0}, lam[3], work[64], e1[3], e2[3], nrm = 0, *z;
  PetscBLASInt three = 3, lwork = 64, info;
  int          big = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++)
    for (int a = 0; a < 3; a++) c[a] += xyz[3 * nd[i].q + a] / n;
  for (PetscInt i = 0; i < n; i++)
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) S[a + 3 * b] += (xyz[3 * nd[i].q + a] - c[a]) * (xyz[3 * nd[i].q + b] - c[b]);
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "L", &three, S, &three, lam, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev info %d", (int)info);
  z = S; /* smallest eigenvalue first: the plane's normal */
  for (int a = 1; a < 3; a++)
    if (PetscAbsReal(z[a]) > PetscAbsReal(z[big])) big = a;
  if (z[big] < 0)
    for (int a = 0; a < 3; a++) z[a] = -z[a];
  /* e1: the smallest id's direction from the centroid, in the plane */
  for (int a = 0; a < 3; a++) e1[a] = xyz[3 * nd[0].q + a] - c[a];
  {
    PetscReal d = e1[0] * z[0] + e1[1] * z[1] + e1[2] * z[2];
    for (int a = 0; a < 3; a++) e1[a] -= d * z[a];
    for (int a = 0; a < 3; a++) nrm += e1[a] * e1[a];
    for (int a = 0; a < 3; a++) e1[a] /= PetscSqrtReal(nrm);
  }
  e2[0] = z[1] * e1[2] - z[2] * e1[1], e2[1] = z[2] * e1[0] - z[0] * e1[2], e2[2] = z[0] * e1[1] - z[1] * e1[0];
  for (PetscInt i = 0; i < n; i++) {
    PetscReal u = 0, v = 0, t;
    for (int a = 0; a < 3; a++) u += (xyz[3 * nd[i].q + a] - c[a]) * e1[a], v += (xyz[3 * nd[i].q + a] - c[a]) * e2[a];
    t = i == 0 ? 0 : PetscAtan2Real(v, u);
    if (t < 0) t += 2 * PETSC_PI;
    nd[i].key = t;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORPathFromSet(DRPMOR pm, const char *name, PetscReal *v, PetscInt *nv)
{
  DRNodeSet       *set;
  PetscInt         n = 0, nn, *ids, cap = *nv;
  const PetscInt  *gid;
  const PetscReal *xyz;
  const char      *source;
  char             where[PETSC_MAX_PATH_LEN + 32], order[32];
  Node            *nd;

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(pm->cfg, "pmor.path_set", where, sizeof(where)));
  PetscCall(DRConfigGetString(pm->cfg, "pmor.path_order", order, sizeof(order), NULL));
  PetscCall(DRComponentGetSource(pm->model, &source));
  PetscCall(PetscMalloc1(cap, &ids));
  PetscCall(DRComponentGetNodeSet(pm->model, name, &set));
  if (set) {
    n = PetscMin(set->n, cap);
    PetscCall(PetscArraycpy(ids, set->nodes, n));
  } else {
    const char *origin;
    char        file[PETSC_MAX_PATH_LEN];
    PetscCall(DRConfigPathBase(pm->cfg, "pmor.path_set", &origin));
    PetscCall(DRPathResolve(origin, name, file, sizeof(file)));
    PetscCall(ReadIds(pm, file, where, name, &n, ids, cap));
  }
  PetscCheck(n >= 2, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set '%s' has %" PetscInt_FMT " node(s), expected at least 2 nodes", where, name, n);
  PetscCall(DRComponentGetGeometry(pm->model, &nn, &gid, &xyz));
  PetscCheck(nn > 0 && xyz, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set needs node coordinates to order the set, but the model (%s) has none, expected pmor.path: a list of node ids", where, source);
  PetscCall(PetscMalloc1(n, &nd));
  for (PetscInt i = 0; i < n; i++) {
    nd[i].id = ids[i], nd[i].key = (PetscReal)ids[i];
    nd[i].q  = DRComponentFindNode(pm->model, ids[i]);
    PetscCheck(nd[i].q >= 0, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set '%s': node %" PetscInt_FMT " is not a node of the model (%s), expected nodes with coordinates", where, name, ids[i], source);
  }
  qsort(nd, (size_t)n, sizeof(Node), CmpNode); /* by id (unique below) */
  for (PetscInt i = 1; i < n; i++) PetscCheck(nd[i].id != nd[i - 1].id, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set '%s' lists node %" PetscInt_FMT " twice, expected distinct nodes", where, name, nd[i].id);
  if (!strcmp(order, "angle")) PetscCall(Angle(n, nd, xyz));
  else PetscCall(Chain(pm, where, name, n, nd, xyz));
  qsort(nd, (size_t)n, sizeof(Node), CmpNode);
  for (PetscInt i = 0; i < n; i++) v[i] = (PetscReal)nd[i].id;
  *nv = n;
  PetscCall(PetscInfo(NULL, "pmor.path_set %s: %" PetscInt_FMT " nodes ordered by %s\n", name, n, order));
  PetscCall(PetscFree(nd));
  PetscCall(PetscFree(ids));
  PetscFunctionReturn(PETSC_SUCCESS);
}
