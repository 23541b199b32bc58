/* The 8-node hexahedron: trilinear isoparametric, full 2x2x2 Gauss
 * integration, isotropic linear elasticity, consistent mass.
 *
 * Full integration keeps the element free of hourglass modes but makes it
 * stiff in bending (shear locking): thin plates need several elements
 * through the thickness or many along the span, and frequencies converge
 * from above. */
#include "componentimpl.h"
#include <dynred/builtin.h>

/* Natural coordinates of the nodes in VTK_HEXAHEDRON order: the bottom face
 * (zeta = -1) counter-clockwise, then the top face. */
static const PetscReal hex8_xi[8][3] = {
  {-1, -1, -1},
  {1,  -1, -1},
  {1,  1,  -1},
  {-1, 1,  -1},
  {-1, -1, 1 },
  {1,  -1, 1 },
  {1,  1,  1 },
  {-1, 1,  1 }
};

PetscErrorCode DRHex8Matrices(const PetscReal xyz[24], PetscReal E, PetscReal nu, PetscReal rho, PetscReal Ke[576], PetscReal Me[576])
{
  const PetscReal g      = 1.0 / PetscSqrtReal(3.0);
  const PetscReal lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));

  PetscFunctionBeginUser;
  PetscCheck(E > 0 && nu > -1 && nu < 0.5 && rho >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "hex8: E = %g, nu = %g, rho = %g, expected E > 0, -1 < nu < 0.5, rho >= 0", (double)E, (double)nu, (double)rho);
  if (Ke) PetscCall(PetscArrayzero(Ke, 576));
  if (Me) PetscCall(PetscArrayzero(Me, 576));
  for (int q = 0; q < 8; q++) {
    const PetscReal xi[3] = {hex8_xi[q][0] * g, hex8_xi[q][1] * g, hex8_xi[q][2] * g};
    PetscReal       N[8], dN[8][3], J[3][3] = {{0}}, Ji[3][3], det, G[8][3];

    for (int a = 0; a < 8; a++) {
      const PetscReal f0 = 1 + hex8_xi[a][0] * xi[0], f1 = 1 + hex8_xi[a][1] * xi[1], f2 = 1 + hex8_xi[a][2] * xi[2];
      N[a]     = 0.125 * f0 * f1 * f2;
      dN[a][0] = 0.125 * hex8_xi[a][0] * f1 * f2;
      dN[a][1] = 0.125 * hex8_xi[a][1] * f0 * f2;
      dN[a][2] = 0.125 * hex8_xi[a][2] * f0 * f1;
    }
    /* J[i][j] = d x_j / d xi_i */
    for (int a = 0; a < 8; a++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) J[i][j] += dN[a][i] * xyz[3 * a + j];
    det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) - J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) + J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    PetscCheck(det > 0, PETSC_COMM_SELF, DR_ERR_INPUT, "hex8: Jacobian determinant %g at a Gauss point, expected > 0 (nodes in VTK_HEXAHEDRON order, element not inverted)", (double)det);
    Ji[0][0] = (J[1][1] * J[2][2] - J[1][2] * J[2][1]) / det;
    Ji[0][1] = (J[0][2] * J[2][1] - J[0][1] * J[2][2]) / det;
    Ji[0][2] = (J[0][1] * J[1][2] - J[0][2] * J[1][1]) / det;
    Ji[1][0] = (J[1][2] * J[2][0] - J[1][0] * J[2][2]) / det;
    Ji[1][1] = (J[0][0] * J[2][2] - J[0][2] * J[2][0]) / det;
    Ji[1][2] = (J[0][2] * J[1][0] - J[0][0] * J[1][2]) / det;
    Ji[2][0] = (J[1][0] * J[2][1] - J[1][1] * J[2][0]) / det;
    Ji[2][1] = (J[0][1] * J[2][0] - J[0][0] * J[2][1]) / det;
    Ji[2][2] = (J[0][0] * J[1][1] - J[0][1] * J[1][0]) / det;
    /* Gradients in x: G[a][j] = sum_i (J^-1)[j][i] dN[a][i] */
    for (int a = 0; a < 8; a++)
      for (int j = 0; j < 3; j++) G[a][j] = Ji[j][0] * dN[a][0] + Ji[j][1] * dN[a][1] + Ji[j][2] * dN[a][2];
    /* Weights are 1 for 2-point Gauss.  Isotropic elasticity in index form:
     * K_(ai)(bj) = lambda G_ai G_bj + mu G_aj G_bi + mu delta_ij G_a.G_b. */
    for (int a = 0; a < 8; a++)
      for (int b = 0; b < 8; b++) {
        const PetscReal gg = G[a][0] * G[b][0] + G[a][1] * G[b][1] + G[a][2] * G[b][2];
        const PetscReal mm = rho * N[a] * N[b] * det;
        for (int i = 0; i < 3; i++) {
          if (Ke)
            for (int j = 0; j < 3; j++) Ke[(3 * a + i) * 24 + 3 * b + j] += det * (lambda * G[a][i] * G[b][j] + mu * G[a][j] * G[b][i] + (i == j ? mu * gg : 0.0));
          if (Me) Me[(3 * a + i) * 24 + 3 * b + i] += mm;
        }
      }
  }
  /* Exact symmetry (the products above agree only up to rounding order). */
  for (int i = 0; i < 24; i++)
    for (int j = i + 1; j < 24; j++) {
      if (Ke) Ke[i * 24 + j] = Ke[j * 24 + i] = 0.5 * (Ke[i * 24 + j] + Ke[j * 24 + i]);
      if (Me) Me[i * 24 + j] = Me[j * 24 + i] = 0.5 * (Me[i * 24 + j] + Me[j * 24 + i]);
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}
