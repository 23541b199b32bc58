/* The driver's error handler and the one-line report of a failure inside a
 * rank group (include/dynred/preflight.h). */
#include <dynred/preflight.h>
#include <stdio.h>
#include <string.h>

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
PetscErrorCode DRErrorDeferEnd(MPI_Comm comm, PetscErrorCode ierr, const char *context)
{
  int         mine = (int)ierr, any = 0;
  PetscBool   begun = defer_on;
  PetscMPIInt rank;
  struct {
    int v, r;
  } in, out;
  char buf[2560];

  defer_on = PETSC_FALSE;
  if (MPI_Comm_rank(comm, &rank) || MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm)) return PETSC_ERR_MPI;
  if (!any || !begun) return (PetscErrorCode)any; /* not deferred: the failing ranks reported */
  /* the lowest failing rank that holds a message (0), else the lowest failing one (1) */
  in.v = ierr ? (defer_msg[0] ? 0 : 1) : 2;
  in.r = (int)rank;
  if (MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, comm)) return PETSC_ERR_MPI;
  buf[0] = 0;
  if (rank == out.r) {
    const char *msg = defer_msg[0] ? defer_msg : "failed without a message";
    if (context && context[0] && !strstr(msg, context)) snprintf(buf, sizeof(buf), "%s: %s", context, msg);
    else snprintf(buf, sizeof(buf), "%s", msg);
  }
  if (MPI_Bcast(buf, (int)sizeof(buf), MPI_CHAR, out.r, comm)) return PETSC_ERR_MPI;
  if (!rank) {
    fprintf(stderr, "dynred: error: %s\n", buf);
    fflush(stderr);
  }
  defer_code = PETSC_SUCCESS;
  return DR_ERR_INPUT;
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
