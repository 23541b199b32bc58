/* The joints of the GMP mechanisms as a null-space map q = N z of their
 * constraints (the theta-fixed basis Nfix and the rigid columns), and the
 * constraint Jacobian C(theta) that N annihilates (tests); mechanism.c
 * assembles K, M and N from them. */
#include "gmp_impl.h"

/* Arm directions: link 1 along d1 = (cos t1, sin t1, 0); the elbow axis
 * a2 = (-sin t1, cos t1, 0) is horizontal and normal to link 1; link 2 along
 * d2 = cos t2 d1 + sin t2 e_z (t2 = elevation). */
PetscErrorCode DRArmFrames(const PetscReal theta[], PetscReal d1[3], PetscReal d2[3], PetscReal a2[3])
{
  PetscReal c1 = PetscCosReal(theta[0]), s1 = PetscSinReal(theta[0]), c2 = PetscCosReal(theta[1]), s2 = PetscSinReal(theta[1]);
  PetscFunctionBeginUser;
  d1[0] = c1, d1[1] = s1, d1[2] = 0;
  a2[0] = -s1, a2[1] = c1, a2[2] = 0;
  d2[0] = c2 * c1, d2[1] = c2 * s1, d2[2] = s2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The null-space map q = N z of the joint constraints, one row per nodal
 * DOF: row i = sum_k coef[i][k] * column col[i][k].  Columns are numbered in
 * DOF order so that each rank owns the columns of its own rows; the rigid
 * columns (theta) come last in the numbering of the free set and are
 * dropped for the theta-fixed set.  Built identically on every rank (O(ndof)
 * integers). */
PetscErrorCode DRMechanismConstraintMap(DRMechanism m, const PetscReal theta[], DRConstraintMap *cm)
{
  PetscInt ndof = m->ndof, dpn = m->dpn;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(cm, sizeof(*cm)));
  PetscCall(PetscCalloc3(ndof, &cm->nterm, ndof * DR_CM_MAXTERM, &cm->col, ndof * DR_CM_MAXTERM, &cm->coef));
  PetscCall(PetscMalloc1(ndof, &cm->defdof));
  /* 1. every DOF its own provisional column (= its index) */
  for (PetscInt i = 0; i < ndof; i++) {
    cm->nterm[i]                 = 1;
    cm->col[i * DR_CM_MAXTERM]  = i;
    cm->coef[i * DR_CM_MAXTERM] = 1;
  }
#define SET0(i) (cm->nterm[i] = 0)
#define SETCOPY(i, j, extra_col, extra_coef)                                    \
  do {                                                                          \
    cm->nterm[i]                    = 1;                                        \
    cm->col[(i) * DR_CM_MAXTERM]    = (j);                                      \
    cm->coef[(i) * DR_CM_MAXTERM]   = 1;                                        \
    if ((extra_coef) != 0) {                                                    \
      cm->col[(i) * DR_CM_MAXTERM + 1]  = (extra_col);                          \
      cm->coef[(i) * DR_CM_MAXTERM + 1] = (extra_coef);                         \
      cm->nterm[i]                      = 2;                                    \
    }                                                                           \
  } while (0)
  if (m->dim == 2) {
    PetscInt a = m->ja, b = m->jb, s = m->jtip;
    /* pin O: u = v = 0 */
    SET0(0), SET0(1);
    if (!m->p.chord) cm->col[2 * DR_CM_MAXTERM] = ndof; /* the crank's rotation at O is theta (rigid column 0, renumbered below) */
    else {
      /* theta is the chord angle of O-A: pin A's displacement along the
       * chord normal n = (-sin, cos) is L1 theta (linearized at theta), so
       * the deformation modes hold A on the chord and node 0's rotation is
       * free; the dependent one of u_A, v_A is the one n weighs more */
      PetscReal cs = PetscCosReal(theta[0]), sn = PetscSinReal(theta[0]), L1 = m->L[0];
      PetscInt  i = a * dpn + (PetscAbsReal(cs) >= PetscAbsReal(sn) ? 1 : 0), j = a * dpn + (PetscAbsReal(cs) >= PetscAbsReal(sn) ? 0 : 1);
      cm->nterm[i]                   = 2;
      cm->col[i * DR_CM_MAXTERM]     = j;
      cm->coef[i * DR_CM_MAXTERM]    = i == a * dpn + 1 ? sn / cs : cs / sn; /* v_A = tan u_A + L1/cos theta, u_A = cot v_A - L1/sin theta */
      cm->col[i * DR_CM_MAXTERM + 1] = ndof;
      cm->coef[i * DR_CM_MAXTERM + 1] = i == a * dpn + 1 ? L1 / cs : -L1 / sn;
    }
    /* revolute A: the connector's first node moves with the crank's last */
    for (PetscInt d = 0; d < 2; d++) {
      cm->nterm[b * dpn + d] = cm->nterm[a * dpn + d];
      for (PetscInt k = 0; k < cm->nterm[a * dpn + d]; k++) {
        cm->col[(b * dpn + d) * DR_CM_MAXTERM + k]  = cm->col[(a * dpn + d) * DR_CM_MAXTERM + k];
        cm->coef[(b * dpn + d) * DR_CM_MAXTERM + k] = cm->coef[(a * dpn + d) * DR_CM_MAXTERM + k];
      }
    }
    /* slider B on the x axis: v_B = 0 (the line is fixed; a tilted line
     * would give u, v = t s) */
    SET0(s * dpn + 1);
  } else {
    PetscReal d1[3], d2[3], a2[3];
    PetscInt  a = m->ja, b = m->jb, o = m->jbase * dpn;
    PetscCall(DRArmFrames(theta, d1, d2, a2));
    /* base: translations and rx, ry fixed; rz = theta_1 (rigid column 0) */
    for (int d = 0; d < 5; d++) SET0(o + d);
    cm->col[(o + 5) * DR_CM_MAXTERM] = ndof;
    /* elbow: translations shared; rotations r_b = r_a - theta_2 a2: raising
     * link 2 (d2' = -sin t2 d1 + cos t2 e_z) is the rotation -a2 x d2, so the
     * rigid column is drho/dtheta_2 (with + a2 it was its negative: the same
     * grid of M, K up to the sign of that row and column, but a transient
     * integrates theta_2 against the grid's dM/dtheta_2) */
    for (int d = 0; d < 3; d++) SETCOPY(b * dpn + d, a * dpn + d, 0, 0);
    if (!m->p.chord)
      for (int d = 0; d < 3; d++) SETCOPY(b * dpn + 3 + d, a * dpn + 3 + d, ndof + 1, -a2[d]);
    else {
      /* gmp.frame chord: theta_2 is the elevation of link 2's chord
       * (elbow -> tip).  (1) The elbow's relative rotation psi about -a2 is
       * free: r_b = r_a - psi a2, with r_b[p] (p: the largest |a2[p]|) its
       * own column, psi = -(r_b[p] - r_a[p]) / a2[p].  (2) Raising the chord
       * by dtheta_2 moves the tip by L2 dtheta_2 e2 relative to the elbow,
       * e2 = d d2/d theta_2 = (-sin t2 cos t1, -sin t2 sin t1, cos t2): the
       * deformation modes hold e2 . (u_tip - u_elbow) = 0 and the rigid
       * column gives L2; the tip's dependent translation is its largest
       * |e2[q]|.  Which components depend changes with theta, so rom.c
       * does not reuse the pattern of N for this frame. */
      PetscReal e2[3], c1 = PetscCosReal(theta[0]), s1 = PetscSinReal(theta[0]), c2 = PetscCosReal(theta[1]), s2 = PetscSinReal(theta[1]);
      PetscInt  p = 0, q = 0, tp = m->jtip * dpn;
      e2[0] = -s2 * c1, e2[1] = -s2 * s1, e2[2] = c2;
      for (int d = 1; d < 3; d++) {
        if (PetscAbsReal(a2[d]) > PetscAbsReal(a2[p])) p = d;
        if (PetscAbsReal(e2[d]) > PetscAbsReal(e2[q])) q = d;
      }
      for (int d = 0; d < 3; d++) {
        PetscInt i = b * dpn + 3 + d, k = 0;
        if (d == p) continue; /* r_b[p]: its own column */
        cm->col[i * DR_CM_MAXTERM + k] = a * dpn + 3 + d, cm->coef[i * DR_CM_MAXTERM + k++] = 1;
        if (a2[d] != 0) {
          cm->col[i * DR_CM_MAXTERM + k] = b * dpn + 3 + p, cm->coef[i * DR_CM_MAXTERM + k++] = a2[d] / a2[p];
          cm->col[i * DR_CM_MAXTERM + k] = a * dpn + 3 + p, cm->coef[i * DR_CM_MAXTERM + k++] = -a2[d] / a2[p];
        }
        cm->nterm[i] = k;
      }
      {
        PetscInt i = tp + q, k = 0;
        for (int d = 0; d < 3; d++) {
          if (d != q && e2[d] != 0) cm->col[i * DR_CM_MAXTERM + k] = tp + d, cm->coef[i * DR_CM_MAXTERM + k++] = -e2[d] / e2[q];
          if (e2[d] != 0) cm->col[i * DR_CM_MAXTERM + k] = a * dpn + d, cm->coef[i * DR_CM_MAXTERM + k++] = e2[d] / e2[q]; /* u_elbow = u_a */
        }
        cm->col[i * DR_CM_MAXTERM + k] = ndof + 1, cm->coef[i * DR_CM_MAXTERM + k++] = m->L[1] / e2[q];
        cm->nterm[i] = k;
      }
    }
  }
#undef SET0
#undef SETCOPY
  /* 2. number the columns: independent DOFs in order, then rigid ones */
  {
    PetscInt *newcol, nc = 0;
    PetscCall(PetscMalloc1(ndof + DR_GMP_MAXTHETA, &newcol));
    for (PetscInt i = 0; i < ndof + DR_GMP_MAXTHETA; i++) newcol[i] = -1;
    for (PetscInt i = 0; i < ndof; i++)
      if (cm->nterm[i] == 1 && cm->col[i * DR_CM_MAXTERM] == i && cm->coef[i * DR_CM_MAXTERM] == 1) {
        newcol[i]   = nc;
        cm->defdof[nc++] = i;
      }
    cm->nfix = nc;
    for (PetscInt t = 0; t < m->ntheta; t++) newcol[ndof + t] = nc + t;
    cm->nfree = nc + m->ntheta;
    for (PetscInt i = 0; i < ndof; i++)
      for (PetscInt k = 0; k < cm->nterm[i]; k++) {
        PetscInt c = cm->col[i * DR_CM_MAXTERM + k];
        PetscCheck(newcol[c] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "constraint map: DOF %" PetscInt_FMT " refers to a dependent DOF", i);
        cm->col[i * DR_CM_MAXTERM + k] = newcol[c];
      }
    PetscCall(PetscFree(newcol));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMechanismConstraintJacobian(DRMechanism m, MPI_Comm comm, const PetscReal theta[], Mat *C)
{
  PetscInt    dpn = m->dpn, nc = m->dim == 2 ? 5 : 10, nloc = PETSC_DECIDE, nn = m->nnodes, r = 0;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscSplitOwnership(comm, &nloc, &nn));
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, nloc * dpn, nc, m->ndof, 6, NULL, 6, NULL, C));
  if (rank == 0) {
#define CROW(c1, v1, c2, v2)                                                     \
  do {                                                                           \
    PetscInt    cc[2] = {(c1), (c2)};                                            \
    PetscScalar vv[2] = {(v1), (v2)};                                            \
    PetscCall(MatSetValues(*C, 1, &r, (c2) >= 0 ? 2 : 1, cc, vv, INSERT_VALUES)); \
    r++;                                                                         \
  } while (0)
    if (m->dim == 2) {
      PetscInt a = m->ja, b = m->jb, s = m->jtip;
      CROW(0, 1, -1, 0);
      CROW(1, 1, -1, 0);
      CROW(b * dpn, 1, a * dpn, -1);
      CROW(b * dpn + 1, 1, a * dpn + 1, -1);
      CROW(s * dpn + 1, 1, -1, 0);
    } else {
      PetscReal d1[3], d2[3], a2[3], ez[3] = {0, 0, 1};
      PetscInt  o = m->jbase * dpn, a = m->ja * dpn, b = m->jb * dpn;
      PetscCall(DRArmFrames(theta, d1, d2, a2));
      for (PetscInt d = 0; d < 5; d++) CROW(o + d, 1, -1, 0);
      for (PetscInt d = 0; d < 3; d++) CROW(b + d, 1, a + d, -1);
      for (int k = 0; k < 2; k++) {
        const PetscReal *pvec = k ? ez : d1;
        PetscInt         cc[6];
        PetscScalar      vv[6];
        for (int d = 0; d < 3; d++) cc[d] = b + 3 + d, vv[d] = pvec[d], cc[3 + d] = a + 3 + d, vv[3 + d] = -pvec[d];
        PetscCall(MatSetValues(*C, 1, &r, 6, cc, vv, INSERT_VALUES));
        r++;
      }
    }
#undef CROW
    PetscCheck(r == nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "constraint Jacobian: %" PetscInt_FMT " rows set, %" PetscInt_FMT " expected", r, nc);
  }
  PetscCall(MatAssemblyBegin(*C, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*C, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConstraintMapDestroy(DRConstraintMap *cm)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(cm->nterm, cm->col, cm->coef));
  PetscCall(PetscFree(cm->defdof));
  PetscFunctionReturn(PETSC_SUCCESS);
}
