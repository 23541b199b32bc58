/* DRPMOR: the object and its verbs (include/dynred/pmor.h), the package's
 * log events and the /pmor output. */
#include "pmorimpl.h"
#include <dynred/preflight.h>
#include <petscblaslapack.h>
#include <unistd.h>

PetscClassId  DRPMOR_CLASSID;
PetscLogEvent DRPMOR_SetUp, DRPMOR_Eigen, DRPMOR_Static, DRPMOR_Project, DRPMOR_Transform, DRPMOR_FRF, DRPMOR_Sim, DRPMOR_Write;
static PetscBool initialized = PETSC_FALSE;

static PetscErrorCode Finalize(void)
{
  PetscFunctionBeginUser;
  initialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (initialized) PetscFunctionReturn(PETSC_SUCCESS);
  initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR PMOR", &DRPMOR_CLASSID));
  PetscCall(PetscLogEventRegister("DRPMORSetUp", DRPMOR_CLASSID, &DRPMOR_SetUp));         /* model, path, supports */
  PetscCall(PetscLogEventRegister("DRPMOREigen", DRPMOR_CLASSID, &DRPMOR_Eigen));         /* the shared eigenmodes */
  PetscCall(PetscLogEventRegister("DRPMORStatic", DRPMOR_CLASSID, &DRPMOR_Static));       /* one static mode (farm task) */
  PetscCall(PetscLogEventRegister("DRPMORProject", DRPMOR_CLASSID, &DRPMOR_Project));     /* Gram matrices of [modes | static modes] */
  PetscCall(PetscLogEventRegister("DRPMORTransform", DRPMOR_CLASSID, &DRPMOR_Transform)); /* compatible coordinates */
  PetscCall(PetscLogEventRegister("DRPMORFRF", DRPMOR_CLASSID, &DRPMOR_FRF));             /* one frequency of the full FRF (farm task) */
  PetscCall(PetscLogEventRegister("DRPMORSim", DRPMOR_CLASSID, &DRPMOR_Sim));             /* moving-load simulation */
  PetscCall(PetscLogEventRegister("DRPMORWrite", DRPMOR_CLASSID, &DRPMOR_Write));         /* /pmor datasets */
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(Finalize));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORCreate(MPI_Comm comm, DRPMOR *pm)
{
  PetscFunctionBeginUser;
  PetscCall(DRPMORInitializePackage());
  PetscCall(PetscNew(pm));
  (*pm)->comm = comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSetConfig(DRPMOR pm, DRConfig cfg)
{
  PetscFunctionBeginUser;
  pm->cfg = cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSetFromOptions(DRPMOR pm)
{
  DRConfig cfg = pm->cfg;
  char     where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "output", pm->output, sizeof(pm->output), NULL));
  PetscCall(DRConfigGetInt(cfg, "pmor.direction", &pm->dir, NULL));
  PetscCall(DRConfigGetString(cfg, "pmor.parameter", pm->parameter, sizeof(pm->parameter), NULL));
  PetscCall(DRConfigGetBool(cfg, "pmor.closed", &pm->closed, NULL));
  PetscCall(DRConfigGetString(cfg, "pmor.distribute", pm->distribute, sizeof(pm->distribute), NULL));
  PetscCall(DRConfigGetInt(cfg, "pmor.support_every", &pm->every, NULL));
  PetscCall(DRConfigGetInt(cfg, "pmor.nmodes", &pm->nmodes, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.tol", &pm->tol, NULL));
  PetscCall(DRConfigGetString(cfg, "pmor.method", pm->method, sizeof(pm->method), NULL));
  PetscCall(DRConfigGetInt(cfg, "pmor.reference", &pm->ref, NULL));
  PetscCall(DRConfigGetString(cfg, "pmor.weights", pm->weights, sizeof(pm->weights), NULL));
  PetscCall(DRConfigGetString(cfg, "pmor.interpolation", pm->interp, sizeof(pm->interp), NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.tool.mass", &pm->tool_m, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.tool.stiffness", &pm->tool_k, NULL));
  PetscCall(DRConfigGetBool(cfg, "pmor.tool.each_support", &pm->each, NULL));
  if (pm->tool_m != 0 || pm->tool_k != 0) pm->each = PETSC_TRUE; /* K, M depend on p */
  PetscCall(DRConfigGetReal(cfg, "pmor.damping.alpha", &pm->alpha, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.damping.beta", &pm->beta, NULL));
  PetscCall(DRConfigGetBool(cfg, "pmor.frf.enabled", &pm->frf, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.frf.fmin", &pm->fmin, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.frf.fmax", &pm->fmax, NULL));
  PetscCall(DRConfigGetInt(cfg, "pmor.frf.n", &pm->nfreq, NULL));
  PetscCall(DRConfigGetInt(cfg, "pmor.frf.refine", &pm->refine, NULL));
  PetscCall(DRConfigGetBool(cfg, "pmor.sim.enabled", &pm->sim, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.sim.t_end", &pm->sim_tend, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.sim.h", &pm->sim_h, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.sim.speed", &pm->sim_speed, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.sim.p0", &pm->sim_p0, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.sim.fmax", &pm->sim_fmax, NULL));
  PetscCall(DRConfigGetReal(cfg, "pmor.sim.t_ramp", &pm->sim_ramp, NULL));
  PetscCall(DRConfigWhere(cfg, "pmor.sim.h", where, sizeof(where)));
  PetscCheck(!pm->sim || (pm->sim_h > 0 && pm->sim_tend >= pm->sim_h), pm->comm, DR_ERR_INPUT, "%s: pmor.sim.h must be positive and at most pmor.sim.t_end, expected 0 < h <= t_end", where);
  {
    PetscBool set;
    /* written during the sweeps: a place that cannot take them is refused
     * now, with the key's place (the defaults beside `output` are checked
     * with it) */
    PetscCall(DRConfigGetString(cfg, "pmor.checkpoint", pm->ckpt, sizeof(pm->ckpt), &set));
    if (set && pm->ckpt[0]) PetscCall(DRPreflightOutput(cfg, "pmor.checkpoint"));
    PetscCall(DRConfigGetString(cfg, "pmor.frf.checkpoint", pm->ckpt_frf, sizeof(pm->ckpt_frf), &set));
    if (set && pm->ckpt_frf[0] && pm->frf) PetscCall(DRPreflightOutput(cfg, "pmor.frf.checkpoint"));
  }
  if (!pm->ckpt[0]) PetscCall(PetscSNPrintf(pm->ckpt, sizeof(pm->ckpt), "%s.supports.h5", pm->output));
  if (!pm->ckpt_frf[0]) PetscCall(PetscSNPrintf(pm->ckpt_frf, sizeof(pm->ckpt_frf), "%s.frf.h5", pm->output));
  PetscCall(DRConfigWhere(cfg, "pmor.frf.fmax", where, sizeof(where)));
  PetscCheck(!pm->frf || pm->fmax >= pm->fmin, pm->comm, DR_ERR_INPUT, "%s: pmor.frf.fmax is below pmor.frf.fmin, expected fmin <= fmax", where);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSetUp(DRPMOR pm)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_SetUp, 0, 0, 0, 0));
  PetscCall(DRModelCreateFull(pm->cfg, pm->comm, &pm->model));
  /* model.units: to its seconds system (M x time_s^2), as modal and cms:
   * frequencies in Hz, times in s; the tool's mass is in the model's mass
   * unit and is scaled alike, its stiffness keeps its units */
  {
    DRUnits u, s;
    PetscCall(DRModelGetUnits(pm->cfg, &u, NULL));
    PetscCall(DRModelToSeconds(pm->cfg, pm->model, &s));
    pm->tool_m *= u.time_s * u.time_s;
  }
  PetscCall(DRComponentGetOperators(pm->model, &pm->K, &pm->M, NULL));
  PetscCall(DRComponentGetLabels(pm->model, &pm->ndof, NULL));
  /* a support's basis: the eigenmodes and its static mode, independent
   * vectors of the model's DOFs (before any eigensolve or checkpoint) */
  PetscCall(DRConfigWhereValue(pm->cfg, "pmor.nmodes", where, sizeof(where)));
  PetscCheck(pm->nmodes + 1 <= pm->ndof, pm->comm, DR_ERR_INPUT, "%s: pmor.nmodes = %" PetscInt_FMT ": the model has %" PetscInt_FMT " DOFs, expected at most %" PetscInt_FMT " (each support's basis adds its static mode)", where, pm->nmodes, pm->ndof, pm->ndof - 1);
  PetscCall(DRPMORPathSetUp(pm));
  if (pm->ref < 0) pm->ref = pm->k / 2;
  PetscCall(DRConfigWhere(pm->cfg, "pmor.reference", where, sizeof(where)));
  PetscCheck(pm->ref < pm->k, pm->comm, DR_ERR_INPUT, "%s: pmor.reference = %" PetscInt_FMT ", expected a support number 0..%" PetscInt_FMT, where, pm->ref, pm->k - 1);
  /* the checkpoint belongs to this model, path and supports */
  {
    const char *src;
    size_t      l = 0, len = sizeof(pm->sig);
    PetscCall(DRComponentGetSource(pm->model, &src));
    /* pmor.nmodes and pmor.tol shape and set the stored bases too: a rerun
     * with others starts afresh instead of mixing supports */
    l += (size_t)snprintf(pm->sig, len, "pmor %s n%d d%d k%d%s tool %.17g %.17g m%d tol %.17g:", src, (int)pm->ndof, (int)pm->dir, (int)pm->k, pm->each ? " each" : "", (double)pm->tool_m, (double)pm->tool_k, (int)pm->nmodes, (double)pm->tol);
    for (PetscInt i = 0; i < pm->k && l + 16 < len; i++) l += (size_t)snprintf(pm->sig + l, len - l, " %d", (int)pm->path_rows[pm->sup[i]]);
  }
  PetscCall(PetscPrintf(pm->comm, "pmor: path of %" PetscInt_FMT " nodes (%s%s, direction %" PetscInt_FMT "), %" PetscInt_FMT " supports, %s weights, %s coordinates\n", pm->npath, pm->parameter, pm->closed ? ", closed" : "", pm->dir, pm->k, pm->weights, pm->method));
  PetscCall(PetscLogEventEnd(DRPMOR_SetUp, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the interpolated ROM is a mechanical system between the supports:
 * M, K (and D when damped) positive definite at every midpoint (Cholesky,
 * LAPACK).  Linear weights are a convex combination of the supports' SPD
 * matrices and cannot fail this; cubic-spline weights overshoot, and where
 * neighbouring supports' coordinates lie far apart (Panzer's R misses part
 * of their static modes: sigma_n+1 / sigma_1 large, T_i big and varying)
 * the sum turns indefinite, and a moving-load run through it can diverge
 * (the ring, every node a support: 9 of 48 midpoints, deflection 1e16).
 * One warning line with the count; /pmor attribute indefinite_midpoints. */
static PetscErrorCode CheckDefinite(DRPMOR pm)
{
  PetscInt     n = pm->n, nm = pm->period > 0 ? pm->k : pm->k - 1, bad = 0;
  PetscReal   *M, *D, *K, *B, *C, *X, pbad = 0;
  PetscBLASInt bn, info;
  const char  *which = "";

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscMalloc6(n * n, &M, n * n, &D, n * n, &K, n, &B, n, &C, n * n, &X));
  for (PetscInt i = 0; i < nm; i++) {
    PetscReal   b = i + 1 < pm->k ? pm->ps[i + 1] : pm->ps[0] + pm->period, p = 0.5 * (pm->ps[i] + b);
    PetscReal  *mats[3] = {M, K, D};
    const char *names[3] = {"M", "K", "D"};
    PetscCall(DRPMORInterpolate(pm, p, M, D, K, B, C));
    for (int q = 0; q < (pm->alpha > 0 || pm->beta > 0 ? 3 : 2); q++) {
      PetscCall(PetscArraycpy(X, mats[q], n * n));
      PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("L", &bn, X, &bn, &info));
      if (info) {
        if (!bad) pbad = p, which = names[q];
        bad++;
        break;
      }
    }
  }
  PetscCall(PetscFree6(M, D, K, B, C, X));
  pm->nindef = bad;
  if (bad) PetscCall(PetscPrintf(pm->comm, "pmor: warning: the interpolated %s is not positive definite at %" PetscInt_FMT " of %" PetscInt_FMT " midpoints between supports (the first at p = %g): the ROM is no mechanical system there and may be unstable (a moving-load run through it can diverge); %s weights are not a convex combination of the supports' matrices: use pmor.weights: linear, fewer supports or more modes%s\n", which, bad, nm, (double)pbad, pm->weights, !strcmp(pm->method, "panzer") ? " (Panzer: see sigma_n+1/sigma_1 below)" : ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSolve(DRPMOR pm)
{
  PetscLogDouble t0, t1, t2;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  if (pm->each) { /* K, M depend on p: every support its own task (tool.c) */
    PetscCall(DRPMORSupportsEach(pm));
    PetscCall(DRPMORRawROMs(pm));
  } else PetscCall(DRPMORSupports(pm));
  PetscCall(DRPMORTransform(pm));
  PetscCall(CheckDefinite(pm));
  PetscCall(PetscTime(&t1));
  if (pm->frf) PetscCall(DRPMORFRF(pm));
  PetscCall(PetscTime(&t2));
  pm->t_offline = (PetscReal)(t1 - t0), pm->t_frf = (PetscReal)(t2 - t1);
  if (pm->sim) {
    PetscLogDouble t3;
    PetscCall(DRPMORSimulate(pm));
    PetscCall(PetscTime(&t3));
    pm->t_sim = (PetscReal)(t3 - t2);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORView(DRPMOR pm, PetscViewer v)
{
  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIPrintf(v, "pmor: n = %" PetscInt_FMT " (%" PetscInt_FMT " modes + 1 static mode), %" PetscInt_FMT " supports, offline %.2f s\n", pm->n, pm->m, pm->k, (double)pm->t_offline));
  if (!strcmp(pm->method, "panzer")) PetscCall(PetscViewerASCIIPrintf(v, "pmor: Panzer: sigma_%" PetscInt_FMT "/sigma_1 of [V_1 .. V_k] = %.3e (the part of the supports' bases outside R)\n", pm->n + 1, (double)pm->sv_ratio));
  if (pm->frf && pm->err) {
    PetscInt  nf = pm->nfreq, cnt = 0;
    PetscReal emax = 0, emean = 0, smax = 0, omax = 0;
    for (PetscInt s = 0; s < pm->k * nf; s++) smax = PetscMax(smax, pm->serr[s]);
    for (PetscInt j = 0; j < pm->nfp; j++) {
      PetscBool atsup = PETSC_FALSE;
      for (PetscInt s = 0; s < pm->k; s++)
        if (j == pm->sup[s] * pm->refine) atsup = PETSC_TRUE;
      for (PetscInt i = 0; i < nf; i++) {
        emax = PetscMax(emax, pm->err[j * nf + i]);
        emean += pm->err[j * nf + i];
        if (!atsup) omax = PetscMax(omax, pm->err[j * nf + i]);
      }
      cnt += nf;
    }
    PetscCall(PetscViewerASCIIPrintf(v, "pmor: FRF error: support ROMs max %.3e; interpolated max %.3e, mean %.3e, max between supports %.3e (%.2f s)\n", (double)smax, (double)emax, (double)(emean / PetscMax(cnt, 1)), (double)omax, (double)pm->t_frf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the interpolated ROM halfway between neighbouring supports (where the
 * interpolation is furthest from its data): /pmor/midpoints/{p, M, K, D} */
static PetscErrorCode WriteMidpoints(DRPMOR pm, DRStore st)
{
  PetscInt   n = pm->n, nm = pm->period > 0 ? pm->k : pm->k - 1, d1[1] = {nm}, d3[3] = {nm, n, n};
  PetscReal *p, *M, *K, *D, *B, *C;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(nm, &p, nm * n * n, &M, nm * n * n, &K, nm * n * n, &D, n, &B, n, &C));
  for (PetscInt i = 0; i < nm; i++) {
    PetscReal b = i + 1 < pm->k ? pm->ps[i + 1] : pm->ps[0] + pm->period;
    p[i]        = 0.5 * (pm->ps[i] + b);
    PetscCall(DRPMORInterpolate(pm, p[i], M + i * n * n, D + i * n * n, K + i * n * n, B, C));
  }
  PetscCall(DRStoreWriteReal(st, "/pmor/midpoints/p", 1, d1, p, NULL));
  PetscCall(DRStoreWriteReal(st, "/pmor/midpoints/M", 3, d3, M, NULL));
  PetscCall(DRStoreWriteReal(st, "/pmor/midpoints/K", 3, d3, K, NULL));
  PetscCall(DRStoreWriteReal(st, "/pmor/midpoints/D", 3, d3, D, NULL));
  PetscCall(PetscFree6(p, M, K, D, B, C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORWrite(DRPMOR pm, DRStore st)
{
  PetscInt n = pm->n, len = DRPMOR_ROMLEN(n);

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Write, 0, 0, 0, 0));
  {
    PetscInt64 *nodes;
    PetscInt    d1[1] = {pm->npath}, dk[1] = {pm->k}, dm[1] = {pm->m};
    PetscCall(PetscMalloc1(pm->npath, &nodes));
    for (PetscInt j = 0; j < pm->npath; j++) nodes[j] = pm->path_nodes[j];
    PetscCall(DRStoreWriteInt(st, "/pmor/path/nodes", 1, d1, nodes));
    for (PetscInt j = 0; j < pm->npath; j++) nodes[j] = pm->path_rows[j];
    PetscCall(DRStoreWriteInt(st, "/pmor/path/rows", 1, d1, nodes));
    PetscCall(DRStoreWriteReal(st, "/pmor/path/p", 1, d1, pm->path_p, NULL));
    for (PetscInt j = 0; j < pm->k; j++) nodes[j] = pm->sup[j];
    PetscCall(DRStoreWriteInt(st, "/pmor/supports/index", 1, dk, nodes));
    PetscCall(DRStoreWriteReal(st, "/pmor/supports/p", 1, dk, pm->ps, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/frequencies_hz", 1, dm, pm->freq, "Hz"));
    {
      PetscInt dkm[2] = {pm->k, pm->m};
      PetscCall(DRStoreWriteReal(st, "/pmor/supports/frequencies_hz", 2, dkm, pm->sfreq, "Hz"));
    }
    PetscCall(PetscFree(nodes));
  }
  PetscCall(DRStoreAttrString(st, "/pmor", "method", pm->method));
  PetscCall(DRStoreAttrString(st, "/pmor", "weights", pm->weights));
  PetscCall(DRStoreAttrString(st, "/pmor", "interpolation", pm->interp));
  PetscCall(DRStoreAttrString(st, "/pmor", "distribute", pm->distribute));
  PetscCall(DRStoreAttrString(st, "/pmor", "parameter", pm->parameter));
  PetscCall(DRStoreAttrReal(st, "/pmor", "period", pm->period));
  PetscCall(DRStoreAttrInt(st, "/pmor", "n", n));
  PetscCall(DRStoreAttrInt(st, "/pmor", "indefinite_midpoints", pm->nindef));
  PetscCall(DRStoreAttrInt(st, "/pmor", "direction", pm->dir));
  PetscCall(DRStoreAttrInt(st, "/pmor", "reference", pm->ref));
  PetscCall(DRStoreAttrReal(st, "/pmor", "alpha", pm->alpha));
  PetscCall(DRStoreAttrReal(st, "/pmor", "beta", pm->beta));
  PetscCall(DRStoreAttrReal(st, "/pmor", "tool_mass", pm->tool_m));
  PetscCall(DRStoreAttrReal(st, "/pmor", "tool_stiffness", pm->tool_k));
  PetscCall(DRStoreAttrInt(st, "/pmor", "each_support", pm->each ? 1 : 0));
  {
    PetscInt d3[3] = {pm->k, n, n}, d2[2] = {pm->k, n};
    PetscReal *buf;
    PetscCall(PetscMalloc1(pm->k * n * n, &buf));
    for (int q = 0; q < 2; q++) {
      const char *nm[2][2] = {{"/pmor/supports/raw/M", "/pmor/supports/raw/K"}, {"/pmor/supports/M", "/pmor/supports/K"}};
      for (int t = 0; t < 2; t++) {
        const PetscReal *src = t ? pm->tr : pm->raw;
        /* row-major [k, n, n]: symmetric, so the column-major block is its own transpose */
        for (PetscInt i = 0; i < pm->k; i++) PetscCall(PetscArraycpy(buf + i * n * n, src + i * len + q * n * n, n * n));
        PetscCall(DRStoreWriteReal(st, nm[t][q], 3, d3, buf, NULL));
      }
    }
    for (int q = 0; q < 2; q++) {
      const char *nm[2][2] = {{"/pmor/supports/raw/B", "/pmor/supports/raw/C"}, {"/pmor/supports/B", "/pmor/supports/C"}};
      for (int t = 0; t < 2; t++) {
        const PetscReal *src = t ? pm->tr : pm->raw;
        for (PetscInt i = 0; i < pm->k; i++) PetscCall(PetscArraycpy(buf + i * n, src + i * len + 2 * n * n + q * n, n));
        PetscCall(DRStoreWriteReal(st, nm[t][q], 2, d2, buf, NULL));
      }
    }
    /* the interpolated ROM at each support position (equals the transformed support ROM) */
    {
      PetscReal *Mi, *Ki, *Bi, *Ci, *bb;
      PetscCall(PetscMalloc5(n * n, &Mi, n * n, &Ki, n, &Bi, n, &Ci, 2 * pm->k * n, &bb));
      for (int q = 0; q < 2; q++) {
        for (PetscInt i = 0; i < pm->k; i++) {
          PetscCall(DRPMORInterpolate(pm, pm->ps[i], Mi, NULL, Ki, Bi, Ci));
          PetscCall(PetscArraycpy(buf + i * n * n, q ? Ki : Mi, n * n));
          if (!q) {
            PetscCall(PetscArraycpy(bb + i * n, Bi, n));
            PetscCall(PetscArraycpy(bb + pm->k * n + i * n, Ci, n));
          }
        }
        PetscCall(DRStoreWriteReal(st, q ? "/pmor/supports/interpolated/K" : "/pmor/supports/interpolated/M", 3, d3, buf, NULL));
      }
      PetscCall(DRStoreWriteReal(st, "/pmor/supports/interpolated/B", 2, d2, bb, NULL));
      PetscCall(DRStoreWriteReal(st, "/pmor/supports/interpolated/C", 2, d2, bb + pm->k * n, NULL));
      PetscCall(PetscFree5(Mi, Ki, Bi, Ci, bb));
    }
    PetscCall(WriteMidpoints(pm, st));
    /* T_i row-major: element (a, b) = T[a + b n] */
    for (PetscInt i = 0; i < pm->k; i++)
      for (PetscInt a = 0; a < n; a++)
        for (PetscInt b = 0; b < n; b++) buf[i * n * n + a * n + b] = pm->T[i * n * n + a + b * n];
    PetscCall(DRStoreWriteReal(st, "/pmor/supports/T", 3, d3, buf, NULL));
    PetscCall(PetscFree(buf));
  }
  if (pm->frf && pm->err) {
    PetscInt nf = pm->nfreq, dp[1] = {pm->nfp}, dw[1] = {nf}, de[2] = {pm->nfp, nf}, dh[3] = {pm->nfp, nf, 2}, dse[2] = {pm->k, nf}, dsh[3] = {pm->k, nf, 2};
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/p", 1, dp, pm->fp, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/omega", 1, dw, pm->omega, "rad/s"));
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/error", 2, de, pm->err, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/H_full", 3, dh, pm->Hf, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/H_reduced", 3, dh, pm->Hr, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/support_error", 2, dse, pm->serr, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/frf/H_support", 3, dsh, pm->Hs, NULL));
  }
  if (pm->sim && pm->sim_t) {
    PetscInt d[1] = {pm->sim_n + 1};
    PetscReal *p;
    PetscCall(DRStoreWriteReal(st, "/pmor/sim/t", 1, d, pm->sim_t, "s"));
    PetscCall(PetscMalloc1(pm->sim_n + 1, &p));
    for (PetscInt s = 0; s <= pm->sim_n; s++) p[s] = pm->sim_p0 + pm->sim_speed * pm->sim_t[s];
    PetscCall(DRStoreWriteReal(st, "/pmor/sim/p", 1, d, p, NULL));
    PetscCall(PetscFree(p));
    PetscCall(DRStoreWriteReal(st, "/pmor/sim/y_full", 1, d, pm->sim_yf, NULL));
    PetscCall(DRStoreWriteReal(st, "/pmor/sim/y_reduced", 1, d, pm->sim_yr, NULL));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "max_error", pm->sim_emax));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "rms_error", pm->sim_erms));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "wall_full_s", pm->sim_wfull));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "wall_reduced_s", pm->sim_wred));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "h", pm->sim_h));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "F_max", pm->sim_fmax));
    PetscCall(DRStoreAttrReal(st, "/pmor/sim", "t_ramp", pm->sim_ramp));
  }
  PetscCall(PetscLogEventEnd(DRPMOR_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORGetCheckpoint(DRPMOR pm, const char **path)
{
  PetscFunctionBeginUser;
  *path = pm->ckpt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORRemoveCheckpoints(DRPMOR pm)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  if (rank == 0) {
    (void)unlink(pm->ckpt);
    (void)unlink(pm->ckpt_frf);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORGetPhaseSeconds(DRPMOR pm, PetscReal *offline, PetscReal *frf, PetscReal *sim)
{
  PetscFunctionBeginUser;
  if (offline) *offline = pm->t_offline;
  if (frf) *frf = pm->t_frf;
  if (sim) *sim = pm->t_sim;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORDestroy(DRPMOR *pmp)
{
  DRPMOR pm = *pmp;

  PetscFunctionBeginUser;
  if (!pm) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRComponentDestroy(&pm->model));
  PetscCall(PetscFree3(pm->path_nodes, pm->path_rows, pm->path_p));
  PetscCall(PetscFree(pm->sup));
  PetscCall(PetscFree(pm->ps));
  PetscCall(PetscFree(pm->freq));
  PetscCall(PetscFree(pm->sfreq));
  PetscCall(PetscFree(pm->E));
  PetscCall(PetscFree4(pm->GK, pm->GM, pm->GI, pm->Wp));
  PetscCall(PetscFree(pm->raw));
  PetscCall(PetscFree2(pm->T, pm->tr));
  PetscCall(PetscFree(pm->S2));
  PetscCall(PetscFree(pm->mf));
  PetscCall(PetscFree2(pm->fp, pm->omega));
  PetscCall(PetscFree5(pm->Hf, pm->Hr, pm->Hs, pm->err, pm->serr));
  PetscCall(PetscFree3(pm->sim_t, pm->sim_yf, pm->sim_yr));
  PetscCall(PetscFree(pm));
  *pmp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
