/* Component reductions against the full component, METHODS.md 1.4:
 *  - Guyan is exact for static loads at the masters (u_m equal to the full
 *    static solution at the masters);
 *  - IRS is closer than Guyan for the lowest modes, and both respect the
 *    Rayleigh-Ritz bound;
 *  - SEREP reproduces its retained (nb lowest) modes exactly;
 *  - Craig-Bampton with every interior mode reproduces the full spectrum.
 * Tolerances: 2 kappa(K) u with kappa(K) of the model computed here (1.8e8),
 * the forward-error bound of the direct solves both sides use.
 * Model: a 3D steel cantilever frame (builtin frame3d, 24 elements, square
 * section), masters = the transverse translations u_y, u_z at x = 0.25, 0.5,
 * 0.75 and 1: they observe the 8 lowest modes (4 bending pairs; torsion and
 * axial modes are far higher), as SEREP needs. */
#include "drtest.h"
#include <dynred/reduce.h>
#include <dynred/modal.h>
#include <dynred/eigen.h>
#include <petscblaslapack.h>
#include <petscksp.h>

/* all eigenvalues of the dense pair (K, M), ascending */
static PetscErrorCode DenseEig(PetscInt n, const PetscReal *K, const PetscReal *M, PetscReal *w)
{
  PetscInt m;

  PetscFunctionBeginUser;
  PetscCall(DRDenseEigen(n, K, M, n, 0, &m, w, NULL));
  PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_LIB, "dense eigensolve returned %d of %d", (int)m, (int)n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* kappa(A) of a small distributed SPD matrix: dense copy on every rank, LAPACK eigenvalues */
static PetscErrorCode Cond(Mat A, PetscReal *kappa)
{
  Mat                D, R;
  const PetscScalar *a;
  PetscReal         *Ad, *Id, *lam;
  PetscInt           n, lda;
  PetscBool          ok;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(MatConvert(A, MATDENSE, MAT_INITIAL_MATRIX, &D));
  PetscCall(MatCreateRedundantMatrix(D, 0, PETSC_COMM_SELF, MAT_INITIAL_MATRIX, &R));
  PetscCall(PetscMalloc3(n * n, &Ad, n * n, &Id, n, &lam));
  PetscCall(MatDenseGetArrayRead(R, &a));
  PetscCall(MatDenseGetLDA(R, &lda));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) Ad[i + j * n] = a[i + j * lda], Id[i + j * n] = i == j;
  PetscCall(MatDenseRestoreArrayRead(R, &a));
  PetscCall(DRDenseEigenvalues(n, Ad, Id, lam, &ok));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_LIB, "condition estimate: LAPACK failed");
  *kappa = lam[n - 1] / lam[0];
  PetscCall(PetscFree3(Ad, Id, lam));
  PetscCall(MatDestroy(&R));
  PetscCall(MatDestroy(&D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DRComponent     c;
  DRFrame3DParams p;
  DRCut           cut = {'x', 1};
  PetscBool      *isb;
  PetscInt        nb = 0, nfull = 16;
  DRReduction     red[4]; /* guyan, irs, serep, craig-bampton */
  const char     *types[4] = {DRREDUCTION_GUYAN, DRREDUCTION_IRS, DRREDUCTION_SEREP, DRREDUCTION_CRAIG_BAMPTON};
  const DRLabel  *gbl;
  const PetscReal *gK, *gM, *iK, *iM, *sK, *sM, *cK, *cM;
  PetscInt        ncb;
  DRModal         modal;
  const PetscReal *lam_full;
  PetscMPIInt     rank;
  PetscInt         ndof;
  const DRLabel   *labels;
  const PetscReal *xyz;
  Mat              compK, compM;
  PetscReal        kap = 0; /* kappa(K) of the full model: the tolerances below */

  PetscCall(DRInitialize(&argc, &argv, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRFrame3DParamsDefault(&p));
  p.nel = 24;
  PetscCall(DRBuiltinFrame3D(PETSC_COMM_WORLD, &p, cut, 0, &c));
  PetscCall(DRComponentGetLabels(c, &ndof, &labels));
  PetscCall(DRComponentGetGeometry(c, NULL, NULL, &xyz));
  PetscCall(DRComponentGetOperators(c, &compK, &compM, NULL));
  PetscCall(PetscCalloc1(ndof, &isb));
  for (PetscInt i = 0; i < ndof; i++) {
    PetscInt  k = DRComponentFindNode(c, DRLabelNode(labels[i])), d = DRLabelDir(labels[i]);
    PetscReal x = xyz[3 * k], q = 4 * x;
    if ((d == 2 || d == 3) && x > 0.1 && PetscAbsReal(q - floor(q + 0.5)) < 1e-9) {
      isb[i] = PETSC_TRUE;
      nb++;
    }
  }
  DRTEST_TRUE(nb == 8, "8 masters (u_y, u_z at 4 stations): %d", (int)nb);

  /* full reference: the lowest modes */
  PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
  PetscCall(DRModalSetOperators(modal, compK, compM, "beam"));
  PetscCall(DRModalSetRange(modal, nfull, 0));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, NULL, NULL, &lam_full, NULL, NULL));

  for (int k = 0; k < 4; k++) {
    PetscCall(DRReductionCreate(PETSC_COMM_WORLD, &red[k]));
    PetscCall(DRReductionSetType(red[k], types[k]));
    PetscCall(DRReductionSetOptionsPrefix(red[k], "test_"));
    PetscCall(DRReductionSetModes(red[k], k == 3 ? ndof : 0, 0)); /* craig-bampton: every interior mode */
    PetscCall(DRReductionSetFromOptions(red[k]));
    PetscCall(DRReductionSetUp(red[k]));
    PetscCall(DRReductionApply(red[k], c, isb));
  }
  PetscCall(DRReductionGetBoundary(red[0], NULL, &gbl));
  PetscCall(DRReductionGetReducedMatrices(red[0], NULL, &gK, &gM));
  PetscCall(DRReductionGetReducedMatrices(red[1], NULL, &iK, &iM));
  PetscCall(DRReductionGetReducedMatrices(red[2], NULL, &sK, &sM));
  PetscCall(DRReductionGetReducedMatrices(red[3], &ncb, &cK, &cM));
  PetscCall(DRReductionView(red[3], PETSC_VIEWER_STDOUT_WORLD));
  { /* an unknown type is answered with the registered ones */
    DRReduction    bad;
    PetscErrorCode ierr;
    PetscCall(DRReductionCreate(PETSC_COMM_WORLD, &bad));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = DRReductionSetType(bad, "xyz");
    PetscCall(PetscPopErrorHandler());
    DRTEST_TRUE(ierr == DR_ERR_INPUT, "unknown reduction type is an input error (%d)", (int)ierr);
    PetscCall(DRReductionDestroy(&bad));
  }

  PetscCall(Cond(compK, &kap));
  /* Guyan static exactness: unit tip loads in y and z */
  {
    KSP       ksp;
    PC        pc;
    Vec       f, u;
    PetscReal *um = NULL, *fm = NULL, *ug;
    PetscCall(MatCreateVecs(compK, &u, &f));
    PetscCall(VecSet(f, 0));
    PetscCall(PetscCalloc1(nb, &fm));
    for (PetscInt j = 0; j < nb; j++) {
      PetscInt k = DRComponentFindNode(c, DRLabelNode(gbl[j]));
      if (PetscAbsReal(xyz[3 * k] - 1.0) < 1e-12 && (DRLabelDir(gbl[j]) == 2 || DRLabelDir(gbl[j]) == 3)) {
        fm[j] = 1.0;
        for (PetscInt i = 0; i < ndof; i++)
          if (labels[i] == gbl[j]) PetscCall(VecSetValue(f, i, 1.0, INSERT_VALUES));
      }
    }
    PetscCall(VecAssemblyBegin(f));
    PetscCall(VecAssemblyEnd(f));
    PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
    PetscCall(KSPSetOperators(ksp, compK, compK));
    PetscCall(KSPSetType(ksp, KSPPREONLY));
    PetscCall(KSPGetPC(ksp, &pc));
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
    PetscCall(KSPSolve(ksp, f, u));
    /* full solution at the masters, gathered to all ranks */
    {
      PetscInt  rs, re;
      PetscReal *loc;
      const PetscScalar *a;
      PetscCall(PetscCalloc1(nb, &loc));
      PetscCall(PetscMalloc1(nb, &um));
      PetscCall(VecGetOwnershipRange(u, &rs, &re));
      PetscCall(VecGetArrayRead(u, &a));
      for (PetscInt i = rs; i < re; i++)
        if (isb[i]) loc[DRLabelsFind(nb, gbl, labels[i])] = a[i - rs];
      PetscCall(VecRestoreArrayRead(u, &a));
      PetscCall(MPIU_Allreduce(loc, um, nb, MPIU_REAL, MPIU_SUM, PETSC_COMM_WORLD));
      PetscCall(PetscFree(loc));
    }
    PetscCall(PetscMalloc1(nb, &ug));
    if (!rank) {
      PetscBLASInt n, one = 1, info;
      PetscReal   *A;
      PetscCall(PetscBLASIntCast(nb, &n));
      PetscCall(PetscMalloc1(nb * nb, &A));
      PetscCall(PetscArraycpy(A, gK, nb * nb));
      PetscCall(PetscArraycpy(ug, fm, nb));
      LAPACKpotrf_("L", &n, A, &n, &info);
      LAPACKpotrs_("L", &n, &one, A, &n, ug, &n, &info);
      PetscCall(PetscFree(A));
    }
    PetscCallMPI(MPI_Bcast(ug, (PetscMPIInt)nb, MPIU_REAL, 0, PETSC_COMM_WORLD));
    {
      PetscReal emax = 0, umax = 0;
      for (PetscInt j = 0; j < nb; j++) {
        emax = PetscMax(emax, PetscAbsReal(ug[j] - um[j]));
        umax = PetscMax(umax, PetscAbsReal(um[j]));
      }
      /* tol: Guyan is exact for loads at the masters; the two direct solves
       * (MUMPS on K, LAPACK on K_R) each carry a forward error up to
       * kappa(K) u (kappa(K_R) <= kappa(K)): 2 kappa(K) u, computed here
       * (kappa = 1.8e8: 8e-8; was 1e-10, below that bound: loosened). */
      DRTEST_CLOSE(emax / umax, 0, 0, 2 * kap * PETSC_MACHINE_EPSILON, "Guyan static response at the masters equals the full solution (max rel diff; kappa(K) = %.3g)", (double)kap);
    }
    PetscCall(PetscFree(ug));
    PetscCall(PetscFree(um));
    PetscCall(PetscFree(fm));
    PetscCall(VecDestroy(&u));
    PetscCall(VecDestroy(&f));
    PetscCall(KSPDestroy(&ksp));
  }

  /* eigenvalues of the reduced models (rank 0 holds the matrices) */
  {
    PetscReal *wg, *wi, *ws, *wc;
    PetscCall(PetscCalloc4(nb, &wg, nb, &wi, nb, &ws, ncb, &wc));
    if (!rank) {
      PetscCall(DenseEig(nb, gK, gM, wg));
      PetscCall(DenseEig(nb, iK, iM, wi));
      PetscCall(DenseEig(nb, sK, sM, ws));
      PetscCall(DenseEig(ncb, cK, cM, wc));
    }
    PetscCallMPI(MPI_Bcast(wg, (PetscMPIInt)nb, MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Bcast(wi, (PetscMPIInt)nb, MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Bcast(ws, (PetscMPIInt)nb, MPIU_REAL, 0, PETSC_COMM_WORLD));
    PetscCallMPI(MPI_Bcast(wc, (PetscMPIInt)ncb, MPIU_REAL, 0, PETSC_COMM_WORLD));
    for (PetscInt k = 0; k < 4; k++) {
      PetscReal eg = wg[k] / lam_full[k] - 1, ei = wi[k] / lam_full[k] - 1;
      /* tol: Rayleigh-Ritz bound up to the eigenvalue errors of the full (MUMPS shift-invert) and reduced solves, <= kappa(K) u each: 2 kappa(K) u = 8e-8 (IRS mode 1 lies 1e-12 above the full one; was 1e-9: loosened) */
      DRTEST_TRUE(eg >= -2 * kap * PETSC_MACHINE_EPSILON && ei >= -2 * kap * PETSC_MACHINE_EPSILON, "mode %d: Guyan and IRS eigenvalues above the full one (Rayleigh-Ritz): %.3e, %.3e", (int)k + 1, eg, ei);
      DRTEST_TRUE(ei < eg, "mode %d: IRS closer than Guyan (rel. eigenvalue error %.3e < %.3e)", (int)k + 1, ei, eg);
    }
    /* tol: SEREP reproduces its modes up to the eigenvalue errors of both solves, <= kappa(K) u each: 2 kappa(K) u (was 1e-8, below that bound: loosened) */
    for (PetscInt k = 0; k < nb; k++) DRTEST_CLOSE(ws[k], lam_full[k], 2 * kap * PETSC_MACHINE_EPSILON, 0, "SEREP reproduces retained mode %d", (int)k + 1);
    DRTEST_TRUE(ncb == ndof, "Craig-Bampton with every interior mode keeps %d = %d coordinates", (int)ncb, (int)ndof);
    /* tol: all interior modes kept, an exact change of basis: the two solves' eigenvalue errors, 2 kappa(K) u (was 1e-10, below that bound: loosened) */
    for (PetscInt k = 0; k < nfull; k++) DRTEST_CLOSE(wc[k], lam_full[k], 2 * kap * PETSC_MACHINE_EPSILON, 0, "Craig-Bampton (all modes) eigenvalue %d", (int)k + 1);
    /* the dense solver's two vector paths on the Craig-Bampton pencil
     * (src/eigen/dense_eigen.c): 3 modes (dsyevr on a part: dstebz +
     * dstein) and half of them (the whole spectrum by MRRR, the top half of
     * mu kept): eigenvalues against the full model's, and each vector's
     * Rayleigh quotient x^T K x / x^T M x equal to its eigenvalue (a vector
     * in the wrong column or a wrong back-transformation fails it).
     * tol: eigenvalues 2 kappa(K) u as above; M-normalization: computed
     * explicitly, n u ~ 1e-13, 1e-10 allowed; the Rayleigh quotient is
     * second order in the vector error, 2 kappa(K) u covers it */
    for (int pass = 0; pass < 2; pass++) {
      PetscInt   nw = pass ? ncb / 2 : 3, mf = 0;
      PetscReal *w = NULL, *X = NULL, *Kx = NULL, *Mx = NULL;
      if (!rank) {
        PetscCall(PetscMalloc4(ncb, &w, ncb * nw, &X, ncb, &Kx, ncb, &Mx));
        PetscCall(DRDenseEigen(ncb, cK, cM, nw, 0, &mf, w, X));
      }
      PetscCallMPI(MPI_Bcast(&mf, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
      DRTEST_TRUE(mf == nw, "dense eigensolve of %d of %d modes returned %d", (int)nw, (int)ncb, (int)mf);
      if (!rank && mf == nw) {
        PetscReal emax = 0, nmax = 0, rmax = 0;
        for (PetscInt k = 0; k < PetscMin(nw, nfull); k++) emax = PetscMax(emax, PetscAbsReal(w[k] / lam_full[k] - 1));
        for (PetscInt k = 0; k < nw; k++) {
          PetscReal xkx = 0, xmx = 0;
          for (PetscInt i = 0; i < ncb; i++) {
            Kx[i] = Mx[i] = 0;
            for (PetscInt j = 0; j < ncb; j++) {
              Kx[i] += cK[i + j * ncb] * X[j + k * ncb];
              Mx[i] += cM[i + j * ncb] * X[j + k * ncb];
            }
          }
          for (PetscInt i = 0; i < ncb; i++) xkx += X[i + k * ncb] * Kx[i], xmx += X[i + k * ncb] * Mx[i];
          nmax = PetscMax(nmax, PetscAbsReal(xmx - 1));
          rmax = PetscMax(rmax, PetscAbsReal(xkx / xmx / w[k] - 1));
        }
        DRTEST_TRUE(emax <= 2 * kap * PETSC_MACHINE_EPSILON, "%d modes: eigenvalues equal the full model's to %.2e", (int)nw, emax);
        DRTEST_TRUE(nmax <= 1e-10, "%d modes: x^T M x = 1 to %.2e", (int)nw, nmax);
        DRTEST_TRUE(rmax <= 2 * kap * PETSC_MACHINE_EPSILON, "%d modes: Rayleigh quotients equal the eigenvalues to %.2e", (int)nw, rmax);
      }
      if (!rank) PetscCall(PetscFree4(w, X, Kx, Mx));
    }
    PetscCall(PetscFree4(wg, wi, ws, wc));
  }
  for (int k = 0; k < 4; k++) PetscCall(DRReductionDestroy(&red[k]));
  PetscCall(DRModalDestroy(&modal));
  PetscCall(PetscFree(isb));
  PetscCall(DRComponentDestroy(&c));
  DRTEST_END();
}
