/* dynred cms: component mode synthesis with optional verification against
 * the full model (parse, create, solve, view, verify, write). */
#include "app.h"
#include <dynred/cms.h>

/* "cms time: model .. s, <phase> .. s, ...; total .. s" */
static PetscErrorCode ViewTimes(DRCMS cms, PetscReal tsetup, PetscReal ttotal)
{
  PetscInt           np;
  const char *const *names;
  const PetscReal   *sec;

  PetscFunctionBeginUser;
  PetscCall(DRCMSGetTimes(cms, NULL, &np, &names, &sec));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cms time: model %.2f s", (double)tsetup));
  for (PetscInt p = 0; p < np; p++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", %s %.2f s", names[p], (double)sec[p]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "; total %.2f s\n", (double)ttotal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobCMS(DRConfig cfg)
{
  DRCMS          cms;
  DRStore        store;
  PetscBool      verify;
  PetscReal      tol, maxerr = 0, tsetup, tsolve, tverify = 0, ttotal;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetBool(cfg, "verify", &verify, NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.verify_tol_pct", &tol, NULL));
  PetscCall(DRJobPhaseBegin(DR_JOB_MODEL));
  PetscCall(DRCMSCreate(PETSC_COMM_WORLD, &cms));
  PetscCall(DRCMSSetConfig(cms, cfg));
  PetscCall(DRCMSSetFromOptions(cms));
  PetscCall(DRCMSSetUp(cms));
  PetscCall(DRJobPhaseEnd(DR_JOB_MODEL));
  PetscCall(DRJobPhaseBegin(DR_JOB_SOLVE));
  PetscCall(DRCMSSolve(cms));
  PetscCall(DRCMSView(cms, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRJobPhaseEnd(DR_JOB_SOLVE));
  PetscCall(DRJobSeconds(DR_JOB_MODEL, &tsetup));
  PetscCall(DRJobSeconds(DR_JOB_SOLVE, &tsolve));
  ttotal = tsetup + tsolve;
  PetscCall(ViewTimes(cms, tsetup, ttotal));
  PetscCall(DRJobStoreOpen(cfg, "cms", &store));
  if (verify) {
    PetscCall(DRJobPhaseBegin(DR_JOB_VERIFY));
    PetscCall(DRCMSVerify(cms, store, &maxerr));
    PetscCall(DRJobPhaseEnd(DR_JOB_VERIFY));
    PetscCall(DRJobSeconds(DR_JOB_VERIFY, &tverify));
  }
  PetscCall(DRCMSWrite(cms, store));
  {
    const char *ph[3] = {"model", "cms_total", "verify"};
    PetscReal   t[3]  = {tsetup, ttotal, tverify};
    char        out[PETSC_MAX_PATH_LEN];
    PetscCall(DRJobStoreCommit(&store, 3, ph, t));
    PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", out));
  }
  PetscCall(DRCMSDestroy(&cms));
  PetscCheck(!(verify && tol > 0 && maxerr > tol), PETSC_COMM_WORLD, DR_ERR_VERIFY, "verification failed: max frequency deviation %.4f %% exceeds cms.verify_tol_pct = %g %%", (double)maxerr, (double)tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}
