/* CMS superelements to world rank 0 and their assembly there by boundary
 * label: the merged boundary coordinates (sorted union of the boundary
 * labels) first, then the modal coordinates of every component in component
 * order. */
#include "cmsimpl.h"

/* nb, nq of every component on every rank (from each group's rank 0). */
static PetscErrorCode ShareSizes(DRCMS c)
{
  PetscMPIInt grank;
  PetscInt   *tb, *tq;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  PetscCall(PetscCalloc1(c->ncomp, &c->nb));
  PetscCall(PetscCalloc1(c->ncomp, &c->nq));
  PetscCall(PetscCalloc1(c->ncomp, &tb));
  PetscCall(PetscCalloc1(c->ncomp, &tq));
  if (!grank)
    for (PetscInt i = 0; i < c->nmine; i++) {
      PetscCall(DRReductionGetBoundary(c->red[i], &tb[c->mine[i]], NULL));
      PetscCall(DRReductionGetModes(c->red[i], &tq[c->mine[i]], NULL));
    }
  PetscCall(MPIU_Allreduce(tb, c->nb, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
  PetscCall(MPIU_Allreduce(tq, c->nq, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
  PetscCall(PetscFree(tb));
  PetscCall(PetscFree(tq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Superelement k (boundary labels, K, M, mode frequencies) from the rank
 * that holds it to the root; bl, K, M, qfreq allocated on the root. */
static PetscErrorCode SendToRoot(DRCMS c, PetscInt k, DRLabel **bl, PetscReal **K, PetscReal **M)
{
  PetscMPIInt src = c->group_root[c->group_of[k]];
  PetscInt    nr  = c->nb[k] + c->nq[k];

  PetscFunctionBeginUser;
  if (!c->rank) {
    PetscCall(PetscMalloc1(c->nb[k] + 1, &bl[k]));
    PetscCall(PetscMalloc1(nr * nr + 1, &K[k]));
    PetscCall(PetscMalloc1(nr * nr + 1, &M[k]));
    PetscCall(PetscMalloc1(c->nq[k] + 1, &c->qfreq[k]));
  }
  c->qtop[k] = 0;
  if (c->rank == src) {
    DRReduction      r = NULL;
    const DRLabel   *sbl;
    const PetscReal *sK, *sM, *sf;
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k) r = c->red[i];
    PetscCall(DRReductionGetBoundary(r, NULL, &sbl));
    PetscCall(DRReductionGetModes(r, NULL, &sf));
    PetscCall(DRReductionGetReducedMatrices(r, NULL, &sK, &sM));
    PetscCall(DRReductionGetModeTop(r, &c->qtop[k]));
    if (!c->rank) {
      PetscCall(PetscArraycpy(bl[k], sbl, c->nb[k]));
      PetscCall(PetscArraycpy(K[k], sK, nr * nr));
      PetscCall(PetscArraycpy(M[k], sM, nr * nr));
      PetscCall(PetscArraycpy(c->qfreq[k], sf, c->nq[k]));
    } else {
      PetscCallMPI(MPI_Send(sbl, (PetscMPIInt)c->nb[k], MPIU_INT64, 0, 1, c->comm));
      PetscCallMPI(MPI_Send(sK, (PetscMPIInt)(nr * nr), MPIU_REAL, 0, 2, c->comm));
      PetscCallMPI(MPI_Send(sM, (PetscMPIInt)(nr * nr), MPIU_REAL, 0, 3, c->comm));
      PetscCallMPI(MPI_Send(sf, (PetscMPIInt)c->nq[k], MPIU_REAL, 0, 4, c->comm));
      PetscCallMPI(MPI_Send(&c->qtop[k], 1, MPIU_REAL, 0, 5, c->comm));
    }
  } else if (!c->rank) {
    PetscCallMPI(MPI_Recv(bl[k], (PetscMPIInt)c->nb[k], MPIU_INT64, src, 1, c->comm, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(K[k], (PetscMPIInt)(nr * nr), MPIU_REAL, src, 2, c->comm, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(M[k], (PetscMPIInt)(nr * nr), MPIU_REAL, src, 3, c->comm, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(c->qfreq[k], (PetscMPIInt)c->nq[k], MPIU_REAL, src, 4, c->comm, MPI_STATUS_IGNORE));
    PetscCallMPI(MPI_Recv(&c->qtop[k], 1, MPIU_REAL, src, 5, c->comm, MPI_STATUS_IGNORE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: boundary union, then Kred, Mred (nred^2, column-major) by adding
 * every superelement at its coordinates.  Frees bl, K, M. */
static PetscErrorCode AssembleRoot(DRCMS c, DRLabel **bl, PetscReal **K, PetscReal **M)
{
  PetscInt nball = 0, off;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Assemble, 0, 0, 0, 0));
  for (PetscInt k = 0; k < c->ncomp; k++) nball += c->nb[k];
  PetscCall(PetscMalloc1(nball + 1, &c->bglob));
  nball = 0;
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscCall(PetscArraycpy(c->bglob + nball, bl[k], c->nb[k]));
    nball += c->nb[k];
  }
  PetscCall(PetscSortInt64(nball, c->bglob));
  c->nbglob = 0;
  for (PetscInt i = 0; i < nball; i++)
    if (!c->nbglob || c->bglob[i] != c->bglob[c->nbglob - 1]) c->bglob[c->nbglob++] = c->bglob[i];
  c->nred = c->nbglob;
  for (PetscInt k = 0; k < c->ncomp; k++) c->nred += c->nq[k];
  PetscCall(PetscCalloc1(c->nred * c->nred, &c->Kred));
  PetscCall(PetscCalloc1(c->nred * c->nred, &c->Mred));
  off = c->nbglob;
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscInt nr = c->nb[k] + c->nq[k], *map;
    PetscCall(PetscMalloc1(nr + 1, &map));
    for (PetscInt j = 0; j < c->nb[k]; j++) map[j] = DRLabelsFind(c->nbglob, c->bglob, bl[k][j]);
    for (PetscInt j = 0; j < c->nq[k]; j++) map[c->nb[k] + j] = off + j;
    off += c->nq[k];
    for (PetscInt j = 0; j < nr; j++)
      for (PetscInt i = 0; i < nr; i++) {
        c->Kred[map[i] + map[j] * c->nred] += K[k][i + j * nr];
        c->Mred[map[i] + map[j] * c->nred] += M[k][i + j * nr];
      }
    PetscCall(PetscFree(map));
    PetscCall(PetscFree(bl[k]));
    PetscCall(PetscFree(K[k]));
    PetscCall(PetscFree(M[k]));
  }
  PetscCall(PetscLogEventEnd(DRCMS_Assemble, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Superelements to world rank 0, assembled there (event DRCMS_Assemble,
 * nested in DRCMS_Gather); nred, nbglob and the boundary labels to all. */
PetscErrorCode DRCMSGather_Private(DRCMS c)
{
  DRLabel   **bl = NULL;
  PetscReal **K = NULL, **M = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Gather, 0, 0, 0, 0));
  PetscCall(ShareSizes(c));
  if (!c->rank) {
    PetscCall(PetscCalloc1(c->ncomp, &bl));
    PetscCall(PetscCalloc1(c->ncomp, &K));
    PetscCall(PetscCalloc1(c->ncomp, &M));
    PetscCall(PetscCalloc1(c->ncomp, &c->qfreq));
  }
  if (!c->qtop) PetscCall(PetscCalloc1(c->ncomp + 1, &c->qtop));
  for (PetscInt k = 0; k < c->ncomp; k++) PetscCall(SendToRoot(c, k, bl, K, M));
  if (!c->rank) PetscCall(AssembleRoot(c, bl, K, M));
  PetscCall(PetscFree(bl));
  PetscCall(PetscFree(K));
  PetscCall(PetscFree(M));
  PetscCallMPI(MPI_Bcast(&c->nred, 1, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(&c->nbglob, 1, MPIU_INT, 0, c->comm));
  if (c->rank) PetscCall(PetscMalloc1(c->nbglob + 1, &c->bglob));
  PetscCallMPI(MPI_Bcast(c->bglob, (PetscMPIInt)c->nbglob, MPIU_INT64, 0, c->comm));
  PetscCall(PetscLogEventEnd(DRCMS_Gather, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSResetCoupled_Private(DRCMS c)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; c->qfreq && k < c->ncomp; k++) PetscCall(PetscFree(c->qfreq[k]));
  PetscCall(PetscFree(c->qfreq));
  PetscCall(PetscFree(c->nb));
  PetscCall(PetscFree(c->nq));
  PetscCall(PetscFree(c->bglob));
  PetscCall(PetscFree(c->Kred));
  PetscCall(PetscFree(c->Mred));
  if (!c->iface_early) { /* the CC modes made before the projection stay with the components' bases */
    PetscCall(PetscFree(c->Psi));
    PetscCall(PetscFree(c->ccfreq));
  }
  PetscCall(PetscFree(c->freq));
  PetscCall(PetscFree(c->lamext));
  PetscCall(PetscFree(c->est_pct));
  PetscCall(PetscFree(c->share));
  PetscCall(PetscFree(c->ishare));
  c->nm = c->next = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
