/* The modal solver's object behind include/dynred/modal.h's DRModal, shared
 * by modal.c (the solve) and modal_set.c (its settings and results); its
 * fields need SLEPc's types only (the .c files include dynred/modal.h). */
#pragma once
#include <slepceps.h>

struct _p_DRModal {
  MPI_Comm  comm;
  char      prefix[64];
  char      what[PETSC_MAX_PATH_LEN];
  Mat       K, M;
  PetscInt  nmodes;
  PetscReal fmax, tol, sigma;
  PetscReal scale;     /* |trace-based shift| (or |user shift|): the zero-eigenvalue scale */
  PetscBool sigma_set;
  PetscBool try_zero;  /* default shift, lowest-n path: try sigma = 0 (K definite) first */
  PetscBool slicing; /* fmax by spectrum slicing (inertia-proven) or by counting first */
  PetscBool purify;  /* SLEPc's eigenvector purification (one more solve per mode; -PREFIX_eps_purify) */
  PetscInt  nev;     /* nev of the counted path */
  PetscInt  count;   /* eigenvalues below fmax from the inertia of K - lmax M (-1: not counted) */
  PetscInt  dense_max; /* n <= dense_max: LAPACK on rank 0 instead of SLEPc (0: never) */
  PetscInt  nmin;      /* with fmax: at least this many modes (the lowest), counted path and dense */
  EPS       eps;
  Mat       F;       /* a factorization of K given by the caller (shift 0 through it), or NULL */
  PetscInt  ndefl;   /* deflation space: known eigenvectors the solve stays M-orthogonal to */
  Vec      *defl;
  PetscInt  block;     /* > 0: block Lanczos (block.c) with this block size where a factorization is held; 0: SLEPc */
  PetscInt  block_min;   /* the block path only for at least block_min x block wanted modes (-PREFIX_block_min) */
  PetscReal block_basis; /* the block path's basis: this many times the wanted modes (-PREFIX_block_basis) */
  PetscBool uncounted;    /* the block path's solves not counted in DREigenBlockColumns (a dense pencil's) */
  PetscBool zero_factored; /* TryZeroShift factored K without negative pivots (the ST's PC holds it) */
  PetscInt   bn;       /* the block path's results, consumed by DRModalSolve */
  PetscReal *blam;
  Vec       *bvecs;
  /* results */
  PetscInt   n;
  PetscReal *freq, *lambda, *resid;
  PetscBool  resid_done; /* resid computed (on request: two products per mode) */
  Vec       *modes;
  /* progress */
  PetscLogDouble last;
};

/* The block path's basis for nev modes: block_basis x nev and at least two
 * blocks beyond, in whole blocks (block.c); the columns it holds are this
 * plus one block. */
static inline PetscInt DRModalBlockBasis(struct _p_DRModal *m, PetscInt nev)
{
  PetscInt b = m->block, p = PetscMax((PetscInt)(m->block_basis * nev), nev + 2 * b);
  return b * ((p + b - 1) / b);
}

/* block.c: the lowest nwant modes through F = chol(K - sigma M) (m->sigma),
 * M-orthogonal to m's deflation space; *vecs has nwant + 1 vectors (the
 * last a spare, as DRModalSolve's). */
PetscErrorCode DRModalBlockSolve(DRModal m, Mat F, PetscInt nwant, PetscInt *nconv, PetscReal **lam, Vec **vecs);
