/* Support ROMs: the shared eigenmodes (one SLEPc solve on the world), the
 * static modes s_i = K^{-1} b_i on the task farm (one MUMPS factorization of
 * K per rank group serves all of its supports; every result is streamed to
 * the checkpoint), then the Gram matrices of W = [Phi | s_1 .. s_k] with K,
 * M and I, from which every support ROM and transform is n x n work. */
#include "pmorimpl.h"

PetscErrorCode DRPMORGroupGet(DRPMOR pm, MPI_Comm group, DRPMORGroup *g)
{
  PetscMPIInt gs, ws;

  PetscFunctionBeginUser;
  if (g->key == group && g->K) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRPMORGroupDestroy(g));
  g->key = g->comm = group;
  PetscCallMPI(MPI_Comm_size(group, &gs));
  PetscCallMPI(MPI_Comm_size(pm->comm, &ws));
  if (gs == ws) g->K = pm->K, g->M = pm->M, g->comm = pm->comm; /* one group: the world's model */
  else {
    PetscInt       n;
    const DRLabel *lab, *wlab;
    DRUnits        s;
    PetscCall(DRModelCreateFull(pm->cfg, group, &g->model));
    PetscCall(DRModelToSeconds(pm->cfg, g->model, &s)); /* as the world's (pmor.c) */
    PetscCall(DRComponentGetOperators(g->model, &g->K, &g->M, NULL));
    PetscCall(DRComponentGetLabels(g->model, &n, &lab));
    PetscCall(DRComponentGetLabels(pm->model, NULL, &wlab));
    PetscCheck(n == pm->ndof, group, PETSC_ERR_PLIB, "the model built on a rank group has %" PetscInt_FMT " DOFs, the world's %" PetscInt_FMT, n, pm->ndof);
    for (PetscInt r = 0; r < n; r++) PetscCheck(lab[r] == wlab[r], group, PETSC_ERR_PLIB, "the model built on a rank group orders its DOFs differently");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORGroupDestroy(DRPMORGroup *g)
{
  PetscFunctionBeginUser;
  PetscCall(KSPDestroy(&g->ksp));
  PetscCall(DRComponentDestroy(&g->model));
  g->K = g->M = NULL;
  g->comm = g->key = MPI_COMM_NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  DRPMOR      pm;
  DRPMORGroup g;
} StaticCtx;

/* s = K^{-1} e_row gathered on the group's rank 0 */
static PetscErrorCode StaticTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *n, PetscReal **res)
{
  StaticCtx  *c  = (StaticCtx *)ctx;
  DRPMOR      pm = c->pm;
  Vec         b, s, s0;
  VecScatter  sc;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Static, 0, 0, 0, 0));
  PetscCall(DRPMORGroupGet(pm, group, &c->g));
  if (!c->g.ksp) {
    PC pc;
    PetscCall(KSPCreate(c->g.comm, &c->g.ksp));
    PetscCall(KSPSetOperators(c->g.ksp, c->g.K, c->g.K));
    PetscCall(KSPSetType(c->g.ksp, KSPPREONLY));
    PetscCall(KSPGetPC(c->g.ksp, &pc));
    PetscCall(PCSetType(pc, PCCHOLESKY));
    PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
    PetscCall(KSPSetOptionsPrefix(c->g.ksp, "pmor_static_"));
    PetscCall(KSPSetFromOptions(c->g.ksp));
    PetscCall(KSPSetUp(c->g.ksp));
  }
  PetscCall(MatCreateVecs(c->g.K, &s, &b));
  PetscCall(VecSet(b, 0));
  PetscCall(VecSetValue(b, pm->path_rows[pm->sup[task]], 1.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(KSPSolve(c->g.ksp, b, s));
  PetscCall(VecScatterCreateToZero(s, &sc, &s0));
  PetscCall(VecScatterBegin(sc, s, s0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, s, s0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCallMPI(MPI_Comm_rank(group, &rank));
  if (rank == 0) {
    const PetscScalar *a;
    PetscCall(PetscMalloc1(pm->ndof, res));
    PetscCall(VecGetArrayRead(s0, &a));
    for (PetscInt r = 0; r < pm->ndof; r++) (*res)[r] = PetscRealPart(a[r]);
    PetscCall(VecRestoreArrayRead(s0, &a));
    *n = pm->ndof;
  }
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&s0));
  PetscCall(VecDestroy(&s));
  PetscCall(VecDestroy(&b));
  PetscCall(PetscLogEventEnd(DRPMOR_Static, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the static modes on the farm, returned as world vectors */
static PetscErrorCode StaticModes(DRPMOR pm, Vec proto, Vec *S)
{
  DRFarm      farm;
  StaticCtx   c;
  PetscMPIInt rank;
  PetscReal   secs;
  PetscInt    ng;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.pm = pm, c.g.comm = c.g.key = MPI_COMM_NULL;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  PetscCall(DRFarmCreate(pm->comm, &farm));
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(pm->comm, &size));
    PetscCall(DRFarmSetGroupSize(farm, size)); /* default: one group, one factorization */
  }
  PetscCall(DRFarmSetConfig(farm, pm->cfg));
  PetscCall(DRFarmSetLabel(farm, "support"));
  PetscCall(DRFarmSetFromOptions(farm));
  PetscCall(DRFarmSetCheckpoint(farm, pm->ckpt, pm->sig));
  PetscCall(DRFarmGetGroup(farm, NULL, NULL, &ng));
  pm->ngroups = ng;
  PetscCall(PetscPrintf(pm->comm, "pmor: only B depends on p: one eigensolve (%" PetscInt_FMT " modes) and one factorization of K per rank group (%" PetscInt_FMT " group(s)) serve all %" PetscInt_FMT " supports; checkpoint %s\n", pm->m, ng, pm->k, pm->ckpt));
  PetscCall(DRFarmRun(farm, pm->k, StaticTask, &c));
  PetscCall(DRPMORGroupDestroy(&c.g));
  PetscCall(DRFarmGetStats(farm, &pm->computed, &pm->restored, &secs));
  PetscCall(PetscPrintf(pm->comm, "pmor: static modes: %" PetscInt_FMT " computed, %" PetscInt_FMT " restored in %.2f s\n", pm->computed, pm->restored, (double)secs));
  for (PetscInt i = 0; i < pm->k; i++) {
    Vec        s0;
    VecScatter sc;
    PetscCall(VecDuplicate(proto, &S[i]));
    PetscCall(VecScatterCreateToZero(S[i], &sc, &s0));
    if (rank == 0) {
      PetscInt         len;
      const PetscReal *r;
      PetscScalar     *a;
      PetscCall(DRFarmGetResult(farm, i, &len, &r));
      PetscCheck(len == pm->ndof, PETSC_COMM_SELF, PETSC_ERR_PLIB, "static mode %" PetscInt_FMT " has %" PetscInt_FMT " entries, expected %" PetscInt_FMT, i, len, pm->ndof);
      PetscCall(VecGetArray(s0, &a));
      for (PetscInt q = 0; q < len; q++) a[q] = r[q];
      PetscCall(VecRestoreArray(s0, &a));
    }
    PetscCall(VecScatterBegin(sc, s0, S[i], INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(sc, s0, S[i], INSERT_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&s0));
  }
  PetscCall(DRFarmDestroy(&farm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Gram matrices of W with K, M, I and the rows of W at the path DOFs.  With
 * K, M depending on p (pm->each: W = [V_1 .. V_k]) only the diagonal blocks
 * V_i^T K V_i, V_i^T M V_i are formed (the rest stays zero, unused); W^T W
 * is needed whole (Panzer's SVD of [V_1 .. V_k], V_i^T V_ref). */
PetscErrorCode DRPMORProject(DRPMOR pm, PetscInt nw, Vec *W)
{
  Vec          t, pv;
  PetscScalar *dots;
  IS           is;
  VecScatter   sc;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Project, 0, 0, 0, 0));
  PetscCall(VecDuplicate(W[0], &t));
  PetscCall(PetscMalloc4(nw * nw, &pm->GK, nw * nw, &pm->GM, nw * nw, &pm->GI, pm->npath * nw, &pm->Wp));
  PetscCall(PetscArrayzero(pm->GK, nw * nw));
  PetscCall(PetscArrayzero(pm->GM, nw * nw));
  PetscCall(PetscMalloc1(nw, &dots));
  for (PetscInt j = 0; j < nw; j++) {
    PetscInt c0 = pm->each ? (j / pm->n) * pm->n : 0, nc = pm->each ? pm->n : nw; /* the block of column j */
    PetscCall(MatMult(pm->K, W[j], t));
    PetscCall(VecMDot(t, nc, W + c0, dots));
    for (PetscInt i = 0; i < nc; i++) pm->GK[c0 + i + j * nw] = PetscRealPart(dots[i]);
    PetscCall(MatMult(pm->M, W[j], t));
    PetscCall(VecMDot(t, nc, W + c0, dots));
    for (PetscInt i = 0; i < nc; i++) pm->GM[c0 + i + j * nw] = PetscRealPart(dots[i]);
    PetscCall(VecMDot(W[j], nw, W, dots));
    for (PetscInt i = 0; i < nw; i++) pm->GI[i + j * nw] = PetscRealPart(dots[i]);
  }
  /* exact symmetry: the products differ from their transposes by round-off */
  for (PetscInt j = 0; j < nw; j++)
    for (PetscInt i = 0; i < j; i++) {
      PetscReal *G[3] = {pm->GK, pm->GM, pm->GI};
      for (int q = 0; q < 3; q++) G[q][i + j * nw] = G[q][j + i * nw] = 0.5 * (G[q][i + j * nw] + G[q][j + i * nw]);
    }
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, pm->npath, pm->path_rows, PETSC_USE_POINTER, &is));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, pm->npath, &pv));
  PetscCall(VecScatterCreate(W[0], is, pv, NULL, &sc));
  for (PetscInt j = 0; j < nw; j++) {
    const PetscScalar *a;
    PetscCall(VecScatterBegin(sc, W[j], pv, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, W[j], pv, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(pv, &a));
    for (PetscInt r = 0; r < pm->npath; r++) pm->Wp[r * nw + j] = PetscRealPart(a[r]);
    PetscCall(VecRestoreArrayRead(pv, &a));
  }
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&pv));
  PetscCall(ISDestroy(&is));
  PetscCall(PetscFree(dots));
  PetscCall(VecDestroy(&t));
  PetscCall(PetscLogEventEnd(DRPMOR_Project, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* raw support ROM i (basis V_i = W E_i: [Phi | s_i], or its own [Phi_i |
 * s_i]): M, K, B, C; the tool adds tool_m B B^T, tool_k B B^T (b_i^T V_i = B^T:
 * V_i^T (X + c b_i b_i^T) V_i = V_i^T X V_i + c B B^T) */
static PetscErrorCode RawROM(DRPMOR pm, PetscInt i, PetscReal *rom)
{
  PetscInt        n = pm->n, nw = pm->nw;
  const PetscInt *E = pm->E + i * n;
  PetscReal      *M = rom, *K = rom + n * n, *B = rom + 2 * n * n, *C = B + n;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < n; b++) {
    B[b] = pm->Wp[pm->sup[i] * nw + E[b]];
    C[b] = B[b]; /* y = b_i^T q: the deflection under the load */
  }
  for (PetscInt b = 0; b < n; b++)
    for (PetscInt a = 0; a < n; a++) {
      M[a + b * n] = pm->GM[E[a] + E[b] * nw] + pm->tool_m * B[a] * B[b];
      K[a + b * n] = pm->GK[E[a] + E[b] * nw] + pm->tool_k * B[a] * B[b];
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the raw ROMs of all supports from the Gram matrices */
PetscErrorCode DRPMORRawROMs(DRPMOR pm)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(pm->k * DRPMOR_ROMLEN(pm->n), &pm->raw));
  for (PetscInt i = 0; i < pm->k; i++) PetscCall(RawROM(pm, i, pm->raw + i * DRPMOR_ROMLEN(pm->n)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSupports(DRPMOR pm)
{
  DRModal          modal;
  Vec             *modes, *W;
  const PetscReal *freq;
  const char      *source;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Eigen, 0, 0, 0, 0));
  PetscCall(DRModalCreate(pm->comm, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, "pmor_"));
  PetscCall(DRComponentGetSource(pm->model, &source));
  PetscCall(DRModalSetOperators(modal, pm->K, pm->M, source));
  PetscCall(DRModalSetRange(modal, pm->nmodes, 0));
  PetscCall(DRModalSetTolerance(modal, pm->tol));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &pm->m, &freq, NULL, &modes, NULL));
  PetscCheck(pm->m >= 1 && pm->m < 1000, pm->comm, DR_ERR_INPUT, "pmor: the eigensolve returned %" PetscInt_FMT " modes, expected 1..999 (pmor.nmodes)", pm->m);
  PetscCall(PetscMalloc1(pm->m, &pm->freq));
  PetscCall(PetscArraycpy(pm->freq, freq, pm->m));
  PetscCall(PetscMalloc1(pm->k * pm->m, &pm->sfreq));
  for (PetscInt i = 0; i < pm->k; i++) PetscCall(PetscArraycpy(pm->sfreq + i * pm->m, freq, pm->m));
  PetscCall(PetscLogEventEnd(DRPMOR_Eigen, 0, 0, 0, 0));
  PetscCall(PetscPrintf(pm->comm, "pmor: %" PetscInt_FMT " eigenmodes, %.6g .. %.6g Hz\n", pm->m, (double)pm->freq[0], (double)pm->freq[pm->m - 1]));

  pm->nw = pm->m + pm->k;
  pm->n  = pm->m + 1;
  PetscCall(PetscMalloc1(pm->k * pm->n, &pm->E)); /* V_i = [Phi | s_i] */
  for (PetscInt i = 0; i < pm->k; i++) {
    for (PetscInt a = 0; a < pm->m; a++) pm->E[i * pm->n + a] = a;
    pm->E[i * pm->n + pm->m] = pm->m + i;
  }
  PetscCall(PetscMalloc1(pm->nw, &W));
  for (PetscInt a = 0; a < pm->m; a++) {
    PetscCall(VecDuplicate(modes[a], &W[a]));
    PetscCall(VecCopy(modes[a], W[a]));
  }
  PetscCall(DRModalDestroy(&modal));
  PetscCall(StaticModes(pm, W[0], W + pm->m));
  /* unit mass norm, as the eigenmodes: the span (the support ROM) is the
   * same, but the unweighted SVD of Panzer's method sees comparable columns */
  {
    Vec       t;
    PetscReal mn;
    PetscCall(VecDuplicate(W[0], &t));
    for (PetscInt i = 0; i < pm->k; i++) {
      PetscCall(MatMult(pm->M, W[pm->m + i], t));
      PetscCall(VecDotRealPart(t, W[pm->m + i], &mn));
      PetscCall(VecScale(W[pm->m + i], 1.0 / PetscSqrtReal(mn)));
    }
    PetscCall(VecDestroy(&t));
  }
  PetscCall(DRPMORProject(pm, pm->nw, W));
  PetscCall(VecDestroyVecs(pm->nw, &W));
  PetscCall(DRPMORRawROMs(pm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
