/* Modal solver against the analytic spring-mass chain.
 * n equal masses m in a line, n springs k, the first spring to ground
 * (fixed-free chain): omega_j = 2 sqrt(k/m) sin((2j-1) pi / (2(2n+1))).
 * Checks: lowest-n mode, spectrum slicing below fmax finds exactly the
 * analytic count, mass normalization, residuals, the block Lanczos path
 * (block sizes 1, 3, 8, counted, deflated continuation), free chain (no ground
 * spring) gives one rigid-body mode, and an indefinite K is rejected. */
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
    for (PetscInt j = 0; j < nm; j++) {
      PetscReal w = 2 * PetscSqrtReal(k / m) * PetscSinReal((2 * j + 1) * PETSC_PI / (2 * (2 * n + 1)));
      /* tol: as for the lowest modes: residual tol 1e-12 + kappa(K) u = 1.5e-11 */
      if (j == nm - 1) DRTEST_CLOSE(f[j], w / (2 * PETSC_PI), 1e-9, 0, "slicing: highest mode below fmax");
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
