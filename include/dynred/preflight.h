/* dynred: fail-fast checks run before the expensive work,
 * and one error line for a failure inside a rank group (item 7).
 *
 * The checks are collective on their communicator and raise DR_ERR_INPUT with
 * one line `WHERE: what, expected what` (printed by the driver as
 * `dynred: error: ...`). */
#ifndef DYNRED_PREFLIGHT_H
#define DYNRED_PREFLIGHT_H

#include <dynred/config.h>
#include <petscmat.h>

/* The driver's error handler: DR_ERR_INPUT and DR_ERR_VERIFY print the one
 * line `dynred: error: MESSAGE` on rank 0 of the error's communicator, other
 * errors PETSc's traceback.  Between DRErrorDeferBegin and DRErrorDeferEnd
 * (work that rank groups do on their own: one component each) nothing is
 * printed: each rank records its last error message instead. */
PetscErrorCode DRErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx);
PetscErrorCode DRErrorDeferBegin(void);
/* Collective on comm (every group's ranks): ierr is this rank's result of the
 * deferred work, context what this rank worked on when it failed (e.g.
 * "component 'b'"; NULL or "": nothing).  When some rank failed, rank 0 of
 * comm prints ONE line `dynred: error: CONTEXT: MESSAGE` (the context is left
 * out when the message names it already) taken from the lowest failing rank
 * that recorded a message, and every rank returns DR_ERR_INPUT, already
 * reported (its PetscCall chain prints nothing more).  Without a
 * DRErrorDeferBegin it only agrees: every rank returns the largest code. */
PetscErrorCode DRErrorDeferEnd(MPI_Comm comm, PetscErrorCode ierr, const char *context);
/* The same agreement without printing: every rank of comm gets the one line
 * (CONTEXT: MESSAGE) in buf, for a caller that reports it on a larger
 * communicator (the task farm: one line for the job, not one per group). */
PetscErrorCode DRErrorDeferTake(MPI_Comm comm, PetscErrorCode ierr, const char *context, char *buf, size_t len);
/* Collective, also on error paths (plain MPI inside): the message `mine`
 * and code of the lowest failing rank (ierr != 0; one holding a message
 * first) to every rank of comm, in buf (len bytes, the same on every rank)
 * and *code; *code 0 and buf empty when no rank failed.  buf may be mine. */
PetscErrorCode DRErrorAgreeMessage(MPI_Comm comm, PetscErrorCode ierr, const char *mine, char *buf, size_t len, PetscErrorCode *code);
/* The driver's exit path: a deferred window left open by an early return
 * prints this rank's recorded message (so no failure ends silently). */
void DRErrorDeferFlush(void);
/* Work that rank 0 of comm did alone (ierr its result, PETSC_SUCCESS
 * elsewhere): the code is broadcast and every rank returns it, so the others
 * do not wait in the next collective. */
PetscErrorCode DRRootAgree(MPI_Comm comm, PetscErrorCode ierr);

/* The driver's backstop for a failure on some ranks only: DRErrorAgreeSetUp
 * (DRInitialize) makes a communicator of its own; DRErrorAgreeOrAbort, on
 * the error path, returns when every rank failed too within -error_wait
 * seconds (default 30) and else aborts the job with one line (MPI_Abort);
 * DRErrorAgreeFree (DRFinalize). */
PetscErrorCode DRErrorAgreeSetUp(void);
void           DRErrorAgreeOrAbort(void);
void           DRErrorAgreeFree(void);

/* Temporary outputs in flight (DRStoreCreate's OUTPUT.tmp.PID): registered
 * while open, forgotten once closed or removed; DRErrorAgreeOrAbort removes
 * the ones still registered before it aborts the job, so an abort leaves
 * nothing half-written either. */
void DRTempRegister(const char *path);
void DRTempForget(const char *path);
/* Remove every registered temporary that exists; their names, comma
 * separated, in removed (len bytes).  Safe in a signal handler. */
void DRTempRemoveAll(char *removed, size_t len);

/* Signals (src/core/signals.c).  DRSignalsSetUp (DRInitialize) installs the
 * handlers: SIGTERM, SIGINT, SIGHUP and SIGPIPE remove the temporaries, keep
 * the checkpoints and end the job with one line saying how to resume; a
 * fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) or an MPI error ends it
 * with one line naming the rank, the phase and what to try.
 * DRCheckpointRegister names a checkpoint a stopped job keeps (forgotten
 * when the job removes it); DRPhaseSet names what the rank is doing (the
 * progress lines and farm tasks set it); between DRCriticalBegin and
 * DRCriticalEnd a stop signal waits, so a checkpoint is never left half
 * written. */
PetscErrorCode DRSignalsSetUp(void);
void           DRCheckpointRegister(const char *path);
void           DRCheckpointForget(const char *path);
void           DRPhaseSet(const char *fmt, ...) PETSC_ATTRIBUTE_FORMAT(1, 2);
void           DRCriticalBegin(void);
void           DRCriticalEnd(void);

/* Test hook: when option `opt` (e.g. -cms_fail_component) names `name`, fail
 * collectively on comm with PETSC_ERR_CONV_FAILED as a solver breakdown would
 * (tests/e2e/rank_failure.sh); does nothing otherwise. */
PetscErrorCode DRTestHookFail(MPI_Comm comm, const char *opt, const char *name);

/* The output file named by key `key` (e.g. "output"): its directory exists,
 * is a directory and is writable, and the name is not a directory. */
PetscErrorCode DRPreflightOutput(DRConfig cfg, const char *key);
/* Every input file the job file names (components[i].K, M, D, dofs, path
 * with the format's extensions; ss.source; ss.input.file; sysred.source or
 * sysred.mtx.*, sysred.pod.snapshots, sysred.energy.cms as the method
 * reads them) is readable;
 * relative paths resolve against the job file as the readers do. */
PetscErrorCode DRPreflightInputs(DRConfig cfg);
/* Type and range of every key the job file gives, and of every command-line
 * option of the keys in `sections` (prefixes such as "cms.", "model.", or
 * exact keys; NULL-terminated), through the config getters, so a bad value
 * read late in a job (a transient key after a sweep) fails at the start.
 * Options outside `sections` are left to the unused-option warning. */
PetscErrorCode DRConfigCheckAll(DRConfig cfg, const char *const sections[]);

/* Memory: the MiB a node offers (MemAvailable of /proc/meminfo, else
 * sysconf; key `mem_limit_mib` overrides it, per node, e.g. for tests). */
PetscErrorCode DRMemoryNodeAvailable(DRConfig cfg, PetscReal *mib, const char **source);
/* Estimated MiB on this rank of a sparse Cholesky of the symmetric A (MUMPS
 * analysis, INFO(15): its in-core factorization estimate; for a matrix type
 * MUMPS does not take, nnz max(1, log2(N)/4) entries, the factor-size model
 * of the CMS cost model); collective on A. */
PetscErrorCode DRMemoryFactorEstimate(Mat A, PetscReal *mib);
/* Collective on comm: need_mib is this rank's estimate; the ranks of a node
 * add theirs.  A node whose sum exceeds what it offers is the one-line error
 * "WHAT needs about N MiB on a node (R ranks there), A MiB available (SOURCE):
 * expected a job that fits in memory; run on more nodes ...". */
PetscErrorCode DRMemoryCheck(MPI_Comm comm, DRConfig cfg, PetscReal need_mib, const char *what);
/* The same with the message's advice after "expected a job that fits in
 * memory; " (e.g. "a coarser grid ..."), for jobs whose need does not shrink
 * with more nodes alone. */
PetscErrorCode DRMemoryCheckHint(MPI_Comm comm, DRConfig cfg, PetscReal need_mib, const char *what, const char *hint);

#endif
