/* The GA object and its generation loop (ga.h, gaimpl.h).
 *
 * Flow per generation (rank 0 drives, everyone follows the broadcasts):
 *   rank 0: tournament selection, uniform crossover, bit-flip mutation ->
 *           offspring (operators.c); look each up in the cache; the distinct
 *           uncached ones with at least b masters form the batch;
 *   all:    broadcast the batch; DRFarmRun evaluates it (fitness.c: each
 *           group condenses with its own factorization of K0);
 *   rank 0: results into the cache; parents + offspring -> unique
 *           bitstrings -> fronts and crowding -> the next population;
 *           hypervolume of front 0 for the stall test; checkpoint
 *           (checkpoint.c).
 */
#include "gaimpl.h"
#include <string.h>
#include <sys/resource.h>

static const DRConfigKey ga_keys[] = {
  {"ga.method", DR_CFG_STRING, "idc", "condensation of each individual: idc | irs | guyan", "idc|irs|guyan", NULL, NULL},
  {"ga.fmax", DR_CFG_REAL, "150", "highest excitation frequency [Hz]; b = smallest mode index with f_b >= 3 fmax", "0..", "Hz", NULL},
  {"ga.time_unit", DR_CFG_REAL, "1", "seconds per time unit of the model (1e-3 for N, mm, ms, g)", "0..", "s", NULL},
  {"ga.forced_masters", DR_CFG_STRING, "", "forced masters, not genes: [15H, 15V, 6V] (H x, V y, Z z, RX, RY, RZ; or node.dir)", NULL, NULL, NULL},
  {"ga.candidate_nodes", DR_CFG_LIST, "", "restrict the candidate DOFs to these nodes (empty: all nodes)", NULL, NULL, NULL},
  {"ga.rotations", DR_CFG_BOOL, "false", "also rotations (with nonzero mass) as candidates", NULL, NULL, NULL},
  {"ga.population", DR_CFG_INT, "400", "population size (even)", "4..", NULL, NULL},
  {"ga.generations", DR_CFG_INT, "0", "maximum number of generations (0: 100 x number of candidates)", "0..", NULL, NULL},
  {"ga.crossover", DR_CFG_REAL, "0.8", "probability of uniform crossover for a pair of parents", "0..1", NULL, NULL},
  {"ga.mutation", DR_CFG_REAL, "0.1", "bit-flip probability per gene", "0..1", NULL, NULL},
  {"ga.stall_generations", DR_CFG_INT, "100", "stall window: stop when the mean relative change of the front's hypervolume over this many generations <= stall_tol", "1..", "generations", NULL},
  {"ga.stall_tol", DR_CFG_REAL, "1e-4", "stall tolerance", "0..", NULL, NULL},
  {"ga.seed", DR_CFG_INT, "1", "RNG seed (the front depends on it, not on the number of ranks)", "0..", NULL, NULL},
  {"ga.checkpoint_every", DR_CFG_INT, "10", "write the GA checkpoint every k generations (0: never)", "0..", "generations", NULL},
  {"ga.checkpoint", DR_CFG_STRING, "", "checkpoint file (default: OUTPUT.ckpt.h5); a run finding it continues from it", NULL, NULL, NULL},
  {"ga.stop_after_generation", DR_CFG_INT, "0", "testing: write the checkpoint after this generation and exit 1 (a killed run)", "0..", NULL, NULL},
  {"ga.idc.inner", DR_CFG_INT, "1", "IDC: inner iterations per outer step", "1..", NULL, NULL},
  {"ga.idc.outer", DR_CFG_INT, "1", "IDC: maximum outer steps (converged IDC reproduces the full frequencies for every master set that observes them, so e would only measure round-off: the GA compares master sets after a fixed number of steps)", "0..", NULL, NULL},
  {"ga.e_resolution", DR_CFG_REAL, "1e-10", "e is rounded to a multiple of this (differences below it are round-off, not a better master set)", "0..", NULL, NULL},
  {"ga.idc.tol", DR_CFG_REAL, "1e-6", "IDC: relative change of the lowest b reduced frequencies to stop at", "0..", NULL, NULL},
  {"ga.group_size", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "ranks_per_group"},
  {"ga.distributed_dofs", DR_CFG_INT, "50000", "models this large get one distributed factorization (one group of every rank) when one factorization per rank does not fit in the nodes' memory (unless ranks_per_group is given)", "1..", "DOFs", NULL},
  {"ga.dense_max", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "dense_max"},
  {"ga.dt_safety", DR_CFG_REAL, "0.9", "suggested step = dt_safety x critical central-difference step 2/omega_max", "0..1", NULL, NULL},
  {"ga.progress_every", DR_CFG_INT, "1", "a progress line every k generations", "1..", "generations", NULL},
  {"ga.csv", DR_CFG_STRING, "", "front as CSV (default: OUTPUT with .csv)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRGARegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(ga_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscClassId     DR_GA_CLASSID;
PetscLogEvent    DR_GA_SetUp, DR_GA_Solve, DR_GA_Generation, DR_GA_EvalBatch, DR_GA_Fitness, DR_GA_Select, DR_GA_Checkpoint, DR_GA_Front, DR_GA_Write;
static PetscBool DRGAPackageInitialized = PETSC_FALSE;

static PetscErrorCode DRGAFinalizePackage(void)
{
  PetscFunctionBeginUser;
  DRGAPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGAInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (DRGAPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  DRGAPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR GA", &DR_GA_CLASSID));
  PetscCall(PetscLogEventRegister("DRGASetUp", DR_GA_CLASSID, &DR_GA_SetUp));
  PetscCall(PetscLogEventRegister("DRGASolve", DR_GA_CLASSID, &DR_GA_Solve));
  PetscCall(PetscLogEventRegister("DRGAGeneration", DR_GA_CLASSID, &DR_GA_Generation));
  PetscCall(PetscLogEventRegister("DRGAEvalBatch", DR_GA_CLASSID, &DR_GA_EvalBatch));
  PetscCall(PetscLogEventRegister("DRGAFitness", DR_GA_CLASSID, &DR_GA_Fitness));
  PetscCall(PetscLogEventRegister("DRGASelect", DR_GA_CLASSID, &DR_GA_Select));
  PetscCall(PetscLogEventRegister("DRGACheckpoint", DR_GA_CLASSID, &DR_GA_Checkpoint));
  PetscCall(PetscLogEventRegister("DRGAFront", DR_GA_CLASSID, &DR_GA_Front));
  PetscCall(PetscLogEventRegister("DRGAWrite", DR_GA_CLASSID, &DR_GA_Write));
  /* one individual on one group, and rank 0's own work: not collective */
  PetscCall(PetscLogEventSetCollective(DR_GA_Fitness, PETSC_FALSE));
  PetscCall(PetscLogEventSetCollective(DR_GA_Select, PETSC_FALSE));
  PetscCall(PetscLogEventSetCollective(DR_GA_Checkpoint, PETSC_FALSE));
  /* /timing and the rates are read from the events: they must record */
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(DRGAFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *const DRGASplitNames[DR_GA_NSPLIT] = {"evaluating", "waiting_for_tasks", "receiving_results", "waiting_end_of_batch", "outside_farm", "cpu"};

PetscErrorCode DRGAEventSeconds(PetscLogEvent ev, PetscReal *s)
{
  PetscLogDouble t;

  PetscFunctionBeginUser;
  PetscCall(DRLogEventSeconds(ev, &t));
  *s = (PetscReal)t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGAGetTiming(DRGA g, PetscReal *setup, PetscReal *solve, PetscReal *output)
{
  PetscReal front = 0, write = 0;

  PetscFunctionBeginUser;
  (void)g;
  if (setup) PetscCall(DRGAEventSeconds(DR_GA_SetUp, setup));
  if (solve) PetscCall(DRGAEventSeconds(DR_GA_Solve, solve));
  PetscCall(DRGAEventSeconds(DR_GA_Front, &front));
  PetscCall(DRGAEventSeconds(DR_GA_Write, &write));
  if (output) *output = front + write;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGACreate(MPI_Comm comm, DRGA *ga)
{
  DRGA g;

  PetscFunctionBeginUser;
  PetscCall(DRGAInitializePackage());
  PetscCall(PetscNew(&g));
  g->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &g->rank));
  PetscCallMPI(MPI_Comm_size(comm, &g->size));
  *ga = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGASetConfig(DRGA g, DRConfig cfg)
{
  PetscFunctionBeginUser;
  if (g->cfg_owned) PetscCall(DRConfigDestroy(&g->cfg));
  g->cfg       = cfg;
  g->cfg_owned = PETSC_FALSE;
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
  PetscCall(PetscFree(g->cn));
  PetscCall(PetscFree(g->tsplit));
  if (g->rank == 0) {
    PetscCall(DRBitCacheDestroy(&g->cache));
    PetscCall(PetscFree6(g->P, g->Pr, g->Pe, g->Pcrowd, g->Pfeas, g->Pfront));
    PetscCall(PetscFree(g->hv));
  }
  PetscCall(PetscFree(g->fbits));
  for (PetscInt k = 0; g->fres && k < g->nfront; k++) {
    PetscCall(PetscFree(g->fres[k]));
    PetscCall(PetscFree(g->ftxt[k]));
  }
  PetscCall(PetscFree3(g->fr, g->fres, g->ftxt));
  PetscCall(PetscFree2(g->Kfull, g->Mfull));
  if (g->cfg_owned) PetscCall(DRConfigDestroy(&g->cfg));
  PetscCall(PetscFree(g));
  *ga = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ga.* settings (no model yet); errors name the file and key */
PetscErrorCode DRGASetFromOptions(DRGA g)
{
  char        where[PETSC_MAX_PATH_LEN + 32], mname[32];
  const char *origin = NULL;
  DRConfig    cfg;

  PetscFunctionBeginUser;
  if (!g->cfg) {
    PetscCall(DRConfigCreate(g->comm, &g->cfg));
    g->cfg_owned = PETSC_TRUE;
  }
  cfg = g->cfg;
  PetscCall(DRConfigGetOrigin(cfg, &origin));
  PetscCall(PetscStrncpy(g->origin, origin ? origin : "", sizeof(g->origin)));
  PetscCall(DRConfigGetString(cfg, "output", g->output, sizeof(g->output), NULL));
  PetscCall(DRConfigGetString(cfg, "ga.method", mname, sizeof(mname), NULL));
  PetscCall(DRConfigWhere(cfg, "ga.method", where, sizeof(where)));
  PetscCheck(!strcmp(mname, DRCONDENSE_IDC) || !strcmp(mname, DRCONDENSE_IRS) || !strcmp(mname, DRCONDENSE_GUYAN), g->comm, DR_ERR_INPUT, "%s: ga.method = '%s', expected idc, irs or guyan", where, mname);
  PetscCall(PetscStrncpy(g->method, mname, sizeof(g->method)));
  /* the key table's ranges say the same; these checks stay until the config
   * layer enforces them (their messages are part of the tests) */
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
  /* the shared keys: ranks per farm group (0: 1, or all ranks when the model
   * has >= ga.distributed_dofs DOFs) and the dense limit (unset: 4000) */
  GETI("ranks_per_group", g->group_size, g->group_size >= 0, ">= 0");
  GETI("ga.distributed_dofs", g->dist_dofs, g->dist_dofs >= 1, ">= 1");
  {
    PetscBool set;
    PetscCall(DRConfigGetInt(cfg, "dense_max", &g->dense_max, &set));
    if (!set) g->dense_max = 4000;
  }
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
  PetscCall(DRConfigGetBool(cfg, "ga.rotations", &g->rotations, NULL));
  {
    PetscBool setk = PETSC_FALSE, setc = PETSC_FALSE;
    PetscCall(DRConfigGetString(cfg, "ga.checkpoint", g->ckpt, sizeof(g->ckpt), &setk));
    PetscCall(DRConfigGetString(cfg, "ga.csv", g->csv, sizeof(g->csv), &setc));
    /* written by rank 0 during and after the run: a place that cannot take
     * them is refused now, in one line, not after the evaluations (the
     * defaults beside `output` are checked with it) */
    if (setk && g->ckpt[0]) PetscCall(DRPreflightOutput(cfg, "ga.checkpoint"));
    if (setc && g->csv[0]) PetscCall(DRPreflightOutput(cfg, "ga.csv"));
  }
  if (!g->ckpt[0]) PetscCall(PetscSNPrintf(g->ckpt, sizeof(g->ckpt), "%s.ckpt.h5", g->output));
  if (!g->csv[0]) {
    size_t l = strlen(g->output);
    if (l > 3 && !strcmp(g->output + l - 3, ".h5")) PetscCall(PetscSNPrintf(g->csv, sizeof(g->csv), "%.*s.csv", (int)(l - 3), g->output));
    else PetscCall(PetscSNPrintf(g->csv, sizeof(g->csv), "%s.csv", g->output));
  }
  PetscCall(DRConfigGetString(cfg, "ga.forced_masters", g->forced_text, sizeof(g->forced_text), NULL));
  PetscCall(PetscFree(g->cn));
  g->ncn = 100000;
  PetscCall(PetscMalloc1(g->ncn, &g->cn));
  PetscCall(DRConfigGetRealArray(cfg, "ga.candidate_nodes", g->cn, &g->ncn, NULL));
  PetscCall(PetscSortReal(g->ncn, g->cn));
  g->optset = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the model on every farm group, candidates, forced masters,
 * the full frequencies and b (problem.c). */
PetscErrorCode DRGASetUp(DRGA g)
{
  PetscFunctionBeginUser;
  if (g->setup) PetscFunctionReturn(PETSC_SUCCESS);
  if (!g->optset) PetscCall(DRGASetFromOptions(g));
  PetscCall(PetscLogEventBegin(DR_GA_SetUp, 0, 0, 0, 0));
  PetscCall(DRGAProblemSetUp(g));
  PetscCall(PetscFree(g->cn)); /* the candidates are known now */
  g->ncn = 0;
  PetscCall(PetscLogEventEnd(DR_GA_SetUp, 0, 0, 0, 0));
  g->setup = PETSC_TRUE;
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

/* The work arrays of a generation: parents then offspring (2 pop), rank 0. */
typedef struct {
  uint64_t  *R;
  PetscReal *Rr, *Re;
  PetscBool *Rf;
} Pool;

/* parents (the current population) into the first half of the pool */
static PetscErrorCode PoolParents(DRGA g, Pool *w)
{
  PetscInt N = g->pop;

  PetscFunctionBeginUser;
  PetscCall(PetscArraycpy(w->R, g->P, N * g->nw));
  PetscCall(PetscArraycpy(w->Rr, g->Pr, N));
  PetscCall(PetscArraycpy(w->Re, g->Pe, N));
  PetscCall(PetscArraycpy(w->Rf, g->Pfeas, N));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: rank 0 allocates the state and reads the checkpoint if any. */
static PetscErrorCode Start(DRGA g, Pool *w, PetscBool *found)
{
  char     msg[1024] = "";
  PetscInt N = g->pop, nw = g->nw;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  if (g->rank == 0) {
    PetscCall(DRBitCacheCreate(nw, NVAL, &g->cache));
    PetscCall(PetscMalloc6(N * nw, &g->P, N, &g->Pr, N, &g->Pe, N, &g->Pcrowd, N, &g->Pfeas, N, &g->Pfront));
    PetscCall(PetscCalloc1(g->maxgen + 1, &g->hv));
    PetscCall(PetscMalloc4(2 * N * nw, &w->R, 2 * N, &w->Rr, 2 * N, &w->Re, 2 * N, &w->Rf));
    DRRngSeed(&g->rng, (uint64_t)g->seed);
    g->rref = (PetscReal)(g->nforced + g->nvar + 1);
  }
  /* an unreadable checkpoint fails on rank 0: every rank ends with it */
  PetscCall(DRRootAgree(g->comm, g->rank ? PETSC_SUCCESS : DRGACheckpointRead(g, found, msg, sizeof(msg))));
  {
    int bad = msg[0] != 0;
    PetscCallMPI(MPI_Bcast(&bad, 1, MPI_INT, 0, g->comm));
    PetscCheck(!bad, g->comm, DR_ERR_INPUT, "%s", msg);
  }
  PetscCallMPI(MPI_Bcast(found, 1, MPIU_BOOL, 0, g->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: generation 0: forced masters only, all candidates, then random
 * individuals whose 1-density is itself uniform (so every r is tried). */
static PetscErrorCode InitialPopulation(DRGA g, Pool *w)
{
  char     msg[1024] = "";
  PetscInt N = g->pop, nw = g->nw;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Generation, 0, 0, 0, 0));
  if (g->rank == 0) {
    PetscCall(PetscArrayzero(g->P, N * nw));
    for (PetscInt j = 0; j < g->nvar; j++) DRBitFlip(g->P + nw, j);
    for (PetscInt i = 2; i < N; i++) {
      PetscReal p = DRRngUniform(&g->rng);
      for (PetscInt j = 0; j < g->nvar; j++)
        if (DRRngUniform(&g->rng) < p) DRBitFlip(g->P + i * nw, j);
    }
  }
  PetscCall(DRGAEvaluate(g, N, g->P, g->Pr, g->Pe, g->Pfeas));
  if (g->rank == 0) {
    g->eref = 0;
    for (PetscInt i = 0; i < N; i++)
      if (g->Pfeas[i]) g->eref = PetscMax(g->eref, g->Pe[i]);
    g->eref = g->eref > 0 ? 1.1 * g->eref : 1.0;
    PetscCall(PoolParents(g, w));
    PetscCall(DRGASelect(g, N, w->R, w->Rr, w->Re, w->Rf));
    g->hv[0] = DRNSGAHypervolume(N, g->Pr, g->Pe, g->Pfeas, g->Pfront, g->rref, g->eref);
    PetscCall(FrontLine(g, msg, sizeof(msg)));
  }
  g->gen = 0;
  PetscCall(PetscLogEventEnd(DR_GA_Generation, 0, 0, 0, 0));
  PetscCall(DRProgress(g->comm, "ga: generation 0: %" PetscInt_FMT " evaluations; %s", g->nevals, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: the stall test on the hypervolume history after generation g->gen */
static PetscErrorCode Stalled(DRGA g, PetscBool *stop)
{
  PetscReal mean = 0;

  PetscFunctionBeginUser;
  if (g->gen >= g->stall_gens) {
    for (PetscInt k = g->gen - g->stall_gens + 1; k <= g->gen; k++) {
      PetscReal d = PetscAbsReal(g->hv[k] - g->hv[k - 1]);
      mean += d > 0 ? d / PetscMax(PetscAbsReal(g->hv[k]), PETSC_SMALL) : 0;
    }
    mean /= g->stall_gens;
    if (mean <= g->stall_tol) {
      *stop = PETSC_TRUE;
      PetscCall(PetscSNPrintf(g->stop_reason, sizeof(g->stop_reason), "stall: mean relative hypervolume change %.3g over %" PetscInt_FMT " generations <= %g", (double)mean, g->stall_gens, (double)g->stall_tol));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0, after a generation's evaluations: selection, stall test,
 * progress, checkpoint */
static PetscErrorCode RootGeneration(DRGA g, Pool *w, PetscInt cached_before, PetscBool *stop, char *msg, size_t len)
{
  PetscInt N = g->pop;

  PetscFunctionBeginUser;
  PetscCall(DRGASelect(g, 2 * N, w->R, w->Rr, w->Re, w->Rf));
  g->hv[g->gen] = DRNSGAHypervolume(N, g->Pr, g->Pe, g->Pfeas, g->Pfront, g->rref, g->eref);
  PetscCall(Stalled(g, stop));
  if (g->gen % g->progress_every == 0 || *stop) {
    PetscCall(FrontLine(g, msg, len));
    PetscCall(DRProgress(PETSC_COMM_SELF, "ga: generation %" PetscInt_FMT ": %" PetscInt_FMT " new evaluations (%" PetscInt_FMT " total); %s; hypervolume %.6g", g->gen, g->nevals - cached_before, g->nevals, msg, (double)g->hv[g->gen]));
  }
  if ((g->ckpt_every && g->gen % g->ckpt_every == 0) || g->gen == g->stop_after) PetscCall(DRGACheckpointWrite(g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: one generation (g->gen + 1): offspring, their objectives,
 * selection, stall test, progress, checkpoint. */
static PetscErrorCode Generation(DRGA g, Pool *w, PetscBool *stop)
{
  char     msg[1024] = "";
  PetscInt N = g->pop, nw = g->nw, cached_before = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Generation, 0, 0, 0, 0));
  g->gen++;
  if (g->rank == 0) {
    PetscCall(PoolParents(g, w));
    DRGAOffspring(g, w->R + N * nw);
    cached_before = g->nevals;
  }
  PetscCall(DRGAEvaluate(g, N, w->R + N * nw, w->Rr + N, w->Re + N, w->Rf + N));
  /* a checkpoint that cannot be written (disk full) fails on rank 0:
   * every rank ends with it, not in the next broadcast */
  PetscCall(DRRootAgree(g->comm, g->rank ? PETSC_SUCCESS : RootGeneration(g, w, cached_before, stop, msg, sizeof(msg))));
  PetscCallMPI(MPI_Bcast(stop, 1, MPIU_BOOL, 0, g->comm));
  PetscCall(PetscLogEventEnd(DR_GA_Generation, 0, 0, 0, 0));
  PetscCheck(g->gen != g->stop_after, g->comm, DR_ERR_INPUT, "%s: stopped after generation %" PetscInt_FMT " as asked (ga.stop_after_generation); the checkpoint %s continues the run", g->origin, g->gen, g->ckpt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the final front: unique feasible bitstrings of front 0, by r
 * (ties by e then index), replicated in g->fbits. */
static PetscErrorCode FinalFront(DRGA g)
{
  PetscInt N = g->pop, nw = g->nw;

  PetscFunctionBeginUser;
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
  }
  PetscCallMPI(MPI_Bcast(&g->nfront, 1, MPIU_INT, 0, g->comm));
  if (g->rank) PetscCall(PetscMalloc1(g->nfront * nw + 1, &g->fbits));
  PetscCallMPI(MPI_Bcast(g->fbits, (PetscMPIInt)(g->nfront * nw), MPI_UINT64_T, 0, g->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: NSGA-II from generation 0 or from the checkpoint, until the
 * generation limit or the stall test; then the final front. */
static PetscErrorCode Optimise(DRGA g)
{
  PetscBool found = PETSC_FALSE, stop = PETSC_FALSE;
  Pool      w     = {NULL, NULL, NULL, NULL};

  PetscFunctionBeginUser;
  PetscCall(Start(g, &w, &found));
  if (found) {
    PetscCallMPI(MPI_Bcast(&g->gen, 1, MPIU_INT, 0, g->comm));
    PetscCall(PetscPrintf(g->comm, "ga: continuing from %s after generation %" PetscInt_FMT "\n", g->ckpt, g->gen));
  } else PetscCall(InitialPopulation(g, &w));
  g->nrestored_gen  = g->gen;
  g->stop_reason[0] = 0;
  while (!stop) {
    if (g->gen >= g->maxgen) {
      PetscCall(PetscSNPrintf(g->stop_reason, sizeof(g->stop_reason), "generation limit %" PetscInt_FMT, g->maxgen));
      break;
    }
    PetscCall(Generation(g, &w, &stop));
  }
  PetscCallMPI(MPI_Bcast(g->stop_reason, sizeof(g->stop_reason), MPI_CHAR, 0, g->comm));
  PetscCallMPI(MPI_Bcast(&g->nevals, 1, MPIU_INT, 0, g->comm));
  PetscCall(FinalFront(g));
  if (g->rank == 0) PetscCall(PetscFree4(w.R, w.Rr, w.Re, w.Rf));
  PetscCallMPI(MPI_Bcast(&g->gen, 1, MPIU_INT, 0, g->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CPU seconds (user + system) of this process so far */
static PetscReal CPUSeconds(void)
{
  struct rusage u;
  if (getrusage(RUSAGE_SELF, &u)) return 0;
  return (PetscReal)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (PetscReal)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* Collective: where the optimisation's wall time went on each rank (the
 * farm's own accounting; the rest is outside the farm: on rank 0 the
 * offspring, the cache, selection and checkpoints, on the others waiting for
 * them); gathered on rank 0 and printed as min..max over the ranks. */
static PetscErrorCode TimeSplit(DRGA g)
{
  PetscReal mine[DR_GA_NSPLIT], lo[DR_GA_NSPLIT], hi[DR_GA_NSPLIT], busy = 0;

  PetscFunctionBeginUser;
  PetscCall(DRFarmGetTimes(g->farm, &mine[0], &mine[1], &mine[2], &mine[3]));
  mine[5] = g->t_cpu;
  mine[4] = PetscMax(g->t_total - mine[0] - mine[1] - mine[2] - mine[3], 0);
  PetscCall(PetscFree(g->tsplit));
  PetscCall(PetscMalloc1(DR_GA_NSPLIT * (g->rank ? 1 : g->size), &g->tsplit));
  PetscCallMPI(MPI_Gather(mine, DR_GA_NSPLIT, MPIU_REAL, g->tsplit, DR_GA_NSPLIT, MPIU_REAL, 0, g->comm));
  if (g->rank == 0) {
    for (PetscInt j = 0; j < DR_GA_NSPLIT; j++) lo[j] = hi[j] = g->tsplit[j];
    for (PetscMPIInt q = 0; q < g->size; q++) {
      for (PetscInt j = 0; j < DR_GA_NSPLIT; j++) {
        lo[j] = PetscMin(lo[j], g->tsplit[q * DR_GA_NSPLIT + j]);
        hi[j] = PetscMax(hi[j], g->tsplit[q * DR_GA_NSPLIT + j]);
      }
      busy += g->tsplit[q * DR_GA_NSPLIT];
    }
    busy /= PetscMax(g->size * g->t_total, 1e-12);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ga: seconds per rank (min..max over %d): evaluating %.2f..%.2f, waiting for tasks (rank 0: serving requests) %.3f..%.3f, receiving results %.3f (rank 0), waiting at the end of batches %.3f..%.3f, outside the farm %.3f..%.3f (rank 0: offspring, selection, checkpoints); ranks busy evaluating %.1f%% of the time; CPU time %.2f..%.2f s (well below the wall time: the ranks waited for a core)\n", g->size, (double)lo[0], (double)hi[0], (double)lo[1], (double)hi[1], (double)g->tsplit[2], (double)lo[3], (double)hi[3], (double)lo[4], (double)hi[4], (double)(100 * busy), (double)lo[5], (double)hi[5]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGASolve(DRGA g)
{
  PetscReal c0, ts0 = 0, ts1 = 0, te0 = 0, te1 = 0;

  PetscFunctionBeginUser;
  PetscCall(DRGASetUp(g));
  PetscCall(DRGAEventSeconds(DR_GA_Solve, &ts0));
  PetscCall(DRGAEventSeconds(DR_GA_EvalBatch, &te0));
  PetscCall(PetscLogEventBegin(DR_GA_Solve, 0, 0, 0, 0));
  c0 = CPUSeconds();
  PetscCall(Optimise(g));
  g->t_cpu = CPUSeconds() - c0;
  PetscCall(PetscLogEventEnd(DR_GA_Solve, 0, 0, 0, 0));
  PetscCall(DRGAEventSeconds(DR_GA_Solve, &ts1));
  PetscCall(DRGAEventSeconds(DR_GA_EvalBatch, &te1));
  g->t_total = ts1 - ts0;
  g->t_eval  = te1 - te0;
  PetscCall(TimeSplit(g));
  PetscCall(PetscPrintf(g->comm, "ga: stopped after generation %" PetscInt_FMT " (%s); %" PetscInt_FMT " evaluations in %.2f s (%.0f per s); %" PetscInt_FMT " solutions on the front\n", g->gen, g->stop_reason, g->nevals, (double)g->t_total, (double)(g->nevals / PetscMax(g->t_eval, 1e-9)), g->nfront));
  PetscCall(DRGAFrontResults(g));
  g->solved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
