/* dynred sysred: the dense reductions on SLICOT and LAPACK.
 *
 * minreal: the steps of TB01PD (JOB 'M', no scaling) with the transformation
 *   kept: controllability staircase TB01UD (JOBZ 'I') of (A, B, C), then of
 *   the dual of the controllable part (the observability staircase), so the
 *   minimal system is the orthogonal projection T^T A T, T^T B, C T with
 *   T = Z1c Z2o (n x r, orthonormal columns; Ti = T^T).  The transfer
 *   function is unchanged.  Rank decisions with
 *   sysred.minreal_tol (default 1e-10 as reciprocal condition number):
 *   SLICOT's default n^2 eps kept 2 of 5 planted uncontrollable/unobservable
 *   states of a rotated 11-state system (close poles; test sysred_bt).
 * bt, spa: the split of METHODS.md 6, then the square-root
 *   balanced truncation of the stable part:
 *   1. A = U S U^T, real Schur form ordered by dgees so that the damped
 *      poles (DRSysRedPoleKept false, below) come first (S11: ns stable states, S22: nu zero,
 *      undamped or unstable ones);
 *   2. S11 X - X S22 = -S12 (dtrsyl) decouples the blocks:
 *      W = U [I X; 0 I], W^-1 A W = blkdiag(S11, S22);
 *   3. AB09AX (bt) or AB09BX (spa) on (S11, B1, C1), which must be in real
 *      Schur form: Cholesky factors of the Gramians (SB03OU, Hammarling),
 *      SVD of their product: Hankel singular values, T_s, Ti_s;
 *   4. reduced = blkdiag(balanced stable part, S22): the zero, undamped and
 *      unstable poles are kept exactly; bound 2 sum_{i>r_s} sigma_i.
 * The split is per pole and relative: a pole s is kept exactly
 * when |s| <= z0 or Re(s) >= -(tol |s| + a0), i.e. when its damping ratio
 * -Re(s)/|s| is below tol = sysred.marginal_tol (default 1e-8: structural
 * damping ratios are >= 1e-4, round-off in a modal block moves the damping
 * ratio of an undamped pole by about eps ||A_k|| / |s| <= 1e-10 for blocks
 * up to |s| ~ 1e6).  a0 = 10 eps ||A||_F is the backward error of the Schur
 * form (an undamped pole's real part moves by that much); z0 = 10 sqrt(eps
 * ||A||_F) covers the double zero poles of rigid-body blocks [[0,1],[0,0]],
 * which round-off moves by about sqrt(eps ||A||).  A threshold relative to
 * ||A|| alone would be about 10 rad/s for a spectrum over 6
 * decades and would keep well-damped low modes "exactly". */
#include "sysredimpl.h"

PetscErrorCode DRGemm(char ta, char tb, PetscInt m, PetscInt n, PetscInt k, PetscReal alpha, const PetscReal *a, PetscInt lda, const PetscReal *b, PetscInt ldb, PetscReal beta, PetscReal *c, PetscInt ldc)
{
  fint mm = (fint)m, nn = (fint)n, kk = (fint)k, la = (fint)PetscMax(lda, 1), lb = (fint)PetscMax(ldb, 1), lc = (fint)PetscMax(ldc, 1);

  PetscFunctionBegin;
  if (m > 0 && n > 0) {
    if (k == 0) {
      for (PetscInt j = 0; j < n; j++)
        for (PetscInt i = 0; i < m; i++) c[i + j * ldc] *= beta;
    } else dgemm_(&ta, &tb, &mm, &nn, &kk, &alpha, a, &la, b, &lb, &beta, c, &lc, 1, 1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* controllability staircase of (A, B, C) (SLICOT TB01UD, JOBZ 'I'): Z^T A Z
 * = [Ac *; 0 Anc], Z^T B = [Bc; 0]; nc, Z (n x n orthogonal); A, B, C are
 * overwritten (lda n, ldb n, ldc max(p, 1)) */
static PetscErrorCode Staircase(fint n, fint m, fint p, PetscReal *A, PetscReal *B, PetscReal *C, PetscReal tol, fint *nc, PetscReal *Z)
{
  fint       ld = PetscMax(n, 1), ldc = PetscMax(p, 1), indcon, *nblk, *iw, ldw = PetscMax(1, PetscMax(n, PetscMax(3 * m, p))) * 4 + 64, info;
  PetscReal *tau, *dw;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n + 1, &nblk, m + 1, &iw, n + 1, &tau, ldw, &dw));
  tb01ud_("I", &n, &m, &p, A, &ld, B, &ld, C, &ldc, nc, &indcon, nblk, Z, &ld, tau, &tol, iw, dw, &ldw, &info, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "SLICOT TB01UD failed: info = %d", (int)info);
  PetscCall(PetscFree4(nblk, iw, tau, dw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedMinreal(DRSysRed s)
{
  const DRLTI *f = &s->full;
  fint         n = (fint)f->n, m = (fint)f->m, p = (fint)f->p, nc = 0, nr = 0;
  PetscReal   *A, *B, *C, *Z1, *Z2, *X, tol = s->minreal_tol;
  PetscInt     r;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Minreal, 0, 0, 0, 0));
  PetscCall(PetscCalloc6(n * n + 1, &A, n * PetscMax(m, p) + 1, &B, PetscMax(m, p) * n + 1, &C, n * n + 1, &Z1, n * n + 1, &Z2, n * n + 1, &X));
  /* 1. controllable part: Z1 */
  PetscCall(PetscArraycpy(A, f->A, n * n));
  PetscCall(PetscArraycpy(B, f->B, n * m));
  PetscCall(PetscArraycpy(C, f->C, p * n));
  PetscCall(Staircase(n, m, p, A, B, C, tol, &nc, Z1));
  /* 2. observable part of (Ac, Bc, Cc): controllable part of the dual
   *    (Ac^T, Cc^T, Bc^T) with Ac = Z1c^T A Z1c: Z2 (nc x nc) */
  PetscCall(DRGemm('N', 'N', n, nc, n, 1.0, f->A, n, Z1, n, 0.0, X, n));
  PetscCall(DRGemm('T', 'N', nc, nc, n, 1.0, X, n, Z1, n, 0.0, A, PetscMax(nc, 1))); /* X^T Z1c = Ac^T */
  PetscCall(DRGemm('T', 'T', nc, p, n, 1.0, Z1, n, f->C, p, 0.0, B, PetscMax(nc, 1)));  /* Cc^T = Z1c^T C^T */
  PetscCall(DRGemm('T', 'N', m, nc, n, 1.0, f->B, n, Z1, n, 0.0, C, PetscMax(m, 1))); /* Bc^T = B^T Z1c */
  if (nc > 0) PetscCall(Staircase(nc, p, m, A, B, C, tol, &nr, Z2));
  /* 3. T = Z1c Z2o (orthonormal columns), Ti = T^T; the minimal system is
   *    the projection (T^T A T, T^T B, C T, D) */
  r = nr;
  PetscCall(PetscFree(s->T));
  PetscCall(PetscFree(s->Ti));
  PetscCall(PetscCalloc1(n * r + 1, &s->T));
  PetscCall(PetscCalloc1(r * n + 1, &s->Ti));
  PetscCall(DRGemm('N', 'N', n, r, nc, 1.0, Z1, n, Z2, PetscMax(nc, 1), 0.0, s->T, n));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < r; j++) s->Ti[j + i * r] = s->T[i + j * n];
  PetscCall(DRLTIFree(&s->red));
  PetscCall(DRLTIAlloc(r, f->m, f->p, &s->red));
  PetscCall(DRGemm('N', 'N', n, r, n, 1.0, f->A, n, s->T, n, 0.0, X, n));
  PetscCall(DRGemm('T', 'N', r, r, n, 1.0, s->T, n, X, n, 0.0, s->red.A, r));
  PetscCall(DRGemm('T', 'N', r, m, n, 1.0, s->T, n, f->B, n, 0.0, s->red.B, r));
  PetscCall(DRGemm('N', 'N', p, r, n, 1.0, f->C, p, s->T, n, 0.0, s->red.C, p));
  PetscCall(PetscArraycpy(s->red.D, f->D, p * m));
  s->nu    = 0;
  s->ns    = 0;
  s->nmin  = nr;
  s->bound = 0;
  PetscCall(PetscFree6(A, B, C, Z1, Z2, X));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Minreal, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the split rule (header): pole s = wr + i wi is kept exactly (zero,
 * undamped or unstable) when |s| <= z0 or wr >= -(tol |s| + a0) */
PetscBool DRSysRedPoleKept(PetscReal wr, PetscReal wi, PetscReal tol, PetscReal a0, PetscReal z0)
{
  PetscReal r = PetscSqrtReal(wr * wr + wi * wi);
  return (PetscBool)(r <= z0 || wr >= -(tol * r + a0));
}

/* the absolute floors a0 and z0 of the split rule from ||A||_F */
void DRSysRedSplitFloors(PetscReal nrmF, PetscReal *a0, PetscReal *z0)
{
  *a0 = 10 * PETSC_MACHINE_EPSILON * nrmF;
  *z0 = 10 * PetscSqrtReal(PETSC_MACHINE_EPSILON * nrmF);
}

static PetscReal select_tol, select_a0, select_z0; /* dgees' SELECT has no context argument */
static fint      SelectStable(const double *wr, const double *wi)
{
  return !DRSysRedPoleKept(*wr, *wi, select_tol, select_a0, select_z0);
}

/* Step 1 and 2: W^-1 A W = blkdiag(S11, S22); sp holds S (column-major n x n),
 * Bt = W^-1 B, Ct = C W, W and Wi = W^-1 (n x n). */
static PetscErrorCode Split(DRSysRed s, PetscReal *S, PetscReal *Bt, PetscReal *Ct, PetscReal *W, PetscReal *Wi)
{
  const DRLTI *f = &s->full;
  PetscInt     n = f->n, m = f->m, p = f->p, ns, nu;
  fint         nn = (fint)n, sdim = 0, lw = (fint)(8 * n + 64), info = 0, *bw, isgn = -1;
  PetscReal   *wr, *wi, *work, *U, *X, nrm = 0, scale = 1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Split, 0, 0, 0, 0));
  for (PetscInt k = 0; k < n * n; k++) nrm += f->A[k] * f->A[k];
  nrm = PetscSqrtReal(nrm);
  DRSysRedSplitFloors(nrm, &s->a0, &s->z0);
  s->alpha   = s->marginal_tol;
  select_tol = s->marginal_tol;
  select_a0  = s->a0;
  select_z0  = s->z0;
  PetscCall(PetscMalloc6(n, &wr, n, &wi, lw, &work, n, &bw, n * n, &U, n * n + 1, &X));
  PetscCall(PetscArraycpy(S, f->A, n * n));
  dgees_("V", "S", SelectStable, &nn, S, &nn, &sdim, wr, wi, U, &nn, work, &lw, bw, &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_WORLD, info > nn ? DR_ERR_INPUT : PETSC_ERR_LIB, "%s: the stable/marginal split of A failed (LAPACK dgees info %d: %s), expected poles separated from the damping ratio %g; change sysred.marginal_tol", s->where, (int)info, info == nn + 1 ? "eigenvalues too close to reorder" : info == nn + 2 ? "round-off moved eigenvalues across the threshold" : "QR algorithm did not converge", (double)s->alpha);
  ns = sdim;
  nu = n - ns;
  s->ns = ns;
  s->nu = nu;
  if (nu > 0) {
    PetscInt  iu = 0;
    PetscReal wmax = 0;
    for (PetscInt k = 0; k < n; k++) if (DRSysRedPoleKept(wr[k], wi[k], s->alpha, s->a0, s->z0) && wr[k] > wmax) { wmax = wr[k]; iu = k; }
    PetscCheck(s->split, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: A is not stable: %" PetscInt_FMT " of %" PetscInt_FMT " poles are zero, undamped or unstable (damping ratio below %g, e.g. %g%+gi), expected a stable system for sysred.split false; set sysred.split true to keep them exactly", s->where, nu, n, (double)s->alpha, (double)wr[iu], (double)wi[iu]);
  }
  PetscCheck(ns > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: the stable part is empty: all %" PetscInt_FMT " poles have a damping ratio below %g (rigid-body, undamped or unstable), expected damped modes to balance; add damping (e.g. ss.damping) or use sysred.method minreal", s->where, n, (double)s->alpha);
  /* X: S11 X - X S22 = -S12 */
  for (PetscInt j = 0; j < nu; j++)
    for (PetscInt i = 0; i < ns; i++) X[i + j * ns] = -S[i + (ns + j) * n];
  if (nu > 0) {
    fint a = (fint)ns, b = (fint)nu;
    dtrsyl_("N", "N", &isgn, &a, &b, S, &nn, S + ns + ns * n, &nn, X, &a, &scale, &info, 1, 1);
    PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dtrsyl failed: info = %d", (int)info);
    for (PetscInt k = 0; k < ns * nu; k++) X[k] /= scale;
    for (PetscInt j = 0; j < nu; j++)
      for (PetscInt i = 0; i < ns; i++) S[i + (ns + j) * n] = 0;
  }
  /* W = [U1, U1 X + U2], Wi = [U1^T - X U2^T; U2^T] */
  PetscCall(PetscArraycpy(W, U, n * n));
  PetscCall(DRGemm('N', 'N', n, nu, ns, 1.0, U, n, X, ns, 1.0, W + ns * n, n));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < n; i++) Wi[i + j * n] = U[j + i * n];
  PetscCall(DRGemm('N', 'T', ns, n, nu, -1.0, X, ns, U + ns * n, n, 1.0, Wi, n));
  PetscCall(DRGemm('N', 'N', n, m, n, 1.0, Wi, n, f->B, n, 0.0, Bt, n));
  PetscCall(DRGemm('N', 'N', p, n, n, 1.0, f->C, p, W, n, 0.0, Ct, p));
  PetscCall(PetscFree6(wr, wi, work, bw, U, X));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Split, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* AB09AX / AB09BX on the stable block (leading ns x ns of S, ld n); on
 * return a, b, c (and d for spa) hold the reduced stable part (ld ns). */
static PetscErrorCode Balance(PetscBool spa, PetscInt ns, PetscInt m, PetscInt p, fint *nr, PetscReal *a, PetscReal *b, PetscReal *c, PetscReal *d, PetscReal *hsv, PetscReal *T, PetscReal *Ti, fint *iwarn)
{
  fint       n = (fint)ns, mm = (fint)m, pp = (fint)p, ld = PetscMax(n, 1), ldc = PetscMax((fint)p, 1), info = 0, mx = PetscMax(n, PetscMax(mm, pp));
  fint       ldw = 2 * (n * (2 * n + mx + 5) + n * (n + 1) / 2) + 64, *iw;
  PetscReal *dw, tol = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(ldw, &dw, 2 * n + 1, &iw));
  if (spa) ab09bx_("C", "B", "F", &n, &mm, &pp, nr, a, &ld, b, &ld, c, &ldc, d, &ldc, hsv, T, &ld, Ti, &ld, &tol, &tol, iw, dw, &ldw, iwarn, &info, 1, 1, 1);
  else ab09ax_("C", "B", "F", &n, &mm, &pp, nr, a, &ld, b, &ld, c, &ldc, hsv, T, &ld, Ti, &ld, &tol, iw, dw, &ldw, iwarn, &info, 1, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "SLICOT %s failed: info = %d", spa ? "AB09BX" : "AB09AX", (int)info);
  PetscCall(PetscFree2(dw, iw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the stable order r_s from sysred.order or sysred.tol */
PetscErrorCode DRSysRedChooseOrder(DRSysRed s, PetscInt *rs)
{
  PetscInt ns = s->ns, nu = s->nu, nmin = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < ns; i++) if (s->hsv[i] > ns * PETSC_MACHINE_EPSILON * s->hsv[0]) nmin++;
  s->nmin = nmin;
  if (s->order > 0) {
    char w[PETSC_MAX_PATH_LEN + 32] = "sysred.order";
    if (s->cfg) PetscCall(DRConfigWhere(s->cfg, "sysred.order", w, sizeof(w)));
    PetscCheck(s->order >= nu, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.order = %" PetscInt_FMT " is below the %" PetscInt_FMT " zero, undamped or unstable poles kept exactly, expected %" PetscInt_FMT "..%" PetscInt_FMT, w, s->order, nu, nu, nu + nmin);
    PetscCheck(s->order <= nu + nmin, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.order = %" PetscInt_FMT " is larger than the minimal order %" PetscInt_FMT " of the system (%" PetscInt_FMT " kept exactly + %" PetscInt_FMT " Hankel singular values above round-off), expected %" PetscInt_FMT "..%" PetscInt_FMT, w, s->order, nu + nmin, nu, nmin, nu, nu + nmin);
    *rs = s->order - nu;
  } else {
    PetscReal tail = 0;
    *rs = nmin;
    for (PetscInt k = nmin; k >= 0; k--) { /* tail = 2 sum_{i >= k} hsv_i */
      tail = 0;
      for (PetscInt i = k; i < ns; i++) tail += 2 * s->hsv[i];
      if (tail <= s->tol) *rs = k;
      else break;
    }
  }
  s->bound = 0;
  for (PetscInt i = *rs; i < ns; i++) s->bound += 2 * s->hsv[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedBalanced(DRSysRed s, PetscBool spa)
{
  const DRLTI *f = &s->full;
  PetscInt     n = f->n, m = f->m, p = f->p, ns, nu, rs, r;
  PetscReal   *S, *Bt, *Ct, *W, *Wi, *a, *b, *c, *d, *T, *Ti;
  fint         nr, iwarn = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n * n, &S, n * m, &Bt, p * n, &Ct, n * n, &W, n * n, &Wi));
  PetscCall(Split(s, S, Bt, Ct, W, Wi));
  ns = s->ns;
  nu = s->nu;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscCall(PetscFree(s->hsv));
  PetscCall(PetscMalloc1(ns, &s->hsv));
  PetscCall(PetscMalloc6(ns * ns, &a, ns * m, &b, p * ns, &c, p * m + 1, &d, ns * ns, &T, ns * ns, &Ti));
  for (int pass = 0; pass < 2; pass++) { /* pass 0: the Hankel singular values; pass 1: the order chosen */
    for (PetscInt j = 0; j < ns; j++) PetscCall(PetscArraycpy(a + j * ns, S + j * n, ns));
    for (PetscInt j = 0; j < m; j++) PetscCall(PetscArraycpy(b + j * ns, Bt + j * n, ns));
    PetscCall(PetscArraycpy(c, Ct, p * ns));
    PetscCall(PetscArraycpy(d, f->D, p * m));
    if (pass == 1) PetscCall(DRSysRedChooseOrder(s, &rs));
    nr = pass ? (fint)rs : (fint)ns;
    PetscCall(Balance(spa, ns, m, p, &nr, a, b, c, d, s->hsv, T, Ti, &iwarn));
  }
  PetscCheck(nr == rs, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SLICOT returned order %d, asked %" PetscInt_FMT, (int)nr, rs);
  r = rs + nu;
  PetscCall(DRLTIFree(&s->red));
  PetscCall(DRLTIAlloc(r, m, p, &s->red));
  for (PetscInt j = 0; j < rs; j++) {
    for (PetscInt i = 0; i < rs; i++) s->red.A[i + j * r] = a[i + j * ns];
    for (PetscInt i = 0; i < p; i++) s->red.C[i + j * p] = c[i + j * p];
  }
  for (PetscInt j = 0; j < nu; j++) {
    for (PetscInt i = 0; i < nu; i++) s->red.A[rs + i + (rs + j) * r] = S[ns + i + (ns + j) * n];
    for (PetscInt i = 0; i < p; i++) s->red.C[i + (rs + j) * p] = Ct[i + (ns + j) * p];
  }
  for (PetscInt j = 0; j < m; j++) {
    for (PetscInt i = 0; i < rs; i++) s->red.B[i + j * r] = b[i + j * ns];
    for (PetscInt i = 0; i < nu; i++) s->red.B[rs + i + j * r] = Bt[ns + i + j * n];
  }
  PetscCall(PetscArraycpy(s->red.D, d, p * m));
  PetscCall(PetscFree(s->T));
  PetscCall(PetscFree(s->Ti));
  { /* x ~ T x_r, x_r = Ti x: T = [W1 T_s, W2], Ti = [Ti_s Wi1; Wi2].  spa:
     * x_r = Ti x are the kept balanced coordinates as in bt (AB09BX's
     * leading T, TI columns/rows), but A_r != Ti A T: the residualized
     * coordinates enter through A_22^{-1} (at steady state x_r = Ti x) */
    PetscCall(PetscCalloc1(n * r + 1, &s->T));
    PetscCall(PetscCalloc1(r * n + 1, &s->Ti));
    PetscCall(DRGemm('N', 'N', n, rs, ns, 1.0, W, n, T, ns, 0.0, s->T, n));
    PetscCall(PetscArraycpy(s->T + rs * n, W + ns * n, n * nu));
    PetscCall(DRGemm('N', 'N', rs, n, ns, 1.0, Ti, ns, Wi, n, 0.0, s->Ti, r));
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt i = 0; i < nu; i++) s->Ti[rs + i + j * r] = Wi[ns + i + j * n];
  }
  PetscCall(PetscFree6(a, b, c, d, T, Ti));
  PetscCall(PetscFree5(S, Bt, Ct, W, Wi));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
