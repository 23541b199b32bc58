/* dynred: the GMP job's sweep and transient check (job `dynred gmp`).
 *
 * DRGMPSweepRun reads the gmp: section, evaluates the ROMs of every grid
 * point (and of the verification grid) on the task farm with a checkpoint
 * next to the output, tracks the modes, writes /gmp/grid, /gmp/track and
 * /gmp/verify, and returns the tracked grid (on rank 0) for the transient
 * check.  Layout and definitions are also stored as attributes. */
#ifndef DYNRED_GMPSWEEP_H
#define DYNRED_GMPSWEEP_H
#include <dynred/gmp.h>
#include <dynred/store.h>

typedef struct {
  PetscInt        ngrid, computed;
  DRGMPRom       *grid; /* rank 0: tracked grid ROMs */
  DRMechanism     mech;
  DRGMPRomOptions opt;
  PetscReal       period; /* > 0 when theta1 is periodic */
  PetscReal       sweep_seconds, closure, macmin;
  PetscReal       matrix_error[3], eig_error[3]; /* mean over the verification grid, per method */
  char            checkpoint[PETSC_MAX_PATH_LEN];
} DRGMPSweepResult;

PetscErrorCode DRGMPRegisterKeys(void);
PetscErrorCode DRGMPSweepRun(DRConfig cfg, DRStore store, const char *output, DRGMPSweepResult *res);
PetscErrorCode DRGMPSweepResultDestroy(DRGMPSweepResult *res);

/* Transient check (gmp.transient.*): the reduced mechanism driven by a
 * torque on theta, integrated with generalized-alpha (PETSc TSALPHA2,
 * rho_inf = 1: no numerical damping) with each interpolation method and with
 * the exact ROM recomputed at every evaluation; writes /gmp/transient. */
PetscErrorCode DRGMPTransientRegisterKeys(void);
PetscErrorCode DRGMPTransientRun(DRConfig cfg, DRStore store, DRGMPSweepResult *res);
#endif
