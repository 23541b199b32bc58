/* Plumbing shared by the jobs: output file, timing, model summary. */
#include "app.h"
#include <dynred/units.h>

static DRStore open_store = NULL;

static PetscClassId  job_classid;
static PetscLogEvent job_events[DR_JOB_NPHASE];
static PetscBool     job_registered = PETSC_FALSE;

static PetscErrorCode JobFinalize(void)
{
  PetscFunctionBeginUser;
  job_registered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode JobRegister(void)
{
  static const char *names[DR_JOB_NPHASE] = {"DRJobModel", "DRJobSolve", "DRJobVerify", "DRJobOutput"};

  PetscFunctionBeginUser;
  if (job_registered) PetscFunctionReturn(PETSC_SUCCESS);
  job_registered = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR Job", &job_classid));
  for (int p = 0; p < DR_JOB_NPHASE; p++) PetscCall(PetscLogEventRegister(names[p], job_classid, &job_events[p]));
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(JobFinalize));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobPhaseBegin(DRJobPhase p)
{
  PetscFunctionBeginUser;
  PetscCall(JobRegister());
  PetscCall(PetscLogEventBegin(job_events[p], 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobPhaseEnd(DRJobPhase p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventEnd(job_events[p], 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobSeconds(DRJobPhase p, PetscReal *s)
{
  PetscLogDouble t;

  PetscFunctionBeginUser;
  PetscCall(JobRegister());
  PetscCall(DRLogEventSeconds(job_events[p], &t));
  *s = (PetscReal)t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobStoreOpen(DRConfig cfg, const char *job, DRStore *s)
{
  char        out[PETSC_MAX_PATH_LEN];
  const char *text;
  PetscMPIInt size;
  DRUnits     units;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "output", out, sizeof(out), NULL));
  PetscCall(DRStoreCreate(PETSC_COMM_WORLD, out, s));
  open_store = *s;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(DRConfigGetText(cfg, &text));
  PetscCall(DRStoreAttrString(*s, "/", "dynred_version", DYNRED_VERSION));
  PetscCall(DRStoreAttrString(*s, "/", "job", job));
  PetscCall(DRStoreAttrInt(*s, "/", "nranks", size));
  PetscCall(DRStoreAttrString(*s, "/", "config", text));
  PetscCall(DRModelGetUnits(cfg, &units, NULL));
  PetscCall(DRUnitsWrite(*s, &units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobModelToSeconds(DRConfig cfg, DRComponent c)
{
  DRUnits u, s;

  PetscFunctionBeginUser;
  PetscCall(DRModelGetUnits(cfg, &u, NULL));
  if (c) PetscCall(DRModelToSeconds(cfg, c, &s));
  else PetscCall(DRUnitsToSeconds(&u, &s));
  if (u.time_s != 1) PetscCall(DRProgress(PETSC_COMM_WORLD, "model: units %s taken as %s (masses x %g, time in s): frequencies in Hz", u.name, s.name, (double)(u.time_s * u.time_s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobStoreUnitsInSeconds(DRConfig cfg, DRStore store)
{
  DRUnits u, s;

  PetscFunctionBeginUser;
  PetscCall(DRModelGetUnits(cfg, &u, NULL));
  PetscCall(DRUnitsToSeconds(&u, &s));
  PetscCall(DRUnitsWrite(store, &s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobStoreCommit(DRStore *s, PetscInt nphases, const char *const phases[], const PetscReal seconds[])
{
  char        out[PETSC_MAX_PATH_LEN];
  PetscReal   rss, maxrss;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < nphases; i++) PetscCall(DRStoreAttrReal(*s, "/timing", phases[i], seconds[i]));
  PetscCall(DRPeakRSS(&rss));
  PetscCall(MPIU_Allreduce(&rss, &maxrss, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
  PetscCall(DRStoreAttrReal(*s, "/timing", "peak_rss_mib_per_rank", maxrss));
  PetscCall(DRStoreAttrString(*s, "/timing", "units", "s"));
  open_store = NULL;
  PetscCall(PetscStrncpy(out, "", sizeof(out)));
  PetscCall(DRStoreClose(s, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobStoreAbort(void)
{
  PetscFunctionBeginUser;
  if (open_store) PetscCall(DRStoreClose(&open_store, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobPrintModel(DRComponent c)
{
  MatInfo         info;
  PetscMPIInt     size;
  MPI_Comm        comm;
  Mat             K;
  const char     *name, *source;
  PetscInt        n, nnodes, ncells;
  DRCellType      ct;
  const PetscInt *ids, *cells;
  const PetscReal *xyz;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetComm(c, &comm));
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(DRComponentGetSource(c, &source));
  PetscCall(DRComponentGetSize(c, &n));
  PetscCall(DRComponentGetOperators(c, &K, NULL, NULL));
  PetscCall(DRComponentGetGeometry(c, &nnodes, &ids, &xyz));
  PetscCall(DRComponentGetCells(c, &ct, &ncells, &cells));
  PetscCall(MatGetInfo(K, MAT_GLOBAL_SUM, &info));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscPrintf(comm, "model %s (%s): %" PetscInt_FMT " DOFs, %.0f nonzeros in K, %" PetscInt_FMT " nodes, %" PetscInt_FMT " elements, %d rank(s)\n", name, source, n, (double)info.nz_used, nnodes, ncells, (int)size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobPreflight(DRConfig cfg, const char *job)
{
  char              own[16];
  const char *const sections[] = {own, "model.", "components", "output", "verify", "ranks_per_group", "dense_max", "mem_limit_mib", "farm.", NULL};

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(own, sizeof(own), "%s.", job));
  PetscCall(DRConfigCheckAll(cfg, sections));
  {
    DRUnits u; /* model.units: an unknown or inconsistent system fails here */
    PetscCall(DRModelGetUnits(cfg, &u, NULL));
  }
  PetscCall(DRPreflightOutput(cfg, "output"));
  PetscCall(DRPreflightInputs(cfg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobCheckMemory(DRConfig cfg, DRComponent c, PetscInt nvec)
{
  Mat         K;
  PetscInt    n, nloc;
  PetscReal   mib;
  const char *name;
  char        what[256];

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetOperators(c, &K, NULL, NULL));
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(DRComponentGetSize(c, &n));
  PetscCall(MatGetLocalSize(K, &nloc, NULL));
  PetscCall(DRMemoryFactorEstimate(K, &mib));
  mib += (PetscReal)nvec * (PetscReal)nloc * sizeof(PetscScalar) / 1048576.0;
  PetscCall(PetscSNPrintf(what, sizeof(what), "model %s (%" PetscInt_FMT " DOFs; MUMPS estimate of the factorization + %" PetscInt_FMT " eigensolver vectors)", name, n, nvec));
  PetscCall(DRMemoryCheck(PetscObjectComm((PetscObject)K), cfg, mib, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}
