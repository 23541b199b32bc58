/* CMS rank groups: MPI_COMM_WORLD split into contiguous blocks of ranks;
 * components assigned largest estimated cost first to the least loaded group
 * (LPT; ties: lowest group index), deterministically on every rank.  The
 * costs: for substructured models the cost model of substructure.c (DOFs,
 * nonzeros, boundary size, expected modes); otherwise the model layer's
 * estimate (input file size, element layers of a cut part).  After the
 * reductions, DRCMSViewBalance_Private prints each group's predicted share
 * beside its measured seconds. */
#include "cmsimpl.h"
#include <dynred/modelcost.h>

/* The group table on the viewer (collective; rank 0 prints). */
static PetscErrorCode ViewGroups(DRCMS c, PetscViewer v)
{
  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIPrintf(v, "cms: %" PetscInt_FMT " components on %" PetscInt_FMT " rank group(s) of %d rank(s) in all\n", c->ncomp, c->ngroups, (int)c->size));
  for (PetscInt g = 0; g < c->ngroups; g++) {
    PetscMPIInt last       = (PetscMPIInt)(((g + 1) * c->size) / c->ngroups) - 1;
    char        list[1024] = "";
    for (PetscInt k = 0; k < c->ncomp; k++)
      if (c->group_of[k] == g) {
        if (list[0]) PetscCall(DRStrAppend(list, ", ", sizeof(list)));
        PetscCall(DRStrAppend(list, c->names[k], sizeof(list)));
      }
    PetscCall(PetscViewerASCIIPrintf(v, "  group %" PetscInt_FMT " (ranks %d-%d): %s\n", g, (int)c->group_root[g], (int)last, list));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* group_of[k] for every component: stable sort by decreasing cost, then each
 * component to the currently least loaded group. */
static PetscErrorCode AssignByCost(PetscInt ncomp, const PetscReal cost[], PetscInt ngroups, PetscInt group_of[])
{
  PetscReal *load;
  PetscInt  *order;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(ncomp, &order));
  PetscCall(PetscCalloc1(ngroups, &load));
  for (PetscInt k = 0; k < ncomp; k++) order[k] = k;
  for (PetscInt i = 1; i < ncomp; i++)
    for (PetscInt j = i; j > 0 && cost[order[j]] > cost[order[j - 1]]; j--) {
      PetscInt t   = order[j];
      order[j]     = order[j - 1];
      order[j - 1] = t;
    }
  for (PetscInt i = 0; i < ncomp; i++) {
    PetscInt g = 0, k = order[i];
    for (PetscInt h = 1; h < ngroups; h++)
      if (load[h] < load[g]) g = h;
    group_of[k] = g;
    load[g] += cost[k];
  }
  PetscCall(PetscFree(order));
  PetscCall(PetscFree(load));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSPartition_Private(DRCMS c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Partition, 0, 0, 0, 0));
  c->ngroups = c->ngroups_opt ? c->ngroups_opt : PetscMin((PetscInt)c->size, c->ncomp);
  PetscCall(PetscMalloc1(c->ncomp, &c->group_of));
  PetscCall(PetscMalloc1(c->ngroups, &c->group_root));
  if (!c->cost) {
    PetscCall(PetscMalloc1(c->ncomp, &c->cost));
    for (PetscInt k = 0; k < c->ncomp; k++) PetscCall(DRModelComponentCost(c->cfg, k, &c->cost[k]));
  }
  PetscCall(AssignByCost(c->ncomp, c->cost, c->ngroups, c->group_of));
  for (PetscInt g = 0; g < c->ngroups; g++) c->group_root[g] = (PetscMPIInt)((g * c->size) / c->ngroups);
  c->mygroup = 0;
  for (PetscInt g = 0; g < c->ngroups; g++)
    if (c->rank >= c->group_root[g]) c->mygroup = g;
  PetscCallMPI(MPI_Comm_split(c->comm, (int)c->mygroup, c->rank, &c->gcomm));
  c->nmine = 0;
  PetscCall(PetscMalloc1(c->ncomp, &c->mine));
  for (PetscInt k = 0; k < c->ncomp; k++)
    if (c->group_of[k] == c->mygroup) c->mine[c->nmine++] = k;
  PetscCall(PetscLogEventEnd(DRCMS_Partition, 0, 0, 0, 0));
  PetscCall(ViewGroups(c, PETSC_VIEWER_STDOUT_(c->comm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Per group: components, predicted share of the reduction work (the costs of
 * the assignment) and the measured seconds of its reductions (the group's
 * first rank: the sum over its components of their eigensolve, constraint
 * and projection seconds, DRReductionGetTimes -- not the inclusive
 * DRCMSCompReduce time, which holds the waits for the other groups and the
 * root and so came out equal for every group), so imbalance is visible.
 * Collective; rank 0 prints. */
PetscErrorCode DRCMSViewBalance_Private(DRCMS c, PetscViewer v)
{
  PetscReal     *pred, *act, *buf, ptot = 0, atot = 0;
  PetscLogDouble t = 0;
  PetscMPIInt    grank;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc3(c->ngroups, &pred, c->ngroups, &act, c->ngroups, &buf));
  for (PetscInt i = 0; i < c->nmine; i++) {
    PetscLogDouble te, ts, tp;
    PetscCall(DRReductionGetTimes(c->red[i], &te, &ts, &tp));
    t += te + ts + tp;
  }
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  if (!grank) buf[c->mygroup] = (PetscReal)t;
  PetscCall(MPIU_Allreduce(buf, act, (PetscMPIInt)c->ngroups, MPIU_REAL, MPIU_SUM, c->comm));
  for (PetscInt k = 0; k < c->ncomp; k++) pred[c->group_of[k]] += c->cost[k];
  for (PetscInt g = 0; g < c->ngroups; g++) {
    ptot += pred[g];
    atot += act[g];
  }
  PetscCall(PetscViewerASCIIPrintf(v, "cms: balance of the component reductions over %" PetscInt_FMT " rank group(s) (predicted: cost model; actual: seconds of the group's eigensolves, constraint modes and projections, waits excluded)\n", c->ngroups));
  PetscCall(PetscViewerASCIIPrintf(v, "  group  components  predicted [%%]  actual [s]  actual [%%]\n"));
  for (PetscInt g = 0; g < c->ngroups; g++) {
    PetscInt n = 0;
    for (PetscInt k = 0; k < c->ncomp; k++) n += c->group_of[k] == g;
    PetscCall(PetscViewerASCIIPrintf(v, "  %5" PetscInt_FMT "  %10" PetscInt_FMT "  %13.1f  %10.2f  %10.1f\n", g, n, (double)(ptot > 0 ? 100 * pred[g] / ptot : 0), (double)act[g], (double)(atot > 0 ? 100 * act[g] / atot : 0)));
  }
  PetscCall(PetscFree3(pred, act, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}
