/* dynred: small dense eigenproblems and the one sign rule for mode shapes.
 *
 * The eigen layer sits above core and model and below every method module:
 * the sparse modal solver (modal.h, DRModal) and the dense solver here are
 * the only places where dynred solves K x = lambda M x.  Dense arrays are
 * column-major (LAPACK order) throughout.
 */
#ifndef DYNRED_EIGEN_H
#define DYNRED_EIGEN_H

#include <dynred/sys.h>
#include <petscvec.h>

/* Log class "DR Eigen" and its events: DREigenSolve (a DRModal solve),
 * DREigenFactor (the trial factorization of K for a zero shift),
 * DREigenDense (DRDenseEigen), DREigenCount (the inertia count of
 * K - lmax M before a counted solve), DREigenBlockOrth (the block
 * eigensolver's Gram-Schmidt and CholQR of each new block), DREigenBlockRitz
 * (its Rayleigh-Ritz steps and thick restarts).  Called by DRModalCreate and
 * DRDenseEigen. */
PetscErrorCode       DREigenInitializePackage(void);
extern PetscClassId  DR_EIGEN_CLASSID;
extern PetscLogEvent DR_EIGEN_Solve, DR_EIGEN_Factor, DR_EIGEN_Dense, DR_EIGEN_Count, DR_EIGEN_BlockOrth, DR_EIGEN_BlockRitz;

/* Dense K x = lambda M x (n x n, column-major, K semidefinite, M definite)
 * on one process, accurate for the lowest modes: LAPACK dsygvx on the
 * shifted, inverted pencil M x = mu (K - sigma M) x with sigma =
 * -1e-8 trace(K)/trace(M), lambda = sigma + 1/mu (plain dsygvx on (K, M) is
 * only accurate to eps * lambda_max in absolute terms).  Returns the lowest
 * nwant (nwant > 0) or all below lmax (nwant = 0); X (n x nfound, may be
 * NULL) mass-normalized and signed by DRModeSignFix; ascending.  Arrays lam,
 * X sized by the caller for n.  With X, n >= -dr_dense_lanczos_min (default
 * 3000; 0: never) and few modes wanted (counted by the inertia of K - lmax M
 * for nwant = 0; an operation-count rule), block Lanczos through a dense Cholesky factor
 * solves it instead of LAPACK (src/eigen/dense_lanczos.c): eigenvalues to
 * about 1e-20 relative, vectors to about 1e-10. */
PetscErrorCode DRDenseEigen(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X);
/* The same with K's storage as the block Lanczos path's work (the count's
 * dsytrf and the Cholesky factor go there instead of into an n x n array of
 * their own): K is overwritten and made again by reload(ctx, K) after each
 * use and before it returns, so the caller, who keeps K's values elsewhere
 * (a scratch file: the CMS root's interface stiffness), holds two n x n
 * arrays at the peak instead of three.  reload NULL: DRDenseEigen. */
PetscErrorCode DRDenseEigenWork(PetscInt n, PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscErrorCode (*reload)(void *, PetscReal *), void *ctx);
/* The same without the input error: *minor > 0 is the order of the leading
 * minor at which K - sigma M fails to be positive definite (K indefinite
 * there, or M too ill-conditioned for sigma to help); nothing computed then. */
/* DRDenseEigen's block Lanczos path alone: *done false (nothing computed)
 * where it does not apply (n, X NULL, K - sigma M not
 * definite: the LAPACK path then reports it; too many modes for it to pay). */
/* Floating-point operations DRDenseEigen spends on nwant of n eigenpairs
 * (at the default -dr_dense_lanczos_min): LAPACK's (8/3) n^3, or the block
 * Lanczos path's count (with the count by inertia) where it pays.  For cost
 * models (cms.partition auto); measured about 0.055 ns per operation on one
 * core (bench/README.md "CMS at 1M DOF: substructured, the root's CC problem by block Lanczos": n = 12000, 265 s by LAPACK). */
PetscReal      DRDenseEigenOps(PetscInt n, PetscInt nwant);
PetscErrorCode DRDenseEigenLanczos(PetscInt n, PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscErrorCode (*reload)(void *, PetscReal *), void *ctx, PetscBool *done);
PetscErrorCode DRDenseEigenMinor(PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X, PetscInt *minor);

/* DRDenseEigen on every rank of comm (collective): n, K, M, nwant, lmax
 * are read on rank 0 only, lam and X (n x nfound) returned on rank 0 only,
 * *nfound on every rank.  With more than one rank and n >= DR_DENSE_PAR_MIN
 * the same shifted-and-inverted path runs in ScaLAPACK on a 2-D block-
 * cyclic grid of all the ranks (pdpotrf, pdsygst, pdsyevr, pdtrsm; about
 * 3 n^2 / p doubles per rank), else in LAPACK on rank 0.  Results agree
 * with DRDenseEigen to rounding; a K - sigma M that is not positive
 * definite is the same input error. */
#define DR_DENSE_PAR_MIN 256
PetscErrorCode DRDenseEigenPar(MPI_Comm comm, PetscInt n, const PetscReal *K, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nfound, PetscReal *lam, PetscReal *X);

/* All n eigenvalues of the same pencil, ascending, by the same path as
 * DRDenseEigen (no eigenvectors); *ok false (no error raised) when LAPACK
 * fails, i.e. K - sigma M is not positive definite (K indefinite, or M not
 * definite enough to shift K).  For callers that classify failures
 * themselves (the GA fitness). */
PetscErrorCode DRDenseEigenvalues(PetscInt n, const PetscReal *K, const PetscReal *M, PetscReal *lam, PetscBool *ok);

/* The sign rule of every mode shape dynred writes: the entry of largest
 * magnitude is positive; entries within a relative 1e-8 of the largest
 * count as ties and the lowest index wins (so the choice survives the
 * round-off differences between rank counts).  DRModeSign returns +1 or -1
 * for a dense column x[0..n); DRModeSignFix flips the ncols columns of the
 * column-major X (leading dimension ld); DRVecModeSignFix flips a
 * distributed vector (collective). */
PetscReal      DRModeSign(PetscInt n, const PetscReal *x);
void           DRModeSignFix(PetscInt n, PetscInt ncols, PetscReal *X, PetscInt ld);
PetscErrorCode DRVecModeSignFix(Vec x);

#endif
