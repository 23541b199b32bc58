/* Free-interface CMS in residual-flexibility form (Craig-Chang primal form
 * of MacNeal/Rubin; METHODS.md 1.3 -- the printed Hintz transformation of
 * Maulik, Riordan and Walsh is not implementable):
 *   free modes Phi = [Phi_r Phi_k] of the whole component (K, M);
 *   inertia relief P = I - M Phi_r Phi_r^T;
 *   G_c = flexibility with a statically determinate support O fixed
 *         (K^{-1} for a supported component);
 *   G = P^T G_c P E_B - Phi_k Lambda_k^{-1} Phi_k^T E_B   (residual flexibility, boundary columns);
 *   Psi_B = G (G_BB)^{-1};  T = [Psi_B, Phi - Psi_B Phi_B]   coordinates (u_B, eta).
 * Boundary rows of T are [I 0], so assembly by boundary label is the same as
 * for Craig-Bampton.  One MUMPS factorization of K_O, one block solve. */
#include "free_interface.h"
#include <dynred/modal.h>
#include <petscblaslapack.h>

/* What the steps read of the component (through its accessors) and the
 * rows this rank owns. */
typedef struct {
  MPI_Comm       comm;
  Mat            K, M;
  PetscInt       n, rs, re, nloc;
  const DRLabel *labels;
  const char    *source, *name;
} Comp;

static PetscErrorCode CompGet(DRComponent c, Comp *cc)
{
  PetscFunctionBeginUser;
  PetscCall(DRComponentGetComm(c, &cc->comm));
  PetscCall(DRComponentGetOperators(c, &cc->K, &cc->M, NULL));
  PetscCall(DRComponentGetLabels(c, &cc->n, &cc->labels));
  PetscCall(DRComponentGetSource(c, &cc->source));
  PetscCall(DRComponentGetName(c, &cc->name));
  PetscCall(MatGetOwnershipRange(cc->K, &cc->rs, &cc->re));
  cc->nloc = cc->re - cc->rs;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows of the dense n x k "matrix" given by k Vecs at the boundary DOFs, as
 * a replicated nb x k column-major array. */
static PetscErrorCode BoundaryRows(const Comp *c, const PetscInt bcol[], PetscInt nb, PetscInt k, Vec v[], PetscReal **out)
{
  PetscInt   rs = c->rs, re = c->re;
  PetscReal *loc;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(nb * k + 1, &loc));
  PetscCall(PetscMalloc1(nb * k + 1, out));
  for (PetscInt j = 0; j < k; j++) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(v[j], &a));
    for (PetscInt i = rs; i < re; i++)
      if (bcol[i] >= 0) loc[bcol[i] + j * nb] = PetscRealPart(a[i - rs]);
    PetscCall(VecRestoreArrayRead(v[j], &a));
  }
  PetscCall(MPIU_Allreduce(loc, *out, nb * k, MPIU_REAL, MPIU_SUM, c->comm));
  PetscCall(PetscFree(loc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Statically determinate support: r DOFs whose rows of Phi_r are independent,
 * chosen greedily (column-pivoted QR of Phi_r^T), among `allowed` DOFs (all
 * when NULL).  Fails when fewer than r independent rows exist. */
static PetscErrorCode ChooseSupport(const Comp *c, PetscInt r, Vec phir[], const PetscBool allowed[], const char *setname, PetscInt O[])
{
  PetscInt   rs = c->rs, nloc = c->nloc;
  PetscReal *R, first = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(nloc * r + 1, &R));
  for (PetscInt j = 0; j < r; j++) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(phir[j], &a));
    for (PetscInt i = 0; i < nloc; i++) R[i + j * nloc] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(phir[j], &a));
  }
  for (PetscInt s = 0; s < r; s++) {
    struct {
      PetscReal v;
      int       r;
    } loc = {-1, 0}, glob;
    PetscInt    best = -1, gbest;
    PetscReal   row[6], nrm;
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
    for (PetscInt i = 0; i < nloc; i++) {
      PetscReal q = 0;
      if (allowed && !allowed[rs + i]) continue;
      for (PetscInt j = 0; j < r; j++) q += PetscSqr(R[i + j * nloc]);
      if (q > loc.v) {
        loc.v = q;
        best  = i;
      }
    }
    loc.r = rank;
    PetscCallMPI(MPI_Allreduce(&loc, &glob, 1, MPI_DOUBLE_INT, MPI_MAXLOC, c->comm));
    if (!s) first = glob.v;
    PetscCheck(glob.v > 1e-16 * first && glob.v > 0, c->comm, DR_ERR_INPUT, "%s: component '%s': support %s%s%s removes only %" PetscInt_FMT " of its %" PetscInt_FMT " rigid-body motions; expected a statically determinate support", c->source, c->name, setname ? "set '" : "", setname ? setname : "choice", setname ? "'" : "", s, r);
    gbest = rank == glob.r ? rs + best : 0;
    if (rank == glob.r)
      for (PetscInt j = 0; j < r; j++) row[j] = R[best + j * nloc];
    PetscCallMPI(MPI_Bcast(&gbest, 1, MPIU_INT, glob.r, c->comm));
    PetscCallMPI(MPI_Bcast(row, (PetscMPIInt)r, MPIU_REAL, glob.r, c->comm));
    O[s] = gbest;
    nrm  = PetscSqrtReal(glob.v);
    for (PetscInt j = 0; j < r; j++) row[j] /= nrm;
    /* R <- R (I - v v^T) */
    for (PetscInt i = 0; i < nloc; i++) {
      PetscReal d = 0;
      for (PetscInt j = 0; j < r; j++) d += R[i + j * nloc] * row[j];
      for (PetscInt j = 0; j < r; j++) R[i + j * nloc] -= d * row[j];
    }
  }
  PetscCall(PetscFree(R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  char              support[64]; /* node set of a statically determinate support ("" automatic) */
  DRFixedInterface *est;         /* the estimate's kit: partition and K_II factor (NULL until asked for) */
  PetscReal        *Sc;          /* the boundary Schur complement of the kit (rank 0; NULL until asked for) */
} DRReduction_FreeInterface;

/* The free modes of a component and what the steps need of them. */
typedef struct {
  DRModal          modal;
  PetscInt         nm, nr, nk; /* modes; rigid-body (first nr); flexible */
  const PetscReal *f, *lam;
  Vec             *phi;
} FreeModes;

/* 1. free modes of the whole component; rigid-body ones by tolerance
 * (se->nq, se->qfreq_hz: every mode kept) */
static PetscErrorCode ComputeFreeModes(DRReduction r, const Comp *c, FreeModes *fm, DRSuperelement *se)
{
  PetscReal sigma;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(DRModalCreate(c->comm, &fm->modal));
  PetscCall(DRModalSetOptionsPrefix(fm->modal, DRReductionPrefix(r)));
  PetscCall(DRModalSetOperators(fm->modal, c->K, c->M, c->source));
  if (r->cutoff_hz > 0) PetscCall(DRModalSetRange(fm->modal, 0, r->cutoff_hz));
  else PetscCall(DRModalSetRange(fm->modal, r->nmodes, 0));
  PetscCall(DRModalSetSlicing(fm->modal, PETSC_FALSE));
  PetscCall(DRModalSetDenseMax(fm->modal, DR_COMPONENT_DENSE_MAX));
  PetscCall(DRModalSetPurify(fm->modal, DR_COMPONENT_PURIFY));
  PetscCall(DRModalSetFromOptions(fm->modal));
  PetscCall(DRModalSolve(fm->modal));
  PetscCall(DRModalGetModes(fm->modal, &fm->nm, &fm->f, &fm->lam, &fm->phi, NULL));
  PetscCall(DRModalGetScale(fm->modal, &sigma));
  PetscCall(PetscLogEventEnd(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DRRED_Constraint, 0, 0, 0, 0));
  fm->nr = 0;
  while (fm->nr < fm->nm && PetscAbsReal(fm->lam[fm->nr]) < 1e-6 * PetscAbsReal(sigma)) fm->nr++;
  PetscCheck(fm->nr <= 6, c->comm, DR_ERR_INPUT, "%s: component '%s' has %" PetscInt_FMT " zero-frequency modes, expected at most 6 rigid-body modes (mechanism or disconnected parts?)", c->source, c->name, fm->nr);
  PetscCheck(fm->nr < fm->nm || fm->nm == 0 || r->cutoff_hz > 0, c->comm, DR_ERR_INPUT, "%s: component '%s': all %" PetscInt_FMT " requested modes are rigid-body modes; request more modes (cms.component_modes) so flexible ones are kept", c->source, c->name, fm->nm);
  fm->nk = fm->nm - fm->nr;
  se->nq = fm->nm;
  PetscCall(PetscMalloc1(se->nq + 1, &se->qfreq_hz));
  for (PetscInt k = 0; k < se->nq; k++) se->qfreq_hz[k] = fm->f[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2. support O: user node set or automatic; K_O = K with O fixed */
static PetscErrorCode SupportedStiffness(DRComponent comp, const Comp *c, const char support[], const FreeModes *fm, PetscInt O[], Mat *KO)
{
  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(c->K, MAT_COPY_VALUES, KO));
  if (fm->nr > 0) {
    PetscBool *allowed = NULL;
    if (support[0]) {
      DRNodeSet *set;
      PetscCall(DRComponentGetNodeSet(comp, support, &set));
      if (set) {
        PetscCall(PetscCalloc1(c->n, &allowed));
        for (PetscInt i = 0; i < c->n; i++) {
          PetscInt node = (PetscInt)DRLabelNode(c->labels[i]);
          for (PetscInt s = 0; s < set->n; s++)
            if (set->nodes[s] == node) allowed[i] = PETSC_TRUE;
        }
      }
    }
    PetscCall(ChooseSupport(c, fm->nr, fm->phi, allowed, allowed ? support : NULL, O));
    PetscCall(PetscFree(allowed));
    PetscCall(MatZeroRowsColumns(*KO, fm->nr, O, 1.0, NULL, NULL));
  }
  PetscCall(MatSetOption(*KO, MAT_SPD, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 3. F = P E_B = E_B - (M Phi_r) Phi_r[B,:]^T, zero at O */
static PetscErrorCode InertiaReliefLoads(const Comp *c, const PetscInt bcol[], PetscInt nb, const FreeModes *fm, const PetscInt O[], Mat *Fout)
{
  PetscInt     rs = c->rs, re = c->re, nloc = c->nloc, nr = fm->nr, lda;
  PetscScalar *a;
  PetscReal   *PrB = NULL;
  Vec          mphi;
  Mat          F;

  PetscFunctionBeginUser;
  PetscCall(MatCreateDense(c->comm, nloc, PETSC_DECIDE, c->n, nb, NULL, &F));
  PetscCall(MatDenseGetArray(F, &a));
  PetscCall(MatDenseGetLDA(F, &lda));
  for (PetscInt j = 0; j < nb; j++)
    for (PetscInt i = 0; i < nloc; i++) a[i + j * lda] = (bcol[rs + i] == j) ? 1.0 : 0.0;
  if (nr) {
    PetscCall(BoundaryRows(c, bcol, nb, nr, fm->phi, &PrB));
    PetscCall(VecDuplicate(fm->phi[0], &mphi));
    for (PetscInt k = 0; k < nr; k++) {
      const PetscScalar *m;
      PetscCall(MatMult(c->M, fm->phi[k], mphi));
      PetscCall(VecGetArrayRead(mphi, &m));
      for (PetscInt j = 0; j < nb; j++)
        for (PetscInt i = 0; i < nloc; i++) a[i + j * lda] -= m[i] * PrB[j + k * nb];
      PetscCall(VecRestoreArrayRead(mphi, &m));
    }
    PetscCall(VecDestroy(&mphi));
    for (PetscInt s = 0; s < nr; s++)
      if (O[s] >= rs && O[s] < re)
        for (PetscInt j = 0; j < nb; j++) a[O[s] - rs + j * lda] = 0;
  }
  PetscCall(PetscFree(PrB));
  PetscCall(MatDenseRestoreArray(F, &a));
  PetscCall(MatAssemblyBegin(F, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(F, MAT_FINAL_ASSEMBLY));
  *Fout = F;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 4. Y = G_c F: one factorization, one block solve */
static PetscErrorCode SupportedSolve(DRReduction r, Mat KO, Mat F, Mat *Y)
{
  MatFactorInfo info;
  Mat           Fac;
  char          prefix[256];

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRRED_Factor, 0, 0, 0, 0));
  PetscCall(PetscSNPrintf(prefix, sizeof(prefix), "%sstatic_", DRReductionPrefix(r)));
  PetscCall(MatGetFactor(KO, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &Fac));
  PetscCall(MatSetOptionsPrefix(Fac, prefix));
  PetscCall(MatSetFromOptions(Fac));
  PetscCall(MatFactorInfoInitialize(&info));
  PetscCall(MatCholeskyFactorSymbolic(Fac, KO, NULL, &info));
  PetscCall(MatCholeskyFactorNumeric(Fac, KO, &info));
  PetscCall(MatDuplicate(F, MAT_DO_NOT_COPY_VALUES, Y));
  PetscCall(DRReductionBlockSolve(Fac, F, *Y));
  PetscCall(MatDestroy(&Fac));
  PetscCall(PetscLogEventEnd(DRRED_Factor, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 5. G = P^T Y - Phi_k Lambda_k^{-1} Phi_k[B,:]^T, with P^T = I - Phi_r Phi_r^T M
 * (in place in Y) */
static PetscErrorCode ResidualFlexibility(const Comp *c, const PetscInt bcol[], PetscInt nb, const FreeModes *fm, Mat Y)
{
  PetscInt     nloc = c->nloc, nr = fm->nr, nk = fm->nk, ldy;
  PetscScalar *y;
  PetscReal   *W = NULL, *PkB = NULL;
  Mat          MY;

  PetscFunctionBeginUser;
  if (nr) {
    /* W = Phi_r^T M Y (nr x nb), replicated */
    PetscReal         *loc;
    const PetscScalar *my;
    PetscInt           ldm;
    PetscCall(MatMatMult(c->M, Y, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &MY));
    PetscCall(PetscCalloc1(nr * nb, &loc));
    PetscCall(PetscMalloc1(nr * nb, &W));
    PetscCall(MatDenseGetArrayRead(MY, &my));
    PetscCall(MatDenseGetLDA(MY, &ldm));
    for (PetscInt k = 0; k < nr; k++) {
      const PetscScalar *p;
      PetscCall(VecGetArrayRead(fm->phi[k], &p));
      for (PetscInt j = 0; j < nb; j++)
        for (PetscInt i = 0; i < nloc; i++) loc[k + j * nr] += PetscRealPart(p[i]) * PetscRealPart(my[i + j * ldm]);
      PetscCall(VecRestoreArrayRead(fm->phi[k], &p));
    }
    PetscCall(MatDenseRestoreArrayRead(MY, &my));
    PetscCall(MPIU_Allreduce(loc, W, nr * nb, MPIU_REAL, MPIU_SUM, c->comm));
    PetscCall(PetscFree(loc));
    PetscCall(MatDestroy(&MY));
  }
  if (nk) PetscCall(BoundaryRows(c, bcol, nb, nk, fm->phi + nr, &PkB));
  PetscCall(MatDenseGetArray(Y, &y));
  PetscCall(MatDenseGetLDA(Y, &ldy));
  for (PetscInt k = 0; k < nr + nk; k++) {
    const PetscScalar *p;
    PetscCall(VecGetArrayRead(fm->phi[k], &p));
    for (PetscInt j = 0; j < nb; j++) {
      PetscReal coef = k < nr ? W[k + j * nr] : PkB[j + (k - nr) * nb] / fm->lam[k];
      for (PetscInt i = 0; i < nloc; i++) y[i + j * ldy] -= PetscRealPart(p[i]) * coef;
    }
    PetscCall(VecRestoreArrayRead(fm->phi[k], &p));
  }
  PetscCall(MatDenseRestoreArray(Y, &y));
  PetscCall(PetscFree(W));
  PetscCall(PetscFree(PkB));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 6. Ginv = (G_BB)^{-1}, replicated */
static PetscErrorCode InvertBoundaryFlexibility(const Comp *c, const PetscInt bcol[], PetscInt nb, Mat Y, const DRSuperelement *se, PetscReal **Ginv_out)
{
  PetscInt           rs = c->rs, nloc = c->nloc, ldy;
  PetscReal         *loc, *Ginv;
  const PetscScalar *y;
  PetscBLASInt       n, info, *ipiv, lwork;
  PetscReal         *work, umin = PETSC_MAX_REAL, umax = 0;
  char               b1[32];

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(nb * nb, &loc));
  PetscCall(PetscMalloc1(nb * nb, &Ginv));
  PetscCall(MatDenseGetArrayRead(Y, &y));
  PetscCall(MatDenseGetLDA(Y, &ldy));
  for (PetscInt i = 0; i < nloc; i++)
    if (bcol[rs + i] >= 0)
      for (PetscInt j = 0; j < nb; j++) loc[bcol[rs + i] + j * nb] = PetscRealPart(y[i + j * ldy]);
  PetscCall(MatDenseRestoreArrayRead(Y, &y));
  PetscCall(MPIU_Allreduce(loc, Ginv, nb * nb, MPIU_REAL, MPIU_SUM, c->comm));
  PetscCall(PetscFree(loc));
  for (PetscInt i = 0; i < nb; i++)
    for (PetscInt j = i + 1; j < nb; j++) Ginv[i + j * nb] = Ginv[j + i * nb] = 0.5 * (Ginv[i + j * nb] + Ginv[j + i * nb]);
  PetscCall(PetscBLASIntCast(nb, &n));
  lwork = 4 * n;
  PetscCall(PetscMalloc2(nb, &ipiv, 4 * nb, &work));
  LAPACKgetrf_(&n, &n, Ginv, &n, ipiv, &info);
  for (PetscInt i = 0; i < nb; i++) {
    umin = PetscMin(umin, PetscAbsReal(Ginv[i + i * nb]));
    umax = PetscMax(umax, PetscAbsReal(Ginv[i + i * nb]));
  }
  PetscCheck(!info && umin > 1e-13 * umax, c->comm, DR_ERR_INPUT, "%s: free-interface reduction of '%s': the residual flexibility at its %" PetscInt_FMT " boundary DOFs (first %s) is singular (pivot ratio %.1e): too many component modes for this interface; keep fewer modes or use craig-bampton", c->source, c->name, nb, DRLabelString(se->blabels[0], b1), (double)(umax > 0 ? umin / umax : 0));
  LAPACKgetri_(&n, Ginv, &n, ipiv, work, &lwork, &info);
  PetscCall(PetscFree2(ipiv, work));
  *Ginv_out = Ginv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 7. T = [Psi_B, Phi - Psi_B Phi_B] with Psi_B = G Ginv; boundary rows [I 0] */
static PetscErrorCode BuildBasis(const Comp *c, const PetscInt bcol[], PetscInt nb, const FreeModes *fm, Mat Y, const PetscReal Ginv[], DRSuperelement *se)
{
  PetscInt           rs = c->rs, nloc = c->nloc, nq = se->nq, ldy, ldt;
  const PetscScalar *y;
  PetscScalar       *t;
  PetscReal         *Psi, *PhiB;

  PetscFunctionBeginUser;
  PetscCall(MatCreateDense(c->comm, nloc, PETSC_DECIDE, c->n, nb + nq, NULL, &se->T));
  PetscCall(BoundaryRows(c, bcol, nb, nq, fm->phi, &PhiB));
  PetscCall(MatDenseGetArrayRead(Y, &y));
  PetscCall(MatDenseGetLDA(Y, &ldy));
  PetscCall(MatDenseGetArray(se->T, &t));
  PetscCall(MatDenseGetLDA(se->T, &ldt));
  PetscCall(PetscMalloc1(nloc * nb + 1, &Psi));
  if (nloc) {
    PetscBLASInt m, n, ld;
    PetscScalar  alpha = 1, beta = 0;
    PetscCall(PetscBLASIntCast(nloc, &m));
    PetscCall(PetscBLASIntCast(nb, &n));
    PetscCall(PetscBLASIntCast(ldy, &ld));
    BLASgemm_("N", "N", &m, &n, &n, &alpha, y, &ld, Ginv, &n, &beta, Psi, &m);
  }
  for (PetscInt i = 0; i < nloc; i++) {
    PetscInt bc = bcol[rs + i];
    for (PetscInt j = 0; j < nb; j++) t[i + j * ldt] = bc >= 0 ? (bc == j ? 1.0 : 0.0) : Psi[i + j * nloc];
  }
  for (PetscInt k = 0; k < nq; k++) {
    const PetscScalar *p;
    PetscCall(VecGetArrayRead(fm->phi[k], &p));
    for (PetscInt i = 0; i < nloc; i++) {
      PetscReal v = 0;
      if (bcol[rs + i] < 0) {
        v = PetscRealPart(p[i]);
        for (PetscInt j = 0; j < nb; j++) v -= Psi[i + j * nloc] * PhiB[j + k * nb];
      }
      t[i + (nb + k) * ldt] = v;
    }
    PetscCall(VecRestoreArrayRead(fm->phi[k], &p));
  }
  PetscCall(PetscFree(Psi));
  PetscCall(PetscFree(PhiB));
  PetscCall(MatDenseRestoreArray(se->T, &t));
  PetscCall(MatDenseRestoreArrayRead(Y, &y));
  PetscCall(MatAssemblyBegin(se->T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(se->T, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionApply_FreeInterface(DRReduction r, DRComponent comp, const PetscBool isboundary[], DRSuperelement *se)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;
  Comp                       c;
  FreeModes                  fm;
  PetscInt                   nb = 0, *bcol, O[6] = {0};
  PetscReal                 *Ginv = NULL;
  Mat                        KO, F, Y;

  PetscFunctionBeginUser;
  PetscCall(CompGet(comp, &c));
  for (PetscInt i = 0; i < c.n; i++) nb += isboundary[i] ? 1 : 0;
  PetscCheck(nb > 0, c.comm, DR_ERR_INPUT, "%s: free-interface reduction of '%s' needs boundary DOFs", c.source, c.name);
  PetscCall(DRSuperelementSetBoundary(comp, isboundary, se, &bcol));
  PetscCall(ComputeFreeModes(r, &c, &fm, se));             /* 1 (opens DRRED_Constraint) */
  PetscCall(SupportedStiffness(comp, &c, fi->support, &fm, O, &KO)); /* 2 */
  PetscCall(InertiaReliefLoads(&c, bcol, nb, &fm, O, &F)); /* 3 */
  PetscCall(SupportedSolve(r, KO, F, &Y));                 /* 4 */
  PetscCall(ResidualFlexibility(&c, bcol, nb, &fm, Y));    /* 5 */
  PetscCall(InvertBoundaryFlexibility(&c, bcol, nb, Y, se, &Ginv)); /* 6 */
  PetscCall(BuildBasis(&c, bcol, nb, &fm, Y, Ginv, se));   /* 7 */
  PetscCall(PetscLogEventEnd(DRRED_Constraint, 0, 0, 0, 0));
  PetscCall(PetscFree(Ginv));
  PetscCall(MatDestroy(&KO));
  PetscCall(MatDestroy(&F));
  PetscCall(MatDestroy(&Y));
  PetscCall(DRModalDestroy(&fm.modal));
  PetscCall(PetscFree(bcol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionSetFromOptions_FreeInterface(DRReduction r, PetscOptionItems *PetscOptionsObject)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  PetscOptionsHeadBegin(PetscOptionsObject, "Free-interface reduction options");
  PetscCall(PetscOptionsString("-reduction_fi_support", "Node set of a statically determinate support for floating parts (empty: chosen automatically)", "DRReductionFreeInterfaceSetSupport", fi->support, fi->support, sizeof(fi->support), NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionView_FreeInterface(DRReduction r, PetscViewer viewer)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  PetscCall(PetscViewerASCIIPrintf(viewer, "support of floating parts: %s\n", fi->support[0] ? fi->support : "(automatic)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionDestroy_FreeInterface(DRReduction r)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  if (fi && fi->est) PetscCall(DRFixedInterfaceDestroy(fi->est));
  if (fi) PetscCall(PetscFree(fi->est));
  if (fi) PetscCall(PetscFree(fi->Sc));
  PetscCall(PetscFree(r->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool DRReductionIsFreeInterface(DRReduction r)
{
  return r && r->ops->apply == DRReductionApply_FreeInterface ? PETSC_TRUE : PETSC_FALSE;
}

/* The estimate's kit (free_interface.h): the boundary flags from the
 * superelement's physical boundary labels, so it works after Apply and
 * after a checkpoint restore alike; the partition does not change between
 * refinement rounds (more free modes keep the boundary), so it is made
 * once.  The factorization fails on a singular K_II (an interior that
 * floats with the boundary fixed), as Craig-Bampton would. */
PetscErrorCode DRFreeInterfaceEstimateKit(DRReduction r, DRComponent c, DRFixedInterface **out)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  if (!fi->est) {
    DRSuperelement tmp;
    PetscInt       n;
    const DRLabel *labels;
    PetscBool     *isb;
    PetscCall(DRComponentGetLabels(c, &n, &labels));
    PetscCall(PetscMalloc1(n + 1, &isb));
    for (PetscInt i = 0; i < n; i++) isb[i] = DRLabelsFind(r->se.pnb, r->se.pblabels, labels[i]) >= 0 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscMemzero(&tmp, sizeof(tmp)));
    PetscCall(PetscNew(&fi->est));
    PetscCall(DRFixedInterfaceSetUp(c, isb, &tmp, fi->est));
    PetscCall(DRSuperelementReset(&tmp)); /* the same boundary order as r->se (sorted labels) */
    PetscCall(PetscFree(isb));
    PetscCall(DRFixedInterfaceFactor(fi->est, r)); /* no eigensolver: its own MUMPS factorization of K_II */
  }
  *out = fi->est;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The residual of system modes on this component (residual.c): the same
 * split as for Craig-Bampton, with the kit's K_II factorization and this
 * component's basis T. */
static PetscErrorCode DRReductionResidual_FreeInterface(DRReduction r, DRComponent c, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB)
{
  DRFixedInterface *kit;

  PetscFunctionBeginUser;
  PetscCall(DRFreeInterfaceEstimateKit(r, c, &kit));
  PetscCall(DRFixedInterfaceFactor(kit, r)); /* made again if released (cms.keep_factors) */
  PetscCall(DRFixedInterfaceResidual(kit, c, &r->se, PETSC_FALSE, ncol, Qc, lam, eta2, gB));
  PetscCall(MatDestroy(&kit->Wres)); /* no residual corrections for free-interface components */
  kit->nWres = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* S_c of the component for the estimate's boundary term, once (it depends
 * on K and the boundary only); a copy for the caller. */
PetscErrorCode DRFreeInterfaceSchur(DRReduction r, DRComponent c, PetscReal **S)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;
  DRFixedInterface          *kit;
  PetscMPIInt                rank;

  PetscFunctionBeginUser;
  *S = NULL;
  PetscCall(DRFreeInterfaceEstimateKit(r, c, &kit));
  if (!fi->Sc) PetscCall(DRFixedInterfaceSchur(kit, r, &fi->Sc)); /* through DRFixedInterfaceFactor */
  PetscCallMPI(MPI_Comm_rank(kit->comm, &rank));
  if (!rank) {
    PetscCall(PetscMalloc1(kit->nb * kit->nb + 1, S));
    PetscCall(PetscArraycpy(*S, fi->Sc, kit->nb * kit->nb));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionFreeInterfaceSetSupport(DRReduction r, const char set[])
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  if (r->ops->apply != DRReductionApply_FreeInterface) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrncpy(fi->support, set ? set : "", sizeof(fi->support)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The estimate's kit holds the factorization (none before the first
 * residual). */
static PetscErrorCode DRReductionRelease_FreeInterface(DRReduction r, int what, PetscReal *freed_mib)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  if (freed_mib) *freed_mib = 0;
  if (fi->est) PetscCall(DRFixedInterfaceRelease(fi->est, what, freed_mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionFactorMiB_FreeInterface(DRReduction r, PetscReal *mib)
{
  DRReduction_FreeInterface *fi = (DRReduction_FreeInterface *)r->data;

  PetscFunctionBeginUser;
  *mib = 0;
  if (fi->est) PetscCall(DRFixedInterfaceFactorMiB(fi->est, mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate_FreeInterface(DRReduction r)
{
  DRReduction_FreeInterface *fi;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&fi));
  r->data                = fi;
  r->ops->apply          = DRReductionApply_FreeInterface;
  r->ops->setfromoptions = DRReductionSetFromOptions_FreeInterface;
  r->ops->view           = DRReductionView_FreeInterface;
  r->ops->residual       = DRReductionResidual_FreeInterface;
  r->ops->release        = DRReductionRelease_FreeInterface;
  r->ops->factormib      = DRReductionFactorMiB_FreeInterface;
  r->ops->destroy        = DRReductionDestroy_FreeInterface;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The component's share of the assembled boundary Schur complement, for the
 * estimate's boundary term when the assembled reduced matrix does not hold
 * it (a free-interface component's boundary block is Psi_B^T K Psi_B, not
 * S_c).  Craig-Bampton with the physical boundary: its reduced boundary
 * block K_BB + K_BI Phi_c is S_c exactly (no projection, fixed_interface.c);
 * free-interface: computed with the estimate's kit. */
PetscErrorCode DRReductionBoundarySchur(DRReduction r, DRComponent c, PetscReal **S, PetscBool *supported)
{
  PetscBool   cb;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  *S         = NULL;
  *supported = PETSC_FALSE;
  PetscCheck(r->applied, r->comm, PETSC_ERR_ORDER, "call DRReductionApply first");
  PetscCallMPI(MPI_Comm_rank(r->comm, &rank));
  if (DRReductionIsFreeInterface(r)) {
    PetscCall(DRFreeInterfaceSchur(r, c, S));
    *supported = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrcmp(r->type, DRREDUCTION_CRAIG_BAMPTON, &cb));
  if (!cb || r->se.nb != r->se.pnb) PetscFunctionReturn(PETSC_SUCCESS);
  *supported = PETSC_TRUE;
  if (!rank) {
    PetscInt nb = r->se.nb, N = r->se.nb + r->se.nq;
    PetscCall(PetscMalloc1(nb * nb + 1, S));
    for (PetscInt j = 0; j < nb; j++)
      for (PetscInt i = 0; i < nb; i++) (*S)[i + j * nb] = r->se.K[i + j * N];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
