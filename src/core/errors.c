/* The driver's error handler and the one-line report of a failure inside a
 * rank group (include/dynred/preflight.h). */
#include <dynred/preflight.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static PetscBool      defer_on = PETSC_FALSE;
static char           defer_msg[2048];
static PetscErrorCode defer_code = PETSC_SUCCESS;

/* "MESSAGE" for dynred's own codes; "MESSAGE (PETSc error N in FUN)" else. */
static void Record(PetscErrorCode n, const char *fun, const char *mess)
{
  defer_code = n;
  if (n == DR_ERR_INPUT || n == DR_ERR_VERIFY) snprintf(defer_msg, sizeof(defer_msg), "%s", mess ? mess : "");
  else snprintf(defer_msg, sizeof(defer_msg), "%s (PETSc error %d in %s)", mess && mess[0] && strcmp(mess, " ") ? mess : "failed", (int)n, fun ? fun : "?");
}

PetscErrorCode DRErrorHandler(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  PetscMPIInt rank = 0;

  if (defer_on) {
    if (p == PETSC_ERROR_INITIAL) Record(n, fun, mess);
    return n;
  }
  if (comm != MPI_COMM_NULL) MPI_Comm_rank(comm, &rank);
  if (n == DR_ERR_INPUT || n == DR_ERR_VERIFY) {
    if (p == PETSC_ERROR_INITIAL && rank == 0 && mess) fprintf(stderr, "dynred: error: %s\n", mess);
    return n;
  }
  return PetscTraceBackErrorHandler(comm, line, fun, file, n, p, mess, ctx);
}

PetscErrorCode DRErrorDeferBegin(void)
{
  defer_on     = PETSC_TRUE;
  defer_msg[0] = 0;
  defer_code   = PETSC_SUCCESS;
  return PETSC_SUCCESS;
}

void DRErrorDeferFlush(void)
{
  if (defer_on && defer_code) fprintf(stderr, "dynred: error: %s\n", defer_msg[0] ? defer_msg : "failed (no message)");
  defer_on   = PETSC_FALSE;
  defer_code = PETSC_SUCCESS;
}

/* No PetscCall inside: this runs on the error path of every rank and must
 * reach its collectives whatever happened before. */
PetscErrorCode DRErrorAgreeMessage(MPI_Comm comm, PetscErrorCode ierr, const char *mine, char *buf, size_t len, PetscErrorCode *code)
{
  PetscMPIInt rank;
  int         c = (int)ierr;
  struct {
    int v, r;
  } in, out;

  *code = PETSC_SUCCESS;
  if (MPI_Comm_rank(comm, &rank)) return PETSC_ERR_MPI;
  /* the lowest failing rank that holds a message (0), else the lowest failing one (1) */
  in.v = ierr ? (mine && mine[0] ? 0 : 1) : 2;
  in.r = (int)rank;
  if (MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, comm)) return PETSC_ERR_MPI;
  if (out.v == 2) {
    if (len) buf[0] = 0;
    return PETSC_SUCCESS;
  }
  if (rank == out.r && len) {
    if (!(mine && mine[0])) snprintf(buf, len, "failed without a message");
    else if (mine != buf) snprintf(buf, len, "%s", mine);
  }
  if (MPI_Bcast(buf, (int)len, MPI_CHAR, out.r, comm) || MPI_Bcast(&c, 1, MPI_INT, out.r, comm)) return PETSC_ERR_MPI;
  *code = (PetscErrorCode)c;
  return PETSC_SUCCESS;
}

PetscErrorCode DRErrorDeferTake(MPI_Comm comm, PetscErrorCode ierr, const char *context, char *buf, size_t len)
{
  int            mine = (int)ierr, any = 0;
  PetscBool      begun = defer_on;
  PetscErrorCode code;
  char           msgbuf[2560] = "";

  defer_on = PETSC_FALSE;
  if (buf && len) buf[0] = 0;
  if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm)) return PETSC_ERR_MPI;
  if (!any || !begun) return (PetscErrorCode)any; /* not deferred: the failing ranks reported */
  if (ierr && defer_msg[0]) {
    if (context && context[0] && !strstr(defer_msg, context)) snprintf(msgbuf, sizeof(msgbuf), "%s: %s", context, defer_msg);
    else snprintf(msgbuf, sizeof(msgbuf), "%s", defer_msg);
  }
  if (DRErrorAgreeMessage(comm, ierr, msgbuf, msgbuf, sizeof(msgbuf), &code)) return PETSC_ERR_MPI;
  if (buf && len) snprintf(buf, len, "%s", msgbuf);
  defer_code = PETSC_SUCCESS;
  return DR_ERR_INPUT;
}

PetscErrorCode DRErrorDeferEnd(MPI_Comm comm, PetscErrorCode ierr, const char *context)
{
  char           buf[2560];
  PetscBool      begun = defer_on;
  PetscMPIInt    rank;
  PetscErrorCode e = DRErrorDeferTake(comm, ierr, context, buf, sizeof(buf));

  if (e == PETSC_ERR_MPI || !e || !begun) return e;
  if (!MPI_Comm_rank(comm, &rank) && !rank) {
    fprintf(stderr, "dynred: error: %s\n", buf);
    fflush(stderr);
  }
  return e;
}

/* The backstop for a failure on some ranks only (a bug, or a check that is
 * not collective): a communicator of its own, so its barrier cannot be
 * matched with a collective that other ranks are blocked in. */
static MPI_Comm agree_comm = MPI_COMM_NULL;

PetscErrorCode DRErrorAgreeSetUp(void)
{
  PetscFunctionBeginUser;
  if (agree_comm == MPI_COMM_NULL) PetscCallMPI(MPI_Comm_dup(MPI_COMM_WORLD, &agree_comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void DRErrorAgreeFree(void)
{
  if (agree_comm != MPI_COMM_NULL) (void)MPI_Comm_free(&agree_comm);
}

#define DR_NTEMP 8
static char temps[DR_NTEMP][PETSC_MAX_PATH_LEN];

void DRTempRegister(const char *path)
{
  for (int i = 0; i < DR_NTEMP; i++)
    if (!temps[i][0]) {
      snprintf(temps[i], sizeof(temps[i]), "%s", path);
      return;
    }
}

void DRTempForget(const char *path)
{
  for (int i = 0; i < DR_NTEMP; i++)
    if (!strcmp(temps[i], path)) temps[i][0] = 0;
}

/* No PetscCall, no allocation: also called from signal handlers. */
void DRTempRemoveAll(char *removed, size_t len)
{
  size_t n = 0;

  if (len) removed[0] = 0;
  for (int i = 0; i < DR_NTEMP; i++)
    if (temps[i][0] && !unlink(temps[i]) && n < len) n += (size_t)snprintf(removed + n, len - n, "%s%s", n ? ", " : "", temps[i]);
}

/* Test hook -dr_test_overread_after_error (tests/e2e/sanitizer_catch.sh):
 * on the error path, after the error line, read one byte past a 16-byte heap
 * buffer, the kind of defect a job's clean-up after an input error can have,
 * so that the suite can show its expected-failure checks fail on a sanitizer
 * report there.  The read is made in the AddressSanitizer build only (it is
 * undefined behaviour that nothing would report elsewhere); in other builds
 * the option is read and does nothing. */
static void TestOverreadAfterError(void)
{
  PetscBool set = PETSC_FALSE;

  (void)PetscOptionsHasName(NULL, NULL, "-dr_test_overread_after_error", &set);
  if (!set) return;
#if defined(__SANITIZE_ADDRESS__)
  {
    char *volatile buf = (char *)malloc(16);
    volatile char  c;

    if (!buf) return;
    memset(buf, 0, 16);
    c = buf[16];
    (void)c;
    free(buf);
  }
#endif
}

/* No PetscCall: the error path.  A non-blocking barrier of the failing
 * ranks, polled for -error_wait seconds (default 30): every rank arrives
 * when the failure was collective (the usual case: input checks, deferred
 * group failures), and the job then ends normally with its one line; a
 * rank that is still alone after the wait aborts the job (MPI_Abort) so
 * that the other ranks, blocked in a collective it will never enter, do
 * not hold the allocation until the wall-time limit. */
void DRErrorAgreeOrAbort(void)
{
  int         size = 1, rank = 0, done = 0;
  PetscReal   wait = 30;
  MPI_Request req;
  double      t0;

  TestOverreadAfterError();
  if (agree_comm == MPI_COMM_NULL || MPI_Comm_size(agree_comm, &size) || size == 1) return;
  (void)MPI_Comm_rank(agree_comm, &rank);
  (void)PetscOptionsGetReal(NULL, NULL, "-error_wait", &wait, NULL);
  if (MPI_Ibarrier(agree_comm, &req)) return;
  t0 = MPI_Wtime();
  while (!done) {
    if (MPI_Test(&req, &done, MPI_STATUS_IGNORE)) return;
    if (done) return;
    if (MPI_Wtime() - t0 > (double)wait) break;
    (void)PetscSleep(0.01);
  }
  fprintf(stderr, "dynred: error: rank %d of %d stopped on the error above, but not every rank did within %g s (-error_wait): aborting the job so that the others do not wait in a collective forever\n", rank, size, (double)wait);
  fflush(NULL);
  for (int i = 0; i < DR_NTEMP; i++) /* the aborting rank's temporary outputs (shared paths: any rank may remove them) */
    if (temps[i][0]) (void)unlink(temps[i]);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

PetscErrorCode DRTestHookFail(MPI_Comm comm, const char *opt, const char *name)
{
  char      target[256];
  PetscBool set, match;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, opt, target, sizeof(target), &set));
  if (!set) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrcmp(target, name, &match));
  PetscCheck(!match, comm, PETSC_ERR_CONV_FAILED, "solver breakdown injected by the test hook %s %s", opt, name);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRRootAgree(MPI_Comm comm, PetscErrorCode ierr)
{
  int e = (int)ierr;

  if (MPI_Bcast(&e, 1, MPI_INT, 0, comm)) return PETSC_ERR_MPI;
  return (PetscErrorCode)e;
}
