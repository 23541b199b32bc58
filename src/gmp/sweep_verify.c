/* The GMP sweep's verification: every interpolation method against the
 * exact ROMs of the verification grid (include/dynred/gmpsweep.h). */
#include "sweepimpl.h"

static int CmpReal(const void *a, const void *b)
{
  PetscReal x = *(const PetscReal *)a, y = *(const PetscReal *)b;
  return x < y ? -1 : x > y;
}

/* The errors of every method at verification point f (rank 0) */
static PetscErrorCode VerifyPoint(DRGMPSweep s, PetscInt f)
{
  DRGMPRom        *ex = &s->fine[f];
  const PetscReal *th = ex->theta;
  PetscReal        mn, md[64];
  PetscInt         i = 0, stride = 1, n = s->n, nt = s->nt;

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < nt; t++) {
    PetscReal h = (s->axis[t][s->npts[t] - 1] - s->axis[t][0]) / (s->npts[t] - 1);
    i += stride * PetscMin((PetscInt)PetscFloorReal((th[t] - s->axis[t][0]) / h + 1e-9), s->npts[t] - 1);
    stride *= s->npts[t];
    s->thf[f * nt + t] = th[t];
  }
  /* align the exact ROM with the tracked grid (its lower neighbour) */
  PetscCall(DRGMPTrack(&s->grid[i], ex, md, &mn));
  PetscCall(DRGMPTrackEigen(&s->grid[i], ex));
  for (int mth = 0; mth < DR_GMP_NMETHOD; mth++) {
    DRGMPRom    ip;
    PetscReal   le[64], li[64], se = 0, **err = s->err[mth];
    PetscBool   ok;
    PetscCall(DRGMPInterpolateGrid(nt, s->npts, s->grid, th, (DRGMPMethod)mth, PETSC_TRUE, &ip));
    PetscCall(DRGMPRomEigen(&ip, &ok));
    if (!ok) { /* an indefinite interpolated mass matrix: count it as a 100 % error */
      s->nindef[mth]++;
      for (PetscInt j = 0; j < n; j++) ip.lambda[j] = j < nt ? 0 : 2 * ex->lambda[j];
    }
    err[1][f] = DRGMPFrobRel_Private(n * n, ip.M, ex->M);
    err[2][f] = DRGMPFrobRel_Private(n * n, ip.K, ex->K);
    err[0][f] = 0.5 * (err[1][f] + err[2][f]);
    PetscCall(PetscArraycpy(le, ex->lambda, n));
    PetscCall(PetscArraycpy(li, ip.lambda, n));
    qsort(le, n, sizeof(PetscReal), CmpReal);
    qsort(li, n, sizeof(PetscReal), CmpReal);
    for (PetscInt j = nt; j < n; j++) se += PetscAbsReal(li[j] - le[j]) / le[j];
    err[3][f] = se / (n - nt);
    err[4][f] = ip.Psi ? DRGMPFrobRel_Private(s->ndof * n, ip.Psi, ex->Psi) : 0;
    PetscCall(DRGMPRomDestroy(&ip));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepVerify_Private(DRGMPSweep s)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  if (!s->nfine) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DRGMP_Verify, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  if (rank == 0) {
    PetscCall(PetscMalloc1(s->nfine * s->nt, &s->thf));
    for (int mth = 0; mth < DR_GMP_NMETHOD; mth++)
      for (int q = 0; q < DR_GMP_NERR; q++) PetscCall(PetscMalloc1(s->nfine, &s->err[mth][q]));
    for (PetscInt f = 0; f < s->nfine; f++) PetscCall(VerifyPoint(s, f));
    for (int mth = 0; mth < DR_GMP_NMETHOD; mth++) {
      PetscReal mean[DR_GMP_NERR] = {0};
      for (int q = 0; q < DR_GMP_NERR; q++)
        for (PetscInt f = 0; f < s->nfine; f++) mean[q] += s->err[mth][q][f] / s->nfine;
      s->matrix_error[mth] = mean[0];
      s->eig_error[mth]    = mean[3];
    }
  }
  PetscCallMPI(MPI_Bcast(s->matrix_error, DR_GMP_NMETHOD, MPIU_REAL, 0, s->comm));
  PetscCallMPI(MPI_Bcast(s->eig_error, DR_GMP_NMETHOD, MPIU_REAL, 0, s->comm));
  PetscCall(PetscLogEventEnd(DRGMP_Verify, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The verification table (mean / max over the points), rank 0's numbers */
PetscErrorCode DRGMPSweepViewVerify_Private(DRGMPSweep s, PetscViewer viewer)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  if (!s->nfine) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCall(PetscViewerASCIIPrintf(viewer, "gmp: interpolation verified at %" PetscInt_FMT " points against exact ROMs (mean / max over the points)\n", s->nfine));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %-21s %-21s %-21s\n", "method", "matrix error", "eigenvalue error", "mode (Psi) error"));
  if (rank) PetscFunctionReturn(PETSC_SUCCESS); /* the table's numbers live on rank 0, which prints */
  for (int mth = 0; mth < DR_GMP_NMETHOD; mth++) {
    PetscReal mean[DR_GMP_NERR] = {0}, mx[DR_GMP_NERR] = {0};
    for (int q = 0; q < DR_GMP_NERR; q++)
      for (PetscInt f = 0; f < s->nfine; f++) mean[q] += s->err[mth][q][f] / s->nfine, mx[q] = PetscMax(mx[q], s->err[mth][q][f]);
    PetscCall(PetscViewerASCIIPrintf(viewer, "  %-11s %9.3e / %9.3e %9.3e / %9.3e %9.3e / %9.3e\n", DRGMPMethods[mth], (double)mean[0], (double)mx[0], (double)mean[3], (double)mx[3], (double)mean[4], (double)mx[4]));
    if (s->nindef[mth]) PetscCall(PetscViewerASCIIPrintf(viewer, "  (%s: the interpolated mass matrix is indefinite at %" PetscInt_FMT " points; counted as 100 %% eigenvalue error)\n", DRGMPMethods[mth], s->nindef[mth]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepWriteVerify_Private(DRGMPSweep s, DRStore store)
{
  const char *qn[DR_GMP_NERR] = {"matrix_error", "mass_error", "stiffness_error", "eig_error", "psi_error"};
  PetscInt    dims[2]         = {s->nfine, s->nt};

  PetscFunctionBeginUser;
  if (!s->nfine) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRStoreWriteReal(store, "/gmp/verify/theta", s->nt == 1 ? 1 : 2, dims, s->thf, "rad"));
  for (int mth = 0; mth < DR_GMP_NMETHOD; mth++)
    for (int q = 0; q < DR_GMP_NERR; q++) {
      char name[128];
      PetscCall(PetscSNPrintf(name, sizeof(name), "/gmp/verify/%s/%s", DRGMPMethods[mth], qn[q]));
      PetscCall(DRStoreWriteReal(store, name, 1, dims, s->err[mth][q], NULL));
    }
  PetscCall(DRStoreAttrString(store, "/gmp/verify", "definitions", "per fine point, against the exact ROM computed there and aligned (tracked) to the grid: mass_error = ||M_i - M||_F / ||M||_F, stiffness_error likewise, matrix_error = their mean; eig_error = mean over the deformation eigenvalues of |lambda_i - lambda| / lambda (both sorted); psi_error = ||Psi_i - Psi||_F / ||Psi||_F"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
