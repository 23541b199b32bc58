/* dynred ss: fixed-step time integration of the modal state-space model.
 *
 * Exact (quadratic input hold), ZOH, Newmark and central difference are written
 * here: A is block diagonal, so each works mode by mode in O(m) per step
 * (plus the input and output maps, O(m (nin + nout))).  The Runge-Kutta,
 * theta and generalized-alpha schemes are PETSc TS with adaptivity off. */
#include "ssimpl.h"
#include <math.h>
#include <string.h>

/* Modal forces f = Bm u(t). */
PetscErrorCode DRSSSimForce(DRSSSim s, PetscReal t, PetscReal f[])
{
  DRSS ss = s->ss;

  PetscFunctionBeginUser;
  if (!s->u || !ss->nin) {
    for (PetscInt k = 0; k < ss->m; k++) f[k] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(s->u->eval(s->u->ctx, t, s->uval));
  for (PetscInt k = 0; k < ss->m; k++) {
    PetscReal a = 0;
    for (PetscInt j = 0; j < ss->nin; j++) a += ss->Bm[k * ss->nin + j] * s->uval[j];
    f[k] = a;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Output y = C x and optional state at step n; x interleaved (stride 2), or
 * given as separate displacement/velocity arrays when x is NULL. */
void DRSSSimRecord(DRSSSim s, PetscInt n, const PetscReal x[], const PetscReal d[], const PetscReal v[])
{
  DRSS ss = s->ss;
  if (n < 0 || n > s->nsteps) return;
  if (s->Y) {
    PetscReal *y = s->Y + n * 2 * ss->nout;
    for (PetscInt i = 0; i < ss->nout; i++) {
      const PetscReal *c  = ss->Cm + i * ss->m;
      PetscReal        yd = 0, yv = 0;
      if (x)
        for (PetscInt k = 0; k < ss->m; k++) {
          yd += c[k] * x[2 * k];
          yv += c[k] * x[2 * k + 1];
        }
      else
        for (PetscInt k = 0; k < ss->m; k++) {
          yd += c[k] * d[k];
          yv += c[k] * v[k];
        }
      y[2 * i]     = yd;
      y[2 * i + 1] = yv;
    }
  }
  if (s->X) {
    PetscReal *xs = s->X + n * 2 * ss->m;
    for (PetscInt k = 0; k < ss->m; k++) {
      xs[2 * k]     = x ? x[2 * k] : d[k];
      xs[2 * k + 1] = x ? x[2 * k + 1] : v[k];
    }
  }
}

/* exp(Z) of a small (N <= 5) row-major matrix: scaling and squaring with a
 * degree-18 Taylor polynomial on ||Z/2^s||_1 <= 1/2 (truncation < 1e-22). */
#define NX 5
static PetscBool Expm(const PetscReal Z[NX * NX], PetscReal E[NX * NX])
{
  PetscReal nrm = 0, S[NX * NX], T[NX * NX];
  int       s   = 0;
  for (int j = 0; j < NX; j++) {
    PetscReal c = 0;
    for (int i = 0; i < NX; i++) c += PetscAbsReal(Z[i * NX + j]);
    nrm = PetscMax(nrm, c);
  }
  /* an overflowed entry (h omega^2 or h c beyond the double range) would halve
   * forever; a norm beyond 2^1000 has no meaningful exponential either */
  if (PetscIsInfOrNanReal(nrm) || nrm > 1e300) return PETSC_FALSE;
  while (nrm > 0.5) {
    nrm /= 2;
    s++;
  }
  for (int i = 0; i < NX * NX; i++) S[i] = ldexp(Z[i], -s);
  /* Horner: E = I + S/1 (I + S/2 (I + ... (I + S/18))) */
  for (int i = 0; i < NX * NX; i++) E[i] = (i % (NX + 1) == 0) ? 1 : 0;
  for (int k = 18; k >= 1; k--) {
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NX; j++) {
        PetscReal a = 0;
        for (int l = 0; l < NX; l++) a += S[i * NX + l] * E[l * NX + j];
        T[i * NX + j] = a / k + (i == j ? 1 : 0);
      }
    for (int i = 0; i < NX * NX; i++) E[i] = T[i];
  }
  for (int q = 0; q < s; q++) {
    for (int i = 0; i < NX; i++)
      for (int j = 0; j < NX; j++) {
        PetscReal a = 0;
        for (int l = 0; l < NX; l++) a += E[i * NX + l] * E[l * NX + j];
        T[i * NX + j] = a;
      }
    for (int i = 0; i < NX * NX; i++) E[i] = T[i];
  }
  return PETSC_TRUE;
}

/* Exact stepping of each 2x2 block.  The modal force over a step is taken as
 * the quadratic through f(t_n), f(t_n + h/2), f(t_n + h) ('exact': exact for
 * inputs that are quadratic, linear or constant on each step; O(h^3) input
 * interpolation otherwise) or as the constant f(t_n) ('zoh').  With
 * z = [eta, deta, f, f', f''], z' = Z z, one 5x5 exponential per mode gives
 * x_{n+1} = Phi x_n + g0 f_n + gm f_{n+1/2} + g1 f_{n+1}. */
static PetscErrorCode SimExact(DRSSSim s, const PetscReal x0[], PetscBool quad, PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m;
  PetscReal *G, *x, *f0, *fm, *f1, h = s->h;

  PetscFunctionBeginUser;
  /* per mode: Phi (4), then for rows 0 and 1: g0, gm, g1 */
  PetscCall(PetscMalloc5(10 * m, &G, 2 * m, &x, m, &f0, m, &fm, m, &f1));
  for (PetscInt k = 0; k < m; k++) {
    PetscReal Z[NX * NX] = {0}, E[NX * NX], *g = G + 10 * k;
    Z[0 * NX + 1] = h;
    Z[1 * NX + 0] = -ss->omega[k] * ss->omega[k] * h;
    Z[1 * NX + 1] = -ss->c[k] * h;
    Z[1 * NX + 2] = h;
    Z[2 * NX + 3] = h;
    Z[3 * NX + 4] = h;
    PetscCheck(Expm(Z, E), PETSC_COMM_SELF, DR_ERR_INPUT, "ss.sim: the exact step of mode %" PetscInt_FMT " (omega %g rad/s, damping %g 1/s) with h = %g s has no finite matrix exponential, expected h * omega^2 and h * c below 1e300 (a smaller ss.sim.h or a physical damping)", k + 1, (double)ss->omega[k], (double)ss->c[k], (double)h);
    g[0] = E[0 * NX + 0];
    g[1] = E[0 * NX + 1];
    g[2] = E[1 * NX + 0];
    g[3] = E[1 * NX + 1];
    for (int r = 0; r < 2; r++) {
      PetscReal e2 = E[r * NX + 2], e3 = E[r * NX + 3], e4 = E[r * NX + 4];
      /* f' = (4 fm - 3 f0 - f1)/h, f'' = 4 (f1 - 2 fm + f0)/h^2 */
      g[4 + 3 * r + 0] = quad ? e2 - 3 * e3 / h + 4 * e4 / (h * h) : e2;
      g[4 + 3 * r + 1] = quad ? 4 * e3 / h - 8 * e4 / (h * h) : 0;
      g[4 + 3 * r + 2] = quad ? -e3 / h + 4 * e4 / (h * h) : 0;
    }
  }
  for (PetscInt i = 0; i < 2 * m; i++) x[i] = x0 ? x0[i] : 0;
  PetscCall(DRSSSimForce(s, 0, f0));
  DRSSSimRecord(s, 0, x, NULL, NULL);
  for (PetscInt n = 0; n < s->nsteps; n++) {
    PetscCall(DRSSSimForce(s, (n + 1) * h, f1));
    if (quad) PetscCall(DRSSSimForce(s, (n + 0.5) * h, fm));
    for (PetscInt k = 0; k < m; k++) {
      const PetscReal *g = G + 10 * k;
      PetscReal        a = x[2 * k], b = x[2 * k + 1];
      if (quad) {
        x[2 * k]     = g[0] * a + g[1] * b + g[4] * f0[k] + g[5] * fm[k] + g[6] * f1[k];
        x[2 * k + 1] = g[2] * a + g[3] * b + g[7] * f0[k] + g[8] * fm[k] + g[9] * f1[k];
      } else {
        x[2 * k]     = g[0] * a + g[1] * b + g[4] * f0[k];
        x[2 * k + 1] = g[2] * a + g[3] * b + g[7] * f0[k];
      }
      f0[k] = f1[k];
    }
    DRSSSimRecord(s, n + 1, x, NULL, NULL);
  }
  if (xT) PetscCall(PetscArraycpy(xT, x, 2 * m));
  PetscCall(PetscFree5(G, x, f0, fm, f1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegrate_Newmark(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m;
  PetscReal *d, *v, *a, *f, h = s->h;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(m, &d, m, &v, m, &a, m, &f));
  PetscCall(DRSSSimForce(s, 0, f));
  for (PetscInt k = 0; k < m; k++) {
    d[k] = x0 ? x0[2 * k] : 0;
    v[k] = x0 ? x0[2 * k + 1] : 0;
    a[k] = f[k] - ss->c[k] * v[k] - ss->omega[k] * ss->omega[k] * d[k];
  }
  DRSSSimRecord(s, 0, NULL, d, v);
  for (PetscInt n = 0; n < s->nsteps; n++) {
    PetscCall(DRSSSimForce(s, (n + 1) * h, f));
    for (PetscInt k = 0; k < m; k++) {
      PetscReal w2 = ss->omega[k] * ss->omega[k], c = ss->c[k];
      PetscReal dp = d[k] + h * v[k] + 0.25 * h * h * a[k], vp = v[k] + 0.5 * h * a[k];
      PetscReal an = (f[k] - c * vp - w2 * dp) / (1 + 0.5 * c * h + 0.25 * w2 * h * h);
      d[k]         = dp + 0.25 * h * h * an;
      v[k]         = vp + 0.5 * h * an;
      a[k]         = an;
    }
    DRSSSimRecord(s, n + 1, NULL, d, v);
  }
  if (xT)
    for (PetscInt k = 0; k < m; k++) {
      xT[2 * k]     = d[k];
      xT[2 * k + 1] = v[k];
    }
  PetscCall(PetscFree4(d, v, a, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegrate_Central(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  DRSS       ss = s->ss;
  PetscInt   m  = ss->m;
  PetscReal *dp, *d, *dn, *v, *f, h = s->h, wmax = 0;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < m; k++) wmax = PetscMax(wmax, ss->omega[k]);
  PetscCheck(h * wmax < 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "central difference: step %g s is above the stability limit 2/omega_max = %g s of the model", (double)h, (double)(2 / wmax));
  PetscCall(PetscMalloc1(m, &dp));
  PetscCall(PetscMalloc1(m, &d));
  PetscCall(PetscMalloc1(m, &dn));
  PetscCall(PetscMalloc1(m, &v));
  PetscCall(PetscMalloc1(m, &f));
  PetscCall(DRSSSimForce(s, 0, f));
  for (PetscInt k = 0; k < m; k++) {
    PetscReal a0;
    d[k]  = x0 ? x0[2 * k] : 0;
    v[k]  = x0 ? x0[2 * k + 1] : 0;
    a0    = f[k] - ss->c[k] * v[k] - ss->omega[k] * ss->omega[k] * d[k];
    dp[k] = d[k] - h * v[k] + 0.5 * h * h * a0;
  }
  for (PetscInt n = 0; n <= s->nsteps; n++) {
    if (n) PetscCall(DRSSSimForce(s, n * h, f));
    for (PetscInt k = 0; k < m; k++) {
      PetscReal w2 = ss->omega[k] * ss->omega[k], c = ss->c[k];
      dn[k] = (h * h * f[k] - (h * h * w2 - 2) * d[k] - (1 - 0.5 * c * h) * dp[k]) / (1 + 0.5 * c * h);
      v[k]  = (dn[k] - dp[k]) / (2 * h);
    }
    DRSSSimRecord(s, n, NULL, d, v);
    if (n == s->nsteps) break;
    {
      PetscReal *t = dp;
      dp           = d;
      d            = dn;
      dn           = t;
    }
  }
  if (xT)
    for (PetscInt k = 0; k < m; k++) {
      xT[2 * k]     = d[k];
      xT[2 * k + 1] = v[k];
    }
  PetscCall(PetscFree(dp));
  PetscCall(PetscFree(d));
  PetscCall(PetscFree(dn));
  PetscCall(PetscFree(v));
  PetscCall(PetscFree(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegrate_Exact(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  PetscFunctionBeginUser;
  PetscCall(SimExact(s, x0, PETSC_TRUE, xT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegrate_ZOH(DRSSSim s, const char *method, const PetscReal x0[], PetscReal xT[])
{
  PetscFunctionBeginUser;
  PetscCall(SimExact(s, x0, PETSC_FALSE, xT));
  PetscFunctionReturn(PETSC_SUCCESS);
}
