/* Craig-Bampton (fixed-interface) reduction, METHODS.md 1.1:
 *   T = [ I      0     ]   coordinates (u_B, eta)
 *       [ Phi_c  Phi_n ]
 * constraint modes Phi_c = -K_II^{-1} K_IB from one MUMPS Cholesky
 * factorization of K_II and one block solve (MatMatSolve) for all boundary
 * columns; fixed-interface modes Phi_n of (K_II, M_II) by SLEPc, the lowest
 * nmodes or all below the cutoff, mass-normalized. */
#include <dynred/reduce.h>
#include <dynred/modal.h>

/* Floating interior: the fixed-interface problem has a (near-)zero mode.
 * Name the DOFs that move most in it. */
static PetscErrorCode ReportFloating(DRComponent c, const PetscInt interior[], Vec mode, PetscReal f)
{
  Vec                z;
  VecScatter         sc;
  char               list[512] = "", b[32];
  PetscMPIInt        rank;

  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToZero(mode, &sc, &z));
  PetscCall(VecScatterBegin(sc, mode, z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, mode, z, INSERT_VALUES, SCATTER_FORWARD));
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  if (!rank) {
    const PetscScalar *a;
    PetscInt           nz;
    PetscReal          amax = 0;
    PetscCall(VecGetSize(z, &nz));
    PetscCall(VecGetArrayRead(z, &a));
    for (PetscInt i = 0; i < nz; i++) amax = PetscMax(amax, PetscAbsScalar(a[i]));
    for (PetscInt i = 0, cnt = 0; i < nz && cnt < 8; i++)
      if (PetscAbsScalar(a[i]) > 0.5 * amax) {
        PetscCall(PetscStrlcat(list, cnt ? ", " : "", sizeof(list)));
        PetscCall(PetscStrlcat(list, DRLabelString(c->labels[interior[i]], b), sizeof(list)));
        cnt++;
      }
    PetscCall(VecRestoreArrayRead(z, &a));
  }
  PetscCallMPI(MPI_Bcast(list, sizeof(list), MPI_CHAR, 0, c->comm));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&z));
  SETERRQ(c->comm, DR_ERR_INPUT, "%s: component '%s': interior DOFs float when the boundary is fixed (fixed-interface mode at %.3g Hz, K_II singular); moving most: %s; expected every interior DOF held by the boundary or a support (add the part's support or its contact DOFs to the interface)", c->source, c->name, (double)f, list);
}

PetscErrorCode DRReduceCraigBampton(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se)
{
  PetscInt        rs, re, nbl = 0, nil = 0, nb = 0, nI, *bidx, *iidx, *interior, *bcol, nq = 0;
  IS              isB, isI;
  Mat             KII = NULL, KIB = NULL, MII = NULL, X = NULL;
  Vec            *modes = NULL;
  DRModal         modal = NULL;
  PetscLogDouble  t0;

  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(c->K, &rs, &re));
  for (PetscInt i = 0; i < c->n; i++) nb += isboundary[i] ? 1 : 0;
  nI = c->n - nb;
  /* boundary columns in sorted-label order */
  PetscCall(PetscMalloc1(nb + 1, &se->blabels));
  PetscCall(PetscMalloc1(c->n + 1, &bcol));
  PetscCall(PetscMalloc1(nI + 1, &interior));
  {
    PetscInt k = 0, l = 0;
    for (PetscInt i = 0; i < c->n; i++) {
      if (isboundary[i]) se->blabels[k++] = c->labels[i];
      else interior[l++] = i;
    }
    PetscCall(PetscSortInt64(nb, se->blabels));
    for (PetscInt i = 0; i < c->n; i++) bcol[i] = isboundary[i] ? DRLabelsFind(nb, se->blabels, c->labels[i]) : -1;
  }
  se->nb = nb;
  PetscCall(PetscMalloc1(re - rs + 1, &bidx));
  PetscCall(PetscMalloc1(re - rs + 1, &iidx));
  for (PetscInt i = rs; i < re; i++) {
    if (isboundary[i]) bidx[nbl++] = i;
    else iidx[nil++] = i;
  }
  PetscCall(ISCreateGeneral(c->comm, nbl, bidx, PETSC_OWN_POINTER, &isB));
  PetscCall(ISCreateGeneral(c->comm, nil, iidx, PETSC_OWN_POINTER, &isI));

  if (nI > 0) {
    PetscInt         nm;
    const PetscReal *f, *lam;
    PetscReal        sigma;
    PetscCall(MatCreateSubMatrix(c->K, isI, isI, MAT_INITIAL_MATRIX, &KII));
    PetscCall(MatCreateSubMatrix(c->M, isI, isI, MAT_INITIAL_MATRIX, &MII));
    PetscCall(MatSetOption(KII, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(KII, MAT_SPD, PETSC_TRUE));
    PetscCall(MatSetOption(MII, MAT_SYMMETRIC, PETSC_TRUE));

    /* fixed-interface modes; at least one, to prove K_II regular */
    t0 = DRTime();
    PetscCall(PetscLogEventBegin(DR_EVENT_CompEig, 0, 0, 0, 0));
    PetscCall(DRModalCreate(c->comm, &modal));
    PetscCall(DRModalSetOptionsPrefix(modal, opt->prefix));
    PetscCall(DRModalSetOperators(modal, KII, MII, c->source));
    if (opt->cutoff_hz > 0) PetscCall(DRModalSetRange(modal, 0, opt->cutoff_hz));
    else PetscCall(DRModalSetRange(modal, PetscMax(1, PetscMin(opt->nmodes, nI)), 0));
    PetscCall(DRModalSetFromOptions(modal));
    PetscCall(DRModalSolve(modal));
    PetscCall(DRModalGetModes(modal, &nm, &f, &lam, &modes, NULL));
    PetscCall(DRModalGetShift(modal, &sigma));
    if (nm > 0 && PetscAbsReal(lam[0]) < 1e-6 * PetscAbsReal(sigma)) PetscCall(ReportFloating(c, interior, modes[0], f[0]));
    nq = opt->cutoff_hz > 0 ? nm : PetscMin(nm, opt->nmodes);
    PetscCall(PetscMalloc1(nq + 1, &se->qfreq_hz));
    for (PetscInt k = 0; k < nq; k++) se->qfreq_hz[k] = f[k];
    PetscCall(PetscLogEventEnd(DR_EVENT_CompEig, 0, 0, 0, 0));
    se->t_eig += DRTime() - t0;

    /* constraint modes: one factorization, one block solve */
    t0 = DRTime();
    PetscCall(PetscLogEventBegin(DR_EVENT_Constraint, 0, 0, 0, 0));
    if (nb > 0) {
      Mat           F, B;
      MatFactorInfo info;
      PetscCall(MatCreateSubMatrix(c->K, isI, isB, MAT_INITIAL_MATRIX, &KIB));
      PetscCall(MatConvert(KIB, MATDENSE, MAT_INITIAL_MATRIX, &B));
      PetscCall(MatDuplicate(B, MAT_DO_NOT_COPY_VALUES, &X));
      PetscCall(MatGetFactor(KII, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F));
      PetscCall(MatSetOptionsPrefix(F, opt->prefix));
      PetscCall(MatAppendOptionsPrefix(F, "static_"));
      PetscCall(MatSetFromOptions(F));
      PetscCall(MatFactorInfoInitialize(&info));
      PetscCall(MatCholeskyFactorSymbolic(F, KII, NULL, &info));
      PetscCall(MatCholeskyFactorNumeric(F, KII, &info));
      PetscCall(MatMatSolve(F, B, X));
      PetscCall(MatScale(X, -1.0));
      PetscCall(MatDestroy(&F));
      PetscCall(MatDestroy(&B));
    }
    PetscCall(PetscLogEventEnd(DR_EVENT_Constraint, 0, 0, 0, 0));
    se->t_static += DRTime() - t0;
  } else {
    PetscCall(PetscMalloc1(1, &se->qfreq_hz));
  }
  se->nq = nq;

  /* T = [I 0; Phi_c Phi_n] over the component's rows */
  {
    PetscScalar       *t;
    const PetscScalar *x = NULL;
    PetscInt           ldt, ldx = 0, N = nb + nq, li = 0;
    const PetscScalar **ph;
    PetscCall(MatCreateDense(c->comm, re - rs, PETSC_DECIDE, c->n, N, NULL, &se->T));
    PetscCall(MatDenseGetArray(se->T, &t));
    PetscCall(MatDenseGetLDA(se->T, &ldt));
    if (X) {
      PetscCall(MatDenseGetArrayRead(X, &x));
      PetscCall(MatDenseGetLDA(X, &ldx));
    }
    PetscCall(PetscMalloc1(nq + 1, &ph));
    for (PetscInt k = 0; k < nq; k++) PetscCall(VecGetArrayRead(modes[k], &ph[k]));
    for (PetscInt i = rs; i < re; i++) {
      PetscInt r = i - rs;
      for (PetscInt j = 0; j < N; j++) t[r + j * ldt] = 0;
      if (isboundary[i]) t[r + bcol[i] * ldt] = 1.0;
      else {
        for (PetscInt j = 0; j < nb; j++) t[r + j * ldt] = x[li + j * ldx];
        for (PetscInt k = 0; k < nq; k++) t[r + (nb + k) * ldt] = ph[k][li];
        li++;
      }
    }
    for (PetscInt k = 0; k < nq; k++) PetscCall(VecRestoreArrayRead(modes[k], &ph[k]));
    PetscCall(PetscFree(ph));
    if (X) PetscCall(MatDenseRestoreArrayRead(X, &x));
    PetscCall(MatDenseRestoreArray(se->T, &t));
    PetscCall(MatAssemblyBegin(se->T, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(se->T, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(DRSuperelementProject(c, se));

  PetscCall(DRModalDestroy(&modal));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&KII));
  PetscCall(MatDestroy(&KIB));
  PetscCall(MatDestroy(&MII));
  PetscCall(ISDestroy(&isB));
  PetscCall(ISDestroy(&isI));
  PetscCall(PetscFree(bcol));
  PetscCall(PetscFree(interior));
  PetscFunctionReturn(PETSC_SUCCESS);
}
