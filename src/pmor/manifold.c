/* Interpolation of the SPD reduced M and K on their manifold (Amsallem and
 * Farhat; pmor.interpolation: manifold).  With X_ref the matrix of the
 * reference support (pmor.reference) and its symmetric square root
 *   G_i  = X_ref^{-1/2} X_i X_ref^{-1/2},   L_i = logm(G_i)   (offline)
 *   X(p) = X_ref^{1/2} expm(sum_i w_i(p) L_i) X_ref^{1/2}     (online)
 * Every matrix function is one symmetric eigendecomposition (LAPACK syev):
 * f(A) = Q diag(f(lambda)) Q^T.  The result is SPD for any weights (the
 * exponential of a symmetric matrix is SPD, and so is its congruence with
 * X_ref^{1/2}); at a support (w = e_i, exactly, see weights.c) it is X_i up to
 * the round-off of the eigendecompositions.  D (Rayleigh: alpha M + beta K
 * of the supports), B and C stay linear in the weights.  Online cost: two
 * n x n eigendecompositions and a few n x n products, independent of N. */
#include "pmorimpl.h"
#include <petscblaslapack.h>

typedef enum { FUN_SQRT, FUN_INVSQRT, FUN_LOG, FUN_EXP } Fun;

/* C = A B (n x n, column-major) */
static PetscErrorCode Gemm(PetscInt n, const PetscReal *A, const PetscReal *B, PetscReal *C)
{
  PetscBLASInt bn;
  PetscReal    one = 1, zero = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &bn, &bn, &bn, &one, A, &bn, B, &bn, &zero, C, &bn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Symmetrize(PetscInt n, PetscReal *A)
{
  for (PetscInt b = 0; b < n; b++)
    for (PetscInt a = 0; a < b; a++) A[a + b * n] = A[b + a * n] = 0.5 * (A[a + b * n] + A[b + a * n]);
}

/* F = f(A) for symmetric A (A is not changed); what names A in the error
 * when f needs positive eigenvalues and A has none */
static PetscErrorCode SymFun(PetscInt n, const PetscReal *A, Fun f, PetscReal *F, const char *what)
{
  PetscBLASInt bn, lwork, info;
  PetscReal   *Q, *lam, *work, *QD;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  lwork = (PetscBLASInt)(66 * n);
  PetscCall(PetscMalloc4(n * n, &Q, n, &lam, lwork, &work, n * n, &QD));
  PetscCall(PetscArraycpy(Q, A, n * n));
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "L", &bn, Q, &bn, lam, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev info %d", (int)info);
  if (f != FUN_EXP) PetscCheck(lam[0] > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "pmor: %s is not positive definite (smallest eigenvalue %g), expected an SPD matrix for pmor.interpolation: manifold", what, (double)lam[0]);
  for (PetscInt j = 0; j < n; j++) {
    PetscReal d = f == FUN_SQRT ? PetscSqrtReal(lam[j]) : f == FUN_INVSQRT ? 1 / PetscSqrtReal(lam[j]) : f == FUN_LOG ? PetscLogReal(lam[j]) : PetscExpReal(lam[j]);
    for (PetscInt i = 0; i < n; i++) QD[i + j * n] = Q[i + j * n] * d;
  }
  /* F = (Q D) Q^T */
  {
    PetscReal one = 1, zero = 0;
    PetscCallBLAS("BLASgemm", BLASgemm_("N", "T", &bn, &bn, &bn, &one, QD, &bn, Q, &bn, &zero, F, &bn));
  }
  Symmetrize(n, F);
  PetscCall(PetscFree4(Q, lam, work, QD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* pm->mf: for q = 0 (M), 1 (K): X_ref^{1/2}, X_ref^{-1/2} [n x n each], then
 * the k logarithms L_i [k x n x n]. */
#define MF_HALF(pm, q)   ((pm)->mf + (q) * (2 + (pm)->k) * (pm)->n * (pm)->n)
#define MF_IHALF(pm, q)  (MF_HALF(pm, q) + (pm)->n * (pm)->n)
#define MF_LOG(pm, q, i) (MF_HALF(pm, q) + (2 + (i)) * (pm)->n * (pm)->n)

PetscErrorCode DRPMORManifoldSetUp(DRPMOR pm)
{
  PetscInt   n = pm->n, len = DRPMOR_ROMLEN(n);
  PetscReal *G, *tmp;
  char       what[64];

  PetscFunctionBeginUser;
  PetscCall(PetscFree(pm->mf));
  PetscCall(PetscMalloc1(2 * (2 + pm->k) * n * n, &pm->mf));
  PetscCall(PetscMalloc2(n * n, &G, n * n, &tmp));
  for (int q = 0; q < 2; q++) {
    const PetscReal *Xr = pm->tr + pm->ref * len + q * n * n;
    PetscCall(PetscSNPrintf(what, sizeof(what), "the reduced %s of the reference support %" PetscInt_FMT, q ? "K" : "M", pm->ref));
    PetscCall(SymFun(n, Xr, FUN_SQRT, MF_HALF(pm, q), what));
    PetscCall(SymFun(n, Xr, FUN_INVSQRT, MF_IHALF(pm, q), what));
    for (PetscInt i = 0; i < pm->k; i++) {
      PetscCall(Gemm(n, MF_IHALF(pm, q), pm->tr + i * len + q * n * n, tmp));
      PetscCall(Gemm(n, tmp, MF_IHALF(pm, q), G));
      Symmetrize(n, G);
      PetscCall(PetscSNPrintf(what, sizeof(what), "the reduced %s of support %" PetscInt_FMT, q ? "K" : "M", i));
      PetscCall(SymFun(n, G, FUN_LOG, MF_LOG(pm, q, i), what));
    }
  }
  PetscCall(PetscFree2(G, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M, K at the weights w[0..k-1] (either may be NULL) */
PetscErrorCode DRPMORManifoldEval(DRPMOR pm, const PetscReal w[], PetscReal *M, PetscReal *K)
{
  PetscInt   n = pm->n;
  PetscReal *L, *E, *tmp;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n * n, &L, n * n, &E, n * n, &tmp));
  for (int q = 0; q < 2; q++) {
    PetscReal *X = q ? K : M;
    if (!X) continue;
    PetscCall(PetscArrayzero(L, n * n));
    for (PetscInt i = 0; i < pm->k; i++) {
      const PetscReal *Li = MF_LOG(pm, q, i);
      if (w[i] == 0) continue;
      for (PetscInt j = 0; j < n * n; j++) L[j] += w[i] * Li[j];
    }
    PetscCall(SymFun(n, L, FUN_EXP, E, NULL));
    PetscCall(Gemm(n, MF_HALF(pm, q), E, tmp));
    PetscCall(Gemm(n, tmp, MF_HALF(pm, q), X));
    Symmetrize(n, X);
  }
  PetscCall(PetscFree3(L, E, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
