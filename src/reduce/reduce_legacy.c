/* DEPRECATED entry points of reduce.h (DRReduce, DRReduceRegisterAll,
 * DRSuperelementDestroy): thin wrappers over DRReduction for the callers not
 * yet switched (src/couple/cms.c, tests/unit/test_hybrid.c).  Delete this
 * file once they use the DRReduction API. */
#include "reduceimpl.h"

PetscErrorCode DRReduceRegisterAll(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRReductionInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Inclusive time of a log event so far (0 when logging is off). */
static PetscErrorCode EventTime(PetscLogEvent e, PetscLogDouble *t)
{
  PetscEventPerfInfo info;

  PetscFunctionBeginUser;
  *t = 0;
  if (!PetscLogPLB) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, e, &info));
  *t = info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReduce(const char method[], DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se)
{
  DRReduction    r;
  PetscLogDouble t0[3], t1[3];
  PetscLogEvent  ev[3];

  PetscFunctionBeginUser;
  PetscCall(DRReductionInitializePackage());
  { /* the message of the former registry (tests/e2e/cms_errors.sh matches it) */
    PetscErrorCode (*fn)(DRReduction) = NULL;
    PetscCall(DRReductionFindCreate(method, &fn));
    if (!fn) {
      char known[256];
      PetscCall(DRReductionKnownNames(known, sizeof(known)));
      SETERRQ(c->comm, DR_ERR_INPUT, "component '%s': reduction method '%s' is not available, expected one of: %s", c->name, method, known);
    }
  }
  /* the phase times come from the log events: record them even without
   * -log_view (until DRInitialize begins the default log for everyone) */
  if (!PetscLogPLB) PetscCall(PetscLogDefaultBegin());
  PetscCall(DRReductionCreate(c->comm, &r));
  PetscCall(DRReductionSetType(r, method));
  PetscCall(DRReductionSetOptionsPrefix(r, opt->prefix));
  PetscCall(DRReductionSetModes(r, opt->nmodes, opt->cutoff_hz));
  PetscCall(DRReductionFreeInterfaceSetSupport(r, opt->support));
  PetscCall(DRReductionSetUp(r));
  ev[0] = DRRED_CompEig;
  ev[1] = DRRED_Constraint;
  ev[2] = DRRED_Project;
  for (int k = 0; k < 3; k++) PetscCall(EventTime(ev[k], &t0[k]));
  PetscCall(DRReductionApply(r, c, isboundary));
  for (int k = 0; k < 3; k++) PetscCall(EventTime(ev[k], &t1[k]));
  /* move the result out of r */
  *se          = r->se;
  se->t_eig    = t1[0] - t0[0];
  se->t_static = t1[1] - t0[1];
  se->t_project = t1[2] - t0[2];
  PetscCall(PetscMemzero(&r->se, sizeof(r->se)));
  r->applied = PETSC_FALSE;
  PetscCall(DRReductionDestroy(&r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSuperelementDestroy(DRSuperelement *se)
{
  PetscFunctionBeginUser;
  PetscCall(DRSuperelementReset(se));
  PetscFunctionReturn(PETSC_SUCCESS);
}
