/* Stiffness and mass that depend on the load position: the
 * moving tool adds a mass pmor.tool.mass and a spring to ground
 * pmor.tool.stiffness at the load point, distributed by the load's own
 * shape-function weights b(p):
 *   M(p) = M + m b(p) b(p)^T,   K(p) = K + k b(p) b(p)^T.
 * Then no eigensolve or factorization serves two supports: every support is
 * its own task on the farm (its own SLEPc eigensolve of (K(p_i), M(p_i)) and
 * MUMPS Cholesky of K(p_i) for the static mode K(p_i)^-1 b_i, on its rank
 * group), and its basis V_i = [Phi_i | s_i] is streamed to the checkpoint.
 * The world then holds W = [V_1 .. V_k] (nw = k n columns); the raw ROMs are
 * V_i^T K V_i + k B_i B_i^T (and M alike, B_i = V_i^T b_i), and the
 * compatible coordinates and interpolation work on them unchanged (compat.c;
 * Panzer through the eigendecomposition of W^T W).
 * The full model's FRF needs no factorization per position: with A(w) = K -
 * w^2 M + i w D and the rank-one tool term c(w) b b^T, c = k - w^2 m + i w
 * (alpha m + beta k) (Rayleigh damping of M(p), K(p)), Sherman-Morrison gives
 * exactly H(p, w) = h0 / (1 + c h0), h0 = b^T A(w)^-1 b. */
#include "pmorimpl.h"
#include <dynred/preflight.h>

typedef struct {
  DRPMOR      pm;
  DRPMORGroup g;
} EachCtx;

/* X + c e_row e_row^T on the group (a new matrix) */
static PetscErrorCode AddTool(Mat X, PetscInt row, PetscReal c, PetscMPIInt grank, Mat *Xp)
{
  PetscBool set, flg;
  PetscInt  rs, re;

  PetscFunctionBeginUser;
  (void)grank;
  PetscCall(MatDuplicate(X, MAT_COPY_VALUES, Xp));
  PetscCall(MatSetOption(*Xp, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)); /* a DOF without a diagonal entry */
  /* by the row's owner: the duplicate keeps MAT_NO_OFF_PROC_ENTRIES (one group of several ranks failed here on rank 0 only) */
  PetscCall(MatGetOwnershipRange(*Xp, &rs, &re));
  if (row >= rs && row < re && c != 0) PetscCall(MatSetValue(*Xp, row, row, c, ADD_VALUES));
  PetscCall(MatAssemblyBegin(*Xp, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*Xp, MAT_FINAL_ASSEMBLY));
  PetscCall(MatIsSymmetricKnown(X, &set, &flg));
  if (set) PetscCall(MatSetOption(*Xp, MAT_SYMMETRIC, flg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* append the group vector v to buf (on the group's rank 0) */
static PetscErrorCode Gather(Vec v, PetscMPIInt grank, PetscReal *buf)
{
  Vec        v0;
  VecScatter sc;

  PetscFunctionBeginUser;
  PetscCall(VecScatterCreateToZero(v, &sc, &v0));
  PetscCall(VecScatterBegin(sc, v, v0, INSERT_VALUES, SCATTER_FORWARD));
  PetscCall(VecScatterEnd(sc, v, v0, INSERT_VALUES, SCATTER_FORWARD));
  if (grank == 0) {
    const PetscScalar *a;
    PetscInt           len;
    PetscCall(VecGetLocalSize(v0, &len));
    PetscCall(VecGetArrayRead(v0, &a));
    for (PetscInt r = 0; r < len; r++) buf[r] = PetscRealPart(a[r]);
    PetscCall(VecRestoreArrayRead(v0, &a));
  }
  PetscCall(VecScatterDestroy(&sc));
  PetscCall(VecDestroy(&v0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* support `task`: [m, f_1 .. f_m (Hz), phi_1 .. phi_m, s] on the group's rank 0
 * (modes M(p_i)-normalized as SLEPc's, s scaled to unit M(p_i)-norm) */
static PetscErrorCode EachTask(MPI_Comm group, PetscInt task, void *ctx, PetscInt *nres, PetscReal **res)
{
  EachCtx         *c  = (EachCtx *)ctx;
  DRPMOR           pm = c->pm;
  PetscInt         row = pm->path_rows[pm->sup[task]], m, N = pm->ndof;
  Mat              Ki, Mi;
  DRModal          modal;
  KSP              ksp;
  PC               pc;
  Vec              b, s, t, *modes;
  const PetscReal *freq;
  const char      *source;
  PetscReal        mn, *buf = NULL;
  PetscMPIInt      grank;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRPMOR_Eigen, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(group, &grank));
  PetscCall(DRPMORGroupGet(pm, group, &c->g));
  PetscCall(AddTool(c->g.K, row, pm->tool_k, grank, &Ki));
  PetscCall(AddTool(c->g.M, row, pm->tool_m, grank, &Mi));
  PetscCall(DRModalCreate(c->g.comm, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, "pmor_"));
  PetscCall(DRComponentGetSource(pm->model, &source));
  PetscCall(DRModalSetOperators(modal, Ki, Mi, source));
  PetscCall(DRModalSetRange(modal, pm->nmodes, 0));
  PetscCall(DRModalSetTolerance(modal, pm->tol));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &m, &freq, NULL, &modes, NULL));
  PetscCheck(m >= 1 && m < 1000, c->g.comm, DR_ERR_INPUT, "pmor: the eigensolve of support %" PetscInt_FMT " returned %" PetscInt_FMT " modes, expected 1..999 (pmor.nmodes)", task, m);
  PetscCall(PetscLogEventEnd(DRPMOR_Eigen, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DRPMOR_Static, 0, 0, 0, 0));
  PetscCall(KSPCreate(c->g.comm, &ksp));
  PetscCall(KSPSetOperators(ksp, Ki, Ki));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(KSPSetOptionsPrefix(ksp, "pmor_static_"));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(MatCreateVecs(Ki, &s, &b));
  PetscCall(VecDuplicate(s, &t));
  PetscCall(VecSet(b, 0));
  if (grank == 0) PetscCall(VecSetValue(b, row, 1.0, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(KSPSolve(ksp, b, s));
  PetscCall(MatMult(Mi, s, t));
  PetscCall(VecDotRealPart(t, s, &mn));
  PetscCall(VecScale(s, 1.0 / PetscSqrtReal(mn)));
  if (grank == 0) {
    PetscCall(PetscMalloc1(1 + m + (m + 1) * N, &buf));
    buf[0] = (PetscReal)m;
    for (PetscInt a = 0; a < m; a++) buf[1 + a] = freq[a];
  }
  for (PetscInt a = 0; a <= m; a++) PetscCall(Gather(a < m ? modes[a] : s, grank, buf ? buf + 1 + m + a * N : NULL));
  if (grank == 0) *nres = 1 + m + (m + 1) * N, *res = buf;
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&s));
  PetscCall(VecDestroy(&t));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(DRModalDestroy(&modal));
  PetscCall(MatDestroy(&Ki));
  PetscCall(MatDestroy(&Mi));
  PetscCall(PetscLogEventEnd(DRPMOR_Static, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: every support's result holds m modes and its static shape */
static PetscErrorCode SameModeCounts(DRPMOR pm, DRFarm farm, PetscInt *m)
{
  PetscInt N = pm->ndof;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < pm->k; i++) {
    PetscInt         len, mi;
    const PetscReal *r;
    PetscCall(DRFarmGetResult(farm, i, &len, &r));
    mi = (PetscInt)r[0];
    if (i == 0) *m = mi;
    /* the farm's results are addressed by task, so this check is the same on any number of ranks */
    PetscCheck(mi == *m && len == 1 + *m + (*m + 1) * N, PETSC_COMM_SELF, DR_ERR_INPUT, "pmor: support %" PetscInt_FMT " has %" PetscInt_FMT " eigenmodes, support 0 has %" PetscInt_FMT ", expected the same number everywhere (pmor.nmodes)", i, mi, *m);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the bases of all supports as world vectors W[i n + a] (rank 0 holds the
 * farm's results) */
static PetscErrorCode Bases(DRPMOR pm, DRFarm farm, Vec proto, Vec **W)
{
  PetscMPIInt rank;
  PetscInt    m = 0, N = pm->ndof;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(pm->comm, &rank));
  /* rank 0 holds the results: its verdict reaches every rank */
  PetscCall(DRRootAgree(pm->comm, rank ? PETSC_SUCCESS : SameModeCounts(pm, farm, &m)));
  PetscCallMPI(MPI_Bcast(&m, 1, MPIU_INT, 0, pm->comm));
  pm->m = m, pm->n = m + 1, pm->nw = pm->k * pm->n;
  PetscCall(PetscMalloc1(pm->k * m, &pm->sfreq));
  PetscCall(PetscMalloc1(m, &pm->freq));
  PetscCall(PetscMalloc1(pm->k * pm->n, &pm->E));
  for (PetscInt q = 0; q < pm->k * pm->n; q++) pm->E[q] = q; /* V_i = W[:, i n .. i n + n - 1] */
  PetscCall(PetscMalloc1(pm->nw, W));
  for (PetscInt i = 0; i < pm->k; i++) {
    const PetscReal *r = NULL;
    PetscInt         len;
    if (rank == 0) {
      PetscCall(DRFarmGetResult(farm, i, &len, &r));
      PetscCall(PetscArraycpy(pm->sfreq + i * m, r + 1, m));
    }
    for (PetscInt a = 0; a < pm->n; a++) {
      Vec        v0;
      VecScatter sc;
      Vec       *w = *W + i * pm->n + a;
      PetscCall(VecDuplicate(proto, w));
      PetscCall(VecScatterCreateToZero(*w, &sc, &v0));
      if (rank == 0) {
        PetscScalar *x;
        PetscCall(VecGetArray(v0, &x));
        for (PetscInt q = 0; q < N; q++) x[q] = r[1 + m + a * N + q];
        PetscCall(VecRestoreArray(v0, &x));
      }
      PetscCall(VecScatterBegin(sc, v0, *w, INSERT_VALUES, SCATTER_REVERSE));
      PetscCall(VecScatterEnd(sc, v0, *w, INSERT_VALUES, SCATTER_REVERSE));
      PetscCall(VecScatterDestroy(&sc));
      PetscCall(VecDestroy(&v0));
    }
  }
  PetscCallMPI(MPI_Bcast(pm->sfreq, (PetscMPIInt)(pm->k * m), MPIU_REAL, 0, pm->comm));
  PetscCall(PetscArraycpy(pm->freq, pm->sfreq + pm->ref * m, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORSupportsEach(DRPMOR pm)
{
  DRFarm    farm;
  EachCtx   c;
  PetscReal secs, fmin = PETSC_MAX_REAL, fmax = 0;
  PetscInt  ng;
  Vec       proto, *W;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.pm = pm, c.g.comm = c.g.key = MPI_COMM_NULL;
  PetscCall(DRFarmCreate(pm->comm, &farm));
  PetscCall(DRFarmSetConfig(farm, pm->cfg));
  PetscCall(DRFarmSetLabel(farm, "support"));
  PetscCall(DRFarmSetFromOptions(farm));
  PetscCall(DRFarmSetCheckpoint(farm, pm->ckpt, pm->sig));
  PetscCall(DRFarmGetGroup(farm, NULL, NULL, &ng));
  pm->ngroups = ng;
  PetscCall(PetscPrintf(pm->comm, "pmor: K, M depend on p: each support solved on its own (tool mass %g, stiffness %g at the load point): %" PetscInt_FMT " eigensolves of (K(p_i), M(p_i)) and factorizations of K(p_i) on %" PetscInt_FMT " rank group(s); checkpoint %s\n", (double)pm->tool_m, (double)pm->tool_k, pm->k, ng, pm->ckpt));
  PetscCall(DRFarmRun(farm, pm->k, EachTask, &c));
  PetscCall(DRPMORGroupDestroy(&c.g));
  PetscCall(DRFarmGetStats(farm, &pm->computed, &pm->restored, &secs));
  PetscCall(PetscPrintf(pm->comm, "pmor: supports: %" PetscInt_FMT " computed, %" PetscInt_FMT " restored in %.2f s\n", pm->computed, pm->restored, (double)secs));
  PetscCall(MatCreateVecs(pm->K, &proto, NULL));
  PetscCall(Bases(pm, farm, proto, &W));
  PetscCall(VecDestroy(&proto));
  PetscCall(DRFarmDestroy(&farm));
  for (PetscInt q = 0; q < pm->k * pm->m; q++) fmin = PetscMin(fmin, pm->sfreq[q]), fmax = PetscMax(fmax, pm->sfreq[q]);
  PetscCall(PetscPrintf(pm->comm, "pmor: %" PetscInt_FMT " eigenmodes per support, %.6g .. %.6g Hz over the supports\n", pm->m, (double)fmin, (double)fmax));
  PetscCall(DRPMORProject(pm, pm->nw, W));
  PetscCall(VecDestroyVecs(pm->nw, &W));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* h <- h / (1 + c h): the full FRF with the tool from the one without it */
PetscErrorCode DRPMORToolSM(DRPMOR pm, PetscReal w, PetscReal h[2])
{
  PetscReal cr = pm->tool_k - w * w * pm->tool_m, ci = w * (pm->alpha * pm->tool_m + pm->beta * pm->tool_k);
  PetscReal dr = 1 + cr * h[0] - ci * h[1], di = cr * h[1] + ci * h[0], d2 = dr * dr + di * di;
  PetscReal hr = h[0], hi = h[1];

  PetscFunctionBeginUser;
  PetscCheck(d2 > 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "pmor: the full model with the tool is singular at omega = %g (1 + c b^T A^-1 b = 0)", (double)w);
  h[0] = (hr * dr + hi * di) / d2;
  h[1] = (hi * dr - hr * di) / d2;
  PetscFunctionReturn(PETSC_SUCCESS);
}
