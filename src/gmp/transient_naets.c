/* Naets' inertia terms of the GMP reduced equations (gmp.transient.naets:
 * true; used by transient.c).
 *
 * The derivation below is written for one driven rigid DOF; the code
 * implements its general form for nt driven DOFs (arm3d with the yaw and
 * the elbow driven: nt = 2), at the end of this comment.
 *
 * Derivation (slider-crank, one rigid DOF theta, eta = [theta | delta];
 * the same for any mechanism with one driven rigid DOF and the others held:
 * arm3d's elbow with the yaw held, DRGMPNaetsSetHeld, Mf the spatial arm's
 * mass from DRMechanismMassDense).
 * The reduced kinematics of GMP put the nodal positions at
 *   x(theta, delta) = rho(theta) + Psi_d(theta) delta,
 * rho the rigid configuration, Psi_d the deformation modes computed there
 * (the ROM's Psi = [rho_th | Psi_d], rho_th = drho/dtheta its rigid
 * column).  The exact velocity of this ansatz is
 *   x' = Psi eta' + u theta',     u = W delta,  W = dPsi_d/dtheta,
 * and the reduced equations so far keep only Psi eta' (T0 = 1/2 eta'^T
 * M(theta) eta', M = Psi^T Mf Psi, Mf the full mass at rho(theta)).  The
 * whole kinetic energy of the ansatz is
 *   T = T0 + T1 + T2,  T1 = theta' eta'^T A delta,  T2 = 1/2 theta'^2 delta^T E delta,
 *   A = Psi^T Mf W = [b^T; C]  (b = W^T Mf rho_th: nm; C = Psi_d^T Mf W: nm x nm),
 *   E = W^T Mf W,
 * i.e. the generalized mass G = M + [[2 b.delta + delta^T E delta, (C delta)^T], [C delta, 0]].
 * Lagrange's equations of T1 + T2 add to the residual of transient.c
 * (d/dt dT/deta' - dT/deta; X_th = dX/dtheta):
 *   theta row: (2 b.delta + delta^T E delta) theta'' + (C delta).delta''
 *              + theta'^2 (b_th.delta + 1/2 delta^T E_th delta)
 *              + 2 theta' (b.delta' + delta'^T E delta) + delta'^T C delta'
 *   delta rows: theta'' C delta + theta'^2 (C_th delta - b - E delta)
 *              + theta' (C - C^T) delta'
 * The -theta'^2 b term does not vanish with delta: with the kept
 * theta'^2 dM_dtheta/dtheta = theta'^2 (W^T Mf rho_th + Psi_d^T (Mf rho_th)_th)
 * it leaves the centrifugal load Psi_d^T d(Mf rho_th)/dtheta theta'^2 of the
 * rigid motion on the modes, where without it the rotation of the mode
 * shapes adds the spurious W^T Mf rho_th theta'^2.  T2 adds the spin
 * softening -theta'^2 E delta (first order in delta, like K delta) and
 * O(delta^2) terms in the theta row kept so that the system stays
 * Lagrangian (energy T + V - W conserved, as the reduced model without
 * them).  Left out as before: Mf's dependence on the deformation and the
 * geometric stiffness of K (O(delta^2) in T, V).
 * Evaluation: per step at the predicted theta0 (the step's midpoint guess,
 * as the exact-ROM reference does), b, C, E and their theta derivatives by
 * central differences of step e (Psi at theta0 + k e, k = -2..2, Mf at
 * k = -1..1); within the step linear in theta about theta0.  e is a quarter
 * of the grid step: a second-order difference of the smooth interpolants
 * (relative error (e/step)^2 ~ 6e-2 of the terms, themselves O(|w| / L)),
 * and a smoothed slope of the piecewise linear one (whose W jumps at the
 * knots).
 * One kinetic energy: with the terms on, the reduced mass of T0 is
 * M = Psi^T Mf Psi of the same Psi and Mf (linear in theta about theta0,
 * DRGMPNaetsMass), not the method's interpolated M.  The cancellations
 * above (the spurious W^T Mf rho_th theta'^2 of the kept dM/dtheta against
 * -theta'^2 b) hold only when dM/dtheta is the derivative of Psi^T Mf Psi;
 * the derivative of an M interpolated on its own differs from it by the
 * interpolation error's slope (piecewise constant and jumping at the knots
 * for the linear method), which then acts as a centrifugal load on the
 * modes.  Measured (bench/README.md "GMP transient: slider-crank"): the crank-end deflection of the
 * linear and eigenspace methods 2-3x closer to the unreduced reference with
 * the consistent M, no closer with the interpolated one.  The stiffness
 * stays the method's interpolated K: Psi^T K_f Psi of an interpolated Psi
 * is not strain-free in the rigid column.
 *
 * General form (nt driven DOFs theta_t, eta = [theta | delta]): the
 * velocity of the ansatz is x' = J eta', J = [rho_t + W_t delta | Psi_d],
 * W_t = dPsi_d/dtheta_t, so T = 1/2 eta'^T (M + H(eta)) eta' with
 *   H_ts = B_ts.delta + B_st.delta + delta^T E_ts delta,  H_t,j = H_j,t = (C_t delta)_j,
 *   B_ts = W_s^T Mf rho_t,  C_t = Psi_d^T Mf W_t,  E_ts = W_t^T Mf W_s
 * (for nt = 1: b = B_00, C = C_0, E = E_00, H = G - M above), and the
 * terms added to the residual are Lagrange's of H:
 *   H eta'' + (dH/deta . eta') eta' - 1/2 [eta'^T dH/deta_i eta']_i,
 * which for nt = 1 are the rows written above.  H is a polynomial in eta
 * (linear in theta within the step, quadratic in delta): its derivatives
 * are taken by the complex step (imaginary part of H(eta + i h d) / h),
 * exact to rounding.  Per step the coefficients and their derivatives
 * along each theta_u come from Psi on the stencil theta0 + (a_0 e_0, ...,
 * a_nt-1 e_nt-1), |a| <= 2 (W_t by central differences at theta0 and
 * theta0 +- e_u), Mf at theta0 and theta0 +- e_u; e_u is a quarter of
 * axis u's grid step. */
#include "gmp_impl.h"
#include <dynred/builtin.h>
#include <complex.h>

typedef double _Complex cx;
#define NA_MAXT 2  /* driven rigid DOFs */
#define NA_MAXM DR_GMP_NAETS_MAXM /* deformation modes */
#define NA_H    1e-30

struct _p_DRGMPNaets {
  DRMechanism m;
  PetscInt    n, nt, nm, nd;
  PetscReal   eps[NA_MAXT], th0[NA_MAXT];
  PetscInt    td[NA_MAXT];              /* the driven DOFs' indices in the mechanism's theta; the others held at thb */
  PetscReal   thb[DR_GMP_MAXTHETA];
  /* slot 0: the value at th0, slot 1 + u: d/dtheta_u; B[t][s] nm, C[t] nm x nm, E[t][s] nm x nm, Mr n x n (column-major) */
  PetscReal  *B, *C, *E, *Mr;
  PetscInt    lB, lC, lE, lM;           /* lengths of one slot */
  PetscReal  *Psi[25];                  /* the stencil's Psi (offsets a in [-2, 2]^nt), computed once per step */
  PetscBool   have[25];
  PetscReal  *Mf, *P, *W, *MW, *xyz, *tmp; /* work; tmp: two coefficient sets (the +- points) */
};

PetscErrorCode DRGMPNaetsCreate(DRMechanism m, PetscInt n, PetscInt nt, const PetscReal eps[], DRGMPNaets *out)
{
  DRGMPNaets na;
  PetscInt   nm = n - nt, nd = m->ndof;

  PetscFunctionBeginUser;
  PetscCheck(nt >= 1 && nt <= NA_MAXT, PETSC_COMM_SELF, PETSC_ERR_SUP, "gmp.transient.naets: 1 or 2 driven rigid DOFs, not %" PetscInt_FMT, nt);
  PetscCheck(nm <= NA_MAXM, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.transient.naets: at most %d deformation modes (gmp.nmodes %" PetscInt_FMT ")", NA_MAXM, nm);
  PetscCall(PetscNew(&na));
  na->m = m, na->n = n, na->nt = nt, na->nm = nm, na->nd = nd;
  for (PetscInt t = 0; t < nt; t++) na->eps[t] = eps[t], na->td[t] = t;
  na->lB = nt * nt * nm, na->lC = nt * nm * nm, na->lE = nt * nt * nm * nm, na->lM = n * n;
  PetscCall(PetscMalloc4((1 + nt) * na->lB, &na->B, (1 + nt) * na->lC, &na->C, (1 + nt) * na->lE, &na->E, (1 + nt) * na->lM, &na->Mr));
  for (int k = 0; k < 25; k++) PetscCall(PetscMalloc1(nd * n, &na->Psi[k]));
  PetscCall(PetscMalloc6(nd * nd, &na->Mf, nd * n, &na->P, nt * nd * nm, &na->W, nt * nd * nm, &na->MW, m->dim * m->nnodes, &na->xyz, 2 * (na->lB + na->lC + na->lE + na->lM), &na->tmp));
  *out = na;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPNaetsDestroy(DRGMPNaets *na)
{
  PetscFunctionBeginUser;
  if (!*na) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree4((*na)->B, (*na)->C, (*na)->E, (*na)->Mr));
  for (int k = 0; k < 25; k++) PetscCall(PetscFree((*na)->Psi[k]));
  PetscCall(PetscFree6((*na)->Mf, (*na)->P, (*na)->W, (*na)->MW, (*na)->xyz, (*na)->tmp));
  PetscCall(PetscFree(*na));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPNaetsSetHeld(DRGMPNaets na, const PetscInt td[], const PetscReal theta[])
{
  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < na->nt; t++) na->td[t] = td[t];
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) na->thb[t] = theta[t];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the stencil point theta0 + sum_t a_t e_t: its Psi (computed on first use) */
static PetscErrorCode StencilPsi(DRGMPNaets na, const PetscInt a[], PetscErrorCode (*psi)(void *, const PetscReal *, PetscReal *), void *ctx, PetscReal **P)
{
  PetscInt k = (a[0] + 2) + (na->nt > 1 ? 5 * (a[1] + 2) : 0);

  PetscFunctionBeginUser;
  if (!na->have[k]) {
    PetscReal th[NA_MAXT];
    for (PetscInt t = 0; t < na->nt; t++) th[t] = na->th0[t] + a[t] * na->eps[t];
    PetscCall(psi(ctx, th, na->Psi[k]));
    na->have[k] = PETSC_TRUE;
  }
  *P = na->Psi[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The coefficients at the stencil point a (|a| <= 1): Mf there, Psi, W_t by
 * central differences; into B, C, E, Mr (one slot each). */
static PetscErrorCode Coefs(DRGMPNaets na, const PetscInt a[], PetscErrorCode (*psi)(void *, const PetscReal *, PetscReal *), void *ctx, PetscReal *B, PetscReal *C, PetscReal *E, PetscReal *Mr)
{
  PetscInt   nd = na->nd, n = na->n, nt = na->nt, nm = na->nm;
  PetscReal  th[DR_GMP_MAXTHETA], *Pc;

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) th[t] = na->thb[t];
  for (PetscInt t = 0; t < nt; t++) th[na->td[t]] = na->th0[t] + a[t] * na->eps[t];
  PetscCall(DRMechanismMassDense(na->m, th, na->xyz, na->Mf));
  PetscCall(StencilPsi(na, a, psi, ctx, &Pc));
  for (PetscInt t = 0; t < nt; t++) {
    PetscInt   ap[NA_MAXT], am[NA_MAXT];
    PetscReal *Pp, *Pm, *W = &na->W[t * nd * nm];
    for (PetscInt u = 0; u < nt; u++) ap[u] = am[u] = a[u];
    ap[t]++, am[t]--;
    PetscCall(StencilPsi(na, ap, psi, ctx, &Pp));
    PetscCall(StencilPsi(na, am, psi, ctx, &Pm));
    for (PetscInt k = 0; k < nm; k++)
      for (PetscInt i = 0; i < nd; i++) W[i + k * nd] = (Pp[i + (nt + k) * nd] - Pm[i + (nt + k) * nd]) / (2 * na->eps[t]);
  }
  for (PetscInt k = 0; k < n; k++) /* P = Mf Psi */
    for (PetscInt i = 0; i < nd; i++) {
      PetscReal s = 0;
      for (PetscInt j = 0; j < nd; j++) s += na->Mf[i + j * nd] * Pc[j + k * nd];
      na->P[i + k * nd] = s;
    }
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal s = 0;
      for (PetscInt i = 0; i < nd; i++) s += Pc[i + j * nd] * na->P[i + k * nd];
      Mr[j + k * n] = s;
    }
  for (PetscInt t = 0; t < nt; t++)
    for (PetscInt k = 0; k < nm; k++)
      for (PetscInt i = 0; i < nd; i++) {
        PetscReal s = 0;
        for (PetscInt j = 0; j < nd; j++) s += na->Mf[i + j * nd] * na->W[j + (t * nm + k) * nd];
        na->MW[i + (t * nm + k) * nd] = s;
      }
  for (PetscInt t = 0; t < nt; t++)
    for (PetscInt s = 0; s < nt; s++) {
      const PetscReal *Ws = &na->W[s * nd * nm], *Wt = &na->W[t * nd * nm], *MWs = &na->MW[s * nd * nm];
      for (PetscInt k = 0; k < nm; k++) { /* B_ts = W_s^T Mf rho_t */
        PetscReal b = 0;
        for (PetscInt i = 0; i < nd; i++) b += Ws[i + k * nd] * na->P[i + t * nd];
        B[(t * nt + s) * nm + k] = b;
      }
      for (PetscInt k = 0; k < nm; k++) /* E_ts = W_t^T Mf W_s */
        for (PetscInt j = 0; j < nm; j++) {
          PetscReal e = 0;
          for (PetscInt i = 0; i < nd; i++) e += Wt[i + j * nd] * MWs[i + k * nd];
          E[(t * nt + s) * nm * nm + j + k * nm] = e;
        }
    }
  for (PetscInt t = 0; t < nt; t++) { /* C_t = Psi_d^T Mf W_t */
    const PetscReal *Wt = &na->W[t * nd * nm];
    for (PetscInt k = 0; k < nm; k++)
      for (PetscInt j = 0; j < nm; j++) {
        PetscReal c = 0;
        for (PetscInt i = 0; i < nd; i++) c += na->P[i + (nt + j) * nd] * Wt[i + k * nd];
        C[t * nm * nm + j + k * nm] = c;
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPNaetsUpdate(DRGMPNaets na, const PetscReal th0[], PetscErrorCode (*psi)(void *, const PetscReal *, PetscReal *), void *ctx)
{
  PetscInt   nt = na->nt, a[NA_MAXT] = {0, 0};
  PetscReal *tB = na->tmp, *tC = tB + 2 * na->lB, *tE = tC + 2 * na->lC, *tM = tE + 2 * na->lE;

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < nt; t++) na->th0[t] = th0[t];
  for (int k = 0; k < 25; k++) na->have[k] = PETSC_FALSE;
  PetscCall(Coefs(na, a, psi, ctx, na->B, na->C, na->E, na->Mr));
  for (PetscInt u = 0; u < nt; u++) {
    PetscReal e = na->eps[u];
    for (int sg = 0; sg < 2; sg++) { /* theta0 - e_u, theta0 + e_u */
      a[u] = sg ? 1 : -1;
      PetscCall(Coefs(na, a, psi, ctx, tB + sg * na->lB, tC + sg * na->lC, tE + sg * na->lE, tM + sg * na->lM));
      a[u] = 0;
    }
    for (PetscInt k = 0; k < na->lB; k++) na->B[(1 + u) * na->lB + k] = (tB[na->lB + k] - tB[k]) / (2 * e);
    for (PetscInt k = 0; k < na->lC; k++) na->C[(1 + u) * na->lC + k] = (tC[na->lC + k] - tC[k]) / (2 * e);
    for (PetscInt k = 0; k < na->lE; k++) na->E[(1 + u) * na->lE + k] = (tE[na->lE + k] - tE[k]) / (2 * e);
    for (PetscInt k = 0; k < na->lM; k++) na->Mr[(1 + u) * na->lM + k] = (tM[na->lM + k] - tM[k]) / (2 * e);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* H(eta) (n x n, column-major) at a complex eta: the coefficients linear
 * in theta about th0 */
static void HEval(DRGMPNaets na, const cx *eta, cx *H)
{
  PetscInt  n = na->n, nt = na->nt, nm = na->nm;
  const cx *d = eta + nt;
  cx        dt[NA_MAXT];

  for (PetscInt t = 0; t < nt; t++) dt[t] = eta[t] - na->th0[t];
  for (PetscInt k = 0; k < n * n; k++) H[k] = 0;
#define COEF(X, l, k) (X[k] + (nt > 0 ? dt[0] * X[(l) + (k)] : 0) + (nt > 1 ? dt[1] * X[2 * (l) + (k)] : 0))
  for (PetscInt t = 0; t < nt; t++)
    for (PetscInt s = 0; s < nt; s++) {
      cx h = 0;
      for (PetscInt k = 0; k < nm; k++) h += (COEF(na->B, na->lB, (t * nt + s) * nm + k) + COEF(na->B, na->lB, (s * nt + t) * nm + k)) * d[k];
      for (PetscInt k = 0; k < nm; k++) {
        cx Ed = 0;
        for (PetscInt j = 0; j < nm; j++) Ed += d[j] * COEF(na->E, na->lE, (t * nt + s) * nm * nm + j + k * nm);
        h += Ed * d[k];
      }
      H[t + s * n] = h;
    }
  for (PetscInt t = 0; t < nt; t++)
    for (PetscInt j = 0; j < nm; j++) {
      cx c = 0;
      for (PetscInt k = 0; k < nm; k++) c += COEF(na->C, na->lC, t * nm * nm + j + k * nm) * d[k];
      H[t + (nt + j) * n] = H[(nt + j) + t * n] = c;
    }
#undef COEF
}

/* f += H eta'' + (dH/deta . eta') eta' - 1/2 [eta'^T dH/deta_i eta']_i
 * (eta = u, eta' = v, eta'' = a) */
PetscErrorCode DRGMPNaetsAddResidual(DRGMPNaets na, const PetscReal u[], const PetscReal v[], const PetscReal a[], PetscReal f[])
{
  PetscInt  n = na->n;
  cx        eta[NA_MAXT + NA_MAXM] = {0}, H[(NA_MAXT + NA_MAXM) * (NA_MAXT + NA_MAXM)];
  PetscReal h = NA_H;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) eta[i] = u[i];
  HEval(na, eta, H);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) f[i] += creal(H[i + j * n]) * a[j];
  for (PetscInt i = 0; i < n; i++) eta[i] = u[i] + I * h * v[i];
  HEval(na, eta, H);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) f[i] += cimag(H[i + j * n]) / h * v[j];
  for (PetscInt i = 0; i < n; i++) {
    PetscReal q = 0;
    for (PetscInt k = 0; k < n; k++) eta[k] = u[k];
    eta[i] += I * h;
    HEval(na, eta, H);
    for (PetscInt k = 0; k < n; k++)
      for (PetscInt j = 0; j < n; j++) q += v[k] * cimag(H[k + j * n]) * v[j];
    f[i] -= 0.5 * q / h;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduced mass M = Psi^T Mf Psi of the Psi and Mf the terms are made
 * of, linear in theta about th0, and dM/dtheta_u (dM[u]; see the derivation
 * above: with the terms on it replaces the method's interpolated M). */
PetscErrorCode DRGMPNaetsMass(DRGMPNaets na, const PetscReal theta[], PetscReal M[], PetscReal *dM[])
{
  PetscInt l = na->lM;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < l; k++) {
    PetscReal s = na->Mr[k];
    for (PetscInt u = 0; u < na->nt; u++) s += (theta[u] - na->th0[u]) * na->Mr[(1 + u) * l + k], dM[u][k] = na->Mr[(1 + u) * l + k];
    M[k] = s;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
