/* Shared pieces of the fixed-interface family (Craig-Bampton, Guyan, IRS):
 * the boundary/interior partition, the K_II factorization, the
 * fixed-interface modes with the floating-interior check, the constraint
 * modes, and the basis T = [I 0; Phi_c Phi_n]. */
#ifndef DYNRED_FIXED_INTERFACE_H
#define DYNRED_FIXED_INTERFACE_H

#include "reduceimpl.h"
#include <dynred/modal.h>

typedef struct {
  DRComponent    c;
  MPI_Comm       comm;   /* what the steps read of c (its accessors) */
  Mat            K, M;
  PetscInt       n;
  const DRLabel *labels;
  const char    *source, *name;
  PetscInt    rs, re, nb, nI;
  PetscInt   *bcol;     /* DOF -> boundary column (sorted-label order), -1 interior */
  PetscInt   *interior; /* interior index -> DOF */
  IS          isB, isI;
  Mat         KII, MII;
  Mat         F;        /* MUMPS Cholesky of K_II */
  char        fprefix[256]; /* options prefix F was made with ("" none yet): a released F is made again the same way */
  Mat         X;        /* constraint modes Phi_c (nI x nb), dense, rows like K_II */
  Mat         B;        /* K_IB as a dense matrix (nI x nb) */
  DRModal     modal;    /* fixed-interface modes */
  Vec        *modes;    /* nq kept modes (owned by modal) */
  PetscInt    nq;
  Vec        *kept;     /* copies of the kept modes while there is no basis T (phase 1 released or restored); with a T, the interior rows of its columns nb .. nb + nq - 1 are the kept vectors (DRFixedInterfaceKeptVecs) */
  PetscInt    nkept;    /* length of kept */
  PetscInt    ncorr;    /* of the kept vectors, residual corrections (correct.c): not an invariant subspace */
  Mat         Wres;     /* K_II^{-1} r_I of the last residual's nWres system modes (correct.c); NULL when released (DR_REDUCTION_HELD_RESIDUAL_BLOCKS) */
  PetscReal  *Qres, *lamres; /* that residual's coefficients ((nb + nq) x nWres) and eigenvalues: its columns made again (DRFixedInterfaceResidualColumns) */
  PetscInt    Nres;     /* nb + nq of the basis they belong to */
  PetscBool   cbres;    /* the residual's path (structured or formed) */
  Mat         KC;       /* K [0; v] of the ncorr residual corrections (T's row layout; append.c, residual.c); NULL: not formed */
  PetscReal  *lam0;     /* eigenvalues of the kept modes of a restored phase 1 (no DRModal; restore.c) */
  PetscInt    nWres;
} DRFixedInterface;

PetscErrorCode DRFixedInterfaceSetUp(DRComponent c, const PetscBool isboundary[], DRSuperelement *se, DRFixedInterface *fi);
/* The component eigensolver's settings (dense below DR_COMPONENT_DENSE_MAX,
 * no purification, block size, tolerance: reduceimpl.h), for the first
 * solve and a refinement's (enrich.c); options may override them after. */
PetscErrorCode DRFixedInterfaceModalDefaults(DRModal m);
/* Fixed-interface modes (nmodes or below cutoff; nkeep_max caps them, 0 keeps
 * none but still proves K_II regular). */
PetscErrorCode DRFixedInterfaceModes(DRFixedInterface *fi, DRReduction r, PetscBool keep, DRSuperelement *se);
/* Factor K_II (once: the eigensolver's factorization when it factored K_II
 * itself, else its own with options prefix "<prefix>static_") and solve
 * Phi_c = -K_II^{-1} K_IB in one block solve. */
PetscErrorCode DRFixedInterfaceConstraintModes(DRFixedInterface *fi, DRReduction r);
/* fi->F: the factorization of K_II (shared with the eigensolver when it made
 * one), if not yet there; one released (or restored) is made again the way
 * it was first made (fi->fprefix: the eigensolver's or "<prefix>static_"),
 * bit-identical. */
PetscErrorCode DRFixedInterfaceFactor(DRFixedInterface *fi, DRReduction r);
/* The way a factorization was made (a saved options prefix, restore.c): the
 * next DRFixedInterfaceFactor makes it so. */
PetscErrorCode DRFixedInterfaceSetFactorPrefix(DRFixedInterface *fi, const char prefix[]);
/* Free what only speeds up later steps (what: DRReductionHeld flags): the
 * last residual's K_II^{-1} r_I (Wres, the source of residual corrections)
 * and the factorization of K_II (made again on demand; not while the eigensolver
 * holds it too).  *freed_mib (may be NULL): MUMPS' size of the factor freed. */
PetscErrorCode DRFixedInterfaceRelease(DRFixedInterface *fi, int what, PetscReal *freed_mib);
/* MiB of the held factorization on this process (MUMPS INFO(16); 0: none). */
PetscErrorCode DRFixedInterfaceFactorMiB(DRFixedInterface *fi, PetscReal *mib);
/* A basis T (n x N, fi's row layout, zeroed) whose storage Append can grow
 * in place (append.c). */
PetscErrorCode DRFixedInterfaceBasisCreate(DRFixedInterface *fi, PetscInt N, Mat *T);
/* se->T = [I 0; Phi_c Phi_n] over the component's rows. */
PetscErrorCode DRFixedInterfaceBuildT(DRFixedInterface *fi, DRSuperelement *se);
/* se->K on rank 0 without projection (METHODS.md 1.1): [K_BB + K_BI Phi_c, 0;
 * 0, diag(omega^2)] -- no cancellation, exact zero coupling. */
PetscErrorCode DRFixedInterfaceReducedStiffness(DRFixedInterface *fi, DRSuperelement *se);
PetscErrorCode DRFixedInterfaceDestroy(DRFixedInterface *fi);
/* After the basis is built: free what only the build needed (modes, K_IB,
 * Phi_c), keep the factorization of K_II, K_II, M_II and the index sets
 * (residuals and enrichment).  copies: keep copies of the modes (no basis T
 * holds them: a release between the interface phases); else any copies go. */
PetscErrorCode DRFixedInterfaceKeepFactor(DRFixedInterface *fi, PetscBool copies);
/* The kept interior vectors (K_II's layout) are the interior rows of the
 * basis columns col0 .. col0 + count - 1 (BuildT, ApplyBasis and Append put
 * them there verbatim): as local arrays (dst, leading dimension ld), or as
 * new vectors the caller destroys (VecDestroyVecs).  No copy is held beside
 * T. */
PetscErrorCode DRFixedInterfaceKeptArray(DRFixedInterface *fi, Mat T, PetscInt col0, PetscInt count, PetscScalar *dst, PetscInt ld);
PetscErrorCode DRFixedInterfaceKeptVecs(DRFixedInterface *fi, Mat T, PetscInt col0, PetscInt count, Vec **v);
/* Replace the fixed-interface modes of a built superelement by the lowest
 * nmodes (enrich.c): constraint modes and boundary blocks kept. */
PetscErrorCode DRFixedInterfaceEnrich(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt nmodes);
/* Append nnew interior vectors (K_II's layout) after the first nold kept
 * ones (nold = 0: they replace every kept vector): T, K_r, M_r, the kept
 * copies.  modal: fixed-interface modes (K_r gets diag(lam); they raise the
 * superelement's qtop_hz); else the stiffness coupling is computed. */
PetscErrorCode DRFixedInterfaceAppend(DRFixedInterface *fi, DRSuperelement *se, PetscInt nold, PetscInt nnew, Vec modes[], const PetscReal lam[], const PetscReal f[], PetscBool modal);
/* T(:, 0:nrows)^T A T(:, Nkeep:N) on the component's rank 0 (nrows x
 * (N - Nkeep), column-major; NULL elsewhere) by one sparse-dense product and
 * a local GEMM (append.c); AT (given) gets the product A T(:, Nkeep:N). */
PetscErrorCode DRFixedInterfaceColumnCoupling(DRFixedInterface *fi, Mat A, Mat T, PetscInt Nkeep, PetscInt N, PetscInt nrows, PetscReal **out, Mat *AT);
/* Residual corrections (correct.c): the columns sel[nsel] of the last
 * residual's K_II^{-1} r_I appended as Ritz vectors of their span,
 * M_II-orthogonal to the kept vectors; *nadded the independent ones. */
PetscErrorCode DRFixedInterfaceCorrect(DRFixedInterface *fi, DRSuperelement *se, PetscInt nsel, const PetscInt sel[], PetscInt *nadded);
/* The same for given interior vectors v[nv] (earlier corrections appended
 * again after the modes were recomputed, enrich.c). */
PetscErrorCode DRFixedInterfaceCorrectAgain(DRFixedInterface *fi, DRSuperelement *se, PetscInt nv, Vec v[], PetscInt *nadded);
/* The residual r = K u - lambda M u of ncol system modes u = T Qc on this
 * component (Qc: (nb + nq) x ncol, column-major, on every rank of the
 * component comm), split as in residual.c: eta2[k] = r_I^T K_II^{-1} r_I
 * (every rank), gB = r_B - K_BI K_II^{-1} r_I (nb x ncol on rank 0, in the
 * superelement's boundary order; NULL elsewhere).  cb: se is fi's own
 * Craig-Bampton basis (constraint columns, fixed-interface modes, residual
 * corrections), whose structure gives K T on the interior without a sparse
 * product; else (a free-interface basis) K U and M U are formed. */
PetscErrorCode DRFixedInterfaceResidual(DRFixedInterface *fi, DRComponent c, DRSuperelement *se, PetscBool cb, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB);
/* Columns sel[nsel] of the last residual's K_II^{-1} r_I (K_II's layout) as a
 * new dense matrix: copied from the held block, or, when it was released,
 * solved again for those columns only from the kept coefficients (the same
 * basis: corrections come before anything else changes T; the
 * factorization must be there). */
PetscErrorCode DRFixedInterfaceResidualColumns(DRFixedInterface *fi, DRSuperelement *se, PetscInt nsel, const PetscInt sel[], Mat *Z);

/* Interface reduction before the projection (interface_basis.c): the
 * component's boundary Schur complement and Guyan mass (nb x nb, boundary
 * order, on the component's rank 0; NULL elsewhere), after the modes; then
 * the basis on the kept CC modes V_c (nb x ncc, every rank), se->T, se->K,
 * se->nb = ncc with the coupling labels cclabels. */
PetscErrorCode DRFixedInterfacePencil(DRFixedInterface *fi, DRReduction r, PetscReal **S, PetscReal **MG);
PetscErrorCode DRFixedInterfaceApplyBasis(DRFixedInterface *fi, DRReduction r, DRSuperelement *se, PetscInt ncc, const PetscReal Vc[], const DRLabel cclabels[]);

/* The Craig-Bampton step sequence (keep: fixed-interface modes kept, else
 * only K_II proven regular, as Guyan and IRS); everything but the projection. */
PetscErrorCode DRFixedInterfaceBasis(DRReduction r, DRComponent c, const PetscBool isboundary[], PetscBool keep, DRSuperelement *se);

#endif
