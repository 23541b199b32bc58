/* State-space integrators: exact stepping against closed-form solutions,
 * observed order of convergence of every method, energy behaviour of the
 * undamped system, and the hybrid loop with the linear absorber law against
 * the linear model. */
#include "drtest.h"
#include <dynred/ss.h>
#include <string.h>

/* Model: a rigid-body mode and two flexible modes, one input, two outputs. */
static const PetscReal W[3]  = {0.0, 2 * PETSC_PI * 1.3, 2 * PETSC_PI * 4.1};
static const PetscReal Bm[3] = {0.7, -0.4, 0.9};
static const PetscReal Cm[6] = {0.5, 0.3, -0.2, 1.0, -0.6, 0.25};
static const PetscReal X0[6] = {0.01, -0.02, 0.03, 0.1, -0.02, 0.05};
#define RAMP 2.5 /* u = RAMP t */

static PetscErrorCode Ramp(void *ctx, PetscReal t, PetscReal u[])
{
  u[0] = RAMP * t;
  return PETSC_SUCCESS;
}

/* Closed form of q'' + 2 z w q' + w^2 q = b a t (a = RAMP) with q(0) = q0,
 * q'(0) = v0, 0 <= z < 1.  Particular solution (F/k)(t - c/k) with F = b a,
 * c = 2 z w, k = w^2; homogeneous part e^{-z w t} (A cos wd t + B sin wd t),
 * wd = w sqrt(1 - z^2), A and B from the initial conditions.  A rigid-body
 * mode (w = 0; never damped, src/ss/ss.c): q0 + v0 t + a b t^3 / 6. */
static void Analytic(PetscReal w, PetscReal z, PetscReal b, PetscReal q0, PetscReal v0, PetscReal t, PetscReal *q, PetscReal *v)
{
  PetscReal F = b * RAMP;
  if (w == 0) {
    *q = q0 + v0 * t + F * t * t * t / 6;
    *v = v0 + F * t * t / 2;
  } else {
    PetscReal k = w * w, c = 2 * z * w, wd = w * PetscSqrtReal(1 - z * z), e = exp(-z * w * t);
    PetscReal A = q0 + F * c / (k * k), B = (v0 - F / k + z * w * A) / wd;
    *q = e * (A * cos(wd * t) + B * sin(wd * t)) + F / k * (t - c / k);
    *v = e * ((wd * B - z * w * A) * cos(wd * t) - (wd * A + z * w * B) * sin(wd * t)) + F / k;
  }
}

static PetscReal Diff(const PetscReal a[], const PetscReal b[], PetscInt n)
{
  PetscReal e = 0;
  for (PetscInt i = 0; i < n; i++) e = PetscMax(e, PetscAbsReal(a[i] - b[i]));
  return e;
}

static PetscErrorCode TestExact(void)
{
  DRSS      ss;
  DRSSInput in = {1, Ramp, NULL};
  PetscReal x[6], ref[6], T = 1.0;

  PetscFunctionBeginUser;
  PetscCall(DRSSCreate(PETSC_COMM_SELF, &ss));
  PetscCall(DRSSSetModes(ss, 3, W, 1e-6, 1, Bm, 2, Cm));
  for (PetscInt k = 0; k < 3; k++) Analytic(W[k], 0, Bm[k], X0[2 * k], X0[2 * k + 1], T, &ref[2 * k], &ref[2 * k + 1]);
  PetscCall(DRSSSimulate(ss, "exact", 0.1, 10, X0, &in, NULL, NULL, x));
  /* tol: exact stepping: 10 steps, each a 2x2 matrix exponential (cos/sin to 1 ulp) and a ramp particular solution: ~10 x 10 u on O(0.1) states = 2e-15 x 10; 1e-13 absolute */
  DRTEST_CLOSE(Diff(x, ref, 6), 0, 0, 1e-13, "exact stepping, 10 steps of 0.1 s, ramp input, rigid + 2 flexible modes: max |x - closed form| at t = 1");
  PetscCall(DRSSSimulate(ss, "zoh", 0.1, 10, X0, NULL, NULL, NULL, x));
  for (PetscInt k = 0; k < 3; k++) Analytic(W[k], 0, 0, X0[2 * k], X0[2 * k + 1], T, &ref[2 * k], &ref[2 * k + 1]);
  /* tol: as above: 10 exact steps, rounding only */
  DRTEST_CLOSE(Diff(x, ref, 6), 0, 0, 1e-13, "ZOH stepping, free vibration: max |x - closed form| at t = 1");
  {
    /* damped free vibration of mode 2: q = e^{-z w t}(q0 cos wd t + (v0 + z w q0)/wd sin wd t) */
    PetscReal z = 0.05, w = W[2], wd = w * PetscSqrtReal(1 - z * z), q0 = X0[4], v0 = X0[5], q;
    PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_MODAL, 1, &z, 0, 0, "test"));
    PetscCall(DRSSSimulate(ss, "exact", 0.1, 10, X0, NULL, NULL, NULL, x));
    q = exp(-z * w * T) * (q0 * cos(wd * T) + (v0 + z * w * q0) / wd * sin(wd * T));
    /* tol: exact for the damped mode too: rounding of exp/cos/sin over 10 steps (~100 u relative), 1e-15 absolute for the zero crossings */
    DRTEST_CLOSE(x[4], q, 1e-12, 1e-15, "exact stepping, damped mode (zeta 0.05): q(1) against the closed form");
    /* tol: q0 + v0 t accumulated over 10 steps: ~10 u relative */
    DRTEST_CLOSE(x[0], X0[0] + X0[1] * T, 1e-12, 1e-15, "exact stepping: the rigid-body mode is not damped (q = q0 + v0 t)");
    /* every mode damped (zeta 0.05, the rigid one excepted) under the ramp */
    PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_MODAL, 1, &z, 0, 0, "test"));
    PetscCall(DRSSSimulate(ss, "exact", 0.1, 10, X0, &in, NULL, NULL, x));
    for (PetscInt k = 0; k < 3; k++) Analytic(W[k], z, Bm[k], X0[2 * k], X0[2 * k + 1], T, &ref[2 * k], &ref[2 * k + 1]);
    /* tol: as for the undamped ramp: 10 exact steps (exp, cos, sin to 1 ulp each) on O(0.1) states, rounding only; 1e-13 absolute */
    DRTEST_CLOSE(Diff(x, ref, 6), 0, 0, 1e-13, "exact stepping, damped modes (zeta 0.05), ramp input: max |x - closed form| at t = 1");
  }
  PetscCall(DRSSDestroy(&ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Observed order: error at T = 1 against the closed form (Analytic: every
 * mode damped with zeta 0.03 but the rigid one, ramp input) for h and h/2. */
static PetscErrorCode TestOrders(void)
{
  const struct {
    const char *name;
    PetscReal   h, tol;
  } cases[] = {
    /* tol: the observed order log2(e(h)/e(h/2)) approaches p with an O(h) (one-step) or O(h^2) correction: 0.15 at h where (omega_max h) <= 0.26; 0.2-0.5 for the high-order methods, whose errors at h/2 come within 100x of round-off (rk8vr: 1e-12) */
    {"zoh", 0.002, 0.15}, {"beuler", 0.0005, 0.15}, {"newmark", 0.01, 0.15}, {"central", 0.01, 0.15}, {"cn", 0.01, 0.15}, {"theta", 0.01, 0.15}, {"alpha2", 0.01, 0.2}, {"rk3bs", 0.005, 0.2}, {"rk4", 0.02, 0.2}, {"rk5dp", 0.005, 0.3}, {"rk8vr", 0.05, 0.5},
  };
  DRSS      ss;
  DRSSInput in = {1, Ramp, NULL};
  PetscReal ref[6], z = 0.03;

  PetscFunctionBeginUser;
  PetscCall(DRSSCreate(PETSC_COMM_SELF, &ss));
  PetscCall(DRSSSetModes(ss, 3, W, 1e-6, 1, Bm, 2, Cm));
  PetscCall(DRSSSetDamping(ss, DR_SS_DAMP_MODAL, 1, &z, 0, 0, "test"));
  for (PetscInt k = 0; k < 3; k++) Analytic(W[k], z, Bm[k], X0[2 * k], X0[2 * k + 1], 1.0, &ref[2 * k], &ref[2 * k + 1]);
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    PetscReal x1[6], x2[6], e1, e2, p;
    PetscInt  order;
    PetscBool known;
    PetscInt  n = (PetscInt)(1.0 / cases[i].h + 0.5);
    PetscCall(DRSSMethodOrder(cases[i].name, &order, &known));
    PetscCall(DRSSSimulate(ss, cases[i].name, cases[i].h, n, X0, &in, NULL, NULL, x1));
    PetscCall(DRSSSimulate(ss, cases[i].name, cases[i].h / 2, 2 * n, X0, &in, NULL, NULL, x2));
    e1 = Diff(x1, ref, 6);
    e2 = Diff(x2, ref, 6);
    p  = PetscLog2Real(e1 / e2);
    DRTEST_CLOSE(p, (PetscReal)order, 0, cases[i].tol, "%s: observed order log2(e(h)/e(h/2)) with h = %g (errors %.3e, %.3e)", cases[i].name, (double)cases[i].h, (double)e1, (double)e2);
  }
  PetscCall(DRSSDestroy(&ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal Energy(const PetscReal x[], PetscInt m, const PetscReal w[])
{
  PetscReal e = 0;
  for (PetscInt k = 0; k < m; k++) e += 0.5 * (x[2 * k + 1] * x[2 * k + 1] + w[k] * w[k] * x[2 * k] * x[2 * k]);
  return e;
}

static PetscErrorCode TestEnergy(void)
{
  DRSS       ss;
  PetscInt   n = 20000, m = 3;
  PetscReal *X, h = 0.01;

  PetscFunctionBeginUser;
  PetscCall(DRSSCreate(PETSC_COMM_SELF, &ss));
  PetscCall(DRSSSetModes(ss, 3, W, 1e-6, 1, Bm, 2, Cm));
  PetscCall(PetscMalloc1((n + 1) * 2 * m, &X));
  {
    PetscReal e0 = Energy(X0, m, W), dev = 0;
    PetscCall(DRSSSimulate(ss, "newmark", h, n, X0, NULL, NULL, X, NULL));
    for (PetscInt i = 0; i <= n; i++) dev = PetscMax(dev, PetscAbsReal(Energy(X + i * 2 * m, m, W) - e0) / e0);
    /* tol: average acceleration conserves the discrete energy exactly for linear undamped systems: only rounding, 20000 steps x u x (a few ops) ~ 1e-12 random walk: sqrt(2e4) x 10 u = 3e-13 */
    DRTEST_CLOSE(dev, 0, 0, 1e-12, "newmark (average acceleration), undamped, 20000 steps (omega h up to 0.26): max relative energy deviation");
  }
  {
    /* central difference: energy oscillates (bounded by O((omega h)^2)) but
     * does not drift: the deviation in the last quarter is no larger than
     * in the first */
    PetscReal e0 = Energy(X0, m, W), d1 = 0, d2 = 0;
    PetscCall(DRSSSimulate(ss, "central", h, n, X0, NULL, NULL, X, NULL));
    for (PetscInt i = 0; i <= n; i++) {
      PetscReal d = PetscAbsReal(Energy(X + i * 2 * m, m, W) - e0) / e0;
      if (i < n / 4) d1 = PetscMax(d1, d);
      if (i > 3 * n / 4) d2 = PetscMax(d2, d);
    }
    /* tol: central difference conserves a modified energy: the standard energy oscillates by O((omega h)^2) / 4; 1e-3 absorbs the lower modes' share */
    DRTEST_TRUE(d1 < 0.25 * (W[2] * h) * (W[2] * h) + 1e-3, "central difference, undamped: energy deviation %.3e within O((omega_max h)^2) = %.3e", (double)d1, (double)((W[2] * h) * (W[2] * h)));
    /* tol: no secular drift: the late maximum may exceed the early one only by sampling of the oscillation (5 %) and rounding */
    DRTEST_TRUE(d2 <= 1.05 * d1 + 1e-12, "central difference, undamped: no drift over 20000 steps (max deviation first quarter %.3e, last quarter %.3e)", (double)d1, (double)d2);
  }
  {
    /* counter-check that the energy test can fail: backward Euler dissipates */
    PetscReal e0 = Energy(X0, m, W), xT[6];
    PetscCall(DRSSSimulate(ss, "beuler", h, 2000, X0, NULL, NULL, NULL, xT));
    /* tol: backward Euler's numerical damping at omega h = 0.26 over 20 s removes far more than 10 % (per-step factor 1/(1 + (omega h)^2)^(1/2)) */
    DRTEST_TRUE(Energy(xT, m, W) < 0.9 * e0, "backward Euler (not energy conserving) loses energy: E(20 s)/E(0) = %.3f", (double)(Energy(xT, m, W) / e0));
  }
  PetscCall(PetscFree(X));
  PetscCall(DRSSDestroy(&ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integrator registry: every documented method is registered, and an
 * unknown name is an input error. */
static PetscErrorCode TestRegistry(void)
{
  const char    *names[] = {"exact", "zoh", "newmark", "central", "rk3bs", "rk4", "rk5dp", "rk8vr", "beuler", "cn", "theta", "alpha2"};
  char           buf[512];
  DRSS           ss;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(DRSSIntegratorNames(buf, sizeof(buf)));
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) DRTEST_TRUE(strstr(buf, names[i]) != NULL, "integrator registry lists %s (%s)", names[i], buf);
  PetscCall(DRSSCreate(PETSC_COMM_SELF, &ss));
  PetscCall(DRSSSetModes(ss, 3, W, 1e-6, 1, Bm, 2, Cm));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DRSSSimulate(ss, "rk9", 0.1, 10, X0, NULL, NULL, NULL, NULL);
  PetscCall(PetscPopErrorHandler());
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "an unknown integrator name is an input error (got %d)", (int)ierr);
  PetscCall(DRSSDestroy(&ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(DRInitialize(&argc, &argv, NULL));
  PetscCall(TestExact());
  PetscCall(TestOrders());
  PetscCall(TestEnergy());
  PetscCall(TestRegistry());
  DRTEST_END();
}
