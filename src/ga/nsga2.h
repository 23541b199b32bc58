/* NSGA-II building blocks on rank 0 (src/ga internal): the seeded RNG,
 * bitstrings, the bitstring cache, non-dominated sorting and crowding for
 * two objectives (r, e), and the hypervolume used by the stall test. */
#ifndef DYNRED_GA_NSGA2_H
#define DYNRED_GA_NSGA2_H
#include <dynred/sys.h>
#include <stdint.h>

/* xoshiro256** seeded through splitmix64: the same stream on every machine. */
typedef struct {
  uint64_t s[4];
} DRRng;
void      DRRngSeed(DRRng *g, uint64_t seed);
uint64_t  DRRngNext(DRRng *g);
PetscReal DRRngUniform(DRRng *g);            /* [0, 1) with 53 bits */
PetscInt  DRRngBelow(DRRng *g, PetscInt n);  /* 0 .. n-1 */

/* Bitstrings of nvar genes in nw = ceil(nvar/64) words. */
static inline int  DRBitGet(const uint64_t *b, PetscInt j) { return (int)((b[j >> 6] >> (j & 63)) & 1u); }
static inline void DRBitFlip(uint64_t *b, PetscInt j) { b[j >> 6] ^= (uint64_t)1 << (j & 63); }
PetscInt DRBitCount(PetscInt nw, const uint64_t *b);
uint64_t DRBitHash(PetscInt nw, const uint64_t *b);

/* Cache: bitstring -> nval reals (open addressing, grows). */
typedef struct {
  PetscInt  nw, nval, cap, n;
  uint64_t *keys;
  PetscReal *vals;
  char     *used;
} DRBitCache;
PetscErrorCode DRBitCacheCreate(PetscInt nw, PetscInt nval, DRBitCache *c);
PetscErrorCode DRBitCacheDestroy(DRBitCache *c);
/* NULL when absent */
const PetscReal *DRBitCacheFind(const DRBitCache *c, const uint64_t *key);
PetscErrorCode   DRBitCacheInsert(DRBitCache *c, const uint64_t *key, const PetscReal *val);

/* Fronts (0 = non-dominated) of n points (r_i, e_i) over the feasible ones
 * (minimization, a point dominates another when no worse in both and better
 * in one); infeasible points get front = 1 + the last feasible front.
 * crowd: NSGA-II crowding distance within each front (boundaries = inf).
 * Deterministic: ties broken by index. */
PetscErrorCode DRNSGASortFronts(PetscInt n, const PetscReal r[], const PetscReal e[], const PetscBool feas[], PetscInt front[], PetscReal crowd[]);
/* Hypervolume dominated by the feasible points of front 0 w.r.t. (rref, eref). */
PetscReal DRNSGAHypervolume(PetscInt n, const PetscReal r[], const PetscReal e[], const PetscBool feas[], const PetscInt front[], PetscReal rref, PetscReal eref);
#endif
