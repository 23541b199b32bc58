/* Modal solver against the analytic spring-mass chain.
 * n equal masses m in a line, n springs k, the first spring to ground
 * (fixed-free chain): omega_j = 2 sqrt(k/m) sin((2j-1) pi / (2(2n+1))).
 * Checks: lowest-n mode, spectrum slicing below fmax finds exactly the
 * analytic count and each mode of the slice at its analytic frequency, mass
 * normalization, residuals, the block Lanczos path
 * (block sizes 1, 3, 8, counted, deflated continuation), free chain (no ground
 * spring) gives one rigid-body mode, and an indefinite K is rejected.
 * DRDenseEigenPar (ScaLAPACK on more than one rank) on the dense chain of
 * n = 300 and 700: the lowest 20 against the analytic frequencies, and with a
 * consistent (tridiagonal) mass, all below a cutoff against LAPACK on one
 * rank (DRDenseEigen); residuals and mass normalization; an indefinite K
 * rejected.  The dense block Lanczos path (DenseLanczosChecks). */
#include <string.h>
#include "drtest.h"
#include <dynred/modal.h>

static PetscErrorCode Chain(PetscInt n, PetscReal k, PetscReal m, PetscBool grounded, PetscReal kneg, Mat *K, Mat *M)
{
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 2, NULL, K));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 0, NULL, M));
  PetscCall(MatGetOwnershipRange(*K, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    /* spring i connects mass i-1 (or ground) to mass i */
    PetscReal ki = (i == n / 2) ? kneg : k, kr = (i + 1 == n / 2) ? kneg : k;
    PetscReal d  = (i == 0 && !grounded) ? 0 : ki;
    if (i + 1 < n) d += kr;
    PetscCall(MatSetValue(*K, i, i, d, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*K, i, i - 1, -ki, INSERT_VALUES));
    if (i + 1 < n) PetscCall(MatSetValue(*K, i, i + 1, -kr, INSERT_VALUES));
    PetscCall(MatSetValue(*M, i, i, m, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max over the modes of |K x - lam M x| / |K x| and |x^T M x - 1| (dense, n x nf) */
static void DenseResiduals(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nf, const PetscReal *lam, const PetscReal *X, PetscReal *res, PetscReal *nrm)
{
  *res = *nrm = 0;
  for (PetscInt j = 0; j < nf; j++) {
    const PetscReal *x = X + j * n;
    PetscReal        r2 = 0, k2 = 0, xmx = 0;
    for (PetscInt i = 0; i < n; i++) {
      PetscReal kx = 0, mx = 0;
      for (PetscInt l = 0; l < n; l++) kx += K[i + l * n] * x[l], mx += M[i + l * n] * x[l];
      r2 += PetscSqr(kx - lam[j] * mx), k2 += kx * kx, xmx += x[i] * mx;
    }
    *res = PetscMax(*res, PetscSqrtReal(r2 / k2));
    *nrm = PetscMax(*nrm, PetscAbsReal(xmx - 1));
  }
}

static PetscErrorCode DenseParChecks(PetscInt n, PetscReal k, PetscReal m)
{
  PetscMPIInt    rank, size;
  PetscReal     *K = NULL, *M = NULL, *Mc = NULL, *lam = NULL, *X = NULL, *lam1 = NULL, *X1 = NULL, e[6] = {0, 0, 0, 0, 0, 0}, lmax;
  PetscInt       nf = 0, nf1 = 0;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (!rank) {
    PetscCall(PetscCalloc3(n * n, &K, n * n, &M, n * n, &Mc));
    PetscCall(PetscMalloc4(n, &lam, n * n, &X, n, &lam1, n * n, &X1));
    for (PetscInt i = 0; i < n; i++) { /* the fixed-free chain of Chain(): spring i from mass i - 1 (or ground) to mass i */
      K[i + i * n] = i + 1 < n ? 2 * k : k;
      if (i + 1 < n) K[i + (i + 1) * n] = K[i + 1 + i * n] = -k;
      M[i + i * n]  = m;
      Mc[i + i * n] = 4 * m / 6; /* a consistent-like mass: SPD, not diagonal */
      if (i + 1 < n) Mc[i + (i + 1) * n] = Mc[i + 1 + i * n] = m / 6;
    }
  }
  PetscCall(DRDenseEigenPar(PETSC_COMM_WORLD, n, K, M, 20, 0, &nf, lam, X));
  DRTEST_TRUE(nf == 20, "dense %d ranks, n = %d: the lowest 20 returned (%d)", (int)size, (int)n, (int)nf);
  if (!rank) {
    for (PetscInt j = 0; j < nf; j++) {
      PetscReal w = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1)));
      e[0]        = PetscMax(e[0], PetscAbsReal(lam[j] - w * w) / (w * w));
    }
    DenseResiduals(n, K, M, nf, lam, X, &e[1], &e[2]);
  }
  /* with the consistent-like mass: everything below 4 x the 20th eigenvalue of the lumped one, against LAPACK on one rank */
  lmax = 4 * (!rank ? lam[19] : 0);
  PetscCall(DRDenseEigenPar(PETSC_COMM_WORLD, n, K, Mc, 0, lmax, &nf, lam, X));
  if (!rank) {
    PetscCall(DRDenseEigen(n, K, Mc, 0, lmax, &nf1, lam1, X1));
    for (PetscInt j = 0; j < PetscMin(nf, nf1); j++) e[3] = PetscMax(e[3], PetscAbsReal(lam[j] - lam1[j]) / lam1[j]);
    DenseResiduals(n, K, Mc, nf, lam, X, &e[4], &e[5]);
  }
  PetscCallMPI(MPI_Bcast(e, 6, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&nf1, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  /* tol: the shifted-inverted pencil's eigenvalues carry eps kappa(K) relative error, kappa ~ 4 (2n+1)^2 / pi^2 = 8e5 at
   * n = 700: 2e-10; 1e-9 (both for the analytic values and LAPACK's) */
  DRTEST_CLOSE(e[0], 0, 0, 1e-9, "dense %d ranks, n = %d: the lowest 20 eigenvalues = analytic (max relative error)", (int)size, (int)n);
  /* tol: backward stable steps (potrf, sygst, MRRR, trsm): residual O(eps kappa(K - sigma M)^(1/2)) relative, far below 1e-8 */
  DRTEST_CLOSE(e[1], 0, 0, 1e-8, "dense %d ranks, n = %d: residuals |K x - lam M x| / |K x|", (int)size, (int)n);
  /* tol: x / sqrt(mu) normalizes exactly in exact arithmetic; MRRR's orthogonality O(n eps) and the back-substitution: 1e-10 */
  DRTEST_CLOSE(e[2], 0, 0, 1e-10, "dense %d ranks, n = %d: x^T M x = 1", (int)size, (int)n);
  DRTEST_TRUE(nf == nf1 && nf > 20, "dense %d ranks, n = %d, consistent mass: %d below the cutoff, as LAPACK on one rank (%d)", (int)size, (int)n, (int)nf, (int)nf1);
  DRTEST_CLOSE(e[3], 0, 0, 1e-9, "dense %d ranks, n = %d, consistent mass: eigenvalues = LAPACK's", (int)size, (int)n);
  DRTEST_CLOSE(e[4], 0, 0, 1e-8, "dense %d ranks, n = %d, consistent mass: residuals", (int)size, (int)n);
  DRTEST_CLOSE(e[5], 0, 0, 1e-10, "dense %d ranks, n = %d, consistent mass: x^T M x = 1", (int)size, (int)n);
  /* an indefinite K: the same input error on every rank */
  if (!rank) K[n / 2 + (n / 2) * n] = -4 * k;
  PetscCall(PetscPushErrorHandler(PetscIgnoreErrorHandler, NULL));
  ierr = DRDenseEigenPar(PETSC_COMM_WORLD, n, K, M, 5, 0, &nf, lam, X);
  PetscCall(PetscPopErrorHandler());
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "dense %d ranks, n = %d: an indefinite K is rejected as bad input (error %d)", (int)size, (int)n, (int)ierr);
  if (!rank) {
    PetscCall(PetscFree3(K, M, Mc));
    PetscCall(PetscFree4(lam, X, lam1, X1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* DRDenseEigen's block Lanczos path (src/eigen/dense_lanczos.c), on rank 0
 * with its size threshold lowered to 500 (-dr_dense_lanczos_min): the fixed-
 * free chain of n = 700 with the lumped mass, the lowest 40 against the
 * analytic frequencies and against LAPACK (DRDenseEigenMinor: the LAPACK
 * path) with their vectors; with the consistent-like mass everything below a
 * cutoff (the count by inertia) against LAPACK's count and values; the free
 * chain (a rigid mode, K singular) against its analytic spectrum
 * 4 k/m sin^2(j pi / (2n)); and where the path does not apply (too many
 * wanted, an indefinite K) it declines, so the LAPACK path answers. */
/* DRDenseEigenWork's reload: K's values from the caller's copy */
static PetscErrorCode ReloadCopy(void *ctx, PetscReal *K)
{
  const PetscReal *src = (const PetscReal *)ctx;
  PetscInt         n2  = (PetscInt)src[0];

  PetscFunctionBeginUser;
  PetscCall(PetscArraycpy(K, src + 1, n2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DenseLanczosChecks(PetscInt n, PetscReal k, PetscReal m)
{
  PetscMPIInt rank;
  PetscReal  *K, *Kf, *M, *Mc, *lam, *X, *lam1, *X1, e[9] = {0}, lmax;
  PetscInt    nf = 0, nf1 = 0, minor, want = 40, ok[5] = {0, 0, 0, 0, 0};
  PetscBool   done;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    PetscCall(PetscOptionsSetValue(NULL, "-dr_dense_lanczos_min", "500"));
    PetscCall(PetscCalloc4(n * n, &K, n * n, &Kf, n * n, &M, n * n, &Mc));
    PetscCall(PetscMalloc4(n, &lam, n * n, &X, n, &lam1, n * n, &X1));
    for (PetscInt i = 0; i < n; i++) { /* DenseParChecks' chains; Kf without the ground spring */
      K[i + i * n]  = i + 1 < n ? 2 * k : k;
      Kf[i + i * n] = (i > 0 ? k : 0) + (i + 1 < n ? k : 0);
      if (i + 1 < n) K[i + (i + 1) * n] = K[i + 1 + i * n] = Kf[i + (i + 1) * n] = Kf[i + 1 + i * n] = -k;
      M[i + i * n]  = m;
      Mc[i + i * n] = 4 * m / 6;
      if (i + 1 < n) Mc[i + (i + 1) * n] = Mc[i + 1 + i * n] = m / 6;
    }
    /* the lowest 40, lumped mass */
    PetscCall(DRDenseEigenLanczos(n, K, M, want, 0, &nf, lam, X, NULL, NULL, &done));
    PetscCall(DRDenseEigenMinor(n, K, M, want, 0, &nf1, lam1, X1, &minor));
    ok[0] = done && nf == want && nf1 == want;
    for (PetscInt j = 0; j < PetscMin(nf, nf1); j++) {
      PetscReal w = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1))), dx = 0, xm = 0;
      e[0]        = PetscMax(e[0], PetscAbsReal(lam[j] - w * w) / (w * w));
      e[1]        = PetscMax(e[1], PetscAbsReal(lam[j] - lam1[j]) / lam1[j]);
      for (PetscInt i = 0; i < n; i++) dx = PetscMax(dx, PetscAbsReal(X[i + j * n] - X1[i + j * n])), xm = PetscMax(xm, PetscAbsReal(X1[i + j * n]));
      e[2] = PetscMax(e[2], dx / xm);
    }
    DenseResiduals(n, K, M, nf, lam, X, &e[3], &e[4]);
    /* everything below 1.5 x the 40th eigenvalue, consistent-like mass: counted by inertia
     * (about 50 modes: more would cost the block path more than LAPACK at this n) */
    lmax = 1.5 * lam1[want - 1];
    PetscCall(DRDenseEigenLanczos(n, K, Mc, 0, lmax, &nf, lam, X, NULL, NULL, &done));
    PetscCall(DRDenseEigenMinor(n, K, Mc, 0, lmax, &nf1, lam1, X1, &minor));
    ok[1] = done && nf == nf1 && nf > want;
    for (PetscInt j = 0; j < PetscMin(nf, nf1); j++) e[5] = PetscMax(e[5], PetscAbsReal(lam[j] - lam1[j]) / lam1[j]);
    DenseResiduals(n, K, Mc, nf, lam, X, &e[6], &e[7]);
    { /* the same with K's storage as the work (the count's and the factor's),
       * K made again from a copy: the same bits, and K as it was */
      PetscReal *Kw, *Kc, *lw, *Xw;
      PetscInt   nw = 0;
      PetscCall(PetscMalloc4(n * n, &Kw, n * n + 1, &Kc, n, &lw, n * n, &Xw));
      PetscCall(PetscArraycpy(Kw, K, n * n));
      Kc[0] = (PetscReal)(n * n);
      PetscCall(PetscArraycpy(Kc + 1, K, n * n));
      PetscCall(DRDenseEigenWork(n, Kw, Mc, 0, lmax, &nw, lw, Xw, ReloadCopy, Kc));
      ok[4] = nw == nf && !memcmp(lw, lam, sizeof(PetscReal) * nf) && !memcmp(Xw, X, sizeof(PetscReal) * n * nf) && !memcmp(Kw, K, sizeof(PetscReal) * n * n);
      PetscCall(PetscFree4(Kw, Kc, lw, Xw));
    }
    /* the free chain: a rigid mode (lambda = 0) and 4 k/m sin^2(j pi / (2n)) */
    PetscCall(DRDenseEigenLanczos(n, Kf, M, 20, 0, &nf, lam, X, NULL, NULL, &done));
    ok[2] = done && nf == 20;
    for (PetscInt j = 1; j < nf; j++) {
      PetscReal l = 4 * k / m * PetscSqr(PetscSinReal(j * PETSC_PI / (2 * n)));
      e[8]        = PetscMax(e[8], PetscAbsReal(lam[j] - l) / l);
    }
    e[8] = PetscMax(e[8], PetscAbsReal(lam[0]) / lam[1]);
    /* declined: a third of the spectrum wanted; an indefinite K */
    PetscCall(DRDenseEigenLanczos(n, K, M, n / 3, 0, &nf, lam, X, NULL, NULL, &done));
    ok[3] = !done;
    K[n / 2 + (n / 2) * n] = -4 * k;
    PetscCall(DRDenseEigenLanczos(n, K, M, 5, 0, &nf, lam, X, NULL, NULL, &done));
    ok[3] = ok[3] && !done;
    PetscCall(PetscOptionsClearValue(NULL, "-dr_dense_lanczos_min"));
    PetscCall(PetscFree4(K, Kf, M, Mc));
    PetscCall(PetscFree4(lam, X, lam1, X1));
  }
  PetscCallMPI(MPI_Bcast(e, 9, MPIU_REAL, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(ok, 5, MPIU_INT, 0, PETSC_COMM_WORLD));
  DRTEST_TRUE(ok[4], "dense Lanczos, n = %d: with K's storage as its work (DRDenseEigenWork, K made again from a copy) the same eigenpairs bit for bit, and K as it was", (int)n);
  DRTEST_TRUE(ok[0], "dense Lanczos, n = %d: the lowest %d by the block path, as many as LAPACK", (int)n, (int)want);
  /* tol: as DenseParChecks: eps kappa(K) = 2e-10 at n = 700; the Lanczos residual tolerance 1e-10 enters squared */
  DRTEST_CLOSE(e[0], 0, 0, 1e-9, "dense Lanczos, n = %d: the lowest %d eigenvalues = analytic (max relative error)", (int)n, (int)want);
  DRTEST_CLOSE(e[1], 0, 0, 1e-9, "dense Lanczos, n = %d: eigenvalues = LAPACK's", (int)n);
  /* tol: a vector's error is the relative residual 1e-10 over the relative gap of the inverted spectrum
   * (>= 1 - (40/41)^2 = 0.05 here): 2e-9, LAPACK's own eps kappa / gap the same; 1e-7 leaves room (left) */
  DRTEST_CLOSE(e[2], 0, 0, 1e-7, "dense Lanczos, n = %d: vectors = LAPACK's (max |dx| / max |x|, signs by DRModeSign)", (int)n);
  /* tol: the residual of K x = lam M x relative to |K x| is kappa-amplified Lanczos residual: 1e-10 x (lam/lam_1 ~ 1.6e3 at mode 40)
   * = 1.6e-7; 1e-6 (left) */
  DRTEST_CLOSE(e[3], 0, 0, 1e-6, "dense Lanczos, n = %d: residuals |K x - lam M x| / |K x|", (int)n);
  /* tol: block.c's basis is M-orthonormal by Cholesky QR twice: O(n eps) = 1e-13; 1e-10 (left) */
  DRTEST_CLOSE(e[4], 0, 0, 1e-10, "dense Lanczos, n = %d: x^T M x = 1", (int)n);
  DRTEST_TRUE(ok[1], "dense Lanczos, n = %d, consistent mass: the count below the cutoff by inertia = LAPACK's", (int)n);
  DRTEST_CLOSE(e[5], 0, 0, 1e-9, "dense Lanczos, n = %d, consistent mass: eigenvalues = LAPACK's", (int)n);
  DRTEST_CLOSE(e[6], 0, 0, 1e-6, "dense Lanczos, n = %d, consistent mass: residuals", (int)n);
  DRTEST_CLOSE(e[7], 0, 0, 1e-10, "dense Lanczos, n = %d, consistent mass: x^T M x = 1", (int)n);
  DRTEST_TRUE(ok[2], "dense Lanczos, n = %d, free chain: 20 modes", (int)n);
  /* tol: the rigid mode's |lambda| / lambda_1 is the shift's scale: 1e-8 trace(K)/trace(M) against lambda_1 = 4k/m sin^2(pi/2n)
   * -> eps kappa on it ~ 1e-9; the others as above, 1e-9 */
  DRTEST_CLOSE(e[8], 0, 0, 1e-8, "dense Lanczos, n = %d, free chain: rigid mode ~ 0 and the rest = 4 k/m sin^2(j pi / 2n)", (int)n);
  DRTEST_TRUE(ok[3], "dense Lanczos, n = %d: declines a third of the spectrum and an indefinite K (LAPACK answers)", (int)n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  const PetscInt  n = 200;
  const PetscReal k = 1e6, m = 2.0;
  Mat             K, M;
  DRModal         modal;
  PetscInt        nm;
  const PetscReal *f, *lam, *res;
  Vec            *modes;

  PetscCall(DRInitialize(&argc, &argv, NULL));
  PetscCall(DenseParChecks(300, k, m));
  PetscCall(DenseParChecks(700, k, m));
  PetscCall(DenseLanczosChecks(700, k, m));
  PetscCall(Chain(n, k, m, PETSC_TRUE, k, &K, &M));

  /* lowest 12 modes */
  PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
  PetscCall(DRModalSetOperators(modal, K, M, "chain"));
  PetscCall(DRModalSetRange(modal, 12, 0));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &nm, &f, &lam, &modes, &res));
  DRTEST_TRUE(nm == 12, "12 modes returned (%d)", (int)nm);
  for (PetscInt j = 0; j < nm; j++) {
    PetscReal w = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1)));
    /* tol: SLEPc residual tol 1e-12 plus the shift-invert solve's kappa(K) u (kappa ~ 4(2n+1)^2/pi^2 = 6.5e4: 1.5e-11) on lambda, half that on f: 1e-9 is 100x looser (left) */
    DRTEST_CLOSE(f[j], w / (2 * PETSC_PI), 1e-9, 0, "chain mode %d frequency", (int)j + 1);
    /* tol: the solver's relative residual target is 1e-12 (DRModal default); 1e-9 allows the MUMPS back-solve's kappa(K) u = 1.5e-11 with margin */
    DRTEST_TRUE(res[j] < 1e-9, "mode %d residual %.2e < 1e-9", (int)j + 1, (double)res[j]);
  }
  {
    Vec       Mx;
    PetscReal g;
    PetscCall(VecDuplicate(modes[3], &Mx));
    PetscCall(MatMult(M, modes[3], Mx));
    PetscCall(VecDot(Mx, modes[3], &g));
    /* tol: x^T M x of a normalized vector: a dot product of n = 200 terms, <= n u = 4e-14 */
    DRTEST_CLOSE(g, 1.0, 1e-12, 0, "mode 4 mass-normalized");
    PetscCall(VecDot(Mx, modes[5], &g));
    /* tol: M-orthogonality of converged modes <= residual / relative gap (1e-12 / ~0.5) + n u; 1e-10 is looser (left) */
    DRTEST_CLOSE(g, 0.0, 0, 1e-10, "modes 4 and 6 M-orthogonal");
    PetscCall(VecDestroy(&Mx));
  }
  PetscCall(DRModalDestroy(&modal));

  /* block Lanczos (src/eigen/block.c) through the factorization of K:
   * block sizes 1 (plain Lanczos), 3 and 8, lowest 12 modes; the counted
   * path (fmax without slicing); and a continuation whose deflation space
   * is the first 6 modes, through a given factorization (the CMS refinement
   * round).  Each against the analytic frequencies, and the block path must
   * have been taken (its solved-column counter grows). */
  {
    const PetscInt bsz[3] = {1, 3, 8};
    /* the block path whatever the modes per block column (by default only
     * from 8 per column on: fewer go to SLEPc, checked below) */
    PetscCall(PetscOptionsSetValue(NULL, "-modal_block_min", "0"));
    for (PetscInt t = 0; t < 4; t++) {
      PetscInt c0, c1, bs = t < 3 ? bsz[t] : 4, want = 12;
      PetscCall(DREigenBlockColumns(&c0));
      PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
      PetscCall(DRModalSetOperators(modal, K, M, "chain"));
      if (t < 3) PetscCall(DRModalSetRange(modal, want, 0));
      else { /* counted: every mode below 60 Hz, one inertia count */
        want = 0;
        for (PetscInt j = 0; j < n; j++)
          if (2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1))) / (2 * PETSC_PI) < 60.0) want++;
        PetscCall(DRModalSetRange(modal, 0, 60.0));
        PetscCall(DRModalSetSlicing(modal, PETSC_FALSE));
      }
      PetscCall(DRModalSetBlockSize(modal, bs));
      PetscCall(DRModalSetFromOptions(modal));
      PetscCall(DRModalSolve(modal));
      PetscCall(DRModalGetModes(modal, &nm, &f, &lam, &modes, &res));
      PetscCall(DREigenBlockColumns(&c1));
      DRTEST_TRUE(c1 > c0, "block %d: the block path solved %d columns", (int)bs, (int)(c1 - c0));
      DRTEST_TRUE(nm == want, "block %d: %d modes returned, %d wanted", (int)bs, (int)nm, (int)want);
      for (PetscInt j = 0; j < nm; j++) {
        PetscReal w = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1)));
        /* tol: as for SLEPc above: the block solver converges to the same relative residual 1e-12 of the inverted operator, plus kappa(K) u = 1.5e-11 */
        DRTEST_CLOSE(f[j], w / (2 * PETSC_PI), 1e-9, 0, "block %d: chain mode %d frequency", (int)bs, (int)j + 1);
        /* tol: as above (residual target 1e-12 plus the back-solve's kappa(K) u) */
        DRTEST_TRUE(res[j] < 1e-9, "block %d: mode %d residual %.2e < 1e-9", (int)bs, (int)j + 1, (double)res[j]);
      }
      {
        Vec       Mx;
        PetscReal g;
        PetscCall(VecDuplicate(modes[3], &Mx));
        PetscCall(MatMult(M, modes[3], Mx));
        PetscCall(VecDot(Mx, modes[5], &g));
        /* tol: M-orthogonality of converged modes <= residual / relative gap + n u, as for SLEPc above */
        DRTEST_CLOSE(g, 0.0, 0, 1e-10, "block %d: modes 4 and 6 M-orthogonal", (int)bs);
        PetscCall(VecDestroy(&Mx));
      }
      if (t == 1) { /* continuation: modes 7..12 with the first 6 deflated, through a given factorization of K */
        Mat           F;
        MatFactorInfo info;
        DRModal       next;
        PetscInt      nn;
        const PetscReal *fn;
        PetscCall(MatGetFactor(K, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F));
        PetscCall(MatFactorInfoInitialize(&info));
        PetscCall(MatCholeskyFactorSymbolic(F, K, NULL, &info));
        PetscCall(MatCholeskyFactorNumeric(F, K, &info));
        PetscCall(DRModalCreate(PETSC_COMM_WORLD, &next));
        PetscCall(DRModalSetOperators(next, K, M, "chain"));
        PetscCall(DRModalSetFactor(next, F));
        PetscCall(DRModalSetDeflationSpace(next, 6, modes));
        PetscCall(DRModalSetRange(next, 6, 0));
        PetscCall(DRModalSetBlockSize(next, 3));
        PetscCall(DRModalSetFromOptions(next));
        PetscCall(DRModalSolve(next));
        PetscCall(DRModalGetModes(next, &nn, &fn, NULL, NULL, NULL));
        DRTEST_TRUE(nn == 6, "continuation: 6 modes (%d)", (int)nn);
        for (PetscInt j = 0; j < nn; j++) {
          PetscReal w = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * (j + 6) + 1) * PETSC_PI / (2 * (2 * n + 1)));
          /* tol: as above; the deflated modes are converged to the same residual, which bounds what leaks into the new ones */
          DRTEST_CLOSE(fn[j], w / (2 * PETSC_PI), 1e-9, 0, "continuation: chain mode %d frequency", (int)j + 7);
        }
        PetscCall(DRModalDestroy(&next));
        PetscCall(MatDestroy(&F));
      }
      PetscCall(DRModalDestroy(&modal));
    }
    PetscCall(PetscOptionsClearValue(NULL, "-modal_block_min"));
    { /* the default minimum: 12 modes with block size 8 (1.5 per column) go to SLEPc */
      PetscInt c0, c1;
      PetscCall(DREigenBlockColumns(&c0));
      PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
      PetscCall(DRModalSetOperators(modal, K, M, "chain"));
      PetscCall(DRModalSetRange(modal, 12, 0));
      PetscCall(DRModalSetBlockSize(modal, 8));
      PetscCall(DRModalSetFromOptions(modal));
      PetscCall(DRModalSolve(modal));
      PetscCall(DRModalGetModes(modal, &nm, &f, NULL, NULL, NULL));
      PetscCall(DREigenBlockColumns(&c1));
      DRTEST_TRUE(c1 == c0 && nm == 12, "12 modes at block size 8 (below 8 per column): SLEPc, %d block columns", (int)(c1 - c0));
      /* tol: as above */
      DRTEST_CLOSE(f[11], 2 * PetscSqrtReal(k / m) * PetscSinReal(23 * PETSC_PI / (2 * (2 * n + 1))) / (2 * PETSC_PI), 1e-9, 0, "SLEPc fallback: chain mode 12");
      PetscCall(DRModalDestroy(&modal));
    }
  }

  /* spectrum slicing: every mode below fmax, the count known analytically */
  {
    PetscReal fmax = 150.0;
    PetscInt  count = 0;
    for (PetscInt j = 0; j < n; j++)
      if (2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1))) / (2 * PETSC_PI) < fmax) count++;
    PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
    PetscCall(DRModalSetOperators(modal, K, M, "chain"));
    PetscCall(DRModalSetRange(modal, 0, fmax));
    PetscCall(DRModalSetFromOptions(modal));
    PetscCall(DRModalSolve(modal));
    PetscCall(DRModalGetModes(modal, &nm, &f, &lam, &modes, &res));
    DRTEST_TRUE(nm == count, "slicing below %g Hz found %d modes, analytic count %d", (double)fmax, (int)nm, (int)count);
    { /* every mode of the slice, in order, against its analytic frequency (a NaN fails) */
      PetscReal emax = 0, rmax = 0;
      PetscInt  jw = 0, nbad = 0, rbad = 0;
      for (PetscInt j = 0; j < nm; j++) {
        PetscReal fa = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1))) / (2 * PETSC_PI);
        PetscReal e  = PetscAbsReal(f[j] - fa) / fa;
        /* tol: as for the lowest modes: residual tol 1e-12 + kappa(K) u = 1.5e-11 on lambda, half that on f; 1e-9 (left) */
        if (!(e <= 1e-9)) nbad++;
        /* tol: as for the lowest modes: the residual target 1e-12 plus the back-solve's kappa(K) u */
        if (!(res[j] < 1e-9)) rbad++;
        if (e > emax) emax = e, jw = j;
        rmax = PetscMax(rmax, res[j]);
      }
      DRTEST_TRUE(nm > 0 && nbad == 0, "slicing: each of the %d modes below fmax = analytic to 1e-9 relative (%d off; largest error %.2e at mode %d)", (int)nm, (int)nbad, (double)emax, (int)jw + 1);
      DRTEST_TRUE(nm > 0 && rbad == 0, "slicing: each mode's residual < 1e-9 (%d above; max %.2e)", (int)rbad, (double)rmax);
    }
    PetscCall(DRModalDestroy(&modal));
  }
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&M));

  /* free-free chain: one rigid-body mode at 0 Hz, then the free-free
   * frequencies omega_j = 2 sqrt(k/m) sin(j pi / (2 n)). */
  PetscCall(Chain(n, k, m, PETSC_FALSE, k, &K, &M));
  PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
  PetscCall(DRModalSetOperators(modal, K, M, "free chain"));
  PetscCall(DRModalSetRange(modal, 4, 0));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &nm, &f, &lam, &modes, &res));
  /* tol: a zero eigenvalue is found to |dlambda| <~ 1e3 u ||K||/m = 4e-7 (residual tol and factorization of the shifted K), i.e. f <= sqrt(4e-7)/(2 pi) = 1e-4 Hz */
  DRTEST_CLOSE(f[0], 0.0, 0, 1e-4, "free chain rigid-body mode ~ 0 Hz");
  /* tol: as for the grounded chain: residual tol 1e-12 + kappa u (kappa ~ 1.6e4 on the flexible modes) */
  for (PetscInt j = 1; j < nm; j++) DRTEST_CLOSE(f[j], 2 * PetscSqrtReal(k / m) * PetscSinReal(j * PETSC_PI / (2 * n)) / (2 * PETSC_PI), 1e-9, 0, "free chain mode %d", (int)j + 1);
  PetscCall(DRModalDestroy(&modal));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&M));

  /* an indefinite K (one negative spring) must be rejected */
  {
    PetscErrorCode ierr;
    PetscCall(Chain(n, k, m, PETSC_TRUE, -3 * k, &K, &M));
    PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
    PetscCall(DRModalSetOperators(modal, K, M, "indefinite chain"));
    PetscCall(DRModalSetRange(modal, 4, 0));
    PetscCall(DRModalSetFromOptions(modal));
    PetscCall(PetscPushErrorHandler(PetscIgnoreErrorHandler, NULL));
    ierr = DRModalSolve(modal);
    PetscCall(PetscPopErrorHandler());
    DRTEST_TRUE(ierr == DR_ERR_INPUT, "indefinite K rejected as bad input (error %d)", (int)ierr);
    PetscCall(DRModalDestroy(&modal));
    PetscCall(MatDestroy(&K));
    PetscCall(MatDestroy(&M));
  }
  DRTEST_END();
}
