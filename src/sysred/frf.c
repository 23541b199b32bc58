/* dynred sysred: frequency-response comparison of the full and the reduced
 * system on a logarithmic grid (sysred.frf.*): G(iw) = C (iw I - A)^-1 B + D
 * through one complex Schur form A = Z T Z^H per system (zgees), then a
 * triangular solve per frequency (ztrtrs): O(n^3) once, O(n^2 m) per
 * frequency; a block-diagonal A (the modal form of `dynred ss`, blocks.c)
 * is solved block by block instead: G = D + sum_b C_b (iw I - A_b)^-1 B_b,
 * exact, O(n (m + p m)) per frequency and no n x n complex copy, so the
 * full model of a 20000-state CMS state space costs seconds, not the hours
 * of its Schur form.  Errors on the grid: the largest entry |G - G_r| and the
 * largest singular value of G - G_r (the H-infinity norm sampled). */
#include "sysredimpl.h"

typedef double _Complex cplx;

static fint SelectNone(const cplx *w)
{
  (void)w;
  return 0;
}

/* Z^H B, C Z and the triangular T of one system; eigenvalues in ev (may be NULL) */
static PetscErrorCode Schur(const DRLTI *s, cplx *T, cplx *Bz, cplx *Cz, cplx *ev)
{
  PetscInt n = s->n, m = s->m, p = s->p;
  fint     nn = (fint)n, sdim = 0, lw = (fint)(4 * n + 64), info = 0, *bw;
  cplx    *Z, *w, *work;
  double  *rw;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n * n, &Z, n, &w, lw, &work, n, &rw, n, &bw));
  for (PetscInt k = 0; k < n * n; k++) T[k] = s->A[k];
  zgees_("V", "N", SelectNone, &nn, T, &nn, &sdim, w, Z, &nn, work, &lw, rw, bw, &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK zgees failed: info = %d", (int)info);
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt i = 0; i < n; i++) {
      cplx v = 0;
      for (PetscInt k = 0; k < n; k++) v += conj(Z[k + i * n]) * s->B[k + j * n];
      Bz[i + j * n] = v;
    }
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < p; i++) {
      cplx v = 0;
      for (PetscInt k = 0; k < n; k++) v += s->C[i + k * p] * Z[k + j * n];
      Cz[i + j * p] = v;
    }
  if (ev) for (PetscInt k = 0; k < n; k++) ev[k] = w[k];
  PetscCall(PetscFree5(Z, w, work, rw, bw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G at nw frequencies of a block-diagonal A (nb blocks bs) */
static PetscErrorCode BlockResponse(const DRLTI *s, PetscInt nb, const PetscInt *bs, PetscInt nw, const PetscReal *omega, PetscReal *G)
{
  PetscInt n = s->n, m = s->m, p = s->p;
  cplx    *g, *x;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(p * m + 1, &g, 2 * m + 1, &x));
  for (PetscInt k = 0; k < nw; k++) {
    cplx iw = I * omega[k];
    for (PetscInt i = 0; i < p; i++)
      for (PetscInt j = 0; j < m; j++) g[i + j * p] = s->D[i + j * p];
    for (PetscInt b = 0; b < nb; b++) {
      PetscInt i0 = bs[b], w = bs[b + 1] - i0;
      if (w == 1) {
        cplx d = iw - s->A[i0 + i0 * n];
        PetscCheck(d != 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "frequency response: iw = %gi is a pole of the system, expected a grid off the poles (sysred.frf.wmin, wmax, n)", (double)omega[k]);
        for (PetscInt j = 0; j < m; j++) x[j] = s->B[i0 + j * n] / d;
      } else { /* (iw I - A_b)^-1 = adj / det */
        cplx a = iw - s->A[i0 + i0 * n], bb = -s->A[i0 + (i0 + 1) * n], c = -s->A[i0 + 1 + i0 * n], d = iw - s->A[i0 + 1 + (i0 + 1) * n];
        cplx det = a * d - bb * c;
        PetscCheck(det != 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "frequency response: iw = %gi is a pole of the system, expected a grid off the poles (sysred.frf.wmin, wmax, n)", (double)omega[k]);
        for (PetscInt j = 0; j < m; j++) {
          PetscReal b0 = s->B[i0 + j * n], b1 = s->B[i0 + 1 + j * n];
          x[2 * j]     = (d * b0 - bb * b1) / det;
          x[2 * j + 1] = (a * b1 - c * b0) / det;
        }
      }
      for (PetscInt j = 0; j < m; j++)
        for (PetscInt q = 0; q < w; q++)
          for (PetscInt i = 0; i < p; i++) g[i + j * p] += s->C[i + (i0 + q) * p] * x[w * j + q];
    }
    for (PetscInt i = 0; i < p; i++)
      for (PetscInt j = 0; j < m; j++) {
        G[2 * ((k * p + i) * m + j)]     = creal(g[i + j * p]);
        G[2 * ((k * p + i) * m + j) + 1] = cimag(g[i + j * p]);
      }
  }
  PetscCall(PetscFree2(g, x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G at nw frequencies into G[(k p + i) m + j] as (re, im); nb > 0: A is
 * block diagonal with the blocks bs (DRLTIBlocks) */
static PetscErrorCode Response(const DRLTI *s, PetscInt nb, const PetscInt *bs, PetscInt nw, const PetscReal *omega, PetscReal *G)
{
  PetscInt n = s->n, m = s->m, p = s->p;
  cplx    *T, *Bz, *Cz, *M, *X;
  fint     nn = (fint)n, mm = (fint)m, ld = (fint)PetscMax(n, 1), info = 0;

  PetscFunctionBegin;
  if (nb > 0) {
    PetscCall(BlockResponse(s, nb, bs, nw, omega, G));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc5(n * n + 1, &T, n * m + 1, &Bz, p * n + 1, &Cz, n * n + 1, &M, n * m + 1, &X));
  if (n > 0) PetscCall(Schur(s, T, Bz, Cz, NULL));
  for (PetscInt k = 0; k < nw; k++) {
    cplx iw = I * omega[k];
    for (PetscInt q = 0; q < n * n; q++) M[q] = -T[q];
    for (PetscInt q = 0; q < n; q++) M[q + q * n] += iw;
    for (PetscInt q = 0; q < n * m; q++) X[q] = Bz[q];
    if (n > 0) ztrtrs_("U", "N", "N", &nn, &mm, M, &ld, X, &ld, &info, 1, 1, 1);
    PetscCheck(info == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "frequency response: iw = %gi is a pole of the system, expected a grid off the poles (sysred.frf.wmin, wmax, n)", (double)omega[k]);
    for (PetscInt i = 0; i < p; i++)
      for (PetscInt j = 0; j < m; j++) {
        cplx g = s->D[i + j * p];
        for (PetscInt q = 0; q < n; q++) g += Cz[i + q * p] * X[q + j * n];
        G[2 * ((k * p + i) * m + j)]     = creal(g);
        G[2 * ((k * p + i) * m + j) + 1] = cimag(g);
      }
  }
  PetscCall(PetscFree5(T, Bz, Cz, M, X));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SigmaMax(PetscInt p, PetscInt m, const PetscReal *g, const PetscReal *h, PetscReal *smax)
{
  fint   pp = (fint)p, mm = (fint)m, one = 1, lw = (fint)(4 * (p + m) + 64), info = 0;
  cplx  *a, *work, dummy = 0;
  double *sv, *rw;

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(p * m, &a, lw, &work, PetscMin(p, m), &sv, 5 * PetscMin(p, m) + 8, &rw));
  for (PetscInt i = 0; i < p; i++)
    for (PetscInt j = 0; j < m; j++) {
      PetscInt q = 2 * (i * m + j);
      a[i + j * p] = (g[q] - (h ? h[q] : 0)) + I * (g[q + 1] - (h ? h[q + 1] : 0));
    }
  zgesvd_("N", "N", &pp, &mm, a, &pp, sv, &dummy, &one, &dummy, &one, work, &lw, rw, &info, 1, 1);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK zgesvd failed: info = %d", (int)info);
  *smax = sv[0];
  PetscCall(PetscFree4(a, work, sv, rw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedFRF(DRSysRed s)
{
  PetscInt  nw = s->nw, p = s->full.p, m = s->full.m, n = s->full.n;
  PetscReal wmin = s->wmin, wmax = s->wmax;

  PetscInt *bs, *bsr, nb = 0, nbr = 0;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_FRF, 0, 0, 0, 0));
  PetscCall(PetscMalloc2(n + 1, &bs, s->red.n + 1, &bsr));
  if (n > 0) PetscCall(DRLTIBlocks(&s->full, &nb, bs)); /* once: the range and the response */
  if (s->red.n > 0) PetscCall(DRLTIBlocks(&s->red, &nbr, bsr));
  if (wmin <= 0 || wmax <= 0) { /* a decade beyond the poles, zero poles left out */
    cplx     *T = NULL, *Bz = NULL, *Cz = NULL, *ev;
    PetscReal lo = PETSC_MAX_REAL, hi = 0, amax = 0;
    PetscCall(PetscMalloc1(n + 1, &ev));
    if (nb > 0) /* the poles block by block */
      for (PetscInt b = 0; b < nb; b++) {
        PetscReal wr[2], wi[2];
        DRLTIBlockPoles(&s->full, bs, b, wr, wi);
        for (PetscInt q = 0; q < bs[b + 1] - bs[b]; q++) ev[bs[b] + q] = wr[q] + I * wi[q];
      }
    else {
      PetscCall(PetscMalloc3(n * n, &T, n * m, &Bz, p * n, &Cz));
      PetscCall(Schur(&s->full, T, Bz, Cz, ev));
      PetscCall(PetscFree3(T, Bz, Cz));
    }
    for (PetscInt k = 0; k < n; k++) amax = PetscMax(amax, cabs(ev[k]));
    for (PetscInt k = 0; k < n; k++) {
      PetscReal a = cabs(ev[k]);
      if (a > 1e-6 * amax) lo = PetscMin(lo, a);
      hi = PetscMax(hi, a);
    }
    if (hi == 0) lo = hi = 1;
    if (wmin <= 0) wmin = 0.1 * lo;
    if (wmax <= 0) wmax = 10 * hi;
    PetscCall(PetscFree(ev));
  }
  PetscCheck(wmax > wmin, PETSC_COMM_WORLD, DR_ERR_INPUT, "sysred.frf: wmax = %g <= wmin = %g, expected wmin < wmax", (double)wmax, (double)wmin);
  s->wmin = wmin;
  s->wmax = wmax;
  PetscCall(PetscFree3(s->omega, s->Gf, s->Gr));
  PetscCall(PetscMalloc3(nw, &s->omega, 2 * nw * p * m, &s->Gf, 2 * nw * p * m, &s->Gr));
  for (PetscInt k = 0; k < nw; k++) s->omega[k] = nw > 1 ? wmin * PetscPowReal(wmax / wmin, (PetscReal)k / (nw - 1)) : wmin;
  PetscCall(Response(&s->full, nb, bs, nw, s->omega, s->Gf));
  PetscCall(Response(&s->red, nbr, bsr, nw, s->omega, s->Gr));
  PetscCall(PetscFree2(bs, bsr));
  s->frf_max = s->frf_hinf = s->frf_ref = 0;
  for (PetscInt k = 0; k < nw; k++) {
    PetscReal e, g, *gf = s->Gf + 2 * k * p * m, *gr = s->Gr + 2 * k * p * m;
    for (PetscInt q = 0; q < p * m; q++) s->frf_max = PetscMax(s->frf_max, PetscSqrtReal(PetscSqr(gf[2 * q] - gr[2 * q]) + PetscSqr(gf[2 * q + 1] - gr[2 * q + 1])));
    PetscCall(SigmaMax(p, m, gf, gr, &e));
    PetscCall(SigmaMax(p, m, gf, NULL, &g));
    s->frf_hinf = PetscMax(s->frf_hinf, e);
    s->frf_ref  = PetscMax(s->frf_ref, g);
  }
  PetscCall(PetscLogEventEnd(DR_SYSRED_FRF, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
