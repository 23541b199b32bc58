/* NSGA-II operators on rank 0 (gaimpl.h): binary tournament, uniform
 * crossover, bit-flip mutation, environmental selection (unique bitstrings
 * by front and crowding), non-dominated sorting and crowding for two
 * objectives (r, e), and the hypervolume used by the stall test.
 * The order of the RNG draws is part of the result: a front depends on the
 * seed only, and a restarted run repeats the killed one exactly. */
#include "gaimpl.h"
#include <stdlib.h>
#include <string.h>

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

typedef struct {
  PetscInt  front, i;
  PetscReal crowd;
} Rank;

static int CmpRank(const void *a, const void *b)
{
  const Rank *p = (const Rank *)a, *q = (const Rank *)b;
  if (p->front != q->front) return p->front < q->front ? -1 : 1;
  if (p->crowd != q->crowd) return p->crowd > q->crowd ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* rank 0: the next population from n candidates (parents then offspring):
 * unique bitstrings ranked by front and crowding fill it first; duplicates
 * only if the unique ones are too few. */
PetscErrorCode DRGASelect(DRGA g, PetscInt n, const uint64_t *bits, const PetscReal *r, const PetscReal *e, const PetscBool *feas)
{
  DRBitCache seen;
  PetscInt  *uidx, nu = 0, *front, k = 0;
  PetscReal *ur, *ue, *crowd;
  PetscBool *uf, *dup;
  Rank      *rk;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Select, 0, 0, 0, 0));
  PetscCall(DRBitCacheCreate(g->nw, 1, &seen));
  PetscCall(PetscMalloc5(n, &uidx, n, &ur, n, &ue, n, &uf, n, &dup));
  PetscCall(PetscMalloc3(n, &front, n, &crowd, n, &rk));
  for (PetscInt i = 0; i < n; i++) {
    const uint64_t *b   = bits + i * g->nw;
    PetscReal       one = 1;
    dup[i]              = (PetscBool)(DRBitCacheFind(&seen, b) != NULL);
    if (dup[i]) continue;
    PetscCall(DRBitCacheInsert(&seen, b, &one));
    uidx[nu] = i;
    ur[nu]   = r[i];
    ue[nu]   = e[i];
    uf[nu]   = feas[i];
    nu++;
  }
  PetscCall(DRNSGASortFronts(nu, ur, ue, uf, front, crowd));
  for (PetscInt u = 0; u < nu; u++) {
    rk[u].front = front[u];
    rk[u].crowd = crowd[u];
    rk[u].i     = u;
  }
  qsort(rk, (size_t)nu, sizeof(Rank), CmpRank);
  {
    uint64_t  *P;
    PetscReal *Pr, *Pe, *Pc;
    PetscBool *Pf;
    PetscInt  *Pfr;
    PetscCall(PetscMalloc6(g->pop * g->nw, &P, g->pop, &Pr, g->pop, &Pe, g->pop, &Pc, g->pop, &Pf, g->pop, &Pfr));
    for (PetscInt u = 0; u < nu && k < g->pop; u++, k++) {
      PetscInt i = uidx[rk[u].i];
      PetscCall(PetscArraycpy(P + k * g->nw, bits + i * g->nw, g->nw));
      Pr[k]  = r[i];
      Pe[k]  = e[i];
      Pf[k]  = feas[i];
      Pfr[k] = rk[u].front;
      Pc[k]  = rk[u].crowd;
    }
    for (PetscInt i = 0; i < n && k < g->pop; i++)
      if (dup[i]) {
        PetscCall(PetscArraycpy(P + k * g->nw, bits + i * g->nw, g->nw));
        Pr[k]  = r[i];
        Pe[k]  = e[i];
        Pf[k]  = feas[i];
        Pfr[k] = PETSC_MAX_INT; /* a copy never wins a tournament against a unique one */
        Pc[k]  = 0;
        k++;
      }
    PetscCall(PetscFree6(g->P, g->Pr, g->Pe, g->Pcrowd, g->Pfeas, g->Pfront));
    g->P = P, g->Pr = Pr, g->Pe = Pe, g->Pcrowd = Pc, g->Pfeas = Pf, g->Pfront = Pfr;
  }
  PetscCall(PetscFree5(uidx, ur, ue, uf, dup));
  PetscCall(PetscFree3(front, crowd, rk));
  PetscCall(DRBitCacheDestroy(&seen));
  PetscCall(PetscLogEventEnd(DR_GA_Select, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt Tournament(DRGA g)
{
  PetscInt a = DRRngBelow(&g->rng, g->pop), b = DRRngBelow(&g->rng, g->pop);
  if (g->Pfront[a] != g->Pfront[b]) return g->Pfront[a] < g->Pfront[b] ? a : b;
  if (g->Pcrowd[a] != g->Pcrowd[b]) return g->Pcrowd[a] > g->Pcrowd[b] ? a : b;
  return PetscMin(a, b);
}

/* rank 0: pop offspring into Q (tournament, uniform crossover with
 * probability pc, bit-flip mutation with pm per gene) */
void DRGAOffspring(DRGA g, uint64_t *Q)
{
  for (PetscInt k = 0; k < g->pop; k += 2) {
    const uint64_t *pa = g->P + Tournament(g) * g->nw, *pb = g->P + Tournament(g) * g->nw;
    uint64_t       *c1 = Q + k * g->nw, *c2 = Q + (k + 1) * g->nw;
    memcpy(c1, pa, sizeof(uint64_t) * g->nw);
    memcpy(c2, pb, sizeof(uint64_t) * g->nw);
    if (DRRngUniform(&g->rng) < g->pc)
      for (PetscInt j = 0; j < g->nvar; j++)
        if (DRRngUniform(&g->rng) < 0.5 && DRBitGet(c1, j) != DRBitGet(c2, j)) {
          DRBitFlip(c1, j);
          DRBitFlip(c2, j);
        }
    for (PetscInt j = 0; j < g->nvar; j++) {
      if (DRRngUniform(&g->rng) < g->pm) DRBitFlip(c1, j);
      if (DRRngUniform(&g->rng) < g->pm) DRBitFlip(c2, j);
    }
  }
}
