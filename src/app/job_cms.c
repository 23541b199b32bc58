/* dynred cms: component mode synthesis with optional verification against
 * the full model. */
#include "app.h"
#include <dynred/cms.h>
#include <dynred/compare.h>

/* Solve the assembled full model as `dynred modal` does and compare. */
static PetscErrorCode Verify(DRConfig cfg, DRCMS cms, DRStore store, PetscReal *maxerr, PetscReal *tverify)
{
  DRComponent      full;
  DRModal          modal;
  PetscInt         nm, nf, nl;
  const PetscReal *fc, *ff;
  Vec             *pc, *pf;
  const DRLabel   *labels;
  DRComparison     cmp;
  PetscLogDouble   t0 = DRTime();

  PetscFunctionBeginUser;
  PetscCall(DRCMSGetModes(cms, &nm, &fc, &pc, &nl, &labels));
  PetscCall(DRModelCreateFull(cfg, PETSC_COMM_WORLD, &full));
  PetscCheck(full->n == nl, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "full model has %" PetscInt_FMT " DOFs, CMS %" PetscInt_FMT, full->n, nl);
  for (PetscInt i = 0; i < nl; i++) PetscCheck(full->labels[i] == labels[i], PETSC_COMM_WORLD, PETSC_ERR_PLIB, "label order differs between the full model and CMS");
  PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, "modal_"));
  PetscCall(DRModalSetOperators(modal, full->K, full->M, full->source));
  /* a few more reference modes than CMS modes, so pairing has a choice */
  PetscCall(DRModalSetRange(modal, PetscMin(nm + 5, full->n), 0));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRProgress(PETSC_COMM_WORLD, "verify: full-model modal analysis, %" PetscInt_FMT " DOFs", full->n));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &nf, &ff, NULL, &pf, NULL));
  {
    /* rigid-body threshold: 1e-4 of the first flexible reference frequency */
    PetscReal rigid = 0;
    for (PetscInt i = 0; i < nf; i++)
      if (ff[i] > 1e-3) {
        rigid = 1e-4 * ff[i];
        break;
      }
    if (nm) {
      /* CMS modes are vectors over the same labels; Vec layouts may differ */
      Vec *pcf;
      PetscCall(VecDuplicateVecs(pf[0], nm, &pcf));
      for (PetscInt j = 0; j < nm; j++) PetscCall(VecCopy(pc[j], pcf[j]));
      PetscCall(DRCompareModes(full->M, nf, ff, pf, nm, fc, pcf, rigid, &cmp));
      PetscCall(VecDestroyVecs(nm, &pcf));
    } else PetscCall(DRCompareModes(full->M, nf, ff, pf, 0, fc, NULL, rigid, &cmp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "verification against the full model (%" PetscInt_FMT " DOFs):\n", full->n));
  PetscCall(DRComparisonView(PETSC_COMM_WORLD, &cmp));
  PetscCall(DRComparisonWrite(store, "/verify", &cmp));
  {
    /* accuracy per band of width fmax/6 up to cms.fmax (or the highest CMS
     * frequency when fmax = 0) */
    DRBandStats bands;
    PetscReal   fmax;
    PetscCall(DRConfigGetReal(cfg, "cms.fmax", &fmax, NULL));
    if (fmax <= 0 && nm) fmax = fc[nm - 1];
    if (fmax > 0) {
      PetscCall(DRComparisonBands(&cmp, fmax, 6, &bands));
      PetscCall(DRBandStatsView(PETSC_COMM_WORLD, &bands));
      PetscCall(DRBandStatsWrite(store, "/verify", &bands));
      PetscCall(DRBandStatsDestroy(&bands));
    }
  }
  *maxerr = cmp.max_err_pct;
  PetscCheck(cmp.rr_bound_ok, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Rayleigh-Ritz bound violated at mode %" PetscInt_FMT, cmp.rr_worst + 1);
  PetscCall(DRComparisonDestroy(&cmp));
  PetscCall(DRModalDestroy(&modal));
  PetscCall(DRComponentDestroy(&full));
  *tverify = DRTime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

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
  PetscReal      tol, maxerr = 0, tsetup, tverify = 0, ttotal;
  PetscLogDouble t0 = DRTime();

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetBool(cfg, "verify", &verify, NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.verify_tol_pct", &tol, NULL));
  PetscCall(DRCMSCreate(PETSC_COMM_WORLD, &cms));
  PetscCall(DRCMSSetConfig(cms, cfg));
  PetscCall(DRCMSSetFromOptions(cms));
  PetscCall(DRCMSSetUp(cms));
  tsetup = DRTime() - t0;
  PetscCall(DRCMSSolve(cms));
  PetscCall(DRCMSView(cms, PETSC_VIEWER_STDOUT_WORLD));
  ttotal = DRTime() - t0;
  PetscCall(ViewTimes(cms, tsetup, ttotal));
  PetscCall(DRJobStoreOpen(cfg, "cms", &store));
  if (verify) PetscCall(Verify(cfg, cms, store, &maxerr, &tverify));
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
