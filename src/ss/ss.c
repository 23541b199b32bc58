/* dynred ss: the DRSS object (the modal state-space model) and the
 * matrices A..D (the package: package.c; the integrators: registry.c). */
#include "ssimpl.h"
#include <math.h>

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
      /* c^2 and h c must stay finite in the integrators (1e150: c^2 below 1e300) */
      PetscCheck(ss->c[k] <= 1e150, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: damping ratio %g of mode %" PetscInt_FMT " (omega %g rad/s) gives the damping 2 zeta omega = %g 1/s; expected at most 1e150", what, (double)z, k + 1, (double)ss->omega[k], (double)ss->c[k]);
    }
    break;
  case DR_SS_DAMP_RAYLEIGH:
    PetscCheck(isfinite(alpha) && isfinite(beta) && alpha >= 0 && beta >= 0 && (alpha > 0 || beta > 0), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: Rayleigh damping alpha = %g, beta = %g is impossible; expected alpha >= 0, beta >= 0, not both 0", what, (double)alpha, (double)beta);
    for (PetscInt k = 0; k < ss->m; k++) {
      ss->c[k] = ss->rigid[k] ? 0 : alpha + beta * ss->omega[k] * ss->omega[k];
      PetscCheck(ss->c[k] <= 1e150, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: Rayleigh damping alpha = %g, beta = %g gives mode %" PetscInt_FMT " (omega %g rad/s) the damping %g 1/s; expected at most 1e150", what, (double)alpha, (double)beta, k + 1, (double)ss->omega[k], (double)ss->c[k]);
    }
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
