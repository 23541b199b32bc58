/* dynred: modal state-space models of reduced models and their fixed-step
 * time integration (METHODS.md section 2, corrected form).
 *
 * A DRSS holds m modes (angular frequencies omega_k, modal damping
 * coefficients c_k = 2 zeta_k omega_k), the input map Bm = Phi^T S_in
 * (m x nin) and the output map Cm = S_out^T Phi (nout x m) of a
 * mass-normalized modal basis Phi.  With the interleaved state
 * x = [eta_1, deta_1, ..., eta_m, deta_m]:
 *
 *   A = blkdiag_k [[0, 1], [-omega_k^2, -c_k]]      (2m x 2m)
 *   B = Bm kron e_2,  e_2 = [0; 1]                    (2m x nin)
 *   C = Cm kron I_2                                   (2 nout x 2m: rows
 *       [disp of output 1, vel of output 1, disp of output 2, ...])
 *   D = 0                                             (2 nout x nin)
 *
 * and the second-order form I q'' + diag(c) q' + diag(omega^2) q = Bm u,
 * y_disp = Cm q, y_vel = Cm q'.  Rigid-body modes (omega = 0) keep the
 * block [[0, 1], [0, 0]]: they are never damped.  All data is small and
 * dense, replicated on every rank; nothing here communicates except the
 * collective writes of DRSSWrite.  Dense matrices are ROW-MAJOR (the HDF5
 * layout of /ss/A ..), as every prototype below says.
 */
#ifndef DYNRED_SS_H
#define DYNRED_SS_H

#include <dynred/sys.h>
#include <dynred/config.h>
#include <dynred/store.h>

typedef struct _p_DRSS *DRSS;

/* ---- the object ----------------------------------------------------------
 * As a job (dynred ss):
 *   DRSSCreate(comm, &ss); DRSSSetConfig(ss, cfg); DRSSSetFromOptions(ss);
 *   DRSSSetUp(ss);      read ss.source, modal basis, A..D, damping
 *   DRSSSolve(ss);      the simulations of ss.sim.methods (if any)
 *   DRSSView(ss, PETSC_VIEWER_STDOUT_WORLD); DRSSWrite(ss, store);
 *   DRSSDestroy(&ss);
 * From arrays: DRSSCreate, DRSSSetModes, [DRSSSetLabels, DRSSSetDamping],
 * then DRSSSimulate or DRSSGetMatrices. */
PetscErrorCode DRSSInitializePackage(void);
PetscErrorCode DRSSCreate(MPI_Comm comm, DRSS *ss);
PetscErrorCode DRSSDestroy(DRSS *ss);
/* The model from m modes: omega (rad/s; values below omega_rigid are
 * rigid-body modes and set to 0), Bm (m x nin, row-major) and Cm (nout x m,
 * row-major); copied.  Undamped until DRSSSetDamping. */
PetscErrorCode DRSSSetModes(DRSS ss, PetscInt m, const PetscReal omega[], PetscReal omega_rigid, PetscInt nin, const PetscReal Bm[], PetscInt nout, const PetscReal Cm[]);
PetscErrorCode DRSSSetLabels(DRSS ss, const DRLabel in[], const DRLabel out[]);
/* The job file whose ss.* keys DRSSSetFromOptions reads (options > YAML >
 * default through the DRConfig getters); relative paths are resolved
 * against its folder.  The config must outlive ss. */
PetscErrorCode DRSSSetConfig(DRSS ss, DRConfig cfg);
PetscErrorCode DRSSSetFromOptions(DRSS ss);
PetscErrorCode DRSSSetUp(DRSS ss);
PetscErrorCode DRSSSolve(DRSS ss);
/* The summary line and (after DRSSSolve) the simulation table. */
PetscErrorCode DRSSView(DRSS ss, PetscViewer viewer);
/* /ss (A..D, frequencies, zeta, labels, second-order form, attributes),
 * /ss/sim (after DRSSSolve) and, with ss.mtx, OUTPUT_A.mtx .. OUTPUT_D.mtx
 * next to the output (rank 0). */
PetscErrorCode DRSSWrite(DRSS ss, DRStore store);
/* Seconds of the phases "export" (source read, modal basis, A..D) and
 * "simulate" (all runs), from the package's log events. */
PetscErrorCode DRSSGetTimes(DRSS ss, PetscReal *t_export, PetscReal *t_simulate);

/* Getters (arrays are borrowed, valid until DRSSDestroy). */
PetscErrorCode DRSSGetSizes(DRSS ss, PetscInt *m, PetscInt *nin, PetscInt *nout);
PetscErrorCode DRSSGetModal(DRSS ss, const PetscReal **omega, const PetscReal **c, const PetscBool **rigid);
PetscErrorCode DRSSGetMaps(DRSS ss, const PetscReal **Bm, const PetscReal **Cm);

typedef enum { DR_SS_DAMP_NONE, DR_SS_DAMP_MODAL, DR_SS_DAMP_RAYLEIGH } DRSSDamping;
/* Modal: zeta[k] per mode (nzeta = m) or one value for all (nzeta = 1).
 * Rayleigh: zeta_k = alpha / (2 omega_k) + beta omega_k / 2, i.e.
 * c_k = alpha + beta omega_k^2.  Negative or non-finite values are
 * DR_ERR_INPUT naming `what`. */
PetscErrorCode DRSSSetDamping(DRSS ss, DRSSDamping type, PetscInt nzeta, const PetscReal zeta[], PetscReal alpha, PetscReal beta, const char *what);

/* Dense A (2m x 2m), B (2m x nin), C (2nout x 2m), D (2nout x nin), ROW-MAJOR,
 * freshly allocated (PetscFree). */
PetscErrorCode DRSSGetMatrices(DRSS ss, PetscReal **A, PetscReal **B, PetscReal **C, PetscReal **D);

/* Modes of a symmetric pencil K phi = lambda M phi (dense n x n, symmetric,
 * so row- and column-major alike; M positive definite): omega (n, rad/s;
 * negative round-off eigenvalues give 0) and Phi (n x n ROW-MAJOR, columns
 * M-normalized and signed by DRModeSign).  `what` names the source in
 * errors. */
PetscErrorCode DRSSModesFromKM(PetscInt n, const PetscReal K[], const PetscReal M[], PetscReal omega[], PetscReal Phi[], const char *what);

/* ---- inputs ------------------------------------------------------------ */

/* An input history u(t) (nin values). */
typedef struct {
  PetscInt nin;
  PetscErrorCode (*eval)(void *ctx, PetscReal t, PetscReal u[]);
  void *ctx;
} DRSSInput;

typedef enum { DR_SIG_ZERO, DR_SIG_STEP, DR_SIG_RAMP, DR_SIG_SINE, DR_SIG_TRAPEZOID, DR_SIG_TABLE } DRSignalType;
/* Built-in signals, one shape scaled per input:
 *   step:      a for t >= t0
 *   ramp:      a (t - t0) / t_rise for t0 <= t <= t0 + t_rise, then a (t_rise = 0: a (t - t0), unbounded)
 *   sine:      a sin(2 pi f (t - t0)) for t >= t0
 *   trapezoid: the reference speed profile of Maulik, Riordan and Walsh: 0 -> a in t_rise, a for
 *              t_hold, a -> 0 in t_fall (defaults 7 s, 11.5 s, 7 s with a = 2:
 *              2 m/s cruise, braking after 30 m, standstill at 25.5 s)
 *   table:     columns t, u_1 .. u_nin from a file, linear interpolation,
 *              held constant outside the table. */
typedef struct {
  DRSignalType type;
  PetscReal    a, t0, f, t_rise, t_hold, t_fall;
  PetscInt     nin;
  PetscReal   *scale; /* nin */
  PetscInt     nt;    /* table */
  PetscReal   *tab;   /* nt x (1 + nin) */
} DRSignal;
/* Reads a table file: one row per line, values separated by commas, blanks
 * or tabs; '#' comments and a non-numeric header line are skipped.  Errors
 * name FILE:LINE. */
PetscErrorCode DRSignalLoadTable(DRSignal *s, const char *path);
PetscErrorCode DRSignalEval(void *ctx, PetscReal t, PetscReal u[]);
PetscErrorCode DRSignalDestroy(DRSignal *s);
/* The DRConfigKey rows of a job's input signal under PREFIX (e.g. "ss",
 * "hybrid": PREFIX.input.signal, .file, .amplitude, .t0, .freq_hz, .t_rise,
 * .t_hold, .t_fall, .scale), with the job's defaults of the three profile
 * times (strings), so the jobs that take the signals of dynred ss declare
 * them once. */
#define DR_SIGNAL_KEYS(PREFIX, RISE, HOLD, FALL) \
  {PREFIX ".input.signal", DR_CFG_STRING, "step", "input history: step | ramp | sine | trapezoid | file | zero", "step|ramp|sine|trapezoid|file|zero", NULL, NULL}, \
  {PREFIX ".input.file", DR_CFG_STRING, "", "signal file: columns t [s], u_1 .. u_nin (commas or blanks), linear interpolation", NULL, NULL, NULL}, \
  {PREFIX ".input.amplitude", DR_CFG_REAL, "1.0", "signal amplitude (force unit of model.units)", NULL, NULL, NULL}, \
  {PREFIX ".input.t0", DR_CFG_REAL, "0", "signal start time [s]", NULL, "s", NULL}, \
  {PREFIX ".input.freq_hz", DR_CFG_REAL, "1.0", "sine frequency [Hz]", "0..", "Hz", NULL}, \
  {PREFIX ".input.t_rise", DR_CFG_REAL, RISE, "ramp and trapezoid rise time [s]", "0..", "s", NULL}, \
  {PREFIX ".input.t_hold", DR_CFG_REAL, HOLD, "trapezoid hold time [s]", "0..", "s", NULL}, \
  {PREFIX ".input.t_fall", DR_CFG_REAL, FALL, "trapezoid fall time [s]", "0..", "s", NULL}, \
  {PREFIX ".input.scale", DR_CFG_LIST, "", "per-input factors on the signal (default 1 each)", NULL, NULL, NULL}

/* ---- fixed-step integration --------------------------------------------- */

/* Methods by name:
 *   exact    exact discretization of each 2x2 block with the input taken as
 *            the quadratic through u(t_n), u(t_n + h/2), u(t_n + h): exact for
 *            piecewise-quadratic (linear, constant) inputs
 *   zoh      exact zero-order hold (input held at its value at t_n)
 *   newmark  Newmark average acceleration (beta 1/4, gamma 1/2), modal
 *   central  central difference (explicit, stable for h omega_max < 2), modal
 *   rk3bs rk4 rk5dp rk8vr   PETSc TSRK (3bs, 4, 5dp, 8vr), adaptivity off
 *   beuler cn theta         PETSc TSBEULER, TSCN, TSTHETA (theta 0.5, midpoint)
 *   alpha2                  PETSc TSALPHA2 on the second-order form
 * Nominal orders: exact -, zoh 1 (exact for constant input), newmark 2,
 * central 2, rk3bs 3, rk4 4, rk5dp 5, rk8vr 8, beuler 1, cn 2, theta 2, alpha2 2. */
PetscErrorCode DRSSMethodOrder(const char *method, PetscInt *order, PetscBool *known);
/* The integrator registry (a PetscFunctionList filled with the methods above
 * on first use).  An integrator steps the model of the opaque
 * context (private interface: src/ss/ssimpl.h) from x0 (2m interleaved,
 * NULL: zero) and leaves the final state in xT (may be NULL); `method` is
 * the name it was registered under. */
typedef struct _n_DRSSSim *DRSSSim;
typedef PetscErrorCode (*DRSSIntegrator)(DRSSSim sim, const char *method, const PetscReal x0[], PetscReal xT[]);
PetscErrorCode DRSSRegister(const char name[], PetscInt order, DRSSIntegrator fn);
/* The registered names, ", "-separated (for messages and help). */
PetscErrorCode DRSSIntegratorNames(char buf[], size_t len);
/* Integrate nsteps of size h from state x0 (2m; NULL: zero).  Y (may be
 * NULL): (nsteps+1) x 2nout outputs C x at t = 0, h, ..., row-major;
 * X (may be NULL): (nsteps+1) x 2m states; xT (may be NULL): final state. */
PetscErrorCode DRSSSimulate(DRSS ss, const char *method, PetscReal h, PetscInt nsteps, const PetscReal x0[], const DRSSInput *u, PetscReal Y[], PetscReal X[], PetscReal xT[]);

/* ---- virtual hybrid simulation (METHODS.md 4) --------------------------- */

/* An external element between two DOF pairs: N(dl) and dN/d(dl), with the
 * elongation dl = e^T (u_j - u_i) along the unit vector e (2 DOF per node,
 * directions 1, 2), and a linear damper cd d(dl)/dt in parallel. */
typedef PetscErrorCode (*DRHybridLaw)(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl);
typedef struct {
  PetscInt    idx[4]; /* positions of u_i,x u_i,y u_j,x u_j,y in the model's coordinates (-1: fixed) */
  PetscReal   e[2];
  PetscReal   cd;
  DRHybridLaw law;
  void       *ctx;
} DRHybridElement;

/* The absorber laws of METHODS.md section 4 (units N, mm):
 * 'A' N = k dl with k = ctx (131.35 N/mm), 'B' N = 120 dl + dl^3,
 * 'C' N = 150 dl - 0.2 dl^3. */
PetscErrorCode DRHybridLawA(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl);
PetscErrorCode DRHybridLawB(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl);
PetscErrorCode DRHybridLawC(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl);

/* A user law from a table (src/ss/hybrid_table.c: two columns x N,
 * piecewise linear in dl; three columns x v N, bilinear in (dl, dl') on an
 * x-major rectangular grid; both extended linearly outside the table).
 * DRHybridLawTable is its DRHybridLaw (ctx: the table); for a velocity
 * table the integrator sets the rate dl' before each evaluation and reads
 * dN/d(dl') after it (Newmark only: DRHybridSimulate refuses central). */
typedef struct _p_DRHybridTable *DRHybridTable;
PetscErrorCode DRHybridTableRead(MPI_Comm comm, const char *file, DRHybridTable *t);
PetscErrorCode DRHybridTableHasRate(DRHybridTable t, PetscBool *rate);
PetscErrorCode DRHybridTableSetRate(DRHybridTable t, PetscReal rate);
PetscErrorCode DRHybridTableGetRateTangent(DRHybridTable t, PetscReal *dNdv);
PetscErrorCode DRHybridTableEval(DRHybridTable t, PetscReal dl, PetscReal rate, PetscReal *N, PetscReal *dNdl, PetscReal *dNdv);
PetscErrorCode DRHybridTableDestroy(DRHybridTable *t);
PetscErrorCode DRHybridLawTable(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl);

/* A second-order model M q'' + D q' + K q + f_el(q, q') = F(t) (dense
 * row-major n x n) with input map F = P u (n x nin) integrated with
 * 'central' (explicit, M factored once) or 'newmark' (average acceleration,
 * Newton iterations on the element's tangent to rtol 1e-10).  Y:
 * (nsteps+1) x nobs displacements of the coordinates obs[].  newton_its
 * (may be NULL): total Newton iterations. */
typedef struct {
  PetscInt         n, nin;
  const PetscReal *M, *D, *K, *P;
  DRHybridElement *el; /* may be NULL */
} DRHybridModel;
PetscErrorCode DRHybridSimulate(const DRHybridModel *hm, const char *method, PetscReal h, PetscInt nsteps, const DRSSInput *u, PetscInt nobs, const PetscInt obs[], PetscReal Y[], PetscInt *newton_its);

/* The virtual hybrid simulation job (dynred hybrid, src/ss/hybrid_job.c):
 * the full model of the job and reduced models (groups holding K, M and
 * labels, e.g. GA front solutions) with the same external element, loads
 * and integrator; the master-DOF histories, their MSE against the full
 * model and the time per step against the step size.  Keys: hybrid.*. */
typedef struct _p_DRHybridJob *DRHybridJob;
PetscErrorCode DRHybridJobCreate(MPI_Comm comm, DRHybridJob *job);
PetscErrorCode DRHybridJobSetConfig(DRHybridJob job, DRConfig cfg);
PetscErrorCode DRHybridJobSetFromOptions(DRHybridJob job);
PetscErrorCode DRHybridJobSetUp(DRHybridJob job);
PetscErrorCode DRHybridJobSolve(DRHybridJob job);
PetscErrorCode DRHybridJobView(DRHybridJob job, PetscViewer v);
PetscErrorCode DRHybridJobWrite(DRHybridJob job, DRStore s);
PetscErrorCode DRHybridJobDestroy(DRHybridJob *job);

#endif
