/* dynred: comparison of two mode sets on the same DOFs (verification).
 *
 * Reference modes Phi (e.g. the full model) against test modes Psi (e.g.
 * recovered CMS modes), both over the same labels, METHODS.md 1.5:
 *   MAC_ij = (phi_i^T psi_j)^2 / ((phi_i^T phi_i)(psi_j^T psi_j)),
 *   pairing: the one-to-one assignment of test to reference modes with the
 *   largest total MAC (optimal assignment, DRAssignMax; with more test than
 *   reference modes the surplus test modes stay unpaired, pair -1),
 *   deviation eps_j = (f_test_j - f_ref_paired) / f_ref_paired x 100 %,
 *   cross-orthogonality X = Phi^T M Psi (M-normalized modes: |X_jj| ~ 1),
 *   Rayleigh-Ritz bound: a Galerkin reduction of the same (K, M) can only
 *   raise each eigenvalue, f_test_k >= f_ref_k (index-wise, beyond a
 *   round-off of 1e-7 relative), checked on every path; the violations are
 *   counted, the first and the worst kept,
 *   coverage: the index-wise bound and the deviations of the pairs cannot
 *   see a skipped mode, so every reference mode below the compared range's
 *   top (the highest test frequency) must be paired: a reference mode i is
 *   missing when unpaired with |f_ref_i| (1 + s) < f_top, a test mode j is
 *   extra when unpaired with |f_test_j| (1 + s) < the highest reference
 *   frequency, s = the largest deviation of the pairs + 1e-7 (a mode that
 *   an accurate-to-s test may place above its top is not required: the
 *   partner of a repeated frequency split by the truncation); unpaired test
 *   modes above the reference's range are "beyond" it, not extra.
 * Rigid-body modes (f below rigid_hz) are excluded from eps and from the
 * Rayleigh-Ritz check (not from the coverage: a lost rigid-body mode is
 * missing).
 *
 * Accuracy per frequency band: the paired test modes binned by the
 * reference frequency of their pair into nbands bands of width fmax/nbands,
 * [0, w), [w, 2w), ..., [fmax - w, fmax] (the last band closed); per band
 * the count, max, mean and RMS |eps|.  Rigid-body pairs and pairs above fmax are
 * left out.
 */
#ifndef DYNRED_COMPARE_H
#define DYNRED_COMPARE_H

#include <dynred/store.h>
#include <petscmat.h>

typedef struct {
  PetscInt   nref, ntest;
  PetscReal *mac;       /* nref x ntest, row-major */
  PetscReal *xorth;     /* nref x ntest, row-major (NULL without M) */
  PetscInt  *pair;      /* ntest: paired reference mode (0-based; -1 unpaired) */
  PetscReal *err_pct;   /* ntest: frequency deviation of the pair, % (0 for rigid) */
  PetscReal *fref, *ftest;
  PetscReal  max_err_pct, mean_err_pct, rms_err_pct; /* over paired flexible modes */
  PetscInt   npaired;   /* paired flexible modes (the statistics' count) */
  PetscReal  rigid_hz;  /* rigid-body threshold used */
  PetscBool  rr_bound_ok;
  PetscInt   rr_worst;  /* index of the worst violation (-1 none) */
  PetscInt   rr_first;  /* index of the first violation (-1 none) */
  PetscInt   rr_nviol;  /* number of violations */
  PetscReal  top_hz;    /* the compared range's top: the highest test frequency */
  PetscInt   nmissing, nextra, nbeyond;
  PetscInt  *missing;   /* nmissing reference modes (0-based), ascending */
  PetscInt  *extra;     /* nextra test modes (0-based), ascending */
} DRComparison;

/* The verdict of a comparison for an accuracy gate: largest deviation and
 * coverage (first missing / extra mode named). */
typedef struct {
  PetscReal max_err_pct, top_hz;
  PetscInt  nmissing, nextra;
  PetscInt  missing_first, extra_first; /* 0-based, -1 none */
  PetscReal missing_first_hz, extra_first_hz;
} DRVerdict;

PetscErrorCode DRCompareModes(Mat M, PetscInt nref, const PetscReal fref[], Vec Phi[], PetscInt ntest, const PetscReal ftest[], Vec Psi[], PetscReal rigid_hz, DRComparison *cmp);
/* Frequencies only (no mode shapes): paired in order of frequency, the
 * k-th test mode with the k-th reference mode except across a gap (a mode
 * of one set with no counterpart in the other, left unpaired: missing or
 * extra; compare.c, PairInOrder); mac and xorth are NULL (printed as -1). */
PetscErrorCode DRCompareFrequencies(PetscInt nref, const PetscReal fref[], PetscInt ntest, const PetscReal ftest[], PetscReal rigid_hz, DRComparison *cmp);
PetscErrorCode DRComparisonView(MPI_Comm comm, const DRComparison *cmp);
PetscErrorCode DRComparisonWrite(DRStore s, const char *group, const DRComparison *cmp);
PetscErrorCode DRComparisonDestroy(DRComparison *cmp);
PetscErrorCode DRComparisonGetVerdict(const DRComparison *cmp, DRVerdict *v);
/* The gate: a one-line DR_ERR_VERIFY error when a reference mode is missing,
 * a test mode extra, or the largest deviation above tol_pct; `gate` opens
 * the line (e.g. "compare"), `tolname` names the tolerance (e.g.
 * "-tol_pct"), `ref` and `test` the two mode sets. */
PetscErrorCode DRVerdictCheck(MPI_Comm comm, const DRVerdict *v, PetscReal tol_pct, const char *gate, const char *tolname, const char *ref, const char *test);

/* Pairing of ntest test modes with nref reference modes by the weights
 * w[i * ntest + j] (reference i, test j; e.g. MAC): DRAssignMax maximizes
 * the total weight over one-to-one pairings (Hungarian algorithm; pair[j] =
 * -1 for the surplus when ntest > nref); DRAssignGreedy takes each test
 * mode's largest weight (pairs may repeat; kept for comparison). */
PetscErrorCode DRAssignMax(PetscInt nref, PetscInt ntest, const PetscReal w[], PetscInt pair[]);
PetscErrorCode DRAssignGreedy(PetscInt nref, PetscInt ntest, const PetscReal w[], PetscInt pair[]);

typedef struct {
  PetscInt   nbands;
  PetscReal  fmax_hz;
  PetscReal *lower_hz, *upper_hz; /* nbands band edges */
  PetscInt  *nmodes;              /* paired test modes in the band */
  PetscReal *max_err_pct;         /* max |eps| in the band (NaN when empty) */
  PetscReal *mean_err_pct;        /* mean |eps| in the band (NaN when empty) */
  PetscReal *rms_err_pct;         /* root mean square of eps in the band (NaN when empty) */
} DRBandStats;

/* Band statistics of cmp up to fmax_hz (> 0) in nbands equal bands. */
PetscErrorCode DRComparisonBands(const DRComparison *cmp, PetscReal fmax_hz, PetscInt nbands, DRBandStats *b);
PetscErrorCode DRBandStatsView(MPI_Comm comm, const DRBandStats *b);
/* GROUP/bands/{lower_hz, upper_hz, n_modes, max_error_pct, mean_error_pct, rms_error_pct}. */
PetscErrorCode DRBandStatsWrite(DRStore s, const char *group, const DRBandStats *b);
PetscErrorCode DRBandStatsDestroy(DRBandStats *b);

#endif
