/* dynred: component reductions (superelements).
 *
 * A reduction turns a component (K, M over its DOFs) and the flags of its
 * boundary DOFs into a superelement: a basis T (n x (nb + nq)) whose first nb
 * columns keep the boundary DOFs physical (boundary rows of T are [I 0]),
 * and the reduced matrices T^T K T, T^T M T over the coordinates
 * (u_B, q).  Every method only builds T; the projection, the assembly by
 * boundary label and the recovery u = T q are shared, so adding a method is
 * adding one file and one DRReduceRegister line (as PETSc's KSPRegister).
 */
#ifndef DYNRED_REDUCE_H
#define DYNRED_REDUCE_H

#include <dynred/component.h>

typedef struct {
  PetscInt  nmodes;   /* component modes to keep (count), used when cutoff_hz = 0 */
  PetscReal cutoff_hz;/* keep every component mode below this frequency when > 0 */
  char      prefix[64]; /* options prefix of the component eigensolver ("cms_comp_") */
  char      support[64]; /* free-interface: node set of a statically determinate support (empty: automatic) */
} DRReduceOptions;

typedef struct {
  char       name[64], method[32];
  PetscInt   n;         /* component DOFs */
  PetscInt   nb;        /* boundary (physical) coordinates */
  DRLabel   *blabels;   /* nb boundary labels, in the order of T's first columns (sorted) */
  PetscInt   nq;        /* generalized coordinates */
  PetscReal *qfreq_hz;  /* nq frequencies of the component modes (Hz) */
  PetscReal *K, *M;     /* (nb+nq)^2 reduced matrices, column-major; on rank 0 of the component comm only */
  PetscBool  K_formed;  /* the method formed K itself (same on every rank): projection skips K */
  Mat        T;         /* n x (nb+nq) dense basis on the component comm (recovery) */
  PetscLogDouble t_eig, t_static, t_project; /* phase times, s */
} DRSuperelement;

/* isboundary[i] (replicated, one per DOF of c) marks the boundary DOFs. */
typedef PetscErrorCode (*DRReduceFn)(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);

PetscErrorCode DRReduceRegister(const char name[], DRReduceFn fn);
/* Registers the built-in methods (once). */
PetscErrorCode DRReduceRegisterAll(void);
/* Reduce c with the named method; errors name the method when unknown. */
PetscErrorCode DRReduce(const char method[], DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);
PetscErrorCode DRSuperelementDestroy(DRSuperelement *se);
/* Shared by the methods: se->blabels (sorted boundary labels, the order of
 * T's first nb columns), se->nb, and bcol[i] = column of boundary DOF i or -1. */
PetscErrorCode DRSuperelementSetBoundary(DRComponent c, const PetscBool isboundary[], DRSuperelement *se, PetscInt **bcol);

/* Craig-Bampton (fixed interface): T = [I 0; Phi_c Phi_n]. */
PetscErrorCode DRReduceCraigBampton(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);

/* Guyan (static condensation): T = [I; Phi_c]. */
PetscErrorCode DRReduceGuyan(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);
/* IRS (O'Callahan): T = T_G + S M T_G M_G^{-1} K_G. */
PetscErrorCode DRReduceIRS(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);
/* SEREP: T = Phi Phi_B^{-1} with the nb lowest component modes. */
PetscErrorCode DRReduceSEREP(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);

/* Free interface, residual-flexibility form (METHODS.md 1.3). */
PetscErrorCode DRReduceFreeInterface(DRComponent c, const PetscBool isboundary[], const DRReduceOptions *opt, DRSuperelement *se);

/* Shared by the methods: project (K, M) on se->T into se->K, se->M (rank 0);
 * K is left alone when the method has set se->K already. */
PetscErrorCode DRSuperelementProject(DRComponent c, DRSuperelement *se);
/* A^T B of two dense matrices with equal row layout, on rank 0 (column-major). */
PetscErrorCode DRDenseTransposeProduct(Mat A, Mat B, PetscReal **out);

#endif
