/* Fixed-interface family kit (see fixed_interface.h), METHODS.md 1.1, 1.4. */
#include "fixed_interface.h"
#include <dynred/modal.h>

/* Floating interior: the fixed-interface problem has a (near-)zero mode.
 * Name the DOFs that move most in it. */
static PetscErrorCode ReportFloating(const DRFixedInterface *fi, const PetscInt interior[], Vec mode, PetscReal f)
{
  Vec                z;
  VecScatter         sc;
  char               list[512] = "", b[32];
  PetscMPIInt        rank;

  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToZero(mode, &sc, &z));
  PetscCall(VecScatterBegin(sc, mode, z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, mode, z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  if (!rank) {
    const PetscScalar *a;
    PetscInt           nz;
    PetscReal          amax = 0;
    PetscCall(VecGetSize(z, &nz));
    PetscCall(VecGetArrayRead(z, &a));
    for (PetscInt i = 0; i < nz; i++) amax = PetscMax(amax, PetscAbsScalar(a[i]));
    for (PetscInt i = 0, cnt = 0; i < nz && cnt < 8; i++)
      if (PetscAbsScalar(a[i]) > 0.5 * amax) {
        PetscCall(DRStrAppend(list, cnt ? ", " : "", sizeof(list)));
        PetscCall(DRStrAppend(list, DRLabelString(fi->labels[interior[i]], b), sizeof(list)));
        cnt++;
      }
    PetscCall(VecRestoreArrayRead(z, &a));
  }
  PetscCallMPI(MPI_Bcast(list, sizeof(list), MPI_CHAR, 0, fi->comm));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&z));
  SETERRQ(fi->comm, DR_ERR_INPUT, "%s: component '%s': interior DOFs float when the boundary is fixed (fixed-interface mode at %.3g Hz, K_II singular); moving most: %s; expected every interior DOF held by the boundary or a support (add the part's support or its contact DOFs to the interface)", fi->source, fi->name, (double)f, list);
}

PetscErrorCode DRFixedInterfaceSetUp(DRComponent c, const PetscBool isboundary[], DRSuperelement *se, DRFixedInterface *fi)
{
  PetscInt nbl = 0, nil = 0, *bidx, *iidx;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(fi, sizeof(*fi)));
  fi->c = c;
  PetscCall(DRComponentGetComm(c, &fi->comm));
  PetscCall(DRComponentGetOperators(c, &fi->K, &fi->M, NULL));
  PetscCall(DRComponentGetLabels(c, &fi->n, &fi->labels));
  PetscCall(DRComponentGetSource(c, &fi->source));
  PetscCall(DRComponentGetName(c, &fi->name));
  PetscCall(MatGetOwnershipRange(fi->K, &fi->rs, &fi->re));
  PetscCall(DRSuperelementSetBoundary(c, isboundary, se, &fi->bcol));
  fi->nb = se->nb;
  fi->nI = fi->n - fi->nb;
  PetscCall(PetscMalloc1(fi->nI + 1, &fi->interior));
  {
    PetscInt l = 0;
    for (PetscInt i = 0; i < fi->n; i++)
      if (!isboundary[i]) fi->interior[l++] = i;
  }
  PetscCall(PetscMalloc1(fi->re - fi->rs + 1, &bidx));
  PetscCall(PetscMalloc1(fi->re - fi->rs + 1, &iidx));
  for (PetscInt i = fi->rs; i < fi->re; i++) {
    if (isboundary[i]) bidx[nbl++] = i;
    else iidx[nil++] = i;
  }
  PetscCall(ISCreateGeneral(fi->comm, nbl, bidx, PETSC_OWN_POINTER, &fi->isB));
  PetscCall(ISCreateGeneral(fi->comm, nil, iidx, PETSC_OWN_POINTER, &fi->isI));
  if (fi->nI > 0) {
    PetscCall(MatCreateSubMatrix(fi->K, fi->isI, fi->isI, MAT_INITIAL_MATRIX, &fi->KII));
    PetscCall(MatCreateSubMatrix(fi->M, fi->isI, fi->isI, MAT_INITIAL_MATRIX, &fi->MII));
    PetscCall(MatSetOption(fi->KII, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(fi->KII, MAT_SPD, PETSC_TRUE));
    PetscCall(MatSetOption(fi->MII, MAT_SYMMETRIC, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceModalDefaults(DRModal m)
{
  PetscFunctionBeginUser;
  PetscCall(DRModalSetDenseMax(m, DR_COMPONENT_DENSE_MAX));
  PetscCall(DRModalSetPurify(m, DR_COMPONENT_PURIFY));
  PetscCall(DRModalSetBlockSize(m, DR_COMPONENT_BLOCK));
  PetscCall(DRModalSetTolerance(m, DR_COMPONENT_TOL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceModes(DRFixedInterface *fi, DRReduction r, PetscBool keep, DRSuperelement *se)
{
  PetscInt         nm;
  const PetscReal *f, *lam;
  PetscReal        sigma;

  PetscFunctionBeginUser;
  fi->nq = 0;
  if (fi->nI == 0) {
    PetscCall(PetscMalloc1(1, &se->qfreq_hz));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(DRModalCreate(fi->comm, &fi->modal));
  PetscCall(DRModalSetOptionsPrefix(fi->modal, DRReductionPrefix(r)));
  PetscCall(DRModalSetOperators(fi->modal, fi->KII, fi->MII, fi->source));
  /* at least one mode: it proves K_II regular (no floating interior) */
  if (keep && r->cutoff_hz > 0) {
    PetscCall(DRModalSetRange(fi->modal, 0, r->cutoff_hz));
    PetscCall(DRModalSetMinModes(fi->modal, PetscMin(r->nmodes, fi->nI))); /* with a cutoff, nmodes is a floor */
  } else PetscCall(DRModalSetRange(fi->modal, keep ? PetscMax(1, PetscMin(r->nmodes, fi->nI)) : 1, 0));
  PetscCall(DRModalSetSlicing(fi->modal, PETSC_FALSE));
  PetscCall(DRFixedInterfaceModalDefaults(fi->modal));
  PetscCall(DRModalSetFromOptions(fi->modal));
  PetscCall(DRModalSolve(fi->modal));
  PetscCall(DRModalGetModes(fi->modal, &nm, &f, &lam, &fi->modes, NULL));
  PetscCall(DRModalGetScale(fi->modal, &sigma));
  if (nm > 0 && PetscAbsReal(lam[0]) < 1e-6 * PetscAbsReal(sigma)) PetscCall(ReportFloating(fi, fi->interior, fi->modes[0], f[0]));
  fi->nq = !keep ? 0 : r->cutoff_hz > 0 ? nm : PetscMin(nm, r->nmodes);
  PetscCall(PetscMalloc1(fi->nq + 1, &se->qfreq_hz));
  for (PetscInt k = 0; k < fi->nq; k++) se->qfreq_hz[k] = f[k];
  se->nq      = fi->nq;
  se->qtop_hz = fi->nq > 0 ? f[fi->nq - 1] : 0;
  PetscCall(PetscLogEventEnd(DRRED_CompEig, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The factorization of K_II the eigensolver already holds: SLEPc's
 * shift-and-invert at sigma = 0 (K_II factored without negative pivots, the
 * usual case of a held interior) factors K_II itself with MUMPS.  NULL when
 * the modes came from the dense path or another shift. */
static PetscErrorCode SharedFactor(DRFixedInterface *fi, Mat *F)
{
  PetscReal sigma;
  KSP       ksp;
  PC        pc;
  PetscBool ischol, ismumps = PETSC_FALSE;
  PetscInt  n, dense_max;

  PetscFunctionBeginUser;
  *F = NULL;
  if (!fi->modal) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRModalGetShift(fi->modal, &sigma));
  PetscCall(DRModalGetDenseMax(fi->modal, &dense_max));
  PetscCall(MatGetSize(fi->KII, &n, NULL));
  if (sigma != 0 || n <= dense_max) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRModalGetKSP(fi->modal, &ksp));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &ischol));
  if (ischol) {
    Mat           Ff, A;
    MatSolverType st;
    PetscCall(PCGetOperators(pc, &A, NULL));
    PetscCall(PCFactorGetMatrix(pc, &Ff));
    PetscCall(MatFactorGetSolverType(Ff, &st));
    PetscCall(PetscStrcmp(st, MATSOLVERMUMPS, &ismumps));
    if (ismumps && A == fi->KII) *F = Ff;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* K_II factored the way the eigensolver's shift-and-invert does it (a KSP
 * with the eigensolver's ST prefix, PREONLY + Cholesky + MUMPS, its options,
 * ICNTL(13) = 1 as DRModalSetFromOptions sets it): the same matrix and
 * options give the same factor (MUMPS is deterministic), so a factorization
 * released and made again (DRFixedInterfaceRelease) or restored from a
 * checkpoint (restore.c) solves bit-identically to the original. */
static PetscErrorCode FactorAsEigensolver(DRFixedInterface *fi, const char *st)
{
  char      opt[300];
  PetscBool has;
  KSP       ksp;
  PC        pc;
  Mat       F;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "-%smat_mumps_icntl_13", st));
  PetscCall(PetscOptionsHasName(NULL, NULL, opt, &has));
  if (!has) PetscCall(PetscOptionsSetValue(NULL, opt, "1"));
  PetscCall(KSPCreate(fi->comm, &ksp));
  PetscCall(KSPSetOptionsPrefix(ksp, st));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(KSPSetOperators(ksp, fi->KII, fi->KII));
  PetscCall(KSPSetUp(ksp));
  PetscCall(PCFactorGetMatrix(pc, &F));
  PetscCall(PetscObjectReference((PetscObject)F));
  fi->F = F;
  PetscCall(KSPDestroy(&ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceFactor(DRFixedInterface *fi, DRReduction r)
{
  char        stat[256], st[256];
  Mat         shared;
  const char *p = NULL;
  PetscBool   is_st = PETSC_FALSE, is_stat = PETSC_FALSE;

  PetscFunctionBeginUser;
  if (fi->F || fi->nI == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(stat, sizeof(stat), "%sstatic_", DRReductionPrefix(r)));
  PetscCall(PetscSNPrintf(st, sizeof(st), "%sst_", DRReductionPrefix(r)));
  if (fi->fprefix[0]) { /* made before (then released, or restored): the same way again */
    PetscCall(PetscStrcmp(fi->fprefix, st, &is_st));
    PetscCall(PetscStrcmp(fi->fprefix, stat, &is_stat));
    PetscCheck(is_st || is_stat, fi->comm, DR_ERR_INPUT, "component '%s': its K_II factorization had options prefix '%s', expected '%s' or '%s'", fi->name, fi->fprefix, st, stat);
  }
  PetscCall(SharedFactor(fi, &shared));
  if (shared) { /* one factorization of K_II for the modes, the constraint modes and the residuals */
    PetscCall(PetscObjectReference((PetscObject)shared));
    fi->F = shared;
    PetscCall(PetscInfo(NULL, "%s: K_II solves through the eigensolver's factorization\n", fi->name));
  } else if (is_st) {
    PetscCall(PetscLogEventBegin(DRRED_Factor, 0, 0, 0, 0));
    PetscCall(FactorAsEigensolver(fi, st));
    PetscCall(PetscLogEventEnd(DRRED_Factor, 0, 0, 0, 0));
  } else {
    MatFactorInfo info;
    PetscCall(PetscLogEventBegin(DRRED_Factor, 0, 0, 0, 0));
    PetscCall(MatGetFactor(fi->KII, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &fi->F));
    PetscCall(MatSetOptionsPrefix(fi->F, stat));
    PetscCall(MatSetFromOptions(fi->F));
    PetscCall(MatFactorInfoInitialize(&info));
    PetscCall(MatCholeskyFactorSymbolic(fi->F, fi->KII, NULL, &info));
    PetscCall(MatCholeskyFactorNumeric(fi->F, fi->KII, &info));
    PetscCall(PetscLogEventEnd(DRRED_Factor, 0, 0, 0, 0));
  }
  PetscCall(MatGetOptionsPrefix(fi->F, &p));
  PetscCall(PetscStrncpy(fi->fprefix, p ? p : "", sizeof(fi->fprefix)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceSetFactorPrefix(DRFixedInterface *fi, const char prefix[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(fi->fprefix, prefix ? prefix : "", sizeof(fi->fprefix)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceRelease(DRFixedInterface *fi, int what, PetscReal *freed_mib)
{
  PetscFunctionBeginUser;
  if (freed_mib) *freed_mib = 0;
  if (what & (DR_REDUCTION_HELD_RESIDUALS | DR_REDUCTION_HELD_RESIDUAL_BLOCKS)) PetscCall(MatDestroy(&fi->Wres));
  if (what & DR_REDUCTION_HELD_RESIDUALS) {
    PetscCall(PetscFree(fi->Qres));
    PetscCall(PetscFree(fi->lamres));
    fi->nWres = 0;
  }
  if (!(what & DR_REDUCTION_HELD_FACTOR)) PetscFunctionReturn(PETSC_SUCCESS);
  /* between the two interface phases the eigensolver holds the modes and
   * the factorization too: the modes and eigenvalues are kept as a restored
   * phase 1 keeps them (kept, lam0: what DRFixedInterfaceApplyBasis reads)
   * and the eigensolver goes; not with the full constraint modes of a
   * multi-rank group (fi->X: phase 2 multiplies them) */
  if (fi->modal && !fi->X) {
    const PetscReal *lam;
    Mat              sh;
    const char      *p = NULL;
    if (!fi->F) { /* made again as the eigensolver made it (phase 2 would have shared it) */
      PetscCall(SharedFactor(fi, &sh));
      if (sh) PetscCall(MatGetOptionsPrefix(sh, &p));
      if (p && !fi->fprefix[0]) PetscCall(PetscStrncpy(fi->fprefix, p, sizeof(fi->fprefix)));
    }
    if (freed_mib && !fi->F) PetscCall(DRFixedInterfaceFactorMiB(fi, freed_mib));
    PetscCall(PetscFree(fi->lam0));
    PetscCall(PetscMalloc1(fi->nq + 1, &fi->lam0));
    if (fi->nq) PetscCall(DRModalGetModes(fi->modal, NULL, NULL, &lam, NULL, NULL));
    for (PetscInt k = 0; k < fi->nq; k++) fi->lam0[k] = lam[k];
    PetscCall(DRFixedInterfaceKeepFactor(fi, PETSC_TRUE));
  }
  if (!fi->F || fi->modal) PetscFunctionReturn(PETSC_SUCCESS);
  if (freed_mib) PetscCall(DRFixedInterfaceFactorMiB(fi, freed_mib));
  PetscCall(MatDestroy(&fi->F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceFactorMiB(DRFixedInterface *fi, PetscReal *mib)
{
  PetscInt  info16 = 0;
  PetscBool ismumps = PETSC_FALSE;
  Mat       F = fi->F;

  PetscFunctionBeginUser;
  *mib = 0;
  if (!F) PetscCall(SharedFactor(fi, &F)); /* the eigensolver's, not yet shared */
  if (!F) PetscFunctionReturn(PETSC_SUCCESS);
  {
    MatSolverType st;
    PetscCall(MatFactorGetSolverType(F, &st));
    PetscCall(PetscStrcmp(st, MATSOLVERMUMPS, &ismumps));
  }
  /* INFO(16): MB (10^6 bytes) MUMPS allocated on this process for the
   * numerical factorization (the factors and its working space) */
  if (ismumps) PetscCall(MatMumpsGetInfo(F, 16, &info16));
  *mib = (PetscReal)info16 * 1e6 / (1024.0 * 1024.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceConstraintModes(DRFixedInterface *fi, DRReduction r)
{
  PetscFunctionBeginUser;
  if (fi->nI == 0 || fi->nb == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DRRED_Constraint, 0, 0, 0, 0));
  {
    Mat KIB;
    PetscCall(MatCreateSubMatrix(fi->K, fi->isI, fi->isB, MAT_INITIAL_MATRIX, &KIB));
    PetscCall(MatConvert(KIB, MATDENSE, MAT_INITIAL_MATRIX, &fi->B));
    PetscCall(MatDestroy(&KIB));
    PetscCall(MatDuplicate(fi->B, MAT_DO_NOT_COPY_VALUES, &fi->X));
    PetscCall(DRFixedInterfaceFactor(fi, r));
    PetscCall(DRReductionBlockSolve(fi->F, fi->B, fi->X));
    PetscCall(MatScale(fi->X, -1.0));
  }
  PetscCall(PetscLogEventEnd(DRRED_Constraint, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The constraint modes X = -K_II^-1 K_IB have one column per boundary DOF
 * in ascending row order (isB); the superelement's boundary coordinates are
 * in label order (bcol).  bord[j]: the coordinate of the j-th boundary row.
 * The two orders differ whenever a part's rows are not sorted by label
 * (equations numbered by the writer, CalculiX knots' rotation rows). */
static PetscErrorCode BoundaryOrder(DRFixedInterface *fi, PetscInt **bord)
{
  PetscInt k = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(fi->nb + 1, bord));
  for (PetscInt i = 0; i < fi->n; i++)
    if (fi->bcol[i] >= 0) (*bord)[k++] = fi->bcol[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceBuildT(DRFixedInterface *fi, DRSuperelement *se)
{
  PetscScalar        *t;
  const PetscScalar  *x = NULL, **ph;
  PetscInt            ldt, ldx = 0, nb = fi->nb, nq = fi->nq, N = nb + nq, li = 0, *bord;

  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceBasisCreate(fi, N, &se->T)); /* grown in place by Append */
  PetscCall(MatDenseGetArray(se->T, &t));
  PetscCall(MatDenseGetLDA(se->T, &ldt));
  if (fi->X) {
    PetscCall(MatDenseGetArrayRead(fi->X, &x));
    PetscCall(MatDenseGetLDA(fi->X, &ldx));
  }
  PetscCall(PetscMalloc1(nq + 1, &ph));
  PetscCall(BoundaryOrder(fi, &bord));
  for (PetscInt k = 0; k < nq; k++) PetscCall(VecGetArrayRead(fi->modes[k], &ph[k]));
  for (PetscInt i = fi->rs; i < fi->re; i++) {
    PetscInt r = i - fi->rs;
    for (PetscInt j = 0; j < N; j++) t[r + j * ldt] = 0;
    if (fi->bcol[i] >= 0) t[r + fi->bcol[i] * ldt] = 1.0;
    else {
      if (x)
        for (PetscInt j = 0; j < nb; j++) t[r + bord[j] * ldt] = x[li + j * ldx];
      for (PetscInt k = 0; k < nq; k++) t[r + (nb + k) * ldt] = ph[k][li];
      li++;
    }
  }
  for (PetscInt k = 0; k < nq; k++) PetscCall(VecRestoreArrayRead(fi->modes[k], &ph[k]));
  PetscCall(PetscFree(bord));
  PetscCall(PetscFree(ph));
  if (fi->X) PetscCall(MatDenseRestoreArrayRead(fi->X, &x));
  PetscCall(MatDenseRestoreArray(se->T, &t));
  PetscCall(MatAssemblyBegin(se->T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(se->T, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceDestroy(DRFixedInterface *fi)
{
  PetscFunctionBeginUser;
  PetscCall(DRModalDestroy(&fi->modal));
  if (fi->kept) PetscCall(VecDestroyVecs(fi->nkept, &fi->kept));
  PetscCall(MatDestroy(&fi->Wres));
  PetscCall(PetscFree(fi->Qres));
  PetscCall(PetscFree(fi->lamres));
  PetscCall(MatDestroy(&fi->KC));
  PetscCall(PetscFree(fi->lam0));
  PetscCall(MatDestroy(&fi->F));
  PetscCall(MatDestroy(&fi->X));
  PetscCall(MatDestroy(&fi->B));
  PetscCall(MatDestroy(&fi->KII));
  PetscCall(MatDestroy(&fi->MII));
  PetscCall(ISDestroy(&fi->isB));
  PetscCall(ISDestroy(&fi->isI));
  PetscCall(PetscFree(fi->bcol));
  PetscCall(PetscFree(fi->interior));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceKeepFactor(DRFixedInterface *fi, PetscBool copies)
{
  PetscFunctionBeginUser;
  if (copies && fi->nq > 0 && fi->modes && !fi->kept) {
    PetscCall(VecDuplicateVecs(fi->modes[0], fi->nq, &fi->kept));
    for (PetscInt k = 0; k < fi->nq; k++) PetscCall(VecCopy(fi->modes[k], fi->kept[k]));
    fi->nkept = fi->nq;
  }
  if (!copies && fi->kept) PetscCall(VecDestroyVecs(fi->nkept, &fi->kept)); /* the basis holds them */
  PetscCall(DRModalDestroy(&fi->modal));
  fi->modes = NULL;
  PetscCall(MatDestroy(&fi->X));
  PetscCall(MatDestroy(&fi->B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceKeptArray(DRFixedInterface *fi, Mat T, PetscInt col0, PetscInt count, PetscScalar *dst, PetscInt ld)
{
  const PetscScalar *t;
  PetscInt           ldt;

  PetscFunctionBeginUser;
  PetscCall(MatDenseGetLDA(T, &ldt));
  PetscCall(MatDenseGetArrayRead(T, &t));
  for (PetscInt k = 0; k < count; k++) {
    PetscInt li = 0;
    for (PetscInt i = fi->rs; i < fi->re; i++)
      if (fi->bcol[i] < 0) dst[li++ + k * ld] = t[i - fi->rs + (col0 + k) * ldt];
  }
  PetscCall(MatDenseRestoreArrayRead(T, &t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceKeptVecs(DRFixedInterface *fi, Mat T, PetscInt col0, PetscInt count, Vec **v)
{
  Vec tmpl;

  PetscFunctionBeginUser;
  *v = NULL;
  if (count <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatCreateVecs(fi->KII, &tmpl, NULL));
  PetscCall(VecDuplicateVecs(tmpl, count, v));
  PetscCall(VecDestroy(&tmpl));
  for (PetscInt k = 0; k < count; k++) {
    PetscScalar *a;
    PetscCall(VecGetArrayWrite((*v)[k], &a));
    PetscCall(DRFixedInterfaceKeptArray(fi, T, col0 + k, 1, a, 0));
    PetscCall(VecRestoreArrayWrite((*v)[k], &a));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceReducedStiffness(DRFixedInterface *fi, DRSuperelement *se)
{
  PetscInt         nb = fi->nb, N = fi->nb + fi->nq, *bord;
  PetscReal       *XtB = NULL, *kbb = NULL;
  PetscMPIInt      rank;
  const PetscReal *lam = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  /* Phi_c^T K_IB = (K_BI Phi_c)^T, summed on rank 0 */
  if (fi->X) PetscCall(DRDenseTransposeProduct(fi->X, fi->B, &XtB));
  /* K_BB on rank 0: the parallel submatrix (rows and columns in ascending
   * global order of the boundary DOFs), each rank adding its rows */
  if (nb) {
    Mat       Kbb;
    PetscInt  *idx, rs, re;
    PetscReal *loc;
    PetscCall(PetscMalloc1(nb + 1, &idx));
    {
      PetscInt k = 0;
      for (PetscInt i = 0; i < fi->n; i++)
        if (fi->bcol[i] >= 0) idx[k++] = fi->bcol[i];
    }
    PetscCall(MatCreateSubMatrix(fi->K, fi->isB, fi->isB, MAT_INITIAL_MATRIX, &Kbb));
    PetscCall(MatGetOwnershipRange(Kbb, &rs, &re));
    PetscCall(PetscCalloc1(nb * nb, &loc));
    for (PetscInt r = rs; r < re; r++) {
      PetscInt           ncols;
      const PetscInt    *cols;
      const PetscScalar *vals;
      PetscCall(MatGetRow(Kbb, r, &ncols, &cols, &vals));
      for (PetscInt k = 0; k < ncols; k++) loc[idx[r] + idx[cols[k]] * nb] = PetscRealPart(vals[k]);
      PetscCall(MatRestoreRow(Kbb, r, &ncols, &cols, &vals));
    }
    if (!rank) PetscCall(PetscMalloc1(nb * nb, &kbb));
    PetscCallMPI(MPI_Reduce(loc, kbb, (PetscMPIInt)(nb * nb), MPIU_REAL, MPIU_SUM, 0, fi->comm));
    PetscCall(PetscFree(loc));
    PetscCall(PetscFree(idx));
    PetscCall(MatDestroy(&Kbb));
  }
  if (fi->nq) PetscCall(DRModalGetModes(fi->modal, NULL, NULL, &lam, NULL, NULL));
  PetscCall(BoundaryOrder(fi, &bord));
  if (!rank) {
    PetscCall(PetscCalloc1(N * N + 1, &se->K));
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i < nb; i++) se->K[bord[i] + bord[j] * N] = kbb[bord[i] + bord[j] * nb] + (XtB ? 0.5 * (XtB[i + j * nb] + XtB[j + i * nb]) : 0);
    for (PetscInt k = 0; k < fi->nq; k++) se->K[(nb + k) * (N + 1)] = lam[k];
  }
  se->K_formed = PETSC_TRUE;
  PetscCall(PetscFree(bord));
  PetscCall(PetscFree(kbb));
  PetscCall(PetscFree(XtB));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceBasis(DRReduction r, DRComponent c, const PetscBool isboundary[], PetscBool keep, DRSuperelement *se)
{
  DRFixedInterface fi;

  PetscFunctionBeginUser;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, &fi));
  PetscCall(DRFixedInterfaceModes(&fi, r, keep, se));
  PetscCall(DRFixedInterfaceConstraintModes(&fi, r));
  PetscCall(DRFixedInterfaceBuildT(&fi, se));
  PetscCall(DRFixedInterfaceReducedStiffness(&fi, se));
  PetscCall(DRFixedInterfaceDestroy(&fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
