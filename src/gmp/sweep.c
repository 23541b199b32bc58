/* The GMP sweep: reduced models on a grid of configurations, evaluated on
 * the task farm and tracked (include/dynred/gmpsweep.h); verification in
 * sweep_verify.c, the datasets in sweep_write.c. */
#include "sweepimpl.h"
#include <dynred/farm.h>
#include <dynred/preflight.h>
#include <string.h>

/* Grid points per sweep (and per axis): each is an eigensolve of the FE
 * mechanism; beyond this a step is surely a typo (and the count would
 * overflow PetscInt on the way to a failed allocation). */
#define DR_GMP_MAXPOINTS 1000000

static const DRConfigKey gmp_keys[] = {
  {"gmp.mechanism", DR_CFG_STRING, "slider-crank", "built-in mechanism: slider-crank | arm3d", "slider-crank|arm3d", NULL, NULL},
  {"gmp.L1", DR_CFG_REAL, "0", "length of body 1 (crank, link 1) [m]; 0: the mechanism's default (0.3 / 1.0)", "0..", "m", NULL},
  {"gmp.L2", DR_CFG_REAL, "0", "length of body 2 (connector, link 2) [m]; 0: default (0.7 / 0.8)", "0..", "m", NULL},
  {"gmp.nel1", DR_CFG_INT, "0", "beam elements in body 1 (lattice links: bays, nel + 1 stations); 0: default (5 / 20)", "0..", NULL, NULL},
  {"gmp.nel2", DR_CFG_INT, "0", "beam elements in body 2 (lattice links: bays); 0: default (5 / 16)", "0..", NULL, NULL},
  {"gmp.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", "0..", "Pa", NULL},
  {"gmp.G", DR_CFG_REAL, "81e9", "shear modulus [Pa] (torsion of arm3d)", "0..", "Pa", NULL},
  {"gmp.rho", DR_CFG_REAL, "7800", "density [kg/m^3]", "0..", "kg/m^3", NULL},
  {"gmp.A", DR_CFG_REAL, "0", "section area [m^2]; 0: default (1e-4 / 4e-4)", "0..", "m^2", NULL},
  {"gmp.I", DR_CFG_REAL, "0", "second moment of area [m^4]; 0: default (square section, A^2/12)", "0..", "m^4", NULL},
  {"gmp.I2", DR_CFG_REAL, "0", "arm3d: second moment for bending in the other principal plane [m^4]; 0: = I (a square section: bending pairs of a straight arm are then degenerate, which mode tracking cannot order)", "0..", "m^4", NULL},
  {"gmp.slider_mass", DR_CFG_REAL, "0.1", "slider mass of the slider-crank [kg]", "0..", "kg", NULL},
  {"gmp.lumped", DR_CFG_BOOL, "false", "lumped (HRZ) instead of consistent beam mass, in the sweep, the reduced transient and the nonlinear reference alike; a lumped mass is the same in every rotated frame, so the reference's inertia does not depend on the deformation (the case Naets' terms treat exactly)", NULL, NULL, NULL},
  {"gmp.frame", DR_CFG_STRING, "hinge", "what the driven angle is: hinge (slider-crank: the crank's section rotation at O; arm3d: the elbow's relative rotation; the modes hold it) or chord (the angle of the driven link's chord, the crank's O-A or link 2's elbow-tip elevation; the modes hold that chord and rotate freely at the driven joint, so theta carries no elastic rotation; the torque then loads the modes too, one deformation column is added to gmp.nmodes, the static response to the joint's moment, and the recorded theta is still the joint's rotation; bench/README.md, section GMP transient: slider-crank)", "hinge|chord", NULL, NULL},
  {"gmp.tip_mass", DR_CFG_REAL, "0.5", "point mass at the end of link 2 of arm3d [kg]", "0..", "kg", NULL},
  {"gmp.lattice", DR_CFG_INT, "0", "arm3d: 0 = each link a beam chain of nel elements; n > 0 = each link a lattice box of n x n cells across and nel bays along, so a point can have 100k+ DOFs (A, I, I2 are then the members' section)", "0..", NULL, NULL},
  {"gmp.width", DR_CFG_REAL, "0", "arm3d lattice: box width across a link, along the elbow axis [m]", "0..", "m", NULL},
  {"gmp.height", DR_CFG_REAL, "0", "arm3d lattice: box height, normal to the width and the link [m]; 0: = width (a square box: bending pairs of the straight arm are degenerate)", "0..", "m", NULL},
  {"gmp.nmodes", DR_CFG_INT, "7", "deformation modes per configuration (plus one rigid mode per theta)", "1..", NULL, NULL},
  {"gmp.dense_max", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "dense_max"},
  {"gmp.theta1.start", DR_CFG_REAL, "0", "first rigid DOF: grid start [rad]", NULL, "rad", NULL},
  {"gmp.theta1.stop", DR_CFG_REAL, "6.283185307179586", "first rigid DOF: grid end [rad]", NULL, "rad", NULL},
  {"gmp.theta1.step", DR_CFG_REAL, "0.1", "first rigid DOF: grid step [rad] (rounded so the intervals fit exactly)", "0..", "rad", NULL},
  {"gmp.theta1.values", DR_CFG_LIST, "", "first rigid DOF: listed grid values [rad] instead of start/stop/step", NULL, "rad", NULL},
  {"gmp.theta1.periodic", DR_CFG_BOOL, "false", "the range is one period (a full crank revolution): the closure of the tracked modes is checked", NULL, NULL, NULL},
  {"gmp.theta2.start", DR_CFG_REAL, "0", "second rigid DOF (arm3d): grid start [rad]", NULL, "rad", NULL},
  {"gmp.theta2.stop", DR_CFG_REAL, "0.5", "second rigid DOF: grid end [rad]", NULL, "rad", NULL},
  {"gmp.theta2.step", DR_CFG_REAL, "0.1", "second rigid DOF: grid step [rad]", "0..", "rad", NULL},
  {"gmp.theta2.values", DR_CFG_LIST, "", "second rigid DOF: listed grid values [rad]", NULL, "rad", NULL},
  {"gmp.theta2.periodic", DR_CFG_BOOL, "false", "second rigid DOF: periodic range", NULL, NULL, NULL},
  {"gmp.verify_step", DR_CFG_REAL, "0", "verification grid step [rad] along every axis (uniform grids of 3+ points; a tensor grid for 2 rigid DOFs): exact ROMs there, compared with every interpolation method; 0: none", "0..", "rad", NULL},
  {"gmp.track_mac_warn", DR_CFG_REAL, "0.9", "mode tracking: a MAC diagonal below this between neighbours flags veering", "0..1", NULL, NULL},
  {"gmp.write_shapes", DR_CFG_BOOL, "true", "write the projection modes Psi of every grid point (/gmp/grid/psi)", NULL, NULL, NULL},
  {"gmp.export_point", DR_CFG_INT, "0", "grid point whose free-mechanism modes are written to /gmp/export (frequencies_hz, modes = Psi Phi, labels): a source for dynred ss", "0..", NULL, NULL},
  {"gmp.checkpoint", DR_CFG_STRING, "", "sweep checkpoint file (default OUTPUT.sweep.h5): finished points are skipped on restart", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRGMPRegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(gmp_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepCreate(MPI_Comm comm, DRGMPSweep *sweep)
{
  DRGMPSweep s;

  PetscFunctionBeginUser;
  PetscCall(DRGMPInitializePackage());
  PetscCall(PetscNew(&s));
  s->comm = comm;
  *sweep  = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepSetConfig(DRGMPSweep s, DRConfig cfg)
{
  PetscFunctionBeginUser;
  if (s->owncfg) PetscCall(DRConfigDestroy(&s->cfg));
  s->cfg    = cfg;
  s->owncfg = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mechanism's parameters: the kind's defaults, overridden by the keys
 * that are set (0: keep the default). */
static PetscErrorCode SweepMechanismFromOptions(DRGMPSweep s)
{
  DRConfig           cfg = s->cfg;
  DRMechanismParams *p   = &s->p;
  PetscReal          v;
  PetscInt           k;
  PetscBool          iset;
  char               where[PETSC_MAX_PATH_LEN + 64], num[32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "gmp.mechanism", s->type, sizeof(s->type), NULL));
  PetscCall(DRConfigWhere(cfg, "gmp.mechanism", where, sizeof(where)));
  {
    DRMechanismKind kind;
    PetscCall(DRMechanismKindFind(s->comm, s->type, where, &kind));
  }
  PetscCall(DRMechanismParamsDefault(s->type, p));
#define OVR_R(key, field) \
  do { PetscCall(DRConfigGetReal(cfg, key, &v, NULL)); if (v != 0) p->field = v; } while (0)
  OVR_R("gmp.L1", L1);
  OVR_R("gmp.L2", L2);
  OVR_R("gmp.E", E);
  OVR_R("gmp.G", G);
  OVR_R("gmp.rho", rho);
  OVR_R("gmp.A", A);
#undef OVR_R
  PetscCall(DRConfigGetReal(cfg, "gmp.I", &v, NULL));
  iset  = (PetscBool)(v != 0);
  p->Ib = iset ? v : p->A * p->A / 12.0;
  PetscCall(DRConfigGetReal(cfg, "gmp.I2", &p->Ib2, NULL));
  p->J = 0.1406 * p->A * p->A; /* square section */
  PetscCall(DRConfigGetReal(cfg, "gmp.slider_mass", &p->slider_mass, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.tip_mass", &p->tip_mass, NULL));
  PetscCall(DRConfigGetBool(cfg, "gmp.lumped", &p->lumped, NULL));
  {
    char frame[16];
    PetscCall(DRConfigGetString(cfg, "gmp.frame", frame, sizeof(frame), NULL));
    p->chord = (PetscBool)!strcmp(frame, "chord");
  }
  PetscCall(DRConfigGetInt(cfg, "gmp.nel1", &k, NULL));
  if (k) p->nel1 = k;
  PetscCall(DRConfigGetInt(cfg, "gmp.nel2", &k, NULL));
  if (k) p->nel2 = k;
  PetscCall(DRConfigGetInt(cfg, "gmp.lattice", &p->lattice, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.width", &p->width, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.height", &p->height, NULL));
  if (!strcmp(s->type, "slider-crank")) {
    PetscCall(DRConfigWhereValue(cfg, "gmp.L2", where, sizeof(where)));
    PetscCheck(p->L2 > p->L1, s->comm, DR_ERR_INPUT, "%s: gmp.L1 = %g, gmp.L2 = %g (0: the default): expected the connector L2 longer than the crank L1 (a full revolution)", where, (double)p->L1, (double)p->L2);
  }
  PetscCall(DRConfigWhereValue(cfg, iset ? "gmp.I" : "gmp.A", where, sizeof(where)));
  PetscCheck(p->A > 0 && p->Ib > 0 && p->J > 0 && (p->Ib2 == 0 || PetscIsNormalReal(p->Ib2)), s->comm, DR_ERR_INPUT, "%s: gmp.A = %g, gmp.I = %g, torsion constant %g: expected a section whose area and second moments are positive normal numbers (I = A^2/12 when 0)", where, (double)p->A, (double)p->Ib, (double)p->J);
  {
    /* the element matrices' scales (axial and bending stiffness of the
     * shortest link, the mass of the longest) finite and within 1e150, as
     * component entries (src/model/component.c: their squares stay finite) */
    PetscReal L = p->L2 > 0 ? PetscMin(p->L1, p->L2) : p->L1, Lm = PetscMax(p->L1, p->L2), sc[3];
    sc[0] = p->E * p->A / L;
    sc[1] = p->E * p->Ib / (L * L * L);
    sc[2] = p->rho * p->A * Lm + p->slider_mass + p->tip_mass;
    PetscCall(DRConfigWhereValue(cfg, "gmp.A", where, sizeof(where)));
    PetscCheck(PetscIsNormalReal(sc[0]) && PetscIsNormalReal(sc[1]) && PetscIsNormalReal(sc[2]) && sc[0] <= 1e150 && sc[1] <= 1e150 && sc[2] <= 1e150, s->comm, DR_ERR_INPUT, "%s: gmp.E = %g, gmp.rho = %g, gmp.A = %g: axial stiffness %g N/m, bending stiffness %g N/m, mass %g kg, expected positive normal numbers up to 1e150 (the element matrices would overflow)", where, (double)p->E, (double)p->rho, (double)p->A, (double)sc[0], (double)sc[1], (double)sc[2]);
  }
  if (p->chord && p->lattice) {
    PetscCall(DRConfigWhereValue(cfg, "gmp.frame", where, sizeof(where)));
    SETERRQ(s->comm, DR_ERR_INPUT, "%s: gmp.frame chord: expected the slider-crank or arm3d with beam links (gmp.lattice = %" PetscInt_FMT ": a lattice link has no single chord)", where, p->lattice);
  }
  PetscCall(DRConfigWhere(cfg, "gmp.lattice", where, sizeof(where)));
  PetscCheck(p->lattice == 0 || !strcmp(s->type, "arm3d"), s->comm, DR_ERR_INPUT, "%s: gmp.lattice = %" PetscInt_FMT ": lattice links exist for arm3d only, not for %s", where, p->lattice, s->type);
  PetscCall(DRConfigWhere(cfg, "gmp.width", where, sizeof(where)));
  snprintf(num, sizeof(num), "%g", (double)p->width);
  PetscCheck(p->lattice == 0 || p->width > 0, s->comm, DR_ERR_INPUT, "%s: gmp.width = %s: a lattice link needs its box width > 0 [m]", where, num);
  PetscCall(DRConfigWhere(cfg, "gmp.height", where, sizeof(where)));
  snprintf(num, sizeof(num), "%g", (double)p->height);
  PetscCheck(p->height >= 0, s->comm, DR_ERR_INPUT, "%s: gmp.height = %s: expected the lattice box height >= 0 [m] (0: = width)", where, num);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepSetFromOptions(DRGMPSweep s)
{
  PetscFunctionBeginUser;
  if (!s->cfg) {
    PetscCall(DRConfigCreate(s->comm, &s->cfg));
    s->owncfg = PETSC_TRUE;
  }
  PetscCall(SweepMechanismFromOptions(s));
  PetscCall(DRConfigGetInt(s->cfg, "gmp.nmodes", &s->opt.nmodes, NULL));
  {
    PetscBool set; /* the shared key; unset: 2000 */
    PetscCall(DRConfigGetInt(s->cfg, "dense_max", &s->opt.dense_max, &set));
    if (!set) s->opt.dense_max = 2000;
  }
  PetscCall(PetscStrncpy(s->opt.prefix, "gmp_", sizeof(s->opt.prefix)));
  PetscCall(DRConfigGetBool(s->cfg, "gmp.write_shapes", &s->shapes, NULL));
  PetscCheck(s->opt.nmodes >= 1, s->comm, DR_ERR_INPUT, "gmp.nmodes = %" PetscInt_FMT ": expected at least 1 deformation mode", s->opt.nmodes);
  PetscCall(DRConfigGetReal(s->cfg, "gmp.verify_step", &s->vstep, NULL));
  PetscCall(DRConfigGetReal(s->cfg, "gmp.track_mac_warn", &s->macwarn, NULL));
  PetscCall(DRConfigGetInt(s->cfg, "gmp.export_point", &s->export_point, NULL));
  PetscCall(DRConfigGetString(s->cfg, "output", s->output, sizeof(s->output), NULL));
  {
    PetscBool set;
    PetscCall(DRConfigGetString(s->cfg, "gmp.checkpoint", s->ckpt, sizeof(s->ckpt), &set));
    /* written as the sweep goes: a place that cannot take it is refused now,
     * with the key's place (the default beside `output` is checked with it) */
    if (set && s->ckpt[0]) PetscCall(DRPreflightOutput(s->cfg, "gmp.checkpoint"));
  }
  if (!s->ckpt[0]) PetscCall(PetscSNPrintf(s->ckpt, sizeof(s->ckpt), "%s.sweep.h5", s->output));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One rigid DOF's grid values from gmp.thetaK.* */
static PetscErrorCode GridAxis(DRConfig cfg, PetscInt k, PetscBool hold_ok, PetscInt *n, PetscReal **v, PetscBool *periodic, PetscBool *uniform)
{
  char      key[64], where[PETSC_MAX_PATH_LEN + 64];
  PetscReal a, b, h, buf[4096];
  PetscInt  nv = 4096;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(key, sizeof(key), "gmp.theta%" PetscInt_FMT ".periodic", k + 1));
  PetscCall(DRConfigGetBool(cfg, key, periodic, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "gmp.theta%" PetscInt_FMT ".values", k + 1));
  PetscCall(DRConfigGetRealArray(cfg, key, buf, &nv, &set));
  if (set && nv > 0) {
    PetscCall(DRConfigWhereValue(cfg, key, where, sizeof(where)));
    /* one value: that DOF held there, with another axis to sweep (the
     * arm3d transient's yaw); interpolating along an axis needs 3 values
     * (checked where it is used) */
    PetscCheck(nv >= 2 || (nv == 1 && hold_ok), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has %" PetscInt_FMT " value(s): expected at least 2%s", where, key, nv, hold_ok ? " (or one, to hold it)" : "");
    for (PetscInt i = 1; i < nv; i++) PetscCheck(buf[i] > buf[i - 1], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is not increasing at entry %" PetscInt_FMT ": expected ascending values", where, key, i);
    *n = nv;
    PetscCall(PetscMalloc1(nv, v));
    PetscCall(PetscArraycpy(*v, buf, nv));
    *uniform = PETSC_TRUE;
    for (PetscInt i = 2; i < nv; i++)
      if (PetscAbsReal((buf[i] - buf[i - 1]) - (buf[1] - buf[0])) > 1e-12 * PetscAbsReal(buf[1] - buf[0])) *uniform = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(key, sizeof(key), "gmp.theta%" PetscInt_FMT ".start", k + 1));
  PetscCall(DRConfigGetReal(cfg, key, &a, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "gmp.theta%" PetscInt_FMT ".stop", k + 1));
  PetscCall(DRConfigGetReal(cfg, key, &b, NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "gmp.theta%" PetscInt_FMT ".step", k + 1));
  PetscCall(DRConfigGetReal(cfg, key, &h, NULL));
  PetscCall(DRConfigWhereValue(cfg, key, where, sizeof(where)));
  PetscCheck(b > a, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.theta%" PetscInt_FMT ": stop %g <= start %g: expected stop > start", where, k + 1, (double)b, (double)a);
  PetscCheck(h > 0 && h <= (b - a) * (1 + 1e-9), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s = %g: expected a step in (0, stop - start]", where, key, (double)h);
  PetscCheck((b - a) / h < DR_GMP_MAXPOINTS, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s = %g: (stop - start) / step = %.3g grid points along theta%" PetscInt_FMT ", expected at most %d (a larger step or a shorter range)", where, key, (double)h, (double)((b - a) / h), k + 1, DR_GMP_MAXPOINTS);
  *n = (PetscInt)PetscFloorReal((b - a) / h + 0.5) + 1;
  PetscCall(PetscMalloc1(*n, v));
  for (PetscInt i = 0; i < *n; i++) (*v)[i] = a + (b - a) * i / (*n - 1);
  *uniform = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The verification grid: every axis at step ~vstep, tensor product,
 * theta1 fastest. */
static PetscErrorCode SweepFineGrid(DRGMPSweep s)
{
  PetscInt  nf1[DR_GMP_MAXTHETA];
  PetscReal nfd = 1;
  char      where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  s->nfine = 0;
  if (!(s->vstep > 0)) PetscFunctionReturn(PETSC_SUCCESS);
  s->nfine = 1;
  PetscCall(DRConfigWhereValue(s->cfg, "gmp.verify_step", where, sizeof(where)));
  for (PetscInt t = 0; t < s->nt; t++) {
    PetscReal a = s->axis[t][0], b = s->axis[t][s->npts[t] - 1];
    PetscCheck(s->uniform[t] && s->npts[t] >= 3, s->comm, DR_ERR_INPUT, "gmp.verify_step: the interpolation formulas need a uniform grid of at least 3 points along theta%" PetscInt_FMT, t + 1);
    PetscCheck((b - a) / s->vstep < DR_GMP_MAXPOINTS, s->comm, DR_ERR_INPUT, "%s: gmp.verify_step = %g: %.3g verification points along theta%" PetscInt_FMT ", expected at most %d (a larger step)", where, (double)s->vstep, (double)((b - a) / s->vstep), t + 1, DR_GMP_MAXPOINTS);
    nf1[t] = (PetscInt)PetscFloorReal((b - a) / s->vstep + 0.5) + 1;
    nfd *= (PetscReal)nf1[t];
    s->nfine *= nf1[t];
  }
  PetscCheck(nfd < DR_GMP_MAXPOINTS, s->comm, DR_ERR_INPUT, "%s: gmp.verify_step = %g: %.3g verification points in all, expected at most %d (a larger step)", where, (double)s->vstep, (double)nfd, DR_GMP_MAXPOINTS);
  PetscCall(PetscMalloc1(s->nfine * s->nt, &s->fine_theta));
  for (PetscInt f = 0; f < s->nfine; f++) {
    PetscInt r = f;
    for (PetscInt t = 0; t < s->nt; t++) {
      PetscReal a = s->axis[t][0], b = s->axis[t][s->npts[t] - 1];
      s->fine_theta[f * s->nt + t] = a + (b - a) * (r % nf1[t]) / (nf1[t] - 1);
      r /= nf1[t];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SweepCheckMemory(DRGMPSweep);

/* The sweep's identity for the checkpoint: everything a point depends on */
static void SweepSignature(DRGMPSweep s)
{
  const DRMechanismParams *p = &s->p;
  size_t                   l = 0, len = sizeof(s->sig);
  char                    *sig = s->sig;

  l += snprintf(sig + l, len - l, "%s L%.17g,%.17g nel%d,%d E%.17g G%.17g r%.17g A%.17g I%.17g,%.17g ms%.17g mt%.17g nm%d ", s->type, (double)p->L1, (double)p->L2, (int)p->nel1, (int)p->nel2, (double)p->E, (double)p->G, (double)p->rho, (double)p->A, (double)p->Ib, (double)p->Ib2, (double)p->slider_mass, (double)p->tip_mass, (int)s->opt.nmodes);
  if (p->lumped) l += snprintf(sig + l, len - l, "lumped ");
  if (p->chord) l += snprintf(sig + l, len - l, "chord ");
  if (p->lattice) l += snprintf(sig + l, len - l, "lat%d w%.17g,%.17g ", (int)p->lattice, (double)p->width, (double)p->height);
  for (PetscInt t = 0; t < s->nt && l < len; t++) l += snprintf(sig + l, len - l, "g%d:%.17g..%.17g/%d ", (int)t, (double)s->axis[t][0], (double)s->axis[t][s->npts[t] - 1], (int)s->npts[t]);
  if (l < len) snprintf(sig + l, len - l, "f%d", (int)s->nfine);
}

PetscErrorCode DRGMPSweepSetUp(DRGMPSweep s)
{
  PetscFunctionBeginUser;
  if (s->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  if (!s->type[0]) PetscCall(DRGMPSweepSetFromOptions(s));
  PetscCall(DRMechanismCreate(&s->p, &s->mech));
  PetscCall(DRMechanismGetSizes(s->mech, NULL, NULL, &s->ndof, &s->nt));
  { /* nmodes against the deformation DOFs (theta fixed) before any task or checkpoint */
    DRConstraintMap cm;
    PetscReal       th[DR_GMP_MAXTHETA] = {0};
    PetscInt        nf;
    char            where[PETSC_MAX_PATH_LEN + 32];

    PetscCall(DRMechanismConstraintMap(s->mech, th, &cm));
    nf = cm.nfix;
    PetscCall(DRConstraintMapDestroy(&cm));
    PetscCall(DRConfigWhereValue(s->cfg, "gmp.nmodes", where, sizeof(where)));
    PetscCheck(s->opt.nmodes + (s->p.chord ? 1 : 0) <= nf, s->comm, DR_ERR_INPUT, "%s: gmp.nmodes %" PetscInt_FMT ": expected 1 to %" PetscInt_FMT " (the mechanism's DOFs with its joints and theta fixed%s)", where, s->opt.nmodes, nf - (s->p.chord ? 1 : 0), s->p.chord ? ", less the attachment column of gmp.frame chord" : "");
  }
  /* gmp.frame chord: one deformation column more, the last, the static
   * response to a moment at O (rom.c, AttachmentColumn) */
  if (s->p.chord) s->opt.nmodes++;
  PetscCall(DRGMPRomBuilderCreate(s->mech, &s->opt, &s->builder));
  s->n     = s->nt + s->opt.nmodes;
  s->ngrid = 1;
  for (PetscInt t = 0; t < s->nt; t++) {
    PetscCall(GridAxis(s->cfg, t, s->nt > 1 && t == 0 ? PETSC_TRUE : PETSC_FALSE, &s->npts[t], &s->axis[t], &s->periodic[t], &s->uniform[t]));
    if ((PetscReal)s->ngrid * s->npts[t] >= DR_GMP_MAXPOINTS) {
      char where[PETSC_MAX_PATH_LEN + 32];
      PetscCall(DRConfigWhereValue(s->cfg, "gmp.theta2.step", where, sizeof(where)));
      SETERRQ(s->comm, DR_ERR_INPUT, "%s: gmp.theta1 x gmp.theta2: %.3g grid points, expected at most %d (larger steps)", where, (double)s->ngrid * (double)s->npts[t], DR_GMP_MAXPOINTS);
    }
    s->ngrid *= s->npts[t];
  }
  { /* the exported point (sweep_write.c) is a grid point: known now, not after the sweep */
    char where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigWhereValue(s->cfg, "gmp.export_point", where, sizeof(where)));
    PetscCheck(s->export_point >= 0 && s->export_point < s->ngrid, s->comm, DR_ERR_INPUT, "%s: gmp.export_point = %" PetscInt_FMT ": expected a grid point index 0..%" PetscInt_FMT " (the grid has %" PetscInt_FMT " points)", where, s->export_point, s->ngrid - 1, s->ngrid);
  }
  PetscCall(SweepFineGrid(s));
  PetscCall(PetscPrintf(s->comm, "gmp: %s, %" PetscInt_FMT " DOFs, %" PetscInt_FMT " rigid + %" PetscInt_FMT " deformation modes%s; grid %" PetscInt_FMT " points", s->type, s->ndof, s->nt, s->opt.nmodes - (s->p.chord ? 1 : 0), s->p.chord ? (s->nt == 1 ? " + 1 attachment column (theta: the crank's chord angle)" : " + 1 attachment column (theta2: link 2's chord elevation)") : "", s->ngrid));
  for (PetscInt t = 0; t < s->nt; t++) PetscCall(PetscPrintf(s->comm, "%s theta%" PetscInt_FMT " [%g, %g] x %" PetscInt_FMT "%s", t ? "," : " (", t + 1, (double)s->axis[t][0], (double)s->axis[t][s->npts[t] - 1], s->npts[t], s->periodic[t] ? " periodic" : ""));
  PetscCall(PetscPrintf(s->comm, ")\n"));
  if (s->nfine) PetscCall(PetscPrintf(s->comm, "gmp: verification grid %" PetscInt_FMT " points (exact ROMs)\n", s->nfine));
  SweepSignature(s);
  PetscCall(SweepCheckMemory(s));
  s->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PointTheta(DRGMPSweep s, PetscInt task, PetscReal th[])
{
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) th[t] = 0;
  if (task < s->ngrid) {
    PetscInt r = task;
    for (PetscInt t = 0; t < s->nt; t++) { /* theta1 fastest */
      th[t] = s->axis[t][r % s->npts[t]];
      r /= s->npts[t];
    }
  } else
    for (PetscInt t = 0; t < s->nt; t++) th[t] = s->fine_theta[(task - s->ngrid) * s->nt + t];
}

/* Fail fast on memory, before the first point: a point's work on each rank
 * (constrained problems up to dense_max: dense K, M, their copies on the
 * group's root and LAPACK's workspace, about 6 ndof^2 values; beyond: the
 * MUMPS analysis of K at the first point, shared by the ranks of a farm
 * group, plus 2 nmodes + 32 Krylov vectors) and, on rank 0, every grid and
 * verification point's reduced model (3 n^2 + n values, Psi and its
 * derivative 2 ndof n, the node positions), twice (the farm's buffers and
 * the unpacked grid). */
static PetscErrorCode SweepCheckMemory(DRGMPSweep s)
{
  PetscMPIInt rank, size;
  PetscInt    gs = 1, nd = s->ndof, n = s->n, dim, nnodes;
  PetscBool   set;
  PetscReal   point, store, need, mib = 1048576.0 / sizeof(PetscReal);
  char        what[512], how[64];

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCallMPI(MPI_Comm_size(s->comm, &size));
  PetscCall(DRConfigGetInt(s->cfg, "ranks_per_group", &gs, &set));
  if (!set || gs < 1) gs = 1; /* the farm's default: one rank per point */
  PetscCall(DRMechanismGetSizes(s->mech, &dim, &nnodes, NULL, NULL));
  if (nd <= s->opt.dense_max) {
    point = 6.0 * nd * nd / mib;
    PetscCall(PetscSNPrintf(how, sizeof(how), "dense eigenproblem"));
  } else {
    PetscReal  th[DR_GMP_MAXTHETA], *xyz, res, f;
    Mat        K, M, N;
    Vec        Nt[DR_GMP_MAXTHETA];
    PetscCall(PetscMalloc1(dim * nnodes, &xyz));
    PointTheta(s, 0, th);
    PetscCall(DRMechanismConfigure(s->mech, th, xyz, &res));
    PetscCall(DRMechanismAssemble(s->mech, s->comm, th, xyz, &K, &M, &N, Nt));
    PetscCall(DRMemoryFactorEstimate(K, &f)); /* this rank's share over all ranks */
    point = f * size / gs + (2.0 * s->opt.nmodes + 32) * nd / gs / mib;
    PetscCall(MatDestroy(&K));
    PetscCall(MatDestroy(&M));
    PetscCall(MatDestroy(&N));
    for (PetscInt t = 0; t < s->nt; t++) PetscCall(VecDestroy(&Nt[t]));
    PetscCall(PetscFree(xyz));
    PetscCall(PetscSNPrintf(how, sizeof(how), "MUMPS estimate"));
  }
  store = 2.0 * (s->ngrid + s->nfine) * (3.0 * n * n + n + 2.0 * nd * n + (PetscReal)dim * nnodes) / mib;
  need  = point + (rank == 0 ? store : 0);
  PetscCall(PetscSNPrintf(what, sizeof(what), "gmp sweep of %" PetscInt_FMT " points (%s, %" PetscInt_FMT " DOFs: one point's %s on every rank, %.3g MiB of reduced models on rank 0)", s->ngrid + s->nfine, s->type, nd, how, (double)store));
  PetscCall(DRMemoryCheckHint(s->comm, s->cfg, need, what, "a coarser grid (larger gmp.thetaK.step or gmp.verify_step), more nodes, or a node with more memory"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One farm task: the ROM at a grid (or verification) point, packed on the
 * group's rank 0. */
static PetscErrorCode SweepTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *n, PetscReal **res)
{
  DRGMPSweep  s = (DRGMPSweep)ctx;
  PetscReal   th[DR_GMP_MAXTHETA];
  DRGMPRom    rom;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PointTheta(s, task, th);
  PetscCall(DRGMPRomBuilderCompute(s->builder, group, th, &rom));
  PetscCallMPI(MPI_Comm_rank(group, &rank));
  if (rank == 0) PetscCall(DRGMPRomPack(&rom, n, res));
  PetscCall(DRGMPRomDestroy(&rom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every point on the task farm (checkpointed); rank 0 unpacks the grid and
 * the verification points. */
static PetscErrorCode SweepFarm(DRGMPSweep s)
{
  DRFarm      farm;
  PetscMPIInt rank;
  PetscInt    ng;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCall(PetscLogEventBegin(DRGMP_Sweep, 0, 0, 0, 0));
  PetscCall(DRFarmCreate(s->comm, &farm));
  PetscCall(DRFarmSetConfig(farm, s->cfg));
  PetscCall(DRFarmSetLabel(farm, "grid point"));
  PetscCall(DRFarmSetFromOptions(farm));
  PetscCall(DRFarmSetCheckpoint(farm, s->ckpt, s->sig));
  PetscCall(DRFarmGetGroup(farm, NULL, NULL, &ng));
  PetscCall(PetscPrintf(s->comm, "gmp: %" PetscInt_FMT " tasks on %" PetscInt_FMT " rank group(s), checkpoint %s\n", s->ngrid + s->nfine, ng, s->ckpt));
  PetscCall(DRFarmRun(farm, s->ngrid + s->nfine, SweepTask, s));
  PetscCall(DRGMPRomBuilderReset(s->builder)); /* the group comm goes with the farm */
  PetscCall(DRFarmGetStats(farm, &s->computed, &s->restored, &s->farm_seconds));
  PetscCall(PetscPrintf(s->comm, "gmp: sweep done in %.2f s: %" PetscInt_FMT " computed, %" PetscInt_FMT " restored (%.3g points/s)\n", (double)s->farm_seconds, s->computed, s->restored, (double)(s->computed / PetscMax(s->farm_seconds, 1e-9))));
  if (rank == 0) {
    PetscCall(PetscCalloc1(s->ngrid, &s->grid));
    for (PetscInt i = 0; i < s->ngrid + s->nfine; i++) {
      PetscInt         len;
      const PetscReal *r;
      PetscCall(DRFarmGetResult(farm, i, &len, &r));
      if (i < s->ngrid) PetscCall(DRGMPRomUnpack(len, r, &s->grid[i]));
      else {
        if (!s->fine) PetscCall(PetscCalloc1(s->nfine, &s->fine));
        PetscCall(DRGMPRomUnpack(len, r, &s->fine[i - s->ngrid]));
      }
    }
  }
  PetscCall(DRFarmDestroy(&farm));
  PetscCall(PetscLogEventEnd(DRGMP_Sweep, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: each grid point tracked against its predecessor (the neighbour
 * along theta1, else along the next axis); the periodic closure. */
static PetscErrorCode SweepTrack(DRGMPSweep s)
{
  PetscMPIInt rank;
  PetscInt    nm = s->opt.nmodes;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  s->closure = 0, s->macmin = 1, s->nveer = 0;
  if (rank == 0) {
    PetscCall(PetscLogEventBegin(DRGMP_Track, 0, 0, 0, 0));
    PetscCall(PetscCalloc2(s->ngrid * nm, &s->macd, s->ngrid, &s->veer));
    for (PetscInt k = 0; k < nm; k++) s->macd[k] = 1;
    for (PetscInt i = 1; i < s->ngrid; i++) {
      PetscInt  prev = -1, stride = 1;
      PetscReal mn;
      for (PetscInt t = 0, r = i; t < s->nt; t++) {
        if (r % s->npts[t]) {
          prev = i - stride;
          break;
        }
        r /= s->npts[t];
        stride *= s->npts[t];
      }
      PetscCall(DRGMPTrack(&s->grid[prev], &s->grid[i], &s->macd[i * nm], &mn));
      PetscCall(DRGMPTrackEigen(&s->grid[prev], &s->grid[i]));
      s->macmin = PetscMin(s->macmin, mn);
      if (mn < s->macwarn) s->veer[i] = 1, s->nveer++;
    }
    if (s->periodic[0] && s->nt == 1) { /* the last point is the first one turned by a period */
      DRGMPRom *g = s->grid;
      s->closure  = PetscMax(DRGMPFrobRel_Private(s->ndof * s->n, g[s->ngrid - 1].Psi, g[0].Psi), DRGMPFrobRel_Private(s->n * s->n, g[s->ngrid - 1].Phi, g[0].Phi));
    }
    PetscCall(PetscLogEventEnd(DRGMP_Track, 0, 0, 0, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepSolve(DRGMPSweep s)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPSweepSetUp(s));
  PetscCall(SweepFarm(s));
  PetscCall(SweepTrack(s));
  PetscCall(DRGMPSweepVerify_Private(s));
  s->solved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepView(DRGMPSweep s, PetscViewer viewer)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(s->comm, &viewer));
  PetscCheck(s->solved, s->comm, PETSC_ERR_ORDER, "DRGMPSweepView: call DRGMPSweepSolve first");
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: mode tracking: smallest neighbour MAC %.4f; %" PetscInt_FMT " interval(s) flagged as veering (MAC < %g)\n", rank ? 0.0 : (double)s->macmin, s->nveer, (double)s->macwarn));
  if (s->periodic[0] && s->nt == 1) PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: periodic closure after a full period: relative difference of modes %.2e (%s)\n", (double)s->closure, s->closure < 1e-6 ? "closed" : "NOT closed: a mode changes sign or order around the period"));
  PetscCall(DRGMPSweepViewVerify_Private(s, viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepWrite(DRGMPSweep s, DRStore store)
{
  PetscFunctionBeginUser;
  PetscCheck(s->solved, s->comm, PETSC_ERR_ORDER, "DRGMPSweepWrite: call DRGMPSweepSolve first");
  PetscCall(PetscLogEventBegin(DRGMP_Write, 0, 0, 0, 0));
  PetscCall(DRGMPSweepWriteGrid_Private(s, store));
  PetscCall(DRGMPSweepWriteExport_Private(s, store));
  PetscCall(DRGMPSweepWriteTrack_Private(s, store));
  PetscCall(DRGMPSweepWriteVerify_Private(s, store));
  PetscCall(PetscLogEventEnd(DRGMP_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetCheckpoint(DRGMPSweep s, const char **path)
{
  PetscFunctionBeginUser;
  *path = s->ckpt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetGrid(DRGMPSweep s, PetscInt *ngrid, const DRGMPRom **grid)
{
  PetscFunctionBeginUser;
  if (ngrid) *ngrid = s->ngrid;
  if (grid) *grid = s->grid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetMechanism(DRGMPSweep s, DRMechanism *m, DRGMPRomOptions *opt)
{
  PetscFunctionBeginUser;
  if (m) *m = s->mech;
  if (opt) *opt = s->opt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetPeriod(DRGMPSweep s, PetscReal *period)
{
  PetscFunctionBeginUser;
  *period = s->periodic[0] ? s->axis[0][s->npts[0] - 1] - s->axis[0][0] : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetAxes(DRGMPSweep s, PetscInt *nt, PetscInt npts[], PetscReal first[])
{
  PetscFunctionBeginUser;
  if (nt) *nt = s->nt;
  for (PetscInt t = 0; t < s->nt; t++) {
    if (npts) npts[t] = s->npts[t];
    if (first) first[t] = s->axis[t][0];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetAxisRange(DRGMPSweep s, PetscInt t, PetscReal *lo, PetscReal *hi, PetscBool *uniform)
{
  PetscFunctionBeginUser;
  PetscCheck(s->setupcalled && t >= 0 && t < s->nt, s->comm, PETSC_ERR_ORDER, "DRGMPSweepGetAxisRange: axis %" PetscInt_FMT " of a sweep set up with %" PetscInt_FMT, t, s->nt);
  *lo = s->axis[t][0];
  *hi = s->axis[t][s->npts[t] - 1];
  if (uniform) *uniform = s->uniform[t];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepGetErrors(DRGMPSweep s, PetscReal matrix_error[3], PetscReal eig_error[3])
{
  PetscFunctionBeginUser;
  for (int m = 0; m < DR_GMP_NMETHOD; m++) {
    if (matrix_error) matrix_error[m] = s->matrix_error[m];
    if (eig_error) eig_error[m] = s->eig_error[m];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepDestroy(DRGMPSweep *sweep)
{
  DRGMPSweep s = *sweep;

  PetscFunctionBeginUser;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  if (s->grid)
    for (PetscInt i = 0; i < s->ngrid; i++) PetscCall(DRGMPRomDestroy(&s->grid[i]));
  if (s->fine)
    for (PetscInt f = 0; f < s->nfine; f++) PetscCall(DRGMPRomDestroy(&s->fine[f]));
  PetscCall(PetscFree(s->grid));
  PetscCall(PetscFree(s->fine));
  if (s->macd) PetscCall(PetscFree2(s->macd, s->veer));
  for (int m = 0; m < DR_GMP_NMETHOD; m++)
    for (int q = 0; q < DR_GMP_NERR; q++) PetscCall(PetscFree(s->err[m][q]));
  PetscCall(PetscFree(s->thf));
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) PetscCall(PetscFree(s->axis[t]));
  PetscCall(PetscFree(s->fine_theta));
  PetscCall(DRGMPRomBuilderDestroy(&s->builder));
  PetscCall(DRMechanismDestroy(&s->mech));
  if (s->owncfg) PetscCall(DRConfigDestroy(&s->cfg));
  PetscCall(PetscFree(*sweep));
  PetscFunctionReturn(PETSC_SUCCESS);
}
