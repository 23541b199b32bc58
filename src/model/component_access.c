/* Accessors of a component: what modules outside src/model read and set
 * instead of the struct's fields.  Getters return borrowed pointers (owned
 * by the component; valid until it changes or is destroyed); any output
 * argument may be NULL.  Setters copy their arrays. */
#include "componentimpl.h"
#include <dynred/component.h>

PetscErrorCode DRComponentGetName(DRComponent c, const char **name)
{
  PetscFunctionBeginUser;
  *name = c->name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentSetName(DRComponent c, const char *name)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(c->name, name, sizeof(c->name)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetSource(DRComponent c, const char **source)
{
  PetscFunctionBeginUser;
  *source = c->source;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetMassSource(DRComponent c, const char **source)
{
  PetscFunctionBeginUser;
  *source = c->msource[0] ? c->msource : c->source;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentSetSource(DRComponent c, const char *source)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(c->source, source, sizeof(c->source)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetComm(DRComponent c, MPI_Comm *comm)
{
  PetscFunctionBeginUser;
  *comm = c->comm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetSize(DRComponent c, PetscInt *n)
{
  PetscFunctionBeginUser;
  *n = c->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetOperators(DRComponent c, Mat *K, Mat *M, Mat *D)
{
  PetscFunctionBeginUser;
  if (K) *K = c->K;
  if (M) *M = c->M;
  if (D) *D = c->D;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReplaceMat(Mat *slot, Mat A)
{
  PetscFunctionBeginUser;
  if (A) PetscCall(PetscObjectReference((PetscObject)A));
  PetscCall(MatDestroy(slot));
  *slot = A;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentSetOperators(DRComponent c, Mat K, Mat M, Mat D)
{
  PetscFunctionBeginUser;
  PetscCall(ReplaceMat(&c->K, K));
  PetscCall(ReplaceMat(&c->M, M));
  PetscCall(ReplaceMat(&c->D, D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetLabels(DRComponent c, PetscInt *n, const DRLabel **labels)
{
  PetscFunctionBeginUser;
  if (n) *n = c->n;
  if (labels) *labels = c->labels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentSetLabels(DRComponent c, PetscInt n, const DRLabel labels[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->labels));
  PetscCall(PetscMalloc1(n + 1, &c->labels));
  if (n) PetscCall(PetscArraycpy(c->labels, labels, n));
  c->n = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetGeometry(DRComponent c, PetscInt *nnodes, const PetscInt **ids, const PetscReal **xyz)
{
  PetscFunctionBeginUser;
  if (nnodes) *nnodes = c->nnodes;
  if (ids) *ids = c->node_ids;
  if (xyz) *xyz = c->xyz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentSetGeometry(DRComponent c, PetscInt nnodes, const PetscInt ids[], const PetscReal xyz[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->node_ids));
  PetscCall(PetscFree(c->xyz));
  PetscCall(PetscMalloc1(nnodes + 1, &c->node_ids));
  PetscCall(PetscMalloc1(3 * nnodes + 1, &c->xyz));
  if (nnodes) {
    PetscCall(PetscArraycpy(c->node_ids, ids, nnodes));
    PetscCall(PetscArraycpy(c->xyz, xyz, 3 * nnodes));
  }
  c->nnodes = nnodes;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetCells(DRComponent c, DRCellType *celltype, PetscInt *ncells, const PetscInt **cells)
{
  PetscFunctionBeginUser;
  if (celltype) *celltype = c->celltype;
  if (ncells) *ncells = c->ncells;
  if (cells) *cells = c->cells;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentSetCells(DRComponent c, DRCellType celltype, PetscInt ncells, const PetscInt cells[])
{
  PetscInt nv = DRCellNodes(celltype);

  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->cells));
  PetscCall(PetscMalloc1(ncells * nv + 1, &c->cells));
  if (ncells > 0 && nv > 0) PetscCall(PetscArraycpy(c->cells, cells, ncells * nv));
  c->celltype = celltype;
  c->ncells   = ncells;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentGetNodeSets(DRComponent c, PetscInt *nsets, const DRNodeSet **sets)
{
  PetscFunctionBeginUser;
  if (nsets) *nsets = c->nsets;
  if (sets) *sets = c->sets;
  PetscFunctionReturn(PETSC_SUCCESS);
}
