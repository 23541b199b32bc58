/* The modal solver's settings and results (the solve: modal.c). */
#include <dynred/modal.h>
#include "modalimpl.h"

PetscErrorCode DRModalSetOptionsPrefix(DRModal m, const char *prefix)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(m->prefix, prefix ? prefix : "", sizeof(m->prefix)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetOperators(DRModal m, Mat K, Mat M, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(PetscObjectReference((PetscObject)K));
  PetscCall(PetscObjectReference((PetscObject)M));
  PetscCall(MatDestroy(&m->K));
  PetscCall(MatDestroy(&m->M));
  m->K = K;
  m->M = M;
  if (what) PetscCall(PetscStrncpy(m->what, what, sizeof(m->what)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetRange(DRModal m, PetscInt nmodes, PetscReal fmax)
{
  PetscFunctionBeginUser;
  PetscCheck(nmodes > 0 || fmax > 0, m->comm, DR_ERR_INPUT, "%s: modal range: expected nmodes > 0 or fmax > 0 (got nmodes %" PetscInt_FMT ", fmax %g)", m->what, nmodes, (double)fmax);
  m->nmodes = nmodes;
  m->fmax   = fmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetMinModes(DRModal m, PetscInt nmin)
{
  PetscFunctionBeginUser;
  PetscCheck(nmin >= 0, m->comm, DR_ERR_INPUT, "%s: modal range: expected a minimum mode count >= 0, got %" PetscInt_FMT, m->what, nmin);
  m->nmin = nmin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetSlicing(DRModal m, PetscBool slicing)
{
  PetscFunctionBeginUser;
  m->slicing = slicing;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetDenseMax(DRModal m, PetscInt n)
{
  PetscFunctionBeginUser;
  m->dense_max = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetBlockSize(DRModal m, PetscInt bs)
{
  PetscFunctionBeginUser;
  PetscCheck(bs >= 0, m->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: block size %" PetscInt_FMT ": expected >= 0", m->what, bs);
  m->block = bs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetPurify(DRModal m, PetscBool purify)
{
  PetscFunctionBeginUser;
  m->purify = purify;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetDenseMax(DRModal m, PetscInt *n)
{
  PetscFunctionBeginUser;
  *n = m->dense_max;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetCount(DRModal m, PetscInt *count)
{
  PetscFunctionBeginUser;
  *count = m->count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetTolerance(DRModal m, PetscReal tol)
{
  PetscFunctionBeginUser;
  m->tol = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetShift(DRModal m, PetscReal sigma)
{
  PetscFunctionBeginUser;
  m->sigma     = sigma;
  m->sigma_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetFactor(DRModal m, Mat F)
{
  PetscFunctionBeginUser;
  if (F) PetscCall(PetscObjectReference((PetscObject)F));
  PetscCall(MatDestroy(&m->F));
  m->F = F;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetDeflationSpace(DRModal m, PetscInt n, const Vec v[])
{
  PetscFunctionBeginUser;
  if (m->defl) PetscCall(VecDestroyVecs(m->ndefl, &m->defl));
  m->ndefl = 0;
  if (n > 0) {
    PetscCall(VecDuplicateVecs(v[0], n, &m->defl));
    for (PetscInt i = 0; i < n; i++) PetscCall(VecCopy(v[i], m->defl[i]));
    m->ndefl = n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The relative residuals, computed on the first request (collective): a
 * caller that keeps modes as a basis (CMS components) does not pay the two
 * products per mode. */
static PetscErrorCode Residuals(DRModal m)
{
  PetscFunctionBeginUser;
  if (m->resid_done) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < m->n; k++) PetscCall(DRModalResidual(m->K, m->M, m->lambda[k], m->modes[k], &m->resid[k]));
  m->resid_done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetModes(DRModal m, PetscInt *n, const PetscReal **freq_hz, const PetscReal **lambda, Vec **modes, const PetscReal **residual)
{
  PetscFunctionBeginUser;
  if (n) *n = m->n;
  if (freq_hz) *freq_hz = m->freq;
  if (lambda) *lambda = m->lambda;
  if (modes) *modes = m->modes;
  if (residual) {
    PetscCall(Residuals(m));
    *residual = m->resid;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalView(DRModal m, PetscViewer v)
{
  PetscFunctionBeginUser;
  PetscCall(Residuals(m));
  PetscCall(PetscViewerASCIIPrintf(v, "  mode   frequency [Hz]   rel. residual\n"));
  for (PetscInt k = 0; k < m->n; k++) PetscCall(PetscViewerASCIIPrintf(v, "  %4" PetscInt_FMT "   %14.6f   %12.3e\n", k + 1, (double)m->freq[k], (double)m->resid[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetShift(DRModal m, PetscReal *sigma)
{
  PetscFunctionBeginUser;
  *sigma = m->sigma;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetScale(DRModal m, PetscReal *scale)
{
  PetscFunctionBeginUser;
  *scale = m->scale;
  PetscFunctionReturn(PETSC_SUCCESS);
}
