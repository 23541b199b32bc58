/* The refinement of a CMS solve for cms.tol_pct: after
 * the error estimate, which parts the next round enriches and how.
 *
 * A part is a component (its interior: more fixed-interface modes, or
 * residual corrections) or the interface (more CC modes, when it was reduced
 * before the projection).  With cms.refine: corrections (the default) a
 * component's first DR_CMS_CORR_ROUNDS enrichments are residual corrections
 * (reduce/correct.c): the estimate already solved K_II^{-1} r_I for every
 * mode, so a round needs no eigensolve and, for a mode whose interior error
 * was e, leaves about e theta / lambda_c; later rounds (and cms.refine:
 * modes) add fixed-interface modes.  A free-interface component is enriched
 * with more free modes (by count, as below; a new Apply of the method: one
 * more factorization of K_O and block solve for the residual flexibility);
 * its share of eta^2 is its r_I part, as for Craig-Bampton (estimate.c). */
#include "cmsimpl.h"

/* Residual-correction rounds per component before more modes: two steps
 * of block inverse iteration take a mode's interior error from e to about
 * e (theta / lambda_c)^2 (at most 1/16 of it with the default cutoff of
 * 2 fmax); a mode still above the tolerance after that is far from every
 * component's kept space, and more eigenmodes are the surer cure. */
#define DR_CMS_CORR_ROUNDS 2

/* Enrichment of a part (a component's modes, or the interface's CC modes):
 * its count times a growth factor g, and at least DR_CMS_REFINE_MIN more.
 * A truncated mode at lc contributes about (theta / lc)^2 to a mode's
 * relative error (the truncation form of estimate.c), and lc grows about
 * linearly with the count in the plate- and shell-like parts CMS is used on
 * (modes per band roughly constant), so the error falls like 1 / count^2:
 * g = sqrt(estimate / tol_pct) of the worst mode the part carries would land
 * on the tolerance.  The estimate is taken twice (DR_CMS_TRUNC_SAFETY), so
 * this g has a sqrt(2) margin on the true error already; it is kept in
 * [1.25, 2]: at least 1.25 (with +8 modes, so a mode just above the
 * tolerance does not cost a round of its own for a handful of modes; a
 * fixed 1.5 grows 216 -> 324 modes per part for 0.655 % against 0.5 % on the
 * 46k-DOF plate), at most 2x: the worst modes' estimates can be 10-20x their
 * true error (bench/README.md, tightness max), and one more round costs less
 * than a doubled component eigensolve. */
#define DR_CMS_REFINE_FACTOR     1.25
#define DR_CMS_REFINE_FACTOR_MAX 2.0
#define DR_CMS_REFINE_MIN        8
static PetscInt RefineCount(PetscInt n, PetscReal g)
{
  g = PetscMin(PetscMax(g, DR_CMS_REFINE_FACTOR), DR_CMS_REFINE_FACTOR_MAX);
  return PetscMax((PetscInt)PetscCeilReal(g * n), n + DR_CMS_REFINE_MIN);
}

/* After an estimate: the modes up to fmax whose estimate exceeds tol_pct;
 * for each, the part of its squared residual with the largest share (a
 * component's interior, or the interface truncation: the boundary term) and
 * every part with at least a quarter of it are enriched: components get more
 * fixed-interface modes, the interface (cms.interface_auto) more CC modes.
 * *again: something to redo (same answer on every rank: est_pct and the
 * shares are broadcast). */
PetscErrorCode DRCMSRefine_Private(DRCMS c, PetscBool redo[], PetscBool *again)
{
  PetscInt   nbad = 0, worst = -1, ncc_more = 0;
  char       list[512] = "";
  PetscBool  any = PETSC_FALSE;
  PetscReal *g, gi = 0; /* growth factor wanted per component, and the interface's */

  PetscFunctionBeginUser;
  *again        = PETSC_FALSE;
  c->iface_redo = PETSC_FALSE;
  if (!c->est_pct || c->tol_pct <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc1(c->ncomp + 1, &g));
  for (PetscInt k = 0; k < c->ncomp; k++) redo[k] = PETSC_FALSE;
  PetscCall(PetscFree(c->csel));
  PetscCall(PetscCalloc1(c->ncomp * c->nm + 1, &c->csel));
  c->ncsel = c->nm;
  if (!c->ncorr_rounds) PetscCall(PetscCalloc1(c->ncomp + 1, &c->ncorr_rounds));
  for (PetscInt j = 0; j < c->nm; j++) {
    PetscReal smax = c->ishare ? c->ishare[j] : 0, gj;
    if (c->est_pct[j] <= c->tol_pct) continue;
    nbad++;
    if (worst < 0 || c->est_pct[j] > c->est_pct[worst]) worst = j;
    gj = PetscIsInfReal(c->est_pct[j]) ? DR_CMS_REFINE_FACTOR_MAX : PetscSqrtReal(c->est_pct[j] / c->tol_pct);
    for (PetscInt k = 0; k < c->ncomp; k++) smax = PetscMax(smax, c->share[k * c->nm + j]);
    /* the largest share and every share of at least a quarter of it (a
     * mode spread over several parts needs them all; one per round crawls) */
    for (PetscInt k = 0; k < c->ncomp; k++)
      if (c->share[k * c->nm + j] >= 0.25 * smax) {
        redo[k]              = PETSC_TRUE;
        g[k]                 = PetscMax(g[k], gj);
        c->csel[k * c->nm + j] = PETSC_TRUE;
      }
    /* The interface grows by the mode's whole g only where it holds the
     * largest share; as a secondary part, by the least factor.  Its share is
     * the boundary force imbalance of the recovered mode, and a part of that
     * is the components' interior error seen on the boundary, which the
     * components' enrichment of the same round removes.  Measured (bench/README.md
     * "CMS: interface growth in the refinement round"): on the CalculiX assembly at 200 modes the interface
     * grew 228 -> 456 CC modes in the one round where 285 gave the same
     * round count and a largest estimate of 0.11 % instead of 0.07 % (CMS
     * against the modal job 0.54-0.57 -> 0.43-0.48, side by side); on the
     * 4-part test plate (cms_interface_auto) the
     * same 3 rounds, 54 -> 68 -> 85 CC modes instead of 54 -> 94, 4 % fewer
     * K_II solve columns. */
    if (c->ishare && c->ishare[j] >= 0.25 * smax) {
      c->iface_redo = PETSC_TRUE;
      gi            = PetscMax(gi, c->ishare[j] >= smax ? gj : DR_CMS_REFINE_FACTOR);
    }
  }
  if (!nbad) {
    PetscCall(PetscFree(g));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the interface can grow only when its count is dynred's to choose */
  if (c->iface_redo && !(c->iface_auto && c->iface_early && c->ncc < c->pnbglob)) c->iface_redo = PETSC_FALSE;
  if (c->iface_redo) ncc_more = PetscMin(c->pnbglob, RefineCount(c->ncc, gi));
  /* The root keeps the CC modes it computed (iface_early.c: up to 2.5x the
   * first cut's frequency, or twice a refinement's count, nccache of them),
   * and one more than it uses is needed for the estimate's gap.  A count
   * beyond them costs a new dense solve of the interface pencil, O(nb^3)
   * like the first; so when the kept ones still give at least 1.5x the
   * current count the round takes those instead of the growth above, and
   * the estimate decides whether another round follows.  Measured on the
   * 200k-DOF plate in 4 parts at 20 modes (3276 boundary DOFs): 36 CC modes,
   * 72 wanted, 66 kept: 65 taken, the job 18.3 -> 15.0 s with the same
   * rounds and estimates (bench/README.md "CMS: first-round component-mode floor"). */
  if (c->iface_redo && ncc_more + 1 > c->nccache && c->nccache < c->pnbglob && 2 * (c->nccache - 1) >= 3 * c->ncc) ncc_more = c->nccache - 1;
  for (PetscInt k = 0; k < c->ncomp; k++) any = (PetscBool)(any || redo[k]);
  if (c->cutoff_given || c->nrefine >= c->max_refine || (!any && !c->iface_redo)) {
    PetscCall(PetscPrintf(c->comm, "dynred: warning: %" PetscInt_FMT " mode(s) with an error estimate above cms.tol_pct = %g %% (worst %.3g %% at %.6g Hz)%s; %s\n", nbad, (double)c->tol_pct, (double)c->est_pct[worst], (double)c->freq[worst],
                          c->cutoff_given ? (c->fmax > 0 ? " with the explicit cms.cutoff_factor" : " with the explicit cms.component_modes") : c->nrefine >= c->max_refine ? " after cms.max_refine rounds" : " carried by the interface truncation",
                          c->cutoff_given ? (c->fmax > 0 ? "leave cms.cutoff_factor unset to let dynred refine" : "leave cms.component_modes unset to let dynred refine") : c->nrefine >= c->max_refine ? "raise cms.max_refine or cms.cutoff_factor" : "raise cms.interface_modes / interface_cutoff_factor or leave both unset"));
    c->iface_redo = PETSC_FALSE;
    PetscCall(PetscFree(g));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt k = 0; k < c->ncomp; k++)
    if (redo[k]) {
      /* by count, not by cutoff: a raised cutoff may add no mode at all
       * (a short middle part's first fixed-interface mode lies far up) */
      PetscInt nq = c->nq[k], more = RefineCount(nq, g[k]), nsel = 0;
      char     item[128];
      PetscBool cb, corr;
      PetscCall(PetscStrcmp(c->methods[k], "craig-bampton", &cb));
      /* residual corrections are Craig-Bampton's (reduce/correct.c); a
       * free-interface component gets more free modes (a new Apply) */
      corr = (PetscBool)(cb && c->refine_corr && c->ncorr_rounds[k] < DR_CMS_CORR_ROUNDS);
      c->comp_cut[k]    = 0;
      c->comp_nmodes[k] = more; /* also the fallback of a correction that adds nothing */
      for (PetscInt j = 0; j < c->nm; j++) {
        if (!corr) c->csel[k * c->nm + j] = PETSC_FALSE;
        nsel += c->csel[k * c->nm + j] ? 1 : 0;
      }
      if (corr) {
        c->ncorr_rounds[k]++;
        PetscCall(PetscSNPrintf(item, sizeof(item), "%s'%s' (%" PetscInt_FMT " vectors + residual corrections of %" PetscInt_FMT " modes)", list[0] ? ", " : "", c->names[k], nq, nsel));
      } else PetscCall(PetscSNPrintf(item, sizeof(item), "%s'%s' (%" PetscInt_FMT " -> %" PetscInt_FMT " modes)", list[0] ? ", " : "", c->names[k], nq, more));
      PetscCall(DRStrAppend(list, item, sizeof(list)));
    }
  if (c->iface_redo) {
    char item[128];
    PetscCall(PetscSNPrintf(item, sizeof(item), "%sthe interface (%" PetscInt_FMT " -> %" PetscInt_FMT " CC modes)", list[0] ? ", " : "", c->ncc, ncc_more));
    PetscCall(DRStrAppend(list, item, sizeof(list)));
    c->iface_modes = ncc_more; /* the count of the next round */
  }
  PetscCall(PetscFree(g));
  c->nrefine++;
  PetscCall(DRProgress(c->comm, "cms: refinement %" PetscInt_FMT ": %" PetscInt_FMT " mode(s) above tol_pct %g %% (worst estimate %.3g %% at %.6g Hz); enriching the parts with the largest share of their residual: %s", c->nrefine, nbad, (double)c->tol_pct, (double)c->est_pct[worst], (double)c->freq[worst], list));
  *again = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

