/* dynred ss: the simulations of a job (DRSSSolve), the results table
 * (DRSSView) and the output (DRSSWrite). */
#include "ssimpl.h"
#include <dynred/io.h>
#include <math.h>
#include <string.h>

/* One integration by the registered `method` (registry.c); the integrators
 * themselves live in ss_sim.c and ss_ts.c. */
PetscErrorCode DRSSSimulate(DRSS ss, const char *method, PetscReal h, PetscInt nsteps, const PetscReal x0[], const DRSSInput *u, PetscReal Y[], PetscReal X[], PetscReal xT[])
{
  struct _n_DRSSSim s;
  DRSSIntegrator    fn;

  PetscFunctionBeginUser;
  PetscCall(DRSSFindIntegrator(method, NULL, &fn));
  PetscCheck(h > 0 && isfinite(h) && nsteps >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "time step %g and %" PetscInt_FMT " steps: expected h > 0", (double)h, nsteps);
  PetscCheck(!u || u->nin == ss->nin, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "input has %" PetscInt_FMT " channels, model %" PetscInt_FMT, u ? u->nin : 0, ss->nin);
  PetscCall(PetscLogEventBegin(DR_SS_Simulate, 0, 0, 0, 0));
  s.ss     = ss;
  s.u      = u;
  s.Y      = Y;
  s.X      = X;
  s.nsteps = nsteps;
  s.h      = h;
  PetscCall(PetscMalloc2(PetscMax(ss->nin, 1), &s.uval, PetscMax(ss->m, 1), &s.f));
  PetscCall((*fn)(&s, method, x0, xT));
  PetscCall(PetscFree2(s.uval, s.f));
  PetscCall(PetscLogEventEnd(DR_SS_Simulate, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}


PetscErrorCode DRSSSolve(DRSS ss)
{
  PetscInt       no2 = 2 * ss->nout, len = (ss->nsteps + 1) * no2;
  PetscReal     *Yref = NULL, *Y = NULL;
  DRSSInput      in;
  PetscLogDouble s0, s1;

  PetscFunctionBeginUser;
  PetscCall(DRSSSetUp(ss));
  if (!ss->nrun) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRLogEventSeconds(DR_SS_Simulate, &s0));
  in.nin  = ss->nin;
  in.eval = DRSignalEval;
  in.ctx  = &ss->sig;
  if (ss->ref[0]) {
    PetscCall(PetscMalloc1(len + 1, &Yref));
    PetscCall(DRSSSimulate(ss, ss->ref, ss->h, ss->nsteps, NULL, &in, Yref, NULL, NULL));
  }
  for (PetscInt i = 0; i < ss->nrun; i++) {
    DRSSRun       *r = &ss->run[i];
    PetscLogDouble t0, t1;
    PetscReal      scale = 0;

    if (ss->writey) PetscCall(PetscMalloc1(len + 1, &r->Y));
    else if (!Y) PetscCall(PetscMalloc1(len + 1, &Y));
    PetscCall(DRLogEventSeconds(DR_SS_Simulate, &t0));
    for (PetscInt k = 0; k < ss->repeat; k++) PetscCall(DRSSSimulate(ss, r->name, ss->h, ss->nsteps, NULL, &in, r->Y ? r->Y : Y, NULL, NULL));
    PetscCall(DRLogEventSeconds(DR_SS_Simulate, &t1));
    r->wall = (t1 - t0) / ss->repeat;
    r->err  = 0;
    if (Yref) {
      const PetscReal *y = r->Y ? r->Y : Y;
      for (PetscInt j = 0; j < len; j++) {
        r->err = PetscMax(r->err, PetscAbsReal(y[j] - Yref[j]));
        scale  = PetscMax(scale, PetscAbsReal(Yref[j]));
      }
      r->err = scale > 0 ? r->err / scale : r->err;
    }
  }
  PetscCall(PetscFree(Y));
  PetscCall(PetscFree(Yref));
  PetscCall(DRLogEventSeconds(DR_SS_Simulate, &s1));
  ss->t_simulate = s1 - s0;
  ss->solved     = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSGetTimes(DRSS ss, PetscReal *t_export, PetscReal *t_simulate)
{
  PetscFunctionBeginUser;
  if (t_export) *t_export = ss->t_export;
  if (t_simulate) *t_simulate = ss->t_simulate;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSView(DRSS ss, PetscViewer viewer)
{
  PetscBool ascii;
  PetscInt  m = ss->m, nrig = 0;

  PetscFunctionBeginUser;
  if (!viewer) viewer = PETSC_VIEWER_STDOUT_(ss->comm);
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < m; k++) nrig += ss->rigid[k];
  if (ss->have_src) {
    const DRSSSource *src = &ss->src;
    PetscCall(PetscViewerASCIIPrintf(viewer, "state space from %s %s (%s): %" PetscInt_FMT " of %" PetscInt_FMT " modes (%" PetscInt_FMT " rigid-body), %.4g .. %.4g Hz; %" PetscInt_FMT " states, %" PetscInt_FMT " inputs, %" PetscInt_FMT " outputs (displacement + velocity), damping %s\n", ss->path, src->group, src->from_km ? "K, M by the dense eigensolver" : "modes", m, src->m, nrig, (double)(src->omega[0] / (2 * PETSC_PI)), (double)(src->omega[m - 1] / (2 * PETSC_PI)), 2 * m, ss->nin, ss->nout, ss->dtype));
  } else if (m) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "state space: %" PetscInt_FMT " modes (%" PetscInt_FMT " rigid-body), %.4g .. %.4g Hz; %" PetscInt_FMT " states, %" PetscInt_FMT " inputs, %" PetscInt_FMT " outputs (displacement + velocity)\n", m, nrig, (double)(ss->omega[0] / (2 * PETSC_PI)), (double)(ss->omega[m - 1] / (2 * PETSC_PI)), 2 * m, ss->nin, ss->nout));
  }
  if (!ss->solved) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "simulation: %" PetscInt_FMT " steps of %g s (%g s), %" PetscInt_FMT " run(s) per method\n", ss->nsteps, (double)ss->h, (double)(ss->nsteps * ss->h), ss->repeat));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %-8s %12s %12s %14s\n", "method", "wall [s]", "RTF", ss->ref[0] ? "max rel error" : ""));
  for (PetscInt i = 0; i < ss->nrun; i++) PetscCall(PetscViewerASCIIPrintf(viewer, "  %-8s %12.4e %12.4e %14.3e\n", ss->run[i].name, (double)ss->run[i].wall, (double)(ss->run[i].wall / (ss->nsteps * ss->h)), (double)ss->run[i].err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A..D as Matrix Market files OUTPUT_X.mtx next to the output (rank 0). */
static PetscErrorCode WriteMTX(DRSS ss, const PetscReal *A, const PetscReal *B, const PetscReal *C, const PetscReal *D)
{
  char        stem[PETSC_MAX_PATH_LEN], f[PETSC_MAX_PATH_LEN + 16];
  PetscInt    m = ss->m, nin = ss->nin, nout = ss->nout;
  PetscMPIInt rank;
  size_t      l;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(ss->comm, &rank));
  if (!ss->mtx || rank || !ss->output[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrncpy(stem, ss->output, sizeof(stem)));
  l = strlen(stem);
  if (l > 3 && !strcmp(stem + l - 3, ".h5")) stem[l - 3] = 0;
  PetscCall(PetscSNPrintf(f, sizeof(f), "%s_A.mtx", stem));
  PetscCall(DRDenseWriteMatrixMarket(f, 2 * m, 2 * m, A, PETSC_TRUE, "dynred ss: A, state [eta_1, deta_1, ...]"));
  PetscCall(PetscSNPrintf(f, sizeof(f), "%s_B.mtx", stem));
  PetscCall(DRDenseWriteMatrixMarket(f, 2 * m, nin, B, PETSC_TRUE, "dynred ss: B, columns = /ss/inputs"));
  PetscCall(PetscSNPrintf(f, sizeof(f), "%s_C.mtx", stem));
  PetscCall(DRDenseWriteMatrixMarket(f, 2 * nout, 2 * m, C, PETSC_TRUE, "dynred ss: C, rows = [disp, vel] per /ss/outputs"));
  PetscCall(PetscSNPrintf(f, sizeof(f), "%s_D.mtx", stem));
  PetscCall(DRDenseWriteMatrixMarket(f, 2 * nout, nin, D, PETSC_TRUE, "dynred ss: D = 0"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /ss: the first- and second-order forms and their description. */
static PetscErrorCode WriteExport(DRSS ss, DRStore store)
{
  PetscInt   m = ss->m, nin = ss->nin, nout = ss->nout, d2[2], nrig = 0;
  PetscReal *A, *B, *C, *D, *hz, *z, *Md, *Dd, *Kd;

  PetscFunctionBeginUser;
  PetscCall(DRSSGetMatrices(ss, &A, &B, &C, &D));
  PetscCall(PetscMalloc5(m, &hz, m, &z, m * m, &Md, m * m, &Dd, m * m, &Kd));
  PetscCall(PetscArrayzero(Md, m * m));
  PetscCall(PetscArrayzero(Dd, m * m));
  PetscCall(PetscArrayzero(Kd, m * m));
  for (PetscInt k = 0; k < m; k++) {
    hz[k]         = ss->omega[k] / (2 * PETSC_PI);
    z[k]          = ss->rigid[k] ? 0 : ss->c[k] / (2 * ss->omega[k]);
    Md[k * m + k] = 1;
    Dd[k * m + k] = ss->c[k];
    Kd[k * m + k] = ss->omega[k] * ss->omega[k];
    nrig += ss->rigid[k];
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
  if (ss->in) PetscCall(DRStoreWriteLabels(store, "/ss/inputs", nin, ss->in));
  if (ss->out) PetscCall(DRStoreWriteLabels(store, "/ss/outputs", nout, ss->out));
  d2[0] = m;
  d2[1] = m;
  PetscCall(DRStoreWriteReal(store, "/ss/second_order/M", 2, d2, Md, NULL));
  PetscCall(DRStoreWriteReal(store, "/ss/second_order/D", 2, d2, Dd, NULL));
  PetscCall(DRStoreWriteReal(store, "/ss/second_order/K", 2, d2, Kd, NULL));
  d2[1] = nin;
  PetscCall(DRStoreWriteReal(store, "/ss/second_order/input_map", 2, d2, ss->Bm, NULL));
  d2[0] = nout;
  d2[1] = m;
  PetscCall(DRStoreWriteReal(store, "/ss/second_order/output_map", 2, d2, ss->Cm, NULL));
  PetscCall(DRStoreAttrString(store, "/ss/second_order", "form", "M q'' + D q' + K q = input_map u; displacement outputs = output_map q, velocity outputs = output_map q' (modal coordinates q = eta)"));
  PetscCall(DRStoreAttrString(store, "/ss", "state", "interleaved x = [eta_1, deta_1, ..., eta_m, deta_m]; A = blkdiag [[0,1],[-omega_k^2,-2 zeta_k omega_k]], B = (Phi^T S_in) kron [0;1], C = (S_out^T Phi) kron I_2, D = 0"));
  PetscCall(DRStoreAttrString(store, "/ss", "outputs_order", "rows of C: [disp of /ss/outputs[0], vel of /ss/outputs[0], disp of /ss/outputs[1], ...]"));
  PetscCall(DRStoreAttrString(store, "/ss", "matlab", "h5py shows A as [2m, 2m] row-major; MATLAB h5read returns the transpose: A = h5read(f, '/ss/A')'; likewise B, C, D"));
  if (ss->have_src) {
    PetscCall(DRStoreAttrString(store, "/ss", "source", ss->path));
    PetscCall(DRStoreAttrString(store, "/ss", "source_group", ss->src.group));
  }
  if (ss->have_units) { /* the state space's system (time in s) is the file's; the source's beside it */
    PetscCall(DRUnitsWrite(store, &ss->units_s));
    PetscCall(DRStoreAttrString(store, "/ss", "source_units", ss->units.name));
    PetscCall(DRStoreAttrString(store, "/ss", "units", ss->units_s.name));
  }
  PetscCall(DRStoreAttrString(store, "/ss", "damping", ss->dtype));
  PetscCall(DRStoreAttrInt(store, "/ss", "n_modes", m));
  PetscCall(DRStoreAttrInt(store, "/ss", "n_rigid", nrig));
  PetscCall(WriteMTX(ss, A, B, C, D));
  PetscCall(PetscFree5(hz, z, Md, Dd, Kd));
  PetscCall(PetscFree(A));
  PetscCall(PetscFree(B));
  PetscCall(PetscFree(C));
  PetscCall(PetscFree(D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /ss/sim: time axis, per-method wall time, RTF, error and histories. */
static PetscErrorCode WriteSim(DRSS ss, DRStore store)
{
  PetscInt   d1 = ss->nsteps + 1, dims[2] = {ss->nsteps + 1, 2 * ss->nout};
  PetscReal *t;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(d1, &t));
  for (PetscInt n = 0; n <= ss->nsteps; n++) t[n] = n * ss->h;
  PetscCall(DRStoreWriteReal(store, "/ss/sim/t", 1, &d1, t, "s"));
  PetscCall(PetscFree(t));
  PetscCall(DRStoreAttrReal(store, "/ss/sim", "h", ss->h));
  PetscCall(DRStoreAttrInt(store, "/ss/sim", "steps", ss->nsteps));
  PetscCall(DRStoreAttrInt(store, "/ss/sim", "repeat", ss->repeat));
  PetscCall(DRStoreAttrString(store, "/ss/sim", "y_columns", "[disp of output 1, vel of output 1, disp of output 2, ...] = C x, rows = /ss/sim/t"));
  if (ss->ref[0]) PetscCall(DRStoreAttrString(store, "/ss/sim", "reference", ss->ref));
  for (PetscInt i = 0; i < ss->nrun; i++) {
    const DRSSRun *r = &ss->run[i];
    char           grp[64], dset[80];
    PetscCall(PetscSNPrintf(grp, sizeof(grp), "/ss/sim/%s", r->name));
    PetscCall(DRStoreAttrReal(store, grp, "wall_s", r->wall));
    PetscCall(DRStoreAttrReal(store, grp, "real_time_factor", r->wall / (ss->nsteps * ss->h)));
    if (ss->ref[0]) PetscCall(DRStoreAttrReal(store, grp, "max_rel_error", r->err));
    if (ss->writey) {
      PetscCall(PetscSNPrintf(dset, sizeof(dset), "%s/y", grp));
      PetscCall(DRStoreWriteReal(store, dset, 2, dims, r->Y, NULL));
      if (i == 0) PetscCall(DRStoreWriteReal(store, "/ss/sim/y", 2, dims, r->Y, NULL));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSWrite(DRSS ss, DRStore store)
{
  PetscFunctionBeginUser;
  PetscCheck(ss->m > 0, ss->comm, PETSC_ERR_ORDER, "DRSSWrite: no model (DRSSSetUp or DRSSSetModes first)");
  PetscCall(PetscLogEventBegin(DR_SS_Write, 0, 0, 0, 0));
  PetscCall(WriteExport(ss, store));
  if (ss->solved) PetscCall(WriteSim(ss, store));
  PetscCall(PetscLogEventEnd(DR_SS_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
