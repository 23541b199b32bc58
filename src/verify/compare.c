/* Mode-set comparison: MAC, pairing, deviation, cross-orthogonality,
 * Rayleigh-Ritz bound (METHODS.md 1.5). */
#include <dynred/compare.h>
#include <math.h>

/* Deviation of every test mode from its paired reference (c->pair; -1:
 * unpaired, NaN), rigid pairs 0; max, mean and RMS over the flexible pairs. */
static void Deviations(DRComparison *c, const PetscReal fref[], const PetscReal ftest[], PetscReal rigid_hz)
{
  PetscReal sum = 0, sum2 = 0;
  PetscInt  cnt = 0;

  c->max_err_pct = 0;
  for (PetscInt j = 0; j < c->ntest; j++) {
    PetscInt best = c->pair[j];
    if (best < 0) c->err_pct[j] = (PetscReal)NAN; /* more test than reference modes: unpaired */
    else if (PetscAbsReal(fref[best]) < rigid_hz) c->err_pct[j] = 0;
    else {
      c->err_pct[j]  = 100.0 * (ftest[j] - fref[best]) / fref[best];
      c->max_err_pct = PetscMax(c->max_err_pct, PetscAbsReal(c->err_pct[j]));
      sum += PetscAbsReal(c->err_pct[j]);
      sum2 += PetscSqr(c->err_pct[j]);
      cnt++;
    }
  }
  c->mean_err_pct = cnt ? sum / cnt : 0;
  c->rms_err_pct  = cnt ? PetscSqrtReal(sum2 / cnt) : 0;
  c->npaired      = cnt;
}

/* Rayleigh-Ritz bound, index-wise (the k-th test against the k-th reference
 * frequency); round-off allowed relative to the spectrum scale.  Rigid-body
 * reference modes (|f| < rigid_hz) are round-off around 0 in both sets,
 * their order meaningless: no bound there. */
static void RayleighRitz(DRComparison *c)
{
  const PetscReal *fref = c->fref, *ftest = c->ftest;

  c->rr_bound_ok = PETSC_TRUE;
  c->rr_worst    = -1;
  c->rr_first    = -1;
  c->rr_nviol    = 0;
  for (PetscInt k = 0; k < PetscMin(c->nref, c->ntest); k++) {
    PetscReal tol = 1e-7 * PetscMax(PetscAbsReal(fref[k]), c->rigid_hz);
    if (PetscAbsReal(fref[k]) < c->rigid_hz) continue;
    if (ftest[k] < fref[k] - tol) {
      c->rr_bound_ok = PETSC_FALSE;
      c->rr_nviol++;
      if (c->rr_first < 0) c->rr_first = k;
      if (c->rr_worst < 0 || fref[k] - ftest[k] > fref[c->rr_worst] - ftest[c->rr_worst]) c->rr_worst = k;
    }
  }
}

/* Coverage (compare.h): reference modes inside the compared range left
 * unpaired (missing), test modes inside the reference's range left unpaired
 * (extra).  The slack s is the largest deviation of the pairs plus 1e-7
 * (the round-off allowance of the Rayleigh-Ritz check): a reference mode
 * that a test accurate to s may place above its top is not required. */
static PetscErrorCode Coverage(DRComparison *c)
{
  PetscBool *paired;
  PetscReal  s = c->max_err_pct / 100 + 1e-7, reftop = 0;

  PetscFunctionBeginUser;
  c->top_hz = 0;
  for (PetscInt j = 0; j < c->ntest; j++) c->top_hz = PetscMax(c->top_hz, c->ftest[j]);
  for (PetscInt i = 0; i < c->nref; i++) reftop = PetscMax(reftop, c->fref[i]);
  PetscCall(PetscCalloc1(c->nref + 1, &paired));
  PetscCall(PetscMalloc2(c->nref + 1, &c->missing, c->ntest + 1, &c->extra));
  c->nmissing = c->nextra = c->nbeyond = 0;
  for (PetscInt j = 0; j < c->ntest; j++) {
    if (c->pair[j] >= 0) paired[c->pair[j]] = PETSC_TRUE;
    else if (PetscAbsReal(c->ftest[j]) * (1 + s) < reftop) c->extra[c->nextra++] = j;
    else c->nbeyond++;
  }
  for (PetscInt i = 0; i < c->nref; i++)
    if (!paired[i] && PetscAbsReal(c->fref[i]) * (1 + s) < c->top_hz) c->missing[c->nmissing++] = i;
  PetscCall(PetscFree(paired));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCompareModes(Mat M, PetscInt nref, const PetscReal fref[], Vec Phi[], PetscInt ntest, const PetscReal ftest[], Vec Psi[], PetscReal rigid_hz, DRComparison *c)
{
  PetscScalar *dots;
  PetscReal   *nr, *nt;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->nref     = nref;
  c->ntest    = ntest;
  c->rigid_hz = rigid_hz;
  PetscCall(PetscMalloc1(nref * ntest + 1, &c->mac));
  PetscCall(PetscMalloc1(ntest + 1, &c->pair));
  PetscCall(PetscMalloc1(ntest + 1, &c->err_pct));
  PetscCall(PetscMalloc1(nref + 1, &c->fref));
  PetscCall(PetscMalloc1(ntest + 1, &c->ftest));
  PetscCall(PetscArraycpy(c->fref, fref, nref));
  PetscCall(PetscArraycpy(c->ftest, ftest, ntest));
  PetscCall(PetscMalloc1(nref + 1, &dots));
  PetscCall(PetscMalloc1(nref + 1, &nr));
  PetscCall(PetscMalloc1(ntest + 1, &nt));
  for (PetscInt i = 0; i < nref; i++) PetscCall(VecDot(Phi[i], Phi[i], &nr[i]));
  for (PetscInt j = 0; j < ntest; j++) PetscCall(VecDot(Psi[j], Psi[j], &nt[j]));
  for (PetscInt j = 0; j < ntest; j++) {
    PetscCall(VecMDot(Psi[j], nref, Phi, dots));
    for (PetscInt i = 0; i < nref; i++) c->mac[i * ntest + j] = PetscSqr(PetscRealPart(dots[i])) / (nr[i] * nt[j]);
  }
  if (M) {
    Vec Mpsi;
    PetscCall(PetscMalloc1(nref * ntest + 1, &c->xorth));
    PetscCall(VecDuplicate(Psi[0], &Mpsi));
    for (PetscInt j = 0; j < ntest; j++) {
      PetscCall(MatMult(M, Psi[j], Mpsi));
      PetscCall(VecMDot(Mpsi, nref, Phi, dots));
      for (PetscInt i = 0; i < nref; i++) c->xorth[i * ntest + j] = PetscRealPart(dots[i]);
    }
    PetscCall(VecDestroy(&Mpsi));
  }
  /* optimal pairing: the one-to-one assignment of largest total MAC */
  PetscCall(DRAssignMax(nref, ntest, c->mac, c->pair));
  Deviations(c, fref, ftest, rigid_hz);
  RayleighRitz(c);
  PetscCall(Coverage(c));
  PetscCall(PetscFree(dots));
  PetscCall(PetscFree(nr));
  PetscCall(PetscFree(nt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Frequencies only: does pairing with an offset explain the rest of the
 * sets better?  Test mode j + dj with reference mode i + di, and so on up
 * to the end of either set, against the pairing j with i onwards: the first
 * pair nearer, and the sum of the distances |f_test - f_ref| over the pairs
 * both have smaller. */
static PetscBool ShiftBetter(const DRComparison *c, PetscInt i, PetscInt j, PetscInt di, PetscInt dj)
{
  const PetscReal *fr = c->fref, *ft = c->ftest;
  PetscReal        s0 = 0, s1 = 0;

  if (i + di >= c->nref || j + dj >= c->ntest || !(PetscAbsReal(ft[j + dj] - fr[i + di]) < PetscAbsReal(ft[j] - fr[i]))) return PETSC_FALSE;
  for (PetscInt t = 0; i + di + t < c->nref && j + dj + t < c->ntest; t++) {
    s1 += PetscAbsReal(ft[j + dj + t] - fr[i + di + t]);
    s0 += PetscAbsReal(ft[j + t] - fr[i + t]);
  }
  return (PetscBool)(s1 < s0);
}

/* Frequencies only: pairing in order of frequency, the k-th test mode with
 * the k-th reference mode, except across a gap: a flexible reference mode
 * is skipped (left unpaired: Coverage calls it missing when it lies inside
 * the compared range) when pairing the current test mode and every later
 * one with the next reference mode onwards is the better explanation
 * (ShiftBetter), and a flexible test mode is skipped (extra) when the same
 * holds the other way round.  A test set lacking one mode is then reported
 * as lacking that mode, not as every later mode compared with the one below
 * it; two sets with the same modes pair k-th with k-th (a shift would pair
 * every later mode with a neighbour: a larger sum).  Where one mode of a
 * close pair is gone the frequencies alone may name its neighbour.
 * Rigid-body modes (|f| < rigid_hz) are round-off around 0 in both sets,
 * their order meaningless: never skipped. */
static void PairInOrder(DRComparison *c)
{
  const PetscReal *fr = c->fref, *ft = c->ftest;
  PetscInt         i = 0, j = 0;

  for (PetscInt k = 0; k < c->ntest; k++) c->pair[k] = -1;
  while (i < c->nref && j < c->ntest) {
    PetscBool flex = (PetscBool)(PetscAbsReal(fr[i]) >= c->rigid_hz && PetscAbsReal(ft[j]) >= c->rigid_hz);
    if (flex && ShiftBetter(c, i, j, 1, 0)) i++;
    else if (flex && ShiftBetter(c, i, j, 0, 1)) j++;
    else c->pair[j++] = i++;
  }
}

PetscErrorCode DRCompareFrequencies(PetscInt nref, const PetscReal fref[], PetscInt ntest, const PetscReal ftest[], PetscReal rigid_hz, DRComparison *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->nref     = nref;
  c->ntest    = ntest;
  c->rigid_hz = rigid_hz;
  PetscCall(PetscMalloc1(ntest + 1, &c->pair));
  PetscCall(PetscMalloc1(ntest + 1, &c->err_pct));
  PetscCall(PetscMalloc1(nref + 1, &c->fref));
  PetscCall(PetscMalloc1(ntest + 1, &c->ftest));
  PetscCall(PetscArraycpy(c->fref, fref, nref));
  PetscCall(PetscArraycpy(c->ftest, ftest, ntest));
  PairInOrder(c);
  Deviations(c, fref, ftest, rigid_hz);
  RayleighRitz(c);
  PetscCall(Coverage(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComparisonView(MPI_Comm comm, const DRComparison *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "  mode   reduced [Hz]   pair    full [Hz]    dev [%%]      MAC   |X_jj|\n"));
  for (PetscInt j = 0; j < c->ntest; j++) {
    PetscInt i = c->pair[j];
    if (i < 0) {
      PetscCall(PetscPrintf(comm, "  %4" PetscInt_FMT "  %13.6f  %5s  %11s  %9s  %7s  %7s\n", j + 1, (double)c->ftest[j], "-", "-", "-", "-", "-"));
      continue;
    }
    PetscCall(PetscPrintf(comm, "  %4" PetscInt_FMT "  %13.6f  %5" PetscInt_FMT "  %11.6f  %9.5f  %7.5f  %7.5f\n", j + 1, (double)c->ftest[j], i + 1, (double)c->fref[i], (double)c->err_pct[j], c->mac ? (double)c->mac[i * c->ntest + j] : -1.0, c->xorth ? (double)PetscAbsReal(c->xorth[i * c->ntest + j]) : -1.0));
  }
  PetscCall(PetscPrintf(comm, "  max deviation %.5f %%, mean %.5f %%, rms %.5f %%; Rayleigh-Ritz bound f_reduced >= f_full: %s\n", (double)c->max_err_pct, (double)c->mean_err_pct, (double)c->rms_err_pct, c->rr_bound_ok ? "holds" : "VIOLATED"));
  if (!c->rr_bound_ok) {
    PetscInt nflex = 0;
    for (PetscInt k = 0; k < PetscMin(c->nref, c->ntest); k++)
      if (PetscAbsReal(c->fref[k]) >= c->rigid_hz) nflex++;
    PetscCall(PetscPrintf(comm, "  Rayleigh-Ritz violations: %" PetscInt_FMT " of %" PetscInt_FMT " flexible modes below the full model's (k-th against k-th); first at mode %" PetscInt_FMT ": %.9g < %.9g Hz; worst at mode %" PetscInt_FMT ": %.9g < %.9g Hz\n", c->rr_nviol, nflex, c->rr_first + 1, (double)c->ftest[c->rr_first], (double)c->fref[c->rr_first], c->rr_worst + 1, (double)c->ftest[c->rr_worst], (double)c->fref[c->rr_worst]));
  }
  for (PetscInt k = 0; k < c->nmissing; k++) PetscCall(PetscPrintf(comm, "  MISSING: full mode %" PetscInt_FMT " (%.9g Hz) has no reduced pair, below the compared range's top %.9g Hz\n", c->missing[k] + 1, (double)c->fref[c->missing[k]], (double)c->top_hz));
  for (PetscInt k = 0; k < c->nextra; k++) PetscCall(PetscPrintf(comm, "  EXTRA: reduced mode %" PetscInt_FMT " (%.9g Hz) has no full pair, inside the full model's range\n", c->extra[k] + 1, (double)c->ftest[c->extra[k]]));
  if (c->nmissing + c->nextra == 0 && c->ntest) PetscCall(PetscPrintf(comm, "  coverage: every full mode below %.9g Hz paired%s\n", (double)c->top_hz, c->nbeyond ? "" : ", no reduced mode unpaired"));
  if (c->nbeyond) PetscCall(PetscPrintf(comm, "  %" PetscInt_FMT " reduced mode(s) above the full model's highest frequency: not compared\n", c->nbeyond));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComparisonGetVerdict(const DRComparison *c, DRVerdict *v)
{
  PetscFunctionBeginUser;
  v->max_err_pct      = c->max_err_pct;
  v->top_hz           = c->top_hz;
  v->nmissing         = c->nmissing;
  v->nextra           = c->nextra;
  v->missing_first    = c->nmissing ? c->missing[0] : -1;
  v->extra_first      = c->nextra ? c->extra[0] : -1;
  v->missing_first_hz = c->nmissing ? c->fref[c->missing[0]] : 0;
  v->extra_first_hz   = c->nextra ? c->ftest[c->extra[0]] : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRVerdictCheck(MPI_Comm comm, const DRVerdict *v, PetscReal tol, const char *gate, const char *tolname, const char *ref, const char *test)
{
  PetscFunctionBeginUser;
  PetscCheck(!v->nmissing, comm, DR_ERR_VERIFY, "%s: %s mode %" PetscInt_FMT " (%.9g Hz) has no pair in %s (%" PetscInt_FMT " missing, %" PetscInt_FMT " extra), expected every %s mode below %s's highest frequency %.9g Hz paired (%s %g)", gate, ref, v->missing_first + 1, (double)v->missing_first_hz, test, v->nmissing, v->nextra, ref, test, (double)v->top_hz, tolname, (double)tol);
  PetscCheck(!v->nextra, comm, DR_ERR_VERIFY, "%s: %s mode %" PetscInt_FMT " (%.9g Hz) has no pair in %s (%" PetscInt_FMT " extra), expected every %s mode inside %s's range paired (%s %g)", gate, test, v->extra_first + 1, (double)v->extra_first_hz, ref, v->nextra, test, ref, tolname, (double)tol);
  PetscCheck(v->max_err_pct <= tol, comm, DR_ERR_VERIFY, "%s: largest deviation %.6g %% exceeds %s %g", gate, (double)v->max_err_pct, tolname, (double)tol);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComparisonWrite(DRStore s, const char *group, const DRComparison *c)
{
  char       path[256];
  PetscInt   dims[2] = {c->nref, c->ntest};
  PetscInt64 *pair;

  PetscFunctionBeginUser;
  if (c->mac) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/mac", group));
    PetscCall(DRStoreWriteReal(s, path, 2, dims, c->mac, NULL));
  }
  if (c->xorth) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/cross_orthogonality", group));
    PetscCall(DRStoreWriteReal(s, path, 2, dims, c->xorth, NULL));
  }
  dims[0] = c->ntest;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/freq_error_pct", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, c->err_pct, "%"));
  PetscCall(PetscMalloc1(c->ntest + 1, &pair));
  for (PetscInt j = 0; j < c->ntest; j++) pair[j] = c->pair[j] + 1; /* 0: unpaired */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/pairing", group));
  PetscCall(DRStoreWriteInt(s, path, 1, dims, pair));
  PetscCall(PetscFree(pair));
  dims[0] = c->nref;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/full_frequencies_hz", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, c->fref, "Hz"));
  PetscCall(DRStoreAttrReal(s, group, "max_error_pct", c->max_err_pct));
  PetscCall(DRStoreAttrReal(s, group, "mean_error_pct", c->mean_err_pct));
  PetscCall(DRStoreAttrReal(s, group, "rms_error_pct", c->rms_err_pct));
  PetscCall(DRStoreAttrInt(s, group, "rayleigh_ritz_bound_ok", c->rr_bound_ok));
  PetscCall(DRStoreAttrInt(s, group, "rayleigh_ritz_violations", c->rr_nviol));
  PetscCall(DRStoreAttrInt(s, group, "rayleigh_ritz_first_violation", c->rr_first + 1));
  PetscCall(PetscMalloc1(PetscMax(c->nmissing, c->nextra) + 1, &pair));
  for (PetscInt k = 0; k < c->nmissing; k++) pair[k] = c->missing[k] + 1;
  dims[0] = c->nmissing;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/missing_modes", group));
  PetscCall(DRStoreWriteInt(s, path, 1, dims, pair));
  for (PetscInt k = 0; k < c->nextra; k++) pair[k] = c->extra[k] + 1;
  dims[0] = c->nextra;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/extra_modes", group));
  PetscCall(DRStoreWriteInt(s, path, 1, dims, pair));
  PetscCall(PetscFree(pair));
  PetscCall(DRStoreAttrReal(s, group, "compared_top_hz", c->top_hz));
  PetscCall(DRStoreAttrString(s, group, "coverage_convention", "missing_modes: 1-based full (reference) modes left unpaired although below compared_top_hz (the highest reduced frequency) by more than the largest deviation; extra_modes: 1-based reduced (test) modes left unpaired although inside the full model's range; rayleigh_ritz_first_violation: 1-based k of the first f_reduced_k < f_full_k beyond 1e-7 relative (0: none)"));
  PetscCall(DRStoreAttrString(s, group, "pairing_convention", "1-based index of the paired full-model mode, by optimal assignment (largest total MAC, one-to-one; 0: unpaired); mac and cross_orthogonality are [n_full, n_reduced]"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComparisonDestroy(DRComparison *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->mac));
  PetscCall(PetscFree(c->xorth));
  PetscCall(PetscFree(c->pair));
  PetscCall(PetscFree(c->err_pct));
  PetscCall(PetscFree(c->fref));
  PetscCall(PetscFree(c->ftest));
  PetscCall(PetscFree2(c->missing, c->extra));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComparisonBands(const DRComparison *c, PetscReal fmax, PetscInt nbands, DRBandStats *b)
{
  PetscReal w;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(b, sizeof(*b)));
  PetscCheck(fmax > 0 && nbands > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "bands need fmax > 0 and nbands > 0, got fmax %g, nbands %" PetscInt_FMT, (double)fmax, nbands);
  b->nbands  = nbands;
  b->fmax_hz = fmax;
  w          = fmax / nbands;
  PetscCall(PetscMalloc6(nbands, &b->lower_hz, nbands, &b->upper_hz, nbands, &b->nmodes, nbands, &b->max_err_pct, nbands, &b->mean_err_pct, nbands, &b->rms_err_pct));
  for (PetscInt k = 0; k < nbands; k++) {
    b->lower_hz[k]     = k * w;
    b->upper_hz[k]     = k + 1 == nbands ? fmax : (k + 1) * w;
    b->nmodes[k]       = 0;
    b->max_err_pct[k]  = 0;
    b->mean_err_pct[k] = 0;
    b->rms_err_pct[k]  = 0;
  }
  for (PetscInt j = 0; j < c->ntest; j++) {
    PetscReal f, e = PetscAbsReal(c->err_pct[j]);
    PetscInt  k;
    if (c->pair[j] < 0) continue;
    f = c->fref[c->pair[j]];
    if (PetscAbsReal(f) < c->rigid_hz || f < 0 || f > fmax) continue;
    /* the same edges as written: lower_hz <= f < upper_hz, last band closed */
    for (k = 0; k < nbands - 1 && f >= b->upper_hz[k]; k++) {}
    b->nmodes[k]++;
    b->max_err_pct[k] = PetscMax(b->max_err_pct[k], e);
    b->mean_err_pct[k] += e;
    b->rms_err_pct[k] += e * e;
  }
  for (PetscInt k = 0; k < nbands; k++) {
    if (b->nmodes[k]) {
      b->mean_err_pct[k] /= b->nmodes[k];
      b->rms_err_pct[k] = PetscSqrtReal(b->rms_err_pct[k] / b->nmodes[k]);
    } else b->max_err_pct[k] = b->mean_err_pct[k] = b->rms_err_pct[k] = (PetscReal)NAN;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBandStatsView(MPI_Comm comm, const DRBandStats *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "accuracy per band (modes binned by the full-model frequency of their MAC pair; rigid-body modes left out):\n"));
  PetscCall(PetscPrintf(comm, "        band [Hz]          modes   max dev [%%]  mean dev [%%]   rms dev [%%]\n"));
  for (PetscInt k = 0; k < b->nbands; k++) {
    PetscCall(PetscPrintf(comm, "  [%9.4g, %9.4g%c  %5" PetscInt_FMT, (double)b->lower_hz[k], (double)b->upper_hz[k], k + 1 == b->nbands ? ']' : ')', b->nmodes[k]));
    if (b->nmodes[k]) PetscCall(PetscPrintf(comm, "  %12.5f  %12.5f  %12.5f\n", (double)b->max_err_pct[k], (double)b->mean_err_pct[k], (double)b->rms_err_pct[k]));
    else PetscCall(PetscPrintf(comm, "  %12s  %12s  %12s\n", "-", "-", "-"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBandStatsWrite(DRStore s, const char *group, const DRBandStats *b)
{
  char        path[256];
  PetscInt    dims[1] = {b->nbands};
  PetscInt64 *n;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands/lower_hz", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, b->lower_hz, "Hz"));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands/upper_hz", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, b->upper_hz, "Hz"));
  PetscCall(PetscMalloc1(b->nbands, &n));
  for (PetscInt k = 0; k < b->nbands; k++) n[k] = b->nmodes[k];
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands/n_modes", group));
  PetscCall(DRStoreWriteInt(s, path, 1, dims, n));
  PetscCall(PetscFree(n));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands/max_error_pct", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, b->max_err_pct, "%"));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands/mean_error_pct", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, b->mean_err_pct, "%"));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands/rms_error_pct", group));
  PetscCall(DRStoreWriteReal(s, path, 1, dims, b->rms_err_pct, "%"));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bands", group));
  PetscCall(DRStoreAttrReal(s, path, "fmax_hz", b->fmax_hz));
  PetscCall(DRStoreAttrString(s, path, "binning", "test modes by the reference (full-model) frequency of their MAC pair: lower_hz <= f < upper_hz, the last band closed; rigid-body pairs and pairs above fmax_hz left out; max/mean/rms of |freq_error_pct|, NaN for an empty band"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBandStatsDestroy(DRBandStats *b)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree6(b->lower_hz, b->upper_hz, b->nmodes, b->max_err_pct, b->mean_err_pct, b->rms_err_pct));
  b->nbands = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
