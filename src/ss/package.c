/* dynred ss: the package (class id, log events, DRSSInitializePackage) and the
 * seconds of an event.  Calls nothing else of ss/. */
#include "ssimpl.h"

PetscClassId     DR_SS_CLASSID;
PetscLogEvent    DR_SS_SourceRead, DR_SS_ModalBasis, DR_SS_Build, DR_SS_Simulate, DR_SS_Write;
static PetscBool ss_pkg = PETSC_FALSE;

static PetscErrorCode DRSSFinalizePackage(void)
{
  PetscFunctionBegin;
  ss_pkg = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSInitializePackage(void)
{

  PetscFunctionBegin;
  if (ss_pkg) PetscFunctionReturn(PETSC_SUCCESS);
  ss_pkg = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR SS", &DR_SS_CLASSID));
  PetscCall(PetscLogEventRegister("DRSSSourceRead", DR_SS_CLASSID, &DR_SS_SourceRead));
  PetscCall(PetscLogEventRegister("DRSSModalBasis", DR_SS_CLASSID, &DR_SS_ModalBasis));
  PetscCall(PetscLogEventRegister("DRSSBuild", DR_SS_CLASSID, &DR_SS_Build));
  PetscCall(PetscLogEventRegister("DRSSSimulate", DR_SS_CLASSID, &DR_SS_Simulate));
  PetscCall(PetscLogEventRegister("DRSSWrite", DR_SS_CLASSID, &DR_SS_Write));
  /* wall times (/timing, wall_s of each method) are read from the events */
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(DRSSFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}
