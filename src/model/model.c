/* Model construction from the job file: the model's keys, the component
 * list, built-in generators or files through the registries of
 * model_builtin.c and model_read.c, node ties. */
#include "model_impl.h"
#include <dynred/preflight.h>
#include <string.h>

static const DRConfigKey model_keys[] = {
  {"model.units", DR_CFG_STRING, "SI", "unit system FORCE-LENGTH-TIME-MASS of every model quantity, consistent (1 FORCE = 1 MASS LENGTH/TIME^2): SI = N-m-s-kg, N-mm-s-t, N-mm-ms-g, kN-mm-ms-kg, ...; stored in every result file; ga, ss and hybrid write frequencies and times in Hz and s (modal, cms: per model time unit)", NULL, NULL, NULL},
  {"model.builtin", DR_CFG_STRING, "", "built-in model: plate | solid | frame3d | frame2d | beam2d (empty: use components)", NULL, NULL, NULL},
  {"model.plate.lx", DR_CFG_REAL, "1.0", "plate length along x [m]", "(0..", "m", NULL},
  {"model.plate.ly", DR_CFG_REAL, "0.5", "plate width along y [m]", "(0..", "m", NULL},
  {"model.plate.lz", DR_CFG_REAL, "0.02", "plate thickness along z [m]", "(0..", "m", NULL},
  {"model.plate.nx", DR_CFG_INT, "40", "hex8 elements along x", "1..", NULL, NULL},
  {"model.plate.ny", DR_CFG_INT, "20", "hex8 elements along y", "1..", NULL, NULL},
  {"model.plate.nz", DR_CFG_INT, "2", "hex8 elements along z", "1..", NULL, NULL},
  {"model.plate.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", "(0..", "Pa", NULL},
  {"model.plate.nu", DR_CFG_REAL, "0.3", "Poisson's ratio", "(-1..0.5)", NULL, NULL},
  {"model.plate.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", "(0..", "kg/m^3", NULL},
  {"model.plate.clamp", DR_CFG_STRING, "x0", "clamped faces: none or a comma list of x0,x1,y0,y1,z0,z1", NULL, NULL, NULL},
  {"model.solid.lx", DR_CFG_REAL, "1.0", "block length along x [m]", "(0..", "m", NULL},
  {"model.solid.ly", DR_CFG_REAL, "1.0", "block length along y [m]", "(0..", "m", NULL},
  {"model.solid.lz", DR_CFG_REAL, "1.0", "block length along z [m]", "(0..", "m", NULL},
  {"model.solid.x0", DR_CFG_REAL, "0", "block origin x [m]", NULL, "m", NULL},
  {"model.solid.y0", DR_CFG_REAL, "0", "block origin y [m]", NULL, "m", NULL},
  {"model.solid.z0", DR_CFG_REAL, "0", "block origin z [m]", NULL, "m", NULL},
  {"model.solid.nx", DR_CFG_INT, "8", "hex8 elements along x", "1..", NULL, NULL},
  {"model.solid.ny", DR_CFG_INT, "8", "hex8 elements along y", "1..", NULL, NULL},
  {"model.solid.nz", DR_CFG_INT, "8", "hex8 elements along z", "1..", NULL, NULL},
  {"model.solid.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", "(0..", "Pa", NULL},
  {"model.solid.nu", DR_CFG_REAL, "0.3", "Poisson's ratio", "(-1..0.5)", NULL, NULL},
  {"model.solid.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", "(0..", "kg/m^3", NULL},
  {"model.solid.clamp", DR_CFG_STRING, "none", "clamped faces: none or a comma list of x0,x1,y0,y1,z0,z1", NULL, NULL, NULL},
  {"model.frame3d.lx", DR_CFG_REAL, "1.0", "frame extent along x [m]", "0..", "m", NULL},
  {"model.frame3d.ly", DR_CFG_REAL, "0", "frame extent along y [m]", "0..", "m", NULL},
  {"model.frame3d.lz", DR_CFG_REAL, "0", "frame extent along z [m]", "0..", "m", NULL},
  {"model.frame3d.nx", DR_CFG_INT, "1", "bays along x", "0..", NULL, NULL},
  {"model.frame3d.ny", DR_CFG_INT, "0", "bays along y", "0..", NULL, NULL},
  {"model.frame3d.nz", DR_CFG_INT, "0", "bays along z", "0..", NULL, NULL},
  {"model.frame3d.nel", DR_CFG_INT, "20", "beam elements per member", "1..", NULL, NULL},
  {"model.frame3d.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", "(0..", "Pa", NULL},
  {"model.frame3d.G", DR_CFG_REAL, "80.77e9", "shear modulus [Pa]", "(0..", "Pa", NULL},
  {"model.frame3d.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", "(0..", "kg/m^3", NULL},
  {"model.frame3d.A", DR_CFG_REAL, "1e-4", "cross-section area [m^2]", "(0..", "m^2", NULL},
  {"model.frame3d.Iy", DR_CFG_REAL, "8.333e-10", "second moment of area about local y [m^4]", "(0..", "m^4", NULL},
  {"model.frame3d.Iz", DR_CFG_REAL, "8.333e-10", "second moment of area about local z [m^4]", "(0..", "m^4", NULL},
  {"model.frame3d.J", DR_CFG_REAL, "1.406e-9", "torsion constant [m^4]", "(0..", "m^4", NULL},
  {"model.frame3d.lumped", DR_CFG_BOOL, "false", "lumped instead of consistent mass", NULL, NULL, NULL},
  {"model.frame3d.clamp", DR_CFG_STRING, "x0", "clamped faces: none or a comma list of x0,x1,y0,y1,z0,z1", NULL, NULL, NULL},
  {"model.beam2d.L", DR_CFG_REAL, "1.0", "planar cantilever length [m]", "(0..", "m", NULL},
  {"model.beam2d.nel", DR_CFG_INT, "20", "beam elements", "1..", NULL, NULL},
  {"model.beam2d.E", DR_CFG_REAL, "210e9", "Young's modulus [Pa]", "(0..", "Pa", NULL},
  {"model.beam2d.rho", DR_CFG_REAL, "7850", "density [kg/m^3]", "(0..", "kg/m^3", NULL},
  {"model.beam2d.A", DR_CFG_REAL, "1e-4", "cross-section area [m^2]", "(0..", "m^2", NULL},
  {"model.beam2d.I", DR_CFG_REAL, "8.333e-10", "second moment of area [m^4]", "(0..", "m^4", NULL},
  {"model.beam2d.lumped", DR_CFG_BOOL, "false", "lumped instead of consistent mass", NULL, NULL, NULL},
  {"model.frame2d.nodes", DR_CFG_LIST, "", "planar frame nodes [id, x, y, id, x, y, ...]", NULL, NULL, NULL},
  {"model.frame2d.members", DR_CFG_LIST, "", "planar frame members [node1, node2, ...] (pairs)", NULL, NULL, NULL},
  {"model.frame2d.sections", DR_CFG_LIST, "", "cross-sections [A, I, A, I, ...]: area, second moment of area", NULL, NULL, NULL},
  {"model.frame2d.member_section", DR_CFG_LIST, "", "section of each member (1-based index into sections); empty: section 1 for all", NULL, NULL, NULL},
  {"model.frame2d.E", DR_CFG_REAL, "210e9", "Young's modulus", "(0..", "Pa", NULL},
  {"model.frame2d.rho", DR_CFG_REAL, "7850", "density", "(0..", "kg/m^3", NULL},
  {"model.frame2d.nel", DR_CFG_INT, "1", "beam elements per member", "1..", NULL, NULL},
  {"model.frame2d.lumped", DR_CFG_BOOL, "true", "lumped instead of consistent mass", NULL, NULL, NULL},
  {"model.frame2d.hinges", DR_CFG_LIST, "", "released member-end rotations [member, end, ...] (1-based member, end 1 or 2)", NULL, NULL, NULL},
  {"model.frame2d.springs", DR_CFG_LIST, "", "axial springs [node1, node2, k, ...] acting along the line joining the nodes", NULL, NULL, NULL},
  {"model.frame2d.fixed", DR_CFG_LIST, "", "fixed DOFs [node, dir, ...] with dir 1 (x), 2 (y) or 6 (rotation)", NULL, NULL, NULL},
  {"model.ties", DR_CFG_LIST, "", "node ties [keep1, drop1, keep2, drop2, ...]: node drop is node keep (parts numbering shared nodes differently)", NULL, NULL, NULL},
  {"model.cut.axis", DR_CFG_STRING, "x", "axis of the cut planes: x, y or z", "x|y|z", NULL, NULL},
  {"model.cut.parts", DR_CFG_INT, "1", "number of parts (components) a built-in model is cut into", "1..", NULL, NULL},
  {"components[].name", DR_CFG_STRING, NULL, "component name", NULL, NULL, NULL},
  {"components[].format", DR_CFG_STRING, "mtx", "file format: calculix | mtx | petsc | hdf5 | op4 | abaqus | ansys | dmig (registered readers)", NULL, NULL, NULL},
  {"components[].path", DR_CFG_STRING, "", "calculix: job path without extension; petsc, hdf5, op4: file", NULL, NULL, NULL},
  {"components[].K", DR_CFG_STRING, "", "mtx, abaqus, ansys: stiffness matrix file", NULL, NULL, NULL},
  {"components[].M", DR_CFG_STRING, "", "mtx, abaqus, ansys: mass matrix file", NULL, NULL, NULL},
  {"components[].D", DR_CFG_STRING, "", "mtx, abaqus, ansys: damping matrix file (optional)", NULL, NULL, NULL},
  {"components[].dofs", DR_CFG_STRING, "", "mtx, op4, abaqus: DOF label file (node.direction per row; abaqus: optional for FORMAT=MATRIX INPUT); ansys: the HBMAT mapping file", NULL, NULL, NULL},
  {"components[].k_name", DR_CFG_STRING, "KAAX", "format dmig (path: the Nastran bulk data or punch file): DMIG name of the stiffness matrix", NULL, NULL, NULL},
  {"components[].m_name", DR_CFG_STRING, "MAAX", "dmig: DMIG name of the mass matrix", NULL, NULL, NULL},
  {"components[].d_name", DR_CFG_STRING, "BAAX", "dmig: DMIG name of the damping matrix (read when present; required when set)", NULL, NULL, NULL},
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
    for (PetscInt k = 1; k < *n; k++) { /* names are keys (results, checkpoints, labels' owners) */
      char ni[64], nj[64], key[64], where[PETSC_MAX_PATH_LEN + 32];
      PetscCall(DRModelGetComponentName(cfg, k, ni, sizeof(ni)));
      for (PetscInt j = 0; j < k; j++) {
        PetscBool same;
        PetscCall(DRModelGetComponentName(cfg, j, nj, sizeof(nj)));
        PetscCall(PetscStrcmp(ni, nj, &same));
        if (!same) continue;
        PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].name", k));
        PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
        SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: component %" PetscInt_FMT " is named '%s' like component %" PetscInt_FMT ", expected a unique name per component", where, k + 1, ni, j + 1);
      }
    }
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
      if (DRLabelNode(c->labels[i]) == drop) c->labels[i] = DRLabelWithCopy(DRLabelMake(keep, DRLabelDir(c->labels[i])), DRLabelCopy(c->labels[i]));
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

/* A built-in model's builder names the model ("builtin:frame2d: K has a
 * non-finite value ...": a stiffness overflowing from finite keys); its
 * input errors are raised again naming the job file's model.builtin line.
 * Messages that already name the job file (the key checks) pass unchanged. */
static PetscErrorCode CreateBuiltinAt(DRConfig cfg, const char *b, DRBuiltinCreateFn create, DRCut cut, PetscInt k, MPI_Comm comm, DRComponent *c)
{
  PetscErrorCode ierr;
  char          *msg = NULL, where[PETSC_MAX_PATH_LEN + 32], agreed[2048];
  const char    *origin, *m;
  size_t         lo;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = (*create)(cfg, b, cut, k, comm, c);
  PetscCall(PetscPopErrorHandler());
  /* the lowest failing rank's message and code reach every rank, which
   * raise it together (a check that failed on the ranks owning an element
   * only is agreed by builtin_assemble.c before its collectives) */
  if (ierr) PetscCall(PetscErrorMessage(ierr, NULL, &msg));
  PetscCall(DRErrorAgreeMessage(comm, ierr, ierr ? (msg ? msg : "failed") : NULL, agreed, sizeof(agreed), &ierr));
  if (!ierr) PetscFunctionReturn(PETSC_SUCCESS);
  m = agreed;
  PetscCall(DRConfigGetOrigin(cfg, &origin));
  PetscCall(PetscStrlen(origin, &lo));
  if (ierr != DR_ERR_INPUT || !strncmp(m, origin, lo) || !strncmp(m, "command line ", 13)) SETERRQ(comm, ierr, "%s", m);
  PetscCall(DRConfigWhere(cfg, "model.builtin", where, sizeof(where)));
  SETERRQ(comm, ierr, "%s: model.builtin = %s: %s", where, b, m);
}

PetscErrorCode DRModelCreateComponent(DRConfig cfg, PetscInt k, MPI_Comm comm, DRComponent *c)
{
  char b[64], name[64], where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(GetBuiltin(cfg, b, sizeof(b)));
  PetscCall(DRModelGetComponentName(cfg, k, name, sizeof(name)));
  if (b[0]) {
    DRBuiltinCreateFn create = NULL;
    DRCut             cut;
    PetscCall(GetCut(cfg, &cut));
    PetscCall(DRBuiltinRegisterAll());
    PetscCall(PetscFunctionListFind(DRBuiltinList, b, &create));
    if (!create) {
      char known[512];
      PetscCall(DRRegistryNames(DRBuiltinList, known, sizeof(known)));
      PetscCall(DRConfigWhere(cfg, "model.builtin", where, sizeof(where)));
      SETERRQ(comm, DR_ERR_INPUT, "%s: model.builtin = '%s', expected %s", where, b, known);
    }
    PetscCall(CreateBuiltinAt(cfg, b, create, cut, k, comm, c));
    PetscCall(DRComponentSetName(*c, name));
  } else {
    DRReaderCreateFn read;
    char             key[80], fmt[32];
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].format", k));
    PetscCall(DRConfigGetString(cfg, key, fmt, sizeof(fmt), NULL));
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCall(DRReaderRegisterAll());
    PetscCall(DRRegistryFind(comm, DRReaderList, "format", fmt, where, &read));
    PetscCall((*read)(cfg, k, name, comm, c));
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
