/* The GMP transient's metrics against its reference and its output: the
 * correlation, phase lag, theta and deflection errors of each method
 * (transient.c integrates). */
#include "transientimpl.h"

/* Correlation coefficient of the detrended signals w and r over [i0, n),
 * with w shifted by k samples (w[i + k] against r[i]). */
static PetscReal Corr(PetscInt i0, PetscInt n, const PetscReal *w, const PetscReal *r, PetscInt k)
{
  PetscReal mw = 0, mr = 0, sww = 0, srr = 0, swr = 0;
  PetscInt  lo = PetscMax(i0, i0 - k), hi = PetscMin(n, n - k), m = hi - lo;
  if (m < 2) return 0;
  for (PetscInt i = lo; i < hi; i++) mw += w[i + k] / m, mr += r[i] / m;
  for (PetscInt i = lo; i < hi; i++) {
    PetscReal a = w[i + k] - mw, b = r[i] - mr;
    sww += a * a, srr += b * b, swr += a * b;
  }
  return swr / PetscSqrtReal(sww * srr + 1e-300);
}

static PetscReal Amp(PetscInt i0, PetscInt n, const PetscReal *t, const PetscReal *w, PetscReal f) /* DFT amplitude */
{
  PetscReal sc = 0, ss = 0, mean = 0;
  for (PetscInt i = i0; i < n; i++) mean += w[i] / (n - i0);
  for (PetscInt i = i0; i < n; i++) sc += (w[i] - mean) * PetscCosReal(2 * PETSC_PI * f * t[i]), ss += (w[i] - mean) * PetscSinReal(2 * PETSC_PI * f * t[i]);
  return PetscSqrtReal(sc * sc + ss * ss);
}

/* Rank 0: the errors of the methods against the reference (method 3) */
PetscErrorCode DRGMPTransientErrors_Private(DRGMPTransient tr)
{
  TrCtx    *c  = tr->c;
  PetscInt  nr = c[3].nrec, i0 = (PetscInt)((1 - tr->window) * nr);
  PetscReal best = 0, tmax = 0, h = tr->h;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < nr; i++) tmax = PetscMax(tmax, PetscAbsReal(c[3].th[i] - tr->theta0));
  /* dominant frequency of the reference deflection in the window */
  for (PetscReal f = 5; f < 2000; f += 0.25) {
    PetscReal a = Amp(i0, nr, c[3].t, c[3].w, f);
    if (a > best) best = a, tr->fdom = f;
  }
  tr->thend = c[3].th[nr - 1];
  for (int m = 0; m < 3; m++) {
    PetscReal e = 0, dp;
    PetscCheck(c[m].nrec == nr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "transient: %" PetscInt_FMT " vs %" PetscInt_FMT " samples", c[m].nrec, nr);
    for (PetscInt i = 0; i < nr; i++) e = PetscMax(e, PetscAbsReal(c[m].th[i] - c[3].th[i]));
    {
      /* the lag (within half a dominant period) that best aligns the
       * deflection with the reference, as a phase at fdom */
      PetscInt  L = (PetscInt)(0.5 / (tr->fdom * h)), kbest = 0;
      PetscReal cb = -2;
      for (PetscInt k = -L; k <= L; k++) {
        PetscReal cc = Corr(i0, nr, c[m].w, c[3].w, k);
        if (cc > cb) cb = cc, kbest = k;
      }
      dp          = kbest * h * tr->fdom * 2 * PETSC_PI;
      tr->corr[m] = Corr(i0, nr, c[m].w, c[3].w, 0);
    }
    tr->thetaerr[m] = e / PetscMax(tmax, 1e-300);
    {
      PetscReal s = 0, r = 0; /* deflection: relative L2 error over the run */
      for (PetscInt i = 0; i < nr; i++) s += (c[m].w[i] - c[3].w[i]) * (c[m].w[i] - c[3].w[i]), r += c[3].w[i] * c[3].w[i];
      tr->werr[m] = PetscSqrtReal(s / PetscMax(r, 1e-300));
    }
    tr->phaseerr[m] = PetscAbsReal(dp) * 180 / PETSC_PI;
  }
  if (tr->yawdrive) {
    /* the yaw: max error over its travel; the tip out of the arm's plane:
     * relative L2 error over the run, correlation over the window */
    PetscReal ymax = 0;
    for (PetscInt i = 0; i < nr; i++) ymax = PetscMax(ymax, PetscAbsReal(c[3].th1[i] - tr->yaw0));
    for (int m = 0; m < 3; m++) {
      PetscReal e = 0, s = 0, r = 0;
      for (PetscInt i = 0; i < nr; i++) {
        e = PetscMax(e, PetscAbsReal(c[m].th1[i] - c[3].th1[i]));
        s += (c[m].wl[i] - c[3].wl[i]) * (c[m].wl[i] - c[3].wl[i]), r += c[3].wl[i] * c[3].wl[i];
      }
      tr->yawerr[m] = tr->Ty != 0 ? e / PetscMax(ymax, 1e-300) : e; /* no base torque: no yaw travel, the absolute error [rad] */
      tr->wlerr[m]  = PetscSqrtReal(s / PetscMax(r, 1e-300));
      tr->wlcorr[m] = Corr(i0, nr, c[m].wl, c[3].wl, 0);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientView(DRGMPTransient tr, PetscViewer viewer)
{
  PetscFunctionBeginUser;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(tr->comm, &viewer));
  PetscCheck(tr->solved, tr->comm, PETSC_ERR_ORDER, "DRGMPTransientView: call DRGMPTransientSolve first");
  /* the numbers live on rank 0, which prints */
  PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: transient check, %g s with h = %g s (%" PetscInt_FMT " steps), generalized-alpha rho_inf = 1; torque %g N m with a %g Hz sinusoidal ramp\n", (double)tr->tend, (double)tr->h, (PetscInt)PetscCeilReal(tr->tend / tr->h - 1e-9), (double)tr->T0, (double)tr->fr));
  PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: reference (%s): theta(t_end) = %.6f rad; %s deflection dominated by %.2f Hz in the last %.0f%%\n", tr->nonlinear ? "unreduced nonlinear FE mechanism" : "exact ROM every step", (double)tr->thend, tr->c[3].arm ? "link 2's tip" : "crank-end", (double)tr->fdom, (double)(100 * tr->window)));
  if (tr->naets) PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: the methods' equations include Naets' delta dPsi/dtheta inertia terms\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %-17s %-17s %-13s %-12s %-10s\n", "method", "max |theta err|", "phase lag [deg]", "correlation", "|w err|_2", "wall [s]"));
  for (int m = 0; m < 3; m++) PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %9.3e (rel)   %8.2f          %7.4f       %9.3e    %.2f\n", DRGMPMethods[m], (double)tr->thetaerr[m], (double)tr->phaseerr[m], (double)tr->corr[m], (double)tr->werr[m], (double)tr->wall[m]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %-17s %-17s %-13s %-12s %.2f\n", tr->nonlinear ? "nonlinear" : "exact ROM", "(reference)", "", "", "", (double)tr->wall[3]));
  if (tr->yawdrive) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: the yaw driven too (base motor %g N m, same ramp), from yaw %g rad: reference yaw(t_end) = %.6f rad\n", (double)tr->Ty, (double)tr->yaw0, (double)(tr->c[3].th1 ? tr->c[3].th1[tr->c[3].nrec - 1] : 0))); /* th1 lives on rank 0, which prints */
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %-17s %-22s %-13s\n", "method", "max |yaw err|", "|out-of-plane err|_2", "correlation"));
    for (int m = 0; m < 3; m++) PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %9.3e (%s)   %9.3e              %7.4f\n", DRGMPMethods[m], (double)tr->yawerr[m], tr->Ty != 0 ? "rel" : "rad", (double)tr->wlerr[m], (double)tr->wlcorr[m]));
  }
  if (tr->c[0].ml) PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: dropped inertia terms (velocity delta dPsi_d/dtheta theta' against Psi eta', lumped-mass norms, maxima): %.3e (linear), %.3e (quadratic), %.3e (eigenspace)\n", (double)tr->c[0].vdrop / tr->c[0].vkept, (double)tr->c[1].vdrop / tr->c[1].vkept, (double)tr->c[2].vdrop / tr->c[2].vkept));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientWrite(DRGMPTransient tr, DRStore store)
{
  PetscInt    nr = 0, ns, dims[1], every = tr->every;
  PetscReal  *buf = NULL;
  PetscMPIInt rank;
  TrCtx      *c = tr->c;

  PetscFunctionBeginUser;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DRGMP_Transient, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(tr->comm, &rank));
  if (rank == 0) nr = c[3].nrec;
  PetscCallMPI(MPI_Bcast(&nr, 1, MPIU_INT, 0, tr->comm));
  ns      = (nr + every - 1) / every;
  dims[0] = ns;
  if (rank == 0) PetscCall(PetscMalloc1(ns, &buf));
  if (rank == 0)
    for (PetscInt i = 0; i < ns; i++) buf[i] = c[3].t[i * every];
  PetscCall(DRStoreWriteReal(store, "/gmp/transient/t", 1, dims, buf, "s"));
  for (int m = 0; m < 4; m++) {
    const char *name = m < 3 ? DRGMPMethods[m] : tr->nonlinear ? "nonlinear" : "exact";
    char        ds[128];
    if (rank == 0)
      for (PetscInt i = 0; i < ns; i++) buf[i] = c[m].th[i * every];
    PetscCall(PetscSNPrintf(ds, sizeof(ds), "/gmp/transient/%s/theta", name));
    PetscCall(DRStoreWriteReal(store, ds, 1, dims, buf, "rad"));
    if (rank == 0)
      for (PetscInt i = 0; i < ns; i++) buf[i] = c[m].w[i * every];
    PetscCall(PetscSNPrintf(ds, sizeof(ds), "/gmp/transient/%s/deflection", name));
    PetscCall(DRStoreWriteReal(store, ds, 1, dims, buf, "m"));
    if (tr->yawdrive) {
      if (rank == 0)
        for (PetscInt i = 0; i < ns; i++) buf[i] = c[m].th1[i * every];
      PetscCall(PetscSNPrintf(ds, sizeof(ds), "/gmp/transient/%s/yaw", name));
      PetscCall(DRStoreWriteReal(store, ds, 1, dims, buf, "rad"));
      if (rank == 0)
        for (PetscInt i = 0; i < ns; i++) buf[i] = c[m].wl[i * every];
      PetscCall(PetscSNPrintf(ds, sizeof(ds), "/gmp/transient/%s/deflection_out_of_plane", name));
      PetscCall(DRStoreWriteReal(store, ds, 1, dims, buf, "m"));
    }
    if (m < 3) {
      PetscCallMPI(MPI_Bcast(&tr->thetaerr[m], 1, MPIU_REAL, 0, tr->comm));
      PetscCallMPI(MPI_Bcast(&tr->phaseerr[m], 1, MPIU_REAL, 0, tr->comm));
      PetscCall(PetscSNPrintf(ds, sizeof(ds), "/gmp/transient/%s", name));
      PetscCall(DRStoreAttrReal(store, ds, "theta_error_rel", tr->thetaerr[m]));
      PetscCall(DRStoreAttrReal(store, ds, "phase_error_deg", tr->phaseerr[m]));
      PetscCallMPI(MPI_Bcast(&tr->corr[m], 1, MPIU_REAL, 0, tr->comm));
      PetscCall(DRStoreAttrReal(store, ds, "correlation", tr->corr[m]));
      PetscCallMPI(MPI_Bcast(&tr->werr[m], 1, MPIU_REAL, 0, tr->comm));
      PetscCall(DRStoreAttrReal(store, ds, "deflection_error_rel", tr->werr[m]));
      {
        PetscReal ratio = c[m].vkept > 0 ? c[m].vdrop / c[m].vkept : 0;
        PetscCallMPI(MPI_Bcast(&ratio, 1, MPIU_REAL, 0, tr->comm));
        PetscCall(DRStoreAttrReal(store, ds, "dropped_inertia_ratio", ratio));
      }
      if (tr->yawdrive) {
        PetscReal v[3] = {tr->yawerr[m], tr->wlerr[m], tr->wlcorr[m]};
        PetscCallMPI(MPI_Bcast(v, 3, MPIU_REAL, 0, tr->comm));
        PetscCall(DRStoreAttrReal(store, ds, "yaw_error_rel", v[0]));
        PetscCall(DRStoreAttrReal(store, ds, "out_of_plane_error_rel", v[1]));
        PetscCall(DRStoreAttrReal(store, ds, "out_of_plane_correlation", v[2]));
      }
    }
  }
  PetscCallMPI(MPI_Bcast(&tr->fdom, 1, MPIU_REAL, 0, tr->comm));
  PetscCall(DRStoreAttrReal(store, "/gmp/transient", "dominant_frequency_hz", tr->fdom));
  PetscCall(DRStoreAttrString(store, "/gmp/transient", "description", "theta(t) and the flexible deflection of the crank end normal to the crank (arm3d: theta2, and link 2's tip relative to the elbow normal to link 2's root), per interpolation method and for the reference (exact: the exact ROM recomputed every step; theta_error_rel = max |theta - theta_exact| / max |theta_exact - theta0|; over the last `window` of the simulation: correlation = correlation coefficient of the (mean-removed) deflection with the reference's, phase_error_deg = |lag| that best aligns them (searched within half a period of the reference's dominant frequency), as a phase at that frequency; nonlinear: the unreduced co-rotational FE mechanism, gmp.transient.reference = nonlinear); dropped_inertia_ratio = max over the run of |delta dPsi_d/dtheta theta'| / max of |Psi eta'| (lumped translational mass norms): the size of the velocity field whose inertia terms (Naets et al.) the reduced equations leave out"));
  PetscCall(DRStoreAttrString(store, "/gmp/transient", "reference", tr->nonlinear ? "nonlinear" : "exact"));
  PetscCall(DRStoreAttrInt(store, "/gmp/transient", "naets", tr->naets ? 1 : 0));
  PetscCall(DRStoreAttrInt(store, "/gmp/transient", "yaw_driven", tr->yawdrive ? 1 : 0));
  if (tr->yawdrive) {
    PetscCall(DRStoreAttrReal(store, "/gmp/transient", "torque_yaw", tr->Ty));
    PetscCall(DRStoreAttrString(store, "/gmp/transient", "yaw_description", "arm3d with the yaw driven: <method>/yaw the base's yaw theta1(t); <method>/deflection_out_of_plane link 2's tip relative to the base along the arm plane's normal a2 at the current yaw; yaw_error_rel = max |yaw - yaw_ref| / max |yaw_ref - yaw0| (in rad without a base torque); out_of_plane_error_rel = ||wl - wl_ref||_2 / ||wl_ref||_2 over the run, out_of_plane_correlation over the last window; reference: the unreduced spatial arm (co-rotational beams, finite rotations)"));
  }
  PetscCall(DRStoreAttrString(store, "/gmp/transient", "deflection_error_rel", "per method: ||w - w_ref||_2 / ||w_ref||_2 over the whole run (w: the crank-end deflection normal to the crank)"));
  PetscCall(PetscFree(buf));
  PetscCall(PetscLogEventEnd(DRGMP_Transient, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
