/* The reduction method of each component: cms.method auto resolved per
 * component (the rule and its measurements below), and the boundary count
 * it and the first-round mode choice (cms.c) use. */
#include "cmsimpl.h"

/* The boundary DOFs of one of my components (its flags cover all its labels). */
PetscErrorCode DRCMSBoundaryCount_Private(DRComponent comp, const PetscBool isboundary[], PetscInt *nb)
{
  PetscInt n;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetLabels(comp, &n, NULL));
  *nb = 0;
  for (PetscInt i = 0; i < n; i++) *nb += isboundary[i] ? 1 : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cms.method: auto, the rule.  A part that floats on its own (K has a
 * rigid-body translation: the parts of an assembly held only by their
 * neighbours) gets free-interface with residual flexibility, every other
 * part Craig-Bampton.  Why: the free modes of a floating part include its
 * rigid-body motions and the residual flexibility carries the static
 * response to interface forces, so a free-interface part needs fewer modes
 * for a given error; a supported part's fixed-interface modes are cheap to
 * complete (its K_II factorization serves the modes, the constraint modes
 * and the estimate).  A part without boundary DOFs cannot be built
 * free-interface.  Measured (bench/cms_bench.py, plate50k in 4 parts, 2
 * ranks, default tol_pct 0.5, quiet machine; CMS job / `dynred modal` job
 * for the same modes, bench/README.md "CMS: method auto vs craig-bampton vs free-interface"): 20 modes craig-bampton 1.24,
 * free-interface 3.55, auto 3.69; 200 modes 0.68, 2.54, 2.66.  Fewer component modes for free-interface (45 vs
 * 70, 497 vs 607) do not pay: a non-Craig-Bampton part turns the interface
 * reduction before the projection off for the whole job (coupled system
 * 1422-2035 vs 144-943 coordinates, one block solve and one projection
 * column per boundary DOF), and the estimate's S_c costs a free-interface
 * part its own K_II factorization and block solve.  So auto is an option,
 * not the default, until free-interface parts take part in the interface
 * reduction.
 *
 * The test: K t_d for the unit translation t_d in direction d (1..3) is zero
 * up to the round-off of K's row sums, |(K t)_i| <= n_i eps sum_j |K_ij|, i.e.
 * ||K t||_2 <= 1e-13 ||K||_inf ||t||_2 for the row lengths of FE matrices
 * (n_i <= 100), for a free direction; a supported one leaves the support
 * rows' stiffness, of the order of the diagonal.  1e-8 lies between. */
static PetscErrorCode ComponentFloats(DRComponent comp, const PetscBool isboundary[], PetscBool *floats)
{
  Mat            K;
  Vec            t, y;
  PetscInt       n, rs, re, nb = 0;
  const DRLabel *labels;
  PetscReal      knorm;

  PetscFunctionBeginUser;
  *floats = PETSC_FALSE;
  PetscCall(DRComponentGetOperators(comp, &K, NULL, NULL));
  PetscCall(DRComponentGetLabels(comp, &n, &labels));
  PetscCall(DRCMSBoundaryCount_Private(comp, isboundary, &nb));
  if (!nb) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetOwnershipRange(K, &rs, &re));
  PetscCall(MatCreateVecs(K, &t, &y));
  PetscCall(MatNorm(K, NORM_INFINITY, &knorm));
  for (PetscInt d = 1; d <= 3 && !*floats; d++) {
    PetscInt    cnt = 0;
    PetscReal   ny, nt;
    PetscScalar *a;
    PetscCall(VecGetArray(t, &a));
    for (PetscInt i = rs; i < re; i++) {
      a[i - rs] = DRLabelDir(labels[i]) == d ? 1.0 : 0.0;
      cnt += DRLabelDir(labels[i]) == d ? 1 : 0;
    }
    PetscCall(VecRestoreArray(t, &a));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &cnt, 1, MPIU_INT, MPI_SUM, PetscObjectComm((PetscObject)K)));
    if (!cnt) continue;
    PetscCall(MatMult(K, t, y));
    PetscCall(VecNorm(y, NORM_2, &ny));
    PetscCall(VecNorm(t, NORM_2, &nt));
    if (ny <= 1e-8 * knorm * nt) *floats = PETSC_TRUE;
  }
  PetscCall(VecDestroy(&t));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Resolve cms.method: auto per component (the rule above) on its group,
 * agreed by every rank; the choice is logged. */
PetscErrorCode DRCMSChooseMethods_Private(DRCMS c)
{
  PetscInt *fi, any = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscBool a;
    PetscCall(PetscStrcmp(c->methods[k], "auto", &a));
    any += a ? 1 : 0;
  }
  if (!any) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc1(c->ncomp + 1, &fi));
  for (PetscInt i = 0; i < c->nmine; i++) {
    PetscBool   a, fl;
    PetscMPIInt grank;
    PetscCall(PetscStrcmp(c->methods[c->mine[i]], "auto", &a));
    if (!a) continue;
    PetscCall(ComponentFloats(c->comps[i], c->isboundary[i], &fl));
    PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
    if (!grank) fi[c->mine[i]] = fl ? 1 : 0;
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, fi, (PetscMPIInt)c->ncomp, MPIU_INT, MPI_SUM, c->comm));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscBool a;
    PetscCall(PetscStrcmp(c->methods[k], "auto", &a));
    if (!a) continue;
    PetscCall(PetscFree(c->methods[k]));
    PetscCall(PetscStrallocpy(fi[k] ? "free-interface" : "craig-bampton", &c->methods[k]));
    PetscCall(DRProgress(c->comm, "cms: method auto: '%s' %s (%s)", c->names[k], c->methods[k], fi[k] ? "floats on its own: free modes with residual flexibility" : "supported: fixed-interface modes"));
  }
  PetscCall(PetscFree(fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}
