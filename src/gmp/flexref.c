/* The unreduced flexible slider-crank with full nonlinear kinematics: the
 * reference of the GMP transient (gmp.transient.reference: nonlinear;
 * include/dynred/gmp.h, DRGMPFlexRef).  The arm3d beam chain driven at the
 * elbow with the yaw held is the same kind of model (below).
 *
 * Formulation.  The same mesh as mechanism.c (nel1 + 1 crank nodes, nel2 + 1
 * connector nodes, the slider mass at the connector's last node), absolute
 * nodal coordinates q = (u, v, phi) per node measured from the undeformed
 * configuration rho(theta0) (phi: the section's rotation).  In these
 * coordinates every joint of the slider-crank is LINEAR: the pin O fixes
 * u, v of node 0, the revolute A shares u, v of the crank's last and the
 * connector's first node (rotations independent), the slider keeps v = 0 at
 * B.  The joints are therefore eliminated exactly (q = P z, P a 0/1 map):
 * no Lagrange multipliers, no index-3 DAE, no drift; all the geometric
 * nonlinearity is in the beams.
 *
 * Beams: planar co-rotational Euler-Bernoulli elements (Crisfield, Vol. 1,
 * ch. 7): chord length l and angle beta of the deformed element, local
 * deformations u_l = l - L0, th_k = phi_k + beta0 - beta (k = 1, 2, wrapped
 * to (-pi, pi]), strain energy 1/2 EA/L0 u_l^2 + 1/2 EI/L0 [th1 th2]
 * [4 2; 2 4] [th1 th2]^T, internal force its exact gradient.  Rigid motions
 * of any size are strain-free.
 *
 * Inertia: the element's consistent mass (axial linear, transverse Hermite:
 * the mass mechanism.c assembles) in the frame of the current chord,
 * M_e(beta) = R(beta)^T M_l R(beta).  T = 1/2 sum v_e^T M_e(beta) v_e is
 * exact for rigid motions; Lagrange's equations of this T give per element
 *   M_e a_e + beta' M_e,beta v_e - 1/2 (v_e^T M_e,beta v_e) dbeta/dq
 * (beta' = dbeta/dq . v_e), so the undamped system conserves T + V - W.
 * At rest in rho(theta0) the linearization is exactly mechanism.c's K0, M
 * (with the same joints), so differences to the ROM transient come from
 * the reduction and the interpolation, not from a different model.
 *
 * Driving: the torque tau(t) of transient.c on the rotation of node 0 (the
 * ROM's theta is that rotation); theta0 + phi_0 is the crank angle theta.
 * Integrator: PETSc TSALPHA2 through DRODE2 with rho_inf = 1 (as the reduced
 * transient: no numerical damping) and a fixed step; Newton with a dense
 * forward-difference Jacobian (n = 3 (nel1 + nel2 + 2) - 5 unknowns).
 *
 * arm3d (yaw held, elbow driven): the arm is mirror-symmetric about the
 * vertical plane through link 1, and the elbow axis a2 is normal to it, so a
 * torque about a2 keeps the motion in that plane, large rotations included.
 * The reference is that planar model: (s, z) coordinates in the plane (the
 * yaw only turns it), link 1 clamped at the base (the in-plane rotation is
 * about a2, which the base fixes), link 2's first node sharing u, v with
 * link 1's last (the elbow revolute), the tip mass at link 2's end, each
 * member's in-plane E I from the spatial beam's orientation (mechanism.c:
 * link 1's local y, link 2's local z is vertical), and the motor's torque
 * +tau on link 2's root rotation and -tau on link 1's end rotation.  theta
 * is the elbow's relative rotation plus theta0 (the ROM's theta2, the
 * elevation); w is link 2's tip relative to the elbow, normal to link 2's
 * root tangent. */
#include "gmp_impl.h"
#include <dynred/builtin.h>
#include <dynred/ode.h>

struct _p_DRGMPFlexRef {
  DRMechanism m;
  PetscInt    ndof, nfree, nnodes, nelem, *map; /* map[i]: free index of DOF i or -1 (fixed at 0) */
  PetscInt    node_a, node_b;                   /* crank end (deflection), slider (arm: link 1's end, link 2's tip) */
  PetscBool   arm;                              /* arm3d's elbow motion in its vertical plane (node_e: link 2's first node) */
  PetscInt    node_e;
  PetscReal   L2;
  PetscReal   theta0, T0, fr, EA, ms;
  PetscReal  *X0, *L0, *b0, *EI, *Ml;           /* nodes (2 per node); per element: L0, beta0, EI, local mass (36) */
  PetscReal  *q, *v, *a, *r;                    /* full-length work */
  PetscBool   fixtheta;                         /* static solve: phi_0 held at 0 */
  PetscReal  *fext;                             /* static load (full length) */
  /* history */
  PetscInt    nrec, cap;
  PetscReal  *t, *th, *w, *xb, *en, *work, *thd, taup, thdp;
};

static PetscReal Wrap(PetscReal a)
{
  return PetscAtan2Real(PetscSinReal(a), PetscCosReal(a));
}

PetscErrorCode DRGMPFlexRefCreate(DRMechanism m, PetscReal theta0, DRGMPFlexRef *ref)
{
  DRGMPFlexRef  r;
  DRBeamSection sec;
  PetscReal     th[DR_GMP_MAXTHETA] = {theta0, 0, 0, 0}, res, Ke[36];

  PetscFunctionBeginUser;
  PetscCheck(m->p.lattice == 0 && (m->dim == 2 || m->ntheta == 2), PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.transient.reference nonlinear: the unreduced reference exists for the slider-crank and the arm3d beam chains, not for %s%s", m->p.type, m->p.lattice ? " with lattice links" : "");
  PetscCall(PetscNew(&r));
  r->m = m, r->theta0 = theta0, r->nnodes = m->nnodes, r->ndof = 3 * m->nnodes, r->nelem = m->nelem;
  r->arm    = m->dim == 3 ? PETSC_TRUE : PETSC_FALSE;
  r->node_a = m->ja, r->node_b = m->jtip, r->node_e = m->jb, r->L2 = m->L[1];
  r->ms     = r->arm ? m->p.tip_mass : m->p.slider_mass;
  r->EA = m->p.E * m->p.A;
  PetscCall(PetscMalloc5(2 * r->nnodes, &r->X0, r->nelem, &r->L0, r->nelem, &r->b0, r->nelem, &r->EI, 36 * r->nelem, &r->Ml));
  PetscCall(PetscMalloc5(r->ndof, &r->q, r->ndof, &r->v, r->ndof, &r->a, r->ndof, &r->r, r->ndof, &r->map));
  PetscCall(PetscCalloc1(r->ndof, &r->fext));
  if (r->arm) {
    /* the plane through link 1 and the vertical: (s, z) = (x, z) at yaw 0
     * (the yaw turns the whole plane; the planar motion does not depend on it) */
    PetscReal th[DR_GMP_MAXTHETA] = {0, theta0, 0, 0}, *xyz;
    PetscCall(PetscMalloc1(3 * r->nnodes, &xyz));
    PetscCall(DRMechanismConfigure(m, th, xyz, &res));
    for (PetscInt i = 0; i < r->nnodes; i++) r->X0[2 * i] = xyz[3 * i], r->X0[2 * i + 1] = xyz[3 * i + 2];
    PetscCall(PetscFree(xyz));
  } else {
    /* rho(theta0) by Newton from the canonical start (theta = 0), not from
     * whatever configuration this rank computed last: the same bits on
     * every rank and number of ranks */
    PetscReal save[6];
    PetscCall(PetscArraycpy(save, m->pose, 6));
    m->pose[0] = m->pose[1] = m->pose[2] = 0, m->pose[3] = m->L[0], m->pose[4] = m->pose[5] = 0;
    PetscCall(DRMechanismConfigure(m, th, r->X0, &res));
    PetscCall(PetscArraycpy(m->pose, save, 6));
  }
  sec.E = m->p.E, sec.G = m->p.G, sec.rho = m->p.rho, sec.A = m->p.A, sec.Iy = sec.Iz = m->p.Ib, sec.J = 2 * m->p.Ib;
  for (PetscInt e = 0; e < r->nelem; e++) {
    /* the arm bends in its vertical plane (about the elbow axis a2): the
     * spatial beam's Iz where the member's orientation vector is the
     * vertical (link 1: local y vertical), its Iy (I2 when given) where it
     * is a2 (link 2: local z vertical); mechanism.c, fe_beam.c */
    r->EI[e] = m->p.E * (r->arm && m->evref[e] == 1 && m->p.Ib2 > 0 ? m->p.Ib2 : m->p.Ib);
    const PetscReal *x1 = &r->X0[2 * m->conn[2 * e]], *x2 = &r->X0[2 * m->conn[2 * e + 1]];
    PetscReal        dx = x2[0] - x1[0], dy = x2[1] - x1[1], o[2] = {0, 0}, xl[2];
    r->L0[e] = PetscSqrtReal(dx * dx + dy * dy);
    r->b0[e] = PetscAtan2Real(dy, dx);
    xl[0] = r->L0[e], xl[1] = 0;
    PetscCall(DRBeam2DMatrices(o, xl, &sec, m->p.lumped, Ke, &r->Ml[36 * e])); /* the local (beta = 0) mass, consistent or lumped as mechanism.c's */
  }
  /* the joints: pin O, revolute A (translations shared), slider B (v = 0);
   * arm: the base clamped (its yaw held; the in-plane rotation is about a2,
   * which the base fixes), the elbow revolute about a2 */
  for (PetscInt i = 0; i < r->ndof; i++) r->map[i] = 0;
  if (r->arm) {
    for (int d = 0; d < 3; d++) r->map[3 * m->jbase + d] = -1;
  } else {
    r->map[0] = r->map[1] = -1;
    r->map[3 * r->node_b + 1] = -1;
  }
  r->map[3 * m->jb] = -2, r->map[3 * m->jb + 1] = -2; /* copies, numbered below */
  for (PetscInt i = 0; i < r->ndof; i++)
    if (r->map[i] == 0) r->map[i] = r->nfree++;
  r->map[3 * m->jb]     = r->map[3 * m->ja];
  r->map[3 * m->jb + 1] = r->map[3 * m->ja + 1];
  *ref = r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPFlexRefDestroy(DRGMPFlexRef *ref)
{
  DRGMPFlexRef r = *ref;

  PetscFunctionBeginUser;
  if (!r) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree5(r->X0, r->L0, r->b0, r->EI, r->Ml));
  PetscCall(PetscFree5(r->q, r->v, r->a, r->r, r->map));
  PetscCall(PetscFree(r->fext));
  if (r->t) PetscCall(PetscFree7(r->t, r->th, r->w, r->xb, r->en, r->work, r->thd));
  PetscCall(PetscFree(*ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPFlexRefGetSizes(DRGMPFlexRef r, PetscInt *ndof, PetscInt *nfree)
{
  PetscFunctionBeginUser;
  if (ndof) *ndof = r->ndof;
  if (nfree) *nfree = r->nfree;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Expand(DRGMPFlexRef r, const PetscReal z[], PetscReal x[])
{
  for (PetscInt i = 0; i < r->ndof; i++) x[i] = r->map[i] >= 0 ? z[r->map[i]] : 0;
}

/* Element kinematics at the full displacement q: chord (c, s, l, beta),
 * local rotations, and dbeta/dq (g, 6). */
static void ElemKin(DRGMPFlexRef r, PetscInt e, const PetscReal q[], PetscReal *c, PetscReal *s, PetscReal *l, PetscReal *beta, PetscReal th[2], PetscReal g[6], PetscInt idx[6])
{
  PetscInt  n1 = r->m->conn[2 * e], n2 = r->m->conn[2 * e + 1];
  PetscReal dx, dy;
  for (int d = 0; d < 3; d++) idx[d] = 3 * n1 + d, idx[3 + d] = 3 * n2 + d;
  dx = r->X0[2 * n2] + q[3 * n2] - r->X0[2 * n1] - q[3 * n1];
  dy = r->X0[2 * n2 + 1] + q[3 * n2 + 1] - r->X0[2 * n1 + 1] - q[3 * n1 + 1];
  *l = PetscSqrtReal(dx * dx + dy * dy), *c = dx / *l, *s = dy / *l;
  *beta = PetscAtan2Real(dy, dx);
  th[0] = Wrap(q[3 * n1 + 2] + r->b0[e] - *beta);
  th[1] = Wrap(q[3 * n2 + 2] + r->b0[e] - *beta);
  g[0] = *s / *l, g[1] = -*c / *l, g[2] = 0, g[3] = -*s / *l, g[4] = *c / *l, g[5] = 0;
}

/* M_e(beta) = R^T Ml R and dM_e/dbeta (6 x 6, column-major; R = diag(Rb, Rb),
 * Rb = [c s 0; -s c 0; 0 0 1] global -> local). */
static void ElemMass(const PetscReal Ml[36], PetscReal c, PetscReal s, PetscReal Me[36], PetscReal dMe[36])
{
  PetscReal R[36] = {0}, dR[36] = {0}, A[36], B[36];
  for (int b = 0; b < 2; b++) {
    int o = 3 * b;
#define IX(i, j) ((i) + 6 * (j))
    R[IX(o, o)] = c, R[IX(o, o + 1)] = s, R[IX(o + 1, o)] = -s, R[IX(o + 1, o + 1)] = c, R[IX(o + 2, o + 2)] = 1;
    dR[IX(o, o)] = -s, dR[IX(o, o + 1)] = c, dR[IX(o + 1, o)] = -c, dR[IX(o + 1, o + 1)] = -s;
  }
  /* A = Ml R, B = Ml dR */
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      PetscReal sa = 0, sb = 0;
      for (int k = 0; k < 6; k++) sa += Ml[IX(i, k)] * R[IX(k, j)], sb += Ml[IX(i, k)] * dR[IX(k, j)];
      A[IX(i, j)] = sa, B[IX(i, j)] = sb;
    }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      PetscReal sm = 0, sd = 0;
      for (int k = 0; k < 6; k++) sm += R[IX(k, i)] * A[IX(k, j)], sd += dR[IX(k, i)] * A[IX(k, j)] + R[IX(k, i)] * B[IX(k, j)];
      Me[IX(i, j)] = sm;
      if (dMe) dMe[IX(i, j)] = sd;
    }
#undef IX
}

static PetscReal Torque(DRGMPFlexRef r, PetscReal t)
{
  return t < 1.0 / (4 * r->fr) ? r->T0 * PetscSinReal(2 * PETSC_PI * r->fr * t) : r->T0;
}

/* Full-length residual r = M(q) a + convective + f_int(q) - f_ext into r->r;
 * v, a NULL: static.  Energies on request. */
static void FullResidual(DRGMPFlexRef r, const PetscReal q[], const PetscReal v[], const PetscReal a[], PetscReal *Tkin, PetscReal *Vpot)
{
  PetscReal *f = r->r, T = 0, V = 0;
  for (PetscInt i = 0; i < r->ndof; i++) f[i] = -r->fext[i];
  for (PetscInt e = 0; e < r->nelem; e++) {
    PetscReal c, s, l, beta, th[2], g[6], ul, N, M1, M2, k = r->EI[e] / r->L0[e];
    PetscInt  idx[6];
    ElemKin(r, e, q, &c, &s, &l, &beta, th, g, idx);
    {
      /* l - L0 = (l^2 - L0^2) / (l + L0) from the displacements: no
       * cancellation of the coordinates (the axial force stays exact to
       * rounding of the strain, not of the positions) */
      PetscInt  n1 = r->m->conn[2 * e], n2 = r->m->conn[2 * e + 1];
      PetscReal d0x = r->X0[2 * n2] - r->X0[2 * n1], d0y = r->X0[2 * n2 + 1] - r->X0[2 * n1 + 1];
      PetscReal dux = q[3 * n2] - q[3 * n1], duy = q[3 * n2 + 1] - q[3 * n1 + 1];
      ul = (2 * (d0x * dux + d0y * duy) + dux * dux + duy * duy) / (l + r->L0[e]);
    }
    N  = r->EA / r->L0[e] * ul;
    M1 = k * (4 * th[0] + 2 * th[1]);
    M2 = k * (2 * th[0] + 4 * th[1]);
    {
      const PetscReal dl[6] = {-c, -s, 0, c, s, 0};
      for (int i = 0; i < 6; i++) f[idx[i]] += N * dl[i] - (M1 + M2) * g[i] + (i == 2 ? M1 : 0) + (i == 5 ? M2 : 0);
    }
    V += 0.5 * N * ul + 0.5 * (M1 * th[0] + M2 * th[1]);
    if (v) {
      PetscReal Me[36], dMe[36], ve[6], bd = 0, vMv = 0;
      ElemMass(&r->Ml[36 * e], c, s, Me, dMe);
      for (int i = 0; i < 6; i++) ve[i] = v[idx[i]], bd += g[i] * ve[i];
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) vMv += ve[i] * dMe[i + 6 * j] * ve[j], T += 0.5 * ve[i] * Me[i + 6 * j] * ve[j];
      for (int i = 0; i < 6; i++) {
        PetscReal sm = 0;
        for (int j = 0; j < 6; j++) sm += Me[i + 6 * j] * (a ? a[idx[j]] : 0) + bd * dMe[i + 6 * j] * ve[j];
        f[idx[i]] += sm - 0.5 * vMv * g[i];
      }
    }
  }
  if (v) {
    for (int d = 0; d < 2; d++) {
      PetscInt i = 3 * r->node_b + d;
      f[i] += r->ms * (a ? a[i] : 0);
      T += 0.5 * r->ms * v[i] * v[i];
    }
  }
  if (Tkin) *Tkin = T;
  if (Vpot) *Vpot = V;
}

static void Gather(DRGMPFlexRef r, PetscReal F[])
{
  for (PetscInt k = 0; k < r->nfree; k++) F[k] = 0;
  for (PetscInt i = 0; i < r->ndof; i++)
    if (r->map[i] >= 0) F[r->map[i]] += r->r[i];
}

static PetscErrorCode DynResidual(PetscReal t, const PetscReal z[], const PetscReal zv[], const PetscReal za[], PetscReal F[], void *ctx)
{
  DRGMPFlexRef r = (DRGMPFlexRef)ctx;

  PetscFunctionBeginUser;
  Expand(r, z, r->q);
  Expand(r, zv, r->v);
  Expand(r, za, r->a);
  FullResidual(r, r->q, r->v, r->a, NULL, NULL);
  if (r->arm) { /* the elbow motor: tau on link 2, -tau on link 1 */
    r->r[3 * r->node_e + 2] -= Torque(r, t);
    r->r[3 * r->node_a + 2] += Torque(r, t);
  } else r->r[2] -= Torque(r, t);
  Gather(r, F);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Record(PetscInt step, PetscReal t, const PetscReal z[], const PetscReal zv[], void *ctx)
{
  DRGMPFlexRef r = (DRGMPFlexRef)ctx;
  PetscReal    T, V, th, tau, xa, ya;
  PetscInt     a = r->node_a, b = r->node_b, n = r->nrec;

  PetscFunctionBeginUser;
  Expand(r, z, r->q);
  Expand(r, zv, r->v);
  PetscCall(PetscArrayzero(r->fext, r->ndof));
  FullResidual(r, r->q, r->v, NULL, &T, &V);
  if (r->nrec == r->cap) {
    PetscReal *p[7], *o[7] = {r->t, r->th, r->w, r->xb, r->en, r->work, r->thd};
    r->cap = 2 * r->cap + 1024;
    PetscCall(PetscMalloc7(r->cap, &p[0], r->cap, &p[1], r->cap, &p[2], r->cap, &p[3], r->cap, &p[4], r->cap, &p[5], r->cap, &p[6]));
    for (int k = 0; k < 7; k++) PetscCall(PetscArraycpy(p[k], o[k], n));
    if (r->t) PetscCall(PetscFree7(r->t, r->th, r->w, r->xb, r->en, r->work, r->thd));
    r->t = p[0], r->th = p[1], r->w = p[2], r->xb = p[3], r->en = p[4], r->work = p[5], r->thd = p[6];
  }
  tau = Torque(r, t);
  r->t[n] = t;
  if (r->arm) {
    /* theta: the elbow's relative rotation (the ROM's theta_2, elevation);
     * w: link 2's tip relative to the elbow, normal to link 2's root
     * tangent (absolute angle alpha), as transient.c records it */
    PetscInt  e = r->node_e;
    PetscReal alpha = r->theta0 + r->q[3 * e + 2];
    PetscReal rx = r->X0[2 * b] + r->q[3 * b] - r->X0[2 * e] - r->q[3 * e], rz = r->X0[2 * b + 1] + r->q[3 * b + 1] - r->X0[2 * e + 1] - r->q[3 * e + 1];
    th        = r->theta0 + r->q[3 * e + 2] - r->q[3 * a + 2];
    r->thd[n] = r->v[3 * e + 2] - r->v[3 * a + 2];
    r->w[n]   = -PetscSinReal(alpha) * rx + PetscCosReal(alpha) * rz;
  } else {
    th        = r->theta0 + r->q[2];
    xa        = r->X0[2 * a] + r->q[3 * a], ya = r->X0[2 * a + 1] + r->q[3 * a + 1];
    r->thd[n] = r->v[2];
    r->w[n]   = -PetscSinReal(th) * xa + PetscCosReal(th) * ya; /* normal to the crank's root tangent, as transient.c */
  }
  r->th[n] = th;
  r->xb[n] = r->X0[2 * b] + r->q[3 * b];
  r->en[n] = T + V;
  /* work of the torque, trapezoidal in time (second order like the integrator) */
  r->work[n] = n ? r->work[n - 1] + 0.5 * (t - r->t[n - 1]) * (tau * r->thd[n] + r->taup * r->thdp) : 0;
  r->taup = tau, r->thdp = r->thd[n];
  r->nrec++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The unreduced references' integration (this file and flexref3.c): from
 * rest (z = z' = 0), PETSc TSALPHA2 through DRODE2 with rho_inf = 1 (as the
 * reduced transient: no numerical damping), fixed step h to tend, Newton
 * with a basic line search and the tolerances atol, rtol; jac NULL: dense
 * forward differences; lag > 1: the Jacobian kept over lag Newton
 * iterations, across steps.  Options under prefix. */
PetscErrorCode DRGMPFlexRefIntegrate_Private(PetscInt nfree, const char prefix[], DRODE2Residual res, DRODE2Jacobian jac, DRODE2Monitor mon, void *ctx, PetscReal h, PetscReal tend, PetscReal atol, PetscReal rtol, PetscInt lag)
{
  DRODE2         ode;
  TS             ts;
  SNES           snes;
  SNESLineSearch ls;
  PetscReal     *z, *zv;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc2(nfree, &z, nfree, &zv));
  PetscCall(DRODE2Create(PETSC_COMM_SELF, &ode));
  PetscCall(DRODE2SetSizes(ode, nfree));
  PetscCall(DRODE2SetOptionsPrefix(ode, prefix));
  PetscCall(DRODE2SetResidual(ode, res, ctx));
  PetscCall(DRODE2SetJacobian(ode, NULL, jac, jac ? ctx : NULL));
  PetscCall(DRODE2SetMonitor(ode, mon, ctx));
  PetscCall(DRODE2SetRadius(ode, 1.0));
  PetscCall(DRODE2SetTimeSpan(ode, 0.0, h, (PetscInt)PetscCeilReal(tend / h - 1e-9), tend));
  PetscCall(DRODE2GetTS(ode, &ts));
  PetscCall(TSGetSNES(ts, &snes));
  PetscCall(SNESSetTolerances(snes, atol, rtol, 1e-14, 50, 10000));
  if (lag > 1) {
    PetscCall(SNESSetLagJacobian(snes, lag));
    PetscCall(SNESSetLagJacobianPersists(snes, PETSC_TRUE));
  }
  PetscCall(SNESGetLineSearch(snes, &ls));
  PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  PetscCall(DRODE2SetUp(ode));
  PetscCall(DRODE2Solve(ode, z, zv, NULL));
  PetscCall(DRODE2Destroy(&ode));
  PetscCall(PetscFree2(z, zv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPFlexRefSolve(DRGMPFlexRef r, PetscReal T0, PetscReal ramp_hz, PetscReal h, PetscReal tend)
{
  PetscFunctionBeginUser;
  PetscCheck(ramp_hz > 0 && h > 0 && tend > h, PETSC_COMM_SELF, DR_ERR_INPUT, "nonlinear reference: ramp %g Hz, h %g, t_end %g: expected positive, h < t_end", (double)ramp_hz, (double)h, (double)tend);
  PetscCall(PetscLogEventBegin(DRGMP_FlexRef, 0, 0, 0, 0));
  r->T0 = T0, r->fr = ramp_hz, r->nrec = 0;
  PetscCall(PetscArrayzero(r->fext, r->ndof));
  /* forces are O(1) N: an absolute residual of 1e-8 N is far below what
   * the histories resolve; for stiff beams (the rigid-limit checks) the
   * rounding floor of the axial forces, ~eps EA |du / L0|, is above that
   * and eps EA is the tolerance.  Relative: 1e-7 of the step's first
   * residual (fine meshes have a rounding floor of the inertia forces near
   * 1e-8 of it); the position error it leaves, residual / (M / (beta h^2)),
   * is below the rounding of the positions.  The Jacobian: dense forward
   * differences (n ~ 30). */
  PetscCall(DRGMPFlexRefIntegrate_Private(r->nfree, "gmp_flexref_", DynResidual, NULL, Record, r, h, tend, PetscMax(1e-8, PETSC_MACHINE_EPSILON * r->EA), 1e-7, 1));
  PetscCall(PetscLogEventEnd(DRGMP_FlexRef, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPFlexRefGetHistory(DRGMPFlexRef r, PetscInt *n, const PetscReal **t, const PetscReal **theta, const PetscReal **w, const PetscReal **xslider, const PetscReal **energy, const PetscReal **work)
{
  PetscFunctionBeginUser;
  if (n) *n = r->nrec;
  if (t) *t = r->t;
  if (theta) *theta = r->th;
  if (w) *w = r->w;
  if (xslider) *xslider = r->xb;
  if (energy) *energy = r->en;
  if (work) *work = r->work;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StaticResidual(SNES snes, Vec Z, Vec F, void *ctx)
{
  DRGMPFlexRef       r = (DRGMPFlexRef)ctx;
  const PetscScalar *z;
  PetscScalar       *f;

  PetscFunctionBeginUser;
  PetscCall(VecGetArrayRead(Z, &z));
  PetscCall(VecGetArray(F, &f));
  Expand(r, z, r->q);
  FullResidual(r, r->q, NULL, NULL, NULL, NULL);
  Gather(r, f);
  f[r->map[2]] = z[r->map[2]]; /* theta held: phi_0 = 0 */
  PetscCall(VecRestoreArray(F, &f));
  PetscCall(VecRestoreArrayRead(Z, &z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Static equilibrium at theta0 with theta held (the crank's rotation at O
 * fixed) under the nodal loads fext (full length; the entries of fixed DOFs
 * are reactions and ignored): Newton (PETSc SNES, dense finite-difference
 * Jacobian, LU) from the undeformed state; q (full length) the displacement. */
PetscErrorCode DRGMPFlexRefStatic(DRGMPFlexRef r, const PetscReal fext[], PetscReal q[])
{
  SNES                snes;
  KSP                 ksp;
  PC                  pc;
  Vec                 Z, F;
  Mat                 J;
  SNESConvergedReason reason;
  const PetscScalar  *z;

  PetscFunctionBeginUser;
  PetscCheck(!r->arm, PETSC_COMM_SELF, PETSC_ERR_SUP, "nonlinear reference: the static solve holds the slider-crank's theta; not built for the arm");
  PetscCall(PetscArraycpy(r->fext, fext, r->ndof));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, r->nfree, &Z));
  PetscCall(VecDuplicate(Z, &F));
  PetscCall(VecZeroEntries(Z));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, r->nfree, r->nfree, NULL, &J));
  PetscCall(SNESCreate(PETSC_COMM_SELF, &snes));
  PetscCall(SNESSetOptionsPrefix(snes, "gmp_flexref_static_"));
  PetscCall(SNESSetFunction(snes, F, StaticResidual, r));
  PetscCall(SNESSetJacobian(snes, J, J, SNESComputeJacobianDefault, r));
  PetscCall(SNESGetKSP(snes, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, PCLU));
  {
    SNESLineSearch ls;
    PetscCall(SNESGetLineSearch(snes, &ls));
    PetscCall(SNESLineSearchSetType(ls, SNESLINESEARCHBASIC));
  }
  /* rtol 1e-9 of the load: above the rounding floor of the internal forces
   * (~1e-10 relative: stiffness x positions x eps), far below any check */
  PetscCall(SNESSetTolerances(snes, 1e-300, 1e-9, 1e-16, 100, 10000));
  PetscCall(SNESSetFromOptions(snes));
  PetscCall(SNESSolve(snes, NULL, Z));
  PetscCall(SNESGetConvergedReason(snes, &reason));
  PetscCheck(reason > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "nonlinear reference: static Newton did not converge (%s)", SNESConvergedReasons[reason]);
  PetscCall(VecGetArrayRead(Z, &z));
  Expand(r, z, q);
  PetscCall(VecRestoreArrayRead(Z, &z));
  PetscCall(PetscArrayzero(r->fext, r->ndof));
  PetscCall(SNESDestroy(&snes));
  PetscCall(MatDestroy(&J));
  PetscCall(VecDestroy(&Z));
  PetscCall(VecDestroy(&F));
  PetscFunctionReturn(PETSC_SUCCESS);
}
