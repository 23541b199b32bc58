/* dynred: component reductions (superelements).
 *
 * A reduction turns a component (K, M over its DOFs) and the flags of its
 * boundary DOFs into a superelement: a basis T (n x (nb + nq)) whose first nb
 * columns keep the boundary DOFs physical (boundary rows of T are [I 0]),
 * and the reduced matrices T^T K T, T^T M T over the coordinates
 * (u_B, q).  Every method only builds T; the projection, the assembly by
 * boundary label and the recovery u = T q are shared.
 *
 * DRReduction is a PETSc-style object (as KSP):
 *
 *   DRReductionCreate(comm, &r);
 *   DRReductionSetType(r, "craig-bampton");      (or -<prefix>reduction_type)
 *   DRReductionSetOptionsPrefix(r, "cms_comp_"); (also the prefix of the
 *                                                 component eigensolver)
 *   DRReductionSetModes(r, nmodes, cutoff_hz);
 *   DRReductionSetFromOptions(r);                (each method its own options)
 *   DRReductionSetUp(r);
 *   DRReductionApply(r, c, isboundary);          (component -> superelement)
 *   DRReductionGetBoundary / GetModes / GetReducedMatrices / GetBasis / GetTimes
 *   DRReductionView(r, viewer); DRReductionDestroy(&r);
 *
 * Adding a method is adding one file with a create function that fills the
 * ops table, and one DRReductionRegister line in DRReductionRegisterAll
 * (as PETSc's KSPRegister). */
#ifndef DYNRED_REDUCE_H
#define DYNRED_REDUCE_H

#include <dynred/component.h>

typedef struct _p_DRReduction *DRReduction;

/* Built-in types */
#define DRREDUCTION_CRAIG_BAMPTON  "craig-bampton"
#define DRREDUCTION_GUYAN          "guyan"
#define DRREDUCTION_IRS            "irs"
#define DRREDUCTION_SEREP          "serep"
#define DRREDUCTION_FREE_INTERFACE "free-interface"

/* Logging class "DR Reduction" and its events (once; called by Create). */
PetscErrorCode DRReductionInitializePackage(void);
/* create(r) fills r's ops table and method data. */
PetscErrorCode DRReductionRegister(const char name[], PetscErrorCode (*create)(DRReduction));
/* Registers the built-in methods (once). */
PetscErrorCode DRReductionRegisterAll(void);

PetscErrorCode DRReductionCreate(MPI_Comm comm, DRReduction *r);
/* Unknown names: one-line input error listing the registered ones. */
PetscErrorCode DRReductionSetType(DRReduction r, const char type[]);
PetscErrorCode DRReductionGetType(DRReduction r, const char **type);
/* Prefix of the reduction's options and of its component eigensolver (and
 * "<prefix>static_" of the interior factorization). */
PetscErrorCode DRReductionSetOptionsPrefix(DRReduction r, const char prefix[]);
/* Component modes kept: the nmodes lowest, or every mode below cutoff_hz
 * when cutoff_hz > 0 (methods with component modes); with a cutoff, the
 * fixed-interface family keeps at least the nmodes lowest (a floor; 0: none). */
PetscErrorCode DRReductionSetModes(DRReduction r, PetscInt nmodes, PetscReal cutoff_hz);
/* -<prefix>reduction_type, -<prefix>reduction_nmodes,
 * -<prefix>reduction_cutoff_hz, then the method's own options. */
PetscErrorCode DRReductionSetFromOptions(DRReduction r);
PetscErrorCode DRReductionSetUp(DRReduction r);
/* Reduce c (isboundary[i] replicated, one per DOF of c marks the boundary
 * DOFs).  Collective on c's communicator.  The superelement is kept by r
 * until the next Apply or Destroy. */
PetscErrorCode DRReductionApply(DRReduction r, DRComponent c, const PetscBool isboundary[]);
/* Results of the last Apply (borrowed, owned by r):
 * boundary labels in the order of T's first nb columns (sorted); */
PetscErrorCode DRReductionGetBoundary(DRReduction r, PetscInt *nb, const DRLabel **labels);
/* nq generalized coordinates and their component-mode frequencies (Hz); */
PetscErrorCode DRReductionGetModes(DRReduction r, PetscInt *nq, const PetscReal **freq_hz);
/* reduced (nb+nq)^2 K and M, column-major, on rank 0 of c's comm (NULL elsewhere); */
PetscErrorCode DRReductionGetReducedMatrices(DRReduction r, PetscInt *n, const PetscReal **K, const PetscReal **M);
/* the n x (nb+nq) dense basis on c's communicator (recovery u = T q). */
PetscErrorCode DRReductionGetBasis(DRReduction r, Mat *T);
/* Seconds the last Apply spent in its phases, read from the reduction's log
 * events DRRedCompEig, DRRedConstraint, DRRedProject on this rank (0 when
 * logging is off): component eigensolve, constraint (static) modes,
 * projection. */
/* After Apply: the lowest nmodes component modes instead (the CMS
 * refinement); in place where the method can (craig-bampton keeps its
 * constraint modes, boundary blocks and K_II factorization), else a new
 * Apply with nmodes. */
PetscErrorCode DRReductionEnrich(DRReduction r, DRComponent c, const PetscBool isboundary[], PetscInt nmodes);
/* After a Residual: residual corrections K_II^{-1} r_I of the system modes
 * sel[nsel] (indices into the Residual's ncol columns) appended to the
 * component's basis (reduce/correct.c); *nadded the independent ones;
 * *supported false (nothing done) for methods without them (only
 * craig-bampton has them). */
PetscErrorCode DRReductionCorrect(DRReduction r, PetscInt nsel, const PetscInt sel[], PetscInt *nadded, PetscBool *supported);
/* After Apply (or an Enrich, Correct, Residual): free what the reduction
 * holds only to make later steps cheaper (what: DRReductionHeld flags, or'd)
 * -- the last Residual's K_II^{-1} r_I (read by a Correct that follows it;
 * a Correct after the release adds nothing) and the factorization of K_II, made again the same way (bit-identical solves) by
 * the next step that needs it (Residual, Enrich, an interface basis applied
 * again).  Results do not change; the CMS driver calls it on components
 * that wait (cms.keep_factors).  *freed_mib (may be NULL): the MiB of the
 * factorization freed on this process (MUMPS' own count; 0: none). */
typedef enum {
  DR_REDUCTION_HELD_RESIDUALS       = 1, /* the last Residual's K_II^{-1} r_I and what makes it again: Correct has nothing to correct with */
  DR_REDUCTION_HELD_FACTOR          = 2, /* the factorization of K_II */
  DR_REDUCTION_HELD_BASIS           = 4, /* the basis T: final, nothing after the release may read it (GetBasis, Expand, Residual, Enrich, Correct, the interface basis applied again) */
  DR_REDUCTION_HELD_RESIDUAL_BLOCKS = 8, /* only the blocks K_II^{-1} r_I (n_I x ncol): Correct solves its selected columns again from the kept coefficients */
  DR_REDUCTION_HELD_BASIS_SPILL     = 16  /* the basis T put aside in a scratch file (DRReductionSetScratchDir) and read back, the same bits, by the next step that needs it; not written again while it has not changed */
} DRReductionHeld;
PetscErrorCode DRReductionRelease(DRReduction r, int what, PetscReal *freed_mib);
/* The directory of the scratch files of DR_REDUCTION_HELD_BASIS_SPILL ("" or
 * NULL: $TMPDIR, else /tmp; the file is unlinked at once). */
PetscErrorCode DRReductionSetScratchDir(DRReduction r, const char dir[]);
/* MiB of the K_II factorization the reduction holds on this process (0: none). */
PetscErrorCode DRReductionGetFactorMiB(DRReduction r, PetscReal *mib);
/* The highest frequency (Hz) a component eigensolve found: the truncated
 * component spectrum lies above it (residual corrections do not raise it). */
PetscErrorCode DRReductionGetModeTop(DRReduction r, PetscReal *qtop_hz);
/* Residual of ncol system modes u = T Qc (Qc: (nb + nq) x ncol, column-major,
 * on every rank of the component comm; lam: their eigenvalues) on component
 * c after Apply, for the CMS error estimate: eta2[k] = r_I^T K_II^{-1} r_I
 * (every rank) and gB = r_B - K_BI K_II^{-1} r_I (pnb x ncol, physical boundary-label
 * order, rank 0 of the comm; caller frees), r = K u - lam M u.
 * *supported false (nothing computed) for methods without a K_II
 * factorization (craig-bampton holds one; free-interface makes one on the
 * first call, free_interface.c). */
PetscErrorCode DRReductionResidual(DRReduction r, DRComponent c, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB, PetscBool *supported);
/* The component's boundary Schur complement S_c = K_BB - K_BI K_II^{-1} K_IB
 * (pnb x pnb, physical boundary order, rank 0 of c's comm, caller frees;
 * NULL elsewhere) after Apply, for the CMS estimate's boundary term when the
 * assembly holds free-interface components (reduce/free_interface.c).
 * *supported false for methods without it (guyan, irs, serep, and a
 * craig-bampton basis on reduced interface coordinates). */
PetscErrorCode DRReductionBoundarySchur(DRReduction r, DRComponent c, PetscReal **S, PetscBool *supported);
/* Interface reduction before the projection (CMS), in two
 * phases instead of Apply.  Phase 1: the component modes and the
 * component's part of the interface pencil, its boundary Schur complement S
 * and Guyan mass MG (pnb x pnb, physical boundary order, on rank 0 of c's
 * comm, caller frees; NULL elsewhere).  *supported false (nothing done) for
 * methods without it (only craig-bampton has it).  Phase 2: the basis on
 * ncc interface modes Vc (pnb x ncc, column-major, every rank) with the
 * coupling labels cclabels[ncc] (sorted); after it the results are read as
 * after Apply, with nb = ncc. */
PetscErrorCode DRReductionInterfacePencil(DRReduction r, DRComponent c, const PetscBool isboundary[], PetscBool *supported, PetscReal **S, PetscReal **MG);
PetscErrorCode DRReductionApplyInterfaceBasis(DRReduction r, DRComponent c, PetscInt ncc, const PetscReal Vc[], const DRLabel cclabels[]);
/* The physical boundary (sorted labels; the order of the residual's gB and
 * of the pencil): after Apply or phase 1. */
PetscErrorCode DRReductionGetPhysicalBoundary(DRReduction r, PetscInt *nb, const DRLabel **labels);
/* Every block solve of the reductions with a factorization of K_II
 * (constraint modes, interface-basis columns, the CMS estimate's residuals,
 * IRS and condensation) goes through DRReductionBlockSolve: X = F^{-1} B
 * (MatMatSolve), counting B's columns on this process.
 * DRReductionBlockSolveColumns reads the count so far (CMS reports it as
 * /timing attribute block_solve_columns). */
PetscErrorCode DRReductionBlockSolve(Mat F, Mat B, Mat X);
PetscErrorCode DRReductionBlockSolveColumns(PetscInt *ncols);
/* U = T Qc on this rank's rows of the component (local rows x ncol,
 * column-major, caller frees); Qc: (nb + nq) x ncol on every rank. */
PetscErrorCode DRReductionExpand(DRReduction r, PetscInt ncol, const PetscReal Qc[], PetscReal **U);
/* A superelement saved and restored (the CMS checkpoint; reduce/restore.c
 * says what a restore skips and what it redoes).  GetSaved: borrowed views
 * of the last Apply's results (K, M on rank 0 of the comm only; T the
 * distributed basis) and the options prefix of the K_II factorization the
 * method holds ("" none).  Restore: after SetUp, instead of Apply; takes
 * over the arrays and T of s (set to NULL; PetscMalloc'ed, T a dense Mat
 * with the component's row layout); the results then read as after Apply. */
typedef struct {
  PetscInt   n, nb, pnb, nq;
  DRLabel   *blabels, *pblabels;
  PetscReal *qfreq_hz, *K, *M;
  Mat        T;
  char       factor[128];
} DRReductionSaved;
PetscErrorCode DRReductionGetSaved(DRReduction r, DRReductionSaved *s);
PetscErrorCode DRReductionRestore(DRReduction r, DRComponent c, const PetscBool isboundary[], DRReductionSaved *s);
/* Phase 1 of the interface reduction saved and restored (craig-bampton; the
 * CMS checkpoint of the default path): what DRReductionInterfacePencil left
 * in r.  GetPencilSaved: nb = pnb the physical boundary and its labels, nq
 * kept fixed-interface modes as the n x nq basis T (interior rows; the
 * boundary rows zero), their eigenvalues lam[nq] and frequencies, qtop_hz,
 * the factor prefix (the K_II factorization is made here if not yet there,
 * as phase 2 would make it); K, M NULL (the caller holds S_c and M_c).
 * RestorePencil: after SetUp, instead of DRReductionInterfacePencil; takes
 * over blabels, pblabels, qfreq_hz, lam and T (set to NULL); phase 2 then
 * runs as after the computed phase 1, with the same numbers. */
PetscErrorCode DRReductionGetPencilSaved(DRReduction r, DRReductionSaved *s, PetscReal **lam, PetscReal *qtop_hz);
PetscErrorCode DRReductionRestorePencil(DRReduction r, DRComponent c, const PetscBool isboundary[], DRReductionSaved *s, PetscReal **lam, PetscReal qtop_hz);
PetscErrorCode DRReductionGetTimes(DRReduction r, PetscLogDouble *t_eig, PetscLogDouble *t_static, PetscLogDouble *t_project);
PetscErrorCode DRReductionView(DRReduction r, PetscViewer viewer);
PetscErrorCode DRReductionDestroy(DRReduction *r);

/* free-interface: node set of a statically determinate support for floating
 * parts ("" or NULL: chosen automatically); also -<prefix>reduction_fi_support.
 * No effect on other types. */
PetscErrorCode DRReductionFreeInterfaceSetSupport(DRReduction r, const char set[]);

/* A^T B of two dense matrices with equal row layout, on rank 0 (column-major). */
PetscErrorCode DRDenseTransposeProduct(Mat A, Mat B, PetscReal **out);

#endif
