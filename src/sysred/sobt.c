/* dynred sysred: structure-preserving balanced truncation of a second-order
 * model (sysred.method sobt)
 *
 *   M q'' + D q' + K q = B u,  y = C q     (n positions, M symmetric > 0)
 *
 * Variant: position-velocity (pv) second-order balanced truncation of
 * T. Reis and T. Stykel, "Balanced truncation model reduction of second-order
 * systems", Math. Comput. Model. Dyn. Syst. 14 (2008) 391-406 (the Gramian
 * blocks after Y. Chahlaoui, D. Lemonnier, A. Vandendorpe, P. Van Dooren,
 * "Second-order balanced truncation", Linear Algebra Appl. 415 (2006) 373).
 * With x = [q; q'] the first-order realization
 *   A = [0 I; -M^{-1}K -M^{-1}D],  B1 = [0; M^{-1}B],  C1 = [C 0]
 * has the Gramians A P + P A^T + B1 B1^T = 0 and A^T Q + Q A + C1^T C1 = 0
 * (SLICOT SB03OD: Cholesky factors P = R R^T, Q = L L^T, A stable).  The
 * position controllability Gramian P_p = P(1:n, 1:n) = R_p R_p^T and the
 * velocity observability Gramian Q_v = Q(n+1:2n, n+1:2n) = L_v L_v^T
 * (Q here is the E^T Q E of the descriptor form E = diag(I, M)) give the pv
 * singular values sigma_i = sqrt(eig(P_p Q_v)) = sv(L_v^T R_p) = U S V^T
 * (LAPACK dgesvd) and the projections
 *   V = R_p V_r S_r^{-1/2},  W = M^{-1} L_v U_r S_r^{-1/2},  W^T M V = I_r,
 *   M_r = W^T M V (= I), D_r = W^T D V, K_r = W^T K V, B_r = W^T B, C_r = C V.
 * What it preserves: the second-order form (q_r'' + D_r q_r' + K_r q_r =
 * B_r u, y = C_r q_r) and a symmetric positive definite M_r = I.  It does
 * NOT preserve the symmetry or definiteness of D and K, nor stability in
 * general, and the first-order bound 2 sum sigma_i does not hold for it (none
 * is known): the frequency-response comparison (frf.c) is the error measure.
 * Transformation: T = V (q ~ V q_r), Ti = W^T M (q_r = Ti q, Ti T = I). */
#include "sysredimpl.h"
#include <string.h>

void sb03od_(const char *dico, const char *fact, const char *trans, const fint *n, const fint *m, double *a, const fint *lda, double *q, const fint *ldq, double *b, const fint *ldb, double *scale, double *wr, double *wi, double *dwork, const fint *ldwork, fint *info, size_t, size_t, size_t);
void dgesvd_(const char *ju, const char *jv, const fint *m, const fint *n, double *a, const fint *lda, double *s, double *u, const fint *ldu, double *vt, const fint *ldvt, double *work, const fint *lwork, fint *info, size_t, size_t);
void dpotrf_(const char *uplo, const fint *n, double *a, const fint *lda, fint *info, size_t);
void dpotrs_(const char *uplo, const fint *n, const fint *nrhs, const double *a, const fint *lda, double *b, const fint *ldb, fint *info, size_t);
void dgesv_(const fint *n, const fint *nrhs, double *a, const fint *lda, fint *ipiv, double *b, const fint *ldb, fint *info);

/* first-order realization [q; q'] of (M, D, K, B, C); X = M^{-1}[K D B] by
 * Cholesky (Mchol: the factor, n x n) */
static PetscErrorCode FirstOrder(PetscInt n, PetscInt m, PetscInt p, const PetscReal *Mchol, PetscBool chol, const PetscReal *Mg, const PetscReal *D, const PetscReal *K, const PetscReal *B, const PetscReal *C, DRLTI *s)
{
  PetscInt   n2 = 2 * n;
  fint       nn = (fint)n, nr = (fint)(2 * n + m), info, *ipiv;
  PetscReal *X, *Mc;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n * (2 * n + m), &X, n * n, &Mc, n, &ipiv));
  PetscCall(PetscArraycpy(X, K, n * n));
  PetscCall(PetscArraycpy(X + n * n, D, n * n));
  PetscCall(PetscArraycpy(X + 2 * n * n, B, n * m));
  if (chol) dpotrs_("L", &nn, &nr, Mchol, &nn, X, &nn, &info, 1);
  else {
    PetscCall(PetscArraycpy(Mc, Mg, n * n));
    dgesv_(&nn, &nr, Mc, &nn, ipiv, X, &nn, &info);
  }
  PetscCheck(info == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "the mass matrix of the reduced second-order model is singular (LAPACK info %d)", (int)info);
  PetscCall(DRLTIFree(s));
  PetscCall(DRLTIAlloc(n2, m, p, s));
  for (PetscInt i = 0; i < n; i++) {
    s->A[i + (n + i) * n2] = 1;
    for (PetscInt j = 0; j < n; j++) {
      s->A[n + i + j * n2]       = -X[i + j * n];
      s->A[n + i + (n + j) * n2] = -X[i + (n + j) * n];
    }
    for (PetscInt j = 0; j < m; j++) s->B[n + i + j * n2] = X[i + (2 * n + j) * n];
  }
  for (PetscInt i = 0; i < p; i++)
    for (PetscInt j = 0; j < n; j++) s->C[i + j * p] = C[i + j * p];
  PetscCall(PetscFree3(X, Mc, ipiv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cholesky factor of a Gramian of the first-order system (SB03OD):
 * ctrb: P = F F^T (F = U/scale upper); else Q = F F^T (F = U^T/scale lower) */
static PetscErrorCode Factor(DRSysRed s, PetscBool ctrb, PetscReal *F)
{
  const DRLTI *f = &s->full;
  fint         n = (fint)f->n, k = (fint)(ctrb ? f->m : f->p), ld = (fint)PetscMax(f->n, ctrb ? f->m : f->p), lw, info;
  PetscReal   *a, *q, *b, *wr, *wi, *dw, scale;

  PetscFunctionBegin;
  lw = 4 * n * n + 8 * n + 4 * k + 64;
  PetscCall(PetscMalloc6(n * n, &a, n * n, &q, ld * ld, &b, n, &wr, n, &wi, lw, &dw));
  PetscCall(PetscArraycpy(a, f->A, n * n));
  PetscCall(PetscArrayzero(b, ld * ld));
  if (ctrb) /* TRANS T: A X + X A^T = -scale^2 B B^T, B n x m */
    for (PetscInt j = 0; j < k; j++)
      for (PetscInt i = 0; i < n; i++) b[i + j * ld] = f->B[i + j * n];
  else /* TRANS N: A^T X + X A = -scale^2 C^T C, C p x n */
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < k; i++) b[i + j * ld] = f->C[i + j * k];
  sb03od_("C", "N", ctrb ? "T" : "N", &n, &k, a, &n, q, &n, b, &ld, &scale, wr, wi, dw, &lw, &info, 1, 1, 1);
  PetscCheck(info != 2 && info != 3, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: the second-order model is not asymptotically stable (SLICOT SB03OD info %d), expected damping on every mode for sysred.method sobt (no rigid-body or undamped modes)", s->where, (int)info);
  PetscCheck(info == 0 || info == 1, PETSC_COMM_SELF, PETSC_ERR_LIB, "SLICOT SB03OD failed: info = %d", (int)info);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal u = j >= i ? b[i + j * ld] / scale : 0; /* U(i, j), upper */
      if (ctrb) F[i + j * n] = u;
      else F[j + i * n] = u;
    }
  PetscCall(PetscFree6(a, q, b, wr, wi, dw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedSecondOrder(DRSysRed s)
{
  DRSecondOrder *so = &s->so;
  PetscInt       n = so->n, m = so->m, p = so->p, n2 = 2 * n, r;
  PetscReal     *Mc, *R, *L, *Z, *U, *Vt, *sv, *V, *W, *T1, *work, wq;
  fint           nn = (fint)n, nn2 = (fint)n2, info, lw = -1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Balance, 0, 0, 0, 0));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < i; j++) PetscCheck(PetscAbsReal(so->M[i + j * n] - so->M[j + i * n]) <= 1e-12 * (PetscAbsReal(so->M[i + j * n]) + PetscAbsReal(so->M[i + i * n])), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is not symmetric (entry %" PetscInt_FMT ",%" PetscInt_FMT "), expected a symmetric positive definite mass matrix", s->where, i + 1, j + 1);
  PetscCall(PetscMalloc1(n * n, &Mc));
  PetscCall(PetscArraycpy(Mc, so->M, n * n));
  dpotrf_("L", &nn, Mc, &nn, &info, 1);
  PetscCheck(info == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is not positive definite (Cholesky fails at row %d), expected a symmetric positive definite mass matrix", s->where, (int)info);
  PetscCall(FirstOrder(n, m, p, Mc, PETSC_TRUE, NULL, so->D, so->K, so->B, so->C, &s->full));
  PetscCall(PetscMalloc6(n2 * n2, &R, n2 * n2, &L, n2 * n2, &Z, n2 * n2, &U, n2 * n2, &Vt, n2, &sv));
  PetscCall(Factor(s, PETSC_TRUE, R));
  PetscCall(Factor(s, PETSC_FALSE, L));
  /* Z = L_v^T R_p: L_v = L(n:2n, :), R_p = R(0:n, :) */
  PetscCall(DRGemm('T', 'N', n2, n2, n, 1.0, L + n, n2, R, n2, 0.0, Z, n2));
  dgesvd_("A", "A", &nn2, &nn2, Z, &nn2, sv, U, &nn2, Vt, &nn2, &wq, &lw, &info, 1, 1);
  lw = (fint)wq;
  PetscCall(PetscMalloc1(lw, &work));
  dgesvd_("A", "A", &nn2, &nn2, Z, &nn2, sv, U, &nn2, Vt, &nn2, work, &lw, &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgesvd: info %d", (int)info);
  PetscCall(PetscFree(work));
  s->ns = n; /* rank(L_v^T R_p) <= n */
  s->nu = 0;
  PetscCall(PetscFree(s->hsv));
  PetscCall(PetscMalloc1(n, &s->hsv));
  PetscCall(PetscArraycpy(s->hsv, sv, n));
  PetscCall(DRSysRedChooseOrder(s, &r));
  PetscCheck(r > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.tol = %g keeps no state, expected a tolerance below 2 sum sigma_i = %g", s->where, (double)s->tol, (double)s->bound);
  /* V = R_p V_r S^{-1/2} (n x r), W = M^{-1} L_v U_r S^{-1/2} (n x r) */
  PetscCall(PetscMalloc3(n * r, &V, n * r, &W, n2 * r, &T1));
  for (PetscInt j = 0; j < r; j++)
    for (PetscInt i = 0; i < n2; i++) T1[i + j * n2] = Vt[j + i * n2] / PetscSqrtReal(sv[j]);
  PetscCall(DRGemm('N', 'N', n, r, n2, 1.0, R, n2, T1, n2, 0.0, V, n));
  for (PetscInt j = 0; j < r; j++)
    for (PetscInt i = 0; i < n2; i++) T1[i + j * n2] = U[i + j * n2] / PetscSqrtReal(sv[j]);
  PetscCall(DRGemm('N', 'N', n, r, n2, 1.0, L + n, n2, T1, n2, 0.0, W, n));
  {
    fint rr = (fint)r;
    dpotrs_("L", &nn, &rr, Mc, &nn, W, &nn, &info, 1);
  }
  PetscCall(DRSecondOrderProject(so, r, V, W, &s->sored));
  PetscCall(FirstOrder(r, m, p, NULL, PETSC_FALSE, s->sored.M, s->sored.D, s->sored.K, s->sored.B, s->sored.C, &s->red));
  /* T = V, Ti = W^T M */
  PetscCall(PetscFree(s->T));
  PetscCall(PetscFree(s->Ti));
  PetscCall(PetscMalloc1(n * r, &s->T));
  PetscCall(PetscMalloc1(r * n, &s->Ti));
  PetscCall(PetscArraycpy(s->T, V, n * r));
  PetscCall(DRGemm('T', 'N', r, n, n, 1.0, W, n, so->M, n, 0.0, s->Ti, r));
  s->nmin = n;
  PetscCall(PetscFree3(V, W, T1));
  PetscCall(PetscFree6(R, L, Z, U, Vt, sv));
  PetscCall(PetscFree(Mc));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (M_r, D_r, K_r, B_r, C_r) = (W^T M V, W^T D V, W^T K V, W^T B, C V) */
PetscErrorCode DRSecondOrderProject(const DRSecondOrder *so, PetscInt r, const PetscReal *V, const PetscReal *W, DRSecondOrder *red)
{
  PetscInt         n = so->n, m = so->m, p = so->p;
  PetscReal       *X;
  const PetscReal *mats[3] = {so->M, so->D, so->K};

  PetscFunctionBegin;
  PetscCall(DRSecondOrderFree(red));
  PetscCall(DRSecondOrderAlloc(r, m, p, red));
  PetscReal *out[3] = {red->M, red->D, red->K};
  PetscCall(PetscMalloc1(n * r, &X));
  for (int k = 0; k < 3; k++) {
    PetscCall(DRGemm('N', 'N', n, r, n, 1.0, mats[k], n, V, n, 0.0, X, n));
    PetscCall(DRGemm('T', 'N', r, r, n, 1.0, W, n, X, n, 0.0, out[k], r));
  }
  PetscCall(DRGemm('T', 'N', r, m, n, 1.0, W, n, so->B, n, 0.0, red->B, r));
  PetscCall(DRGemm('N', 'N', p, r, n, 1.0, so->C, p, V, n, 0.0, red->C, p));
  PetscCall(PetscFree(X));
  PetscFunctionReturn(PETSC_SUCCESS);
}
