/* dynred hybrid: virtual hybrid simulation (METHODS.md 4) of
 * reduced models (GA front solutions, IDC-condensed masters) and the full
 * model with one external element; the work is in src/ss/hybrid_job.c. */
#include "app.h"
#include <dynred/ss.h>

/* Times in seconds; the integration runs in the time unit of model.units;
 * damping and element parameters in the model's units (the hybrid-simulation
 * paper of METHODS.md 4: N, mm, ms, g with alpha = 2, beta = 0.1, k0 = 131.35 N/mm). */
const DRConfigKey DRJobHybridKeys[] = {
  {"hybrid.source", DR_CFG_STRING, "", "result file holding the reduced models (e.g. a ga result), relative to the job file", NULL, NULL, NULL},
  {"hybrid.models", DR_CFG_STRING, "", "comma list of groups of hybrid.source with K, M, labels (e.g. /ga/solutions/001), or full (the full model itself)", NULL, NULL, NULL},
  {"hybrid.method", DR_CFG_STRING, "newmark", "integrator: newmark (average acceleration, Newton on the element) | central (explicit)", "newmark|central", NULL, NULL},
  {"hybrid.h", DR_CFG_REAL, "1e-3", "time step [s] (seed 003: 1 ms)", "0..", "s", NULL},
  {"hybrid.t_end", DR_CFG_REAL, "1.0", "simulated time [s] (seed 003: 5 s)", "0..", "s", NULL},
  {"hybrid.timing_h", DR_CFG_LIST, "", "step sizes [s] for the time per step against the step size (real time: time per step < h)", NULL, NULL, NULL},
  {"hybrid.element.nodes", DR_CFG_LIST, "", "the element's two nodes [i, j]: elongation dl = e^T (u_j - u_i), e from i to j", NULL, NULL, NULL},
  {"hybrid.element.law", DR_CFG_STRING, "A", "force law: A N = k dl | B N = 120 dl + dl^3 | C N = 150 dl - 0.2 dl^3 (N, mm) | table (hybrid.element.table)", "A|B|C|table", NULL, NULL},
  {"hybrid.element.table", DR_CFG_STRING, "", "law table file (relative to the job file; model.units): rows x N (piecewise linear in the elongation) or x v N (bilinear in elongation and its rate, x-major grid; newmark only)", NULL, NULL, NULL},
  {"hybrid.element.k", DR_CFG_REAL, "131.35", "law A stiffness (force/length of model.units)", "0..", NULL, NULL},
  {"hybrid.element.k_model", DR_CFG_REAL, "0", "linear stiffness of the element that the model's K already holds (taken out: the law replaces it)", "0..", NULL, NULL},
  {"hybrid.element.damper", DR_CFG_REAL, "0", "linear damper along the element (force time/length of model.units)", "0..", NULL, NULL},
  {"hybrid.damping.alpha", DR_CFG_REAL, "0", "Rayleigh mass coefficient [1/time unit of model.units] (seed 003: 2)", "0..", NULL, NULL},
  {"hybrid.damping.beta", DR_CFG_REAL, "0", "Rayleigh stiffness coefficient [time unit of model.units] (seed 003: 0.1)", "0..", NULL, NULL},
  {"hybrid.inputs", DR_CFG_LIST, "", "load DOF labels [node.dir, ...] (masters of every model)", NULL, NULL, NULL},
  {"hybrid.mse_dof", DR_CFG_REAL, "15.1", "DOF label whose MSE against the full model is reported (seed 003: 15H)", NULL, NULL, NULL},
  DR_SIGNAL_KEYS("hybrid", "0.1", "0.1", "0.1"),
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRJobHybrid(DRConfig cfg)
{
  DRHybridJob job;
  DRStore     store;
  const char *ph[1] = {"simulate"};
  PetscReal   t[1];
  PetscLogDouble t0, t1;
  char        o[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "hybrid"));
  PetscCall(PetscTime(&t0));
  PetscCall(DRHybridJobCreate(PETSC_COMM_WORLD, &job));
  PetscCall(DRHybridJobSetConfig(job, cfg));
  PetscCall(DRHybridJobSetFromOptions(job));
  PetscCall(DRHybridJobSetUp(job));
  PetscCall(DRHybridJobSolve(job));
  PetscCall(DRHybridJobView(job, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(PetscTime(&t1));
  t[0] = (PetscReal)(t1 - t0);
  PetscCall(DRJobStoreOpen(cfg, "hybrid", &store));
  PetscCall(DRHybridJobWrite(job, store));
  PetscCall(DRJobStoreCommit(&store, 1, ph, t));
  PetscCall(DRConfigGetString(cfg, "output", o, sizeof(o), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", o));
  PetscCall(DRHybridJobDestroy(&job));
  PetscFunctionReturn(PETSC_SUCCESS);
}
