/* dynred ss: virtual hybrid simulation (METHODS.md section 4: iterative
 * dynamic condensation and GA master-DOF selection for real-time hybrid
 * simulation).
 *
 * A linear second-order model (a reduced model condensed to master DOFs, or
 * the full model) coupled to an external element given as a callback: the
 * element sees only its elongation dl = g^T d (g = [-e, e] on the four
 * translation DOFs of its two nodes) and returns N(dl) and dN/d(dl); its
 * force on the model is N g.  A linear damper cd along the element is part
 * of the linear model (D + cd g g^T).
 *
 *   central  (M/h^2 + D/2h) d_{n+1} = P u_n - (K - 2M/h^2) d_n
 *                                    - (M/h^2 - D/2h) d_{n-1} - N(g^T d_n) g
 *            one LU at setup, O(n^2) per step, explicit in the element.
 *   newmark  average acceleration; Newton on d_{n+1} with the tangent
 *            Keff + N'(dl) g g^T, solved by Sherman-Morrison on one LU of
 *            Keff = K + 2/h D + 4/h^2 M: O(n^2) per iteration.  A law
 *            with a rate (a table with a velocity column, hybrid_table.c)
 *            adds dN/d(dl') * 2/h to N'(dl): dl' = g^T v_{n+1} and
 *            v_{n+1} = v_pred + 2/h (d_{n+1} - d_pred).
 */
#include <dynred/ss.h>
#include <petscblaslapack.h>
#include <math.h>
#include <string.h>

PetscErrorCode DRHybridLawA(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl)
{
  PetscReal k = ctx ? *(PetscReal *)ctx : 131.35;
  *N          = k * dl;
  *dNdl       = k;
  return PETSC_SUCCESS;
}

PetscErrorCode DRHybridLawB(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl)
{
  *N    = 120 * dl + dl * dl * dl;
  *dNdl = 120 + 3 * dl * dl;
  return PETSC_SUCCESS;
}

PetscErrorCode DRHybridLawC(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl)
{
  *N    = 150 * dl - 0.2 * dl * dl * dl;
  *dNdl = 150 - 0.6 * dl * dl;
  return PETSC_SUCCESS;
}

typedef struct {
  PetscBLASInt n, *piv;
  PetscReal   *LU; /* column-major LU of a row-major symmetric-or-not matrix (transposed solve) */
} Dense;

/* LU of the row-major n x n matrix a (stored as its transpose in LAPACK's
 * column-major view: solves use 'T'). */
static PetscErrorCode DenseFactor(PetscInt n, const PetscReal a[], Dense *f)
{
  PetscBLASInt info;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &f->n));
  PetscCall(PetscMalloc2(n * n, &f->LU, n, &f->piv));
  PetscCall(PetscArraycpy(f->LU, a, n * n));
  LAPACKgetrf_(&f->n, &f->n, f->LU, &f->n, f->piv, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "hybrid: singular matrix (LAPACK dgetrf info %d)", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DenseSolve(Dense *f, PetscReal b[])
{
  PetscBLASInt one = 1, info;

  PetscFunctionBeginUser;
  LAPACKgetrs_("T", &f->n, &one, f->LU, &f->n, f->piv, b, &f->n, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "hybrid: LAPACK dgetrs info %d", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DenseFree(Dense *f)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(f->LU, f->piv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x (row-major n x n), optionally accumulated with factor s: y += s A x */
static void MatVecAdd(PetscInt n, const PetscReal A[], const PetscReal x[], PetscReal s, PetscReal y[])
{
  for (PetscInt i = 0; i < n; i++) {
    PetscReal a = 0;
    const PetscReal *r = A + i * n;
    for (PetscInt j = 0; j < n; j++) a += r[j] * x[j];
    y[i] += s * a;
  }
}

/* The loop's data: the model, its input, the element direction g and the
 * damping D + cd g g^T, and where to record. */
typedef struct {
  const DRHybridModel *hm;
  const DRSSInput     *u;
  PetscInt             n, nin, nobs;
  const PetscInt      *obs;
  PetscReal           *D, *g, *uval, *Y;
  PetscBool            rate; /* the law is a table with a velocity column */
} Hyb;

/* Element force N(g^T d, g^T v) and tangents dN/d(dl), dN/d(dl') (0
 * without an element; the rate enters only a table law with a velocity
 * column: v may be NULL otherwise). */
static PetscErrorCode ElForce(Hyb *c, const PetscReal d[], const PetscReal v[], PetscReal *N, PetscReal *kt, PetscReal *kv)
{
  PetscFunctionBeginUser;
  *N  = 0;
  *kt = 0;
  *kv = 0;
  if (c->hm->el) {
    PetscReal dl = 0, rate = 0;
    for (PetscInt i = 0; i < c->n; i++) dl += c->g[i] * d[i];
    if (c->rate) {
      for (PetscInt i = 0; i < c->n; i++) rate += c->g[i] * v[i];
      PetscCall(DRHybridTableSetRate((DRHybridTable)c->hm->el->ctx, rate));
    }
    PetscCall(c->hm->el->law(c->hm->el->ctx, dl, N, kt));
    if (c->rate) PetscCall(DRHybridTableGetRateTangent((DRHybridTable)c->hm->el->ctx, kv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* External force out = P u(t). */
static PetscErrorCode Force(Hyb *c, PetscReal t, PetscReal out[])
{
  PetscInt n = c->n, nin = c->nin;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) out[i] = 0;
  if (c->u && nin) {
    PetscCall(c->u->eval(c->u->ctx, t, c->uval));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < nin; j++) out[i] += c->hm->P[i * nin + j] * c->uval[j];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Observe(Hyb *c, PetscInt step, const PetscReal d[])
{
  if (c->Y)
    for (PetscInt o = 0; o < c->nobs; o++) c->Y[step * c->nobs + o] = d[c->obs[o]];
}

/* Central difference from (d, v, a) at t = 0. */
static PetscErrorCode HybCentral(Hyb *c, PetscReal h, PetscInt nsteps, const PetscReal d[], const PetscReal v[], const PetscReal a[])
{
  const DRHybridModel *hm = c->hm;
  PetscInt             n  = c->n;
  PetscReal           *L, *A1, *A2, *dp, *dn, *dc, *D = c->D, *g = c->g;
  Dense                fL;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n * n, &L, n * n, &A1, n * n, &A2));
  /* three individually allocated buffers rotate: d_{n-1}, d_n, d_{n+1} */
  PetscCall(PetscMalloc1(n, &dp));
  PetscCall(PetscMalloc1(n, &dn));
  PetscCall(PetscMalloc1(n, &dc));
  PetscCall(PetscArraycpy(dc, d, n));
  for (PetscInt i = 0; i < n * n; i++) {
    L[i]  = hm->M[i] / (h * h) + D[i] / (2 * h);
    A1[i] = hm->K[i] - 2 * hm->M[i] / (h * h);
    A2[i] = hm->M[i] / (h * h) - D[i] / (2 * h);
  }
  PetscCall(DenseFactor(n, L, &fL));
  for (PetscInt i = 0; i < n; i++) dp[i] = dc[i] - h * v[i] + 0.5 * h * h * a[i];
  for (PetscInt s = 0; s < nsteps; s++) {
    PetscReal N, kt, kv;
    PetscCall(Force(c, s * h, dn));
    PetscCall(ElForce(c, dc, NULL, &N, &kt, &kv));
    for (PetscInt i = 0; i < n; i++) dn[i] -= N * g[i];
    MatVecAdd(n, A1, dc, -1.0, dn);
    MatVecAdd(n, A2, dp, -1.0, dn);
    PetscCall(DenseSolve(&fL, dn));
    {
      PetscReal *t = dp;
      dp           = dc;
      dc           = dn;
      dn           = t;
    }
    PetscCheck(PetscIsNormalReal(dc[0] + 1.0), PETSC_COMM_SELF, DR_ERR_INPUT, "hybrid central difference diverged at step %" PetscInt_FMT " (h = %g above the stability limit?)", s + 1, (double)h);
    Observe(c, s + 1, dc);
  }
  PetscCall(DenseFree(&fL));
  PetscCall(PetscFree3(L, A1, A2));
  PetscCall(PetscFree(dp));
  PetscCall(PetscFree(dn));
  PetscCall(PetscFree(dc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Newmark average acceleration from (d, v, a) at t = 0 (overwritten),
 * Newton on the element by Sherman-Morrison on one LU of Keff. */
static PetscErrorCode HybNewmark(Hyb *c, PetscReal h, PetscInt nsteps, PetscReal d[], PetscReal v[], PetscReal a[], PetscInt *its)
{
  const DRHybridModel *hm = c->hm;
  PetscInt             n  = c->n;
  PetscReal           *Ke, *w, *dp, *vp, *d1, *a1, *v1, *r, gw = 0, beta = 0.25, gam = 0.5, *D = c->D, *g = c->g;
  Dense                fK;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc5(n * n, &Ke, n, &w, n, &dp, n, &vp, n, &d1));
  PetscCall(PetscMalloc3(n, &a1, n, &v1, n, &r));
  for (PetscInt i = 0; i < n * n; i++) Ke[i] = hm->K[i] + gam / (beta * h) * D[i] + hm->M[i] / (beta * h * h);
  PetscCall(DenseFactor(n, Ke, &fK));
  PetscCall(PetscArraycpy(w, g, n));
  PetscCall(DenseSolve(&fK, w));
  for (PetscInt i = 0; i < n; i++) gw += g[i] * w[i];
  for (PetscInt s = 0; s < nsteps; s++) {
    PetscReal fext[1024], *fe = n <= 1024 ? fext : NULL, dmax, dd;
    PetscInt  it = 0;
    PetscCheck(fe, PETSC_COMM_SELF, PETSC_ERR_SUP, "hybrid newmark: at most 1024 coordinates");
    for (PetscInt i = 0; i < n; i++) {
      dp[i] = d[i] + h * v[i] + (0.5 - beta) * h * h * a[i];
      vp[i] = v[i] + (1 - gam) * h * a[i];
      d1[i] = dp[i];
    }
    PetscCall(Force(c, (s + 1) * h, fe));
    do {
      PetscReal N, kt, kv, gy = 0, cc;
      for (PetscInt i = 0; i < n; i++) {
        a1[i] = (d1[i] - dp[i]) / (beta * h * h);
        v1[i] = vp[i] + gam * h * a1[i];
      }
      PetscCall(ElForce(c, d1, v1, &N, &kt, &kv));
      kt += kv * gam / (beta * h); /* d(dl')/d(dl) of the Newmark update */
      for (PetscInt i = 0; i < n; i++) r[i] = fe[i] - N * g[i];
      MatVecAdd(n, hm->M, a1, -1.0, r);
      MatVecAdd(n, D, v1, -1.0, r);
      MatVecAdd(n, hm->K, d1, -1.0, r);
      PetscCall(DenseSolve(&fK, r));
      for (PetscInt i = 0; i < n; i++) gy += g[i] * r[i];
      cc   = hm->el ? kt * gy / (1 + kt * gw) : 0;
      dmax = 0;
      dd   = 0;
      for (PetscInt i = 0; i < n; i++) {
        PetscReal delta = r[i] - cc * w[i];
        d1[i] += delta;
        dd   = PetscMax(dd, PetscAbsReal(delta));
        dmax = PetscMax(dmax, PetscAbsReal(d1[i]));
      }
      it++;
      PetscCheck(it <= 50 && PetscIsNormalReal(dmax + 1.0), PETSC_COMM_SELF, DR_ERR_INPUT, "hybrid newmark: Newton did not converge at step %" PetscInt_FMT " (|delta| %g)", s + 1, (double)dd);
    } while (hm->el && dd > 1e-12 * dmax + 1e-300);
    *its += it;
    for (PetscInt i = 0; i < n; i++) {
      a[i] = (d1[i] - dp[i]) / (beta * h * h);
      v[i] = vp[i] + gam * h * a[i];
      d[i] = d1[i];
    }
    Observe(c, s + 1, d);
  }
  PetscCall(DenseFree(&fK));
  PetscCall(PetscFree5(Ke, w, dp, vp, d1));
  PetscCall(PetscFree3(a1, v1, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridSimulate(const DRHybridModel *hm, const char *method, PetscReal h, PetscInt nsteps, const DRSSInput *u, PetscInt nobs, const PetscInt obs[], PetscReal Y[], PetscInt *newton_its)
{
  PetscInt  n = hm->n, nin = hm->nin, its = 0;
  PetscReal *d, *v, *a;
  Dense     fM;
  Hyb       c;

  PetscFunctionBeginUser;
  PetscCheck(!u || u->nin == nin, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "hybrid: input has %" PetscInt_FMT " channels, model %" PetscInt_FMT, u ? u->nin : 0, nin);
  PetscCheck(!strcmp(method, "central") || !strcmp(method, "newmark"), PETSC_COMM_SELF, DR_ERR_INPUT, "hybrid: unknown method '%s'; expected central or newmark", method);
  c.hm   = hm;
  c.u    = u;
  c.n    = n;
  c.nin  = nin;
  c.nobs = nobs;
  c.obs  = obs;
  c.Y    = Y;
  c.rate = PETSC_FALSE;
  if (hm->el && hm->el->law == DRHybridLawTable) PetscCall(DRHybridTableHasRate((DRHybridTable)hm->el->ctx, &c.rate));
  PetscCheck(!c.rate || !strcmp(method, "newmark"), PETSC_COMM_SELF, DR_ERR_INPUT, "hybrid: a force table with a velocity column needs the implicit integrator, expected method newmark (central is explicit in the element)");
  PetscCall(PetscMalloc3(n * n, &c.D, n, &c.g, nin + 1, &c.uval));
  PetscCall(PetscMalloc3(n, &d, n, &v, n, &a));
  PetscCall(PetscArraycpy(c.D, hm->D, n * n));
  PetscCall(PetscArrayzero(c.g, n));
  if (hm->el) {
    const DRHybridElement *el = hm->el;
    PetscReal              s[4] = {-el->e[0], -el->e[1], el->e[0], el->e[1]};
    for (int q = 0; q < 4; q++)
      if (el->idx[q] >= 0) c.g[el->idx[q]] += s[q];
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = 0; j < n; j++) c.D[i * n + j] += el->cd * c.g[i] * c.g[j];
  }
  /* initial state at rest: a0 = M^-1 (P u0 - N(0) g) */
  {
    PetscReal N0, kt0, kv0;
    PetscCall(PetscArrayzero(d, n));
    PetscCall(PetscArrayzero(v, n));
    PetscCall(Force(&c, 0.0, a));
    PetscCall(ElForce(&c, d, v, &N0, &kt0, &kv0));
    for (PetscInt i = 0; i < n; i++) a[i] -= N0 * c.g[i];
    PetscCall(DenseFactor(n, hm->M, &fM));
    PetscCall(DenseSolve(&fM, a));
    PetscCall(DenseFree(&fM));
  }
  Observe(&c, 0, d);
  if (!strcmp(method, "central")) PetscCall(HybCentral(&c, h, nsteps, d, v, a));
  else PetscCall(HybNewmark(&c, h, nsteps, d, v, a, &its));
  if (newton_its) *newton_its = its;
  PetscCall(PetscFree3(c.D, c.g, c.uval));
  PetscCall(PetscFree3(d, v, a));
  PetscFunctionReturn(PETSC_SUCCESS);
}
