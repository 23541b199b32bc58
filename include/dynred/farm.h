/* dynred: the task farm for sweeps (GMP grid points, GA individuals).
 *
 * The communicator is split into rank groups of equal size (contiguous
 * ranks; job key ranks_per_group / -ranks_per_group, default 1).  Tasks 0..ntasks-1 are handed out
 * dynamically: rank 0 hands the next unfinished task to whichever group
 * asks (point-to-point messages; each group holds one task in reserve), so a
 * slow task never holds up the others.  The task function runs collectively
 * on the group's communicator and returns one flat array of reals on the
 * group's rank 0; the farm ships it to rank 0 of the whole communicator.
 *
 * With a checkpoint file (DRFarmSetCheckpoint) rank 0 streams every result to
 * it as it arrives (HDF5, /farm/NNNNNNN, flushed after each), so a sweep that
 * is killed and restarted with the same command skips the finished tasks.
 * Results are addressed by task index, never by arrival order, so what a
 * caller builds from them does not depend on the number of ranks or groups.
 * Progress lines with an ETA go to stdout (DRProgress).
 */
#ifndef DYNRED_FARM_H
#define DYNRED_FARM_H
#include <dynred/sys.h>
#include <dynred/config.h>

typedef struct _p_DRFarm *DRFarm;

/* One task, collective on `group`.  On the group's rank 0 set *n and *result
 * (allocated with PetscMalloc1; the farm takes ownership); other ranks of the
 * group leave them alone.  A task that cannot be evaluated (a singular
 * matrix, an infeasible individual) should return a result that says so (a
 * penalty), not an error: an error aborts the whole sweep. */
typedef PetscErrorCode (*DRFarmTaskFn)(MPI_Comm group, PetscInt task, void *ctx, PetscInt *n, PetscReal **result);

PetscErrorCode DRFarmCreate(MPI_Comm comm, DRFarm *farm);
/* Ranks per group (must divide the communicator size; it is capped at the size). */
PetscErrorCode DRFarmSetGroupSize(DRFarm farm, PetscInt ranks_per_group);
/* The job (optional): DRFarmSetFromOptions then reads its keys from it too. */
PetscErrorCode DRFarmSetConfig(DRFarm farm, DRConfig cfg);
/* Reads the job keys ranks_per_group (-ranks_per_group; 0 keeps the group
 * size set by the caller; the deprecated -farm_group_size is read as it),
 * farm.progress (-farm_progress, seconds between progress lines) and
 * farm.stop_after (testing), through the config getters. */
PetscErrorCode DRFarmSetFromOptions(DRFarm farm);
PetscErrorCode DRFarmSetUp(DRFarm farm);
/* The calling rank's group communicator (after SetUp); e.g. to build one
 * factorization per group before DRFarmRun. */
PetscErrorCode DRFarmGetGroup(DRFarm farm, MPI_Comm *group, PetscInt *igroup, PetscInt *ngroups);
/* Stream results to PATH (HDF5) and skip tasks already in it.  `signature`
 * identifies the sweep (e.g. a hash of the job text): a checkpoint written by
 * a different sweep is an error naming the file, not silently reused.
 * Collective: the same path on every rank (a run with a checkpoint makes its
 * ranks agree on the restored tasks; without one it skips that step). */
PetscErrorCode DRFarmSetCheckpoint(DRFarm farm, const char *path, const char *signature);
/* What a task is called in progress lines ("grid point", "individual"). */
PetscErrorCode DRFarmSetLabel(DRFarm farm, const char *label);
/* Evaluate tasks 0..ntasks-1.  Collective on the farm's communicator; may be
 * called repeatedly (one generation after another); each call replaces the
 * previous results.  Without a checkpoint a run makes no collective call but
 * the reductions and broadcasts of its end: runs follow each other without a
 * barrier. */
PetscErrorCode DRFarmRun(DRFarm farm, PetscInt ntasks, DRFarmTaskFn fn, void *ctx);
/* On rank 0 of the farm's communicator after DRFarmRun: the result of task i. */
PetscErrorCode DRFarmGetResult(DRFarm farm, PetscInt task, PetscInt *n, const PetscReal **result);
/* Statistics of the last run: tasks evaluated here (not from the checkpoint),
 * tasks restored from it, wall time. */
PetscErrorCode DRFarmGetStats(DRFarm farm, PetscInt *computed, PetscInt *restored, PetscReal *seconds);
/* This rank's seconds over all runs so far: inside task functions, waiting
 * for tasks (workers; on rank 0 serving requests), receiving and checkpointing other groups' results
 * between its own tasks (rank 0), and waiting at the end of runs (rank 0 for
 * the last results, the others for their sends).  Any argument may be NULL. */
PetscErrorCode DRFarmGetTimes(DRFarm farm, PetscReal *task, PetscReal *waiting, PetscReal *drain, PetscReal *wait);
/* Delete the checkpoint (after the final output is committed). */
PetscErrorCode DRFarmRemoveCheckpoint(DRFarm farm);
PetscErrorCode DRFarmDestroy(DRFarm *farm);
#endif
