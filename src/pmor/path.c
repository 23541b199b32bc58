/* The load path (pmor.path, pmor.direction), its parameter p (path index or
 * arc length), the supports (pmor.supports or pmor.support_every) and the
 * load distribution b(p) between path nodes. */
#include "pmorimpl.h"

#define DRPMOR_MAXPATH 100000

/* a number as the user wrote it (PETSc's %g appends a '.') */
static const char *Num(PetscReal v, char buf[32])
{
  snprintf(buf, 32, "%.15g", (double)v);
  return buf;
}

static PetscErrorCode Where(DRPMOR pm, const char *key, char *buf, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(pm->cfg, key, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* path node ids -> rows of (node, direction); parameters */
static PetscErrorCode PathNodes(DRPMOR pm)
{
  PetscReal     *v;
  PetscInt       nv = DRPMOR_MAXPATH, nl, nn;
  const DRLabel *labels;
  const PetscInt *ids;
  const PetscReal *xyz;
  char           where[PETSC_MAX_PATH_LEN + 32], b[32];
  const char    *source;

  PetscFunctionBeginUser;
  PetscCall(Where(pm, "pmor.path", where, sizeof(where)));
  PetscCall(DRComponentGetSource(pm->model, &source));
  PetscCall(PetscMalloc1(nv, &v));
  PetscCall(DRConfigGetRealArray(pm->cfg, "pmor.path", v, &nv, NULL));
  {
    char set[PETSC_MAX_PATH_LEN], w2[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigGetString(pm->cfg, "pmor.path_set", set, sizeof(set), NULL));
    if (set[0]) {
      PetscCall(Where(pm, "pmor.path_set", w2, sizeof(w2)));
      PetscCheck(nv == 0, pm->comm, DR_ERR_INPUT, "%s: pmor.path_set and pmor.path are both given, expected one of them", w2);
      nv = DRPMOR_MAXPATH;
      PetscCall(DRPMORPathFromSet(pm, set, v, &nv));
      PetscCall(PetscStrncpy(where, w2, sizeof(where)));
    }
  }
  PetscCheck(nv >= 2, pm->comm, DR_ERR_INPUT, "%s: pmor.path has %" PetscInt_FMT " node(s), expected a list of at least 2 node ids", where, nv);
  pm->npath = nv;
  PetscCall(PetscMalloc3(nv, &pm->path_nodes, nv, &pm->path_rows, nv, &pm->path_p));
  PetscCall(DRComponentGetLabels(pm->model, &nl, &labels));
  for (PetscInt j = 0; j < nv; j++) {
    PetscInt node = (PetscInt)v[j], row = -1;
    PetscBool any = PETSC_FALSE;
    PetscCheck((PetscReal)node == v[j] && node >= 0, pm->comm, DR_ERR_INPUT, "%s: pmor.path entry %s is not a node id, expected a non-negative integer", where, Num(v[j], b));
    for (PetscInt d = 0; d < j; d++) PetscCheck(pm->path_nodes[d] != node, pm->comm, DR_ERR_INPUT, "%s: pmor.path lists node %" PetscInt_FMT " twice, expected distinct nodes", where, node);
    for (PetscInt r = 0; r < nl; r++) {
      if (DRLabelNode(labels[r]) == node) any = PETSC_TRUE;
      if (labels[r] == DRLabelMake(node, pm->dir)) row = r;
    }
    PetscCheck(any, pm->comm, DR_ERR_INPUT, "%s: pmor.path node %" PetscInt_FMT " is not a node of the model (%s), expected a node with free DOFs", where, node, source);
    PetscCheck(row >= 0, pm->comm, DR_ERR_INPUT, "%s: pmor.path node %" PetscInt_FMT " has no free DOF in pmor.direction %" PetscInt_FMT " (no label %s in %s), expected a direction the node moves in", where, node, pm->dir, DRLabelString(DRLabelMake(node, pm->dir), b), source);
    pm->path_nodes[j] = node, pm->path_rows[j] = row;
  }
  PetscCall(PetscFree(v));
  /* parameter */
  if (!strcmp(pm->parameter, "index")) {
    for (PetscInt j = 0; j < nv; j++) pm->path_p[j] = j;
    pm->period = pm->closed ? nv : 0;
  } else {
    PetscReal *X;
    PetscCall(DRComponentGetGeometry(pm->model, &nn, &ids, &xyz));
    PetscCheck(nn > 0 && xyz, pm->comm, DR_ERR_INPUT, "%s: pmor.parameter arclength needs node coordinates, but the model (%s) has none, expected pmor.parameter: index", where, source);
    PetscCall(PetscMalloc1(3 * nv, &X));
    for (PetscInt j = 0; j < nv; j++) {
      PetscInt q = -1;
      for (PetscInt i = 0; i < nn; i++)
        if (ids[i] == pm->path_nodes[j]) q = i;
      PetscCheck(q >= 0, pm->comm, DR_ERR_INPUT, "%s: pmor.path node %" PetscInt_FMT " has no coordinates in the model (%s), expected pmor.parameter: index", where, pm->path_nodes[j], source);
      for (int c = 0; c < 3; c++) X[3 * j + c] = xyz[3 * q + c];
    }
    pm->path_p[0] = 0;
    for (PetscInt j = 1; j < nv; j++) {
      PetscReal d = 0;
      for (int c = 0; c < 3; c++) d += PetscSqr(X[3 * j + c] - X[3 * (j - 1) + c]);
      pm->path_p[j] = pm->path_p[j - 1] + PetscSqrtReal(d);
      PetscCheck(pm->path_p[j] > pm->path_p[j - 1], pm->comm, DR_ERR_INPUT, "%s: pmor.path nodes %" PetscInt_FMT " and %" PetscInt_FMT " coincide, expected distinct positions", where, pm->path_nodes[j - 1], pm->path_nodes[j]);
    }
    if (pm->closed) {
      PetscReal d = 0;
      for (int c = 0; c < 3; c++) d += PetscSqr(X[c] - X[3 * (nv - 1) + c]);
      pm->period = pm->path_p[nv - 1] + PetscSqrtReal(d);
    } else pm->period = 0;
    PetscCall(PetscFree(X));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Supports(DRPMOR pm)
{
  PetscReal *v;
  PetscInt   nv = pm->npath + 1;
  PetscBool  set;
  char       where[PETSC_MAX_PATH_LEN + 32], b[32];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(nv, &v));
  PetscCall(DRConfigGetRealArray(pm->cfg, "pmor.supports", v, &nv, &set));
  PetscCall(Where(pm, "pmor.supports", where, sizeof(where)));
  PetscCall(PetscMalloc1(pm->npath + 1, &pm->sup));
  if (set && nv > 0) {
    for (PetscInt i = 0; i < nv; i++) {
      PetscInt j = (PetscInt)v[i];
      PetscCheck((PetscReal)j == v[i] && j >= 0 && j < pm->npath, pm->comm, DR_ERR_INPUT, "%s: pmor.supports entry %s is outside the path, expected a path index 0..%" PetscInt_FMT, where, Num(v[i], b), pm->npath - 1);
      PetscCheck(i == 0 || j > pm->sup[i - 1], pm->comm, DR_ERR_INPUT, "%s: pmor.supports must increase (entry %s after %" PetscInt_FMT "), expected increasing path indices", where, Num(v[i], b), pm->sup[i - 1]);
      pm->sup[i] = j;
    }
    pm->k = nv;
    if (!pm->closed) PetscCheck(pm->sup[0] == 0 && pm->sup[nv - 1] == pm->npath - 1, pm->comm, DR_ERR_INPUT, "%s: the supports of an open path must include both ends (0 and %" PetscInt_FMT "), expected them to cover the path", where, pm->npath - 1);
  } else {
    pm->k = 0;
    for (PetscInt j = 0; j < pm->npath; j += pm->every) pm->sup[pm->k++] = j;
    if (!pm->closed && pm->sup[pm->k - 1] != pm->npath - 1) pm->sup[pm->k++] = pm->npath - 1;
  }
  PetscCheck(pm->k >= 2, pm->comm, DR_ERR_INPUT, "%s: %" PetscInt_FMT " support(s), expected at least 2", where, pm->k);
  PetscCheck(!pm->closed || !strcmp(pm->weights, "linear") || pm->k >= 3, pm->comm, DR_ERR_INPUT, "%s: a periodic spline needs at least 3 supports, found %" PetscInt_FMT, where, pm->k);
  PetscCall(PetscMalloc1(pm->k, &pm->ps));
  for (PetscInt i = 0; i < pm->k; i++) pm->ps[i] = pm->path_p[pm->sup[i]];
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORPathSetUp(DRPMOR pm)
{
  PetscFunctionBeginUser;
  PetscCall(PathNodes(pm));
  if (!strcmp(pm->distribute, "quadratic")) {
    char where[PETSC_MAX_PATH_LEN + 32];
    PetscInt nseg = pm->period > 0 ? pm->npath : pm->npath - 1;
    PetscCall(Where(pm, "pmor.distribute", where, sizeof(where)));
    PetscCheck(nseg % 2 == 0, pm->comm, DR_ERR_INPUT, "%s: pmor.distribute quadratic groups the path into 3-node edges, but the path has %" PetscInt_FMT " segments, expected an even number (an odd number of nodes on an open path, an even one on a closed path)", where, nseg);
  }
  PetscCall(Supports(pm));
  if (!strcmp(pm->weights, "spline")) PetscCall(DRPMORSplineSetUp(pm->k, pm->ps, pm->period, &pm->S2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b(p) = sum_a c_a e(path node idx_a): the nodal loads of a point load at
 * p by the shape functions of the path's edges.  linear: 2-node edges
 * between neighbouring path nodes; quadratic: 3-node edges (path nodes 2e,
 * 2e+1, 2e+2, as a quadratic element's corner, mid-side and corner nodes),
 * the Lagrange polynomials in p through the three nodes' parameters (for a
 * mid-side node at the middle the isoparametric shape functions); nearest:
 * the whole load on the nearest node.  Unused entries have c = 0. */
PetscErrorCode DRPMORLoadAt(DRPMOR pm, PetscReal p, PetscInt idx[DRPMOR_NLOAD], PetscReal c[DRPMOR_NLOAD])
{
  PetscInt  np = pm->npath, j;
  PetscReal *x = pm->path_p, xa, xb, t;

  PetscFunctionBeginUser;
  for (int a = 0; a < DRPMOR_NLOAD; a++) idx[a] = 0, c[a] = 0;
  if (pm->period > 0) {
    p = x[0] + PetscFmodReal(p - x[0], pm->period);
    if (p < x[0]) p += pm->period;
  } else p = PetscMin(PetscMax(p, x[0]), x[np - 1]);
  for (j = 0; j < np - 1 && x[j + 1] <= p; j++) { }
  if (j == np - 1 && pm->period > 0) xa = x[np - 1], xb = x[0] + pm->period;
  else if (j == np - 1) {
    idx[0] = np - 1, c[0] = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  } else xa = x[j], xb = x[j + 1];
  if (!strcmp(pm->distribute, "quadratic")) {
    PetscInt  s = j - j % 2;
    PetscReal X[3];
    for (int a = 0; a < 3; a++) {
      idx[a] = (s + a) % np;
      X[a]   = s + a < np ? x[s + a] : x[s + a - np] + pm->period;
    }
    for (int a = 0; a < 3; a++) {
      c[a] = 1;
      for (int b = 0; b < 3; b++)
        if (b != a) c[a] *= (p - X[b]) / (X[a] - X[b]);
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  t      = (p - xa) / (xb - xa);
  idx[0] = j, idx[1] = (j + 1) % np;
  if (!strcmp(pm->distribute, "nearest")) c[0] = t <= 0.5 ? 1 : 0, c[1] = 1 - c[0];
  else c[0] = 1 - t, c[1] = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}
