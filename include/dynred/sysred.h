/* dynred sysred: system-level reduction of a linear state space
 * (METHODS.md section 6, after Nguyen, "Model reduction for vehicle systems
 * modelling", MASc thesis, University of Waterloo, 2014).
 *
 *   x' = A x + B u,  y = C x + D u   (n states, m inputs, p outputs)
 *
 * methods (sysred.method):
 *   minreal  minimal realization: uncontrollable and unobservable states
 *            removed by the controllability/observability staircase
 *            (SLICOT TB01PD); the transfer function is unchanged;
 *   bt       balanced truncation, square-root method (SLICOT AB09AX on the
 *            stable part in real Schur form): Hankel singular values, the
 *            bound ||G - G_r||_inf <= 2 sum_{i>r} sigma_i, projection T, Ti;
 *   spa      singular perturbation approximation of the balanced stable part
 *            (SLICOT AB09BX): same bound, matches the DC gain;
 *   pod      proper orthogonal decomposition of state snapshots (SVD),
 *            Galerkin projection of the first-order system (pod.c);
 *   sobt     structure-preserving (position-velocity) balanced truncation
 *            of a second-order model M q'' + D q' + K q = B u (sobt.c):
 *            keeps the second-order form, not the first-order bound;
 *   energy   energy-based ranking of a lumped-parameter model's components
 *            (activity, 2-norm of power; Nguyen 2014, chapter 3), removal of the
 *            unimportant ones and a Levenberg-Marquardt refit of the rest
 *            (energy.c, energy_fit.c); model modal: also the power per
 *            modal coordinate and, with sysred.energy.cms, per substructure
 *            of the CMS model (power through each component's DOFs, the
 *            component K, M rebuilt from the cms result's job text;
 *            energy_sub.c).
 * bt with sysred.gramians lowrank: low-rank Gramian factors from SLEPc LME
 * (Krylov) and the square-root method on the factors (lowrank.c).
 * Comparisons: frequency response on a grid (frf.c), time response with
 * PETSc TS for the input signals of dynred ss (sim.c).
 * bt and spa split A first (real Schur form ordered by LAPACK dgees, blocks
 * decoupled by the Sylvester solve dtrsyl): poles with Re(s) >= -alpha
 * (zero, undamped and unstable poles; alpha in DRSysRedSplitThreshold) are
 * kept exactly, the stable part is balanced.
 *
 * The work is small and dense (up to dense_max states): every rank computes
 * the same thing, rank 0 writes.  Matrices in this interface are row-major. */
#ifndef DYNRED_SYSRED_H
#define DYNRED_SYSRED_H

#include <dynred/sys.h>
#include <dynred/config.h>
#include <dynred/store.h>

typedef struct _p_DRSysRed *DRSysRed;

PetscErrorCode DRSysRedInitializePackage(void);
PetscErrorCode DRSysRedCreate(MPI_Comm comm, DRSysRed *s);
PetscErrorCode DRSysRedSetConfig(DRSysRed s, DRConfig cfg);
/* the sysred section of the job file: source, method, order/tol, frf grid */
PetscErrorCode DRSysRedSetFromOptions(DRSysRed s);
/* the system itself instead of sysred.source (row-major, D may be NULL) */
PetscErrorCode DRSysRedSetSystem(DRSysRed s, PetscInt n, PetscInt m, PetscInt p, const PetscReal A[], const PetscReal B[], const PetscReal C[], const PetscReal D[]);
PetscErrorCode DRSysRedSetMethod(DRSysRed s, const char *method);
/* order > 0: the reduced order (all states, those kept exactly included);
 * else tol > 0: the smallest order with error bound <= tol */
PetscErrorCode DRSysRedSetOrder(DRSysRed s, PetscInt order, PetscReal tol);
PetscErrorCode DRSysRedSetUp(DRSysRed s);   /* reads the source */
PetscErrorCode DRSysRedSolve(DRSysRed s);   /* reduces, compares the frequency responses */
PetscErrorCode DRSysRedView(DRSysRed s, PetscViewer v);
PetscErrorCode DRSysRedWrite(DRSysRed s, DRStore store);
PetscErrorCode DRSysRedDestroy(DRSysRed *s);

/* results (column-major, owned by s; DRSysRedWrite stores them row-major) */
PetscErrorCode DRSysRedGetReduced(DRSysRed s, PetscInt *r, const PetscReal **A, const PetscReal **B, const PetscReal **C, const PetscReal **D);
/* Hankel singular values of the stable part (ns of them; bt, spa) and the bound */
PetscErrorCode DRSysRedGetHSV(DRSysRed s, PetscInt *ns, const PetscReal **hsv, PetscReal *bound);
PetscErrorCode DRSysRedGetTime(DRSysRed s, PetscReal *seconds);

#endif
