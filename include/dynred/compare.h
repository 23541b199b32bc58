/* dynred: comparison of two mode sets on the same DOFs (verification).
 *
 * Reference modes Phi (e.g. the full model) against test modes Psi (e.g.
 * recovered CMS modes), both over the same labels, METHODS.md 1.5:
 *   MAC_ij = (phi_i^T psi_j)^2 / ((phi_i^T phi_i)(psi_j^T psi_j)),
 *   pairing: each test mode with the reference mode of largest MAC,
 *   deviation eps_j = (f_test_j - f_ref_paired) / f_ref_paired x 100 %,
 *   cross-orthogonality X = Phi^T M Psi (M-normalized modes: |X_jj| ~ 1),
 *   Rayleigh-Ritz bound: a Galerkin reduction of the same (K, M) can only
 *   raise each eigenvalue, f_test_k >= f_ref_k (index-wise).
 * Rigid-body modes (f below rigid_hz) are excluded from eps.
 */
#ifndef DYNRED_COMPARE_H
#define DYNRED_COMPARE_H

#include <dynred/store.h>

typedef struct {
  PetscInt   nref, ntest;
  PetscReal *mac;       /* nref x ntest, row-major */
  PetscReal *xorth;     /* nref x ntest, row-major (NULL without M) */
  PetscInt  *pair;      /* ntest: paired reference mode (0-based) */
  PetscReal *err_pct;   /* ntest: frequency deviation of the pair, % (0 for rigid) */
  PetscReal *fref, *ftest;
  PetscReal  max_err_pct, mean_err_pct;
  PetscBool  rr_bound_ok;
  PetscInt   rr_worst;  /* index of the worst violation (-1 none) */
} DRComparison;

PetscErrorCode DRCompareModes(Mat M, PetscInt nref, const PetscReal fref[], Vec Phi[], PetscInt ntest, const PetscReal ftest[], Vec Psi[], PetscReal rigid_hz, DRComparison *cmp);
PetscErrorCode DRComparisonView(MPI_Comm comm, const DRComparison *cmp);
PetscErrorCode DRComparisonWrite(DRStore s, const char *group, const DRComparison *cmp);
PetscErrorCode DRComparisonDestroy(DRComparison *cmp);

#endif
