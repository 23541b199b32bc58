/* Private layout of DRReduction (reduce.h) and the pieces its methods share:
 * the ops table (as PETSc's _p_KSP/ops), the result held by the object, the
 * log events, the boundary bookkeeping and the projection T^T K T. */
#ifndef DYNRED_REDUCEIMPL_H
#define DYNRED_REDUCEIMPL_H

#include <dynred/reduce.h>

/* The superelement a reduction builds (held by DRReduction, read through its
 * getters). */
typedef struct {
  char       name[64], method[32];
  PetscInt   n;         /* component DOFs */
  PetscInt   nb;        /* boundary (coupling) coordinates: the physical boundary, or the kept CC modes */
  DRLabel   *blabels;   /* nb boundary labels, in the order of T's first columns (sorted) */
  PetscInt   pnb;       /* physical boundary DOFs (= nb without interface reduction) */
  DRLabel   *pblabels;  /* pnb physical boundary labels (sorted) */
  PetscInt   nq;        /* generalized coordinates */
  PetscReal *qfreq_hz;  /* nq frequencies of the component modes (Hz) */
  PetscReal  qtop_hz;   /* highest frequency a component eigensolve found (the truncated spectrum lies above; residual corrections do not raise it); 0: unknown, the highest of qfreq_hz */
  PetscReal *K, *M;     /* (nb+nq)^2 reduced matrices, column-major; on rank 0 of the component comm only */
  PetscBool  K_formed;  /* the method formed K itself (same on every rank): projection skips K */
  PetscBool  M_formed;  /* the method formed M itself for the current T: projection skips M (and resets the flag) */
  Mat        T;         /* n x (nb+nq) dense basis on the component comm (recovery) */
} DRSuperelement;

typedef struct _DRReductionOps *DRReductionOps;
struct _DRReductionOps {
  PetscErrorCode (*setfromoptions)(DRReduction, PetscOptionItems *);
  PetscErrorCode (*setup)(DRReduction);
  /* build se->T (and se->K when the method forms it; se->K_formed), se->nb,
   * se->blabels, se->nq, se->qfreq_hz; the projection follows in Apply */
  PetscErrorCode (*apply)(DRReduction, DRComponent, const PetscBool[], DRSuperelement *);
  PetscErrorCode (*view)(DRReduction, PetscViewer);
  /* residual of system modes on the component (DRReductionResidual); NULL:
   * the method cannot estimate */
  PetscErrorCode (*residual)(DRReduction, DRComponent, PetscInt, const PetscReal[], const PetscReal[], PetscReal[], PetscReal **);
  /* more component modes in place (DRReductionEnrich); NULL: a new Apply */
  PetscErrorCode (*enrich)(DRReduction, DRComponent, PetscInt, DRSuperelement *);
  /* residual corrections in place (DRReductionCorrect); NULL: not supported */
  PetscErrorCode (*correct)(DRReduction, PetscInt, const PetscInt[], DRSuperelement *, PetscInt *);
  /* interface reduction before the projection (DRReductionInterfacePencil,
   * DRReductionApplyInterfaceBasis); NULL: not supported by the method */
  PetscErrorCode (*pencil)(DRReduction, DRComponent, const PetscBool[], DRSuperelement *, PetscReal **, PetscReal **);
  PetscErrorCode (*ifacebasis)(DRReduction, DRComponent, PetscInt, const PetscReal[], const DRLabel[], DRSuperelement *);
  /* free what only speeds up later steps (DRReductionRelease); NULL: nothing held */
  PetscErrorCode (*release)(DRReduction, int, PetscReal *);
  PetscErrorCode (*factormib)(DRReduction, PetscReal *); /* DRReductionGetFactorMiB */
  PetscErrorCode (*destroy)(DRReduction);
};

struct _p_DRReduction {
  MPI_Comm                comm;
  char                   *prefix;
  char                    type[64];
  struct _DRReductionOps  ops[1];
  void                   *data; /* method data, owned by ops->destroy */
  PetscInt                nmodes;
  PetscReal               cutoff_hz;
  PetscBool               no_cc_reuse; /* -reduction_reuse_cc_solves false: an interface refinement solves every CC column again, projects from scratch, residuals by sparse products (the reference path) */
  PetscBool               setupcalled;
  PetscBool               applied;
  PetscBool               basis_released; /* DRReductionRelease(DR_REDUCTION_HELD_BASIS): se.T is gone */
  /* DR_REDUCTION_HELD_BASIS_SPILL (reduce.c): se.T's local rows in a scratch
   * file (spill_fd) while the component waits; read back by the next step
   * that needs T.  spill_clean: the file holds T as it is now (T was read
   * back and only read since), so the next spill writes nothing */
  char                    scratch_dir[PETSC_MAX_PATH_LEN];
  int                     spill_fd;
  PetscBool               spilled, spill_clean;
  PetscInt                spill_nloc, spill_N;
  DRSuperelement          se;       /* result of the last Apply */
  PetscLogDouble          t_eig, t_static, t_project; /* its phase times (log events), s */
};

/* Component eigenproblems (fixed-interface interiors, free-interface
 * components) up to this many DOFs get their modes densely (LAPACK; option
 * -cms_comp_dense_max): measured (bench/README.md "CMS: dense vs sparse component eigensolves", DRRedCompEig
 * over all parts), dense is 2-4.5x faster at 90-324 DOFs when many modes
 * are wanted, even (0.065 s vs 0.058 s) at 351 DOFs with few, and 20x
 * slower at 1350: the break-even lies near 400. */
#define DR_COMPONENT_DENSE_MAX 400

/* Component modes are a basis, not results: the coupled Rayleigh-Ritz and
 * the error estimate (couple/estimate.c) work with the full operators, so
 * the vectors need the eigensolver's tolerance (1e-12), not SLEPc's
 * purification, one more single-vector solve per mode (DRModalSetPurify;
 * kept where M_II has massless DOFs).  Measured on the 200k-DOF plate in 4
 * parts at 200 modes (bench/README.md "CMS: component eigensolves without purification"): 1101 -> 764 single solves, the
 * component eigensolve 19.5 -> 14.7 s, frequencies equal to 5e-11 and the
 * same estimates.  -cms_comp_eps_purify turns it back on. */
#define DR_COMPONENT_PURIFY PETSC_FALSE

/* Component eigensolves through the factorization of K_II they hold run
 * block Lanczos (src/eigen/block.c) with this many right-hand sides per
 * MatMatSolve where at least 8 modes per column are wanted; 0: SLEPc
 * Krylov-Schur, one MatSolve per vector.  Measured (bench/README.md "CMS: component eigensolves by block Lanczos", 2
 * ranks, 200 modes, component eigensolve, SLEPc -> 8): 200k-DOF plate in 4
 * parts 17.8 -> 13.0 s, CalculiX bar 8.1 -> 4.5 s, 50k plate 3.3 -> 2.4 s;
 * block size 16 was slower on the 200k plate (17.7 against 11.8 s in one
 * pair) and faster on the bar (5.2 against 6.3 s); 32 solved 2x the
 * columns of 16.  Option -cms_comp_block_size. */
#define DR_COMPONENT_BLOCK 8

/* Convergence tolerance of the fixed-interface component modes (the block
 * solver's relative residual ||A y - theta y||_M <= tol |theta|, A = K_II^{-1}
 * M_II; option -cms_comp_eps_tol); dynred modal keeps 1e-12.  Craig-Bampton
 * takes the modal block of K_r as diag(lambda), exact only for converged
 * pairs, but the error is second order in the residual: for a Ritz pair
 * (theta, y) of A with y = sum c_k phi_k, y^T M y = 1 and the Galerkin
 * condition sum c_k^2 (t_k - theta) = 0 (t_k = 1 / lambda_k),
 *     y^T K y - 1/theta = theta^-2 sum c_k^2 (t_k - theta)^2 lambda_k,
 * i.e. tol^2 relative for a residual spread over nearby modes; off-diagonal
 * entries y_i^T K y_j between Ritz vectors of one solve are O(tol_i tol_j)
 * the same way.  First order in tol is one coupling taken as zero: that
 * of the kept modes with the fixed-interface modes a continued solve adds
 * (enrich.c through DRFixedInterfaceAppend with modal true; M-orthogonal to
 * the kept ones, phi^T K w = (K phi - lambda M phi)^T w; residual
 * corrections get theirs computed).  So 1e-10, not looser: it keeps that
 * 100x below the 1e-8 of the Rayleigh-Ritz checks and of the
 * rank-independence tests.  Measured on the 51k-DOF CalculiX bar
 * (bench/README.md "CMS on the CalculiX bar at 200 modes", one correction round): 1e-10, 1e-8 and 1e-6 move
 * every coupled frequency by at most 2.3e-11 relative against 1e-12 (as
 * much as 1e-12 itself moves between 1, 2 and 3 ranks), and solve 1688,
 * 1688 and 1520 block columns instead of 1848.  Free-interface modes keep
 * 1e-12: their residual flexibility subtracts Phi Lambda^-1 Phi^T, first
 * order in the modes' error. */
#define DR_COMPONENT_TOL 1e-10

/* Log events of the reduction package (DRReductionInitializePackage). */
extern PetscClassId  DR_REDUCTION_CLASSID;
extern PetscLogEvent DRRED_Apply, DRRED_Factor, DRRED_CompEig, DRRED_Constraint, DRRED_Project;
/* condensation (condense.c): factor K0, one condensation, one IDC outer step */
extern PetscLogEvent DRCOND_Factor, DRCOND_Reduce, DRCOND_IDCIter;

/* Registry lookups without an error (NULL / the names joined by ", "). */
PetscErrorCode DRReductionFindCreate(const char name[], PetscErrorCode (**create)(DRReduction));
PetscErrorCode DRReductionKnownNames(char *buf, size_t len);

/* A new se.T was set (a restore): no spilled copy of it exists (reduce.c). */
PetscErrorCode DRReductionBasisNew_Private(DRReduction r);

/* Options prefix of the component eigensolver and of the K_II factor. */
const char *DRReductionPrefix(DRReduction r);

/* se->blabels (sorted boundary labels, the order of T's first nb columns),
 * se->nb, and bcol[i] = column of boundary DOF i or -1. */
PetscErrorCode DRSuperelementSetBoundary(DRComponent c, const PetscBool isboundary[], DRSuperelement *se, PetscInt **bcol);
/* Project (K, M) on se->T into se->K, se->M (rank 0); K is left alone when
 * the method has set se->K already. */
PetscErrorCode DRSuperelementProject(DRComponent c, DRSuperelement *se);
/* U = T Qc on this rank's rows of T (local rows x ncol, column-major;
 * caller frees): reduced coordinates back to the component's DOFs. */
PetscErrorCode DRSuperelementExpand(const DRSuperelement *se, PetscInt ncol, const PetscReal Qc[], PetscReal **U);
/* A basis T (n x N, nloc local rows, zeroed) on storage dynred owns
 * (superelement.c): Append grows it in place, a spilled one comes back as
 * one.  Wrap: a T header over such storage (c: its container).  Own: T's
 * container when T is such a T and nobody else holds T (else NULL). */
PetscErrorCode DRSuperelementBasisCreate(MPI_Comm comm, PetscInt nloc, PetscInt n, PetscInt N, const char name[], Mat *T);
PetscErrorCode DRSuperelementBasisWrap(MPI_Comm comm, PetscInt nloc, PetscInt n, PetscInt N, PetscContainer c, Mat *T);
PetscErrorCode DRSuperelementBasisOwn(Mat T, PetscContainer *c);
/* Free the arrays and T of a superelement. */
PetscErrorCode DRSuperelementReset(DRSuperelement *se);

/* Create functions of the built-in methods (one file each). */
PetscErrorCode DRReductionCreate_CraigBampton(DRReduction);
PetscErrorCode DRReductionCreate_Guyan(DRReduction);
PetscErrorCode DRReductionCreate_IRS(DRReduction);
PetscErrorCode DRReductionCreate_SEREP(DRReduction);
PetscErrorCode DRReductionCreate_FreeInterface(DRReduction);

#endif
