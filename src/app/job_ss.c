/* dynred ss: modal state-space export of a reduced model and fixed-step
 * simulation (METHODS.md section 2).  Small dense work: every rank computes
 * the same thing (no communication); rank 0 writes. */
#include "app.h"
#include <dynred/ss.h>
#include <math.h>
#include <string.h>

const DRConfigKey DRJobSSKeys[] = {
  {"ss.source", DR_CFG_STRING, "", "result file of the reduced model (cms, modal, ga, ...), relative to the job file", NULL, NULL, NULL},
  {"ss.group", DR_CFG_STRING, "", "group in ss.source: modes (frequencies_hz, modes, labels) or matrices (K, M, labels, e.g. /ga/solutions/001); empty: /cms, then /modal", NULL, NULL, NULL},
  {"ss.inputs", DR_CFG_LIST, "", "input (force) DOF labels [node.dir, ...]", NULL, NULL, NULL},
  {"ss.outputs", DR_CFG_LIST, "", "output DOF labels [node.dir, ...]: displacement and velocity of each", NULL, NULL, NULL},
  {"ss.fmax", DR_CFG_REAL, "0", "keep the modes below fmax Hz (0: all)", NULL, NULL, NULL},
  {"ss.nmodes", DR_CFG_INT, "0", "keep at most the lowest nmodes modes (0: all)", NULL, NULL, NULL},
  {"ss.rigid_hz", DR_CFG_REAL, "1e-3", "modes below this frequency are rigid-body modes (omega = 0, undamped)", NULL, NULL, NULL},
  {"ss.damping.type", DR_CFG_STRING, "none", "none | modal | rayleigh", NULL, NULL, NULL},
  {"ss.damping.zeta", DR_CFG_LIST, "", "modal damping ratios: one for all modes or one per kept mode", NULL, NULL, NULL},
  {"ss.damping.alpha", DR_CFG_REAL, "0", "Rayleigh mass coefficient alpha [1/s]: zeta_k = alpha/(2 omega_k) + beta omega_k/2", NULL, NULL, NULL},
  {"ss.damping.beta", DR_CFG_REAL, "0", "Rayleigh stiffness coefficient beta [s]", NULL, NULL, NULL},
  {"ss.mtx", DR_CFG_BOOL, "true", "also write A, B, C, D as Matrix Market files OUTPUT_A.mtx ... next to the output", NULL, NULL, NULL},
  {"ss.sim.methods", DR_CFG_STRING, "", "comma list of integrators to run: exact zoh newmark central rk3bs rk4 rk5dp rk8vr beuler cn theta alpha2 (empty: export only)", NULL, NULL, NULL},
  {"ss.sim.h", DR_CFG_REAL, "1e-4", "fixed time step [s]", NULL, NULL, NULL},
  {"ss.sim.t_end", DR_CFG_REAL, "1.0", "simulated time [s]", NULL, NULL, NULL},
  {"ss.sim.repeat", DR_CFG_INT, "1", "runs per method; the wall time is their mean (real-time factor benchmarks)", NULL, NULL, NULL},
  {"ss.sim.reference", DR_CFG_STRING, "exact", "method every other is compared with (empty: none)", NULL, NULL, NULL},
  {"ss.sim.write_y", DR_CFG_BOOL, "true", "write output histories /ss/sim/METHOD/y", NULL, NULL, NULL},
  {"ss.input.signal", DR_CFG_STRING, "step", "input history: step | ramp | sine | trapezoid | file | zero", NULL, NULL, NULL},
  {"ss.input.file", DR_CFG_STRING, "", "signal file: columns t, u_1 .. u_nin (commas or blanks), linear interpolation", NULL, NULL, NULL},
  {"ss.input.amplitude", DR_CFG_REAL, "1.0", "signal amplitude (force units of the model)", NULL, NULL, NULL},
  {"ss.input.t0", DR_CFG_REAL, "0", "signal start time [s]", NULL, NULL, NULL},
  {"ss.input.freq_hz", DR_CFG_REAL, "1.0", "sine frequency [Hz]", NULL, NULL, NULL},
  {"ss.input.t_rise", DR_CFG_REAL, "7.0", "ramp and trapezoid rise time [s] (seed 000 profile: 7 s)", NULL, NULL, NULL},
  {"ss.input.t_hold", DR_CFG_REAL, "11.5", "trapezoid hold time [s] (seed 000: 11.5 s at 2 m/s, braking after 30 m)", NULL, NULL, NULL},
  {"ss.input.t_fall", DR_CFG_REAL, "7.0", "trapezoid fall time [s] (seed 000: standstill at 25.5 s)", NULL, NULL, NULL},
  {"ss.input.scale", DR_CFG_LIST, "", "per-input factors on the signal (default 1 each)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

static PetscErrorCode GetLabels(DRConfig cfg, const char *key, PetscInt *n, DRLabel **l)
{
  PetscReal v[1024];
  char      where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  *n = 1024;
  PetscCall(DRConfigGetRealArray(cfg, key, v, n, NULL));
  PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
  PetscCall(PetscMalloc1(*n + 1, l));
  for (PetscInt i = 0; i < *n; i++) {
    PetscReal node = PetscFloorReal(v[i]), dir = round(10 * (v[i] - node));
    PetscCheck(node >= 0 && dir >= 1 && dir <= 6 && PetscAbsReal(10 * (v[i] - node) - dir) < 1e-6, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s entry %" PetscInt_FMT " = %g is not a DOF label node.direction with direction 1..6", where, key, i + 1, (double)v[i]);
    (*l)[i] = DRLabelMake((PetscInt64)node, (PetscInt)dir);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Resolve(DRConfig cfg, const char *p, char *out, size_t len)
{
  const char *origin, *slash;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetOrigin(cfg, &origin));
  slash = strrchr(origin, '/');
  if (!p[0] || p[0] == '/' || origin[0] == '<' || !slash) PetscCall(PetscStrncpy(out, p, len));
  else PetscCall(PetscSNPrintf(out, len, "%.*s/%s", (int)(slash - origin), origin, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The input signal of the job (ss.input.*). */
static PetscErrorCode SetUpSignal(DRConfig cfg, PetscInt nin, DRSignal *sig)
{
  char      type[32], where[PETSC_MAX_PATH_LEN + 32];
  PetscReal sc[1024];
  PetscInt  nsc = 1024;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(sig, sizeof(*sig)));
  sig->nin = nin;
  PetscCall(DRConfigGetString(cfg, "ss.input.signal", type, sizeof(type), NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.input.amplitude", &sig->a, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.input.t0", &sig->t0, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.input.freq_hz", &sig->f, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.input.t_rise", &sig->t_rise, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.input.t_hold", &sig->t_hold, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.input.t_fall", &sig->t_fall, NULL));
  PetscCall(DRConfigGetRealArray(cfg, "ss.input.scale", sc, &nsc, NULL));
  PetscCall(DRConfigWhere(cfg, "ss.input.scale", where, sizeof(where)));
  PetscCheck(nsc == 0 || nsc == nin, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.input.scale has %" PetscInt_FMT " values for %" PetscInt_FMT " inputs", where, nsc, nin);
  PetscCall(PetscMalloc1(nin + 1, &sig->scale));
  for (PetscInt j = 0; j < nin; j++) sig->scale[j] = nsc ? sc[j] : 1.0;
  PetscCall(DRConfigWhere(cfg, "ss.input.signal", where, sizeof(where)));
  if (!strcmp(type, "zero")) sig->type = DR_SIG_ZERO;
  else if (!strcmp(type, "step")) sig->type = DR_SIG_STEP;
  else if (!strcmp(type, "ramp")) sig->type = DR_SIG_RAMP;
  else if (!strcmp(type, "sine")) sig->type = DR_SIG_SINE;
  else if (!strcmp(type, "trapezoid")) {
    sig->type = DR_SIG_TRAPEZOID;
    PetscCheck(sig->t_rise > 0 && sig->t_fall > 0 && sig->t_hold >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: trapezoid needs t_rise > 0, t_fall > 0, t_hold >= 0", where);
  } else if (!strcmp(type, "file")) {
    char file[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN];
    PetscCall(DRConfigGetString(cfg, "ss.input.file", file, sizeof(file), NULL));
    PetscCheck(file[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: signal 'file' needs ss.input.file", where);
    PetscCall(Resolve(cfg, file, path, sizeof(path)));
    PetscCall(DRSignalLoadTable(sig, path));
  } else SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown ss.input.signal '%s'; expected step, ramp, sine, trapezoid, file or zero", where, type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Simulate(DRConfig cfg, DRSS ss, DRStore store)
{
  char       list[512], ref[32], where[PETSC_MAX_PATH_LEN + 32];
  PetscReal  h, tend, *Yref = NULL, *Y;
  PetscInt   nsteps, repeat, no2 = 2 * ss->nout;
  PetscBool  writey;
  DRSignal   sig;
  DRSSInput  in;
  PetscInt   nm = 0;
  char      *names[32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "ss.sim.methods", list, sizeof(list), NULL));
  if (!list[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRConfigGetReal(cfg, "ss.sim.h", &h, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.sim.t_end", &tend, NULL));
  PetscCall(DRConfigGetInt(cfg, "ss.sim.repeat", &repeat, NULL));
  PetscCall(DRConfigGetString(cfg, "ss.sim.reference", ref, sizeof(ref), NULL));
  PetscCall(DRConfigGetBool(cfg, "ss.sim.write_y", &writey, NULL));
  PetscCall(DRConfigWhere(cfg, "ss.sim.h", where, sizeof(where)));
  PetscCheck(h > 0 && tend > 0 && tend / h < 1e9, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.sim.h = %g, ss.sim.t_end = %g: expected 0 < h and 0 < t_end", where, (double)h, (double)tend);
  PetscCheck(repeat >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.sim.repeat must be >= 1", where);
  nsteps = (PetscInt)round(tend / h);
  PetscCall(DRConfigWhere(cfg, "ss.sim.methods", where, sizeof(where)));
  for (char *save = NULL, *tok = strtok_r(list, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscBool known;
    PetscCall(DRSSMethodOrder(tok, NULL, &known));
    PetscCheck(known, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown method '%s' in ss.sim.methods; expected exact zoh newmark central rk3bs rk4 rk5dp rk8vr beuler cn theta alpha2", where, tok);
    PetscCheck(nm < 32, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: more than 32 methods", where);
    names[nm++] = tok;
  }
  if (ref[0]) {
    PetscBool known;
    PetscCall(DRSSMethodOrder(ref, NULL, &known));
    PetscCall(DRConfigWhere(cfg, "ss.sim.reference", where, sizeof(where)));
    PetscCheck(known, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown reference method '%s'", where, ref);
  }
  PetscCall(SetUpSignal(cfg, ss->nin, &sig));
  in.nin  = ss->nin;
  in.eval = DRSignalEval;
  in.ctx  = &sig;
  PetscCall(PetscMalloc1((nsteps + 1) * no2 + 1, &Y));
  {
    PetscReal *t;
    PetscInt   d1 = nsteps + 1;
    PetscCall(PetscMalloc1(nsteps + 1, &t));
    for (PetscInt n = 0; n <= nsteps; n++) t[n] = n * h;
    PetscCall(DRStoreWriteReal(store, "/ss/sim/t", 1, &d1, t, "s"));
    PetscCall(PetscFree(t));
  }
  PetscCall(DRStoreAttrReal(store, "/ss/sim", "h", h));
  PetscCall(DRStoreAttrInt(store, "/ss/sim", "steps", nsteps));
  PetscCall(DRStoreAttrInt(store, "/ss/sim", "repeat", repeat));
  PetscCall(DRStoreAttrString(store, "/ss/sim", "y_columns", "[disp of output 1, vel of output 1, disp of output 2, ...] = C x, rows = /ss/sim/t"));
  if (ref[0]) {
    PetscCall(PetscMalloc1((nsteps + 1) * no2 + 1, &Yref));
    PetscCall(DRSSSimulate(ss, ref, h, nsteps, NULL, &in, Yref, NULL, NULL));
    PetscCall(DRStoreAttrString(store, "/ss/sim", "reference", ref));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "simulation: %" PetscInt_FMT " steps of %g s (%g s), %" PetscInt_FMT " run(s) per method\n", nsteps, (double)h, (double)(nsteps * h), repeat));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-8s %12s %12s %14s\n", "method", "wall [s]", "RTF", ref[0] ? "max rel error" : ""));
  for (PetscInt i = 0; i < nm; i++) {
    PetscLogDouble t0;
    PetscReal      wall, err = 0, scale = 0;
    char           grp[64], dset[80];
    PetscInt       dims[2] = {nsteps + 1, no2};

    t0 = DRTime();
    for (PetscInt r = 0; r < repeat; r++) PetscCall(DRSSSimulate(ss, names[i], h, nsteps, NULL, &in, Y, NULL, NULL));
    wall = (DRTime() - t0) / repeat;
    PetscCall(PetscSNPrintf(grp, sizeof(grp), "/ss/sim/%s", names[i]));
    PetscCall(DRStoreAttrReal(store, grp, "wall_s", wall));
    PetscCall(DRStoreAttrReal(store, grp, "real_time_factor", wall / (nsteps * h)));
    if (Yref) {
      for (PetscInt j = 0; j < (nsteps + 1) * no2; j++) {
        err   = PetscMax(err, PetscAbsReal(Y[j] - Yref[j]));
        scale = PetscMax(scale, PetscAbsReal(Yref[j]));
      }
      err = scale > 0 ? err / scale : err;
      PetscCall(DRStoreAttrReal(store, grp, "max_rel_error", err));
    }
    if (writey) {
      PetscCall(PetscSNPrintf(dset, sizeof(dset), "%s/y", grp));
      PetscCall(DRStoreWriteReal(store, dset, 2, dims, Y, NULL));
      if (i == 0) PetscCall(DRStoreWriteReal(store, "/ss/sim/y", 2, dims, Y, NULL));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-8s %12.4e %12.4e %14.3e\n", names[i], (double)wall, (double)(wall / (nsteps * h)), (double)err));
  }
  PetscCall(PetscFree(Y));
  PetscCall(PetscFree(Yref));
  PetscCall(DRSignalDestroy(&sig));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobSS(DRConfig cfg)
{
  char           src_file[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN], group[256], where[PETSC_MAX_PATH_LEN + 32], dtype[32];
  DRSSSource     src;
  DRSS           ss;
  DRStore        store;
  DRLabel       *in, *out;
  PetscInt       nin, nout, m, nmodes, missing, nz = 1024;
  PetscReal      fmax, rigid_hz, *rows, *Bm, *Cm, zeta[1024], alpha, beta;
  PetscBool      mtx;
  PetscLogDouble t0 = DRTime(), texp;
  PetscMPIInt    rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRConfigGetString(cfg, "ss.source", src_file, sizeof(src_file), NULL));
  PetscCall(DRConfigWhere(cfg, "ss.source", where, sizeof(where)));
  PetscCheck(src_file[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.source is missing: expected the result file of a reduced model", where);
  PetscCall(Resolve(cfg, src_file, path, sizeof(path)));
  PetscCall(DRConfigGetString(cfg, "ss.group", group, sizeof(group), NULL));
  PetscCall(DRSSSourceRead(path, group, &src));
  PetscCall(GetLabels(cfg, "ss.inputs", &nin, &in));
  PetscCall(GetLabels(cfg, "ss.outputs", &nout, &out));
  PetscCall(DRConfigWhere(cfg, "ss.inputs", where, sizeof(where)));
  PetscCheck(nin > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.inputs is empty: expected at least one input DOF label", where);
  PetscCall(DRConfigWhere(cfg, "ss.outputs", where, sizeof(where)));
  PetscCheck(nout > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ss.outputs is empty: expected at least one output DOF label", where);
  PetscCall(DRConfigGetReal(cfg, "ss.fmax", &fmax, NULL));
  PetscCall(DRConfigGetInt(cfg, "ss.nmodes", &nmodes, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.rigid_hz", &rigid_hz, NULL));
  m = src.m;
  if (fmax > 0)
    for (m = 0; m < src.m && src.omega[m] < 2 * PETSC_PI * fmax; m++) { }
  if (nmodes > 0) m = PetscMin(m, nmodes);
  PetscCall(DRConfigWhere(cfg, "ss.fmax", where, sizeof(where)));
  PetscCheck(m > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no mode of %s %s is kept (ss.fmax = %g Hz, ss.nmodes = %" PetscInt_FMT ")", where, path, src.group, (double)fmax, nmodes);
  /* mode rows at the input and output labels */
  PetscCall(PetscMalloc3((nin + nout) * src.m + 1, &rows, m * nin + 1, &Bm, nout * m + 1, &Cm));
  {
    DRLabel *all;
    PetscCall(PetscMalloc1(nin + nout + 1, &all));
    PetscCall(PetscArraycpy(all, in, nin));
    PetscCall(PetscArraycpy(all + nin, out, nout));
    PetscCall(DRSSSourceModeRows(&src, nin + nout, all, rows, &missing));
    if (missing >= 0) {
      char        b[32];
      const char *key = missing < nin ? "ss.inputs" : "ss.outputs";
      PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s label %s is not a DOF of %s %s/labels", where, key, DRLabelString(all[missing], b), path, src.group);
    }
    PetscCall(PetscFree(all));
  }
  for (PetscInt k = 0; k < m; k++)
    for (PetscInt j = 0; j < nin; j++) Bm[k * nin + j] = rows[j * src.m + k];
  for (PetscInt i = 0; i < nout; i++)
    for (PetscInt k = 0; k < m; k++) Cm[i * m + k] = rows[(nin + i) * src.m + k];
  PetscCall(DRSSCreate(m, src.omega, 2 * PETSC_PI * rigid_hz, nin, Bm, nout, Cm, &ss));
  PetscCall(DRSSSetLabels(ss, in, out));
  /* damping */
  PetscCall(DRConfigGetString(cfg, "ss.damping.type", dtype, sizeof(dtype), NULL));
  PetscCall(DRConfigGetRealArray(cfg, "ss.damping.zeta", zeta, &nz, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.damping.alpha", &alpha, NULL));
  PetscCall(DRConfigGetReal(cfg, "ss.damping.beta", &beta, NULL));
  PetscCall(DRConfigWhere(cfg, "ss.damping.type", where, sizeof(where)));
  if (!strcmp(dtype, "none")) PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_NONE, 0, NULL, 0, 0, where));
  else if (!strcmp(dtype, "modal")) {
    PetscCall(DRConfigWhere(cfg, "ss.damping.zeta", where, sizeof(where)));
    PetscCheck(nz > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: damping type modal needs ss.damping.zeta", where);
    PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_MODAL, nz, zeta, 0, 0, where));
  } else if (!strcmp(dtype, "rayleigh")) {
    PetscCall(DRConfigWhere(cfg, "ss.damping.alpha", where, sizeof(where)));
    PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_RAYLEIGH, 0, NULL, alpha, beta, where));
  } else SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown ss.damping.type '%s'; expected none, modal or rayleigh", where, dtype);
  {
    PetscInt nrig = 0;
    for (PetscInt k = 0; k < m; k++) nrig += ss->rigid[k];
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "state space from %s %s (%s): %" PetscInt_FMT " of %" PetscInt_FMT " modes (%" PetscInt_FMT " rigid-body), %.4g .. %.4g Hz; %" PetscInt_FMT " states, %" PetscInt_FMT " inputs, %" PetscInt_FMT " outputs (displacement + velocity), damping %s\n", path, src.group, src.from_km ? "K, M by LAPACK dsygv" : "modes", m, src.m, nrig, (double)(src.omega[0] / (2 * PETSC_PI)), (double)(src.omega[m - 1] / (2 * PETSC_PI)), 2 * m, nin, nout, dtype));
  }
  texp = DRTime() - t0;
  /* write */
  PetscCall(DRJobStoreOpen(cfg, "ss", &store));
  {
    PetscReal *A, *B, *C, *D, *hz, *z, *Md, *Dd, *Kd;
    PetscInt   d2[2];
    PetscCall(DRSSGetMatrices(ss, &A, &B, &C, &D));
    PetscCall(PetscMalloc5(m, &hz, m, &z, m * m, &Md, m * m, &Dd, m * m, &Kd));
    for (PetscInt k = 0; k < m; k++) {
      hz[k] = ss->omega[k] / (2 * PETSC_PI);
      z[k]  = ss->rigid[k] ? 0 : ss->c[k] / (2 * ss->omega[k]);
    }
    PetscCall(PetscArrayzero(Md, m * m));
    PetscCall(PetscArrayzero(Dd, m * m));
    PetscCall(PetscArrayzero(Kd, m * m));
    for (PetscInt k = 0; k < m; k++) {
      Md[k * m + k] = 1;
      Dd[k * m + k] = ss->c[k];
      Kd[k * m + k] = ss->omega[k] * ss->omega[k];
    }
    d2[0] = 2 * m;
    d2[1] = 2 * m;
    PetscCall(DRStoreWriteReal(store, "/ss/A", 2, d2, A, NULL));
    d2[1] = nin;
    PetscCall(DRStoreWriteReal(store, "/ss/B", 2, d2, B, NULL));
    d2[0] = 2 * nout;
    d2[1] = 2 * m;
    PetscCall(DRStoreWriteReal(store, "/ss/C", 2, d2, C, NULL));
    d2[1] = nin;
    PetscCall(DRStoreWriteReal(store, "/ss/D", 2, d2, D, NULL));
    PetscCall(DRStoreWriteReal(store, "/ss/frequencies_hz", 1, &m, hz, "Hz"));
    PetscCall(DRStoreWriteReal(store, "/ss/zeta", 1, &m, z, NULL));
    PetscCall(DRStoreWriteLabels(store, "/ss/inputs", nin, in));
    PetscCall(DRStoreWriteLabels(store, "/ss/outputs", nout, out));
    d2[0] = m;
    d2[1] = m;
    PetscCall(DRStoreWriteReal(store, "/ss/second_order/M", 2, d2, Md, NULL));
    PetscCall(DRStoreWriteReal(store, "/ss/second_order/D", 2, d2, Dd, NULL));
    PetscCall(DRStoreWriteReal(store, "/ss/second_order/K", 2, d2, Kd, NULL));
    d2[1] = nin;
    PetscCall(DRStoreWriteReal(store, "/ss/second_order/input_map", 2, d2, Bm, NULL));
    d2[0] = nout;
    d2[1] = m;
    PetscCall(DRStoreWriteReal(store, "/ss/second_order/output_map", 2, d2, Cm, NULL));
    PetscCall(DRStoreAttrString(store, "/ss/second_order", "form", "M q'' + D q' + K q = input_map u; displacement outputs = output_map q, velocity outputs = output_map q' (modal coordinates q = eta)"));
    PetscCall(DRStoreAttrString(store, "/ss", "state", "interleaved x = [eta_1, deta_1, ..., eta_m, deta_m]; A = blkdiag [[0,1],[-omega_k^2,-2 zeta_k omega_k]], B = (Phi^T S_in) kron [0;1], C = (S_out^T Phi) kron I_2, D = 0"));
    PetscCall(DRStoreAttrString(store, "/ss", "outputs_order", "rows of C: [disp of /ss/outputs[0], vel of /ss/outputs[0], disp of /ss/outputs[1], ...]"));
    PetscCall(DRStoreAttrString(store, "/ss", "matlab", "h5py shows A as [2m, 2m] row-major; MATLAB h5read returns the transpose: A = h5read(f, '/ss/A')'; likewise B, C, D"));
    PetscCall(DRStoreAttrString(store, "/ss", "source", path));
    PetscCall(DRStoreAttrString(store, "/ss", "source_group", src.group));
    PetscCall(DRStoreAttrString(store, "/ss", "damping", dtype));
    PetscCall(DRStoreAttrInt(store, "/ss", "n_modes", m));
    {
      PetscInt nrig = 0;
      for (PetscInt k = 0; k < m; k++) nrig += ss->rigid[k];
      PetscCall(DRStoreAttrInt(store, "/ss", "n_rigid", nrig));
    }
    PetscCall(DRConfigGetBool(cfg, "ss.mtx", &mtx, NULL));
    if (mtx && !rank) {
      char out_h5[PETSC_MAX_PATH_LEN], stem[PETSC_MAX_PATH_LEN], f[PETSC_MAX_PATH_LEN + 16];
      PetscCall(DRConfigGetString(cfg, "output", out_h5, sizeof(out_h5), NULL));
      PetscCall(PetscStrncpy(stem, out_h5, sizeof(stem)));
      {
        size_t l = strlen(stem);
        if (l > 3 && !strcmp(stem + l - 3, ".h5")) stem[l - 3] = 0;
      }
      PetscCall(PetscSNPrintf(f, sizeof(f), "%s_A.mtx", stem));
      PetscCall(DRWriteMatrixMarket(f, 2 * m, 2 * m, A, "dynred ss: A, state [eta_1, deta_1, ...]"));
      PetscCall(PetscSNPrintf(f, sizeof(f), "%s_B.mtx", stem));
      PetscCall(DRWriteMatrixMarket(f, 2 * m, nin, B, "dynred ss: B, columns = /ss/inputs"));
      PetscCall(PetscSNPrintf(f, sizeof(f), "%s_C.mtx", stem));
      PetscCall(DRWriteMatrixMarket(f, 2 * nout, 2 * m, C, "dynred ss: C, rows = [disp, vel] per /ss/outputs"));
      PetscCall(PetscSNPrintf(f, sizeof(f), "%s_D.mtx", stem));
      PetscCall(DRWriteMatrixMarket(f, 2 * nout, nin, D, "dynred ss: D = 0"));
    }
    PetscCall(PetscFree5(hz, z, Md, Dd, Kd));
    PetscCall(PetscFree(A));
    PetscCall(PetscFree(B));
    PetscCall(PetscFree(C));
    PetscCall(PetscFree(D));
  }
  {
    PetscLogDouble t1 = DRTime();
    PetscCall(Simulate(cfg, ss, store));
    {
      const char *ph[2] = {"export", "simulate"};
      PetscReal   t[2]  = {texp, DRTime() - t1};
      char        o[PETSC_MAX_PATH_LEN];
      PetscCall(DRJobStoreCommit(&store, 2, ph, t));
      PetscCall(DRConfigGetString(cfg, "output", o, sizeof(o), NULL));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", o));
    }
  }
  PetscCall(PetscFree3(rows, Bm, Cm));
  PetscCall(PetscFree(in));
  PetscCall(PetscFree(out));
  PetscCall(DRSSDestroy(&ss));
  PetscCall(DRSSSourceDestroy(&src));
  PetscFunctionReturn(PETSC_SUCCESS);
}
