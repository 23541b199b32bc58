/* Component mode synthesis, the object: job keys, log package, life cycle
 * (METHODS.md 1.1-1.2).  The phases live in partition.c, interface.c,
 * assemble.c, solve.c, recover.c and io.c (see cmsimpl.h). */
#include "cmsimpl.h"
#include <dynred/modal.h>
#include <dynred/modelcost.h>
#include <dynred/preflight.h>
#include <string.h>

static const DRConfigKey cms_keys[] = {
  {"cms.method", DR_CFG_STRING, "craig-bampton", "component reduction (per component: components[].method): craig-bampton, free-interface (residual flexibility), guyan, irs, serep, or auto (per component: free-interface for a part that floats on its own, craig-bampton otherwise; the choice is logged and written as /cms/components/NAME attribute method)", NULL, NULL, NULL},
  {"cms.fmax", DR_CFG_REAL, "0", "range of interest: system modes below fmax; component modes below cutoff_factor * fmax (0: count modes, cms.nmodes)", "0..", "Hz", NULL},
  {"cms.nmodes", DR_CFG_INT, "20", "system modes to keep when fmax = 0", "0..", NULL, NULL},
  {"cms.component_modes", DR_CFG_INT, "20", "component modes to keep when fmax = 0; set explicitly, it is final (no refinement by cms.tol_pct)", "0..", NULL, NULL},
  {"cms.cutoff_factor", DR_CFG_REAL, "2.0", "component modes kept below cutoff_factor * fmax; set explicitly, it is final (no refinement by cms.tol_pct); unset, the first round keeps the modes below 1.5 * fmax with cms.refine: corrections (2 * fmax with modes) and cms.tol_pct refines", "1..", NULL, NULL},
  {"cms.tol_pct", DR_CFG_REAL, "0.5", "largest acceptable relative frequency error of the system modes (up to fmax, or the nmodes lowest): unless cms.cutoff_factor (fmax > 0) or cms.component_modes (fmax = 0) is given, the components carrying a mode's residual are enriched (more component modes) until every mode's error estimate is below it (0: no refinement)", "0..", "%", NULL},
  {"cms.max_refine", DR_CFG_INT, "5", "at most this many enrichment rounds for cms.tol_pct", "0..", NULL, NULL},
  {"cms.min_component_modes", DR_CFG_INT, "8", "with cms.fmax and cms.tol_pct (no explicit cutoff_factor): the first round keeps at least this many modes of each craig-bampton component, also when fewer lie below its cutoff", "0..", NULL, NULL},
  {"cms.refine", DR_CFG_STRING, "corrections", "how a refinement round for cms.tol_pct enriches a craig-bampton component: corrections (its first two rounds add the residual corrections K_II^{-1} r_I of the modes above the tolerance, which the error estimate has already solved: no eigensolve), or modes (more fixed-interface modes every round)", NULL, NULL, NULL},
  {"cms.retain", DR_CFG_STRING, "", "node sets kept physical (loads, sensors), comma list", NULL, NULL, NULL},
  {"cms.support", DR_CFG_STRING, "", "free-interface: node set of a statically determinate support for floating parts (default: chosen automatically)", NULL, NULL, NULL},
  {"cms.groups", DR_CFG_INT, NULL, "deprecated: the NUMBER of rank groups; use ranks_per_group (ranks in each group)", "0..", NULL, NULL},
  {"cms.dense_max", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "dense_max"},
  {"cms.verify_tol_pct", DR_CFG_REAL, "0", "with verify: fail (exit 1) when a paired mode deviates more, or a full-model mode below the highest CMS frequency has no CMS pair (missing) or a CMS mode none (extra); 0: report only", "0..", "%", NULL},
  {"cms.interface_modes", DR_CFG_INT, "0", "interface reduction: keep the lowest N characteristic constraint (CC) modes of the assembled boundary (0: off)", "0..", NULL, NULL},
  {"cms.interface_cutoff_factor", DR_CFG_REAL, "0", "interface reduction: keep the CC modes below interface_cutoff_factor * fmax (0: off, else >= 1; needs fmax)", "0..", NULL, NULL},
  {"cms.interface_auto", DR_CFG_BOOL, "true", "with cms.tol_pct, cms.fmax and every component craig-bampton, and neither interface_modes nor interface_cutoff_factor given: reduce the interface before the projection, starting from the CC modes below 2 x cutoff_factor x fmax, and let the error estimate's boundary term add CC modes in the refinement rounds; false: no interface reduction unless asked for", NULL, NULL, NULL},
  {"cms.dense_parallel", DR_CFG_STRING, "auto", "the root's dense interface eigenproblem (the CC modes of cms.interface_early, on the physical boundary or a cms.partition separator) solved by ScaLAPACK on every rank (true) instead of LAPACK on the root while the others wait (false); auto: ScaLAPACK on a job of several ranks unless the root keeps its interface pencil on disk (cms.spill_basis: memory is short there, and the parallel solve holds about 1.5 more pencils on the root), and for pencils of at least 256 DOFs (below, LAPACK on the root either way).  On 2 ranks of a 2-core machine: the 200k-DOF plate's 5400-DOF separator 20 s instead of 25-31 s with 330 MiB more on the root (bench/README.md, section CMS: the root's CC problem on every rank, cms.dense_parallel), the CalculiX bar's 1287 boundary DOFs 0.55 s instead of 1.15 s", "auto|true|false", NULL, NULL},
  {"cms.interface_early", DR_CFG_BOOL, "true", "interface reduction (cms.interface_modes or interface_cutoff_factor) before the component projection: the CC modes come from the components' boundary Schur complements (MUMPS) and each component projects on them only (ncc block solves instead of one per boundary DOF); false: after assembling the full Craig-Bampton boundary (same subspace, the reference path)", NULL, NULL, NULL},
  {"cms.partition", DR_CFG_STRING, "auto", "automatic substructuring of a model of ONE component into N subdomains + a separator (deterministic recursive bisection of the node graph): auto (when a cost model predicts a gain; models of several components stay as they are), off, or N >= 2", NULL, NULL, NULL},
  {"cms.dry_run", DR_CFG_BOOL, "false", "set the job up and stop: read the model, partition it (cms.partition auto prints its predicted costs), form the rank groups and check memory, then print the plan; nothing is solved or written (check a cluster job before it queues)", NULL, NULL, NULL},
  {"cms.write_modes", DR_CFG_BOOL, "true", "write /cms/modes (the recovered modes on the full DOF set) and the mesh and mode shapes for ParaView; false: the frequencies, error estimates and reduced model only (large benchmarks, as modal.write_modes; ss and sysred.energy read the modes)", NULL, NULL, NULL},
  {"cms.checkpoint", DR_CFG_STRING, "", "component checkpoint directory: each finished superelement stored by a content hash of its matrices, labels and reduction options, so a killed job rerun with the same command reduces only the unfinished components; kept after the run for cms.reuse (default: OUTPUT.ckpt; none: off)", NULL, NULL, NULL},
  {"cms.reuse", DR_CFG_STRING, "", "an earlier result OLD.h5 (its checkpoint OLD.h5.ckpt) or a checkpoint directory: components whose matrices, labels and reduction options are unchanged are read from it instead of reduced", NULL, NULL, NULL},
  {"cms.keep_factors", DR_CFG_STRING, "auto", "each component's K_II factorization (its eigensolver's, reused by the constraint modes, the error estimate and the refinement) kept while the component waits for the others: true; false: released and made again when next needed (bit-identical results, about one factorization more per component and phase, for jobs whose factorizations do not fit side by side); auto: kept while this rank's factorizations stay below a quarter of its share of the node's memory (mem_limit_mib, else MemAvailable)", NULL, NULL, NULL},
  {"cms.spill_basis", DR_CFG_STRING, "auto", "a waiting component's basis T (n x (boundary + modes), the largest thing it holds) put aside in a scratch file and read back, the same bits, by its next step: true; false: kept in memory; auto: whenever its factorization is released (cms.keep_factors false, or auto over its budget); the root's interface pencil likewise (M_G put aside between its CC solves, S kept on disk so that the dense CC solve works in its storage)", "auto|true|false", NULL, NULL},
  {"cms.scratch_dir", DR_CFG_STRING, "", "directory of the scratch files of cms.spill_basis (node-local disk on a cluster; default: $TMPDIR, else /tmp); the files are unlinked at once, nothing is left behind", NULL, NULL, NULL},
  {"components[].method", DR_CFG_STRING, "", "CMS reduction of this component (default cms.method)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRCMSRegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(cms_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSCreate(MPI_Comm comm, DRCMS *cms)
{
  PetscFunctionBeginUser;
  PetscCall(DRCMSInitializePackage());
  PetscCall(PetscNew(cms));
  (*cms)->comm  = comm;
  (*cms)->gcomm = MPI_COMM_NULL;
  (*cms)->mg_fd = -1;
  (*cms)->s_fd  = -1;
  PetscCallMPI(MPI_Comm_rank(comm, &(*cms)->rank));
  PetscCallMPI(MPI_Comm_size(comm, &(*cms)->size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSDestroy(DRCMS *cms)
{
  DRCMS c = *cms;

  PetscFunctionBeginUser;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < c->nmine; i++) {
    if (c->red) PetscCall(DRReductionDestroy(&c->red[i]));
    if (c->comps) PetscCall(DRComponentDestroy(&c->comps[i]));
    if (c->isboundary) PetscCall(PetscFree(c->isboundary[i]));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    if (c->names) PetscCall(PetscFree(c->names[k]));
    if (c->methods) PetscCall(PetscFree(c->methods[k]));
  }
  if (c->modes) PetscCall(VecDestroyVecs(c->nm, &c->modes));
  c->iface_early = PETSC_FALSE; /* the reset frees the CC modes too */
  PetscCall(DRCMSResetCoupled_Private(c));
  PetscCall(PetscFree(c->pglob));
  PetscCall(DRCMSRootPencilFree_Private(c));
  PetscCall(PetscFree(c->names));
  PetscCall(PetscFree(c->methods));
  PetscCall(PetscFree(c->red));
  PetscCall(PetscFree(c->comps));
  PetscCall(PetscFree(c->isboundary));
  PetscCall(PetscFree(c->group_of));
  PetscCall(PetscFree(c->group_root));
  PetscCall(PetscFree(c->mine));
  PetscCall(PetscFree(c->full));
  PetscCall(PetscFree2(c->comp_cut, c->comp_nmodes));
  PetscCall(PetscFree(c->csel));
  PetscCall(PetscFree(c->ncorr_rounds));
  PetscCall(PetscFree(c->qtop));
  PetscCall(PetscFree2(c->t_start, c->t_end));
  PetscCall(DRComponentDestroy(&c->geom));
  PetscCall(PetscFree(c->cost));
  PetscCall(DRCMSSubstructureDestroy_Private(c));
  PetscCall(DRCMSCheckpointDestroy_Private(c));
  if (c->gcomm != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&c->gcomm));
  PetscCall(PetscFree(*cms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSSetConfig(DRCMS c, DRConfig cfg)
{
  PetscFunctionBeginUser;
  c->cfg = cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The checks the key ranges cannot say (a bound given by the run, a
 * combination of keys), and those whose message names the reason. */
static PetscErrorCode CheckOptions(DRCMS c, const char *partition)
{
  DRConfig cfg = c->cfg;
  char     where[PETSC_MAX_PATH_LEN + 32], *end = NULL;
  long     np;

  PetscFunctionBeginUser;
  PetscCall(DRConfigWhere(cfg, "cms.partition", where, sizeof(where)));
  np = strtol(partition, &end, 10);
  if (!strcmp(partition, "auto")) c->partition = -1;
  else if (!strcmp(partition, "off")) c->partition = 0;
  else {
    PetscCheck(end != partition && !*end && np >= 2 && np <= PETSC_MAX_INT, c->comm, DR_ERR_INPUT, "%s: cms.partition = '%s', expected auto, off or a number of subdomains >= 2", where, partition);
    c->partition = (PetscInt)np;
  }
  /* the key that decides: a negative fmax, else nmodes (fmax 0 counts modes) */
  PetscCall(DRConfigWhere(cfg, c->fmax < 0 ? "cms.fmax" : "cms.nmodes", where, sizeof(where)));
  PetscCheck(c->fmax >= 0 && (c->fmax > 0 || c->nmodes > 0), c->comm, DR_ERR_INPUT, "%s: cms.fmax = %.6g Hz and cms.nmodes = %" PetscInt_FMT ", expected cms.fmax > 0 or cms.nmodes > 0", where, (double)c->fmax, c->nmodes);
  PetscCall(DRConfigWhere(cfg, "cms.cutoff_factor", where, sizeof(where)));
  PetscCheck(c->cutoff_factor >= 1, c->comm, DR_ERR_INPUT, "%s: cms.cutoff_factor = %g, expected >= 1 (the paper keeps 1.5-2 x fmax)", where, (double)c->cutoff_factor);
  PetscCall(DRConfigWhere(cfg, "cms.interface_modes", where, sizeof(where)));
  PetscCheck(c->iface_modes >= 0, c->comm, DR_ERR_INPUT, "%s: cms.interface_modes = %" PetscInt_FMT ", expected >= 0 (0: no interface reduction)", where, c->iface_modes);
  PetscCall(DRConfigWhere(cfg, "cms.interface_cutoff_factor", where, sizeof(where)));
  PetscCheck(c->iface_factor == 0 || c->iface_factor >= 1, c->comm, DR_ERR_INPUT, "%s: cms.interface_cutoff_factor = %.6g, expected 0 (off) or >= 1", where, (double)c->iface_factor);
  PetscCheck(c->iface_factor == 0 || c->fmax > 0, c->comm, DR_ERR_INPUT, "%s: cms.interface_cutoff_factor = %.6g with cms.fmax = 0, expected cms.fmax > 0 (the cutoff is a multiple of fmax)", where, (double)c->iface_factor);
  PetscCheck(c->iface_factor == 0 || c->iface_modes == 0, c->comm, DR_ERR_INPUT, "%s: cms.interface_cutoff_factor = %.6g and cms.interface_modes = %" PetscInt_FMT ", expected only one of them", where, (double)c->iface_factor, c->iface_modes);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank groups: `ranks_per_group` (the one name across subcommands; 0: one
 * group per component up to the number of ranks), or the deprecated
 * `cms.groups`, a count of groups.  `dense_max` unset: 4000. */
static PetscErrorCode ReadGroupsAndDenseMax(DRCMS c)
{
  DRConfig  cfg = c->cfg;
  PetscInt  rpg = 0, ngroups = 0;
  PetscBool rset, gset, dset;
  char      where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetInt(cfg, "dense_max", &c->dense_max, &dset));
  if (!dset) c->dense_max = 4000;
  PetscCall(DRConfigGetInt(cfg, "ranks_per_group", &rpg, &rset));
  PetscCall(DRConfigGetInt(cfg, "cms.groups", &ngroups, &gset));
  rset = (PetscBool)(rset && rpg > 0);
  gset = (PetscBool)(gset && ngroups > 0);
  PetscCall(DRConfigWhere(cfg, gset ? "cms.groups" : "ranks_per_group", where, sizeof(where)));
  PetscCheck(!(rset && gset), c->comm, DR_ERR_INPUT, "%s: both ranks_per_group and cms.groups given; expected only ranks_per_group (cms.groups is its deprecated form)", where);
  if (gset) {
    PetscCheck(ngroups <= c->size, c->comm, DR_ERR_INPUT, "%s: cms.groups = %" PetscInt_FMT ", expected 0..%d (number of ranks)", where, ngroups, (int)c->size);
    PetscCall(PetscFPrintf(c->comm, PETSC_STDERR, "dynred: warning: %s: 'cms.groups' (a number of groups) is deprecated, use 'ranks_per_group' (ranks in each group)\n", where));
    c->ngroups_opt = ngroups;
  } else if (rset) {
    PetscCheck(rpg <= c->size && c->size % rpg == 0, c->comm, DR_ERR_INPUT, "%s: ranks_per_group = %" PetscInt_FMT " does not divide the %d ranks; expected a divisor of the number of ranks", where, rpg, (int)c->size);
    c->ngroups_opt = c->size / rpg;
  } else c->ngroups_opt = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Names and reduction methods of the components (components[k].method
 * when the model is a components: list, else cms.method). */
static PetscErrorCode ReadComponents(DRCMS c)
{
  PetscBool listed;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; c->names && k < c->ncomp; k++) {
    PetscCall(PetscFree(c->names[k]));
    PetscCall(PetscFree(c->methods[k]));
  }
  PetscCall(PetscFree(c->names));
  PetscCall(PetscFree(c->methods));
  PetscCall(DRModelGetComponentCount(c->cfg, &c->ncomp));
  PetscCall(DRModelComponentsListed(c->cfg, &listed));
  PetscCall(PetscCalloc1(c->ncomp, &c->names));
  PetscCall(PetscCalloc1(c->ncomp, &c->methods));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    char key[80], m[32] = "";
    PetscCall(PetscMalloc1(64, &c->names[k]));
    PetscCall(DRModelGetComponentName(c->cfg, k, c->names[k], 64));
    if (listed) {
      PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].method", k));
      PetscCall(DRConfigGetString(c->cfg, key, m, sizeof(m), NULL));
    }
    PetscCall(PetscStrallocpy(m[0] ? m : c->method, &c->methods[k]));
  }
  if (c->partition > 0 && c->ncomp > 1) {
    char where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigWhere(c->cfg, "cms.partition", where, sizeof(where)));
    SETERRQ(c->comm, DR_ERR_INPUT, "%s: cms.partition = %" PetscInt_FMT " with a model of %" PetscInt_FMT " components, expected auto or off (a model of several components is used as it is)", where, c->partition, c->ncomp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSSetFromOptions(DRCMS c)
{
  DRConfig cfg = c->cfg;
  char     partition[64];

  PetscFunctionBeginUser;
  PetscCheck(cfg, c->comm, PETSC_ERR_ORDER, "DRCMSSetFromOptions: the model comes from the job; call DRCMSSetConfig first");
  PetscCall(DRConfigGetString(cfg, "cms.method", c->method, sizeof(c->method), NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.fmax", &c->fmax, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.nmodes", &c->nmodes, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.component_modes", &c->comp_modes, &c->modes_given));
  PetscCall(DRConfigGetReal(cfg, "cms.cutoff_factor", &c->cutoff_factor, &c->cutoff_given));
  PetscCall(DRConfigGetReal(cfg, "cms.tol_pct", &c->tol_pct, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.max_refine", &c->max_refine, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.min_component_modes", &c->min_comp_modes, NULL));
  {
    char refine[32] = "corrections", where[PETSC_MAX_PATH_LEN + 32];
    PetscCall(DRConfigGetString(cfg, "cms.refine", refine, sizeof(refine), NULL));
    PetscCall(DRConfigWhere(cfg, "cms.refine", where, sizeof(where)));
    PetscCheck(!strcmp(refine, "corrections") || !strcmp(refine, "modes"), c->comm, DR_ERR_INPUT, "%s: cms.refine = '%s', expected corrections or modes", where, refine);
    c->refine_corr = (PetscBool)!strcmp(refine, "corrections");
  }
  PetscCall(DRConfigGetString(cfg, "cms.retain", c->retain, sizeof(c->retain), NULL));
  PetscCall(DRConfigGetString(cfg, "cms.support", c->support, sizeof(c->support), NULL));
  PetscCall(ReadGroupsAndDenseMax(c));
  PetscCall(DRConfigGetInt(cfg, "cms.interface_modes", &c->iface_modes, NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.interface_cutoff_factor", &c->iface_factor, NULL));
  PetscCall(DRConfigGetBool(cfg, "cms.interface_early", &c->iface_early_opt, NULL));
  PetscCall(DRConfigGetBool(cfg, "cms.write_modes", &c->write_modes, NULL));
  {
    char par[16] = "auto";
    PetscCall(DRConfigGetString(cfg, "cms.dense_parallel", par, sizeof(par), NULL));
    c->dense_par_auto = (PetscBool)(strcmp(par, "auto") == 0);
    c->dense_par      = (PetscBool)(strcmp(par, "true") == 0);
  }
  PetscCall(DRConfigGetString(cfg, "cms.partition", partition, sizeof(partition), NULL));
  {
    char keep[32] = "auto";
    PetscCall(DRConfigGetString(cfg, "cms.keep_factors", keep, sizeof(keep), NULL));
    PetscCall(DRCMSFactorBudget_Private(c, keep));
    PetscCall(DRConfigGetString(cfg, "cms.spill_basis", keep, sizeof(keep), NULL));
    PetscCall(DRConfigGetString(cfg, "cms.scratch_dir", c->scratch_dir, sizeof(c->scratch_dir), NULL));
    PetscCall(DRCMSSpillSetUp_Private(c, keep));
  }
  PetscCall(CheckOptions(c, partition));
  /* the explicit component-mode choice of the range in use is final */
  c->cutoff_given = (PetscBool)(c->fmax > 0 ? c->cutoff_given : c->modes_given);
  c->iface = (c->iface_modes > 0 || c->iface_factor > 0) ? PETSC_TRUE : PETSC_FALSE;
  /* the CC count left to the estimate: an explicit choice is final, like
   * cutoff_factor; it needs the early path (the late one has no refinement
   * of the interface) and a range fmax for the first cutoff */
  {
    PetscBool autoi = PETSC_TRUE;
    PetscCall(DRConfigGetBool(cfg, "cms.interface_auto", &autoi, NULL));
    c->iface_auto = (PetscBool)(autoi && !c->iface && c->iface_early_opt && c->tol_pct > 0 && c->fmax > 0 && !c->cutoff_given);
    if (c->iface_auto) {
      c->iface        = PETSC_TRUE;
      c->iface_factor = DR_CMS_IFACE_AUTO_FACTOR * c->cutoff_factor;
    }
  }
  PetscCall(ReadComponents(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSComponentSize_Private(DRCMS c, PetscInt k, PetscInt *n)
{
  PetscInt    loc = 0;
  PetscMPIInt grank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  for (PetscInt i = 0; i < c->nmine; i++)
    if (c->mine[i] == k && !grank) PetscCall(DRComponentGetSize(c->comps[i], &loc));
  PetscCall(MPIU_Allreduce(&loc, n, 1, MPIU_INT, MPI_SUM, c->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank groups, the components of my group built on its communicator, the
 * interfaces. */
PetscErrorCode DRCMSSetUp(DRCMS c)
{
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  if (c->setup) PetscFunctionReturn(PETSC_SUCCESS);
  if (!c->names) PetscCall(DRCMSSetFromOptions(c));
  PetscCall(PetscLogEventBegin(DRCMS_SetUp, 0, 0, 0, 0));
  /* one component and cms.partition not off: split it (auto: when it pays) */
  if (c->partition && c->ncomp == 1) PetscCall(DRCMSSubstructure_Private(c));
  PetscCall(DRCMSPartition_Private(c));
  PetscCall(PetscCalloc1(c->nmine + 1, &c->comps));
  if (c->nsub) PetscCall(DRCMSSubstructureComponents_Private(c));
  else {
    PetscCall(DRErrorDeferBegin()); /* one line for the job, naming the component */
    for (PetscInt i = 0; i < c->nmine && !ierr; i++) {
      DRUnits sec;
      ierr = DRModelCreateComponent(c->cfg, c->mine[i], c->gcomm, &c->comps[i]);
      if (!ierr) ierr = DRModelToSeconds(c->cfg, c->comps[i], &sec); /* model.units: frequencies in Hz */
    }
  }
  ierr = DRErrorDeferEnd(c->comm, ierr, NULL);
  if (ierr) PetscFunctionReturn(ierr);
  PetscCall(DRCMSFindInterfaces_Private(c));
  PetscCall(PetscLogEventEnd(DRCMS_SetUp, 0, 0, 0, 0));
  c->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSGetLocalComponents(DRCMS c, PetscInt *ncomp, PetscInt *ngroups, PetscInt *nmine, DRComponent **comps)
{
  PetscFunctionBeginUser;
  PetscCheck(c->setup, c->comm, PETSC_ERR_ARG_WRONGSTATE, "call DRCMSSetUp() first");
  *ncomp   = c->ncomp;
  *ngroups = c->ngroups;
  *nmine   = c->nmine;
  *comps   = c->comps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* My component i reduced by its method into c->red[i] (options prefix
 * cms_comp_, also of the component eigensolver); t: its phase times. */
static PetscErrorCode ReduceComponent(DRCMS c, PetscInt i, PetscLogDouble t[3])
{
  DRReduction r;
  MPI_Comm    comm;
  PetscBool   reused;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetComm(c->comps[i], &comm));
  PetscCall(DRTestHookFail(comm, "-cms_fail_component", c->names[c->mine[i]]));
  PetscCall(DRReductionCreate(comm, &c->red[i]));
  r = c->red[i];
  PetscCall(DRReductionSetType(r, c->methods[c->mine[i]]));
  PetscCall(DRReductionSetOptionsPrefix(r, "cms_comp_"));
  PetscCall(DRReductionSetScratchDir(r, c->scratch_dir));
  PetscCall(DRReductionSetModes(r, c->comp_nmodes[c->mine[i]], c->comp_cut[c->mine[i]]));
  PetscCall(DRReductionFreeInterfaceSetSupport(r, c->support));
  PetscCall(DRReductionSetUp(r));
  if (!t) PetscFunctionReturn(PETSC_SUCCESS); /* interface reduced first: two phases (iface_early.c) */
  PetscCall(DRCMSCheckpointRestore_Private(c, i, &reused));
  if (reused) t[0] = t[1] = t[2] = 0;
  if (reused) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRReductionApply(r, c->comps[i], c->isboundary[i]));
  PetscCall(DRReductionGetTimes(r, &t[0], &t[1], &t[2]));
  PetscCall(DRCMSCheckpointStore_Private(c, i));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interface reduced before the projection: every component
 * craig-bampton (the others have no interface pencil), requested and on. */
static PetscErrorCode UseEarlyInterface(DRCMS c)
{
  PetscFunctionBeginUser;
  if (c->iface_auto && c->ncomp < 2) { /* one component: no interface to reduce */
    c->iface = c->iface_auto = PETSC_FALSE;
    c->iface_factor          = 0;
  }
  c->iface_early = (PetscBool)(c->iface && c->iface_early_opt);
  for (PetscInt k = 0; c->iface_early && k < c->ncomp; k++) {
    PetscBool cb;
    PetscCall(PetscStrcmp(c->methods[k], "craig-bampton", &cb));
    if (!cb && c->iface_auto) { /* nothing asked for: no interface reduction */
      c->iface_early = PETSC_FALSE;
      c->iface       = PETSC_FALSE;
      c->iface_auto  = PETSC_FALSE;
      c->iface_factor = 0;
    } else if (!cb) {
      c->iface_early = PETSC_FALSE;
      PetscCall(DRProgress(c->comm, "cms: interface reduction after the assembly (component '%s' is %s; before the projection needs craig-bampton components)", c->names[k], c->methods[k]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every group reduces its components (a DRReduction each, the method per
 * component), all of them or those flagged in redo[ncomp]; component phase
 * times (the slowest group sets the pace) add to c->t. */
static PetscErrorCode ReduceComponents(DRCMS c, const PetscBool redo[])
{
  PetscErrorCode ierr   = PETSC_SUCCESS;
  PetscReal      loc[3] = {0, 0, 0}, mx[3];
  char           failed[300] = "";

  PetscFunctionBeginUser;
  if (!c->red) PetscCall(PetscCalloc1(c->nmine + 1, &c->red));
  if (!redo) PetscCall(DRCMSChooseMethods_Private(c));
  if (!redo) PetscCall(UseEarlyInterface(c));
  if (!redo && c->iface_early) {
    PetscLogDouble t[3] = {0, 0, 0};
    for (PetscInt i = 0; i < c->nmine; i++) {
      PetscCall(DRReductionDestroy(&c->red[i]));
      PetscCall(ReduceComponent(c, i, NULL));
    }
    PetscCall(PetscLogEventBegin(DRCMS_Reduce, 0, 0, 0, 0));
    ierr = DRCMSInterfaceEarly_Private(c, t);
    PetscCall(PetscLogEventEnd(DRCMS_Reduce, 0, 0, 0, 0));
    if (ierr) DRCMSCheckpointAbandon_Private(c);
    if (ierr) PetscFunctionReturn(ierr);
    for (int p = 0; p < 3; p++) loc[p] = t[p];
  }
  PetscCall(DRErrorDeferBegin()); /* one line for the job, naming the component */
  for (PetscInt i = 0; i < c->nmine && !ierr && !(!redo && c->iface_early); i++) {
    PetscLogDouble t[3];
    PetscInt       n, nb, nq;
    const char    *name;
    if (redo && !redo[c->mine[i]]) { /* not refined this round: its residual blocks are not needed */
      PetscCall(DRCMSIdle_Private(c, i, PETSC_TRUE));
      continue;
    }
    PetscCall(PetscLogEventBegin(DRCMS_Reduce, 0, 0, 0, 0));
    PetscCall(DRCMSMark_Private(c, c->mine[i], PETSC_TRUE));
    if (redo) { /* refinement: residual corrections or more modes for a reduced component */
      PetscInt  nadded = 0, nsel = 0, *sel, k = c->mine[i];
      PetscBool sup    = PETSC_FALSE;
      PetscCall(PetscMalloc1(c->ncsel + 1, &sel));
      for (PetscInt j = 0; c->csel && j < c->ncsel; j++)
        if (c->csel[k * c->ncsel + j]) sel[nsel++] = j;
      if (nsel) ierr = DRReductionCorrect(c->red[i], nsel, sel, &nadded, &sup);
      PetscCall(PetscFree(sel));
      if (!ierr && nsel && nadded) PetscCall(DRProgress(c->gcomm, "cms: group %" PetscInt_FMT " corrected '%s': %" PetscInt_FMT " residual correction(s) from %" PetscInt_FMT " mode(s)", c->mygroup, c->names[k], nadded, nsel));
      if (!ierr && !nadded) ierr = DRReductionEnrich(c->red[i], c->comps[i], c->isboundary[i], c->comp_nmodes[k]);
      if (!ierr) ierr = DRReductionGetTimes(c->red[i], &t[0], &t[1], &t[2]);
      if (!ierr) PetscCall(DRCMSIdle_Private(c, i, PETSC_TRUE));
    } else {
      PetscCall(DRReductionDestroy(&c->red[i]));
      ierr = ReduceComponent(c, i, t);
      if (!ierr) PetscCall(DRCMSIdle_Private(c, i, PETSC_FALSE));
    }
    PetscCall(PetscLogEventEnd(DRCMS_Reduce, 0, 0, 0, 0));
    PetscCall(DRCMSMark_Private(c, c->mine[i], PETSC_FALSE));
    if (ierr) PetscCall(PetscSNPrintf(failed, sizeof(failed), "component '%s'", c->names[c->mine[i]]));
    if (ierr) break;
    loc[0] += t[0];
    loc[1] += t[1];
    loc[2] += t[2];
    PetscCall(DRComponentGetName(c->comps[i], &name));
    PetscCall(DRComponentGetSize(c->comps[i], &n));
    PetscCall(DRReductionGetBoundary(c->red[i], &nb, NULL));
    PetscCall(DRReductionGetModes(c->red[i], &nq, NULL));
    PetscCall(DRProgress(c->gcomm, "cms: group %" PetscInt_FMT " reduced '%s' (%s): %" PetscInt_FMT " DOFs -> %" PetscInt_FMT " boundary + %" PetscInt_FMT " modal", c->mygroup, name, c->methods[c->mine[i]], n, nb, nq));
  }
  /* one agreement point for all groups, whatever their component counts */
  ierr = DRErrorDeferEnd(c->comm, ierr, failed);
  if (ierr) DRCMSCheckpointAbandon_Private(c);
  if (ierr) PetscFunctionReturn(ierr);
  if (redo && c->iface_redo) { /* more CC modes: every basis rebuilt on them */
    PetscLogDouble t[3] = {0, 0, 0};
    PetscCall(PetscLogEventBegin(DRCMS_Reduce, 0, 0, 0, 0));
    ierr = DRCMSInterfaceEnrich_Private(c, c->iface_modes, t);
    PetscCall(PetscLogEventEnd(DRCMS_Reduce, 0, 0, 0, 0));
    if (ierr) PetscFunctionReturn(ierr);
    PetscCall(DRProgress(c->comm, "cms: interface refined: %" PetscInt_FMT " CC modes of %" PetscInt_FMT " boundary DOFs", c->ncc, c->pnbglob));
    for (int p = 0; p < 3; p++) loc[p] += t[p];
  }
  PetscCall(MPIU_Allreduce(loc, mx, 3, MPIU_REAL, MPI_MAX, c->comm));
  c->t[DR_CMS_PHASE_COMPEIG] += mx[0];
  c->t[DR_CMS_PHASE_CONSTRAINT] += mx[1];
  c->t[DR_CMS_PHASE_PROJECT] += mx[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Component mode cutoffs: cutoff_factor x fmax (or component_modes), per
 * component so the refinement can raise them one by one. */
static PetscErrorCode InitComponentModes(DRCMS c)
{
  PetscInt nb = 0, nbmax = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscFree2(c->comp_cut, c->comp_nmodes));
  PetscCall(PetscMalloc2(c->ncomp, &c->comp_cut, c->ncomp, &c->comp_nmodes));
  if (c->ncomp == 1) { /* boundary DOFs of a lone component: cms.retain only */
    for (PetscInt i = 0; i < c->nmine; i++) {
      PetscInt nbi;
      PetscCall(DRCMSBoundaryCount_Private(c->comps[i], c->isboundary[i], &nbi));
      nb += nbi;
    }
    PetscCallMPI(MPIU_Allreduce(&nb, &nbmax, 1, MPIU_INT, MPI_MAX, c->comm));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    /* refined by residual corrections: a lower first cut (DR_CMS_FIRST_CUT_CORR) */
    PetscBool corr = (PetscBool)(c->refine_corr && c->tol_pct > 0 && !c->cutoff_given);
    c->comp_cut[k] = c->fmax > 0 ? (corr ? DR_CMS_FIRST_CUT_CORR : c->cutoff_factor) * c->fmax : 0;
    /* a model kept whole (one component, no boundary: cms.partition found no
     * gain, or off): its component modes are the system modes themselves,
     * exact, so those above the coupled solve's own range (DR_CMS_EXTRA_RANGE
     * fmax, the estimate's gap) buy nothing; on the 1M-DOF plate kept whole
     * the default 1.5 fmax solved 341 modes for 200 (bench/README.md "CMS at 1M DOF: substructured, the root's CC problem by block Lanczos") */
    if (c->ncomp == 1 && nbmax == 0 && c->fmax > 0 && !c->cutoff_given) c->comp_cut[k] = DR_CMS_EXTRA_RANGE * c->fmax;
    /* with fmax the count is a floor under the cutoff (Craig-Bampton):
     * cms.min_component_modes when tol_pct refines,
     * none for an explicit cutoff_factor or tol_pct 0 */
    c->comp_nmodes[k] = c->fmax > 0 ? (c->cutoff_given || c->tol_pct <= 0 ? 0 : c->min_comp_modes) : c->comp_modes;
  }
  c->nrefine = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Times of this solve from the events (nested events subtracted: assembly
 * runs inside gather, interface reduction inside the coupled solve). */
static PetscErrorCode EventTimes(PetscReal t[6])
{
  PetscFunctionBeginUser;
  PetscLogDouble s[6];

  PetscCall(DRLogEventSeconds(DRCMS_Gather, &s[0]));
  PetscCall(DRLogEventSeconds(DRCMS_Assemble, &s[1]));
  PetscCall(DRLogEventSeconds(DRCMS_IfaceReduce, &s[2]));
  PetscCall(DRLogEventSeconds(DRCMS_Coupled, &s[3]));
  PetscCall(DRLogEventSeconds(DRCMS_Recover, &s[4]));
  PetscCall(DRLogEventSeconds(DRCMS_Estimate, &s[5]));
  for (int i = 0; i < 6; i++) t[i] = (PetscReal)s[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ReduceComponents, its single-vector solves counted (MatSolve: the
 * component eigensolvers; not the coupled solve's, which a distributed
 * system makes on every rank). */
static PetscErrorCode ReduceCounted(DRCMS c, const PetscBool redo[], PetscInt *nsingle)
{
  PetscInt s0, s1;

  PetscFunctionBeginUser;
  PetscCall(DRLogEventCount("MatSolve", &s0));
  PetscCall(ReduceComponents(c, redo));
  PetscCall(DRLogEventCount("MatSolve", &s1));
  *nsingle += s1 - s0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reduce, couple, estimate; while a mode's estimate exceeds tol_pct, enrich
 * the components that carry its residual and couple again (at most
 * max_refine rounds); then recover the modes on the full labels. */
/* The reductions and the refinement rounds up to the last coupled solve. */
static PetscErrorCode ReduceAndCouple(DRCMS c, PetscReal **Q)
{
  PetscBool  *redo, again = PETSC_TRUE;
  PetscInt    b0, b1, e0, e1, nsingle = 0, loc[3], sum[3];
  PetscMPIInt grank;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(c->ncomp + 1, &redo));
  PetscCall(DRReductionBlockSolveColumns(&b0));
  PetscCall(DREigenBlockColumns(&e0));
  PetscCall(ReduceCounted(c, NULL, &nsingle));
  PetscCall(DRCMSViewBalance_Private(c, PETSC_VIEWER_STDOUT_(c->comm)));
  while (again) {
    PetscCall(DRCMSGather_Private(c));
    PetscCall(DRProgress(c->comm, "cms: reduced system of %" PetscInt_FMT " coordinates (%" PetscInt_FMT " boundary)", c->nred, c->nbglob));
    PetscCall(DRCMSCoupledSolve_Private(c, Q));
    PetscCall(DRCMSEstimate_Private(c, *Q));
    PetscCall(DRCMSRefine_Private(c, redo, &again));
    if (again) {
      PetscCall(PetscFree(*Q));
      PetscCall(DRCMSResetCoupled_Private(c));
      PetscCall(ReduceCounted(c, redo, &nsingle));
    }
  }
  PetscCall(PetscFree(redo));
  /* the solves of each group once: counted on its rank 0 */
  PetscCall(DRReductionBlockSolveColumns(&b1));
  PetscCall(DREigenBlockColumns(&e1));
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  loc[0] = grank ? 0 : b1 - b0;
  loc[1] = grank ? 0 : nsingle;
  loc[2] = grank ? 0 : e1 - e0;
  PetscCallMPI(MPIU_Allreduce(loc, sum, 3, MPIU_INT, MPI_SUM, c->comm));
  c->nblockcols = sum[0];
  c->nsingle    = sum[1];
  c->neigcols   = sum[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSSolve(DRCMS c)
{
  PetscReal     *Q = NULL, t0[6], t1[6];
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(DRCMSSetUp(c));
  PetscCall(PetscArrayzero(c->t, DR_CMS_NPHASE));
  c->t_solve0 = DRTime();
  PetscCall(EventTimes(t0));
  PetscCall(InitComponentModes(c));
  PetscCall(DRCMSCheckpointOpen_Private(c));
  ierr = ReduceAndCouple(c, &Q);
  /* a job rejected for its input (an indefinite reduced system, say) leaves
   * nothing behind; other failures keep what was stored for the rerun (the
   * errors here are collective: the root's are agreed on, DRRootAgree) */
  if (ierr == DR_ERR_INPUT) DRCMSCheckpointAbandon_Private(c);
  if (ierr) PetscCall(PetscFree(Q));
  if (ierr) PetscFunctionReturn(ierr);
  PetscCall(DRCMSCheckpointClose_Private(c));
  PetscCall(DRCMSRootPencilFree_Private(c));
  PetscCall(DRCMSReleaseAll_Private(c)); /* the recovery needs the bases only */
  PetscCall(DRCMSRecover_Private(c, Q));
  PetscCall(PetscFree(Q));
  PetscCall(EventTimes(t1));
  for (int p = 0; p < 6; p++) t1[p] -= t0[p];
  c->t[DR_CMS_PHASE_ASSEMBLY] = t1[1];
  c->t[DR_CMS_PHASE_GATHER]   = t1[0] - t1[1];
  c->t[DR_CMS_PHASE_IFACE]    = t1[2];
  c->t[DR_CMS_PHASE_COUPLED]  = t1[3] - (c->iface_early ? 0 : t1[2]); /* the late reduction runs inside the coupled solve */
  c->t[DR_CMS_PHASE_RECOVER]  = t1[4];
  c->t[DR_CMS_PHASE_ESTIMATE] = t1[5];
  c->solved                   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSGetModes(DRCMS c, PetscInt *n, const PetscReal **freq_hz, Vec **modes, PetscInt *nlabels, const DRLabel **labels)
{
  PetscFunctionBeginUser;
  if (n) *n = c->nm;
  if (freq_hz) *freq_hz = c->freq;
  if (modes) *modes = c->modes;
  if (nlabels) *nlabels = c->nfull;
  if (labels) *labels = c->full;
  PetscFunctionReturn(PETSC_SUCCESS);
}
