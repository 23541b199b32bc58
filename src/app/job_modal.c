/* dynred modal: reference modal analysis of the assembled full model. */
#include "app.h"
#include <dynred/componentstore.h>

const DRConfigKey DRJobModalKeys[] = {
  {"modal.nmodes", DR_CFG_INT, "20", "number of lowest modes (used when fmax = 0)", "0..", NULL, NULL},
  {"modal.fmax", DR_CFG_REAL, "0", "all modes below fmax [Hz] when > 0 (spectrum slicing)", "0..", "Hz", NULL},
  {"modal.tol", DR_CFG_REAL, "1e-12", "eigensolver convergence tolerance (relative, SLEPc; below about 5 machine epsilons a residual cannot reach it)", "1e-15..1", NULL, NULL},
  {"modal.write_modes", DR_CFG_BOOL, "true", "write /modal/modes and mesh shapes (off for huge benchmarks)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRJobModal(DRConfig cfg)
{
  DRComponent    model;
  DRModal        modal;
  DRStore        store;
  PetscInt       nmodes, n;
  PetscReal      fmax, tol, t[3];
  PetscBool      write_modes;
  const PetscReal *freq, *lambda, *resid;
  Vec           *modes;
  Mat            K, M;
  const char    *source;
  PetscInt       ndof;
  const DRLabel *labels;
  const char    *phases[3] = {"model", "eigensolve", "output"};
  char           where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "modal"));
  PetscCall(DRConfigGetInt(cfg, "modal.nmodes", &nmodes, NULL));
  PetscCall(DRConfigGetReal(cfg, "modal.fmax", &fmax, NULL));
  PetscCall(DRConfigGetReal(cfg, "modal.tol", &tol, NULL));
  PetscCall(DRConfigGetBool(cfg, "modal.write_modes", &write_modes, NULL));
  PetscCall(DRConfigWhereValue(cfg, "modal.nmodes", where, sizeof(where)));
  PetscCheck(nmodes > 0 || fmax > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: modal.nmodes = 0 and modal.fmax = 0: expected nmodes > 0 (the lowest modes) or fmax > 0 (every mode below fmax)", where);

  PetscCall(DRJobPhaseBegin(DR_JOB_MODEL));
  PetscCall(DRModelCreateFull(cfg, PETSC_COMM_WORLD, &model));
  PetscCall(DRJobModelToSeconds(cfg, model));
  PetscCall(DRJobPhaseEnd(DR_JOB_MODEL));
  PetscCall(DRJobSeconds(DR_JOB_MODEL, &t[0]));
  PetscCall(DRJobPrintModel(model));
  PetscCall(DRComponentGetSize(model, &n));
  PetscCheck(fmax > 0 || nmodes <= n, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: modal.nmodes = %" PetscInt_FMT ": %" PetscInt_FMT " modes requested but the model has only %" PetscInt_FMT " DOFs, expected at most %" PetscInt_FMT, where, nmodes, nmodes, n, n);
  /* Krylov-Schur keeps about 2 nev + 16 vectors (slicing: a few hundred) */
  PetscCall(DRJobCheckMemory(cfg, model, fmax > 0 ? 256 : 2 * nmodes + 32));

  PetscCall(DRJobPhaseBegin(DR_JOB_SOLVE));
  PetscCall(DRModalCreate(PETSC_COMM_WORLD, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, "modal_"));
  PetscCall(DRComponentGetOperators(model, &K, &M, NULL));
  PetscCall(DRComponentGetSource(model, &source));
  PetscCall(DRComponentGetLabels(model, &ndof, &labels));
  {
    const char *msource;
    char        what[2 * PETSC_MAX_PATH_LEN + 16];
    PetscCall(DRComponentGetMassSource(model, &msource));
    if (strcmp(msource, source)) PetscCall(PetscSNPrintf(what, sizeof(what), "%s (M: %s)", source, msource));
    else PetscCall(PetscStrncpy(what, source, sizeof(what)));
    PetscCall(DRModalSetOperators(modal, K, M, what));
  }
  PetscCall(DRModalSetRange(modal, nmodes, fmax));
  PetscCall(DRModalSetTolerance(modal, tol));
  PetscCall(DRModalSetFromOptions(modal));
  if (fmax > 0) PetscCall(DRProgress(PETSC_COMM_WORLD, "modal: all modes below %g Hz (spectrum slicing)", (double)fmax));
  else PetscCall(DRProgress(PETSC_COMM_WORLD, "modal: lowest %" PetscInt_FMT " modes", nmodes));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRJobPhaseEnd(DR_JOB_SOLVE));
  PetscCall(DRJobSeconds(DR_JOB_SOLVE, &t[1]));
  PetscCall(DRModalGetModes(modal, &n, &freq, &lambda, &modes, &resid));
  PetscCall(DRProgress(PETSC_COMM_WORLD, "modal: %" PetscInt_FMT " modes in %.2f s", n, (double)t[1]));
  PetscCall(DRModalView(modal, PETSC_VIEWER_STDOUT_WORLD));

  PetscCall(DRJobPhaseBegin(DR_JOB_OUTPUT));
  PetscCall(DRJobStoreOpen(cfg, "modal", &store));
  PetscCall(DRJobStoreUnitsInSeconds(cfg, store));
  {
    PetscInt dims[1] = {n};
    PetscCall(DRStoreWriteReal(store, "/modal/frequencies_hz", 1, dims, freq, "Hz"));
    PetscCall(DRStoreWriteReal(store, "/modal/eigenvalues", 1, dims, lambda, "rad^2/s^2"));
    PetscCall(DRStoreWriteReal(store, "/modal/residuals", 1, dims, resid, NULL));
    PetscCall(DRStoreWriteLabels(store, "/modal/labels", ndof, labels));
    PetscCall(DRStoreAttrInt(store, "/modal", "ndof", ndof));
    PetscCall(DRStoreAttrString(store, "/modal", "model", source));
  }
  if (write_modes && n) {
    char **names, *const *cnames;
    PetscCall(DRStoreWriteVecs(store, "/modal/modes", n, modes, NULL));
    PetscCall(DRStoreAttrString(store, "/modal", "modes_normalization", "mass: Phi^T M Phi = I; columns = modes, rows = /modal/labels"));
    PetscCall(DRComponentWriteMesh(model, store));
    PetscCall(PetscMalloc1(n, &names));
    for (PetscInt k = 0; k < n; k++) {
      PetscCall(PetscMalloc1(64, &names[k]));
      PetscCall(PetscSNPrintf(names[k], 64, "mode %03" PetscInt_FMT " (%.4g Hz)", k + 1, (double)freq[k]));
    }
    cnames = names;
    PetscCall(DRComponentWriteShapes(model, store, "/modal", n, modes, (const char *const *)cnames));
    for (PetscInt k = 0; k < n; k++) PetscCall(PetscFree(names[k]));
    PetscCall(PetscFree(names));
  }
  PetscCall(DRJobPhaseEnd(DR_JOB_OUTPUT));
  PetscCall(DRJobSeconds(DR_JOB_OUTPUT, &t[2]));
  PetscCall(DRJobStoreCommit(&store, 3, phases, t));
  {
    char out[PETSC_MAX_PATH_LEN];
    PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s (model %.2f s, eigensolve %.2f s, output %.2f s)\n", out, (double)t[0], (double)t[1], (double)t[2]));
  }
  PetscCall(DRModalDestroy(&modal));
  PetscCall(DRComponentDestroy(&model));
  PetscFunctionReturn(PETSC_SUCCESS);
}
