/* NSGA-II building blocks (nsga2.h). */
#include "nsga2.h"
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

typedef struct {
  PetscReal r, e;
  PetscInt  i;
} Pt;

static int CmpRE(const void *a, const void *b)
{
  const Pt *p = (const Pt *)a, *q = (const Pt *)b;
  if (p->r != q->r) return p->r < q->r ? -1 : 1;
  if (p->e != q->e) return p->e < q->e ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

PetscErrorCode DRNSGASortFronts(PetscInt n, const PetscReal r[], const PetscReal e[], const PetscBool feas[], PetscInt front[], PetscReal crowd[])
{
  Pt        *p;
  PetscInt   nf = 0, np = 0, *cnt;
  PetscReal *mine, *minr;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(n + 1, &p, n + 1, &mine, n + 1, &minr, n + 1, &cnt));
  for (PetscInt i = 0; i < n; i++)
    if (feas[i]) {
      p[np].r = r[i];
      p[np].e = e[i];
      p[np].i = i;
      np++;
    }
  qsort(p, (size_t)np, sizeof(Pt), CmpRE);
  /* Two objectives: in (r, e) order every dominator of a point comes before
   * it, and front k holds a dominator exactly when its smallest e so far is
   * smaller than e (or equal at a smaller r). */
  for (PetscInt k = 0; k < np; k++) {
    PetscInt f = 0;
    while (f < nf && (mine[f] < p[k].e || (mine[f] == p[k].e && minr[f] < p[k].r))) f++;
    if (f == nf) {
      mine[nf] = p[k].e;
      minr[nf] = p[k].r;
      nf++;
    } else if (p[k].e < mine[f]) {
      mine[f] = p[k].e;
      minr[f] = p[k].r;
    }
    front[p[k].i] = f;
  }
  for (PetscInt i = 0; i < n; i++) {
    crowd[i] = 0;
    if (!feas[i]) front[i] = nf;
  }
  /* crowding distance per front, over p (already in (r, e) order) */
  for (PetscInt f = 0; f < nf; f++) {
    PetscInt  m = 0;
    Pt       *q;
    PetscReal dr, de;
    PetscCall(PetscMalloc1(np, &q));
    for (PetscInt k = 0; k < np; k++)
      if (front[p[k].i] == f) q[m++] = p[k];
    dr = q[m - 1].r - q[0].r;
    de = q[0].e - q[m - 1].e;
    crowd[q[0].i] = crowd[q[m - 1].i] = PETSC_INFINITY;
    for (PetscInt k = 1; k + 1 < m; k++) {
      PetscReal d = 0;
      if (dr > 0) d += (q[k + 1].r - q[k - 1].r) / dr;
      if (de > 0) d += PetscAbsReal(q[k - 1].e - q[k + 1].e) / de;
      crowd[q[k].i] = d;
    }
    PetscCall(PetscFree(q));
  }
  PetscCall(PetscFree4(p, mine, minr, cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal DRNSGAHypervolume(PetscInt n, const PetscReal r[], const PetscReal e[], const PetscBool feas[], const PetscInt front[], PetscReal rref, PetscReal eref)
{
  /* front 0 is a staircase: sorted by r, e falls */
  PetscReal hv = 0, ebest = eref;
  PetscInt  m  = 0;
  Pt       *q  = (Pt *)malloc(sizeof(Pt) * (size_t)(n + 1));
  for (PetscInt i = 0; i < n; i++)
    if (feas[i] && front[i] == 0 && r[i] < rref && e[i] < eref) {
      q[m].r = r[i];
      q[m].e = e[i];
      q[m].i = i;
      m++;
    }
  qsort(q, (size_t)m, sizeof(Pt), CmpRE);
  for (PetscInt k = 0; k < m; k++) {
    PetscReal rnext = rref;
    if (q[k].e >= ebest) continue; /* duplicate objective values */
    for (PetscInt j = k + 1; j < m; j++)
      if (q[j].r > q[k].r && q[j].e < q[k].e) {
        rnext = q[j].r;
        break;
      }
    hv += (rnext - q[k].r) * (eref - q[k].e);
    ebest = q[k].e;
  }
  free(q);
  return hv;
}
