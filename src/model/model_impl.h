/* Private to src/model: the package's log events (registered by
 * DRModelInitializePackage, declared in include/dynred/model.h). */
#ifndef DYNRED_MODEL_IMPL_H
#define DYNRED_MODEL_IMPL_H

#include <dynred/model.h>
#include "componentimpl.h"

extern PetscClassId  DR_MODEL_CLASSID;
/* Reading a component, one event per file format (nested: the label file
 * read by several formats has its own). */
extern PetscLogEvent DR_MODEL_EVENT_ReadMTX, DR_MODEL_EVENT_ReadCalculiX, DR_MODEL_EVENT_ReadPETSc, DR_MODEL_EVENT_ReadHDF5, DR_MODEL_EVENT_ReadDof, DR_MODEL_EVENT_ReadOP4;
extern PetscLogEvent DR_MODEL_EVENT_ReadDMIG;
/* Built-in generators, assembly by label, validation, file writers. */
extern PetscLogEvent DR_MODEL_EVENT_Generate, DR_MODEL_EVENT_Assemble, DR_MODEL_EVENT_Validate, DR_MODEL_EVENT_Write;

/* The built-in and format registries (model_builtin.c, model_read.c):
 * registered by DRModelInitializePackage, destroyed at PetscFinalize. */
extern PetscFunctionList DRBuiltinList, DRReaderList;
PetscErrorCode DRBuiltinRegisterAll(void);
PetscErrorCode DRReaderRegisterAll(void);

#endif
