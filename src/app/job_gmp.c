/* dynred gmp: Global Modal Parameterization sweep, interpolation check and
 * transient check (the work is in src/gmp; see include/dynred/gmpsweep.h). */
#include "app.h"
#include <dynred/gmpsweep.h>
#include <unistd.h>

PetscErrorCode DRJobGMP(DRConfig cfg)
{
  DRStore          store;
  DRGMPSweepResult res;
  char             out[PETSC_MAX_PATH_LEN];
  PetscLogDouble   t0 = DRTime(), t1;
  PetscMPIInt      rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(DRJobStoreOpen(cfg, "gmp", &store));
  PetscCall(DRGMPSweepRun(cfg, store, out, &res));
  t1 = DRTime();
  PetscCall(DRGMPTransientRun(cfg, store, &res));
  {
    const char *ph[] = {"sweep", "track_verify_write", "transient"};
    PetscReal   t[]  = {res.sweep_seconds, t1 - t0 - res.sweep_seconds, DRTime() - t1};
    PetscCall(DRJobStoreCommit(&store, 3, ph, t));
  }
  /* the result is committed: the sweep checkpoint is no longer needed */
  if (rank == 0) (void)unlink(res.checkpoint);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", out));
  PetscCall(DRGMPSweepResultDestroy(&res));
  PetscFunctionReturn(PETSC_SUCCESS);
}
