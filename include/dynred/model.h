/* dynred: the model of a job, built from its configuration.
 *
 * A model is a list of components: either one built-in FE model (optionally
 * cut into parts, `model.cut`), or the file-based `components:` list.  Each
 * component can be created on its own communicator (CMS puts components on
 * rank groups); the full model is their assembly by DOF label.
 */
#ifndef DYNRED_MODEL_H
#define DYNRED_MODEL_H

#include <dynred/config.h>
#include <dynred/component.h>

/* Register the model's job-file keys (model.*, components[].*). */
PetscErrorCode DRModelRegisterKeys(void);
PetscErrorCode DRModelGetComponentCount(DRConfig cfg, PetscInt *n);
/* Name of component k without building it. */
PetscErrorCode DRModelGetComponentName(DRConfig cfg, PetscInt k, char *name, size_t len);
PetscErrorCode DRModelCreateComponent(DRConfig cfg, PetscInt k, MPI_Comm comm, DRComponent *c);
/* All components on comm, assembled by label (a single component as is). */
PetscErrorCode DRModelCreateFull(DRConfig cfg, MPI_Comm comm, DRComponent *full);

#endif
