/* dynred ga: master-DOF selection by NSGA-II (ga.h, METHODS.md 4). */
#include "app.h"
#include <dynred/ga.h>

PetscErrorCode DRJobGA(DRConfig cfg)
{
  DRGA        ga;
  DRStore     store;
  PetscReal   t[3];
  const char *phases[3] = {"setup", "optimisation", "output"};
  char        out[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "ga"));
  PetscCall(DRGACreate(PETSC_COMM_WORLD, &ga));
  PetscCall(DRGASetConfig(ga, cfg));
  PetscCall(DRGASetFromOptions(ga));
  PetscCall(DRGASetUp(ga));
  PetscCall(DRGASolve(ga));
  PetscCall(DRJobStoreOpen(cfg, "ga", &store));
  PetscCall(DRGAWrite(ga, store));
  PetscCall(DRGAGetTiming(ga, &t[0], &t[1], &t[2]));
  PetscCall(DRJobStoreCommit(&store, 3, phases, t));
  PetscCall(DRGARemoveCheckpoint(ga));
  PetscCall(DRGAView(ga, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s (setup %.2f s, optimisation %.2f s, output %.2f s)\n", out, (double)t[0], (double)t[1], (double)t[2]));
  PetscCall(DRGADestroy(&ga));
  PetscFunctionReturn(PETSC_SUCCESS);
}
