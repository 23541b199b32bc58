/* dynred: writing a component's mesh and mode shapes to the result store.
 *
 * The store (core) takes plain arrays; these adapters (model layer) hand it
 * a DRComponent's nodes, cells and DOF labels. */
#ifndef DYNRED_COMPONENTSTORE_H
#define DYNRED_COMPONENTSTORE_H

#include <dynred/component.h>
#include <dynred/store.h>

/* The component's nodes and cells under /mesh (DRStoreWriteMesh). */
PetscErrorCode DRComponentWriteMesh(DRComponent c, DRStore s);
/* nv vectors over c's DOFs as nodal shapes GROUP/shapes/NNNN (DRStoreWriteShapes). */
PetscErrorCode DRComponentWriteShapes(DRComponent c, DRStore s, const char *group, PetscInt nv, Vec v[], const char *const names[]);

#endif
