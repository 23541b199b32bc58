/* Generalized symmetric eigensolver: SLEPc Krylov-Schur, shift-and-invert,
 * MUMPS Cholesky; lowest n modes or spectrum slicing below fmax. */
#include <dynred/modal.h>
#include <slepceps.h>

struct _p_DRModal {
  MPI_Comm  comm;
  char      prefix[64];
  char      what[PETSC_MAX_PATH_LEN];
  Mat       K, M;
  PetscInt  nmodes;
  PetscReal fmax, tol, sigma;
  PetscReal scale;     /* |trace-based shift| (or |user shift|): the zero-eigenvalue scale */
  PetscBool sigma_set;
  PetscBool try_zero;  /* default shift, lowest-n path: try sigma = 0 (K definite) first */
  PetscBool slicing; /* fmax by spectrum slicing (inertia-proven) or by growing nev */
  PetscInt  nev;     /* current nev of the growing-nev path */
  EPS       eps;
  /* results */
  PetscInt   n;
  PetscReal *freq, *lambda, *resid;
  Vec       *modes;
  /* progress */
  PetscLogDouble last;
};

PetscErrorCode DRModalCreate(MPI_Comm comm, DRModal *m)
{
  PetscFunctionBeginUser;
  PetscCall(DREigenInitializePackage());
  PetscCall(PetscNew(m));
  (*m)->comm   = comm;
  (*m)->nmodes = 20;
  (*m)->tol    = 1e-12;
  (*m)->slicing = PETSC_TRUE;
  PetscCall(PetscStrncpy((*m)->prefix, "modal_", sizeof((*m)->prefix)));
  PetscCall(PetscStrncpy((*m)->what, "model", sizeof((*m)->what)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeResults(DRModal m)
{
  PetscFunctionBeginUser;
  if (m->modes) PetscCall(VecDestroyVecs(m->n, &m->modes));
  PetscCall(PetscFree(m->freq));
  PetscCall(PetscFree(m->lambda));
  PetscCall(PetscFree(m->resid));
  m->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalDestroy(DRModal *m)
{
  PetscFunctionBeginUser;
  if (!*m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FreeResults(*m));
  PetscCall(EPSDestroy(&(*m)->eps));
  PetscCall(MatDestroy(&(*m)->K));
  PetscCall(MatDestroy(&(*m)->M));
  PetscCall(PetscFree(*m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

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

PetscErrorCode DRModalSetSlicing(DRModal m, PetscBool slicing)
{
  PetscFunctionBeginUser;
  m->slicing = slicing;
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

/* Progress for long solves: one line at most every 5 s. */
static PetscErrorCode Monitor(EPS eps, PetscInt its, PetscInt nconv, PetscScalar *er, PetscScalar *ei, PetscReal *errest, PetscInt nest, void *ctx)
{
  DRModal        m = (DRModal)ctx;
  PetscLogDouble t = DRTime();
  PetscInt       nev;

  PetscFunctionBeginUser;
  if (t - m->last < 5.0) PetscFunctionReturn(PETSC_SUCCESS);
  m->last = t;
  PetscCall(EPSGetDimensions(eps, &nev, NULL, NULL));
  if (m->fmax > 0) PetscCall(DRProgress(m->comm, "%seigensolve: iteration %" PetscInt_FMT ", %" PetscInt_FMT " converged in the current slice", m->prefix, its, nconv));
  else PetscCall(DRProgress(m->comm, "%seigensolve: iteration %" PetscInt_FMT ", %" PetscInt_FMT " of %" PetscInt_FMT " converged", m->prefix, its, nconv, nev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSetFromOptions(DRModal m)
{
  ST  st;
  KSP ksp;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCheck(m->K && m->M, m->comm, PETSC_ERR_ORDER, "DRModalSetOperators() first");
  if (!m->sigma_set) {
    Vec       d;
    PetscReal tk, tm;
    PetscCall(MatCreateVecs(m->K, &d, NULL));
    PetscCall(MatGetDiagonal(m->K, d));
    PetscCall(VecSum(d, &tk));
    PetscCall(MatGetDiagonal(m->M, d));
    PetscCall(VecSum(d, &tm));
    PetscCall(VecDestroy(&d));
    m->sigma = -1e-8 * PetscAbsReal(tk / tm);
    if (m->sigma == 0) m->sigma = -1e-8;
  }
  {
    PetscBool flg;
    PetscReal shift_hz = 0;
    PetscOptionsBegin(m->comm, m->prefix, "dynred modal solver", NULL);
    PetscCall(PetscOptionsReal("-shift_hz", "negative shift of shift-and-invert, as a frequency: sigma = -(2 pi f)^2 (default from trace(K)/trace(M))", NULL, shift_hz, &shift_hz, &flg));
    if (flg && shift_hz != 0) m->sigma = -PetscSqr(2 * PETSC_PI * shift_hz);
    m->try_zero = (PetscBool)(!m->sigma_set && !(flg && shift_hz != 0));
    PetscCall(PetscOptionsBool("-slicing", "modes below fmax by spectrum slicing (proven by inertia) instead of growing the number of requested modes", NULL, m->slicing, &m->slicing, NULL));
    PetscOptionsEnd();
  }
  m->scale = PetscAbsReal(m->sigma);
  if (m->fmax > 0 && m->slicing) m->try_zero = PETSC_FALSE; /* the slice [sigma, lmax] must include slightly negative round-off of rigid modes */
  PetscCall(EPSDestroy(&m->eps));
  PetscCall(EPSCreate(m->comm, &m->eps));
  PetscCall(EPSSetOptionsPrefix(m->eps, m->prefix));
  PetscCall(EPSSetOperators(m->eps, m->K, m->M));
  PetscCall(EPSSetProblemType(m->eps, EPS_GHEP));
  PetscCall(EPSSetType(m->eps, EPSKRYLOVSCHUR));
  PetscCall(EPSSetTolerances(m->eps, m->tol, 1000));
  PetscCall(EPSGetST(m->eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  {
    /* MUMPS must return the inertia (sequential root factorization) for
     * spectrum slicing and for the semidefiniteness proof in parallel. */
    char      opt[128];
    PetscBool has;
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%sst_mat_mumps_icntl_13", m->prefix));
    PetscCall(PetscOptionsHasName(NULL, NULL, opt, &has));
    if (!has) {
      PetscCall(PetscOptionsSetValue(NULL, opt, "1"));
      PetscCall(PetscOptionsHasName(NULL, NULL, opt, &has)); /* ours: never reported as unused */
    }
  }
  if (m->fmax > 0 && m->slicing) {
    PetscReal lmax = PetscSqr(2 * PETSC_PI * m->fmax);
    PetscCall(EPSSetWhichEigenpairs(m->eps, EPS_ALL));
    PetscCall(EPSSetInterval(m->eps, m->sigma, lmax));
  } else {
    PetscInt n;
    PetscCall(MatGetSize(m->K, &n, NULL));
    PetscCheck(m->nmodes <= n, m->comm, DR_ERR_INPUT, "%s: %" PetscInt_FMT " modes requested but the model has only %" PetscInt_FMT " DOFs", m->what, m->nmodes, n);
    /* fmax without slicing: start with nmodes (or 16) and double until the
     * highest converged mode is above fmax (DRModalSolve) */
    m->nev = m->fmax > 0 ? PetscMin(PetscMax(m->nmodes, 16), n) : m->nmodes;
    PetscCall(EPSSetWhichEigenpairs(m->eps, EPS_TARGET_MAGNITUDE));
    PetscCall(EPSSetTarget(m->eps, m->sigma));
    PetscCall(EPSSetDimensions(m->eps, m->nev, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  PetscCall(EPSMonitorSet(m->eps, Monitor, m, NULL));
  PetscCall(EPSSetFromOptions(m->eps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetKSP(DRModal m, KSP *ksp)
{
  ST st;

  PetscFunctionBeginUser;
  PetscCheck(m->eps, m->comm, PETSC_ERR_ORDER, "DRModalSetFromOptions() first");
  PetscCall(EPSGetST(m->eps, &st));
  PetscCall(STGetKSP(st, ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalResidual(Mat K, Mat M, PetscReal lambda, Vec x, PetscReal *r)
{
  Vec       kx, mx;
  PetscReal nk, nm, nr;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(x, &kx));
  PetscCall(VecDuplicate(x, &mx));
  PetscCall(MatMult(K, x, kx));
  PetscCall(MatMult(M, x, mx));
  PetscCall(VecNorm(kx, NORM_2, &nk));
  PetscCall(VecNorm(mx, NORM_2, &nm));
  PetscCall(VecAXPY(kx, -lambda, mx));
  PetscCall(VecNorm(kx, NORM_2, &nr));
  *r = nr / (nk + PetscAbsReal(lambda) * nm + PETSC_SMALL * PETSC_SMALL);
  PetscCall(VecDestroy(&kx));
  PetscCall(VecDestroy(&mx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Negative pivots of the Cholesky factorization in pc, when the solver can
 * tell (MUMPS with ICNTL(13) = 1); *known false otherwise (nneg left 0). */
static PetscErrorCode FactorNegatives(PC pc, PetscInt *nneg, PetscBool *known)
{
  Mat           F;
  MatSolverType stype;

  PetscFunctionBeginUser;
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(MatFactorGetSolverType(F, &stype));
  PetscCall(PetscStrcmp(stype, MATSOLVERMUMPS, known));
  if (*known) PetscCall(MatGetInertia(F, nneg, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Inertia of K - sigma M from the factorization SLEPc made: the number of
 * eigenvalues below sigma.  Non-zero means K is not semidefinite. */
static PetscErrorCode CheckInertia(DRModal m)
{
  ST        st;
  KSP       ksp;
  PC        pc;
  PetscBool isslice = (PetscBool)(m->fmax > 0 && m->slicing), ischol;
  PetscInt  nneg = 0;

  PetscFunctionBeginUser;
  PetscCall(EPSGetST(m->eps, &st));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &ischol));
  if (isslice) {
    PetscInt   ns, *inertias;
    PetscReal *shifts;
    PetscCall(EPSKrylovSchurGetInertias(m->eps, &ns, &shifts, &inertias));
    if (ns > 0 && shifts[0] <= m->sigma * (1 - 1e-12)) nneg = inertias[0];
    PetscCall(PetscFree(shifts));
    PetscCall(PetscFree(inertias));
  } else if (ischol) {
    PetscBool known;
    PetscCall(FactorNegatives(pc, &nneg, &known));
  }
  PetscCheck(nneg == 0, m->comm, DR_ERR_INPUT, "%s: K is not positive semidefinite: %" PetscInt_FMT " eigenvalue(s) of (K, M) lie below the shift %g; expected symmetric positive (semi)definite K and positive definite M (check material data and element orientation)", m->what, nneg, (double)m->sigma);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The default shift -1e-8 trace(K)/trace(M) sits near the top of the
 * spectrum's scale: on finely meshed beams (rotational terms dominate the
 * trace) it is 1e10 times the lowest eigenvalues, and shift-and-invert
 * Krylov-Schur then crawls (a 500k-DOF frame: > 600 s for 10 modes, against
 * 15 s by slicing).  So when the shift is the default and the lowest modes
 * are wanted, factor K itself first: if the factorization succeeds with no
 * negative pivot (K definite, or semidefinite with positive round-off
 * pivots), shift at 0 and SLEPc reuses this factorization; otherwise keep
 * the trace-based shift (SLEPc factors K - sigma M as before: one wasted
 * factorization for a floating model). */
static PetscErrorCode TryZeroShift(DRModal m)
{
  ST                 st;
  KSP                ksp;
  PC                 pc;
  PetscBool          ischol, issinv, errflag, known = PETSC_FALSE;
  PCFailedReason     reason;
  PetscInt           nneg = 0;

  PetscFunctionBeginUser;
  m->try_zero = PETSC_FALSE;
  PetscCall(EPSGetST(m->eps, &st));
  PetscCall(PetscObjectTypeCompare((PetscObject)st, STSINVERT, &issinv));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &ischol));
  if (!issinv || !ischol) PetscFunctionReturn(PETSC_SUCCESS);
  /* a failed factorization (singular K) is an answer here, not an error */
  PetscCall(KSPGetErrorIfNotConverged(ksp, &errflag));
  PetscCall(KSPSetErrorIfNotConverged(ksp, PETSC_FALSE));
  PetscCall(PCSetErrorIfFailure(pc, PETSC_FALSE));
  PetscCall(KSPSetOperators(ksp, m->K, m->K));
  PetscCall(PetscLogEventBegin(DR_EIGEN_Factor, 0, 0, 0, 0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Factor, 0, 0, 0, 0));
  PetscCall(PCGetFailedReason(pc, &reason));
  PetscCall(KSPSetErrorIfNotConverged(ksp, errflag));
  PetscCall(PCSetErrorIfFailure(pc, errflag));
  if (reason == PC_NOERROR) PetscCall(FactorNegatives(pc, &nneg, &known));
  if (reason == PC_NOERROR && known && nneg == 0) {
    m->sigma = 0;
    PetscCall(EPSSetTarget(m->eps, 0.0));
    PetscCall(PetscInfo(NULL, "%s: K factored without negative pivots: shift 0\n", m->what));
  } else PetscCall(PetscInfo(NULL, "%s: K not definite (factorization %s, %" PetscInt_FMT " negative pivots): shift %g\n", m->what, reason == PC_NOERROR ? "ok" : "failed", nneg, (double)m->sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalSolve(DRModal m)
{
  PetscInt  nconv, nkeep;
  PetscInt *order;
  PetscReal *lam;
  Vec       *tmp;

  PetscFunctionBeginUser;
  if (!m->eps) PetscCall(DRModalSetFromOptions(m));
  PetscCall(FreeResults(m));
  PetscCall(PetscLogEventBegin(DR_EIGEN_Solve, 0, 0, 0, 0));
  m->last = DRTime();
  if (m->try_zero) PetscCall(TryZeroShift(m));
  PetscCall(EPSSolve(m->eps));
  PetscCall(CheckInertia(m));
  PetscCall(EPSGetConverged(m->eps, &nconv));
  while (m->fmax > 0 && !m->slicing) {
    /* grow nev until a converged mode lies above fmax (or all are found) */
    PetscReal lmax = PetscSqr(2 * PETSC_PI * m->fmax), top = -PETSC_MAX_REAL;
    PetscInt  n;
    PetscCall(MatGetSize(m->K, &n, NULL));
    for (PetscInt i = 0; i < nconv; i++) {
      PetscScalar kr;
      PetscCall(EPSGetEigenvalue(m->eps, i, &kr, NULL));
      top = PetscMax(top, PetscRealPart(kr));
    }
    if (top > lmax || m->nev >= n) break;
    m->nev = PetscMin(2 * m->nev, n);
    PetscCall(DRProgress(m->comm, "%seigensolve: %" PetscInt_FMT " modes all below %g Hz, asking for %" PetscInt_FMT, m->prefix, nconv, (double)m->fmax, m->nev));
    PetscCall(EPSSetDimensions(m->eps, m->nev, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(EPSSolve(m->eps));
    PetscCall(EPSGetConverged(m->eps, &nconv));
  }
  PetscCall(PetscMalloc1(nconv + 1, &lam));
  PetscCall(PetscMalloc1(nconv + 1, &order));
  for (PetscInt i = 0; i < nconv; i++) {
    PetscScalar kr;
    PetscCall(EPSGetEigenvalue(m->eps, i, &kr, NULL));
    lam[i]   = PetscRealPart(kr);
    order[i] = i;
  }
  PetscCall(PetscSortRealWithPermutation(nconv, lam, order));
  if (m->fmax > 0 && !m->slicing) {
    PetscReal lmax = PetscSqr(2 * PETSC_PI * m->fmax);
    nkeep          = 0;
    while (nkeep < nconv && lam[nkeep] <= lmax) nkeep++;
  } else nkeep = m->fmax > 0 ? nconv : PetscMin(nconv, m->nmodes);
  PetscCheck(m->fmax > 0 || nconv >= m->nmodes, m->comm, PETSC_ERR_CONV_FAILED, "%s: only %" PetscInt_FMT " of %" PetscInt_FMT " modes converged; try -%seps_max_it or a larger -%seps_ncv", m->what, nconv, m->nmodes, m->prefix, m->prefix);
  m->n = nkeep;
  PetscCall(PetscMalloc1(nkeep + 1, &m->freq));
  PetscCall(PetscMalloc1(nkeep + 1, &m->lambda));
  PetscCall(PetscMalloc1(nkeep + 1, &m->resid));
  {
    Vec t;
    PetscCall(MatCreateVecs(m->K, &t, NULL));
    PetscCall(VecDuplicateVecs(t, nkeep + 1, &tmp));
    PetscCall(VecDestroy(&t));
  }
  m->modes = tmp;
  for (PetscInt k = 0; k < nkeep; k++) {
    PetscInt    i = order[k];
    PetscScalar kr, mnorm;
    Vec         mx;
    PetscCall(EPSGetEigenpair(m->eps, i, &kr, NULL, m->modes[k], NULL));
    m->lambda[k] = PetscRealPart(kr);
    m->freq[k]   = (m->lambda[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(m->lambda[k])) / (2 * PETSC_PI);
    /* mass normalization and a deterministic sign */
    PetscCall(VecDuplicate(m->modes[k], &mx));
    PetscCall(MatMult(m->M, m->modes[k], mx));
    PetscCall(VecDot(m->modes[k], mx, &mnorm));
    PetscCall(VecDestroy(&mx));
    PetscCall(VecScale(m->modes[k], 1.0 / PetscSqrtReal(PetscRealPart(mnorm))));
    PetscCall(DRVecModeSignFix(m->modes[k]));
    PetscCall(DRModalResidual(m->K, m->M, m->lambda[k], m->modes[k], &m->resid[k]));
  }
  /* the spare vector allocated above */
  PetscCall(VecDestroy(&m->modes[nkeep]));
  PetscCall(PetscFree(lam));
  PetscCall(PetscFree(order));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Solve, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalGetModes(DRModal m, PetscInt *n, const PetscReal **freq_hz, const PetscReal **lambda, Vec **modes, const PetscReal **residual)
{
  PetscFunctionBeginUser;
  if (n) *n = m->n;
  if (freq_hz) *freq_hz = m->freq;
  if (lambda) *lambda = m->lambda;
  if (modes) *modes = m->modes;
  if (residual) *residual = m->resid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalView(DRModal m, PetscViewer v)
{
  PetscFunctionBeginUser;
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
