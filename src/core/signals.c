/* Signals and MPI errors (include/dynred/preflight.h, "Signals").
 *
 * A batch job ends in three ways besides success and its own error lines,
 * and each gets one line on stderr instead of a PETSc or MPI traceback:
 *
 *   - stopped: SIGTERM (a scheduler's time limit, scancel), SIGINT (Ctrl-C
 *     forwarded by mpiexec), SIGHUP, SIGPIPE (the output piped into a
 *     reader that went away).  The temporary output files (DRTempRegister)
 *     are removed, checkpoints (DRCheckpointRegister) are kept, and rank 0
 *     says what was kept and that the same command resumes.  A signal that
 *     arrives while a checkpoint is being written (DRCriticalBegin/End)
 *     takes effect when the write is done, so a kept checkpoint is whole.
 *   - a fault: SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT: the rank that
 *     faulted names itself, the signal, the phase it was in (DRPhaseSet:
 *     the last progress line or farm task) and what to try.
 *   - an MPI error (a failed transport, a peer that died): the same line
 *     from an MPI error handler on MPI_COMM_WORLD, which communicators
 *     duplicated later (PETSc's, the farm's) inherit.
 *
 * The process then leaves with _exit(128 + signal), or 1 after an MPI
 * error, and mpiexec ends the other ranks.  Everything a handler does is a
 * few system calls on buffers filled before: no allocation, no MPI. */
#include <dynred/preflight.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DR_NCKPT 8
static char                  ckpts[DR_NCKPT][PETSC_MAX_PATH_LEN];
static char                  phase[256] = "start-up";
static int                   world_rank, world_size = 1;
static volatile sig_atomic_t critical, pending;

void DRPhaseSet(const char *fmt, ...)
{
  va_list ap;

  va_start(ap, fmt);
  vsnprintf(phase, sizeof(phase), fmt, ap);
  va_end(ap);
}

void DRCheckpointRegister(const char *path)
{
  for (int i = 0; i < DR_NCKPT; i++)
    if (!strcmp(ckpts[i], path)) return;
  for (int i = 0; i < DR_NCKPT; i++)
    if (!ckpts[i][0]) {
      snprintf(ckpts[i], sizeof(ckpts[i]), "%s", path);
      return;
    }
}

void DRCheckpointForget(const char *path)
{
  for (int i = 0; i < DR_NCKPT; i++)
    if (!strcmp(ckpts[i], path)) ckpts[i][0] = 0;
}

static const char *SignalName(int sig)
{
  switch (sig) {
  case SIGTERM: return "SIGTERM";
  case SIGINT: return "SIGINT";
  case SIGHUP: return "SIGHUP";
  case SIGPIPE: return "SIGPIPE";
  case SIGSEGV: return "SIGSEGV (invalid memory access)";
  case SIGBUS: return "SIGBUS (bus error)";
  case SIGFPE: return "SIGFPE (arithmetic exception)";
  case SIGILL: return "SIGILL (illegal instruction)";
  case SIGABRT: return "SIGABRT (abort)";
  default: return "a signal";
  }
}

static void Say(const char *line)
{
  ssize_t r = write(STDERR_FILENO, line, strlen(line));
  (void)r;
}

/* The stop line of rank 0: what was removed, what was kept, how to resume. */
static void StopLine(int sig, const char *removed)
{
  char   line[4096];
  size_t n = 0;
  int    nk = 0;

  n += (size_t)snprintf(line + n, sizeof(line) - n, "dynred: stopped by %s during %s", SignalName(sig), phase);
  if (removed[0]) n += (size_t)snprintf(line + n, sizeof(line) - n, "; removed the unfinished output %s", removed);
  for (int i = 0; i < DR_NCKPT && n < sizeof(line); i++)
    if (ckpts[i][0] && !access(ckpts[i], F_OK)) n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", nk++ ? ", " : "; kept the checkpoint ", ckpts[i]);
  if (n < sizeof(line)) snprintf(line + n, sizeof(line) - n, "%s\n", nk ? ": run the same command again to resume" : "; this job keeps no checkpoint: run it again to start over");
  Say(line);
}

static void Stop(int sig)
{
  char removed[2 * PETSC_MAX_PATH_LEN] = "";

  DRTempRemoveAll(removed, sizeof(removed));
  if (world_rank == 0) StopLine(sig, removed);
  _exit(128 + sig);
}

static void OnStop(int sig)
{
  if (critical) {
    pending = sig;
    return;
  }
  Stop(sig);
}

static void OnFault(int sig)
{
  char line[1024], removed[2 * PETSC_MAX_PATH_LEN] = "";

  snprintf(line, sizeof(line),
           "dynred: error: rank %d of %d: %s during %s: a defect in dynred or a library it calls, or memory that another process changed; "
           "try the job on 1 rank, then under valgrind or with -on_error_attach_debugger, and report it with the job file\n",
           world_rank, world_size, SignalName(sig), phase);
  Say(line);
  DRTempRemoveAll(removed, sizeof(removed));
  _exit(128 + sig);
}

static void OnMPIError(MPI_Comm *comm, int *code, ...)
{
  char line[1024 + MPI_MAX_ERROR_STRING], what[MPI_MAX_ERROR_STRING] = "";
  char removed[2 * PETSC_MAX_PATH_LEN] = "";
  int  len = 0;

  (void)comm;
  if (MPI_Error_string(*code, what, &len) != MPI_SUCCESS) snprintf(what, sizeof(what), "MPI error %d", *code);
  snprintf(line, sizeof(line),
           "dynred: error: rank %d of %d: MPI failed during %s: %s; "
           "check that every rank runs the same dynred and MPI (mpiexec --version, ldd dynred), that the nodes can reach each other, and that no rank was killed (out of memory?)\n",
           world_rank, world_size, phase, what);
  Say(line);
  DRTempRemoveAll(removed, sizeof(removed));
  _exit(1);
}

void DRCriticalBegin(void)
{
  critical++;
}

void DRCriticalEnd(void)
{
  if (critical > 0) critical--;
  if (!critical && pending) Stop((int)pending);
}

PetscErrorCode DRSignalsSetUp(void)
{
  static const int stops[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE}, faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  struct sigaction sa;
  MPI_Errhandler   eh;
  PetscBool        off = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(MPI_COMM_WORLD, &world_rank));
  PetscCallMPI(MPI_Comm_size(MPI_COMM_WORLD, &world_size));
  /* PETSc's -no_signal_handler (e.g. to run under a debugger) leaves faults
   * to the debugger; the stop signals are still handled. */
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-no_signal_handler", &off, NULL));
  memset(&sa, 0, sizeof(sa));
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = OnStop;
  for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) PetscCheck(!sigaction(stops[i], &sa, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot install the handler of %s", SignalName(stops[i]));
  if (!off) {
    sa.sa_handler = OnFault;
    sa.sa_flags   = (int)SA_RESETHAND;
    for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) PetscCheck(!sigaction(faults[i], &sa, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot install the handler of %s", SignalName(faults[i]));
  }
  PetscCallMPI(MPI_Comm_create_errhandler(OnMPIError, &eh));
  PetscCallMPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
  if (PETSC_COMM_WORLD != MPI_COMM_WORLD) PetscCallMPI(MPI_Comm_set_errhandler(PETSC_COMM_WORLD, eh));
  PetscCallMPI(MPI_Errhandler_free(&eh));
  PetscFunctionReturn(PETSC_SUCCESS);
}
