/* dynred sysred: balanced truncation with low-rank Gramian factors
 * (issue 14 item 3).  P = Zp Zp^T and Q = Zq Zq^T from SLEPc's LME solver
 * (Lyapunov, Krylov): A P + P A^T = -B B^T, A^T Q + Q A = -C^T C, with A a
 * distributed AIJ matrix (the nonzeros of the source's A) and the
 * right-hand sides as MATLRC.  Then the square-root method on the factors
 * (METHODS.md 6): Zq^T Zp = U S V^T (LAPACK dgesvd; S: the Hankel singular
 * values the factors resolve), T = Zp V_r S_r^-1/2, Ti = S_r^-1/2 U_r^T Zq^T,
 * A_r = Ti A T, B_r = Ti B, C_r = C T, D_r = D.  Cost: Krylov on A (no
 * O(n^3) step); the factors are replicated on every rank after the solve.
 * A must be stable: the low-rank path has no spectral split (the dense path
 * keeps rigid-body and undamped poles exactly).  The error bound is computed
 * from the resolved Hankel singular values.
 * Krylov (Galerkin) projection of a Lyapunov equation is only safe when A is
 * dissipative (A + A^T < 0): the projected equation is then stable.  The
 * modal form of `dynred ss`, blocks A_k = [[0, 1], [-w^2, -c]], is not (the
 * Cholesky step of SLEPc's projected solve fails), so such an A is first
 * transformed per block: P_k = L_k L_k^T solves A_k^T P_k + P_k A_k = -I (closed
 * form), z = L_k^T x gives L_k^T A_k L_k^-T, whose symmetric part is
 * -P_k^-1 < 0.  Hankel singular values are invariant; T = S T_z,
 * Ti = Ti_z S^-1 with S = blkdiag(L_k^-T).  Other A are used as given; a
 * failed solve is reported. */
#include "sysredimpl.h"
#include <slepclme.h>

void dgesvd_(const char *ju, const char *jv, const fint *m, const fint *n, double *a, const fint *lda, double *s, double *u, const fint *ldu, double *vt, const fint *ldvt, double *work, const fint *lwork, fint *info, size_t, size_t);

/* the distributed AIJ matrix of a replicated column-major dense n x n array
 * (op 'T': its transpose) */
static PetscErrorCode SparseA(MPI_Comm comm, PetscInt n, const PetscReal *A, PetscBool trans, Mat *M)
{
  PetscInt    lo, hi, *nnz;
  PetscLayout map;

  PetscFunctionBegin;
  PetscCall(PetscLayoutCreateFromSizes(comm, PETSC_DECIDE, n, 1, &map));
  PetscCall(PetscLayoutGetRange(map, &lo, &hi));
  PetscCall(PetscLayoutDestroy(&map));
  PetscCall(MatCreate(comm, M));
  PetscCall(MatSetSizes(*M, hi - lo, hi - lo, n, n));
  PetscCall(MatSetType(*M, MATAIJ));
  PetscCall(PetscCalloc1(hi - lo + 1, &nnz));
  for (PetscInt i = lo; i < hi; i++)
    for (PetscInt j = 0; j < n; j++) if ((trans ? A[j + i * n] : A[i + j * n]) != 0) nnz[i - lo]++;
  PetscCall(MatSeqAIJSetPreallocation(*M, 0, nnz));
  PetscCall(MatMPIAIJSetPreallocation(*M, 0, nnz, 0, nnz));
  for (PetscInt i = lo; i < hi; i++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal v = trans ? A[j + i * n] : A[i + j * n];
      if (v != 0) PetscCall(MatSetValue(*M, i, j, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Z (n x *k, replicated column-major, PetscMalloc'ed) with M X + X M^T = -F F^T,
 * F: n x kf column-major replicated */
static PetscErrorCode Gramian(DRSysRed s, Mat M, PetscInt kf, const PetscReal *F, const char *which, PetscInt *k, PetscReal **Z)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)M);
  PetscInt           n, lo, hi, r, its;
  Mat                F1, C, X, U;
  LME                lme;
  LMEConvergedReason reason;
  PetscScalar       *f;
  PetscReal          err;
  PetscErrorCode     ierr;

  PetscFunctionBegin;
  PetscCall(MatGetSize(M, &n, NULL));
  PetscCall(MatGetOwnershipRange(M, &lo, &hi));
  PetscCall(MatCreateDense(comm, hi - lo, PETSC_DECIDE, n, kf, NULL, &F1));
  PetscCall(MatDenseGetArray(F1, &f));
  for (PetscInt j = 0; j < kf; j++)
    for (PetscInt i = lo; i < hi; i++) f[(i - lo) + j * (hi - lo)] = F[i + j * n];
  PetscCall(MatDenseRestoreArray(F1, &f));
  PetscCall(MatAssemblyBegin(F1, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(F1, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateLRC(NULL, F1, NULL, NULL, &C));
  PetscCall(LMECreate(comm, &lme));
  PetscCall(LMESetProblemType(lme, LME_LYAPUNOV));
  PetscCall(LMESetCoefficients(lme, M, NULL, NULL, NULL));
  PetscCall(LMESetRHS(lme, C));
  PetscCall(LMESetTolerances(lme, s->lr_tol, s->lr_maxit));
  if (s->lr_ncv > 0) PetscCall(LMESetDimensions(lme, s->lr_ncv));
  PetscCall(LMESetOptionsPrefix(lme, "sysred_"));
  PetscCall(LMESetFromOptions(lme));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = LMESolve(lme);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, comm, DR_ERR_INPUT, "%s: the low-rank %s Gramian failed in SLEPc LME (error %d in the projected Lyapunov solve: the Krylov basis of A does not resolve the Gramian, as for lightly damped modes over a wide band), expected a dissipative A with fast Hankel singular value decay; use sysred.gramians dense", s->where, which, (int)ierr);
  PetscCall(LMEGetConvergedReason(lme, &reason));
  PetscCall(LMEGetIterationNumber(lme, &its));
  PetscCall(LMEGetErrorEstimate(lme, &err));
  PetscCheck(reason > 0, comm, DR_ERR_INPUT, "%s: the low-rank %s Gramian did not converge (SLEPc LME Krylov: %s after %" PetscInt_FMT " restarts, residual estimate %g), expected a stable A; raise sysred.lowrank.ncv or maxit, or use sysred.gramians dense", s->where, which, LMEConvergedReasons[reason], its, (double)err);
  PetscCall(LMEGetSolution(lme, &X));
  PetscCall(MatLRCGetMats(X, NULL, &U, NULL, NULL));
  PetscCall(MatGetSize(U, NULL, &r));
  PetscCall(PetscMalloc1(n * r + 1, Z));
  for (PetscInt j = 0; j < r; j++) { /* each column to every rank */
    Vec                v, all;
    VecScatter         sc;
    const PetscScalar *a;
    PetscCall(MatDenseGetColumnVecRead(U, j, &v));
    PetscCall(VecScatterCreateToAll(v, &sc, &all));
    PetscCall(VecScatterBegin(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, v, all, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(all, &a));
    PetscCall(PetscArraycpy(*Z + j * n, a, n));
    PetscCall(VecRestoreArrayRead(all, &a));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&all));
    PetscCall(MatDenseRestoreColumnVecRead(U, j, &v));
  }
  *k = r;
  PetscCall(PetscInfo(NULL, "low-rank %s Gramian: rank %" PetscInt_FMT ", %" PetscInt_FMT " restarts, residual %g\n", which, r, its, (double)err));
  PetscCall(LMEDestroy(&lme));
  PetscCall(MatDestroy(&C));
  PetscCall(MatDestroy(&F1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* S = blkdiag(L_k^-T) and S^-1 = blkdiag(L_k^T) (2x2 blocks, column-major)
 * when A is in stable modal form (every state in a block [[0, 1], [-w^2, -c]],
 * w > 0, c > 0, nothing outside the blocks); *modal false otherwise */
static PetscErrorCode ModalTransform(const DRLTI *f, PetscReal *S, PetscReal *Si, PetscBool *modal)
{
  PetscInt n = f->n;

  PetscFunctionBegin;
  *modal = (PetscBool)(n % 2 == 0);
  for (PetscInt j = 0; j < n && *modal; j++)
    for (PetscInt i = 0; i < n && *modal; i++) {
      PetscReal a = f->A[i + j * n];
      if (i / 2 != j / 2) *modal = (PetscBool)(a == 0);
      else if (i % 2 == 0 && j % 2 == 0) *modal = (PetscBool)(a == 0);
      else if (i % 2 == 0) *modal = (PetscBool)(a == 1);
      else if (j % 2 == 0) *modal = (PetscBool)(a < 0);
      else *modal = (PetscBool)(a < 0);
    }
  if (!*modal) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < n / 2; k++) {
    PetscReal w2 = -f->A[2 * k + 1 + 2 * k * n], c = -f->A[2 * k + 1 + (2 * k + 1) * n];
    PetscReal p12 = 1 / (2 * w2), p22 = (p12 + 0.5) / c, p11 = w2 * p22 + c * p12;
    PetscReal l11 = PetscSqrtReal(p11), l21 = p12 / l11, l22 = PetscSqrtReal(p22 - l21 * l21);
    PetscReal *s = S + 4 * k, *si = Si + 4 * k;
    /* Si = L^T = [[l11, l21], [0, l22]]; S = L^-T = [[1/l11, -l21/(l11 l22)], [0, 1/l22]] */
    si[0] = l11; si[1] = 0; si[2] = l21; si[3] = l22;
    s[0] = 1 / l11; s[1] = 0; s[2] = -l21 / (l11 * l22); s[3] = 1 / l22;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* X (n x k, ld) = blkdiag(G) X */
static void BlkLeft(PetscInt n, PetscInt k, const PetscReal *G, PetscReal *X, PetscInt ld)
{
  for (PetscInt j = 0; j < k; j++)
    for (PetscInt b = 0; b < n / 2; b++) {
      const PetscReal *g = G + 4 * b;
      PetscReal        x0 = X[2 * b + j * ld], x1 = X[2 * b + 1 + j * ld];
      X[2 * b + j * ld]     = g[0] * x0 + g[2] * x1;
      X[2 * b + 1 + j * ld] = g[1] * x0 + g[3] * x1;
    }
}

/* X (k x n, ld) = X blkdiag(G) */
static void BlkRight(PetscInt k, PetscInt n, const PetscReal *G, PetscReal *X, PetscInt ld)
{
  for (PetscInt b = 0; b < n / 2; b++) {
    const PetscReal *g = G + 4 * b;
    for (PetscInt i = 0; i < k; i++) {
      PetscReal x0 = X[i + 2 * b * ld], x1 = X[i + (2 * b + 1) * ld];
      X[i + 2 * b * ld]       = x0 * g[0] + x1 * g[1];
      X[i + (2 * b + 1) * ld] = x0 * g[2] + x1 * g[3];
    }
  }
}

PetscErrorCode DRSysRedLowRank(DRSysRed s)
{
  const DRLTI *f = &s->full;
  PetscInt     n = f->n, m = f->m, p = f->p, kp, kq, ks, r;
  PetscReal   *S, *Si, *As, *Bs, *Zp, *Zq, *Ct, *M, *U, *Vt, *sv, *work, *T, *Ti, *AT, wq;
  Mat          A, At;
  fint         a, b, lw = -1, info = 0;
  PetscBool    modal;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscCall(PetscMalloc5(2 * n + 4, &S, 2 * n + 4, &Si, n * n, &As, n * m + 1, &Bs, n * p, &Ct));
  PetscCall(ModalTransform(f, S, Si, &modal));
  PetscCall(PetscArraycpy(As, f->A, n * n));
  PetscCall(PetscArraycpy(Bs, f->B, n * m));
  if (modal) { /* A_z = S^-1 A S, B_z = S^-1 B, C_z = C S */
    BlkRight(n, n, S, As, n);
    BlkLeft(n, n, Si, As, n);
    BlkLeft(n, m, Si, Bs, n);
  }
  {
    PetscReal *Cs;
    PetscCall(PetscMalloc1(p * n, &Cs));
    PetscCall(PetscArraycpy(Cs, f->C, p * n));
    if (modal) BlkRight(p, n, S, Cs, p);
    for (PetscInt i = 0; i < p; i++)
      for (PetscInt j = 0; j < n; j++) Ct[j + i * n] = Cs[i + j * p];
    PetscCall(PetscFree(Cs));
  }
  PetscCall(SparseA(s->comm, n, As, PETSC_FALSE, &A));
  PetscCall(SparseA(s->comm, n, As, PETSC_TRUE, &At));
  PetscCall(Gramian(s, A, m, Bs, "controllability", &kp, &Zp));
  PetscCall(Gramian(s, At, p, Ct, "observability", &kq, &Zq));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&At));
  /* Zq^T Zp = U S V^T */
  ks = PetscMin(kp, kq); /* the factors may hold more columns than n */
  a  = (fint)kq;
  b  = (fint)kp;
  PetscCall(PetscMalloc4(kq * kp + 1, &M, kq * ks + 1, &U, ks * kp + 1, &Vt, ks + 1, &sv));
  PetscCall(DRGemm('T', 'N', kq, kp, n, 1.0, Zq, n, Zp, n, 0.0, M, kq));
  {
    fint la = PetscMax(a, 1), lv = PetscMax((fint)ks, 1);
    dgesvd_("S", "S", &a, &b, M, &la, sv, U, &la, Vt, &lv, &wq, &lw, &info, 1, 1);
    lw = (fint)wq + 1;
    PetscCall(PetscMalloc1(lw, &work));
    dgesvd_("S", "S", &a, &b, M, &la, sv, U, &la, Vt, &lv, work, &lw, &info, 1, 1);
    PetscCall(PetscFree(work));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgesvd failed: info = %d", (int)info);
  }
  s->ns = PetscMin(ks, n);
  s->nu = 0;
  PetscCall(PetscFree(s->hsv));
  PetscCall(PetscMalloc1(ks + 1, &s->hsv));
  PetscCall(PetscArraycpy(s->hsv, sv, s->ns));
  PetscCall(DRSysRedChooseOrder(s, &r));
  /* T = Zp V_r S_r^-1/2 (n x r), Ti = S_r^-1/2 U_r^T Zq^T (r x n) */
  PetscCall(PetscFree(s->T));
  PetscCall(PetscFree(s->Ti));
  PetscCall(PetscCalloc1(n * r + 1, &s->T));
  PetscCall(PetscCalloc1(r * n + 1, &s->Ti));
  PetscCall(DRGemm('N', 'T', n, r, kp, 1.0, Zp, n, Vt, ks, 0.0, s->T, n));
  PetscCall(DRGemm('T', 'T', r, n, kq, 1.0, U, kq, Zq, n, 0.0, s->Ti, r));
  for (PetscInt j = 0; j < r; j++) { /* S_r^-1/2 */
    PetscReal q = 1 / PetscSqrtReal(sv[j]);
    for (PetscInt i = 0; i < n; i++) {
      s->T[i + j * n] *= q;
      s->Ti[j + i * r] *= q;
    }
  }
  if (modal) { /* back from z to x */
    BlkLeft(n, r, S, s->T, n);
    BlkRight(r, n, Si, s->Ti, r);
  }
  T  = s->T;
  Ti = s->Ti;
  PetscCall(DRLTIFree(&s->red));
  PetscCall(DRLTIAlloc(r, m, p, &s->red));
  PetscCall(PetscMalloc1(n * r + 1, &AT));
  PetscCall(DRGemm('N', 'N', n, r, n, 1.0, f->A, n, T, n, 0.0, AT, n));
  PetscCall(DRGemm('N', 'N', r, r, n, 1.0, Ti, r, AT, n, 0.0, s->red.A, r));
  PetscCall(DRGemm('N', 'N', r, m, n, 1.0, Ti, r, f->B, n, 0.0, s->red.B, r));
  PetscCall(DRGemm('N', 'N', p, r, n, 1.0, f->C, p, T, n, 0.0, s->red.C, p));
  PetscCall(PetscArraycpy(s->red.D, f->D, p * m));
  PetscCall(PetscFree(AT));
  PetscCall(PetscFree4(M, U, Vt, sv));
  PetscCall(PetscFree(Zp));
  PetscCall(PetscFree(Zq));
  PetscCall(PetscFree5(S, Si, As, Bs, Ct));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
