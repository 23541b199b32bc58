/* CMS verification against the full model (the assembly of all components
 * by label): reference modes by DRModal, comparison by verify/ (MAC pairing,
 * frequency deviations, Rayleigh-Ritz bound, accuracy per band). */
#include "cmsimpl.h"
#include <dynred/modal.h>
#include <dynred/compare.h>

/* The error estimate beside the true error of each mode, k-th CMS frequency
 * against the k-th reference (the Rayleigh-Ritz order: theta_k >= lambda_k,
 * so this is the error the estimate bounds; a missed mode shows as a large
 * true error, not a re-paired one).  A mode counts as under-estimated when
 * its estimate is below the true error by more than 1e-5 % (the reference
 * solve converges to a relative residual of 1e-12; with condition numbers
 * up to 1e5 over the compared modes its frequencies are good to ~1e-7
 * relative).  /verify/true_error_pct and the
 * tightness (estimate / true error: median and max over modes whose true
 * error is above 1e-8 %, i.e. above solver round-off) as attributes. */
#define DR_VERIFY_REF_SLACK_PCT 1e-5

static PetscErrorCode EstimateVsTrue(DRCMS c, DRStore store, PetscInt nm, const PetscReal fc[], PetscInt nf, const PetscReal ff[], PetscReal rigid_hz)
{
  PetscReal *tru, *ratio, med = 0, mx = 0;
  PetscInt   nr = 0, nunsafe = 0, dims[1];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(nm + 1, &tru, nm + 1, &ratio));
  PetscCall(PetscPrintf(c->comm, "error estimate against the true error (k-th CMS vs k-th full-model frequency):\n  mode   f_cms [Hz]        true [%%]     estimate [%%]   est/true\n"));
  for (PetscInt k = 0; k < nm; k++) {
    tru[k] = (k < nf && ff[k] > rigid_hz) ? 100 * (fc[k] - ff[k]) / ff[k] : 0;
    if (c->est_pct[k] + DR_VERIFY_REF_SLACK_PCT < tru[k]) nunsafe++;
    if (tru[k] > 1e-8) ratio[nr++] = c->est_pct[k] / tru[k];
    PetscCall(PetscPrintf(c->comm, "  %4" PetscInt_FMT "   %14.6f   %12.3e   %12.3e   %8.3g%s\n", k + 1, (double)fc[k], (double)tru[k], (double)c->est_pct[k], tru[k] > 1e-8 ? (double)(c->est_pct[k] / tru[k]) : 0.0, c->est_pct[k] + DR_VERIFY_REF_SLACK_PCT < tru[k] ? "  BELOW TRUE ERROR" : ""));
  }
  if (nr) {
    PetscCall(PetscSortReal(nr, ratio));
    med = nr % 2 ? ratio[nr / 2] : 0.5 * (ratio[nr / 2 - 1] + ratio[nr / 2]);
    mx  = ratio[nr - 1];
  }
  PetscCall(PetscPrintf(c->comm, "  estimate >= true error: %s (%" PetscInt_FMT " of %" PetscInt_FMT " modes below); tightness est/true: median %.3g, max %.3g\n", nunsafe ? "NO" : "yes", nunsafe, nm, (double)med, (double)mx));
  dims[0] = nm;
  PetscCall(DRStoreWriteReal(store, "/verify/true_error_pct", 1, dims, tru, "%"));
  PetscCall(DRStoreAttrInt(store, "/verify", "estimate_below_true", nunsafe));
  PetscCall(DRStoreAttrReal(store, "/verify", "estimate_tightness_median", med));
  PetscCall(DRStoreAttrReal(store, "/verify", "estimate_tightness_max", mx));
  PetscCall(PetscFree2(tru, ratio));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solve the assembled full model as `dynred modal` does (options prefix
 * modal_) and compare: the mode table, /verify in the store, accuracy per
 * band up to cms.fmax (or the highest CMS frequency when fmax = 0). */
PetscErrorCode DRCMSVerify(DRCMS cms, DRStore store, DRVerdict *verdict)
{
  DRComponent      full;
  DRModal          modal;
  PetscInt         nm, nf, nl, n;
  const PetscReal *fc, *ff;
  Vec             *pc, *pf;
  const DRLabel   *labels, *flabels;
  const char      *source;
  Mat              K, M;
  DRComparison     cmp;

  PetscFunctionBeginUser;
  PetscCheck(cms->solved, cms->comm, PETSC_ERR_ORDER, "DRCMSVerify: call DRCMSSolve first");
  PetscCall(PetscLogEventBegin(DRCMS_Verify, 0, 0, 0, 0));
  PetscCall(DRCMSGetModes(cms, &nm, &fc, &pc, &nl, &labels));
  /* said first: a full model that does not fit next to the CMS results fails
   * in the build (preflight), and the user should see it is verify's */
  PetscCall(DRProgress(cms->comm, "verify: building the full model for the reference solve (verify: false skips it)"));
  PetscCall(DRModelCreateFull(cms->cfg, cms->comm, &full));
  {
    DRUnits sec;
    PetscCall(DRModelToSeconds(cms->cfg, full, &sec)); /* as the components (cms.c) */
  }
  PetscCall(DRComponentGetLabels(full, &n, &flabels));
  PetscCall(DRComponentGetOperators(full, &K, &M, NULL));
  PetscCall(DRComponentGetSource(full, &source));
  PetscCheck(n == nl, cms->comm, PETSC_ERR_PLIB, "full model has %" PetscInt_FMT " DOFs, CMS %" PetscInt_FMT, n, nl);
  for (PetscInt i = 0; i < nl; i++) PetscCheck(flabels[i] == labels[i], cms->comm, PETSC_ERR_PLIB, "label order differs between the full model and CMS");
  PetscCall(DRModalCreate(cms->comm, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, "modal_"));
  PetscCall(DRModalSetOperators(modal, K, M, source));
  /* a few more reference modes than CMS modes, so pairing has a choice */
  PetscCall(DRModalSetRange(modal, PetscMin(nm + 5, n), 0));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRProgress(cms->comm, "verify: full-model modal analysis, %" PetscInt_FMT " DOFs", n));
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
      PetscCall(DRCompareModes(M, nf, ff, pf, nm, fc, pcf, rigid, &cmp));
      PetscCall(VecDestroyVecs(nm, &pcf));
    } else PetscCall(DRCompareModes(M, nf, ff, pf, 0, fc, NULL, rigid, &cmp));
  }
  PetscCall(PetscPrintf(cms->comm, "verification against the full model (%" PetscInt_FMT " DOFs):\n", n));
  PetscCall(DRComparisonView(cms->comm, &cmp));
  PetscCall(DRComparisonWrite(store, "/verify", &cmp));
  {
    /* accuracy per band of width fmax/6 up to cms.fmax (or the highest CMS
     * frequency when fmax = 0) */
    DRBandStats bands;
    PetscReal   fmax = cms->fmax;
    if (fmax <= 0 && nm) fmax = fc[nm - 1];
    if (fmax > 0) {
      PetscCall(DRComparisonBands(&cmp, fmax, 6, &bands));
      PetscCall(DRBandStatsView(cms->comm, &bands));
      PetscCall(DRBandStatsWrite(store, "/verify", &bands));
      PetscCall(DRBandStatsDestroy(&bands));
    }
  }
  if (cms->est_pct) PetscCall(EstimateVsTrue(cms, store, nm, fc, nf, ff, cmp.rigid_hz));
  PetscCall(DRComparisonGetVerdict(&cmp, verdict));
  /* CMS is a Rayleigh-Ritz projection: a CMS frequency below the full
   * model's beyond round-off means one of the two solves is not accurate,
   * which on a valid model happens when K or M is too ill-conditioned for
   * double precision (entries spanning many orders of magnitude) */
  PetscCheck(cmp.rr_bound_ok, cms->comm, DR_ERR_VERIFY, "verify: CMS mode %" PetscInt_FMT " at %.9g Hz lies below the full model's %.9g Hz beyond round-off (the Rayleigh-Ritz bound fails): one of the two eigensolves is inaccurate, expected a model conditioned for double precision (check the units and the range of the K and M entries of the components)", cmp.rr_worst + 1, (double)cmp.ftest[cmp.rr_worst], (double)cmp.fref[cmp.rr_worst]);
  PetscCall(DRComparisonDestroy(&cmp));
  PetscCall(DRModalDestroy(&modal));
  PetscCall(DRComponentDestroy(&full));
  PetscCall(PetscLogEventEnd(DRCMS_Verify, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

