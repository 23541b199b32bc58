/* The GMP reduced model at one configuration (include/dynred/gmp.h). */
#include <dynred/preflight.h>
#include "gmp_impl.h"
#include <dynred/modal.h>
#include <dynred/eigen.h>
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

/* The ROM builder: the matrices of its first call on a communicator are
 * kept and reused (values refilled, numeric PtAP only) by later calls on the
 * same communicator; calls on another communicator neither use nor replace
 * them.  The mechanism is borrowed (it must outlive the builder). */
struct _p_DRGMPRomBuilder {
  DRMechanism     mech;
  DRGMPRomOptions opt;
  MPI_Comm        ccomm;
  Mat             cK, cM, cN, cKf, cMf;
};

PetscErrorCode DRGMPRomBuilderCreate(DRMechanism m, const DRGMPRomOptions *opt, DRGMPRomBuilder *b)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPInitializePackage());
  PetscCall(PetscNew(b));
  (*b)->mech  = m;
  (*b)->opt   = *opt;
  (*b)->ccomm = MPI_COMM_NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomBuilderGetMechanism(DRGMPRomBuilder b, DRMechanism *m)
{
  PetscFunctionBeginUser;
  *m = b->mech;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomBuilderReset(DRGMPRomBuilder b)
{
  PetscFunctionBeginUser;
  PetscCall(MatDestroy(&b->cK));
  PetscCall(MatDestroy(&b->cM));
  PetscCall(MatDestroy(&b->cN));
  PetscCall(MatDestroy(&b->cKf));
  PetscCall(MatDestroy(&b->cMf));
  b->ccomm = MPI_COMM_NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomBuilderDestroy(DRGMPRomBuilder *b)
{
  PetscFunctionBeginUser;
  if (!*b) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRGMPRomBuilderReset(*b));
  PetscCall(PetscFree(*b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work matrices of one call */
typedef struct {
  Mat       K, M, N, Kf, Mf;
  Vec       Nt[DR_GMP_MAXTHETA], rhs[DR_GMP_MAXTHETA];
  Vec       ra; /* gmp.frame chord: N^T e for a unit moment at O (the attachment mode's load) */
  PetscBool cached, keep;
  PetscInt  nf;
} RomWork;

/* rho(theta), K, M, N, Ntheta and the constrained Kf = N^T K N, Mf (from
 * the cache when the call is on the cached communicator), and the rigid
 * right-hand sides rhs_t = -N^T K n_theta_t. */
static PetscErrorCode RomAssemble(DRGMPRomBuilder b, MPI_Comm comm, const PetscReal theta[], PetscReal *xyz, RomWork *w)
{
  DRMechanism m = b->mech;
  PetscReal   res;
  PetscMPIInt cmp = MPI_UNEQUAL;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRGMP_Assemble, 0, 0, 0, 0));
  /* the same start on every call: the result never depends on which
   * configurations this rank saw before (rank independence) */
  m->pose[0] = m->pose[1] = 0, m->pose[3] = m->L[0], m->pose[4] = 0, m->pose[5] = 0;
  PetscCall(DRMechanismConfigure(m, theta, xyz, &res));
  /* the arm's chord frame picks its dependent DOFs by theta (constraint.c):
   * the pattern of N changes over a grid, so nothing is kept or reused */
  PetscBool fixed = (PetscBool)!(m->p.chord && m->dim == 3);
  if (b->cK) PetscCallMPI(MPI_Comm_compare(b->ccomm, comm, &cmp));
  w->cached = (PetscBool)(fixed && cmp == MPI_IDENT);
  w->keep   = (PetscBool)(fixed && !b->cK);
  if (w->cached) w->K = b->cK, w->M = b->cM, w->N = b->cN, w->Kf = b->cKf, w->Mf = b->cMf;
  PetscCall(DRMechanismAssembleReuse(m, comm, theta, xyz, w->cached, &w->K, &w->M, &w->N, w->Nt));
  PetscCall(MatPtAP(w->K, w->N, w->cached ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, 2.0, &w->Kf));
  PetscCall(MatPtAP(w->M, w->N, w->cached ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX, 2.0, &w->Mf));
  if (w->keep) b->ccomm = comm, b->cK = w->K, b->cM = w->M, b->cN = w->N, b->cKf = w->Kf, b->cMf = w->Mf;
  PetscCall(MatGetSize(w->Kf, &w->nf, NULL));
  PetscCheck(b->opt.nmodes >= 1 && b->opt.nmodes <= w->nf, comm, DR_ERR_INPUT, "gmp.nmodes %" PetscInt_FMT ": expected 1 to %" PetscInt_FMT " (the constrained DOFs with theta fixed)", b->opt.nmodes, w->nf);
  for (PetscInt t = 0; t < m->ntheta; t++) { /* rhs_t = -N^T K n_theta_t */
    Vec Kn;
    PetscCall(MatCreateVecs(w->K, NULL, &Kn));
    PetscCall(MatMult(w->K, w->Nt[t], Kn));
    PetscCall(MatCreateVecs(w->N, &w->rhs[t], NULL));
    PetscCall(MatMultTranspose(w->N, Kn, w->rhs[t]));
    PetscCall(VecScale(w->rhs[t], -1.0));
    PetscCall(VecDestroy(&Kn));
  }
  if (m->p.chord) {
    /* the driven joint's rotation is free in the chord frame: its moment,
     * on node 0's rotation (DOF 2, slider-crank), or the elbow motor's pair
     * about -a2, + on link 2's root, - on link 1's end (arm; its work is
     * the elbow's relative rotation) */
    Vec         e;
    PetscInt    rs, re;
    PetscReal   d1[3], d2[3], a2[3];
    PetscCheck(b->opt.nmodes >= 2, comm, DR_ERR_INPUT, "gmp.nmodes %" PetscInt_FMT " with gmp.frame chord: expected at least 2 (the last deformation column is the static response to the driven joint's moment)", b->opt.nmodes);
    PetscCall(MatCreateVecs(w->K, NULL, &e));
    PetscCall(VecZeroEntries(e));
    PetscCall(VecGetOwnershipRange(e, &rs, &re));
    if (m->dim == 2) {
      if (2 >= rs && 2 < re) PetscCall(VecSetValue(e, 2, 1.0, INSERT_VALUES));
    } else {
      PetscCall(DRArmFrames(theta, d1, d2, a2));
      for (PetscInt d = 0; d < 3; d++) {
        PetscInt ib = m->jb * m->dpn + 3 + d, ia = m->ja * m->dpn + 3 + d;
        if (ib >= rs && ib < re) PetscCall(VecSetValue(e, ib, -a2[d], INSERT_VALUES));
        if (ia >= rs && ia < re) PetscCall(VecSetValue(e, ia, a2[d], INSERT_VALUES));
      }
    }
    PetscCall(VecAssemblyBegin(e));
    PetscCall(VecAssemblyEnd(e));
    PetscCall(MatCreateVecs(w->N, &w->ra, NULL));
    PetscCall(MatMultTranspose(w->N, e, w->ra));
    PetscCall(VecDestroy(&e));
  }
  PetscCall(PetscLogEventEnd(DRGMP_Assemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* gmp.frame chord: the last deformation column of Zm (sweep.c adds one to
 * gmp.nmodes) holds the attachment mode z, K_ff z = N^T e_O (the static
 * deformation under a moment at O with theta held), as the dense or the
 * sparse path solved it; here it is M-orthogonalized against the
 * eigenmodes before it (twice) and M-normalized, so the eigenmodes are K-
 * and M-orthogonal to it.  Without it, the torque at O loads the modes of a
 * crank pinned at both ends, whose series for an end moment converges
 * slowly (the quasi-static deflection lacks 24 % with 7 modes, 7 % with
 * 20; bench/README.md "GMP transient: slider-crank"). */
static PetscErrorCode AttachmentColumn(RomWork *w, Mat Zm, PetscInt nt, PetscInt n)
{
  Mat       Zd;
  Vec       col, z, mz, d, t;
  PetscReal nz;

  PetscFunctionBeginUser;
  PetscCall(MatDenseGetColumnVecRead(Zm, n - 1, &col));
  PetscCall(VecDuplicate(col, &z));
  PetscCall(VecCopy(col, z));
  PetscCall(MatDenseRestoreColumnVecRead(Zm, n - 1, &col));
  PetscCall(VecDuplicate(z, &mz));
  PetscCall(MatDenseGetSubMatrix(Zm, PETSC_DECIDE, PETSC_DECIDE, nt, n - 1, &Zd)); /* the eigenmodes */
  PetscCall(MatCreateVecs(Zd, &d, &t));
  for (int pass = 0; pass < 2; pass++) {
    PetscCall(MatMult(w->Mf, z, mz));
    PetscCall(MatMultTranspose(Zd, mz, d));
    PetscCall(MatMult(Zd, d, t));
    PetscCall(VecAXPY(z, -1.0, t));
  }
  PetscCall(MatDenseRestoreSubMatrix(Zm, &Zd));
  PetscCall(MatMult(w->Mf, z, mz));
  PetscCall(VecDot(z, mz, &nz));
  PetscCall(VecScale(z, 1.0 / PetscSqrtReal(nz)));
  PetscCall(MatDenseGetColumnVecWrite(Zm, n - 1, &col));
  PetscCall(VecCopy(z, col));
  PetscCall(MatDenseRestoreColumnVecWrite(Zm, n - 1, &col));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&mz));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: the deformation modes of the dense pencil and the rigid ones
 * (Cholesky of K_ff) into Z (nf x n, column-major) */
static PetscErrorCode RootModes(PetscInt nf, PetscInt nt, PetscInt nm, PetscInt n, const PetscReal *kd, const PetscReal *md, PetscReal *R[], PetscReal *Ra, PetscReal *Z)
{
  PetscInt     nfound;
  PetscReal   *lam, *X, *L;
  PetscBLASInt nn, nrhs = 1, info;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(nf, &lam, nf * nf, &X, nf * nf, &L));
  PetscCall(DRDenseEigen(nf, kd, md, nm, 0, &nfound, lam, X));
  PetscCheck(nfound == nm, PETSC_COMM_SELF, PETSC_ERR_LIB, "GMP: LAPACK found %" PetscInt_FMT " of %" PetscInt_FMT " deformation modes", nfound, nm);
  for (PetscInt j = 0; j < nm; j++) {
    PetscReal s = DRModeSign(nf, X + j * nf);
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
  if (Ra) {
    LAPACKpotrs_("L", &nn, &nrhs, L, &nn, Ra, &nn, &info); /* the attachment column, orthogonalized by AttachmentColumn */
    PetscCall(PetscArraycpy(Z + (n - 1) * nf, Ra, nf));
  }
  PetscCall(PetscFree3(lam, X, L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Small constrained problems: LAPACK on rank 0 (DRDenseEigen for the
 * deformation modes, Cholesky of K_ff for the rigid ones), Z broadcast. */
static PetscErrorCode RomModesDense(DRGMPRomBuilder b, MPI_Comm comm, RomWork *w, Mat Zm)
{
  PetscInt     nt = b->mech->ntheta, nm = b->opt.nmodes, n = nt + nm, nf = w->nf, rs, re;
  Mat          Kd, Md;
  PetscReal   *kd, *md, *R[DR_GMP_MAXTHETA], *Z;
  PetscMPIInt  rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetOwnershipRangeColumn(w->N, &rs, &re));
  PetscCall(MatConvert(w->Kf, MATDENSE, MAT_INITIAL_MATRIX, &Kd));
  PetscCall(MatConvert(w->Mf, MATDENSE, MAT_INITIAL_MATRIX, &Md));
  PetscCall(DenseGatherRoot(Kd, &kd));
  PetscCall(DenseGatherRoot(Md, &md));
  for (PetscInt t = 0; t < nt; t++) {
    Vec        seq;
    VecScatter sc;
    PetscCall(VecScatterCreateToZero(w->rhs[t], &sc, &seq));
    PetscCall(VecScatterBegin(sc, w->rhs[t], seq, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, w->rhs[t], seq, INSERT_VALUES, SCATTER_FORWARD));
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
  PetscReal *Ra = NULL;
  if (w->ra) {
    Vec        seq;
    VecScatter sc;
    PetscCall(VecScatterCreateToZero(w->ra, &sc, &seq));
    PetscCall(VecScatterBegin(sc, w->ra, seq, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, w->ra, seq, INSERT_VALUES, SCATTER_FORWARD));
    if (rank == 0) {
      const PetscScalar *s;
      PetscCall(PetscMalloc1(nf, &Ra));
      PetscCall(VecGetArrayRead(seq, &s));
      PetscCall(PetscArraycpy(Ra, s, nf));
      PetscCall(VecRestoreArrayRead(seq, &s));
    }
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&seq));
  }
  PetscCall(PetscMalloc1(nf * n, &Z));
  /* rank 0's dense solves (a K_ff that leaves a free motion besides theta
   * fails there) are agreed: the farm group's other ranks do not wait in
   * the broadcast below */
  PetscCall(DRRootAgree(comm, rank ? PETSC_SUCCESS : RootModes(nf, nt, nm, n, kd, md, R, Ra, Z)));
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
  PetscCall(PetscFree(Ra));
  for (PetscInt t = 0; t < nt; t++) PetscCall(PetscFree(R[t]));
  PetscCall(PetscFree(kd));
  PetscCall(PetscFree(md));
  PetscCall(MatDestroy(&Kd));
  PetscCall(MatDestroy(&Md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Large constrained problems: SLEPc on the group, shift-and-invert at
 * sigma = 0 (K_ff is definite with theta fixed; DRModal's default shift
 * from trace(K)/trace(M) is far too negative for finely meshed beams, whose
 * rotational terms dominate the trace, and SLEPc then stalls).  The rigid
 * modes are solved first through the eigensolver's own KSP, so one MUMPS
 * Cholesky of K_ff serves both. */
static PetscErrorCode RomModesSparse(DRGMPRomBuilder b, MPI_Comm comm, RomWork *w, Mat Zm)
{
  PetscInt         nt = b->mech->ntheta, nm = b->opt.nmodes, nfound;
  DRModal          md;
  Vec             *modes;
  const PetscReal *f, *lam, *resid;
  KSP              ksp;
  Vec              za = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRModalCreate(comm, &md));
  PetscCall(DRModalSetOptionsPrefix(md, b->opt.prefix));
  PetscCall(DRModalSetOperators(md, w->Kf, w->Mf, "gmp mechanism (theta fixed)"));
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
  PetscCall(KSPSetOperators(ksp, w->Kf, w->Kf));
  for (PetscInt t = 0; t < nt; t++) {
    Vec c;
    PetscCall(MatDenseGetColumnVecWrite(Zm, t, &c));
    PetscCall(KSPSolve(ksp, w->rhs[t], c));
    PetscCall(MatDenseRestoreColumnVecWrite(Zm, t, &c));
  }
  if (w->ra) {
    PetscCall(VecDuplicate(w->ra, &za));
    PetscCall(KSPSolve(ksp, w->ra, za));
  }
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DRModalSolve(md));
  PetscCall(DRModalGetModes(md, &nfound, &f, &lam, &modes, &resid));
  PetscCheck(nfound >= nm, comm, PETSC_ERR_NOT_CONVERGED, "GMP: SLEPc found %" PetscInt_FMT " of %" PetscInt_FMT " deformation modes", nfound, nm);
  for (PetscInt j = 0; j < nm; j++) {
    Vec c;
    PetscCall(MatDenseGetColumnVecWrite(Zm, nt + j, &c));
    PetscCall(VecCopy(za && j == nm - 1 ? za : modes[j], c)); /* za: orthogonalized by AttachmentColumn */
    PetscCall(MatDenseRestoreColumnVecWrite(Zm, nt + j, &c));
  }
  PetscCall(VecDestroy(&za));
  PetscCall(DRModalDestroy(&md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Psi = N Z plus the directly driven DOFs, the reduced M and K (rank 0:
 * symmetrized, rigid rows of K zeroed) and the reduced eigenpairs. */
static PetscErrorCode RomProject(DRGMPRomBuilder b, MPI_Comm comm, const PetscReal theta[], RomWork *w, Mat Zm, PetscReal *xyz, DRGMPRom *rom)
{
  DRMechanism m  = b->mech;
  PetscInt    nt = m->ntheta, nm = b->opt.nmodes, n = nt + nm;
  Mat         Psi, MPsi, KPsi;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatMatMult(w->N, Zm, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &Psi));
  for (PetscInt t = 0; t < nt; t++) {
    Vec c;
    PetscCall(MatDenseGetColumnVecWrite(Psi, t, &c));
    PetscCall(VecAXPY(c, 1.0, w->Nt[t]));
    PetscCall(MatDenseRestoreColumnVecWrite(Psi, t, &c));
  }
  PetscCall(MatMatMult(w->M, Psi, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MPsi));
  PetscCall(MatMatMult(w->K, Psi, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &KPsi));
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
        PetscReal a = 0.5 * (rom->M[i + j * n] + rom->M[j + i * n]), c = 0.5 * (rom->K[i + j * n] + rom->K[j + i * n]);
        rom->M[i + j * n] = rom->M[j + i * n] = a;
        rom->K[i + j * n] = rom->K[j + i * n] = c;
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomBuilderCompute(DRGMPRomBuilder b, MPI_Comm comm, const PetscReal theta[], DRGMPRom *rom)
{
  DRMechanism m  = b->mech;
  PetscInt    nt = m->ntheta, n = nt + b->opt.nmodes, rs, re;
  PetscReal  *xyz;
  Mat         Zm;
  RomWork     w;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRGMP_Point, 0, 0, 0, 0));
  PetscCall(PetscMemzero(rom, sizeof(*rom)));
  PetscCall(PetscMemzero(&w, sizeof(w)));
  PetscCall(PetscMalloc1(m->nnodes * m->dim, &xyz));
  PetscCall(RomAssemble(b, comm, theta, xyz, &w));
  PetscCall(MatGetOwnershipRangeColumn(w.N, &rs, &re));
  PetscCall(MatCreateDense(comm, re - rs, PETSC_DECIDE, w.nf, n, NULL, &Zm));
  PetscCall(PetscLogEventBegin(DRGMP_PointEig, 0, 0, 0, 0));
  if (w.nf <= b->opt.dense_max) PetscCall(RomModesDense(b, comm, &w, Zm));
  else PetscCall(RomModesSparse(b, comm, &w, Zm));
  if (w.ra) PetscCall(AttachmentColumn(&w, Zm, nt, n));
  PetscCall(PetscLogEventEnd(DRGMP_PointEig, 0, 0, 0, 0));
  PetscCall(RomProject(b, comm, theta, &w, Zm, xyz, rom));
  PetscCall(MatDestroy(&Zm));
  for (PetscInt t = 0; t < nt; t++) {
    PetscCall(VecDestroy(&w.rhs[t]));
    PetscCall(VecDestroy(&w.Nt[t]));
  }
  PetscCall(VecDestroy(&w.ra));
  if (!w.cached && !w.keep) {
    PetscCall(MatDestroy(&w.Kf));
    PetscCall(MatDestroy(&w.Mf));
    PetscCall(MatDestroy(&w.K));
    PetscCall(MatDestroy(&w.M));
    PetscCall(MatDestroy(&w.N));
  }
  PetscCall(PetscLogEventEnd(DRGMP_Point, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismROM(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const DRGMPRomOptions *opt, DRGMPRom *rom)
{
  DRGMPRomBuilder b;

  PetscFunctionBeginUser;
  PetscCall(DRGMPRomBuilderCreate(m, opt, &b));
  PetscCall(DRGMPRomBuilderCompute(b, comm, theta, rom));
  PetscCall(DRGMPRomBuilderDestroy(&b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomDestroy(DRGMPRom *r)
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

PetscErrorCode DRGMPRomHold(const DRGMPRom *in, PetscInt t, DRGMPRom *out)
{
  PetscInt  n = in->n - 1, nd = in->ndof, k = 0;
  PetscBool ok;

  PetscFunctionBeginUser;
  PetscCheck(t >= 0 && t < in->nt && in->nt > 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GMP: rigid DOF %" PetscInt_FMT " of %" PetscInt_FMT " cannot be held (one must stay free)", t + 1, in->nt);
  PetscCall(PetscMemzero(out, sizeof(*out)));
  out->nt = in->nt - 1, out->nm = in->nm, out->n = n, out->ndof = nd, out->nnodes = in->nnodes, out->dim = in->dim;
  out->rigid_energy = in->rigid_energy;
  for (PetscInt j = 0; j < DR_GMP_MAXTHETA; j++)
    if (j != t) out->theta[k++] = in->theta[j];
  PetscCall(PetscMalloc1(n * n, &out->M));
  PetscCall(PetscMalloc1(n * n, &out->K));
  PetscCall(PetscMalloc2(n, &out->lambda, n * n, &out->Phi));
  for (PetscInt j = 0, jj = 0; j < in->n; j++) {
    if (j == t) continue;
    for (PetscInt i = 0, ii = 0; i < in->n; i++) {
      if (i == t) continue;
      out->M[ii + jj * n] = in->M[i + j * in->n];
      out->K[ii + jj * n] = in->K[i + j * in->n];
      ii++;
    }
    jj++;
  }
  if (in->Psi) {
    PetscCall(PetscMalloc1(nd * n, &out->Psi));
    PetscCall(PetscMalloc1(nd * n, &out->MPsi));
    for (PetscInt j = 0, jj = 0; j < in->n; j++) {
      if (j == t) continue;
      PetscCall(PetscArraycpy(&out->Psi[jj * nd], &in->Psi[j * nd], nd));
      PetscCall(PetscArraycpy(&out->MPsi[jj * nd], &in->MPsi[j * nd], nd));
      jj++;
    }
  }
  if (in->xyz) {
    PetscCall(PetscMalloc1(in->nnodes * in->dim, &out->xyz));
    PetscCall(PetscArraycpy(out->xyz, in->xyz, in->nnodes * in->dim));
  }
  PetscCall(DRGMPRomEigen(out, &ok));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "GMP: the reduced model with rigid DOF %" PetscInt_FMT " held has no positive definite mass", t + 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}
