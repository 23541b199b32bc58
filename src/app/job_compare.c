/* dynred compare A.h5 B.h5 [-tol_pct X] [-output C.h5] [options]: two
 * dynred results side by side, A the reference and B the test, with the
 * statistics of the CMS verification (src/verify/compare.c): frequencies,
 * MAC matrix and optimal one-to-one pairing, deviations (max, mean, RMS),
 * accuracy per band and, with a mass matrix, cross-orthogonality.
 *
 * Groups read (the first present, or -group_a / -group_b): /cms, /modal,
 * /gmp/export, /ss, /ga/solutions/001; from each frequencies_hz and, when
 * present, modes [ndof, nmodes] with labels [ndof, 2] (or dof_labels).
 * With modes in both, the MAC is formed over the labels the two share (rows
 * matched by label, not by position); without, the modes are paired in
 * order of frequency (frequencies only: the k-th of B with the k-th of A,
 * except that a mode of one with no counterpart in the other is left
 * unpaired and reported as missing or extra; compare.c, PairInOrder).  -mass FILE.mtx (Matrix
 * Market over A's labels, e.g. written by DRComponentWriteMTX) adds the
 * cross-orthogonality A^T M B.  Small dense work, replicated on every rank;
 * rank 0 prints and the store writes /compare.  Exit status 1 (a one-line
 * error after the output is written) when the largest deviation exceeds
 * -tol_pct, or a mode is missing or extra (compare.h: coverage). */
#include "app.h"
#include <dynred/compare.h>
#include <dynred/h5.h>
#include <dynred/io.h>

typedef struct {
  char        path[PETSC_MAX_PATH_LEN], group[256];
  PetscInt    nf, ndof;      /* frequencies; rows of modes (0: no modes) */
  PetscReal  *f, *modes;     /* modes row-major [ndof, nf] */
  PetscInt64 *lab;           /* [ndof, 2]: node, direction */
  PetscReal   fmax;          /* the group's fmax_hz attribute (0 when absent) */
} Result;

static PetscErrorCode ResultRead(const char *path, const char *want, Result *r)
{
  static const char *const groups[] = {"/cms", "/modal", "/gmp/export", "/ss", "/ga/solutions/001", NULL};
  hid_t     f;
  char      d[320];
  PetscBool has;
  int       nd;
  hsize_t   dims[4];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->path, path, sizeof(r->path)));
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open, expected a dynred result (HDF5)", path);
  if (want && want[0]) {
    PetscCall(PetscSNPrintf(d, sizeof(d), "%s/frequencies_hz", want));
    PetscCall(DRH5Exists(f, d, &has));
    PetscCheck(has, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no dataset %s, expected a group with frequencies_hz", path, d);
    PetscCall(PetscStrncpy(r->group, want, sizeof(r->group)));
  } else {
    for (int k = 0; groups[k] && !r->group[0]; k++) {
      PetscCall(PetscSNPrintf(d, sizeof(d), "%s/frequencies_hz", groups[k]));
      PetscCall(DRH5Exists(f, d, &has));
      if (has) PetscCall(PetscStrncpy(r->group, groups[k], sizeof(r->group)));
    }
    PetscCheck(r->group[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no /cms, /modal, /gmp/export, /ss or /ga/solutions/001 with frequencies_hz, expected a dynred result (or name the group with -group_a/-group_b)", path);
  }
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/frequencies_hz", r->group));
  PetscCall(DRH5ReadAll(f, d, H5T_NATIVE_DOUBLE, &nd, dims, (void **)&r->f));
  PetscCheck(nd == 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has %d dimensions, expected 1", path, d, nd);
  r->nf = (PetscInt)dims[0];
  for (PetscInt k = 0; k < r->nf; k++) PetscCheck(PetscIsNormalReal(r->f[k]) || r->f[k] == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s[%" PetscInt_FMT "] = %g, expected a finite frequency", path, d, k, (double)r->f[k]);
  PetscCall(DRH5AttrReadReal(f, r->group, "fmax_hz", &r->fmax, NULL));
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/modes", r->group));
  PetscCall(DRH5Exists(f, d, &has));
  if (has) {
    hsize_t ldims[4];
    char    l[320];
    PetscCall(DRH5ReadAll(f, d, H5T_NATIVE_DOUBLE, &nd, dims, (void **)&r->modes));
    PetscCheck(nd == 2 && (PetscInt)dims[1] == r->nf, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is not [ndof, %" PetscInt_FMT "], expected one column per frequency", path, d, r->nf);
    r->ndof = (PetscInt)dims[0];
    PetscCall(PetscSNPrintf(l, sizeof(l), "%s/dof_labels", r->group));
    PetscCall(DRH5Exists(f, l, &has));
    if (!has) PetscCall(PetscSNPrintf(l, sizeof(l), "%s/labels", r->group));
    PetscCall(DRH5Exists(f, l, &has));
    PetscCheck(has, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has no labels beside it, expected %s [ndof, 2]", path, d, l);
    PetscCall(DRH5ReadAll(f, l, H5T_NATIVE_INT64, &nd, ldims, (void **)&r->lab));
    PetscCheck(nd == 2 && ldims[1] == 2 && ldims[0] == dims[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is not [%" PetscInt_FMT ", 2], expected one (node, direction) per row of %s", path, l, r->ndof, d);
    for (PetscInt i = 0; i < r->ndof * r->nf; i++) PetscCheck(!PetscIsInfOrNanReal(r->modes[i]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s holds a non-finite value, expected finite mode shapes", path, d);
  }
  PetscCall(DRH5FileClose(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ResultFree(Result *r)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(r->f));
  PetscCall(PetscFree(r->modes));
  PetscCall(PetscFree(r->lab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CmpLabel(const void *a, const void *b)
{
  const PetscInt64 *x = (const PetscInt64 *)a, *y = (const PetscInt64 *)b;
  return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0;
}

/* Rows of A and B holding the same label, in A's order: *n pairs ra[k], rb[k]. */
static PetscErrorCode MatchLabels(const Result *a, const Result *b, PetscInt *n, PetscInt **ra, PetscInt **rb)
{
  PetscInt64 *key; /* [label, row] of B, sorted */
  PetscInt    cnt = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(2 * b->ndof + 2, &key));
  PetscCall(PetscMalloc2(a->ndof + 1, ra, a->ndof + 1, rb));
  for (PetscInt i = 0; i < b->ndof; i++) {
    key[2 * i]     = DRLabelMake(b->lab[2 * i], b->lab[2 * i + 1]);
    key[2 * i + 1] = i;
  }
  qsort(key, (size_t)b->ndof, 2 * sizeof(PetscInt64), CmpLabel);
  for (PetscInt i = 0; i < a->ndof; i++) {
    PetscInt64 l  = DRLabelMake(a->lab[2 * i], a->lab[2 * i + 1]);
    PetscInt   lo = 0, hi = b->ndof;
    while (lo < hi) {
      PetscInt mid = (lo + hi) / 2;
      if (key[2 * mid] < l) lo = mid + 1;
      else hi = mid;
    }
    if (lo < b->ndof && key[2 * lo] == l) {
      (*ra)[cnt]   = i;
      (*rb)[cnt++] = (PetscInt)key[2 * lo + 1];
    }
  }
  *n = cnt;
  PetscCall(PetscFree(key));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Sequential vectors of the modes on the matched rows. */
static PetscErrorCode ModeVecs(const Result *r, PetscInt n, const PetscInt rows[], Vec **v)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(r->nf + 1, v));
  for (PetscInt j = 0; j < r->nf; j++) {
    PetscScalar *a;
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, n, &(*v)[j]));
    PetscCall(VecGetArray((*v)[j], &a));
    for (PetscInt k = 0; k < n; k++) a[k] = r->modes[rows[k] * r->nf + j];
    PetscCall(VecRestoreArray((*v)[j], &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DestroyVecs(PetscInt n, Vec **v)
{
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < n; j++) PetscCall(VecDestroy(&(*v)[j]));
  PetscCall(PetscFree(*v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MAC (and cross-orthogonality) over shared labels, or frequencies only. */
static PetscErrorCode Compare(const Result *a, const Result *b, const char *masspath, PetscReal rigid, DRComparison *cmp, PetscInt *nshared)
{
  PetscFunctionBeginUser;
  *nshared = 0;
  if (a->modes && b->modes && a->nf && b->nf) {
    PetscInt *ra, *rb, n = 0;
    Vec      *pa, *pb;
    Mat       M = NULL;
    PetscCall(MatchLabels(a, b, &n, &ra, &rb));
    PetscCheck(n > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s %s and %s %s share no DOF label, expected mode shapes of the same model", a->path, a->group, b->path, b->group);
    if (masspath[0]) {
      PetscInt mm, mn;
      PetscCheck(n == a->ndof, PETSC_COMM_WORLD, DR_ERR_INPUT, "-mass %s: %s has %" PetscInt_FMT " labels of which %" PetscInt_FMT " are in %s, expected the same labels for the cross-orthogonality", masspath, a->path, a->ndof, n, b->path);
      PetscCall(DRMatReadMatrixMarket(PETSC_COMM_SELF, masspath, &M));
      PetscCall(MatGetSize(M, &mm, &mn));
      PetscCheck(mm == a->ndof && mn == a->ndof, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT " (the labels of %s in their order)", masspath, mm, mn, a->ndof, a->ndof, a->path);
    }
    PetscCall(ModeVecs(a, n, ra, &pa));
    PetscCall(ModeVecs(b, n, rb, &pb));
    PetscCall(DRCompareModes(M, a->nf, a->f, pa, b->nf, b->f, pb, rigid, cmp));
    PetscCall(DestroyVecs(a->nf, &pa));
    PetscCall(DestroyVecs(b->nf, &pb));
    PetscCall(MatDestroy(&M));
    PetscCall(PetscFree2(ra, rb));
    *nshared = n;
  } else PetscCall(DRCompareFrequencies(a->nf, a->f, b->nf, b->f, rigid, cmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteCompare(const char *out, const Result *a, const Result *b, const DRComparison *cmp, const DRBandStats *bands, PetscReal macmin, PetscInt nshared)
{
  DRStore s;

  PetscFunctionBeginUser;
  PetscCall(DRStoreCreate(PETSC_COMM_WORLD, out, &s));
  PetscCall(DRStoreAttrString(s, "/", "dynred_version", DYNRED_VERSION));
  PetscCall(DRComparisonWrite(s, "/compare", cmp));
  if (bands) PetscCall(DRBandStatsWrite(s, "/compare", bands));
  PetscCall(DRStoreAttrString(s, "/compare", "file_a", a->path));
  PetscCall(DRStoreAttrString(s, "/compare", "group_a", a->group));
  PetscCall(DRStoreAttrString(s, "/compare", "file_b", b->path));
  PetscCall(DRStoreAttrString(s, "/compare", "group_b", b->group));
  PetscCall(DRStoreAttrString(s, "/compare", "roles", "A (first file) is the reference ('full' in the dataset names), B the test ('reduced')"));
  PetscCall(DRStoreAttrReal(s, "/compare", "rms_error_pct", cmp->rms_err_pct));
  PetscCall(DRStoreAttrReal(s, "/compare", "mac_min_paired", macmin));
  PetscCall(DRStoreAttrInt(s, "/compare", "n_shared_labels", nshared));
  PetscCall(DRStoreClose(&s, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobCompare(int argc, char **argv)
{
  const char  *fa = NULL, *fb = NULL;
  char         ga[256] = "", gb[256] = "", out[PETSC_MAX_PATH_LEN] = "", mass[PETSC_MAX_PATH_LEN] = "";
  PetscReal    tol = -1, fmax = 0, rigid = 0, macmin = 1;
  PetscInt     nbands = 6, nshared;
  PetscBool    set;
  Result       a, b;
  DRComparison cmp;
  DRBandStats  bands;
  DRVerdict    verdict;
  PetscBool    hasbands = PETSC_FALSE;

  PetscFunctionBeginUser;
  for (int k = 2; k < argc; k++) {
    if (argv[k][0] == '-') {
      k++; /* an option and its value */
      continue;
    }
    if (!fa) fa = argv[k];
    else if (!fb) fb = argv[k];
    else SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "command line: extra argument '%s', expected dynred compare A.h5 B.h5 [-tol_pct X] [-output C.h5]", argv[k]);
  }
  PetscCheck(fa && fb, PETSC_COMM_WORLD, DR_ERR_INPUT, "command line: expected dynred compare A.h5 B.h5 [-tol_pct X] [-output C.h5] [-fmax HZ] [-nbands N] [-group_a G] [-group_b G] [-mass M.mtx]");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "dynred compare", NULL);
  PetscCall(PetscOptionsReal("-tol_pct", "exit with an error when the largest |deviation| exceeds this [%], or a mode of A below B's highest frequency is unpaired (missing), or a mode of B inside A's range is (extra) (negative: no gate)", NULL, tol, &tol, NULL));
  PetscCall(PetscOptionsString("-output", "HDF5 file for the /compare group (none when unset)", NULL, out, out, sizeof(out), NULL));
  PetscCall(PetscOptionsReal("-fmax", "upper end of the bands [Hz] (0: B's fmax_hz attribute, else its highest frequency)", NULL, fmax, &fmax, NULL));
  PetscCall(PetscOptionsInt("-nbands", "number of equal frequency bands", NULL, nbands, &nbands, NULL));
  PetscCall(PetscOptionsString("-group_a", "group of A (default: the first of /cms /modal /gmp/export /ss /ga/solutions/001)", NULL, ga, ga, sizeof(ga), NULL));
  PetscCall(PetscOptionsString("-group_b", "group of B", NULL, gb, gb, sizeof(gb), NULL));
  PetscCall(PetscOptionsString("-mass", "Matrix Market mass matrix over A's labels: cross-orthogonality A^T M B", NULL, mass, mass, sizeof(mass), &set));
  PetscOptionsEnd();
  PetscCheck(nbands >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "command line: -nbands %" PetscInt_FMT ", expected >= 1", nbands);
  PetscCheck(fmax >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "command line: -fmax %g, expected >= 0 Hz", (double)fmax);
  PetscCall(ResultRead(fa, ga, &a));
  PetscCall(ResultRead(fb, gb, &b));
  /* rigid-body threshold as in the CMS verification: 1e-4 of A's first flexible frequency */
  for (PetscInt i = 0; i < a.nf; i++)
    if (a.f[i] > 1e-3) {
      rigid = 1e-4 * a.f[i];
      break;
    }
  PetscCall(Compare(&a, &b, mass, rigid, &cmp, &nshared));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "compare: A = %s %s (%" PetscInt_FMT " modes, reference), B = %s %s (%" PetscInt_FMT " modes)\n", a.path, a.group, a.nf, b.path, b.group, b.nf));
  if (cmp.mac) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  MAC over %" PetscInt_FMT " shared DOF labels (A %" PetscInt_FMT ", B %" PetscInt_FMT "); pairing: optimal assignment (largest total MAC)\n", nshared, a.ndof, b.ndof));
  else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  no mode shapes in both: frequencies only, paired in order (the k-th of B with the k-th of A; a mode with no counterpart in the other set unpaired)\n"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  columns: mode of B, its frequency, paired mode of A, its frequency, deviation, MAC, |cross-orthogonality| (-1: not available)\n"));
  PetscCall(DRComparisonView(PETSC_COMM_WORLD, &cmp));
  for (PetscInt j = 0; j < cmp.ntest && cmp.mac; j++)
    if (cmp.pair[j] >= 0) macmin = PetscMin(macmin, cmp.mac[cmp.pair[j] * cmp.ntest + j]);
  if (cmp.mac) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  smallest MAC of a pair: %.9f\n", (double)macmin));
  if (fmax <= 0) fmax = b.fmax > 0 ? b.fmax : (b.nf ? b.f[b.nf - 1] : 0);
  if (fmax > 0) {
    PetscCall(DRComparisonBands(&cmp, fmax, nbands, &bands));
    PetscCall(DRBandStatsView(PETSC_COMM_WORLD, &bands));
    hasbands = PETSC_TRUE;
  }
  if (out[0]) {
    PetscCall(WriteCompare(out, &a, &b, &cmp, hasbands ? &bands : NULL, macmin, nshared));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", out));
  }
  PetscCall(DRComparisonGetVerdict(&cmp, &verdict));
  if (hasbands) PetscCall(DRBandStatsDestroy(&bands));
  PetscCall(DRComparisonDestroy(&cmp));
  PetscCall(ResultFree(&a));
  PetscCall(ResultFree(&b));
  if (tol >= 0) PetscCall(DRVerdictCheck(PETSC_COMM_WORLD, &verdict, tol, "compare", "-tol_pct", "A", "B"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
