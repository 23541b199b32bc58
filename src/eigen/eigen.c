/* The eigen layer's log class and events (-log_view: "DR Eigen"). */
#include <dynred/eigen.h>

PetscClassId  DR_EIGEN_CLASSID;
PetscLogEvent DR_EIGEN_Solve, DR_EIGEN_Factor, DR_EIGEN_Dense, DR_EIGEN_Count, DR_EIGEN_BlockOrth, DR_EIGEN_BlockRitz;

static PetscBool initialized = PETSC_FALSE;

static PetscErrorCode DREigenFinalizePackage(void)
{
  PetscFunctionBeginUser;
  initialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREigenInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (initialized) PetscFunctionReturn(PETSC_SUCCESS);
  initialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR Eigen", &DR_EIGEN_CLASSID));
  PetscCall(PetscLogEventRegister("DREigenSolve", DR_EIGEN_CLASSID, &DR_EIGEN_Solve));
  PetscCall(PetscLogEventRegister("DREigenFactor", DR_EIGEN_CLASSID, &DR_EIGEN_Factor));
  PetscCall(PetscLogEventRegister("DREigenCount", DR_EIGEN_CLASSID, &DR_EIGEN_Count));
  PetscCall(PetscLogEventRegister("DREigenDense", DR_EIGEN_CLASSID, &DR_EIGEN_Dense));
  PetscCall(PetscLogEventRegister("DREigenBlockOrth", DR_EIGEN_CLASSID, &DR_EIGEN_BlockOrth));
  PetscCall(PetscLogEventRegister("DREigenBlockRitz", DR_EIGEN_CLASSID, &DR_EIGEN_BlockRitz));
  PetscCall(PetscRegisterFinalize(DREigenFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}
