/* dynred sysred: the package (class id, log events).  Calls nothing else of
 * sysred/. */
#include "sysredimpl.h"

PetscClassId     DR_SYSRED_CLASSID;
PetscLogEvent    DR_SYSRED_Read, DR_SYSRED_Minreal, DR_SYSRED_Split, DR_SYSRED_Balance, DR_SYSRED_FRF, DR_SYSRED_Write, DR_SYSRED_Energy, DR_SYSRED_Substructures;
static PetscBool sysred_pkg = PETSC_FALSE;

static PetscErrorCode DRSysRedFinalizePackage(void)
{
  PetscFunctionBegin;
  sysred_pkg = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedInitializePackage(void)
{
  PetscFunctionBegin;
  if (sysred_pkg) PetscFunctionReturn(PETSC_SUCCESS);
  sysred_pkg = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR SysRed", &DR_SYSRED_CLASSID));
  PetscCall(PetscLogEventRegister("DRSysRedRead", DR_SYSRED_CLASSID, &DR_SYSRED_Read));
  PetscCall(PetscLogEventRegister("DRSysRedMinreal", DR_SYSRED_CLASSID, &DR_SYSRED_Minreal));
  PetscCall(PetscLogEventRegister("DRSysRedSplit", DR_SYSRED_CLASSID, &DR_SYSRED_Split));
  PetscCall(PetscLogEventRegister("DRSysRedBalance", DR_SYSRED_CLASSID, &DR_SYSRED_Balance));
  PetscCall(PetscLogEventRegister("DRSysRedFRF", DR_SYSRED_CLASSID, &DR_SYSRED_FRF));
  PetscCall(PetscLogEventRegister("DRSysRedWrite", DR_SYSRED_CLASSID, &DR_SYSRED_Write));
  PetscCall(PetscLogEventRegister("DRSysRedEnergy", DR_SYSRED_CLASSID, &DR_SYSRED_Energy));
  PetscCall(PetscLogEventRegister("DRSysRedSubstr", DR_SYSRED_CLASSID, &DR_SYSRED_Substructures));
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(DRSysRedFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}
