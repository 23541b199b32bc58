/* CMS interface reduction before the projection.
 *
 * Every Craig-Bampton component computes its modes and its part of the
 * interface pencil (boundary Schur complement S_c and Guyan mass M_c, by
 * MUMPS partial factorizations: reduce/interface_basis.c); the root
 * assembles S = sum S_c, M_G = sum M_c over the physical boundary (the
 * sorted union of the boundary labels), solves S v = w^2 M_G v densely for
 * the lowest cms.interface_modes or those below cms.interface_cutoff_factor
 * x fmax (the characteristic constraint modes), and every component then
 * builds its basis on its rows of the kept modes V: ncc block solves
 * instead of nb, and a projection of n x (ncc + nq) instead of
 * n x (nb + nq).  The assembled reduced system equals the late reduction of
 * solve.c (CC modes of the assembled Craig-Bampton boundary blocks, which are
 * S and M_G) up to the finite-difference Guyan mass that chooses V; the
 * projection itself is exact, so Rayleigh-Ritz holds. */
#include "cmsimpl.h"
#include <dynred/eigen.h>
#include <petscblaslapack.h>

/* Component k's physical boundary labels from its group root to the world
 * root (root allocates rbl[k]). */
static PetscErrorCode LabelsToRoot(DRCMS c, PetscInt k, PetscInt nbk, const DRLabel *bl, DRLabel **rbl)
{
  PetscMPIInt src = c->group_root[c->group_of[k]];

  PetscFunctionBeginUser;
  if (!c->rank) PetscCall(PetscMalloc1(nbk + 1, &rbl[k]));
  if (c->rank == src) {
    if (!c->rank) PetscCall(PetscArraycpy(rbl[k], bl, nbk));
    else PetscCallMPI(MPI_Send(bl, (PetscMPIInt)nbk, MPIU_INT64, 0, 11, c->comm));
  } else if (!c->rank) PetscCallMPI(MPI_Recv(rbl[k], (PetscMPIInt)nbk, MPIU_INT64, src, 11, c->comm, MPI_STATUS_IGNORE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: Sfull as S again after DRCMSRootSchurFactor_Private (its lower
 * triangle from the upper one, the diagonal from c->Sdiag); O(nb^2). */
static PetscErrorCode RootSchurRestore(DRCMS c)
{
  PetscInt nb = c->pnbglob;

  PetscFunctionBeginUser;
  if (c->Sfac_state != 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt j = 0; j < nb; j++) {
    c->Sfull[j + j * nb] = c->Sdiag[j];
    for (PetscInt i = j + 1; i < nb; i++) c->Sfull[i + j * nb] = c->Sfull[j + i * nb];
  }
  PetscCall(PetscFree(c->Sdiag));
  c->Sfac_state = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root, cms.spill_basis: does the root put its pencil aside (always with
 * true; with auto where this rank released a factorization, i.e. the job is
 * near its memory share)? */
static PetscBool RootSpills(DRCMS c)
{
  if (c->rank) return PETSC_FALSE;
  return DRCMSSpills_Private(c, (PetscBool)(c->factor_budget_mib == 0 || c->nreleased > 0));
}

/* Root, cms.spill_basis: M_G, read only by the CC solves, put aside in a
 * scratch file between them (1.15 GB for the 1M plate's 12000-DOF
 * separator; written once, M_G does not change), and read back before one. */
static PetscErrorCode RootMassAside(DRCMS c)
{
  size_t bytes = sizeof(PetscReal) * (size_t)c->pnbglob * (size_t)c->pnbglob;

  PetscFunctionBeginUser;
  if (!c->Mfull || !RootSpills(c)) PetscFunctionReturn(PETSC_SUCCESS);
  if (c->mg_fd < 0) {
    PetscCall(DRScratchOpen(c->scratch_dir, "cms: the interface's Guyan mass M_G", &c->mg_fd));
    PetscCall(DRScratchWrite(c->mg_fd, c->Mfull, bytes, "cms: the interface's Guyan mass M_G"));
  }
  PetscCall(PetscFree(c->Mfull));
  PetscCall(PetscInfo(NULL, "cms: the interface's Guyan mass M_G (%.1f MiB) put aside in a scratch file\n", bytes / 1048576.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RootMassBack(DRCMS c)
{
  size_t bytes = sizeof(PetscReal) * (size_t)c->pnbglob * (size_t)c->pnbglob;

  PetscFunctionBeginUser;
  if (c->rank || c->Mfull) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(c->mg_fd >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "cms: M_G neither held nor put aside");
  PetscCall(PetscMalloc1(c->pnbglob * c->pnbglob + 1, &c->Mfull));
  PetscCall(DRScratchRead(c->mg_fd, c->Mfull, bytes, "cms: the interface's Guyan mass M_G"));
  PetscCall(PetscInfo(NULL, "cms: the interface's Guyan mass M_G read back from its scratch file\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root, cms.spill_basis: S's values kept in a scratch file (written once:
 * S does not change; the estimate's in-place factor is undone before any CC
 * solve) so the dense CC solve may use S's storage as its work array
 * (DRDenseEigenWork): S, M_G and no third 12000^2 array on the 1M plate. */
static PetscErrorCode RootStiffnessReload(void *ctx, PetscReal *S)
{
  DRCMS c = (DRCMS)ctx;

  PetscFunctionBeginUser;
  PetscCall(DRScratchRead(c->s_fd, S, sizeof(PetscReal) * (size_t)c->pnbglob * (size_t)c->pnbglob, "cms: the interface's Schur complement S"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root, after the last round: the pencil and the CC cache are not needed by
 * the recovery (which holds the modes on the full DOF set: the job's peak
 * would otherwise carry S and M_G too). */
PetscErrorCode DRCMSRootPencilFree_Private(DRCMS c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->Sfull));
  PetscCall(PetscFree(c->Sdiag));
  PetscCall(PetscFree(c->Mfull));
  PetscCall(PetscFree(c->cclam));
  PetscCall(PetscFree(c->ccX));
  PetscCall(DRScratchClose(&c->mg_fd));
  PetscCall(DRScratchClose(&c->s_fd));
  c->Sfac_state = 0;
  c->nccache    = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: the physical boundary union (c->pglob, c->pnbglob) and S, M_G on it
 * set to zero (c->Sfull, c->Mfull): kept for the estimate's boundary term and
 * for more CC modes in a refinement round. */
static PetscErrorCode RootPencilAlloc(DRCMS c, const PetscInt nbk[], DRLabel **bl)
{
  PetscInt nall = 0, nb;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < c->ncomp; k++) nall += nbk[k];
  PetscCall(PetscMalloc1(nall + 1, &c->pglob));
  nall = 0;
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscCall(PetscArraycpy(c->pglob + nall, bl[k], nbk[k]));
    nall += nbk[k];
  }
  PetscCall(PetscSortInt64(nall, c->pglob));
  nb = 0;
  for (PetscInt i = 0; i < nall; i++)
    if (!nb || c->pglob[i] != c->pglob[nb - 1]) c->pglob[nb++] = c->pglob[i];
  c->pnbglob = nb;
  PetscCall(PetscFree(c->Sdiag)); /* the estimate's factor of the previous S, if any */
  c->Sfac_state = 0;
  PetscCall(PetscCalloc1(nb * nb + 1, &c->Sfull));
  PetscCall(DRScratchClose(&c->mg_fd)); /* a previous pencil put aside */
  PetscCall(DRScratchClose(&c->s_fd));
  PetscCall(PetscCalloc1(nb * nb + 1, &c->Mfull));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Component k's pencil (S, MG: nbk x nbk, column-major, on its group root)
 * added into the root's Sfull, Mfull (rbl: its labels there), streamed in
 * blocks of columns of about DR_CMS_PENCIL_CHUNK values: the root never
 * holds a component's whole pencil beside the assembled one (the separator
 * of a substructured model has one as large as it: 2 x 1.15 GB on the 1M
 * plate's 12000 separator DOFs).  The sums run in the same order as one
 * loop over whole pencils. */
#define DR_CMS_PENCIL_CHUNK (1 << 22)
static PetscErrorCode PencilToRoot(DRCMS c, PetscInt k, PetscInt nbk, const DRLabel *rbl, const PetscReal *S, const PetscReal *MG)
{
  PetscMPIInt src = c->group_root[c->group_of[k]];
  PetscInt    cb  = PetscMax(1, DR_CMS_PENCIL_CHUNK / PetscMax(1, nbk)), nb = c->pnbglob, *map = NULL;
  PetscReal  *bS = NULL, *bM = NULL;

  PetscFunctionBeginUser;
  if (c->rank != src && c->rank) PetscFunctionReturn(PETSC_SUCCESS);
  if (!c->rank) {
    PetscCall(PetscMalloc1(nbk + 1, &map));
    for (PetscInt j = 0; j < nbk; j++) map[j] = DRLabelsFind(nb, c->pglob, rbl[j]);
    if (src) PetscCall(PetscMalloc2(nbk * PetscMin(cb, nbk) + 1, &bS, nbk * PetscMin(cb, nbk) + 1, &bM));
  }
  for (PetscInt j0 = 0; j0 < nbk; j0 += cb) {
    PetscInt         nc = PetscMin(cb, nbk - j0);
    const PetscReal *s = S ? S + j0 * nbk : NULL, *m = MG ? MG + j0 * nbk : NULL;
    if (src && c->rank == src) {
      PetscCallMPI(MPI_Send(s, (PetscMPIInt)(nbk * nc), MPIU_REAL, 0, 12, c->comm));
      PetscCallMPI(MPI_Send(m, (PetscMPIInt)(nbk * nc), MPIU_REAL, 0, 13, c->comm));
      continue;
    }
    if (src) {
      PetscCallMPI(MPI_Recv(bS, (PetscMPIInt)(nbk * nc), MPIU_REAL, src, 12, c->comm, MPI_STATUS_IGNORE));
      PetscCallMPI(MPI_Recv(bM, (PetscMPIInt)(nbk * nc), MPIU_REAL, src, 13, c->comm, MPI_STATUS_IGNORE));
      s = bS;
      m = bM;
    }
    for (PetscInt j = 0; j < nc; j++)
      for (PetscInt i = 0; i < nbk; i++) {
        c->Sfull[map[i] + map[j0 + j] * nb] += s[i + j * nbk];
        c->Mfull[map[i] + map[j0 + j] * nb] += m[i + j * nbk];
      }
  }
  PetscCall(PetscFree(map));
  PetscCall(PetscFree2(bS, bM));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSRootSchurFactor_Private(DRCMS c)
{
  PetscInt     nb = c->pnbglob;
  PetscBLASInt n, info = 0;

  PetscFunctionBeginUser;
  if (c->Sfac_state) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(nb + 1, &c->Sdiag));
  for (PetscInt i = 0; i < nb; i++) c->Sdiag[i] = c->Sfull[i + i * nb];
  PetscCall(PetscBLASIntCast(nb, &n));
  if (nb > 0) LAPACKpotrf_("L", &n, c->Sfull, &n, &info);
  c->Sfac_state = 1;
  if (info) { /* not definite: S back from its upper triangle */
    PetscCall(RootSchurRestore(c));
    c->Sfac_state = -1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kept CC modes of (Sfull, Mfull) on the root: the lowest `count` (> 0), else
 * those below c->iface_factor x fmax (c->Psi, c->ccfreq, c->ncc, c->lcc).
 * A refinement round (count, cms.interface_auto) computes twice the modes it
 * needs and keeps them (c->ccX, c->cclam, c->nccache): the next round, which
 * at most doubles the count, takes its columns from there.  (The whole
 * spectrum at once costs more than the partial solves: dsygvx for 250 / 700
 * of 2250 vectors 4 / 6 s, all of them 10 s and more.)  Collective on
 * c->comm: the root decides what to solve and holds the pencil and the
 * results; with cms.dense_parallel (auto: on several ranks, unless the
 * root spills) every rank takes part in the dense solve (CCSolve,
 * DRDenseEigenPar: ScaLAPACK on all the ranks, which would otherwise wait
 * for the root). */
#define DR_CMS_CC_CACHE 6.25 /* (2.5)^2: eigenvalues up to 2.5x the cut frequency */
/* the dense CC problem: LAPACK on the root, or with cms.dense_parallel
 * (true, or auto on several ranks) ScaLAPACK on every rank (arguments read
 * on the root) */
static PetscErrorCode CCSolveRoot(DRCMS c, PetscInt nb, PetscReal *S, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nf, PetscReal *lam, PetscReal *X)
{
  PetscFunctionBeginUser;
  if (RootSpills(c)) { /* S's storage as the solver's work, S read back */
    if (c->s_fd < 0) {
      PetscCall(DRScratchOpen(c->scratch_dir, "cms: the interface's Schur complement S", &c->s_fd));
      PetscCall(DRScratchWrite(c->s_fd, S, sizeof(PetscReal) * (size_t)nb * (size_t)nb, "cms: the interface's Schur complement S"));
      PetscCall(PetscInfo(NULL, "cms: the interface's Schur complement S (%.1f MiB) kept in a scratch file: the CC solve works in its storage\n", sizeof(PetscReal) * (double)nb * nb / 1048576.0));
    }
    PetscCall(DRDenseEigenWork(nb, S, M, nwant, lmax, nf, lam, X, RootStiffnessReload, c));
  } else PetscCall(DRDenseEigen(nb, S, M, nwant, lmax, nf, lam, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}
/* the root's failure (an indefinite interface pencil, a scratch file that
 * cannot be written) reaches every rank: one line and a clean exit, not the
 * others waiting in the next broadcast while the root waits in a barrier */
static PetscErrorCode CCSolve(DRCMS c, PetscInt nb, PetscReal *S, const PetscReal *M, PetscInt nwant, PetscReal lmax, PetscInt *nf, PetscReal *lam, PetscReal *X)
{
  PetscBool par = c->dense_par;

  PetscFunctionBeginUser;
  if (c->dense_par_auto) { /* the root decides: it knows whether it spills */
    par = (PetscBool)(c->size > 1 && !RootSpills(c));
    PetscCallMPI(MPI_Bcast(&par, 1, MPIU_BOOL, 0, c->comm));
  }
  if (par) PetscCall(DRDenseEigenPar(c->comm, nb, S, M, nwant, lmax, nf, lam, X)); /* LAPACK on the root below DR_DENSE_PAR_MIN */
  else PetscCall(DRRootAgree(c->comm, c->rank ? PETSC_SUCCESS : CCSolveRoot(c, nb, S, M, nwant, lmax, nf, lam, X)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode RootCCModes(DRCMS c, PetscInt count)
{
  enum { CC_NONE, CC_REFINE, CC_FIRST, CC_COUNT, CC_CUT };
  PetscInt   nb = c->pnbglob, nc = 0, plan = CC_NONE;
  PetscReal *lam = NULL, *X = NULL, lcut = PetscSqr(2 * PETSC_PI * c->iface_factor * c->fmax);
  PetscBool  cached = PETSC_FALSE;

  PetscFunctionBeginUser;
  if (!c->rank) {
    PetscCall(PetscFree(c->Psi));
    PetscCall(PetscFree(c->ccfreq));
    cached = (PetscBool)(count > 0 && c->cclam && (count + 1 <= c->nccache || c->nccache == nb));
    if (!cached && count > 0 && c->iface_auto) plan = CC_REFINE;
    else if (!cached && count == 0 && c->iface_auto && !c->cclam) plan = CC_FIRST;
    else if (!cached) plan = count > 0 ? CC_COUNT : CC_CUT;
  }
  PetscCallMPI(MPI_Bcast(&plan, 1, MPIU_INT, 0, c->comm));
  if (!c->rank && plan != CC_NONE) PetscCall(RootSchurRestore(c)); /* the pencil as it was */
  if (plan != CC_NONE) PetscCall(RootMassBack(c));
  if (plan == CC_REFINE) { /* a refinement round: compute twice what it needs, keep it */
    PetscInt want = PetscMin(nb, 2 * count + 1);
    if (!c->rank) {
      PetscCall(PetscFree(c->cclam));
      PetscCall(PetscFree(c->ccX));
      PetscCall(PetscMalloc1(want + 1, &c->cclam));
      PetscCall(PetscMalloc1(nb * want + 1, &c->ccX));
    }
    PetscCall(CCSolve(c, nb, c->Sfull, c->Mfull, want, 0, &c->nccache, c->cclam, c->ccX));
    cached = PETSC_TRUE;
  } else if (plan == CC_FIRST) {
    /* the first round of cms.interface_auto: the modes up to
     * DR_CMS_CC_CACHE lcut at little extra cost -- the reduction to
     * tridiagonal form dominates, not the eigenvectors -- so a refinement,
     * which at most doubles the count (+8), takes them from here: 2.5x the
     * frequency holds 2.5x the modes of a line-like interface (a plate's
     * cut; the CC count grows like f) and about 6x of a surface-like one */
    if (!c->rank) {
      PetscCall(PetscMalloc1(nb + 1, &c->cclam));
      PetscCall(PetscMalloc1(nb * nb + 1, &c->ccX));
    }
    PetscCall(CCSolve(c, nb, c->Sfull, c->Mfull, 0, DR_CMS_CC_CACHE * lcut, &c->nccache, c->cclam, c->ccX));
  } else if (plan == CC_COUNT || plan == CC_CUT) {
    /* a count: at most count + 1 vectors; a cutoff: up to all of them */
    if (!c->rank) PetscCall(PetscMalloc2(nb + 1, &lam, nb * (count > 0 ? PetscMin(nb, count + 1) : nb) + 1, &X));
    /* one more than kept: its eigenvalue is the truncation's lc for the estimate */
    if (plan == CC_COUNT) PetscCall(CCSolve(c, nb, c->Sfull, c->Mfull, PetscMin(nb, count + 1), 0, &nc, lam, X));
    else PetscCall(CCSolve(c, nb, c->Sfull, c->Mfull, 0, lcut, &nc, lam, X));
  }
  if (plan != CC_NONE) PetscCall(RootMassAside(c));
  if (c->rank) PetscFunctionReturn(PETSC_SUCCESS);
  if (plan == CC_FIRST) {
    /* the count was unknown before the solve: keep the found vectors only */
    PetscCall(PetscRealloc(sizeof(PetscReal) * (nb * c->nccache + 1), &c->ccX));
    lam = c->cclam;
    X   = c->ccX;
    for (nc = 0; nc < c->nccache && lam[nc] <= lcut; nc++) {}
    cached = PETSC_TRUE;
    c->ncc = nc;
    c->lcc = nc < c->nccache ? lam[nc] : nc < nb ? DR_CMS_CC_CACHE * lcut : PETSC_INFINITY;
  } else if (cached) {
    lam = c->cclam;
    X   = c->ccX;
    nc  = PetscMin(c->nccache, count + 1);
  }
  if (!(cached && count == 0)) {
    c->ncc = count > 0 ? PetscMin(nc, count) : nc;
    c->lcc = PETSC_INFINITY;
    if (count > 0 && nc > c->ncc) c->lcc = lam[c->ncc];
    else if (count == 0 && nc < nb) c->lcc = lcut; /* the next one lies above the cutoff */
  }
  PetscCall(PetscMalloc1(nb * c->ncc + 1, &c->Psi));
  PetscCall(PetscArraycpy(c->Psi, X, nb * c->ncc));
  PetscCall(PetscMalloc1(c->ncc + 1, &c->ccfreq));
  for (PetscInt k = 0; k < c->ncc; k++) c->ccfreq[k] = (lam[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(lam[k])) / (2 * PETSC_PI);
  if (!cached) PetscCall(PetscFree2(lam, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The CC modes from the root to every rank, and every component's basis on
 * its rows of them (phase 2; again in an interface refinement round). */
static PetscErrorCode ApplyCCModes(DRCMS c, PetscLogDouble t[3])
{
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscReal     *V;
  DRLabel       *cclab;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&c->ncc, 1, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(&c->lcc, 1, MPIU_REAL, 0, c->comm));
  PetscCall(PetscMalloc1(c->pnbglob * c->ncc + 1, &V));
  if (!c->rank) PetscCall(PetscArraycpy(V, c->Psi, c->pnbglob * c->ncc));
  PetscCallMPI(MPI_Bcast(V, (PetscMPIInt)(c->pnbglob * c->ncc), MPIU_REAL, 0, c->comm));
  /* coupling labels -ncc..-1 (sorted): CC mode j has label -(ncc - j) */
  PetscCall(PetscMalloc1(c->ncc + 1, &cclab));
  for (PetscInt j = 0; j < c->ncc; j++) cclab[j] = -(c->ncc - j);
  for (PetscInt i = 0; i < c->nmine && !ierr; i++) {
    PetscInt       nb;
    const DRLabel *bl;
    PetscReal     *Vc;
    PetscCall(DRReductionGetPhysicalBoundary(c->red[i], &nb, &bl));
    PetscCall(PetscMalloc1(nb * c->ncc + 1, &Vc));
    for (PetscInt b = 0; b < nb; b++) {
      PetscInt row = DRLabelsFind(c->pnbglob, c->pglob, bl[b]);
      for (PetscInt j = 0; j < c->ncc; j++) Vc[b + j * nb] = V[row + j * c->pnbglob];
    }
    ierr = DRReductionApplyInterfaceBasis(c->red[i], c->comps[i], c->ncc, Vc, cclab);
    PetscCall(PetscFree(Vc));
    if (!ierr) PetscCall(DRCMSIdle_Private(c, i, PETSC_FALSE));
    if (!ierr) {
      PetscLogDouble ti[3];
      PetscCall(DRReductionGetTimes(c->red[i], &ti[0], &ti[1], &ti[2]));
      for (int p = 0; p < 3; p++) t[p] += ti[p];
    }
  }
  ierr = DRCMSAllGroupsAgree_Private(c->comm, ierr);
  PetscCall(PetscFree(cclab));
  PetscCall(PetscFree(V));
  PetscFunctionReturn(ierr);
}

/* A refinement round of the interface (cms.tol_pct): count CC modes instead
 * of ncc, every component's basis rebuilt on them (its fixed-interface modes
 * kept: ncc' block solves and one projection, no eigensolve). */
PetscErrorCode DRCMSInterfaceEnrich_Private(DRCMS c, PetscInt count, PetscLogDouble t[3])
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_IfaceReduce, 0, 0, 0, 0));
  PetscCall(RootCCModes(c, count));
  PetscCall(PetscLogEventEnd(DRCMS_IfaceReduce, 0, 0, 0, 0));
  PetscCallMPI(MPI_Bcast(&c->nccache, 1, MPIU_INT, 0, c->comm)); /* for the next round's count (refine.c) */
  PetscCall(ApplyCCModes(c, t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSInterfaceEarly_Private(DRCMS c, PetscLogDouble t[3])
{
  PetscErrorCode ierr = PETSC_SUCCESS;
  PetscInt      *nbk, *tmp;
  PetscReal    **S = NULL, **MG = NULL;
  DRLabel      **rbl = NULL;
  PetscMPIInt    grank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  PetscCall(PetscCalloc2(c->nmine + 1, &S, c->nmine + 1, &MG));
  /* phase 1: modes and pencils */
  for (PetscInt i = 0; i < c->nmine && !ierr; i++) {
    PetscBool sup = PETSC_TRUE, reused = PETSC_FALSE;
    PetscCall(DRCMSMark_Private(c, c->mine[i], PETSC_TRUE));
    ierr = DRCMSCheckpointRestorePencil_Private(c, i, &reused, &S[i], &MG[i]); /* a killed run's, or cms.reuse */
    if (!ierr && !reused) ierr = DRReductionInterfacePencil(c->red[i], c->comps[i], c->isboundary[i], &sup, &S[i], &MG[i]);
    if (!ierr && !sup) ierr = PetscError(c->gcomm, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_SUP, PETSC_ERROR_INITIAL, "component '%s': method %s has no interface pencil", c->names[c->mine[i]], c->methods[c->mine[i]]);
    if (!ierr && !reused) ierr = DRCMSCheckpointStorePencil_Private(c, i, S[i], MG[i]);
    if (!ierr) PetscCall(DRCMSIdle_Private(c, i, PETSC_FALSE)); /* it waits for the root's CC modes */
    PetscCall(DRCMSMark_Private(c, c->mine[i], PETSC_FALSE));
  }
  ierr = DRCMSAllGroupsAgree_Private(c->comm, ierr);
  if (ierr) PetscFunctionReturn(ierr);
  /* the pencils to the root */
  PetscCall(PetscCalloc2(c->ncomp, &nbk, c->ncomp, &tmp));
  if (!grank)
    for (PetscInt i = 0; i < c->nmine; i++) PetscCall(DRReductionGetPhysicalBoundary(c->red[i], &tmp[c->mine[i]], NULL));
  PetscCall(MPIU_Allreduce(tmp, nbk, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
  if (!c->rank) PetscCall(PetscCalloc1(c->ncomp, &rbl));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    const DRLabel *bl = NULL;
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k) PetscCall(DRReductionGetPhysicalBoundary(c->red[i], NULL, &bl));
    PetscCall(LabelsToRoot(c, k, nbk[k], bl, rbl));
  }
  if (!c->rank) PetscCall(RootPencilAlloc(c, nbk, rbl));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    const PetscReal *Sk = NULL, *Mk = NULL;
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k) {
        Sk = S[i];
        Mk = MG[i];
      }
    PetscCall(PencilToRoot(c, k, nbk[k], rbl ? rbl[k] : NULL, Sk, Mk));
  }
  for (PetscInt i = 0; i < c->nmine; i++) {
    PetscCall(PetscFree(S[i]));
    PetscCall(PetscFree(MG[i]));
  }
  PetscCall(PetscFree2(S, MG));
  if (!c->rank) {
    for (PetscInt k = 0; k < c->ncomp; k++) PetscCall(PetscFree(rbl[k]));
    PetscCall(PetscFree(rbl));
  }
  PetscCall(PetscLogEventBegin(DRCMS_IfaceReduce, 0, 0, 0, 0));
  PetscCall(RootCCModes(c, c->iface_modes));
  PetscCall(PetscLogEventEnd(DRCMS_IfaceReduce, 0, 0, 0, 0));
  /* the physical boundary to every rank, then the CC modes and phase 2 */
  PetscCallMPI(MPI_Bcast(&c->pnbglob, 1, MPIU_INT, 0, c->comm));
  if (c->rank) PetscCall(PetscMalloc1(c->pnbglob + 1, &c->pglob));
  PetscCallMPI(MPI_Bcast(c->pglob, (PetscMPIInt)c->pnbglob, MPIU_INT64, 0, c->comm));
  PetscCallMPI(MPI_Bcast(&c->ncc, 1, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(&c->nccache, 1, MPIU_INT, 0, c->comm)); /* for the next round's count (refine.c) */
  PetscCall(DRProgress(c->comm, "cms: interface reduction before the projection: %" PetscInt_FMT " boundary DOFs -> %" PetscInt_FMT " CC modes%s", c->pnbglob, c->ncc, c->iface_auto ? " (below the initial interface cutoff; cms.tol_pct refines it)" : ""));
  ierr = ApplyCCModes(c, t);
  PetscCall(PetscFree2(nbk, tmp));
  PetscFunctionReturn(ierr);
}
