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
  /* results */
  PetscInt   n;
  PetscReal *freq, *lambda, *resid;
  PetscBool  resid_done; /* resid computed (on request: two products per mode) */
  Vec       *modes;
  /* progress */
  PetscLogDouble last;
};
