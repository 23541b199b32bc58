/* FRF error on a (p, omega) grid (METHODS.md 3): eps(p, i omega) =
 * |H - H_r| / |H| (one input, the colocated output: ||.||_F = |.|).  Full
 * model: one task of the farm per frequency, one MUMPS LDL^T (symmetric
 * indefinite, sym = 2) of the dynamic stiffness K - omega^2 M (undamped:
 * real and exact), or with Rayleigh damping D = alpha M + beta K of the real
 * symmetric form of the complex symmetric Z = A_r + i A_i (A_r = K - w^2 M,
 * A_i = w D): [[A_r, A_i], [A_i, -A_r]] [x_r; -x_i] = [b; 0], with
 * interleaved rows (2g: real, 2g+1: imaginary equation of DOF g), solving
 * for every p of the grid at once (MatMatSolve).  Symmetric, it costs about
 * half the flops and memory of the LU of the nonsymmetric block form
 * [[A_r, -A_i], [A_i, A_r]] used before.  A rank group keeps its matrix and
 * factor from one frequency to the next: the pattern is the same, so
 * MUMPS's analysis (ordering, symbolic factorization) is done once.  With the tool at the load point (K(p), M(p): tool.c) the
 * rank-one Sherman-Morrison correction of each H(p) keeps this exact.
 * Reduced: the interpolated ROM, 2n x 2n LAPACK gesv. */
#include "pmorimpl.h"
#include <petscblaslapack.h>

PetscErrorCode DRPMORReducedH(PetscInt n, const PetscReal *M, const PetscReal *K, const PetscReal *D, const PetscReal *B, const PetscReal *C, PetscReal w, PetscReal H[2])
{
  PetscInt     N = 2 * n;
  PetscReal   *A, *x;
  PetscBLASInt bn, one = 1, info, *piv;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(N * N, &A, N, &x, N, &piv));
  for (PetscInt b = 0; b < n; b++)
    for (PetscInt a = 0; a < n; a++) {
      PetscReal re = K[a + b * n] - w * w * M[a + b * n], im = w * D[a + b * n];
      A[a + b * N] = re, A[a + n + (b + n) * N] = re;
      A[a + n + b * N] = im, A[a + (b + n) * N] = -im;
    }
  for (PetscInt a = 0; a < n; a++) x[a] = B[a], x[a + n] = 0;
  PetscCall(PetscBLASIntCast(N, &bn));
  PetscCallBLAS("LAPACKgesv", LAPACKgesv_(&bn, &one, A, &bn, piv, x, &bn, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "reduced dynamic stiffness singular at omega = %g (LAPACK gesv info %d): a frequency on an undamped pole", (double)w, (int)info);
  H[0] = H[1] = 0;
  for (PetscInt a = 0; a < n; a++) H[0] += C[a] * x[a], H[1] += C[a] * x[a + n];
  PetscCall(PetscFree3(A, x, piv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  DRPMOR      pm;
  DRPMORGroup g;
  PetscInt   *idx; /* [nfp x DRPMOR_NLOAD] path indices of b(p) */
  PetscReal  *c;   /* [nfp x DRPMOR_NLOAD] their coefficients */
  Mat         A, F; /* this rank's group: the dynamic stiffness and its factor, kept */
} FRFCtx;

/* the dynamic stiffness (real, or the interleaved symmetric 2 x 2 form) on
 * the group; *A from an earlier frequency is refilled in place (same
 * pattern) */
static PetscErrorCode DynStiffness(DRPMOR pm, DRPMORGroup *g, PetscReal w, PetscBool cplx, Mat *A)
{
  PetscFunctionBeginUser;
  if (!cplx) {
    if (*A) { /* the pattern of K + M from the first frequency */
      PetscCall(MatZeroEntries(*A));
      PetscCall(MatAXPY(*A, 1.0, g->K, SUBSET_NONZERO_PATTERN));
      PetscCall(MatAXPY(*A, -w * w, g->M, SUBSET_NONZERO_PATTERN));
    } else {
      PetscCall(MatDuplicate(g->K, MAT_COPY_VALUES, A));
      PetscCall(MatAXPY(*A, -w * w, g->M, DIFFERENT_NONZERO_PATTERN));
    }
    PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(*A, MAT_SPD, PETSC_FALSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (*A) PetscCall(MatZeroEntries(*A));
  {
    PetscInt rs, re, N, *nnz;
    Mat      S[2] = {g->K, g->M};
    /* Re = K - w^2 M, Im = w (alpha M + beta K): coefficients per source matrix */
    PetscReal cre[2] = {1, -w * w}, cim[2] = {w * pm->beta, w * pm->alpha};
    PetscCall(MatGetOwnershipRange(g->K, &rs, &re));
    PetscCall(MatGetSize(g->K, &N, NULL));
    PetscCall(PetscCalloc1(2 * (re - rs), &nnz));
    for (PetscInt r = rs; r < re; r++)
      for (int q = 0; q < 2; q++) {
        PetscInt ncols;
        PetscCall(MatGetRow(S[q], r, &ncols, NULL, NULL));
        nnz[2 * (r - rs)] += 2 * ncols, nnz[2 * (r - rs) + 1] += 2 * ncols;
        PetscCall(MatRestoreRow(S[q], r, &ncols, NULL, NULL));
      }
    for (PetscInt r = 0; r < 2 * (re - rs); r++) nnz[r] = PetscMin(nnz[r], 2 * N);
    if (!*A) {
      PetscCall(MatCreateAIJ(g->comm, 2 * (re - rs), 2 * (re - rs), 2 * N, 2 * N, 0, nnz, 0, nnz, A));
      PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    }
    for (PetscInt r = rs; r < re; r++)
      for (int q = 0; q < 2; q++) {
        PetscInt           ncols;
        const PetscInt    *cols;
        const PetscScalar *vals;
        PetscCall(MatGetRow(S[q], r, &ncols, &cols, &vals));
        for (PetscInt j = 0; j < ncols; j++) {
          PetscInt    rr[2] = {2 * r, 2 * r + 1}, cc[2] = {2 * cols[j], 2 * cols[j] + 1};
          PetscScalar v[4]  = {cre[q] * vals[j], cim[q] * vals[j], cim[q] * vals[j], -cre[q] * vals[j]};
          PetscCall(MatSetValues(*A, 2, rr, 2, cc, v, ADD_VALUES));
        }
        PetscCall(MatRestoreRow(S[q], r, &ncols, &cols, &vals));
      }
    PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(*A, MAT_SPD, PETSC_FALSE));
    PetscCall(PetscFree(nnz));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FRFTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *n, PetscReal **res)
{
  FRFCtx            *c  = (FRFCtx *)ctx;
  DRPMOR             pm = c->pm;
  PetscBool          cplx = (pm->alpha != 0 || pm->beta != 0) ? PETSC_TRUE : PETSC_FALSE;
  PetscInt           f = cplx ? 2 : 1, rs, re, nfp = pm->nfp;
  PetscReal          w = pm->omega[task], *h;
  Mat                Bm, X;
  MatFactorInfo      info;
  const PetscScalar *x;
  PetscMPIInt        rank;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_FRF, 0, 0, 0, 0));
  PetscCall(DRPMORGroupGet(pm, group, &c->g));
  PetscCall(DynStiffness(pm, &c->g, w, cplx, &c->A));
  PetscCall(MatFactorInfoInitialize(&info));
  if (!c->F) {
    PetscCall(MatGetFactor(c->A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &c->F));
    PetscCall(MatSetOptionsPrefix(c->F, "pmor_frf_"));
    PetscCall(MatSetFromOptions(c->F));
    PetscCall(MatCholeskyFactorSymbolic(c->F, c->A, NULL, &info));
  }
  PetscCall(MatCholeskyFactorNumeric(c->F, c->A, &info));
  PetscCall(MatGetOwnershipRange(c->A, &rs, &re));
  PetscCall(MatCreateDense(c->g.comm, re - rs, PETSC_DECIDE, PETSC_DETERMINE, nfp, NULL, &Bm));
  PetscCall(MatDuplicate(Bm, MAT_DO_NOT_COPY_VALUES, &X));
  for (PetscInt j = 0; j < nfp; j++)
    for (int q = 0; q < DRPMOR_NLOAD; q++) {
      PetscInt r = f * pm->path_rows[c->idx[DRPMOR_NLOAD * j + q]];
      if (r >= rs && r < re && c->c[DRPMOR_NLOAD * j + q] != 0) PetscCall(MatSetValue(Bm, r, j, c->c[DRPMOR_NLOAD * j + q], ADD_VALUES));
    }
  PetscCall(MatAssemblyBegin(Bm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(Bm, MAT_FINAL_ASSEMBLY));
  PetscCall(MatMatSolve(c->F, Bm, X));
  /* H(p) = b(p)^T x(p): local contributions summed over the group */
  PetscCall(PetscCalloc1(2 * nfp, &h));
  PetscCall(MatDenseGetArrayRead(X, &x));
  for (PetscInt j = 0; j < nfp; j++)
    for (int q = 0; q < DRPMOR_NLOAD; q++) {
      PetscInt r = f * pm->path_rows[c->idx[DRPMOR_NLOAD * j + q]];
      if (r >= rs && r < re) {
        h[2 * j] += c->c[DRPMOR_NLOAD * j + q] * PetscRealPart(x[(r - rs) + j * (re - rs)]);
        if (cplx) h[2 * j + 1] -= c->c[DRPMOR_NLOAD * j + q] * PetscRealPart(x[(r + 1 - rs) + j * (re - rs)]); /* the unknown is -x_i */
      }
    }
  PetscCall(MatDenseRestoreArrayRead(X, &x));
  PetscCallMPI(MPI_Comm_rank(group, &rank));
  PetscCallMPI(MPI_Reduce(rank ? h : MPI_IN_PLACE, h, (PetscMPIInt)(2 * nfp), MPIU_REAL, MPIU_SUM, 0, c->g.comm));
  if (rank == 0) *n = 2 * nfp, *res = h;
  else PetscCall(PetscFree(h));
  PetscCall(MatDestroy(&Bm));
  PetscCall(MatDestroy(&X));
  PetscCall(PetscLogEventEnd(DRPMOR_FRF, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Grid(DRPMOR pm)
{
  PetscInt np = pm->npath, nseg = pm->period > 0 ? np : np - 1, q = 0;

  PetscFunctionBeginUser;
  pm->nfp = nseg * pm->refine + (pm->period > 0 ? 0 : 1);
  PetscCall(PetscMalloc2(pm->nfp, &pm->fp, pm->nfreq, &pm->omega));
  for (PetscInt j = 0; j < nseg; j++) {
    PetscReal a = pm->path_p[j], b = j + 1 < np ? pm->path_p[j + 1] : pm->path_p[0] + pm->period;
    for (PetscInt r = 0; r < pm->refine; r++) pm->fp[q++] = a + (b - a) * r / pm->refine;
  }
  if (!(pm->period > 0)) pm->fp[q++] = pm->path_p[np - 1];
  for (PetscInt i = 0; i < pm->nfreq; i++) pm->omega[i] = 2 * PETSC_PI * (pm->nfreq > 1 ? pm->fmin + (pm->fmax - pm->fmin) * i / (pm->nfreq - 1) : pm->fmin);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORFRF(DRPMOR pm)
{
  FRFCtx      c;
  DRFarm      farm;
  PetscMPIInt rank;
  PetscInt    nfp, nf = pm->nfreq, n = pm->n, len = DRPMOR_ROMLEN(n), ng;
  PetscReal  *M, *K, *D, *B, *C;

  PetscFunctionBeginUser;
  PetscCall(Grid(pm));
  nfp = pm->nfp;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.pm = pm, c.g.comm = c.g.key = MPI_COMM_NULL;
  PetscCall(PetscMalloc2(DRPMOR_NLOAD * nfp, &c.idx, DRPMOR_NLOAD * nfp, &c.c));
  for (PetscInt j = 0; j < nfp; j++) PetscCall(DRPMORLoadAt(pm, pm->fp[j], c.idx + DRPMOR_NLOAD * j, c.c + DRPMOR_NLOAD * j));
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  PetscCall(DRFarmCreate(pm->comm, &farm));
  PetscCall(DRFarmSetConfig(farm, pm->cfg));
  PetscCall(DRFarmSetLabel(farm, "FRF point"));
  PetscCall(DRFarmSetFromOptions(farm));
  {
    /* the full FRF depends on the model, the load on the grid and the
     * frequencies: a checkpoint of another grid is refused by the farm */
    char      sig[1024];
    PetscReal cr = 0, cp = 0;
    for (PetscInt j = 0; j < pm->npath; j++) cr += (PetscReal)(j + 1) * pm->path_rows[j];
    for (PetscInt j = 0; j < nfp; j++) cp += (j + 1) * pm->fp[j];
    PetscCall(PetscSNPrintf(sig, sizeof(sig), "pmor frf %s d%d path %d/%.17g grid %d/%.17g f %d %.17g %.17g damping %.17g %.17g %s", pm->sig, (int)pm->dir, (int)pm->npath, (double)cr, (int)nfp, (double)cp, (int)nf, (double)pm->fmin, (double)pm->fmax, (double)pm->alpha, (double)pm->beta, pm->distribute));
    PetscCall(DRFarmSetCheckpoint(farm, pm->ckpt_frf, sig));
  }
  PetscCall(DRFarmGetGroup(farm, NULL, NULL, &ng));
  PetscCall(PetscPrintf(pm->comm, "pmor: FRF error on %" PetscInt_FMT " positions x %" PetscInt_FMT " frequencies (%g..%g Hz), %s, one factorization per frequency on %" PetscInt_FMT " rank group(s)\n", nfp, nf, (double)pm->fmin, (double)pm->fmax,
                        (pm->alpha != 0 || pm->beta != 0) ? "Rayleigh damping (real symmetric 2x2 form, LDL^T)" : "undamped", ng));
  PetscCall(DRFarmRun(farm, nf, FRFTask, &c));
  PetscCall(MatDestroy(&c.F));
  PetscCall(MatDestroy(&c.A));
  {
    PetscReal secs;
    PetscCall(DRFarmGetStats(farm, &pm->frf_computed, &pm->frf_restored, &secs));
    PetscCall(PetscPrintf(pm->comm, "pmor: full FRF: %" PetscInt_FMT " frequencies computed, %" PetscInt_FMT " restored in %.2f s; checkpoint %s\n", pm->frf_computed, pm->frf_restored, (double)secs, pm->ckpt_frf));
  }
  PetscCall(DRPMORGroupDestroy(&c.g));
  PetscCall(PetscMalloc5(2 * nfp * nf, &pm->Hf, 2 * nfp * nf, &pm->Hr, 2 * pm->k * nf, &pm->Hs, nfp * nf, &pm->err, pm->k * nf, &pm->serr));
  if (rank == 0)
    for (PetscInt i = 0; i < nf; i++) {
      PetscInt         l;
      const PetscReal *r;
      PetscCall(DRFarmGetResult(farm, i, &l, &r));
      for (PetscInt j = 0; j < nfp; j++) {
        pm->Hf[2 * (j * nf + i)] = r[2 * j], pm->Hf[2 * (j * nf + i) + 1] = r[2 * j + 1];
        if (pm->tool_m != 0 || pm->tool_k != 0) PetscCall(DRPMORToolSM(pm, pm->omega[i], pm->Hf + 2 * (j * nf + i))); /* K(p), M(p): tool.c */
      }
    }
  PetscCallMPI(MPI_Bcast(pm->Hf, (PetscMPIInt)(2 * nfp * nf), MPIU_REAL, 0, pm->comm));
  PetscCall(DRFarmDestroy(&farm));
  /* reduced: every rank the same (small, dense) */
  PetscCall(PetscMalloc5(n * n, &M, n * n, &K, n * n, &D, n, &B, n, &C));
  for (PetscInt j = 0; j < nfp; j++) {
    PetscCall(DRPMORInterpolate(pm, pm->fp[j], M, D, K, B, C));
    for (PetscInt i = 0; i < nf; i++) {
      PetscReal *hr = pm->Hr + 2 * (j * nf + i), *hf = pm->Hf + 2 * (j * nf + i);
      PetscCall(DRPMORReducedH(n, M, K, D, B, C, pm->omega[i], hr));
      pm->err[j * nf + i] = PetscSqrtReal(PetscSqr(hr[0] - hf[0]) + PetscSqr(hr[1] - hf[1])) / PetscSqrtReal(PetscSqr(hf[0]) + PetscSqr(hf[1]));
    }
  }
  for (PetscInt s = 0; s < pm->k; s++) {
    const PetscReal *raw = pm->raw + s * len;
    PetscInt         j   = pm->sup[s] * pm->refine; /* the support's position on the grid */
    for (PetscInt q = 0; q < n * n; q++) D[q] = pm->alpha * raw[q] + pm->beta * raw[n * n + q];
    for (PetscInt i = 0; i < nf; i++) {
      PetscReal *hs = pm->Hs + 2 * (s * nf + i), *hf = pm->Hf + 2 * (j * nf + i);
      PetscCall(DRPMORReducedH(n, raw, raw + n * n, D, raw + 2 * n * n, raw + 2 * n * n + n, pm->omega[i], hs));
      pm->serr[s * nf + i] = PetscSqrtReal(PetscSqr(hs[0] - hf[0]) + PetscSqr(hs[1] - hf[1])) / PetscSqrtReal(PetscSqr(hf[0]) + PetscSqr(hf[1]));
    }
  }
  PetscCall(PetscFree5(M, K, D, B, C));
  PetscCall(PetscFree2(c.idx, c.c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
