/* The GMP reduced model at one configuration (include/dynred/gmp.h). */
#include "gmp_impl.h"
#include <dynred/modal.h>
#include <dynred/reduce.h>
#include <petscblaslapack.h>
#include <petscksp.h>

/* Rank 0 receives the whole of a distributed dense matrix, column-major. */
static PetscErrorCode DenseGatherRoot(Mat A, PetscReal **out)
{
  MPI_Comm           comm;
  PetscMPIInt        rank, size, *cnt = NULL, *dsp = NULL, nl;
  PetscInt           m, N, rs, re, lda, *ranges;
  const PetscScalar *a;
  PetscReal         *loc, *all = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetSize(A, &m, &N));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  PetscCall(MatGetOwnershipRanges(A, (const PetscInt **)&ranges));
  PetscCall(MatDenseGetLDA(A, &lda));
  PetscCall(MatDenseGetArrayRead(A, &a));
  PetscCall(PetscMalloc1((re - rs) * N + 1, &loc)); /* my rows, row blocks column-major */
  for (PetscInt j = 0; j < N; j++)
    for (PetscInt i = 0; i < re - rs; i++) loc[j * (re - rs) + i] = a[j * lda + i];
  PetscCall(MatDenseRestoreArrayRead(A, &a));
  if (rank == 0) {
    PetscCall(PetscMalloc2(size, &cnt, size, &dsp));
    for (PetscMPIInt r = 0; r < size; r++) {
      cnt[r] = (PetscMPIInt)((ranges[r + 1] - ranges[r]) * N);
      dsp[r] = (PetscMPIInt)(ranges[r] * N);
    }
    PetscCall(PetscMalloc1(m * N + 1, &all));
  }
  nl = (PetscMPIInt)((re - rs) * N);
  {
    PetscReal *blocks = NULL;
    if (rank == 0) PetscCall(PetscMalloc1(m * N + 1, &blocks));
    PetscCallMPI(MPI_Gatherv(loc, nl, MPIU_REAL, blocks, cnt, dsp, MPIU_REAL, 0, comm));
    if (rank == 0) {
      for (PetscMPIInt r = 0; r < size; r++) {
        PetscInt nr = ranges[r + 1] - ranges[r];
        for (PetscInt j = 0; j < N; j++)
          for (PetscInt i = 0; i < nr; i++) all[j * m + ranges[r] + i] = blocks[dsp[r] + j * nr + i];
      }
      PetscCall(PetscFree(blocks));
      PetscCall(PetscFree2(cnt, dsp));
    }
  }
  PetscCall(PetscFree(loc));
  *out = all;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Flip column j of X (rows n) so its largest-magnitude entry is positive. */
static PetscReal SignOf(PetscInt n, const PetscReal *x)
{
  PetscReal big = 0, s = 1;
  for (PetscInt i = 0; i < n; i++)
    if (PetscAbsReal(x[i]) > big * (1 + 1e-10)) big = PetscAbsReal(x[i]), s = x[i] < 0 ? -1 : 1;
  return s;
}

PetscErrorCode DRMechanismROM(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const DRGMPRomOptions *opt, DRGMPRom *rom)
{
  PetscInt    nt = m->ntheta, nm = opt->nmodes, n = nt + nm, nf, rs, re;
  PetscReal  *xyz, res, *Z = NULL;
  Mat         K = NULL, M = NULL, N = NULL, Kf = NULL, Mf = NULL, Zm, Psi, MPsi, KPsi;
  Vec         Nt[DR_GMP_MAXTHETA], rhs[DR_GMP_MAXTHETA];
  PetscMPIInt rank;
  PetscBool   cached, keep;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMemzero(rom, sizeof(*rom)));
  PetscCall(PetscMalloc1(m->nnodes * m->dim, &xyz));
  /* the same start on every call: the result never depends on which
   * configurations this rank saw before (rank independence) */
  m->pose[0] = m->pose[1] = 0, m->pose[3] = m->L[0], m->pose[4] = 0, m->pose[5] = 0;
  PetscCall(DRMechanismConfigure(m, theta, xyz, &res));
  {
    /* the first call on a comm keeps its matrices; later calls on the same
     * comm refill them and redo only the numeric PtAP (calls on another
     * comm neither use nor replace the cache) */
    PetscMPIInt cmp = MPI_UNEQUAL;
    if (m->cK) PetscCallMPI(MPI_Comm_compare(m->ccomm, comm, &cmp));
    cached = (PetscBool)(cmp == MPI_IDENT);
    keep   = (PetscBool)!m->cK;
    if (cached) K = m->cK, M = m->cM, N = m->cN, Kf = m->cKf, Mf = m->cMf;
    PetscCall(DRMechanismAssembleReuse(m, comm, theta, xyz, cached, &K, &M, &N, Nt));
    PetscCall(MatPtAP(K, N, cached ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, 2.0, &Kf));
    PetscCall(MatPtAP(M, N, cached ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, 2.0, &Mf));
    if (keep) m->ccomm = comm, m->cK = K, m->cM = M, m->cN = N, m->cKf = Kf, m->cMf = Mf;
  }
  PetscCall(MatGetSize(Kf, &nf, NULL));
  PetscCheck(nm >= 1 && nm <= nf, comm, DR_ERR_INPUT, "gmp.nmodes %" PetscInt_FMT ": expected 1 to %" PetscInt_FMT " (the constrained DOFs with theta fixed)", nm, nf);
  for (PetscInt t = 0; t < nt; t++) { /* rhs_t = -N^T K n_theta_t */
    Vec Kn;
    PetscCall(MatCreateVecs(K, NULL, &Kn));
    PetscCall(MatMult(K, Nt[t], Kn));
    PetscCall(MatCreateVecs(N, &rhs[t], NULL));
    PetscCall(MatMultTranspose(N, Kn, rhs[t]));
    PetscCall(VecScale(rhs[t], -1.0));
    PetscCall(VecDestroy(&Kn));
  }
  PetscCall(MatGetOwnershipRangeColumn(N, &rs, &re));
  PetscCall(MatCreateDense(comm, re - rs, PETSC_DECIDE, nf, n, NULL, &Zm));
  if (nf <= opt->dense_max) {
    /* LAPACK on rank 0 */
    Mat        Kd, Md;
    PetscReal *kd, *md, *R[DR_GMP_MAXTHETA];
    PetscCall(MatConvert(Kf, MATDENSE, MAT_INITIAL_MATRIX, &Kd));
    PetscCall(MatConvert(Mf, MATDENSE, MAT_INITIAL_MATRIX, &Md));
    PetscCall(DenseGatherRoot(Kd, &kd));
    PetscCall(DenseGatherRoot(Md, &md));
    for (PetscInt t = 0; t < nt; t++) {
      Vec        seq;
      VecScatter sc;
      PetscCall(VecScatterCreateToZero(rhs[t], &sc, &seq));
      PetscCall(VecScatterBegin(sc, rhs[t], seq, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(sc, rhs[t], seq, INSERT_VALUES, SCATTER_FORWARD));
      R[t] = NULL;
      if (rank == 0) {
        const PetscScalar *s;
        PetscCall(PetscMalloc1(nf, &R[t]));
        PetscCall(VecGetArrayRead(seq, &s));
        PetscCall(PetscArraycpy(R[t], s, nf));
        PetscCall(VecRestoreArrayRead(seq, &s));
      }
      PetscCall(VecScatterDestroy(&sc));
      PetscCall(VecDestroy(&seq));
    }
    PetscCall(PetscMalloc1(nf * n, &Z));
    if (rank == 0) {
      PetscInt     nfound;
      PetscReal   *lam, *X, *L;
      PetscBLASInt nn, nrhs = 1, info;
      PetscCall(PetscMalloc3(nf, &lam, nf * nf, &X, nf * nf, &L));
      PetscCall(DRDenseEigen(nf, kd, md, nm, 0, &nfound, lam, X));
      PetscCheck(nfound == nm, PETSC_COMM_SELF, PETSC_ERR_LIB, "GMP: LAPACK found %" PetscInt_FMT " of %" PetscInt_FMT " deformation modes", nfound, nm);
      for (PetscInt j = 0; j < nm; j++) {
        PetscReal s = SignOf(nf, X + j * nf);
        for (PetscInt i = 0; i < nf; i++) Z[(nt + j) * nf + i] = s * X[j * nf + i];
      }
      /* rigid modes: K_ff z = -N^T K n_theta (Cholesky; K_ff is definite
       * with theta fixed, else the mechanism has a free motion) */
      PetscCall(PetscArraycpy(L, kd, nf * nf));
      PetscCall(PetscBLASIntCast(nf, &nn));
      LAPACKpotrf_("L", &nn, L, &nn, &info);
      PetscCheck(info == 0, PETSC_COMM_SELF, DR_ERR_INPUT, "GMP: the stiffness with theta fixed is singular (LAPACK dpotrf info %d): the joints leave a free motion besides theta", (int)info);
      for (PetscInt t = 0; t < nt; t++) {
        LAPACKpotrs_("L", &nn, &nrhs, L, &nn, R[t], &nn, &info);
        PetscCall(PetscArraycpy(Z + t * nf, R[t], nf));
      }
      PetscCall(PetscFree3(lam, X, L));
    }
    PetscCallMPI(MPI_Bcast(Z, (PetscMPIInt)(nf * n), MPIU_REAL, 0, comm));
    {
      PetscScalar *z;
      PetscInt     lda;
      PetscCall(MatDenseGetLDA(Zm, &lda));
      PetscCall(MatDenseGetArrayWrite(Zm, &z));
      for (PetscInt j = 0; j < n; j++)
        for (PetscInt i = rs; i < re; i++) z[j * lda + i - rs] = Z[j * nf + i];
      PetscCall(MatDenseRestoreArrayWrite(Zm, &z));
    }
    PetscCall(PetscFree(Z));
    for (PetscInt t = 0; t < nt; t++) PetscCall(PetscFree(R[t]));
    PetscCall(PetscFree(kd));
    PetscCall(PetscFree(md));
    PetscCall(MatDestroy(&Kd));
    PetscCall(MatDestroy(&Md));
  } else {
    /* SLEPc on the group, shift-and-invert at sigma = 0 (K_ff is definite
     * with theta fixed; DRModal's default shift from trace(K)/trace(M) is
     * far too negative for finely meshed beams, whose rotational terms
     * dominate the trace, and SLEPc then stalls).  The rigid modes are
     * solved first through the eigensolver's own KSP, so one MUMPS
     * Cholesky of K_ff serves both. */
    DRModal          md;
    PetscInt         nfound;
    Vec             *modes;
    const PetscReal *f, *lam, *resid;
    KSP              ksp;
    PetscCall(DRModalCreate(comm, &md));
    PetscCall(DRModalSetOptionsPrefix(md, opt->prefix));
    PetscCall(DRModalSetOperators(md, Kf, Mf, "gmp mechanism (theta fixed)"));
    PetscCall(DRModalSetRange(md, nm, 0));
    PetscCall(DRModalSetShift(md, 0.0));
    PetscCall(DRModalSetFromOptions(md));
    PetscCall(DRModalGetKSP(md, &ksp));
    {
      PetscReal sigma;
      PetscCall(DRModalGetShift(md, &sigma));
      if (sigma != 0) { /* -gmp_shift_hz: a separate factorization of K_ff */
        PC pc;
        PetscCall(KSPCreate(comm, &ksp));
        PetscCall(KSPSetType(ksp, KSPPREONLY));
        PetscCall(KSPGetPC(ksp, &pc));
        PetscCall(PCSetType(pc, PCCHOLESKY));
        PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
      } else PetscCall(PetscObjectReference((PetscObject)ksp));
    }
    PetscCall(KSPSetOperators(ksp, Kf, Kf));
    for (PetscInt t = 0; t < nt; t++) {
      Vec c;
      PetscCall(MatDenseGetColumnVecWrite(Zm, t, &c));
      PetscCall(KSPSolve(ksp, rhs[t], c));
      PetscCall(MatDenseRestoreColumnVecWrite(Zm, t, &c));
    }
    PetscCall(KSPDestroy(&ksp));
    PetscCall(DRModalSolve(md));
    PetscCall(DRModalGetModes(md, &nfound, &f, &lam, &modes, &resid));
    PetscCheck(nfound >= nm, comm, PETSC_ERR_NOT_CONVERGED, "GMP: SLEPc found %" PetscInt_FMT " of %" PetscInt_FMT " deformation modes", nfound, nm);
    for (PetscInt j = 0; j < nm; j++) {
      Vec c;
      PetscCall(MatDenseGetColumnVecWrite(Zm, nt + j, &c));
      PetscCall(VecCopy(modes[j], c));
      PetscCall(MatDenseRestoreColumnVecWrite(Zm, nt + j, &c));
    }
    PetscCall(DRModalDestroy(&md));
  }
  /* Psi = N Z, plus the directly driven DOFs in the rigid columns */
  PetscCall(MatMatMult(N, Zm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Psi));
  for (PetscInt t = 0; t < nt; t++) {
    Vec c;
    PetscCall(MatDenseGetColumnVecWrite(Psi, t, &c));
    PetscCall(VecAXPY(c, 1.0, Nt[t]));
    PetscCall(MatDenseRestoreColumnVecWrite(Psi, t, &c));
  }
  PetscCall(MatMatMult(M, Psi, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MPsi));
  PetscCall(MatMatMult(K, Psi, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KPsi));
  PetscCall(DRDenseTransposeProduct(Psi, MPsi, &rom->M));
  PetscCall(DRDenseTransposeProduct(Psi, KPsi, &rom->K));
  PetscCall(DenseGatherRoot(Psi, &rom->Psi));
  PetscCall(DenseGatherRoot(MPsi, &rom->MPsi));
  rom->nt = nt, rom->nm = nm, rom->n = n, rom->ndof = m->ndof, rom->nnodes = m->nnodes, rom->dim = m->dim;
  for (PetscInt t = 0; t < nt; t++) rom->theta[t] = theta[t];
  if (rank == 0) {
    PetscReal kmax = 0, kr = 0;
    /* symmetrize the products; K_eta_eta = [0 0; 0 Psi_d^T K Psi_d] */
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < i; j++) {
        PetscReal a = 0.5 * (rom->M[i + j * n] + rom->M[j + i * n]), b = 0.5 * (rom->K[i + j * n] + rom->K[j + i * n]);
        rom->M[i + j * n] = rom->M[j + i * n] = a;
        rom->K[i + j * n] = rom->K[j + i * n] = b;
      }
    for (PetscInt i = nt; i < n; i++) kmax = PetscMax(kmax, PetscAbsReal(rom->K[i + i * n]));
    for (PetscInt t = 0; t < nt; t++) kr = PetscMax(kr, PetscAbsReal(rom->K[t + t * n]));
    rom->rigid_energy = kr / kmax;
    for (PetscInt t = 0; t < nt; t++)
      for (PetscInt j = 0; j < n; j++) rom->K[t + j * n] = rom->K[j + t * n] = 0;
    {
      PetscBool ok;
      PetscCall(DRGMPRomEigen(rom, &ok));
      PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_LIB, "GMP: the reduced mass matrix at theta = %g is not positive definite", (double)theta[0]);
    }
    rom->xyz = xyz;
  } else PetscCall(PetscFree(xyz));
  PetscCall(MatDestroy(&Psi));
  PetscCall(MatDestroy(&MPsi));
  PetscCall(MatDestroy(&KPsi));
  PetscCall(MatDestroy(&Zm));
  for (PetscInt t = 0; t < nt; t++) {
    PetscCall(VecDestroy(&rhs[t]));
    PetscCall(VecDestroy(&Nt[t]));
  }
  if (!cached && !keep) {
    PetscCall(MatDestroy(&Kf));
    PetscCall(MatDestroy(&Mf));
    PetscCall(MatDestroy(&K));
    PetscCall(MatDestroy(&M));
    PetscCall(MatDestroy(&N));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismClearCache(DRMechanism m)
{
  PetscFunctionBeginUser;
  PetscCall(MatDestroy(&m->cK));
  PetscCall(MatDestroy(&m->cM));
  PetscCall(MatDestroy(&m->cN));
  PetscCall(MatDestroy(&m->cKf));
  PetscCall(MatDestroy(&m->cMf));
  m->ccomm = MPI_COMM_NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomFree(DRGMPRom *r)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(r->M));
  PetscCall(PetscFree(r->K));
  if (r->lambda) PetscCall(PetscFree2(r->lambda, r->Phi));
  PetscCall(PetscFree(r->Psi));
  PetscCall(PetscFree(r->MPsi));
  PetscCall(PetscFree(r->xyz));
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define HDR 12
PetscErrorCode DRGMPRomPack(const DRGMPRom *r, PetscInt *len, PetscReal **buf)
{
  PetscInt   n = r->n, nd = r->ndof, nx = r->xyz ? r->nnodes * r->dim : 0, L;
  PetscReal *b;

  PetscFunctionBeginUser;
  L = HDR + 2 * n * n + n + n * n + (r->Psi ? 2 * nd * n : 0) + nx;
  PetscCall(PetscMalloc1(L, &b));
  b[0] = r->nt, b[1] = r->nm, b[2] = r->n, b[3] = r->ndof, b[4] = r->nnodes, b[5] = r->dim;
  for (int t = 0; t < DR_GMP_MAXTHETA; t++) b[6 + t] = r->theta[t];
  b[10] = r->rigid_energy;
  b[11] = (r->Psi ? 1 : 0) + (nx ? 2 : 0);
  {
    PetscReal *p = b + HDR;
    PetscCall(PetscArraycpy(p, r->M, n * n)); p += n * n;
    PetscCall(PetscArraycpy(p, r->K, n * n)); p += n * n;
    PetscCall(PetscArraycpy(p, r->lambda, n)); p += n;
    PetscCall(PetscArraycpy(p, r->Phi, n * n)); p += n * n;
    if (r->Psi) {
      PetscCall(PetscArraycpy(p, r->Psi, nd * n)); p += nd * n;
      PetscCall(PetscArraycpy(p, r->MPsi, nd * n)); p += nd * n;
    }
    if (nx) PetscCall(PetscArraycpy(p, r->xyz, nx));
  }
  *len = L;
  *buf = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomUnpack(PetscInt len, const PetscReal *b, DRGMPRom *r)
{
  PetscInt         n, nd, flags;
  const PetscReal *p = b + HDR;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCheck(len >= HDR, PETSC_COMM_SELF, DR_ERR_INPUT, "GMP: a stored grid point is truncated (%" PetscInt_FMT " values)", len);
  r->nt = (PetscInt)b[0], r->nm = (PetscInt)b[1], r->n = n = (PetscInt)b[2], r->ndof = nd = (PetscInt)b[3], r->nnodes = (PetscInt)b[4], r->dim = (PetscInt)b[5];
  for (int t = 0; t < DR_GMP_MAXTHETA; t++) r->theta[t] = b[6 + t];
  r->rigid_energy = b[10];
  flags           = (PetscInt)b[11];
  PetscCheck(len == HDR + 3 * n * n + n + ((flags & 1) ? 2 * nd * n : 0) + ((flags & 2) ? r->nnodes * r->dim : 0), PETSC_COMM_SELF, DR_ERR_INPUT, "GMP: a stored grid point has %" PetscInt_FMT " values, inconsistent with its header", len);
  PetscCall(PetscMalloc1(n * n, &r->M));
  PetscCall(PetscMalloc1(n * n, &r->K));
  PetscCall(PetscMalloc2(n, &r->lambda, n * n, &r->Phi));
  PetscCall(PetscArraycpy(r->M, p, n * n)); p += n * n;
  PetscCall(PetscArraycpy(r->K, p, n * n)); p += n * n;
  PetscCall(PetscArraycpy(r->lambda, p, n)); p += n;
  PetscCall(PetscArraycpy(r->Phi, p, n * n)); p += n * n;
  if (flags & 1) {
    PetscCall(PetscMalloc1(nd * n, &r->Psi));
    PetscCall(PetscMalloc1(nd * n, &r->MPsi));
    PetscCall(PetscArraycpy(r->Psi, p, nd * n)); p += nd * n;
    PetscCall(PetscArraycpy(r->MPsi, p, nd * n)); p += nd * n;
  }
  if (flags & 2) {
    PetscCall(PetscMalloc1(r->nnodes * r->dim, &r->xyz));
    PetscCall(PetscArraycpy(r->xyz, p, r->nnodes * r->dim));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomCopy(const DRGMPRom *src, DRGMPRom *dst)
{
  PetscInt   len;
  PetscReal *b;

  PetscFunctionBeginUser;
  PetscCall(DRGMPRomPack(src, &len, &b));
  PetscCall(DRGMPRomUnpack(len, b, dst));
  PetscCall(PetscFree(b));
  PetscFunctionReturn(PETSC_SUCCESS);
}
