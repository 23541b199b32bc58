/* Naets' inertia terms of the GMP reduced equations (issue 18 item 2;
 * gmp.transient.naets: true; used by transient.c).
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
 * modes.  Measured (bench/README 2g): the crank-end deflection of the
 * linear and eigenspace methods 2-3x closer to the unreduced reference with
 * the consistent M, no closer with the interpolated one.  The stiffness
 * stays the method's interpolated K: Psi^T K_f Psi of an interpolated Psi
 * is not strain-free in the rigid column. */
#include "gmp_impl.h"
#include <dynred/builtin.h>

struct _p_DRGMPNaets {
  DRMechanism m;
  PetscInt    n, nt, nm, nd;
  PetscReal   eps, th0;
  PetscReal  *b, *C, *E, *bt, *Ct, *Et;    /* at th0: nm, nm x nm (column-major), and d/dtheta */
  PetscReal  *Psi[5], *Mf, *P, *W, *MW, *xyz; /* work */
  PetscReal  *Mr[3], *Mrt;                  /* Psi^T Mf Psi at th0 - e, th0, th0 + e; its d/dtheta at th0 */
  PetscInt    td;                           /* the driven rigid DOF; the others held at thb */
  PetscReal   thb[DR_GMP_MAXTHETA];
};

PetscErrorCode DRGMPNaetsCreate(DRMechanism m, PetscInt n, PetscInt nt, PetscReal eps, DRGMPNaets *out)
{
  DRGMPNaets na;
  PetscInt   nm = n - nt, nd = m->ndof;

  PetscFunctionBeginUser;
  PetscCheck(nt == 1, PETSC_COMM_SELF, PETSC_ERR_SUP, "gmp.transient.naets: one driven rigid DOF (the others held: DRGMPNaetsSetHeld)");
  PetscCall(PetscNew(&na));
  na->m = m, na->n = n, na->nt = nt, na->nm = nm, na->nd = nd, na->eps = eps;
  PetscCall(PetscMalloc6(nm, &na->b, nm * nm, &na->C, nm * nm, &na->E, nm, &na->bt, nm * nm, &na->Ct, nm * nm, &na->Et));
  for (int k = 0; k < 5; k++) PetscCall(PetscMalloc1(nd * n, &na->Psi[k]));
  for (int k = 0; k < 3; k++) PetscCall(PetscMalloc1(n * n, &na->Mr[k]));
  PetscCall(PetscMalloc1(n * n, &na->Mrt));
  PetscCall(PetscMalloc5(nd * nd, &na->Mf, nd * n, &na->P, nd * nm, &na->W, nd * nm, &na->MW, m->dim * m->nnodes, &na->xyz));
  *out = na;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPNaetsDestroy(DRGMPNaets *na)
{
  PetscFunctionBeginUser;
  if (!*na) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree6((*na)->b, (*na)->C, (*na)->E, (*na)->bt, (*na)->Ct, (*na)->Et));
  for (int k = 0; k < 5; k++) PetscCall(PetscFree((*na)->Psi[k]));
  for (int k = 0; k < 3; k++) PetscCall(PetscFree((*na)->Mr[k]));
  PetscCall(PetscFree((*na)->Mrt));
  PetscCall(PetscFree5((*na)->Mf, (*na)->P, (*na)->W, (*na)->MW, (*na)->xyz));
  PetscCall(PetscFree(*na));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPNaetsSetHeld(DRGMPNaets na, PetscInt td, const PetscReal theta[])
{
  PetscFunctionBeginUser;
  na->td = td;
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) na->thb[t] = theta[t];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dense full mass (nd x nd, symmetric) at the rigid configuration with the
 * driven DOF at theta: the beam masses and point mass of mechanism.c. */
static PetscErrorCode FullMass(DRGMPNaets na, PetscReal theta)
{
  PetscReal th[DR_GMP_MAXTHETA];

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < DR_GMP_MAXTHETA; t++) th[t] = na->thb[t];
  th[na->td] = theta;
  PetscCall(DRMechanismMassDense(na->m, th, na->xyz, na->Mf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* b, C, E at one theta from Psi(theta) (Pc) and W. */
static PetscErrorCode Coefs(DRGMPNaets na, PetscReal theta, const PetscReal *Pc, PetscReal *b, PetscReal *C, PetscReal *E, PetscReal *Mr)
{
  PetscInt nd = na->nd, n = na->n, nt = na->nt, nm = na->nm;

  PetscFunctionBeginUser;
  PetscCall(FullMass(na, theta));
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
  for (PetscInt k = 0; k < nm; k++)
    for (PetscInt i = 0; i < nd; i++) {
      PetscReal s = 0;
      for (PetscInt j = 0; j < nd; j++) s += na->Mf[i + j * nd] * na->W[j + k * nd];
      na->MW[i + k * nd] = s;
    }
  for (PetscInt k = 0; k < nm; k++) {
    PetscReal s = 0;
    for (PetscInt i = 0; i < nd; i++) s += na->W[i + k * nd] * na->P[i];
    b[k] = s;
    for (PetscInt j = 0; j < nm; j++) {
      PetscReal c = 0, e = 0;
      for (PetscInt i = 0; i < nd; i++) c += na->P[i + (nt + j) * nd] * na->W[i + k * nd], e += na->W[i + j * nd] * na->MW[i + k * nd];
      C[j + k * nm] = c; /* C = Psi_d^T Mf W */
      E[j + k * nm] = e;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPNaetsUpdate(DRGMPNaets na, PetscReal th0, PetscErrorCode (*psi)(void *, PetscReal, PetscReal *), void *ctx)
{
  PetscInt  nd = na->nd, nt = na->nt, nm = na->nm, nc = nm * nm;
  PetscReal e = na->eps, b[2][64], C[2][1024], E[2][1024];

  PetscFunctionBeginUser;
  PetscCheck(nm <= 32, PETSC_COMM_SELF, PETSC_ERR_SUP, "gmp.transient.naets: at most 32 deformation modes");
  na->th0 = th0;
  for (int k = 0; k < 5; k++) PetscCall(psi(ctx, th0 + (k - 2) * e, na->Psi[k]));
  for (int s = 0; s < 3; s++) { /* theta0 - e, theta0, theta0 + e */
    for (PetscInt k = 0; k < nm; k++)
      for (PetscInt i = 0; i < nd; i++) na->W[i + k * nd] = (na->Psi[s + 2][i + (nt + k) * nd] - na->Psi[s][i + (nt + k) * nd]) / (2 * e);
    if (s == 1) PetscCall(Coefs(na, th0, na->Psi[2], na->b, na->C, na->E, na->Mr[1]));
    else PetscCall(Coefs(na, th0 + (s - 1) * e, na->Psi[s + 1], b[s / 2], C[s / 2], E[s / 2], na->Mr[s]));
  }
  for (PetscInt k = 0; k < na->n * na->n; k++) na->Mrt[k] = (na->Mr[2][k] - na->Mr[0][k]) / (2 * e);
  for (PetscInt k = 0; k < nm; k++) na->bt[k] = (b[1][k] - b[0][k]) / (2 * e);
  for (PetscInt k = 0; k < nc; k++) na->Ct[k] = (C[1][k] - C[0][k]) / (2 * e), na->Et[k] = (E[1][k] - E[0][k]) / (2 * e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f += the terms (eta = u, eta' = v, eta'' = a), coefficients linear in
 * theta about th0. */
PetscErrorCode DRGMPNaetsAddResidual(DRGMPNaets na, const PetscReal u[], const PetscReal v[], const PetscReal a[], PetscReal f[])
{
  PetscInt         nm = na->nm, nt = na->nt;
  PetscReal        dt = u[0] - na->th0, tp = v[0], tpp = a[0], b[32], bt[32], bd = 0, bv = 0, btd = 0, dEd = 0, dEtd = 0, vEd = 0, vCv = 0, aCd = 0;
  PetscReal        Cd[32], Ctd[32], Ed[32], Ctv[32], CTv[32];
  const PetscReal *d = u + nt, *dv = v + nt, *da = a + nt;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < nm; k++) b[k] = na->b[k] + dt * na->bt[k], bt[k] = na->bt[k];
  for (PetscInt j = 0; j < nm; j++) {
    Cd[j] = Ctd[j] = Ed[j] = Ctv[j] = CTv[j] = 0;
    for (PetscInt k = 0; k < nm; k++) {
      PetscReal C = na->C[j + k * nm] + dt * na->Ct[j + k * nm], CT = na->C[k + j * nm] + dt * na->Ct[k + j * nm];
      PetscReal E = na->E[j + k * nm] + dt * na->Et[j + k * nm];
      Cd[j] += C * d[k], Ctd[j] += na->Ct[j + k * nm] * d[k], Ed[j] += E * d[k];
      Ctv[j] += C * dv[k], CTv[j] += CT * dv[k];
      dEtd += d[j] * na->Et[j + k * nm] * d[k];
    }
  }
  for (PetscInt j = 0; j < nm; j++) {
    bd += b[j] * d[j], bv += b[j] * dv[j], btd += bt[j] * d[j];
    dEd += d[j] * Ed[j], vEd += dv[j] * Ed[j], vCv += dv[j] * Ctv[j], aCd += da[j] * Cd[j];
  }
  f[0] += (2 * bd + dEd) * tpp + aCd + tp * tp * (btd + 0.5 * dEtd) + 2 * tp * (bv + vEd) + vCv;
  for (PetscInt j = 0; j < nm; j++) f[nt + j] += tpp * Cd[j] + tp * tp * (Ctd[j] - b[j] - Ed[j]) + tp * (Ctv[j] - CTv[j]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reduced mass M = Psi^T Mf Psi of the Psi and Mf the terms are made
 * of, linear in theta about th0, and dM/dtheta (see the derivation above:
 * with the terms on it replaces the method's interpolated M). */
PetscErrorCode DRGMPNaetsMass(DRGMPNaets na, PetscReal theta, PetscReal M[], PetscReal dM[])
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < na->n * na->n; k++) M[k] = na->Mr[1][k] + (theta - na->th0) * na->Mrt[k], dM[k] = na->Mrt[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

