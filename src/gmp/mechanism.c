/* Beam mechanisms for GMP: bodies, joints, the undeformed configuration
 * rho(theta), and the constrained FE matrices there (include/dynred/gmp.h). */
#include "gmp_impl.h"
#include <dynred/builtin.h>
#include <petscblaslapack.h>
#include <string.h>

/* The built-in kinds (registered below on first use).  The slider-crank of
 * Naets, Heirman and Desmet, "Reduced-order-model interpolation for use in
 * Global Modal Parameterization" (Table 1); the paper omits I and the slider mass: a 1 cm square section
 * (I = A^2/12) and a slider of 0.1 kg. */
static PetscErrorCode SliderCrankDefaults(DRMechanismParams *p)
{
  PetscFunctionBeginUser;
  p->L1 = 0.3, p->L2 = 0.7, p->nel1 = 5, p->nel2 = 5, p->slider_mass = 0.1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SliderCrankSetup(DRMechanism m)
{
  const DRMechanismParams *p = &m->p;

  PetscFunctionBeginUser;
  PetscCheck(p->lattice == 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.lattice %" PetscInt_FMT ": lattice links exist for arm3d only, not for %s", p->lattice, p->type);
  PetscCheck(p->L2 > p->L1, PETSC_COMM_SELF, DR_ERR_INPUT, "slider-crank: connector %g m must be longer than the crank %g m for a full revolution", (double)p->L2, (double)p->L1);
  PetscCheck(p->slider_mass >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "slider-crank: slider mass %g: expected >= 0", (double)p->slider_mass);
  m->dim = 2, m->dpn = 3, m->ntheta = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ArmDefaults(DRMechanismParams *p)
{
  PetscFunctionBeginUser;
  p->L1 = 1.0, p->L2 = 0.8, p->nel1 = 20, p->nel2 = 16, p->tip_mass = 0.5;
  p->A = 4e-4, p->Ib = 16e-8 / 12.0, p->J = 0.1406 * 16e-8;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ArmSetup(DRMechanism m)
{
  PetscFunctionBeginUser;
  m->dim = 3, m->dpn = 6, m->ntheta = 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismKindSliderCrank(DRMechanismKind *k)
{
  PetscFunctionBeginUser;
  k->defaults = SliderCrankDefaults, k->setup = SliderCrankSetup;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismKindArm3d(DRMechanismKind *k)
{
  PetscFunctionBeginUser;
  k->defaults = ArmDefaults, k->setup = ArmSetup;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The registry of mechanism kinds: the built-in kinds on first use, then
 * whatever DRMechanismRegister adds; destroyed at PetscFinalize. */
static PetscFunctionList DRMechanismList       = NULL;
static PetscBool         DRMechanismRegistered = PETSC_FALSE;

static PetscErrorCode DRMechanismRegistryDestroy(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListDestroy(&DRMechanismList));
  DRMechanismRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DRMechanismRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DRMechanismRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  DRMechanismRegistered = PETSC_TRUE;
  PetscCall(DRGMPInitializePackage());
  PetscCall(PetscFunctionListAdd(&DRMechanismList, "slider-crank", DRMechanismKindSliderCrank));
  PetscCall(PetscFunctionListAdd(&DRMechanismList, "arm3d", DRMechanismKindArm3d));
  PetscCall(PetscRegisterFinalize(DRMechanismRegistryDestroy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismRegister(const char name[], DRMechanismKindFn fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRMechanismRegisterAll());
  PetscCall(PetscFunctionListAdd(&DRMechanismList, name, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismKindFind(MPI_Comm comm, const char *type, const char *where, DRMechanismKind *kind)
{
  DRMechanismKindFn fn;

  PetscFunctionBeginUser;
  PetscCall(DRMechanismRegisterAll());
  PetscCall(DRRegistryFind(comm, DRMechanismList, "mechanism", type, where, &fn));
  PetscCall(PetscMemzero(kind, sizeof(*kind)));
  PetscCall(fn(kind));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismParamsDefault(const char *type, DRMechanismParams *p)
{
  DRMechanismKind kind;

  PetscFunctionBeginUser;
  PetscCall(DRMechanismKindFind(PETSC_COMM_SELF, type, "gmp.mechanism", &kind));
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCall(PetscStrncpy(p->type, type, sizeof(p->type)));
  p->E = 210e9, p->G = 81e9, p->rho = 7800, p->A = 1e-4, p->Ib = 1e-8 / 12.0, p->J = 0.1406 * 1e-8;
  PetscCall(kind.defaults(p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Nodes, body-frame coordinates, elements and joint nodes (gmp_impl.h). */
static PetscErrorCode MechanismTopology(DRMechanism m)
{
  PetscInt n = m->p.lattice, q = (n + 1) * (n + 1), ne = 0, nn = 0;

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < 2; b++) {
    PetscInt S = m->nel[b] + 1;
    m->first[b] = nn;
    if (n == 0) nn += m->nel[b] + 1, ne += m->nel[b];
    else nn += 2 + S * q, ne += m->nel[b] * q + S * (2 * n * (n + 1) + n * n) + m->nel[b] * 2 * n * (n + 1) + 2 * q;
  }
  m->first[2] = m->nnodes = nn;
  m->nelem    = ne;
  PetscCall(PetscMalloc4(3 * nn, &m->xloc, 2 * ne, &m->conn, ne, &m->ebody, ne, &m->evref));
  ne = 0;
#define ADDEL(a, c)                                                                                   \
  do {                                                                                                \
    m->conn[2 * ne] = (a), m->conn[2 * ne + 1] = (c), m->ebody[ne] = b;                               \
    if (n == 0) m->evref[ne] = b == 0 ? 2 : 1; /* the chain's vertical / elbow-axis orientation */  \
    else { /* the body-frame vector least aligned with the member */                                \
      const PetscReal *x1 = &m->xloc[3 * (a)], *x2 = &m->xloc[3 * (c)];                                \
      int              k  = 0;                                                                        \
      for (int d = 1; d < 3; d++)                                                                     \
        if (PetscAbsReal(x2[d] - x1[d]) < PetscAbsReal(x2[k] - x1[k])) k = d;                         \
      m->evref[ne] = (char)k;                                                                         \
    }                                                                                                 \
    ne++;                                                                                             \
  } while (0)
  for (PetscInt b = 0; b < 2; b++) {
    PetscInt  f = m->first[b], nel = m->nel[b];
    PetscReal L = m->L[b], w = m->p.width, ht = m->p.height > 0 ? m->p.height : m->p.width;
    if (n == 0) {
      for (PetscInt k = 0; k <= nel; k++) m->xloc[3 * (f + k)] = L * k / nel, m->xloc[3 * (f + k) + 1] = 0, m->xloc[3 * (f + k) + 2] = 0;
      for (PetscInt e = 0; e < nel; e++) ADDEL(f + e, f + e + 1);
    } else {
      PetscInt h0 = f, h1 = f + 1 + (nel + 1) * q;
#define ND(k, i, j) (f + 1 + (k) * q + (i) * (n + 1) + (j))
      m->xloc[3 * h0] = m->xloc[3 * h0 + 1] = m->xloc[3 * h0 + 2] = 0;
      m->xloc[3 * h1] = L, m->xloc[3 * h1 + 1] = m->xloc[3 * h1 + 2] = 0;
      for (PetscInt k = 0; k <= nel; k++)
        for (PetscInt i = 0; i <= n; i++)
          for (PetscInt j = 0; j <= n; j++) {
            PetscReal *x = &m->xloc[3 * ND(k, i, j)];
            x[0] = L * (k + 0.5) / (nel + 1), x[1] = w * ((PetscReal)i / n - 0.5), x[2] = ht * ((PetscReal)j / n - 0.5);
          }
      for (PetscInt k = 0; k <= nel; k++)
        for (PetscInt i = 0; i <= n; i++)
          for (PetscInt j = 0; j <= n; j++) {
            if (k < nel) ADDEL(ND(k, i, j), ND(k + 1, i, j));                 /* longeron */
            if (i < n) ADDEL(ND(k, i, j), ND(k, i + 1, j));                   /* battens */
            if (j < n) ADDEL(ND(k, i, j), ND(k, i, j + 1));
            if (i < n && j < n) ADDEL(ND(k, i, j), ND(k, i + 1, j + 1));      /* diagonals across */
            if (k < nel && i < n) ADDEL(ND(k, i, j), ND(k + 1, i + 1, j));    /* diagonals along */
            if (k < nel && j < n) ADDEL(ND(k, i, j), ND(k + 1, i, j + 1));
          }
      for (PetscInt i = 0; i <= n; i++)
        for (PetscInt j = 0; j <= n; j++) {
          ADDEL(h0, ND(0, i, j)); /* spokes */
          ADDEL(ND(nel, i, j), h1);
        }
#undef ND
    }
  }
#undef ADDEL
  PetscCheck(ne == m->nelem, PETSC_COMM_SELF, PETSC_ERR_PLIB, "mechanism topology: %" PetscInt_FMT " elements built, %" PetscInt_FMT " counted", ne, m->nelem);
  m->jbase = 0, m->ja = m->first[1] - 1, m->jb = m->first[1], m->jtip = nn - 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismCreate(const DRMechanismParams *p, DRMechanism *mech)
{
  DRMechanism     m;
  DRMechanismKind kind;

  PetscFunctionBeginUser;
  PetscCall(DRMechanismKindFind(PETSC_COMM_SELF, p->type, "gmp.mechanism", &kind));
  PetscCheck(p->L1 > 0 && p->L2 > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp body lengths %g, %g: expected positive lengths", (double)p->L1, (double)p->L2);
  PetscCheck(p->nel1 >= 1 && p->nel2 >= 1, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp elements per body %" PetscInt_FMT ", %" PetscInt_FMT ": expected at least 1", p->nel1, p->nel2);
  PetscCheck(p->E > 0 && p->rho > 0 && p->A > 0 && p->Ib > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp section: E, rho, A, I must be positive (got %g, %g, %g, %g)", (double)p->E, (double)p->rho, (double)p->A, (double)p->Ib);
  PetscCheck(p->lattice >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.lattice %" PetscInt_FMT ": expected 0 (beam chains) or the number of cells across a lattice link", p->lattice);
  PetscCheck(p->lattice == 0 || p->width > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.width %g: a lattice link needs its box width > 0 [m]", (double)p->width);
  PetscCheck(p->height >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "gmp.height %g: expected the lattice box height >= 0 [m] (0: = width)", (double)p->height);
  PetscCall(PetscNew(&m));
  m->p = *p;
  PetscCall(kind.setup(m));
  m->nb     = 2;
  m->nel[0] = p->nel1, m->nel[1] = p->nel2;
  m->L[0]   = p->L1, m->L[1] = p->L2;
  PetscCall(MechanismTopology(m));
  m->ndof = m->nnodes * m->dpn;
  PetscCall(PetscMalloc1(m->ndof, &m->labels));
  for (PetscInt i = 0; i < m->nnodes; i++)
    for (PetscInt d = 0; d < m->dpn; d++) m->labels[i * m->dpn + d] = DRLabelMake(i + 1, m->dim == 2 ? (d == 2 ? 6 : d + 1) : d + 1);
  /* planar poses for the Newton solve start from theta = 0 */
  m->pose[0] = 0, m->pose[1] = 0, m->pose[2] = 0;
  m->pose[3] = p->L1, m->pose[4] = 0, m->pose[5] = 0;
  *mech = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismDestroy(DRMechanism *m)
{
  PetscFunctionBeginUser;
  if (!*m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*m)->labels));
  PetscCall(PetscFree4((*m)->xloc, (*m)->conn, (*m)->ebody, (*m)->evref));
  PetscCall(PetscFree(*m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismGetSizes(DRMechanism m, PetscInt *dim, PetscInt *nnodes, PetscInt *ndof, PetscInt *ntheta)
{
  PetscFunctionBeginUser;
  if (dim) *dim = m->dim;
  if (nnodes) *nnodes = m->nnodes;
  if (ndof) *ndof = m->ndof;
  if (ntheta) *ntheta = m->ntheta;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismGetLabels(DRMechanism m, const DRLabel **labels)
{
  PetscFunctionBeginUser;
  *labels = m->labels;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismGetElements(DRMechanism m, PetscInt *nelem, const PetscInt **conn)
{
  PetscFunctionBeginUser;
  *nelem = m->nelem;
  *conn  = m->conn;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismFindLabel(DRMechanism m, DRLabel l, PetscInt *dof)
{
  PetscFunctionBeginUser;
  *dof = -1;
  for (PetscInt i = 0; i < m->ndof; i++)
    if (m->labels[i] == l) *dof = i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismSliderCrankClosedForm(DRMechanism m, PetscReal theta, PetscReal *xB)
{
  PetscReal L1 = m->p.L1, L2 = m->p.L2, s = PetscSinReal(theta);
  PetscFunctionBeginUser;
  *xB = L1 * PetscCosReal(theta) + PetscSqrtReal(L2 * L2 - L1 * L1 * s * s);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Planar slider-crank position constraints on the body poses
 * (x_b, y_b, phi_b), b = crank, connector; a body's reference point is its
 * first node, its axis points along phi_b:
 *   crank pinned at O:         x_0 = 0, y_0 = 0
 *   driver:                    phi_0 - theta = 0
 *   revolute A (crank end = connector start): x_0 + L1 c_0 - x_1 = 0, y_0 + L1 s_0 - y_1 = 0
 *   slider B on the x axis:    y_1 + L2 s_1 = 0
 * Six equations in six unknowns, solved by Newton (LAPACK dgesv). */
static void SCResidual(DRMechanism m, PetscReal theta, const PetscReal q[6], PetscReal r[6], PetscReal J[36])
{
  PetscReal L1 = m->L[0], L2 = m->L[1], c0 = PetscCosReal(q[2]), s0 = PetscSinReal(q[2]), c1 = PetscCosReal(q[5]), s1 = PetscSinReal(q[5]);
  r[0] = q[0];
  r[1] = q[1];
  r[2] = q[2] - theta;
  r[3] = q[0] + L1 * c0 - q[3];
  r[4] = q[1] + L1 * s0 - q[4];
  r[5] = q[4] + L2 * s1;
  for (int i = 0; i < 36; i++) J[i] = 0;
#define JJ(i, j) J[(i) + 6 * (j)] /* column-major */
  JJ(0, 0) = 1;
  JJ(1, 1) = 1;
  JJ(2, 2) = 1;
  JJ(3, 0) = 1, JJ(3, 2) = -L1 * s0, JJ(3, 3) = -1;
  JJ(4, 1) = 1, JJ(4, 2) = L1 * c0, JJ(4, 4) = -1;
  JJ(5, 4) = 1, JJ(5, 5) = L2 * c1;
#undef JJ
}

/* Link frames (axis, a2, axis x a2) and origins of the arm at theta. */
PetscErrorCode DRArmBodyFrames(DRMechanism m, const PetscReal theta[], PetscReal fr[2][3][3], PetscReal o[2][3])
{
  PetscReal d1[3], d2[3], a2[3];
  PetscFunctionBeginUser;
  PetscCall(DRArmFrames(theta, d1, d2, a2));
  for (int d = 0; d < 3; d++) {
    fr[0][0][d] = d1[d], fr[0][1][d] = a2[d];
    fr[1][0][d] = d2[d], fr[1][1][d] = a2[d];
    o[0][d] = 0, o[1][d] = m->L[0] * d1[d];
  }
  for (int b = 0; b < 2; b++) {
    const PetscReal *x = fr[b][0], *y = fr[b][1];
    fr[b][2][0] = x[1] * y[2] - x[2] * y[1];
    fr[b][2][1] = x[2] * y[0] - x[0] * y[2];
    fr[b][2][2] = x[0] * y[1] - x[1] * y[0];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismConfigure(DRMechanism m, const PetscReal theta[], PetscReal xyz[], PetscReal *residual)
{
  PetscFunctionBeginUser;
  if (m->dim == 2) {
    PetscReal   q[6], r[6], J[36], nr = 0;
    PetscBLASInt n = 6, one = 1, ipiv[6], info;
    PetscInt    it;
    PetscCall(PetscArraycpy(q, m->pose, 6));
    /* start from the last configuration with the crank turned to theta; the
     * connector angle keeps its branch (slider to the right of O) */
    q[2] = theta[0];
    for (it = 0; it < 50; it++) {
      SCResidual(m, theta[0], q, r, J);
      nr = 0;
      for (int i = 0; i < 6; i++) nr = PetscMax(nr, PetscAbsReal(r[i]));
      if (nr < 1e-14 * (m->L[0] + m->L[1])) break;
      LAPACKgesv_(&n, &one, J, &n, ipiv, r, &n, &info);
      PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "slider-crank at theta = %g: singular constraint Jacobian (dead point?)", (double)theta[0]);
      for (int i = 0; i < 6; i++) q[i] -= r[i];
    }
    PetscCheck(it < 50, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "slider-crank at theta = %g: Newton on the position constraints did not converge (residual %g)", (double)theta[0], (double)nr);
    PetscCall(PetscArraycpy(m->pose, q, 6));
    if (residual) *residual = nr;
    for (PetscInt b = 0; b < 2; b++)
      for (PetscInt k = 0; k <= m->nel[b]; k++) {
        PetscInt i = m->first[b] + k;
        xyz[2 * i]     = q[3 * b] + m->xloc[3 * i] * PetscCosReal(q[3 * b + 2]);
        xyz[2 * i + 1] = q[3 * b + 1] + m->xloc[3 * i] * PetscSinReal(q[3 * b + 2]);
      }
  } else {
    PetscReal fr[2][3][3], o[2][3];
    PetscCall(DRArmBodyFrames(m, theta, fr, o));
    for (PetscInt b = 0; b < 2; b++)
      for (PetscInt i = m->first[b]; i < m->first[b + 1]; i++)
        for (int d = 0; d < 3; d++) xyz[3 * i + d] = o[b][d] + m->xloc[3 * i] * fr[b][0][d] + m->xloc[3 * i + 1] * fr[b][1][d] + m->xloc[3 * i + 2] * fr[b][2][d];
    if (residual) *residual = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Assemble K0, M (MPIAIJ, rows distributed over comm) at the configuration
 * xyz, the theta-fixed basis Nfix (ndof x nfix) and the rigid columns
 * Ntheta[t] (the part of the free basis that theta_t moves directly). */
PetscErrorCode DRMechanismAssemble(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const PetscReal xyz[], Mat *K, Mat *M, Mat *Nfix, Vec Ntheta[])
{
  PetscFunctionBeginUser;
  PetscCall(DRMechanismAssembleReuse(m, comm, theta, xyz, PETSC_FALSE, K, M, Nfix, Ntheta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The beam section of every member, and the matrices of element e at the
 * node coordinates xyz (fr: the arm's body frames, NULL for planar ones). */
void DRMechanismSection(DRMechanism m, DRBeamSection *sec)
{
  sec->E = m->p.E, sec->G = m->p.G, sec->rho = m->p.rho, sec->A = m->p.A, sec->Iy = m->p.Ib2 > 0 ? m->p.Ib2 : m->p.Ib, sec->Iz = m->p.Ib, sec->J = m->p.J > 0 ? m->p.J : 2 * m->p.Ib;
}

static PetscErrorCode ElementMatrices(DRMechanism m, const DRBeamSection *sec, PetscInt e, const PetscReal xyz[], PetscReal fr[2][3][3], PetscReal Ke[], PetscReal Me[])
{
  PetscInt n1 = m->conn[2 * e], n2 = m->conn[2 * e + 1];

  PetscFunctionBeginUser;
  if (m->dim == 2) PetscCall(DRBeam2DMatrices(&xyz[2 * n1], &xyz[2 * n2], sec, m->p.lumped, Ke, Me));
  else PetscCall(DRBeam3DMatrices(&xyz[3 * n1], &xyz[3 * n2], fr[m->ebody[e]][(int)m->evref[e]], sec, m->p.lumped, Ke, Me));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The unconstrained mass at theta as a dense ndof x ndof array (one
 * process): the same members and point mass as DRMechanismAssemble.  xyz:
 * work of dim * nnodes, holds rho(theta) on return. */
PetscErrorCode DRMechanismMassDense(DRMechanism m, const PetscReal theta[], PetscReal xyz[], PetscReal Mf[])
{
  PetscInt      nd = m->ndof, dpn = m->dpn, ne = 2 * dpn;
  DRBeamSection sec;
  PetscReal     Me[144], fr[2][3][3], o[2][3], res;

  PetscFunctionBeginUser;
  DRMechanismSection(m, &sec);
  PetscCall(DRMechanismConfigure(m, theta, xyz, &res));
  if (m->dim == 3) PetscCall(DRArmBodyFrames(m, theta, fr, o));
  PetscCall(PetscArrayzero(Mf, nd * nd));
  for (PetscInt e = 0; e < m->nelem; e++) {
    PetscInt n1 = m->conn[2 * e], n2 = m->conn[2 * e + 1], idx[12];
    PetscCall(ElementMatrices(m, &sec, e, xyz, fr, NULL, Me));
    for (PetscInt d = 0; d < dpn; d++) idx[d] = n1 * dpn + d, idx[dpn + d] = n2 * dpn + d;
    for (PetscInt i = 0; i < ne; i++)
      for (PetscInt j = 0; j < ne; j++) Mf[idx[i] + idx[j] * nd] += Me[i * ne + j];
  }
  {
    PetscReal mass = m->dim == 2 ? m->p.slider_mass : m->p.tip_mass;
    for (PetscInt d = 0; d < m->dim; d++) Mf[(m->jtip * dpn + d) * (nd + 1)] += mass;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reuse: K, M, Nfix come from an earlier call on the same comm (same
 * nonzero patterns: the topology and the constraint map's structure do not
 * depend on theta, except in the arm's chord frame, which rom.c never
 * reuses: constraint.c); only their values are set. */
PetscErrorCode DRMechanismAssembleReuse(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const PetscReal xyz[], PetscBool reuse, Mat *K, Mat *M, Mat *Nfix, Vec Ntheta[])
{
  PetscInt        ndof = m->ndof, dpn = m->dpn, rs, re, ne = dpn * 2;
  DRConstraintMap cm;
  DRBeamSection   sec;
  PetscReal       Ke[144], Me[144], fr[2][3][3], o[2][3];

  PetscFunctionBeginUser;
  DRMechanismSection(m, &sec);
  if (reuse) {
    PetscCall(MatZeroEntries(*K));
    PetscCall(MatZeroEntries(*M));
  } else {
    PetscInt nloc = PETSC_DECIDE, nn = m->nnodes, n0, *dnz, *onz; /* whole nodes per rank */
    PetscCall(PetscSplitOwnership(comm, &nloc, &nn));
    PetscCallMPI(MPI_Scan(&nloc, &n0, 1, MPIU_INT, MPI_SUM, comm));
    n0 -= nloc;
    /* preallocation from the element graph: a node couples to itself and
     * to every node it shares an element with (no repeated members) */
    PetscCall(PetscCalloc2(nloc * dpn, &dnz, nloc * dpn, &onz));
    for (PetscInt e = 0; e < m->nelem; e++) {
      PetscInt a = m->conn[2 * e], c = m->conn[2 * e + 1];
      for (int s = 0; s < 2; s++) {
        PetscInt me = s ? c : a, other = s ? a : c;
        if (me < n0 || me >= n0 + nloc) continue;
        for (PetscInt d = 0; d < dpn; d++) {
          if (other >= n0 && other < n0 + nloc) dnz[(me - n0) * dpn + d] += dpn;
          else onz[(me - n0) * dpn + d] += dpn;
        }
      }
    }
    for (PetscInt i = 0; i < nloc * dpn; i++) dnz[i] = PetscMin(dnz[i] + dpn, nloc * dpn), onz[i] = PetscMin(onz[i], ndof - nloc * dpn);
    PetscCall(MatCreateAIJ(comm, nloc * dpn, nloc * dpn, ndof, ndof, 0, dnz, 0, onz, K));
    PetscCall(MatCreateAIJ(comm, nloc * dpn, nloc * dpn, ndof, ndof, 0, dnz, 0, onz, M));
    PetscCall(PetscFree2(dnz, onz));
  }
  PetscCall(MatGetOwnershipRange(*K, &rs, &re));
  if (m->dim == 3) PetscCall(DRArmBodyFrames(m, theta, fr, o));
  for (PetscInt e = 0; e < m->nelem; e++) {
    PetscInt n1 = m->conn[2 * e], n2 = m->conn[2 * e + 1], idx[12];
    if (n1 * dpn < rs || n1 * dpn >= re) continue; /* the rank owning the element's first node assembles it */
    PetscCall(ElementMatrices(m, &sec, e, xyz, fr, Ke, Me));
    for (PetscInt d = 0; d < dpn; d++) idx[d] = n1 * dpn + d, idx[dpn + d] = n2 * dpn + d;
    PetscCall(MatSetValues(*K, ne, idx, ne, idx, Ke, ADD_VALUES));
    PetscCall(MatSetValues(*M, ne, idx, ne, idx, Me, ADD_VALUES));
  }
  /* point masses: the slider (planar) or the tip mass (arm) */
  {
    PetscInt  node = m->jtip;
    PetscReal mass = m->dim == 2 ? m->p.slider_mass : m->p.tip_mass;
    if (mass > 0 && node * dpn >= rs && node * dpn < re)
      for (PetscInt d = 0; d < m->dim; d++) PetscCall(MatSetValue(*M, node * dpn + d, node * dpn + d, mass, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(*K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(*K, MAT_SPD, PETSC_FALSE));

  PetscCall(DRMechanismConstraintMap(m, theta, &cm));
  /* local columns: those defined by my rows (columns follow DOF order) */
  if (!reuse) {
    PetscInt nloc = 0;
    for (PetscInt c = 0; c < cm.nfix; c++)
      if (cm.defdof[c] >= rs && cm.defdof[c] < re) nloc++;
    PetscCall(MatCreateAIJ(comm, re - rs, nloc, ndof, cm.nfix, DR_CM_MAXTERM, NULL, DR_CM_MAXTERM, NULL, Nfix));
  }
  for (PetscInt t = 0; t < m->ntheta; t++) {
    PetscCall(MatCreateVecs(*K, NULL, &Ntheta[t]));
    PetscCall(VecZeroEntries(Ntheta[t]));
  }
  for (PetscInt i = rs; i < re; i++)
    for (PetscInt k = 0; k < cm.nterm[i]; k++) {
      PetscInt  c = cm.col[i * DR_CM_MAXTERM + k];
      PetscReal v = cm.coef[i * DR_CM_MAXTERM + k];
      if (c < cm.nfix) PetscCall(MatSetValue(*Nfix, i, c, v, INSERT_VALUES));
      else PetscCall(VecSetValue(Ntheta[c - cm.nfix], i, v, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(*Nfix, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*Nfix, MAT_FINAL_ASSEMBLY));
  for (PetscInt t = 0; t < m->ntheta; t++) {
    PetscCall(VecAssemblyBegin(Ntheta[t]));
    PetscCall(VecAssemblyEnd(Ntheta[t]));
  }
  PetscCall(DRConstraintMapDestroy(&cm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
