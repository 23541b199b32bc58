/* GMP tracking and interpolation (METHODS.md 5) on slider-crank ROMs:
 *  - every method reproduces the grid point's M, K, Psi at grid points;
 *  - eigenspace interpolation's eigenvalues are exactly the linear
 *    interpolation of the grid eigenvalues (1e-12 relative);
 *  - linear interpolation is linear (midpoint = mean of the neighbours) and
 *    quadratic reproduces a quadratic exactly (checked on theta^2 data);
 *  - tracking a reversed-order, sign-flipped copy restores the original;
 * and on a 3 x 3 tensor grid of arm3d ROMs (two rigid DOFs,
 * DRGMPInterpolateGrid):
 *  - every method exact at the 9 grid points;
 *  - eigenspace eigenvalues = bilinear interpolation of lambda (1e-12);
 *  - against the exact ROM at the centre of the middle cell, the linear
 *    (bilinear) matrix error falls by 4 (3.5 to 4.5) when the steps halve,
 *    the quadratic one by 8 or more (second and third order);
 *  - a held theta1 (a 1 x 3 grid: one theta1 value) interpolates as the
 *    3 x 3 grid on that column (1e-12) and refuses another theta1. */
#include "drtest.h"
#include <dynred/gmp.h>

/* A 3 x 3 arm3d grid centred on (c1, c2) with steps h1, h2, tracked as the
 * sweep tracks (against the theta1 neighbour, else the theta2 one). */
static PetscErrorCode ArmGrid(DRMechanism m, const DRGMPRomOptions *o, PetscReal c1, PetscReal c2, PetscReal h1, PetscReal h2, DRGMPRom g[9])
{
  PetscReal md[16], mn;
  PetscFunctionBeginUser;
  for (PetscInt p = 0; p < 9; p++) {
    PetscReal th[4] = {c1 + (p % 3 - 1) * h1, c2 + (p / 3 - 1) * h2, 0, 0};
    PetscCall(DRMechanismROM(m, PETSC_COMM_SELF, th, o, &g[p]));
    if (p) {
      PetscInt q = p % 3 ? p - 1 : p - 3;
      PetscCall(DRGMPTrack(&g[q], &g[p], md, &mn));
      PetscCall(DRGMPTrackEigen(&g[q], &g[p]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal FrobRel(PetscInt len, const PetscReal *a, const PetscReal *b)
{
  PetscReal d = 0, r = 0;
  for (PetscInt k = 0; k < len; k++) d += PetscSqr(a[k] - b[k]), r += PetscSqr(b[k]);
  return PetscSqrtReal(d / r);
}

int main(int argc, char **argv)
{
  DRMechanismParams p;
  DRMechanism       m;
  DRGMPRomOptions   o = {7, 100000, "gmp_"};
  const PetscInt    ng = 6;
  DRGMPRom          g[6];
  PetscReal         h = 0.1, t0 = 0.3, md[16], mn;

  PetscCall(DRInitialize(&argc, &argv, NULL));
  PetscCall(DRMechanismParamsDefault("slider-crank", &p));
  PetscCall(DRMechanismCreate(&p, &m));
  for (PetscInt i = 0; i < ng; i++) {
    PetscReal th[4] = {t0 + i * h, 0, 0, 0};
    PetscCall(DRMechanismROM(m, PETSC_COMM_SELF, th, &o, &g[i]));
    if (i) {
      PetscCall(DRGMPTrack(&g[i - 1], &g[i], md, &mn));
      PetscCall(DRGMPTrackEigen(&g[i - 1], &g[i]));
    }
  }
  {
    PetscInt n = g[0].n, nd = g[0].ndof;
    for (int mth = 0; mth < 3; mth++) {
      PetscReal e = 0;
      for (PetscInt i = 0; i < ng; i++) {
        DRGMPRom ip;
        PetscReal sm = 0, sk = 0, sp = 0;
        PetscCall(DRGMPInterpolate(ng, g, g[i].theta[0], (DRGMPMethod)mth, &ip));
        for (PetscInt k = 0; k < n * n; k++) sm = PetscMax(sm, PetscAbsReal(ip.M[k] - g[i].M[k]) / PetscAbsReal(g[i].M[0])), sk = PetscMax(sk, PetscAbsReal(ip.K[k] - g[i].K[k]) / PetscAbsReal(g[i].K[n * n - 1]));
        for (PetscInt k = 0; k < nd * n; k++) sp = PetscMax(sp, PetscAbsReal(ip.Psi[k] - g[i].Psi[k]));
        e = PetscMax(e, PetscMax(sm, PetscMax(sk, sp)));
        PetscCall(DRGMPRomDestroy(&ip));
      }
      /* tol: weights 1 and 0 at a grid point: exact for linear/quadratic; eigenspace transforms back through Phi^{-1} (LU): kappa(Phi) u ~ 1e-13 */
      DRTEST_CLOSE(e, 0, 0, 1e-10, "%s interpolation exact at the %" PetscInt_FMT " grid points (max relative entry error of M, K, Psi)", DRGMPMethods[mth], ng);
    }
    /* eigenspace: eigenvalues = linear interpolation of lambda */
    {
      PetscReal e = 0;
      for (PetscInt k = 0; k < 20; k++) {
        PetscReal th = t0 + 0.013 + k * (ng - 1) * h / 20.3, lam[32];
        PetscInt  i  = (PetscInt)((th - t0) / h);
        PetscReal a  = (g[i + 1].theta[0] - th) / h;
        DRGMPRom  ip;
        PetscBool ok;
        PetscCall(DRGMPInterpolate(ng, g, th, DR_GMP_EIGENSPACE, &ip));
        PetscCall(DRGMPRomEigen(&ip, &ok));
        DRTEST_TRUE(ok, "eigenspace at theta %.4f: interpolated M positive definite", (double)th);
        for (PetscInt j = 0; j < n; j++) lam[j] = a * g[i].lambda[j] + (1 - a) * g[i + 1].lambda[j];
        /* both sorted: tracked lambdas may be out of order */
        for (PetscInt x = 0; x < n; x++)
          for (PetscInt y = x + 1; y < n; y++)
            if (lam[y] < lam[x]) { PetscReal t = lam[x]; lam[x] = lam[y]; lam[y] = t; }
        for (PetscInt j = 1; j < n; j++) e = PetscMax(e, PetscAbsReal(ip.lambda[j] - lam[j]) / lam[j]);
        /* tol: the rigid eigenvalue is interpolated from exact zeros: only rounding of the back-transform, ~kappa(Phi) u lambda_max */
        DRTEST_TRUE(PetscAbsReal(ip.lambda[0]) < 1e-9 * lam[1], "eigenspace at theta %.4f: rigid eigenvalue stays 0 (%.2e)", (double)th, (double)ip.lambda[0]);
        PetscCall(DRGMPRomDestroy(&ip));
      }
      /* tol: the eigenvalues are the interpolated Lambda by construction, recovered by a dense eigensolve: ~kappa(M) u relative */
      DRTEST_CLOSE(e, 0, 0, 1e-12, "eigenspace interpolation: eigenvalues = linear interpolation of the grid eigenvalues (max relative difference, 20 points)");
    }
    /* linear at a midpoint; quadratic reproduces theta^2 */
    {
      DRGMPRom  ip, q[6];
      PetscReal e = 0, th = t0 + 2.5 * h;
      PetscCall(DRGMPInterpolate(ng, g, th, DR_GMP_LINEAR, &ip));
      for (PetscInt k = 0; k < n * n; k++) e = PetscMax(e, PetscAbsReal(ip.M[k] - 0.5 * (g[2].M[k] + g[3].M[k])));
      /* tol: 0.5 a + 0.5 b vs (1-s) a + s b at s = 0.5 (s itself from (theta - t0)/h, one rounding): a few u of the entries */
      DRTEST_CLOSE(e, 0, 0, 1e-14, "linear interpolation at a midpoint = mean of the neighbours");
      PetscCall(DRGMPRomDestroy(&ip));
      for (PetscInt i = 0; i < ng; i++) {
        PetscCall(DRGMPRomCopy(&g[i], &q[i]));
        for (PetscInt k = 0; k < n * n; k++) q[i].M[k] = (k + 1) * PetscSqr(q[i].theta[0]) + 1 + k, q[i].K[k] = 0;
      }
      e = 0;
      for (PetscInt k = 0; k < 17; k++) {
        PetscReal t = t0 + k * (ng - 1) * h / 17.0, tt;
        PetscCall(DRGMPInterpolate(ng, q, t, DR_GMP_QUADRATIC, &ip));
        tt = t;
        for (PetscInt j = 0; j < n * n; j++) e = PetscMax(e, PetscAbsReal(ip.M[j] - ((j + 1) * tt * tt + 1 + j)) / ((j + 1) * tt * tt + 1 + j));
        PetscCall(DRGMPRomDestroy(&ip));
      }
      /* tol: Lagrange weights on a uniform grid, values up to ~n^2 theta^2: cancellation between the three weights ~ 10 u relative */
      DRTEST_CLOSE(e, 0, 0, 1e-13, "quadratic interpolation reproduces theta^2 data exactly");
      for (PetscInt i = 0; i < ng; i++) PetscCall(DRGMPRomDestroy(&q[i]));
    }
    /* tracking undoes a permutation and sign flips */
    {
      DRGMPRom  c;
      PetscInt  nt = g[0].nt, nm = g[0].nm;
      PetscReal e = 0;
      PetscCall(DRGMPRomCopy(&g[3], &c));
      /* reverse the deformation modes and flip every other one */
      for (PetscInt j = 0; j < nm; j++) {
        PetscInt  src = nt + nm - 1 - j;
        PetscReal s   = (j % 2) ? -1 : 1;
        for (PetscInt i = 0; i < nd; i++) c.Psi[i + (nt + j) * nd] = s * g[3].Psi[i + src * nd], c.MPsi[i + (nt + j) * nd] = s * g[3].MPsi[i + src * nd];
        for (PetscInt r = 0; r < n; r++) {
          PetscInt  rs = r < nt ? r : nt + nm - 1 - (r - nt);
          PetscReal sr = r < nt ? 1 : (((r - nt) % 2) ? -1 : 1);
          c.M[r + (nt + j) * n] = sr * s * g[3].M[rs + src * n];
          c.K[r + (nt + j) * n] = sr * s * g[3].K[rs + src * n];
        }
      }
      for (PetscInt j = 0; j < nt; j++)
        for (PetscInt r = 0; r < n; r++) {
          PetscInt  rs = r < nt ? r : nt + nm - 1 - (r - nt);
          PetscReal sr = r < nt ? 1 : (((r - nt) % 2) ? -1 : 1);
          c.M[r + j * n] = sr * g[3].M[rs + j * n];
          c.K[r + j * n] = sr * g[3].K[rs + j * n];
        }
      PetscCall(DRGMPTrack(&g[2], &c, md, &mn));
      for (PetscInt k = 0; k < nd * n; k++) e = PetscMax(e, PetscAbsReal(c.Psi[k] - g[3].Psi[k]));
      for (PetscInt k = 0; k < n * n; k++) e = PetscMax(e, PetscAbsReal(c.M[k] - g[3].M[k]) / PetscAbsReal(g[3].M[0]));
      /* tol: a permutation and sign flips are exact operations; only the MAC computation decides, the data are copied */
      DRTEST_CLOSE(e, 0, 0, 1e-14, "tracking restores a reversed, sign-flipped copy of the modes");
      PetscCall(DRGMPRomDestroy(&c));
    }
  }
  for (PetscInt i = 0; i < ng; i++) PetscCall(DRGMPRomDestroy(&g[i]));
  PetscCall(DRMechanismDestroy(&m));

  /* 2-D: the arm on a 3 x 3 tensor grid */
  {
    DRGMPRom        a[9], ex;
    const PetscInt  np[2] = {3, 3};
    DRGMPRomOptions oa    = {6, 100000, "gmp_"};
    PetscReal       c[2] = {0.35, 0.45}, err[2][2], md[16], mn;
    PetscCall(DRMechanismParamsDefault("arm3d", &p));
    PetscCall(DRMechanismCreate(&p, &m));
    PetscCall(DRMechanismROM(m, PETSC_COMM_SELF, c, &oa, &ex));
    for (int lev = 0; lev < 2; lev++) {
      PetscReal h = 0.2 / (1 << lev);
      /* grid whose middle cell has its centre at c */
      PetscCall(ArmGrid(m, &oa, c[0] - 0.5 * h, c[1] - 0.5 * h, h, h, a));
      if (lev == 0) {
        PetscInt n = a[0].n, nd = a[0].ndof;
        for (int mth = 0; mth < 3; mth++) {
          PetscReal e = 0;
          for (PetscInt q = 0; q < 9; q++) {
            DRGMPRom ip;
            PetscCall(DRGMPInterpolateGrid(2, np, a, a[q].theta, (DRGMPMethod)mth, PETSC_TRUE, &ip));
            e = PetscMax(e, PetscMax(FrobRel(n * n, ip.M, a[q].M), PetscMax(FrobRel(n * n, ip.K, a[q].K), FrobRel(nd * n, ip.Psi, a[q].Psi))));
            PetscCall(DRGMPRomDestroy(&ip));
          }
          /* tol: as in 1-D: exact weights, eigenspace back-transform kappa(Phi) u */
          DRTEST_CLOSE(e, 0, 0, 1e-12, "2-D %s interpolation exact at the 9 grid points (relative Frobenius error of M, K, Psi)", DRGMPMethods[mth]);
        }
        {
          PetscReal e = 0;
          for (PetscInt k = 0; k < 7; k++) {
            PetscReal th[2] = {a[0].theta[0] + 0.37 * h * k / 3.0, a[0].theta[1] + 0.61 * h * (6 - k) / 3.0}, lam[32];
            PetscInt  i1 = th[0] >= a[1].theta[0] ? 1 : 0, i2 = th[1] >= a[3].theta[1] ? 1 : 0;
            PetscReal s1 = (a[i1 + 1].theta[0] - th[0]) / h, s2 = (a[3 * (i2 + 1)].theta[1] - th[1]) / h;
            DRGMPRom  ip;
            PetscBool ok;
            PetscCall(DRGMPInterpolateGrid(2, np, a, th, DR_GMP_EIGENSPACE, PETSC_FALSE, &ip));
            PetscCall(DRGMPRomEigen(&ip, &ok));
            for (PetscInt j = 0; j < n; j++)
              lam[j] = s1 * s2 * a[i1 + 3 * i2].lambda[j] + (1 - s1) * s2 * a[i1 + 1 + 3 * i2].lambda[j] + s1 * (1 - s2) * a[i1 + 3 * (i2 + 1)].lambda[j] + (1 - s1) * (1 - s2) * a[i1 + 1 + 3 * (i2 + 1)].lambda[j];
            for (PetscInt x = 0; x < n; x++)
              for (PetscInt y = x + 1; y < n; y++)
                if (lam[y] < lam[x]) { PetscReal t = lam[x]; lam[x] = lam[y]; lam[y] = t; }
            for (PetscInt j = 2; j < n; j++) e = PetscMax(e, PetscAbsReal(ip.lambda[j] - lam[j]) / lam[j]);
            PetscCall(DRGMPRomDestroy(&ip));
          }
          /* tol: as in 1-D: a dense eigensolve of the interpolant, kappa(M) u */
          DRTEST_CLOSE(e, 0, 0, 1e-12, "2-D eigenspace interpolation: eigenvalues = bilinear interpolation of the grid eigenvalues (7 points)");
        }
        {
          /* a held theta1 (one grid value, the arm3d transient's yaw): the
           * 1 x 3 grid of the middle column interpolates as the 3 x 3 grid
           * does on that column, and refuses another theta1 */
          DRGMPRom       col[3] = {a[1], a[4], a[7]}, ip, iq;
          const PetscInt np1[2] = {1, 3};
          PetscReal      e = 0, th[2] = {a[1].theta[0], a[1].theta[1] + 0.37 * h};
          PetscErrorCode ierr;
          for (int mth = 0; mth < 3; mth++) {
            PetscCall(DRGMPInterpolateGrid(2, np1, col, th, (DRGMPMethod)mth, PETSC_TRUE, &ip));
            PetscCall(DRGMPInterpolateGrid(2, np, a, th, (DRGMPMethod)mth, PETSC_TRUE, &iq));
            e = PetscMax(e, PetscMax(FrobRel(n * n, ip.M, iq.M), PetscMax(FrobRel(n * n, ip.K, iq.K), FrobRel(nd * n, ip.Psi, iq.Psi))));
            PetscCall(DRGMPRomDestroy(&ip));
            PetscCall(DRGMPRomDestroy(&iq));
          }
          /* tol: the 3 x 3 grid's theta1 weights on the column are 1 and 0 up to one rounding of theta (u), the
           * eigenspace back-transform kappa(Phi) u ~ 1e-13 */
          DRTEST_CLOSE(e, 0, 0, 1e-12, "2-D interpolation with theta1 held (a 1 x 3 grid) = the 3 x 3 grid's on that column");
          th[0] += 0.1 * h;
          PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
          ierr = DRGMPInterpolateGrid(2, np1, col, th, DR_GMP_LINEAR, PETSC_FALSE, &ip);
          PetscCall(PetscPopErrorHandler());
          DRTEST_TRUE(ierr == DR_ERR_INPUT, "2-D interpolation with theta1 held: another theta1 is an input error");
        }
      }
      PetscCall(DRGMPTrack(&a[0], &ex, md, &mn));
      for (int mth = 0; mth < 2; mth++) {
        DRGMPRom ip;
        PetscInt n = a[0].n;
        PetscCall(DRGMPInterpolateGrid(2, np, a, c, (DRGMPMethod)mth, PETSC_FALSE, &ip));
        err[lev][mth] = 0.5 * (FrobRel(n * n, ip.M, ex.M) + FrobRel(n * n, ip.K, ex.K));
        PetscCall(DRGMPRomDestroy(&ip));
      }
      for (PetscInt q = 0; q < 9; q++) PetscCall(DRGMPRomDestroy(&a[q]));
    }
    DRTEST_TRUE(err[0][0] / err[1][0] > 3.5 && err[0][0] / err[1][0] < 4.5, "2-D linear: matrix error %.3e at h = 0.2, %.3e at 0.1 (ratio %.2f, expected 4: second order)", (double)err[0][0], (double)err[1][0], (double)(err[0][0] / err[1][0]));
    DRTEST_TRUE(err[0][1] / err[1][1] > 7.0, "2-D quadratic: matrix error %.3e at h = 0.2, %.3e at 0.1 (ratio %.2f, expected 8 or more)", (double)err[0][1], (double)err[1][1], (double)(err[0][1] / err[1][1]));
    PetscCall(DRGMPRomDestroy(&ex));
    PetscCall(DRMechanismDestroy(&m));
  }
  DRTEST_END();
}
