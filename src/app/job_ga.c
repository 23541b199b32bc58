/* dynred ga: master-DOF selection by NSGA-II (ga.h, METHODS.md 4). */
#include "app.h"
#include <dynred/ga.h>
#include <dynred/units.h>

/* ga.time_unit (seconds per model time unit) follows model.units: set from
 * it unless given, and given it must agree (it predates model.units). */
static PetscErrorCode GATimeUnit(DRConfig cfg)
{
  DRUnits   u;
  PetscBool tset;
  PetscReal tu;
  char      where[PETSC_MAX_PATH_LEN + 32], v[64];

  PetscFunctionBeginUser;
  PetscCall(DRModelGetUnits(cfg, &u, NULL));
  PetscCall(DRConfigGetReal(cfg, "ga.time_unit", &tu, &tset));
  if (tset) {
    PetscCall(DRConfigWhere(cfg, "ga.time_unit", where, sizeof(where)));
    PetscCheck(PetscAbsReal(tu - u.time_s) <= 1e-12 * u.time_s, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: ga.time_unit = %g s disagrees with model.units = %s (time unit %g s), expected model.units alone (e.g. N-mm-ms-g for a model in ms)", where, (double)tu, u.name, (double)u.time_s);
  } else if (u.time_s != 1) {
    PetscCall(PetscSNPrintf(v, sizeof(v), "%.17g", (double)u.time_s));
    PetscCall(PetscOptionsSetValue(NULL, "-ga_time_unit", v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobGA(DRConfig cfg)
{
  DRGA        ga;
  DRStore     store;
  PetscReal   t[3];
  const char *phases[3] = {"setup", "optimisation", "output"};
  char        out[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "ga"));
  PetscCall(GATimeUnit(cfg));
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
