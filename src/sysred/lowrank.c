/* dynred sysred: balanced truncation with low-rank Gramian factors.
 * 1. Marginal split (as the dense path, dense.c): when A is block diagonal
 *    with 1x1 and 2x2 blocks (the modal form of `dynred ss`), each block's
 *    poles are classified by DRSysRedPoleKept; zero, undamped and unstable
 *    blocks are kept exactly, the stable ones form the stable part (for a
 *    modal state space the projection onto the stable invariant subspace is
 *    a selection of blocks).  Other A are used whole and must be stable.
 * 2. P = Zp Zp^T, Q = Zq Zq^T of the stable part (A_s, B_s, C_s):
 *    sysred.lowrank.solver auto tries SLEPc's LME (Krylov) first and falls
 *    back to the low-rank ADI iteration of adi.c when LME fails or does not
 *    converge (the log and /sysred attribute lowrank_solver say which);
 *    krylov / adi force one.  The Krylov path uses A_s as a distributed
 *    AIJ matrix and right-hand sides as MATLRC.  Krylov (Galerkin)
 *    projection of a Lyapunov equation is only safe when A is dissipative
 *    (A + A^T < 0); the modal blocks [[0, 1], [-w^2, -c]] are not, so such
 *    an A is first transformed per block: P_k = L_k L_k^T solves A_k^T P_k +
 *    P_k A_k = -I (closed form), z = L_k^T x gives L_k^T A_k L_k^-T, whose
 *    symmetric part is -P_k^-1 < 0; the factors are mapped back, Zp = S Zp_z,
 *    Zq = S^-T Zq_z with S = blkdiag(L_k^-T).  Even so, for lightly damped
 *    modes over a wide band the restarted Krylov projection diverges and
 *    its projected dense solve fails (PETSc error 76; -sysred_lme_monitor
 *    shows the error estimate growing from the first restart, with any
 *    ncv): that is where ADI takes over.
 * 3. The square-root method on the factors (METHODS.md 6): Zq^T Zp = U S V^T
 *    (LAPACK dgesvd; S: the Hankel singular values the factors resolve),
 *    T_s = Zp V_r S_r^-1/2, Ti_s = S_r^-1/2 U_r^T Zq^T; T = [E_s T_s, E_u],
 *    Ti = [Ti_s E_s^T; E_u^T] (E: the selections of stable and kept
 *    states), A_r = Ti A T = blkdiag(Ti_s A_s T_s, A_u), B_r = Ti B,
 *    C_r = C T, D_r = D.  2 sum_{i>r} sigma_i over the resolved Hankel
 *    values is an error estimate, not the bound of balanced truncation:
 *    the factors' Gramians are approximate (residual sysred.lowrank.tol),
 *    their Hankel values differ from the exact ones by that error, and the
 *    values beyond the factors' rank (the tail) are unknown and left out;
 *    it is printed and written (/sysred/error_estimate) as such.
 * Cost: no O(n^3) step; the factors are replicated on every rank. */
#include "sysredimpl.h"
#include <slepclme.h>
#include <string.h>

/* the distributed AIJ matrix of a replicated column-major dense n x n array
 * (op 'T': its transpose); with S, Si (the 2x2 blocks of ModalTransform, A
 * in modal form) the matrix of Si A S, formed block by block */
static PetscErrorCode SparseA(MPI_Comm comm, PetscInt n, const PetscReal *A, const PetscReal *S, const PetscReal *Si, PetscBool trans, Mat *M)
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
  if (S) { /* block k: Si_k A_k S_k, 2x2, column-major blocks */
    PetscCall(MatSeqAIJSetPreallocation(*M, 2, NULL));
    PetscCall(MatMPIAIJSetPreallocation(*M, 2, NULL, 1, NULL));
    for (PetscInt k = lo / 2; k < (hi + 1) / 2; k++) {
      const PetscReal *a = A + 2 * k + 2 * k * n, *sk = S + 4 * k, *si = Si + 4 * k;
      PetscReal        ak[4] = {a[0], a[1], a[n], a[n + 1]}, t[4], z[4];
      for (int j = 0; j < 2; j++) /* t = A_k S_k */
        for (int i = 0; i < 2; i++) t[i + 2 * j] = ak[i] * sk[2 * j] + ak[i + 2] * sk[2 * j + 1];
      for (int j = 0; j < 2; j++) /* z = Si_k t */
        for (int i = 0; i < 2; i++) z[i + 2 * j] = si[i] * t[2 * j] + si[i + 2] * t[2 * j + 1];
      for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
          PetscInt r = 2 * k + i, c = 2 * k + j;
          PetscReal v = trans ? z[j + 2 * i] : z[i + 2 * j];
          if (r >= lo && r < hi && v != 0) PetscCall(MatSetValue(*M, r, c, v, INSERT_VALUES));
        }
    }
    PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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
static PetscErrorCode Gramian(DRSysRed s, Mat M, PetscInt kf, const PetscReal *F, const char *which, PetscInt *k, PetscReal **Z, PetscBool *ok)
{
  MPI_Comm           comm = PetscObjectComm((PetscObject)M);
  PetscInt           n, lo, hi, r, its = 0;
  Mat                F1, C, X, U;
  LME                lme;
  LMEConvergedReason reason = LME_DIVERGED_ITS;
  PetscScalar       *f;
  PetscReal          err = 0;
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
  *ok = PETSC_FALSE;
  if (ierr) { /* the projected dense solve failed (see the header) */
    PetscCall(PetscInfo(NULL, "SLEPc LME %s Gramian: error %d in the projected Lyapunov solve\n", which, (int)ierr));
    PetscCall(PetscSNPrintf(s->lr_how, sizeof(s->lr_how), "SLEPc LME Krylov failed (%s Gramian: PETSc error %d in the projected Lyapunov solve)", which, (int)ierr));
  } else {
    PetscCall(LMEGetConvergedReason(lme, &reason));
    PetscCall(LMEGetIterationNumber(lme, &its));
    PetscCall(LMEGetErrorEstimate(lme, &err));
    if (reason <= 0) PetscCall(PetscSNPrintf(s->lr_how, sizeof(s->lr_how), "SLEPc LME Krylov did not converge (%s Gramian: %s after %" PetscInt_FMT " restarts, residual estimate %g)", which, LMEConvergedReasons[reason], its, (double)err));
    else *ok = PETSC_TRUE;
  }
  if (!*ok) {
    PetscCall(LMEDestroy(&lme));
    PetscCall(MatDestroy(&C));
    PetscCall(MatDestroy(&F1));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
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

/* the marginal split of a block-diagonal A: ks[] stable state indices (ns),
 * ku[] kept ones (nu), candidates (cr, ci: the stable poles with Im >= 0) */
static PetscErrorCode SplitBlocks(DRSysRed s, PetscInt nb, const PetscInt *bs, PetscInt *ks, PetscInt *ku, PetscReal *cr, PetscReal *ci, PetscInt *nc)
{
  const DRLTI *f = &s->full;
  PetscInt     n = f->n, ns = 0, nu = 0;

  PetscFunctionBegin;
  /* the floors per block: its poles come in closed form from the block
   * alone, accurate to eps ||A_k|| (||A||_F of a spectrum over 6 decades,
   * ~1e14, would keep well-damped low modes; s->a0, s->z0: the largest) */
  s->a0    = s->z0 = 0;
  s->alpha = s->marginal_tol;
  *nc      = 0;
  for (PetscInt b = 0; b < nb; b++) {
    PetscReal wr[2], wi[2], nk = 0, a0, z0;
    PetscBool kept = PETSC_FALSE;
    DRLTIBlockPoles(f, bs, b, wr, wi);
    for (PetscInt j = bs[b]; j < bs[b + 1]; j++)
      for (PetscInt i = bs[b]; i < bs[b + 1]; i++) nk += PetscSqr(f->A[i + j * n]);
    DRSysRedSplitFloors(PetscSqrtReal(nk), &a0, &z0);
    s->a0 = PetscMax(s->a0, a0);
    s->z0 = PetscMax(s->z0, z0);
    for (PetscInt q = 0; q < bs[b + 1] - bs[b]; q++) kept = (PetscBool)(kept || DRSysRedPoleKept(wr[q], wi[q], s->alpha, a0, z0));
    for (PetscInt i = bs[b]; i < bs[b + 1]; i++) {
      if (kept) ku[nu++] = i;
      else ks[ns++] = i;
    }
    if (!kept)
      for (PetscInt q = 0; q < bs[b + 1] - bs[b]; q++)
        if (wi[q] >= 0) { cr[*nc] = wr[q]; ci[(*nc)++] = wi[q]; }
  }
  s->nu = nu;
  PetscCheck(nu == 0 || s->split, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: A is not stable: %" PetscInt_FMT " of %" PetscInt_FMT " poles are zero, undamped or unstable (damping ratio below %g), expected a stable system for sysred.split false; set sysred.split true to keep them exactly", s->where, nu, n, (double)s->alpha);
  PetscCheck(ns > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: the stable part is empty: all %" PetscInt_FMT " poles have a damping ratio below %g (rigid-body, undamped or unstable), expected damped modes to balance; add damping (e.g. ss.damping) or use sysred.method minreal", s->where, n, (double)s->alpha);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* SLEPc LME factors of the stable part g (ok false: failed, s->lr_how says why) */
static PetscErrorCode GramiansKrylov(DRSysRed s, const DRLTI *g, PetscInt *kp, PetscReal **Zp, PetscInt *kq, PetscReal **Zq, PetscBool *ok)
{
  PetscInt   n = g->n, m = g->m, p = g->p;
  PetscReal *S, *Si, *Bs, *Ct, *Cs;
  Mat        A, At;
  PetscBool  modal;

  PetscFunctionBegin;
  *Zp = *Zq = NULL;
  PetscCall(PetscMalloc5(2 * n + 4, &S, 2 * n + 4, &Si, n * m + 1, &Bs, n * p + 1, &Ct, p * n + 1, &Cs));
  PetscCall(ModalTransform(g, S, Si, &modal));
  PetscCall(PetscArraycpy(Bs, g->B, n * m));
  PetscCall(PetscArraycpy(Cs, g->C, p * n));
  if (modal) { /* A_z = S^-1 A S (in SparseA), B_z = S^-1 B, C_z = C S */
    BlkLeft(n, m, Si, Bs, n);
    BlkRight(p, n, S, Cs, p);
  }
  for (PetscInt i = 0; i < p; i++)
    for (PetscInt j = 0; j < n; j++) Ct[j + i * n] = Cs[i + j * p];
  PetscCall(SparseA(s->comm, n, g->A, modal ? S : NULL, modal ? Si : NULL, PETSC_FALSE, &A));
  PetscCall(SparseA(s->comm, n, g->A, modal ? S : NULL, modal ? Si : NULL, PETSC_TRUE, &At));
  PetscCall(Gramian(s, A, m, Bs, "controllability", kp, Zp, ok));
  if (*ok) PetscCall(Gramian(s, At, p, Ct, "observability", kq, Zq, ok));
  if (*ok && modal) { /* back to x: Zp = S Zp_z, Zq = S^-T Zq_z = blkdiag(L_k) Zq_z */
    for (PetscInt b = 0; b < n / 2; b++) { /* Si block [[l11, l21], [0, l22]] -> its transpose */
      PetscReal t = Si[4 * b + 1];
      Si[4 * b + 1] = Si[4 * b + 2];
      Si[4 * b + 2] = t;
    }
    BlkLeft(n, *kp, S, *Zp, n);
    BlkLeft(n, *kq, Si, *Zq, n);
  }
  if (*ok) PetscCall(PetscSNPrintf(s->lr_how, sizeof(s->lr_how), "SLEPc LME Krylov%s", modal ? " (modal blocks made dissipative)" : ""));
  else {
    PetscCall(PetscFree(*Zp));
    PetscCall(PetscFree(*Zq));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&At));
  PetscCall(PetscFree5(S, Si, Bs, Ct, Cs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LR-ADI factors of the stable part g (adi.c); candidates: its poles or NULL */
static PetscErrorCode GramiansADI(DRSysRed s, const DRLTI *g, PetscInt nc, const PetscReal *cr, const PetscReal *ci, PetscInt *kp, PetscReal **Zp, PetscInt *kq, PetscReal **Zq)
{
  PetscInt   n = g->n, p = g->p, itp, itq, nsh;
  PetscReal *Ct, rp, rq;
  DRADI      adi;
  char       pre[sizeof(s->lr_how)];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n * p + 1, &Ct));
  for (PetscInt i = 0; i < p; i++)
    for (PetscInt j = 0; j < n; j++) Ct[j + i * n] = g->C[i + j * p];
  PetscCall(DRADICreate(s->comm, n, g->A, PETSC_FALSE, &adi));
  PetscCall(DRADISolve(adi, g->A, g->m, g->B, nc, cr, ci, s->lr_shifts, s->lr_tol, s->lr_adi_maxit, kp, Zp, &itp, &rp, &nsh));
  PetscCall(DRADIDestroy(&adi));
  PetscCall(DRADICreate(s->comm, n, g->A, PETSC_TRUE, &adi));
  PetscCall(DRADISolve(adi, g->A, p, Ct, nc, cr, ci, s->lr_shifts, s->lr_tol, s->lr_adi_maxit, kq, Zq, &itq, &rq, &nsh));
  PetscCall(DRADIDestroy(&adi));
  PetscCall(PetscFree(Ct));
  PetscCheck(rp <= s->lr_tol && rq <= s->lr_tol, s->comm, DR_ERR_INPUT, "%s: the low-rank ADI Gramians did not converge: relative residuals %g (controllability), %g (observability) after %" PetscInt_FMT " shift applications, expected <= sysred.lowrank.tol %g; raise sysred.lowrank.adi_maxit or sysred.lowrank.shifts, or use sysred.gramians dense", s->where, (double)rp, (double)rq, s->lr_adi_maxit, (double)s->lr_tol);
  PetscCall(PetscStrncpy(pre, s->lr_how, sizeof(pre)));
  PetscCall(PetscSNPrintf(s->lr_how, sizeof(s->lr_how), "%s%slow-rank ADI (%" PetscInt_FMT " shifts by Penzl's heuristic from %s; %" PetscInt_FMT " + %" PetscInt_FMT " shift applications, relative residuals %.2g, %.2g)", pre, pre[0] ? "; " : "", nsh, cr ? "the poles" : "Ritz values", itp, itq, (double)rp, (double)rq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedLowRank(DRSysRed s)
{
  const DRLTI *f = &s->full;
  PetscInt     n = f->n, m = f->m, p = f->p, nb, ns, nu, nc = 0, kp = 0, kq = 0, ks, rs, r, *bs, *ks_, *ku;
  PetscReal   *cr, *ci, *Zp = NULL, *Zq = NULL, *M, *U, *Vt, *sv, *work, *Ts, *Tis, *AT, wq;
  DRLTI        g = {0};
  PetscBool    ok = PETSC_FALSE;
  fint         a, b, lw = -1, info = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Split, 0, 0, 0, 0));
  PetscCall(PetscMalloc5(n + 1, &bs, n + 1, &ks_, n + 1, &ku, n + 1, &cr, n + 1, &ci));
  PetscCall(DRLTIBlocks(f, &nb, bs));
  s->lr_how[0] = 0;
  if (nb > 0) PetscCall(SplitBlocks(s, nb, bs, ks_, ku, cr, ci, &nc));
  else { /* no split: A must be stable */
    for (PetscInt i = 0; i < n; i++) ks_[i] = i;
    s->nu = 0;
    s->alpha = s->a0 = s->z0 = 0;
  }
  nu = s->nu;
  ns = n - nu;
  if (nu == 0) g = *f; /* the whole system is the stable part: no n x n copy */
  else PetscCall(DRLTIAlloc(ns, m, p, &g));
  for (PetscInt j = 0; j < ns && nu > 0; j++) {
    for (PetscInt i = 0; i < ns; i++) g.A[i + j * ns] = f->A[ks_[i] + ks_[j] * n];
    for (PetscInt i = 0; i < p; i++) g.C[i + j * p] = f->C[i + ks_[j] * p];
  }
  for (PetscInt j = 0; j < m && nu > 0; j++)
    for (PetscInt i = 0; i < ns; i++) g.B[i + j * ns] = f->B[ks_[i] + j * n];
  PetscCall(PetscLogEventEnd(DR_SYSRED_Split, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DR_SYSRED_Balance, 0, 0, 0, 0));
  if (strcmp(s->lr_solver, "adi")) PetscCall(GramiansKrylov(s, &g, &kp, &Zp, &kq, &Zq, &ok));
  PetscCheck(ok || strcmp(s->lr_solver, "krylov"), s->comm, DR_ERR_INPUT, "%s: the low-rank Gramians failed: %s, expected a dissipative A with fast Hankel singular value decay; use sysred.lowrank.solver adi or auto, or sysred.gramians dense", s->where, s->lr_how);
  if (!ok) PetscCall(GramiansADI(s, &g, nb > 0 ? nc : 0, nb > 0 ? cr : NULL, nb > 0 ? ci : NULL, &kp, &Zp, &kq, &Zq));
  PetscCall(PetscInfo(NULL, "low-rank Gramians: %s; ranks %" PetscInt_FMT ", %" PetscInt_FMT "\n", s->lr_how, kp, kq));
  /* Zq^T Zp = U S V^T */
  ks = PetscMin(kp, kq); /* the factors may hold more columns than ns */
  a  = (fint)kq;
  b  = (fint)kp;
  PetscCall(PetscMalloc4(kq * kp + 1, &M, kq * ks + 1, &U, ks * kp + 1, &Vt, ks + 1, &sv));
  PetscCall(DRGemm('T', 'N', kq, kp, ns, 1.0, Zq, ns, Zp, ns, 0.0, M, kq));
  {
    fint la = PetscMax(a, 1), lv = PetscMax((fint)ks, 1);
    dgesvd_("S", "S", &a, &b, M, &la, sv, U, &la, Vt, &lv, &wq, &lw, &info, 1, 1);
    lw = (fint)wq + 1;
    PetscCall(PetscMalloc1(lw, &work));
    dgesvd_("S", "S", &a, &b, M, &la, sv, U, &la, Vt, &lv, work, &lw, &info, 1, 1);
    PetscCall(PetscFree(work));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgesvd failed: info = %d", (int)info);
  }
  s->ns = PetscMin(ks, ns);
  PetscCall(PetscFree(s->hsv));
  PetscCall(PetscMalloc1(ks + 1, &s->hsv));
  PetscCall(PetscArraycpy(s->hsv, sv, s->ns));
  PetscCall(DRSysRedChooseOrder(s, &rs));
  /* T_s = Zp V_r S_r^-1/2 (ns x rs), Ti_s = S_r^-1/2 U_r^T Zq^T (rs x ns) */
  PetscCall(PetscCalloc2(ns * rs + 1, &Ts, rs * ns + 1, &Tis));
  PetscCall(DRGemm('N', 'T', ns, rs, kp, 1.0, Zp, ns, Vt, ks, 0.0, Ts, ns));
  PetscCall(DRGemm('T', 'T', rs, ns, kq, 1.0, U, kq, Zq, ns, 0.0, Tis, rs));
  for (PetscInt j = 0; j < rs; j++) { /* S_r^-1/2 */
    PetscReal q = 1 / PetscSqrtReal(sv[j]);
    for (PetscInt i = 0; i < ns; i++) {
      Ts[i + j * ns] *= q;
      Tis[j + i * rs] *= q;
    }
  }
  /* T = [E_s T_s, E_u], Ti = [Ti_s E_s^T; E_u^T] */
  r = rs + nu;
  PetscCall(PetscFree(s->T));
  PetscCall(PetscFree(s->Ti));
  PetscCall(PetscCalloc1(n * r + 1, &s->T));
  PetscCall(PetscCalloc1(r * n + 1, &s->Ti));
  for (PetscInt j = 0; j < rs; j++)
    for (PetscInt i = 0; i < ns; i++) {
      s->T[ks_[i] + j * n]  = Ts[i + j * ns];
      s->Ti[j + ks_[i] * r] = Tis[j + i * rs];
    }
  for (PetscInt k = 0; k < nu; k++) {
    s->T[ku[k] + (rs + k) * n]  = 1;
    s->Ti[rs + k + ku[k] * r] = 1;
  }
  PetscCall(DRLTIFree(&s->red));
  PetscCall(DRLTIAlloc(r, m, p, &s->red));
  PetscCall(PetscMalloc1(n * r + 1, &AT));
  PetscCall(DRGemm('N', 'N', n, r, n, 1.0, f->A, n, s->T, n, 0.0, AT, n));
  PetscCall(DRGemm('N', 'N', r, r, n, 1.0, s->Ti, r, AT, n, 0.0, s->red.A, r));
  PetscCall(DRGemm('N', 'N', r, m, n, 1.0, s->Ti, r, f->B, n, 0.0, s->red.B, r));
  PetscCall(DRGemm('N', 'N', p, r, n, 1.0, f->C, p, s->T, n, 0.0, s->red.C, p));
  PetscCall(PetscArraycpy(s->red.D, f->D, p * m));
  PetscCall(PetscFree(AT));
  PetscCall(PetscFree2(Ts, Tis));
  PetscCall(PetscFree4(M, U, Vt, sv));
  PetscCall(PetscFree(Zp));
  PetscCall(PetscFree(Zq));
  if (nu > 0) PetscCall(DRLTIFree(&g));
  PetscCall(PetscFree5(bs, ks_, ku, cr, ci));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
