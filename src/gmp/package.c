/* The GMP package: its log class and events (include/dynred/gmp.h).  Calls
 * nothing else of gmp/: the registries of mechanism kinds (mechanism.c) and
 * interpolation methods (interp.c) fill themselves on first use. */
#include "gmp_impl.h"

PetscClassId  DRGMP_CLASSID;
PetscLogEvent DRGMP_Point, DRGMP_Assemble, DRGMP_PointEig, DRGMP_Sweep, DRGMP_Track, DRGMP_Verify, DRGMP_Write, DRGMP_Transient, DRGMP_FlexRef;

static PetscBool DRGMPPackageInitialized = PETSC_FALSE;

static PetscErrorCode DRGMPFinalizePackage(void)
{
  PetscFunctionBeginUser;
  DRGMPPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInitializePackage(void)
{

  PetscFunctionBeginUser;
  if (DRGMPPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  DRGMPPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR GMP", &DRGMP_CLASSID));
  PetscCall(PetscLogEventRegister("DRGMPPoint", DRGMP_CLASSID, &DRGMP_Point));         /* the ROM at one configuration */
  PetscCall(PetscLogEventRegister("DRGMPAssemble", DRGMP_CLASSID, &DRGMP_Assemble));   /* rho(theta), K, M, N and the PtAP products */
  PetscCall(PetscLogEventRegister("DRGMPPointEig", DRGMP_CLASSID, &DRGMP_PointEig));   /* theta-fixed modes and rigid modes */
  PetscCall(PetscLogEventRegister("DRGMPSweep", DRGMP_CLASSID, &DRGMP_Sweep));         /* the grid on the task farm */
  PetscCall(PetscLogEventRegister("DRGMPTrack", DRGMP_CLASSID, &DRGMP_Track));         /* mode tracking over the grid */
  PetscCall(PetscLogEventRegister("DRGMPVerify", DRGMP_CLASSID, &DRGMP_Verify));       /* interpolation against exact ROMs */
  PetscCall(PetscLogEventRegister("DRGMPWrite", DRGMP_CLASSID, &DRGMP_Write));         /* /gmp datasets */
  PetscCall(PetscLogEventRegister("DRGMPTransient", DRGMP_CLASSID, &DRGMP_Transient)); /* the transient check */
  PetscCall(PetscLogEventRegister("DRGMPFlexRef", DRGMP_CLASSID, &DRGMP_FlexRef));     /* the unreduced nonlinear reference */
  /* /timing reads its phase seconds from these events: time them even
   * without -log_view */
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(DRGMPFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPGetPhaseSeconds(PetscReal *sweep, PetscReal *track_verify_write, PetscReal *transient)
{
  PetscLogDouble a, b, c, d, e;

  PetscFunctionBeginUser;
  PetscCall(DRGMPInitializePackage());
  PetscCall(DRLogEventSeconds(DRGMP_Sweep, &a));
  PetscCall(DRLogEventSeconds(DRGMP_Track, &b));
  PetscCall(DRLogEventSeconds(DRGMP_Verify, &c));
  PetscCall(DRLogEventSeconds(DRGMP_Write, &d));
  PetscCall(DRLogEventSeconds(DRGMP_Transient, &e));
  if (sweep) *sweep = a;
  if (track_verify_write) *track_verify_write = b + c + d;
  if (transient) *transient = e;
  PetscFunctionReturn(PETSC_SUCCESS);
}
