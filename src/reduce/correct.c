/* Residual corrections of a Craig-Bampton superelement (the CMS refinement
 * for cms.tol_pct, cms.refine: corrections).
 *
 * The error estimate (couple/estimate.c) solves, on every component, W =
 * K_II^{-1} r_I for the interior residual r_I = (K u - theta M u)_I of each
 * system mode (theta, u) (residual.c keeps W).  Those vectors are what the
 * kept fixed-interface modes miss: with the truncated modes phi_j
 * (eigenvalues lambda_j above the kept ones), r_I = sum_j M_II phi_j c_j and
 * K_II^{-1} r_I = sum_j phi_j c_j / lambda_j, the static (first-order)
 * response of the truncated modes to the mode's inertia -- the residual
 * flexibility of MacNeal and Rubin (METHODS.md 1.3) and the "residual
 * vectors" of enhanced Craig-Bampton (Kim & Lee, Int. J. Numer. Meth. Eng.
 * 103 (2015) 79-93), here computed for the system modes themselves.  Added
 * to the basis they make the next coupled solve a step of block inverse
 * iteration on each interior (Davidson's correction with the exact interior
 * solve as preconditioner): a mode whose interior error was e falls to
 * about e theta / lambda_c (lambda_c the lowest truncated eigenvalue).  The
 * result stays a Rayleigh-Ritz projection of the full pencil, so the
 * eigenvalue bounds and the error estimate hold as before.
 *
 * The corrections are M_II-orthogonalized against the kept vectors (two
 * passes of classical Gram-Schmidt), their dependent part dropped (the
 * eigenvalues of their Gram matrix below DR_CORR_RANK_TOL of the largest),
 * and the rest rotated to the Ritz vectors of (K_II, M_II) on their span,
 * so they enter the superelement like modes: mass-normalized, K- and
 * M-orthogonal to each other, M-orthogonal to the kept ones (their
 * stiffness coupling with earlier corrections is computed, enrich.c). */
#include "fixed_interface.h"
#include <petscblaslapack.h>

/* A direction whose Gram eigenvalue is below 1e-10 of the largest squared
 * M-norm of the corrections BEFORE the orthogonalization has a relative size
 * below 1e-5 after two orthogonalization passes in double precision (each
 * pass leaves O(1e-16 kappa) of the kept directions): kept it would carry
 * rounding noise, not a correction.  (Relative to the sizes after it, a
 * correction that the kept vectors already span, e.g. of an interior whose
 * every mode is kept, would survive as pure noise and make M_r singular.) */
#define DR_CORR_RANK_TOL 1e-10

/* Z -= Kp (Kp^T M Z) for the nk kept vectors Kp (local rows nl, the
 * interior rows of the basis' columns, DRFixedInterfaceKeptArray). */
static PetscErrorCode OrthogonalizeAgainstKept(DRFixedInterface *fi, PetscInt nl, PetscInt nk, const PetscScalar *kp, PetscInt nz, Mat Zm)
{
  PetscScalar *z;
  PetscInt     ldz;
  Mat          MZ;
  PetscScalar *c;
  const PetscScalar *mz;
  PetscInt     ldm;
  PetscBLASInt mm, nn, kk, l1, l2, l3;
  PetscScalar  one = 1, zero = 0, mone = -1;

  PetscFunctionBeginUser;
  if (nk == 0 || nz == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(nk * nz + 1, &c));
  PetscCall(MatMatMult(fi->MII, Zm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MZ));
  PetscCall(MatDenseGetLDA(MZ, &ldm));
  PetscCall(MatDenseGetArrayRead(MZ, &mz));
  PetscCall(PetscBLASIntCast(nk, &mm));
  PetscCall(PetscBLASIntCast(nz, &nn));
  PetscCall(PetscBLASIntCast(nl, &kk));
  PetscCall(PetscBLASIntCast(PetscMax(nl, 1), &l1));
  PetscCall(PetscBLASIntCast(ldm, &l2));
  l3 = mm;
  if (nl > 0) BLASgemm_("T", "N", &mm, &nn, &kk, &one, kp, &l1, mz, &l2, &zero, c, &l3);
  else PetscCall(PetscArrayzero(c, nk * nz));
  PetscCall(MatDenseRestoreArrayRead(MZ, &mz));
  PetscCall(MatDestroy(&MZ));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, c, (PetscMPIInt)(nk * nz), MPIU_SCALAR, MPIU_SUM, fi->comm));
  PetscCall(MatDenseGetLDA(Zm, &ldz));
  PetscCall(MatDenseGetArray(Zm, &z));
  PetscCall(PetscBLASIntCast(ldz, &l2));
  if (nl > 0) BLASgemm_("N", "N", &kk, &nn, &mm, &mone, kp, &l1, c, &l3, &one, z, &l2);
  PetscCall(MatDenseRestoreArray(Zm, &z));
  PetscCall(PetscFree(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the coefficients C (nz x *np) of the Ritz vectors of (GK, GM) on
 * the span of the nz columns, and their eigenvalues theta, ascending; ref:
 * the largest squared M-norm before the orthogonalization, pmax: at most
 * that many directions. */
static PetscErrorCode RitzCoefficients(PetscInt nz, PetscReal *GK, PetscReal *GM, PetscReal ref, PetscInt pmax, PetscInt *np, PetscReal **C, PetscReal **theta)
{
  PetscBLASInt n, lwork, info;
  PetscReal   *mu, *work, *B, *A, wq;
  PetscInt     first = 0, p;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(nz, &n));
  PetscCall(PetscMalloc1(nz + 1, &mu));
  lwork = -1;
  LAPACKsyev_("V", "L", &n, GM, &n, mu, &wq, &lwork, &info);
  PetscCall(PetscBLASIntCast((PetscInt)wq + 1, &lwork));
  PetscCall(PetscBLASIntCast(PetscMax((PetscInt)lwork, 3 * nz), &lwork));
  PetscCall(PetscMalloc1(lwork, &work));
  LAPACKsyev_("V", "L", &n, GM, &n, mu, work, &lwork, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev (Gram matrix of the residual corrections) failed: info %d", (int)info);
  while (first < nz && mu[first] <= DR_CORR_RANK_TOL * PetscMax(mu[nz - 1], ref)) first++;
  first = PetscMax(first, nz - pmax); /* never more directions than the interior has left */
  p     = nz - first;
  /* B = U_p diag(mu_p)^{-1/2}: an M-orthonormal basis of the span */
  PetscCall(PetscMalloc2(nz * p + 1, &B, p * p + 1, &A));
  for (PetscInt j = 0; j < p; j++)
    for (PetscInt i = 0; i < nz; i++) B[i + j * nz] = GM[i + (first + j) * nz] / PetscSqrtReal(mu[first + j]);
  /* A = B^T GK B */
  {
    PetscReal   *KB;
    PetscBLASInt pp, ln;
    PetscScalar  one = 1, zero = 0;
    PetscCall(PetscBLASIntCast(p, &pp));
    ln = n;
    PetscCall(PetscMalloc1(nz * p + 1, &KB));
    if (p > 0) {
      BLASgemm_("N", "N", &n, &pp, &n, &one, GK, &ln, B, &ln, &zero, KB, &ln);
      BLASgemm_("T", "N", &pp, &pp, &n, &one, B, &ln, KB, &ln, &zero, A, &pp);
    }
    PetscCall(PetscFree(KB));
    for (PetscInt j = 0; j < p; j++)
      for (PetscInt i = 0; i < j; i++) A[i + j * p] = A[j + i * p] = 0.5 * (A[i + j * p] + A[j + i * p]);
    PetscCall(PetscMalloc1(p + 1, theta));
    if (p > 0) {
      LAPACKsyev_("V", "L", &pp, A, &pp, *theta, work, &lwork, &info);
      PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev (Ritz values of the residual corrections) failed: info %d", (int)info);
    }
    /* C = B Y */
    PetscCall(PetscMalloc1(nz * p + 1, C));
    if (p > 0) BLASgemm_("N", "N", &n, &pp, &pp, &one, B, &ln, A, &pp, &zero, *C, &ln);
  }
  *np = p;
  PetscCall(PetscFree2(B, A));
  PetscCall(PetscFree(work));
  PetscCall(PetscFree(mu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The span of the nsel columns of Zm (K_II's row layout; overwritten)
 * appended to the superelement: M_II-orthogonalized against the kept
 * vectors, the dependent part dropped, as Ritz vectors of (K_II, M_II). */
static PetscErrorCode AppendSpan(DRFixedInterface *fi, DRSuperelement *se, PetscInt nsel, Mat Zm, PetscInt *nadded)
{
  PetscInt     nl = 0, ldz, np = 0;
  Mat          KZ, MZ;
  PetscScalar *z;
  PetscReal   *GK = NULL, *GM = NULL, *C = NULL, *theta = NULL, *f, ref = 0;
  Vec         *P = NULL, tmpl;
  PetscMPIInt  rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(fi->comm, &rank));
  PetscCall(MatGetLocalSize(fi->KII, &nl, NULL));
  PetscCall(MatDenseGetLDA(Zm, &ldz));
  /* the sizes before the orthogonalization (the rank test's scale) */
  PetscCall(MatMatMult(fi->MII, Zm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MZ));
  PetscCall(DRDenseTransposeProduct(Zm, MZ, &GM));
  PetscCall(MatDestroy(&MZ));
  if (!rank)
    for (PetscInt j = 0; j < nsel; j++) ref = PetscMax(ref, GM[j + j * nsel]);
  PetscCall(PetscFree(GM));
  /* two passes: M_II-orthogonal to the kept vectors */
  {
    PetscScalar *kp;
    PetscCall(PetscMalloc1(nl * fi->nq + 1, &kp));
    if (fi->nq > 0) PetscCall(DRFixedInterfaceKeptArray(fi, se->T, se->nb, fi->nq, kp, nl));
    for (int pass = 0; pass < 2; pass++) PetscCall(OrthogonalizeAgainstKept(fi, nl, fi->nq, kp, nsel, Zm));
    PetscCall(PetscFree(kp));
  }
  PetscCall(MatAssemblyBegin(Zm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Zm, MAT_FINAL_ASSEMBLY));
  /* Gram matrices on rank 0, the Ritz rotation there, broadcast */
  PetscCall(MatMatMult(fi->KII, Zm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KZ));
  PetscCall(MatMatMult(fi->MII, Zm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MZ));
  PetscCall(DRDenseTransposeProduct(Zm, KZ, &GK));
  PetscCall(DRDenseTransposeProduct(Zm, MZ, &GM));
  PetscCall(MatDestroy(&KZ));
  PetscCall(MatDestroy(&MZ));
  if (!rank) {
    for (PetscInt j = 0; j < nsel; j++)
      for (PetscInt i = 0; i < j; i++) {
        GK[i + j * nsel] = GK[j + i * nsel] = 0.5 * (GK[i + j * nsel] + GK[j + i * nsel]);
        GM[i + j * nsel] = GM[j + i * nsel] = 0.5 * (GM[i + j * nsel] + GM[j + i * nsel]);
      }
    PetscCall(RitzCoefficients(nsel, GK, GM, ref, fi->nI - fi->nq, &np, &C, &theta));
  }
  PetscCallMPI(MPI_Bcast(&np, 1, MPIU_INT, 0, fi->comm));
  if (rank) PetscCall(PetscMalloc2(nsel * np + 1, &C, np + 1, &theta));
  else {
    PetscReal *c2, *t2;
    PetscCall(PetscMalloc2(nsel * np + 1, &c2, np + 1, &t2));
    PetscCall(PetscArraycpy(c2, C, nsel * np));
    PetscCall(PetscArraycpy(t2, theta, np));
    PetscCall(PetscFree(C));
    PetscCall(PetscFree(theta));
    C     = c2;
    theta = t2;
  }
  PetscCallMPI(MPI_Bcast(C, (PetscMPIInt)(nsel * np), MPIU_REAL, 0, fi->comm));
  PetscCallMPI(MPI_Bcast(theta, (PetscMPIInt)np, MPIU_REAL, 0, fi->comm));
  PetscCall(PetscFree(GK));
  PetscCall(PetscFree(GM));
  /* P = Z C as vectors of K_II's layout */
  PetscCall(MatCreateVecs(fi->KII, &tmpl, NULL));
  if (np > 0) PetscCall(VecDuplicateVecs(tmpl, np, &P));
  PetscCall(VecDestroy(&tmpl));
  PetscCall(MatDenseGetArray(Zm, &z));
  if (np > 0 && nl > 0) {
    PetscScalar *pd, one = 1, zero = 0;
    PetscBLASInt mm, nn, kk, l1, l2;
    PetscCall(PetscMalloc1(nl * np, &pd));
    PetscCall(PetscBLASIntCast(nl, &mm));
    PetscCall(PetscBLASIntCast(np, &nn));
    PetscCall(PetscBLASIntCast(nsel, &kk));
    PetscCall(PetscBLASIntCast(ldz, &l1));
    l2 = kk;
    BLASgemm_("N", "N", &mm, &nn, &kk, &one, z, &l1, C, &l2, &zero, pd, &mm);
    for (PetscInt k = 0; k < np; k++) {
      PetscScalar *p;
      PetscCall(VecGetArray(P[k], &p));
      PetscCall(PetscArraycpy(p, pd + k * nl, nl));
      PetscCall(VecRestoreArray(P[k], &p));
    }
    PetscCall(PetscFree(pd));
  }
  PetscCall(MatDenseRestoreArray(Zm, &z));
  PetscCall(PetscMalloc1(np + 1, &f));
  for (PetscInt k = 0; k < np; k++) f[k] = PetscSqrtReal(PetscMax(theta[k], 0)) / (2 * PETSC_PI);
  PetscCall(DRFixedInterfaceAppend(fi, se, fi->nq, np, P, theta, f, PETSC_FALSE));
  *nadded = np;
  if (np > 0) PetscCall(VecDestroyVecs(np, &P));
  PetscCall(PetscFree(f));
  PetscCall(PetscFree2(C, theta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceCorrect(DRFixedInterface *fi, DRSuperelement *se, PetscInt nsel, const PetscInt sel[], PetscInt *nadded)
{
  Mat Zm;

  PetscFunctionBeginUser;
  *nadded = 0;
  if (!fi->nWres || nsel == 0 || fi->nI == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DRRED_Project, 0, 0, 0, 0));
  /* Z: the selected columns of W (held, or solved again) */
  PetscCall(DRFixedInterfaceResidualColumns(fi, se, nsel, sel, &Zm));
  PetscCall(AppendSpan(fi, se, nsel, Zm, nadded));
  PetscCall(MatDestroy(&Zm));
  PetscCall(PetscLogEventEnd(DRRED_Project, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFixedInterfaceCorrectAgain(DRFixedInterface *fi, DRSuperelement *se, PetscInt nv, Vec v[], PetscInt *nadded)
{
  PetscInt     nl = 0, ldz;
  Mat          Zm;
  PetscScalar *z;

  PetscFunctionBeginUser;
  *nadded = 0;
  if (nv == 0 || fi->nI == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetLocalSize(fi->KII, &nl, NULL));
  PetscCall(MatCreateDense(fi->comm, nl, PETSC_DECIDE, fi->nI, nv, NULL, &Zm));
  PetscCall(MatDenseGetLDA(Zm, &ldz));
  PetscCall(MatDenseGetArray(Zm, &z));
  for (PetscInt j = 0; j < nv; j++) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(v[j], &a));
    PetscCall(PetscArraycpy(z + j * ldz, a, nl));
    PetscCall(VecRestoreArrayRead(v[j], &a));
  }
  PetscCall(MatDenseRestoreArray(Zm, &z));
  PetscCall(AppendSpan(fi, se, nv, Zm, nadded));
  PetscCall(MatDestroy(&Zm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
