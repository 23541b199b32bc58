/* dynred driver internals: the job functions and their shared plumbing. */
#ifndef DYNRED_APP_H
#define DYNRED_APP_H

#include <dynred/dynred.h>
#include <dynred/config.h>
#include <dynred/model.h>
#include <dynred/modal.h>
#include <dynred/store.h>
#include <dynred/preflight.h>

/* One entry per subcommand. */
typedef struct {
  const char *name;
  PetscErrorCode (*run)(DRConfig cfg);
  const char *summary;
  const DRConfigKey *keys; /* the job's own section of the job file */
} DRJob;

PetscErrorCode           DRJobModal(DRConfig cfg);
PetscErrorCode           DRJobCMS(DRConfig cfg);
PetscErrorCode           DRJobGMP(DRConfig cfg);
PetscErrorCode           DRJobGA(DRConfig cfg);
extern const DRConfigKey DRJobModalKeys[];
PetscErrorCode           DRJobSS(DRConfig cfg);
extern const DRConfigKey DRJobSSKeys[];
PetscErrorCode           DRJobSysRed(DRConfig cfg);
extern const DRConfigKey DRJobSysRedKeys[];
PetscErrorCode           DRJobExport(DRConfig cfg);
extern const DRConfigKey DRJobExportKeys[];
/* dynred compare A.h5 B.h5 [options]: file arguments, no job file. */
PetscErrorCode DRJobCompare(int argc, char **argv);
PetscErrorCode           DRJobHybrid(DRConfig cfg);
extern const DRConfigKey DRJobHybridKeys[];
PetscErrorCode           DRJobPMOR(DRConfig cfg);
extern const DRConfigKey DRJobPMORKeys[];

/* The driver's own phases ("DR Job" class): model build, solve, the check
 * against the full model, output.  Jobs time their phases with these events
 * and read them back (DRJobSeconds), the one clock of /timing. */
typedef enum { DR_JOB_MODEL, DR_JOB_SOLVE, DR_JOB_VERIFY, DR_JOB_OUTPUT, DR_JOB_NPHASE } DRJobPhase;
PetscErrorCode DRJobPhaseBegin(DRJobPhase p);
PetscErrorCode DRJobPhaseEnd(DRJobPhase p);
PetscErrorCode DRJobSeconds(DRJobPhase p, PetscReal *s);

/* Open the job's output (key `output`) and write the root attributes;
 * the store is remembered so a failing job removes its temporary file. */
/* modal and cms work in the seconds system of model.units (frequencies in
 * Hz whatever the model's time unit): the full model converted and logged;
 * the result file's units attributes set to that system (after StoreOpen);
 * c NULL: only the log line (cms converts its components itself, couple/) */
PetscErrorCode DRJobModelToSeconds(DRConfig cfg, DRComponent c);
PetscErrorCode DRJobStoreUnitsInSeconds(DRConfig cfg, DRStore store);
PetscErrorCode DRJobStoreOpen(DRConfig cfg, const char *job, DRStore *s);
/* Write /timing attributes and commit (rename) the output. */
PetscErrorCode DRJobStoreCommit(DRStore *s, PetscInt nphases, const char *const phases[], const PetscReal seconds[]);
/* On error: drop the temporary output file, if any. */
PetscErrorCode DRJobStoreAbort(void);
/* Fail fast, before any model is built: every key the job
 * file gives and every option of the job's sections against its type and
 * range, the output's directory, every input file. */
PetscErrorCode DRJobPreflight(DRConfig cfg, const char *job);
/* The model's memory (MUMPS analysis of K + nvec vectors of its rows) against
 * what the nodes offer; collective on K's communicator. */
PetscErrorCode DRJobCheckMemory(DRConfig cfg, DRComponent c, PetscInt nvec);
/* Print a model summary line (DOFs, nonzeros, nodes, ranks). */
PetscErrorCode DRJobPrintModel(DRComponent c);

#endif
