/* dynred sysred: the DRSysRed object (create, options, set-up, solve, view,
 * write, destroy).  The job keys are declared in src/app/job_sysred.c. */
#include "sysredimpl.h"
#include <dynred/ss.h>
#include <string.h>

static PetscErrorCode SourceUnits(DRSysRed s);

PetscErrorCode DRSysRedCreate(MPI_Comm comm, DRSysRed *s)
{
  PetscFunctionBegin;
  PetscCall(DRSysRedInitializePackage());
  PetscCall(PetscNew(s));
  (*s)->comm         = comm;
  (*s)->nw           = 200;
  (*s)->split        = PETSC_TRUE;
  (*s)->marginal_tol = 1e-8;
  (*s)->minreal_tol  = 1e-10;
  (*s)->lr_tol       = 1e-10;
  (*s)->lr_maxit     = 100;
  (*s)->lr_shifts    = 80;
  (*s)->lr_adi_maxit = 20000;
  PetscCall(PetscStrncpy((*s)->lr_solver, "auto", sizeof((*s)->lr_solver)));
  PetscCall(PetscStrncpy((*s)->method, "bt", sizeof((*s)->method)));
  PetscCall(PetscStrncpy((*s)->where, "the system", sizeof((*s)->where)));
  {
    PetscBool ok;
    char      why[256];
    PetscCall(DRUnitsParse("SI", &(*s)->units, &ok, why, sizeof(why)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSetConfig(DRSysRed s, DRConfig cfg)
{
  PetscFunctionBegin;
  s->cfg = cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSetMethod(DRSysRed s, const char *method)
{
  PetscFunctionBegin;
  PetscCheck(!strcmp(method, "minreal") || !strcmp(method, "bt") || !strcmp(method, "spa") || !strcmp(method, "pod") || !strcmp(method, "energy") || !strcmp(method, "sobt"), PETSC_COMM_WORLD, DR_ERR_INPUT, "unknown sysred.method '%s', expected minreal, bt, spa, pod, sobt or energy", method);
  PetscCall(PetscStrncpy(s->method, method, sizeof(s->method)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSetOrder(DRSysRed s, PetscInt order, PetscReal tol)
{
  PetscFunctionBegin;
  s->order = order;
  s->tol   = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSetSystem(DRSysRed s, PetscInt n, PetscInt m, PetscInt p, const PetscReal A[], const PetscReal B[], const PetscReal C[], const PetscReal D[])
{
  PetscFunctionBegin;
  PetscCall(DRLTIFree(&s->full));
  PetscCall(DRLTIAlloc(n, m, p, &s->full));
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt j = 0; j < n; j++) s->full.A[i + j * n] = A[i * n + j];
    for (PetscInt j = 0; j < m; j++) s->full.B[i + j * n] = B[i * m + j];
  }
  for (PetscInt i = 0; i < p; i++) {
    for (PetscInt j = 0; j < n; j++) s->full.C[i + j * p] = C[i * n + j];
    for (PetscInt j = 0; j < m; j++) s->full.D[i + j * p] = D ? D[i * m + j] : 0;
  }
  s->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSetFromOptions(DRSysRed s)
{
  DRConfig  cfg = s->cfg;
  char      m[32], w[PETSC_MAX_PATH_LEN + 32];
  PetscBool set;

  PetscFunctionBegin;
  if (!cfg) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRConfigGetString(cfg, "sysred.method", m, sizeof(m), NULL));
  PetscCall(DRSysRedSetMethod(s, m));
  PetscCall(DRConfigGetInt(cfg, "sysred.order", &s->order, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.tol", &s->tol, NULL));
  PetscCall(DRConfigGetBool(cfg, "sysred.split", &s->split, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.marginal_tol", &s->marginal_tol, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.minreal_tol", &s->minreal_tol, NULL));
  PetscCall(DRConfigGetInt(cfg, "sysred.frf.n", &s->nw, NULL));
  PetscCall(DRConfigGetString(cfg, "sysred.gramians", m, sizeof(m), NULL));
  s->lowrank = strcmp(m, "lowrank") ? PETSC_FALSE : PETSC_TRUE;
  PetscCall(DRConfigGetReal(cfg, "sysred.lowrank.tol", &s->lr_tol, NULL));
  PetscCall(DRConfigGetInt(cfg, "sysred.lowrank.maxit", &s->lr_maxit, NULL));
  PetscCall(DRConfigGetInt(cfg, "sysred.lowrank.ncv", &s->lr_ncv, NULL));
  PetscCall(DRConfigGetInt(cfg, "sysred.lowrank.shifts", &s->lr_shifts, NULL));
  PetscCall(DRConfigGetInt(cfg, "sysred.lowrank.adi_maxit", &s->lr_adi_maxit, NULL));
  PetscCall(DRConfigGetString(cfg, "sysred.lowrank.solver", s->lr_solver, sizeof(s->lr_solver), NULL));
  if (s->lowrank) {
    PetscCall(DRConfigWhere(cfg, "sysred.gramians", w, sizeof(w)));
    PetscCheck(!strcmp(s->method, "bt"), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.gramians lowrank with sysred.method %s, expected method bt (low-rank factors serve balanced truncation only)", w, s->method);
  }
  PetscCall(DRConfigGetReal(cfg, "sysred.frf.wmin", &s->wmin, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.frf.wmax", &s->wmax, &set));
  if (set && s->wmin > 0) {
    PetscCall(DRConfigWhere(cfg, "sysred.frf.wmax", w, sizeof(w)));
    PetscCheck(s->wmax > s->wmin, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.frf.wmax = %g, expected > sysred.frf.wmin = %g", w, (double)s->wmax, (double)s->wmin);
  }
  PetscCall(DRConfigGetReal(cfg, "sysred.sim.t_end", &s->sim_t_end, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.sim.h", &s->sim_h, NULL));
  PetscCall(DRConfigGetString(cfg, "sysred.input.signal", m, sizeof(m), NULL));
  s->sig_type = !strcmp(m, "step") ? DR_SIG_STEP : !strcmp(m, "ramp") ? DR_SIG_RAMP : !strcmp(m, "sine") ? DR_SIG_SINE : DR_SIG_TRAPEZOID;
  PetscCall(DRConfigGetReal(cfg, "sysred.input.amplitude", &s->sig_a, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.input.t0", &s->sig_t0, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.input.freq_hz", &s->sig_f, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.input.t_rise", &s->sig_rise, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.input.t_hold", &s->sig_hold, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.input.t_fall", &s->sig_fall, NULL));
  if (s->sim_t_end > 0) {
    PetscCall(DRConfigWhere(cfg, "sysred.sim.h", w, sizeof(w)));
    PetscCheck(s->sim_h > 0 && s->sim_h <= s->sim_t_end, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.sim.h = %g, expected 0 < h <= sysred.sim.t_end = %g", w, (double)s->sim_h, (double)s->sim_t_end);
  }
  if (!strcmp(s->method, "energy")) {
    PetscCall(DREnergySetFromConfig(cfg, &s->en));
    s->nw = 0;
    s->sim_t_end = 0;
  } else if (strcmp(s->method, "minreal")) {
    PetscCall(DRConfigWhere(cfg, "sysred.order", w, sizeof(w)));
    PetscCheck(s->order > 0 || s->tol > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: neither sysred.order nor sysred.tol is given, expected the reduced order or a tolerance on the error bound for method %s", w, s->method);
    PetscCheck(!(s->order > 0 && s->tol > 0), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: both sysred.order and sysred.tol are given, expected one of them", w);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSetUp(DRSysRed s)
{
  DRConfig    cfg = s->cfg;
  char        file[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN], group[256], w[PETSC_MAX_PATH_LEN + 32];
  char        mtx[4][PETSC_MAX_PATH_LEN], *files[4];
  const char *origin, *keys[4] = {"sysred.mtx.A", "sysred.mtx.B", "sysred.mtx.C", "sysred.mtx.D"};
  PetscInt    nf = 0;

  PetscFunctionBegin;
  if (!strcmp(s->method, "energy") && s->en.kind != DR_ENERGY_MODAL) { /* the model comes from sysred.energy (SetFromOptions) */
    PetscCheck(s->en.nc > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONGSTATE, "DRSysRedSetUp: method energy without a model (DRSysRedSetFromOptions)");
    s->setup = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (s->setup || !cfg) {
    PetscCheck(s->setup, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONGSTATE, "DRSysRedSetUp: no system (DRSysRedSetSystem or a config)");
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(DR_SYSRED_Read, 0, 0, 0, 0));
  PetscCall(DRConfigGetString(cfg, "sysred.source", file, sizeof(file), NULL));
  for (int k = 0; k < 4; k++) {
    PetscCall(DRConfigGetString(cfg, keys[k], path, sizeof(path), NULL));
    if (!path[0]) continue;
    PetscCall(DRConfigWhere(cfg, keys[k], w, sizeof(w)));
    PetscCheck(nf == k, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s without %s, expected Matrix Market files A, B, C and optionally D", w, keys[k], keys[nf]);
    PetscCall(DRConfigPathBase(cfg, keys[k], &origin));
    PetscCall(DRPathResolve(origin, path, mtx[k], sizeof(mtx[k])));
    files[nf++] = mtx[k];
  }
  PetscCall(DRConfigWhere(cfg, nf ? "sysred.mtx.A" : "sysred.source", w, sizeof(w)));
  PetscCheck(!(file[0] && nf), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: both sysred.source and sysred.mtx are given, expected one source of the system", w);
  PetscCheck(file[0] || nf >= 3, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no system: expected sysred.source (a dynred ss result or HDF5 file with A, B, C[, D]) or sysred.mtx.A, .B, .C[, .D]", w);
  if (!strcmp(s->method, "sobt") || !strcmp(s->method, "energy")) {
    PetscCheck(file[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.method %s reads a second-order model from sysred.source (group with M, D, K, B, C), expected sysred.source, not sysred.mtx", w, s->method);
    PetscCall(DRConfigGetString(cfg, "sysred.group", group, sizeof(group), NULL));
    if (!strcmp(group, "/ss")) PetscCall(PetscStrncpy(group, "/ss/second_order", sizeof(group)));
    PetscCall(DRConfigPathBase(cfg, "sysred.source", &origin));
    PetscCall(DRPathResolve(origin, file, path, sizeof(path)));
    PetscCall(DRSysRedReadSO(path, group, &s->so));
    PetscCall(PetscStrncpy(s->srcpath, path, sizeof(s->srcpath)));
    PetscCall(PetscSNPrintf(s->where, sizeof(s->where), "%s: %s", path, group));
    if (!strcmp(s->method, "energy")) {
      PetscCall(DREnergyModal(cfg, &s->so, s->where, &s->en));
      PetscCall(PetscLogEventBegin(DR_SYSRED_Substructures, 0, 0, 0, 0));
      PetscCall(DREnergySubSetUp(cfg, &s->so, path, &s->en.sub));
      PetscCall(PetscLogEventEnd(DR_SYSRED_Substructures, 0, 0, 0, 0));
    }
  } else if (file[0]) {
    PetscCall(DRConfigGetString(cfg, "sysred.group", group, sizeof(group), NULL));
    PetscCall(DRConfigPathBase(cfg, "sysred.source", &origin));
    PetscCall(DRPathResolve(origin, file, path, sizeof(path)));
    PetscCall(DRSysRedReadH5(path, group, &s->full));
    PetscCall(PetscStrncpy(s->srcpath, path, sizeof(s->srcpath)));
    PetscCall(PetscSNPrintf(s->where, sizeof(s->where), "%s: %s", path, group));
  } else {
    PetscCall(DRSysRedReadMtx(nf, files, &s->full));
    PetscCall(PetscSNPrintf(s->where, sizeof(s->where), "%s", files[0]));
  }
  if (!strcmp(s->method, "pod")) {
    char dset[256];
    PetscBool given;
    PetscCall(DRConfigGetString(cfg, "sysred.pod.snapshots", file, sizeof(file), &given));
    PetscCall(DRConfigGetString(cfg, "sysred.pod.dataset", dset, sizeof(dset), NULL));
    if (given) PetscCall(DRConfigWhere(cfg, "sysred.pod.snapshots", w, sizeof(w)));
    else PetscCall(DRConfigWhereValue(cfg, "sysred.method", w, sizeof(w))); /* pod without its snapshots */
    PetscCheck(file[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.pod.snapshots is missing, expected the HDF5 file of the snapshots for method pod", w);
    PetscCall(DRConfigPathBase(cfg, "sysred.pod.snapshots", &origin));
    PetscCall(DRPathResolve(origin, file, path, sizeof(path)));
    PetscCall(PetscFree(s->X));
    PetscCall(DRSysRedReadSnapshots(path, dset, s->full.n, &s->nsnap, &s->X));
    PetscCall(PetscSNPrintf(s->snapwhere, sizeof(s->snapwhere), "%s: %s", path, dset));
  }
  PetscCall(SourceUnits(s));
  s->setup = PETSC_TRUE;
  PetscCall(PetscLogEventEnd(DR_SYSRED_Read, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the source's unit system (root attribute units of an HDF5 source, e.g.
 * a dynred ss result), else model.units (default SI); both given and
 * different: an error, as in dynred ss */
static PetscErrorCode SourceUnits(DRSysRed s)
{
  DRUnits   fu, cu;
  PetscBool ffound = PETSC_FALSE, cset = PETSC_FALSE;
  char      where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBegin;
  if (s->srcpath[0]) PetscCall(DRUnitsRead(s->srcpath, &fu, &ffound));
  PetscCall(DRModelGetUnits(s->cfg, &cu, &cset));
  if (ffound && cset && strcmp(fu.name, cu.name)) {
    PetscCall(DRConfigWhere(s->cfg, "model.units", where, sizeof(where)));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.units = %s but %s is in %s, expected %s (or no model.units)", where, cu.name, s->srcpath, fu.name, fu.name);
  }
  s->units = ffound ? fu : cu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSolve(DRSysRed s)
{
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(DRSysRedSetUp(s));
  PetscCall(PetscTime(&t0));
  if (!strcmp(s->method, "energy")) {
    PetscCall(PetscLogEventBegin(DR_SYSRED_Energy, 0, 0, 0, 0));
    PetscCall(DREnergyRank(&s->en));
    PetscCall(PetscLogEventEnd(DR_SYSRED_Energy, 0, 0, 0, 0));
    if (s->en.kind == DR_ENERGY_MODAL) PetscCall(DREnergySubSolve(&s->en, &s->so, &s->en.sub));
  }
  else PetscCall(DRSysRedReduce(s));
  if (s->nw > 0) PetscCall(DRSysRedFRF(s));
  if (s->sim_t_end > 0) PetscCall(DRSysRedSimulate(s));
  PetscCall(PetscTime(&t1));
  s->seconds = (PetscReal)(t1 - t0);
  s->solved  = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedReduce(DRSysRed s)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < s->full.n * s->full.n; k++) PetscCheck(!PetscIsInfOrNanReal(s->full.A[k]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: A has a non-finite entry, expected finite numbers", s->where);
  if (!strcmp(s->method, "sobt")) {
    PetscCall(DRSysRedSecondOrder(s));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!strcmp(s->method, "minreal")) PetscCall(DRSysRedMinreal(s));
  else if (!strcmp(s->method, "pod")) PetscCall(DRSysRedPOD(s));
  else if (s->lowrank) PetscCall(DRSysRedLowRank(s));
  else PetscCall(DRSysRedBalanced(s, strcmp(s->method, "spa") ? PETSC_FALSE : PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedView(DRSysRed s, PetscViewer v)
{
  PetscFunctionBegin;
  if (!strcmp(s->method, "energy")) {
    PetscCall(PetscViewerASCIIPrintf(v, "sysred energy: component ranking by energy flow (2NPR), removal and least-squares refit\n"));
    PetscCall(DREnergyView(&s->en, v));
    if (s->en.kind == DR_ENERGY_MODAL) PetscCall(DREnergySubView(&s->en, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(v, "sysred %s: %s, %" PetscInt_FMT " states, %" PetscInt_FMT " inputs, %" PetscInt_FMT " outputs -> %" PetscInt_FMT " states\n", s->method, s->where, s->full.n, s->full.m, s->full.p, s->red.n));
  if (!strcmp(s->method, "minreal")) PetscCall(PetscViewerASCIIPrintf(v, "  minimal realization (TB01PD): %" PetscInt_FMT " uncontrollable or unobservable states removed\n", s->full.n - s->red.n));
  else if (!strcmp(s->method, "pod")) PetscCall(PetscViewerASCIIPrintf(v, "  POD of %" PetscInt_FMT " snapshots (%s): %" PetscInt_FMT " modes, discarded energy fraction %.3g, Galerkin projection\n", s->nsnap, s->snapwhere, s->red.n, (double)s->pod_discarded));
  else {
    if (!strcmp(s->method, "sobt")) PetscCall(PetscViewerASCIIPrintf(v, "  second-order balanced truncation, position-velocity variant (Reis & Stykel 2008): %" PetscInt_FMT " positions -> %" PetscInt_FMT ", M_r = I; the 2 sum sigma_i below is NOT a proven bound for it\n", s->so.n, s->sored.n));
    else if (s->lowrank) {
      PetscCall(PetscViewerASCIIPrintf(v, "  low-rank Gramian factors: %s: %" PetscInt_FMT " Hankel singular values resolved\n", s->lr_how, s->ns));
      PetscCall(PetscViewerASCIIPrintf(v, "  split per pole of the modal blocks at damping ratio %g: %" PetscInt_FMT " poles kept exactly (zero, undamped or unstable)\n", (double)s->alpha, s->nu));
    }
    else PetscCall(PetscViewerASCIIPrintf(v, "  split per pole at damping ratio %g (kept: Re(s) >= -(%g |s| + %.3g) or |s| <= %.3g): %" PetscInt_FMT " poles kept exactly (zero, undamped or unstable), %" PetscInt_FMT " stable states balanced\n", (double)s->alpha, (double)s->alpha, (double)s->a0, (double)s->z0, s->nu, s->ns));
    PetscCall(PetscViewerASCIIPrintf(v, "  %s singular values:", strcmp(s->method, "sobt") ? "Hankel" : "pv"));
    for (PetscInt i = 0; i < PetscMin(s->ns, 12); i++) PetscCall(PetscViewerASCIIPrintf(v, " %.4g", (double)s->hsv[i]));
    PetscCall(PetscViewerASCIIPrintf(v, "%s\n", s->ns > 12 ? " ..." : ""));
    if (!strcmp(s->method, "sobt")) PetscCall(PetscViewerASCIIPrintf(v, "  order %" PetscInt_FMT " positions (%" PetscInt_FMT " states), 2 sum of the discarded pv singular values %.6g (an indicator, not a bound)\n", s->sored.n, s->red.n, (double)s->bound));
    else if (s->lowrank) PetscCall(PetscViewerASCIIPrintf(v, "  order %" PetscInt_FMT " (%" PetscInt_FMT " balanced + %" PetscInt_FMT " kept), estimated error 2 sum sigma_i over the %" PetscInt_FMT " resolved Hankel values = %.6g (not a bound: the low-rank Gramians are approximate and the unresolved tail is left out)\n", s->red.n, s->red.n - s->nu, s->nu, s->ns, (double)s->bound));
    else PetscCall(PetscViewerASCIIPrintf(v, "  order %" PetscInt_FMT " (%" PetscInt_FMT " balanced + %" PetscInt_FMT " kept), error bound 2 sum sigma_i = %.6g\n", s->red.n, s->red.n - s->nu, s->nu, (double)s->bound));
  }
  if (s->nw > 0) PetscCall(PetscViewerASCIIPrintf(v, "  frequency response on %" PetscInt_FMT " points %.4g..%.4g Hz (units %s): max |G - G_r| = %.4g, H-inf error on the grid %.4g (||G|| on the grid %.4g)\n", s->nw, (double)(s->wmin / (2 * PETSC_PI * s->units.time_s)), (double)(s->wmax / (2 * PETSC_PI * s->units.time_s)), s->units.name, (double)s->frf_max, (double)s->frf_hinf, (double)s->frf_ref));
  if (s->sim_t_end > 0) PetscCall(PetscViewerASCIIPrintf(v, "  time response (PETSc TS Crank-Nicolson, h = %g s, %" PetscInt_FMT " steps): max |y - y_r| / max |y| = %.4g\n", (double)s->sim_h, s->nsim, (double)s->sim_err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* column-major r x c as a row-major dataset */
static PetscErrorCode WriteMat(DRStore st, const char *name, PetscInt r, PetscInt c, const PetscReal *a)
{
  PetscReal *b;
  PetscInt   dims[2] = {r, c};

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(r * c + 1, &b));
  for (PetscInt i = 0; i < r; i++)
    for (PetscInt j = 0; j < c; j++) b[i * c + j] = a[i + j * r];
  PetscCall(DRStoreWriteReal(st, name, 2, dims, b, NULL));
  PetscCall(PetscFree(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedWrite(DRSysRed s, DRStore st)
{
  const DRLTI *r = &s->red;
  PetscInt     dw[1] = {s->nw}, dg[3] = {s->nw, s->full.p * s->full.m, 2}, dh[1] = {s->ns}, d1[1] = {1};

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Write, 0, 0, 0, 0));
  if (!strcmp(s->method, "energy")) {
    PetscCall(DREnergyWrite(&s->en, st));
    if (s->en.kind == DR_ENERGY_MODAL) PetscCall(DREnergySubWrite(&s->en.sub, st));
    PetscCall(DRStoreAttrString(st, "/sysred", "method", s->method));
    PetscCall(PetscLogEventEnd(DR_SYSRED_Write, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(WriteMat(st, "/sysred/A", r->n, r->n, r->A));
  PetscCall(WriteMat(st, "/sysred/B", r->n, r->m, r->B));
  PetscCall(WriteMat(st, "/sysred/C", r->p, r->n, r->C));
  PetscCall(WriteMat(st, "/sysred/D", r->p, r->m, r->D));
  if (s->T) { /* sobt: on the positions */
    PetscInt nf = strcmp(s->method, "sobt") ? s->full.n : s->so.n, nr = strcmp(s->method, "sobt") ? r->n : s->sored.n;
    PetscCall(WriteMat(st, "/sysred/T", nf, nr, s->T));
    PetscCall(WriteMat(st, "/sysred/Ti", nr, nf, s->Ti));
  }
  if (!strcmp(s->method, "pod")) {
    PetscCall(DRStoreWriteReal(st, "/sysred/pod/singular_values", 1, dh, s->hsv, NULL));
    PetscCall(DRStoreAttrReal(st, "/sysred/pod", "discarded_energy", s->pod_discarded));
    PetscCall(DRStoreAttrInt(st, "/sysred/pod", "n_snapshots", s->nsnap));
  } else {
    if (strcmp(s->method, "minreal")) PetscCall(DRStoreWriteReal(st, "/sysred/hsv", 1, dh, s->hsv, NULL));
    /* 2 sum_{i>r} sigma_i is the H-infinity error bound of balanced
     * truncation (Enns 1984; Glover 1984) with the exact Gramians, i.e. on
     * the dense path; the low-rank path sums only the Hankel values its
     * approximate factors resolve, an estimate (no bound holds without the
     * unresolved tail and the Gramian error): named so */
    if (strcmp(s->method, "sobt") && s->lowrank) {
      PetscCall(DRStoreWriteReal(st, "/sysred/error_estimate", 1, d1, &s->bound, NULL));
      PetscCall(DRStoreAttrString(st, "/sysred", "error_estimate_meaning", "2 sum of the discarded Hankel singular values the low-rank Gramian factors resolve (/sysred/hsv); not an error bound: the Gramians are approximate and the unresolved tail is left out"));
    } else if (strcmp(s->method, "sobt")) PetscCall(DRStoreWriteReal(st, "/sysred/error_bound", 1, d1, &s->bound, NULL));
    else {
      const DRSecondOrder *q = &s->sored;
      PetscCall(WriteMat(st, "/sysred/second_order/M", q->n, q->n, q->M));
      PetscCall(WriteMat(st, "/sysred/second_order/D", q->n, q->n, q->D));
      PetscCall(WriteMat(st, "/sysred/second_order/K", q->n, q->n, q->K));
      PetscCall(WriteMat(st, "/sysred/second_order/B", q->n, q->m, q->B));
      PetscCall(WriteMat(st, "/sysred/second_order/C", q->p, q->n, q->C));
      PetscCall(DRStoreAttrString(st, "/sysred/second_order", "form", "M q_r'' + D q_r' + K q_r = B u, y = C q_r; q ~ T q_r, q_r = Ti q (/sysred/T, /sysred/Ti act on positions); /sysred/A..D: its first-order realization [q_r; q_r']"));
      PetscCall(DRStoreAttrString(st, "/sysred/second_order", "variant", "position-velocity second-order balanced truncation (Reis & Stykel 2008): P_p = P(1:n,1:n), Q_v = Q(n+1:2n,n+1:2n) of the first-order realization [q; q']; /sysred/hsv = sqrt(eig(P_p Q_v)); preserves the second-order form and M_r = I, not the symmetry of D, K nor stability; no a-priori error bound"));
    }
  }
  PetscCall(DRStoreAttrString(st, "/sysred", "method", s->method));
  PetscCall(DRUnitsWrite(st, &s->units)); /* the source's system (replaces model.units' from the job store) */
  PetscCall(DRStoreAttrString(st, "/sysred", "source", s->where));
  PetscCall(DRStoreAttrInt(st, "/sysred", "n_full", s->full.n));
  PetscCall(DRStoreAttrInt(st, "/sysred", "order", r->n));
  PetscCall(DRStoreAttrInt(st, "/sysred", "n_kept_exactly", s->nu));
  PetscCall(DRStoreAttrInt(st, "/sysred", "n_stable", s->ns));
  PetscCall(DRStoreAttrInt(st, "/sysred", "n_minimal_stable", s->nmin));
  PetscCall(DRStoreAttrReal(st, "/sysred", "split_threshold", s->alpha)); /* the damping ratio below which a pole is kept */
  PetscCall(DRStoreAttrReal(st, "/sysred", "split_floor_re", s->a0));
  PetscCall(DRStoreAttrReal(st, "/sysred", "split_floor_zero", s->z0));
  PetscCall(DRStoreAttrString(st, "/sysred", "gramians", s->lowrank ? "lowrank" : "dense"));
  if (s->lowrank) PetscCall(DRStoreAttrString(st, "/sysred", "lowrank_solver", s->lr_how));
  if (s->nw > 0) {
    PetscReal *hz;
    char       wu[64];
    PetscCall(PetscSNPrintf(wu, sizeof(wu), "rad/%s", s->units.time));
    PetscCall(DRStoreWriteReal(st, "/sysred/frf/omega", 1, dw, s->omega, wu));
    PetscCall(PetscMalloc1(s->nw, &hz));
    for (PetscInt k = 0; k < s->nw; k++) hz[k] = s->omega[k] / (2 * PETSC_PI * s->units.time_s);
    PetscCall(DRStoreWriteReal(st, "/sysred/frf/freq_hz", 1, dw, hz, "Hz"));
    PetscCall(PetscFree(hz));
    PetscCall(DRStoreWriteReal(st, "/sysred/frf/full", 3, dg, s->Gf, NULL));
    PetscCall(DRStoreWriteReal(st, "/sysred/frf/reduced", 3, dg, s->Gr, NULL));
    PetscCall(DRStoreAttrReal(st, "/sysred/frf", "max_error", s->frf_max));
    PetscCall(DRStoreAttrReal(st, "/sysred/frf", "hinf_error", s->frf_hinf));
    PetscCall(DRStoreAttrReal(st, "/sysred/frf", "hinf_full", s->frf_ref));
  }
  if (s->sim_t_end > 0) {
    PetscInt   dt[1] = {s->nsim + 1}, dy[2] = {s->nsim + 1, s->full.p};
    PetscReal *t;
    PetscCall(PetscMalloc1(s->nsim + 1, &t));
    for (PetscInt k = 0; k <= s->nsim; k++) t[k] = k * s->sim_h;
    PetscCall(DRStoreWriteReal(st, "/sysred/sim/t", 1, dt, t, "s"));
    PetscCall(DRStoreWriteReal(st, "/sysred/sim/full", 2, dy, s->Yf, NULL));
    PetscCall(DRStoreWriteReal(st, "/sysred/sim/reduced", 2, dy, s->Yr, NULL));
    PetscCall(DRStoreAttrReal(st, "/sysred/sim", "max_rel_error", s->sim_err));
    PetscCall(PetscFree(t));
  }
  PetscCall(PetscLogEventEnd(DR_SYSRED_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedGetReduced(DRSysRed s, PetscInt *r, const PetscReal **A, const PetscReal **B, const PetscReal **C, const PetscReal **D)
{
  PetscFunctionBegin;
  if (r) *r = s->red.n;
  if (A) *A = s->red.A; /* column-major internally: callers outside use DRSysRedWrite */
  if (B) *B = s->red.B;
  if (C) *C = s->red.C;
  if (D) *D = s->red.D;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedGetHSV(DRSysRed s, PetscInt *ns, const PetscReal **hsv, PetscReal *bound)
{
  PetscFunctionBegin;
  if (ns) *ns = s->ns;
  if (hsv) *hsv = s->hsv;
  if (bound) *bound = s->bound;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedGetTime(DRSysRed s, PetscReal *seconds)
{
  PetscFunctionBegin;
  *seconds = s->seconds;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedDestroy(DRSysRed *s)
{
  PetscFunctionBegin;
  if (!*s) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRLTIFree(&(*s)->full));
  PetscCall(DRLTIFree(&(*s)->red));
  PetscCall(DRSecondOrderFree(&(*s)->so));
  PetscCall(DRSecondOrderFree(&(*s)->sored));
  PetscCall(DREnergyFree(&(*s)->en));
  PetscCall(PetscFree((*s)->hsv));
  PetscCall(PetscFree((*s)->T));
  PetscCall(PetscFree((*s)->Ti));
  PetscCall(PetscFree((*s)->X));
  PetscCall(PetscFree2((*s)->Yf, (*s)->Yr));
  PetscCall(PetscFree3((*s)->omega, (*s)->Gf, (*s)->Gr));
  PetscCall(PetscFree(*s));
  PetscFunctionReturn(PETSC_SUCCESS);
}
