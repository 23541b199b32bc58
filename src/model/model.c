/* Model construction from the job file: built-in generators or files. */
#include <dynred/model.h>
#include <dynred/builtin.h>
#include <dynred/io.h>
#include <string.h>

static const DRConfigKey model_keys[] = {
  {"model.builtin", DR_CFG_STRING, "", "built-in model: plate | solid | frame3d | frame2d | beam2d (empty: use components)", NULL, NULL, NULL},
  {"model.plate.lx", DR_CFG_REAL, "1.0", "plate length along x [m]", NULL, NULL, NULL},
  {"model.plate.ly", DR_CFG_REAL, "0.5", "plate width along y [m]", NULL, NULL, NULL},
  {"model.plate.lz", DR_CFG_REAL, "0.02", "plate thickness along z [m]", NULL, NULL, NULL},
  {"model.plate.nx", DR_CFG_INT, "40", "hex8 elements along x", NULL, NULL, NULL},
  {"model.plate.ny", DR_CFG_INT, "20", "hex8 elements along y", NULL, NULL, NULL},
  {"model.plate.nz", DR_CFG_INT, "2", "hex8 elements along z", NULL, NULL, NULL},
  {"model.plate.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", NULL, NULL, NULL},
  {"model.plate.nu", DR_CFG_REAL, "0.3", "Poisson's ratio", NULL, NULL, NULL},
  {"model.plate.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", NULL, NULL, NULL},
  {"model.plate.clamp", DR_CFG_STRING, "x0", "clamped faces: none or a comma list of x0,x1,y0,y1,z0,z1", NULL, NULL, NULL},
  {"model.solid.lx", DR_CFG_REAL, "1.0", "block length along x [m]", NULL, NULL, NULL},
  {"model.solid.ly", DR_CFG_REAL, "1.0", "block length along y [m]", NULL, NULL, NULL},
  {"model.solid.lz", DR_CFG_REAL, "1.0", "block length along z [m]", NULL, NULL, NULL},
  {"model.solid.x0", DR_CFG_REAL, "0", "block origin x [m]", NULL, NULL, NULL},
  {"model.solid.y0", DR_CFG_REAL, "0", "block origin y [m]", NULL, NULL, NULL},
  {"model.solid.z0", DR_CFG_REAL, "0", "block origin z [m]", NULL, NULL, NULL},
  {"model.solid.nx", DR_CFG_INT, "8", "hex8 elements along x", NULL, NULL, NULL},
  {"model.solid.ny", DR_CFG_INT, "8", "hex8 elements along y", NULL, NULL, NULL},
  {"model.solid.nz", DR_CFG_INT, "8", "hex8 elements along z", NULL, NULL, NULL},
  {"model.solid.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", NULL, NULL, NULL},
  {"model.solid.nu", DR_CFG_REAL, "0.3", "Poisson's ratio", NULL, NULL, NULL},
  {"model.solid.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", NULL, NULL, NULL},
  {"model.solid.clamp", DR_CFG_STRING, "none", "clamped faces: none or a comma list of x0,x1,y0,y1,z0,z1", NULL, NULL, NULL},
  {"model.frame3d.lx", DR_CFG_REAL, "1.0", "frame extent along x [m]", NULL, NULL, NULL},
  {"model.frame3d.ly", DR_CFG_REAL, "0", "frame extent along y [m]", NULL, NULL, NULL},
  {"model.frame3d.lz", DR_CFG_REAL, "0", "frame extent along z [m]", NULL, NULL, NULL},
  {"model.frame3d.nx", DR_CFG_INT, "1", "bays along x", NULL, NULL, NULL},
  {"model.frame3d.ny", DR_CFG_INT, "0", "bays along y", NULL, NULL, NULL},
  {"model.frame3d.nz", DR_CFG_INT, "0", "bays along z", NULL, NULL, NULL},
  {"model.frame3d.nel", DR_CFG_INT, "20", "beam elements per member", NULL, NULL, NULL},
  {"model.frame3d.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", NULL, NULL, NULL},
  {"model.frame3d.G", DR_CFG_REAL, "80.77e9", "shear modulus [Pa]", NULL, NULL, NULL},
  {"model.frame3d.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", NULL, NULL, NULL},
  {"model.frame3d.A", DR_CFG_REAL, "1e-4", "cross-section area [m^2]", NULL, NULL, NULL},
  {"model.frame3d.Iy", DR_CFG_REAL, "8.333e-10", "second moment of area about local y [m^4]", NULL, NULL, NULL},
  {"model.frame3d.Iz", DR_CFG_REAL, "8.333e-10", "second moment of area about local z [m^4]", NULL, NULL, NULL},
  {"model.frame3d.J", DR_CFG_REAL, "1.406e-9", "torsion constant [m^4]", NULL, NULL, NULL},
  {"model.frame3d.lumped", DR_CFG_BOOL, "false", "lumped instead of consistent mass", NULL, NULL, NULL},
  {"model.frame3d.clamp", DR_CFG_STRING, "x0", "clamped faces: none or a comma list of x0,x1,y0,y1,z0,z1", NULL, NULL, NULL},
  {"model.beam2d.L", DR_CFG_REAL, "1.0", "planar cantilever length [m]", NULL, NULL, NULL},
  {"model.beam2d.nel", DR_CFG_INT, "20", "beam elements", NULL, NULL, NULL},
  {"model.beam2d.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", NULL, NULL, NULL},
  {"model.beam2d.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", NULL, NULL, NULL},
  {"model.beam2d.A", DR_CFG_REAL, "1e-4", "cross-section area [m^2]", NULL, NULL, NULL},
  {"model.beam2d.I", DR_CFG_REAL, "8.333e-10", "second moment of area [m^4]", NULL, NULL, NULL},
  {"model.beam2d.lumped", DR_CFG_BOOL, "false", "lumped instead of consistent mass", NULL, NULL, NULL},
  {"model.frame2d.nodes", DR_CFG_LIST, "", "planar frame nodes [id, x, y, id, x, y, ...]", NULL, NULL, NULL},
  {"model.frame2d.members", DR_CFG_LIST, "", "planar frame members [node1, node2, ...] (pairs)", NULL, NULL, NULL},
  {"model.frame2d.sections", DR_CFG_LIST, "", "cross-sections [A, I, A, I, ...]: area, second moment of area", NULL, NULL, NULL},
  {"model.frame2d.member_section", DR_CFG_LIST, "", "section of each member (1-based index into sections); empty: section 1 for all", NULL, NULL, NULL},
  {"model.frame2d.E", DR_CFG_REAL, "210e9", "Young's modulus", NULL, NULL, NULL},
  {"model.frame2d.rho", DR_CFG_REAL, "7850", "density", NULL, NULL, NULL},
  {"model.frame2d.nel", DR_CFG_INT, "1", "beam elements per member", NULL, NULL, NULL},
  {"model.frame2d.lumped", DR_CFG_BOOL, "true", "lumped instead of consistent mass", NULL, NULL, NULL},
  {"model.frame2d.hinges", DR_CFG_LIST, "", "released member-end rotations [member, end, ...] (1-based member, end 1 or 2)", NULL, NULL, NULL},
  {"model.frame2d.springs", DR_CFG_LIST, "", "axial springs [node1, node2, k, ...] acting along the line joining the nodes", NULL, NULL, NULL},
  {"model.frame2d.fixed", DR_CFG_LIST, "", "fixed DOFs [node, dir, ...] with dir 1 (x), 2 (y) or 6 (rotation)", NULL, NULL, NULL},
  {"model.ties", DR_CFG_LIST, "", "node ties [keep1, drop1, keep2, drop2, ...]: node drop is node keep (parts numbering shared nodes differently)", NULL, NULL, NULL},
  {"model.cut.axis", DR_CFG_STRING, "x", "axis of the cut planes: x, y or z", NULL, NULL, NULL},
  {"model.cut.parts", DR_CFG_INT, "1", "number of parts (components) a built-in model is cut into", NULL, NULL, NULL},
  {"components[].name", DR_CFG_STRING, NULL, "component name", NULL, NULL, NULL},
  {"components[].format", DR_CFG_STRING, "mtx", "file format: calculix | mtx | petsc | hdf5", NULL, NULL, NULL},
  {"components[].path", DR_CFG_STRING, "", "calculix: job path without extension; petsc, hdf5: file", NULL, NULL, NULL},
  {"components[].K", DR_CFG_STRING, "", "mtx: stiffness matrix file", NULL, NULL, NULL},
  {"components[].M", DR_CFG_STRING, "", "mtx: mass matrix file", NULL, NULL, NULL},
  {"components[].D", DR_CFG_STRING, "", "mtx: damping matrix file (optional)", NULL, NULL, NULL},
  {"components[].dofs", DR_CFG_STRING, "", "mtx: DOF label file (node.direction per row)", NULL, NULL, NULL},
  {"components[].method", DR_CFG_STRING, "", "CMS reduction of this component (default cms.method)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRModelRegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(model_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetBuiltin(DRConfig cfg, char *b, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "model.builtin", b, len, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GetCut(DRConfig cfg, DRCut *cut)
{
  char axis[8], where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "model.cut.axis", axis, sizeof(axis), NULL));
  PetscCall(DRConfigGetInt(cfg, "model.cut.parts", &cut->parts, NULL));
  PetscCall(DRConfigWhere(cfg, "model.cut.axis", where, sizeof(where)));
  PetscCheck(strlen(axis) == 1 && (axis[0] == 'x' || axis[0] == 'y' || axis[0] == 'z'), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.cut.axis = '%s', expected x, y or z", where, axis);
  PetscCall(DRConfigWhere(cfg, "model.cut.parts", where, sizeof(where)));
  PetscCheck(cut->parts >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.cut.parts = %" PetscInt_FMT ", expected >= 1", where, cut->parts);
  cut->axis = axis[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelGetComponentCount(DRConfig cfg, PetscInt *n)
{
  char b[64];

  PetscFunctionBeginUser;
  PetscCall(GetBuiltin(cfg, b, sizeof(b)));
  if (b[0]) {
    DRCut cut;
    PetscCall(GetCut(cfg, &cut));
    *n = cut.parts;
  } else {
    const char *origin;
    PetscCall(DRConfigGetListLength(cfg, "components", n));
    PetscCall(DRConfigGetOrigin(cfg, &origin));
    PetscCheck(*n > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no model: expected model.builtin or a components: list", origin);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelGetComponentName(DRConfig cfg, PetscInt k, char *name, size_t len)
{
  char b[64];

  PetscFunctionBeginUser;
  PetscCall(GetBuiltin(cfg, b, sizeof(b)));
  if (b[0]) {
    DRCut cut;
    PetscCall(GetCut(cfg, &cut));
    if (cut.parts == 1) PetscCall(PetscSNPrintf(name, len, "%s", b));
    else PetscCall(PetscSNPrintf(name, len, "%s_part%" PetscInt_FMT, b, k + 1));
  } else {
    char key[64];
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].name", k));
    PetscCall(DRConfigGetString(cfg, key, name, len, NULL));
    if (!name[0]) PetscCall(PetscSNPrintf(name, len, "component%" PetscInt_FMT, k + 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolidParams(DRConfig cfg, const char *sect, DRSolidParams *p)
{
  char key[64];

  PetscFunctionBeginUser;
  PetscCall(DRSolidParamsDefault(p));
#define R(f)                                                              \
  do {                                                                    \
    PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s." #f, sect));     \
    PetscCall(DRConfigGetReal(cfg, key, &p->f, NULL));                    \
  } while (0)
#define IN(f)                                                              \
  do {                                                                    \
    PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s." #f, sect));     \
    PetscCall(DRConfigGetInt(cfg, key, &p->f, NULL));                     \
  } while (0)
  R(lx);
  R(ly);
  R(lz);
  IN(nx);
  IN(ny);
  IN(nz);
  R(E);
  R(nu);
  R(rho);
  if (!strcmp(sect, "solid")) {
    R(x0);
    R(y0);
    R(z0);
  }
#undef R
#undef IN
  PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s.clamp", sect));
  PetscCall(DRConfigGetString(cfg, key, p->clamp, sizeof(p->clamp), NULL));
  {
    char where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s", sect));
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCheck(p->nx > 0 && p->ny > 0 && p->nz > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.%s: element counts nx, ny, nz must be positive", where, sect);
    PetscCheck(p->lx > 0 && p->ly > 0 && p->lz > 0 && p->E > 0 && p->rho > 0 && p->nu > -1 && p->nu < 0.5, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.%s: expected positive lengths, E and rho, and -1 < nu < 0.5", where, sect);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Paths in a job file are relative to the job file's directory. */
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

/* Apply model.ties: every id `drop` becomes `keep`, in the labels, nodes,
 * cells and node sets, so parts that number a shared node differently meet
 * by label.  A part holding both nodes of a tie is an error. */
static PetscErrorCode ApplyTies(DRConfig cfg, DRComponent c)
{
  PetscReal *t;
  PetscInt   nt = 2 * 65536;
  char       where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(nt, &t));
  PetscCall(DRConfigGetRealArray(cfg, "model.ties", t, &nt, NULL));
  PetscCall(DRConfigWhere(cfg, "model.ties", where, sizeof(where)));
  PetscCheck(nt % 2 == 0, c->comm, DR_ERR_INPUT, "%s: model.ties has %" PetscInt_FMT " values, expected pairs [keep, drop, ...]", where, nt);
  for (PetscInt p = 0; p < nt; p += 2) {
    PetscInt64 keep = (PetscInt64)t[p], drop = (PetscInt64)t[p + 1];
    PetscBool  hasdrop = PETSC_FALSE, haskeep = PETSC_FALSE;
    PetscCheck(keep == t[p] && drop == t[p + 1] && keep >= 0 && drop >= 0, c->comm, DR_ERR_INPUT, "%s: model.ties entry %" PetscInt_FMT " is not a pair of node ids", where, p / 2 + 1);
    for (PetscInt i = 0; i < c->n; i++) {
      if (DRLabelNode(c->labels[i]) == drop) hasdrop = PETSC_TRUE;
      if (DRLabelNode(c->labels[i]) == keep) haskeep = PETSC_TRUE;
    }
    if (!hasdrop) continue;
    PetscCheck(!haskeep, c->comm, DR_ERR_INPUT, "%s: tie (%lld, %lld): component '%s' has both nodes, expected them in different parts", where, (long long)keep, (long long)drop, c->name);
    for (PetscInt i = 0; i < c->n; i++)
      if (DRLabelNode(c->labels[i]) == drop) c->labels[i] = DRLabelMake(keep, DRLabelDir(c->labels[i]));
    for (PetscInt i = 0; i < c->ncells * DRCellNodes(c->celltype); i++)
      if (c->cells[i] == drop) c->cells[i] = (PetscInt)keep;
    for (PetscInt s = 0; s < c->nsets; s++) {
      for (PetscInt i = 0; i < c->sets[s].n; i++)
        if (c->sets[s].nodes[i] == drop) c->sets[s].nodes[i] = (PetscInt)keep;
      PetscCall(PetscSortRemoveDupsInt(&c->sets[s].n, c->sets[s].nodes));
    }
    for (PetscInt i = 0; i < c->nnodes; i++)
      if (c->node_ids[i] == drop) {
        c->node_ids[i] = (PetscInt)keep;
        /* keep node_ids sorted: bubble the renamed entry into place */
        for (PetscInt j = i; j > 0 && c->node_ids[j] < c->node_ids[j - 1]; j--) {
          PetscInt id = c->node_ids[j];
          c->node_ids[j] = c->node_ids[j - 1];
          c->node_ids[j - 1] = id;
          for (int d = 0; d < 3; d++) {
            PetscReal x = c->xyz[3 * j + d];
            c->xyz[3 * j + d] = c->xyz[3 * (j - 1) + d];
            c->xyz[3 * (j - 1) + d] = x;
          }
        }
        for (PetscInt j = i; j + 1 < c->nnodes && c->node_ids[j] > c->node_ids[j + 1]; j++) {
          PetscInt id = c->node_ids[j];
          c->node_ids[j] = c->node_ids[j + 1];
          c->node_ids[j + 1] = id;
          for (int d = 0; d < 3; d++) {
            PetscReal x = c->xyz[3 * j + d];
            c->xyz[3 * j + d] = c->xyz[3 * (j + 1) + d];
            c->xyz[3 * (j + 1) + d] = x;
          }
        }
        break;
      }
  }
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* model.frame2d: a planar frame given as flat lists (see the schema). */
static PetscErrorCode Frame2DFromConfig(DRConfig cfg, MPI_Comm comm, DRComponent *c)
{
  const PetscInt  cap = 3 * 100000;
  PetscReal      *v;
  PetscInt        n, nsec, nms;
  PetscReal       E, rho, *secs;
  DRFrame2DParams p;
  char            where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&p, sizeof(p)));
  PetscCall(PetscMalloc1(cap, &v));
  PetscCall(DRConfigGetReal(cfg, "model.frame2d.E", &E, NULL));
  PetscCall(DRConfigGetReal(cfg, "model.frame2d.rho", &rho, NULL));
  PetscCall(DRConfigGetBool(cfg, "model.frame2d.lumped", &p.lumped, NULL));
#define FLIST(key, mult, what)                                                                                                                                                 \
  do {                                                                                                                                                                         \
    n = cap;                                                                                                                                                                   \
    PetscCall(DRConfigGetRealArray(cfg, "model.frame2d." key, v, &n, NULL));                                                                                                   \
    PetscCall(DRConfigWhere(cfg, "model.frame2d." key, where, sizeof(where)));                                                                                                  \
    PetscCheck(n % (mult) == 0, comm, DR_ERR_INPUT, "%s: model.frame2d." key " has %" PetscInt_FMT " values, expected groups of %d (%s)", where, n, (int)(mult), what);        \
  } while (0)
#define IDCHECK(x) PetscCheck((x) == (PetscReal)(PetscInt)(x) && (x) >= 0, comm, DR_ERR_INPUT, "%s: %g is not a non-negative integer id", where, (double)(x))
  FLIST("nodes", 3, "id, x, y");
  p.nnodes = n / 3;
  PetscCheck(p.nnodes > 0, comm, DR_ERR_INPUT, "%s: model.frame2d.nodes is empty, expected [id, x, y, ...]", where);
  PetscCall(PetscMalloc2(p.nnodes, &p.node_ids, 2 * p.nnodes, &p.xy));
  for (PetscInt i = 0; i < p.nnodes; i++) {
    IDCHECK(v[3 * i]);
    p.node_ids[i]    = (PetscInt)v[3 * i];
    p.xy[2 * i]      = v[3 * i + 1];
    p.xy[2 * i + 1]  = v[3 * i + 2];
  }
  FLIST("members", 2, "node1, node2");
  p.nmembers = n / 2;
  PetscCall(PetscMalloc3(2 * p.nmembers + 1, &p.members, 2 * p.nmembers + 1, &p.hinge, p.nmembers + 1, &p.nel));
  for (PetscInt i = 0; i < 2 * p.nmembers; i++) {
    IDCHECK(v[i]);
    p.members[i] = (PetscInt)v[i];
    p.hinge[i]   = 0;
  }
  {
    PetscInt nel;
    PetscCall(DRConfigGetInt(cfg, "model.frame2d.nel", &nel, NULL));
    for (PetscInt m = 0; m < p.nmembers; m++) p.nel[m] = nel;
  }
  FLIST("sections", 2, "A, I");
  nsec = n / 2;
  PetscCheck(nsec > 0 || p.nmembers == 0, comm, DR_ERR_INPUT, "%s: model.frame2d.sections is empty, expected [A, I, ...]", where);
  PetscCall(PetscMalloc1(2 * nsec + 1, &secs));
  PetscCall(PetscArraycpy(secs, v, 2 * nsec));
  FLIST("member_section", 1, "section index");
  nms = n;
  PetscCheck(nms == 0 || nms == p.nmembers, comm, DR_ERR_INPUT, "%s: model.frame2d.member_section has %" PetscInt_FMT " entries for %" PetscInt_FMT " members, expected one per member", where, nms, p.nmembers);
  PetscCall(PetscCalloc1(p.nmembers + 1, &p.sec));
  p.nsec = p.nmembers;
  for (PetscInt m = 0; m < p.nmembers; m++) {
    PetscInt k = nms ? (PetscInt)v[m] : 1;
    PetscCheck(k >= 1 && k <= nsec && (!nms || v[m] == (PetscReal)k), comm, DR_ERR_INPUT, "%s: member %" PetscInt_FMT " has section %g, expected 1..%" PetscInt_FMT, where, m + 1, nms ? (double)v[m] : 1.0, nsec);
    p.sec[m].E   = E;
    p.sec[m].rho = rho;
    p.sec[m].A   = secs[2 * (k - 1)];
    p.sec[m].Iz  = secs[2 * (k - 1) + 1];
  }
  FLIST("hinges", 2, "member, end");
  for (PetscInt h = 0; h < n / 2; h++) {
    PetscInt m = (PetscInt)v[2 * h], e = (PetscInt)v[2 * h + 1];
    PetscCheck(m >= 1 && m <= p.nmembers && (e == 1 || e == 2) && v[2 * h] == m && v[2 * h + 1] == e, comm, DR_ERR_INPUT, "%s: hinge %" PetscInt_FMT " is (%g, %g), expected a member 1..%" PetscInt_FMT " and end 1 or 2", where, h + 1, (double)v[2 * h], (double)v[2 * h + 1], p.nmembers);
    p.hinge[2 * (m - 1) + e - 1] = 1;
  }
  FLIST("springs", 3, "node1, node2, k");
  p.nsprings = n / 3;
  PetscCall(PetscMalloc2(2 * p.nsprings + 1, &p.springs, p.nsprings + 1, &p.spring_k));
  for (PetscInt s = 0; s < p.nsprings; s++) {
    IDCHECK(v[3 * s]);
    IDCHECK(v[3 * s + 1]);
    p.springs[2 * s]     = (PetscInt)v[3 * s];
    p.springs[2 * s + 1] = (PetscInt)v[3 * s + 1];
    p.spring_k[s]        = v[3 * s + 2];
  }
  FLIST("fixed", 2, "node, dir");
  p.nfixed = n / 2;
  PetscCall(PetscMalloc1(p.nfixed + 1, &p.fixed));
  for (PetscInt i = 0; i < p.nfixed; i++) {
    IDCHECK(v[2 * i]);
    PetscCheck(v[2 * i + 1] == 1 || v[2 * i + 1] == 2 || v[2 * i + 1] == 6, comm, DR_ERR_INPUT, "%s: fixed DOF %" PetscInt_FMT " has direction %g, expected 1, 2 or 6", where, i + 1, (double)v[2 * i + 1]);
    p.fixed[i] = DRLabelMake((PetscInt)v[2 * i], (PetscInt)v[2 * i + 1]);
  }
#undef FLIST
#undef IDCHECK
  PetscCall(DRBuiltinFrame2D(comm, &p, c));
  PetscCall(PetscFree2(p.node_ids, p.xy));
  PetscCall(PetscFree3(p.members, p.hinge, p.nel));
  PetscCall(PetscFree(secs));
  PetscCall(PetscFree(p.sec));
  PetscCall(PetscFree2(p.springs, p.spring_k));
  PetscCall(PetscFree(p.fixed));
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelCreateComponent(DRConfig cfg, PetscInt k, MPI_Comm comm, DRComponent *c)
{
  char b[64], name[64];

  PetscFunctionBeginUser;
  PetscCall(GetBuiltin(cfg, b, sizeof(b)));
  PetscCall(DRModelGetComponentName(cfg, k, name, sizeof(name)));
  if (b[0]) {
    DRCut cut;
    PetscCall(GetCut(cfg, &cut));
    if (!strcmp(b, "plate") || !strcmp(b, "solid")) {
      DRSolidParams p;
      PetscCall(SolidParams(cfg, b, &p));
      PetscCall(DRBuiltinSolid(comm, &p, cut, k, c));
    } else if (!strcmp(b, "frame3d")) {
      DRFrame3DParams p;
      PetscCall(DRFrame3DParamsDefault(&p));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.lx", &p.lx, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.ly", &p.ly, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.lz", &p.lz, NULL));
      PetscCall(DRConfigGetInt(cfg, "model.frame3d.nx", &p.nx, NULL));
      PetscCall(DRConfigGetInt(cfg, "model.frame3d.ny", &p.ny, NULL));
      PetscCall(DRConfigGetInt(cfg, "model.frame3d.nz", &p.nz, NULL));
      PetscCall(DRConfigGetInt(cfg, "model.frame3d.nel", &p.nel, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.E", &p.sec.E, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.G", &p.sec.G, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.rho", &p.sec.rho, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.A", &p.sec.A, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.Iy", &p.sec.Iy, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.Iz", &p.sec.Iz, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.frame3d.J", &p.sec.J, NULL));
      PetscCall(DRConfigGetBool(cfg, "model.frame3d.lumped", &p.lumped, NULL));
      PetscCall(DRConfigGetString(cfg, "model.frame3d.clamp", p.clamp, sizeof(p.clamp), NULL));
      PetscCall(DRBuiltinFrame3D(comm, &p, cut, k, c));
    } else if (!strcmp(b, "frame2d")) {
      char where[PETSC_MAX_PATH_LEN + 32];
      PetscCall(DRConfigWhere(cfg, "model.cut.parts", where, sizeof(where)));
      PetscCheck(cut.parts == 1, comm, DR_ERR_INPUT, "%s: model.cut is not available for frame2d, expected parts: 1", where);
      PetscCall(Frame2DFromConfig(cfg, comm, c));
    } else if (!strcmp(b, "beam2d")) {
      DRBeamSection s;
      PetscReal     L;
      PetscInt      nel;
      PetscBool     lumped;
      char          where[PETSC_MAX_PATH_LEN + 32];
      PetscCall(PetscMemzero(&s, sizeof(s)));
      PetscCall(DRConfigGetReal(cfg, "model.beam2d.L", &L, NULL));
      PetscCall(DRConfigGetInt(cfg, "model.beam2d.nel", &nel, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.beam2d.E", &s.E, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.beam2d.rho", &s.rho, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.beam2d.A", &s.A, NULL));
      PetscCall(DRConfigGetReal(cfg, "model.beam2d.I", &s.Iz, NULL));
      PetscCall(DRConfigGetBool(cfg, "model.beam2d.lumped", &lumped, NULL));
      PetscCall(DRConfigWhere(cfg, "model.cut.parts", where, sizeof(where)));
      PetscCheck(cut.parts == 1, comm, DR_ERR_INPUT, "%s: model.cut is not available for beam2d, expected parts: 1", where);
      PetscCall(DRBuiltinCantilever2D(comm, L, nel, &s, lumped, c));
    } else {
      char where[PETSC_MAX_PATH_LEN + 32];
      PetscCall(DRConfigWhere(cfg, "model.builtin", where, sizeof(where)));
      SETERRQ(comm, DR_ERR_INPUT, "%s: model.builtin = '%s', expected plate, solid, frame3d, frame2d or beam2d", where, b);
    }
    PetscCall(PetscStrncpy((*c)->name, name, sizeof((*c)->name)));
  } else {
    char key[80], fmt[32], path[PETSC_MAX_PATH_LEN], rp[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32];
    PetscBool eq;
#define GETS(field, buf)                                                                      \
  do {                                                                                        \
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "]." field, k));    \
    PetscCall(DRConfigGetString(cfg, key, buf, sizeof(buf), NULL));                           \
  } while (0)
    GETS("format", fmt);
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].format", k));
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCall(PetscStrcmp(fmt, "mtx", &eq));
    if (eq) {
      char K[PETSC_MAX_PATH_LEN], M[PETSC_MAX_PATH_LEN], D[PETSC_MAX_PATH_LEN], dofs[PETSC_MAX_PATH_LEN];
      char rK[PETSC_MAX_PATH_LEN], rM[PETSC_MAX_PATH_LEN], rD[PETSC_MAX_PATH_LEN], rdofs[PETSC_MAX_PATH_LEN];
      GETS("K", K);
      GETS("M", M);
      GETS("D", D);
      GETS("dofs", dofs);
      PetscCheck(K[0] && M[0] && dofs[0], comm, DR_ERR_INPUT, "%s: component '%s' (format mtx) needs K, M and dofs files", where, name);
      PetscCall(Resolve(cfg, K, rK, sizeof(rK)));
      PetscCall(Resolve(cfg, M, rM, sizeof(rM)));
      PetscCall(Resolve(cfg, D, rD, sizeof(rD)));
      PetscCall(Resolve(cfg, dofs, rdofs, sizeof(rdofs)));
      PetscCall(DRComponentReadMTX(comm, name, rK, rM, D[0] ? rD : NULL, rdofs, c));
    } else {
      GETS("path", path);
      PetscCheck(path[0], comm, DR_ERR_INPUT, "%s: component '%s' (format %s) needs a path", where, name, fmt);
      PetscCall(Resolve(cfg, path, rp, sizeof(rp)));
      if (!strcmp(fmt, "calculix")) PetscCall(DRComponentReadCalculiX(comm, name, rp, c));
      else if (!strcmp(fmt, "petsc")) PetscCall(DRComponentReadPETSc(comm, name, rp, c));
      else if (!strcmp(fmt, "hdf5")) PetscCall(DRComponentReadHDF5(comm, name, rp, c));
      else SETERRQ(comm, DR_ERR_INPUT, "%s: format '%s', expected calculix, mtx, petsc or hdf5", where, fmt);
    }
#undef GETS
  }
  PetscCall(ApplyTies(cfg, *c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelCreateFull(DRConfig cfg, MPI_Comm comm, DRComponent *full)
{
  PetscInt     n;
  DRComponent *comps;
  char         b[64];

  PetscFunctionBeginUser;
  PetscCall(DRModelGetComponentCount(cfg, &n));
  if (n == 1) {
    PetscCall(DRModelCreateComponent(cfg, 0, comm, full));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(n, &comps));
  for (PetscInt k = 0; k < n; k++) PetscCall(DRModelCreateComponent(cfg, k, comm, &comps[k]));
  PetscCall(GetBuiltin(cfg, b, sizeof(b)));
  PetscCall(DRComponentAssemble(comm, b[0] ? b : "assembly", n, comps, full));
  for (PetscInt k = 0; k < n; k++) PetscCall(DRComponentDestroy(&comps[k]));
  PetscCall(PetscFree(comps));
  PetscFunctionReturn(PETSC_SUCCESS);
}
