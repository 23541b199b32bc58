/* dynred ss: modal state-space export of a reduced model and fixed-step
 * simulation (METHODS.md section 2): the job file's ss section (DRJobSSKeys)
 * drives a DRSS object (src/ss/).  Small dense work: every rank computes
 * the same thing (no communication); DRSSWrite writes collectively. */
#include "app.h"
#include <dynred/ss.h>

/* The ss section of the job file, read by DRSSSetFromOptions (src/ss/).
 * No range on ss.damping.type/zeta/alpha/beta: DRSSSetDamping and
 * DRSSSetFromOptions answer those with the messages tests/e2e/ss_errors.sh
 * expects (the damping-ratio check is per mode, after the modes are known). */
const DRConfigKey DRJobSSKeys[] = {
  {"ss.source", DR_CFG_STRING, "", "result file of the reduced model (cms, modal, ga, ...), relative to the job file", NULL, NULL, NULL},
  {"ss.group", DR_CFG_STRING, "", "group in ss.source: modes (frequencies_hz, modes, labels) or matrices (K, M, labels, e.g. /ga/solutions/001); empty: /cms, then /modal", NULL, NULL, NULL},
  {"ss.inputs", DR_CFG_LIST, "", "input (force) DOF labels [node.dir, ...]", NULL, NULL, NULL},
  {"ss.outputs", DR_CFG_LIST, "", "output DOF labels [node.dir, ...]: displacement and velocity of each", NULL, NULL, NULL},
  {"ss.fmax", DR_CFG_REAL, "0", "keep the modes below fmax Hz (0: all)", "0..", "Hz", NULL},
  {"ss.nmodes", DR_CFG_INT, "0", "keep at most the lowest nmodes modes (0: all)", "0..", NULL, NULL},
  {"ss.rigid_hz", DR_CFG_REAL, "1e-3", "modes below this frequency are rigid-body modes (omega = 0, undamped)", "0..", "Hz", NULL},
  {"ss.damping.type", DR_CFG_STRING, "none", "none | modal | rayleigh", NULL, NULL, NULL},
  {"ss.damping.zeta", DR_CFG_LIST, "", "modal damping ratios: one for all modes or one per kept mode", NULL, NULL, NULL},
  {"ss.damping.alpha", DR_CFG_REAL, "0", "Rayleigh mass coefficient alpha [1/s]: zeta_k = alpha/(2 omega_k) + beta omega_k/2", NULL, "1/s", NULL},
  {"ss.damping.beta", DR_CFG_REAL, "0", "Rayleigh stiffness coefficient beta [s]", NULL, "s", NULL},
  {"ss.mtx", DR_CFG_BOOL, "true", "also write A, B, C, D as Matrix Market files OUTPUT_A.mtx ... next to the output", NULL, NULL, NULL},
  {"ss.sim.methods", DR_CFG_STRING, "", "comma list of integrators to run: exact zoh newmark central rk3bs rk4 rk5dp rk8vr beuler cn theta alpha2 (empty: export only)", NULL, NULL, NULL},
  {"ss.sim.h", DR_CFG_REAL, "1e-4", "fixed time step [s]", "0..", "s", NULL},
  {"ss.sim.t_end", DR_CFG_REAL, "1.0", "simulated time [s]", "0..", "s", NULL},
  {"ss.sim.repeat", DR_CFG_INT, "1", "runs per method; the wall time is their mean (real-time factor benchmarks)", "1..", NULL, NULL},
  {"ss.sim.reference", DR_CFG_STRING, "exact", "method every other is compared with (empty: none)", NULL, NULL, NULL},
  {"ss.sim.write_y", DR_CFG_BOOL, "true", "write output histories /ss/sim/METHOD/y", NULL, NULL, NULL},
  /* the speed profile of Maulik, Riordan and Walsh (METHODS.md 2): 7 s rise, 11.5 s at 2 m/s (braking after 30 m), standstill at 25.5 s */
  DR_SIGNAL_KEYS("ss", "7.0", "11.5", "7.0"),
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRJobSS(DRConfig cfg)
{
  DRSS        ss;
  DRStore     store;
  const char *ph[2] = {"export", "simulate"};
  PetscReal   t[2];
  char        o[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "ss"));
  PetscCall(DRSSCreate(PETSC_COMM_WORLD, &ss));
  PetscCall(DRSSSetConfig(ss, cfg));
  PetscCall(DRSSSetFromOptions(ss));
  PetscCall(DRSSSetUp(ss));
  PetscCall(DRSSSolve(ss));
  PetscCall(DRSSView(ss, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRJobStoreOpen(cfg, "ss", &store));
  PetscCall(DRSSWrite(ss, store));
  PetscCall(DRSSGetTimes(ss, &t[0], &t[1]));
  PetscCall(DRJobStoreCommit(&store, 2, ph, t));
  PetscCall(DRConfigGetString(cfg, "output", o, sizeof(o), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", o));
  PetscCall(DRSSDestroy(&ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}
