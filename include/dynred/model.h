/* dynred: the model of a job, built from its configuration.
 *
 * A model is a list of components: either one built-in FE model (optionally
 * cut into parts, `model.cut`), or the file-based `components:` list.  Each
 * component can be created on its own communicator (CMS puts components on
 * rank groups); the full model is their assembly by DOF label.
 *
 * Built-in models (`model.builtin`) and component file formats
 * (`components[].format`) are registries: a name and a function that builds
 * the component from the job keys.  An unknown name is answered with the
 * registered ones.
 */
#ifndef DYNRED_MODEL_H
#define DYNRED_MODEL_H

#include <dynred/config.h>
#include <dynred/component.h>
#include <dynred/builtin.h>

/* Log class "DR Model" and its events (read per format, generate, assemble,
 * validate, write) and the registries below; called lazily by the model's
 * functions, reset at PetscFinalize. */
PetscErrorCode DRModelInitializePackage(void);

/* Register the model's job-file keys (model.*, components[].*). */
PetscErrorCode DRModelRegisterKeys(void);
PetscErrorCode DRModelGetComponentCount(DRConfig cfg, PetscInt *n);
/* Name of component k without building it. */
PetscErrorCode DRModelGetComponentName(DRConfig cfg, PetscInt k, char *name, size_t len);
PetscErrorCode DRModelCreateComponent(DRConfig cfg, PetscInt k, MPI_Comm comm, DRComponent *c);
/* All components on comm, assembled by label (a single component as is). */
PetscErrorCode DRModelCreateFull(DRConfig cfg, MPI_Comm comm, DRComponent *full);

/* A built-in model: part `part` of the model cut by `cut`, read from the
 * keys model.NAME.* of cfg.  Registered: plate, solid, frame3d, frame2d,
 * beam2d. */
typedef PetscErrorCode (*DRBuiltinCreateFn)(DRConfig cfg, const char *name, DRCut cut, PetscInt part, MPI_Comm comm, DRComponent *c);
PetscErrorCode DRBuiltinRegister(const char name[], DRBuiltinCreateFn fn);

/* A component file format: component k of the components: list (its keys
 * components[k].*, paths relative to the job file), named `name`.
 * Registered: calculix, mtx, petsc, hdf5, op4, abaqus, ansys, dmig. */
typedef PetscErrorCode (*DRReaderCreateFn)(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c);
PetscErrorCode DRReaderRegister(const char name[], DRReaderCreateFn fn);

#endif
