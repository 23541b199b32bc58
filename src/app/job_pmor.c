/* dynred pmor: parametric model reduction for a moving load (METHODS.md 3,
 * after Fischer and Eberhard, "Simulation of moving loads in elastic
 * multibody systems with parametric model reduction techniques", 2014);
 * the work is in src/pmor (include/dynred/pmor.h). */
#include "app.h"
#include <dynred/pmor.h>

const DRConfigKey DRJobPMORKeys[] = {
  {"pmor.path", DR_CFG_LIST, "", "the load path: node ids in order, e.g. [101, 102, 103]", NULL, NULL, NULL},
  {"pmor.path_set", DR_CFG_STRING, "", "the load path as a node set of the model (CalculiX *NSET) or a file of node ids (relative to the job file), ordered by pmor.path_order; instead of pmor.path", NULL, NULL, NULL},
  {"pmor.path_order", DR_CFG_STRING, "chain", "order of a pmor.path_set: chain (nearest-neighbour chain from the end with the smaller node id; a line or an arc of at most half a turn) or angle (counter-clockwise around the normal of the set's least-squares plane from the smallest node id; a ring)", "chain|angle", NULL, NULL},
  {"pmor.direction", DR_CFG_INT, "3", "direction of the load at every path node (1..6: ux uy uz rx ry rz)", "1..6", NULL, NULL},
  {"pmor.parameter", DR_CFG_STRING, "index", "load position p: path index (0, 1, ...) or arc length along the path (model coordinates)", "index|arclength", NULL, NULL},
  {"pmor.closed", DR_CFG_BOOL, "false", "the path closes (last node back to the first): periodic p and periodic spline weights", NULL, NULL, NULL},
  {"pmor.distribute", DR_CFG_STRING, "linear", "load between path nodes by the shape functions of the path edges: linear (2-node edges), quadratic (3-node edges: path nodes 2e, 2e+1, 2e+2, Lagrange in p; an even number of segments) or nearest node", "linear|quadratic|nearest", NULL, NULL},
  {"pmor.supports", DR_CFG_LIST, "", "support positions as path indices (increasing; an open path needs both ends); empty: every pmor.support_every-th node", NULL, NULL, NULL},
  {"pmor.support_every", DR_CFG_INT, "1", "every k-th path node is a support (the last node too on an open path)", "1..", NULL, NULL},
  {"pmor.nmodes", DR_CFG_INT, "20", "shared eigenmodes per support basis (plus one static mode K^-1 b_i)", "1..999", NULL, NULL},
  {"pmor.tol", DR_CFG_REAL, "1e-12", "eigensolver tolerance (relative, SLEPc; below about 5 machine epsilons a residual cannot reach it)", "1e-15..1", NULL, NULL},
  {"pmor.method", DR_CFG_STRING, "panzer", "compatible coordinates: panzer (SVD of [V_1 .. V_k]) or amsallem (reference support, SVD of Q_i^T Q_ref)", "panzer|amsallem", NULL, NULL},
  {"pmor.reference", DR_CFG_INT, "-1", "amsallem: the reference support (0-based; -1: the middle one)", "-1..", NULL, NULL},
  {"pmor.weights", DR_CFG_STRING, "spline", "interpolation weights: linear (hat functions) or spline (cubic; natural ends, periodic on a closed path)", "linear|spline", NULL, NULL},
  {"pmor.interpolation", DR_CFG_STRING, "direct", "how M and K are interpolated: direct (sum w_i X_i, as D, B, C) or manifold (Amsallem-Farhat: X_ref^1/2 expm(sum w_i logm(X_ref^-1/2 X_i X_ref^-1/2)) X_ref^1/2, SPD for any weights; X_ref of pmor.reference)", "direct|manifold", NULL, NULL},
  {"pmor.tool.mass", DR_CFG_REAL, "0", "mass of the moving tool at the load point, distributed by the load's weights b(p): M(p) = M + m b b^T, in the mass unit of model.units (kg in SI); nonzero: every support is its own eigensolve and factorization", "0..", NULL, NULL},
  {"pmor.tool.stiffness", DR_CFG_REAL, "0", "spring of the moving tool from the load point to ground along pmor.direction: K(p) = K + k b b^T, in FORCE/LENGTH of model.units (N/m in SI); nonzero: every support is its own eigensolve and factorization", "0..", NULL, NULL},
  {"pmor.tool.each_support", DR_CFG_BOOL, "false", "solve every support on its own (eigensolve and factorization of K(p_i), M(p_i)) even without a tool mass or stiffness (always so with one)", NULL, NULL, NULL},
  {"pmor.damping.alpha", DR_CFG_REAL, "0", "Rayleigh damping D = alpha M + beta K: alpha", "0..", "1/s", NULL},
  {"pmor.damping.beta", DR_CFG_REAL, "0", "Rayleigh damping: beta", "0..", "s", NULL},
  {"pmor.frf.enabled", DR_CFG_BOOL, "true", "FRF error of the interpolated ROM against the full model on the (p, omega) grid", NULL, NULL, NULL},
  {"pmor.frf.fmin", DR_CFG_REAL, "0", "lowest frequency of the FRF grid", "0..", "Hz", NULL},
  {"pmor.frf.fmax", DR_CFG_REAL, "3000", "highest frequency of the FRF grid", "0..", "Hz", NULL},
  {"pmor.frf.n", DR_CFG_INT, "61", "frequencies of the FRF grid (equally spaced)", "1..", NULL, NULL},
  {"pmor.frf.refine", DR_CFG_INT, "2", "positions per path segment on the FRF grid (1: the path nodes only)", "1..", NULL, NULL},
  {"pmor.sim.enabled", DR_CFG_BOOL, "false", "moving-load simulation: reduced (interpolated every step) against the full model, same Newmark integrator", NULL, NULL, NULL},
  {"pmor.sim.t_end", DR_CFG_REAL, "1.0", "simulated time", "0..", "s", NULL},
  {"pmor.sim.h", DR_CFG_REAL, "1e-4", "fixed time step (Newmark average acceleration)", "0..", "s", NULL},
  {"pmor.sim.speed", DR_CFG_REAL, "1.0", "load speed along the path (parameter units per second)", NULL, NULL, NULL},
  {"pmor.sim.p0", DR_CFG_REAL, "0", "load position at t = 0 (parameter units)", NULL, NULL, NULL},
  {"pmor.sim.fmax", DR_CFG_REAL, "200", "F_max of the load law F = F_max/2 (1 - cos(pi t / t_ramp)) for t <= t_ramp, then F_max (seed 001 as corrected in METHODS.md 3)", NULL, "N", NULL},
  {"pmor.sim.t_ramp", DR_CFG_REAL, "0.5", "ramp time of the load law (the seed: 0.5 s)", "0..", "s", NULL},
  {"pmor.checkpoint", DR_CFG_STRING, "", "checkpoint of the support sweep (default OUTPUT.supports.h5; removed on success)", NULL, NULL, NULL},
  {"pmor.frf.checkpoint", DR_CFG_STRING, "", "checkpoint of the FRF sweep, one full-model frequency per record (default OUTPUT.frf.h5; removed on success)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRJobPMOR(DRConfig cfg)
{
  DRPMOR      pm;
  DRStore     store;
  const char *ph[3] = {"offline", "frf", "simulation"};
  PetscReal   t[3];
  char        out[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "pmor"));
  PetscCall(DRPMORCreate(PETSC_COMM_WORLD, &pm));
  PetscCall(DRPMORSetConfig(pm, cfg));
  PetscCall(DRPMORSetFromOptions(pm));
  PetscCall(DRJobModelToSeconds(cfg, NULL)); /* the log line; DRPMORSetUp converts the model */
  PetscCall(DRPMORSetUp(pm));
  PetscCall(DRPMORSolve(pm));
  PetscCall(DRPMORView(pm, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRJobStoreOpen(cfg, "pmor", &store));
  PetscCall(DRJobStoreUnitsInSeconds(cfg, store));
  PetscCall(DRPMORWrite(pm, store));
  PetscCall(DRPMORGetPhaseSeconds(pm, &t[0], &t[1], &t[2]));
  PetscCall(DRJobStoreCommit(&store, 3, ph, t));
  PetscCall(DRPMORRemoveCheckpoints(pm)); /* the result is committed */
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", out));
  PetscCall(DRPMORDestroy(&pm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
