/* dynred: the GMP job's sweep and transient check (job `dynred gmp`).
 *
 * DRGMPSweep reads the gmp: section (SetFromOptions: through the DRConfig
 * getters, option > YAML > default; without SetConfig an empty job file),
 * builds the mechanism and the grids (SetUp), evaluates the ROMs of every
 * grid point and of the verification grid on the task farm with a
 * checkpoint next to the output, tracks the modes and verifies the
 * interpolation methods (Solve), prints the tracking and verification
 * tables (View), and writes /gmp/grid, /gmp/track, /gmp/export and
 * /gmp/verify (Write).  The tracked grid stays with the sweep (rank 0) for
 * the transient check.  Layout and definitions are also stored as
 * attributes. */
#ifndef DYNRED_GMPSWEEP_H
#define DYNRED_GMPSWEEP_H
#include <dynred/gmp.h>
#include <dynred/store.h>

typedef struct _p_DRGMPSweep *DRGMPSweep;

PetscErrorCode DRGMPRegisterKeys(void);
PetscErrorCode DRGMPSweepCreate(MPI_Comm comm, DRGMPSweep *s);
PetscErrorCode DRGMPSweepSetConfig(DRGMPSweep s, DRConfig cfg);
PetscErrorCode DRGMPSweepSetFromOptions(DRGMPSweep s);
PetscErrorCode DRGMPSweepSetUp(DRGMPSweep s);
PetscErrorCode DRGMPSweepSolve(DRGMPSweep s);
PetscErrorCode DRGMPSweepView(DRGMPSweep s, PetscViewer viewer);
PetscErrorCode DRGMPSweepWrite(DRGMPSweep s, DRStore store);
PetscErrorCode DRGMPSweepDestroy(DRGMPSweep *s);
/* The sweep's checkpoint file (removable once the result is committed). */
PetscErrorCode DRGMPSweepGetCheckpoint(DRGMPSweep s, const char **path);
/* Rank 0: the tracked grid (other ranks: ngrid and NULL); the mechanism;
 * the ROM options; the period of theta1 (0 unless periodic). */
PetscErrorCode DRGMPSweepGetGrid(DRGMPSweep s, PetscInt *ngrid, const DRGMPRom **grid);
PetscErrorCode DRGMPSweepGetMechanism(DRGMPSweep s, DRMechanism *m, DRGMPRomOptions *opt);
PetscErrorCode DRGMPSweepGetPeriod(DRGMPSweep s, PetscReal *period);
/* The grid's axes: number, points per axis, first value (theta1 fastest). */
PetscErrorCode DRGMPSweepGetAxes(DRGMPSweep s, PetscInt *nt, PetscInt npts[], PetscReal first[]);
/* Axis t's first and last grid value and whether its points are equally
 * spaced (after DRGMPSweepSetUp, every rank; uniform may be NULL). */
PetscErrorCode DRGMPSweepGetAxisRange(DRGMPSweep s, PetscInt t, PetscReal *lo, PetscReal *hi, PetscBool *uniform);
/* Mean errors over the verification grid per method (DRGMPMethods[0..2]). */
PetscErrorCode DRGMPSweepGetErrors(DRGMPSweep s, PetscReal matrix_error[3], PetscReal eig_error[3]);

/* Transient check (gmp.transient.*): the reduced mechanism driven by a
 * torque on theta, integrated with generalized-alpha (PETSc TSALPHA2,
 * rho_inf = 1: no numerical damping) with each interpolation method and with
 * the exact ROM recomputed at every evaluation (View: the error table;
 * Write: /gmp/transient).  Does nothing unless gmp.transient.enabled. */
typedef struct _p_DRGMPTransient *DRGMPTransient;

PetscErrorCode DRGMPTransientRegisterKeys(void);
PetscErrorCode DRGMPTransientCreate(MPI_Comm comm, DRGMPTransient *tr);
PetscErrorCode DRGMPTransientSetConfig(DRGMPTransient tr, DRConfig cfg);
/* The solved sweep whose tracked grid is interpolated (borrowed). */
PetscErrorCode DRGMPTransientSetSweep(DRGMPTransient tr, DRGMPSweep s);
PetscErrorCode DRGMPTransientSetFromOptions(DRGMPTransient tr);
PetscErrorCode DRGMPTransientSetUp(DRGMPTransient tr);
PetscErrorCode DRGMPTransientSolve(DRGMPTransient tr);
PetscErrorCode DRGMPTransientView(DRGMPTransient tr, PetscViewer viewer);
PetscErrorCode DRGMPTransientWrite(DRGMPTransient tr, DRStore store);
PetscErrorCode DRGMPTransientDestroy(DRGMPTransient *tr);
#endif
