/* Generalized symmetric eigensolver: SLEPc Krylov-Schur, shift-and-invert,
 * MUMPS Cholesky; lowest n modes or spectrum slicing below fmax. */
#include <dynred/modal.h>
#include "modalimpl.h"
#include <string.h>
#include <dynred/preflight.h>


PetscErrorCode DRModalCreate(MPI_Comm comm, DRModal *m)
{
  PetscFunctionBeginUser;
  PetscCall(DREigenInitializePackage());
  PetscCall(PetscNew(m));
  (*m)->comm   = comm;
  (*m)->nmodes = 20;
  (*m)->tol    = 1e-12;
  (*m)->slicing = PETSC_TRUE;
  (*m)->purify  = PETSC_TRUE;
  (*m)->block_basis = 3;
  (*m)->block_min   = 8;
  (*m)->count   = -1;
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
  m->resid_done = PETSC_FALSE;
  m->n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalDestroy(DRModal *m)
{
  PetscFunctionBeginUser;
  if (!*m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FreeResults(*m));
  if ((*m)->bvecs) PetscCall(VecDestroyVecs((*m)->bn + 1, &(*m)->bvecs));
  PetscCall(PetscFree((*m)->blam));
  PetscCall(EPSDestroy(&(*m)->eps));
  PetscCall(MatDestroy(&(*m)->F));
  if ((*m)->defl) PetscCall(VecDestroyVecs((*m)->ndefl, &(*m)->defl));
  PetscCall(MatDestroy(&(*m)->K));
  PetscCall(MatDestroy(&(*m)->M));
  PetscCall(PetscFree(*m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Shift-and-invert at 0 through the caller's factorization of K. */
static PetscErrorCode ApplyFactor(PC pc, Vec x, Vec y)
{
  Mat F;

  PetscFunctionBeginUser;
  PetscCall(PCShellGetContext(pc, &F));
  PetscCall(MatSolve(F, x, y));
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
    PetscCall(PetscOptionsBool("-slicing", "modes below fmax by spectrum slicing (several shifts) instead of one inertia count and one Krylov-Schur solve for exactly that many", NULL, m->slicing, &m->slicing, NULL));
    PetscCall(PetscOptionsInt("-block_size", "block Lanczos with this many right-hand sides per solve where the solver holds a factorization of K (CMS components; MatMatSolve instead of SLEPc's one vector per solve); 0: SLEPc Krylov-Schur", NULL, m->block, &m->block, NULL));
    PetscCheck(m->block >= 0, m->comm, DR_ERR_INPUT, "-%sblock_size %" PetscInt_FMT ": expected 0 (SLEPc) or a block size >= 1", m->prefix, m->block);
    PetscCall(PetscOptionsReal("-block_basis", "block Lanczos basis size as a multiple of the wanted modes (restarted when full)", NULL, m->block_basis, &m->block_basis, NULL));
    PetscCall(PetscOptionsInt("-block_min", "block Lanczos only for at least this many wanted modes per block column (fewer: SLEPc)", NULL, m->block_min, &m->block_min, NULL));
    PetscCheck(m->block_basis >= 1.5, m->comm, DR_ERR_INPUT, "-%sblock_basis %g: expected a multiple >= 1.5 of the wanted modes", m->prefix, (double)m->block_basis);
    PetscCall(PetscOptionsInt("-dense_max", "solve problems of at most this many DOFs densely with LAPACK on rank 0 (0: never)", NULL, m->dense_max, &m->dense_max, NULL));
    PetscOptionsEnd();
  }
  m->scale = PetscAbsReal(m->sigma);
  if (m->F) { /* the caller's factorization of K: shift 0, no new factorization */
    m->sigma    = 0;
    m->try_zero = PETSC_FALSE;
    m->slicing  = PETSC_FALSE;
  }
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
  if (m->F) {
    PetscCall(PCSetType(pc, PCSHELL));
    PetscCall(PCShellSetContext(pc, m->F));
    PetscCall(PCShellSetApply(pc, ApplyFactor));
    PetscCall(PCShellSetName(pc, "given factorization of K"));
  } else {
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  }
  if (!m->F) {
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
    /* fmax without slicing: nev is set by the inertia count in DRModalSolve */
    m->nev = m->fmax > 0 ? PetscMin(PetscMax(m->nmodes, 1), n) : m->nmodes;
    PetscCall(EPSSetWhichEigenpairs(m->eps, EPS_TARGET_MAGNITUDE));
    PetscCall(EPSSetTarget(m->eps, m->sigma));
    PetscCall(EPSSetDimensions(m->eps, m->nev, PETSC_DEFAULT, PETSC_DEFAULT));
  }
  if (!m->purify) {
    /* off only for a definite M: a singular one leaves the vectors' null(M)
     * components unchecked by the M inner product, which purification
     * removes.  The singular masses of FE models are massless DOFs (zero
     * diagonal: lumped-mass rotations, multipliers); with every diagonal
     * entry positive, lumped (diagonal) and consistent continuum or beam
     * masses (definite element by element) are definite. */
    Vec       d;
    PetscReal dmin;
    PetscCall(MatCreateVecs(m->M, &d, NULL));
    PetscCall(MatGetDiagonal(m->M, d));
    PetscCall(VecMin(d, NULL, &dmin));
    PetscCall(VecDestroy(&d));
    if (!(dmin > 0)) {
      PetscCall(PetscInfo(NULL, "%s: M has a diagonal entry %g <= 0: eigenvector purification kept\n", m->what, (double)dmin));
      m->purify = PETSC_TRUE;
    }
  }
  PetscCall(EPSSetPurify(m->eps, m->purify));
  PetscCall(EPSMonitorSet(m->eps, Monitor, m, NULL));
  PetscCall(EPSSetFromOptions(m->eps));
  /* -PREFIX_eps_tol holds for the block path too (block.c's test) */
  PetscCall(EPSGetTolerances(m->eps, &m->tol, NULL));
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
    m->sigma         = 0;
    m->zero_factored = PETSC_TRUE;
    PetscCall(EPSSetTarget(m->eps, 0.0));
    PetscCall(PetscInfo(NULL, "%s: K factored without negative pivots: shift 0\n", m->what));
  } else PetscCall(PetscInfo(NULL, "%s: K not definite (factorization %s, %" PetscInt_FMT " negative pivots): shift %g\n", m->what, reason == PC_NOERROR ? "ok" : "failed", nneg, (double)m->sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The number of eigenvalues of (K, M) below lmax: the negative pivots of an
 * LDL^T factorization of K - lmax M (Sylvester's law of inertia; MUMPS with
 * ICNTL(13) = 1 so the count is exact in parallel too).  One factorization,
 * freed before the eigensolver makes its own, so the peak memory is one
 * factor.  *known false when the factorization fails (a singular K - lmax M,
 * i.e. lmax exactly an eigenvalue: the caller grows nev instead). */
static PetscErrorCode CountBelow(DRModal m, PetscReal lmax, PetscInt *count, PetscBool *known)
{
  Mat            A, F;
  MatFactorInfo  info;
  MatFactorError err;
  PetscInt       nneg = 0;
  char           prefix[96];

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EIGEN_Count, 0, 0, 0, 0));
  PetscCall(MatDuplicate(m->K, MAT_COPY_VALUES, &A));
  PetscCall(MatAXPY(A, -lmax, m->M, UNKNOWN_NONZERO_PATTERN));
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_FALSE));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%scount_", m->prefix));
  PetscCall(MatSetOptionsPrefix(F, prefix));
  PetscCall(MatMumpsSetIcntl(F, 13, 1));
  PetscCall(MatMumpsSetIcntl(F, 31, 1)); /* the inertia only: MUMPS discards the factors as it goes (less memory; no solve follows) */
  PetscCall(MatSetFromOptions(F));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(F, A, NULL, &info));
  PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  PetscCall(MatFactorGetError(F, &err));
  *known = (PetscBool)(err == MAT_FACTOR_NOERROR);
  if (*known) PetscCall(MatGetInertia(F, &nneg, NULL, NULL));
  *count = nneg;
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Count, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A small problem densely: K and M gathered to rank 0 (each rank adds its
 * rows), DRDenseEigen (LAPACK, the eigen layer's one dense path), the modes
 * scattered back into vectors of K's layout.  Every eigenvalue is computed,
 * so the count below fmax is exact. */
static PetscErrorCode SolveDense(DRModal m, PetscInt n, PetscInt *nfound, PetscReal **lam, Vec **modes)
{
  PetscReal  *kl, *ml, *Kd = NULL, *Md = NULL, *X = NULL;
  PetscInt    rs, re, nf = 0;
  PetscMPIInt rank;
  Vec         x, z;
  VecScatter  sc;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(m->comm, &rank));
  PetscCall(PetscCalloc2(n * n, &kl, n * n, &ml));
  PetscCall(MatGetOwnershipRange(m->K, &rs, &re));
  for (PetscInt r = rs; r < re; r++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *v;
    PetscCall(MatGetRow(m->K, r, &nc, &cols, &v));
    for (PetscInt k = 0; k < nc; k++) kl[r + cols[k] * n] = PetscRealPart(v[k]);
    PetscCall(MatRestoreRow(m->K, r, &nc, &cols, &v));
    PetscCall(MatGetRow(m->M, r, &nc, &cols, &v));
    for (PetscInt k = 0; k < nc; k++) ml[r + cols[k] * n] = PetscRealPart(v[k]);
    PetscCall(MatRestoreRow(m->M, r, &nc, &cols, &v));
  }
  if (!rank) PetscCall(PetscMalloc3(n * n, &Kd, n * n, &Md, n * n, &X));
  PetscCallMPI(MPI_Reduce(kl, Kd, (PetscMPIInt)(n * n), MPIU_REAL, MPIU_SUM, 0, m->comm));
  PetscCallMPI(MPI_Reduce(ml, Md, (PetscMPIInt)(n * n), MPIU_REAL, MPIU_SUM, 0, m->comm));
  PetscCall(PetscFree2(kl, ml));
  PetscCall(PetscMalloc1(n + 1, lam));
  /* rank 0 alone: its error code broadcast, so the others do not wait below */
  /* a floor with fmax: every mode (LAPACK computes them all anyway at these
   * sizes), those below fmax or the lowest nmin kept below */
  PetscCall(DRRootAgree(m->comm, rank ? PETSC_SUCCESS : DRDenseEigen(n, Kd, Md, m->fmax > 0 ? (m->nmin > 0 ? n : 0) : PetscMin(m->nmodes, n), PetscSqr(2 * PETSC_PI * m->fmax), &nf, *lam, X)));
  if (m->fmax > 0 && m->nmin > 0) {
    PetscInt nb = 0;
    PetscCallMPI(MPI_Bcast(&nf, 1, MPIU_INT, 0, m->comm));
    PetscCallMPI(MPI_Bcast(*lam, (PetscMPIInt)nf, MPIU_REAL, 0, m->comm));
    while (nb < nf && (*lam)[nb] <= PetscSqr(2 * PETSC_PI * m->fmax)) nb++;
    m->count = nb;
    nf       = PetscMax(nb, PetscMin(m->nmin, nf));
  }
  PetscCallMPI(MPI_Bcast(&nf, 1, MPIU_INT, 0, m->comm));
  PetscCallMPI(MPI_Bcast(*lam, (PetscMPIInt)nf, MPIU_REAL, 0, m->comm));
  PetscCall(MatCreateVecs(m->K, &x, NULL));
  PetscCall(VecDuplicateVecs(x, nf + 1, modes));
  PetscCall(VecScatterCreateToZero(x, &sc, &z));
  for (PetscInt k = 0; k < nf; k++) {
    if (!rank) {
      PetscScalar *a;
      PetscCall(VecGetArray(z, &a));
      for (PetscInt i = 0; i < n; i++) a[i] = X[i + k * n];
      PetscCall(VecRestoreArray(z, &a));
    }
    PetscCall(VecScatterBegin(sc, z, (*modes)[k], INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(sc, z, (*modes)[k], INSERT_VALUES, SCATTER_REVERSE));
  }
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscFree3(Kd, Md, X));
  *nfound = nf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The factorization the block path solves with: the caller's (shift 0),
 * or the one of K that TryZeroShift left in SLEPc's ST; NULL: SLEPc's
 * Krylov-Schur (no block size, no held factorization, or a problem too
 * small for the block basis). */
static PetscErrorCode BlockFactor(DRModal m, PetscInt nev, Mat *F)
{
  PetscInt n;

  PetscFunctionBeginUser;
  *F = NULL;
  PetscCall(MatGetSize(m->K, &n, NULL));
  /* few modes per block column: SLEPc (a block Krylov space of degree p/b
   * converges slowly when p is a few blocks; measured, 8 modes per part with
   * b = 8 solved 18x the columns SLEPc's single solves did, CMS at 20 modes
   * 1.46 against 0.98 of the modal job, while at 150-200 modes per part the
   * block path solved 2x the columns at a quarter of the cost per column:
   * bench/README.md "CMS: component eigensolves by block Lanczos") */
  if (nev <= 0 || m->block <= 0 || nev < m->block_min * m->block || m->ndefl + DRModalBlockBasis(m, nev) + m->block > n) PetscFunctionReturn(PETSC_SUCCESS);
  if (m->F) *F = m->F;
  else if (m->zero_factored && m->sigma == 0) {
    KSP ksp;
    PC  pc;
    PetscCall(DRModalGetKSP(m, &ksp));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCFactorGetMatrix(pc, F));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One solve for nev modes: block Lanczos where BlockFactor gives a
 * factorization (results in m->bn, m->blam, m->bvecs), SLEPc otherwise. */
static PetscErrorCode SolveOnce(DRModal m, PetscInt nev)
{
  Mat F;

  PetscFunctionBeginUser;
  PetscCall(BlockFactor(m, nev, &F));
  if (m->bvecs) PetscCall(VecDestroyVecs(m->bn + 1, &m->bvecs));
  PetscCall(PetscFree(m->blam));
  m->bn = 0;
  if (F) PetscCall(DRModalBlockSolve(m, F, nev, &m->bn, &m->blam, &m->bvecs));
  else {
    /* SLEPc forgets the deflation space after each solve */
    if (m->ndefl) PetscCall(EPSSetDeflationSpace(m->eps, m->ndefl, m->defl));
    PetscCall(EPSSolve(m->eps));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The converged eigenvalues, ascending, with their EPS (or block) indices. */
static PetscErrorCode SortedConverged(DRModal m, PetscInt *nconv, PetscReal **lam, PetscInt **order)
{
  PetscFunctionBeginUser;
  if (m->bvecs) {
    *nconv = m->bn;
    PetscCall(PetscMalloc1(*nconv + 1, lam));
    PetscCall(PetscMalloc1(*nconv + 1, order));
    for (PetscInt i = 0; i < *nconv; i++) {
      (*lam)[i]   = m->blam[i];
      (*order)[i] = i;
    }
    PetscCall(PetscSortRealWithPermutation(*nconv, *lam, *order));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(EPSGetConverged(m->eps, nconv));
  PetscCall(PetscMalloc1(*nconv + 1, lam));
  PetscCall(PetscMalloc1(*nconv + 1, order));
  for (PetscInt i = 0; i < *nconv; i++) {
    PetscScalar kr;
    PetscCall(EPSGetEigenvalue(m->eps, i, &kr, NULL));
    (*lam)[i]   = PetscRealPart(kr);
    (*order)[i] = i;
  }
  PetscCall(PetscSortRealWithPermutation(*nconv, *lam, *order));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* fmax without slicing: the count from the inertia first, then one
 * Krylov-Schur solve for exactly that many (nev = count; SLEPc's default
 * ncv = max(2 nev, nev + 15); with nev above 200 the projected problem is
 * capped at mpd = 200, so orthogonalization grows like n nev mpd, not
 * n nev^2).  A mode the solver skipped shows as fewer than `count` below
 * lmax: nev grows by the shortfall and the solve repeats (progress line). */
static PetscErrorCode SolveCounted(DRModal m, PetscInt n)
{
  PetscReal lmax  = PetscSqr(2 * PETSC_PI * m->fmax);
  PetscBool known = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(CountBelow(m, lmax, &m->count, &known));
  if (!known) m->count = -1;
  m->nev = PetscMin(n, PetscMax(PetscMax(PetscMax(m->nmodes, 1), m->count), m->nmin));
  PetscCall(EPSSetDimensions(m->eps, m->nev, PETSC_DEFAULT, m->nev > 200 ? 200 : PETSC_DEFAULT));
  if (m->try_zero) PetscCall(TryZeroShift(m));
  for (PetscInt round = 0;; round++) {
    PetscInt   nconv, nbelow = 0, *order;
    PetscReal *lam;
    PetscCall(SolveOnce(m, m->nev));
    if (!round) PetscCall(CheckInertia(m));
    PetscCall(SortedConverged(m, &nconv, &lam, &order));
    while (nbelow < nconv && lam[nbelow] <= lmax) nbelow++;
    PetscCall(PetscFree(lam));
    PetscCall(PetscFree(order));
    /* done: all counted modes found, or (count unknown) one above lmax */
    if (m->nev >= n || (m->count >= 0 ? nbelow >= m->count : nbelow < nconv)) break;
    m->nev = PetscMin(n, m->count >= 0 ? m->nev + (m->count - nbelow) + 8 : 2 * m->nev);
    PetscCall(DRProgress(m->comm, "%seigensolve: %" PetscInt_FMT " modes below %g Hz found, %" PetscInt_FMT " counted; asking for %" PetscInt_FMT, m->prefix, nbelow, (double)m->fmax, m->count, m->nev));
    PetscCall(EPSSetDimensions(m->eps, m->nev, PETSC_DEFAULT, m->nev > 200 ? 200 : PETSC_DEFAULT));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mass normalization and the deterministic sign of mode k (its residual:
 * on request, DRModalGetModes). */
static PetscErrorCode FinishMode(DRModal m, PetscInt k)
{
  PetscScalar mnorm;
  Vec         mx;

  PetscFunctionBeginUser;
  m->freq[k] = (m->lambda[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(m->lambda[k])) / (2 * PETSC_PI);
  PetscCall(VecDuplicate(m->modes[k], &mx));
  PetscCall(MatMult(m->M, m->modes[k], mx));
  PetscCall(VecDot(m->modes[k], mx, &mnorm));
  PetscCall(VecDestroy(&mx));
  PetscCall(VecScale(m->modes[k], 1.0 / PetscSqrtReal(PetscRealPart(mnorm))));
  PetscCall(DRVecModeSignFix(m->modes[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AllocResults(DRModal m, PetscInt nkeep)
{
  PetscFunctionBeginUser;
  m->n = nkeep;
  PetscCall(PetscMalloc1(nkeep + 1, &m->freq));
  PetscCall(PetscMalloc1(nkeep + 1, &m->lambda));
  PetscCall(PetscMalloc1(nkeep + 1, &m->resid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Eigenvalues of (M, diag(M)) below tau: the negative pivots of an LDL^T
 * factorization of M - tau diag(M) (Sylvester's law of inertia, MUMPS as in
 * CountBelow).  A positive definite mass matrix has none; a singular or
 * indefinite one at least one.  *count = -1 when the factorization fails. */
static PetscErrorCode MassInertia(DRModal m, PetscReal tau, PetscInt *count)
{
  Mat            A, F;
  Vec            d;
  MatFactorInfo  info;
  MatFactorError err;
  PetscInt       nneg = 0;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(m->M, MAT_COPY_VALUES, &A));
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecScale(d, -tau));
  PetscCall(MatDiagonalSet(A, d, ADD_VALUES));
  PetscCall(VecDestroy(&d));
  PetscCall(MatSetOption(A, MAT_SPD, PETSC_FALSE));
  PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(MatMumpsSetIcntl(F, 13, 1));
  PetscCall(MatMumpsSetIcntl(F, 31, 1));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(F, A, NULL, &info));
  PetscCall(MatCholeskyFactorNumeric(F, A, &info));
  PetscCall(MatFactorGetError(F, &err));
  if (err == MAT_FACTOR_NOERROR) PetscCall(MatGetInertia(F, &nneg, NULL, NULL));
  *count = err == MAT_FACTOR_NOERROR ? nneg : -1;
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ModalSolve(DRModal);

/* The solve, and when it stops inside the eigensolver or a factorization,
 * which matrix is at fault: SLEPc says only "The inner product is not well
 * defined: indefinite matrix" when the M-inner product meets a vector of
 * M-norm <= 0.  The inertia of M - tau diag(M) tells a mass matrix that is not
 * positive definite; any other failure keeps its own message. */
PetscErrorCode DRModalSolve(DRModal m)
{
  PetscErrorCode ierr;
  const char    *text = NULL, *specific = NULL;
  char           msg[1024];
  PetscInt       nneg = 0;
  /* tau: a consistent or lumped mass of a well-posed model has eigenvalues
   * of (M, diag(M)) of order 0.01 .. 1 (element mass matrices); 1e-10 is far
   * below those and far above the 1e-16 round-off of a singular M's zero */
  const PetscReal tau = 1e-10;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = ModalSolve(m);
  PetscCall(PetscPopErrorHandler());
  if (!ierr) PetscFunctionReturn(PETSC_SUCCESS);
  (void)PetscErrorMessage(ierr, &text, (char **)&specific);
  PetscCall(PetscSNPrintf(msg, sizeof(msg), "%s", specific && specific[0] ? specific : (text ? text : "unknown error")));
  {
    size_t len = strlen(msg);
    while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' ')) msg[--len] = '\0';
  }
  if (ierr == PETSC_ERR_USER) SETERRQ(m->comm, ierr, "%s", msg); /* already a dynred message */
  PetscCall(MassInertia(m, tau, &nneg));
  PetscCheck(nneg == 0, m->comm, DR_ERR_INPUT, "%s: the mass matrix M is not positive definite: %" PetscInt_FMT " eigenvalue(s) of (M, diag(M)) below %g (Sylvester inertia of M - %g diag(M), MUMPS LDL^T), found after the eigensolver stopped with \"%s\"; expected a positive definite M (a DOF whose mass is a combination of others'? a massless rotation or reference node?)", m->what, nneg, (double)tau, (double)tau, msg);
  SETERRQ(m->comm, ierr, "%s: the eigensolver stopped: %s (M is positive definite: the inertia of M - %g diag(M) has no negative pivot; K symmetric and finite was checked on reading)", m->what, msg, (double)tau);
}

static PetscErrorCode ModalSolve(DRModal m)
{
  PetscInt   nconv, nkeep, n;
  PetscInt  *order;
  PetscReal *lam;
  Vec       *tmp;

  PetscFunctionBeginUser;
  if (!m->eps) PetscCall(DRModalSetFromOptions(m));
  PetscCall(FreeResults(m));
  PetscCall(PetscLogEventBegin(DR_EIGEN_Solve, 0, 0, 0, 0));
  m->last  = DRTime();
  m->count = -1;
  PetscCall(MatGetSize(m->K, &n, NULL));
  if (n <= m->dense_max && !m->F && !m->ndefl) {
    PetscCall(SolveDense(m, n, &nconv, &lam, &tmp));
    if (m->fmax > 0 && !m->nmin) m->count = nconv;
    nkeep = m->fmax > 0 ? nconv : PetscMin(nconv, m->nmodes);
    PetscCall(AllocResults(m, nkeep));
    m->modes = tmp;
    for (PetscInt k = 0; k < nkeep; k++) {
      m->lambda[k] = lam[k];
      PetscCall(FinishMode(m, k));
    }
    for (PetscInt k = nkeep; k <= nconv; k++) PetscCall(VecDestroy(&m->modes[k]));
    PetscCall(PetscFree(lam));
    PetscCall(PetscLogEventEnd(DR_EIGEN_Solve, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (m->fmax > 0 && !m->slicing) PetscCall(SolveCounted(m, n));
  else {
    if (m->try_zero) PetscCall(TryZeroShift(m));
    PetscCall(SolveOnce(m, m->fmax > 0 ? 0 : m->nmodes));
    PetscCall(CheckInertia(m));
  }
  PetscCall(SortedConverged(m, &nconv, &lam, &order));
  if (m->fmax > 0 && !m->slicing) {
    PetscReal lmax = PetscSqr(2 * PETSC_PI * m->fmax);
    nkeep          = 0;
    while (nkeep < nconv && lam[nkeep] <= lmax) nkeep++;
    nkeep = PetscMax(nkeep, PetscMin(m->nmin, nconv));
  } else nkeep = m->fmax > 0 ? nconv : PetscMin(nconv, m->nmodes);
  if (m->fmax > 0 && m->slicing) m->count = nconv;
  PetscCheck(m->fmax > 0 || nconv >= m->nmodes, m->comm, PETSC_ERR_CONV_FAILED, "%s: only %" PetscInt_FMT " of %" PetscInt_FMT " modes converged; try -%seps_max_it or a larger -%seps_ncv", m->what, nconv, m->nmodes, m->prefix, m->prefix);
  PetscCall(AllocResults(m, nkeep));
  {
    Vec t;
    PetscCall(MatCreateVecs(m->K, &t, NULL));
    PetscCall(VecDuplicateVecs(t, nkeep + 1, &tmp));
    PetscCall(VecDestroy(&t));
  }
  m->modes = tmp;
  for (PetscInt k = 0; k < nkeep; k++) {
    PetscScalar kr;
    if (m->bvecs) {
      kr = m->blam[order[k]];
      PetscCall(VecCopy(m->bvecs[order[k]], m->modes[k]));
    } else PetscCall(EPSGetEigenpair(m->eps, order[k], &kr, NULL, m->modes[k], NULL));
    m->lambda[k] = PetscRealPart(kr);
    PetscCall(FinishMode(m, k));
  }
  if (m->bvecs) PetscCall(VecDestroyVecs(m->bn + 1, &m->bvecs));
  PetscCall(PetscFree(m->blam));
  /* the spare vector allocated above */
  PetscCall(VecDestroy(&m->modes[nkeep]));
  PetscCall(PetscFree(lam));
  PetscCall(PetscFree(order));
  PetscCall(PetscLogEventEnd(DR_EIGEN_Solve, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

