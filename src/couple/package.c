/* The CMS package: its log class and events, and the agreement points that
 * stop every rank when one group or the root fails.  Calls nothing else of
 * couple/ (every other file of the layer calls it). */
#include "cmsimpl.h"

PetscClassId  DRCMS_CLASSID;
PetscLogEvent DRCMS_Estimate;
PetscLogEvent DRCMS_Substructure, DRCMS_SetUp, DRCMS_Partition, DRCMS_Interfaces, DRCMS_Reduce, DRCMS_Gather, DRCMS_Assemble, DRCMS_IfaceReduce, DRCMS_Coupled, DRCMS_Recover, DRCMS_Verify, DRCMS_Write;
static PetscBool DRCMSPackageInitialized = PETSC_FALSE;

static PetscErrorCode DRCMSFinalizePackage(void)
{
  PetscFunctionBeginUser;
  DRCMSPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Class "DR CMS" and one event per phase.  /timing is read from these
 * events, so logging is switched on (default handler, nothing printed
 * without -log_view) when nobody has done it. */
PetscErrorCode DRCMSInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (DRCMSPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  DRCMSPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR CMS", &DRCMS_CLASSID));
  PetscCall(PetscLogEventRegister("DRCMSSetUp", DRCMS_CLASSID, &DRCMS_SetUp));
  PetscCall(PetscLogEventRegister("DRCMSPartition", DRCMS_CLASSID, &DRCMS_Partition));
  PetscCall(PetscLogEventRegister("DRCMSSubstructure", DRCMS_CLASSID, &DRCMS_Substructure));
  PetscCall(PetscLogEventRegister("DRCMSInterfaces", DRCMS_CLASSID, &DRCMS_Interfaces));
  PetscCall(PetscLogEventRegister("DRCMSCompReduce", DRCMS_CLASSID, &DRCMS_Reduce));
  PetscCall(PetscLogEventRegister("DRCMSGather", DRCMS_CLASSID, &DRCMS_Gather));
  PetscCall(PetscLogEventRegister("DRCMSAssemble", DRCMS_CLASSID, &DRCMS_Assemble));
  PetscCall(PetscLogEventRegister("DRCMSIfaceReduce", DRCMS_CLASSID, &DRCMS_IfaceReduce));
  PetscCall(PetscLogEventRegister("DRCMSCoupledSolve", DRCMS_CLASSID, &DRCMS_Coupled));
  PetscCall(PetscLogEventRegister("DRCMSRecover", DRCMS_CLASSID, &DRCMS_Recover));
  PetscCall(PetscLogEventRegister("DRCMSVerify", DRCMS_CLASSID, &DRCMS_Verify));
  PetscCall(PetscLogEventRegister("DRCMSWrite", DRCMS_CLASSID, &DRCMS_Write));
  PetscCall(PetscLogEventRegister("DRCMSEstimate", DRCMS_CLASSID, &DRCMS_Estimate));
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(DRCMSFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A failure inside one rank group (bad file, floating part) must stop every
 * group, or the others would wait forever in the next world collective.  The
 * failing group has printed its one-line message; the others exit quietly. */
PetscErrorCode DRCMSAllGroupsAgree_Private(MPI_Comm comm, PetscErrorCode ierr)
{
  int mine = (int)ierr, any = 0;
  if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm)) return PETSC_ERR_MPI;
  return (PetscErrorCode)any;
}
