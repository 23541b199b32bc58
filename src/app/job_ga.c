/* dynred ga: master-DOF selection by NSGA-II (ga.h, METHODS.md 4). */
#include "app.h"
#include <dynred/ga.h>

PetscErrorCode DRJobGA(DRConfig cfg)
{
  DRGA           ga;
  DRStore        store;
  PetscReal      t[3];
  PetscLogDouble t0;
  const char    *phases[3] = {"setup", "optimisation", "output"};
  char           out[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  t0 = DRTime();
  PetscCall(DRGACreate(PETSC_COMM_WORLD, &ga));
  PetscCall(DRGASetFromConfig(ga, cfg));
  t[0] = DRTime() - t0;
  t0   = DRTime();
  PetscCall(DRGASolve(ga));
  t[1] = DRTime() - t0;
  t0   = DRTime();
  PetscCall(DRJobStoreOpen(cfg, "ga", &store));
  PetscCall(DRGAWrite(ga, store));
  t[2] = DRTime() - t0;
  PetscCall(DRJobStoreCommit(&store, 3, phases, t));
  PetscCall(DRGARemoveCheckpoint(ga));
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s (setup %.2f s, optimisation %.2f s, output %.2f s)\n", out, (double)t[0], (double)t[1], (double)t[2]));
  PetscCall(DRGADestroy(&ga));
  PetscFunctionReturn(PETSC_SUCCESS);
}
