/* Compatible reduced coordinates (METHODS.md 3) and the interpolated ROM.
 * Everything here is n x n (or nw x k n) dense work on the Gram matrices of
 * W = [Phi | s_1 .. s_k] (support.c), V_i = W E_i:
 *  Panzer: V_all = [V_1 .. V_k] = Q_W (L^T E_all) with G_I = L L^T, so its
 *    left singular vectors are Q_W U (U from the SVD of L^T E_all, LAPACK
 *    gesvd) and R^T V_i = U_n^T L^T E_i; T_i = (R^T V_i)^{-1}.
 *  Amsallem-Farhat: Q_i = V_i L_i^{-T} (G_ii = L_i L_i^T), P_i = Q_i^T Q_ref
 *    = U S N^T, T_i = U N^T in Q_i coordinates, i.e. L_i^{-T} U N^T on V_i.
 * Transformed ROM: Mt = T^T M T, Kt = T^T K T, Bt = T^T B, Ct = C T. */
#include "pmorimpl.h"
#include <petscblaslapack.h>

/* C = op(A) op(B), column-major, plain loops (n <= a few hundred) */
static void Mul(PetscInt m, PetscInt n, PetscInt kk, PetscBool ta, const PetscReal *A, PetscInt lda, PetscBool tb, const PetscReal *B, PetscInt ldb, PetscReal *C)
{
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < m; i++) {
      PetscReal s = 0;
      for (PetscInt q = 0; q < kk; q++) s += (ta ? A[q + i * lda] : A[i + q * lda]) * (tb ? B[j + q * ldb] : B[q + j * ldb]);
      C[i + j * m] = s;
    }
}

static PetscErrorCode Cholesky(PetscInt n, PetscReal *A, const char *what)
{
  PetscBLASInt bn, info;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("L", &bn, A, &bn, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, DR_ERR_INPUT, "pmor: %s is not positive definite (LAPACK potrf info %d): the static mode of a support lies in the span of the eigenmodes, expected independent basis vectors (fewer pmor.nmodes?)", what, (int)info);
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < j; i++) A[i + j * n] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* X <- op(L)^{-1} X, L lower triangular n x n, X n x nr */
static PetscErrorCode TriSolve(PetscInt n, const PetscReal *L, PetscBool trans, PetscInt nr, PetscReal *X)
{
  PetscBLASInt bn, bnr, info;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(nr, &bnr));
  PetscCallBLAS("LAPACKtrtrs", LAPACKtrtrs_("L", trans ? "T" : "N", "N", &bn, &bnr, (PetscReal *)L, &bn, X, &bn, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK trtrs info %d", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A = U S VT (m x n, m >= n or not): U m x r, VT r x n, r = min(m, n); A destroyed */
static PetscErrorCode SVD(PetscInt m, PetscInt n, PetscReal *A, PetscReal *S, PetscReal *U, PetscReal *VT)
{
  PetscBLASInt bm, bn, br, lwork, info;
  PetscReal   *work;
  PetscInt     r = PetscMin(m, n);

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(m, &bm));
  PetscCall(PetscBLASIntCast(n, &bn));
  PetscCall(PetscBLASIntCast(r, &br));
  lwork = (PetscBLASInt)(5 * (m + n) + 64 * (m + n));
  PetscCall(PetscMalloc1(lwork, &work));
  PetscCallBLAS("LAPACKgesvd", LAPACKgesvd_("S", "S", &bm, &bn, A, &bm, S, U, &bm, VT, &br, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK gesvd info %d", (int)info);
  PetscCall(PetscFree(work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Inverse(PetscInt n, PetscReal *A)
{
  PetscBLASInt bn, info, lwork;
  PetscBLASInt *piv;
  PetscReal   *work;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &bn));
  lwork = (PetscBLASInt)(64 * n);
  PetscCall(PetscMalloc2(n, &piv, lwork, &work));
  PetscCallBLAS("LAPACKgetrf", LAPACKgetrf_(&bn, &bn, A, &bn, piv, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, DR_ERR_INPUT, "pmor: R^T V_i is singular (LAPACK getrf info %d): the supports' bases do not share an n-dimensional subspace, expected supports closer together", (int)info);
  PetscCallBLAS("LAPACKgetri", LAPACKgetri_(&bn, A, &bn, piv, work, &lwork, &info));
  PetscCall(PetscFree2(piv, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the columns of W that form V_i */
static void Index(DRPMOR pm, PetscInt i, PetscInt *E)
{
  for (PetscInt a = 0; a < pm->n; a++) E[a] = pm->E[i * pm->n + a];
}

/* Panzer when every support has its own basis, W = [V_1 .. V_k] (columns in
 * support order, nw = k n): the eigenmodes of neighbouring supports are
 * nearly parallel, so W^T W is (numerically) singular and has no Cholesky
 * factor; its eigendecomposition W^T W = Y Lambda Y^T (LAPACK syev) gives
 * the SVD W = (W Y Lambda^-1/2) Lambda^1/2 Y^T directly: R = W Y_n
 * Lambda_n^-1/2 (the n largest) and R^T V_i = Lambda_n^1/2 Y_n^T E_i. */
static PetscErrorCode PanzerEach(DRPMOR pm)
{
  PetscInt     nw = pm->nw, n = pm->n, k = pm->k;
  PetscReal   *Y, *lam, *work;
  PetscBLASInt bn, lwork, info;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(nw, &bn));
  lwork = (PetscBLASInt)(66 * nw);
  PetscCall(PetscMalloc3(nw * nw, &Y, nw, &lam, lwork, &work));
  PetscCall(PetscArraycpy(Y, pm->GI, nw * nw));
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_("V", "L", &bn, Y, &bn, lam, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev info %d", (int)info);
  /* ascending: the a-th largest is lam[nw - 1 - a] */
  pm->sv_ratio = nw > n ? PetscSqrtReal(PetscMax(lam[nw - 1 - n], 0) / lam[nw - 1]) : 0;
  for (PetscInt i = 0; i < k; i++) {
    PetscReal *T = pm->T + i * n * n;
    for (PetscInt a = 0; a < n; a++) {
      PetscInt  c = nw - 1 - a;
      PetscReal s = PetscSqrtReal(PetscMax(lam[c], 0));
      for (PetscInt b = 0; b < n; b++) T[a + b * n] = s * Y[pm->E[i * n + b] + c * nw];
    }
    PetscCall(Inverse(n, T));
  }
  PetscCall(PetscFree3(Y, lam, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Panzer(DRPMOR pm)
{
  PetscInt   nw = pm->nw, n = pm->n, k = pm->k, nc = k * n, r = PetscMin(nw, nc), *E;
  PetscReal *L, *X, *S, *U, *VT, *A;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(nw * nw, &L, nw * nc, &X, r, &S, nw * r, &U, r * nc, &VT, n, &E));
  PetscCall(PetscMalloc1(n * n, &A));
  PetscCall(PetscArraycpy(L, pm->GI, nw * nw));
  PetscCall(Cholesky(nw, L, "W^T W (W = [modes | static modes])"));
  for (PetscInt i = 0; i < k; i++) {
    Index(pm, i, E);
    for (PetscInt a = 0; a < n; a++)
      for (PetscInt q = 0; q < nw; q++) X[q + (i * n + a) * nw] = L[E[a] + q * nw]; /* (L^T)[q, E_a] */
  }
  PetscCall(SVD(nw, nc, X, S, U, VT));
  pm->sv_ratio = r > n ? S[n] / S[0] : 0;
  for (PetscInt i = 0; i < k; i++) {
    PetscReal *T = pm->T + i * n * n;
    Index(pm, i, E);
    /* R^T V_i = U_n^T L^T E_i */
    for (PetscInt b = 0; b < n; b++)
      for (PetscInt a = 0; a < n; a++) {
        PetscReal s = 0;
        for (PetscInt q = 0; q < nw; q++) s += U[q + a * nw] * L[E[b] + q * nw];
        T[a + b * n] = s;
      }
    PetscCall(Inverse(n, T));
  }
  PetscCall(PetscFree6(L, X, S, U, VT, E));
  PetscCall(PetscFree(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AmsallemFarhat(DRPMOR pm)
{
  PetscInt   nw = pm->nw, n = pm->n, k = pm->k, ref = pm->ref, *Ei, *Er;
  PetscReal *Li, *Lr, *P, *S, *U, *VT;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc6(n * n, &Li, n * n, &Lr, n * n, &P, n, &S, n * n, &U, n * n, &VT));
  PetscCall(PetscMalloc2(n, &Ei, n, &Er));
  Index(pm, ref, Er);
  for (PetscInt b = 0; b < n; b++)
    for (PetscInt a = 0; a < n; a++) Lr[a + b * n] = pm->GI[Er[a] + Er[b] * nw];
  PetscCall(Cholesky(n, Lr, "V_ref^T V_ref"));
  for (PetscInt i = 0; i < k; i++) {
    PetscReal *T = pm->T + i * n * n;
    Index(pm, i, Ei);
    for (PetscInt b = 0; b < n; b++)
      for (PetscInt a = 0; a < n; a++) {
        Li[a + b * n] = pm->GI[Ei[a] + Ei[b] * nw];
        P[a + b * n]  = pm->GI[Ei[a] + Er[b] * nw]; /* V_i^T V_ref */
      }
    PetscCall(Cholesky(n, Li, "V_i^T V_i"));
    PetscCall(TriSolve(n, Li, PETSC_FALSE, n, P)); /* L_i^{-1} V_i^T V_ref */
    /* P <- P L_ref^{-T}: (L_ref^{-1} P^T)^T */
    for (PetscInt b = 0; b < n; b++)
      for (PetscInt a = 0; a < n; a++) U[a + b * n] = P[b + a * n];
    PetscCall(TriSolve(n, Lr, PETSC_FALSE, n, U));
    for (PetscInt b = 0; b < n; b++)
      for (PetscInt a = 0; a < n; a++) P[a + b * n] = U[b + a * n];
    PetscCall(SVD(n, n, P, S, U, VT));
    Mul(n, n, n, PETSC_FALSE, U, n, PETSC_FALSE, VT, n, T); /* U N^T */
    PetscCall(TriSolve(n, Li, PETSC_TRUE, n, T));             /* L_i^{-T} U N^T */
  }
  PetscCall(PetscFree6(Li, Lr, P, S, U, VT));
  PetscCall(PetscFree2(Ei, Er));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORTransform(DRPMOR pm)
{
  PetscInt   n = pm->n, len = DRPMOR_ROMLEN(n);
  PetscReal *tmp;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Transform, 0, 0, 0, 0));
  PetscCall(PetscMalloc2(pm->k * n * n, &pm->T, pm->k * len, &pm->tr));
  PetscCall(PetscMalloc1(n * n, &tmp));
  if (!strcmp(pm->method, "panzer") && pm->each) PetscCall(PanzerEach(pm));
  else if (!strcmp(pm->method, "panzer")) PetscCall(Panzer(pm));
  else PetscCall(AmsallemFarhat(pm));
  for (PetscInt i = 0; i < pm->k; i++) {
    const PetscReal *T = pm->T + i * n * n, *r = pm->raw + i * len;
    PetscReal       *t = pm->tr + i * len;
    for (int q = 0; q < 2; q++) { /* M, K */
      Mul(n, n, n, PETSC_FALSE, r + q * n * n, n, PETSC_FALSE, T, n, tmp);
      Mul(n, n, n, PETSC_TRUE, T, n, PETSC_FALSE, tmp, n, t + q * n * n);
      for (PetscInt b = 0; b < n; b++) /* exact symmetry */
        for (PetscInt a = 0; a < b; a++) t[q * n * n + a + b * n] = t[q * n * n + b + a * n] = 0.5 * (t[q * n * n + a + b * n] + t[q * n * n + b + a * n]);
    }
    Mul(n, 1, n, PETSC_TRUE, T, n, PETSC_FALSE, r + 2 * n * n, n, t + 2 * n * n);         /* T^T B */
    Mul(n, 1, n, PETSC_TRUE, T, n, PETSC_FALSE, r + 2 * n * n + n, n, t + 2 * n * n + n); /* (C T)^T */
  }
  PetscCall(PetscFree(tmp));
  if (!strcmp(pm->interp, "manifold")) PetscCall(DRPMORManifoldSetUp(pm));
  PetscCall(PetscLogEventEnd(DRPMOR_Transform, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORGetSize(DRPMOR pm, PetscInt *n)
{
  PetscFunctionBeginUser;
  *n = pm->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORInterpolate(DRPMOR pm, PetscReal p, PetscReal *M, PetscReal *D, PetscReal *K, PetscReal *B, PetscReal *C)
{
  PetscInt   n = pm->n, len = DRPMOR_ROMLEN(n);
  PetscReal *w;

  PetscFunctionBeginUser;
  PetscCheck(pm->tr, pm->comm, PETSC_ERR_ORDER, "DRPMORInterpolate before DRPMORSolve");
  PetscCall(PetscMalloc1(pm->k, &w));
  PetscCall(DRPMORWeightsEval(pm->k, pm->ps, pm->S2, pm->period, p, w));
  for (PetscInt q = 0; q < n * n; q++) M[q] = K[q] = 0;
  for (PetscInt q = 0; q < n; q++) B[q] = C[q] = 0;
  for (PetscInt i = 0; i < pm->k; i++) {
    const PetscReal *t = pm->tr + i * len;
    if (w[i] == 0) continue;
    for (PetscInt q = 0; q < n * n; q++) M[q] += w[i] * t[q], K[q] += w[i] * t[n * n + q];
    for (PetscInt q = 0; q < n; q++) B[q] += w[i] * t[2 * n * n + q], C[q] += w[i] * t[2 * n * n + n + q];
  }
  /* M and K on the SPD manifold instead (B, C stay linear) */
  if (pm->mf) PetscCall(DRPMORManifoldEval(pm, w, M, K));
  /* D_i = alpha M_i + beta K_i on every support, so sum w_i D_i is this
   * combination of the linear M, K; on the manifold the same combination of
   * its M, K (Rayleigh damping of the interpolated ROM, SPD with them: the
   * linear sum of the D_i with spline weights is not, and its negative
   * damping made moving-load runs diverge) */
  if (D)
    for (PetscInt q = 0; q < n * n; q++) D[q] = pm->alpha * M[q] + pm->beta * K[q];
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}
