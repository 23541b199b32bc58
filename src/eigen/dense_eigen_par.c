/* The dense generalized eigenproblem of DRDenseEigen on every rank of a
 * communicator: ScaLAPACK (see eigen.h, DRDenseEigenPar).
 *
 * The same path as the serial DenseEigenCore (dense_eigen.c), step for
 * step, on a 2-D block-cyclic grid of all the ranks: the shifted, inverted
 * pencil M x = mu (K - sigma M) x, pdpotrf (K - sigma M = U^T U), pdsygst
 * (C = U^-T M U^-1), pdsyevr (MRRR, the wanted part of the spectrum only),
 * pdtrsm (x = U^-1 y).  The inputs live on rank 0 (where the callers
 * assemble them) and are spread by pdgemr2d; the vectors come back to
 * rank 0 the same way.  Normalization: with |y| = 1, x^T (K - sigma M) x = 1
 * and x^T M x = y^T C y = mu, so x / sqrt(mu) is M-normalized without the
 * serial path's M Z product.  Memory: 3 n^2 / p per rank for the
 * distributed A, B, Z, against 3 n^2 + 2 n m on the one rank of the
 * serial path. */
#include <dynred/eigen.h>
#include <limits.h>
#include "denseimpl.h"

#if !defined(DR_NO_SCALAPACK)
int  Csys2blacs_handle(MPI_Comm);
void Cfree_blacs_system_handle(int);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
int  numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *, const int *, const int *, const int *, const int *, int *);
void pdgemr2d_(const int *, const int *, const double *, const int *, const int *, const int *, double *, const int *, const int *, const int *, const int *);
void pdpotrf_(const char *, const int *, double *, const int *, const int *, const int *, int *, size_t);
void pdsygst_(const int *, const char *, const int *, double *, const int *, const int *, const int *, const double *, const int *, const int *, const int *, double *, int *, size_t);
void pdsyevr_(const char *, const char *, const char *, const int *, double *, const int *, const int *, const int *, const double *, const double *, const int *, const int *, int *, int *, double *, double *, const int *, const int *, const int *, double *, const int *, int *, const int *, int *, size_t, size_t, size_t);
void pdtrsm_(const char *, const char *, const char *, const char *, const int *, const int *, const double *, const double *, const int *, const int *, const int *, double *, const int *, const int *, const int *, size_t, size_t, size_t, size_t);

#define DR_SCALAPACK_NB 64 /* the block of the block-cyclic layout (ScaLAPACK's usual 32-128) */

/* A descriptor of the n x m matrix held whole by rank 0 (the 1 x 1 grid
 * ctx0); -1 as its context on the other ranks (pdgemr2d's convention). */
static PetscErrorCode DescRoot(int ctx0, int n, int m, int *desc)
{
  int zero = 0, info = 0, ld = PetscMax(1, n), nb = DR_SCALAPACK_NB;

  PetscFunctionBeginUser;
  for (int i = 0; i < 9; i++) desc[i] = 0;
  desc[1] = -1;
  if (ctx0 >= 0) {
    descinit_(desc, &n, &m, &nb, &nb, &zero, &zero, &ctx0, &ld, &info);
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "ScaLAPACK descinit: info %d", info);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DescDist(int ctx, int n, int m, int myr, int myc, int pr, int pc, int *desc, size_t *nloc)
{
  int zero = 0, info = 0, nb = DR_SCALAPACK_NB, lr = numroc_(&n, &nb, &myr, &zero, &pr), lc = numroc_(&m, &nb, &myc, &zero, &pc), ld = PetscMax(1, lr);

  PetscFunctionBeginUser;
  descinit_(desc, &n, &m, &nb, &nb, &zero, &zero, &ctx, &ld, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "ScaLAPACK descinit: info %d", info);
  *nloc = (size_t)ld * (size_t)PetscMax(1, lc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ParCore(MPI_Comm comm, PetscInt n_, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscBool vec, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscInt *minor)
{
  PetscMPIInt rank, size;
  int         n, pr, pc, myr, myc, ctx, ctx0, h, h0, one = 1, dA[9], d0[9], dX0[9], info = 0, m = 0, want = -1, off = 0, jz, nz = 0, il = 1, iu = 1, ibtype = 1, lwork = -1, liwork = -1, iwq = 0;
  PetscReal   tr[2] = {0, 0}, sigma, vl = 0, vu = 0, scale = 1, wq = 0, *A, *B, *Z = NULL, *w, *work;
  int        *iwork;
  size_t      nloc;
  char        range;
  const char *jobz = vec ? "V" : "N"; /* the same on every rank (X exists on rank 0 only) */

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCheck(n_ <= INT_MAX / 2, comm, PETSC_ERR_SUP, "DRDenseEigenPar: n = %" PetscInt_FMT " exceeds ScaLAPACK's integer range", n_);
  n = (int)n_;
  /* the grid: pr x pc = size, pr the largest divisor <= sqrt(size) */
  for (pr = (int)PetscSqrtReal((PetscReal)size); pr > 1 && size % pr; pr--) {}
  pc = size / pr;
  h = Csys2blacs_handle(comm), h0 = Csys2blacs_handle(comm);
  ctx = h, ctx0 = h0;
  Cblacs_gridinit(&ctx, "R", pr, pc);
  Cblacs_gridinit(&ctx0, "R", 1, 1); /* rank 0 alone; -1 elsewhere */
  Cblacs_gridinfo(ctx, &pr, &pc, &myr, &myc);
  if (rank) ctx0 = -1;
  PetscCall(DescDist(ctx, n, n, myr, myc, pr, pc, dA, &nloc));
  PetscCall(DescRoot(ctx0, n, n, d0));
  PetscCall(PetscMalloc3(nloc, &A, nloc, &B, n + 1, &w));
  /* sigma from the traces, on rank 0 */
  if (!rank)
    for (int i = 0; i < n; i++) tr[0] += K[i + (size_t)i * n], tr[1] += M[i + (size_t)i * n];
  PetscCallMPI(MPI_Bcast(tr, 2, MPIU_REAL, 0, comm));
  sigma = DRDenseShift(tr[0], tr[1]);
  pdgemr2d_(&n, &n, M, &one, &one, d0, A, &one, &one, dA, &ctx);
  pdgemr2d_(&n, &n, K, &one, &one, d0, B, &one, &one, dA, &ctx);
  for (size_t i = 0; i < nloc; i++) B[i] -= sigma * A[i]; /* same layout: elementwise */
  if (nwant > 0) {
    /* at least one block of vectors: with fewer, pdsyevr hands its
     * back-transformation (pdormtr) less workspace than it needs (ScaLAPACK
     * 2.2: (NP - NB)(MQ - NB) < 0 when MQ < NB; "PDORMTR parameter 16");
     * the extra ones are dropped below */
    range = 'I';
    want  = (int)PetscMin(nwant, n_);
    iu    = n;
    il    = n - PetscMax(want, PetscMin(n, DR_SCALAPACK_NB)) + 1;
  } else {
    range = 'V';
    DRDenseRange(sigma, lmax, &vl, &vu);
  }
  *minor = 0;
  *nfound = 0;
  pdpotrf_("U", &n, B, &one, &one, dA, &info, 1);
  if (info > 0) *minor = info; /* the leading minor of order info is not positive definite */
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "ScaLAPACK pdpotrf: argument %d", -info);
  if (!*minor) {
    if (vec) PetscCall(PetscMalloc1(nloc, &Z));
    pdsygst_(&ibtype, "U", &n, A, &one, &one, dA, B, &one, &one, dA, &scale, &info, 1);
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "ScaLAPACK pdsygst: info %d", info);
    pdsyevr_(jobz, &range, "U", &n, A, &one, &one, dA, &vl, &vu, &il, &iu, &m, &nz, w, Z ? Z : A, &one, &one, dA, &wq, &lwork, &iwq, &liwork, &info, 1, 1, 1);
    lwork  = (int)wq + 1;
    liwork = iwq + 1;
    PetscCall(PetscMalloc2(lwork, &work, liwork, &iwork));
    pdsyevr_(jobz, &range, "U", &n, A, &one, &one, dA, &vl, &vu, &il, &iu, &m, &nz, w, Z ? Z : A, &one, &one, dA, work, &lwork, iwork, &liwork, &info, 1, 1, 1);
    PetscCall(PetscFree2(work, iwork));
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "ScaLAPACK pdsyevr: info %d", info);
    if (want >= 0 && m > want) off = m - want, m = want; /* the top `want` of mu */
    jz = off + 1;
    if (vec && m > 0) {
      PetscReal done = 1;
      pdtrsm_("L", "U", "N", "N", &n, &m, &done, B, &one, &one, dA, Z, &one, &jz, dA, 1, 1, 1, 1);
      PetscCall(DescRoot(ctx0, n, m, dX0));
      pdgemr2d_(&n, &m, Z, &one, &jz, dA, X, &one, &one, dX0, &ctx);
    }
    /* mu ascending -> lambda ascending (reversed); x / sqrt(mu), signed */
    if (!rank) {
      for (int k = 0; k < m; k++) lam[k] = sigma + 1.0 / w[off + m - 1 - k];
      if (vec) {
        for (int k = 0; k < m / 2; k++) {
          PetscReal *a = X + (size_t)k * n, *b = X + (size_t)(m - 1 - k) * n;
          for (int i = 0; i < n; i++) {
            PetscReal t = a[i];
            a[i] = b[i], b[i] = t;
          }
        }
        for (int k = 0; k < m; k++) {
          PetscReal *x = X + (size_t)k * n, s = DRModeSign(n, x) / PetscSqrtReal(w[off + m - 1 - k]);
          for (int i = 0; i < n; i++) x[i] *= s;
        }
      }
    }
    *nfound = m;
  }
  PetscCall(PetscFree(Z));
  PetscCall(PetscFree3(A, B, w));
  if (!rank) Cblacs_gridexit(ctx0);
  Cblacs_gridexit(ctx);
  Cfree_blacs_system_handle(h);
  Cfree_blacs_system_handle(h0);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

PetscErrorCode DRDenseEigenPar(MPI_Comm comm, PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X)
{
  PetscMPIInt size, rank;
  PetscInt    minor = 0, hdr[3] = {n, nwant, X ? 1 : 0};

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Bcast(hdr, 3, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(&lmax, 1, MPIU_REAL, 0, comm));
  n = hdr[0], nwant = hdr[1];
  *nfound = 0;
#if !defined(DR_NO_SCALAPACK)
  if (size > 1 && n >= DR_DENSE_PAR_MIN) {
    PetscCall(DREigenInitializePackage());
    PetscCall(PetscLogEventBegin(DR_EIGEN_Dense, 0, 0, 0, 0));
    PetscCall(ParCore(comm, n, K, M, nwant, lmax, (PetscBool)(hdr[2] != 0), nfound, lam, X, &minor));
    PetscCall(PetscLogEventEnd(DR_EIGEN_Dense, 0, 0, 0, 0));
  } else
#endif
  {
    if (!rank) PetscCall(DRDenseEigenMinor(n, K, M, nwant, lmax, nfound, lam, X, &minor));
    PetscCallMPI(MPI_Bcast(&minor, 1, MPIU_INT, 0, comm));
  }
  PetscCheck(!minor, comm, DR_ERR_INPUT, "reduced stiffness matrix is not positive semidefinite (K - sigma M fails at its leading minor of order %" PetscInt_FMT "): expected a semidefinite K", minor);
  PetscCallMPI(MPI_Bcast(nfound, 1, MPIU_INT, 0, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
