/* dynred gmp: Global Modal Parameterization sweep, interpolation check and
 * transient check (the work is in src/gmp; see include/dynred/gmpsweep.h). */
#include "app.h"
#include <dynred/gmpsweep.h>
#include <dynred/units.h>
#include <unistd.h>

PetscErrorCode DRJobGMP(DRConfig cfg)
{
  DRStore        store;
  DRGMPSweep     sweep;
  DRGMPTransient tr;
  const char    *ckpt;
  char           out[PETSC_MAX_PATH_LEN];
  const char    *ph[] = {"sweep", "track_verify_write", "transient"};
  PetscReal      t[3];
  PetscMPIInt    rank;

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "gmp"));
  { /* the mechanisms' keys are in seconds (gmp.* declare Pa, m, kg/m^3, Hz): frequencies are Hz only then */
    DRUnits u;
    char    where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRModelGetUnits(cfg, &u, NULL));
    PetscCall(DRConfigWhere(cfg, "model.units", where, sizeof(where)));
    PetscCheck(u.time_s == 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.units = %s: gmp takes a system with the time in s (its keys are SI), expected e.g. N-m-s-kg or N-mm-s-t", where, u.name);
  }
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(DRJobStoreOpen(cfg, "gmp", &store));
  PetscCall(DRGMPSweepCreate(PETSC_COMM_WORLD, &sweep));
  PetscCall(DRGMPSweepSetConfig(sweep, cfg));
  PetscCall(DRGMPSweepSetFromOptions(sweep));
  PetscCall(DRGMPSweepSetUp(sweep));
  /* the transient's options against the mechanism before the sweep's work */
  PetscCall(DRGMPTransientCreate(PETSC_COMM_WORLD, &tr));
  PetscCall(DRGMPTransientSetConfig(tr, cfg));
  PetscCall(DRGMPTransientSetSweep(tr, sweep));
  PetscCall(DRGMPTransientSetFromOptions(tr));
  PetscCall(DRGMPSweepSolve(sweep));
  PetscCall(DRGMPSweepView(sweep, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRGMPSweepWrite(sweep, store));
  PetscCall(DRGMPTransientSetUp(tr));
  PetscCall(DRGMPTransientSolve(tr));
  PetscCall(DRGMPTransientView(tr, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRGMPTransientWrite(tr, store));
  PetscCall(DRGMPGetPhaseSeconds(&t[0], &t[1], &t[2]));
  PetscCall(DRJobStoreCommit(&store, 3, ph, t));
  /* the result is committed: the sweep checkpoint is no longer needed */
  PetscCall(DRGMPSweepGetCheckpoint(sweep, &ckpt));
  if (rank == 0) (void)unlink(ckpt);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", out));
  PetscCall(DRGMPTransientDestroy(&tr));
  PetscCall(DRGMPSweepDestroy(&sweep));
  PetscFunctionReturn(PETSC_SUCCESS);
}
