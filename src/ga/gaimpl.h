/* Private layout of DRGA and the internal interfaces between the files of
 * src/ga (ga.h is the public face):
 *   engine.c      the object: Create/SetConfig/SetFromOptions/SetUp/Solve/
 *                 Destroy, the generation loop, the package (class, events)
 *   problem.c     the master-DOF problem: model, forced masters, candidate
 *                 genes, full eigenvalues, b; the farm groups and their
 *                 condensation
 *   fitness.c     the objectives of a batch of bitstrings (cache + farm,
 *                 condensation of one individual), the final front's
 *                 reduced models
 *   operators.c   NSGA-II: tournament, uniform crossover, bit-flip mutation,
 *                 environmental selection, fronts, crowding, hypervolume
 *   bits.c        the seeded RNG, bitstrings, the bitstring cache
 *   checkpoint.c  the GA checkpoint (every HDF5 call of src/ga is here)
 *   io.c          DRGAWrite (HDF5 + CSV) and DRGAView (the front table)
 */
#ifndef DYNRED_GA_IMPL_H
#define DYNRED_GA_IMPL_H

#include <dynred/ga.h>
#include <dynred/condense.h>
#include <dynred/farm.h>
#include <dynred/model.h>
#include <dynred/preflight.h>
#include <stdint.h>

/* cache values: e, feasible (1/0), omega_max^2 of the reduced model, IDC outer steps */
#define NVAL 4

/* ---- bits.c: xoshiro256** seeded through splitmix64 (the same stream on every machine) */
typedef struct {
  uint64_t s[4];
} DRRng;
void      DRRngSeed(DRRng *g, uint64_t seed);
uint64_t  DRRngNext(DRRng *g);
PetscReal DRRngUniform(DRRng *g);           /* [0, 1) with 53 bits */
PetscInt  DRRngBelow(DRRng *g, PetscInt n); /* 0 .. n-1 */

/* Bitstrings of nvar genes in nw = ceil(nvar/64) words. */
static inline int  DRBitGet(const uint64_t *b, PetscInt j) { return (int)((b[j >> 6] >> (j & 63)) & 1u); }
static inline void DRBitFlip(uint64_t *b, PetscInt j) { b[j >> 6] ^= (uint64_t)1 << (j & 63); }
PetscInt DRBitCount(PetscInt nw, const uint64_t *b);
uint64_t DRBitHash(PetscInt nw, const uint64_t *b);

/* Cache: bitstring -> nval reals (open addressing, grows). */
typedef struct {
  PetscInt   nw, nval, cap, n;
  uint64_t  *keys;
  PetscReal *vals;
  char      *used;
} DRBitCache;
PetscErrorCode DRBitCacheCreate(PetscInt nw, PetscInt nval, DRBitCache *c);
PetscErrorCode DRBitCacheDestroy(DRBitCache *c);
/* NULL when absent */
const PetscReal *DRBitCacheFind(const DRBitCache *c, const uint64_t *key);
PetscErrorCode   DRBitCacheInsert(DRBitCache *c, const uint64_t *key, const PetscReal *val);

/* ---- the object */
struct _p_DRGA {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  DRConfig    cfg; /* the job file (a reference), or an empty one of our own */
  PetscBool   cfg_owned, optset, setup, solved;
  char        origin[PETSC_MAX_PATH_LEN], output[PETSC_MAX_PATH_LEN], ckpt[PETSC_MAX_PATH_LEN], csv[PETSC_MAX_PATH_LEN], signature[512];
  /* settings (DRGASetFromOptions) */
  char             method[16]; /* the condensation type: DRCONDENSE_IDC, _IRS or _GUYAN */
  PetscInt         inner, outer, pop, maxgen, stall_gens, ckpt_every, stop_after, progress_every, group_size, dist_dofs, dense_max;
  PetscInt64       seed;
  PetscReal        e_res, idc_tol, fmax, time_unit, pc, pm, stall_tol, dt_safety;
  PetscBool        rotations;
  char             forced_text[4096]; /* ga.forced_masters as given */
  PetscReal       *cn;                /* ga.candidate_nodes, sorted */
  PetscInt         ncn;
  /* problem (replicated; problem.c) */
  PetscInt   n, nforced, nvar, nw, b, nfull, gs;
  DRLabel   *labels;   /* n, row order */
  PetscInt  *forced, *cand; /* row indices */
  PetscReal *lam_full; /* nfull lowest eigenvalues of the full model */
  /* per group */
  DRFarm      farm;
  MPI_Comm    group;
  PetscInt    ngroups, igroup;
  DRComponent model;
  DRCondense  cond;
  /* evaluation batch (replicated during a farm run) */
  PetscInt  nbatch;
  uint64_t *batch;
  PetscBool full_result;
  /* GA state (rank 0) */
  DRRng      rng;
  DRBitCache cache;
  uint64_t  *P;
  PetscReal *Pr, *Pe, *Pcrowd;
  PetscBool *Pfeas;
  PetscInt  *Pfront;
  PetscInt   gen;
  PetscReal *hv, eref, rref;
  PetscInt   nevals, nrestored_gen;
  char       stop_reason[128];
  PetscReal  t_eval, t_total; /* from the DRGAEvalBatch and DRGASolve events */
  /* where the optimisation's time went, per rank (rank 0 gathers them:
   * size x DR_GA_NSPLIT, the columns of DRGASplitNames) */
  PetscReal *tsplit;
  PetscReal  t_cpu; /* CPU seconds of this process during the optimisation */
  /* final front (replicated after DRGASolve) */
  PetscInt    nfront;
  uint64_t   *fbits;
  PetscInt   *fr;    /* nfront: r of each solution */
  PetscReal **fres;  /* nfront: [e, feasible, lambda_max_R, outer, lam (r), K_R (r*r), M_R (r*r)] */
  char      **ftxt;  /* nfront: the masters as GA labels, space-separated */
  PetscReal  *Kfull, *Mfull; /* dense full model on rank 0 when n <= dense_max (written to /ga/model) */
};

/* ---- package (engine.c) */
extern PetscClassId  DR_GA_CLASSID;
extern PetscLogEvent DR_GA_SetUp, DR_GA_Solve, DR_GA_Generation, DR_GA_EvalBatch, DR_GA_Fitness, DR_GA_Select, DR_GA_Checkpoint, DR_GA_Front, DR_GA_Write;
#define DR_GA_NSPLIT 6
extern const char *const DRGASplitNames[DR_GA_NSPLIT];
/* Seconds this process spent in an event so far (logging is active after DRGAInitializePackage). */
PetscErrorCode DRGAEventSeconds(PetscLogEvent ev, PetscReal *s);

/* ---- problem.c */
PetscErrorCode DRGAProblemSetUp(DRGA g);
PetscInt       DRGAMasters(DRGA g, const uint64_t *bits, PetscInt *m); /* sorted rows; returns r */
PetscErrorCode DRGAForcedString(DRGA g, char *buf, size_t len);

/* ---- fitness.c */
PetscErrorCode DRGAEvaluate(DRGA g, PetscInt nind, const uint64_t *bits, PetscReal *r, PetscReal *e, PetscBool *feas);
PetscErrorCode DRGAFrontResults(DRGA g);

/* ---- operators.c (rank 0) */
void           DRGAOffspring(DRGA g, uint64_t *Q);
PetscErrorCode DRGASelect(DRGA g, PetscInt n, const uint64_t *bits, const PetscReal *r, const PetscReal *e, const PetscBool *feas);
/* Fronts (0 = non-dominated) of n points (r_i, e_i) over the feasible ones
 * (minimization, a point dominates another when no worse in both and better
 * in one); infeasible points get front = 1 + the last feasible front.
 * crowd: NSGA-II crowding distance within each front (boundaries = inf).
 * Deterministic: ties broken by index. */
PetscErrorCode DRNSGASortFronts(PetscInt n, const PetscReal r[], const PetscReal e[], const PetscBool feas[], PetscInt front[], PetscReal crowd[]);
/* Hypervolume dominated by the feasible points of front 0 w.r.t. (rref, eref). */
PetscReal DRNSGAHypervolume(PetscInt n, const PetscReal r[], const PetscReal e[], const PetscBool feas[], const PetscInt front[], PetscReal rref, PetscReal eref);

/* ---- checkpoint.c (rank 0) */
PetscErrorCode DRGACheckpointWrite(DRGA g);
/* restore the state if the checkpoint exists; msg says why not */
PetscErrorCode DRGACheckpointRead(DRGA g, PetscBool *found, char *msg, size_t len);

#endif
