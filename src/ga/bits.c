/* The GA's seeded RNG (xoshiro256** through splitmix64), bitstrings and the
 * bitstring cache (gaimpl.h).  Rank 0 only; no MPI. */
#include "gaimpl.h"
#include <stdlib.h>
#include <string.h>

static uint64_t SplitMix(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void DRRngSeed(DRRng *g, uint64_t seed)
{
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) g->s[i] = SplitMix(&x);
}

static inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t DRRngNext(DRRng *g)
{
  uint64_t *s = g->s, res = Rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = Rotl(s[3], 45);
  return res;
}

PetscReal DRRngUniform(DRRng *g) { return (PetscReal)(DRRngNext(g) >> 11) * 0x1.0p-53; }

PetscInt DRRngBelow(DRRng *g, PetscInt n)
{
  PetscInt k = (PetscInt)(DRRngUniform(g) * (PetscReal)n);
  return k < n ? k : n - 1;
}

PetscInt DRBitCount(PetscInt nw, const uint64_t *b)
{
  PetscInt c = 0;
  for (PetscInt i = 0; i < nw; i++) c += __builtin_popcountll(b[i]);
  return c;
}

uint64_t DRBitHash(PetscInt nw, const uint64_t *b)
{
  uint64_t h = 0x84222325cbf29ce4ULL;
  for (PetscInt i = 0; i < nw; i++) {
    uint64_t x = h ^ b[i];
    h          = SplitMix(&x);
  }
  return h;
}

PetscErrorCode DRBitCacheCreate(PetscInt nw, PetscInt nval, DRBitCache *c)
{
  PetscFunctionBeginUser;
  c->nw   = nw;
  c->nval = nval;
  c->cap  = 1024;
  c->n    = 0;
  PetscCall(PetscCalloc1(c->cap * nw, &c->keys));
  PetscCall(PetscCalloc1(c->cap * nval, &c->vals));
  PetscCall(PetscCalloc1(c->cap, &c->used));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBitCacheDestroy(DRBitCache *c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(c->keys));
  PetscCall(PetscFree(c->vals));
  PetscCall(PetscFree(c->used));
  c->n = c->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt Slot(const DRBitCache *c, const uint64_t *key)
{
  PetscInt i = (PetscInt)(DRBitHash(c->nw, key) & (uint64_t)(c->cap - 1));
  while (c->used[i] && memcmp(c->keys + i * c->nw, key, sizeof(uint64_t) * c->nw)) i = (i + 1) & (c->cap - 1);
  return i;
}

const PetscReal *DRBitCacheFind(const DRBitCache *c, const uint64_t *key)
{
  PetscInt i = Slot(c, key);
  return c->used[i] ? c->vals + i * c->nval : NULL;
}

PetscErrorCode DRBitCacheInsert(DRBitCache *c, const uint64_t *key, const PetscReal *val)
{
  PetscInt i;

  PetscFunctionBeginUser;
  if (2 * (c->n + 1) > c->cap) { /* grow to keep the load factor below 1/2 */
    DRBitCache o = *c;
    c->cap *= 2;
    c->n = 0;
    PetscCall(PetscCalloc1(c->cap * c->nw, &c->keys));
    PetscCall(PetscCalloc1(c->cap * c->nval, &c->vals));
    PetscCall(PetscCalloc1(c->cap, &c->used));
    for (PetscInt k = 0; k < o.cap; k++)
      if (o.used[k]) PetscCall(DRBitCacheInsert(c, o.keys + k * o.nw, o.vals + k * o.nval));
    PetscCall(DRBitCacheDestroy(&o));
  }
  i = Slot(c, key);
  if (!c->used[i]) {
    c->used[i] = 1;
    c->n++;
    PetscCall(PetscArraycpy(c->keys + i * c->nw, key, c->nw));
  }
  PetscCall(PetscArraycpy(c->vals + i * c->nval, val, c->nval));
  PetscFunctionReturn(PETSC_SUCCESS);
}
