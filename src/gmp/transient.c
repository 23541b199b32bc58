/* GMP transient check (include/dynred/gmpsweep.h).
 *
 * Reduced equations of motion in eta = [theta | delta] from the Lagrangian
 * T = 1/2 eta'^T M(theta) eta', V = 1/2 eta^T K(theta) eta:
 *   M eta'' + theta' M_th eta' - 1/2 (eta'^T M_th eta') e_th
 *           + K eta + 1/2 (eta^T K_th eta) e_th = tau(t) e_th
 * (M_th = dM/dtheta).  This keeps the convective terms of a configuration-
 * dependent mass matrix; the further terms of Naets' full inertial forces
 * (products with dPsi/dtheta delta) are added with gmp.transient.naets
 * (derivation in transient_naets.c; the interpolation methods, against the
 * nonlinear reference).  The same equations
 * are integrated with every interpolation method and with the reference:
 * the exact ROM recomputed at every step (at the predicted theta of the step,
 * with M and K linearized in theta about it, derivatives by central
 * differences of exact ROMs), so the comparison isolates the interpolation;
 * or (gmp.transient.reference: nonlinear) the unreduced slider-crank with
 * co-rotational beams and exact joints (flexref.c), so the comparison
 * includes the reduction (modal truncation, K linearized about rho(theta),
 * the dropped delta dPsi/dtheta inertia terms).
 * arm3d: the elbow is driven (theta = theta2, the elevation) with the yaw
 * held at the grid's one theta1 value: a locked base, so the reduced
 * equations are those of the grid's ROMs without theta1's row and column
 * (DRGMPRomHold: the constrained Lagrangian), and the motor's torque does
 * work on theta2 alone (the deformation modes keep the elbow's relative
 * rotation at 0).  The recorded deflection is link 2's tip relative to the
 * elbow, normal to link 2's root tangent.
 * arm3d with the yaw driven too (gmp.theta1 swept, reference nonlinear):
 * eta = [theta1, theta2 | delta] on the 2-D grid (DRGMPInterpolateGrid),
 * the same Lagrangian with both rigid coordinates,
 *   M eta'' + sum_t theta_t' M_t eta' - 1/2 (eta'^T M_t eta') e_t
 *           + K eta + 1/2 (eta^T K_t eta) e_t = tau_1 e_1 + tau_2 e_2,
 * M_t, K_t by central differences of the interpolant along each axis; the
 * base motor's torque does work on theta1 alone (the deformation modes
 * clamp the base, constraint.c), the elbow's as with the yaw held.  The
 * reference is the unreduced spatial arm (flexref3.c); the yaw and the
 * tip's deflection out of the arm's plane are recorded too.  Naets' terms
 * (gmp.transient.naets) take both rigid DOFs (transient_naets.c); the
 * exact-ROM reference is built for one driven DOF.
 * Integrator: PETSc TSALPHA2 (generalized-alpha for second-order systems)
 * with spectral radius 1 (no numerical damping), fixed step.
 * Torque: tau = T0 sin(2 pi f t) for t < 1/(4 f) (the sinusoidal ramp),
 * then T0; the GMP paper (Naets, Heirman and Desmet): T0 = 0.5 N m,
 * f = 50 Hz, h = 0.05 ms. */
#include "transientimpl.h"
#include <dynred/preflight.h>
#include <dynred/ode.h>

static PetscReal Wrap(TrCtx *c, PetscReal th)
{
  if (c->period > 0) {
    PetscReal r = PetscFmodReal(th - c->theta_lo, c->period);
    if (r < 0) r += c->period;
    return c->theta_lo + r;
  }
  return th;
}

/* the ramp: sin(2 pi f t) up to t = 1/(4 f), then 1 */
static PetscReal Ramp(TrCtx *c, PetscReal t)
{
  return t < 1.0 / (4 * c->fr) ? PetscSinReal(2 * PETSC_PI * c->fr * t) : 1;
}

static PetscReal Torque(TrCtx *c, PetscReal t)
{
  return c->T0 * Ramp(c, t);
}

/* exact ROM at theta aligned with the previous one */
static PetscErrorCode ExactAt(TrCtx *c, PetscReal th, DRGMPRom *r)
{
  PetscReal thv[DR_GMP_MAXTHETA] = {th, 0, 0, 0}, md[64], mn;

  PetscFunctionBeginUser;
  if (c->arm) {
    DRGMPRom r2;
    thv[0] = c->yaw, thv[1] = th;
    PetscCall(DRGMPRomBuilderCompute(c->builder, PETSC_COMM_SELF, thv, &r2));
    PetscCall(DRGMPRomHold(&r2, 0, r));
    PetscCall(DRGMPRomDestroy(&r2));
  } else PetscCall(DRGMPRomBuilderCompute(c->builder, PETSC_COMM_SELF, thv, r));
  PetscCall(DRGMPTrack(&c->ex, r, md, &mn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model (M, K, dM, dK) at theta for the current method. */
static PetscErrorCode Model(TrCtx *c, PetscReal theta, PetscBool psi)
{
  PetscInt n = c->n;

  PetscFunctionBeginUser;
  if (c->method < 3) {
    DRGMPRom ip;
    PetscReal tw = Wrap(c, theta);
    PetscCall(DRGMPInterpolatePart(c->ngrid, c->grid, tw, (DRGMPMethod)c->method, psi, &ip));
    PetscCall(PetscArraycpy(c->M, ip.M, n * n));
    PetscCall(PetscArraycpy(c->K, ip.K, n * n));
    if (psi && ip.Psi) PetscCall(PetscArraycpy(c->Psi, ip.Psi, c->ndof * n));
    PetscCall(DRGMPRomDestroy(&ip));
    PetscCall(DRGMPInterpolateDerivative(c->ngrid, c->grid, tw, (DRGMPMethod)c->method, c->dM, c->dK));
  } else {
    for (PetscInt k = 0; k < n * n; k++) {
      c->M[k]  = c->M0[k] + (theta - c->th0) * c->Mt[k];
      c->K[k]  = c->K0[k] + (theta - c->th0) * c->Kt[k];
      c->dM[k] = c->Mt[k];
      c->dK[k] = c->Kt[k];
    }
    PetscCall(PetscArraycpy(c->Psi, c->Psi0, c->ndof * n));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The yaw driven: the model at (theta1, theta2) = u[0], u[1] on the 2-D
 * grid, M_t, K_t by central differences of the interpolant, d = 1e-4 rad:
 * exact inside a cell for the linear and quadratic methods (polynomials of
 * degree <= 2 per axis), O(d^2) ~ 1e-8 for the eigenspace method; rounding
 * eps / d ~ 1e-12 of M, K (d = 1e-6 left a residual noise of 1e-8 N m that
 * stalled Newton at E/10 with 12 modes); within d of a grid line the mean
 * of the two cells' slopes.  And the arm's frames at the current yaw. */
static PetscErrorCode Model2(TrCtx *c, const PetscReal u[], PetscBool psi)
{
  PetscInt  n = c->n;
  PetscReal th[DR_GMP_MAXTHETA] = {u[0], u[1], 0, 0}, d = 1e-4, d2[3];
  DRGMPRom  ip;

  PetscFunctionBeginUser;
  PetscCall(DRGMPInterpolateGrid(2, c->npts, c->grid, th, (DRGMPMethod)c->method, psi, &ip));
  PetscCall(PetscArraycpy(c->M, ip.M, n * n));
  PetscCall(PetscArraycpy(c->K, ip.K, n * n));
  if (psi && ip.Psi) PetscCall(PetscArraycpy(c->Psi, ip.Psi, c->ndof * n));
  PetscCall(DRGMPRomDestroy(&ip));
  for (int t = 0; t < 2; t++) {
    PetscReal tp[DR_GMP_MAXTHETA] = {u[0], u[1], 0, 0}, tm[DR_GMP_MAXTHETA] = {u[0], u[1], 0, 0}, *dM = t ? c->dM2 : c->dM, *dK = t ? c->dK2 : c->dK;
    DRGMPRom  rp, rm;
    tp[t] += d, tm[t] -= d;
    PetscCall(DRGMPInterpolateGrid(2, c->npts, c->grid, tp, (DRGMPMethod)c->method, PETSC_FALSE, &rp));
    PetscCall(DRGMPInterpolateGrid(2, c->npts, c->grid, tm, (DRGMPMethod)c->method, PETSC_FALSE, &rm));
    for (PetscInt k = 0; k < n * n; k++) dM[k] = (rp.M[k] - rm.M[k]) / (2 * d), dK[k] = (rp.K[k] - rm.K[k]) / (2 * d);
    PetscCall(DRGMPRomDestroy(&rp));
    PetscCall(DRGMPRomDestroy(&rm));
  }
  PetscCall(DRArmFrames(th, c->d1, d2, c->a2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reference: the exact ROM at the step's predicted theta, linearized. */
static PetscErrorCode ExactStep(TrCtx *c, PetscReal thpred)
{
  PetscInt  n = c->n;
  PetscReal d = 1e-6;
  DRGMPRom  rp, rm, r0;

  PetscFunctionBeginUser;
  PetscCall(ExactAt(c, thpred, &r0));
  PetscCall(DRGMPRomDestroy(&c->ex));
  c->ex = r0; /* the next step aligns with this one */
  PetscCall(ExactAt(c, thpred + d, &rp));
  PetscCall(ExactAt(c, thpred - d, &rm));
  c->th0 = thpred;
  for (PetscInt k = 0; k < n * n; k++) {
    c->M0[k] = r0.M[k], c->K0[k] = r0.K[k];
    c->Mt[k] = (rp.M[k] - rm.M[k]) / (2 * d);
    c->Kt[k] = (rp.K[k] - rm.K[k]) / (2 * d);
  }
  PetscCall(PetscArraycpy(c->Psi0, r0.Psi, c->ndof * n));
  PetscCall(DRGMPRomDestroy(&rp));
  PetscCall(DRGMPRomDestroy(&rm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The driven joint's rotation per unit of column k of c->Psi: node 0's
 * rotation (slider-crank), or the elbow's relative rotation about -a2
 * (arm; 0 for the hinge frame's deformation modes, 1 for the rigid column). */
static PetscReal DrivenRotation(const TrCtx *c, PetscInt k)
{
  const PetscReal *P = &c->Psi[k * c->ndof];
  PetscReal        r = 0;
  if (!c->arm) return P[2];
  for (int d = 0; d < 3; d++) r -= c->a2[d] * (P[c->jb * c->dpn + 3 + d] - P[c->ja * c->dpn + 3 + d]);
  return r;
}

static PetscErrorCode Residual(PetscReal t, const PetscReal u[], const PetscReal v[], const PetscReal a[], PetscReal f[], void *ctx)
{
  TrCtx    *c = (TrCtx *)ctx;
  PetscInt  n = c->n;
  PetscReal qv = 0, qu = 0;

  PetscFunctionBeginUser;
  if (c->ntd == 2) {
    PetscReal qv2 = 0, qu2 = 0, tau = Torque(c, t);
    PetscCall(Model2(c, u, c->chord));
    if (c->na) {
      PetscReal *dMs[2] = {c->dM, c->dM2};
      PetscCall(DRGMPNaetsMass(c->na, u, c->M, dMs));
    }
    for (PetscInt i = 0; i < n; i++) {
      PetscReal s = 0;
      for (PetscInt j = 0; j < n; j++) {
        s += c->M[i + j * n] * a[j] + (v[0] * c->dM[i + j * n] + v[1] * c->dM2[i + j * n]) * v[j] + c->K[i + j * n] * u[j];
        qv += v[i] * c->dM[i + j * n] * v[j], qv2 += v[i] * c->dM2[i + j * n] * v[j];
        qu += u[i] * c->dK[i + j * n] * u[j], qu2 += u[i] * c->dK2[i + j * n] * u[j];
      }
      f[i] = s;
    }
    f[0] += -0.5 * qv + 0.5 * qu - c->Ty * Ramp(c, t);
    f[1] += -0.5 * qv2 + 0.5 * qu2;
    if (!c->chord) f[1] -= tau;
    else
      for (PetscInt k = 0; k < n; k++) f[k] -= tau * DrivenRotation(c, k);
    if (c->na) PetscCall(DRGMPNaetsAddResidual(c->na, u, v, a, f));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(Model(c, u[0], c->chord));
  if (c->na) { /* one kinetic energy with the terms (transient_naets.c) */
    PetscReal *dMs[1] = {c->dM};
    PetscCall(DRGMPNaetsMass(c->na, u, c->M, dMs));
  }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal s = 0;
    for (PetscInt j = 0; j < n; j++) {
      s += c->M[i + j * n] * a[j] + v[0] * c->dM[i + j * n] * v[j] + c->K[i + j * n] * u[j];
      qv += v[i] * c->dM[i + j * n] * v[j];
      qu += u[i] * c->dK[i + j * n] * u[j];
    }
    f[i] = s;
  }
  if (!c->chord) f[0] += -0.5 * qv + 0.5 * qu - Torque(c, t);
  else {
    /* the torque's virtual work tau d(phi) with phi = theta + Psi_d[joint] delta
     * (phi: node 0's rotation, or the elbow's relative rotation):
     * generalized forces tau Psi[joint, k] (the rigid column's entry is 1;
     * tau dPsi_d/dtheta delta, second order in the deformation, is left out) */
    PetscReal tau = Torque(c, t);
    f[0] += -0.5 * qv + 0.5 * qu;
    for (PetscInt k = 0; k < n; k++) f[k] -= tau * DrivenRotation(c, k);
  }
  if (c->na) PetscCall(DRGMPNaetsAddResidual(c->na, u, v, a, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* record theta and the transverse flexible deflection of the crank end */
/* |Psi_d'(theta) delta theta'|_ml and |Psi eta'|_ml with Psi_d' by central
 * differences of the interpolant's Psi (c->Psi holds Psi(theta)). */
static PetscErrorCode DroppedInertia(TrCtx *c, const PetscReal u[], const PetscReal v[])
{
  PetscReal d = 1e-6, th = u[0], a = 0, b = 0;
  PetscInt  nd = c->ndof, n = c->n, nt = c->grid[0].nt;
  DRGMPRom  ip, im;

  PetscFunctionBeginUser;
  PetscCall(DRGMPInterpolatePart(c->ngrid, c->grid, Wrap(c, th + d), (DRGMPMethod)c->method, PETSC_TRUE, &ip));
  PetscCall(DRGMPInterpolatePart(c->ngrid, c->grid, Wrap(c, th - d), (DRGMPMethod)c->method, PETSC_TRUE, &im));
  for (PetscInt i = 0; i < nd; i++) {
    PetscReal vd = 0, vk = 0;
    for (PetscInt k = nt; k < n; k++) vd += (ip.Psi[i + k * nd] - im.Psi[i + k * nd]) / (2 * d) * u[k] * v[0];
    for (PetscInt k = 0; k < n; k++) vk += c->Psi[i + k * nd] * v[k];
    a += c->ml[i] * vd * vd, b += c->ml[i] * vk * vk;
  }
  c->vdrop = PetscMax(c->vdrop, PetscSqrtReal(a));
  c->vkept = PetscMax(c->vkept, PetscSqrtReal(b));
  PetscCall(DRGMPRomDestroy(&ip));
  PetscCall(DRGMPRomDestroy(&im));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Record(TrCtx *c, PetscReal t, const PetscReal u[], const PetscReal v[])
{
  PetscReal ux = 0, uy = 0, th;

  PetscFunctionBeginUser;
  th = c->ntd == 2 ? u[1] : u[0];
  if (c->ntd == 2) PetscCall(Model2(c, u, PETSC_TRUE));
  else PetscCall(Model(c, th, PETSC_TRUE));
  for (PetscInt k = c->grid[0].nt; k < c->n; k++) {
    ux += c->Psi[c->tipdof[0] + k * c->ndof] * u[k];
    uy += c->Psi[c->tipdof[1] + k * c->ndof] * u[k];
  }
  if (c->nrec == c->caprec) {
    PetscReal *a, *b, *d, *e, *g;
    c->caprec = 2 * c->caprec + 1024;
    PetscCall(PetscCalloc5(c->caprec, &a, c->caprec, &b, c->caprec, &d, c->caprec, &e, c->caprec, &g));
    PetscCall(PetscArraycpy(a, c->t, c->nrec));
    PetscCall(PetscArraycpy(b, c->th, c->nrec));
    PetscCall(PetscArraycpy(d, c->w, c->nrec));
    PetscCall(PetscArraycpy(e, c->th1, c->nrec));
    PetscCall(PetscArraycpy(g, c->wl, c->nrec));
    PetscCall(PetscFree5(c->t, c->th, c->w, c->th1, c->wl));
    c->t = a, c->th = b, c->w = d, c->th1 = e, c->wl = g;
  }
  c->t[c->nrec]  = t;
  if (c->arm) {
    /* as the reference records them (flexref.c): the elbow's relative
     * rotation theta, and link 2's tip relative to the elbow normal to link
     * 2's root tangent at alpha = theta + the modes' in-plane rotation of
     * link 1's end (a rotation about -a2 raises link 2) */
    PetscReal alpha = th, rs = 0, rz = 0, rel = th;
    for (PetscInt k = c->grid[0].nt; k < c->n; k++) {
      const PetscReal *P = &c->Psi[k * c->ndof];
      PetscReal        rot = 0, ds = 0;
      rel += DrivenRotation(c, k) * u[k]; /* the chord frame's modes turn the elbow */
      for (int d = 0; d < 3; d++) rot -= P[c->jb * c->dpn + 3 + d] * c->a2[d], ds += (P[c->jtip * c->dpn + d] - P[c->jb * c->dpn + d]) * c->d1[d];
      alpha += rot * u[k];
      rs += ds * u[k];
      rz += (P[c->jtip * c->dpn + 2] - P[c->jb * c->dpn + 2]) * u[k];
    }
    c->th[c->nrec] = rel;
    c->w[c->nrec]  = c->L2 * PetscSinReal(th - alpha) - PetscSinReal(alpha) * rs + PetscCosReal(alpha) * rz;
    if (c->ntd == 2) { /* the yaw, and the tip out of the arm's plane (along a2 at the current yaw), as flexref3.c */
      PetscReal wl = 0;
      for (PetscInt k = c->grid[0].nt; k < c->n; k++)
        for (int d = 0; d < 3; d++) wl += c->Psi[c->jtip * c->dpn + d + k * c->ndof] * c->a2[d] * u[k];
      c->th1[c->nrec] = u[0], c->wl[c->nrec] = wl;
    }
  } else if (!c->chord) {
    c->th[c->nrec] = th;
    c->w[c->nrec]  = -PetscSinReal(th) * ux + PetscCosReal(th) * uy; /* normal to the crank */
  } else {
    /* as the reference records them: node 0's rotation phi_0 and pin A's
     * position normal to the root tangent at phi_0 (A at L1 (cos, sin)(theta) + u) */
    PetscReal phi = th;
    for (PetscInt k = c->grid[0].nt; k < c->n; k++) phi += c->Psi[2 + k * c->ndof] * u[k];
    c->th[c->nrec] = phi;
    c->w[c->nrec]  = c->L1 * PetscSinReal(th - phi) - PetscSinReal(phi) * ux + PetscCosReal(phi) * uy;
  }
  if (c->method < 3 && c->ml && c->nrec % c->every == 0) PetscCall(DroppedInertia(c, u, v));
  c->nrec++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Psi of the interpolant at theta (the driven DOFs; for Naets' terms) */
static PetscErrorCode PsiAt(void *ctx, const PetscReal th[], PetscReal *Psi)
{
  TrCtx   *c = (TrCtx *)ctx;
  DRGMPRom ip;

  PetscFunctionBeginUser;
  if (c->ntd == 2) {
    PetscReal tv[DR_GMP_MAXTHETA] = {th[0], th[1], 0, 0};
    PetscCall(DRGMPInterpolateGrid(2, c->npts, c->grid, tv, (DRGMPMethod)c->method, PETSC_TRUE, &ip));
  } else PetscCall(DRGMPInterpolatePart(c->ngrid, c->grid, Wrap(c, th[0]), (DRGMPMethod)c->method, PETSC_TRUE, &ip));
  PetscCheck(ip.Psi, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "gmp.transient.naets: the grid holds no mode shapes");
  PetscCall(PetscArraycpy(Psi, ip.Psi, c->ndof * c->n));
  PetscCall(DRGMPRomDestroy(&ip));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PreStep(PetscReal t, PetscReal h, const PetscReal u[], const PetscReal v[], void *ctx)
{
  TrCtx *c = (TrCtx *)ctx;

  PetscFunctionBeginUser;
  if (c->method == 3) PetscCall(ExactStep(c, u[0] + 0.5 * h * v[0]));
  else if (c->na) {
    PetscReal th[2] = {u[0] + 0.5 * h * v[0], c->ntd == 2 ? u[1] + 0.5 * h * v[1] : 0};
    PetscCall(DRGMPNaetsUpdate(c->na, th, PsiAt, c));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Monitor(PetscInt step, PetscReal t, const PetscReal u[], const PetscReal v[], void *ctx)
{
  PetscFunctionBeginUser;
  PetscCall(Record((TrCtx *)ctx, t, u, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Simulate(TrCtx *c, PetscReal theta0, PetscReal tend, PetscReal h)
{
  DRODE2            ode;
  TS                ts;
  SNES              snes;
  PetscReal        *q, *v, t;
  TSConvergedReason reason;
  const char       *name[4] = {"linear", "quadratic", "eigenspace", "exact-ROM"};

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(c->n, &q, c->n, &v));
  if (c->ntd == 2) q[0] = c->yaw, q[1] = theta0; /* the yaw driven: eta = [yaw, theta2 | delta] */
  else q[0] = theta0;
  PetscCall(DRODE2Create(PETSC_COMM_SELF, &ode));
  PetscCall(DRODE2SetSizes(ode, c->n));
  PetscCall(DRODE2SetOptionsPrefix(ode, "gmp_transient_"));
  PetscCall(DRODE2SetResidual(ode, Residual, c));
  PetscCall(DRODE2SetJacobian(ode, NULL, NULL, NULL)); /* forward differences, dense */
  PetscCall(DRODE2SetMonitor(ode, Monitor, c));
  if (c->method == 3 || c->na) PetscCall(DRODE2SetPreStep(ode, PreStep, c));
  PetscCall(DRODE2SetRadius(ode, 1.0));
  PetscCall(DRODE2SetTimeSpan(ode, 0.0, h, (PetscInt)PetscCeilReal(tend / h - 1e-9), tend));
  PetscCall(DRODE2GetTS(ode, &ts));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, 1e-10, 1e-9, 1e-16, 100, 10000));
  {
    SNESLineSearch ls;
    PetscCall(SNESGetLineSearch(snes, &ls));
    PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  }
  PetscCall(DRODE2SetUp(ode));
  PetscCall(TSSetErrorIfStepFails(ts, PETSC_FALSE)); /* a failed step: one clear line below, not a traceback */
  if (c->method == 3) PetscCall(ExactStep(c, theta0));
  else if (c->na) PetscCall(DRGMPNaetsUpdate(c->na, q, PsiAt, c));
  PetscCall(DRODE2Solve(ode, q, v, NULL));
  PetscCall(TSGetConvergedReason(ts, &reason));
  PetscCall(TSGetTime(ts, &t));
  PetscCall(DRODE2Destroy(&ode));
  PetscCall(PetscFree2(q, v));
  PetscCheck(reason >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.transient: the %s method's reduced equations diverged at t = %g s (theta = %g rad; %s); a gmp.nmodes that cuts through a crossing of the grid's modes (the sweep's log: intervals flagged as veering) does this: one mode more or fewer, or a finer grid, avoids it", name[c->method], (double)t, (double)c->th[c->nrec ? c->nrec - 1 : 0], TSConvergedReasons[reason]);
  PetscFunctionReturn(PETSC_SUCCESS);
}


/* Rank 0: the reference as the unreduced nonlinear mechanism (flexref.c),
 * same drive, step and initial state; its history goes to context 3. */
static PetscErrorCode SimulateNonlinear(DRGMPTransient tr)
{
  DRGMPFlexRef     ref;
  TrCtx           *c = &tr->c[3];
  PetscInt         n;
  const PetscReal *t, *th, *w;

  PetscFunctionBeginUser;
  if (tr->yawdrive) { /* the spatial arm, both motors (flexref3.c) */
    DRGMPFlexRef3    r3;
    const PetscReal  th0[2] = {tr->yaw0, tr->theta0}, T0[2] = {tr->Ty, tr->T0};
    const PetscReal *yaw, *wl;
    PetscCall(DRGMPFlexRef3Create(tr->mech, th0, PETSC_TRUE, &r3));
    PetscCall(DRGMPFlexRef3Solve(r3, T0, tr->fr, tr->h, tr->tend));
    PetscCall(DRGMPFlexRef3GetHistory(r3, &n, &t, &yaw, &th, &w, &wl, NULL, NULL));
    if (c->t) PetscCall(PetscFree5(c->t, c->th, c->w, c->th1, c->wl));
    PetscCall(PetscMalloc5(n, &c->t, n, &c->th, n, &c->w, n, &c->th1, n, &c->wl));
    PetscCall(PetscArraycpy(c->t, t, n));
    PetscCall(PetscArraycpy(c->th, th, n));
    PetscCall(PetscArraycpy(c->w, w, n));
    PetscCall(PetscArraycpy(c->th1, yaw, n));
    PetscCall(PetscArraycpy(c->wl, wl, n));
    c->nrec = c->caprec = n;
    PetscCall(DRGMPFlexRef3Destroy(&r3));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRGMPFlexRefCreate(tr->mech, tr->theta0, &ref));
  PetscCall(DRGMPFlexRefSolve(ref, tr->T0, tr->fr, tr->h, tr->tend));
  PetscCall(DRGMPFlexRefGetHistory(ref, &n, &t, &th, &w, NULL, NULL, NULL));
  if (c->t) PetscCall(PetscFree5(c->t, c->th, c->w, c->th1, c->wl));
  PetscCall(PetscCalloc5(n, &c->t, n, &c->th, n, &c->w, n, &c->th1, n, &c->wl));
  PetscCall(PetscArraycpy(c->t, t, n));
  PetscCall(PetscArraycpy(c->th, th, n));
  PetscCall(PetscArraycpy(c->w, w, n));
  c->nrec = c->caprec = n;
  PetscCall(DRGMPFlexRefDestroy(&ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0 integrates the four histories and measures them. */
static PetscErrorCode SolveRoot(DRGMPTransient tr)
{
  PetscFunctionBeginUser;
  for (int m = 0; m < 4; m++) {
    PetscLogDouble a, b;
    /* each method's wall time from the transient event */
    PetscCall(DRLogEventSeconds(DRGMP_Transient, &a));
    PetscCall(PetscLogEventBegin(DRGMP_Transient, 0, 0, 0, 0));
    if (m == 3 && tr->nonlinear) PetscCall(SimulateNonlinear(tr));
    else PetscCall(Simulate(&tr->c[m], tr->theta0, tr->tend, tr->h));
    PetscCall(PetscLogEventEnd(DRGMP_Transient, 0, 0, 0, 0));
    PetscCall(DRLogEventSeconds(DRGMP_Transient, &b));
    tr->wall[m] = b - a;
  }
  PetscCall(DRGMPTransientErrors_Private(tr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: rank 0 integrates; its result (a diverged method, an angle
 * driven off a non-periodic grid) reaches every rank (DRRootAgree), so a
 * failure there is one line and a clean exit on any number of ranks. */
PetscErrorCode DRGMPTransientSolve(DRGMPTransient tr)
{
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_rank(tr->comm, &rank));
  PetscCall(DRRootAgree(tr->comm, rank ? PETSC_SUCCESS : SolveRoot(tr)));
  tr->solved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
