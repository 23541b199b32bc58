/* dynred: generalized symmetric eigenproblem K phi = lambda M phi.
 *
 * The modal solver behind `dynred modal`, the reference solve of `verify`
 * and (later) the component eigenproblems of CMS.  SLEPc Krylov-Schur with
 * shift-and-invert about a small negative shift (so rigid-body modes are
 * found and K need not be invertible) and a MUMPS Cholesky factorization by
 * default; everything can be overridden with the options prefix
 * (-modal_eps_type, -modal_st_pc_factor_mat_solver_type, ...).
 *
 * Two ways to say which modes:
 *   nmodes > 0, fmax = 0: the lowest nmodes;
 *   fmax > 0:             every mode below fmax (Hz), by SLEPc spectrum
 *                         slicing, which counts eigenvalues with the inertia
 *                         of the factorization and so provably misses none.
 * The inertia of K - sigma M also proves K positive semidefinite: any
 * eigenvalue below the (negative) shift is reported as bad input.
 *
 * Modes are mass-normalized (phi^T M phi = 1), sorted by frequency, signed so
 * the largest-magnitude entry is positive.
 */
#ifndef DYNRED_MODAL_H
#define DYNRED_MODAL_H

#include <dynred/sys.h>
#include <petscksp.h>
#include <dynred/eigen.h>

typedef struct _p_DRModal *DRModal;

PetscErrorCode DRModalCreate(MPI_Comm comm, DRModal *m);
PetscErrorCode DRModalDestroy(DRModal *m);
PetscErrorCode DRModalSetOptionsPrefix(DRModal m, const char *prefix);
/* `what` names the model in messages (a file or "builtin:plate"). */
PetscErrorCode DRModalSetOperators(DRModal m, Mat K, Mat M, const char *what);
PetscErrorCode DRModalSetRange(DRModal m, PetscInt nmodes, PetscReal fmax);
/* With fmax (not slicing): at least the lowest nmin modes, also when fewer
 * lie below fmax (a floor for component modes; 0: none, the default). */
PetscErrorCode DRModalSetMinModes(DRModal m, PetscInt nmin);
/* fmax by spectrum slicing (default; every mode below fmax, proven by the
 * inertia at each slice) or, when false, counted: one LDL^T factorization
 * of K - lmax M gives the number of modes below fmax (inertia), then one
 * Krylov-Schur solve asks for exactly that many (fewer factorizations than
 * slicing; used for component modes).  Option -PREFIX_slicing. */
PetscErrorCode DRModalSetSlicing(DRModal m, PetscBool slicing);
/* Problems of at most n DOFs are solved densely (LAPACK via DRDenseEigen
 * on rank 0; every eigenvalue, so the count is exact); 0 (default): never.
 * Option -PREFIX_dense_max. */
PetscErrorCode DRModalSetDenseMax(DRModal m, PetscInt n);
/* SLEPc's eigenvector purification (default true, SLEPc's default): after
 * the Krylov-Schur solve every converged vector x becomes (K - sigma M)^{-1}
 * M x, one more single-vector solve per mode, which removes components a
 * singular M leaves undetermined and sharpens the vector by one power step.
 * A caller that only needs the span of well-converged modes (a CMS
 * component basis: the coupled Rayleigh-Ritz and its error estimate use the
 * full operators, not the vectors' eigen-residuals) turns it off; it stays
 * on for an M with a diagonal entry <= 0 (massless DOFs: M singular).
 * Option -PREFIX_eps_purify. */
PetscErrorCode DRModalSetPurify(DRModal m, PetscBool purify);
/* Block Lanczos (src/eigen/block.c) with bs right-hand sides per solve
 * wherever the solver holds a factorization of K at shift 0 (one given by
 * DRModalSetFactor, or K itself factored without negative pivots on the
 * lowest-n and counted paths): one MatMatSolve per block instead of SLEPc's
 * one MatSolve per vector.  0 (default): SLEPc Krylov-Schur.  Option
 * -PREFIX_block_size.  Counts its solved columns: DREigenBlockColumns. */
PetscErrorCode DRModalSetBlockSize(DRModal m, PetscInt bs);
PetscErrorCode DREigenBlockColumns(PetscInt *ncols);
PetscErrorCode DRModalGetDenseMax(DRModal m, PetscInt *n);
/* Modes below fmax known from an inertia count (counted path), from the
 * slices or from the dense solve; -1 when not counted (lowest-n path). */
PetscErrorCode DRModalGetCount(DRModal m, PetscInt *count);
/* Convergence tolerance of SLEPc (default 1e-12). */
PetscErrorCode DRModalSetTolerance(DRModal m, PetscReal tol);
/* Shift sigma (rad/s)^2, <= 0 (0 only for a definite K); default: -1e-8 *
 * trace(K)/trace(M). */
PetscErrorCode DRModalSetShift(DRModal m, PetscReal sigma);
/* The shift in use (after DRModalSolve: with the default shift and the
 * lowest modes wanted, 0 when K factored without negative pivots). */
PetscErrorCode DRModalGetShift(DRModal m, PetscReal *sigma);
/* |trace-based default shift| (or |set shift|): the scale below which
 * |lambda| counts as a zero (rigid-body) eigenvalue, |lambda| < 1e-6 scale. */
PetscErrorCode DRModalGetScale(DRModal m, PetscReal *scale);
/* Solve through the caller's factorization F of K (shift 0, no new
 * factorization; F is referenced): for K definite, when F already exists
 * (a CMS component's K_II).  Set before DRModalSetFromOptions. */
PetscErrorCode DRModalSetFactor(DRModal m, Mat F);
/* Known eigenvectors (converged modes of an earlier solve): the lowest-n
 * solve then looks for n further modes, M-orthogonal to them (SLEPc's
 * deflation space), instead of recomputing them.  Copied. */
PetscErrorCode DRModalSetDeflationSpace(DRModal m, PetscInt n, const Vec v[]);
PetscErrorCode DRModalSetFromOptions(DRModal m);
/* The shift-and-invert solver (MUMPS Cholesky of K - sigma M), after
 * DRModalSetFromOptions.  With sigma = 0 a caller may solve with K through
 * it before DRModalSolve: the factorization is made once and reused by the
 * eigensolver. */
PetscErrorCode DRModalGetKSP(DRModal m, KSP *ksp);
PetscErrorCode DRModalSolve(DRModal m);

/* Results; arrays are owned by m.  freq_hz is signed: a slightly negative
 * eigenvalue (rigid-body round-off) gives a slightly negative frequency.
 * The residuals are computed on the first request (collective on m's
 * communicator; DRModalView too). */
PetscErrorCode DRModalGetModes(DRModal m, PetscInt *n, const PetscReal **freq_hz, const PetscReal **lambda, Vec **modes, const PetscReal **residual);
/* Result table on rank 0: mode, frequency, relative residual. */
PetscErrorCode DRModalView(DRModal m, PetscViewer v);

/* Relative residual ||K x - lambda M x|| / (||K x|| + |lambda| ||M x||). */
PetscErrorCode DRModalResidual(Mat K, Mat M, PetscReal lambda, Vec x, PetscReal *r);

#endif
