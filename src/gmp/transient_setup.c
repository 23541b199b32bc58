/* The GMP transient's options and set-up (transient.c integrates,
 * transient_report.c measures and writes): the keys, the checks of the
 * mechanism and grid it can drive, the four integrations' contexts, and
 * their destruction. */
#include "transientimpl.h"
#include <dynred/preflight.h>

static const DRConfigKey tr_keys[] = {
  {"gmp.transient.enabled", DR_CFG_BOOL, "false", "run the transient check after the sweep (1-D grids; arm3d: one gmp.theta1 value, the yaw held, the elbow driven; or gmp.theta1 swept, the yaw driven too, against the unreduced spatial arm)", NULL, NULL, NULL},
  {"gmp.transient.t_end", DR_CFG_REAL, "0.5", "simulated time [s]", "0..", "s", NULL},
  {"gmp.transient.h", DR_CFG_REAL, "5e-5", "fixed time step [s]", "0..", "s", NULL},
  {"gmp.transient.torque", DR_CFG_REAL, "0.5", "torque amplitude on theta [N m] (arm3d: the elbow motor's)", NULL, "N m", NULL},
  {"gmp.transient.ramp_hz", DR_CFG_REAL, "50", "sinusoidal ramp: tau = T0 sin(2 pi f t) up to t = 1/(4 f)", "0..", "Hz", NULL},
  {"gmp.transient.theta0", DR_CFG_REAL, "0", "initial crank angle (arm3d: elevation theta2) [rad] (at rest, undeformed)", NULL, "rad", NULL},
  {"gmp.transient.yaw0", DR_CFG_REAL, "0", "arm3d with the yaw driven (gmp.theta1 swept): the initial yaw theta1 [rad]", NULL, "rad", NULL},
  {"gmp.transient.torque_yaw", DR_CFG_REAL, "0", "arm3d with the yaw driven: the base motor's torque amplitude [N m] (the same ramp as the elbow's)", NULL, "N m", NULL},
  {"gmp.transient.window", DR_CFG_REAL, "0.25", "fraction of the simulation (at its end) over which the phase error is measured", "0..1", NULL, NULL},
  {"gmp.transient.save_every", DR_CFG_INT, "10", "store every k-th step in /gmp/transient", "1..", NULL, NULL},
  {"gmp.transient.naets", DR_CFG_BOOL, "false", "add Naets' delta dPsi/dtheta inertia terms to the reduced equations of the interpolation methods (src/gmp/transient_naets.c; needs reference nonlinear)", NULL, NULL, NULL},
  {"gmp.transient.reference", DR_CFG_STRING, "exact-rom", "the reference of the methods: exact-rom (the exact ROM recomputed every step: isolates the interpolation) | nonlinear (the unreduced co-rotational FE mechanism: DRGMPFlexRef, slider-crank or arm3d)", "exact-rom|nonlinear", NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRGMPTransientRegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(tr_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientCreate(MPI_Comm comm, DRGMPTransient *tr)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPInitializePackage());
  PetscCall(PetscNew(tr));
  (*tr)->comm = comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientSetConfig(DRGMPTransient tr, DRConfig cfg)
{
  PetscFunctionBeginUser;
  if (tr->owncfg) PetscCall(DRConfigDestroy(&tr->cfg));
  tr->cfg    = cfg;
  tr->owncfg = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientSetSweep(DRGMPTransient tr, DRGMPSweep s)
{
  PetscFunctionBeginUser;
  tr->sweep = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where a grid axis comes from: the first of gmp.thetaK.values, start,
 * stop, step given on the command line, else the first given in the job
 * file (the file when none is): the place a check between the transient
 * and the grid names when the transient's own key is not given. */
static PetscErrorCode GridWhere(DRConfig cfg, PetscInt t, char *w, size_t len)
{
  static const char *const part[] = {"values", "start", "stop", "step"};
  char                     key[64], here[PETSC_MAX_PATH_LEN + 32];
  PetscReal                v[1];
  PetscInt                 n;
  PetscBool                set, found = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(cfg, "gmp", w, len));
  for (int k = 0; k < 4; k++) {
    PetscCall(PetscSNPrintf(key, sizeof(key), "gmp.theta%" PetscInt_FMT ".%s", t + 1, part[k]));
    n = 1;
    if (k) PetscCall(DRConfigGetReal(cfg, key, v, &set));
    else {
      PetscCall(DRConfigGetRealArray(cfg, key, v, &n, &set));
      set = (PetscBool)(set && n > 0);
    }
    if (!set) continue;
    PetscCall(DRConfigWhereValue(cfg, key, here, sizeof(here)));
    if (!strncmp(here, "command line", 12)) {
      PetscCall(PetscStrncpy(w, here, len));
      break;
    }
    if (!found) PetscCall(PetscStrncpy(w, here, len));
    found = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Where a transient key checked against the grid is: its own place when
 * given, else the grid axis t's (the key's default against the grid the
 * job file sets). */
static PetscErrorCode StartWhere(DRConfig cfg, const char *key, PetscInt t, char *w, size_t len)
{
  PetscReal v;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetReal(cfg, key, &v, &set));
  if (set) PetscCall(DRConfigWhereValue(cfg, key, w, len));
  else PetscCall(GridWhere(cfg, t, w, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A driven axis t of the grid: the interpolation along it takes equal
 * steps and, quadratic, three points (interp.c). */
static PetscErrorCode CheckDrivenAxis(DRGMPTransient tr, PetscInt t, PetscInt npts, const char *what)
{
  PetscReal lo, hi;
  PetscBool uniform;
  char      w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRGMPSweepGetAxisRange(tr->sweep, t, &lo, &hi, &uniform));
  PetscCall(GridWhere(tr->cfg, t, w, sizeof(w)));
  PetscCheck(npts >= 3, tr->comm, DR_ERR_INPUT, "%s: gmp.theta%" PetscInt_FMT " has %" PetscInt_FMT " grid point(s): %s, expected at least 3 (quadratic interpolation along it)", w, t + 1, npts, what);
  PetscCheck(uniform, tr->comm, DR_ERR_INPUT, "%s: gmp.theta%" PetscInt_FMT ".values are not equally spaced: %s, and the interpolation formulas take equal steps, expected a uniform grid (start, stop, step)", w, t + 1, what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mechanism and grid the transient can drive, and its start inside the
 * grid (after the sweep's set-up, before its solve: a bad combination fails
 * before the grid is computed and leaves no checkpoint).  arm3d: the elbow
 * is driven, the yaw held at the grid's one theta1 or driven too. */
static PetscErrorCode CheckMechanism(DRGMPTransient tr)
{
  DRMechanism     mech;
  DRGMPRomOptions opt;
  PetscInt        nt, npts[DR_GMP_MAXTHETA];
  PetscReal       lo, hi, period;
  char            w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRGMPSweepGetMechanism(tr->sweep, &mech, &opt));
  if (!mech) PetscFunctionReturn(PETSC_SUCCESS); /* the sweep is not set up yet: DRGMPTransientSetUp checks */
  PetscCall(DRMechanismGetSizes(mech, NULL, NULL, NULL, &nt));
  PetscCall(DRGMPSweepGetAxes(tr->sweep, NULL, npts, NULL));
  PetscCall(DRConfigWhere(tr->cfg, "gmp.transient.enabled", w, sizeof(w)));
  PetscCheck(nt == 1 || (nt == 2 && mech->dim == 3), tr->comm, DR_ERR_INPUT, "%s: gmp.transient: the transient check drives one rigid DOF (this mechanism has %" PetscInt_FMT "), expected the slider-crank or arm3d", w, nt);
  if (tr->naets) { /* the terms' work arrays hold DR_GMP_NAETS_MAXM modes (transient_naets.c) */
    PetscCall(DRConfigWhereValue(tr->cfg, "gmp.transient.naets", w, sizeof(w)));
    PetscCheck(opt.nmodes <= DR_GMP_NAETS_MAXM, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.naets with %" PetscInt_FMT " deformation columns (gmp.nmodes%s), expected at most %d", w, opt.nmodes, mech->p.chord ? " + the attachment column of gmp.frame chord" : "", DR_GMP_NAETS_MAXM);
  }
  if (nt == 1) {
    PetscCall(DRConfigWhereValue(tr->cfg, "gmp.transient.torque_yaw", w, sizeof(w)));
    PetscCheck(tr->Ty == 0, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.torque_yaw %g: this mechanism has no yaw (arm3d with gmp.theta1 swept has), expected 0", w, (double)tr->Ty);
    PetscCall(CheckDrivenAxis(tr, 0, npts[0], "the transient interpolates along theta1"));
    PetscCall(DRGMPSweepGetAxisRange(tr->sweep, 0, &lo, &hi, NULL));
    PetscCall(DRGMPSweepGetPeriod(tr->sweep, &period));
    PetscCall(StartWhere(tr->cfg, "gmp.transient.theta0", 0, w, sizeof(w)));
    PetscCheck(period > 0 || (tr->theta0 >= lo && tr->theta0 <= hi), tr->comm, DR_ERR_INPUT, "%s: gmp.transient.theta0 = %g: outside the gmp.theta1 grid [%g, %g], expected a start inside it (or gmp.theta1.periodic)", w, (double)tr->theta0, (double)lo, (double)hi);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRConfigWhere(tr->cfg, "gmp.lattice", w, sizeof(w)));
  PetscCheck(mech->p.lattice == 0, tr->comm, DR_ERR_INPUT, "%s: gmp.transient with arm3d lattice links (gmp.lattice = %" PetscInt_FMT "): the transient check exists for the beam-chain arm, expected gmp.lattice 0", w, mech->p.lattice);
  PetscCall(GridWhere(tr->cfg, 0, w, sizeof(w)));
  PetscCheck(npts[0] == 1 || npts[0] >= 3, tr->comm, DR_ERR_INPUT, "%s: gmp.theta1 has %" PetscInt_FMT " values: the arm3d transient holds the yaw (one gmp.theta1 value) or drives it (at least 3, to interpolate along it)", w, npts[0]);
  PetscCall(CheckDrivenAxis(tr, 1, npts[1], "the arm3d transient interpolates along theta2"));
  tr->yawdrive = npts[0] >= 3 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(DRConfigWhereValue(tr->cfg, "gmp.transient.torque_yaw", w, sizeof(w)));
  PetscCheck(tr->yawdrive || tr->Ty == 0, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.torque_yaw %g with the yaw held (one gmp.theta1 value): expected 0, or gmp.theta1 swept to drive the yaw", w, (double)tr->Ty);
  PetscCall(DRGMPSweepGetAxisRange(tr->sweep, 1, &lo, &hi, NULL));
  if (tr->yawdrive) {
    PetscReal ylo, yhi;
    PetscCall(DRConfigWhereValue(tr->cfg, "gmp.transient.reference", w, sizeof(w)));
    PetscCheck(tr->nonlinear, tr->comm, DR_ERR_INPUT, "%s: the arm3d transient with the yaw driven (gmp.theta1 swept) is checked against the unreduced spatial arm: expected gmp.transient.reference nonlinear (the exact-ROM reference is built for one driven DOF)", w);
    PetscCall(CheckDrivenAxis(tr, 0, npts[0], "the arm3d transient with the yaw driven interpolates along theta1"));
    /* the interpolant's derivatives take central differences: both starts strictly inside the grid */
    PetscCall(DRGMPSweepGetAxisRange(tr->sweep, 0, &ylo, &yhi, NULL));
    PetscCall(StartWhere(tr->cfg, "gmp.transient.yaw0", 0, w, sizeof(w)));
    PetscCheck(tr->yaw0 > ylo && tr->yaw0 < yhi, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.yaw0 %g: expected inside the gmp.theta1 grid (%g, %g)", w, (double)tr->yaw0, (double)ylo, (double)yhi);
    PetscCall(StartWhere(tr->cfg, "gmp.transient.theta0", 1, w, sizeof(w)));
    PetscCheck(tr->theta0 > lo && tr->theta0 < hi, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.theta0 %g: expected inside the gmp.theta2 grid (%g, %g)", w, (double)tr->theta0, (double)lo, (double)hi);
  } else {
    PetscCall(StartWhere(tr->cfg, "gmp.transient.theta0", 1, w, sizeof(w)));
    PetscCheck(tr->theta0 >= lo && tr->theta0 <= hi, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.theta0 = %g: outside the gmp.theta2 grid [%g, %g], expected a start inside it (the elevation of link 2)", w, (double)tr->theta0, (double)lo, (double)hi);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientSetFromOptions(DRGMPTransient tr)
{
  DRConfig cfg;

  PetscFunctionBeginUser;
  if (!tr->cfg) {
    PetscCall(DRConfigCreate(tr->comm, &tr->cfg));
    tr->owncfg = PETSC_TRUE;
  }
  cfg = tr->cfg;
  PetscCall(DRConfigGetBool(cfg, "gmp.transient.enabled", &tr->on, NULL));
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.t_end", &tr->tend, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.h", &tr->h, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.theta0", &tr->theta0, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.window", &tr->window, NULL));
  PetscCall(DRConfigGetInt(cfg, "gmp.transient.save_every", &tr->every, NULL));
  {
    char ref[32];
    PetscCall(DRConfigGetString(cfg, "gmp.transient.reference", ref, sizeof(ref), NULL));
    PetscCall(PetscStrcmp(ref, "nonlinear", &tr->nonlinear));
  }
  PetscCall(DRConfigGetBool(cfg, "gmp.transient.naets", &tr->naets, NULL));
  if (tr->naets && !tr->nonlinear) {
    char w[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigWhere(cfg, "gmp.transient.naets", w, sizeof(w)));
    SETERRQ(tr->comm, DR_ERR_INPUT, "%s: gmp.transient.naets needs gmp.transient.reference nonlinear (the exact-ROM reference integrates the equations without the terms)", w);
  }
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.torque", &tr->T0, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.torque_yaw", &tr->Ty, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.yaw0", &tr->yaw0, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.transient.ramp_hz", &tr->fr, NULL));
  {
    char w[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigWhereValue(cfg, "gmp.transient.ramp_hz", w, sizeof(w)));
    PetscCheck(tr->fr > 0, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.ramp_hz %g: expected a positive frequency", w, (double)tr->fr);
    PetscCall(DRConfigWhereValue(cfg, tr->h > 0 ? "gmp.transient.t_end" : "gmp.transient.h", w, sizeof(w)));
    PetscCheck(tr->tend > 0 && tr->h > 0 && tr->h < tr->tend, tr->comm, DR_ERR_INPUT, "%s: gmp.transient: t_end %g, h %g: expected 0 < h < t_end", w, (double)tr->tend, (double)tr->h);
    /* the integrator counts its steps in a PetscInt and each method records every save_every-th: a step count
     * beyond 1e9 is surely a typo (and would overflow on the way to a failed allocation) */
    PetscCheck(tr->tend / tr->h < 1e9, tr->comm, DR_ERR_INPUT, "%s: gmp.transient: t_end %g / h %g = %.3g steps, expected at most 1e9 (a larger h or a shorter t_end)", w, (double)tr->tend, (double)tr->h, (double)(tr->tend / tr->h));
    PetscCall(DRConfigWhereValue(cfg, "gmp.transient.window", w, sizeof(w)));
    PetscCheck(tr->window > 0 && tr->window <= 1, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.window %g: expected a fraction in (0, 1]", w, (double)tr->window);
    PetscCall(DRConfigWhereValue(cfg, "gmp.transient.save_every", w, sizeof(w)));
    PetscCheck(tr->every >= 1, tr->comm, DR_ERR_INPUT, "%s: gmp.transient.save_every %" PetscInt_FMT ": expected >= 1", w, tr->every);
  }
  if (tr->sweep) PetscCall(CheckMechanism(tr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0's part of DRGMPTransientSetUp: the four integrations' contexts
 * on the grid rank 0 holds (the reference starts aligned with the grid
 * point at theta0; the start was checked against the grid's axes by
 * CheckMechanism). */
static PetscErrorCode SetUpRoot(DRGMPTransient tr, DRMechanism mech, DRGMPRomOptions *optp, const DRGMPRom *g, PetscInt ngrid, PetscInt nt, PetscReal period, const PetscReal *first)
{
  DRGMPRomOptions opt = *optp;
  PetscInt        tip, npts[DR_GMP_MAXTHETA] = {0, 0, 0, 0};
  DRGMPRomBuilder builder;

  PetscFunctionBeginUser;
  if (nt == 2 && !tr->yawdrive) {
    PetscCall(PetscCalloc1(ngrid, &tr->hgrid));
    tr->nh = ngrid;
    for (PetscInt i = 0; i < ngrid; i++) {
      PetscCall(DRGMPRomHold(&g[i], 0, &tr->hgrid[i]));
      if (i) PetscCall(DRGMPTrackEigen(&tr->hgrid[i - 1], &tr->hgrid[i])); /* the deformation modes were tracked by the sweep */
    }
    g = tr->hgrid;
  }
  if (tr->yawdrive) PetscCall(DRGMPSweepGetAxes(tr->sweep, NULL, npts, NULL));
  PetscCall(DRMechanismFindLabel(mech, DRLabelMake(mech->nel[0] + 1, 1), &tip));
  PetscCall(DRGMPRomBuilderCreate(mech, &opt, &builder));
  if (tr->nonlinear) PetscCall(DRGMPRomBuilderDestroy(&builder)); /* no exact ROMs needed */
  for (int m = 0; m < 4; m++) {
    TrCtx   *c = &tr->c[m];
    PetscInt n = g[0].n, nd = g[0].ndof;
    c->ngrid = ngrid, c->grid = g, c->builder = m == 3 ? builder : NULL;
    c->method = m, c->n = n, c->ndof = nd;
    c->tipdof[0] = tip, c->tipdof[1] = tip + 1;
    c->chord = mech->p.chord, c->L1 = mech->L[0];
    if (nt == 2) {
      PetscReal th2[DR_GMP_MAXTHETA] = {first[0], 0, 0, 0}, d2[3];
      c->arm = PETSC_TRUE, c->L2 = mech->L[1], c->dpn = mech->dpn;
      c->ja = mech->ja, c->jb = mech->jb, c->jtip = mech->jtip;
      c->yaw = first[0];
      if (tr->yawdrive) {
        c->ntd = 2, c->npts[0] = npts[0], c->npts[1] = npts[1], c->yaw = th2[0] = tr->yaw0, c->Ty = tr->Ty;
        PetscCall(PetscMalloc2(n * n, &c->dM2, n * n, &c->dK2));
      } else c->ntd = 1;
      PetscCall(DRArmFrames(th2, c->d1, d2, c->a2));
      c->tipdof[0] = c->jtip * c->dpn, c->tipdof[1] = c->jtip * c->dpn + 1;
    }
    c->T0 = tr->T0, c->fr = tr->fr, c->every = tr->every;
    if (!tr->yawdrive) c->ntd = 1;
    if (m < 3 && c->ntd == 1) { /* lumped translational masses: rho A L_e / 2 per element end, the slider or the tip mass */
      PetscInt        ne, dim = mech->dim, dpn = mech->dpn;
      const PetscInt *conn;
      PetscReal       pm = dim == 2 ? mech->p.slider_mass : mech->p.tip_mass;
      PetscCall(PetscCalloc1(nd, &c->ml));
      PetscCall(DRMechanismGetElements(mech, &ne, &conn));
      for (PetscInt e = 0; e < ne; e++) {
        const PetscReal *x1 = &g[0].xyz[dim * conn[2 * e]], *x2 = &g[0].xyz[dim * conn[2 * e + 1]];
        PetscReal        l2 = 0, me;
        for (PetscInt d = 0; d < dim; d++) l2 += (x2[d] - x1[d]) * (x2[d] - x1[d]);
        me = 0.5 * mech->p.rho * mech->p.A * PetscSqrtReal(l2);
        for (int s = 0; s < 2; s++)
          for (PetscInt d = 0; d < dim; d++) c->ml[dpn * conn[2 * e + s] + d] += me;
      }
      for (PetscInt d = 0; d < dim; d++) c->ml[dpn * mech->jtip + d] += pm;
    }
    c->period = period, c->theta_lo = g[0].theta[0];
    PetscCall(PetscMalloc4(n * n, &c->M, n * n, &c->K, n * n, &c->dM, n * n, &c->dK));
    PetscCall(PetscMalloc5(n * n, &c->M0, n * n, &c->K0, n * n, &c->Mt, n * n, &c->Kt, nd * n, &c->Psi0));
    PetscCall(PetscMalloc1(nd * n, &c->Psi));
    if (m < 3 && tr->naets) {
      /* the central-difference steps: a quarter of each driven axis' grid step */
      PetscReal eps[2] = {0.25 * (g[1].theta[0] - g[0].theta[0]), c->ntd == 2 ? 0.25 * (g[npts[0]].theta[1] - g[0].theta[1]) : 0};
      PetscCall(DRGMPNaetsCreate(mech, n, c->ntd, eps, &c->na));
      if (c->arm && c->ntd == 1) {
        PetscReal thb[DR_GMP_MAXTHETA] = {c->yaw, 0, 0, 0};
        PetscInt  td[1]                = {1};
        PetscCall(DRGMPNaetsSetHeld(c->na, td, thb));
      }
    }
    if (m == 3 && !tr->nonlinear) {
      PetscReal tw = tr->theta0;
      PetscInt  i;
      if (period > 0) {
        tw = PetscFmodReal(tr->theta0 - g[0].theta[0], period);
        if (tw < 0) tw += period;
        tw += g[0].theta[0];
      }
      i = (PetscInt)PetscFloorReal((tw - g[0].theta[0]) / (g[1].theta[0] - g[0].theta[0]));
      i = PetscMax(0, PetscMin(i, ngrid - 1));
      PetscCall(DRGMPRomCopy(&g[i], &c->ex));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective on tr->comm.  Rank 0 sets up (SetUpRoot); its result reaches
 * every rank (DRRootAgree), so a failure there on several ranks is one
 * error line and a clean exit, not the other ranks waiting in the next
 * collective until the -error_wait abort. */
PetscErrorCode DRGMPTransientSetUp(DRGMPTransient tr)
{
  DRMechanism     mech;
  DRGMPRomOptions opt;
  const DRGMPRom *g;
  PetscInt        nt, ngrid;
  PetscReal       period, first[DR_GMP_MAXTHETA] = {0, 0, 0, 0};
  PetscMPIInt     rank;

  PetscFunctionBeginUser;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(tr->sweep, tr->comm, PETSC_ERR_ORDER, "DRGMPTransientSetUp: call DRGMPTransientSetSweep first");
  PetscCall(DRGMPSweepGetMechanism(tr->sweep, &mech, &opt));
  PetscCall(DRGMPSweepGetGrid(tr->sweep, &ngrid, &g));
  PetscCall(DRGMPSweepGetPeriod(tr->sweep, &period));
  PetscCall(DRMechanismGetSizes(mech, NULL, NULL, NULL, &nt));
  tr->mech = mech;
  PetscCall(CheckMechanism(tr));
  PetscCall(DRGMPSweepGetAxes(tr->sweep, NULL, NULL, first));
  PetscCallMPI(MPI_Comm_rank(tr->comm, &rank));
  PetscCall(DRRootAgree(tr->comm, rank ? PETSC_SUCCESS : SetUpRoot(tr, mech, &opt, g, ngrid, nt, period, first)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTransientDestroy(DRGMPTransient *ptr)
{
  DRGMPTransient tr = *ptr;

  PetscFunctionBeginUser;
  if (!tr) PetscFunctionReturn(PETSC_SUCCESS);
  for (int m = 0; m < 4; m++) {
    TrCtx *c = &tr->c[m];
    if (c->M) {
      PetscCall(PetscFree4(c->M, c->K, c->dM, c->dK));
      PetscCall(PetscFree5(c->M0, c->K0, c->Mt, c->Kt, c->Psi0));
      PetscCall(PetscFree(c->Psi));
    }
    if (c->dM2) PetscCall(PetscFree2(c->dM2, c->dK2));
    if (c->t) PetscCall(PetscFree5(c->t, c->th, c->w, c->th1, c->wl));
    PetscCall(PetscFree(c->ml));
    PetscCall(DRGMPNaetsDestroy(&c->na));
    PetscCall(DRGMPRomDestroy(&c->ex));
    PetscCall(DRGMPRomBuilderDestroy(&c->builder));
  }
  for (PetscInt i = 0; i < tr->nh; i++) PetscCall(DRGMPRomDestroy(&tr->hgrid[i]));
  PetscCall(PetscFree(tr->hgrid));
  if (tr->owncfg) PetscCall(DRConfigDestroy(&tr->cfg));
  PetscCall(PetscFree(*ptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
