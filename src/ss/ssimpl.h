/* dynred ss: private layout of DRSS and the integrators' shared context. */
#ifndef DYNRED_SSIMPL_H
#define DYNRED_SSIMPL_H

#include <dynred/ss.h>
#include <dynred/config.h>
#include <dynred/units.h>

#define DR_SS_MAXSIM 32

/* A reduced model read from a dynred result (or any HDF5 file) group:
 *  - modes:  GROUP/frequencies_hz [m], GROUP/modes [ndof, m] (mass-normalized,
 *            rows = GROUP/labels [ndof, 2]): a cms or modal result;
 *  - matrices: GROUP/K, GROUP/M [n, n] over GROUP/labels [n, 2] (e.g. a GA
 *            solution /ga/solutions/NNN, numeric GROUP/dof_labels preferred):
 *            modes by DRSSModesFromKM (DRDenseEigen) in DRSSSourceModes.
 * group "" tries /cms, then /modal.  Every rank reads (the data is small
 * except the mode matrix, of which only the selected rows are read).  All
 * HDF5 calls of ss/ are in ss_source.c. */
typedef struct {
  char       path[PETSC_MAX_PATH_LEN], group[256];
  PetscBool  from_km;
  PetscInt   ndof, m;
  DRLabel   *labels;       /* ndof */
  PetscReal *omega;        /* m, rad per time unit ascending (rad/s after SourceUnits) */
  PetscReal  freq_tu;      /* modes: seconds per time unit of frequencies_hz (its attribute time_unit_s), 0: the file's */
  PetscReal *K, *M, *Phi;  /* from_km: ndof x ndof, ndof x ndof, ndof x m (row-major) */
} DRSSSource;
PetscErrorCode DRSSSourceRead(const char *path, const char *group, DRSSSource *src);
/* from_km: the modes of (K, M) (DR_SS_ModalBasis); otherwise nothing. */
PetscErrorCode DRSSSourceModes(DRSSSource *src);
/* Rows of the modes at labels l[] (nl x m, row-major); *missing = index of the
 * first label not in the source, or -1. */
PetscErrorCode DRSSSourceModeRows(DRSSSource *src, PetscInt nl, const DRLabel l[], PetscReal rows[], PetscInt *missing);
PetscErrorCode DRSSSourceDestroy(DRSSSource *src);

/* One simulation run of DRSSSolve (one method of ss.sim.methods). */
typedef struct {
  char       name[32];
  PetscReal  wall, err; /* mean wall time per run [s]; max relative error against the reference */
  PetscReal *Y;         /* (nsteps+1) x 2 nout, row-major (NULL unless write_y) */
} DRSSRun;

struct _p_DRSS {
  MPI_Comm comm;
  /* the modal model */
  PetscInt   m, nin, nout;
  PetscReal *omega;    /* m, rad/s (0 for rigid-body modes) */
  PetscReal *c;        /* m, 2 zeta_k omega_k, 1/s */
  PetscBool *rigid;    /* m */
  PetscReal *Bm;       /* m x nin, row-major */
  PetscReal *Cm;       /* nout x m, row-major */
  DRLabel   *in, *out; /* nin, nout labels (may be NULL) */
  /* job settings (DRSSSetFromOptions) */
  DRConfig  cfg;
  PetscBool from_options;
  char      path[PETSC_MAX_PATH_LEN], group[256], dtype[32];
  PetscReal fmax, rigid_hz, alpha, beta, *zeta;
  PetscInt  nmodes, nzeta;
  PetscBool mtx;
  char      output[PETSC_MAX_PATH_LEN];
  PetscInt  opt_nin, opt_nout;
  DRLabel  *opt_in, *opt_out; /* ss.inputs, ss.outputs */
  /* the source (DRSSSetUp) */
  DRSSSource src;
  PetscBool  have_src;
  /* the source's unit system and the one of the state space (time in s:
   * omega / tu, modes Phi / tu, i.e. mass-normalized to M tu^2) */
  DRUnits    units, units_s;
  PetscBool  have_units;
  /* simulation settings and results */
  char      ref[32];
  PetscReal h;
  PetscInt  nsteps, repeat, nrun;
  PetscBool writey;
  DRSignal  sig;
  DRSSRun   run[DR_SS_MAXSIM];
  PetscBool solved;
  PetscLogDouble t_export, t_simulate; /* from the log events */
};

/* The input signal from the keys PREFIX.signal, .amplitude, .t0, .freq_hz,
 * .t_rise, .t_hold, .t_fall, .scale, .file (ss.input, hybrid.input). */
PetscErrorCode DRSSSignalFromConfig(DRConfig cfg, const char *prefix, PetscInt nin, DRSignal *sig);

/* The integrators' context: the model, the input and where to record. */
struct _n_DRSSSim {
  DRSS             ss;
  const DRSSInput *u;
  PetscReal       *uval, *f; /* nin, m */
  PetscReal       *Y, *X;
  PetscInt         nsteps;
  PetscReal        h;
};

/* Modal forces f = Bm u(t) (m). */
PetscErrorCode DRSSSimForce(DRSSSim s, PetscReal t, PetscReal f[]);
/* Record output y = C x (and the state) at step n: x interleaved
 * [eta_1, deta_1, ...], or (x NULL) displacements d[] and velocities v[]. */
void DRSSSimRecord(DRSSSim s, PetscInt n, const PetscReal x[], const PetscReal d[], const PetscReal v[]);

/* The built-in integrators (ss_sim.c: exact zoh newmark central; ss_ts.c:
 * the PETSc TS family). */
PetscErrorCode DRSSIntegrate_Exact(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[]);
PetscErrorCode DRSSIntegrate_ZOH(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[]);
PetscErrorCode DRSSIntegrate_Newmark(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[]);
PetscErrorCode DRSSIntegrate_Central(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[]);
PetscErrorCode DRSSIntegrate_TS(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[]);
PetscErrorCode DRSSIntegrate_Alpha2(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[]);

/* The integrator registered as `method`; unknown: DRRegistryFind's error
 * (naming `where`, may be NULL, and the known names). */
PetscErrorCode DRSSFindIntegrator(const char *method, const char *where, DRSSIntegrator *fn);

/* Log events of the package (DRSSInitializePackage). */
extern PetscClassId  DR_SS_CLASSID;
extern PetscLogEvent DR_SS_SourceRead, DR_SS_ModalBasis, DR_SS_Build, DR_SS_Simulate, DR_SS_Write;

#endif
