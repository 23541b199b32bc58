/* dynred: the driver.  `dynred [SUBCOMMAND] [-config FILE.yaml] [options]`. */
#include "app.h"
#include <dynred/cms.h>
#include <dynred/gmpsweep.h>
#include <dynred/ga.h>
#include <dynred/preflight.h>
#include <hdf5.h>
#include <slepcsys.h>
#include <string.h>
#include <unistd.h>
#include "dynred_build.h" /* DYNRED_BUILD: the build's `git describe`, made by the Makefile */

static const char help[] = "dynred: dynamic substructuring and model order reduction of large FE models.\n"
                           "usage: dynred [SUBCOMMAND] [-config FILE.yaml] [-KEY VALUE ...] [PETSc/SLEPc options]\n"
                           "       dynred help            list subcommands and job-file keys\n"
                           "       dynred -version        dynred's version and the PETSc, SLEPc, HDF5 and MPI it runs with\n"
                           "Without -config the embedded default job runs (the demo).\n\n";

/* The embedded default job: the demo. */
static const char default_job[] = "# The embedded default job (the demo): a clamped steel plate cut into 4\n"
                                  "# parts, Craig-Bampton CMS, verified against the full model.\n"
                                  "job: cms\n"
                                  "output: dynred_demo.h5\n"
                                  "model:\n"
                                  "  builtin: plate\n"
                                  "  plate: {lx: 1.0, ly: 0.5, lz: 0.02, nx: 60, ny: 30, nz: 2,\n"
                                  "          E: 210e9, nu: 0.3, rho: 7850, clamp: x0}\n"
                                  "  cut: {axis: x, parts: 4}\n"
                                  "cms:\n"
                                  "  fmax: 300\n"
                                  "verify: true\n";

static const DRConfigKey core_keys[] = {
  {"job", DR_CFG_STRING, "modal", "job to run: modal | cms | gmp | ga | ss | hybrid | sysred | export | pmor (see dynred help)", NULL, NULL, NULL},
  {"output", DR_CFG_STRING, "dynred.h5", "output HDF5 file (written to a temporary name, renamed on success)", NULL, NULL, NULL},
  {"verify", DR_CFG_BOOL, "false", "also solve the full model and compare", NULL, NULL, NULL},
  {"mem_limit_mib", DR_CFG_REAL, NULL, "memory a node offers to the job [MiB] in the check before the solve (unset: MemAvailable of /proc/meminfo); a job estimated above it stops with a one-line error", "0..", "MiB", NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

static const DRJob jobs[] = {
  {"modal", DRJobModal, "reference modal analysis of the assembled full model", DRJobModalKeys},
  {"cms", DRJobCMS, "component mode synthesis: components on rank groups, coupled reduced system on the root", NULL},
  {"gmp", DRJobGMP, "Global Modal Parameterization: ROMs on a configuration grid (task farm), tracking, interpolation and its verification", NULL},
  {"ss", DRJobSS, "modal state-space export (A, B, C, D) of a reduced model, fixed-step simulation, virtual hybrid simulation", DRJobSSKeys},
  {"sysred", DRJobSysRed, "system-level reduction of a state space: minimal realization, balanced truncation (Hankel values, error bound; dense or low-rank Gramians), singular perturbation, POD; frequency- and time-response comparison", DRJobSysRedKeys},
  {"export", DRJobExport, "superelement export of a reduced model (cms, ga, ss second-order form): Nastran DMIG bulk data or OP4 (ASCII/binary, dense/sparse) with a DOF map", DRJobExportKeys},
  {"pmor", DRJobPMOR, "parametric model reduction for a moving load: support ROMs (shared modes + static mode) on the task farm, compatible coordinates (Panzer, Amsallem-Farhat), spline-weighted matrix interpolation, FRF error against the full model", DRJobPMORKeys},
  {"hybrid", DRJobHybrid, "virtual hybrid simulation (seed 003): reduced models (GA front solutions) and the full model with an external element (laws A/B/C), Newmark with Newton or central difference; master-DOF histories, MSE against the full model, time per step against the step size", DRJobHybridKeys},
  {"ga", DRJobGA, "master-DOF selection: NSGA-II over master sets, condensation (idc, irs, guyan) on the task farm", NULL},
  {NULL, NULL, NULL, NULL},
};

static PetscErrorCode PrintHelp(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s", help));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Subcommands (or the `job:` of the file):\n"));
  for (const DRJob *j = jobs; j->name; j++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %s\n", j->name, j->summary));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %s\n", "compare", "dynred compare A.h5 B.h5 [-tol_pct X] [-output C.h5] [-fmax HZ] [-nbands N] [-group_a G] [-group_b G] [-mass M.mtx]: frequencies, MAC with optimal pairing, bands, cross-orthogonality of two results"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-10s %s\n\n", "help", "this text"));
  PetscCall(DRConfigPrintSchema(PETSC_COMM_WORLD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\nSolver options pass through with a prefix per stage, e.g. -modal_eps_type, -modal_st_pc_factor_mat_solver_type;\n"
                                          "-log_view profiles every phase: each package registers its class and events (core: DRWrite, DRFarmTask,\n"
                                          "DRFarmCheckpoint, DRFarmDrain; model and eigen: DRGenerate, DRAssemble, DREigenSolve, ...).\n"
                                          "Keys shown with [MIN..MAX] or [a|b|c] are checked against that range; a deprecated key is read as its\n"
                                          "replacement with a warning (giving both is an error).\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The example job files beside this executable: PREFIX/share/dynred/configs
 * of an installed tree (make install), else the source tree's configs/ when
 * it runs from bin/.  Empty when neither is there. */
static PetscErrorCode ExampleDir(char *dir, size_t len)
{
  static const char *const rel[] = {"/share/dynred/configs", "/configs"};
  char                     exe[PETSC_MAX_PATH_LEN];
  ssize_t                  n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  char                    *slash;

  PetscFunctionBeginUser;
  dir[0] = 0;
  if (n <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  exe[n] = 0;
  for (int up = 0; up < 2; up++) { /* PREFIX/bin/dynred -> PREFIX */
    if (!(slash = strrchr(exe, '/'))) PetscFunctionReturn(PETSC_SUCCESS);
    *slash = 0;
  }
  for (size_t k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
    PetscCall(PetscStrncpy(dir, exe, len));
    PetscCall(PetscStrlcat(dir, rel[k], len));
    if (access(dir, R_OK | X_OK) == 0) PetscFunctionReturn(PETSC_SUCCESS);
  }
  dir[0] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* `dynred -version`: dynred's version and the libraries this process runs
 * with (the shared libraries actually loaded, not the headers it was built
 * against), once, then nothing else runs. */
static PetscErrorCode PrintVersion(void)
{
  char         petsc[256], slepc[256], mpi[MPI_MAX_LIBRARY_VERSION_STRING], dir[PETSC_MAX_PATH_LEN];
  unsigned int hmaj, hmin, hrel;
  int          len;
  size_t       n;

  PetscFunctionBeginUser;
  PetscCall(PetscGetVersion(petsc, sizeof(petsc)));
  PetscCall(SlepcGetVersion(slepc, sizeof(slepc)));
  PetscCheck(H5get_libversion(&hmaj, &hmin, &hrel) >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "H5get_libversion failed");
  PetscCallMPI(MPI_Get_library_version(mpi, &len));
  mpi[strcspn(mpi, "\n")] = 0; /* MPICH's string runs over several lines: its first names it */
  for (char *v[] = {petsc, slepc, mpi}, **p = v; p < v + 3; p++)
    for (n = strlen(*p); n && (*p)[n - 1] == ' '; n--) (*p)[n - 1] = 0;
  PetscCall(ExampleDir(dir, sizeof(dir)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dynred %s%s\n", DYNRED_VERSION, DYNRED_BUILD));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PETSc: %s (%d-bit PetscInt)\n", petsc, (int)(8 * sizeof(PetscInt))));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "SLEPc: %s\n", slepc));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "HDF5: %u.%u.%u\n", hmaj, hmin, hrel));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MPI: %s\n", mpi));
  if (dir[0]) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "example job files: %s\n", dir));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Arguments PETSc must not see: -version and --version (PETSc's -version
 * prints its banner and carries on into the job), --help, and any other
 * GNU-style --word, which PETSc would take for an option nobody reads and
 * dynred would then run the default job, writing into the working
 * directory.  They are removed from argv before SlepcInitialize; the first
 * unknown --word is kept for the error. */
typedef struct {
  PetscBool   version, help;
  const char *unknown;
} DRArgs;

static void TakeArgs(int *argc, char **argv, DRArgs *a)
{
  int k = 1;

  a->version = a->help = PETSC_FALSE;
  a->unknown           = NULL;
  for (int i = 1; i < *argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "-version") || !strcmp(s, "--version")) a->version = PETSC_TRUE;
    else if (!strcmp(s, "--help")) a->help = PETSC_TRUE;
    else if (!strncmp(s, "--", 2) && s[2]) {
      if (!a->unknown) a->unknown = s;
    } else argv[k++] = argv[i];
  }
  argv[k] = NULL;
  *argc   = k;
}

static PetscErrorCode Run(int argc, char **argv, const DRArgs *args)
{
  DRConfig    cfg;
  char        file[PETSC_MAX_PATH_LEN] = "", job[64];
  const char *sub = (argc > 1 && argv[1][0] != '-') ? argv[1] : NULL;
  PetscBool   hasfile, hashelp;
  const DRJob *j;

  PetscFunctionBeginUser;
  PetscCheck(!args->unknown, PETSC_COMM_WORLD, DR_ERR_INPUT, "command line: unknown option '%s'; expected options with one dash (-KEY VALUE, -config FILE.yaml, -version) and a subcommand listed by 'dynred help'", args->unknown);
  if (args->version) {
    PetscCall(PrintVersion());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRConfigRegisterKeys(core_keys));
  PetscCall(DRModelRegisterKeys());
  PetscCall(DRCMSRegisterKeys());
  PetscCall(DRGMPRegisterKeys());
  PetscCall(DRGMPTransientRegisterKeys());
  PetscCall(DRGARegisterKeys());
  for (j = jobs; j->name; j++)
    if (j->keys) PetscCall(DRConfigRegisterKeys(j->keys));
  if (sub && !strcmp(sub, "compare")) { /* file arguments, no job file */
    PetscCall(DRJobCompare(argc, argv));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (args->help || (sub && !strcmp(sub, "help"))) {
    PetscCall(PrintHelp());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscOptionsHasHelp(NULL, &hashelp));
  if (hashelp) PetscCall(PrintHelp());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-config", file, sizeof(file), &hasfile));
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &cfg));
  if (hasfile) PetscCall(DRConfigLoadFile(cfg, file));
  else PetscCall(DRConfigLoadString(cfg, "<embedded default job>", default_job));
  PetscCall(DRConfigGetString(cfg, "job", job, sizeof(job), NULL));
  if (sub) PetscCall(PetscStrncpy(job, sub, sizeof(job))); /* `dynred modal -config cms.yaml`: modal of that model */
  for (j = jobs; j->name; j++)
    if (!strcmp(j->name, job)) break;
  if (!j->name) {
    char where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigWhere(cfg, "job", where, sizeof(where)));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: unknown job '%s'; expected one of the subcommands listed by 'dynred help'", sub ? "command line" : where, job);
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "dynred %s: job %s from %s\n", DYNRED_VERSION, job, hasfile ? file : "the embedded default"));
  {
    /* test hook: a failure on one rank alone (tests/e2e/rank_failure.sh) */
    PetscInt    fr = -1;
    PetscMPIInt rank;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_fail_rank", &fr, NULL));
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PetscCheck(fr != rank, PETSC_COMM_SELF, DR_ERR_INPUT, "rank %d failed alone (test hook -test_fail_rank)", rank);
  }
  PetscCall(j->run(cfg));
  PetscCall(DRConfigDestroy(&cfg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Options in dynred's own namespaces (the job-file sections) that nothing
 * read: most likely a misspelled key, which would otherwise silently run
 * with the default.  One warning line each, on stderr, after the run
 * (solver options under a section prefix that this run did not need, e.g.
 * -gmp_st_* when LAPACK solved, are listed too: they had no effect). */
static PetscErrorCode WarnUnusedOptions(void)
{
  static const char *const sec[] = {"model_", "modal_", "cms_", "gmp_", "ga_", "ss_", "sysred_", "export_", "pmor_", "hybrid_", "farm_", "components_", NULL};
  PetscInt                 n;
  char                   **names, **values;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n; i++) {
    const char *nm = names[i][0] == '-' ? names[i] + 1 : names[i];
    for (int k = 0; sec[k]; k++)
      if (!strncmp(nm, sec[k], strlen(sec[k]))) {
        PetscCall(PetscFPrintf(PETSC_COMM_WORLD, PETSC_STDERR, "dynred: warning: option -%s was not used (misspelled? 'dynred help' lists the job-file keys)\n", nm));
        break;
      }
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscErrorCode ierr;
  DRArgs         args;

  TakeArgs(&argc, argv, &args);
  PetscCall(DRInitialize(&argc, &argv, help));
  PetscCall(PetscPushErrorHandler(DRErrorHandler, NULL));
  ierr = Run(argc, argv, &args);
  if (ierr) {
    DRErrorDeferFlush();
    DRErrorAgreeOrAbort(); /* a failure on some ranks only: abort, not hang */
    (void)DRJobStoreAbort();
    (void)PetscPopErrorHandler();
    (void)DRFinalize();
#if defined(__SANITIZE_ADDRESS__)
    /* Sanitizer build: a failed job returns through PetscCall without
     * destroying what it had built (PETSc's convention), so LeakSanitizer's
     * exit-time check is for successful runs only; skip it here. */
    fflush(NULL);
    _exit(1);
#endif
    return 1;
  }
  PetscCall(PetscPopErrorHandler());
  PetscCall(WarnUnusedOptions());
  PetscCall(DRFinalize());
  return 0;
}
