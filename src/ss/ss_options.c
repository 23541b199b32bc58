/* dynred ss: the job settings (DRSSSetConfig, DRSSSetFromOptions) and the
 * set-up of the model from its source (DRSSSetUp). */
#include "ssimpl.h"
#include <dynred/preflight.h>
#include <math.h>
#include <string.h>

PetscErrorCode DRSSSetConfig(DRSS ss, DRConfig cfg)
{
  PetscFunctionBeginUser;
  ss->cfg = cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetLabels(DRConfig cfg, const char *key, PetscInt *n, DRLabel **l)
{
  PetscReal v[1024];
  char      where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  *n = 1024;
  PetscCall(DRConfigGetRealArray(cfg, key, v, n, NULL));
  PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
  PetscCall(PetscFree(*l));
  PetscCall(PetscMalloc1(*n + 1, l));
  for (PetscInt i = 0; i < *n; i++) {
    PetscReal node = PetscFloorReal(v[i]), dir = round(10 * (v[i] - node));
    PetscCheck(node >= 0 && dir >= 1 && dir <= 6 && PetscAbsReal(10 * (v[i] - node) - dir) < 1e-6, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s entry %" PetscInt_FMT " = %g is not a DOF label node.direction with direction 1..6", where, key, i + 1, (double)v[i]);
    (*l)[i] = DRLabelMake((PetscInt64)node, (PetscInt)dir);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The input signal of a job (PREFIX.signal, .amplitude, ...: ss.input or
 * hybrid.input). */
PetscErrorCode DRSSSignalFromConfig(DRConfig cfg, const char *prefix, PetscInt nin, DRSignal *sig)
{
  char      k[64];
  char      type[32], where[PETSC_MAX_PATH_LEN + 32];
  PetscReal sc[1024];
  PetscInt  nsc = 1024;

#define K(x) (PetscSNPrintf(k, sizeof(k), "%s." x, prefix), k)
  PetscFunctionBeginUser;
  PetscCall(DRSignalDestroy(sig));
  PetscCall(PetscMemzero(sig, sizeof(*sig)));
  sig->nin = nin;
  PetscCall(DRConfigGetString(cfg, K("signal"), type, sizeof(type), NULL));
  PetscCall(DRConfigGetReal(cfg, K("amplitude"), &sig->a, NULL));
  PetscCall(DRConfigGetReal(cfg, K("t0"), &sig->t0, NULL));
  PetscCall(DRConfigGetReal(cfg, K("freq_hz"), &sig->f, NULL));
  PetscCall(DRConfigGetReal(cfg, K("t_rise"), &sig->t_rise, NULL));
  PetscCall(DRConfigGetReal(cfg, K("t_hold"), &sig->t_hold, NULL));
  PetscCall(DRConfigGetReal(cfg, K("t_fall"), &sig->t_fall, NULL));
  PetscCall(DRConfigGetRealArray(cfg, K("scale"), sc, &nsc, NULL));
  PetscCall(DRConfigWhere(cfg, K("scale"), where, sizeof(where)));
  PetscCheck(nsc == 0 || nsc == nin, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s.scale has %" PetscInt_FMT " values for %" PetscInt_FMT " inputs", where, prefix, nsc, nin);
  PetscCall(PetscMalloc1(nin + 1, &sig->scale));
  for (PetscInt j = 0; j < nin; j++) sig->scale[j] = nsc ? sc[j] : 1.0;
  PetscCall(DRConfigWhere(cfg, K("signal"), where, sizeof(where)));
  if (!strcmp(type, "zero")) sig->type = DR_SIG_ZERO;
  else if (!strcmp(type, "step")) sig->type = DR_SIG_STEP;
  else if (!strcmp(type, "ramp")) sig->type = DR_SIG_RAMP;
  else if (!strcmp(type, "sine")) sig->type = DR_SIG_SINE;
  else if (!strcmp(type, "trapezoid")) {
    sig->type = DR_SIG_TRAPEZOID;
    PetscCheck(sig->t_rise > 0 && sig->t_fall > 0 && sig->t_hold >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: trapezoid needs t_rise > 0, t_fall > 0, t_hold >= 0", where);
  } else if (!strcmp(type, "file")) {
    char        file[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
    const char *origin;
    PetscCall(DRConfigGetString(cfg, K("file"), file, sizeof(file), NULL));
    PetscCheck(file[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: signal 'file' needs %s.file", where, prefix);
    PetscCall(DRConfigPathBase(cfg, K("file"), &origin));
    PetscCall(DRPathResolve(origin, file, path, sizeof(path)));
    PetscCall(DRSignalLoadTable(sig, path));
  } else SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown %s.signal '%s'; expected step, ramp, sine, trapezoid, file or zero", where, prefix, type);
#undef K
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ss.sim.*: the methods to run (registry names), step, span, reference. */
static PetscErrorCode SimFromOptions(DRSS ss)
{
  DRConfig  cfg = ss->cfg;
  char      list[512], where[PETSC_MAX_PATH_LEN + 32], known[512];
  PetscReal tend;

  PetscFunctionBeginUser;
  ss->nrun = 0;
  PetscCall(DRConfigGetString(cfg, "ss.sim.methods", list, sizeof(list), NULL));
  if (!list[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRConfigGetReal(cfg, "ss.sim.h", &ss->h, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.sim.t_end", &tend, NULL));
  PetscCall(DRConfigGetInt(cfg, "ss.sim.repeat", &ss->repeat, NULL));
  PetscCall(DRConfigGetString(cfg, "ss.sim.reference", ss->ref, sizeof(ss->ref), NULL));
  PetscCall(DRConfigGetBool(cfg, "ss.sim.write_y", &ss->writey, NULL));
  PetscCall(DRConfigWhere(cfg, "ss.sim.h", where, sizeof(where)));
  PetscCheck(ss->h > 0 && tend > 0 && tend / ss->h < 1e9, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.sim.h = %g, ss.sim.t_end = %g: expected 0 < h and 0 < t_end", where, (double)ss->h, (double)tend);
  PetscCheck(ss->repeat >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.sim.repeat must be >= 1", where);
  ss->nsteps = (PetscInt)round(tend / ss->h);
  PetscCheck(ss->nsteps >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.sim.h = %g, ss.sim.t_end = %g: no step fits, expected h <= t_end", where, (double)ss->h, (double)tend);
  PetscCall(DRSSIntegratorNames(known, sizeof(known)));
  PetscCall(DRConfigWhere(cfg, "ss.sim.methods", where, sizeof(where)));
  for (char *save = NULL, *tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscBool ok;
    PetscCall(DRSSMethodOrder(tok, NULL, &ok));
    PetscCheck(ok, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown method '%s' in ss.sim.methods; known: %s", where, tok, known);
    PetscCheck(ss->nrun < DR_SS_MAXSIM, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: more than %d methods", where, DR_SS_MAXSIM);
    PetscCall(PetscStrncpy(ss->run[ss->nrun++].name, tok, sizeof(ss->run[0].name)));
  }
  if (ss->ref[0]) {
    PetscBool ok;
    PetscCall(DRSSMethodOrder(ss->ref, NULL, &ok));
    PetscCall(DRConfigWhere(cfg, "ss.sim.reference", where, sizeof(where)));
    PetscCheck(ok, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown reference method '%s'; known: %s", where, ss->ref, known);
  }
  PetscCall(DRSSSignalFromConfig(cfg, "ss.input", ss->opt_nin, &ss->sig));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetFromOptions(DRSS ss)
{
  DRConfig  cfg = ss->cfg;
  char        file[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32];
  const char *origin;
  PetscReal zeta[1024];
  PetscInt  nz = 1024;

  PetscFunctionBeginUser;
  PetscCheck(cfg, ss->comm, PETSC_ERR_ORDER, "DRSSSetFromOptions: no job file (DRSSSetConfig)");
  ss->from_options = PETSC_TRUE;
  /* source, inputs, outputs */
  PetscCall(DRConfigGetString(cfg, "ss.source", file, sizeof(file), NULL));
  PetscCall(DRConfigWhere(cfg, "ss.source", where, sizeof(where)));
  PetscCheck(file[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.source is missing: expected the result file of a reduced model", where);
  PetscCall(DRConfigPathBase(cfg, "ss.source", &origin));
  PetscCall(DRPathResolve(origin, file, ss->path, sizeof(ss->path)));
  PetscCall(DRConfigGetString(cfg, "ss.group", ss->group, sizeof(ss->group), NULL));
  PetscCall(GetLabels(cfg, "ss.inputs", &ss->opt_nin, &ss->opt_in));
  PetscCall(GetLabels(cfg, "ss.outputs", &ss->opt_nout, &ss->opt_out));
  PetscCall(DRConfigWhere(cfg, "ss.inputs", where, sizeof(where)));
  PetscCheck(ss->opt_nin > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.inputs is empty: expected at least one input DOF label", where);
  PetscCall(DRConfigWhere(cfg, "ss.outputs", where, sizeof(where)));
  PetscCheck(ss->opt_nout > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.outputs is empty: expected at least one output DOF label", where);
  /* modes kept */
  PetscCall(DRConfigGetReal(cfg, "ss.fmax", &ss->fmax, NULL));
  PetscCall(DRConfigGetInt(cfg, "ss.nmodes", &ss->nmodes, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.rigid_hz", &ss->rigid_hz, NULL));
  /* damping (checked against the modes in DRSSSetUp) */
  PetscCall(DRConfigGetString(cfg, "ss.damping.type", ss->dtype, sizeof(ss->dtype), NULL));
  PetscCall(DRConfigGetRealArray(cfg, "ss.damping.zeta", zeta, &nz, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.damping.alpha", &ss->alpha, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.damping.beta", &ss->beta, NULL));
  PetscCall(PetscFree(ss->zeta));
  PetscCall(PetscMalloc1(nz + 1, &ss->zeta));
  PetscCall(PetscArraycpy(ss->zeta, zeta, nz));
  ss->nzeta = nz;
  /* output */
  PetscCall(DRConfigGetBool(cfg, "ss.mtx", &ss->mtx, NULL));
  PetscCall(DRConfigGetString(cfg, "output", ss->output, sizeof(ss->output), NULL));
  PetscCall(SimFromOptions(ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ss.damping.* on the model (needs the number of modes). */
static PetscErrorCode DampingFromOptions(DRSS ss)
{
  DRConfig cfg = ss->cfg;
  char     where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(cfg, "ss.damping.type", where, sizeof(where)));
  if (!strcmp(ss->dtype, "none")) PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_NONE, 0, NULL, 0, 0, where));
  else if (!strcmp(ss->dtype, "modal")) {
    PetscCall(DRConfigWhere(cfg, "ss.damping.zeta", where, sizeof(where)));
    PetscCheck(ss->nzeta > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: damping type modal needs ss.damping.zeta", where);
    PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_MODAL, ss->nzeta, ss->zeta, 0, 0, where));
  } else if (!strcmp(ss->dtype, "rayleigh")) {
    PetscCall(DRConfigWhere(cfg, "ss.damping.alpha", where, sizeof(where)));
    PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_RAYLEIGH, 0, NULL, ss->alpha, ss->beta, where));
  } else SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown ss.damping.type '%s'; expected none, modal or rayleigh", where, ss->dtype);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The source's unit system (its root attribute units; a file without one:
 * model.units of the job, default SI) and the conversion of its modes to
 * seconds: omega / tu (the frequencies in Hz whatever the model's time
 * unit), Phi / tu (mass-normalized to the mass in FORCE s^2/LENGTH,
 * M tu^2), so the state space is in the system DRUnitsToSeconds names. */
static PetscErrorCode SourceUnits(DRSS ss)
{
  DRSSSource *src = &ss->src;
  DRUnits     fu, cu;
  PetscBool   ffound, cset = PETSC_FALSE, ok;
  char        why[384], where[PETSC_MAX_PATH_LEN + 32];
  PetscReal   ftu;

  PetscFunctionBeginUser;
  PetscCall(DRUnitsRead(src->path, &fu, &ffound));
  if (ss->cfg) PetscCall(DRModelGetUnits(ss->cfg, &cu, &cset));
  else PetscCall(DRUnitsParse("SI", &cu, &ok, why, sizeof(why)));
  if (ffound && cset && strcmp(fu.name, cu.name)) {
    PetscCall(DRConfigWhere(ss->cfg, "model.units", where, sizeof(where)));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.units = %s but %s was computed in %s, expected %s (or no model.units)", where, cu.name, src->path, fu.name, fu.name);
  }
  ss->units      = ffound ? fu : cu;
  ss->have_units = PETSC_TRUE;
  PetscCall(DRUnitsToSeconds(&ss->units, &ss->units_s));
  ftu = !src->from_km && src->freq_tu > 0 ? src->freq_tu : ss->units.time_s;
  for (PetscInt k = 0; k < src->m; k++) src->omega[k] /= ftu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fail fast on memory, after the source is read and before its modes are
 * solved: every rank holds the same (no distribution): the source's dense
 * K, M and modes with LAPACK's workspace (5 n^2 values; a modes source is
 * read row by row), the state-space matrices of at most m kept modes with the
 * exact integrator's matrix exponential workspace (about 8 (2m)^2; without
 * a simulation only A and its row-major copy for the file, 2 (2m)^2), and the
 * output histories, (nsteps + 1) x 2 nout per method with write_y (one
 * otherwise) plus the reference's. */
static PetscErrorCode SSCheckMemory(DRSS ss, const DRSSSource *src)
{
  PetscInt  m = ss->nmodes > 0 ? PetscMin(ss->nmodes, src->m) : src->m, nh;
  PetscReal len, need, mib = 1048576.0 / sizeof(PetscReal);
  char      what[512];

  PetscFunctionBeginUser;
  nh   = ss->nrun ? (ss->writey ? ss->nrun : 1) + (ss->ref[0] ? 1 : 0) : 0;
  len  = ((PetscReal)ss->nsteps + 1) * 2.0 * ss->opt_nout;
  need = ((src->from_km ? 5.0 * src->ndof * src->ndof : 0) + (ss->nrun ? 32.0 : 8.0) * m * m + nh * len) / mib;
  PetscCall(PetscSNPrintf(what, sizeof(what), "ss on %s %s (%" PetscInt_FMT " modes, %" PetscInt_FMT " states; %" PetscInt_FMT " output histories of %" PetscInt_FMT " steps x %" PetscInt_FMT " outputs; every rank holds all of it)", ss->path, src->group, m, 2 * m, nh, ss->nsteps + 1, 2 * ss->opt_nout));
  PetscCall(DRMemoryCheckHint(PETSC_COMM_WORLD, ss->cfg, need, what, "fewer steps (a larger ss.sim.h or a shorter ss.sim.t_end), ss.sim.write_y: false, fewer modes (ss.nmodes, ss.fmax), one rank per node, or a node with more memory"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetUp(DRSS ss)
{
  DRSSSource    *src = &ss->src;
  DRConfig       cfg = ss->cfg;
  PetscInt       nin = ss->opt_nin, nout = ss->opt_nout, m, missing;
  PetscReal     *rows, *Bm, *Cm;
  char           where[PETSC_MAX_PATH_LEN + 32];
  DRLabel       *all;
  PetscLogDouble e0[3], e1[3];

  PetscFunctionBeginUser;
  if (!ss->from_options || ss->have_src) PetscFunctionReturn(PETSC_SUCCESS); /* a model from DRSSSetModes, or set up */
  PetscCall(DRLogEventSeconds(DR_SS_SourceRead, &e0[0]));
  PetscCall(DRLogEventSeconds(DR_SS_ModalBasis, &e0[1]));
  PetscCall(DRLogEventSeconds(DR_SS_Build, &e0[2]));
  PetscCall(DRSSSourceRead(ss->path, ss->group, src));
  ss->have_src = PETSC_TRUE;
  if (cfg) PetscCall(SSCheckMemory(ss, src));
  PetscCall(DRSSSourceModes(src));
  PetscCall(SourceUnits(ss));
  m = src->m;
  if (ss->fmax > 0)
    for (m = 0; m < src->m && src->omega[m] < 2 * PETSC_PI * ss->fmax; m++) { }
  if (ss->nmodes > 0) m = PetscMin(m, ss->nmodes);
  PetscCall(DRConfigWhere(cfg, "ss.fmax", where, sizeof(where)));
  PetscCheck(m > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no mode of %s %s is kept (ss.fmax = %g Hz, ss.nmodes = %" PetscInt_FMT ")", where, ss->path, src->group, (double)ss->fmax, ss->nmodes);
  /* mode rows at the input and output labels */
  PetscCall(PetscMalloc3((nin + nout) * src->m + 1, &rows, m * nin + 1, &Bm, nout * m + 1, &Cm));
  PetscCall(PetscMalloc1(nin + nout + 1, &all));
  PetscCall(PetscArraycpy(all, ss->opt_in, nin));
  PetscCall(PetscArraycpy(all + nin, ss->opt_out, nout));
  PetscCall(PetscLogEventBegin(DR_SS_SourceRead, 0, 0, 0, 0));
  PetscCall(DRSSSourceModeRows(src, nin + nout, all, rows, &missing));
  PetscCall(PetscLogEventEnd(DR_SS_SourceRead, 0, 0, 0, 0));
  if (missing >= 0) {
    char        b[32];
    const char *key = missing < nin ? "ss.inputs" : "ss.outputs";
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s label %s is not a DOF of %s %s/labels", where, key, DRLabelString(all[missing], b), ss->path, src->group);
  }
  PetscCall(PetscFree(all));
  for (PetscInt k = 0; k < m; k++) /* Phi / tu: see SourceUnits */
    for (PetscInt j = 0; j < nin; j++) Bm[k * nin + j] = rows[j * src->m + k] / ss->units.time_s;
  for (PetscInt i = 0; i < nout; i++)
    for (PetscInt k = 0; k < m; k++) Cm[i * m + k] = rows[(nin + i) * src->m + k] / ss->units.time_s;
  PetscCall(DRSSSetModes(ss, m, src->omega, 2 * PETSC_PI * ss->rigid_hz, nin, Bm, nout, Cm));
  PetscCall(DRSSSetLabels(ss, ss->opt_in, ss->opt_out));
  PetscCall(PetscFree3(rows, Bm, Cm));
  PetscCall(DampingFromOptions(ss));
  PetscCall(DRLogEventSeconds(DR_SS_SourceRead, &e1[0]));
  PetscCall(DRLogEventSeconds(DR_SS_ModalBasis, &e1[1]));
  PetscCall(DRLogEventSeconds(DR_SS_Build, &e1[2]));
  ss->t_export = (e1[0] - e0[0]) + (e1[1] - e0[1]) + (e1[2] - e0[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
