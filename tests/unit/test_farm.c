/* The task farm: every task evaluated exactly once, results addressed by
 * task index whatever the number of ranks, groups or arrival order; tasks
 * of very different cost (dynamic scheduling); results run collectively on
 * groups of several ranks; a checkpointed sweep restarted after an abort
 * skips the finished tasks and ends with the same results.
 *   test_farm [-ranks_per_group g] [-ckpt FILE [-expect_restored n]]
 * The reference result of task i is computed here independently: the sum
 * over the group of (i + 1) * (grank + 1) and a task-dependent length. */
#include "drtest.h"
#include <time.h>

typedef struct {
  PetscInt calls; /* tasks this rank took part in */
} Ctx;

static PetscErrorCode Task(MPI_Comm group, PetscInt i, void *vctx, PetscInt *n, PetscReal **r)
{
  Ctx        *ctx = (Ctx *)vctx;
  PetscMPIInt grank, gsize;
  PetscReal   mine, sum;

  PetscFunctionBeginUser;
  ctx->calls++;
  PetscCallMPI(MPI_Comm_rank(group, &grank));
  PetscCallMPI(MPI_Comm_size(group, &gsize));
  if (i % 7 == 0) { /* uneven cost */
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
  }
  mine = (PetscReal)(i + 1) * (grank + 1);
  PetscCallMPI(MPI_Allreduce(&mine, &sum, 1, MPIU_REAL, MPI_SUM, group));
  if (grank == 0) {
    *n = 1 + i % 5 + (i == 3 ? 200000 : 0); /* one large result: rendezvous sends */
    PetscCall(PetscMalloc1(*n, r));
    (*r)[0] = sum / (gsize * (gsize + 1) / 2);
    for (PetscInt k = 1; k < *n; k++) (*r)[k] = i + 1e-3 * k;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DRFarm      farm;
  Ctx         ctx = {0};
  PetscInt    ntasks = 40, computed, restored, expect = -1, total;
  char        ckpt[PETSC_MAX_PATH_LEN] = "";
  PetscBool   hasck;
  PetscMPIInt rank;

  PetscCall(DRInitialize(&argc, &argv, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ckpt", ckpt, sizeof(ckpt), &hasck));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-expect_restored", &expect, NULL));
  PetscCall(DRFarmCreate(PETSC_COMM_WORLD, &farm));
  PetscCall(DRFarmSetLabel(farm, "test task"));
  PetscCall(DRFarmSetFromOptions(farm));
  if (hasck) PetscCall(DRFarmSetCheckpoint(farm, ckpt, "test_farm v1"));
  for (int run = 0; run < 2; run++) { /* twice: the farm is reusable (GA generations) */
    PetscCall(DRFarmRun(farm, ntasks, Task, &ctx));
    PetscCall(DRFarmGetStats(farm, &computed, &restored, NULL));
    if (rank == 0) {
      PetscInt bad = 0;
      for (PetscInt i = 0; i < ntasks; i++) {
        PetscInt         n;
        const PetscReal *r;
        PetscCall(DRFarmGetResult(farm, i, &n, &r));
        if (n != 1 + i % 5 + (i == 3 ? 200000 : 0) || r[0] != (PetscReal)(i + 1)) bad++;
        for (PetscInt k = 1; k < n; k++)
          /* tol: exact: the same expression on both sides; results travel bit for bit (MPI, HDF5 checkpoint) */
          if (r[k] != i + 1e-3 * k) bad++;
      }
      DRTEST_TRUE(bad == 0, "run %d: all %" PetscInt_FMT " results correct and addressed by task index (%" PetscInt_FMT " wrong)", run, ntasks, bad);
    }
    if (run == 0 && expect >= 0) DRTEST_TRUE(restored == expect, "restored %" PetscInt_FMT " tasks from the checkpoint, expected %" PetscInt_FMT, restored, expect);
    if (run == 1 && hasck) DRTEST_TRUE(restored == ntasks && computed == 0, "second run with a complete checkpoint recomputes nothing (%" PetscInt_FMT " restored)", restored);
    if (!hasck) DRTEST_TRUE(computed == ntasks, "computed %" PetscInt_FMT " tasks", computed);
  }
  /* every task ran on exactly one group: sum of group-root calls */
  {
    MPI_Comm  group;
    PetscInt  g, ng, mine = 0;
    PetscMPIInt grank;
    PetscCall(DRFarmGetGroup(farm, &group, &g, &ng));
    PetscCallMPI(MPI_Comm_rank(group, &grank));
    mine = grank == 0 ? ctx.calls : 0;
    PetscCallMPI(MPI_Allreduce(&mine, &total, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    if (!hasck) DRTEST_TRUE(total == 2 * ntasks, "each task evaluated once per run over %" PetscInt_FMT " group(s): %" PetscInt_FMT " evaluations", ng, total);
  }
  if (hasck) PetscCall(DRFarmRemoveCheckpoint(farm));
  PetscCall(DRFarmDestroy(&farm));
  DRTEST_END();
}
