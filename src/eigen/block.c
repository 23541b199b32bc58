/* Block shift-and-invert Lanczos for K x = lambda M x through a held
 * Cholesky factorization F of K - sigma M (DRModal's block path,
 * -PREFIX_block_size).
 *
 * Why: a component eigensolve of CMS is dominated by its shift-and-invert
 * solves, and SLEPc 3.18's Krylov-Schur applies the operator one vector at
 * a time (one MatSolve per vector: the whole factor is read from memory for
 * every column).  MUMPS solves a block of b right-hand sides with one pass
 * over the factor (MatMatSolve), a fraction of the cost per column
 * (bench/README.md "CMS: first-round component-mode floor", "CMS: component eigensolves by block Lanczos").  SLEPc has no block Krylov-Schur with
 * shift-and-invert; its block methods (subspace iteration, LOBPCG) need many
 * more operator applications.  So this file is the one hand-written
 * eigensolver of dynred.
 *
 * Method (Krylov-Schur in block form; Stewart, SIAM J. Matrix Anal. Appl.
 * 23 (2001) 601; Zhou and Saad, block Krylov-Schur, Numer. Algorithms 47
 * (2008) 341): the operator A = (K - sigma M)^{-1} M is self-adjoint in the
 * M inner product, with eigenvalues theta = 1 / (lambda - sigma), largest
 * for the lowest lambda.  The basis V (M-orthonormal, n x ncols) grows a
 * block at a time: W = F^{-1} (M V_last), orthogonalized against the
 * deflation space (block classical Gram-Schmidt twice) and against V: a
 * local pass against the last two blocks (the Lanczos recurrence; the whole
 * basis in the first expansion after a (re)start, where W also couples to
 * the kept Ritz vectors), then one full pass of classical Gram-Schmidt as
 * the reorthogonalization, a second one only where DGKS asks for it
 * (OrthogonalizeExpansion; two full passes were always needed without the
 * local one -- F^{-1} M v lies mostly in the converged directions, which a
 * full first pass cancels -- and read the basis twice as often), then
 * M-orthonormalized by Cholesky QR twice.  The projected matrix
 * T = V^T M A V is filled from the Gram-Schmidt coefficients, so A V_e = V_e T_ee + V_u C with V_e the expanded columns
 * and V_u the last, unexpanded block (C = T_ue).  Rayleigh-Ritz on T_ee
 * (LAPACK dsyevd) gives Ritz pairs (theta_i, y_i = V_e s_i) with the exact
 * residual || A y_i - theta_i y_i ||_M = || C s_i ||_2; a pair is converged
 * when that is below tol |theta_i| (SLEPc's relative criterion for the same
 * operator).  When the basis is full, the thick restart keeps the leading
 * k Ritz vectors: V_e <- V_e S_k, T_ee <- diag(theta_k), C <- C S_k, and the
 * expansion continues from V_u (the Krylov-Schur relation holds exactly).
 *
 * The start block is F^{-1} M R for a block R of pseudo-random numbers that
 * are a function of the global row and column only, so the basis lies in
 * range(A) (no null(M) components, as purification would ensure) and the
 * result does not depend on the number of ranks.  Every dense decision
 * (the Gram matrices, the Ritz values and vectors, the converged count) is
 * taken on rank 0 and broadcast, so the ranks of the communicator take the
 * same branches. */
#include <dynred/modal.h>
#include "modalimpl.h"
#include <petscblaslapack.h>

void dsyevd_(const char *jobz, const char *uplo, const PetscBLASInt *n, PetscReal *a, const PetscBLASInt *lda, PetscReal *w, PetscReal *work, const PetscBLASInt *lwork, PetscBLASInt *iwork, const PetscBLASInt *liwork, PetscBLASInt *info, size_t, size_t);

typedef struct {
  MPI_Comm     comm;
  PetscInt     nl, b, cap, nd;
  PetscBool    count; /* solves counted in DREigenBlockColumns */
  PetscBLASInt lda;
  PetscScalar *V, *MV;  /* nl x cap, column-major: the basis and M times it */
  PetscScalar *D, *MD;  /* nl x nd: the deflation space and M times it */
  PetscReal   *T;       /* cap x cap, the same on every rank */
  Mat          M, F, Bw, Xw;
  Mat          Pm; /* M Bw as a PETSc product (AIJ M): set up once, its arrays placed per block */
  Vec          x, y;
} Block;

static PetscInt dr_eigen_block_columns = 0; /* columns solved on this process */

PetscErrorCode DREigenBlockColumns(PetscInt *ncols)
{
  PetscFunctionBeginUser;
  *ncols = dr_eigen_block_columns;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dst = M src, ncols columns (a dense M in one product: a column at a time
 * would read all of M per column) */
static PetscErrorCode MultM(Block *L, const PetscScalar *src, PetscScalar *dst, PetscInt ncols)
{
  PetscBool dense;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)L->M, MATSEQDENSE, &dense));
  if (dense && ncols > 0) {
    const PetscScalar *a;
    PetscInt           lda;
    PetscBLASInt       n, k, la;
    PetscScalar        one = 1, zero = 0;
    PetscCall(MatDenseGetArrayRead(L->M, &a));
    PetscCall(MatDenseGetLDA(L->M, &lda));
    PetscCall(PetscBLASIntCast(L->nl, &n));
    PetscCall(PetscBLASIntCast(ncols, &k));
    PetscCall(PetscBLASIntCast(lda, &la));
    PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &n, &k, &n, &one, a, &la, src, &L->lda, &zero, dst, &L->lda));
    PetscCall(MatDenseRestoreArrayRead(L->M, &a));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (L->Pm && ncols == L->b) { /* one sparse-times-dense product: M is read once per few columns, not once per column */
    PetscCall(MatDensePlaceArray(L->Bw, (PetscScalar *)src));
    PetscCall(MatDensePlaceArray(L->Pm, dst));
    PetscCall(MatProductNumeric(L->Pm));
    PetscCall(MatDenseResetArray(L->Bw));
    PetscCall(MatDenseResetArray(L->Pm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt j = 0; j < ncols; j++) {
    PetscCall(VecPlaceArray(L->x, src + j * L->nl));
    PetscCall(VecPlaceArray(L->y, dst + j * L->nl));
    PetscCall(MatMult(L->M, L->x, L->y));
    PetscCall(VecResetArray(L->x));
    PetscCall(VecResetArray(L->y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dst = F^{-1} src, one block of b columns */
static PetscErrorCode SolveBlock(Block *L, PetscScalar *src, PetscScalar *dst)
{
  PetscFunctionBeginUser;
  PetscCall(MatDensePlaceArray(L->Bw, src));
  PetscCall(MatDensePlaceArray(L->Xw, dst));
  PetscCall(MatMatSolve(L->F, L->Bw, L->Xw));
  PetscCall(MatDenseResetArray(L->Bw));
  PetscCall(MatDenseResetArray(L->Xw));
  if (L->count) dr_eigen_block_columns += L->b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G (na x nb) = A^T B summed over the ranks */
static PetscErrorCode Gram(Block *L, const PetscScalar *A, PetscInt na, const PetscScalar *B, PetscInt nb, PetscReal *G)
{
  PetscBLASInt m, n, k;
  PetscScalar  one = 1, zero = 0;

  PetscFunctionBeginUser;
  if (na == 0 || nb == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscBLASIntCast(na, &m));
  PetscCall(PetscBLASIntCast(nb, &n));
  PetscCall(PetscBLASIntCast(L->nl, &k));
  if (k > 0) PetscCallBLAS("BLASgemm", BLASgemm_("T", "N", &m, &n, &k, &one, A, &L->lda, B, &L->lda, &zero, G, &m));
  else
    for (PetscInt i = 0; i < na * nb; i++) G[i] = 0;
  /* reduced to rank 0 and broadcast, not MPI_Allreduce: an allreduce may
   * round differently on different ranks (recursive doubling), and the
   * ranks must take the same branches */
  {
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(L->comm, &rank));
    PetscCallMPI(MPI_Reduce(rank ? G : MPI_IN_PLACE, G, (PetscMPIInt)(na * nb), MPIU_REAL, MPIU_SUM, 0, L->comm));
    PetscCallMPI(MPI_Bcast(G, (PetscMPIInt)(na * nb), MPIU_REAL, 0, L->comm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One classical Gram-Schmidt pass of W (b columns) against Q (nq columns):
 * h = (M Q)^T W, W -= Q h; h (nq x b) added to hsum (leading dimension ld)
 * at row r0 and its squared column norms put in hnorm2, each when given. */
static PetscErrorCode OnePass(Block *L, const PetscScalar *Q, const PetscScalar *MQ, PetscInt nq, PetscScalar *W, PetscReal *hsum, PetscInt ld, PetscInt r0, PetscReal *hnorm2)
{
  PetscReal   *h;
  PetscBLASInt m, n, k;
  PetscScalar  one = 1, mone = -1;

  PetscFunctionBeginUser;
  if (hnorm2)
    for (PetscInt j = 0; j < L->b; j++) hnorm2[j] = 0;
  if (nq == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(nq * L->b, &h));
  PetscCall(PetscBLASIntCast(L->nl, &m));
  PetscCall(PetscBLASIntCast(L->b, &n));
  PetscCall(PetscBLASIntCast(nq, &k));
  PetscCall(Gram(L, MQ, nq, W, L->b, h));
  if (m > 0) PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &m, &n, &k, &mone, Q, &L->lda, h, &k, &one, W, &L->lda));
  for (PetscInt j = 0; j < L->b; j++)
    for (PetscInt i = 0; i < nq; i++) {
      if (hsum) hsum[r0 + i + j * ld] += h[i + j * nq];
      if (hnorm2) hnorm2[j] += h[i + j * nq] * h[i + j * nq];
    }
  PetscCall(PetscFree(h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W -= Q h twice (classical Gram-Schmidt with one reorthogonalization):
 * against the deflation space, and for a fresh random block */
static PetscErrorCode Orthogonalize(Block *L, const PetscScalar *Q, const PetscScalar *MQ, PetscInt nq, PetscScalar *W)
{
  PetscFunctionBeginUser;
  for (PetscInt pass = 0; pass < 2; pass++) PetscCall(OnePass(L, Q, MQ, nq, W, NULL, 0, 0, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W (b columns, the operator applied to the last block, columns [ne, ncols)
 * of V) M-orthogonalized against V's ncols columns; h (ncols x b) the
 * coefficients.  In exact arithmetic W couples only to the last block and
 * the one before it, except in the first expansion after a (re)start, where
 * it couples to every kept Ritz vector too (the arrow of the Krylov-Schur
 * relation; lo = 0 there): a local pass against columns [lo, ncols) removes
 * that part, reading 2 blocks instead of the whole basis, and one full pass
 * of classical Gram-Schmidt removes what the loss of orthogonality left
 * along the older columns (relative size about eps times the norm ratio of
 * the local pass).  That full pass is the reorthogonalization of CGS2; a
 * second one is made only where DGKS asks for it (Daniel, Gragg, Kaufman,
 * Stewart, Math. Comp. 30 (1976) 772: the full pass removed more than W
 * kept, ||h_j|| > ||w_j||_M, i.e. the norm fell below 1/sqrt(2); ranks
 * decide alike: both norms come from rank 0's reductions).  Two passes over
 * the whole basis read it four times per block; this reads it twice (the
 * memory-bound half of the component eigensolve, bench/README.md "CMS on the CalculiX bar at 200 modes").
 * MW = M W and G = W^T M W (b x b, for CholQR) on return.  *extra counts
 * the DGKS passes. */
static PetscErrorCode OrthogonalizeExpansion(Block *L, PetscInt lo, PetscInt ncols, PetscScalar *W, PetscScalar *MW, PetscReal *h, PetscReal *G, PetscInt *extra)
{
  PetscReal *hn;
  PetscInt   b = L->b;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(b, &hn));
  for (PetscInt i = 0; i < ncols * b; i++) h[i] = 0;
  PetscCall(OnePass(L, L->V + lo * L->nl, L->MV + lo * L->nl, ncols - lo, W, h, ncols, lo, hn)); /* local */
  for (PetscInt pass = 0; pass < 3; pass++) {
    PetscBool again = PETSC_FALSE;
    PetscCall(OnePass(L, L->V, L->MV, ncols, W, h, ncols, 0, hn));
    PetscCall(MultM(L, W, MW, b));
    PetscCall(Gram(L, W, b, MW, b, G));
    for (PetscInt j = 0; j < b; j++)
      if (hn[j] > G[j + j * b]) again = PETSC_TRUE;
    if (!again) break;
    (*extra)++;
  }
  PetscCall(PetscFree(hn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W, MW <- W R^{-1}, MW R^{-1} with W^T M W = R^T R, twice (CholQR2);
 * R (b x b, upper, column-major) the product of the two.  *ok false when a
 * Cholesky factorization fails (W rank-deficient in the M norm).  G0, when
 * given, is W^T M W already summed over the ranks (the first pass's Gram). */
static PetscErrorCode CholQR(Block *L, PetscScalar *W, PetscScalar *MW, const PetscReal *G0, PetscReal *R, PetscBool *ok)
{
  PetscInt     b = L->b;
  PetscBLASInt nb, m, info = 0;
  PetscReal   *G, *R1;
  PetscScalar  one = 1;
  PetscMPIInt  rank;

  PetscFunctionBeginUser;
  *ok = PETSC_TRUE;
  PetscCallMPI(MPI_Comm_rank(L->comm, &rank));
  PetscCall(PetscBLASIntCast(b, &nb));
  PetscCall(PetscBLASIntCast(L->nl, &m));
  PetscCall(PetscCalloc2(b * b, &G, b * b, &R1));
  PetscCall(PetscArrayzero(R, b * b));
  for (PetscInt i = 0; i < b; i++) R[i + i * b] = 1;
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass == 0 && G0) PetscCall(PetscArraycpy(G, G0, b * b));
    else PetscCall(Gram(L, W, b, MW, b, G));
    for (PetscInt j = 0; j < b; j++) /* symmetric: the upper triangle is read */
      for (PetscInt i = 0; i < j; i++) G[i + j * b] = 0.5 * (G[i + j * b] + G[j + i * b]);
    PetscCallBLAS("LAPACKpotrf", LAPACKpotrf_("U", &nb, G, &nb, &info));
    {
      int inf = (int)info;
      PetscCallMPI(MPI_Bcast(&inf, 1, MPI_INT, 0, L->comm));
      info = (PetscBLASInt)inf;
    }
    if (info) {
      *ok = PETSC_FALSE;
      break;
    }
    /* a tiny pivot relative to the first pass: rank-deficient in practice */
    if (pass == 0) {
      PetscReal dmin = PETSC_MAX_REAL, dmax = 0;
      for (PetscInt i = 0; i < b; i++) {
        dmin = PetscMin(dmin, PetscAbsReal(G[i + i * b]));
        dmax = PetscMax(dmax, PetscAbsReal(G[i + i * b]));
      }
      PetscCallMPI(MPI_Bcast(&dmin, 1, MPIU_REAL, 0, L->comm));
      PetscCallMPI(MPI_Bcast(&dmax, 1, MPIU_REAL, 0, L->comm));
      if (!(dmin > 1e-6 * dmax)) {
        *ok = PETSC_FALSE;
        break;
      }
    }
    for (PetscInt j = 0; j < b; j++)
      for (PetscInt i = j + 1; i < b; i++) G[i + j * b] = 0;
    if (m > 0) {
      PetscCallBLAS("BLAStrsm", BLAStrsm_("R", "U", "N", "N", &m, &nb, &one, G, &nb, W, &L->lda));
      PetscCallBLAS("BLAStrsm", BLAStrsm_("R", "U", "N", "N", &m, &nb, &one, G, &nb, MW, &L->lda));
    }
    /* R <- G R (upper times upper) */
    for (PetscInt j = 0; j < b; j++)
      for (PetscInt i = 0; i <= j; i++) {
        PetscReal s = 0;
        for (PetscInt l = i; l <= j; l++) s += G[i + l * b] * R[l + j * b];
        R1[i + j * b] = s;
      }
    for (PetscInt i = 0; i < b * b; i++) R[i] = R1[i];
  }
  PetscCall(PetscFree2(G, R1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pseudo-random number in [-1, 1) from the global row and the column
 * (splitmix64): the same on any number of ranks. */
static PetscReal Hash(PetscInt64 row, PetscInt64 col)
{
  uint64_t z = (uint64_t)row * 0x9E3779B97F4A7C15ULL + (uint64_t)(col + 1) * 0xD1B54A32D192ED03ULL;
  z          = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z          = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z          = z ^ (z >> 31);
  return (PetscReal)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* A new block at W (M W in MW): F^{-1} M R for pseudo-random R (column
 * seeds from `seed`), M-orthogonal to the deflation space and to the first
 * nq columns of V, M-orthonormal. */
static PetscErrorCode RandomBlock(Block *L, PetscInt rstart, PetscInt seed, PetscInt nq, PetscScalar *W, PetscScalar *MW)
{
  PetscReal *R;
  PetscBool  ok = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(L->b * L->b, &R));
  for (PetscInt attempt = 0; attempt < 3 && !ok; attempt++) {
    for (PetscInt j = 0; j < L->b; j++)
      for (PetscInt i = 0; i < L->nl; i++) W[i + j * L->nl] = Hash(rstart + i, seed + j + attempt * 7919);
    PetscCall(MultM(L, W, MW, L->b));
    PetscCall(SolveBlock(L, MW, W));
    PetscCall(Orthogonalize(L, L->D, L->MD, L->nd, W));
    PetscCall(Orthogonalize(L, L->V, L->MV, nq, W));
    PetscCall(MultM(L, W, MW, L->b));
    PetscCall(CholQR(L, W, MW, NULL, R, &ok));
  }
  PetscCall(PetscFree(R));
  PetscCheck(ok, L->comm, PETSC_ERR_CONV_FAILED, "block eigensolver: no new direction M-orthogonal to %" PetscInt_FMT " basis and %" PetscInt_FMT " deflation vectors (the problem has fewer DOFs than the basis needs)", nq, L->nd);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rayleigh-Ritz on T_ee (ne x ne), decided on rank 0 and broadcast: theta
 * descending and S (ne x ne, columns the Ritz vectors' coefficients). */
static PetscErrorCode RitzPairs(Block *L, PetscInt ne, PetscReal *theta, PetscReal *S)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(L->comm, &rank));
  if (!rank) {
    PetscBLASInt n, lwork, liwork, iq, *iwork, info = 0;
    PetscReal   *A, *w, *work, q;
    PetscCall(PetscBLASIntCast(ne, &n));
    PetscCall(PetscMalloc2(ne * ne, &A, ne, &w));
    for (PetscInt j = 0; j < ne; j++)
      for (PetscInt i = 0; i < ne; i++) A[i + j * ne] = L->T[i + j * L->cap];
    /* divide and conquer: all Ritz vectors are wanted, and dsyev's
     * implicit QR (dsteqr) applies every rotation to them, O(ne^3) with a
     * large constant (3 % of a CMS job's time on a 13k-DOF part) */
    lwork  = -1;
    liwork = -1;
    dsyevd_("V", "U", &n, A, &n, w, &q, &lwork, &iq, &liwork, &info, 1, 1);
    lwork  = (PetscBLASInt)q;
    liwork = iq;
    PetscCall(PetscMalloc2(lwork, &work, liwork, &iwork));
    dsyevd_("V", "U", &n, A, &n, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    PetscCall(PetscFree2(work, iwork));
    PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "block eigensolver: dsyevd failed (info %d)", (int)info);
    for (PetscInt i = 0; i < ne; i++) { /* descending */
      theta[i] = w[ne - 1 - i];
      for (PetscInt r = 0; r < ne; r++) S[r + i * ne] = A[r + (ne - 1 - i) * ne];
    }
    PetscCall(PetscFree2(A, w));
  }
  PetscCallMPI(MPI_Bcast(theta, (PetscMPIInt)ne, MPIU_REAL, 0, L->comm));
  PetscCallMPI(MPI_Bcast(S, (PetscMPIInt)(ne * ne), MPIU_REAL, 0, L->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* out (nl x k) = X (nl x ne) S (ne x k) */
static PetscErrorCode Combine(Block *L, const PetscScalar *X, PetscInt ne, const PetscReal *S, PetscInt k, PetscScalar *out)
{
  PetscBLASInt m, n, kk;
  PetscScalar  one = 1, zero = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(L->nl, &m));
  PetscCall(PetscBLASIntCast(k, &n));
  PetscCall(PetscBLASIntCast(ne, &kk));
  if (m > 0 && n > 0) PetscCallBLAS("BLASgemm", BLASgemm_("N", "N", &m, &n, &kk, &one, X, &L->lda, S, &kk, &zero, out, &L->lda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModalBlockSolve(DRModal m, Mat F, PetscInt nwant, PetscInt *nconv, PetscReal **lam, Vec **vecs)
{
  Block        L;
  PetscInt     n, rstart, b = m->block, pmax, ne, ncols, last = 0, iter = 0, restarts = 0, karrow = 0, extra = 0;
  PetscReal   *theta, *S, *res, *Cs;
  PetscScalar *Y;
  PetscBool    done = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&L, sizeof(L)));
  L.comm = m->comm;
  L.M    = m->M;
  L.F    = F;
  L.nd   = m->ndefl;
  L.count = (PetscBool)!m->uncounted;
  PetscCall(MatGetSize(m->K, &n, NULL));
  PetscCall(MatGetLocalSize(m->K, &L.nl, NULL));
  PetscCall(MatGetOwnershipRange(m->K, &rstart, NULL));
  /* the basis: block_basis (default 3) times the wanted count and at least
   * two blocks beyond it, in whole blocks.  A block Krylov space of
   * dimension p has polynomial degree p / b only, so it needs more room
   * than SLEPc's ncv = 2 nev: measured (bench/README.md "CMS: component eigensolves by block Lanczos") 2 -> 3 cut the
   * solved columns by a third at b = 8; 4 saved little more while the
   * Gram-Schmidt work grows like n p^2. */
  L.b  = b;
  pmax = DRModalBlockBasis(m, nwant);
  L.cap = pmax + b;
  PetscCheck(L.cap + L.nd <= n, m->comm, PETSC_ERR_ARG_OUTOFRANGE, "%s: block eigensolver needs %" PetscInt_FMT " basis vectors for %" PetscInt_FMT " modes but the problem has %" PetscInt_FMT " DOFs", m->what, L.cap + L.nd, nwant, n);
  PetscCall(PetscBLASIntCast(PetscMax(L.nl, 1), &L.lda));
  PetscCall(PetscMalloc2(L.nl * L.cap + 1, &L.V, L.nl * L.cap + 1, &L.MV));
  PetscCall(PetscCalloc1(L.cap * L.cap, &L.T));
  PetscCall(PetscMalloc4(pmax, &theta, pmax * pmax, &S, pmax, &res, b * pmax, &Cs));
  PetscCall(VecCreateMPIWithArray(m->comm, 1, L.nl, n, NULL, &L.x));
  PetscCall(VecCreateMPIWithArray(m->comm, 1, L.nl, n, NULL, &L.y));
  PetscCall(MatCreateDense(m->comm, L.nl, PETSC_DECIDE, n, b, NULL, &L.Bw));
  PetscCall(MatCreateDense(m->comm, L.nl, PETSC_DECIDE, n, b, NULL, &L.Xw));
  {
    PetscBool dense;
    PetscCall(PetscObjectTypeCompare((PetscObject)L.M, MATSEQDENSE, &dense));
    if (!dense) {
      PetscCall(MatCreateDense(m->comm, L.nl, PETSC_DECIDE, n, b, NULL, &L.Pm));
      PetscCall(MatProductCreateWithMat(L.M, L.Bw, NULL, L.Pm));
      PetscCall(MatProductSetType(L.Pm, MATPRODUCT_AB));
      PetscCall(MatProductSetFromOptions(L.Pm));
      PetscCall(MatProductSymbolic(L.Pm));
    }
  }
  if (L.nd) {
    PetscCall(PetscMalloc2(L.nl * L.nd + 1, &L.D, L.nl * L.nd + 1, &L.MD));
    for (PetscInt j = 0; j < L.nd; j++) {
      const PetscScalar *d;
      PetscCall(VecGetArrayRead(m->defl[j], &d));
      PetscCall(PetscArraycpy(L.D + j * L.nl, d, L.nl));
      PetscCall(VecRestoreArrayRead(m->defl[j], &d));
    }
    PetscCall(MultM(&L, L.D, L.MD, L.nd));
  }
  PetscCall(RandomBlock(&L, rstart, 0, 0, L.V, L.MV));
  ne    = 0;
  ncols = b;
  while (!done) {
    PetscScalar *W = L.V + ncols * L.nl, *MW = L.MV + ncols * L.nl;
    PetscReal   *h, *R, *G;
    PetscBool    ok;

    /* expand the unexpanded block [ne, ne + b) */
    PetscCall(PetscMalloc3(ncols * b, &h, b * b, &R, b * b, &G));
    PetscCall(SolveBlock(&L, L.MV + ne * L.nl, W));
    PetscCall(PetscLogEventBegin(DR_EIGEN_BlockOrth, 0, 0, 0, 0));
    PetscCall(Orthogonalize(&L, L.D, L.MD, L.nd, W));
    PetscCall(OrthogonalizeExpansion(&L, ne == karrow ? 0 : ne - b, ncols, W, MW, h, G, &extra));
    PetscCall(CholQR(&L, W, MW, G, R, &ok));
    PetscCall(PetscLogEventEnd(DR_EIGEN_BlockOrth, 0, 0, 0, 0));
    if (!ok) { /* an invariant subspace: continue with a fresh direction, no coupling */
      PetscCall(RandomBlock(&L, rstart, 1000 * (iter + 1), ncols, W, MW));
      for (PetscInt i = 0; i < b * b; i++) R[i] = 0;
    }
    for (PetscInt j = 0; j < b; j++) {
      for (PetscInt i = 0; i < ncols; i++) {
        L.T[i + (ne + j) * L.cap] = h[i + j * ncols];
        L.T[(ne + j) + i * L.cap] = h[i + j * ncols];
      }
      for (PetscInt i = 0; i < b; i++) {
        L.T[(ncols + i) + (ne + j) * L.cap] = R[i + j * b];
        L.T[(ne + j) + (ncols + i) * L.cap] = R[i + j * b];
      }
    }
    PetscCall(PetscFree3(h, R, G));
    ne += b;
    ncols += b;
    iter++;
    if (ne < nwant || (ne + b <= pmax && ne - last < PetscMax(b, pmax / 8))) continue;
    last = ne;
    /* Rayleigh-Ritz and the residuals || C s_i || */
    {
      PetscInt nc = 0;
      PetscCall(PetscLogEventBegin(DR_EIGEN_BlockRitz, 0, 0, 0, 0));
      PetscCall(RitzPairs(&L, ne, theta, S));
      for (PetscInt i = 0; i < ne; i++) {
        PetscReal r2 = 0;
        for (PetscInt q = 0; q < b; q++) {
          PetscReal c = 0;
          for (PetscInt l = 0; l < ne; l++) c += L.T[(ne + q) + l * L.cap] * S[l + i * ne];
          Cs[q + i * b] = c;
          r2 += c * c;
        }
        res[i] = PetscSqrtReal(r2) / PetscAbsReal(theta[i]);
      }
      while (nc < ne && res[nc] <= m->tol) nc++;
      PetscCallMPI(MPI_Bcast(&nc, 1, MPIU_INT, 0, L.comm)); /* rank 0 decides */
      if (PetscDefined(USE_INFO)) PetscCall(PetscInfo(NULL, "%s: block eigensolver: %" PetscInt_FMT " columns, %" PetscInt_FMT " of %" PetscInt_FMT " converged\n", m->what, ne, nc, nwant));
      if (DRTime() - m->last >= 5.0) {
        m->last = DRTime();
        PetscCall(DRProgress(m->comm, "%seigensolve (block %" PetscInt_FMT "): %" PetscInt_FMT " of %" PetscInt_FMT " converged, restart %" PetscInt_FMT, m->prefix, b, nc, nwant, restarts));
      }
      if (nc >= nwant) {
        PetscCall(PetscLogEventEnd(DR_EIGEN_BlockRitz, 0, 0, 0, 0));
        done = PETSC_TRUE;
        break;
      }
      if (ne + b <= pmax) {
        PetscCall(PetscLogEventEnd(DR_EIGEN_BlockRitz, 0, 0, 0, 0));
        continue; /* room for another block */
      }
      PetscCheck(restarts < 1000, m->comm, PETSC_ERR_CONV_FAILED, "%s: block eigensolver: %" PetscInt_FMT " of %" PetscInt_FMT " modes converged after 1000 restarts; try -%sblock_size 0 (SLEPc Krylov-Schur)", m->what, nc, nwant, m->prefix);
      restarts++;
      /* thick restart: keep k Ritz vectors, the unexpanded block after them */
      {
        PetscInt     k = PetscMin(ne - b, PetscMax(nwant, nc + (ne - nc) / 2));
        PetscScalar *tmp;
        PetscCall(PetscMalloc1(L.nl * k + 1, &tmp));
        PetscCall(Combine(&L, L.V, ne, S, k, tmp));
        PetscCall(PetscArraycpy(L.V, tmp, L.nl * k));
        PetscCall(Combine(&L, L.MV, ne, S, k, tmp));
        PetscCall(PetscArraycpy(L.MV, tmp, L.nl * k));
        PetscCall(PetscFree(tmp));
        PetscCall(PetscArraymove(L.V + k * L.nl, L.V + ne * L.nl, L.nl * b));
        PetscCall(PetscArraymove(L.MV + k * L.nl, L.MV + ne * L.nl, L.nl * b));
        PetscCall(PetscArrayzero(L.T, L.cap * L.cap));
        for (PetscInt i = 0; i < k; i++) {
          L.T[i + i * L.cap] = theta[i];
          for (PetscInt q = 0; q < b; q++) {
            L.T[(k + q) + i * L.cap] = Cs[q + i * b];
            L.T[i + (k + q) * L.cap] = Cs[q + i * b];
          }
        }
        ne     = k;
        ncols  = k + b;
        last   = k;
        karrow = k;
      }
      PetscCall(PetscLogEventEnd(DR_EIGEN_BlockRitz, 0, 0, 0, 0));
    }
  }
  PetscCall(PetscInfo(NULL, "%s: block eigensolver: %" PetscInt_FMT " expansions, %" PetscInt_FMT " restarts, %" PetscInt_FMT " second full Gram-Schmidt passes (DGKS)\n", m->what, iter, restarts, extra));
  /* the wanted Ritz pairs: lambda = sigma + 1/theta, ascending */
  PetscCall(PetscMalloc1(L.nl * nwant + 1, &Y));
  PetscCall(Combine(&L, L.V, ne, S, nwant, Y));
  PetscCall(PetscMalloc1(nwant + 1, lam));
  {
    Vec t;
    PetscCall(MatCreateVecs(m->K, &t, NULL));
    PetscCall(VecDuplicateVecs(t, nwant + 1, vecs));
    PetscCall(VecDestroy(&t));
  }
  for (PetscInt i = 0; i < nwant; i++) {
    PetscScalar *a;
    (*lam)[i] = m->sigma + 1.0 / theta[i];
    PetscCall(VecGetArray((*vecs)[i], &a));
    PetscCall(PetscArraycpy(a, Y + i * L.nl, L.nl));
    PetscCall(VecRestoreArray((*vecs)[i], &a));
  }
  *nconv = nwant;
  PetscCall(PetscFree(Y));
  PetscCall(PetscFree4(theta, S, res, Cs));
  PetscCall(PetscFree2(L.V, L.MV));
  PetscCall(PetscFree(L.T));
  if (L.nd) PetscCall(PetscFree2(L.D, L.MD));
  PetscCall(VecDestroy(&L.x));
  PetscCall(VecDestroy(&L.y));
  PetscCall(MatDestroy(&L.Bw));
  PetscCall(MatDestroy(&L.Xw));
  PetscCall(MatDestroy(&L.Pm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
