/* SEREP (System Equivalent Reduction Expansion Process), METHODS.md 1.4:
 * T = Phi Phi_B^{-1} with Phi the nb lowest modes of the whole component
 * (free modes, rigid-body ones included) and Phi_B their boundary (master)
 * rows.  With as many modes as masters, Phi_B is square and the reduced
 * model reproduces exactly those nb modes; boundary rows of T are [I]. */
#include "reduceimpl.h"
#include <dynred/modal.h>
#include <petscblaslapack.h>

static PetscErrorCode DRReductionApply_SEREP(DRReduction r, DRComponent comp, const PetscBool isboundary[], DRSuperelement *se)
{
  MPI_Comm         comm;
  Mat              K, M;
  PetscInt         n;
  const char      *source, *name;
  PetscInt         nb = 0, rs, re, *bcol, nm, ldt;
  DRModal          modal;
  const PetscReal *f;
  Vec             *phi;
  PetscReal       *PB, *loc, *Pinv;
  PetscScalar     *t;
  char             b[32];

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetComm(comp, &comm));
  PetscCall(DRComponentGetOperators(comp, &K, &M, NULL));
  PetscCall(DRComponentGetSize(comp, &n));
  PetscCall(DRComponentGetSource(comp, &source));
  PetscCall(DRComponentGetName(comp, &name));
  for (PetscInt i = 0; i < n; i++) nb += isboundary[i] ? 1 : 0;
  PetscCheck(nb > 0 && nb < n, comm, DR_ERR_INPUT, "%s: SEREP of component '%s' needs 0 < masters < DOFs (got %" PetscInt_FMT " of %" PetscInt_FMT ")", source, name, nb, n);
  PetscCall(DRSuperelementSetBoundary(comp, isboundary, se, &bcol));
  se->nq = 0;
  PetscCall(PetscMalloc1(1, &se->qfreq_hz));
  /* the nb lowest modes of the whole component */
  PetscCall(PetscLogEventBegin(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(DRModalCreate(comm, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, DRReductionPrefix(r)));
  PetscCall(DRModalSetOperators(modal, K, M, source));
  PetscCall(DRModalSetRange(modal, nb, 0));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &nm, &f, NULL, &phi, NULL));
  PetscCall(PetscLogEventEnd(DRRED_CompEig, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(DRRED_Constraint, 0, 0, 0, 0));
  /* Phi_B (nb x nb, column-major) on every rank */
  PetscCall(MatGetOwnershipRange(K, &rs, &re));
  PetscCall(PetscCalloc1(nb * nb, &loc));
  PetscCall(PetscMalloc1(nb * nb, &PB));
  for (PetscInt k = 0; k < nb; k++) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(phi[k], &a));
    for (PetscInt i = rs; i < re; i++)
      if (bcol[i] >= 0) loc[bcol[i] + k * nb] = PetscRealPart(a[i - rs]);
    PetscCall(VecRestoreArrayRead(phi[k], &a));
  }
  PetscCall(MPIU_Allreduce(loc, PB, nb * nb, MPIU_REAL, MPIU_SUM, comm));
  /* Phi_B^{-1}, with its conditioning checked */
  {
    PetscBLASInt n, info, *ipiv, lwork, *iwork;
    PetscReal    anorm = 0, rcond, *work;
    PetscCall(PetscBLASIntCast(nb, &n));
    lwork = 4 * n;
    PetscCall(PetscMalloc1(nb, &ipiv));
    PetscCall(PetscMalloc1(4 * nb, &work));
    PetscCall(PetscMalloc1(nb, &iwork));
    for (PetscInt j = 0; j < nb; j++) {
      PetscReal s = 0;
      for (PetscInt i = 0; i < nb; i++) s += PetscAbsReal(PB[i + j * nb]);
      anorm = PetscMax(anorm, s);
    }
    PetscCall(PetscArraycpy(loc, PB, nb * nb));
    LAPACKgetrf_(&n, &n, loc, &n, ipiv, &info);
    /* conditioning estimate from the LU pivots (LAPACK gecon is not in
     * PETSc's wrappers): min |U_ii| / max |U_ii| */
    rcond = 0;
    if (!info) {
      PetscReal umin = PETSC_MAX_REAL, umax = 0;
      for (PetscInt i = 0; i < nb; i++) {
        umin = PetscMin(umin, PetscAbsReal(loc[i + i * nb]));
        umax = PetscMax(umax, PetscAbsReal(loc[i + i * nb]));
      }
      rcond = umax > 0 ? umin / umax : 0;
    }
    (void)anorm;
    PetscCheck(rcond > 1e-12, comm, DR_ERR_INPUT, "%s: SEREP of component '%s': its %" PetscInt_FMT " boundary DOFs (first %s) cannot observe its %" PetscInt_FMT " lowest modes (Phi_B condition 1/%.1e); expected masters that distinguish the modes", source, name, nb, DRLabelString(se->blabels[0], b), nb, (double)rcond);
    LAPACKgetri_(&n, loc, &n, ipiv, work, &lwork, &info);
    Pinv = loc;
    PetscCall(PetscFree(ipiv));
    PetscCall(PetscFree(work));
    PetscCall(PetscFree(iwork));
  }
  /* T = Phi Phi_B^{-1}; boundary rows exactly [I] */
  PetscCall(MatCreateDense(comm, re - rs, PETSC_DECIDE, n, nb, NULL, &se->T));
  PetscCall(MatDenseGetArray(se->T, &t));
  PetscCall(MatDenseGetLDA(se->T, &ldt));
  {
    const PetscScalar **a;
    PetscCall(PetscMalloc1(nb, &a));
    for (PetscInt k = 0; k < nb; k++) PetscCall(VecGetArrayRead(phi[k], &a[k]));
    for (PetscInt i = rs; i < re; i++)
      for (PetscInt j = 0; j < nb; j++) {
        PetscReal s = 0;
        if (bcol[i] >= 0) s = bcol[i] == j ? 1.0 : 0.0;
        else
          for (PetscInt k = 0; k < nb; k++) s += PetscRealPart(a[k][i - rs]) * Pinv[k + j * nb];
        t[(i - rs) + j * ldt] = s;
      }
    for (PetscInt k = 0; k < nb; k++) PetscCall(VecRestoreArrayRead(phi[k], &a[k]));
    PetscCall(PetscFree(a));
  }
  PetscCall(MatDenseRestoreArray(se->T, &t));
  PetscCall(MatAssemblyBegin(se->T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(se->T, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscLogEventEnd(DRRED_Constraint, 0, 0, 0, 0));
  PetscCall(DRModalDestroy(&modal));
  PetscCall(PetscFree(loc));
  PetscCall(PetscFree(PB));
  PetscCall(PetscFree(bcol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate_SEREP(DRReduction r)
{
  PetscFunctionBeginUser;
  r->ops->apply = DRReductionApply_SEREP;
  PetscFunctionReturn(PETSC_SUCCESS);
}
