/* Private layout of the component (include/dynred/component.h): only
 * src/model reads these fields; everything else uses the accessors. */
#ifndef DYNRED_COMPONENTIMPL_H
#define DYNRED_COMPONENTIMPL_H

#include <dynred/component.h>

struct _p_DRComponent {
  char       name[64];
  char       source[PETSC_MAX_PATH_LEN]; /* file or "builtin:plate" for messages */
  char       msource[PETSC_MAX_PATH_LEN]; /* M's own file when it has one (mtx, CalculiX), else "" */
  MPI_Comm   comm;                      /* PETSc-duplicated by the Mat objects */
  Mat        K, M, D;                   /* D may be NULL */
  PetscInt   n;                         /* number of (free) DOFs = rows of K */
  DRLabel   *labels;                    /* n labels in row order, unique */
  PetscInt   nnodes;                    /* optional geometry ... */
  PetscInt  *node_ids;                  /* nnodes ids (sorted ascending) */
  PetscReal *xyz;                       /* 3*nnodes coordinates */
  DRCellType celltype;                  /* optional connectivity ... */
  PetscInt   ncells;
  PetscInt  *cells;                     /* ncells*DRCellNodes(celltype) node ids */
  PetscInt   nsets;
  DRNodeSet *sets;
};

#endif
