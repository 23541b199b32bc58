/* A superelement saved from an earlier Apply, put back into a reduction (the
 * CMS checkpoint, couple/checkpoint.c): the result of Apply is read from the
 * saved arrays instead of computed, and what later steps need of the
 * method's state is rebuilt exactly as Apply left it.
 *
 * Skipped: the component eigensolve, the constraint modes, the projection
 * (the saved T, K_r, M_r, component-mode frequencies are the results).
 * Redone for craig-bampton (the residuals of the error estimate and the
 * refinement by DRReductionEnrich need them): the boundary/interior
 * partition, K_II and M_II (submatrices), the kept modes (the interior
 * rows of T's modal columns, where BuildT put them verbatim; copied out only
 * for a saved phase 1, which has no T yet) and
 * ONE factorization of K_II made the way the original run made it: the
 * eigensolver's shift-and-invert factorization (a KSP with the eigensolver's
 * ST prefix, PREONLY + Cholesky + MUMPS, its options, ICNTL(13) = 1 as
 * DRModal sets it) or the standalone "<prefix>static_" one -- the saved
 * options prefix of the factor says which.  Same matrix, same options, same
 * ranks: MUMPS is deterministic, so the residuals and the continued
 * eigensolve of a refinement round are bit-identical to the uninterrupted
 * run's (tests/e2e/cms_resume.sh checks it). */
#include "fixed_interface.h"

/* The sizes and label arrays of the superelement (borrowed) and the options
 * prefix of the K_II factorization the kit holds ("" none). */
static PetscErrorCode SavedHeader(DRReduction r, DRFixedInterface *fi, DRReductionSaved *s)
{
  DRSuperelement *se = &r->se;
  const char     *p  = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->n        = se->n;
  s->nb       = se->nb;
  s->pnb      = se->pnb;
  s->nq       = se->nq;
  s->blabels  = se->blabels;
  s->pblabels = se->pblabels;
  s->qfreq_hz = se->qfreq_hz;
  /* the way the factorization was made, also when it is released now */
  if (fi) p = fi->fprefix;
  PetscCall(PetscStrncpy(s->factor, p ? p : "", sizeof(s->factor)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetSaved(DRReduction r, DRReductionSaved *s)
{
  PetscBool cb;

  PetscFunctionBeginUser;
  PetscCheck(r->applied, r->comm, PETSC_ERR_ORDER, "call DRReductionApply first");
  PetscCall(PetscStrcmp(r->type, DRREDUCTION_CRAIG_BAMPTON, &cb));
  PetscCall(SavedHeader(r, cb ? (DRFixedInterface *)r->data : NULL, s));
  s->K = r->se.K;
  s->M = r->se.M;
  PetscCall(DRReductionGetBasis(r, &s->T)); /* read back if it was put aside */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* fi->F as the original run made it (see the file comment); prefix: the
 * saved options prefix of that factor ("": none was made). */
static PetscErrorCode Refactor(DRFixedInterface *fi, DRReduction r, const char *prefix)
{
  PetscFunctionBeginUser;
  if (fi->nI == 0 || !prefix[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRFixedInterfaceSetFactorPrefix(fi, prefix));
  PetscCall(DRFixedInterfaceFactor(fi, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* craig-bampton: the kit as DRFixedInterfaceKeepFactor leaves it after Apply. */
static PetscErrorCode RestoreCraigBampton(DRReduction r, DRComponent c, const PetscBool isboundary[], const char *factor)
{
  DRSuperelement   *se = &r->se;
  DRFixedInterface *fi;
  DRLabel          *bl = se->blabels, *pbl = se->pblabels;
  PetscInt          nb = se->nb, pnb = se->pnb;

  PetscFunctionBeginUser;
  if (r->ops->destroy) PetscCall((*r->ops->destroy)(r));
  PetscCall(PetscNew(&fi));
  r->data      = fi;
  se->blabels  = NULL; /* SetUp makes its own boundary labels: the saved ones stay */
  se->pblabels = NULL;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, fi));
  PetscCheck(se->nb == nb, r->comm, DR_ERR_INPUT, "saved superelement of '%s': %" PetscInt_FMT " boundary DOFs, the component has %" PetscInt_FMT, fi->name, nb, se->nb);
  PetscCall(PetscFree(se->blabels));
  PetscCall(PetscFree(se->pblabels));
  se->blabels  = bl;
  se->pblabels = pbl;
  se->nb       = nb;
  se->pnb      = pnb;
  fi->nq       = se->nq; /* the kept vectors: the interior rows of T's columns nb .. */
  PetscCall(Refactor(fi, r, factor));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckPencil(DRReduction r)
{
  PetscBool cb;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(r->type, DRREDUCTION_CRAIG_BAMPTON, &cb));
  PetscCheck(cb, r->comm, PETSC_ERR_SUP, "a saved interface pencil needs a craig-bampton reduction, not %s", r->type);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetPencilSaved(DRReduction r, DRReductionSaved *s, PetscReal **lam, PetscReal *qtop_hz)
{
  DRSuperelement    *se = &r->se;
  DRFixedInterface  *fi = (DRFixedInterface *)r->data;
  const PetscReal   *l  = NULL;
  const PetscScalar **ph;
  PetscScalar       *t;
  PetscInt           ldt, li = 0;

  PetscFunctionBeginUser;
  PetscCall(CheckPencil(r));
  PetscCheck(fi && se->pblabels && !r->applied && !se->T && se->nq == fi->nq, r->comm, PETSC_ERR_ORDER, "call DRReductionInterfacePencil first");
  /* the factorization phase 2 uses (it would make it there): its prefix */
  PetscCall(DRFixedInterfaceFactor(fi, r));
  PetscCall(SavedHeader(r, fi, s));
  *qtop_hz = se->qtop_hz;
  PetscCall(PetscMalloc1(fi->nq + 1, lam));
  if (fi->nq) PetscCall(DRModalGetModes(fi->modal, NULL, NULL, &l, NULL, NULL));
  for (PetscInt k = 0; k < fi->nq; k++) (*lam)[k] = l[k];
  PetscCall(MatCreateDense(fi->comm, fi->re - fi->rs, PETSC_DECIDE, fi->n, fi->nq, NULL, &s->T));
  PetscCall(MatDenseGetLDA(s->T, &ldt));
  PetscCall(MatDenseGetArrayWrite(s->T, &t));
  PetscCall(PetscMalloc1(fi->nq + 1, &ph));
  for (PetscInt k = 0; k < fi->nq; k++) PetscCall(VecGetArrayRead(fi->modes[k], &ph[k]));
  for (PetscInt i = fi->rs; i < fi->re; i++) {
    PetscBool b = (PetscBool)(fi->bcol[i] >= 0);
    for (PetscInt k = 0; k < fi->nq; k++) t[i - fi->rs + k * ldt] = b ? 0 : ph[k][li];
    if (!b) li++;
  }
  for (PetscInt k = 0; k < fi->nq; k++) PetscCall(VecRestoreArrayRead(fi->modes[k], &ph[k]));
  PetscCall(PetscFree(ph));
  PetscCall(MatDenseRestoreArrayWrite(s->T, &t));
  PetscCall(MatAssemblyBegin(s->T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(s->T, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionRestorePencil(DRReduction r, DRComponent c, const PetscBool isboundary[], DRReductionSaved *s, PetscReal **lam, PetscReal qtop_hz)
{
  DRSuperelement   *se = &r->se;
  DRFixedInterface *fi;
  const char       *name;
  PetscInt          n, rows, cols;
  PetscMPIInt       size;
  PetscBool         same;

  PetscFunctionBeginUser;
  PetscCall(DRReductionSetUp(r));
  PetscCall(CheckPencil(r));
  PetscCall(DRComponentGetSize(c, &n));
  PetscCheck(s->T && s->n == n, r->comm, PETSC_ERR_ARG_SIZ, "saved interface pencil of %" PetscInt_FMT " DOFs for a component of %" PetscInt_FMT, s->n, n);
  PetscCall(MatGetSize(s->T, &rows, &cols));
  PetscCheck(rows == n && cols == s->nq, r->comm, PETSC_ERR_ARG_SIZ, "saved modes %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT, rows, cols, n, s->nq);
  PetscCall(DRSuperelementReset(se));
  r->applied = PETSC_FALSE;
  r->basis_released = PETSC_FALSE;
  if (r->ops->destroy) PetscCall((*r->ops->destroy)(r));
  PetscCall(PetscNew(&fi));
  r->data = fi;
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(PetscStrncpy(se->name, name, sizeof(se->name)));
  PetscCall(PetscStrncpy(se->method, r->type, sizeof(se->method)));
  se->n = n;
  PetscCall(DRFixedInterfaceSetUp(c, isboundary, se, fi));
  same = (PetscBool)(se->nb == s->nb && se->pnb == s->pnb);
  if (same) PetscCall(PetscArraycmp(se->pblabels, s->pblabels, s->pnb, &same));
  PetscCheck(same, r->comm, DR_ERR_INPUT, "saved interface pencil of '%s': %" PetscInt_FMT " boundary DOFs, the component has %" PetscInt_FMT " (or other labels)", fi->name, s->nb, se->nb);
  fi->nq = se->nq = s->nq;
  se->qfreq_hz = s->qfreq_hz;
  se->qtop_hz  = qtop_hz;
  s->qfreq_hz  = NULL;
  /* no basis yet: the modes kept as copies (the interior rows of the saved columns) */
  if (fi->nq > 0 && fi->nI > 0) {
    PetscCall(DRFixedInterfaceKeptVecs(fi, s->T, 0, fi->nq, &fi->kept));
    fi->nkept = fi->nq;
  }
  PetscCall(MatDestroy(&s->T));
  fi->lam0 = *lam;
  *lam     = NULL;
  PetscCall(Refactor(fi, r, s->factor));
  /* several ranks (or no interior / boundary): phase 1 made the full
   * constraint modes, which phase 2 multiplies (interface_basis.c) */
  PetscCallMPI(MPI_Comm_size(fi->comm, &size));
  if (size > 1) PetscCall(DRFixedInterfaceConstraintModes(fi, r));
  r->t_eig = r->t_static = r->t_project = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionRestore(DRReduction r, DRComponent c, const PetscBool isboundary[], DRReductionSaved *s)
{
  DRSuperelement *se = &r->se;
  const char     *name;
  PetscBool       cb;
  PetscInt        n, N = s->nb + s->nq, rows, cols;

  PetscFunctionBeginUser;
  PetscCall(DRReductionSetUp(r));
  PetscCall(DRComponentGetSize(c, &n));
  PetscCheck(s->T && s->n == n, r->comm, PETSC_ERR_ARG_SIZ, "saved superelement of %" PetscInt_FMT " DOFs for a component of %" PetscInt_FMT, s->n, n);
  PetscCall(MatGetSize(s->T, &rows, &cols));
  PetscCheck(rows == n && cols == N, r->comm, PETSC_ERR_ARG_SIZ, "saved basis %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT, rows, cols, n, N);
  PetscCall(DRSuperelementReset(se));
  PetscCall(DRReductionBasisNew_Private(r));
  r->applied = PETSC_FALSE;
  r->basis_released = PETSC_FALSE;
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(PetscStrncpy(se->name, name, sizeof(se->name)));
  PetscCall(PetscStrncpy(se->method, r->type, sizeof(se->method)));
  se->n        = n;
  se->nb       = s->nb;
  se->pnb      = s->pnb;
  se->nq       = s->nq;
  se->blabels  = s->blabels;
  se->pblabels = s->pblabels;
  se->qfreq_hz = s->qfreq_hz;
  se->qtop_hz  = 0; /* a stored superelement holds eigenmodes only: their highest */
  for (PetscInt k = 0; k < s->nq; k++) se->qtop_hz = PetscMax(se->qtop_hz, s->qfreq_hz[k]);
  se->K        = s->K;
  se->M        = s->M;
  se->T        = s->T;
  se->K_formed = PETSC_TRUE;
  s->blabels = s->pblabels = NULL; /* taken over */
  s->qfreq_hz = s->K = s->M = NULL;
  s->T                      = NULL;
  PetscCall(PetscStrcmp(r->type, DRREDUCTION_CRAIG_BAMPTON, &cb));
  if (cb) PetscCall(RestoreCraigBampton(r, c, isboundary, s->factor));
  r->t_eig = r->t_static = r->t_project = 0;
  r->applied                            = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
