/* DOF label files ("dofs"): one "node.direction" per row, as CalculiX's
 * JOB.dof (DRLabelParse also accepts the GA's short form "15H"; written as
 * DRLabelString, "node.direction").  A label may repeat: CalculiX writes the
 * rows of the nodes it expands a shell, beam or 2-D element's node into under
 * that node's label; they become copies (DRLabelsNumberCopies) and are
 * written back repeated, so the round trip keeps them. */
#include "io_impl.h"
#include <string.h>

/* ======================================================================== */
/* DOF label files                                                          */
/* ======================================================================== */

PetscErrorCode DRLabelsRead(MPI_Comm comm, const char *path, PetscInt *n, DRLabel **labels)
{
  DRInputStatus st;
  DRLineReader  r;
  PetscInt      cnt = 0, cap = 0;
  DRLabel      *lab = NULL;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadDof, 0, 0, 0, 0));
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    PetscBool got;
    PetscCall(DRInputOpen(&st, &r, path, "a DOF label file (node.direction per row)"));
    while (!st.bad) {
      PetscCall(DRLineReaderNext(&r, &got));
      if (!got) break;
      if (DRStrBlank(r.line)) continue;
      if (cnt == cap) {
        DRLabel *l2;
        cap = 2 * cap + 1024;
        PetscCall(PetscMalloc1(cap, &l2));
        if (cnt) PetscCall(PetscArraycpy(l2, lab, cnt));
        PetscCall(PetscFree(lab));
        lab = l2;
      }
      if (!DRLabelParse(r.line, &lab[cnt])) {
        char *s = r.line;
        while (*s == ' ' || *s == '\t') s++;
        PetscCall(DRInputFail(&st, "%s:%lld: label '%.64s' is not node.direction with direction 1..6 (or 0: a scalar point)", path, (long long)r.lineno, s));
      }
      cnt++;
    }
    PetscCall(DRLineReaderClose(&r));
    if (!st.bad && cnt == 0) PetscCall(DRInputFail(&st, "%s: has no labels, expected one node.direction per matrix row", path));
    /* A repeated label is a row of an expanded CalculiX element (shell, beam,
     * 2-D): each row is its own DOF, numbered as a copy in row order. */
    if (!st.bad) PetscCall(DRLabelsNumberCopies(cnt, lab));
  }
  PetscCall(DRInputSync(&st, &cnt));
  if (st.bad) PetscCall(PetscFree(lab));
  DRInputCheck(&st);
  if (st.rank == 0) {
    PetscCall(PetscMalloc1(cnt, labels));
    PetscCall(PetscArraycpy(*labels, lab, cnt));
    PetscCall(PetscFree(lab));
  } else PetscCall(PetscMalloc1(cnt, labels));
  PetscCallMPI(MPI_Bcast(*labels, (PetscMPIInt)cnt, MPIU_INT64, 0, comm));
  *n = cnt;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadDof, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLabelsWrite(MPI_Comm comm, const char *path, PetscInt n, const DRLabel labels[])
{
  char  tmp[PETSC_MAX_PATH_LEN + 32], b[32];
  FILE *f;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCall(DRTmpPath(comm, path, tmp, sizeof(tmp)));
  PetscCall(DRFileOpenWrite(comm, tmp, &f));
  if (f)
    for (PetscInt i = 0; i < n; i++) fprintf(f, "%s\n", DRLabelString(DRLabelBase(labels[i]), b));
  PetscCall(DRFileCommit(comm, &f, tmp, path));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

