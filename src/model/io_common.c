/* What every reader of src/model/io_*.c does: open on rank 0 with one
 * message, test a file collectively, the chunked reader loop of the text
 * matrix formats, and the component pieces (geometry broadcast, size
 * checks, names, validation). */
#include "io_impl.h"
#include <errno.h>
#include <string.h>

/* ======================================================================== */
/* Opening and testing files                                                */
/* ======================================================================== */

PetscErrorCode DRInputOpen(DRInputStatus *st, DRLineReader *r, const char *path, const char *what)
{
  PetscBool ok;

  PetscFunctionBeginUser;
  PetscCall(DRLineReaderOpen(r, path, &ok));
  if (!ok) {
    if (what) PetscCall(DRInputFail(st, "%s: cannot open (%s), expected %s", path, strerror(errno), what));
    else PetscCall(DRInputFail(st, "%s: cannot open (%s)", path, strerror(errno)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFileExists(MPI_Comm comm, const char *path, PetscBool *exists)
{
  PetscMPIInt rank;
  PetscInt    flg = 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    PetscBool f;
    PetscCall(PetscTestFile(path, 'r', &f));
    flg = f;
  }
  PetscCallMPI(MPI_Bcast(&flg, 1, MPIU_INT, 0, comm));
  *exists = flg ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputCheckReadable(MPI_Comm comm, const char *path, const char *what)
{
  DRInputStatus st;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    PetscBool flg;
    PetscCall(PetscTestFile(path, 'r', &flg));
    if (!flg) PetscCall(DRInputFail(&st, "%s: cannot open, expected %s", path, what));
  }
  PetscCall(DRInputSync(&st, NULL));
  DRInputCheck(&st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* The reader loop of the text matrix formats                               */
/* ======================================================================== */

static PetscErrorCode StreamCleanup(DRMatStream *s, DRLineReader *r)
{
  PetscFunctionBeginUser;
  PetscCall(DRLineReaderClose(r));
  if (s->destroy) PetscCall(s->destroy(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatStreamRead(MPI_Comm comm, DRMatStream *s, Mat *A)
{
  DRInputStatus st;
  DRLineReader  r;
  DRTriplets    t;
  PetscInt      hdr[2];

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  PetscCall(PetscMemzero(&r, sizeof(r)));
  if (st.rank == 0) {
    PetscCall(DRInputOpen(&st, &r, s->path, s->what));
    if (!st.bad && s->header) PetscCall(s->header(s, &st, &r));
  }
  PetscCall(DRInputSync(&st, NULL));
  if (st.bad) PetscCall(StreamCleanup(s, &r));
  DRInputCheck(&st);
  hdr[0] = s->n;
  hdr[1] = s->symmetric;
  PetscCallMPI(MPI_Bcast(hdr, 2, MPIU_INT, 0, comm));
  s->n         = hdr[0];
  s->symmetric = hdr[1] ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(DRTripletsCreate(comm, s->n, &t));
  t.symmetric = s->symmetric;
  for (;;) {
    PetscInt more = 0;
    if (st.rank == 0 && !st.bad) {
      PetscBool m = PETSC_FALSE;
      PetscCall(s->entries(s, &st, &r, &t, &m));
      more = !st.bad && m;
    }
    PetscCall(DRInputSync(&st, &more));
    if (st.bad) {
      PetscCall(StreamCleanup(s, &r));
      PetscCall(DRTripletsDestroy(&t));
    }
    DRInputCheck(&st);
    PetscCall(DRTripletsExchange(&t));
    if (!more) break;
  }
  PetscCall(StreamCleanup(s, &r));
  if (s->either) {
    PetscInt64 dup;
    PetscCall(DRTripletsResolve(&t, &dup));
    if (dup >= 0) PetscCall(DRTripletsDestroy(&t));
    PetscCheck(dup < 0, comm, DR_ERR_INPUT, "%s: entry (row %lld, column %lld) is given twice, expected each entry of the matrix once (a repeated line?)", s->path, (long long)(dup / s->n + 1), (long long)(dup % s->n + 1));
  }
  PetscCall(DRTripletsAssemble(&t, A));
  PetscCall(DRTripletsDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Component helpers                                                        */
/* ======================================================================== */

PetscErrorCode DRComponentBcastGeometry(DRComponent c)
{
  PetscMPIInt rank;
  PetscInt    hdr[4] = {c->nnodes, (PetscInt)c->celltype, c->ncells, c->nsets}, nv;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCallMPI(MPI_Bcast(hdr, 4, MPIU_INT, 0, c->comm));
  nv = DRCellNodes((DRCellType)hdr[1]);
  if (rank) {
    c->nnodes   = hdr[0];
    c->celltype = (DRCellType)hdr[1];
    c->ncells   = hdr[2];
    PetscCall(PetscMalloc1(c->nnodes, &c->node_ids));
    PetscCall(PetscMalloc1(3 * c->nnodes, &c->xyz));
    PetscCall(PetscMalloc1(c->ncells * nv, &c->cells));
  }
  if (c->nnodes) {
    PetscCallMPI(MPI_Bcast(c->node_ids, (PetscMPIInt)c->nnodes, MPIU_INT, 0, c->comm));
    PetscCallMPI(MPI_Bcast(c->xyz, (PetscMPIInt)(3 * c->nnodes), MPIU_REAL, 0, c->comm));
  }
  if (c->ncells > 0 && nv > 0) PetscCallMPI(MPI_Bcast(c->cells, (PetscMPIInt)(c->ncells * nv), MPIU_INT, 0, c->comm));
  for (PetscInt s = 0; s < hdr[3]; s++) {
    char      name[64];
    PetscInt  n     = rank ? 0 : c->sets[s].n;
    PetscInt *nodes = rank ? NULL : c->sets[s].nodes;
    if (!rank) PetscCall(PetscStrncpy(name, c->sets[s].name, sizeof(name)));
    PetscCallMPI(MPI_Bcast(name, (PetscMPIInt)sizeof(name), MPI_CHAR, 0, c->comm));
    PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, c->comm));
    if (rank) PetscCall(PetscMalloc1(n, &nodes));
    if (n) PetscCallMPI(MPI_Bcast(nodes, (PetscMPIInt)n, MPIU_INT, 0, c->comm));
    if (rank) {
      PetscCall(DRComponentAddNodeSet(c, name, n, nodes));
      PetscCall(PetscFree(nodes));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentCheckSizes(DRComponent c, const char *kpath, const char *mpath, const char *dpath, const char *dofpath)
{
  PetscInt nk, mk, nm, mm;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(c->K, &mk, &nk));
  PetscCheck(mk == nk, c->comm, DR_ERR_INPUT, "%s: K is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix", kpath, mk, nk);
  PetscCall(MatGetSize(c->M, &mm, &nm));
  PetscCheck(mm == mk && nm == nk, c->comm, DR_ERR_INPUT, "%s: M is %" PetscInt_FMT " x %" PetscInt_FMT " but K (%s) is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", mpath, mm, nm, kpath, mk, nk);
  if (c->D) {
    PetscCall(MatGetSize(c->D, &mm, &nm));
    PetscCheck(mm == mk && nm == nk, c->comm, DR_ERR_INPUT, "%s: D is %" PetscInt_FMT " x %" PetscInt_FMT " but K (%s) is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", dpath, mm, nm, kpath, mk, nk);
  }
  PetscCheck(c->n == mk, c->comm, DR_ERR_INPUT, "%s: has %" PetscInt_FMT " labels but K (%s) has %" PetscInt_FMT " rows, expected one label per row", dofpath, c->n, kpath, mk);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentNameMats(DRComponent c)
{
  char buf[128];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_K", c->name));
  PetscCall(PetscObjectSetName((PetscObject)c->K, buf));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_M", c->name));
  PetscCall(PetscObjectSetName((PetscObject)c->M, buf));
  if (c->D) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_D", c->name));
    PetscCall(PetscObjectSetName((PetscObject)c->D, buf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}


PetscErrorCode DRComponentReadFinish(DRComponent c)
{
  PetscFunctionBeginUser;
  PetscCall(DRComponentNameMats(c));
  PetscCall(DRComponentValidate(c, DR_SYMMETRY_RTOL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
