/* dynred: parametric model reduction for moving loads (METHODS.md 3, after
 * Fischer and Eberhard, "Simulation of moving loads in elastic multibody
 * systems with parametric model reduction techniques", 2014).
 *
 * M q'' + D q' + K q = b(p) u, y = b(p)^T q: a load of direction
 * pmor.direction moves along a path of nodes (pmor.path, or a node set or
 * file ordered along its coordinates: pmor.path_set), p its position (path
 * index or arc length), distributed by the shape functions of 2-node or
 * 3-node path edges (or onto the nearest node).
 * Support ROMs at path nodes p_1..p_k, V_i = [Phi | K^{-1} b_i] (shared
 * eigenmodes, one static mode each: one eigensolve and one factorization of
 * K per rank group serve every support), made compatible (Panzer: SVD of
 * [V_1 .. V_k]; Amsallem-Farhat: SVD of Q_i^T Q_ref) and interpolated with
 * weights w_i(p) (linear or cubic spline, periodic on a closed path); M and
 * K either directly or on the SPD manifold (matrix log/exp about a reference
 * support).  The relative FRF error against the full model on a (p, omega)
 * grid runs on the task farm (checkpointed as the supports); the moving-load
 * reference of the full model runs on PETSc TS.  Every rank holds the same
 * small dense data after DRPMORSolve.
 */
#ifndef DYNRED_PMOR_H
#define DYNRED_PMOR_H
#include <dynred/config.h>
#include <dynred/store.h>

typedef struct _p_DRPMOR *DRPMOR;

PetscErrorCode DRPMORInitializePackage(void);
PetscErrorCode DRPMORCreate(MPI_Comm comm, DRPMOR *pm);
PetscErrorCode DRPMORSetConfig(DRPMOR pm, DRConfig cfg);
PetscErrorCode DRPMORSetFromOptions(DRPMOR pm);
/* the model, the path, the supports (input errors name the key) */
PetscErrorCode DRPMORSetUp(DRPMOR pm);
/* eigensolve, static modes on the task farm (checkpointed), transforms, FRF sweep */
PetscErrorCode DRPMORSolve(DRPMOR pm);
PetscErrorCode DRPMORView(DRPMOR pm, PetscViewer v);
PetscErrorCode DRPMORWrite(DRPMOR pm, DRStore store);
PetscErrorCode DRPMORGetCheckpoint(DRPMOR pm, const char **path);
/* delete the support and FRF checkpoints (after the result is committed) */
PetscErrorCode DRPMORRemoveCheckpoints(DRPMOR pm);
PetscErrorCode DRPMORGetPhaseSeconds(DRPMOR pm, PetscReal *offline, PetscReal *frf, PetscReal *sim);
PetscErrorCode DRPMORDestroy(DRPMOR *pm);

/* The interpolated ROM at p (after DRPMORSolve, any rank): n x n M, D, K
 * (column-major), B [n], C [n]; arrays of length n*n / n given by the caller. */
PetscErrorCode DRPMORGetSize(DRPMOR pm, PetscInt *n);
PetscErrorCode DRPMORInterpolate(DRPMOR pm, PetscReal p, PetscReal *M, PetscReal *D, PetscReal *K, PetscReal *B, PetscReal *C);

/* Interpolation weights w[0..k-1] at p for supports ps[0..k-1] (increasing):
 * type "linear" (hat functions) or "spline" (cubic spline through delta_i:
 * natural ends, or periodic with the given period when period > 0).
 * sum w = 1 and w_i(p_j) = delta_ij. */
PetscErrorCode DRPMORWeights(PetscInt k, const PetscReal ps[], const char *type, PetscReal period, PetscReal p, PetscReal w[]);
#endif
