/* dynred hybrid: the virtual hybrid simulation job (METHODS.md section 4) on the hybrid library of hybrid.c.
 *
 * The full model (the job's model: section) and reduced models (groups of a
 * result file holding K, M over master DOF labels, e.g. the GA's
 * /ga/solutions/NNN condensed by IDC; "full" is the full model itself) each
 * get the same external element between two nodes (law A, B or C, a
 * parallel damper), Rayleigh damping alpha M + beta K, the input forces at
 * master DOFs, and are integrated by the same scheme (newmark with Newton,
 * or central).  The element's linear stiffness that the model's K already
 * holds (hybrid.element.k_model, the bicycle's spring k0) is taken out of
 * every K first: its DOFs are masters, so on a reduced model it is exactly
 * k_model g g^T there too.  Outputs: the histories of every model's master
 * DOFs, their MSE against the full model at the same DOFs, and the wall
 * time per step for a list of step sizes (the real-time criterion: time
 * per step below the step).  Small dense work: every rank computes the same
 * thing, the store writes rank 0's. */
#include "ssimpl.h"
#include <dynred/model.h>
#include <math.h>
#include <string.h>

#define HYB_MAXRED 16
#define HYB_MAXH   16

typedef struct {
  char       name[256];
  PetscInt   r, col;           /* size; column of the MSE label */
  PetscReal *K, *M;            /* r x r, row-major, model units */
  DRLabel   *labels;
  PetscInt  *map;              /* r: row in the full model */
  PetscReal *Y;                /* (nsteps+1) x r */
  PetscReal  mse, mse_all, wall[HYB_MAXH + 1];
  PetscInt   its;
} HybModel;

struct _p_DRHybridJob {
  MPI_Comm  comm;
  DRConfig  cfg;
  DRUnits   units;
  char      source[PETSC_MAX_PATH_LEN], table_file[PETSC_MAX_PATH_LEN], method[16], law[16];
  PetscReal h, t_end, alpha, beta, k, k_model, cd, hs[HYB_MAXH];
  PetscInt  nh, node[2], nin, nsteps, nm;
  DRLabel  *in, mse_label;
  DRSignal  sig;
  HybModel  full, m[HYB_MAXRED + 1];
  PetscReal e[2];
  DRHybridTable table; /* law table: hybrid.element.table */
};

/* The signal in seconds, the integrator in the model's time unit. */
typedef struct {
  DRSignal *sig;
  PetscReal tu;
} SigCtx;

static PetscErrorCode SigEval(void *ctx, PetscReal t, PetscReal u[])
{
  SigCtx *s = (SigCtx *)ctx;
  return DRSignalEval(s->sig, t * s->tu, u);
}

PetscErrorCode DRHybridJobCreate(MPI_Comm comm, DRHybridJob *job)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(PetscNew(job));
  (*job)->comm = comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobSetConfig(DRHybridJob job, DRConfig cfg)
{
  PetscFunctionBeginUser;
  job->cfg = cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Where(DRHybridJob job, const char *key, char *w, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(job->cfg, key, w, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ParseLabel(DRHybridJob job, const char *key, PetscReal v, DRLabel *l)
{
  PetscReal node = PetscFloorReal(v), dir = round(10 * (v - node));
  char      w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(Where(job, key, w, sizeof(w)));
  PetscCheck(node >= 0 && dir >= 1 && dir <= 6 && PetscAbsReal(10 * (v - node) - dir) < 1e-6, job->comm, DR_ERR_INPUT, "%s: %s = %g is not a DOF label node.direction, expected e.g. 15.1", w, key, (double)v);
  *l = DRLabelMake((PetscInt64)node, (PetscInt)dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobSetFromOptions(DRHybridJob job)
{
  DRConfig  cfg = job->cfg;
  PetscReal v[1024];
  PetscInt  n;
  char      w[PETSC_MAX_PATH_LEN + 32], groups[2048], *tok, *save = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRModelGetUnits(cfg, &job->units, NULL));
  {
    char        file[PETSC_MAX_PATH_LEN];
    const char *origin;
    PetscCall(DRConfigGetString(cfg, "hybrid.source", file, sizeof(file), NULL));
    PetscCall(DRConfigPathBase(cfg, "hybrid.source", &origin));
    if (file[0]) PetscCall(DRPathResolve(origin, file, job->source, sizeof(job->source)));
  }
  PetscCall(DRConfigGetString(cfg, "hybrid.models", groups, sizeof(groups), NULL));
  PetscCall(DRConfigGetString(cfg, "hybrid.method", job->method, sizeof(job->method), NULL));
  PetscCall(DRConfigGetString(cfg, "hybrid.element.law", job->law, sizeof(job->law), NULL));
  PetscCall(Where(job, "hybrid.element.law", w, sizeof(w)));
  PetscCheck(!strcmp(job->law, "A") || !strcmp(job->law, "B") || !strcmp(job->law, "C") || !strcmp(job->law, "table"), job->comm, DR_ERR_INPUT, "%s: hybrid.element.law = %s, expected A, B, C or table", w, job->law);
  if (!strcmp(job->law, "table")) {
    char        file[PETSC_MAX_PATH_LEN];
    const char *origin;
    PetscCall(DRConfigGetString(cfg, "hybrid.element.table", file, sizeof(file), NULL));
    PetscCall(Where(job, "hybrid.element.table", w, sizeof(w)));
    PetscCheck(file[0], job->comm, DR_ERR_INPUT, "%s: hybrid.element.law is table but hybrid.element.table is empty, expected the table file (x N or x v N per line)", w);
    PetscCall(DRConfigPathBase(cfg, "hybrid.element.table", &origin));
    PetscCall(DRPathResolve(origin, file, job->table_file, sizeof(job->table_file)));
    PetscCall(DRHybridTableRead(job->comm, job->table_file, &job->table));
    {
      PetscBool rate;
      char      meth[16];
      PetscCall(DRConfigGetString(cfg, "hybrid.method", meth, sizeof(meth), NULL));
      PetscCall(DRHybridTableHasRate(job->table, &rate));
      PetscCall(Where(job, "hybrid.method", w, sizeof(w)));
      PetscCheck(!rate || !strcmp(meth, "newmark"), job->comm, DR_ERR_INPUT, "%s: hybrid.method = %s with a velocity column in %s, expected newmark (central is explicit in the element)", w, meth, job->table_file);
    }
  }
  PetscCall(DRConfigGetReal(cfg, "hybrid.element.k", &job->k, NULL));
  PetscCall(DRConfigGetReal(cfg, "hybrid.element.k_model", &job->k_model, NULL));
  PetscCall(DRConfigGetReal(cfg, "hybrid.element.damper", &job->cd, NULL));
  PetscCall(DRConfigGetReal(cfg, "hybrid.damping.alpha", &job->alpha, NULL));
  PetscCall(DRConfigGetReal(cfg, "hybrid.damping.beta", &job->beta, NULL));
  PetscCall(DRConfigGetReal(cfg, "hybrid.h", &job->h, NULL));
  PetscCall(DRConfigGetReal(cfg, "hybrid.t_end", &job->t_end, NULL));
  PetscCall(Where(job, "hybrid.h", w, sizeof(w)));
  PetscCheck(job->h > 0 && job->t_end > 0, job->comm, DR_ERR_INPUT, "%s: hybrid.h = %g s, hybrid.t_end = %g s, expected both > 0", w, (double)job->h, (double)job->t_end);
  job->nsteps = (PetscInt)PetscCeilReal(job->t_end / job->h - 1e-9);
  n = 2;
  PetscCall(DRConfigGetRealArray(cfg, "hybrid.element.nodes", v, &n, NULL));
  PetscCall(Where(job, "hybrid.element.nodes", w, sizeof(w)));
  PetscCheck(n == 2 && v[0] != v[1] && v[0] >= 0 && v[1] >= 0, job->comm, DR_ERR_INPUT, "%s: hybrid.element.nodes has %" PetscInt_FMT " entries, expected two different node ids", w, n);
  job->node[0] = (PetscInt)v[0];
  job->node[1] = (PetscInt)v[1];
  n = 1024;
  PetscCall(DRConfigGetRealArray(cfg, "hybrid.inputs", v, &n, NULL));
  job->nin = n;
  PetscCall(PetscMalloc1(n + 1, &job->in));
  for (PetscInt i = 0; i < n; i++) PetscCall(ParseLabel(job, "hybrid.inputs", v[i], &job->in[i]));
  PetscCall(DRConfigGetReal(cfg, "hybrid.mse_dof", &v[0], NULL));
  PetscCall(ParseLabel(job, "hybrid.mse_dof", v[0], &job->mse_label));
  n = HYB_MAXH;
  PetscCall(DRConfigGetRealArray(cfg, "hybrid.timing_h", job->hs, &n, NULL));
  job->nh = n;
  PetscCall(DRSSSignalFromConfig(cfg, "hybrid.input", job->nin, &job->sig));
  /* the models */
  PetscCall(Where(job, "hybrid.models", w, sizeof(w)));
  for (tok = strtok_r(groups, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscCheck(job->nm < HYB_MAXRED, job->comm, DR_ERR_INPUT, "%s: more than %d hybrid.models", w, HYB_MAXRED);
    PetscCall(PetscStrncpy(job->m[job->nm++].name, tok, sizeof(job->m[0].name)));
  }
  PetscCheck(job->nm > 0, job->comm, DR_ERR_INPUT, "%s: hybrid.models is empty, expected groups of hybrid.source (e.g. /ga/solutions/001) or full", w);
  for (PetscInt k = 0; k < job->nm; k++) {
    PetscCall(Where(job, "hybrid.source", w, sizeof(w)));
    PetscCheck(!strcmp(job->m[k].name, "full") || job->source[0], job->comm, DR_ERR_INPUT, "%s: hybrid.source is missing: expected the result file holding %s", w, job->m[k].name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt Find(PetscInt n, const DRLabel l[], DRLabel x)
{
  for (PetscInt i = 0; i < n; i++)
    if (l[i] == x) return i;
  return -1;
}

/* The full model as dense row-major K, M over its labels, and the element
 * direction from the node coordinates. */
static PetscErrorCode FullModel(DRHybridJob job)
{
  DRComponent      c;
  Mat              K, M, Kd, Md;
  const DRLabel   *lab;
  const PetscInt  *ids;
  const PetscReal *xyz, *a, *b;
  PetscInt         n, nn, p[2] = {-1, -1};
  HybModel        *f = &job->full;
  char             w[PETSC_MAX_PATH_LEN + 32];
  PetscReal        len;

  PetscFunctionBeginUser;
  PetscCall(DRModelCreateFull(job->cfg, PETSC_COMM_SELF, &c));
  PetscCall(DRComponentGetOperators(c, &K, &M, NULL));
  PetscCall(DRComponentGetLabels(c, &n, &lab));
  PetscCheck(n <= 1024, job->comm, DR_ERR_INPUT, "hybrid: the full model has %" PetscInt_FMT " DOFs, expected at most 1024 (dense integration)", n);
  PetscCall(MatConvert(K, MATSEQDENSE, MAT_INITIAL_MATRIX, &Kd));
  PetscCall(MatConvert(M, MATSEQDENSE, MAT_INITIAL_MATRIX, &Md));
  PetscCall(MatDenseGetArrayRead(Kd, &a));
  PetscCall(MatDenseGetArrayRead(Md, &b));
  f->r = n;
  PetscCall(PetscStrncpy(f->name, "full", sizeof(f->name)));
  PetscCall(PetscMalloc4(n * n, &f->K, n * n, &f->M, n, &f->labels, n, &f->map));
  for (PetscInt i = 0; i < n; i++) {
    f->labels[i] = lab[i];
    f->map[i]    = i;
    for (PetscInt j = 0; j < n; j++) { /* column-major -> row-major */
      f->K[i * n + j] = a[j * n + i];
      f->M[i * n + j] = b[j * n + i];
    }
  }
  PetscCall(MatDenseRestoreArrayRead(Kd, &a));
  PetscCall(MatDenseRestoreArrayRead(Md, &b));
  PetscCall(MatDestroy(&Kd));
  PetscCall(MatDestroy(&Md));
  PetscCall(DRComponentGetGeometry(c, &nn, &ids, &xyz));
  for (PetscInt i = 0; i < nn; i++)
    for (int q = 0; q < 2; q++)
      if (ids[i] == job->node[q]) p[q] = i;
  PetscCall(Where(job, "hybrid.element.nodes", w, sizeof(w)));
  PetscCheck(p[0] >= 0 && p[1] >= 0, job->comm, DR_ERR_INPUT, "%s: hybrid.element.nodes node %" PetscInt_FMT " is not a node of the model", w, job->node[p[0] < 0 ? 0 : 1]);
  job->e[0] = xyz[3 * p[1]] - xyz[3 * p[0]];
  job->e[1] = xyz[3 * p[1] + 1] - xyz[3 * p[0] + 1];
  len       = PetscSqrtReal(job->e[0] * job->e[0] + job->e[1] * job->e[1]);
  PetscCheck(len > 0, job->comm, DR_ERR_INPUT, "%s: the element's nodes coincide, expected a direction", w);
  job->e[0] /= len;
  job->e[1] /= len;
  PetscCall(DRComponentDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The element on model m (its translations must be masters). */
static PetscErrorCode Element(DRHybridJob job, HybModel *m, DRHybridElement *el, PetscReal g[])
{
  char w[PETSC_MAX_PATH_LEN + 32], b[32];

  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(g, m->r));
  for (int q = 0; q < 4; q++) {
    DRLabel l = DRLabelMake(job->node[q / 2], 1 + q % 2);
    el->idx[q] = Find(m->r, m->labels, l);
    if (el->idx[q] < 0 && Find(job->full.r, job->full.labels, l) >= 0) {
      PetscCall(Where(job, "hybrid.element.nodes", w, sizeof(w)));
      SETERRQ(job->comm, DR_ERR_INPUT, "%s: the element's DOF %s is not a master of %s, expected the element's translations among the masters (forced masters)", w, DRLabelString(l, b), m->name);
    }
    if (el->idx[q] >= 0) g[el->idx[q]] += (q < 2 ? -1 : 1) * job->e[q % 2];
  }
  el->e[0] = job->e[0];
  el->e[1] = job->e[1];
  el->cd   = job->cd;
  el->ctx  = &job->k;
  el->law  = job->law[0] == 'A' ? DRHybridLawA : job->law[0] == 'B' ? DRHybridLawB : DRHybridLawC;
  if (job->table) {
    el->ctx = job->table;
    el->law = DRHybridLawTable;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A reduced model from hybrid.source (or the full model: "full"). */
static PetscErrorCode ReadModel(DRHybridJob job, HybModel *m)
{
  DRSSSource src;
  char       w[PETSC_MAX_PATH_LEN + 32], b[32];
  PetscInt   r;

  PetscFunctionBeginUser;
  if (!strcmp(m->name, "full")) {
    r = m->r = job->full.r;
    PetscCall(PetscMalloc4(r * r, &m->K, r * r, &m->M, r, &m->labels, r, &m->map));
    PetscCall(PetscArraycpy(m->K, job->full.K, r * r));
    PetscCall(PetscArraycpy(m->M, job->full.M, r * r));
    PetscCall(PetscArraycpy(m->labels, job->full.labels, r));
  } else {
    PetscCall(DRSSSourceRead(job->source, m->name, &src));
    PetscCall(Where(job, "hybrid.models", w, sizeof(w)));
    PetscCheck(src.from_km, job->comm, DR_ERR_INPUT, "%s: %s %s holds modes, expected reduced K, M and labels", w, job->source, src.group);
    r = m->r = src.ndof;
    PetscCall(PetscMalloc4(r * r, &m->K, r * r, &m->M, r, &m->labels, r, &m->map));
    PetscCall(PetscArraycpy(m->K, src.K, r * r));
    PetscCall(PetscArraycpy(m->M, src.M, r * r));
    PetscCall(PetscArraycpy(m->labels, src.labels, r));
    PetscCall(DRSSSourceDestroy(&src));
  }
  for (PetscInt i = 0; i < r; i++) {
    m->map[i] = Find(job->full.r, job->full.labels, m->labels[i]);
    PetscCheck(m->map[i] >= 0, job->comm, DR_ERR_INPUT, "%s: %s label %s is not a DOF of the job's model, expected the model the reduced one came from", job->source, m->name, DRLabelString(m->labels[i], b));
  }
  m->col = Find(r, m->labels, job->mse_label);
  PetscCall(Where(job, "hybrid.mse_dof", w, sizeof(w)));
  PetscCheck(m->col >= 0, job->comm, DR_ERR_INPUT, "%s: hybrid.mse_dof %s is not a master of %s, expected one of its labels", w, DRLabelString(job->mse_label, b), m->name);
  for (PetscInt j = 0; j < job->nin; j++) {
    PetscCall(Where(job, "hybrid.inputs", w, sizeof(w)));
    PetscCheck(Find(r, m->labels, job->in[j]) >= 0, job->comm, DR_ERR_INPUT, "%s: hybrid.inputs label %s is not a master of %s, expected loads at master DOFs", w, DRLabelString(job->in[j], b), m->name);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobSetUp(DRHybridJob job)
{
  DRUnits   fu;
  PetscBool found;
  char      w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(FullModel(job));
  found = PETSC_FALSE;
  if (job->source[0]) PetscCall(DRUnitsRead(job->source, &fu, &found));
  PetscCall(Where(job, "hybrid.source", w, sizeof(w)));
  PetscCheck(!found || !strcmp(fu.name, job->units.name), job->comm, DR_ERR_INPUT, "%s: %s was computed in %s but the job's model.units is %s, expected the same system", w, job->source, fu.name, job->units.name);
  for (PetscInt k = 0; k < job->nm; k++) PetscCall(ReadModel(job, &job->m[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One run of model m with step h (model time units): Y (may be NULL). */
static PetscErrorCode Run(DRHybridJob job, HybModel *m, PetscReal h, PetscInt nsteps, PetscReal Y[], PetscReal *wall, PetscInt *its)
{
  PetscInt        r = m->r, *obs;
  PetscReal      *K, *D, *P, *g;
  DRHybridElement el;
  DRHybridModel   hm;
  DRSSInput       u;
  SigCtx          sc = {&job->sig, job->units.time_s};
  PetscLogDouble  t0, t1;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc5(r * r, &K, r * r, &D, r * job->nin + 1, &P, r, &g, r, &obs));
  PetscCall(Element(job, m, &el, g));
  for (PetscInt i = 0; i < r; i++) {
    obs[i] = i;
    for (PetscInt j = 0; j < r; j++) {
      K[i * r + j] = m->K[i * r + j] - job->k_model * g[i] * g[j]; /* the element's share of K: its own law now */
      D[i * r + j] = job->alpha * m->M[i * r + j] + job->beta * K[i * r + j];
    }
    for (PetscInt j = 0; j < job->nin; j++) P[i * job->nin + j] = m->labels[i] == job->in[j] ? 1.0 : 0.0;
  }
  hm.n   = r;
  hm.nin = job->nin;
  hm.M   = m->M;
  hm.D   = D;
  hm.K   = K;
  hm.P   = P;
  hm.el  = &el;
  u.nin  = job->nin;
  u.eval = SigEval;
  u.ctx  = &sc;
  PetscCall(PetscTime(&t0));
  PetscCall(DRHybridSimulate(&hm, job->method, h, nsteps, &u, Y ? r : 0, obs, Y, its));
  PetscCall(PetscTime(&t1));
  *wall = (PetscReal)(t1 - t0) / PetscMax(nsteps, 1);
  PetscCall(PetscFree5(K, D, P, g, obs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobSolve(DRHybridJob job)
{
  PetscInt   ns = job->nsteps, n = job->full.r, its;
  PetscReal  h  = job->h / job->units.time_s, wall;
  HybModel  *f  = &job->full;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_SS_Simulate, 0, 0, 0, 0));
  PetscCall(PetscMalloc1((ns + 1) * n, &f->Y));
  PetscCall(Run(job, f, h, ns, f->Y, &f->wall[0], &f->its));
  for (PetscInt k = 0; k < job->nm; k++) {
    HybModel *m = &job->m[k];
    PetscReal s = 0, sa = 0;
    PetscCall(PetscMalloc1((ns + 1) * m->r, &m->Y));
    PetscCall(Run(job, m, h, ns, m->Y, &m->wall[0], &m->its));
    for (PetscInt t = 0; t <= ns; t++)
      for (PetscInt i = 0; i < m->r; i++) {
        PetscReal d = m->Y[t * m->r + i] - f->Y[t * n + m->map[i]];
        sa += d * d;
        if (i == m->col) s += d * d;
      }
    m->mse     = s / (ns + 1);
    m->mse_all = sa / ((ns + 1) * m->r);
  }
  /* time per step against the step size (same span t_end) */
  for (PetscInt q = 0; q < job->nh; q++) {
    PetscReal hq = job->hs[q] / job->units.time_s;
    PetscInt  nq = (PetscInt)PetscCeilReal(job->t_end / job->hs[q] - 1e-9);
    PetscCall(Run(job, f, hq, nq, NULL, &wall, &its));
    f->wall[1 + q] = wall;
    for (PetscInt k = 0; k < job->nm; k++) PetscCall(Run(job, &job->m[k], hq, nq, NULL, &job->m[k].wall[1 + q], &its));
  }
  PetscCall(PetscLogEventEnd(DR_SS_Simulate, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobView(DRHybridJob job, PetscViewer v)
{
  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIPrintf(v, "hybrid: %s, law %s between nodes %" PetscInt_FMT " and %" PetscInt_FMT ", h = %g s, %" PetscInt_FMT " steps, model units %s; MSE of %lld.%d against the full model (%" PetscInt_FMT " DOFs, %.3g us/step)\n", job->method, job->law, job->node[0], job->node[1], (double)job->h, job->nsteps, job->units.name, (long long)DRLabelNode(job->mse_label), (int)DRLabelDir(job->mse_label), job->full.r, (double)(1e6 * job->full.wall[0])));
  PetscCall(PetscViewerASCIIPrintf(v, "  %-22s %5s %14s %14s %12s %10s\n", "model", "r", "MSE", "MSE (masters)", "us/step", "Newton"));
  for (PetscInt k = 0; k < job->nm; k++) {
    HybModel *m = &job->m[k];
    PetscCall(PetscViewerASCIIPrintf(v, "  %-22s %5" PetscInt_FMT " %14.6e %14.6e %12.3f %10" PetscInt_FMT "\n", m->name, m->r, (double)m->mse, (double)m->mse_all, (double)(1e6 * m->wall[0]), m->its));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobWrite(DRHybridJob job, DRStore s)
{
  PetscInt   ns = job->nsteps, d2[2], nh = job->nh;
  PetscReal *t, *wt;
  char       g[64], ds[96], lu[32];

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_SS_Write, 0, 0, 0, 0));
  PetscCall(PetscSNPrintf(lu, sizeof(lu), "%s", job->units.length));
  PetscCall(PetscMalloc2(ns + 1, &t, (job->nm + 1) * (nh + 1), &wt));
  for (PetscInt i = 0; i <= ns; i++) t[i] = i * job->h;
  PetscCall(DRStoreWriteReal(s, "/hybrid/t", 1, (PetscInt[]){ns + 1}, t, "s"));
  PetscCall(DRStoreAttrString(s, "/hybrid", "method", job->method));
  PetscCall(DRStoreAttrString(s, "/hybrid", "law", job->law));
  if (job->table) PetscCall(DRStoreAttrString(s, "/hybrid", "law_table", job->table_file));
  PetscCall(DRStoreAttrReal(s, "/hybrid", "h_s", job->h));
  PetscCall(DRStoreAttrReal(s, "/hybrid", "t_end_s", job->t_end));
  PetscCall(DRStoreAttrInt(s, "/hybrid", "nsteps", ns));
  PetscCall(DRStoreAttrString(s, "/hybrid", "units", job->units.name));
  PetscCall(DRStoreAttrString(s, "/hybrid", "time_unit", "s"));
  PetscCall(DRStoreAttrString(s, "/hybrid", "displacement_unit", lu));
  PetscCall(DRStoreWriteLabels(s, "/hybrid/mse_dof", 1, &job->mse_label));
  PetscCall(DRStoreWriteReal(s, "/hybrid/element_direction", 1, (PetscInt[]){2}, job->e, NULL));
  PetscCall(DRStoreAttrReal(s, "/hybrid", "k_model", job->k_model));
  for (PetscInt k = -1; k < job->nm; k++) {
    HybModel *m = k < 0 ? &job->full : &job->m[k];
    if (k < 0) PetscCall(PetscStrncpy(g, "/hybrid/full", sizeof(g)));
    else PetscCall(PetscSNPrintf(g, sizeof(g), "/hybrid/models/%03" PetscInt_FMT, k + 1));
    d2[0] = ns + 1;
    d2[1] = m->r;
    PetscCall(PetscSNPrintf(ds, sizeof(ds), "%s/y", g));
    PetscCall(DRStoreWriteReal(s, ds, 2, d2, m->Y, lu));
    PetscCall(PetscSNPrintf(ds, sizeof(ds), "%s/labels", g));
    PetscCall(DRStoreWriteLabels(s, ds, m->r, m->labels));
    PetscCall(DRStoreAttrString(s, g, "source", m->name));
    PetscCall(DRStoreAttrInt(s, g, "r", m->r));
    PetscCall(DRStoreAttrInt(s, g, "newton_iterations", m->its));
    PetscCall(DRStoreAttrReal(s, g, "wall_per_step_s", m->wall[0]));
    d2[0] = d2[1] = m->r; /* the model's own K (with the element's k_model) and M */
    PetscCall(PetscSNPrintf(ds, sizeof(ds), "%s/K", g));
    PetscCall(DRStoreWriteReal(s, ds, 2, d2, m->K, NULL));
    PetscCall(PetscSNPrintf(ds, sizeof(ds), "%s/M", g));
    PetscCall(DRStoreWriteReal(s, ds, 2, d2, m->M, NULL));
    if (k >= 0) {
      PetscCall(DRStoreAttrReal(s, g, "mse", m->mse));
      PetscCall(DRStoreAttrReal(s, g, "mse_masters", m->mse_all));
    }
    for (PetscInt q = 0; q < nh; q++) wt[(k + 1) * nh + q] = m->wall[1 + q];
  }
  if (nh) {
    PetscCall(DRStoreWriteReal(s, "/hybrid/timing/h", 1, &nh, job->hs, "s"));
    d2[0] = job->nm + 1;
    d2[1] = nh;
    PetscCall(DRStoreWriteReal(s, "/hybrid/timing/wall_per_step", 2, d2, wt, "s"));
    PetscCall(DRStoreAttrString(s, "/hybrid/timing", "rows", "full, then /hybrid/models/001, 002, ...; real time where wall_per_step < h"));
  }
  PetscCall(PetscFree2(t, wt));
  PetscCall(PetscLogEventEnd(DR_SS_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ModelFree(HybModel *m)
{
  PetscFunctionBeginUser;
  if (m->K) PetscCall(PetscFree4(m->K, m->M, m->labels, m->map));
  PetscCall(PetscFree(m->Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridJobDestroy(DRHybridJob *job)
{
  PetscFunctionBeginUser;
  if (!*job) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ModelFree(&(*job)->full));
  for (PetscInt k = 0; k < (*job)->nm; k++) PetscCall(ModelFree(&(*job)->m[k]));
  PetscCall(PetscFree((*job)->in));
  PetscCall(DRSignalDestroy(&(*job)->sig));
  PetscCall(DRHybridTableDestroy(&(*job)->table));
  PetscCall(PetscFree(*job));
  PetscFunctionReturn(PETSC_SUCCESS);
}
