/* The model package: its log class and events.  The registries of built-in
 * models and file formats fill themselves on first use (model_builtin.c,
 * model_read.c). */
#include "model_impl.h"

PetscClassId  DR_MODEL_CLASSID;
PetscLogEvent DR_MODEL_EVENT_ReadMTX, DR_MODEL_EVENT_ReadCalculiX, DR_MODEL_EVENT_ReadPETSc, DR_MODEL_EVENT_ReadHDF5, DR_MODEL_EVENT_ReadDof, DR_MODEL_EVENT_ReadOP4;
PetscLogEvent DR_MODEL_EVENT_ReadDMIG;
PetscLogEvent DR_MODEL_EVENT_Generate, DR_MODEL_EVENT_Assemble, DR_MODEL_EVENT_Validate, DR_MODEL_EVENT_Write;

static PetscBool DRModelPackageInitialized = PETSC_FALSE;

static PetscErrorCode DRModelFinalizePackage(void)
{
  PetscFunctionBeginUser;
  DRModelPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (DRModelPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  DRModelPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR Model", &DR_MODEL_CLASSID));
  PetscCall(PetscLogEventRegister("DRModelReadMTX", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadMTX));
  PetscCall(PetscLogEventRegister("DRModelReadCcx", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadCalculiX));
  PetscCall(PetscLogEventRegister("DRModelReadPETSc", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadPETSc));
  PetscCall(PetscLogEventRegister("DRModelReadOP4", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadOP4));
  PetscCall(PetscLogEventRegister("DRModelReadDMIG", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadDMIG));
  PetscCall(PetscLogEventRegister("DRModelReadHDF5", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadHDF5));
  PetscCall(PetscLogEventRegister("DRModelReadDof", DR_MODEL_CLASSID, &DR_MODEL_EVENT_ReadDof));
  PetscCall(PetscLogEventRegister("DRModelGenerate", DR_MODEL_CLASSID, &DR_MODEL_EVENT_Generate));
  PetscCall(PetscLogEventRegister("DRModelAssemble", DR_MODEL_CLASSID, &DR_MODEL_EVENT_Assemble));
  PetscCall(PetscLogEventRegister("DRModelValidate", DR_MODEL_CLASSID, &DR_MODEL_EVENT_Validate));
  PetscCall(PetscLogEventRegister("DRModelWrite", DR_MODEL_CLASSID, &DR_MODEL_EVENT_Write));
  PetscCall(PetscRegisterFinalize(DRModelFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}
