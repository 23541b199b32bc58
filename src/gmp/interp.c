/* GMP mode tracking and interpolation of reduced models (METHODS.md 5). */
#include "gmp_impl.h"
#include <dynred/eigen.h>
#include <petscblaslapack.h>

const char *const DRGMPMethods[] = {"linear", "quadratic", "eigenspace", NULL};

/* Inverse of a dense n x n matrix (LU). */
static PetscErrorCode Inverse(PetscInt n, const PetscReal *A, PetscReal *Ai)
{
  PetscBLASInt nn, info, *ipiv, lwork;
  PetscReal   *work;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &nn));
  lwork = nn * 8;
  PetscCall(PetscMalloc2(n, &ipiv, lwork, &work));
  PetscCall(PetscArraycpy(Ai, A, n * n));
  LAPACKgetrf_(&nn, &nn, Ai, &nn, ipiv, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "GMP eigenspace interpolation: the interpolated eigenvector matrix is singular (modes not tracked consistently?)");
  LAPACKgetri_(&nn, Ai, &nn, ipiv, work, &lwork, &info);
  PetscCall(PetscFree2(ipiv, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Locate(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, PetscInt *i, PetscReal *h)
{
  PetscReal t0 = grid[0].theta[0], t1 = grid[ngrid - 1].theta[0];

  PetscFunctionBeginUser;
  PetscCheck(ngrid >= 2, PETSC_COMM_SELF, DR_ERR_INPUT, "GMP interpolation needs at least 2 grid points (got %" PetscInt_FMT ")", ngrid);
  *h = (t1 - t0) / (ngrid - 1);
  PetscCheck(theta >= t0 - 1e-9 * PetscAbsReal(*h) && theta <= t1 + 1e-9 * PetscAbsReal(*h), PETSC_COMM_SELF, DR_ERR_INPUT, "GMP interpolation at theta = %g: outside the grid [%g, %g]", (double)theta, (double)t0, (double)t1);
  *i = (PetscInt)PetscFloorReal((theta - t0) / *h);
  *i = PetscMax(0, PetscMin(*i, ngrid - 2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Quadratic through points j0, j0+1, j0+2 (uniform h): Y = A s^2 + B s + C,
 * s = theta - theta_j0 (METHODS.md 5); derivative 2 A s + B. */
static void Quad(PetscInt len, const PetscReal *Y0, const PetscReal *Y1, const PetscReal *Y2, PetscReal h, PetscReal s, PetscReal *Y, PetscReal *dY)
{
  for (PetscInt k = 0; k < len; k++) {
    PetscReal A = (Y2[k] - 2 * Y1[k] + Y0[k]) / (2 * h * h), B = (-3 * Y0[k] + 4 * Y1[k] - Y2[k]) / (2 * h), C = Y0[k];
    if (Y) Y[k] = A * s * s + B * s + C;
    if (dY) dY[k] = 2 * A * s + B;
  }
}

/* The interpolation stencil on a tensor grid (grid[i1 + npts[0] (i2 + ...)],
 * theta1 fastest, uniform along each axis): grid indices idx[] and weights
 * w[], the tensor product of the 1-D weights per axis: linear (and
 * eigenspace) a, 1 - a on the interval's ends (METHODS.md 5); quadratic the
 * Lagrange weights through theta_{i-1}, theta_i, theta_{i+1} (the first
 * interval uses points 0, 1, 2), which is the printed A s^2 + B s + C
 * element-wise.  At most 3^nt entries. */
#define DR_GMP_MAXSTENCIL 81
static PetscErrorCode Stencil(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], DRGMPMethod method, PetscInt *nw, PetscInt idx[], PetscReal w[])
{
  PetscInt  stride = 1, k1[DR_GMP_MAXTHETA], i1[DR_GMP_MAXTHETA][3];
  PetscReal w1[DR_GMP_MAXTHETA][3];

  PetscFunctionBeginUser;
  PetscCheck(nt >= 1 && nt <= DR_GMP_MAXTHETA, PETSC_COMM_SELF, DR_ERR_INPUT, "GMP interpolation: %" PetscInt_FMT " grid axes, expected 1 to %d", nt, DR_GMP_MAXTHETA);
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt  np = npts[t], i;
    PetscReal t0 = grid[0].theta[t], tl = grid[(np - 1) * stride].theta[t], h, th = theta[t];
    PetscCheck(np >= 1, PETSC_COMM_SELF, DR_ERR_INPUT, "GMP interpolation: no grid points along theta%" PetscInt_FMT, t + 1);
    if (np == 1) { /* a held DOF (one grid value): the grid's value only, weight 1 */
      PetscCheck(PetscAbsReal(th - t0) <= 1e-12 * PetscMax(1, PetscAbsReal(t0)), PETSC_COMM_SELF, DR_ERR_INPUT, "GMP interpolation at theta%" PetscInt_FMT " = %g: the grid holds theta%" PetscInt_FMT " at %g only", t + 1, (double)th, t + 1, (double)t0);
      k1[t] = 1, i1[t][0] = 0, w1[t][0] = 1;
      continue; /* stride *= 1 */
    }
    h = (tl - t0) / (np - 1);
    PetscCheck(th >= t0 - 1e-9 * PetscAbsReal(h) && th <= tl + 1e-9 * PetscAbsReal(h), PETSC_COMM_SELF, DR_ERR_INPUT, "GMP interpolation at theta%" PetscInt_FMT " = %g: outside the grid [%g, %g]", t + 1, (double)th, (double)t0, (double)tl);
    i = (PetscInt)PetscFloorReal((th - t0) / h);
    i = PetscMax(0, PetscMin(i, np - 2));
    if (method == DR_GMP_QUADRATIC) {
      PetscInt  j0 = i >= 1 ? i - 1 : 0;
      PetscReal sv;
      PetscCheck(np >= 3, PETSC_COMM_SELF, DR_ERR_INPUT, "GMP quadratic interpolation needs at least 3 grid points along theta%" PetscInt_FMT " (got %" PetscInt_FMT ")", t + 1, np);
      if (j0 + 2 >= np) j0 = np - 3;
      sv = th - grid[j0 * stride].theta[t];
      k1[t] = 3;
      for (int q = 0; q < 3; q++) i1[t][q] = j0 + q;
      w1[t][0] = (sv - h) * (sv - 2 * h) / (2 * h * h);
      w1[t][1] = sv * (2 * h - sv) / (h * h);
      w1[t][2] = sv * (sv - h) / (2 * h * h);
    } else {
      PetscReal ta = grid[i * stride].theta[t], tb = grid[(i + 1) * stride].theta[t], a = (tb - th) / (tb - ta);
      k1[t] = 2;
      i1[t][0] = i, i1[t][1] = i + 1;
      w1[t][0] = a, w1[t][1] = 1 - a;
    }
    stride *= np;
  }
  *nw = 1;
  for (PetscInt t = 0; t < nt; t++) *nw *= k1[t];
  for (PetscInt c = 0; c < *nw; c++) {
    PetscInt r = c, ix = 0, st = 1;
    w[c] = 1;
    for (PetscInt t = 0; t < nt; t++) {
      PetscInt q = r % k1[t];
      r /= k1[t];
      ix += i1[t][q] * st;
      w[c] *= w1[t][q];
      st *= npts[t];
    }
    idx[c] = ix;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interpolant's M, K (and Psi when want_psi and the grid has shapes):
 * linear and quadratic are weighted sums of the grid's M, K, Psi;
 * eigenspace sums Phi, Lambda and Psi Phi with the linear weights and
 * transforms back (METHODS.md 5). */
static PetscErrorCode InterpWeighted(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], DRGMPMethod method, PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi)
{
  PetscInt  n = grid[0].n, nd = grid[0].ndof, nw, idx[DR_GMP_MAXSTENCIL];
  PetscReal w[DR_GMP_MAXSTENCIL];

  PetscFunctionBeginUser;
  PetscCall(Stencil(nt, npts, grid, theta, method, &nw, idx, w));
  want_psi = (PetscBool)(want_psi && grid[0].Psi && Psi);
  {
    PetscCall(PetscArrayzero(M, n * n));
    PetscCall(PetscArrayzero(K, n * n));
    if (want_psi) PetscCall(PetscArrayzero(Psi, nd * n));
    for (PetscInt c = 0; c < nw; c++) {
      const DRGMPRom *g = &grid[idx[c]];
      for (PetscInt k = 0; k < n * n; k++) M[k] += w[c] * g->M[k], K[k] += w[c] * g->K[k];
      if (want_psi)
        for (PetscInt k = 0; k < nd * n; k++) Psi[k] += w[c] * g->Psi[k];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolationLinear(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi)
{
  PetscFunctionBeginUser;
  PetscCall(InterpWeighted(nt, npts, grid, theta, DR_GMP_LINEAR, want_psi, M, K, Psi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolationQuadratic(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi)
{
  PetscFunctionBeginUser;
  PetscCall(InterpWeighted(nt, npts, grid, theta, DR_GMP_QUADRATIC, want_psi, M, K, Psi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolationEigenspace(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi)
{
  PetscInt  n = grid[0].n, nd = grid[0].ndof, nw, idx[DR_GMP_MAXSTENCIL];
  PetscReal w[DR_GMP_MAXSTENCIL];

  PetscFunctionBeginUser;
  PetscCall(Stencil(nt, npts, grid, theta, DR_GMP_EIGENSPACE, &nw, idx, w));
  want_psi = (PetscBool)(want_psi && grid[0].Psi && Psi);
  {
    PetscReal *Phi, *Pi, *lam;
    PetscCall(PetscCalloc3(n * n, &Phi, n * n, &Pi, n, &lam));
    for (PetscInt c = 0; c < nw; c++) {
      const DRGMPRom *g = &grid[idx[c]];
      for (PetscInt k = 0; k < n * n; k++) Phi[k] += w[c] * g->Phi[k];
      for (PetscInt k = 0; k < n; k++) lam[k] += w[c] * g->lambda[k];
    }
    PetscCall(Inverse(n, Phi, Pi));
    /* M = Pi^T Pi, K = Pi^T diag(lam) Pi */
    for (PetscInt r = 0; r < n; r++)
      for (PetscInt c = 0; c < n; c++) {
        PetscReal sm = 0, sk = 0;
        for (PetscInt k = 0; k < n; k++) {
          PetscReal pp = Pi[k + r * n] * Pi[k + c * n];
          sm += pp;
          sk += lam[k] * pp;
        }
        M[r + c * n] = sm, K[r + c * n] = sk;
      }
    if (want_psi) { /* Psi = (sum_c w_c Psi_c Phi_c) Pi */
      PetscReal *X;
      PetscCall(PetscCalloc1(nd * n, &X));
      for (PetscInt c = 0; c < nw; c++) {
        const DRGMPRom *g = &grid[idx[c]];
        for (PetscInt k = 0; k < n; k++)
          for (PetscInt b = 0; b < n; b++) {
            PetscReal cc = w[c] * g->Phi[b + k * n];
            for (PetscInt r = 0; r < nd; r++) X[r + k * nd] += cc * g->Psi[r + b * nd];
          }
      }
      for (PetscInt c = 0; c < n; c++)
        for (PetscInt r = 0; r < nd; r++) {
          PetscReal sv = 0;
          for (PetscInt k = 0; k < n; k++) sv += X[r + k * nd] * Pi[k + c * n];
          Psi[r + c * nd] = sv;
        }
      PetscCall(PetscFree(X));
    }
    PetscCall(PetscFree3(Phi, Pi, lam));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The registry of interpolation methods: the built-in methods on first
 * use, then whatever DRGMPInterpolationRegister adds; destroyed at
 * PetscFinalize. */
static PetscFunctionList DRGMPInterpolationList       = NULL;
static PetscBool         DRGMPInterpolationRegistered = PETSC_FALSE;

static PetscErrorCode DRGMPInterpolationRegistryDestroy(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListDestroy(&DRGMPInterpolationList));
  DRGMPInterpolationRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRGMPInterpolationRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DRGMPInterpolationRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  DRGMPInterpolationRegistered = PETSC_TRUE;
  PetscCall(DRGMPInitializePackage());
  PetscCall(PetscFunctionListAdd(&DRGMPInterpolationList, "linear", DRGMPInterpolationLinear));
  PetscCall(PetscFunctionListAdd(&DRGMPInterpolationList, "quadratic", DRGMPInterpolationQuadratic));
  PetscCall(PetscFunctionListAdd(&DRGMPInterpolationList, "eigenspace", DRGMPInterpolationEigenspace));
  PetscCall(PetscRegisterFinalize(DRGMPInterpolationRegistryDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolationRegister(const char name[], DRGMPInterpolationFn fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPInterpolationRegisterAll());
  PetscCall(PetscFunctionListAdd(&DRGMPInterpolationList, name, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolationFind(MPI_Comm comm, const char *name, const char *where, DRGMPInterpolationFn *fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPInterpolationRegisterAll());
  PetscCall(DRRegistryFind(comm, DRGMPInterpolationList, "interpolation method", name, where, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A built-in method through the registry */
static PetscErrorCode Interp(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], DRGMPMethod method, PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi)
{
  DRGMPInterpolationFn fn;

  PetscFunctionBeginUser;
  PetscCheck(method >= DR_GMP_LINEAR && method <= DR_GMP_EIGENSPACE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GMP interpolation: method %d is not a built-in method", (int)method);
  PetscCall(DRGMPInterpolationFind(PETSC_COMM_SELF, DRGMPMethods[method], NULL, &fn));
  PetscCall(fn(nt, npts, grid, theta, want_psi, M, K, Psi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolate(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, DRGMPMethod method, DRGMPRom *out)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPInterpolateGrid(1, &ngrid, grid, &theta, method, PETSC_TRUE, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolatePart(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, DRGMPMethod method, PetscBool want_psi, DRGMPRom *out)
{
  PetscFunctionBeginUser;
  PetscCall(DRGMPInterpolateGrid(1, &ngrid, grid, &theta, method, want_psi, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolateGrid(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], DRGMPMethod method, PetscBool want_psi, DRGMPRom *out)
{
  PetscFunctionBeginUser;
  PetscCheck(method >= DR_GMP_LINEAR && method <= DR_GMP_EIGENSPACE, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "GMP interpolation: method %d is not a built-in method", (int)method);
  PetscCall(DRGMPInterpolateGridByName(nt, npts, grid, theta, DRGMPMethods[method], want_psi, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolateGridByName(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], const char *method, PetscBool want_psi, DRGMPRom *out)
{
  DRGMPInterpolationFn fn;
  PetscInt n = grid[0].n, nd = grid[0].ndof;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(out, sizeof(*out)));
  out->nt = grid[0].nt, out->nm = grid[0].nm, out->n = n, out->ndof = nd, out->nnodes = grid[0].nnodes, out->dim = grid[0].dim;
  for (PetscInt t = 0; t < nt; t++) out->theta[t] = theta[t];
  PetscCall(PetscMalloc1(n * n, &out->M));
  PetscCall(PetscMalloc1(n * n, &out->K));
  if (grid[0].Psi && want_psi) PetscCall(PetscMalloc1(nd * n, &out->Psi));
  PetscCall(DRGMPInterpolationFind(PETSC_COMM_SELF, method, NULL, &fn));
  PetscCall(fn(nt, npts, grid, theta, want_psi, out->M, out->K, out->Psi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Eigenpairs of the reduced pencil.  K's rigid rows vanish, so the rigid
 * coordinates are condensed out of the deformation problem exactly:
 * (K_dd, M_dd - M_dt M_tt^-1 M_td) x_d = lambda (...) x_d, x_t = -M_tt^-1 M_td x_d
 * (a definite pencil: the high eigenvalues keep full relative accuracy,
 * which a solve of the singular pencil would not); the zero eigenvalues get
 * the canonical basis E_t L^-T (M_tt = L L^T). */
PetscErrorCode DRGMPReducedEigen(PetscInt n, PetscInt nt, const PetscReal *K, const PetscReal *M, PetscReal *lambda, PetscReal *Phi, PetscBool *ok)
{
  PetscInt     nd = n - nt, nfound;
  PetscReal   *S, *Kd, *X, *Mtt, *G; /* G = M_tt^-1 M_td (nt x nd) */
  PetscBLASInt nn, nrhs, info, ld;

  PetscFunctionBeginUser;
  *ok = PETSC_TRUE;
  PetscCall(PetscMalloc5(nd * nd + 1, &S, nd * nd + 1, &Kd, nd * nd + 1, &X, nt * nt + 1, &Mtt, nt * nd + 1, &G));
  for (PetscInt j = 0; j < nt; j++)
    for (PetscInt i = 0; i < nt; i++) Mtt[i + j * nt] = M[i + j * n];
  for (PetscInt j = 0; j < nd; j++)
    for (PetscInt i = 0; i < nt; i++) G[i + j * nt] = M[i + (nt + j) * n];
  PetscCall(PetscBLASIntCast(nt, &nn));
  PetscCall(PetscBLASIntCast(nd, &nrhs));
  ld = nn;
  LAPACKpotrf_("L", &nn, Mtt, &ld, &info);
  if (info) {
    *ok = PETSC_FALSE;
    goto done;
  }
  LAPACKpotrs_("L", &nn, &nrhs, Mtt, &ld, G, &ld, &info);
  for (PetscInt j = 0; j < nd; j++)
    for (PetscInt i = 0; i < nd; i++) {
      PetscReal s = M[(nt + i) + (nt + j) * n];
      for (PetscInt t = 0; t < nt; t++) s -= M[(nt + i) + t * n] * G[t + j * nt];
      S[i + j * nd]  = s;
      Kd[i + j * nd] = K[(nt + i) + (nt + j) * n];
    }
  /* M is positive definite iff M_tt and its Schur complement S are; the
   * eigensolver factors K - sigma S only, which an indefinite S can pass
   * (then a negative eigenvalue and a mode of negative mass come back), so
   * S is factored here (X as scratch: the solver overwrites it) */
  PetscCall(PetscArraycpy(X, S, nd * nd));
  PetscCall(PetscBLASIntCast(nd, &nn));
  ld = nn;
  if (nd > 0) LAPACKpotrf_("L", &nn, X, &ld, &info);
  if (nd > 0 && info) {
    *ok = PETSC_FALSE;
    goto done;
  }
  {
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = DRDenseEigen(nd, Kd, S, nd, 0, &nfound, lambda + nt, X);
    PetscCall(PetscPopErrorHandler());
    if (ierr || nfound != nd) {
      *ok = PETSC_FALSE;
      goto done;
    }
  }
  for (PetscInt j = 0; j < nd; j++) {
    PetscReal *x = X + j * nd, sg = DRModeSign(nd, x);
    for (PetscInt i = 0; i < nd; i++) Phi[(nt + i) + (nt + j) * n] = sg * x[i];
    for (PetscInt t = 0; t < nt; t++) {
      PetscReal s = 0;
      for (PetscInt i = 0; i < nd; i++) s += G[t + i * nt] * x[i];
      Phi[t + (nt + j) * n] = -sg * s;
    }
  }
  /* rigid: E_t L^-T, L from the Cholesky factor in Mtt (lower) */
  for (PetscInt c = 0; c < nt; c++) {
    PetscReal li[DR_GMP_MAXTHETA];
    for (PetscInt i = 0; i < nt; i++) { /* li = column c of L^-1 */
      PetscReal s = i == c ? 1 : 0;
      for (PetscInt k = 0; k < i; k++) s -= Mtt[i + k * nt] * li[k];
      li[i] = s / Mtt[i + i * nt];
    }
    /* (L^-T)_{i j} = (L^-1)_{j i}: column j of L^-T has entries (L^-1)_{j, i} */
    for (PetscInt i = 0; i < nt; i++) Phi[c + i * n] = li[i]; /* (L^-T)_{c,i} = (L^-1)_{i,c} */
  }
  for (PetscInt j = 0; j < nt; j++) {
    lambda[j] = 0;
    for (PetscInt i = nt; i < n; i++) Phi[i + j * n] = 0;
  }
done:
  PetscCall(PetscFree5(S, Kd, X, Mtt, G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPInterpolateDerivative(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, DRGMPMethod method, PetscReal *dM, PetscReal *dK)
{
  PetscInt  i, n = grid[0].n;
  PetscReal h;

  PetscFunctionBeginUser;
  PetscCall(Locate(ngrid, grid, theta, &i, &h));
  if (method == DR_GMP_LINEAR) {
    for (PetscInt k = 0; k < n * n; k++) dM[k] = (grid[i + 1].M[k] - grid[i].M[k]) / h, dK[k] = (grid[i + 1].K[k] - grid[i].K[k]) / h;
  } else if (method == DR_GMP_QUADRATIC) {
    PetscInt j0 = i >= 1 ? i - 1 : 0;
    if (j0 + 2 >= ngrid) j0 = ngrid - 3;
    Quad(n * n, grid[j0].M, grid[j0 + 1].M, grid[j0 + 2].M, h, theta - grid[j0].theta[0], NULL, dM);
    Quad(n * n, grid[j0].K, grid[j0 + 1].K, grid[j0 + 2].K, h, theta - grid[j0].theta[0], NULL, dK);
  } else { /* central difference of the interpolant inside the interval */
    PetscReal  d = 1e-5 * h, lo = PetscMax(theta - d, grid[i].theta[0]), hi = PetscMin(theta + d, grid[i + 1].theta[0]);
    PetscReal *Mp, *Mm, *Kp, *Km;
    PetscCall(PetscMalloc4(n * n, &Mp, n * n, &Mm, n * n, &Kp, n * n, &Km));
    PetscCall(Interp(1, &ngrid, grid, &hi, method, PETSC_FALSE, Mp, Kp, NULL));
    PetscCall(Interp(1, &ngrid, grid, &lo, method, PETSC_FALSE, Mm, Km, NULL));
    for (PetscInt k = 0; k < n * n; k++) dM[k] = (Mp[k] - Mm[k]) / (hi - lo), dK[k] = (Kp[k] - Km[k]) / (hi - lo);
    PetscCall(PetscFree4(Mp, Mm, Kp, Km));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPRomEigen(DRGMPRom *r, PetscBool *ok)
{
  PetscFunctionBeginUser;
  if (!r->lambda) PetscCall(PetscMalloc2(r->n, &r->lambda, r->n * r->n, &r->Phi));
  PetscCall(DRGMPReducedEigen(r->n, r->nt, r->K, r->M, r->lambda, r->Phi, ok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||a - ref||_F / ||ref||_F over len entries. */
PetscReal DRGMPFrobRel_Private(PetscInt len, const PetscReal *a, const PetscReal *ref)
{
  PetscReal d = 0, r = 0;
  for (PetscInt k = 0; k < len; k++) d += PetscSqr(a[k] - ref[k]), r += PetscSqr(ref[k]);
  return PetscSqrtReal(d / r);
}
