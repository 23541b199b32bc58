/* GMP tracking and interpolation (METHODS.md 5) on slider-crank ROMs:
 *  - every method reproduces the grid point's M, K, Psi at grid points;
 *  - eigenspace interpolation's eigenvalues are exactly the linear
 *    interpolation of the grid eigenvalues (1e-12 relative);
 *  - linear interpolation is linear (midpoint = mean of the neighbours) and
 *    quadratic reproduces a quadratic exactly (checked on theta^2 data);
 *  - tracking a reversed-order, sign-flipped copy restores the original. */
#include "drtest.h"
#include <dynred/gmp.h>

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
        PetscCall(DRGMPRomFree(&ip));
      }
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
        DRTEST_TRUE(PetscAbsReal(ip.lambda[0]) < 1e-9 * lam[1], "eigenspace at theta %.4f: rigid eigenvalue stays 0 (%.2e)", (double)th, (double)ip.lambda[0]);
        PetscCall(DRGMPRomFree(&ip));
      }
      DRTEST_CLOSE(e, 0, 0, 1e-12, "eigenspace interpolation: eigenvalues = linear interpolation of the grid eigenvalues (max relative difference, 20 points)");
    }
    /* linear at a midpoint; quadratic reproduces theta^2 */
    {
      DRGMPRom  ip, q[6];
      PetscReal e = 0, th = t0 + 2.5 * h;
      PetscCall(DRGMPInterpolate(ng, g, th, DR_GMP_LINEAR, &ip));
      for (PetscInt k = 0; k < n * n; k++) e = PetscMax(e, PetscAbsReal(ip.M[k] - 0.5 * (g[2].M[k] + g[3].M[k])));
      DRTEST_CLOSE(e, 0, 0, 1e-14, "linear interpolation at a midpoint = mean of the neighbours");
      PetscCall(DRGMPRomFree(&ip));
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
        PetscCall(DRGMPRomFree(&ip));
      }
      DRTEST_CLOSE(e, 0, 0, 1e-13, "quadratic interpolation reproduces theta^2 data exactly");
      for (PetscInt i = 0; i < ng; i++) PetscCall(DRGMPRomFree(&q[i]));
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
      DRTEST_CLOSE(e, 0, 0, 1e-14, "tracking restores a reversed, sign-flipped copy of the modes");
      PetscCall(DRGMPRomFree(&c));
    }
  }
  for (PetscInt i = 0; i < ng; i++) PetscCall(DRGMPRomFree(&g[i]));
  PetscCall(DRMechanismDestroy(&m));
  DRTEST_END();
}
