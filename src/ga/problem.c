/* The master-DOF problem (gaimpl.h): the model, its candidate genes and
 * forced masters, the full eigenvalues and b, and on every farm group its
 * own copy of the model with one factorization of K0 for the condensation
 * of individuals (DRCondense, src/reduce).
 *
 * Labels: the GA writes and prints the project's one notation "node.dir"
 * (DRLabelString); ga.forced_masters also accepts the GA papers' "15H"
 * (node + H, V, Z, RX, RY, RZ; DRLabelParse reads both). */
#include "gaimpl.h"
#include <dynred/modal.h>
#include <dynred/eigen.h>
#include <dynred/preflight.h>
#include <string.h>

/* masters (sorted rows) of a bitstring; returns r */
PetscInt DRGAMasters(DRGA g, const uint64_t *bits, PetscInt *m)
{
  PetscInt r = 0;
  for (PetscInt k = 0; k < g->nforced; k++) m[r++] = g->forced[k];
  for (PetscInt j = 0; j < g->nvar; j++)
    if (DRBitGet(bits, j)) m[r++] = g->cand[j];
  (void)PetscSortInt(r, m);
  return r;
}

/* the forced masters as GA labels, space-separated */
PetscErrorCode DRGAForcedString(DRGA g, char *fl, size_t len)
{
  char b[32];

  PetscFunctionBeginUser;
  fl[0] = 0;
  for (PetscInt k = 0; k < g->nforced; k++) {
    PetscCall(DRStrAppend(fl, k ? " " : "", len));
    PetscCall(DRStrAppend(fl, DRLabelString(g->labels[g->forced[k]], b), len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Full eigenvalues (the lowest nfull, enough to pass 3 omega_max) of the
 * whole-communicator model c: dense on rank 0; beyond dense_max with SLEPc on
 * the first farm group's own model (g->model), broadcast from rank 0, so the
 * eigenvalues, and with them every e, are those of a run on one group's
 * ranks (the same on 1 rank and on any number of 1-rank groups; a solve
 * distributed over all ranks differs at round-off with their number). */
static PetscErrorCode FullEigenvalues(DRGA g, DRComponent c, PetscReal lmax)
{
  PetscInt    n;
  Mat         K, M;
  const char *source;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetSize(c, &n));
  PetscCall(DRComponentGetOperators(c, &K, &M, NULL));
  PetscCall(DRComponentGetSource(c, &source));
  if (n <= g->dense_max) {
    /* dense LAPACK on rank 0 (accurate low modes), then broadcast */
    Mat        Kr, Mr, Kd, Md;
    PetscReal *lam;
    PetscInt   nf = 0;
    PetscCall(MatCreateRedundantMatrix(K, g->size, PETSC_COMM_SELF, MAT_INITIAL_MATRIX, &Kr));
    PetscCall(MatCreateRedundantMatrix(M, g->size, PETSC_COMM_SELF, MAT_INITIAL_MATRIX, &Mr));
    PetscCall(MatConvert(Kr, MATSEQDENSE, MAT_INITIAL_MATRIX, &Kd));
    PetscCall(MatConvert(Mr, MATSEQDENSE, MAT_INITIAL_MATRIX, &Md));
    PetscErrorCode ierr = PETSC_SUCCESS;
    PetscCall(PetscMalloc1(n, &lam));
    if (g->rank == 0) {
      const PetscScalar *k, *m;
      PetscCall(MatDenseGetArrayRead(Kd, &k));
      PetscCall(MatDenseGetArrayRead(Md, &m));
      ierr = DRDenseEigen(n, k, m, n, 0, &nf, lam, NULL); /* an indefinite K: agreed below */
      if (!ierr) {
        PetscCall(PetscMalloc2(n * n, &g->Kfull, n * n, &g->Mfull));
        for (PetscInt j = 0; j < n; j++)
          for (PetscInt i = 0; i < n; i++) {
            g->Kfull[i + j * n] = k[i + j * n];
            g->Mfull[i + j * n] = m[i + j * n];
          }
      }
      PetscCall(MatDenseRestoreArrayRead(Kd, &k));
      PetscCall(MatDenseRestoreArrayRead(Md, &m));
    }
    /* rank 0's failure reaches every rank: one line, not the others waiting in the broadcast */
    PetscCall(DRRootAgree(g->comm, ierr));
    PetscCallMPI(MPI_Bcast(&nf, 1, MPIU_INT, 0, g->comm));
    PetscCallMPI(MPI_Bcast(lam, (PetscMPIInt)nf, MPIU_REAL, 0, g->comm));
    g->nfull = nf;
    g->lam_full = lam;
    PetscCall(MatDestroy(&Kr));
    PetscCall(MatDestroy(&Mr));
    PetscCall(MatDestroy(&Kd));
    PetscCall(MatDestroy(&Md));
  } else {
    /* SLEPc: the lowest nev modes, doubling nev until one passes lmax */
    PetscInt nev = 8;
    PetscCall(DRComponentGetOperators(g->model, &K, &M, NULL));
    for (; g->igroup == 0;) {
      DRModal          modal;
      PetscInt         nm;
      const PetscReal *lam;
      PetscCall(DRModalCreate(g->group, &modal));
      PetscCall(DRModalSetOptionsPrefix(modal, "ga_full_"));
      PetscCall(DRModalSetOperators(modal, K, M, source));
      PetscCall(DRModalSetRange(modal, PetscMin(nev, n), 0));
      PetscCall(DRModalSetFromOptions(modal));
      PetscCall(DRModalSolve(modal));
      PetscCall(DRModalGetModes(modal, &nm, NULL, &lam, NULL, NULL));
      if ((nm > 0 && lam[nm - 1] >= lmax) || nm >= n || nev >= n) {
        PetscCall(PetscMalloc1(nm + 1, &g->lam_full));
        PetscCall(PetscArraycpy(g->lam_full, lam, nm));
        g->nfull = nm;
        PetscCall(DRModalDestroy(&modal));
        break;
      }
      PetscCall(DRModalDestroy(&modal));
      nev *= 2;
    }
    PetscCallMPI(MPI_Bcast(&g->nfull, 1, MPIU_INT, 0, g->comm));
    if (g->igroup) PetscCall(PetscMalloc1(g->nfull + 1, &g->lam_full));
    PetscCallMPI(MPI_Bcast(g->lam_full, (PetscMPIInt)g->nfull, MPIU_REAL, 0, g->comm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the lumped mass diagonal of the model, on every rank */
static PetscErrorCode MassDiagonal(DRGA g, DRComponent world, PetscReal **mdiag)
{
  Vec                d, dz;
  VecScatter         sc;
  const PetscScalar *a;
  Mat                M;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetOperators(world, NULL, &M, NULL));
  PetscCall(MatCreateVecs(M, &d, NULL));
  PetscCall(MatGetDiagonal(M, d));
  PetscCall(VecScatterCreateToAll(d, &sc, &dz));
  PetscCall(VecScatterBegin(sc, d, dz, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, d, dz, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(PetscMalloc1(g->n, mdiag));
  PetscCall(VecGetArrayRead(dz, &a));
  for (PetscInt i = 0; i < g->n; i++) (*mdiag)[i] = PetscRealPart(a[i]);
  PetscCall(VecRestoreArrayRead(dz, &a));
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&dz));
  PetscCall(VecDestroy(&d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ga.forced_masters -> g->forced (rows, sorted) */
static PetscErrorCode ForcedMasters(DRGA g, const char *source)
{
  char  where[PETSC_MAX_PATH_LEN + 32];
  char *save = NULL, *copy;

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(g->cfg, "ga.forced_masters", where, sizeof(where)));
  PetscCall(PetscStrallocpy(g->forced_text, &copy));
  for (char *tok = strtok_r(copy, ", []", &save); tok; tok = strtok_r(NULL, ", []", &save)) {
    DRLabel  l;
    PetscInt row = -1;
    char     b[32];
    PetscCheck(DRLabelParse(tok, &l), g->comm, DR_ERR_INPUT, "%s: ga.forced_masters entry '%s' is not a DOF label, expected NODE followed by H, V, Z, RX, RY, RZ (e.g. 15H) or NODE.DIR", where, tok);
    for (PetscInt i = 0; i < g->n; i++)
      if (g->labels[i] == l) row = i;
    PetscCheck(row >= 0, g->comm, DR_ERR_INPUT, "%s: ga.forced_masters entry '%s' (%s) is not a DOF of the model (%s), expected a free DOF", where, tok, DRLabelString(l, b), source);
    for (PetscInt k = 0; k < g->nforced; k++) PetscCheck(g->forced[k] != row, g->comm, DR_ERR_INPUT, "%s: ga.forced_masters lists '%s' twice", where, tok);
    g->forced[g->nforced++] = row;
  }
  PetscCall(PetscFree(copy));
  PetscCall(PetscSortInt(g->nforced, g->forced));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* candidates: translations (rotations on request) with mass, not forced,
 * on ga.candidate_nodes when given */
static PetscErrorCode Candidates(DRGA g, const PetscReal *mdiag)
{
  char            where[PETSC_MAX_PATH_LEN + 32];
  PetscInt        ncn = g->ncn;
  const PetscReal *cn = g->cn;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < g->n; i++) {
    PetscInt  d = DRLabelDir(g->labels[i]), loc = -1;
    PetscBool isf = PETSC_FALSE;
    for (PetscInt k = 0; k < g->nforced; k++)
      if (g->forced[k] == i) isf = PETSC_TRUE;
    if (isf || !(mdiag[i] > 0) || d < 1 || (d > 3 && !g->rotations)) continue; /* d = 0: a scalar point */
    if (ncn) {
      PetscReal node = (PetscReal)DRLabelNode(g->labels[i]);
      PetscInt  lo = 0, hi = ncn - 1;
      while (lo <= hi) {
        PetscInt mid = (lo + hi) / 2;
        if (cn[mid] == node) {
          loc = mid;
          break;
        }
        if (cn[mid] < node) lo = mid + 1;
        else hi = mid - 1;
      }
      if (loc < 0) continue;
    }
    g->cand[g->nvar++] = i;
  }
  PetscCall(DRConfigWhere(g->cfg, "ga.forced_masters", where, sizeof(where)));
  PetscCheck(g->nvar > 0, g->comm, DR_ERR_INPUT, "%s: no candidate DOFs (translations with mass, not forced), expected at least one gene", where);
  g->nw = (g->nvar + 63) / 64;
  if (!g->maxgen) g->maxgen = 100 * g->nvar;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* farm groups, each with its own model (GroupCondense: and factorization of
 * K0); one group of every rank takes over the whole-communicator model
 * (*world = NULL then) instead of generating it a second time */
static PetscErrorCode GroupModels(DRGA g, DRComponent *world)
{
  PetscFunctionBeginUser;
  PetscCall(DRFarmCreate(g->comm, &g->farm));
  PetscCall(DRFarmSetGroupSize(g->farm, g->gs));
  PetscCall(DRFarmSetConfig(g->farm, g->cfg));
  PetscCall(DRFarmSetLabel(g->farm, "individual"));
  PetscCall(DRFarmSetFromOptions(g->farm));
  PetscCall(DRFarmSetUp(g->farm));
  PetscCall(DRFarmGetGroup(g->farm, &g->group, &g->igroup, &g->ngroups));
  if (g->ngroups == 1) {
    g->model = *world;
    *world   = NULL;
  } else PetscCall(DRModelCreateFull(g->cfg, g->group, &g->model));
  {
    PetscInt       mn;
    const DRLabel *ml;
    PetscBool      same, all;
    PetscCall(DRComponentGetLabels(g->model, &mn, &ml));
    same = (PetscBool)(mn == g->n);
    for (PetscInt i = 0; same && i < g->n; i++) same = (PetscBool)(ml[i] == g->labels[i]);
    PetscCall(MPIU_Allreduce(&same, &all, 1, MPIU_BOOL, MPI_LAND, g->comm));
    PetscCheck(all, g->comm, PETSC_ERR_PLIB, "ga: the model built on a rank group numbers its DOFs differently from the whole-communicator model");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* each group's condensation (needs b) */
static PetscErrorCode GroupCondense(DRGA g)
{
  PetscFunctionBeginUser;
  {
    Mat K, M;
    PetscCall(DRComponentGetOperators(g->model, &K, &M, NULL));
    PetscCall(DRCondenseCreate(K, M, &g->cond));
  }
  PetscCall(DRCondenseSetType(g->cond, g->method));
  PetscCall(DRCondenseSetIDC(g->cond, g->inner, g->outer, g->idc_tol, g->b));
  PetscCall(DRCondenseSetDenseMax(g->cond, g->dense_max));
  PetscCall(DRCondenseSetUp(g->cond));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: does `need` MiB on every rank fit in its node's memory? */
static PetscErrorCode NodeFits(DRGA g, PetscReal need, PetscBool *fits)
{
  MPI_Comm    node;
  PetscReal   sum, avail;
  const char *source;
  PetscBool   ok;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_split_type(g->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCall(MPIU_Allreduce(&need, &sum, 1, MPIU_REAL, MPI_SUM, node));
  PetscCallMPI(MPI_Comm_free(&node));
  PetscCall(DRMemoryNodeAvailable(g->cfg, &avail, &source));
  ok = (PetscBool)(sum <= avail);
  PetscCall(MPIU_Allreduce(&ok, fits, 1, MPIU_BOOL, MPI_LAND, g->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Fail fast on memory, before the full eigenvalues: the full model's
 * eigenproblem (up to dense_max: K and M dense on every rank, 2 n^2 values,
 * plus on rank 0 the kept copies and LAPACK's workspace, 5 n^2; beyond: the
 * MUMPS estimate of K's factorization on all ranks) and each farm group's
 * copy of the model with its factorization of K0 (the MUMPS estimate scaled
 * from all ranks to the group's). */
static PetscErrorCode GACheckMemory(DRGA g, DRComponent world)
{
  Mat         K, M;
  MatInfo     ik, im;
  PetscInt    n = g->n, gs;
  PetscReal   f, need, mib = 1048576.0, full;
  char        what[512];
  const char *name;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetOperators(world, &K, &M, NULL));
  PetscCall(DRComponentGetName(world, &name));
  PetscCall(DRMemoryFactorEstimate(K, &f)); /* this rank's share over all ranks */
  PetscCall(MatGetInfo(K, MAT_GLOBAL_SUM, &ik));
  PetscCall(MatGetInfo(M, MAT_GLOBAL_SUM, &im));
  full = n <= g->dense_max ? (2.0 + (g->rank == 0 ? 5.0 : 0.0)) * n * n * sizeof(PetscReal) / mib : f;
#define NEED(gs) (full + f * g->size / (gs) + (ik.nz_used + im.nz_used) * (sizeof(PetscScalar) + sizeof(PetscInt)) / (gs) / mib)
  /* ranks per group: as given; else 1 (one factorization per rank: the
   * individuals are independent, and a distributed factorization's solves
   * with a few right-hand sides scale poorly, bench/README.md) unless the
   * model has >= ga.distributed_dofs DOFs and one factorization per rank
   * does not fit in the nodes' memory: then one group of every rank */
  gs = g->group_size;
  if (!gs) {
    PetscBool fits = PETSC_TRUE;
    if (n >= g->dist_dofs && g->size > 1) PetscCall(NodeFits(g, NEED(1), &fits));
    gs = fits ? 1 : g->size;
  }
  g->gs = gs;
  need  = NEED(gs);
#undef NEED
  PetscCall(PetscSNPrintf(what, sizeof(what), "ga on model %s (%" PetscInt_FMT " DOFs; the full eigenproblem (%s) and, per farm group of %" PetscInt_FMT " rank(s), the model and the MUMPS estimate of its factorization)", name, n, n <= g->dense_max ? "dense" : "MUMPS estimate", gs));
  PetscCall(DRMemoryCheckHint(g->comm, g->cfg, need, what, "run it with more ranks per group (ranks_per_group) on more nodes, or on a node with more memory"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the problem from the settings (DRGASetUp). */
PetscErrorCode DRGAProblemSetUp(DRGA g)
{
  char        where[PETSC_MAX_PATH_LEN + 32], fl[1024];
  DRComponent    world;
  PetscReal     *mdiag, lmax;
  const DRLabel *wlabels;
  const char    *wname, *wsource;

  PetscFunctionBeginUser;
  /* the model on the whole communicator: labels, masses, full frequencies */
  PetscCall(DRModelCreateFull(g->cfg, g->comm, &world));
  PetscCall(DRComponentGetLabels(world, &g->n, &wlabels));
  PetscCall(DRComponentGetName(world, &wname));
  PetscCall(DRComponentGetSource(world, &wsource));
  PetscCall(PetscMalloc1(g->n, &g->labels));
  PetscCall(PetscArraycpy(g->labels, wlabels, g->n));
  PetscCall(GACheckMemory(g, world));
  PetscCall(MassDiagonal(g, world, &mdiag));
  PetscCall(PetscMalloc2(g->n, &g->forced, g->n, &g->cand));
  PetscCall(ForcedMasters(g, wsource));
  PetscCall(Candidates(g, mdiag));
  PetscCall(PetscFree(mdiag));

  /* full frequencies and b */
  lmax = PetscSqr(3 * 2 * PETSC_PI * g->fmax * g->time_unit);
  PetscCall(GroupModels(g, &world));
  PetscCall(FullEigenvalues(g, world ? world : g->model, lmax));
  g->b = 0;
  for (PetscInt k = 0; k < g->nfull; k++)
    if (g->lam_full[k] >= lmax) {
      g->b = k + 1;
      break;
    }
  PetscCall(DRConfigWhere(g->cfg, "ga.fmax", where, sizeof(where)));
  PetscCheck(g->b > 0, g->comm, DR_ERR_INPUT, "%s: no mode of the model reaches 3 x ga.fmax = %g Hz (highest %g Hz), expected a smaller fmax or a finer model", where, (double)(3 * g->fmax), g->nfull ? (double)(PetscSqrtReal(g->lam_full[g->nfull - 1]) / (2 * PETSC_PI * g->time_unit)) : 0.0);
  PetscCall(PetscPrintf(g->comm, "model %s (%s): %" PetscInt_FMT " DOFs\n", wname, wsource, g->n));
  PetscCall(DRComponentDestroy(&world));
  PetscCall(GroupCondense(g));

  /* what identifies this optimisation in a checkpoint */
  PetscCall(PetscSNPrintf(g->signature, sizeof(g->signature), "n=%" PetscInt_FMT " nvar=%" PetscInt_FMT " nforced=%" PetscInt_FMT " b=%" PetscInt_FMT " method=%s inner=%" PetscInt_FMT " outer=%" PetscInt_FMT " tol=%g eres=%g pop=%" PetscInt_FMT " maxgen=%" PetscInt_FMT " pc=%g pm=%g seed=%lld stall=%" PetscInt_FMT "/%g", g->n, g->nvar, g->nforced, g->b, g->method, g->inner, g->outer, (double)g->idc_tol, (double)g->e_res, g->pop, g->maxgen, (double)g->pc, (double)g->pm, (long long)g->seed, g->stall_gens, (double)g->stall_tol));
  PetscCall(DRGAForcedString(g, fl, sizeof(fl)));
  PetscCall(PetscPrintf(g->comm, "ga: %" PetscInt_FMT " DOFs, %" PetscInt_FMT " forced masters (%s), %" PetscInt_FMT " candidate DOFs (genes); b = %" PetscInt_FMT " (f_b = %.4g Hz >= 3 x %g Hz); %s condensation; %" PetscInt_FMT " farm group(s) of %" PetscInt_FMT " rank(s)\n", g->n, g->nforced, fl, g->nvar, g->b, (double)(PetscSqrtReal(g->lam_full[g->b - 1]) / (2 * PETSC_PI * g->time_unit)), (double)g->fmax, g->method, g->ngroups, g->gs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
