/* Two-node Euler-Bernoulli beams, planar (3 DOF per node) and spatial
 * (6 DOF per node): linear axial, linear torsion (Saint-Venant), cubic
 * Hermite bending, shear deformation and rotary inertia of bending
 * neglected.
 *
 * Mass, with m = rho A L and polar moment Ip = Iy + Iz:
 *  - consistent: the matrices of the same shape functions (axial m/6 [2 1;
 *    1 2], bending m/420 [156 22L 54 -13L; ...]), torsion rho Ip L/6 [2 1;
 *    1 2].  Frequencies converge as h^4 and from above.
 *  - lumped: m/2 on each translation, rho Ip L/2 on the twist, and
 *    m L^2/78 on each bending rotation: the HRZ lumping (Hinton, Rock and
 *    Zienkiewicz 1976) of the consistent matrix, i.e. its diagonal scaled so
 *    that the translations carry the whole mass.  The bending rotary term
 *    keeps the mass matrix positive definite (dynred requires a positive
 *    mass diagonal) and vanishes as h^2 relative to the translational mass
 *    under refinement, so lumped models converge to the "massless rotation"
 *    model of codes that drop it.  Lumped matrices are block diagonal per
 *    node (diagonal for members along a global axis). */
#include "componentimpl.h"
#include <dynred/builtin.h>

static PetscErrorCode CheckSection(const DRBeamSection *s, PetscBool spatial)
{
  PetscFunctionBeginUser;
  PetscCheck(s->E > 0 && s->A > 0 && s->Iz > 0 && s->rho >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "beam section: E = %g, A = %g, Iz = %g, rho = %g, expected E, A, Iz > 0 and rho >= 0", (double)s->E, (double)s->A, (double)s->Iz, (double)s->rho);
  if (spatial) PetscCheck(s->G > 0 && s->Iy > 0 && s->J > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "beam section: G = %g, Iy = %g, J = %g, expected G, Iy, J > 0 for a 3D beam", (double)s->G, (double)s->Iy, (double)s->J);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Hermite bending block on local DOFs (w1, r1, w2, r2) of an n x n matrix:
 * k * [a b c d] pattern; sgn = -1 flips the translation-rotation coupling
 * (bending in the local x-z plane, where the rotation is -dw/dx). */
static void AddHermite(PetscReal *A, int n, const int d[4], PetscReal k, const PetscReal B[4][4], PetscReal sgn)
{
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      PetscReal s = ((i & 1) ^ (j & 1)) ? sgn : 1.0; /* odd local index = rotation */
      A[d[i] * n + d[j]] += k * s * B[i][j];
    }
}

static void AddBar(PetscReal *A, int n, int i, int j, PetscReal kii, PetscReal kij)
{
  A[i * n + i] += kii;
  A[j * n + j] += kii;
  A[i * n + j] += kij;
  A[j * n + i] += kij;
}

/* Ag = T^T Al T with T = blkdiag(R, ..., R) (nb blocks of 3x3), exactly
 * symmetric on return. */
static void Rotate(PetscReal *A, int nb, const PetscReal R[3][3])
{
  const int n = 3 * nb;
  PetscReal tmp[144];

  /* tmp = Al T */
  for (int i = 0; i < n; i++)
    for (int jb = 0; jb < nb; jb++)
      for (int c = 0; c < 3; c++) {
        PetscReal s = 0;
        for (int r = 0; r < 3; r++) s += A[i * n + 3 * jb + r] * R[r][c];
        tmp[i * n + 3 * jb + c] = s;
      }
  /* A = T^T tmp */
  for (int ib = 0; ib < nb; ib++)
    for (int c = 0; c < 3; c++)
      for (int j = 0; j < n; j++) {
        PetscReal s = 0;
        for (int r = 0; r < 3; r++) s += R[r][c] * tmp[(3 * ib + r) * n + j];
        A[(3 * ib + c) * n + j] = s;
      }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) A[i * n + j] = A[j * n + i] = 0.5 * (A[i * n + j] + A[j * n + i]);
}

PetscErrorCode DRBeam3DMatrices(const PetscReal x1[3], const PetscReal x2[3], const PetscReal vref[3], const DRBeamSection *s, PetscBool lumped, PetscReal Ke[144], PetscReal Me[144])
{
  PetscReal R[3][3], L = 0, v[3], nv;

  PetscFunctionBeginUser;
  PetscCall(CheckSection(s, PETSC_TRUE));
  for (int d = 0; d < 3; d++) {
    R[0][d] = x2[d] - x1[d];
    L += R[0][d] * R[0][d];
  }
  L = PetscSqrtReal(L);
  PetscCheck(L > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "3D beam: end nodes coincide at (%g, %g, %g), expected a positive length", (double)x1[0], (double)x1[1], (double)x1[2]);
  for (int d = 0; d < 3; d++) R[0][d] /= L;
  /* Local z = x' x vref, local y = z x x'. */
  if (vref) {
    for (int d = 0; d < 3; d++) v[d] = vref[d];
  } else {
    v[0] = 0;
    v[1] = 1;
    v[2] = 0;
    if (PetscAbsReal(R[0][1]) > 0.99) {
      v[1] = 0;
      v[2] = 1;
    }
  }
  R[2][0] = R[0][1] * v[2] - R[0][2] * v[1];
  R[2][1] = R[0][2] * v[0] - R[0][0] * v[2];
  R[2][2] = R[0][0] * v[1] - R[0][1] * v[0];
  nv      = PetscSqrtReal(R[2][0] * R[2][0] + R[2][1] * R[2][1] + R[2][2] * R[2][2]);
  PetscCheck(nv > 1e-8 * PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), PETSC_COMM_SELF, DR_ERR_INPUT, "3D beam: orientation vector (%g, %g, %g) is parallel to the beam axis, expected a vector that fixes the local y axis", (double)v[0], (double)v[1], (double)v[2]);
  for (int d = 0; d < 3; d++) R[2][d] /= nv;
  R[1][0] = R[2][1] * R[0][2] - R[2][2] * R[0][1];
  R[1][1] = R[2][2] * R[0][0] - R[2][0] * R[0][2];
  R[1][2] = R[2][0] * R[0][1] - R[2][1] * R[0][0];

  {
    /* Local DOFs: u v w rx ry rz per node. */
    const PetscReal KB[4][4] = {
      {12,    6 * L,     -12,    6 * L    },
      {6 * L, 4 * L * L, -6 * L, 2 * L * L},
      {-12,   -6 * L,    12,     -6 * L   },
      {6 * L, 2 * L * L, -6 * L, 4 * L * L}
    };
    const PetscReal MB[4][4] = {
      {156,     22 * L,     54,      -13 * L   },
      {22 * L,  4 * L * L,  13 * L,  -3 * L * L},
      {54,      13 * L,     156,     -22 * L   },
      {-13 * L, -3 * L * L, -22 * L, 4 * L * L }
    };
    const int       dxy[4] = {1, 5, 7, 11}, dxz[4] = {2, 4, 8, 10};
    const PetscReal m = s->rho * s->A * L, Ip = s->Iy + s->Iz;

    if (Ke) {
      PetscCall(PetscArrayzero(Ke, 144));
      AddBar(Ke, 12, 0, 6, s->E * s->A / L, -s->E * s->A / L);
      AddBar(Ke, 12, 3, 9, s->G * s->J / L, -s->G * s->J / L);
      AddHermite(Ke, 12, dxy, s->E * s->Iz / (L * L * L), KB, 1.0);
      AddHermite(Ke, 12, dxz, s->E * s->Iy / (L * L * L), KB, -1.0);
      Rotate(Ke, 4, R);
    }
    if (Me) {
      PetscCall(PetscArrayzero(Me, 144));
      if (lumped) {
        for (int n = 0; n < 2; n++) {
          for (int d = 0; d < 3; d++) Me[(6 * n + d) * 13] = 0.5 * m;
          Me[(6 * n + 3) * 13] = 0.5 * s->rho * Ip * L;
          Me[(6 * n + 4) * 13] = m * L * L / 78;
          Me[(6 * n + 5) * 13] = m * L * L / 78;
        }
      } else {
        AddBar(Me, 12, 0, 6, m / 3, m / 6);
        AddBar(Me, 12, 3, 9, s->rho * Ip * L / 3, s->rho * Ip * L / 6);
        AddHermite(Me, 12, dxy, m / 420, MB, 1.0);
        AddHermite(Me, 12, dxz, m / 420, MB, -1.0);
      }
      Rotate(Me, 4, R);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBeam2DMatrices(const PetscReal x1[2], const PetscReal x2[2], const DRBeamSection *s, PetscBool lumped, PetscReal Ke[36], PetscReal Me[36])
{
  PetscReal L, c, sn;

  PetscFunctionBeginUser;
  PetscCall(CheckSection(s, PETSC_FALSE));
  L = PetscSqrtReal((x2[0] - x1[0]) * (x2[0] - x1[0]) + (x2[1] - x1[1]) * (x2[1] - x1[1]));
  PetscCheck(L > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "planar beam: end nodes coincide at (%g, %g), expected a positive length", (double)x1[0], (double)x1[1]);
  c  = (x2[0] - x1[0]) / L;
  sn = (x2[1] - x1[1]) / L;
  {
    const PetscReal KB[4][4] = {
      {12,    6 * L,     -12,    6 * L    },
      {6 * L, 4 * L * L, -6 * L, 2 * L * L},
      {-12,   -6 * L,    12,     -6 * L   },
      {6 * L, 2 * L * L, -6 * L, 4 * L * L}
    };
    const PetscReal MB[4][4] = {
      {156,     22 * L,     54,      -13 * L   },
      {22 * L,  4 * L * L,  13 * L,  -3 * L * L},
      {54,      13 * L,     156,     -22 * L   },
      {-13 * L, -3 * L * L, -22 * L, 4 * L * L }
    };
    const int       d[4] = {1, 2, 4, 5};
    const PetscReal m    = s->rho * s->A * L;
    /* In-plane rotation: (u, v, r) local = R (u, v, r) global. */
    const PetscReal R[3][3] = {
      {c,   sn, 0},
      {-sn, c,  0},
      {0,   0,  1}
    };

    if (Ke) {
      PetscCall(PetscArrayzero(Ke, 36));
      AddBar(Ke, 6, 0, 3, s->E * s->A / L, -s->E * s->A / L);
      AddHermite(Ke, 6, d, s->E * s->Iz / (L * L * L), KB, 1.0);
      Rotate(Ke, 2, R);
    }
    if (Me) {
      PetscCall(PetscArrayzero(Me, 36));
      if (lumped) {
        for (int n = 0; n < 2; n++) {
          Me[(3 * n) * 7]     = 0.5 * m;
          Me[(3 * n + 1) * 7] = 0.5 * m;
          Me[(3 * n + 2) * 7] = m * L * L / 78;
        }
      } else {
        AddBar(Me, 6, 0, 3, m / 3, m / 6);
        AddHermite(Me, 6, d, m / 420, MB, 1.0);
        Rotate(Me, 2, R);
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
