static const char help[] = "Mesh convergence of the built-in models against beam theory:\n"
                           "  planar and 3D Euler-Bernoulli cantilevers (bending h^4, axial and torsion h^2),\n"
                           "  a slender hex8 cantilever bar against Timoshenko beam theory (h^2, from above).\n"
                           "Options: -hex_levels N (hex8 refinements, default 4).\n";

#include "drtest.h"
#include <petscblaslapack.h>
#include <slepceps.h>

static const PetscReal betaL[3] = {1.875104068711961, 4.694091132974175, 7.854757438237613};

/* All eigenpairs of (K, M) of a serial component, dense LAPACK, ascending.
 * The pencil is solved as M x = mu K x (mu = 1/lambda): the low modes are
 * then the largest eigenvalues of L^-1 M L^-T (K = L L^T), which LAPACK
 * resolves to relative accuracy, instead of the smallest of L^-1 K L^-T,
 * whose absolute accuracy eps lambda_max would hide the 1e-8 errors of the
 * fine beam meshes.  Needs K positive definite (supported models).
 * Eigenvectors (if V) column-major n x n, K-normalized. */
static PetscErrorCode DenseEig(DRComponent c, PetscReal *lambda, PetscReal **V)
{
  Mat                Kd, Md;
  const PetscScalar *k, *m;
  PetscReal         *a, *b, *work;
  PetscBLASInt       n, one = 1, lwork, info;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(CV(c).n, &n));
  lwork = 64 * n;
  PetscCall(MatConvert(CV(c).K, MATSEQDENSE, MAT_INITIAL_MATRIX, &Kd));
  PetscCall(MatConvert(CV(c).M, MATSEQDENSE, MAT_INITIAL_MATRIX, &Md));
  PetscCall(PetscMalloc3(n * n, &a, n * n, &b, lwork, &work));
  PetscCall(MatDenseGetArrayRead(Kd, &k));
  PetscCall(MatDenseGetArrayRead(Md, &m));
  PetscCall(PetscArraycpy(a, m, n * n));
  PetscCall(PetscArraycpy(b, k, n * n));
  PetscCall(MatDenseRestoreArrayRead(Kd, &k));
  PetscCall(MatDenseRestoreArrayRead(Md, &m));
  PetscCallBLAS("LAPACKsygv", LAPACKsygv_(&one, V ? "V" : "N", "U", &n, a, &n, b, &n, lambda, work, &lwork, &info));
  PetscCheck(!info, PETSC_COMM_SELF, PETSC_ERR_LIB, "dsygv failed: info %d", (int)info);
  /* mu ascending -> lambda ascending: reverse. */
  for (PetscBLASInt i = 0; i < n / 2; i++) {
    PetscReal t         = lambda[i];
    lambda[i]           = lambda[n - 1 - i];
    lambda[n - 1 - i]   = t;
  }
  for (PetscBLASInt i = 0; i < n; i++) lambda[i] = 1 / lambda[i];
  if (V) {
    PetscCall(PetscMalloc1(n * n, V));
    for (PetscBLASInt j = 0; j < n; j++) PetscCall(PetscArraycpy(*V + j * n, a + (n - 1 - j) * n, n));
  }
  PetscCall(PetscFree3(a, b, work));
  PetscCall(MatDestroy(&Kd));
  PetscCall(MatDestroy(&Md));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal Hz(PetscReal lambda) { return PetscSqrtReal(lambda) / (2 * PETSC_PI); }

/* Print a convergence table of nref levels x nm modes (errors relative to
 * ref) and check: errors positive (upper bounds), decreasing, and the
 * observed order of the first mode at the finest pair in [rmin, rmax]. */
static PetscErrorCode ConvergenceTable(const char *what, PetscInt nref, const PetscInt nel[], PetscInt nm, const PetscReal *f, const PetscReal ref[], PetscReal rmin, PetscReal rmax)
{
  PetscBool dec = PETSC_TRUE, above = PETSC_TRUE;
  PetscReal rate;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s: relative frequency error (observed order)\n  %6s", what, "nel"));
  for (PetscInt j = 0; j < nm; j++) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "   mode %" PetscInt_FMT " (%9.4f Hz)", j + 1, (double)ref[j]));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  for (PetscInt i = 0; i < nref; i++) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %6" PetscInt_FMT, nel[i]));
    for (PetscInt j = 0; j < nm; j++) {
      PetscReal e = (f[i * nm + j] - ref[j]) / ref[j];
      if (!(e > 0)) above = PETSC_FALSE;
      if (i) {
        PetscReal ep = (f[(i - 1) * nm + j] - ref[j]) / ref[j];
        if (!(e < ep)) dec = PETSC_FALSE;
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "   %10.3e (%5.2f)      ", (double)e, (double)(PetscLog2Real(ep / e))));
      } else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "   %10.3e              ", (double)e));
    }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "\n"));
  }
  DRTEST_TRUE(above, "%s: every frequency above the exact one (consistent mass: upper bounds)", what);
  DRTEST_TRUE(dec, "%s: errors decrease under refinement", what);
  rate = PetscLog2Real((f[(nref - 2) * nm] - ref[0]) / (f[(nref - 1) * nm] - ref[0]));
  /* tol: rmin/rmax: the theoretical order of the element's frequency error (4 for cubic Hermite bending, 2 for linear axial/torsion) +-0.5, the pre-asymptotic spread of the nel 16 -> 32 step */
  DRTEST_TRUE(rate >= rmin && rate <= rmax, "%s: observed order of mode 1 at nel %" PetscInt_FMT " -> %" PetscInt_FMT ": %.3f, expected in [%.1f, %.1f]", what, nel[nref - 2], nel[nref - 1], (double)rate, (double)rmin, (double)rmax);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Cantilever2D(void)
{
  const PetscReal L = 1.0, b = 0.01, h = 0.02;
  DRBeamSection   s = {.E = 210e9, .G = 0, .rho = 7850, .A = b * h, .Iy = 0, .Iz = b * h * h * h / 12, .J = 0};
  const PetscInt  nel[4] = {4, 8, 16, 32};
  PetscReal       f[4 * 3], ref[3], *lam;

  PetscFunctionBeginUser;
  for (int j = 0; j < 3; j++) ref[j] = betaL[j] * betaL[j] / (2 * PETSC_PI * L * L) * PetscSqrtReal(s.E * s.Iz / (s.rho * s.A));
  for (int i = 0; i < 4; i++) {
    DRComponent c;
    PetscCall(DRBuiltinCantilever2D(PETSC_COMM_SELF, L, nel[i], &s, PETSC_FALSE, &c));
    PetscCall(PetscMalloc1(CV(c).n, &lam));
    PetscCall(DenseEig(c, lam, NULL));
    /* The axial modes start at 1/(4L) sqrt(E/rho) ~ 1.3 kHz, far above
     * the third bending mode (~150 Hz). */
    for (int j = 0; j < 3; j++) f[i * 3 + j] = Hz(lam[j]);
    PetscCall(PetscFree(lam));
    PetscCall(DRComponentDestroy(&c));
  }
  PetscCall(ConvergenceTable("planar cantilever, bending (Euler-Bernoulli)", 4, nel, 3, f, ref, 3.5, 4.5));
  /* tol: discretization error of cubic Hermite, consistent mass: ~(beta h)^4 / 1440 = 8e-9 at nel 32 (order 4 checked by the table); 1e-7 is looser (left) */
  DRTEST_CLOSE(f[9], ref[0], 1e-7, 0, "planar cantilever nel 32: f1 vs (beta L)^2/(2 pi L^2) sqrt(EI/(rho A))");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 3D cantilever: classify each mode by the DOF directions it moves. */
static PetscErrorCode Cantilever3D(void)
{
  const PetscInt  nel[4] = {4, 8, 16, 32};
  const char     *names[4] = {"3D cantilever, bending in x-y (Iz)", "3D cantilever, bending in x-z (Iy)", "3D cantilever, torsion", "3D cantilever, axial"};
  DRFrame3DParams p;
  PetscReal       f[4][4 * 3], ref[4][3], L;

  PetscFunctionBeginUser;
  PetscCall(DRFrame3DParamsDefault(&p));
  /* 10 mm (z) x 20 mm (y) rectangle: two distinct bending planes. */
  p.sec.A  = 0.01 * 0.02;
  p.sec.Iz = 0.01 * 0.02 * 0.02 * 0.02 / 12;
  p.sec.Iy = 0.02 * 0.01 * 0.01 * 0.01 / 12;
  p.sec.J  = 0.229 * 0.02 * 0.01 * 0.01 * 0.01; /* Saint-Venant, b/t = 2 */
  L        = p.lx;
  for (int j = 0; j < 3; j++) {
    const PetscReal Ip = p.sec.Iy + p.sec.Iz;
    ref[0][j]          = betaL[j] * betaL[j] / (2 * PETSC_PI * L * L) * PetscSqrtReal(p.sec.E * p.sec.Iz / (p.sec.rho * p.sec.A));
    ref[1][j]          = betaL[j] * betaL[j] / (2 * PETSC_PI * L * L) * PetscSqrtReal(p.sec.E * p.sec.Iy / (p.sec.rho * p.sec.A));
    ref[2][j]          = (2 * j + 1) / (4 * L) * PetscSqrtReal(p.sec.G * p.sec.J / (p.sec.rho * Ip));
    ref[3][j]          = (2 * j + 1) / (4 * L) * PetscSqrtReal(p.sec.E / p.sec.rho);
  }
  for (int i = 0; i < 4; i++) {
    DRComponent c;
    PetscReal  *lam, *V;
    PetscInt    cnt[4] = {0, 0, 0, 0};
    p.nel = nel[i];
    PetscCall(DRBuiltinFrame3D(PETSC_COMM_SELF, &p, (DRCut){'x', 1}, 0, &c));
    PetscCall(PetscMalloc1(CV(c).n, &lam));
    PetscCall(DenseEig(c, lam, &V));
    for (PetscInt k = 0; k < CV(c).n; k++) {
      PetscReal e[4] = {0, 0, 0, 0}, tot = 0;
      int       g    = 0;
      for (PetscInt r = 0; r < CV(c).n; r++) {
        const PetscInt  d  = DRLabelDir(CV(c).labels[r]);
        const int       gr = (d == 2 || d == 6) ? 0 : (d == 3 || d == 5) ? 1 : d == 4 ? 2 : 3;
        const PetscReal v  = V[k * CV(c).n + r];
        e[gr] += v * v;
        tot += v * v;
      }
      for (int q = 1; q < 4; q++)
        if (e[q] > e[g]) g = q;
      /* tol: a straight beam's groups decouple exactly; LAPACK eigenvectors leak ~n u = 1e-13 between them */
      if (e[g] < (1 - 1e-12) * tot) continue; /* the groups decouple exactly for a straight beam */
      if (cnt[g] < 3) f[g][i * 3 + cnt[g]++] = Hz(lam[k]);
    }
    DRTEST_TRUE(cnt[0] == 3 && cnt[1] == 3 && cnt[2] == 3 && cnt[3] == 3, "3D cantilever nel %" PetscInt_FMT ": 3 pure modes found in each of bending y, bending z, torsion, axial", nel[i]);
    PetscCall(PetscFree(V));
    PetscCall(PetscFree(lam));
    PetscCall(DRComponentDestroy(&c));
  }
  PetscCall(ConvergenceTable(names[0], 4, nel, 3, f[0], ref[0], 3.5, 4.5));
  PetscCall(ConvergenceTable(names[1], 4, nel, 3, f[1], ref[1], 3.5, 4.5));
  /* Linear shape functions for twist and stretch: order 2. */
  PetscCall(ConvergenceTable(names[2], 4, nel, 3, f[2], ref[2], 1.9, 2.1));
  PetscCall(ConvergenceTable(names[3], 4, nel, 3, f[3], ref[3], 1.9, 2.1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* First bending frequency of a clamped-free Timoshenko beam: the root of the
 * 4 x 4 boundary determinant of w = C1 cosh ax + C2 sinh ax + C3 cos bx +
 * C4 sin bx and its section rotation psi (below the second spectrum). */
static PetscReal TimoshenkoDet(PetscReal w, PetscReal L, PetscReal E, PetscReal G, PetscReal kappa, PetscReal rho, PetscReal A, PetscReal Isec)
{
  const PetscReal kGA = kappa * G * A, EI = E * Isec, q = rho * w * w / (kappa * G);
  const PetscReal a4 = kGA * EI, b2 = w * w * (kGA * rho * Isec + rho * A * EI), c0 = rho * A * w * w * (rho * Isec * w * w - kGA);
  const PetscReal disc = PetscSqrtReal(b2 * b2 - 4 * a4 * c0), a = PetscSqrtReal((-b2 + disc) / (2 * a4)), b = PetscSqrtReal((b2 + disc) / (2 * a4));
  const PetscReal ch = PetscCoshReal(a * L), sh = PetscSinhReal(a * L), cs = PetscCosReal(b * L), sn = PetscSinReal(b * L);
  PetscReal       D[4][4] = {
    {1,             0,             1,             0            },
    {0,             (a * a + q) / a, 0,           -(q - b * b) / b},
    {(a * a + q) * ch, (a * a + q) * sh, (q - b * b) * cs, (q - b * b) * sn},
    {-sh / a,       -ch / a,       -sn / b,       cs / b       }  /* (w' - psi)(L) / q */
  };
  PetscReal det = 1;
  /* Gaussian elimination with partial pivoting. */
  for (int k = 0; k < 4; k++) {
    int p = k;
    for (int i = k + 1; i < 4; i++)
      if (PetscAbsReal(D[i][k]) > PetscAbsReal(D[p][k])) p = i;
    if (p != k) {
      for (int j = 0; j < 4; j++) {
        PetscReal t = D[k][j];
        D[k][j]     = D[p][j];
        D[p][j]     = t;
      }
      det = -det;
    }
    det *= D[k][k];
    if (D[k][k] == 0) return 0;
    for (int i = k + 1; i < 4; i++) {
      PetscReal l = D[i][k] / D[k][k];
      for (int j = k; j < 4; j++) D[i][j] -= l * D[k][j];
    }
  }
  return det;
}

static PetscReal TimoshenkoF1(PetscReal L, PetscReal E, PetscReal G, PetscReal kappa, PetscReal rho, PetscReal A, PetscReal Isec)
{
  const PetscReal web = betaL[0] * betaL[0] / (L * L) * PetscSqrtReal(E * Isec / (rho * A));
  PetscReal       lo = 0.8 * web, hi = web * (1 + 1e-9), flo = TimoshenkoDet(lo, L, E, G, kappa, rho, A, Isec);
  /* Shear and rotary inertia only lower the frequency: the root is in [0.8, 1] x the Euler-Bernoulli one. */
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
    PetscReal mid = 0.5 * (lo + hi), fm = TimoshenkoDet(mid, L, E, G, kappa, rho, A, Isec);
    if ((fm < 0) == (flo < 0)) {
      lo  = mid;
      flo = fm;
    } else hi = mid;
  }
  return 0.5 * (lo + hi) / (2 * PETSC_PI);
}

/* Lowest eigenvalue of (K, M) by SLEPc shift-and-invert (MUMPS Cholesky). */
static PetscErrorCode LowestEig(DRComponent c, PetscReal *lambda)
{
  EPS eps;
  ST  st;
  KSP ksp;
  PC  pc;

  PetscFunctionBeginUser;
  PetscCall(EPSCreate(CV(c).comm, &eps));
  PetscCall(EPSSetOperators(eps, CV(c).K, CV(c).M));
  PetscCall(EPSSetProblemType(eps, EPS_GHEP));
  PetscCall(EPSSetDimensions(eps, 2, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSSetTarget(eps, 0.0));
  PetscCall(EPSSetTolerances(eps, 1e-12, 200));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCCHOLESKY));
  PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS));
  PetscCall(EPSSetOptionsPrefix(eps, "conv_"));
  PetscCall(EPSSetFromOptions(eps));
  PetscCall(EPSSolve(eps));
  PetscCall(EPSGetEigenvalue(eps, 0, lambda, NULL));
  PetscCall(EPSDestroy(&eps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Slender square bar (L/h = 20) of hex8, clamped at x = 0, refined in all
 * directions together (element shape fixed).  Fully integrated hex8 locks
 * in bending, so the coarse meshes are far too stiff; the frequencies fall
 * monotonically, at order 2 asymptotically, towards the 3D solution, which
 * Timoshenko theory approximates within a few 0.1 % at this slenderness. */
static PetscErrorCode Hex8Bar(void)
{
  DRSolidParams p;
  PetscInt      levels = 4, nx[8];
  PetscReal     f[8], fT, kappa;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-hex_levels", &levels, NULL));
  levels = PetscMax(3, PetscMin(levels, 8));
  PetscCall(DRSolidParamsDefault(&p));
  p.lx  = 1.0;
  p.ly  = 0.05;
  p.lz  = 0.05;
  kappa = 10 * (1 + p.nu) / (12 + 11 * p.nu); /* Cowper, rectangle */
  fT    = TimoshenkoF1(p.lx, p.E, p.E / (2 * (1 + p.nu)), kappa, p.rho, p.ly * p.lz, p.ly * p.lz * p.lz * p.lz / 12);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  hex8 bar 1 x 0.05 x 0.05 clamped at x = 0: Timoshenko f1 = %.6f Hz (Euler-Bernoulli %.6f Hz)\n", (double)fT,
                        (double)(betaL[0] * betaL[0] / (2 * PETSC_PI) * PetscSqrtReal(p.E * p.lz * p.lz / (12 * p.rho)))));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5s %5s %5s %8s %14s %12s %10s\n", "nx", "ny", "nz", "DOFs", "f1 [Hz]", "vs Timosh.", "order"));
  for (PetscInt i = 0; i < levels; i++) {
    DRComponent c;
    PetscReal   lam;
    PetscInt    r = (PetscInt)1 << i;
    p.nx  = 10 * r;
    p.ny  = r;
    p.nz  = r;
    nx[i] = p.nx;
    PetscCall(DRBuiltinSolid(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &c));
    PetscCall(LowestEig(c, &lam));
    f[i] = Hz(lam);
    /* Richardson: order from three successive meshes, independent of any reference. */
    if (i >= 2) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5" PetscInt_FMT " %5" PetscInt_FMT " %5" PetscInt_FMT " %8" PetscInt_FMT " %14.6f %+11.3f%% %10.3f\n", p.nx, p.ny, p.nz, CV(c).n, (double)f[i], (double)(100 * (f[i] - fT) / fT), (double)PetscLog2Real((f[i - 2] - f[i - 1]) / (f[i - 1] - f[i]))));
    else PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %5" PetscInt_FMT " %5" PetscInt_FMT " %5" PetscInt_FMT " %8" PetscInt_FMT " %14.6f %+11.3f%% %10s\n", p.nx, p.ny, p.nz, CV(c).n, (double)f[i], (double)(100 * (f[i] - fT) / fT), "-"));
    PetscCall(DRComponentDestroy(&c));
  }
  {
    PetscBool mono = PETSC_TRUE;
    PetscReal rate = PetscLog2Real((f[levels - 3] - f[levels - 2]) / (f[levels - 2] - f[levels - 1]));
    for (PetscInt i = 1; i < levels; i++)
      if (!(f[i] < f[i - 1])) mono = PETSC_FALSE;
    DRTEST_TRUE(mono, "hex8 bar: f1 decreases monotonically under refinement (consistent mass, conforming: upper bounds)");
    /* tol: trilinear hex8 frequency error is O(h^2); +-0.4 allows the pre-asymptotic coarse levels (the bar is slender: shear locking slows the start) */
    DRTEST_TRUE(rate > 1.6 && rate < 2.6, "hex8 bar: observed order (Richardson, nx %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ") = %.3f, expected in (1.6, 2.6)", nx[levels - 3], nx[levels - 2], nx[levels - 1], (double)rate);
    /* tol: discretization error of the finest mesh, bounded by the Richardson estimate (f[l-2] - f[l-1]) / (2^p - 1) ~ 1 % plus the beam-theory vs 3D difference (< 0.5 %) */
    DRTEST_CLOSE(f[levels - 1], fT, 0.02, 0, "hex8 bar: finest f1 vs Timoshenko beam theory (2 %%)");
    /* Richardson extrapolation with the observed order: the 3D limit,
     * which beam theory should match to well under 1 %. */
    /* tol: the extrapolated 3D limit vs Timoshenko beam theory: the theory's own error for a slender bar (L/h = 20: (h/L)^2 effects ~ 0.25 %) x2 */
    DRTEST_CLOSE(f[levels - 1] - (f[levels - 2] - f[levels - 1]) / (PetscPowReal(2.0, rate) - 1), fT, 0.005, 0, "hex8 bar: Richardson-extrapolated f1 vs Timoshenko beam theory (0.5 %%)");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(DRInitialize(&argc, &argv, help));
  PetscCall(Cantilever2D());
  PetscCall(Cantilever3D());
  PetscCall(Hex8Bar());
  DRTEST_END();
}
