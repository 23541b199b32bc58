/* The objectives of individuals (gaimpl.h): a batch of bitstrings is looked
 * up in the cache on rank 0, the distinct new ones with at least b masters
 * are condensed on the task farm (one task = one individual on one group,
 * DRCondenseReduce with the group's factorization of K0), and the results,
 * addressed by task index, go into the cache.  The final front is condensed
 * once more with its reduced matrices kept (DRGAFrontResults).
 *
 *   r = number of masters,
 *   e = sum_{h=1..b} (omega_hR - omega_h) / omega_h, rounded to ga.e_resolution;
 * an infeasible set (condensation failed, or r < b) gets e = DR_GA_PENALTY. */
#include "gaimpl.h"
#include <math.h>

/* One individual on a farm group: [e, feasible, lambda_max_R, outer] and,
 * for the final front, [lam (r), K_R (r*r), M_R (r*r)] after them. */
static PetscErrorCode EvalTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *nres, PetscReal **res)
{
  DRGA           g = (DRGA)ctx;
  PetscInt      *m, r;
  PetscReal     *KR = NULL, *MR = NULL, *lam, e = 0;
  DRCondenseInfo info;
  PetscMPIInt    grank;
  PetscBool      feas;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Fitness, 0, 0, 0, 0));
  PetscCall(PetscMalloc1(g->n, &m));
  r = DRGAMasters(g, g->batch + task * g->nw, m);
  PetscCall(PetscMalloc1(r, &lam));
  if (g->full_result) PetscCall(PetscMalloc2(r * r, &KR, r * r, &MR));
  PetscCall(DRCondenseReduce(g->cond, r, m, KR, MR, lam, &info));
  feas = (PetscBool)(info.status == DR_CONDENSE_OK && r >= g->b);
  if (feas) {
    for (PetscInt h = 0; h < g->b; h++) e += (PetscSqrtReal(lam[h]) - PetscSqrtReal(g->lam_full[h])) / PetscSqrtReal(g->lam_full[h]);
    if (g->e_res > 0) e = g->e_res * round(e / g->e_res);
  }
  PetscCallMPI(MPI_Comm_rank(group, &grank));
  if (grank == 0) {
    *nres = NVAL + (g->full_result ? r + 2 * r * r : 0);
    PetscCall(PetscMalloc1(*nres, res));
    (*res)[0] = feas ? e : DR_GA_PENALTY;
    (*res)[1] = feas ? 1 : 0;
    (*res)[2] = info.status == DR_CONDENSE_OK ? lam[r - 1] : 0;
    (*res)[3] = (PetscReal)info.outer;
    if (g->full_result) {
      PetscCall(PetscArraycpy(*res + NVAL, lam, r));
      PetscCall(PetscArraycpy(*res + NVAL + r, KR, r * r));
      PetscCall(PetscArraycpy(*res + NVAL + r + r * r, MR, r * r));
    }
  }
  if (g->full_result) PetscCall(PetscFree2(KR, MR));
  PetscCall(PetscFree(lam));
  PetscCall(PetscFree(m));
  PetscCall(PetscLogEventEnd(DR_GA_Fitness, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the batch in order of decreasing number of masters (stable), so
 * the farm, which hands tasks out in index order, starts the costly ones
 * first (longest first: the last tasks of a batch, which keep the other
 * ranks waiting, are the short ones).  The results are addressed by
 * bitstring, so the order changes no objective. */
static PetscErrorCode LongestFirst(DRGA g)
{
  PetscInt  nb = g->nbatch, nw = g->nw;
  PetscInt *key;
  uint64_t *sorted;

  PetscFunctionBeginUser;
  if (nb < 2) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(nb, &key, nb * nw, &sorted));
  for (PetscInt t = 0; t < nb; t++) key[t] = (g->nvar - DRBitCount(nw, g->batch + t * nw)) * nb + t;
  PetscCall(PetscSortInt(nb, key));
  for (PetscInt t = 0; t < nb; t++) PetscCall(PetscArraycpy(sorted + t * nw, g->batch + (key[t] % nb) * nw, nw));
  PetscCall(PetscArraycpy(g->batch, sorted, nb * nw));
  PetscCall(PetscFree2(key, sorted));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the objectives of nind bitstrings (rank 0's) into e, feas. */
PetscErrorCode DRGAEvaluate(DRGA g, PetscInt nind, const uint64_t *bits, PetscReal *r, PetscReal *e, PetscBool *feas)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_EvalBatch, 0, 0, 0, 0));
  g->nbatch = 0;
  if (g->rank == 0) {
    DRBitCache pend; /* the batch's bitstrings (each once) */
    PetscCall(DRBitCacheCreate(g->nw, 1, &pend));
    PetscCall(PetscFree(g->batch));
    PetscCall(PetscMalloc1(nind * g->nw + 1, &g->batch));
    for (PetscInt i = 0; i < nind; i++) {
      const uint64_t *b = bits + i * g->nw;
      r[i]              = (PetscReal)(g->nforced + DRBitCount(g->nw, b));
      if (r[i] < g->b || DRBitCacheFind(&g->cache, b) || DRBitCacheFind(&pend, b)) continue;
      {
        PetscReal v = (PetscReal)g->nbatch;
        PetscCall(PetscArraycpy(g->batch + g->nbatch * g->nw, b, g->nw));
        PetscCall(DRBitCacheInsert(&pend, b, &v));
        g->nbatch++;
      }
    }
    PetscCall(DRBitCacheDestroy(&pend));
    PetscCall(LongestFirst(g));
  }
  PetscCallMPI(MPI_Bcast(&g->nbatch, 1, MPIU_INT, 0, g->comm));
  if (g->rank) {
    PetscCall(PetscFree(g->batch));
    PetscCall(PetscMalloc1(g->nbatch * g->nw + 1, &g->batch));
  }
  if (g->nbatch) {
    PetscCallMPI(MPI_Bcast(g->batch, (PetscMPIInt)(g->nbatch * g->nw), MPI_UINT64_T, 0, g->comm));
    g->full_result = PETSC_FALSE;
    PetscCall(DRFarmRun(g->farm, g->nbatch, EvalTask, g));
  }
  if (g->rank == 0) {
    for (PetscInt t = 0; t < g->nbatch; t++) {
      const PetscReal *res;
      PetscCall(DRFarmGetResult(g->farm, t, NULL, &res));
      PetscCall(DRBitCacheInsert(&g->cache, g->batch + t * g->nw, res));
    }
    g->nevals += g->nbatch;
    for (PetscInt i = 0; i < nind; i++) {
      const PetscReal *v = r[i] < g->b ? NULL : DRBitCacheFind(&g->cache, bits + i * g->nw);
      e[i]               = v ? v[0] : DR_GA_PENALTY;
      feas[i]            = (PetscBool)(v && v[1] > 0);
    }
  }
  PetscCall(PetscLogEventEnd(DR_GA_EvalBatch, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the reduced models of the final front (replicated): r, the
 * objectives and [lam, K_R, M_R] of each solution, and its masters as text. */
PetscErrorCode DRGAFrontResults(DRGA g)
{
  PetscInt nf = g->nfront, nw = g->nw, *m;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Front, 0, 0, 0, 0));
  PetscCall(PetscFree(g->batch));
  PetscCall(PetscMalloc1(nf * nw + 1, &g->batch));
  PetscCall(PetscArraycpy(g->batch, g->fbits, nf * nw));
  g->nbatch      = nf;
  g->full_result = PETSC_TRUE;
  if (nf) PetscCall(DRFarmRun(g->farm, nf, EvalTask, g));
  g->full_result = PETSC_FALSE;
  PetscCall(PetscMalloc1(g->n, &m));
  PetscCall(PetscCalloc3(nf + 1, &g->fr, nf + 1, &g->fres, nf + 1, &g->ftxt));
  for (PetscInt k = 0; k < nf; k++) {
    PetscInt         r = DRGAMasters(g, g->fbits + k * nw, m), len = 0;
    const PetscReal *res = NULL;
    char             b[32];

    g->fr[k] = r;
    len      = NVAL + r + 2 * r * r;
    PetscCall(PetscMalloc1(len, &g->fres[k]));
    if (g->rank == 0) {
      PetscInt n;
      PetscCall(DRFarmGetResult(g->farm, k, &n, &res));
      PetscCall(PetscArraycpy(g->fres[k], res, len));
    }
    PetscCallMPI(MPI_Bcast(g->fres[k], (PetscMPIInt)len, MPIU_REAL, 0, g->comm));
    PetscCall(PetscMalloc1(16 * r + 1, &g->ftxt[k]));
    g->ftxt[k][0] = 0;
    for (PetscInt i = 0; i < r; i++) {
      PetscCall(DRStrAppend(g->ftxt[k], i ? " " : "", 16 * r + 1));
      PetscCall(DRStrAppend(g->ftxt[k], DRLabelString(g->labels[m[i]], b), 16 * r + 1));
    }
  }
  PetscCall(PetscFree(m));
  PetscCall(PetscLogEventEnd(DR_GA_Front, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
