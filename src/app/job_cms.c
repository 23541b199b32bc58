/* dynred cms: component mode synthesis with optional verification against
 * the full model (parse, create, solve, view, verify, write), and the
 * optional `export:` section: the reduced model of the written result as a
 * superelement (the export job's keys and writers, export.h). */
#include "app.h"
#include "export.h"
#include <dynred/cms.h>

/* "cms time: model .. s, <phase> .. s, ...; total .. s" */
static PetscErrorCode ViewTimes(DRCMS cms, PetscReal tsetup, PetscReal ttotal)
{
  PetscInt           np;
  const char *const *names;
  const PetscReal   *sec;

  PetscFunctionBeginUser;
  PetscCall(DRCMSGetTimes(cms, NULL, &np, &names, &sec));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cms time: model %.2f s", (double)tsetup));
  for (PetscInt p = 0; p < np; p++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, ", %s %.2f s", names[p], (double)sec[p]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "; total %.2f s\n", (double)ttotal));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before the reductions: every rank group has a component (idle groups mean
 * ranks_per_group is too small for the job), and the components' factors
 * fit: a group keeps each Craig-Bampton component's K_II factor to the end
 * (the error estimate), so a group's need is the sum over its components of
 * MUMPS's analysis of K (an upper bound of K_II's) + the mode vectors. */
static PetscErrorCode CheckGroupsAndMemory(DRConfig cfg, DRCMS cms)
{
  PetscInt     ncomp, ngroups, nmine, minmine, rpg;
  DRComponent *comps;
  PetscReal    mib = 0, f;
  PetscMPIInt  size;
  PetscBool    set, opt;
  char         where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRCMSGetLocalComponents(cms, &ncomp, &ngroups, &nmine, &comps));
  PetscCall(MPIU_Allreduce(&nmine, &minmine, 1, MPIU_INT, MPI_MIN, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(DRConfigGetInt(cfg, "ranks_per_group", &rpg, &set));
  PetscCall(DRConfigWhere(cfg, "ranks_per_group", where, sizeof(where)));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-ranks_per_group", &opt));
  if (opt) PetscCall(PetscStrncpy(where, "command line -ranks_per_group", sizeof(where)));
  PetscCheck(minmine > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %" PetscInt_FMT " rank groups of %d rank(s) for %" PetscInt_FMT " component(s) leave %" PetscInt_FMT " group(s) idle; expected at most %" PetscInt_FMT " groups: ranks_per_group >= %d (or unset)", set ? where : "cms.groups", ngroups, (int)(size / ngroups), ncomp, ngroups - ncomp, ncomp, (int)((size + ncomp - 1) / ncomp));
  for (PetscInt i = 0; i < nmine; i++) {
    Mat      K;
    PetscInt nloc;
    PetscCall(DRComponentGetOperators(comps[i], &K, NULL, NULL));
    PetscCall(MatGetLocalSize(K, &nloc, NULL));
    PetscCall(DRMemoryFactorEstimate(K, &f));
    mib += f + 64.0 * nloc * sizeof(PetscScalar) / 1048576.0; /* ~64 vectors: modes, constraint modes, Krylov basis */
  }
  PetscCall(DRMemoryCheck(PETSC_COMM_WORLD, cfg, mib, "the components of the rank groups (MUMPS estimates of their factorizations + mode vectors)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobCMS(DRConfig cfg)
{
  DRCMS          cms;
  DRStore        store;
  PetscBool      verify, dry;
  PetscReal      tol, tsetup, tsolve, tverify = 0, ttotal;
  PetscBool      exporting;
  DRExport       x;
  DRVerdict      verdict;
  char           out[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&verdict, sizeof(verdict)));
  PetscCall(DRJobPreflight(cfg, "cms"));
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(DRExportSectionGiven(cfg, &exporting));
  if (exporting) PetscCall(DRExportSetUp(cfg, out, &x)); /* its keys checked before any work */
  PetscCall(DRConfigGetBool(cfg, "verify", &verify, NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.verify_tol_pct", &tol, NULL));
  PetscCall(DRJobPhaseBegin(DR_JOB_MODEL));
  PetscCall(DRCMSCreate(PETSC_COMM_WORLD, &cms));
  PetscCall(DRCMSSetConfig(cms, cfg));
  PetscCall(DRCMSSetFromOptions(cms));
  PetscCall(DRJobModelToSeconds(cfg, NULL));
  PetscCall(DRCMSSetUp(cms));
  PetscCall(CheckGroupsAndMemory(cfg, cms));
  PetscCall(DRJobPhaseEnd(DR_JOB_MODEL));
  PetscCall(DRConfigGetBool(cfg, "cms.dry_run", &dry, NULL));
  if (dry) { /* everything above is what a queued job would be refused for; nothing below has run */
    PetscInt     ncomp, ngroups, nmine;
    DRComponent *comps;
    PetscCall(DRCMSGetLocalComponents(cms, &ncomp, &ngroups, &nmine, &comps));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "cms: dry run: %" PetscInt_FMT " component(s) on %" PetscInt_FMT " rank group(s) set up and checked (model, partition, groups, memory); nothing solved, %s not written\n", ncomp, ngroups, out));
    PetscCall(DRCMSDestroy(&cms));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRJobPhaseBegin(DR_JOB_SOLVE));
  PetscCall(DRCMSSolve(cms));
  PetscCall(DRCMSView(cms, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(DRJobPhaseEnd(DR_JOB_SOLVE));
  PetscCall(DRJobSeconds(DR_JOB_MODEL, &tsetup));
  PetscCall(DRJobSeconds(DR_JOB_SOLVE, &tsolve));
  ttotal = tsetup + tsolve;
  PetscCall(ViewTimes(cms, tsetup, ttotal));
  PetscCall(DRJobStoreOpen(cfg, "cms", &store));
  PetscCall(DRJobStoreUnitsInSeconds(cfg, store));
  if (verify) {
    PetscCall(DRJobPhaseBegin(DR_JOB_VERIFY));
    PetscCall(DRCMSVerify(cms, store, &verdict));
    PetscCall(DRJobPhaseEnd(DR_JOB_VERIFY));
    PetscCall(DRJobSeconds(DR_JOB_VERIFY, &tverify));
  }
  PetscCall(DRCMSWrite(cms, store));
  {
    const char *ph[3] = {"model", "cms_total", "verify"};
    PetscReal   t[3]  = {tsetup, ttotal, tverify};
    PetscCall(DRJobStoreCommit(&store, 3, ph, t));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s\n", out));
  }
  PetscCall(DRCMSDestroy(&cms));
  if (exporting) PetscCall(DRExportRun(&x)); /* from the renamed result, as `dynred export` reads it */
  if (verify && tol > 0) PetscCall(DRVerdictCheck(PETSC_COMM_WORLD, &verdict, tol, "verification failed", "cms.verify_tol_pct", "full-model", "CMS"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
