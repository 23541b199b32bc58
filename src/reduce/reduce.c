/* DRReduction: the component-reduction object, its registry (a
 * PetscFunctionList) and its logging package. */
#include "reduceimpl.h"
#include <string.h>

PetscClassId  DR_REDUCTION_CLASSID;
PetscLogEvent DRRED_Apply, DRRED_Factor, DRRED_CompEig, DRRED_Constraint, DRRED_Project;
PetscLogEvent DRCOND_Factor, DRCOND_Reduce, DRCOND_IDCIter;

static PetscFunctionList DRReductionList           = NULL;
static PetscBool         DRReductionPackageInitialized = PETSC_FALSE;
static PetscBool         DRReductionRegisterAllCalled  = PETSC_FALSE;

static PetscErrorCode DRReductionFinalizePackage(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListDestroy(&DRReductionList));
  DRReductionPackageInitialized = PETSC_FALSE;
  DRReductionRegisterAllCalled  = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (DRReductionPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  DRReductionPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR Reduction", &DR_REDUCTION_CLASSID));
  PetscCall(PetscLogEventRegister("DRRedApply", DR_REDUCTION_CLASSID, &DRRED_Apply));
  PetscCall(PetscLogEventRegister("DRRedFactorKII", DR_REDUCTION_CLASSID, &DRRED_Factor));
  PetscCall(PetscLogEventRegister("DRRedCompEig", DR_REDUCTION_CLASSID, &DRRED_CompEig));
  PetscCall(PetscLogEventRegister("DRRedConstraint", DR_REDUCTION_CLASSID, &DRRED_Constraint));
  PetscCall(PetscLogEventRegister("DRRedProject", DR_REDUCTION_CLASSID, &DRRED_Project));
  PetscCall(PetscLogEventRegister("DRCondFactorK0", DR_REDUCTION_CLASSID, &DRCOND_Factor));
  PetscCall(PetscLogEventRegister("DRCondReduce", DR_REDUCTION_CLASSID, &DRCOND_Reduce));
  PetscCall(PetscLogEventRegister("DRCondIDCIter", DR_REDUCTION_CLASSID, &DRCOND_IDCIter));
  PetscCall(DRReductionRegisterAll());
  PetscCall(PetscRegisterFinalize(DRReductionFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionRegister(const char name[], PetscErrorCode (*create)(DRReduction))
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListAdd(&DRReductionList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DRReductionRegisterAllCalled) PetscFunctionReturn(PETSC_SUCCESS);
  DRReductionRegisterAllCalled = PETSC_TRUE;
  PetscCall(DRReductionRegister(DRREDUCTION_CRAIG_BAMPTON, DRReductionCreate_CraigBampton));
  PetscCall(DRReductionRegister(DRREDUCTION_GUYAN, DRReductionCreate_Guyan));
  PetscCall(DRReductionRegister(DRREDUCTION_IRS, DRReductionCreate_IRS));
  PetscCall(DRReductionRegister(DRREDUCTION_SEREP, DRReductionCreate_SEREP));
  PetscCall(DRReductionRegister(DRREDUCTION_FREE_INTERFACE, DRReductionCreate_FreeInterface));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionFindCreate(const char name[], PetscErrorCode (**create)(DRReduction))
{
  PetscFunctionBeginUser;
  PetscCall(DRReductionRegisterAll());
  PetscCall(PetscFunctionListFind(DRReductionList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionKnownNames(char *buf, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(DRRegistryNames(DRReductionList, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt dr_block_columns = 0; /* DRReductionBlockSolve: columns solved on this process */

PetscErrorCode DRReductionBlockSolve(Mat F, Mat B, Mat X)
{
  PetscInt nc;

  PetscFunctionBeginUser;
  PetscCall(MatMatSolve(F, B, X));
  PetscCall(MatGetSize(B, NULL, &nc));
  dr_block_columns += nc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionBlockSolveColumns(PetscInt *ncols)
{
  PetscFunctionBeginUser;
  *ncols = dr_block_columns;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCreate(MPI_Comm comm, DRReduction *r)
{
  DRReduction d;

  PetscFunctionBeginUser;
  PetscCall(DRReductionInitializePackage());
  PetscCall(PetscNew(&d));
  d->comm     = comm;
  d->nmodes   = 20;
  d->spill_fd = -1;
  *r          = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRReductionResetType(DRReduction r)
{
  PetscFunctionBeginUser;
  if (r->ops->destroy) PetscCall((*r->ops->destroy)(r));
  PetscCall(PetscMemzero(r->ops, sizeof(r->ops)));
  r->data        = NULL;
  r->type[0]     = 0;
  r->setupcalled = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionSetType(DRReduction r, const char type[])
{
  PetscErrorCode (*create)(DRReduction) = NULL;
  PetscBool same;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(r->type, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRRegistryFind(r->comm, DRReductionList, "reduction method", type, NULL, &create));
  PetscCall(DRReductionResetType(r));
  PetscCall(PetscStrncpy(r->type, type, sizeof(r->type)));
  PetscCall((*create)(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetType(DRReduction r, const char **type)
{
  PetscFunctionBeginUser;
  *type = r->type[0] ? r->type : NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionSetOptionsPrefix(DRReduction r, const char prefix[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(r->prefix));
  if (prefix && prefix[0]) PetscCall(PetscStrallocpy(prefix, &r->prefix));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const char *DRReductionPrefix(DRReduction r)
{
  return r->prefix ? r->prefix : "";
}

PetscErrorCode DRReductionSetModes(DRReduction r, PetscInt nmodes, PetscReal cutoff_hz)
{
  PetscFunctionBeginUser;
  r->nmodes    = nmodes;
  r->cutoff_hz = cutoff_hz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionSetFromOptions(DRReduction r)
{
  char      type[64];
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(DRReductionRegisterAll());
  PetscCall(PetscStrncpy(type, r->type[0] ? r->type : DRREDUCTION_CRAIG_BAMPTON, sizeof(type)));
  PetscOptionsBegin(r->comm, r->prefix, "Component reduction (superelement) options", "DRReduction");
  PetscCall(PetscOptionsFList("-reduction_type", "Reduction method", "DRReductionSetType", DRReductionList, type, type, sizeof(type), &set));
  if (set || !r->type[0]) PetscCall(DRReductionSetType(r, type));
  PetscCall(PetscOptionsInt("-reduction_nmodes", "Component modes kept (when no cutoff)", "DRReductionSetModes", r->nmodes, &r->nmodes, NULL));
  PetscCall(PetscOptionsReal("-reduction_cutoff_hz", "Keep every component mode below this frequency (Hz) when > 0", "DRReductionSetModes", r->cutoff_hz, &r->cutoff_hz, NULL));
  if (r->ops->setfromoptions) PetscCall((*r->ops->setfromoptions)(r, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionSetUp(DRReduction r)
{
  PetscFunctionBeginUser;
  if (r->setupcalled) PetscFunctionReturn(PETSC_SUCCESS);
  if (!r->type[0]) PetscCall(DRReductionSetType(r, DRREDUCTION_CRAIG_BAMPTON));
  /* read here, not in DRReductionSetFromOptions: CMS sets type and modes
   * itself (cms.method, cutoffs) and never calls that */
  PetscOptionsBegin(r->comm, r->prefix, "Component reduction (superelement) options", "DRReduction");
  {
    PetscBool reuse = (PetscBool)!r->no_cc_reuse;
    PetscCall(PetscOptionsBool("-reduction_reuse_cc_solves", "an interface refinement round of cms.tol_pct keeps the interior columns -K_II^{-1} K_IB v of the CC modes it already had and the previous basis' blocks of T^T M T, and the error estimate's residuals use the basis' structure (false: solves and forms all of them by the plain products, the reference for comparisons)", "DRReductionApplyInterfaceBasis", reuse, &reuse, NULL));
    r->no_cc_reuse = (PetscBool)!reuse;
  }
  PetscOptionsEnd();
  if (r->ops->setup) PetscCall((*r->ops->setup)(r));
  r->setupcalled = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The basis put aside while the component waits (DR_REDUCTION_HELD_BASIS_SPILL):
 * T's local rows (nloc x N, leading dimension nloc) written to a scratch file
 * of this process and T freed; the next step that reads T (BasisLoad at its
 * start) makes it again on storage dynred owns (Append still grows it in
 * place) with the same bits.  Skipped (T stays) for a T someone else holds
 * too, or one whose leading dimension is not its local row count. */
static PetscErrorCode BasisSpill(DRReduction r)
{
  Mat                T = r->se.T;
  PetscInt           nloc, N, lda, refct;
  MatType            type;
  PetscBool          ok;
  const PetscScalar *a;
  char               what[128];

  PetscFunctionBeginUser;
  if (!T || r->spilled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetLocalSize(T, &nloc, NULL));
  PetscCall(MatGetSize(T, NULL, &N));
  PetscCall(MatDenseGetLDA(T, &lda));
  PetscCall(PetscObjectGetReference((PetscObject)T, &refct));
  PetscCall(MatGetType(T, &type));
  ok = (PetscBool)(refct == 1 && (lda == nloc || nloc == 0) && (!strcmp(type, MATSEQDENSE) || !strcmp(type, MATMPIDENSE)));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, r->comm));
  if (!ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(what, sizeof(what), "component '%s': its basis T", r->se.name));
  if (!r->spill_clean) {
    if (r->spill_fd < 0) PetscCall(DRScratchOpen(r->scratch_dir, what, &r->spill_fd));
    PetscCall(MatDenseGetArrayRead(T, &a));
    PetscCall(DRScratchWrite(r->spill_fd, a, sizeof(PetscScalar) * (size_t)nloc * (size_t)N, what));
    PetscCall(MatDenseRestoreArrayRead(T, &a));
  }
  PetscCall(PetscInfo(NULL, "component '%s': basis %" PetscInt_FMT " x %" PetscInt_FMT " put aside in a scratch file (%.1f MiB on this process%s)\n", r->se.name, r->se.n, N, sizeof(PetscScalar) * (double)nloc * N / 1048576.0, r->spill_clean ? ", unchanged since it was read back: not written" : ""));
  PetscCall(MatDestroy(&r->se.T));
  r->spill_nloc  = nloc;
  r->spill_N     = N;
  r->spilled     = PETSC_TRUE;
  r->spill_clean = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BasisLoad(DRReduction r)
{
  PetscScalar *a;
  char         what[128];

  PetscFunctionBeginUser;
  if (!r->spilled) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(what, sizeof(what), "component '%s': its basis T", r->se.name));
  PetscCall(DRSuperelementBasisCreate(r->comm, r->spill_nloc, r->se.n, r->spill_N, r->se.name, &r->se.T));
  PetscCall(MatDenseGetArrayWrite(r->se.T, &a));
  PetscCall(DRScratchRead(r->spill_fd, a, sizeof(PetscScalar) * (size_t)r->spill_nloc * (size_t)r->spill_N, what));
  PetscCall(MatDenseRestoreArrayWrite(r->se.T, &a));
  PetscCall(MatAssemblyBegin(r->se.T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(r->se.T, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscInfo(NULL, "component '%s': basis read back from its scratch file\n", r->se.name));
  r->spilled     = PETSC_FALSE;
  r->spill_clean = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A step that changes T: the scratch file no longer holds it. */
static PetscErrorCode BasisWillChange(DRReduction r)
{
  PetscFunctionBeginUser;
  PetscCall(BasisLoad(r));
  r->spill_clean = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new T (Apply, InterfacePencil, a restore): nothing of it is spilled. */
PetscErrorCode DRReductionBasisNew_Private(DRReduction r)
{
  PetscFunctionBeginUser;
  r->spilled = r->spill_clean = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionSetScratchDir(DRReduction r, const char dir[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(r->scratch_dir, dir ? dir : "", sizeof(r->scratch_dir)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionApply(DRReduction r, DRComponent c, const PetscBool isboundary[])
{
  DRSuperelement *se = &r->se;
  const char     *name;
  PetscLogEvent   ev[3] = {DRRED_CompEig, DRRED_Constraint, DRRED_Project};
  PetscLogDouble  t0[3], t1[3];

  PetscFunctionBeginUser;
  PetscCall(DRReductionSetUp(r));
  PetscCall(DRSuperelementReset(se));
  PetscCall(DRReductionBasisNew_Private(r));
  r->applied = PETSC_FALSE;
  r->basis_released = PETSC_FALSE;
  r->t_eig = r->t_static = r->t_project = 0;
  for (int k = 0; k < 3; k++) PetscCall(DRLogEventSeconds(ev[k], &t0[k]));
  PetscCall(PetscLogEventBegin(DRRED_Apply, 0, 0, 0, 0));
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(PetscStrncpy(se->name, name, sizeof(se->name)));
  PetscCall(PetscStrncpy(se->method, r->type, sizeof(se->method)));
  PetscCall(DRComponentGetSize(c, &se->n));
  PetscCall((*r->ops->apply)(r, c, isboundary, se));
  PetscCall(DRSuperelementProject(c, se));
  PetscCall(PetscLogEventEnd(DRRED_Apply, 0, 0, 0, 0));
  for (int k = 0; k < 3; k++) PetscCall(DRLogEventSeconds(ev[k], &t1[k]));
  r->t_eig     = t1[0] - t0[0];
  r->t_static  = t1[1] - t0[1];
  r->t_project = t1[2] - t0[2];
  r->applied   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Phase times of the reduction events between two readings. */
static PetscErrorCode ReadTimes(PetscLogDouble t[3])
{
  PetscLogEvent ev[3] = {DRRED_CompEig, DRRED_Constraint, DRRED_Project};

  PetscFunctionBeginUser;
  for (int k = 0; k < 3; k++) PetscCall(DRLogEventSeconds(ev[k], &t[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r's phase times: the event seconds since t0 (ReadTimes) */
static PetscErrorCode SetTimesSince(DRReduction r, const PetscLogDouble t0[3])
{
  PetscLogDouble t1[3];

  PetscFunctionBeginUser;
  PetscCall(ReadTimes(t1));
  r->t_eig     = t1[0] - t0[0];
  r->t_static  = t1[1] - t0[1];
  r->t_project = t1[2] - t0[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionInterfacePencil(DRReduction r, DRComponent c, const PetscBool isboundary[], PetscBool *supported, PetscReal **S, PetscReal **MG)
{
  DRSuperelement *se = &r->se;
  const char     *name;
  PetscLogDouble  t0[3], t1[3];

  PetscFunctionBeginUser;
  *S = *MG   = NULL;
  PetscCall(DRReductionSetUp(r));
  *supported = r->ops->pencil && r->ops->ifacebasis ? PETSC_TRUE : PETSC_FALSE;
  if (!*supported) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRSuperelementReset(se));
  PetscCall(DRReductionBasisNew_Private(r));
  r->applied = PETSC_FALSE;
  r->basis_released = PETSC_FALSE;
  PetscCall(ReadTimes(t0));
  PetscCall(PetscLogEventBegin(DRRED_Apply, 0, 0, 0, 0));
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(PetscStrncpy(se->name, name, sizeof(se->name)));
  PetscCall(PetscStrncpy(se->method, r->type, sizeof(se->method)));
  PetscCall(DRComponentGetSize(c, &se->n));
  PetscCall((*r->ops->pencil)(r, c, isboundary, se, S, MG));
  PetscCall(PetscLogEventEnd(DRRED_Apply, 0, 0, 0, 0));
  PetscCall(ReadTimes(t1));
  r->t_eig     = t1[0] - t0[0];
  r->t_static  = t1[1] - t0[1];
  r->t_project = t1[2] - t0[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionApplyInterfaceBasis(DRReduction r, DRComponent c, PetscInt ncc, const PetscReal Vc[], const DRLabel cclabels[])
{
  PetscLogDouble t0[3], t1[3];

  PetscFunctionBeginUser;
  PetscCheck(r->ops->ifacebasis && r->se.pblabels, r->comm, PETSC_ERR_ORDER, "call DRReductionInterfacePencil first");
  PetscCall(BasisWillChange(r));
  PetscCall(ReadTimes(t0));
  PetscCall(PetscLogEventBegin(DRRED_Apply, 0, 0, 0, 0));
  PetscCall((*r->ops->ifacebasis)(r, c, ncc, Vc, cclabels, &r->se));
  PetscCall(DRSuperelementProject(c, &r->se));
  PetscCall(PetscLogEventEnd(DRRED_Apply, 0, 0, 0, 0));
  PetscCall(ReadTimes(t1));
  r->t_eig += t1[0] - t0[0];
  r->t_static += t1[1] - t0[1];
  r->t_project += t1[2] - t0[2];
  r->applied = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetPhysicalBoundary(DRReduction r, PetscInt *nb, const DRLabel **labels)
{
  PetscFunctionBeginUser;
  PetscCheck(r->se.pblabels, r->comm, PETSC_ERR_ORDER, "call DRReductionApply or DRReductionInterfacePencil first");
  if (nb) *nb = r->se.pnb;
  if (labels) *labels = r->se.pblabels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#define CHECK_APPLIED(r) PetscCheck((r)->applied, (r)->comm, PETSC_ERR_ORDER, "call DRReductionApply first")
/* the steps that read the basis T */
#define CHECK_BASIS(r) PetscCheck(!(r)->basis_released, (r)->comm, PETSC_ERR_ORDER, "the basis of this reduction was released (DR_REDUCTION_HELD_BASIS)")

PetscErrorCode DRReductionGetBoundary(DRReduction r, PetscInt *nb, const DRLabel **labels)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  if (nb) *nb = r->se.nb;
  if (labels) *labels = r->se.blabels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetModes(DRReduction r, PetscInt *nq, const PetscReal **freq_hz)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  if (nq) *nq = r->se.nq;
  if (freq_hz) *freq_hz = r->se.qfreq_hz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetReducedMatrices(DRReduction r, PetscInt *n, const PetscReal **K, const PetscReal **M)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  if (n) *n = r->se.nb + r->se.nq;
  if (K) *K = r->se.K;
  if (M) *M = r->se.M;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetBasis(DRReduction r, Mat *T)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  CHECK_BASIS(r);
  PetscCall(BasisLoad(r));
  *T = r->se.T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionEnrich(DRReduction r, DRComponent c, const PetscBool isboundary[], PetscInt nmodes)
{
  PetscLogDouble t0[3];

  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  CHECK_BASIS(r);
  PetscCall(BasisWillChange(r));
  r->nmodes    = nmodes;
  r->cutoff_hz = 0;
  if (!r->ops->enrich) {
    PetscCall(DRReductionApply(r, c, isboundary));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(ReadTimes(t0));
  PetscCall(PetscLogEventBegin(DRRED_Apply, 0, 0, 0, 0));
  PetscCall((*r->ops->enrich)(r, c, nmodes, &r->se));
  PetscCall(PetscLogEventEnd(DRRED_Apply, 0, 0, 0, 0));
  PetscCall(SetTimesSince(r, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionCorrect(DRReduction r, PetscInt nsel, const PetscInt sel[], PetscInt *nadded, PetscBool *supported)
{
  PetscLogDouble t0[3];

  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  CHECK_BASIS(r);
  PetscCall(BasisWillChange(r));
  *nadded    = 0;
  *supported = r->ops->correct ? PETSC_TRUE : PETSC_FALSE;
  if (!*supported) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ReadTimes(t0));
  PetscCall(PetscLogEventBegin(DRRED_Apply, 0, 0, 0, 0));
  PetscCall((*r->ops->correct)(r, nsel, sel, &r->se, nadded));
  PetscCall(PetscLogEventEnd(DRRED_Apply, 0, 0, 0, 0));
  PetscCall(SetTimesSince(r, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionRelease(DRReduction r, int what, PetscReal *freed_mib)
{
  PetscFunctionBeginUser;
  if (freed_mib) *freed_mib = 0;
  if (r->ops->release && r->data) PetscCall((*r->ops->release)(r, what, freed_mib));
  if (what & DR_REDUCTION_HELD_BASIS) {
    PetscCall(MatDestroy(&r->se.T));
    PetscCall(DRScratchClose(&r->spill_fd));
    r->spilled = r->spill_clean = PETSC_FALSE;
    r->basis_released           = PETSC_TRUE;
  } else if (what & DR_REDUCTION_HELD_BASIS_SPILL) PetscCall(BasisSpill(r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetFactorMiB(DRReduction r, PetscReal *mib)
{
  PetscFunctionBeginUser;
  *mib = 0;
  if (r->ops->factormib && r->data) PetscCall((*r->ops->factormib)(r, mib));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetModeTop(DRReduction r, PetscReal *qtop_hz)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  *qtop_hz = r->se.qtop_hz;
  if (*qtop_hz <= 0) /* unknown (a restored superelement): its highest mode */
    for (PetscInt k = 0; k < r->se.nq; k++) *qtop_hz = PetscMax(*qtop_hz, r->se.qfreq_hz[k]);
  {
    PetscBool cb;
    PetscCall(PetscStrcmp(r->type, DRREDUCTION_CRAIG_BAMPTON, &cb));
    /* the kept vectors (independent: correct.c) span the whole interior: no
     * truncated spectrum, the interior part is exact */
    if (cb && r->se.nq >= r->se.n - r->se.pnb) *qtop_hz = PETSC_INFINITY;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionResidual(DRReduction r, DRComponent c, PetscInt ncol, const PetscReal Qc[], const PetscReal lam[], PetscReal eta2[], PetscReal **gB, PetscBool *supported)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  CHECK_BASIS(r);
  PetscCall(BasisLoad(r));
  *gB        = NULL;
  *supported = r->ops->residual ? PETSC_TRUE : PETSC_FALSE;
  if (*supported) PetscCall((*r->ops->residual)(r, c, ncol, Qc, lam, eta2, gB));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionExpand(DRReduction r, PetscInt ncol, const PetscReal Qc[], PetscReal **U)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  CHECK_BASIS(r);
  PetscCall(BasisLoad(r));
  PetscCall(DRSuperelementExpand(&r->se, ncol, Qc, U));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionGetTimes(DRReduction r, PetscLogDouble *t_eig, PetscLogDouble *t_static, PetscLogDouble *t_project)
{
  PetscFunctionBeginUser;
  CHECK_APPLIED(r);
  if (t_eig) *t_eig = r->t_eig;
  if (t_static) *t_static = r->t_static;
  if (t_project) *t_project = r->t_project;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionView(DRReduction r, PetscViewer viewer)
{
  PetscBool ascii;

  PetscFunctionBeginUser;
  if (!viewer) PetscCall(PetscViewerASCIIGetStdout(r->comm, &viewer));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "DRReduction Object: (%s) type %s\n", DRReductionPrefix(r), r->type[0] ? r->type : "(not set)"));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (r->cutoff_hz > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "component modes: every mode below %g Hz\n", (double)r->cutoff_hz));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "component modes: the %" PetscInt_FMT " lowest\n", r->nmodes));
  if (r->ops->view) PetscCall((*r->ops->view)(r, viewer));
  if (r->applied) {
    const DRSuperelement *se = &r->se;
    PetscCall(PetscViewerASCIIPrintf(viewer, "component '%s': %" PetscInt_FMT " DOFs -> %" PetscInt_FMT " boundary + %" PetscInt_FMT " modal coordinates\n", se->name, se->n, se->nb, se->nq));
    if (se->nq > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "component modes %.6g .. %.6g Hz\n", (double)se->qfreq_hz[0], (double)se->qfreq_hz[se->nq - 1]));
  }
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReductionDestroy(DRReduction *r)
{
  PetscFunctionBeginUser;
  if (!*r) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRReductionResetType(*r));
  PetscCall(DRSuperelementReset(&(*r)->se));
  PetscCall(DRScratchClose(&(*r)->spill_fd));
  PetscCall(PetscFree((*r)->prefix));
  PetscCall(PetscFree(*r));
  PetscFunctionReturn(PETSC_SUCCESS);
}
