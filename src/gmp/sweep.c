/* The GMP sweep: reduced models on a grid of configurations, evaluated on
 * the task farm, tracked, written, interpolated and verified on a fine grid
 * (include/dynred/gmpsweep.h). */
#include "gmp_impl.h"
#include <dynred/gmpsweep.h>
#include <dynred/farm.h>
#include <dynred/componentstore.h>
#include <string.h>

static const DRConfigKey gmp_keys[] = {
  {"gmp.mechanism", DR_CFG_STRING, "slider-crank", "built-in mechanism: slider-crank | arm3d", NULL, NULL, NULL},
  {"gmp.L1", DR_CFG_REAL, "0", "length of body 1 (crank, link 1) [m]; 0: the mechanism's default (0.3 / 1.0)", NULL, NULL, NULL},
  {"gmp.L2", DR_CFG_REAL, "0", "length of body 2 (connector, link 2) [m]; 0: default (0.7 / 0.8)", NULL, NULL, NULL},
  {"gmp.nel1", DR_CFG_INT, "0", "beam elements in body 1 (lattice links: bays, nel + 1 stations); 0: default (5 / 20)", NULL, NULL, NULL},
  {"gmp.nel2", DR_CFG_INT, "0", "beam elements in body 2 (lattice links: bays); 0: default (5 / 16)", NULL, NULL, NULL},
  {"gmp.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", NULL, NULL, NULL},
  {"gmp.G", DR_CFG_REAL, "81e9", "shear modulus [Pa] (torsion of arm3d)", NULL, NULL, NULL},
  {"gmp.rho", DR_CFG_REAL, "7800", "density [kg/m^3]", NULL, NULL, NULL},
  {"gmp.A", DR_CFG_REAL, "0", "section area [m^2]; 0: default (1e-4 / 4e-4)", NULL, NULL, NULL},
  {"gmp.I", DR_CFG_REAL, "0", "second moment of area [m^4]; 0: default (square section, A^2/12)", NULL, NULL, NULL},
  {"gmp.I2", DR_CFG_REAL, "0", "arm3d: second moment for bending in the other principal plane [m^4]; 0: = I (a square section: bending pairs of a straight arm are then degenerate, which mode tracking cannot order)", NULL, NULL, NULL},
  {"gmp.slider_mass", DR_CFG_REAL, "0.1", "slider mass of the slider-crank [kg]", NULL, NULL, NULL},
  {"gmp.tip_mass", DR_CFG_REAL, "0.5", "point mass at the end of link 2 of arm3d [kg]", NULL, NULL, NULL},
  {"gmp.lattice", DR_CFG_INT, "0", "arm3d: 0 = each link a beam chain of nel elements; n > 0 = each link a lattice box of n x n cells across and nel bays along, so a point can have 100k+ DOFs (A, I, I2 are then the members' section)", NULL, NULL, NULL},
  {"gmp.width", DR_CFG_REAL, "0", "arm3d lattice: box width across a link, along the elbow axis [m]", NULL, NULL, NULL},
  {"gmp.height", DR_CFG_REAL, "0", "arm3d lattice: box height, normal to the width and the link [m]; 0: = width (a square box: bending pairs of the straight arm are degenerate)", NULL, NULL, NULL},
  {"gmp.nmodes", DR_CFG_INT, "7", "deformation modes per configuration (plus one rigid mode per theta)", NULL, NULL, NULL},
  {"gmp.dense_max", DR_CFG_INT, "2000", "constrained size up to which LAPACK solves the theta-fixed eigenproblem (SLEPc above)", NULL, NULL, NULL},
  {"gmp.theta1.start", DR_CFG_REAL, "0", "first rigid DOF: grid start [rad]", NULL, NULL, NULL},
  {"gmp.theta1.stop", DR_CFG_REAL, "6.283185307179586", "first rigid DOF: grid end [rad]", NULL, NULL, NULL},
  {"gmp.theta1.step", DR_CFG_REAL, "0.1", "first rigid DOF: grid step [rad] (rounded so the intervals fit exactly)", NULL, NULL, NULL},
  {"gmp.theta1.values", DR_CFG_LIST, "", "first rigid DOF: listed grid values [rad] instead of start/stop/step", NULL, NULL, NULL},
  {"gmp.theta1.periodic", DR_CFG_BOOL, "false", "the range is one period (a full crank revolution): the closure of the tracked modes is checked", NULL, NULL, NULL},
  {"gmp.theta2.start", DR_CFG_REAL, "0", "second rigid DOF (arm3d): grid start [rad]", NULL, NULL, NULL},
  {"gmp.theta2.stop", DR_CFG_REAL, "0.5", "second rigid DOF: grid end [rad]", NULL, NULL, NULL},
  {"gmp.theta2.step", DR_CFG_REAL, "0.1", "second rigid DOF: grid step [rad]", NULL, NULL, NULL},
  {"gmp.theta2.values", DR_CFG_LIST, "", "second rigid DOF: listed grid values [rad]", NULL, NULL, NULL},
  {"gmp.theta2.periodic", DR_CFG_BOOL, "false", "second rigid DOF: periodic range", NULL, NULL, NULL},
  {"gmp.verify_step", DR_CFG_REAL, "0", "verification grid step [rad] along every axis (uniform grids of 3+ points; a tensor grid for 2 rigid DOFs): exact ROMs there, compared with every interpolation method; 0: none", NULL, NULL, NULL},
  {"gmp.track_mac_warn", DR_CFG_REAL, "0.9", "mode tracking: a MAC diagonal below this between neighbours flags veering", NULL, NULL, NULL},
  {"gmp.write_shapes", DR_CFG_BOOL, "true", "write the projection modes Psi of every grid point (/gmp/grid/psi)", NULL, NULL, NULL},
  {"gmp.export_point", DR_CFG_INT, "0", "grid point whose free-mechanism modes are written to /gmp/export (frequencies_hz, modes = Psi Phi, labels): a source for dynred ss", NULL, NULL, NULL},
  {"gmp.checkpoint", DR_CFG_STRING, "", "sweep checkpoint file (default OUTPUT.sweep.h5): finished points are skipped on restart", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRGMPRegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(gmp_keys));
  PetscCall(DRGMPTransientRegisterKeys());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One rigid DOF's grid values from gmp.thetaK.* */
static PetscErrorCode GridAxis(DRConfig cfg, PetscInt k, PetscInt *n, PetscReal **v, PetscBool *periodic, PetscBool *uniform)
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
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCheck(nv >= 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has %" PetscInt_FMT " value(s): expected at least 2", where, key, nv);
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
  PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
  PetscCheck(b > a, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.theta%" PetscInt_FMT ": stop %g <= start %g: expected stop > start", where, k + 1, (double)b, (double)a);
  PetscCheck(h > 0 && h <= (b - a) * (1 + 1e-9), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s = %g: expected a step in (0, stop - start]", where, key, (double)h);
  *n = (PetscInt)PetscFloorReal((b - a) / h + 0.5) + 1;
  PetscCall(PetscMalloc1(*n, v));
  for (PetscInt i = 0; i < *n; i++) (*v)[i] = a + (b - a) * i / (*n - 1);
  *uniform = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  DRMechanism     mech;
  DRGMPRomOptions opt;
  PetscInt        nt, ngrid, nfine, npts[DR_GMP_MAXTHETA];
  PetscReal      *axis[DR_GMP_MAXTHETA], *fine;
  PetscBool       shapes;
} Sweep;

static void PointTheta(const Sweep *s, PetscInt task, PetscReal th[])
{
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) th[t] = 0;
  if (task < s->ngrid) {
    PetscInt r = task;
    for (PetscInt t = 0; t < s->nt; t++) { /* theta1 fastest */
      th[t] = s->axis[t][r % s->npts[t]];
      r /= s->npts[t];
    }
  } else
    for (PetscInt t = 0; t < s->nt; t++) th[t] = s->fine[(task - s->ngrid) * s->nt + t];
}

/* The mechanism at the export point as a mesh of 2-node lines (/mesh) and
 * its free-mechanism modes as nodal translations (/gmp/export/shapes/NNNN),
 * listed in OUTPUT.xdmf so ParaView shows them.  modes: rank 0's row-major
 * [ndof, n] (Psi Phi), freq: rank 0's frequencies [Hz]. */
static PetscErrorCode WriteExportShapes(DRStore store, DRMechanism mech, const PetscReal theta[], PetscInt n, const PetscReal *modes, const PetscReal *freq)
{
  DRComponent     c;
  PetscInt        nn, dim, ndof, ne;
  const PetscInt *conn;
  const DRLabel  *labels;
  PetscReal      *xyz;
  Vec            *v;
  char          **names;
  PetscMPIInt     rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRMechanismGetSizes(mech, &dim, &nn, &ndof, NULL));
  PetscCall(DRMechanismGetLabels(mech, &labels));
  PetscCall(DRMechanismGetElements(mech, &ne, &conn));
  PetscCall(DRComponentCreate(PETSC_COMM_WORLD, "mechanism", &c));
  PetscCall(PetscMalloc1(nn * dim, &xyz));
  PetscCall(DRMechanismConfigure(mech, theta, xyz, NULL));
  c->n = ndof, c->nnodes = nn, c->celltype = DR_CELL_LINE2, c->ncells = ne;
  PetscCall(PetscMalloc1(ndof, &c->labels));
  PetscCall(PetscArraycpy(c->labels, labels, ndof));
  PetscCall(PetscMalloc1(nn, &c->node_ids));
  PetscCall(PetscCalloc1(3 * nn, &c->xyz));
  for (PetscInt i = 0; i < nn; i++) {
    c->node_ids[i] = i + 1; /* the labels' node ids */
    for (PetscInt d = 0; d < dim; d++) c->xyz[3 * i + d] = xyz[dim * i + d];
  }
  PetscCall(PetscMalloc1(2 * ne, &c->cells));
  for (PetscInt e = 0; e < 2 * ne; e++) c->cells[e] = conn[e] + 1;
  PetscCall(PetscFree(xyz));
  PetscCall(DRComponentWriteMesh(c, store));
  PetscCall(PetscMalloc2(n, &v, n, &names));
  for (PetscInt k = 0; k < n; k++) {
    char name[64];
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, rank ? 0 : ndof, ndof, &v[k]));
    if (!rank) {
      PetscScalar *a;
      PetscCall(VecGetArray(v[k], &a));
      for (PetscInt i = 0; i < ndof; i++) a[i] = modes[i * n + k];
      PetscCall(VecRestoreArray(v[k], &a));
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "mode %02d (%.6g Hz)", (int)(k + 1), rank ? 0.0 : (double)freq[k]));
    PetscCall(PetscStrallocpy(name, &names[k]));
  }
  PetscCall(DRComponentWriteShapes(c, store, "/gmp/export", n, v, (const char *const *)names));
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(VecDestroy(&v[k]));
    PetscCall(PetscFree(names[k]));
  }
  PetscCall(PetscFree2(v, names));
  PetscCall(DRComponentDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SweepTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *n, PetscReal **res)
{
  Sweep      *s = (Sweep *)ctx;
  PetscReal   th[DR_GMP_MAXTHETA];
  DRGMPRom    rom;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PointTheta(s, task, th);
  PetscCall(DRMechanismROM(s->mech, group, th, &s->opt, &rom));
  PetscCallMPI(MPI_Comm_rank(group, &rank));
  if (rank == 0) PetscCall(DRGMPRomPack(&rom, n, res));
  PetscCall(DRGMPRomFree(&rom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Matrices are column-major in memory; datasets are row-major [.., row, col]. */
static void Transpose(PetscInt r, PetscInt c, const PetscReal *a, PetscReal *b)
{
  for (PetscInt i = 0; i < r; i++)
    for (PetscInt j = 0; j < c; j++) b[i * c + j] = a[i + j * r];
}

static PetscReal FrobRel(PetscInt len, const PetscReal *a, const PetscReal *ref)
{
  PetscReal d = 0, r = 0;
  for (PetscInt k = 0; k < len; k++) d += PetscSqr(a[k] - ref[k]), r += PetscSqr(ref[k]);
  return PetscSqrtReal(d / r);
}

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

PetscErrorCode DRGMPSweepRun(DRConfig cfg, DRStore store, const char *output, DRGMPSweepResult *out)
{
  DRMechanismParams p;
  Sweep             s;
  DRFarm            farm;
  char              type[32], ckpt[PETSC_MAX_PATH_LEN], sig[1024];
  PetscBool         periodic[DR_GMP_MAXTHETA] = {0}, uniform[DR_GMP_MAXTHETA] = {0};
  PetscReal         vstep, macwarn, tsweep;
  PetscMPIInt       rank;
  DRGMPRom         *grid = NULL, *fine = NULL;
  PetscInt          ndof, n, computed, restored;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscMemzero(&s, sizeof(s)));
  PetscCall(PetscMemzero(out, sizeof(*out)));
  PetscCall(DRConfigGetString(cfg, "gmp.mechanism", type, sizeof(type), NULL));
  if (strcmp(type, "slider-crank") && strcmp(type, "arm3d")) {
    char where[PETSC_MAX_PATH_LEN + 64];
    PetscCall(DRConfigWhere(cfg, "gmp.mechanism", where, sizeof(where)));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.mechanism '%s': expected slider-crank or arm3d", where, type);
  }
  PetscCall(DRMechanismParamsDefault(type, &p));
  {
    PetscReal v;
    PetscInt  k;
#define OVR_R(key, field) \
  do { PetscCall(DRConfigGetReal(cfg, key, &v, NULL)); if (v != 0) p.field = v; } while (0)
    OVR_R("gmp.L1", L1);
    OVR_R("gmp.L2", L2);
    OVR_R("gmp.E", E);
    OVR_R("gmp.G", G);
    OVR_R("gmp.rho", rho);
    OVR_R("gmp.A", A);
    PetscCall(DRConfigGetReal(cfg, "gmp.I", &v, NULL));
    p.Ib = v != 0 ? v : p.A * p.A / 12.0;
    PetscCall(DRConfigGetReal(cfg, "gmp.I2", &p.Ib2, NULL));
    p.J = 0.1406 * p.A * p.A; /* square section */
    PetscCall(DRConfigGetReal(cfg, "gmp.slider_mass", &p.slider_mass, NULL));
    PetscCall(DRConfigGetReal(cfg, "gmp.tip_mass", &p.tip_mass, NULL));
    PetscCall(DRConfigGetInt(cfg, "gmp.nel1", &k, NULL));
    if (k) p.nel1 = k;
    PetscCall(DRConfigGetInt(cfg, "gmp.nel2", &k, NULL));
    if (k) p.nel2 = k;
    PetscCall(DRConfigGetInt(cfg, "gmp.lattice", &p.lattice, NULL));
    PetscCall(DRConfigGetReal(cfg, "gmp.width", &p.width, NULL));
    PetscCall(DRConfigGetReal(cfg, "gmp.height", &p.height, NULL));
    {
      char where[PETSC_MAX_PATH_LEN + 64], num[32];
      PetscCall(DRConfigWhere(cfg, "gmp.lattice", where, sizeof(where)));
      PetscCheck(p.lattice >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.lattice = %" PetscInt_FMT ": expected 0 (beam chains) or the number of cells across a lattice link", where, p.lattice);
      PetscCheck(p.lattice == 0 || !strcmp(type, "arm3d"), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.lattice = %" PetscInt_FMT ": lattice links exist for arm3d only, not for %s", where, p.lattice, type);
      PetscCall(DRConfigWhere(cfg, "gmp.width", where, sizeof(where)));
      snprintf(num, sizeof(num), "%g", (double)p.width);
      PetscCheck(p.lattice == 0 || p.width > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.width = %s: a lattice link needs its box width > 0 [m]", where, num);
      PetscCall(DRConfigWhere(cfg, "gmp.height", where, sizeof(where)));
      snprintf(num, sizeof(num), "%g", (double)p.height);
      PetscCheck(p.height >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: gmp.height = %s: expected the lattice box height >= 0 [m] (0: = width)", where, num);
    }
#undef OVR_R
  }
  PetscCall(DRMechanismCreate(&p, &s.mech));
  PetscCall(DRMechanismGetSizes(s.mech, NULL, NULL, &ndof, &s.nt));
  PetscCall(DRConfigGetInt(cfg, "gmp.nmodes", &s.opt.nmodes, NULL));
  PetscCall(DRConfigGetInt(cfg, "gmp.dense_max", &s.opt.dense_max, NULL));
  PetscCall(PetscStrncpy(s.opt.prefix, "gmp_", sizeof(s.opt.prefix)));
  PetscCall(DRConfigGetBool(cfg, "gmp.write_shapes", &s.shapes, NULL));
  PetscCheck(s.opt.nmodes >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "gmp.nmodes = %" PetscInt_FMT ": expected at least 1 deformation mode", s.opt.nmodes);
  n       = s.nt + s.opt.nmodes;
  s.ngrid = 1;
  for (PetscInt t = 0; t < s.nt; t++) {
    PetscCall(GridAxis(cfg, t, &s.npts[t], &s.axis[t], &periodic[t], &uniform[t]));
    s.ngrid *= s.npts[t];
  }
  PetscCall(DRConfigGetReal(cfg, "gmp.verify_step", &vstep, NULL));
  PetscCall(DRConfigGetReal(cfg, "gmp.track_mac_warn", &macwarn, NULL));
  if (vstep > 0) {
    /* the fine grid: every axis at step ~vstep, tensor product, theta1 fastest */
    PetscInt nf1[DR_GMP_MAXTHETA];
    s.nfine = 1;
    for (PetscInt t = 0; t < s.nt; t++) {
      PetscReal a = s.axis[t][0], b = s.axis[t][s.npts[t] - 1];
      PetscCheck(uniform[t] && s.npts[t] >= 3, PETSC_COMM_WORLD, DR_ERR_INPUT, "gmp.verify_step: the interpolation formulas need a uniform grid of at least 3 points along theta%" PetscInt_FMT, t + 1);
      nf1[t] = (PetscInt)PetscFloorReal((b - a) / vstep + 0.5) + 1;
      s.nfine *= nf1[t];
    }
    PetscCall(PetscMalloc1(s.nfine * s.nt, &s.fine));
    for (PetscInt f = 0; f < s.nfine; f++) {
      PetscInt r = f;
      for (PetscInt t = 0; t < s.nt; t++) {
        PetscReal a = s.axis[t][0], b = s.axis[t][s.npts[t] - 1];
        s.fine[f * s.nt + t] = a + (b - a) * (r % nf1[t]) / (nf1[t] - 1);
        r /= nf1[t];
      }
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gmp: %s, %" PetscInt_FMT " DOFs, %" PetscInt_FMT " rigid + %" PetscInt_FMT " deformation modes; grid %" PetscInt_FMT " points", type, ndof, s.nt, s.opt.nmodes, s.ngrid));
  for (PetscInt t = 0; t < s.nt; t++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s theta%" PetscInt_FMT " [%g, %g] x %" PetscInt_FMT "%s", t ? "," : " (", t + 1, (double)s.axis[t][0], (double)s.axis[t][s.npts[t] - 1], s.npts[t], periodic[t] ? " periodic" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, ")%s\n", s.nfine ? "" : ""));
  if (s.nfine) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gmp: verification grid %" PetscInt_FMT " points (exact ROMs)\n", s.nfine));

  /* the sweep's identity for the checkpoint: everything a point depends on */
  {
    size_t l = 0;
    l += snprintf(sig + l, sizeof(sig) - l, "%s L%.17g,%.17g nel%d,%d E%.17g G%.17g r%.17g A%.17g I%.17g,%.17g ms%.17g mt%.17g nm%d ", type, (double)p.L1, (double)p.L2, (int)p.nel1, (int)p.nel2, (double)p.E, (double)p.G, (double)p.rho, (double)p.A, (double)p.Ib, (double)p.Ib2, (double)p.slider_mass, (double)p.tip_mass, (int)s.opt.nmodes);
    if (p.lattice) l += snprintf(sig + l, sizeof(sig) - l, "lat%d w%.17g,%.17g ", (int)p.lattice, (double)p.width, (double)p.height);
    for (PetscInt t = 0; t < s.nt && l < sizeof(sig); t++) l += snprintf(sig + l, sizeof(sig) - l, "g%d:%.17g..%.17g/%d ", (int)t, (double)s.axis[t][0], (double)s.axis[t][s.npts[t] - 1], (int)s.npts[t]);
    if (l < sizeof(sig)) snprintf(sig + l, sizeof(sig) - l, "f%d", (int)s.nfine);
  }
  PetscCall(DRConfigGetString(cfg, "gmp.checkpoint", ckpt, sizeof(ckpt), NULL));
  if (!ckpt[0]) PetscCall(PetscSNPrintf(ckpt, sizeof(ckpt), "%s.sweep.h5", output));
  PetscCall(DRFarmCreate(PETSC_COMM_WORLD, &farm));
  PetscCall(DRFarmSetLabel(farm, "grid point"));
  PetscCall(DRFarmSetFromOptions(farm));
  PetscCall(DRFarmSetCheckpoint(farm, ckpt, sig));
  {
    PetscInt ng;
    PetscCall(DRFarmGetGroup(farm, NULL, NULL, &ng));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gmp: %" PetscInt_FMT " tasks on %" PetscInt_FMT " rank group(s), checkpoint %s\n", s.ngrid + s.nfine, ng, ckpt));
  }
  PetscCall(DRFarmRun(farm, s.ngrid + s.nfine, SweepTask, &s));
  PetscCall(DRMechanismClearCache(s.mech)); /* the group comm goes with the farm */
  PetscCall(DRFarmGetStats(farm, &computed, &restored, &tsweep));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "gmp: sweep done in %.2f s: %" PetscInt_FMT " computed, %" PetscInt_FMT " restored (%.3g points/s)\n", (double)tsweep, computed, restored, (double)(computed / PetscMax(tsweep, 1e-9))));
  out->sweep_seconds = tsweep;
  out->computed      = computed;

  /* rank 0: unpack, track, verify */
  if (rank == 0) {
    PetscCall(PetscCalloc1(s.ngrid, &grid));
    for (PetscInt i = 0; i < s.ngrid + s.nfine; i++) {
      PetscInt         len;
      const PetscReal *r;
      PetscCall(DRFarmGetResult(farm, i, &len, &r));
      if (i < s.ngrid) PetscCall(DRGMPRomUnpack(len, r, &grid[i]));
      else {
        if (!fine) PetscCall(PetscCalloc1(s.nfine, &fine));
        PetscCall(DRGMPRomUnpack(len, r, &fine[i - s.ngrid]));
      }
    }
  }
  PetscCall(DRFarmDestroy(&farm));

  {
    PetscReal *macd = NULL, closure = 0, macmin_all = 1;
    PetscInt  *veer = NULL, nveer = 0;
    if (rank == 0) {
      PetscCall(PetscCalloc2(s.ngrid * s.opt.nmodes, &macd, s.ngrid, &veer));
      for (PetscInt k = 0; k < s.opt.nmodes; k++) macd[k] = 1;
      for (PetscInt i = 1; i < s.ngrid; i++) {
        /* predecessor: the neighbour along theta1, else along the next axis */
        PetscInt  prev = -1, stride = 1;
        PetscReal mn;
        for (PetscInt t = 0, r = i; t < s.nt; t++) {
          if (r % s.npts[t]) {
            prev = i - stride;
            break;
          }
          r /= s.npts[t];
          stride *= s.npts[t];
        }
        PetscCall(DRGMPTrack(&grid[prev], &grid[i], &macd[i * s.opt.nmodes], &mn));
        PetscCall(DRGMPTrackEigen(&grid[prev], &grid[i]));
        macmin_all = PetscMin(macmin_all, mn);
        if (mn < macwarn) veer[i] = 1, nveer++;
      }
      if (periodic[0] && s.nt == 1) { /* the last point is the first one turned by a period */
        closure = PetscMax(FrobRel(ndof * n, grid[s.ngrid - 1].Psi, grid[0].Psi), FrobRel(n * n, grid[s.ngrid - 1].Phi, grid[0].Phi));
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "gmp: mode tracking: smallest neighbour MAC %.4f; %" PetscInt_FMT " interval(s) flagged as veering (MAC < %g)\n", (double)macmin_all, nveer, (double)macwarn));
      if (periodic[0] && s.nt == 1) PetscCall(PetscPrintf(PETSC_COMM_SELF, "gmp: periodic closure after a full period: relative difference of modes %.2e (%s)\n", (double)closure, closure < 1e-6 ? "closed" : "NOT closed: a mode changes sign or order around the period"));
    }
    out->closure = closure;
    out->macmin  = macmin_all;
    /* write the grid */
    {
      PetscInt   np = s.ngrid, dims[3], nn_all;
      PetscReal *buf = NULL, *thbuf = NULL;
      PetscCall(DRMechanismGetSizes(s.mech, NULL, &nn_all, NULL, NULL));
      if (rank == 0) {
        PetscCall(PetscMalloc1(np * PetscMax(PetscMax(n * n, ndof * n), nn_all * 3) + np * DR_GMP_MAXTHETA, &buf));
        PetscCall(PetscMalloc1(np * s.nt, &thbuf));
        for (PetscInt i = 0; i < np; i++)
          for (PetscInt t = 0; t < s.nt; t++) thbuf[i * s.nt + t] = grid[i].theta[t];
      }
      dims[0] = np, dims[1] = s.nt;
      PetscCall(DRStoreWriteReal(store, "/gmp/grid/theta", 2, dims, thbuf, "rad"));
      dims[1] = n, dims[2] = n;
      if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(n, n, grid[i].M, buf + i * n * n);
      PetscCall(DRStoreWriteReal(store, "/gmp/grid/M", 3, dims, buf, NULL));
      if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(n, n, grid[i].K, buf + i * n * n);
      PetscCall(DRStoreWriteReal(store, "/gmp/grid/K", 3, dims, buf, NULL));
      if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(n, n, grid[i].Phi, buf + i * n * n);
      PetscCall(DRStoreWriteReal(store, "/gmp/grid/Phi", 3, dims, buf, NULL));
      dims[1] = n;
      if (rank == 0) for (PetscInt i = 0; i < np; i++) PetscCall(PetscArraycpy(buf + i * n, grid[i].lambda, n));
      PetscCall(DRStoreWriteReal(store, "/gmp/grid/lambda", 2, dims, buf, "rad^2/s^2"));
      if (s.shapes) {
        dims[1] = ndof, dims[2] = n;
        if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(ndof, n, grid[i].Psi, buf + i * ndof * n);
        PetscCall(DRStoreWriteReal(store, "/gmp/grid/psi", 3, dims, buf, NULL));
      }
      {
        PetscInt nn, dim;
        PetscCall(DRMechanismGetSizes(s.mech, &dim, &nn, NULL, NULL));
        dims[1] = nn, dims[2] = dim;
        if (rank == 0) for (PetscInt i = 0; i < np; i++) PetscCall(PetscArraycpy(buf + i * nn * dim, grid[i].xyz, nn * dim));
        PetscCall(DRStoreWriteReal(store, "/gmp/grid/rho", 3, dims, buf, "m"));
      }
      {
        const DRLabel *labels;
        PetscCall(DRMechanismGetLabels(s.mech, &labels));
        PetscCall(DRStoreWriteLabels(store, "/gmp/labels", ndof, labels));
      }
      {
        /* the beam elements (0-based node indices into /gmp/grid/rho), for
         * plotting the mode shapes */
        PetscInt        ne;
        const PetscInt *conn;
        PetscInt64     *c64 = NULL;
        PetscCall(DRMechanismGetElements(s.mech, &ne, &conn));
        if (rank == 0) {
          PetscCall(PetscMalloc1(2 * ne, &c64));
          for (PetscInt i = 0; i < 2 * ne; i++) c64[i] = conn[i];
        }
        dims[0] = ne, dims[1] = 2;
        PetscCall(DRStoreWriteInt(store, "/gmp/elements", 2, dims, c64));
        PetscCall(PetscFree(c64));
        dims[0] = np;
      }
      {
        /* one configuration's free-mechanism modes, in the layout dynred ss
         * reads (frequencies_hz, modes [ndof, n] mass-normalized, labels) */
        PetscInt       ex;
        const DRLabel *labels;
        PetscCall(DRConfigGetInt(cfg, "gmp.export_point", &ex, NULL));
        PetscCheck(ex >= 0 && ex < np, PETSC_COMM_WORLD, DR_ERR_INPUT, "gmp.export_point %" PetscInt_FMT ": expected a grid point index in [0, %" PetscInt_FMT ")", ex, np);
        if (rank == 0) {
          const DRGMPRom *r = &grid[ex];
          for (PetscInt i = 0; i < ndof; i++)
            for (PetscInt k = 0; k < n; k++) {
              PetscReal v = 0;
              for (PetscInt j = 0; j < n; j++) v += r->Psi[i + j * ndof] * r->Phi[j + k * n];
              buf[i * n + k] = v;
            }
        }
        dims[1] = n;
        PetscCall(DRStoreWriteReal(store, "/gmp/export/modes", 2, (PetscInt[]){ndof, n}, buf, NULL));
        {
          PetscReal *fr, th[DR_GMP_MAXTHETA] = {0};
          PetscCall(PetscCalloc1(n, &fr));
          if (rank == 0) {
            for (PetscInt k = 0; k < n; k++) fr[k] = PetscSqrtReal(PetscMax(grid[ex].lambda[k], 0)) / (2 * PETSC_PI);
            PetscCall(PetscArraycpy(th, grid[ex].theta, s.nt));
          }
          PetscCallMPI(MPI_Bcast(th, DR_GMP_MAXTHETA, MPIU_REAL, 0, PETSC_COMM_WORLD));
          PetscCall(WriteExportShapes(store, s.mech, th, n, buf, fr));
          PetscCall(PetscFree(fr));
        }
        if (rank == 0)
          for (PetscInt k = 0; k < n; k++) buf[k] = PetscSqrtReal(PetscMax(grid[ex].lambda[k], 0)) / (2 * PETSC_PI);
        PetscCall(DRStoreWriteReal(store, "/gmp/export/frequencies_hz", 1, (PetscInt[]){n}, buf, "Hz"));
        PetscCall(DRMechanismGetLabels(s.mech, &labels));
        PetscCall(DRStoreWriteLabels(store, "/gmp/export/labels", ndof, labels));
        if (rank == 0) PetscCall(PetscArraycpy(buf, grid[ex].theta, s.nt));
        PetscCall(DRStoreWriteReal(store, "/gmp/export/theta", 1, (PetscInt[]){s.nt}, buf, "rad"));
        PetscCall(DRStoreAttrString(store, "/gmp/export", "description", "free-mechanism modes Psi Phi (mass-normalized, rigid mode(s) first, zero frequency) at grid point gmp.export_point: dynred ss -ss_source FILE -ss_group /gmp/export"));
      }
      dims[0] = np;
      dims[1] = s.opt.nmodes;
      PetscCall(DRStoreWriteReal(store, "/gmp/track/mac_diag", 2, dims, macd, NULL));
      {
        PetscInt64 *vi = NULL;
        if (rank == 0) {
          PetscCall(PetscMalloc1(np, &vi));
          for (PetscInt i = 0; i < np; i++) vi[i] = veer[i];
        }
        PetscCall(DRStoreWriteInt(store, "/gmp/track/veering", 1, dims, vi));
        PetscCall(PetscFree(vi));
      }
      PetscCall(DRStoreAttrReal(store, "/gmp/track", "min_mac", macmin_all));
      PetscCall(DRStoreAttrReal(store, "/gmp/track", "mac_warn", macwarn));
      if (periodic[0] && s.nt == 1) PetscCall(DRStoreAttrReal(store, "/gmp/track", "periodic_closure", closure));
      PetscCall(DRStoreAttrString(store, "/gmp/track", "description", "mode order and sign made consistent from each grid point to its predecessor (theta1 neighbour, else the next axis): mass-weighted MAC with the predecessor's M, optimal assignment, signs so the diagonal cross-product is positive; mac_diag[i, j] = MAC of mode j with the predecessor; veering[i] = 1 when its smallest entry < mac_warn; periodic_closure = relative difference of modes between the last point and the first (a period apart)"));
      PetscCall(DRStoreAttrString(store, "/gmp/grid", "layout", "point i: theta[i, :]; M[i], K[i] the reduced matrices over eta = [theta | delta] (row-major [n, n]); lambda[i] and Phi[i] (columns = eigenvectors, mass-normalized) of the reduced pencil; psi[i] = [rigid modes | deformation modes] on the DOFs /gmp/labels ([ndof, n]); rho[i] = node coordinates of the undeformed configuration"));
      PetscCall(DRStoreAttrString(store, "/gmp", "mechanism", type));
      PetscCall(DRStoreAttrInt(store, "/gmp", "n_rigid", s.nt));
      PetscCall(DRStoreAttrInt(store, "/gmp", "n_deformation", s.opt.nmodes));
      PetscCall(DRStoreAttrReal(store, "/gmp", "second_moment_m4", p.Ib));
      PetscCall(DRStoreAttrReal(store, "/gmp", "slider_mass_kg", p.slider_mass));
      PetscCall(DRStoreAttrString(store, "/gmp", "beam", "2-node Euler-Bernoulli beams (no shear deformation), consistent mass"));
      PetscCall(PetscFree(buf));
      PetscCall(PetscFree(thbuf));
    }
    if (rank == 0) PetscCall(PetscFree2(macd, veer));
  }

  /* verification on the fine grid */
  if (s.nfine) {
    PetscReal *err[3][5] = {{NULL}}, *thf = NULL;
    PetscInt   nindef[3] = {0, 0, 0};
    const char *qn[5] = {"matrix_error", "mass_error", "stiffness_error", "eig_error", "psi_error"};
    if (rank == 0) {
      PetscCall(PetscMalloc1(s.nfine * s.nt, &thf));
      for (int mth = 0; mth < 3; mth++)
        for (int q = 0; q < 5; q++) PetscCall(PetscMalloc1(s.nfine, &err[mth][q]));
      for (PetscInt f = 0; f < s.nfine; f++) {
        const PetscReal *th = fine[f].theta;
        PetscReal        mn, md[64];
        PetscInt         i = 0, stride = 1;
        for (PetscInt t = 0; t < s.nt; t++) {
          PetscReal h = (s.axis[t][s.npts[t] - 1] - s.axis[t][0]) / (s.npts[t] - 1);
          i += stride * PetscMin((PetscInt)PetscFloorReal((th[t] - s.axis[t][0]) / h + 1e-9), s.npts[t] - 1);
          stride *= s.npts[t];
          thf[f * s.nt + t] = th[t];
        }
        /* align the exact ROM with the tracked grid (its lower neighbour) */
        PetscCall(DRGMPTrack(&grid[i], &fine[f], md, &mn));
        PetscCall(DRGMPTrackEigen(&grid[i], &fine[f]));
        for (int mth = 0; mth < 3; mth++) {
          DRGMPRom  ip;
          PetscReal le[64], li[64], se = 0;
          PetscBool ok;
          PetscCall(DRGMPInterpolateGrid(s.nt, s.npts, grid, th, (DRGMPMethod)mth, PETSC_TRUE, &ip));
          PetscCall(DRGMPRomEigen(&ip, &ok));
          if (!ok) { /* an indefinite interpolated mass matrix: count it as a 100 % error */
            nindef[mth]++;
            for (PetscInt j = 0; j < n; j++) ip.lambda[j] = j < s.nt ? 0 : 2 * fine[f].lambda[j];
          }
          err[mth][1][f] = FrobRel(n * n, ip.M, fine[f].M);
          err[mth][2][f] = FrobRel(n * n, ip.K, fine[f].K);
          err[mth][0][f] = 0.5 * (err[mth][1][f] + err[mth][2][f]);
          PetscCall(PetscArraycpy(le, fine[f].lambda, n));
          PetscCall(PetscArraycpy(li, ip.lambda, n));
          qsort(le, n, sizeof(PetscReal), CmpReal);
          qsort(li, n, sizeof(PetscReal), CmpReal);
          for (PetscInt j = s.nt; j < n; j++) se += PetscAbsReal(li[j] - le[j]) / le[j];
          err[mth][3][f] = se / (n - s.nt);
          err[mth][4][f] = ip.Psi ? FrobRel(ndof * n, ip.Psi, fine[f].Psi) : 0;
          PetscCall(DRGMPRomFree(&ip));
        }
      }
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "gmp: interpolation verified at %" PetscInt_FMT " points against exact ROMs (mean / max over the points)\n", s.nfine));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-11s %-21s %-21s %-21s\n", "method", "matrix error", "eigenvalue error", "mode (Psi) error"));
      for (int mth = 0; mth < 3; mth++) {
        PetscReal mean[5] = {0}, mx[5] = {0};
        for (int q = 0; q < 5; q++)
          for (PetscInt f = 0; f < s.nfine; f++) mean[q] += err[mth][q][f] / s.nfine, mx[q] = PetscMax(mx[q], err[mth][q][f]);
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %-11s %9.3e / %9.3e %9.3e / %9.3e %9.3e / %9.3e\n", DRGMPMethods[mth], (double)mean[0], (double)mx[0], (double)mean[3], (double)mx[3], (double)mean[4], (double)mx[4]));
        if (nindef[mth]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  (%s: the interpolated mass matrix is indefinite at %" PetscInt_FMT " points; counted as 100 %% eigenvalue error)\n", DRGMPMethods[mth], nindef[mth]));
        out->matrix_error[mth] = mean[0];
        out->eig_error[mth]    = mean[3];
      }
    }
    PetscCallMPI(MPI_Bcast(out->matrix_error, 3, MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Bcast(out->eig_error, 3, MPIU_REAL, 0, PETSC_COMM_WORLD));
    {
      PetscInt dims[2] = {s.nfine, s.nt};
      PetscCall(DRStoreWriteReal(store, "/gmp/verify/theta", s.nt == 1 ? 1 : 2, dims, thf, "rad"));
      for (int mth = 0; mth < 3; mth++)
        for (int q = 0; q < 5; q++) {
          char name[128];
          PetscCall(PetscSNPrintf(name, sizeof(name), "/gmp/verify/%s/%s", DRGMPMethods[mth], qn[q]));
          PetscCall(DRStoreWriteReal(store, name, 1, dims, err[mth][q], NULL));
        }
      PetscCall(DRStoreAttrString(store, "/gmp/verify", "definitions", "per fine point, against the exact ROM computed there and aligned (tracked) to the grid: mass_error = ||M_i - M||_F / ||M||_F, stiffness_error likewise, matrix_error = their mean; eig_error = mean over the deformation eigenvalues of |lambda_i - lambda| / lambda (both sorted); psi_error = ||Psi_i - Psi||_F / ||Psi||_F"));
    }
    if (rank == 0) {
      for (int mth = 0; mth < 3; mth++)
        for (int q = 0; q < 5; q++) PetscCall(PetscFree(err[mth][q]));
      PetscCall(PetscFree(thf));
    }
  }
  /* keep the tracked grid for the transient check */
  out->ngrid = s.ngrid;
  out->grid  = grid;
  out->mech  = s.mech;
  out->opt   = s.opt;
  out->period = periodic[0] ? s.axis[0][s.npts[0] - 1] - s.axis[0][0] : 0;
  if (rank == 0 && fine) {
    for (PetscInt f = 0; f < s.nfine; f++) PetscCall(DRGMPRomFree(&fine[f]));
    PetscCall(PetscFree(fine));
  }
  for (PetscInt t = 0; t < s.nt; t++) PetscCall(PetscFree(s.axis[t]));
  PetscCall(PetscFree(s.fine));
  PetscCall(PetscStrncpy(out->checkpoint, ckpt, sizeof(out->checkpoint)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepResultDestroy(DRGMPSweepResult *r)
{
  PetscFunctionBeginUser;
  if (r->grid) {
    for (PetscInt i = 0; i < r->ngrid; i++) PetscCall(DRGMPRomFree(&r->grid[i]));
    PetscCall(PetscFree(r->grid));
  }
  PetscCall(DRMechanismDestroy(&r->mech));
  PetscFunctionReturn(PETSC_SUCCESS);
}
