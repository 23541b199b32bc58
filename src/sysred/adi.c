/* dynred sysred: low-rank ADI for the Gramian factors of balanced
 * truncation, used where SLEPc's LME (Krylov) does not
 * converge: lightly damped spectra over several decades (the restarted
 * Krylov projection loses stability of the projected matrix and its dense
 * Cholesky solve fails, PETSc error 76).
 *
 * A X + X A^T = -F F^T with A stable (n x n, the stable part after the
 * marginal split), F n x m.  The real formulation of the LR-ADI iteration
 * (Li & White 2002; Benner, Kuerschner & Saak 2013, "Efficient handling of
 * complex shift parameters in the low-rank ADI method", Alg. 3), W_0 = F:
 *   V = (A + p I)^-1 W;
 *   real p:    W <- W - 2 p V,                  Z <- [Z, sqrt(-2p) V];
 *   complex p (it stands for the pair p, conj p): g = 2 sqrt(-Re p),
 *              d = Re p / Im p, V' = Re V + d Im V,
 *              W <- W + g^2 V',                 Z <- [Z, g V', g sqrt(d^2+1) Im V];
 * the residual is R = W W^T, the iteration stops when ||W^T W||_2 <=
 * tol ||F^T F||_2 (sysred.lowrank.tol).  Each shift is one MUMPS
 * factorization (PETSc KSP preonly / PC LU), kept for the cyclic reuse; a
 * complex shift is solved in real arithmetic as the 2n system
 * [[A + Re p I, -Im p I], [Im p I, A + Re p I]] [x_r; x_i] = [w; 0]
 * (interleaved unknowns).  Shifts: Penzl's heuristic (1999), the greedy
 * choice of l0 (sysred.lowrank.shifts) values from a candidate set that
 * minimizes max |r(z)| over it, r(z) = prod (z - conj p)/(z + p); the
 * candidates are the exact poles when A is block diagonal (the modal form
 * of `dynred ss`), else Ritz values of A on K_k(A, F) + K_k(A^-1, F)
 * (Penzl's choice).  Z is compressed (QR, SVD of R, columns with singular
 * values below 1e-8 sigma_1 dropped: P changes by 1e-16 ||P||) whenever it
 * doubles.  A, W, V and Z are replicated on every rank (as the SLEPc
 * path's factors), and so is the whole iteration: every rank factors and
 * solves on its own (PETSC_COMM_SELF), from the same data, so every rank
 * holds the same Z.  (Distributed MUMPS solves deadlocked on 3 ranks, the
 * ranks ending in different MUMPS collectives; with A replicated in dense
 * form anyway, they gained little.)  Only the stop decision is reduced
 * over the job's communicator. */
#include "sysredimpl.h"
#include <petscksp.h>

void dgeqrf_(const fint *m, const fint *n, double *a, const fint *lda, double *tau, double *work, const fint *lwork, fint *info);
void dorgqr_(const fint *m, const fint *n, const fint *k, double *a, const fint *lda, const double *tau, double *work, const fint *lwork, fint *info);
void dgeev_(const char *jvl, const char *jvr, const fint *n, double *a, const fint *lda, double *wr, double *wi, double *vl, const fint *ldvl, double *vr, const fint *ldvr, double *work, const fint *lwork, fint *info, size_t, size_t);

struct _DRADI {
  MPI_Comm   comm;  /* PETSC_COMM_SELF: the factorizations and solves */
  MPI_Comm   dcomm; /* the job's: the stop decision */
  PetscInt   n, lo, hi, nz; /* local rows lo..hi of A: nz entries (ri, cj, v) */
  PetscInt  *ri, *cj;
  PetscReal *v;
  PetscInt   nsh;
  PetscReal *pr, *pi; /* shifts, pi >= 0 */
  KSP       *ksp;     /* per shift, created on first use */
  Vec       *x, *b, *all;
  VecScatter *sc;
};

/* the ADI context on A (column-major dense n x n, replicated; trans: A^T) */
PetscErrorCode DRADICreate(MPI_Comm comm, PetscInt n, const PetscReal *A, PetscBool trans, DRADI *adi)
{
  DRADI       c;
  PetscLayout map;
  PetscInt    k = 0;

  PetscFunctionBegin;
  PetscCall(PetscNew(&c));
  c->comm  = PETSC_COMM_SELF;
  c->dcomm = comm;
  c->n    = n;
  PetscCall(PetscLayoutCreateFromSizes(c->comm, PETSC_DECIDE, n, 1, &map));
  PetscCall(PetscLayoutGetRange(map, &c->lo, &c->hi));
  PetscCall(PetscLayoutDestroy(&map));
  for (PetscInt i = c->lo; i < c->hi; i++)
    for (PetscInt j = 0; j < n; j++) if ((trans ? A[j + i * n] : A[i + j * n]) != 0) c->nz++;
  PetscCall(PetscMalloc3(c->nz + 1, &c->ri, c->nz + 1, &c->cj, c->nz + 1, &c->v));
  for (PetscInt i = c->lo; i < c->hi; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal a = trans ? A[j + i * n] : A[i + j * n];
      if (a != 0) { c->ri[k] = i; c->cj[k] = j; c->v[k++] = a; }
    }
  *adi = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeSolvers(DRADI c)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < c->nsh; k++) {
    PetscCall(KSPDestroy(&c->ksp[k]));
    PetscCall(VecDestroy(&c->x[k]));
    PetscCall(VecDestroy(&c->b[k]));
    PetscCall(VecDestroy(&c->all[k]));
    PetscCall(VecScatterDestroy(&c->sc[k]));
  }
  PetscCall(PetscFree7(c->pr, c->pi, c->ksp, c->x, c->b, c->all, c->sc));
  c->nsh = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRADIDestroy(DRADI *adi)
{
  PetscFunctionBegin;
  if (!*adi) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FreeSolvers(*adi));
  PetscCall(PetscFree3((*adi)->ri, (*adi)->cj, (*adi)->v));
  PetscCall(PetscFree(*adi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetShifts(DRADI c, PetscInt nsh, const PetscReal *pr, const PetscReal *pi)
{
  PetscFunctionBegin;
  PetscCall(FreeSolvers(c));
  PetscCall(PetscCalloc7(nsh, &c->pr, nsh, &c->pi, nsh, &c->ksp, nsh, &c->x, nsh, &c->b, nsh, &c->all, nsh, &c->sc));
  c->nsh = nsh;
  PetscCall(PetscArraycpy(c->pr, pr, nsh));
  PetscCall(PetscArraycpy(c->pi, pi, nsh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the MUMPS solver of A + (a + i b) I (b > 0: the real 2n form) */
static PetscErrorCode ShiftSolver(DRADI c, PetscInt k)
{
  PetscReal a = c->pr[k], b = c->pi[k];
  PetscInt  f = b != 0 ? 2 : 1, nl = c->hi - c->lo, *nnz;
  Mat       K;
  PC        pc;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(f * nl + 1, &nnz));
  for (PetscInt e = 0; e < c->nz; e++)
    for (PetscInt q = 0; q < f; q++) nnz[f * (c->ri[e] - c->lo) + q]++;
  for (PetscInt i = 0; i < f * nl; i++) nnz[i] += 2;
  PetscCall(MatCreate(c->comm, &K));
  PetscCall(MatSetSizes(K, f * nl, f * nl, f * c->n, f * c->n));
  PetscCall(MatSetType(K, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(K, 0, nnz));
  PetscCall(MatMPIAIJSetPreallocation(K, 0, nnz, 0, nnz));
  PetscCall(MatSetOption(K, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt e = 0; e < c->nz; e++)
    for (PetscInt q = 0; q < f; q++) PetscCall(MatSetValue(K, f * c->ri[e] + q, f * c->cj[e] + q, c->v[e], ADD_VALUES));
  for (PetscInt i = c->lo; i < c->hi; i++) {
    for (PetscInt q = 0; q < f; q++) PetscCall(MatSetValue(K, f * i + q, f * i + q, a, ADD_VALUES));
    if (f == 2) {
      PetscCall(MatSetValue(K, 2 * i, 2 * i + 1, -b, ADD_VALUES));
      PetscCall(MatSetValue(K, 2 * i + 1, 2 * i, b, ADD_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscCall(KSPCreate(c->comm, &c->ksp[k]));
  PetscCall(KSPSetOperators(c->ksp[k], K, K));
  PetscCall(KSPSetType(c->ksp[k], KSPPREONLY));
  PetscCall(KSPGetPC(c->ksp[k], &pc));
  PetscCall(PCSetType(pc, PCLU));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetOptionsPrefix(c->ksp[k], "sysred_adi_"));
  PetscCall(KSPSetFromOptions(c->ksp[k]));
  PetscCall(KSPSetUp(c->ksp[k]));
  PetscCall(MatCreateVecs(K, &c->x[k], &c->b[k]));
  PetscCall(VecScatterCreateToAll(c->x[k], &c->sc[k], &c->all[k]));
  PetscCall(MatDestroy(&K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (A + p_k I) (Vr + i Vi) = W (n x m replicated, column-major); Vi only
 * for a complex shift */
static PetscErrorCode ShiftSolve(DRADI c, PetscInt k, PetscInt m, const PetscReal *W, PetscReal *Vr, PetscReal *Vi)
{
  PetscInt           f = c->pi[k] != 0 ? 2 : 1, n = c->n;
  PetscScalar       *bb;
  const PetscScalar *xa;
  KSPConvergedReason reason;

  PetscFunctionBegin;
  if (!c->ksp[k]) PetscCall(ShiftSolver(c, k));
  for (PetscInt j = 0; j < m; j++) {
    PetscCall(VecGetArray(c->b[k], &bb));
    for (PetscInt i = c->lo; i < c->hi; i++) {
      bb[f * (i - c->lo)] = W[i + j * n];
      if (f == 2) bb[f * (i - c->lo) + 1] = 0;
    }
    PetscCall(VecRestoreArray(c->b[k], &bb));
    PetscCall(KSPSolve(c->ksp[k], c->b[k], c->x[k]));
    PetscCall(KSPGetConvergedReason(c->ksp[k], &reason));
    PetscCheck(reason >= 0, c->comm, PETSC_ERR_LIB, "ADI shift solve failed (MUMPS, shift %g%+gi): %s", (double)c->pr[k], (double)c->pi[k], KSPConvergedReasons[reason]);
    PetscCall(VecScatterBegin(c->sc[k], c->x[k], c->all[k], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(c->sc[k], c->x[k], c->all[k], INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(c->all[k], &xa));
    for (PetscInt i = 0; i < n; i++) {
      Vr[i + j * n] = PetscRealPart(xa[f * i]);
      if (f == 2) Vi[i + j * n] = PetscRealPart(xa[f * i + 1]);
    }
    PetscCall(VecRestoreArrayRead(c->all[k], &xa));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |r(z)| of one shift p (and its conjugate when Im p > 0) */
static PetscReal RFactor(PetscReal zr, PetscReal zi, PetscReal pr, PetscReal pi)
{
  PetscReal a = PetscSqrtReal(PetscSqr(zr - pr) + PetscSqr(zi + pi)) / PetscSqrtReal(PetscSqr(zr + pr) + PetscSqr(zi + pi));
  if (pi > 0) a *= PetscSqrtReal(PetscSqr(zr - pr) + PetscSqr(zi - pi)) / PetscSqrtReal(PetscSqr(zr + pr) + PetscSqr(zi - pi));
  return a;
}

/* Penzl's heuristic: l0 shifts from nc candidates (cr < 0, ci >= 0); *l
 * shifts chosen into pr, pi (distinct candidates: at most nc) */
PetscErrorCode DRADIPenzl(PetscInt nc, const PetscReal *cr, const PetscReal *ci, PetscInt l0, PetscInt *l, PetscReal *pr, PetscReal *pi)
{
  PetscReal *v, best = PETSC_MAX_REAL;
  PetscInt   ib = 0, nl = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(nc, &v));
  for (PetscInt a = 0; a < nc; a++) { /* the single best shift: min over p of max_z |r_p(z)| */
    PetscReal mx = 0;
    for (PetscInt z = 0; z < nc && mx < best; z++) mx = PetscMax(mx, RFactor(cr[z], ci[z], cr[a], ci[a]));
    if (mx < best) { best = mx; ib = a; }
  }
  for (PetscInt z = 0; z < nc; z++) v[z] = 1;
  while (nl < PetscMin(l0, nc)) { /* add the candidate where |r| is largest */
    PetscReal mx = -1;
    if (nl > 0) {
      for (PetscInt z = 0; z < nc; z++) if (v[z] > mx) { mx = v[z]; ib = z; }
      if (mx <= 0) break; /* every candidate is a shift already */
    }
    pr[nl] = cr[ib];
    pi[nl] = ci[ib];
    nl++;
    for (PetscInt z = 0; z < nc; z++) v[z] *= RFactor(cr[z], ci[z], cr[ib], ci[ib]);
  }
  *l = nl;
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ritz values of A on K_k(A, F) + K_k(A^-1, F) (orthonormal basis by
 * modified Gram-Schmidt, replicated), reflected into Re < 0, Im >= 0 */
static PetscErrorCode RitzCandidates(DRADI c, const PetscReal *A, PetscInt m, const PetscReal *F, PetscInt *nc, PetscReal **cr, PetscReal **ci)
{
  PetscInt   n = c->n, kk = PetscMin(n, 2 * PetscMax(1, 20 / m) * m), q = 0;
  PetscReal *Q, *AQ, *H, *wr, *wi, *work, zero = 0;
  fint       nq, lw, info;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(n * (kk + m), &Q, n * (kk + m), &AQ, (kk + m) * (kk + m), &H, 2 * (kk + m), &wr));
  wi = wr + kk + m;
  PetscCall(SetShifts(c, 1, &zero, &zero)); /* shift 0: one MUMPS factorization of A */
  for (int dir = 0; dir < 2; dir++) {
    PetscReal *blk = Q + q * n;
    PetscInt   q0  = q;
    PetscCall(PetscArraycpy(blk, F, n * m));
    for (PetscInt it = 0; q - q0 < kk / 2 && q < kk; it++) {
      PetscInt j0 = q;
      for (PetscInt j = j0; j < j0 + m && q < kk; j++) { /* orthonormalize column j against 0..q-1 */
        PetscReal *x = Q + j * n, nrm = 0, nrm0 = 0;
        for (PetscInt i = 0; i < n; i++) nrm0 += x[i] * x[i];
        for (int pass = 0; pass < 2; pass++)
          for (PetscInt l = 0; l < q; l++) {
            PetscReal d = 0;
            for (PetscInt i = 0; i < n; i++) d += Q[i + l * n] * x[i];
            for (PetscInt i = 0; i < n; i++) x[i] -= d * Q[i + l * n];
          }
        for (PetscInt i = 0; i < n; i++) nrm += x[i] * x[i];
        if (nrm <= 1e-24 * nrm0 || nrm == 0) continue; /* dependent: dropped */
        nrm = PetscSqrtReal(nrm);
        for (PetscInt i = 0; i < n; i++) Q[i + q * n] = x[i] / nrm;
        q++;
      }
      if (q == j0 || q >= kk || q - q0 >= kk / 2) break;
      /* next block: A or A^-1 times the last one */
      if (dir == 0) PetscCall(DRGemm('N', 'N', n, q - j0, n, 1.0, A, n, Q + j0 * n, n, 0.0, Q + q * n, n));
      else PetscCall(ShiftSolve(c, 0, q - j0, Q + j0 * n, Q + q * n, NULL));
      if (q - j0 < m) break;
    }
  }
  PetscCall(DRGemm('N', 'N', n, q, n, 1.0, A, n, Q, n, 0.0, AQ, n));
  PetscCall(DRGemm('T', 'N', q, q, n, 1.0, Q, n, AQ, n, 0.0, H, q));
  nq = (fint)q;
  lw = (fint)(4 * q + 16);
  PetscCall(PetscMalloc1(lw, &work));
  dgeev_("N", "N", &nq, H, &nq, wr, wi, NULL, &nq, NULL, &nq, work, &lw, &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgeev failed: info = %d", (int)info);
  PetscCall(PetscFree(work));
  PetscCall(PetscMalloc2(q + 1, cr, q + 1, ci));
  *nc = 0;
  for (PetscInt i = 0; i < q; i++) {
    if (wi[i] < 0 || wr[i] == 0) continue;
    (*cr)[*nc]   = -PetscAbsReal(wr[i]);
    (*ci)[(*nc)++] = wi[i];
  }
  PetscCall(PetscFree4(Q, AQ, H, wr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Z <- a basis of the same column space, columns with singular values
 * below 1e-8 sigma_1 dropped (Z Z^T kept to 1e-16 relative) */
static PetscErrorCode Compress(PetscInt n, PetscInt *k, PetscReal *Z)
{
  fint       nn = (fint)n, kk = (fint)*k, lw = -1, info, r = PetscMin(nn, kk);
  PetscReal *tau, *R, *U, *Vt, *s, wq, *work;
  PetscInt   keep = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(r + 1, &tau, kk * kk + 1, &R, r * r + 1, &U, r * kk + 1, &Vt, r + 1, &s));
  dgeqrf_(&nn, &kk, Z, &nn, tau, &wq, &lw, &info);
  lw = (fint)wq + kk * 8 + 64;
  PetscCall(PetscMalloc1(lw, &work));
  dgeqrf_(&nn, &kk, Z, &nn, tau, work, &lw, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgeqrf failed: info = %d", (int)info);
  PetscCall(PetscArrayzero(R, kk * kk));
  for (PetscInt j = 0; j < kk; j++)
    for (PetscInt i = 0; i <= PetscMin(j, r - 1); i++) R[i + j * r] = Z[i + j * n];
  dorgqr_(&nn, &r, &r, Z, &nn, tau, work, &lw, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dorgqr failed: info = %d", (int)info);
  PetscCall(PetscFree(work));
  {
    fint lw2 = -1;
    dgesvd_("S", "N", &r, &kk, R, &r, s, U, &r, Vt, &r, &wq, &lw2, &info, 1, 1);
    lw2 = (fint)wq + 1;
    PetscCall(PetscMalloc1(lw2, &work));
    dgesvd_("S", "N", &r, &kk, R, &r, s, U, &r, Vt, &r, work, &lw2, &info, 1, 1);
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgesvd failed: info = %d", (int)info);
    PetscCall(PetscFree(work));
  }
  for (PetscInt i = 0; i < r; i++) if (s[i] > 1e-8 * s[0]) keep++;
  for (PetscInt j = 0; j < keep; j++)
    for (PetscInt i = 0; i < r; i++) U[i + j * r] *= s[j];
  { /* Z(:, 1:keep) = Q U_keep S_keep; Q in Z(:, 1:r) */
    PetscReal *Qc;
    PetscCall(PetscMalloc1(n * r + 1, &Qc));
    PetscCall(PetscArraycpy(Qc, Z, n * r));
    PetscCall(DRGemm('N', 'N', n, keep, r, 1.0, Qc, n, U, r, 0.0, Z, n));
    PetscCall(PetscFree(Qc));
  }
  *k = keep;
  PetscCall(PetscFree5(tau, R, U, Vt, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal NormWtW(PetscInt n, PetscInt m, const PetscReal *W)
{ /* ||W^T W||_2: the largest singular value of the m x m Gram matrix */
  PetscReal G[64 * 64], s[64], wk[64 * 64 + 256];
  fint      mm = (fint)m, lw = 64 * 64 + 256, info;
  PetscReal f  = 0;

  if (m > 64) {
    for (PetscInt k = 0; k < n * m; k++) f += W[k] * W[k];
    return f; /* Frobenius bound for many inputs */
  }
  for (PetscInt a = 0; a < m; a++)
    for (PetscInt b = 0; b < m; b++) {
      PetscReal d = 0;
      for (PetscInt i = 0; i < n; i++) d += W[i + a * n] * W[i + b * n];
      G[a + b * m] = d;
    }
  dgesvd_("N", "N", &mm, &mm, G, &mm, s, NULL, &mm, NULL, &mm, wk, &lw, &info, 1, 1);
  return info ? PETSC_MAX_REAL : s[0];
}

/* the factor Z (n x *k, PetscMalloc'ed) of A X + X A^T = -F F^T;
 * candidates: the poles (cr, ci: Re < 0, Im >= 0) or NULL (Ritz values);
 * *its shift applications, *res the final relative residual, *nsh shifts */
PetscErrorCode DRADISolve(DRADI c, const PetscReal *A, PetscInt m, const PetscReal *F, PetscInt nc, const PetscReal *cr, const PetscReal *ci, PetscInt l0, PetscReal tol, PetscInt maxit, PetscInt *k, PetscReal **Z, PetscInt *its, PetscReal *res, PetscInt *nsh)
{
  PetscInt   n = c->n, kz = 0, cap, l;
  PetscReal *W, *Vr, *Vi, *pr, *pi, nf, *rr = NULL, *ri = NULL;

  PetscFunctionBegin;
  if (!cr) {
    PetscCall(RitzCandidates(c, A, m, F, &nc, &rr, &ri));
    cr = rr;
    ci = ri;
  }
  PetscCheck(nc > 0, c->comm, PETSC_ERR_PLIB, "ADI: no shift candidates");
  PetscCall(PetscMalloc2(l0, &pr, l0, &pi));
  PetscCall(DRADIPenzl(nc, cr, ci, l0, &l, pr, pi));
  PetscCall(SetShifts(c, l, pr, pi));
  PetscCall(PetscFree2(pr, pi));
  PetscCall(PetscFree2(rr, ri));
  cap = PetscMax(64, 8 * m);
  PetscCall(PetscMalloc3(n * m, &W, n * m, &Vr, n * m, &Vi));
  PetscCall(PetscMalloc1(n * cap, Z));
  PetscCall(PetscArraycpy(W, F, n * m));
  nf   = NormWtW(n, m, F);
  *res = 1;
  for (*its = 0; *its < maxit && *res > tol;) {
    PetscInt  s = *its % c->nsh;
    PetscReal p = c->pr[s], q = c->pi[s];
    PetscCall(ShiftSolve(c, s, m, W, Vr, Vi));
    if (kz + 2 * m > cap) { /* compress, then grow */
      PetscReal *Zn;
      PetscCall(Compress(n, &kz, *Z));
      cap = PetscMax(cap, 2 * kz + 4 * m);
      PetscCall(PetscMalloc1(n * cap, &Zn));
      PetscCall(PetscArraycpy(Zn, *Z, n * kz));
      PetscCall(PetscFree(*Z));
      *Z = Zn;
    }
    if (q == 0) {
      for (PetscInt i = 0; i < n * m; i++) {
        W[i] -= 2 * p * Vr[i];
        (*Z)[kz * n + i] = PetscSqrtReal(-2 * p) * Vr[i];
      }
      kz += m;
    } else {
      PetscReal g = 2 * PetscSqrtReal(-p), d = p / q, e = g * PetscSqrtReal(d * d + 1);
      for (PetscInt i = 0; i < n * m; i++) {
        PetscReal v = Vr[i] + d * Vi[i];
        W[i] += g * g * v;
        (*Z)[kz * n + i]       = g * v;
        (*Z)[(kz + m) * n + i] = e * Vi[i];
      }
      kz += 2 * m;
    }
    (*its)++;
    *res = NormWtW(n, m, W) / nf;
    /* the same decision on every rank (the replicated W may differ in the last bits) */
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, res, 1, MPIU_REAL, MPIU_MAX, c->dcomm));
  }
  PetscCall(Compress(n, &kz, *Z));
  *k   = kz;
  *nsh = c->nsh;
  PetscCall(PetscFree3(W, Vr, Vi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
