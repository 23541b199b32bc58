/* dynred sysred: system-level reduction of a state space (METHODS.md
 * section 6): minimal realization, balanced truncation, singular
 * perturbation; the job file's sysred section (DRJobSysRedKeys) drives a
 * DRSysRed object (src/sysred/).  Small dense work: every rank computes the
 * same thing; rank 0 writes. */
#include "app.h"
#include <dynred/sysred.h>

const DRConfigKey DRJobSysRedKeys[] = {
  {"sysred.source", DR_CFG_STRING, "", "HDF5 file holding the system: a dynred ss result, or any file with A, B, C[, D] in sysred.group (relative to the job file)", NULL, NULL, NULL},
  {"sysred.group", DR_CFG_STRING, "/ss", "group of sysred.source with the datasets A [n,n], B [n,m], C [p,n], D [p,m] (D optional: zero)", NULL, NULL, NULL},
  {"sysred.mtx.A", DR_CFG_STRING, "", "instead of sysred.source: Matrix Market file of A (relative to the job file)", NULL, NULL, NULL},
  {"sysred.mtx.B", DR_CFG_STRING, "", "Matrix Market file of B", NULL, NULL, NULL},
  {"sysred.mtx.C", DR_CFG_STRING, "", "Matrix Market file of C", NULL, NULL, NULL},
  {"sysred.mtx.D", DR_CFG_STRING, "", "Matrix Market file of D (optional: zero)", NULL, NULL, NULL},
  {"sysred.method", DR_CFG_STRING, "bt", "minreal (remove uncontrollable/unobservable states) | bt (balanced truncation) | spa (singular perturbation, matches DC gain) | pod (snapshot POD, Galerkin projection) | sobt (second-order balanced truncation, position-velocity variant, of M, D, K, B, C in sysred.group; /ss means /ss/second_order) | energy (rank the components of a lumped-parameter model by energy flow, remove the small ones, refit the rest: sysred.energy)", "minreal|bt|spa|pod|sobt|energy", NULL, NULL},
  {"sysred.order", DR_CFG_INT, "0", "reduced order, the states kept exactly included (bt, spa); 0: by sysred.tol", "0..", NULL, NULL},
  {"sysred.tol", DR_CFG_REAL, "0", "smallest order whose error bound 2 sum_{i>r} sigma_i is <= tol (bt, spa; output units; with sysred.gramians lowrank the sum over the resolved Hankel values, an estimate); pod: whose discarded snapshot energy fraction is <= tol", "0..", NULL, NULL},
  {"sysred.pod.snapshots", DR_CFG_STRING, "", "pod: HDF5 file of the snapshots (relative to the job file)", NULL, NULL, NULL},
  {"sysred.pod.dataset", DR_CFG_STRING, "/snapshots", "pod: dataset of the snapshots [time samples, states]", NULL, NULL, NULL},
  {"sysred.split", DR_CFG_BOOL, "true", "keep zero, undamped and unstable poles (sysred.marginal_tol) exactly and balance the stable part; false: such poles are an error", NULL, NULL, NULL},
  {"sysred.marginal_tol", DR_CFG_REAL, "1e-8", "per-pole split: a pole s is kept exactly (zero, undamped or unstable) when its damping ratio -Re(s)/|s| is below marginal_tol, up to round-off floors: Re(s) >= -(marginal_tol |s| + 10 eps ||A||_F) or |s| <= 10 sqrt(eps ||A||_F) (double zeros of rigid-body blocks)", "0..1", NULL, NULL},
  {"sysred.minreal_tol", DR_CFG_REAL, "1e-10", "minimal realization (TB01PD): a staircase block whose estimated reciprocal condition number is below this is rank deficient (0: SLICOT's default n^2 eps, too strict once round-off has mixed the states)", "0..1", NULL, NULL},
  {"sysred.gramians", DR_CFG_STRING, "dense", "dense (SLICOT, O(n^3), with the stable/marginal split) | lowrank (low-rank factors: SLEPc LME Krylov, else low-rank ADI with MUMPS; bt only; the marginal split for block-diagonal (modal) A, other A must be stable)", "dense|lowrank", NULL, NULL},
  {"sysred.lowrank.tol", DR_CFG_REAL, "1e-10", "relative residual tolerance of the low-rank Lyapunov solves", "0..1", NULL, NULL},
  {"sysred.lowrank.maxit", DR_CFG_INT, "100", "restarts of the SLEPc LME (Krylov) Lyapunov solves", "1..", NULL, NULL},
  {"sysred.lowrank.solver", DR_CFG_STRING, "auto", "auto (SLEPc LME Krylov, low-rank ADI where it fails) | krylov | adi", "auto|krylov|adi", NULL, NULL},
  {"sysred.lowrank.shifts", DR_CFG_INT, "80", "low-rank ADI: number of shifts (Penzl's heuristic), one MUMPS factorization each, used cyclically (400-state CMS chain: 10, 20, 40, 80 shifts took 8250, 2680, 880, 420 shift applications)", "1..", NULL, NULL},
  {"sysred.lowrank.adi_maxit", DR_CFG_INT, "20000", "low-rank ADI: most shift applications per Gramian", "1..", NULL, NULL},
  {"sysred.lowrank.ncv", DR_CFG_INT, "0", "Krylov subspace dimension of the low-rank Lyapunov solves (0: SLEPc's default)", "0..", NULL, NULL},
  {"sysred.frf.n", DR_CFG_INT, "200", "frequencies of the response comparison (logarithmic grid; 0: none, e.g. for large systems: the full response costs O(n^3))", "0..", NULL, NULL},
  {"sysred.frf.wmin", DR_CFG_REAL, "0", "lowest frequency [rad/s] (0: a tenth of the smallest nonzero pole magnitude)", "0..", "rad/s", NULL},
  {"sysred.frf.wmax", DR_CFG_REAL, "0", "highest frequency [rad/s] (0: ten times the largest pole magnitude)", "0..", "rad/s", NULL},
  {"sysred.sim.t_end", DR_CFG_REAL, "0", "time-response comparison of full and reduced system up to t_end (0: none); PETSc TS Crank-Nicolson from x(0) = 0", "0..", "s", NULL},
  {"sysred.sim.h", DR_CFG_REAL, "1e-3", "fixed time step of the time-response comparison", "0..", "s", NULL},
  {"sysred.input.signal", DR_CFG_STRING, "step", "input of the time response, the same on every input (the signals of dynred ss)", "step|ramp|sine|trapezoid", NULL, NULL},
  {"sysred.input.amplitude", DR_CFG_REAL, "1.0", "signal amplitude", NULL, NULL, NULL},
  {"sysred.input.t0", DR_CFG_REAL, "0", "signal start time", NULL, "s", NULL},
  {"sysred.input.freq_hz", DR_CFG_REAL, "1.0", "sine frequency", "0..", "Hz", NULL},
  {"sysred.input.t_rise", DR_CFG_REAL, "7.0", "ramp and trapezoid rise time", "0..", "s", NULL},
  {"sysred.input.t_hold", DR_CFG_REAL, "11.5", "trapezoid hold time", "0..", "s", NULL},
  {"sysred.input.t_fall", DR_CFG_REAL, "7.0", "trapezoid fall time", "0..", "s", NULL},
  {"sysred.energy.model", DR_CFG_STRING, "piston_crank", "energy: the lumped-parameter model: piston_crank (built in: seed 002 section 5.8, the thesis's parameters) | elements (masses, springs, dampers, forces below) | modal (the modes of a dynred ss result in sysred.source, /ss/second_order: each a unit mass, spring omega^2, damper, driven by input_map times sysred.input.*)", "piston_crank|elements|modal", NULL, NULL},
  {"sysred.energy.cms", DR_CFG_STRING, "", "modal: the dynred cms result (HDF5, relative to the job file) the ss source was made from; its modes and the model named in its job text (component files relative to the cms result) give the power through each substructure's DOFs (/sysred/energy/substructures)", NULL, NULL, NULL},
  {"sysred.energy.ndof", DR_CFG_INT, "0", "elements: number of degrees of freedom (translational)", "0..", NULL, NULL},
  {"sysred.energy.masses", DR_CFG_LIST, "", "elements: masses [dof, m, dof, m, ...] (dof 1-based, m > 0 in kg); every dof needs one", NULL, NULL, NULL},
  {"sysred.energy.springs", DR_CFG_LIST, "", "elements: springs [dof1, dof2, k, ...] (dof2 = 0: to the ground; k > 0 in N/m)", NULL, NULL, NULL},
  {"sysred.energy.dampers", DR_CFG_LIST, "", "elements: dampers [dof1, dof2, c, ...] (dof2 = 0: to the ground; c > 0 in N s/m)", NULL, NULL, NULL},
  {"sysred.energy.forces", DR_CFG_LIST, "", "elements: forces [dof, amplitude, ...]: amplitude times the signal sysred.input.* (the input; never removed)", NULL, NULL, NULL},
  {"sysred.energy.output", DR_CFG_INT, "1", "elements: the dof whose displacement is the output of the refit; modal: the row of output_map", "1..", NULL, NULL},
  {"sysred.energy.t_end", DR_CFG_REAL, "5", "simulated time [0, t_end] of the ranking and the refit (the thesis's piston-crank: 5 s)", "0..", "s", NULL},
  {"sysred.energy.h", DR_CFG_REAL, "0.01", "output sample step of the error sum (y - y_r)^2 (the ODE steps are adaptive)", "0..", "s", NULL},
  {"sysred.energy.rtol", DR_CFG_REAL, "1e-10", "relative tolerance of the adaptive ODE solver (PETSc TS rk 5dp; absolute 1e-2 rtol)", "1e-14..1e-3", NULL, NULL},
  {"sysred.energy.metric", DR_CFG_STRING, "p2", "ranking metric: p2 (2-norm of power, the thesis's 2NPR) | activity (int |P| dt, Louca)", "p2|activity", NULL, NULL},
  {"sysred.energy.threshold_pct", DR_CFG_REAL, "5", "remove the passive components whose relative metric is below this (percent of the sum over passive components)", "0..100", "%", NULL},
  {"sysred.energy.refit", DR_CFG_BOOL, "true", "refit the remaining passive components by least squares against the full model's output", NULL, NULL, NULL},
  {"sysred.energy.maxit", DR_CFG_INT, "50", "Levenberg-Marquardt iterations of the refit", "0..", NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRJobSysRed(DRConfig cfg)
{
  DRSysRed    s;
  DRStore     store;
  const char *ph[1] = {"reduce"};
  PetscReal   t[1];
  char        o[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "sysred")); /* keys, the output's directory, the source files */
  PetscCall(DRSysRedCreate(PETSC_COMM_WORLD, &s));
  PetscCall(DRSysRedSetConfig(s, cfg));
  PetscCall(DRSysRedSetFromOptions(s));
  PetscCall(DRSysRedSetUp(s));
  PetscCall(DRSysRedSolve(s));
  PetscCall(DRSysRedView(s, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRJobStoreOpen(cfg, "sysred", &store));
  PetscCall(DRSysRedWrite(s, store));
  PetscCall(DRSysRedGetTime(s, &t[0]));
  PetscCall(DRJobStoreCommit(&store, 1, ph, t));
  PetscCall(DRConfigGetString(cfg, "output", o, sizeof(o), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", o));
  PetscCall(DRSysRedDestroy(&s));
  PetscFunctionReturn(PETSC_SUCCESS);
}
