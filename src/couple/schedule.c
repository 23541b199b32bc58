/* The per-component schedule of a CMS solve (cmsimpl.h: t_start, t_end;
 * written as /cms/components/NAME t_start_s, t_end_s by io.c, drawn as the
 * Gantt chart of scripts/dynred_plot.py), and what a component holds while
 * it waits for the others (cms.keep_factors). */
#include "cmsimpl.h"
#include <dynred/preflight.h>
#include <string.h>

PetscErrorCode DRCMSMark_Private(DRCMS c, PetscInt k, PetscBool start)
{
  PetscLogDouble now;

  PetscFunctionBeginUser;
  if (!c->t_start) {
    PetscCall(PetscMalloc2(c->ncomp + 1, &c->t_start, c->ncomp + 1, &c->t_end));
    for (PetscInt j = 0; j < c->ncomp; j++) {
      c->t_start[j] = PETSC_MAX_REAL;
      c->t_end[j]   = -PETSC_MAX_REAL;
    }
  }
  now = DRTime() - c->t_solve0;
  if (start && c->t_start[k] == PETSC_MAX_REAL) c->t_start[k] = now;
  else if (!start && c->t_end[k] == -PETSC_MAX_REAL) c->t_end[k] = now;
  PetscFunctionReturn(PETSC_SUCCESS);
}


/* The share of a rank's memory the waiting components' K_II factorizations
 * may hold under cms.keep_factors: auto.  A component holds four items of
 * about the same size: its matrices (K, M and the interior copies K_II,
 * M_II), the factorization, its basis T, and the residual and correction
 * blocks; measured on the 1M-DOF plate in 8 (bench/README.md "CMS: cms.partition auto calibration"): the
 * factorizations 2.0 of about 8 GB per rank.  When they pass a quarter of
 * the rank's share of the node, the whole job is near that share, and a
 * refactorization (2-4 s for a 121k-DOF part) is cheaper than swapping. */
#define DR_CMS_FACTOR_SHARE 0.25

PetscErrorCode DRCMSFactorBudget_Private(DRCMS c, const char *keep)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  c->nreleased = 0;
  if (!strcmp(keep, "true")) c->factor_budget_mib = PETSC_MAX_REAL;
  else if (!strcmp(keep, "false")) c->factor_budget_mib = 0;
  else if (!strcmp(keep, "auto")) {
    MPI_Comm    node;
    PetscMPIInt nsize;
    PetscReal   avail;
    const char *source;
    PetscCallMPI(MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    PetscCallMPI(MPI_Comm_size(node, &nsize));
    PetscCallMPI(MPI_Comm_free(&node));
    PetscCall(DRMemoryNodeAvailable(c->cfg, &avail, &source));
    c->factor_budget_mib = DR_CMS_FACTOR_SHARE * avail / nsize;
    PetscCall(PetscInfo(NULL, "cms.keep_factors auto: %g MiB of factorizations per rank (%s, %d rank(s) on the node)\n", (double)c->factor_budget_mib, source, (int)nsize));
  } else {
    PetscCall(DRConfigWhereValue(c->cfg, "cms.keep_factors", where, sizeof(where)));
    SETERRQ(c->comm, DR_ERR_INPUT, "%s: cms.keep_factors = '%s', expected auto, true or false", where, keep);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cms.spill_basis: a waiting component's basis T (121k x 700 on a part of
 * the 1M plate in 8, 650 MB: the largest thing it holds once its
 * factorization is released; four such parts per rank) written to a scratch
 * file and read back by its next step.  The file is written again only when
 * T changed; on the 1M plate about 4 writes and 6 reads per part. */
PetscErrorCode DRCMSSpillSetUp_Private(DRCMS c, const char *spill)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  if (!strcmp(spill, "true")) c->spill = DR_CMS_SPILL_ALWAYS;
  else if (!strcmp(spill, "false")) c->spill = DR_CMS_SPILL_NEVER;
  else if (!strcmp(spill, "auto")) c->spill = DR_CMS_SPILL_WITH_FACTOR;
  else {
    PetscCall(DRConfigWhereValue(c->cfg, "cms.spill_basis", where, sizeof(where)));
    SETERRQ(c->comm, DR_ERR_INPUT, "%s: cms.spill_basis = '%s', expected auto, true or false", where, spill);
  }
  if (c->spill == DR_CMS_SPILL_ALWAYS || (c->spill == DR_CMS_SPILL_WITH_FACTOR && c->factor_budget_mib == 0)) {
    /* spilling is certain: a scratch directory that cannot take a file is an
     * error now, on every rank, not after the component eigensolves */
    int fd = -1, bad;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    bad = DRScratchOpen(c->scratch_dir, "cms.scratch_dir", &fd) ? 1 : 0;
    PetscCall(PetscPopErrorHandler());
    PetscCall(DRScratchClose(&fd));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, c->comm));
    if (bad) {
      const char *t = getenv("TMPDIR");
      PetscCall(DRConfigWhereValue(c->cfg, "cms.scratch_dir", where, sizeof(where)));
      SETERRQ(c->comm, DR_ERR_INPUT, "%s: cms.scratch_dir = '%s' (for cms.spill_basis): cannot create a scratch file in %s, expected a writable directory", where, c->scratch_dir, c->scratch_dir[0] ? c->scratch_dir : t && t[0] ? t : "/tmp");
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool DRCMSSpills_Private(DRCMS c, PetscBool released)
{
  return (PetscBool)(c->spill == DR_CMS_SPILL_ALWAYS || (c->spill == DR_CMS_SPILL_WITH_FACTOR && released));
}

PetscErrorCode DRCMSIdle_Private(DRCMS c, PetscInt i, PetscBool residuals)
{
  PetscReal held = 0, mib, freed;
  PetscBool release;

  PetscFunctionBeginUser;
  if (!c->red || !c->red[i]) PetscFunctionReturn(PETSC_SUCCESS);
  if (residuals) PetscCall(DRReductionRelease(c->red[i], DR_REDUCTION_HELD_RESIDUALS, NULL));
  if (c->factor_budget_mib != PETSC_MAX_REAL)
    for (PetscInt j = 0; j < c->nmine; j++)
      if (c->red[j]) {
        PetscCall(DRReductionGetFactorMiB(c->red[j], &mib));
        held += mib;
      }
  release = (PetscBool)(c->factor_budget_mib != PETSC_MAX_REAL && !(c->factor_budget_mib > 0 && held <= c->factor_budget_mib));
  { /* one decision for the component's group: the releases are collective
     * on its communicator (a distributed MUMPS factor, the basis' rows) */
    MPI_Comm comm;
    PetscCall(DRComponentGetComm(c->comps[i], &comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &release, 1, MPIU_BOOL, MPI_LOR, comm));
  }
  if (DRCMSSpills_Private(c, release)) PetscCall(DRReductionRelease(c->red[i], DR_REDUCTION_HELD_BASIS_SPILL, NULL));
  if (!release) PetscFunctionReturn(PETSC_SUCCESS);
  /* the residual blocks K_II^{-1} r_I too (n_I x 200 for 200 modes: as
   * large as a factorization): a correction solves its columns again */
  PetscCall(DRReductionRelease(c->red[i], DR_REDUCTION_HELD_FACTOR | DR_REDUCTION_HELD_RESIDUAL_BLOCKS, &freed));
  if (freed > 0) {
    c->nreleased++;
    PetscCall(PetscInfo(NULL, "component '%s': K_II factorization released (%g MiB; this rank held %g MiB, cms.keep_factors allows %g)\n", c->names[c->mine[i]], (double)freed, (double)held, (double)c->factor_budget_mib));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSReleaseAll_Private(DRCMS c)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; c->red && i < c->nmine; i++)
    if (c->red[i]) PetscCall(DRReductionRelease(c->red[i], DR_REDUCTION_HELD_RESIDUALS | DR_REDUCTION_HELD_FACTOR, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
