/* Private layout of the CMS driver (include/dynred/cms.h) and the functions
 * shared by its files:
 *   cms.c        the object: keys, package, Create/SetConfig/SetFromOptions/
 *                SetUp/Solve/Destroy, getters
 *   partition.c  rank groups and the component -> group assignment by cost
 *   interface.c  boundary DOFs: shared labels, ties, retained node sets
 *   assemble.c   superelements gathered to world rank 0, assembly by label
 *   solve.c      interface reduction and the coupled solve (dense / SLEPc)
 *   recover.c    system modes u = T q over the full labels
 *   io.c         View (results table) and Write (store, mesh, shapes)
 *   verify.c     comparison with the full model
 *   substructure.c  cms.partition: one component split into subdomains +
 *                separator (algebraic substructuring), its cost model
 *   checkpoint.c the component checkpoint: superelements stored by content
 *                hash, reused on a rerun or by cms.reuse */
#ifndef DYNRED_CMSIMPL_H
#define DYNRED_CMSIMPL_H

#include <dynred/preflight.h>
#include <dynred/cms.h>
#include <dynred/model.h>
#include <dynred/reduce.h>
#include <dynred/units.h>

/* The coupled solve computes the modes up to DR_CMS_EXTRA_RANGE * fmax (or
 * DR_CMS_EXTRA_MODES beyond nmodes): their Ritz values bound the spectral
 * gaps of the reported modes in the error estimate.  Every one of them also
 * costs the estimate a residual and a K_II solve column per component: 1.25
 * computes 261 modes for 199 on the 200k plate; 1.05
 * computes about 10 % more than reported, and the estimates of the reported
 * modes came out the same (bitwise in the printed digits: a mode's gap uses
 * its nearest upper neighbours, whose chain from the top is short) on the
 * 200k plate and the 51k CalculiX bar at 200 modes (bench/README.md "CMS: projection and error-estimate residuals"). */
#define DR_CMS_EXTRA_RANGE 1.05
#define DR_CMS_EXTRA_MODES 3
/* cms.interface_auto: the first interface cutoff, a multiple of the
 * component cutoff.  CC modes are cheap (one block-solve column and one
 * projection column each, no eigensolve) and an interface round rebuilds
 * every component's basis, so the first cut is generous: twice the component
 * cutoff (the CC modes' share of a mode's error falls like (f / f_cc)^2, as
 * the component modes'). */
#define DR_CMS_IFACE_AUTO_FACTOR 2.0
/* cms.min_component_modes, default 8 (cms.c): with cms.tol_pct, fmax and no
 * explicit cutoff_factor, each Craig-Bampton component keeps at least this
 * many modes in the first round, also when fewer lie below the cutoff
 * (short middle parts, low fmax).  Without a
 * floor the 46k-DOF plate in 4 parts needed 3 rounds at 20 modes.  Since a
 * refinement round became cheap (residual corrections, and the Krylov-Schur
 * solve continued on the factorization the component holds: enrich.c), a
 * lower floor pays: the first solve's cost grows with nev (SLEPc's basis
 * holds ncv = max(2 nev, nev + 15) vectors and restarts until nev converge:
 * 93 shift-and-invert solves per 13k-DOF part for 16 modes).  Measured side
 * by side (2 ranks, tol_pct 0.5, bench/README.md "CMS: first-round component-mode floor"): at 20 modes the
 * 51k-DOF CalculiX bar took 3.7-4.0 s with 8 against 4.6-5.3 s with 16
 * (1 refinement either way), the plate 2.2 s against 2.8 s (2 rounds
 * against 1); at 50 and 200 modes, where the cutoff counts exceed the
 * floor, the times are the same.  4 needed a second round on the bar and
 * gained nothing more. */

/* cms.tol_pct with fmax, no explicit cutoff_factor and cms.refine:
 * corrections: the first round keeps the component modes below this
 * multiple of fmax (instead of cutoff_factor, 2), because a residual
 * correction round (refine.c, reduce/correct.c) repairs what the cut leaves
 * out at no eigensolve: a correction shrinks a mode's interior error by
 * about theta / lambda_c <= (1 / 1.5)^2 = 0.44 at fmax, and far more below
 * it.  At 1.0 the modes near fmax have no gap to the truncated spectrum
 * (theta / lambda_c -> 1: the corrections stall and the estimate is
 * infinite); measured on the 46k-DOF plate in 4 parts, 200 modes
 * (bench/README.md "CMS: refinement by residual corrections"): 1.0 needs 3 rounds and more modes in the
 * end than 2.0, 1.5 one round with 30 % fewer component modes than 2.0. */
#define DR_CMS_FIRST_CUT_CORR 1.5

/* Phases of /timing and of the "cms time:" line, in this order. */
typedef enum {
  DR_CMS_PHASE_COMPEIG,
  DR_CMS_PHASE_CONSTRAINT,
  DR_CMS_PHASE_PROJECT,
  DR_CMS_PHASE_GATHER,
  DR_CMS_PHASE_ASSEMBLY,
  DR_CMS_PHASE_IFACE,
  DR_CMS_PHASE_COUPLED,
  DR_CMS_PHASE_RECOVER,
  DR_CMS_PHASE_ESTIMATE,
  DR_CMS_NPHASE
} DRCMSPhase;

/* Events of the package (registered by DRCMSInitializePackage). */
extern PetscClassId  DRCMS_CLASSID;
extern PetscLogEvent DRCMS_Estimate;
extern PetscLogEvent DRCMS_Substructure, DRCMS_SetUp, DRCMS_Partition, DRCMS_Interfaces, DRCMS_Reduce, DRCMS_Gather, DRCMS_Assemble, DRCMS_IfaceReduce, DRCMS_Coupled, DRCMS_Recover, DRCMS_Verify, DRCMS_Write;

typedef struct _DRSubstructure *DRSubstructure;
typedef struct _DRCMSCheckpoint *DRCMSCheckpoint;

struct _p_DRCMS {
  MPI_Comm    comm, gcomm;
  PetscMPIInt rank, size;
  DRConfig    cfg;
  PetscBool   setup, solved;
  /* options */
  char      method[32], retain[256], support[64];
  PetscReal fmax, cutoff_factor;
  PetscInt  nmodes, comp_modes, ngroups_opt, dense_max;
  PetscInt  iface_modes;  /* cms.interface_modes */
  PetscReal iface_factor; /* cms.interface_cutoff_factor */
  /* distribution */
  PetscInt     ncomp, ngroups, mygroup;
  PetscInt    *group_of;     /* component -> group */
  PetscMPIInt *group_root;   /* group -> world rank of its first rank */
  PetscInt     nmine, *mine; /* components of my group, in order */
  DRComponent *comps;        /* nmine */
  char       **names;        /* ncomp */
  char       **methods;      /* ncomp: reduction method of each component */
  /* interfaces (all ranks) */
  PetscInt   nfull;
  DRLabel   *full;        /* sorted union of all labels */
  PetscBool **isboundary; /* nmine flag arrays */
  /* reduction */
  DRReduction *red; /* nmine: each holds its component's superelement */
  /* root: per component sizes (all ranks after Solve) */
  PetscInt   *nb, *nq, nbglob, nred;
  PetscReal  *Kred, *Mred; /* root only: nred^2, column-major */
  DRLabel    *bglob;       /* boundary union (all ranks after Solve) */
  PetscReal **qfreq;       /* root: component mode frequencies */
  PetscReal  *qtop;        /* root: per component, the highest frequency its eigensolves found (the estimate's truncation gap) */
  /* interface reduction (all ranks: iface, ncc, ncoupled; root: the arrays) */
  PetscBool  iface;    /* CC reduction of the boundary requested */
  PetscInt   ncc;      /* CC modes kept */
  PetscInt   ncoupled; /* size of the system actually solved */
  PetscReal *Psi;      /* root: nbglob x ncc, column-major, M_BB-normalized */
  PetscReal *ccfreq;   /* root: ncc CC mode frequencies (Hz) */
  /* interface reduction before the projection (iface_early.c): the CC modes
   * of the assembled pencil (S, M_G) from the components' Schur complements;
   * the components project on them, the coupled system has ncc interface
   * coordinates (labels -1..-ncc).  pglob: the physical boundary (all ranks),
   * Sfull: the assembled S on it (root; the estimate's boundary term), lcc:
   * the lowest CC eigenvalue left out (inf: none) */
  PetscBool  iface_early_opt; /* cms.interface_early */
  PetscBool  write_modes;     /* cms.write_modes: /cms/modes and the ParaView shapes written */
  PetscBool  dense_par;       /* cms.dense_parallel true: the CC problem on every rank (ScaLAPACK) */
  PetscBool  dense_par_auto;  /* cms.dense_parallel auto: so on several ranks unless the root spills (iface_early.c) */
  PetscBool  iface_early;     /* in use (every component craig-bampton) */
  PetscBool  iface_auto;      /* the CC count chosen by cms.tol_pct (no explicit interface_modes / interface_cutoff_factor) */
  PetscBool  iface_redo;      /* Refine: more CC modes in the next round */
  PetscInt   pnbglob;
  DRLabel   *pglob;
  PetscReal *Sfull, *Mfull, lcc; /* Mfull: the assembled Guyan mass M_G (root; NULL while it is in its scratch file mg_fd) */
  int        mg_fd;               /* root, cms.spill_basis: M_G's scratch file (-1: none); M_G never changes, so it is written once */
  int        s_fd;                /* root, cms.spill_basis: S's values in a scratch file, the CC solve working in S's storage (-1: none) */
  PetscReal *Sdiag;               /* root, Sfac_state 1: S's diagonal (Sfull holds its Cholesky factor in the lower triangle, S in the strict upper one) */
  PetscInt   Sfac_state;          /* root: Sfull factored in place for the estimate's boundary term (1; -1: not definite, Sfull intact; 0: not factored) */
  PetscReal *cclam, *ccX;         /* root, interface_auto: the lowest nccache CC eigenpairs of (Sfull, Mfull) */
  PetscInt   nccache;
  /* results: nm reported modes; next >= nm computed (the extra ones, up to
   * DR_CMS_EXTRA_RANGE fmax or DR_CMS_EXTRA_MODES more, give the estimate its
   * gaps above the last reported mode) */
  PetscInt   nm, next;
  PetscReal *freq, *lamext;
  /* error estimate (estimate.c): est_pct[nm] on every rank (NULL: none),
   * share[ncomp * nm]: component k's part of mode j's squared residual */
  PetscReal *est_pct, *share;
  PetscReal *ishare; /* nm: the interface truncation's part (the boundary term) of mode j's squared residual */
  PetscBool  est_noiface, est_warned; /* root: the last estimate left the boundary term out (S singular beyond the rigid-body modes); the warning was printed */
  PetscReal  tol_pct;
  PetscInt   max_refine, nrefine, min_comp_modes;
  PetscInt   neigcols; /* block-solve columns of the component eigensolvers' block Lanczos (DREigenBlockColumns), summed likewise */
  PetscInt   nblockcols, nsingle; /* K_II solves of the reductions, summed over the groups (world rank 0): block-solve columns (DRReductionBlockSolve) and single-vector solves (MatSolve: the component eigensolvers) */
  PetscBool  cutoff_given; /* the component-mode choice in use (cutoff_factor with fmax, component_modes without) set by the user: no refinement */
  PetscBool  modes_given;
  PetscReal *comp_cut;     /* ncomp: component mode cutoff (Hz) of each component */
  PetscBool  refine_corr;  /* cms.refine: corrections (refine.c) */
  PetscBool *csel;         /* ncomp * ncsel: mode j's residual correction added to component k in the next round (every rank) */
  PetscInt   ncsel;        /* the nm of the round that chose them */
  PetscInt  *ncorr_rounds; /* ncomp: correction rounds a component had */
  /* the schedule (Gantt of /cms/components/NAME t_start_s, t_end_s): per
   * component, seconds since the solve began when its group started and
   * ended its first pass on it (the whole reduction; with the interface
   * reduced before the projection, phase 1: modes and pencil), so the
   * intervals of one group do not overlap (this rank's components; +-max
   * elsewhere) */
  PetscLogDouble t_solve0, *t_start, *t_end;
  PetscInt  *comp_nmodes;  /* ncomp: component modes when fmax = 0 */
  Vec       *modes;
  PetscReal  t[DR_CMS_NPHASE];
  /* geometry for XDMF (rank 0 arrays) */
  DRComponent geom;
  /* automatic substructuring (substructure.c) and the cost model */
  PetscInt       partition; /* cms.partition: -1 auto, 0 off, else the number of subdomains */
  PetscInt       nsub;      /* subdomains made (0: the model's own components) */
  DRSubstructure sub;       /* the full model and its partition, during SetUp */
  PetscReal     *cost;      /* ncomp: predicted reduction cost (partition.c, substructure.c) */
  DRCMSCheckpoint ckpt;     /* checkpoint.c (NULL: none) */
  /* cms.keep_factors (schedule.c): the MiB of K_II factorizations this rank
   * may hold while their components wait (PETSC_MAX_REAL: keep all, 0: keep
   * none) */
  PetscReal factor_budget_mib;
  PetscInt  nreleased; /* factorizations released on this rank (made again on demand) */
  /* cms.spill_basis (schedule.c): DR_CMS_SPILL_*; cms.scratch_dir */
  int  spill;
  char scratch_dir[PETSC_MAX_PATH_LEN];
};
enum { DR_CMS_SPILL_NEVER, DR_CMS_SPILL_ALWAYS, DR_CMS_SPILL_WITH_FACTOR };

/* schedule.c: component i (of mine) waits now.  residuals: its last
 * residual's K_II^{-1} r_I is no longer needed (corrections made, or the
 * last round); its K_II factorization is released when this rank's held
 * factorizations exceed c->factor_budget_mib (made again on demand, the
 * same bits); its basis T goes to a scratch file as cms.spill_basis says.  DRCMSReleaseAll_Private: every component of mine, both. */
PetscErrorCode DRCMSIdle_Private(DRCMS c, PetscInt i, PetscBool residuals);
PetscErrorCode DRCMSReleaseAll_Private(DRCMS c);
/* schedule.c: cms.keep_factors read into c->factor_budget_mib (collective) */
PetscErrorCode DRCMSFactorBudget_Private(DRCMS c, const char *keep);
/* schedule.c: cms.spill_basis read into c->spill (after the budget; the
 * scratch directory checked on every rank when spilling is certain) */
PetscErrorCode DRCMSSpillSetUp_Private(DRCMS c, const char *spill);
/* schedule.c: the one rule of cms.spill_basis -- true always, auto where
 * factorizations are released (released: for this step, or ever on this
 * rank for the root's pencil) */
PetscBool DRCMSSpills_Private(DRCMS c, PetscBool released);

/* iface_early.c: phase 1 (modes, pencils), the CC modes at the root, phase
 * 2 (bases on the CC modes) for my components; ierr agreed by all groups */
PetscErrorCode DRCMSInterfaceEarly_Private(DRCMS c, PetscLogDouble t[3]);
/* iface_early.c, root: Sfull factored in place for the estimate (the
 * Cholesky factor in its lower triangle, S kept in the strict upper one and
 * c->Sdiag: no second nb x nb array; the 1M-DOF plate's separator: 1.1 GB),
 * c->Sfac_state 1, or -1 (not definite: Sfull left as it was) */
PetscErrorCode DRCMSRootSchurFactor_Private(DRCMS c);
/* iface_early.c, root: S, M_G and the CC cache freed after the last round
 * (before the recovery) */
PetscErrorCode DRCMSRootPencilFree_Private(DRCMS c);
/* iface_early.c: a refinement round with count CC modes (bases rebuilt) */
PetscErrorCode DRCMSInterfaceEnrich_Private(DRCMS c, PetscInt count, PetscLogDouble t[3]);
/* partition.c; the balance table: predicted share vs seconds per group */
/* method.c: the boundary DOFs of one of my components; cms.method auto resolved */
PetscErrorCode DRCMSBoundaryCount_Private(DRComponent comp, const PetscBool isboundary[], PetscInt *nb);
PetscErrorCode DRCMSChooseMethods_Private(DRCMS c);
PetscErrorCode DRCMSPartition_Private(DRCMS c);
PetscErrorCode DRCMSViewBalance_Private(DRCMS c, PetscViewer v);
/* substructure.c: before the groups (names, methods, costs) and after them
 * (my group's components into c->comps) */
PetscErrorCode DRCMSSubstructure_Private(DRCMS c);
PetscErrorCode DRCMSSubstructureComponents_Private(DRCMS c);
PetscErrorCode DRCMSSubstructureDestroy_Private(DRCMS c);
/* interface.c */
PetscErrorCode DRCMSFindInterfaces_Private(DRCMS c);
/* assemble.c */
/* (assembly on the root nested in it, event DRCMS_Assemble) */
PetscErrorCode DRCMSGather_Private(DRCMS c);
/* solve.c: Q (nred x nm, column-major) on every rank */
PetscErrorCode DRCMSCoupledSolve_Private(DRCMS c, PetscReal **Q);
/* recover.c */
PetscErrorCode DRCMSRecover_Private(DRCMS c, const PetscReal *Q);
/* my component i's reduced coordinates (nb + nq) x ncol of the columns of Q */
PetscErrorCode DRCMSComponentCoordinates_Private(DRCMS c, PetscInt i, const PetscReal *Q, PetscInt ncol, PetscReal **Qc);
/* estimate.c: c->est_pct, c->share from the next computed modes Q */
PetscErrorCode DRCMSEstimate_Private(DRCMS c, const PetscReal *Q);
/* refine.c: after an estimate, what the next round enriches (redo[ncomp]:
 * components; c->csel: by residual corrections; c->iface_redo: CC modes) */
PetscErrorCode DRCMSRefine_Private(DRCMS c, PetscBool redo[], PetscBool *again);
/* the schedule: component k's first pass starts (start) or ends now */
PetscErrorCode DRCMSMark_Private(DRCMS c, PetscInt k, PetscBool start);
/* assemble.c: free what Gather and the coupled solve made (before a refinement) */
PetscErrorCode DRCMSResetCoupled_Private(DRCMS c);
/* cms.c: collective agreement on an error of one group (of the root alone: DRRootAgree) */
PetscErrorCode DRCMSAllGroupsAgree_Private(MPI_Comm comm, PetscErrorCode ierr);
/* size of component k (rank 0 of its group knows it), collective */
PetscErrorCode DRCMSComponentSize_Private(DRCMS c, PetscInt k, PetscInt *n);

/* checkpoint.c: Open before the reductions (cms.checkpoint, cms.reuse; the
 * directory made), Restore in place of my component i's Apply (after its
 * SetUp; *reused false: reduce it), Store after its Apply, Close after a
 * successful solve (the checkpoint pruned to this run's superelements),
 * Abandon when the reductions fail (what this run stored removed) */
PetscErrorCode DRCMSCheckpointOpen_Private(DRCMS c);
PetscErrorCode DRCMSCheckpointRestore_Private(DRCMS c, PetscInt i, PetscBool *reused);
PetscErrorCode DRCMSCheckpointStore_Private(DRCMS c, PetscInt i);
/* the same for phase 1 of the interface reduction before the projection
 * (the default path): modes, eigenvalues, S_c and M_c (iface_early.c) */
PetscErrorCode DRCMSCheckpointRestorePencil_Private(DRCMS c, PetscInt i, PetscBool *reused, PetscReal **S, PetscReal **MG);
PetscErrorCode DRCMSCheckpointStorePencil_Private(DRCMS c, PetscInt i, PetscReal *S, PetscReal *MG);
PetscErrorCode DRCMSCheckpointClose_Private(DRCMS c);
PetscErrorCode DRCMSCheckpointDestroy_Private(DRCMS c);
void           DRCMSCheckpointAbandon_Private(DRCMS c); /* error path of the reductions */

#endif
