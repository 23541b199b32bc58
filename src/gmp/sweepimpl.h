/* The GMP sweep object (include/dynred/gmpsweep.h): private layout shared by
 * sweep.c (options, grid, farm, tracking, view), sweep_verify.c and
 * sweep_write.c. */
#ifndef DYNRED_GMP_SWEEPIMPL_H
#define DYNRED_GMP_SWEEPIMPL_H
#include "gmp_impl.h"
#include <dynred/gmpsweep.h>

#define DR_GMP_NMETHOD 3 /* the built-in methods verified: DRGMPMethods[0..2] */
#define DR_GMP_NERR    5 /* matrix, mass, stiffness, eigenvalue, Psi errors */

struct _p_DRGMPSweep {
  MPI_Comm          comm;
  DRConfig          cfg;
  PetscBool         owncfg;
  /* options (SetFromOptions) */
  char              type[32], output[PETSC_MAX_PATH_LEN], ckpt[PETSC_MAX_PATH_LEN];
  DRMechanismParams p;
  DRGMPRomOptions   opt;
  PetscBool         shapes, periodic[DR_GMP_MAXTHETA], uniform[DR_GMP_MAXTHETA];
  PetscReal         vstep, macwarn;
  PetscInt          export_point;
  /* set up (SetUp): the mechanism, the grid (theta1 fastest) and the
   * verification grid, the checkpoint signature */
  DRMechanism       mech;
  DRGMPRomBuilder   builder;
  PetscInt          nt, ndof, n, ngrid, nfine, npts[DR_GMP_MAXTHETA];
  PetscReal        *axis[DR_GMP_MAXTHETA], *fine_theta;
  char              sig[1024];
  /* results (Solve; arrays on rank 0) */
  DRGMPRom         *grid, *fine;
  PetscInt          computed, restored;
  PetscReal         farm_seconds;
  PetscReal        *macd, closure, macmin;
  PetscInt         *veer, nveer;
  PetscReal        *err[DR_GMP_NMETHOD][DR_GMP_NERR], *thf;
  PetscInt          nindef[DR_GMP_NMETHOD];
  PetscReal         matrix_error[DR_GMP_NMETHOD], eig_error[DR_GMP_NMETHOD];
  PetscBool         setupcalled, solved;
};

PetscErrorCode DRGMPSweepVerify_Private(DRGMPSweep s);
PetscErrorCode DRGMPSweepViewVerify_Private(DRGMPSweep s, PetscViewer viewer);
PetscErrorCode DRGMPSweepWriteVerify_Private(DRGMPSweep s, DRStore store);
PetscErrorCode DRGMPSweepWriteGrid_Private(DRGMPSweep s, DRStore store);
PetscErrorCode DRGMPSweepWriteExport_Private(DRGMPSweep s, DRStore store);
PetscErrorCode DRGMPSweepWriteTrack_Private(DRGMPSweep s, DRStore store);
#endif
