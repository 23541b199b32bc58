/* Built-in models from the job keys model.NAME.*: the registry of
 * `model.builtin` names. */
#include "model_impl.h"
#include "builtin_impl.h"
#include <string.h>

PetscFunctionList DRBuiltinList = NULL;
static PetscBool  DRBuiltinRegistered = PETSC_FALSE;

static PetscErrorCode DRBuiltinRegistryDestroy(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListDestroy(&DRBuiltinList));
  DRBuiltinRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinRegister(const char name[], DRBuiltinCreateFn fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRBuiltinRegisterAll());
  PetscCall(PetscFunctionListAdd(&DRBuiltinList, name, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The clamp key's faces, checked where the key is known (the builder's own
 * check names only the model). */
static PetscErrorCode CheckClamp(DRConfig cfg, const char *key, const char *clamp)
{
  char      where[PETSC_MAX_PATH_LEN + 96];
  PetscBool faces[6];
  size_t    l;

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhereValue(cfg, key, where, sizeof(where)));
  PetscCall(PetscStrlen(where, &l));
  PetscCall(PetscSNPrintf(where + l, sizeof(where) - l, ": %s", key));
  PetscCall(DRBuiltinParseClamp(PETSC_COMM_WORLD, where, clamp, faces));
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
  PetscCall(CheckClamp(cfg, key, p->clamp));
  {
    char where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s", sect));
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCheck(p->nx > 0 && p->ny > 0 && p->nz > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.%s: element counts nx, ny, nz must be positive", where, sect);
    PetscCheck(p->lx > 0 && p->ly > 0 && p->lz > 0 && p->E > 0 && p->rho > 0 && p->nu > -1 && p->nu < 0.5, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.%s: expected positive lengths, E and rho, and -1 < nu < 0.5", where, sect);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* model.plate and model.solid: a box of hex8 elements. */
static PetscErrorCode CreateSolid(DRConfig cfg, const char *name, DRCut cut, PetscInt part, MPI_Comm comm, DRComponent *c)
{
  DRSolidParams p;

  PetscFunctionBeginUser;
  PetscCall(SolidParams(cfg, name, &p));
  PetscCall(DRBuiltinSolid(comm, &p, cut, part, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* model.frame3d: a space frame of 3D beams. */
static PetscErrorCode CreateFrame3D(DRConfig cfg, const char *name, DRCut cut, PetscInt part, MPI_Comm comm, DRComponent *c)
{
  DRFrame3DParams p;

  PetscFunctionBeginUser;
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
  PetscCall(CheckClamp(cfg, "model.frame3d.clamp", p.clamp));
  PetscCall(DRBuiltinFrame3D(comm, &p, cut, part, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* frame2d and beam2d cannot be cut. */
static PetscErrorCode CheckUncut(DRConfig cfg, const char *name, DRCut cut, MPI_Comm comm)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(cfg, "model.cut.parts", where, sizeof(where)));
  PetscCheck(cut.parts == 1, comm, DR_ERR_INPUT, "%s: model.cut is not available for %s, expected parts: 1", where, name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* model.frame2d: a planar frame given as flat lists (see the schema). */
static PetscErrorCode CreateFrame2D(DRConfig cfg, const char *name, DRCut cut, PetscInt part, MPI_Comm comm, DRComponent *c)
{
  const PetscInt  cap = 3 * 100000;
  PetscReal      *v;
  PetscInt        n, nsec, nms;
  PetscReal       E, rho, *secs;
  DRFrame2DParams p;
  char            where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(CheckUncut(cfg, name, cut, comm));
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

/* model.beam2d: the planar cantilever of the convergence test. */
static PetscErrorCode CreateBeam2D(DRConfig cfg, const char *name, DRCut cut, PetscInt part, MPI_Comm comm, DRComponent *c)
{
  DRBeamSection s;
  PetscReal     L;
  PetscInt      nel;
  PetscBool     lumped;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&s, sizeof(s)));
  PetscCall(DRConfigGetReal(cfg, "model.beam2d.L", &L, NULL));
  PetscCall(DRConfigGetInt(cfg, "model.beam2d.nel", &nel, NULL));
  PetscCall(DRConfigGetReal(cfg, "model.beam2d.E", &s.E, NULL));
  PetscCall(DRConfigGetReal(cfg, "model.beam2d.rho", &s.rho, NULL));
  PetscCall(DRConfigGetReal(cfg, "model.beam2d.A", &s.A, NULL));
  PetscCall(DRConfigGetReal(cfg, "model.beam2d.I", &s.Iz, NULL));
  PetscCall(DRConfigGetBool(cfg, "model.beam2d.lumped", &lumped, NULL));
  PetscCall(CheckUncut(cfg, name, cut, comm));
  PetscCall(DRBuiltinCantilever2D(comm, L, nel, &s, lumped, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Registration order is the order of the "expected ..." list. */
PetscErrorCode DRBuiltinRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DRBuiltinRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  DRBuiltinRegistered = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(DRBuiltinRegistryDestroy));
  PetscCall(PetscFunctionListAdd(&DRBuiltinList, "plate", CreateSolid));
  PetscCall(PetscFunctionListAdd(&DRBuiltinList, "solid", CreateSolid));
  PetscCall(PetscFunctionListAdd(&DRBuiltinList, "frame3d", CreateFrame3D));
  PetscCall(PetscFunctionListAdd(&DRBuiltinList, "frame2d", CreateFrame2D));
  PetscCall(PetscFunctionListAdd(&DRBuiltinList, "beam2d", CreateBeam2D));
  PetscFunctionReturn(PETSC_SUCCESS);
}
