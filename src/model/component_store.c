/* A component's mesh and mode shapes into the result store
 * (include/dynred/componentstore.h). */
#include "componentimpl.h"
#include <dynred/componentstore.h>

PetscErrorCode DRComponentWriteMesh(DRComponent c, DRStore s)
{
  PetscFunctionBeginUser;
  PetscCall(DRStoreWriteMesh(s, c->nnodes, c->node_ids, c->xyz, c->celltype, c->ncells, c->cells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWriteShapes(DRComponent c, DRStore s, const char *group, PetscInt nv, Vec v[], const char *const names[])
{
  PetscFunctionBeginUser;
  PetscCall(DRStoreWriteShapes(s, group, c->nnodes, c->node_ids, c->n, c->labels, nv, v, names));
  PetscFunctionReturn(PETSC_SUCCESS);
}
