/* dynred: master-DOF selection by a multi-objective genetic algorithm
 * (NSGA-II), METHODS.md section 4 (iterative dynamic condensation and GA
 * selection of master DOFs for real-time hybrid simulation).
 *
 * Genes: one bit per candidate DOF (translational DOFs with nonzero lumped
 * mass, less the forced masters; rotations only with ga.rotations).  An
 * individual's master set is the forced masters plus its candidates with a
 * 1 bit.  Objectives, both minimized:
 *   r = number of masters,
 *   e = sum_{h=1..b} (omega_hR - omega_h) / omega_h,
 * b = the smallest index with omega_b >= 3 omega_max (omega_max = 2 pi
 * ga.fmax).  A set that cannot be condensed (singular Q_mm or X_mm, M_R not
 * positive definite) or has fewer than b masters is infeasible: it gets
 * e = DR_GA_PENALTY and is never reported.
 *
 * The NSGA-II state and its seeded RNG (xoshiro256**) live on rank 0; the
 * individuals of a generation that are not yet in the cache (a hash table of
 * bitstrings on rank 0) are evaluated through the task farm (farm.h), each
 * group with its own copy of the model and one factorization of K0
 * (condense.h).  Results are addressed by task index, so the front does not
 * depend on the number of ranks.
 */
#ifndef DYNRED_GA_H
#define DYNRED_GA_H

#include <dynred/config.h>
#include <dynred/store.h>
#include <petscviewer.h>

#define DR_GA_PENALTY 1e30

typedef struct _p_DRGA *DRGA;

/* Register the ga.* job-file keys. */
PetscErrorCode DRGARegisterKeys(void);
/* Class "DR GA" and its log events (DRGASetUp, DRGASolve, DRGAGeneration,
 * DRGAEvalBatch, DRGAFitness, DRGASelect, DRGACheckpoint, DRGAFront,
 * DRGAWrite); called by DRGACreate.  Turns PETSc's default logging on when
 * it is off: the timings are read from the events. */
PetscErrorCode DRGAInitializePackage(void);
PetscErrorCode DRGACreate(MPI_Comm comm, DRGA *ga);
/* The job file (optional; kept as a reference, must outlive the GA). */
PetscErrorCode DRGASetConfig(DRGA ga, DRConfig cfg);
/* Read the ga.* keys (option > YAML > default).  Errors name the file and key. */
PetscErrorCode DRGASetFromOptions(DRGA ga);
/* Build the model (model.*) on every farm group; candidates, forced
 * masters, the full frequencies and b.  Collective. */
PetscErrorCode DRGASetUp(DRGA ga);
/* Run NSGA-II (restarting from the checkpoint when one is found), then
 * condense the final front once more for its reduced matrices. */
PetscErrorCode DRGASolve(DRGA ga);
/* The Pareto front table (after DRGASolve; the settings before it). */
PetscErrorCode DRGAView(DRGA ga, PetscViewer v);
/* Final front, reduced matrices of its solutions, history, under /ga; the
 * front also as CSV (ga.csv): r, e, dt_critical_s, dt_suggested_s, masters. */
PetscErrorCode DRGAWrite(DRGA ga, DRStore s);
/* Seconds of the phases (from the log events): setup, optimisation, output. */
PetscErrorCode DRGAGetTiming(DRGA ga, PetscReal *setup, PetscReal *solve, PetscReal *output);
/* Delete the GA checkpoint (after the output is committed). */
PetscErrorCode DRGARemoveCheckpoint(DRGA ga);
PetscErrorCode DRGADestroy(DRGA *ga);


#endif
