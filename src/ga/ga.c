/* Master-DOF selection by NSGA-II with evaluations on the task farm (ga.h).
 *
 * Flow per generation (rank 0 drives, everyone follows the broadcasts):
 *   rank 0: tournament selection, uniform crossover, bit-flip mutation ->
 *           offspring; look each up in the cache; the distinct uncached ones
 *           with at least b masters form the batch;
 *   all:    broadcast the batch; DRFarmRun evaluates it (each group
 *           condenses with its own factorization of K0);
 *   rank 0: results into the cache; parents + offspring -> unique
 *           bitstrings -> fronts and crowding -> the next population;
 *           hypervolume of front 0 for the stall test; checkpoint.
 * The checkpoint (HDF5 side file, written to PATH.tmp and renamed) holds the
 * population with its fronts, the RNG state, the hypervolume history and
 * the cache, so a restarted run repeats exactly what the killed one would
 * have done.
 */
#include <dynred/ga.h>
#include <dynred/condense.h>
#include <dynred/farm.h>
#include <dynred/model.h>
#include <dynred/modal.h>
#include "nsga2.h"
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <math.h>

/* cache values: e, feasible (1/0), omega_max^2 of the reduced model, IDC outer steps */
#define NVAL 4

static const DRConfigKey ga_keys[] = {
  {"ga.method", DR_CFG_STRING, "idc", "condensation of each individual: idc | irs | guyan", NULL, NULL, NULL},
  {"ga.fmax", DR_CFG_REAL, "150", "highest excitation frequency [Hz]; b = smallest mode index with f_b >= 3 fmax", NULL, NULL, NULL},
  {"ga.time_unit", DR_CFG_REAL, "1", "seconds per time unit of the model (1e-3 for N, mm, ms, g)", NULL, NULL, NULL},
  {"ga.forced_masters", DR_CFG_STRING, "", "forced masters, not genes: [15H, 15V, 6V] (H x, V y, Z z, RX, RY, RZ; or node.dir)", NULL, NULL, NULL},
  {"ga.candidate_nodes", DR_CFG_LIST, "", "restrict the candidate DOFs to these nodes (empty: all nodes)", NULL, NULL, NULL},
  {"ga.rotations", DR_CFG_BOOL, "false", "also rotations (with nonzero mass) as candidates", NULL, NULL, NULL},
  {"ga.population", DR_CFG_INT, "400", "population size (even)", NULL, NULL, NULL},
  {"ga.generations", DR_CFG_INT, "0", "maximum number of generations (0: 100 x number of candidates)", NULL, NULL, NULL},
  {"ga.crossover", DR_CFG_REAL, "0.8", "probability of uniform crossover for a pair of parents", NULL, NULL, NULL},
  {"ga.mutation", DR_CFG_REAL, "0.1", "bit-flip probability per gene", NULL, NULL, NULL},
  {"ga.stall_generations", DR_CFG_INT, "100", "stall window: stop when the mean relative change of the front's hypervolume over this many generations <= stall_tol", NULL, NULL, NULL},
  {"ga.stall_tol", DR_CFG_REAL, "1e-4", "stall tolerance", NULL, NULL, NULL},
  {"ga.seed", DR_CFG_INT, "1", "RNG seed (the front depends on it, not on the number of ranks)", NULL, NULL, NULL},
  {"ga.checkpoint_every", DR_CFG_INT, "10", "write the GA checkpoint every k generations (0: never)", NULL, NULL, NULL},
  {"ga.checkpoint", DR_CFG_STRING, "", "checkpoint file (default: OUTPUT.ckpt.h5); a run finding it continues from it", NULL, NULL, NULL},
  {"ga.stop_after_generation", DR_CFG_INT, "0", "testing: write the checkpoint after this generation and exit 1 (a killed run)", NULL, NULL, NULL},
  {"ga.idc.inner", DR_CFG_INT, "1", "IDC: inner iterations per outer step", NULL, NULL, NULL},
  {"ga.idc.outer", DR_CFG_INT, "1", "IDC: maximum outer steps (converged IDC reproduces the full frequencies for every master set that observes them, so e would only measure round-off: the GA compares master sets after a fixed number of steps)", NULL, NULL, NULL},
  {"ga.e_resolution", DR_CFG_REAL, "1e-10", "e is rounded to a multiple of this (differences below it are round-off, not a better master set)", NULL, NULL, NULL},
  {"ga.idc.tol", DR_CFG_REAL, "1e-6", "IDC: relative change of the lowest b reduced frequencies to stop at", NULL, NULL, NULL},
  {"ga.group_size", DR_CFG_INT, "0", "ranks per farm group (0: 1, or all ranks when the model has >= ga.distributed_dofs DOFs); -farm_group_size overrides", NULL, NULL, NULL},
  {"ga.distributed_dofs", DR_CFG_INT, "50000", "models this large get one distributed factorization per group", NULL, NULL, NULL},
  {"ga.dense_max", DR_CFG_INT, "4000", "keep dense K0^{-1} and K0^{-1} M per group up to this many DOFs (1-rank groups)", NULL, NULL, NULL},
  {"ga.dt_safety", DR_CFG_REAL, "0.9", "suggested step = dt_safety x critical central-difference step 2/omega_max", NULL, NULL, NULL},
  {"ga.progress_every", DR_CFG_INT, "1", "a progress line every k generations", NULL, NULL, NULL},
  {"ga.csv", DR_CFG_STRING, "", "front as CSV (default: OUTPUT with .csv)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRGARegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(ga_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct _p_DRGA {
  MPI_Comm         comm;
  PetscMPIInt      rank, size;
  char             origin[PETSC_MAX_PATH_LEN], output[PETSC_MAX_PATH_LEN], ckpt[PETSC_MAX_PATH_LEN], csv[PETSC_MAX_PATH_LEN], signature[512];
  /* settings */
  DRCondenseMethod method;
  PetscInt         inner, outer, pop, maxgen, stall_gens, ckpt_every, stop_after, progress_every, group_size, dist_dofs, dense_max;
  PetscInt64       seed;
  PetscReal        e_res, idc_tol, fmax, time_unit, pc, pm, stall_tol, dt_safety;
  /* problem (replicated) */
  PetscInt  n, nforced, nvar, nw, b, nfull;
  DRLabel  *labels;          /* n, row order */
  PetscInt *forced, *cand;   /* row indices */
  PetscReal *lam_full;       /* nfull lowest eigenvalues of the full model */
  /* per group */
  DRFarm      farm;
  MPI_Comm    group;
  PetscInt    ngroups;
  DRComponent model;
  DRCondense  cond;
  /* evaluation batch (replicated during a farm run) */
  PetscInt  nbatch;
  uint64_t *batch;
  PetscBool full_result;
  /* GA state (rank 0) */
  DRRng      rng;
  DRBitCache cache;
  uint64_t  *P;
  PetscReal *Pr, *Pe, *Pcrowd;
  PetscBool *Pfeas;
  PetscInt  *Pfront;
  PetscInt   gen;
  PetscReal *hv, eref, rref;
  PetscInt   nevals, nrestored_gen;
  char       stop_reason[128];
  PetscReal  t_eval, t_total;
  /* final front (replicated after DRGASolve) */
  PetscInt   nfront;
  uint64_t  *fbits;
  PetscReal *Kfull, *Mfull; /* dense full model on rank 0 when n <= dense_max (written to /ga/model) */
};

const char *DRGALabelString(DRLabel l, char buf[32])
{
  static const char *dn[7] = {"?", "H", "V", "Z", "RX", "RY", "RZ"};
  PetscInt           d     = DRLabelDir(l);
  snprintf(buf, 32, "%lld%s", (long long)DRLabelNode(l), d >= 1 && d <= 6 ? dn[d] : "?");
  return buf;
}

PetscBool DRGALabelParse(const char *s, DRLabel *l)
{
  char     *end;
  long long node;
  PetscInt  dir = 0;

  while (*s == ' ') s++;
  node = strtoll(s, &end, 10);
  if (end == s || node < 0) return PETSC_FALSE;
  if (*end == '.') {
    if (!end[1] || end[1] < '1' || end[1] > '6' || end[2]) return PETSC_FALSE;
    dir = end[1] - '0';
  } else if (!strcmp(end, "H")) dir = 1;
  else if (!strcmp(end, "V")) dir = 2;
  else if (!strcmp(end, "Z")) dir = 3;
  else if (!strcmp(end, "RX")) dir = 4;
  else if (!strcmp(end, "RY")) dir = 5;
  else if (!strcmp(end, "RZ") || !strcmp(end, "R")) dir = 6;
  else return PETSC_FALSE;
  *l = DRLabelMake(node, dir);
  return PETSC_TRUE;
}

PetscErrorCode DRGACreate(MPI_Comm comm, DRGA *ga)
{
  DRGA g;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&g));
  g->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &g->rank));
  PetscCallMPI(MPI_Comm_size(comm, &g->size));
  *ga = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGADestroy(DRGA *ga)
{
  DRGA g = *ga;

  PetscFunctionBeginUser;
  if (!g) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRCondenseDestroy(&g->cond));
  PetscCall(DRComponentDestroy(&g->model));
  PetscCall(DRFarmDestroy(&g->farm));
  PetscCall(PetscFree(g->labels));
  PetscCall(PetscFree2(g->forced, g->cand));
  PetscCall(PetscFree(g->lam_full));
  PetscCall(PetscFree(g->batch));
  if (g->rank == 0) {
    PetscCall(DRBitCacheDestroy(&g->cache));
    PetscCall(PetscFree6(g->P, g->Pr, g->Pe, g->Pcrowd, g->Pfeas, g->Pfront));
    PetscCall(PetscFree(g->hv));
  }
  PetscCall(PetscFree(g->fbits));
  PetscCall(PetscFree2(g->Kfull, g->Mfull));
  PetscCall(PetscFree(g));
  *ga = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Full eigenvalues (the lowest nfull, enough to pass 3 omega_max) on comm. */
static PetscErrorCode FullEigenvalues(DRGA g, DRComponent c, PetscReal lmax)
{
  PetscFunctionBeginUser;
  if (c->n <= g->dense_max) {
    /* dense LAPACK on rank 0 (accurate low modes), then broadcast */
    Mat        Kr, Mr, Kd, Md;
    PetscReal *lam;
    PetscInt   nf = 0;
    PetscCall(MatCreateRedundantMatrix(c->K, g->size, PETSC_COMM_SELF, MAT_INITIAL_MATRIX, &Kr));
    PetscCall(MatCreateRedundantMatrix(c->M, g->size, PETSC_COMM_SELF, MAT_INITIAL_MATRIX, &Mr));
    PetscCall(MatConvert(Kr, MATSEQDENSE, MAT_INITIAL_MATRIX, &Kd));
    PetscCall(MatConvert(Mr, MATSEQDENSE, MAT_INITIAL_MATRIX, &Md));
    PetscCall(PetscMalloc1(c->n, &lam));
    if (g->rank == 0) {
      const PetscScalar *k, *m;
      PetscCall(MatDenseGetArrayRead(Kd, &k));
      PetscCall(MatDenseGetArrayRead(Md, &m));
      PetscCall(DRDenseEigen(c->n, k, m, c->n, 0, &nf, lam, NULL));
      PetscCall(PetscMalloc2(c->n * c->n, &g->Kfull, c->n * c->n, &g->Mfull));
      for (PetscInt j = 0; j < c->n; j++)
        for (PetscInt i = 0; i < c->n; i++) {
          g->Kfull[i + j * c->n] = k[i + j * c->n];
          g->Mfull[i + j * c->n] = m[i + j * c->n];
        }
      PetscCall(MatDenseRestoreArrayRead(Kd, &k));
      PetscCall(MatDenseRestoreArrayRead(Md, &m));
    }
    PetscCallMPI(MPI_Bcast(&nf, 1, MPIU_INT, 0, g->comm));
    PetscCallMPI(MPI_Bcast(lam, (PetscMPIInt)nf, MPIU_REAL, 0, g->comm));
    g->nfull = nf;
    g->lam_full = lam;
    PetscCall(MatDestroy(&Kr));
    PetscCall(MatDestroy(&Mr));
    PetscCall(MatDestroy(&Kd));
    PetscCall(MatDestroy(&Md));
  } else {
    /* SLEPc: the lowest nev modes, doubling nev until one passes lmax */
    PetscInt nev = 8;
    for (;;) {
      DRModal          modal;
      PetscInt         nm;
      const PetscReal *lam;
      PetscCall(DRModalCreate(g->comm, &modal));
      PetscCall(DRModalSetOptionsPrefix(modal, "ga_full_"));
      PetscCall(DRModalSetOperators(modal, c->K, c->M, c->source));
      PetscCall(DRModalSetRange(modal, PetscMin(nev, c->n), 0));
      PetscCall(DRModalSetFromOptions(modal));
      PetscCall(DRModalSolve(modal));
      PetscCall(DRModalGetModes(modal, &nm, NULL, &lam, NULL, NULL));
      if ((nm > 0 && lam[nm - 1] >= lmax) || nm >= c->n || nev >= c->n) {
        PetscCall(PetscMalloc1(nm + 1, &g->lam_full));
        PetscCall(PetscArraycpy(g->lam_full, lam, nm));
        g->nfull = nm;
        PetscCall(DRModalDestroy(&modal));
        break;
      }
      PetscCall(DRModalDestroy(&modal));
      nev *= 2;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGASetFromConfig(DRGA g, DRConfig cfg)
{
  char        s[4096], where[PETSC_MAX_PATH_LEN + 32], mname[32];
  const char *origin;
  DRComponent world;
  PetscReal  *mdiag, lmax, *cn;
  PetscInt    ncn = 100000, gs;
  PetscBool   rot;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetOrigin(cfg, &origin));
  PetscCall(PetscStrncpy(g->origin, origin, sizeof(g->origin)));
  PetscCall(DRConfigGetString(cfg, "output", g->output, sizeof(g->output), NULL));
  PetscCall(DRConfigGetString(cfg, "ga.method", mname, sizeof(mname), NULL));
  PetscCall(DRConfigWhere(cfg, "ga.method", where, sizeof(where)));
  PetscCheck(DRCondenseMethodFromString(mname, &g->method), g->comm, DR_ERR_INPUT, "%s: ga.method = '%s', expected idc, irs or guyan", where, mname);
#define GETI(k, v, cond, what)                                                                                     \
  do {                                                                                                            \
    PetscCall(DRConfigGetInt(cfg, k, &(v), NULL));                                                                \
    PetscCall(DRConfigWhere(cfg, k, where, sizeof(where)));                                                       \
    PetscCheck(cond, g->comm, DR_ERR_INPUT, "%s: %s = %" PetscInt_FMT ", expected %s", where, k, (PetscInt)(v), what); \
  } while (0)
#define GETR(k, v, cond, what)                                                                         \
  do {                                                                                                \
    PetscCall(DRConfigGetReal(cfg, k, &(v), NULL));                                                   \
    PetscCall(DRConfigWhere(cfg, k, where, sizeof(where)));                                           \
    PetscCheck(cond, g->comm, DR_ERR_INPUT, "%s: %s = %g, expected %s", where, k, (double)(v), what); \
  } while (0)
  GETI("ga.population", g->pop, g->pop >= 4 && g->pop % 2 == 0, "an even number >= 4");
  GETI("ga.generations", g->maxgen, g->maxgen >= 0, ">= 0");
  GETI("ga.stall_generations", g->stall_gens, g->stall_gens >= 1, ">= 1");
  GETI("ga.checkpoint_every", g->ckpt_every, g->ckpt_every >= 0, ">= 0");
  GETI("ga.stop_after_generation", g->stop_after, g->stop_after >= 0, ">= 0");
  GETI("ga.progress_every", g->progress_every, g->progress_every >= 1, ">= 1");
  GETI("ga.idc.inner", g->inner, g->inner >= 1, ">= 1");
  GETI("ga.idc.outer", g->outer, g->outer >= 0, ">= 0");
  GETI("ga.group_size", g->group_size, g->group_size >= 0, ">= 0");
  GETI("ga.distributed_dofs", g->dist_dofs, g->dist_dofs >= 1, ">= 1");
  GETI("ga.dense_max", g->dense_max, g->dense_max >= 0, ">= 0");
  {
    PetscInt seed;
    GETI("ga.seed", seed, seed >= 0, ">= 0");
    g->seed = seed;
  }
  GETR("ga.idc.tol", g->idc_tol, g->idc_tol >= 0, ">= 0");
  GETR("ga.e_resolution", g->e_res, g->e_res >= 0, ">= 0");
  GETR("ga.fmax", g->fmax, g->fmax > 0, "a positive frequency [Hz]");
  GETR("ga.time_unit", g->time_unit, g->time_unit > 0, "seconds per model time unit > 0");
  GETR("ga.crossover", g->pc, g->pc >= 0 && g->pc <= 1, "a probability 0..1");
  GETR("ga.mutation", g->pm, g->pm >= 0 && g->pm <= 1, "a probability 0..1");
  GETR("ga.stall_tol", g->stall_tol, g->stall_tol >= 0, ">= 0");
  GETR("ga.dt_safety", g->dt_safety, g->dt_safety > 0 && g->dt_safety <= 1, "0 < dt_safety <= 1");
#undef GETI
#undef GETR
  PetscCall(DRConfigGetBool(cfg, "ga.rotations", &rot, NULL));
  PetscCall(DRConfigGetString(cfg, "ga.checkpoint", g->ckpt, sizeof(g->ckpt), NULL));
  if (!g->ckpt[0]) PetscCall(PetscSNPrintf(g->ckpt, sizeof(g->ckpt), "%s.ckpt.h5", g->output));
  PetscCall(DRConfigGetString(cfg, "ga.csv", g->csv, sizeof(g->csv), NULL));
  if (!g->csv[0]) {
    size_t l = strlen(g->output);
    if (l > 3 && !strcmp(g->output + l - 3, ".h5")) PetscCall(PetscSNPrintf(g->csv, sizeof(g->csv), "%.*s.csv", (int)(l - 3), g->output));
    else PetscCall(PetscSNPrintf(g->csv, sizeof(g->csv), "%s.csv", g->output));
  }

  /* the model on the whole communicator: labels, masses, full frequencies */
  PetscCall(DRModelCreateFull(cfg, g->comm, &world));
  g->n = world->n;
  PetscCall(PetscMalloc1(g->n, &g->labels));
  PetscCall(PetscArraycpy(g->labels, world->labels, g->n));
  {
    Vec                d, dz;
    VecScatter         sc;
    const PetscScalar *a;
    PetscCall(MatCreateVecs(world->M, &d, NULL));
    PetscCall(MatGetDiagonal(world->M, d));
    PetscCall(VecScatterCreateToAll(d, &sc, &dz));
    PetscCall(VecScatterBegin(sc, d, dz, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, d, dz, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(PetscMalloc1(g->n, &mdiag));
    PetscCall(VecGetArrayRead(dz, &a));
    for (PetscInt i = 0; i < g->n; i++) mdiag[i] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(dz, &a));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&dz));
    PetscCall(VecDestroy(&d));
  }

  /* forced masters */
  PetscCall(DRConfigGetString(cfg, "ga.forced_masters", s, sizeof(s), NULL));
  PetscCall(DRConfigWhere(cfg, "ga.forced_masters", where, sizeof(where)));
  PetscCall(PetscMalloc2(g->n, &g->forced, g->n, &g->cand));
  {
    char *save = NULL, *copy;
    PetscCall(PetscStrallocpy(s, &copy));
    for (char *tok = strtok_r(copy, ", []", &save); tok; tok = strtok_r(NULL, ", []", &save)) {
      DRLabel  l;
      PetscInt row = -1;
      char     b[32];
      PetscCheck(DRGALabelParse(tok, &l), g->comm, DR_ERR_INPUT, "%s: ga.forced_masters entry '%s' is not a DOF label, expected NODE followed by H, V, Z, RX, RY, RZ (e.g. 15H) or NODE.DIR", where, tok);
      for (PetscInt i = 0; i < g->n; i++)
        if (g->labels[i] == l) row = i;
      PetscCheck(row >= 0, g->comm, DR_ERR_INPUT, "%s: ga.forced_masters entry '%s' (%s) is not a DOF of the model (%s), expected a free DOF", where, tok, DRLabelString(l, b), world->source);
      for (PetscInt k = 0; k < g->nforced; k++) PetscCheck(g->forced[k] != row, g->comm, DR_ERR_INPUT, "%s: ga.forced_masters lists '%s' twice", where, tok);
      g->forced[g->nforced++] = row;
    }
    PetscCall(PetscFree(copy));
    PetscCall(PetscSortInt(g->nforced, g->forced));
  }
  /* candidates: translations (rotations on request) with mass, not forced */
  PetscCall(PetscMalloc1(ncn, &cn));
  PetscCall(DRConfigGetRealArray(cfg, "ga.candidate_nodes", cn, &ncn, NULL));
  PetscCall(PetscSortReal(ncn, cn));
  for (PetscInt i = 0; i < g->n; i++) {
    PetscInt  d = DRLabelDir(g->labels[i]), loc = -1;
    PetscBool isf = PETSC_FALSE;
    for (PetscInt k = 0; k < g->nforced; k++)
      if (g->forced[k] == i) isf = PETSC_TRUE;
    if (isf || !(mdiag[i] > 0) || (d > 3 && !rot)) continue;
    if (ncn) {
      PetscReal node = (PetscReal)DRLabelNode(g->labels[i]);
      PetscInt  lo = 0, hi = ncn - 1;
      while (lo <= hi) {
        PetscInt mid = (lo + hi) / 2;
        if (cn[mid] == node) {
          loc = mid;
          break;
        }
        if (cn[mid] < node) lo = mid + 1;
        else hi = mid - 1;
      }
      if (loc < 0) continue;
    }
    g->cand[g->nvar++] = i;
  }
  PetscCall(PetscFree(cn));
  PetscCall(PetscFree(mdiag));
  PetscCall(DRConfigWhere(cfg, "ga.forced_masters", where, sizeof(where)));
  PetscCheck(g->nvar > 0, g->comm, DR_ERR_INPUT, "%s: no candidate DOFs (translations with mass, not forced), expected at least one gene", where);
  g->nw = (g->nvar + 63) / 64;
  if (!g->maxgen) g->maxgen = 100 * g->nvar;

  /* full frequencies and b */
  lmax = PetscSqr(3 * 2 * PETSC_PI * g->fmax * g->time_unit);
  PetscCall(FullEigenvalues(g, world, lmax));
  g->b = 0;
  for (PetscInt k = 0; k < g->nfull; k++)
    if (g->lam_full[k] >= lmax) {
      g->b = k + 1;
      break;
    }
  PetscCall(DRConfigWhere(cfg, "ga.fmax", where, sizeof(where)));
  PetscCheck(g->b > 0, g->comm, DR_ERR_INPUT, "%s: no mode of the model reaches 3 x ga.fmax = %g Hz (highest %g Hz), expected a smaller fmax or a finer model", where, (double)(3 * g->fmax), g->nfull ? (double)(PetscSqrtReal(g->lam_full[g->nfull - 1]) / (2 * PETSC_PI * g->time_unit)) : 0.0);
  PetscCall(PetscPrintf(g->comm, "model %s (%s): %" PetscInt_FMT " DOFs\n", world->name, world->source, world->n));
  PetscCall(DRComponentDestroy(&world));

  /* farm groups, each with its own model and factorization of K0 */
  gs = g->group_size ? g->group_size : (g->n >= g->dist_dofs ? g->size : 1);
  PetscCall(DRFarmCreate(g->comm, &g->farm));
  PetscCall(DRFarmSetGroupSize(g->farm, gs));
  PetscCall(DRFarmSetLabel(g->farm, "individual"));
  PetscCall(DRFarmSetFromOptions(g->farm));
  PetscCall(DRFarmSetUp(g->farm));
  PetscCall(DRFarmGetGroup(g->farm, &g->group, NULL, &g->ngroups));
  PetscCall(DRModelCreateFull(cfg, g->group, &g->model));
  {
    PetscBool same = (PetscBool)(g->model->n == g->n), all;
    for (PetscInt i = 0; same && i < g->n; i++) same = (PetscBool)(g->model->labels[i] == g->labels[i]);
    PetscCall(MPIU_Allreduce(&same, &all, 1, MPIU_BOOL, MPI_LAND, g->comm));
    PetscCheck(all, g->comm, PETSC_ERR_PLIB, "ga: the model built on a rank group numbers its DOFs differently from the whole-communicator model");
  }
  PetscCall(DRCondenseCreate(g->model->K, g->model->M, &g->cond));
  PetscCall(DRCondenseSetMethod(g->cond, g->method));
  PetscCall(DRCondenseSetIDC(g->cond, g->inner, g->outer, g->idc_tol, g->b));
  PetscCall(DRCondenseSetDenseMax(g->cond, g->dense_max));
  PetscCall(DRCondenseSetUp(g->cond));

  /* what identifies this optimisation in a checkpoint */
  PetscCall(PetscSNPrintf(g->signature, sizeof(g->signature), "n=%" PetscInt_FMT " nvar=%" PetscInt_FMT " nforced=%" PetscInt_FMT " b=%" PetscInt_FMT " method=%s inner=%" PetscInt_FMT " outer=%" PetscInt_FMT " tol=%g eres=%g pop=%" PetscInt_FMT " maxgen=%" PetscInt_FMT " pc=%g pm=%g seed=%lld stall=%" PetscInt_FMT "/%g", g->n, g->nvar, g->nforced, g->b, DRCondenseMethodName(g->method), g->inner, g->outer, (double)g->idc_tol, (double)g->e_res, g->pop, g->maxgen, (double)g->pc, (double)g->pm, (long long)g->seed, g->stall_gens, (double)g->stall_tol));
  {
    char fl[1024] = "", b[32];
    for (PetscInt k = 0; k < g->nforced; k++) {
      PetscCall(PetscStrlcat(fl, k ? " " : "", sizeof(fl)));
      PetscCall(PetscStrlcat(fl, DRGALabelString(g->labels[g->forced[k]], b), sizeof(fl)));
    }
    PetscCall(PetscPrintf(g->comm, "ga: %" PetscInt_FMT " DOFs, %" PetscInt_FMT " forced masters (%s), %" PetscInt_FMT " candidate DOFs (genes); b = %" PetscInt_FMT " (f_b = %.4g Hz >= 3 x %g Hz); %s condensation; %" PetscInt_FMT " farm group(s) of %" PetscInt_FMT " rank(s)\n", g->n, g->nforced, fl, g->nvar, g->b, (double)(PetscSqrtReal(g->lam_full[g->b - 1]) / (2 * PETSC_PI * g->time_unit)), (double)g->fmax, DRCondenseMethodName(g->method), g->ngroups, gs));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* masters (sorted rows) of a bitstring; returns r */
static PetscInt Masters(DRGA g, const uint64_t *bits, PetscInt *m)
{
  PetscInt r = 0;
  for (PetscInt k = 0; k < g->nforced; k++) m[r++] = g->forced[k];
  for (PetscInt j = 0; j < g->nvar; j++)
    if (DRBitGet(bits, j)) m[r++] = g->cand[j];
  (void)PetscSortInt(r, m);
  return r;
}

/* One individual on a farm group: [e, feasible, lambda_max_R, outer] and,
 * for the final front, [lam (r), K_R (r*r), M_R (r*r)] after them. */
static PetscErrorCode EvalTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *nres, PetscReal **res)
{
  DRGA           g = (DRGA)ctx;
  PetscInt      *m, r;
  PetscReal     *KR = NULL, *MR = NULL, *lam, e = 0;
  DRCondenseInfo info;
  PetscMPIInt    grank;
  PetscBool      feas;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(g->n, &m));
  r = Masters(g, g->batch + task * g->nw, m);
  PetscCall(PetscMalloc1(r, &lam));
  if (g->full_result) PetscCall(PetscMalloc2(r * r, &KR, r * r, &MR));
  PetscCall(DRCondenseReduce(g->cond, r, m, KR, MR, lam, &info));
  feas = (PetscBool)(info.status == DR_CONDENSE_OK && r >= g->b);
  if (feas) {
    for (PetscInt h = 0; h < g->b; h++) e += (PetscSqrtReal(lam[h]) - PetscSqrtReal(g->lam_full[h])) / PetscSqrtReal(g->lam_full[h]);
    if (g->e_res > 0) e = g->e_res * round(e / g->e_res);
  }
  PetscCallMPI(MPI_Comm_rank(group, &grank));
  if (grank == 0) {
    *nres = NVAL + (g->full_result ? r + 2 * r * r : 0);
    PetscCall(PetscMalloc1(*nres, res));
    (*res)[0] = feas ? e : DR_GA_PENALTY;
    (*res)[1] = feas ? 1 : 0;
    (*res)[2] = info.status == DR_CONDENSE_OK ? lam[r - 1] : 0;
    (*res)[3] = (PetscReal)info.outer;
    if (g->full_result) {
      PetscCall(PetscArraycpy(*res + NVAL, lam, r));
      PetscCall(PetscArraycpy(*res + NVAL + r, KR, r * r));
      PetscCall(PetscArraycpy(*res + NVAL + r + r * r, MR, r * r));
    }
  }
  if (g->full_result) PetscCall(PetscFree2(KR, MR));
  PetscCall(PetscFree(lam));
  PetscCall(PetscFree(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the objectives of nind bitstrings (rank 0's) into e, feas. */
static PetscErrorCode Evaluate(DRGA g, PetscInt nind, const uint64_t *bits, PetscReal *r, PetscReal *e, PetscBool *feas)
{
  PetscInt       *slot = NULL;
  PetscLogDouble  t0 = DRTime();

  PetscFunctionBeginUser;
  g->nbatch = 0;
  if (g->rank == 0) {
    DRBitCache pend; /* batch members by bitstring -> batch index */
    PetscCall(DRBitCacheCreate(g->nw, 1, &pend));
    PetscCall(PetscFree(g->batch));
    PetscCall(PetscMalloc1(nind * g->nw + 1, &g->batch));
    PetscCall(PetscMalloc1(nind + 1, &slot));
    for (PetscInt i = 0; i < nind; i++) {
      const uint64_t *b = bits + i * g->nw;
      slot[i]           = -1;
      r[i]              = (PetscReal)(g->nforced + DRBitCount(g->nw, b));
      if (r[i] < g->b || DRBitCacheFind(&g->cache, b)) continue;
      {
        const PetscReal *p = DRBitCacheFind(&pend, b);
        if (p) slot[i] = (PetscInt)p[0];
        else {
          PetscReal v = (PetscReal)g->nbatch;
          PetscCall(PetscArraycpy(g->batch + g->nbatch * g->nw, b, g->nw));
          PetscCall(DRBitCacheInsert(&pend, b, &v));
          slot[i] = g->nbatch++;
        }
      }
    }
    PetscCall(DRBitCacheDestroy(&pend));
  }
  PetscCallMPI(MPI_Bcast(&g->nbatch, 1, MPIU_INT, 0, g->comm));
  if (g->rank) {
    PetscCall(PetscFree(g->batch));
    PetscCall(PetscMalloc1(g->nbatch * g->nw + 1, &g->batch));
  }
  if (g->nbatch) {
    PetscCallMPI(MPI_Bcast(g->batch, (PetscMPIInt)(g->nbatch * g->nw), MPI_UINT64_T, 0, g->comm));
    g->full_result = PETSC_FALSE;
    PetscCall(DRFarmRun(g->farm, g->nbatch, EvalTask, g));
  }
  if (g->rank == 0) {
    for (PetscInt t = 0; t < g->nbatch; t++) {
      const PetscReal *res;
      PetscCall(DRFarmGetResult(g->farm, t, NULL, &res));
      PetscCall(DRBitCacheInsert(&g->cache, g->batch + t * g->nw, res));
    }
    g->nevals += g->nbatch;
    for (PetscInt i = 0; i < nind; i++) {
      const PetscReal *v = r[i] < g->b ? NULL : DRBitCacheFind(&g->cache, bits + i * g->nw);
      e[i]               = v ? v[0] : DR_GA_PENALTY;
      feas[i]            = (PetscBool)(v && v[1] > 0);
    }
    PetscCall(PetscFree(slot));
  }
  g->t_eval += DRTime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt  front, i;
  PetscReal crowd;
} Rank;

static int CmpRank(const void *a, const void *b)
{
  const Rank *p = (const Rank *)a, *q = (const Rank *)b;
  if (p->front != q->front) return p->front < q->front ? -1 : 1;
  if (p->crowd != q->crowd) return p->crowd > q->crowd ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* rank 0: the next population from n candidates (parents then offspring):
 * unique bitstrings ranked by front and crowding fill it first; duplicates
 * only if the unique ones are too few. */
static PetscErrorCode Select(DRGA g, PetscInt n, const uint64_t *bits, const PetscReal *r, const PetscReal *e, const PetscBool *feas)
{
  DRBitCache seen;
  PetscInt  *uidx, nu = 0, *front, k = 0;
  PetscReal *ur, *ue, *crowd;
  PetscBool *uf, *dup;
  Rank      *rk;

  PetscFunctionBeginUser;
  PetscCall(DRBitCacheCreate(g->nw, 1, &seen));
  PetscCall(PetscMalloc5(n, &uidx, n, &ur, n, &ue, n, &uf, n, &dup));
  PetscCall(PetscMalloc3(n, &front, n, &crowd, n, &rk));
  for (PetscInt i = 0; i < n; i++) {
    const uint64_t *b   = bits + i * g->nw;
    PetscReal       one = 1;
    dup[i]              = (PetscBool)(DRBitCacheFind(&seen, b) != NULL);
    if (dup[i]) continue;
    PetscCall(DRBitCacheInsert(&seen, b, &one));
    uidx[nu] = i;
    ur[nu]   = r[i];
    ue[nu]   = e[i];
    uf[nu]   = feas[i];
    nu++;
  }
  PetscCall(DRNSGASortFronts(nu, ur, ue, uf, front, crowd));
  for (PetscInt u = 0; u < nu; u++) {
    rk[u].front = front[u];
    rk[u].crowd = crowd[u];
    rk[u].i     = u;
  }
  qsort(rk, (size_t)nu, sizeof(Rank), CmpRank);
  {
    uint64_t  *P;
    PetscReal *Pr, *Pe, *Pc;
    PetscBool *Pf;
    PetscInt  *Pfr;
    PetscCall(PetscMalloc6(g->pop * g->nw, &P, g->pop, &Pr, g->pop, &Pe, g->pop, &Pc, g->pop, &Pf, g->pop, &Pfr));
    for (PetscInt u = 0; u < nu && k < g->pop; u++, k++) {
      PetscInt i = uidx[rk[u].i];
      PetscCall(PetscArraycpy(P + k * g->nw, bits + i * g->nw, g->nw));
      Pr[k]  = r[i];
      Pe[k]  = e[i];
      Pf[k]  = feas[i];
      Pfr[k] = rk[u].front;
      Pc[k]  = rk[u].crowd;
    }
    for (PetscInt i = 0; i < n && k < g->pop; i++)
      if (dup[i]) {
        PetscCall(PetscArraycpy(P + k * g->nw, bits + i * g->nw, g->nw));
        Pr[k]  = r[i];
        Pe[k]  = e[i];
        Pf[k]  = feas[i];
        Pfr[k] = PETSC_MAX_INT; /* a copy never wins a tournament against a unique one */
        Pc[k]  = 0;
        k++;
      }
    PetscCall(PetscFree6(g->P, g->Pr, g->Pe, g->Pcrowd, g->Pfeas, g->Pfront));
    g->P = P, g->Pr = Pr, g->Pe = Pe, g->Pcrowd = Pc, g->Pfeas = Pf, g->Pfront = Pfr;
  }
  PetscCall(PetscFree5(uidx, ur, ue, uf, dup));
  PetscCall(PetscFree3(front, crowd, rk));
  PetscCall(DRBitCacheDestroy(&seen));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt Tournament(DRGA g)
{
  PetscInt a = DRRngBelow(&g->rng, g->pop), b = DRRngBelow(&g->rng, g->pop);
  if (g->Pfront[a] != g->Pfront[b]) return g->Pfront[a] < g->Pfront[b] ? a : b;
  if (g->Pcrowd[a] != g->Pcrowd[b]) return g->Pcrowd[a] > g->Pcrowd[b] ? a : b;
  return PetscMin(a, b);
}

/* rank 0: pop offspring into Q */
static void Offspring(DRGA g, uint64_t *Q)
{
  for (PetscInt k = 0; k < g->pop; k += 2) {
    const uint64_t *pa = g->P + Tournament(g) * g->nw, *pb = g->P + Tournament(g) * g->nw;
    uint64_t       *c1 = Q + k * g->nw, *c2 = Q + (k + 1) * g->nw;
    memcpy(c1, pa, sizeof(uint64_t) * g->nw);
    memcpy(c2, pb, sizeof(uint64_t) * g->nw);
    if (DRRngUniform(&g->rng) < g->pc)
      for (PetscInt j = 0; j < g->nvar; j++)
        if (DRRngUniform(&g->rng) < 0.5 && DRBitGet(c1, j) != DRBitGet(c2, j)) {
          DRBitFlip(c1, j);
          DRBitFlip(c2, j);
        }
    for (PetscInt j = 0; j < g->nvar; j++) {
      if (DRRngUniform(&g->rng) < g->pm) DRBitFlip(c1, j);
      if (DRRngUniform(&g->rng) < g->pm) DRBitFlip(c2, j);
    }
  }
}

#define H5CK(call) PetscCheck((call) >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 error in %s (checkpoint %s)", #call, g->ckpt)

static PetscErrorCode H5WriteArr(DRGA g, hid_t f, const char *name, hid_t type, int nd, const hsize_t *dims, const void *data)
{
  hid_t sp, d;

  PetscFunctionBeginUser;
  H5CK(sp = H5Screate_simple(nd, dims, NULL));
  H5CK(d = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (dims[0] > 0) H5CK(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  H5Dclose(d);
  H5Sclose(sp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5ReadArr(DRGA g, hid_t f, const char *name, hid_t type, void *data)
{
  hid_t d;

  PetscFunctionBeginUser;
  H5CK(d = H5Dopen2(f, name, H5P_DEFAULT));
  H5CK(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  H5Dclose(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: the GA state after generation g->gen, to CKPT.tmp then renamed */
static PetscErrorCode CheckpointWrite(DRGA g)
{
  char     tmp[PETSC_MAX_PATH_LEN + 16];
  hid_t    f, sp, a, t;
  hsize_t  d2[2], d1[1];
  PetscInt nc = g->cache.n, k = 0;
  uint64_t *keys;
  PetscReal *vals;
  long long  i8;
  int       *pf;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", g->ckpt));
  H5CK(f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(sp = H5Screate(H5S_SCALAR));
  H5CK(t = H5Tcopy(H5T_C_S1));
  H5CK(H5Tset_size(t, strlen(g->signature) + 1));
  H5CK(a = H5Acreate2(f, "signature", t, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, t, g->signature));
  H5Aclose(a);
  H5Tclose(t);
  i8 = g->gen;
  H5CK(a = H5Acreate2(f, "generation", H5T_NATIVE_LLONG, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  i8 = g->nevals;
  H5CK(a = H5Acreate2(f, "evaluations", H5T_NATIVE_LLONG, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  H5CK(a = H5Acreate2(f, "eref", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, H5T_NATIVE_DOUBLE, &g->eref));
  H5Aclose(a);
  H5Sclose(sp);
  d1[0] = 4;
  PetscCall(H5WriteArr(g, f, "rng", H5T_NATIVE_UINT64, 1, d1, g->rng.s));
  d2[0] = (hsize_t)g->pop;
  d2[1] = (hsize_t)g->nw;
  PetscCall(H5WriteArr(g, f, "population", H5T_NATIVE_UINT64, 2, d2, g->P));
  d1[0] = (hsize_t)g->pop;
  PetscCall(H5WriteArr(g, f, "r", H5T_NATIVE_DOUBLE, 1, d1, g->Pr));
  PetscCall(H5WriteArr(g, f, "e", H5T_NATIVE_DOUBLE, 1, d1, g->Pe));
  PetscCall(H5WriteArr(g, f, "crowd", H5T_NATIVE_DOUBLE, 1, d1, g->Pcrowd));
  PetscCall(PetscMalloc1(2 * g->pop, &pf));
  for (PetscInt i = 0; i < g->pop; i++) {
    pf[i]          = (int)g->Pfeas[i];
    pf[g->pop + i] = g->Pfront[i] == PETSC_MAX_INT ? -1 : (int)g->Pfront[i];
  }
  d2[0] = 2;
  d2[1] = (hsize_t)g->pop;
  PetscCall(H5WriteArr(g, f, "feasible_front", H5T_NATIVE_INT, 2, d2, pf));
  PetscCall(PetscFree(pf));
  d1[0] = (hsize_t)(g->gen + 1);
  PetscCall(H5WriteArr(g, f, "hypervolume", H5T_NATIVE_DOUBLE, 1, d1, g->hv));
  PetscCall(PetscMalloc2(nc * g->nw + 1, &keys, nc * NVAL + 1, &vals));
  for (PetscInt s = 0; s < g->cache.cap; s++)
    if (g->cache.used[s]) {
      PetscCall(PetscArraycpy(keys + k * g->nw, g->cache.keys + s * g->nw, g->nw));
      PetscCall(PetscArraycpy(vals + k * NVAL, g->cache.vals + s * NVAL, NVAL));
      k++;
    }
  d2[0] = (hsize_t)nc;
  d2[1] = (hsize_t)g->nw;
  PetscCall(H5WriteArr(g, f, "cache_keys", H5T_NATIVE_UINT64, 2, d2, keys));
  d2[1] = NVAL;
  PetscCall(H5WriteArr(g, f, "cache_values", H5T_NATIVE_DOUBLE, 2, d2, vals));
  PetscCall(PetscFree2(keys, vals));
  H5CK(H5Fclose(f));
  PetscCheck(!rename(tmp, g->ckpt), PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot rename the GA checkpoint %s (%s)", g->ckpt, tmp, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: restore the state if the checkpoint exists; msg says why not */
static PetscErrorCode CheckpointRead(DRGA g, PetscBool *found, char *msg, size_t len)
{
  hid_t     f, a, t;
  char      sig[sizeof(g->signature)] = "";
  long long i8;
  hsize_t   dims[2];
  int      *pf;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  if (access(g->ckpt, F_OK)) PetscFunctionReturn(PETSC_SUCCESS);
  f = H5Fopen(g->ckpt, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    PetscCall(PetscSNPrintf(msg, len, "%s: cannot open the GA checkpoint as HDF5, expected a file written by dynred ga (delete it to start afresh)", g->ckpt));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  H5CK(a = H5Aopen(f, "signature", H5P_DEFAULT));
  H5CK(t = H5Tcopy(H5T_C_S1));
  H5CK(H5Tset_size(t, sizeof(sig)));
  H5CK(H5Aread(a, t, sig));
  H5Tclose(t);
  H5Aclose(a);
  if (strcmp(sig, g->signature)) {
    PetscCall(PetscSNPrintf(msg, len, "%s: GA checkpoint of a different optimisation (%s), expected %s; delete it or set ga.checkpoint", g->ckpt, sig, g->signature));
    H5Fclose(f);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  H5CK(a = H5Aopen(f, "generation", H5P_DEFAULT));
  H5CK(H5Aread(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  g->gen = (PetscInt)i8;
  H5CK(a = H5Aopen(f, "evaluations", H5P_DEFAULT));
  H5CK(H5Aread(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  g->nevals = (PetscInt)i8;
  H5CK(a = H5Aopen(f, "eref", H5P_DEFAULT));
  H5CK(H5Aread(a, H5T_NATIVE_DOUBLE, &g->eref));
  H5Aclose(a);
  PetscCall(H5ReadArr(g, f, "rng", H5T_NATIVE_UINT64, g->rng.s));
  PetscCall(H5ReadArr(g, f, "population", H5T_NATIVE_UINT64, g->P));
  PetscCall(H5ReadArr(g, f, "r", H5T_NATIVE_DOUBLE, g->Pr));
  PetscCall(H5ReadArr(g, f, "e", H5T_NATIVE_DOUBLE, g->Pe));
  PetscCall(H5ReadArr(g, f, "crowd", H5T_NATIVE_DOUBLE, g->Pcrowd));
  PetscCall(PetscMalloc1(2 * g->pop, &pf));
  PetscCall(H5ReadArr(g, f, "feasible_front", H5T_NATIVE_INT, pf));
  for (PetscInt i = 0; i < g->pop; i++) {
    g->Pfeas[i]  = (PetscBool)pf[i];
    g->Pfront[i] = pf[g->pop + i] < 0 ? PETSC_MAX_INT : pf[g->pop + i];
  }
  PetscCall(PetscFree(pf));
  PetscCall(H5ReadArr(g, f, "hypervolume", H5T_NATIVE_DOUBLE, g->hv));
  {
    hid_t     d, sp;
    uint64_t *keys;
    PetscReal *vals;
    H5CK(d = H5Dopen2(f, "cache_keys", H5P_DEFAULT));
    H5CK(sp = H5Dget_space(d));
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    H5Dclose(d);
    PetscCall(PetscMalloc2(dims[0] * g->nw + 1, &keys, dims[0] * NVAL + 1, &vals));
    if (dims[0]) {
      PetscCall(H5ReadArr(g, f, "cache_keys", H5T_NATIVE_UINT64, keys));
      PetscCall(H5ReadArr(g, f, "cache_values", H5T_NATIVE_DOUBLE, vals));
    }
    for (hsize_t k = 0; k < dims[0]; k++) PetscCall(DRBitCacheInsert(&g->cache, keys + k * g->nw, vals + k * NVAL));
    PetscCall(PetscFree2(keys, vals));
  }
  H5Fclose(f);
  *found = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGARemoveCheckpoint(DRGA g)
{
  PetscFunctionBeginUser;
  if (g->rank == 0 && !access(g->ckpt, F_OK)) PetscCheck(!unlink(g->ckpt), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s: cannot remove the GA checkpoint (%s)", g->ckpt, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FrontLine(DRGA g, char *buf, size_t len)
{
  PetscInt  n = 0;
  PetscReal rmin = PETSC_MAX_REAL, rmax = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < g->pop; i++)
    if (g->Pfront[i] == 0 && g->Pfeas[i]) {
      n++;
      rmin = PetscMin(rmin, g->Pr[i]);
      rmax = PetscMax(rmax, g->Pr[i]);
    }
  PetscCall(PetscSNPrintf(buf, len, "front %" PetscInt_FMT " solutions, r %g..%g", n, n ? (double)rmin : 0.0, (double)rmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGASolve(DRGA g)
{
  PetscBool      found = PETSC_FALSE, stop = PETSC_FALSE;
  char           msg[1024] = "";
  PetscInt       N = g->pop, nw = g->nw;
  uint64_t      *R = NULL;
  PetscReal     *Rr = NULL, *Re = NULL;
  PetscBool     *Rf = NULL;
  PetscLogDouble t0 = DRTime();
  PetscInt       gen_start;

  PetscFunctionBeginUser;
  if (g->rank == 0) {
    PetscCall(DRBitCacheCreate(nw, NVAL, &g->cache));
    PetscCall(PetscMalloc6(N * nw, &g->P, N, &g->Pr, N, &g->Pe, N, &g->Pcrowd, N, &g->Pfeas, N, &g->Pfront));
    PetscCall(PetscCalloc1(g->maxgen + 1, &g->hv));
    PetscCall(PetscMalloc4(2 * N * nw, &R, 2 * N, &Rr, 2 * N, &Re, 2 * N, &Rf));
    DRRngSeed(&g->rng, (uint64_t)g->seed);
    g->rref = (PetscReal)(g->nforced + g->nvar + 1);
    PetscCall(CheckpointRead(g, &found, msg, sizeof(msg)));
  }
  {
    int bad = msg[0] != 0;
    PetscCallMPI(MPI_Bcast(&bad, 1, MPI_INT, 0, g->comm));
    PetscCheck(!bad, g->comm, DR_ERR_INPUT, "%s", msg);
  }
  PetscCallMPI(MPI_Bcast(&found, 1, MPIU_BOOL, 0, g->comm));
  if (found) {
    PetscCallMPI(MPI_Bcast(&g->gen, 1, MPIU_INT, 0, g->comm));
    PetscCall(PetscPrintf(g->comm, "ga: continuing from %s after generation %" PetscInt_FMT "\n", g->ckpt, g->gen));
  } else {
    /* generation 0: forced masters only, all candidates, then random
     * individuals whose 1-density is itself uniform (so every r is tried) */
    if (g->rank == 0) {
      PetscCall(PetscArrayzero(g->P, N * nw));
      for (PetscInt j = 0; j < g->nvar; j++) DRBitFlip(g->P + nw, j);
      for (PetscInt i = 2; i < N; i++) {
        PetscReal p = DRRngUniform(&g->rng);
        for (PetscInt j = 0; j < g->nvar; j++)
          if (DRRngUniform(&g->rng) < p) DRBitFlip(g->P + i * nw, j);
      }
    }
    PetscCall(Evaluate(g, N, g->P, g->Pr, g->Pe, g->Pfeas));
    if (g->rank == 0) {
      g->eref = 0;
      for (PetscInt i = 0; i < N; i++)
        if (g->Pfeas[i]) g->eref = PetscMax(g->eref, g->Pe[i]);
      g->eref = g->eref > 0 ? 1.1 * g->eref : 1.0;
      PetscCall(PetscArraycpy(R, g->P, N * nw));
      PetscCall(PetscArraycpy(Rr, g->Pr, N));
      PetscCall(PetscArraycpy(Re, g->Pe, N));
      PetscCall(PetscArraycpy(Rf, g->Pfeas, N));
      PetscCall(Select(g, N, R, Rr, Re, Rf));
      g->hv[0] = DRNSGAHypervolume(N, g->Pr, g->Pe, g->Pfeas, g->Pfront, g->rref, g->eref);
      PetscCall(FrontLine(g, msg, sizeof(msg)));
    }
    g->gen = 0;
    PetscCall(DRProgress(g->comm, "ga: generation 0: %" PetscInt_FMT " evaluations; %s", g->nevals, msg));
  }
  gen_start = g->gen;
  g->stop_reason[0] = 0;
  while (!stop) {
    PetscInt cached_before = 0;
    if (g->gen >= g->maxgen) {
      PetscCall(PetscSNPrintf(g->stop_reason, sizeof(g->stop_reason), "generation limit %" PetscInt_FMT, g->maxgen));
      break;
    }
    g->gen++;
    if (g->rank == 0) {
      PetscCall(PetscArraycpy(R, g->P, N * nw));
      PetscCall(PetscArraycpy(Rr, g->Pr, N));
      PetscCall(PetscArraycpy(Re, g->Pe, N));
      PetscCall(PetscArraycpy(Rf, g->Pfeas, N));
      Offspring(g, R + N * nw);
      cached_before = g->nevals;
    }
    PetscCall(Evaluate(g, N, R + N * nw, Rr + N, Re + N, Rf + N));
    if (g->rank == 0) {
      PetscReal mean = 0;
      PetscCall(Select(g, 2 * N, R, Rr, Re, Rf));
      g->hv[g->gen] = DRNSGAHypervolume(N, g->Pr, g->Pe, g->Pfeas, g->Pfront, g->rref, g->eref);
      if (g->gen >= g->stall_gens) {
        for (PetscInt k = g->gen - g->stall_gens + 1; k <= g->gen; k++) {
          PetscReal d = PetscAbsReal(g->hv[k] - g->hv[k - 1]);
          mean += d > 0 ? d / PetscMax(PetscAbsReal(g->hv[k]), PETSC_SMALL) : 0;
        }
        mean /= g->stall_gens;
        if (mean <= g->stall_tol) {
          stop = PETSC_TRUE;
          PetscCall(PetscSNPrintf(g->stop_reason, sizeof(g->stop_reason), "stall: mean relative hypervolume change %.3g over %" PetscInt_FMT " generations <= %g", (double)mean, g->stall_gens, (double)g->stall_tol));
        }
      }
      if (g->gen % g->progress_every == 0 || stop) {
        PetscCall(FrontLine(g, msg, sizeof(msg)));
        PetscCall(DRProgress(PETSC_COMM_SELF, "ga: generation %" PetscInt_FMT ": %" PetscInt_FMT " new evaluations (%" PetscInt_FMT " total); %s; hypervolume %.6g", g->gen, g->nevals - cached_before, g->nevals, msg, (double)g->hv[g->gen]));
      }
      if ((g->ckpt_every && g->gen % g->ckpt_every == 0) || g->gen == g->stop_after) PetscCall(CheckpointWrite(g));
    }
    PetscCallMPI(MPI_Bcast(&stop, 1, MPIU_BOOL, 0, g->comm));
    PetscCheck(g->gen != g->stop_after, g->comm, DR_ERR_INPUT, "%s: stopped after generation %" PetscInt_FMT " as asked (ga.stop_after_generation); the checkpoint %s continues the run", g->origin, g->gen, g->ckpt);
  }
  PetscCallMPI(MPI_Bcast(g->stop_reason, sizeof(g->stop_reason), MPI_CHAR, 0, g->comm));
  PetscCallMPI(MPI_Bcast(&g->nevals, 1, MPIU_INT, 0, g->comm));
  g->nrestored_gen = gen_start;
  /* the final front: unique feasible bitstrings of front 0, by r */
  if (g->rank == 0) {
    PetscInt *idx, m = 0;
    PetscCall(PetscMalloc1(N, &idx));
    for (PetscInt i = 0; i < N; i++)
      if (g->Pfront[i] == 0 && g->Pfeas[i]) idx[m++] = i;
    /* sort by r (insertion sort; fronts are short), ties by e then index */
    for (PetscInt a = 1; a < m; a++)
      for (PetscInt b = a; b > 0; b--) {
        PetscInt p = idx[b - 1], q = idx[b];
        if (g->Pr[p] < g->Pr[q] || (g->Pr[p] == g->Pr[q] && (g->Pe[p] < g->Pe[q] || (g->Pe[p] == g->Pe[q] && p < q)))) break;
        idx[b - 1] = q;
        idx[b]     = p;
      }
    g->nfront = m;
    PetscCall(PetscMalloc1(m * nw + 1, &g->fbits));
    for (PetscInt k = 0; k < m; k++) PetscCall(PetscArraycpy(g->fbits + k * nw, g->P + idx[k] * nw, nw));
    PetscCall(PetscFree(idx));
    PetscCall(PetscFree4(R, Rr, Re, Rf));
  }
  PetscCallMPI(MPI_Bcast(&g->nfront, 1, MPIU_INT, 0, g->comm));
  if (g->rank) PetscCall(PetscMalloc1(g->nfront * nw + 1, &g->fbits));
  PetscCallMPI(MPI_Bcast(g->fbits, (PetscMPIInt)(g->nfront * nw), MPI_UINT64_T, 0, g->comm));
  PetscCallMPI(MPI_Bcast(&g->gen, 1, MPIU_INT, 0, g->comm));
  g->t_total = DRTime() - t0;
  PetscCall(PetscPrintf(g->comm, "ga: stopped after generation %" PetscInt_FMT " (%s); %" PetscInt_FMT " evaluations in %.2f s (%.0f per s); %" PetscInt_FMT " solutions on the front\n", g->gen, g->stop_reason, g->nevals, (double)g->t_total, (double)(g->nevals / PetscMax(g->t_eval, 1e-9)), g->nfront));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGAWrite(DRGA g, DRStore s)
{
  PetscInt    nf = g->nfront, nw = g->nw, rmax = 0, *m;
  PetscInt64 *rr = NULL;
  PetscReal  *ee = NULL, *dtc = NULL, *dts = NULL, *fb = NULL;
  char      **txt = NULL;
  FILE       *csv = NULL;

  PetscFunctionBeginUser;
  /* the front's reduced matrices through the farm (full results) */
  PetscCall(PetscFree(g->batch));
  PetscCall(PetscMalloc1(nf * nw + 1, &g->batch));
  PetscCall(PetscArraycpy(g->batch, g->fbits, nf * nw));
  g->nbatch      = nf;
  g->full_result = PETSC_TRUE;
  if (nf) PetscCall(DRFarmRun(g->farm, nf, EvalTask, g));
  g->full_result = PETSC_FALSE;
  PetscCall(PetscMalloc1(g->n, &m));
  PetscCall(PetscMalloc5(nf + 1, &rr, nf + 1, &ee, nf + 1, &dtc, nf + 1, &dts, nf * g->b + 1, &fb));
  PetscCall(PetscCalloc1(nf + 1, &txt));
  if (g->rank == 0 && g->csv[0]) {
    csv = fopen(g->csv, "w");
    PetscCheck(csv, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write the CSV front (%s)", g->csv, strerror(errno));
    fprintf(csv, "r,e,dt_critical_s,dt_suggested_s,masters\n");
  }
  for (PetscInt k = 0; k < nf; k++) {
    PetscInt         r = Masters(g, g->fbits + k * nw, m), len = 0;
    const PetscReal *res = NULL;
    char             grp[64], b[32];
    DRLabel         *lab;
    const char     **ls;
    rmax = PetscMax(rmax, r);
    PetscCall(PetscMalloc1(16 * r + 1, &txt[k]));
    txt[k][0] = 0;
    PetscCall(PetscMalloc2(r, &lab, r, &ls));
    for (PetscInt i = 0; i < r; i++) {
      lab[i] = g->labels[m[i]];
      PetscCall(PetscStrlcat(txt[k], i ? " " : "", 16 * r + 1));
      PetscCall(PetscStrlcat(txt[k], DRGALabelString(lab[i], b), 16 * r + 1));
    }
    if (g->rank == 0) PetscCall(DRFarmGetResult(g->farm, k, &len, &res));
    else {
      PetscCall(PetscMalloc1(NVAL + r + 2 * r * r, (PetscReal **)&res));
    }
    PetscCallMPI(MPI_Bcast((PetscReal *)res, (PetscMPIInt)(NVAL + r + 2 * r * r), MPIU_REAL, 0, g->comm));
    rr[k]  = r;
    ee[k]  = res[0];
    dtc[k] = 2.0 / PetscSqrtReal(res[2]) * g->time_unit;
    dts[k] = g->dt_safety * dtc[k];
    for (PetscInt h = 0; h < g->b; h++) fb[k * g->b + h] = PetscSqrtReal(res[NVAL + h]) / (2 * PETSC_PI * g->time_unit);
    PetscCall(PetscSNPrintf(grp, sizeof(grp), "/ga/solutions/%03" PetscInt_FMT, k + 1));
    {
      PetscInt dims[2] = {r, r}, d1[1] = {r};
      char     path[96];
      PetscReal *f;
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/K", grp));
      PetscCall(DRStoreWriteReal(s, path, 2, dims, res + NVAL + r, NULL));
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/M", grp));
      PetscCall(DRStoreWriteReal(s, path, 2, dims, res + NVAL + r + r * r, NULL));
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/labels", grp));
      for (PetscInt i = 0; i < r; i++) {
        char *t;
        PetscCall(PetscMalloc1(32, &t));
        DRGALabelString(lab[i], t);
        ls[i] = t;
      }
      PetscCall(DRStoreWriteStrings(s, path, r, ls));
      for (PetscInt i = 0; i < r; i++) PetscCall(PetscFree(ls[i]));
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/dof_labels", grp));
      PetscCall(DRStoreWriteLabels(s, path, r, lab));
      PetscCall(PetscMalloc1(r, &f));
      for (PetscInt i = 0; i < r; i++) f[i] = PetscSqrtReal(res[NVAL + i]) / (2 * PETSC_PI * g->time_unit);
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/frequencies_hz", grp));
      PetscCall(DRStoreWriteReal(s, path, 1, d1, f, "Hz"));
      PetscCall(PetscFree(f));
      PetscCall(DRStoreAttrInt(s, grp, "r", r));
      PetscCall(DRStoreAttrReal(s, grp, "e", res[0]));
      PetscCall(DRStoreAttrReal(s, grp, "dt_critical_s", dtc[k]));
      PetscCall(DRStoreAttrReal(s, grp, "dt_suggested_s", dts[k]));
      PetscCall(DRStoreAttrReal(s, grp, "omega_max_rad_s", PetscSqrtReal(res[2]) / g->time_unit));
      PetscCall(DRStoreAttrString(s, grp, "masters", txt[k]));
    }
    if (csv) fprintf(csv, "%" PetscInt_FMT ",%.12g,%.6g,%.6g,%s\n", r, (double)res[0], (double)dtc[k], (double)dts[k], txt[k]);
    if (g->rank) PetscCall(PetscFree(res));
    PetscCall(PetscFree2(lab, ls));
  }
  if (csv) fclose(csv);
  {
    PetscInt dims[1] = {nf}, d2[2] = {nf, g->b}, d3[1] = {g->nfull}, d4[1] = {g->gen + 1};
    PetscReal *ff;
    PetscCall(DRStoreWriteInt(s, "/ga/pareto/r", 1, dims, rr));
    PetscCall(DRStoreWriteReal(s, "/ga/pareto/e", 1, dims, ee, NULL));
    PetscCall(DRStoreWriteStrings(s, "/ga/pareto/masters", nf, (const char *const *)txt));
    PetscCall(DRStoreWriteReal(s, "/ga/pareto/dt_critical", 1, dims, dtc, "s"));
    PetscCall(DRStoreWriteReal(s, "/ga/pareto/dt_suggested", 1, dims, dts, "s"));
    PetscCall(DRStoreWriteReal(s, "/ga/pareto/frequencies_hz", 2, d2, fb, "Hz"));
    PetscCall(PetscMalloc1(g->nfull + 1, &ff));
    for (PetscInt k = 0; k < g->nfull; k++) ff[k] = PetscSqrtReal(PetscMax(g->lam_full[k], 0)) / (2 * PETSC_PI * g->time_unit);
    PetscCall(DRStoreWriteReal(s, "/ga/full_frequencies_hz", 1, d3, ff, "Hz"));
    PetscCall(PetscFree(ff));
    if (g->rank == 0) PetscCall(DRStoreWriteReal(s, "/ga/history/hypervolume", 1, d4, g->hv, NULL));
    else {
      PetscReal dummy = 0;
      PetscCall(DRStoreWriteReal(s, "/ga/history/hypervolume", 1, d4, &dummy, NULL));
    }
  }
  {
    char fl[1024] = "", b[32];
    for (PetscInt k = 0; k < g->nforced; k++) {
      PetscCall(PetscStrlcat(fl, k ? " " : "", sizeof(fl)));
      PetscCall(PetscStrlcat(fl, DRGALabelString(g->labels[g->forced[k]], b), sizeof(fl)));
    }
    PetscCall(DRStoreAttrString(s, "/ga", "forced_masters", fl));
  }
  {
    /* the full model, for checks and the ss job (small models only) */
    PetscBool have = (PetscBool)(g->Kfull != NULL);
    PetscCallMPI(MPI_Bcast(&have, 1, MPIU_BOOL, 0, g->comm));
    if (have) {
      PetscInt dims[2] = {g->n, g->n};
      PetscCall(DRStoreWriteReal(s, "/ga/model/K", 2, dims, g->Kfull, NULL));
      PetscCall(DRStoreWriteReal(s, "/ga/model/M", 2, dims, g->Mfull, NULL));
    }
    PetscCall(DRStoreWriteLabels(s, "/ga/model/labels", g->n, g->labels));
    {
      PetscInt   d1[1] = {g->nvar}, d2[1] = {g->nforced};
      PetscInt64 *ci;
      PetscCall(PetscMalloc1(g->nvar + g->nforced, &ci));
      for (PetscInt j = 0; j < g->nvar; j++) ci[j] = g->cand[j];
      PetscCall(DRStoreWriteInt(s, "/ga/model/candidate_rows", 1, d1, ci));
      for (PetscInt j = 0; j < g->nforced; j++) ci[j] = g->forced[j];
      PetscCall(DRStoreWriteInt(s, "/ga/model/forced_rows", 1, d2, ci));
      PetscCall(PetscFree(ci));
    }
  }
  PetscCall(DRStoreAttrString(s, "/ga", "label_convention", "NODE + H (x), V (y), Z (z), RX, RY, RZ (rotations; RZ is the planar rotation)"));
  PetscCall(DRStoreAttrInt(s, "/ga", "ndof", g->n));
  PetscCall(DRStoreAttrInt(s, "/ga", "n_candidates", g->nvar));
  PetscCall(DRStoreAttrInt(s, "/ga", "n_forced", g->nforced));
  PetscCall(DRStoreAttrInt(s, "/ga", "b", g->b));
  PetscCall(DRStoreAttrReal(s, "/ga", "fmax_hz", g->fmax));
  PetscCall(DRStoreAttrReal(s, "/ga", "time_unit_s", g->time_unit));
  PetscCall(DRStoreAttrString(s, "/ga", "method", DRCondenseMethodName(g->method)));
  PetscCall(DRStoreAttrInt(s, "/ga", "generations", g->gen));
  PetscCall(DRStoreAttrInt(s, "/ga", "evaluations", g->nevals));
  PetscCall(DRStoreAttrInt(s, "/ga", "population", g->pop));
  PetscCall(DRStoreAttrInt(s, "/ga", "restarted_from_generation", g->nrestored_gen));
  PetscCall(DRStoreAttrString(s, "/ga", "stop_reason", g->stop_reason));
  PetscCall(DRStoreAttrReal(s, "/ga", "seconds", g->t_total));
  PetscCall(DRStoreAttrReal(s, "/ga", "evaluations_per_s", g->nevals / PetscMax(g->t_eval, 1e-9)));
  PetscCall(DRStoreAttrInt(s, "/ga", "farm_groups", g->ngroups));
  /* summary table */
  PetscCall(PetscPrintf(g->comm, "Pareto front (%s condensation, b = %" PetscInt_FMT "):\n  %3s %14s %12s  %s\n", DRCondenseMethodName(g->method), g->b, "r", "e", "dt_cr [s]", "masters"));
  for (PetscInt k = 0; k < nf; k++) PetscCall(PetscPrintf(g->comm, "  %3" PetscInt64_FMT " %14.6e %12.4e  %s\n", rr[k], (double)ee[k], (double)dtc[k], txt[k]));
  for (PetscInt k = 0; k < nf; k++) PetscCall(PetscFree(txt[k]));
  PetscCall(PetscFree(txt));
  PetscCall(PetscFree5(rr, ee, dtc, dts, fb));
  PetscCall(PetscFree(m));
  (void)rmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

