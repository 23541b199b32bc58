/* dynred ss: the DRSS object (the modal state-space model), its package
 * (log events, integrator registry) and the matrices A..D. */
#include "ssimpl.h"
#include <math.h>
#include <string.h>

PetscClassId         DR_SS_CLASSID;
PetscLogEvent        DR_SS_SourceRead, DR_SS_ModalBasis, DR_SS_Build, DR_SS_Simulate, DR_SS_Write;
static PetscBool     ss_pkg = PETSC_FALSE;
static PetscFunctionList ss_integrators = NULL;
static struct {
  char     name[32];
  PetscInt order;
} ss_orders[64];
static PetscInt ss_norders = 0;

static PetscErrorCode DRSSFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&ss_integrators));
  ss_norders = 0;
  ss_pkg     = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSRegister(const char name[], PetscInt order, DRSSIntegrator fn)
{
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(DRSSInitializePackage());
  PetscCall(PetscFunctionListAdd(&ss_integrators, name, fn));
  for (i = 0; i < ss_norders; i++)
    if (!strcmp(ss_orders[i].name, name)) break;
  if (i == ss_norders) {
    PetscCheck(ss_norders < (PetscInt)(sizeof(ss_orders) / sizeof(ss_orders[0])), PETSC_COMM_SELF, PETSC_ERR_SUP, "DRSSRegister: too many integrators");
    PetscCall(PetscStrncpy(ss_orders[i].name, name, sizeof(ss_orders[i].name)));
    ss_norders++;
  }
  ss_orders[i].order = order;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSInitializePackage(void)
{
  static const struct {
    const char    *name;
    PetscInt       order;
    DRSSIntegrator fn;
  } builtin[] = {
    {"exact", 0, DRSSIntegrate_Exact}, {"zoh", 1, DRSSIntegrate_ZOH}, {"newmark", 2, DRSSIntegrate_Newmark}, {"central", 2, DRSSIntegrate_Central}, {"rk3bs", 3, DRSSIntegrate_TS}, {"rk4", 4, DRSSIntegrate_TS}, {"rk5dp", 5, DRSSIntegrate_TS}, {"rk8vr", 8, DRSSIntegrate_TS}, {"beuler", 1, DRSSIntegrate_TS}, {"cn", 2, DRSSIntegrate_TS}, {"theta", 2, DRSSIntegrate_TS}, {"alpha2", 2, DRSSIntegrate_Alpha2},
  };
  PetscBool active;

  PetscFunctionBegin;
  if (ss_pkg) PetscFunctionReturn(PETSC_SUCCESS);
  ss_pkg = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR SS", &DR_SS_CLASSID));
  PetscCall(PetscLogEventRegister("DRSSSourceRead", DR_SS_CLASSID, &DR_SS_SourceRead));
  PetscCall(PetscLogEventRegister("DRSSModalBasis", DR_SS_CLASSID, &DR_SS_ModalBasis));
  PetscCall(PetscLogEventRegister("DRSSBuild", DR_SS_CLASSID, &DR_SS_Build));
  PetscCall(PetscLogEventRegister("DRSSSimulate", DR_SS_CLASSID, &DR_SS_Simulate));
  PetscCall(PetscLogEventRegister("DRSSWrite", DR_SS_CLASSID, &DR_SS_Write));
  /* wall times (/timing, wall_s of each method) are read from the events */
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscRegisterFinalize(DRSSFinalizePackage));
  for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) PetscCall(DRSSRegister(builtin[i].name, builtin[i].order, builtin[i].fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSEventSeconds(PetscLogEvent e, PetscLogDouble *s)
{
  PetscEventPerfInfo info;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&info, sizeof(info)));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, e, &info));
  *s = info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSMethodOrder(const char *method, PetscInt *order, PetscBool *known)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  *known = PETSC_FALSE;
  for (PetscInt i = 0; i < ss_norders; i++)
    if (!strcmp(method, ss_orders[i].name)) {
      *known = PETSC_TRUE;
      if (order) *order = ss_orders[i].order;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegratorNames(char buf[], size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(DRRegistryNames(ss_integrators, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integrator registered as `method`; unknown: an input error naming the
 * known ones. */
PetscErrorCode DRSSFindIntegrator(const char *method, const char *where, DRSSIntegrator *fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(DRRegistryFind(PETSC_COMM_WORLD, ss_integrators, "integration method", method, where, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSCreate(MPI_Comm comm, DRSS *ss)
{
  DRSS s;

  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(PetscNew(&s));
  s->comm     = comm;
  s->rigid_hz = 1e-3;
  s->h        = 1e-4;
  s->repeat   = 1;
  PetscCall(PetscStrncpy(s->dtype, "none", sizeof(s->dtype)));
  *ss = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ClearModel(DRSS s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(s->omega, s->c, s->rigid));
  PetscCall(PetscFree2(s->Bm, s->Cm));
  PetscCall(PetscFree(s->in));
  PetscCall(PetscFree(s->out));
  s->m = s->nin = s->nout = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetModes(DRSS s, PetscInt m, const PetscReal omega[], PetscReal omega_rigid, PetscInt nin, const PetscReal Bm[], PetscInt nout, const PetscReal Cm[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_SS_Build, 0, 0, 0, 0));
  PetscCall(ClearModel(s));
  s->m    = m;
  s->nin  = nin;
  s->nout = nout;
  PetscCall(PetscCalloc3(m, &s->omega, m, &s->c, m, &s->rigid));
  PetscCall(PetscMalloc2(m * nin, &s->Bm, nout * m, &s->Cm));
  for (PetscInt k = 0; k < m; k++) {
    s->rigid[k] = (PetscBool)(omega[k] < omega_rigid);
    s->omega[k] = s->rigid[k] ? 0.0 : omega[k];
  }
  PetscCall(PetscArraycpy(s->Bm, Bm, m * nin));
  PetscCall(PetscArraycpy(s->Cm, Cm, nout * m));
  PetscCall(PetscLogEventEnd(DR_SS_Build, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSDestroy(DRSS *ss)
{
  DRSS s;

  PetscFunctionBeginUser;
  if (!*ss) PetscFunctionReturn(PETSC_SUCCESS);
  s = *ss;
  PetscCall(ClearModel(s));
  PetscCall(PetscFree(s->zeta));
  PetscCall(PetscFree(s->opt_in));
  PetscCall(PetscFree(s->opt_out));
  if (s->have_src) PetscCall(DRSSSourceDestroy(&s->src));
  PetscCall(DRSignalDestroy(&s->sig));
  for (PetscInt i = 0; i < s->nrun; i++) PetscCall(PetscFree(s->run[i].Y));
  PetscCall(PetscFree(*ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSGetSizes(DRSS ss, PetscInt *m, PetscInt *nin, PetscInt *nout)
{
  PetscFunctionBeginUser;
  if (m) *m = ss->m;
  if (nin) *nin = ss->nin;
  if (nout) *nout = ss->nout;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSGetModal(DRSS ss, const PetscReal **omega, const PetscReal **c, const PetscBool **rigid)
{
  PetscFunctionBeginUser;
  if (omega) *omega = ss->omega;
  if (c) *c = ss->c;
  if (rigid) *rigid = ss->rigid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSGetMaps(DRSS ss, const PetscReal **Bm, const PetscReal **Cm)
{
  PetscFunctionBeginUser;
  if (Bm) *Bm = ss->Bm;
  if (Cm) *Cm = ss->Cm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetLabels(DRSS ss, const DRLabel in[], const DRLabel out[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ss->in));
  PetscCall(PetscFree(ss->out));
  PetscCall(PetscMalloc1(ss->nin, &ss->in));
  PetscCall(PetscMalloc1(ss->nout, &ss->out));
  PetscCall(PetscArraycpy(ss->in, in, ss->nin));
  PetscCall(PetscArraycpy(ss->out, out, ss->nout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetDamping(DRSS ss, DRSSDamping type, PetscInt nzeta, const PetscReal zeta[], PetscReal alpha, PetscReal beta, const char *what)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ss->m; k++) ss->c[k] = 0;
  switch (type) {
  case DR_SS_DAMP_NONE:
    break;
  case DR_SS_DAMP_MODAL:
    PetscCheck(nzeta == 1 || nzeta == ss->m, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %" PetscInt_FMT " modal damping ratios for %" PetscInt_FMT " modes; expected one value or one per mode", what, nzeta, ss->m);
    for (PetscInt k = 0; k < ss->m; k++) {
      PetscReal z = zeta[nzeta == 1 ? 0 : k];
      PetscCheck(isfinite(z) && z >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: damping ratio %g of mode %" PetscInt_FMT " is impossible; expected a finite zeta >= 0", what, (double)z, k + 1);
      ss->c[k] = ss->rigid[k] ? 0 : 2 * z * ss->omega[k];
    }
    break;
  case DR_SS_DAMP_RAYLEIGH:
    PetscCheck(isfinite(alpha) && isfinite(beta) && alpha >= 0 && beta >= 0 && (alpha > 0 || beta > 0), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: Rayleigh damping alpha = %g, beta = %g is impossible; expected alpha >= 0, beta >= 0, not both 0", what, (double)alpha, (double)beta);
    for (PetscInt k = 0; k < ss->m; k++) ss->c[k] = ss->rigid[k] ? 0 : alpha + beta * ss->omega[k] * ss->omega[k];
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSGetMatrices(DRSS ss, PetscReal **A, PetscReal **B, PetscReal **C, PetscReal **D)
{
  PetscInt m = ss->m, n2 = 2 * m, ni = ss->nin, no2 = 2 * ss->nout;

  PetscFunctionBeginUser;
  if (A) {
    PetscCall(PetscCalloc1(n2 * n2, A));
    for (PetscInt k = 0; k < m; k++) {
      (*A)[(2 * k) * n2 + 2 * k + 1]     = 1;
      (*A)[(2 * k + 1) * n2 + 2 * k]     = -ss->omega[k] * ss->omega[k];
      (*A)[(2 * k + 1) * n2 + 2 * k + 1] = -ss->c[k];
    }
  }
  if (B) {
    PetscCall(PetscCalloc1(n2 * ni, B));
    for (PetscInt k = 0; k < m; k++)
      for (PetscInt j = 0; j < ni; j++) (*B)[(2 * k + 1) * ni + j] = ss->Bm[k * ni + j];
  }
  if (C) {
    PetscCall(PetscCalloc1(no2 * n2, C));
    for (PetscInt i = 0; i < ss->nout; i++)
      for (PetscInt k = 0; k < m; k++) {
        (*C)[(2 * i) * n2 + 2 * k]         = ss->Cm[i * m + k];
        (*C)[(2 * i + 1) * n2 + 2 * k + 1] = ss->Cm[i * m + k];
      }
  }
  if (D) PetscCall(PetscCalloc1(PetscMax(no2 * ni, 1), D));
  PetscFunctionReturn(PETSC_SUCCESS);
}
