/* PETSc binary component: PATH holds K, M and optionally D, one after the
 * other as MatView writes them (no .info file); PATH.dof holds the labels.
 * MatLoad distributes the rows itself, so nothing is streamed here.  Whether
 * D follows is decided by peeking at the class id after M (rank 0). */
#include "io_impl.h"
#include <petscviewer.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

static PetscErrorCode OpenBinary(MPI_Comm comm, const char *path, PetscFileMode mode, PetscViewer *v)
{
  PetscFunctionBeginUser;
  PetscCall(PetscViewerCreate(comm, v));
  PetscCall(PetscViewerSetType(*v, PETSCVIEWERBINARY));
  PetscCall(PetscViewerFileSetMode(*v, mode));
  PetscCall(PetscViewerBinarySetSkipInfo(*v, PETSC_TRUE));
  PetscCall(PetscViewerBinarySetUseMPIIO(*v, PETSC_FALSE));
  PetscCall(PetscViewerFileSetName(*v, path));
  /* Open now, collectively: rank 0 alone peeks at the descriptor later. */
  PetscCall(PetscViewerSetUp(*v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 peeks at the next class id: *next = 1 when a matrix follows, 0 at
 * the end of the file; anything else is an error naming `what`. */
static PetscErrorCode PeekMatrix(MPI_Comm comm, PetscViewer v, const char *path, const char *what, PetscBool optional, PetscBool *next)
{
  DRInputStatus st;
  PetscInt      more = 0;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    int      fd;
    PetscInt classid = 0, got = 0;
    off_t    at;
    PetscCall(PetscViewerBinaryGetDescriptor(v, &fd));
    at = lseek(fd, 0, SEEK_CUR);
    PetscCall(PetscBinaryRead(fd, &classid, 1, &got, PETSC_INT));
    if (lseek(fd, at, SEEK_SET) != at) PetscCall(DRInputFail(&st, "%s: cannot seek (%s)", path, strerror(errno)));
    else if (got == 1 && classid == MAT_FILE_CLASSID) more = 1;
    else if (got == 0 && !optional) PetscCall(DRInputFail(&st, "%s: ends before %s, expected K, M [, D] written with MatView", path, what));
    else if (got == 1) PetscCall(DRInputFail(&st, "%s: %s has class id %" PetscInt_FMT ", expected a matrix (%d) written with MatView", path, what, classid, MAT_FILE_CLASSID));
  }
  PetscCall(DRInputSync(&st, &more));
  DRInputCheck(&st);
  *next = more ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LoadMatrix(MPI_Comm comm, PetscViewer v, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatLoad(*A, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadPETSc(MPI_Comm comm, const char *name, const char *path, DRComponent *c)
{
  DRComponent   C;
  PetscViewer   v;
  PetscBool     next;
  char          dofpath[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadPETSc, 0, 0, 0, 0));
  PetscCall(DRInputCheckReadable(comm, path, "a PETSc binary file with K, M [, D] written with MatView"));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  PetscCall(OpenBinary(comm, path, FILE_MODE_READ, &v));
  PetscCall(PeekMatrix(comm, v, path, "K", PETSC_FALSE, &next));
  PetscCall(LoadMatrix(comm, v, &C->K));
  PetscCall(PeekMatrix(comm, v, path, "M", PETSC_FALSE, &next));
  PetscCall(LoadMatrix(comm, v, &C->M));
  PetscCall(PeekMatrix(comm, v, path, "D", PETSC_TRUE, &next));
  if (next) PetscCall(LoadMatrix(comm, v, &C->D));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(PetscSNPrintf(dofpath, sizeof(dofpath), "%s.dof", path));
  PetscCall(DRLabelsRead(comm, dofpath, &C->n, &C->labels));
  PetscCall(DRComponentCheckSizes(C, path, path, path, dofpath));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadPETSc, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWritePETSc(DRComponent c, const char *path)
{
  PetscViewer v;
  char        tmp[PETSC_MAX_PATH_LEN + 32], dofpath[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCall(DRTmpPath(c->comm, path, tmp, sizeof(tmp)));
  PetscCall(OpenBinary(c->comm, tmp, FILE_MODE_WRITE, &v));
  PetscCall(MatView(c->K, v));
  PetscCall(MatView(c->M, v));
  if (c->D) PetscCall(MatView(c->D, v));
  PetscCall(PetscViewerDestroy(&v));
  PetscCall(DRFileCommit(c->comm, NULL, tmp, path));
  PetscCall(PetscSNPrintf(dofpath, sizeof(dofpath), "%s.dof", path));
  PetscCall(DRLabelsWrite(c->comm, dofpath, c->n, c->labels));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
