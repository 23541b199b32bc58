/* Interpolation weights over the supports (include/dynred/pmor.h): hat
 * functions, and cubic-spline weights w_i(p) = S_i(p), S_i the cubic spline
 * through delta_i (natural ends, or periodic).  A spline is linear in its
 * data, so the second derivatives of all k cardinal splines come from one
 * k x k solve (LAPACK gesv) A S2 = R; sum w_i = 1 because the spline of
 * constant data is that constant, w_i(p_j) = delta_ij by interpolation. */
#include "pmorimpl.h"
#include <petscblaslapack.h>

/* S2 [k x k] column-major: column i = second derivatives at the nodes of the
 * cardinal spline of support i. */
PetscErrorCode DRPMORSplineSetUp(PetscInt k, const PetscReal x[], PetscReal period, PetscReal **S2)
{
  PetscReal   *A, *h;
  PetscBLASInt n, one = 1, info, *piv;
  PetscBool    per = period > 0 ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(k * k, S2));
  if (k < 3 && !per) PetscFunctionReturn(PETSC_SUCCESS); /* k = 2: a straight line, no curvature */
  PetscCall(PetscCalloc3(k * k, &A, k, &h, k, &piv));
  for (PetscInt j = 0; j < k - 1; j++) h[j] = x[j + 1] - x[j];
  h[k - 1] = per ? x[0] + period - x[k - 1] : 0;
  for (PetscInt j = 0; j < k; j++) {
    PetscReal *R = *S2; /* rhs, overwritten by the solution */
    if (!per && (j == 0 || j == k - 1)) {
      A[j + j * k] = 1; /* natural end: S'' = 0 */
      continue;
    }
    PetscInt jm = (j - 1 + k) % k, jp = (j + 1) % k;
    PetscReal hm = h[jm], hp = h[j];
    A[j + jm * k] += hm;
    A[j + j * k] += 2 * (hm + hp);
    A[j + jp * k] += hp;
    /* 6 [(y_{j+1} - y_j)/h_j - (y_j - y_{j-1})/h_{j-1}] for y = e_i (column i) */
    R[j + jp * k] += 6 / hp;
    R[j + j * k] -= 6 / hp + 6 / hm;
    R[j + jm * k] += 6 / hm;
  }
  PetscCall(PetscBLASIntCast(k, &n));
  PetscCallBLAS("LAPACKgesv", LAPACKgesv_(&n, &n, A, &n, piv, *S2, &n, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "spline system singular (LAPACK gesv info %d): supports must be distinct", (int)info);
  (void)one;
  PetscCall(PetscFree3(A, h, piv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The interval j (x_j <= p <= x_{j+1}, j+1 taken mod k on a periodic path)
 * and its end points. */
static void Locate(PetscInt k, const PetscReal x[], PetscReal period, PetscReal p, PetscInt *j, PetscReal *xa, PetscReal *xb)
{
  if (period > 0) {
    PetscReal q = x[0] + PetscFmodReal(p - x[0], period);
    if (q < x[0]) q += period;
    p = q;
    if (p >= x[k - 1]) {
      *j = k - 1, *xa = x[k - 1], *xb = x[0] + period;
      return;
    }
  } else p = PetscMin(PetscMax(p, x[0]), x[k - 1]);
  PetscInt lo = 0, hi = k - 1; /* x[lo] <= p <= x[hi] */
  while (hi - lo > 1) {
    PetscInt mid = (lo + hi) / 2;
    if (x[mid] <= p) lo = mid;
    else hi = mid;
  }
  *j = lo, *xa = x[lo], *xb = x[hi];
}

/* Weights at p with S2 from DRPMORSplineSetUp (NULL: linear hats). */
PetscErrorCode DRPMORWeightsEval(PetscInt k, const PetscReal x[], const PetscReal *S2, PetscReal period, PetscReal p, PetscReal w[])
{
  PetscInt  j, jn;
  PetscReal xa, xb, pp, h, a, b;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < k; i++) w[i] = 0;
  if (k == 1) {
    w[0] = 1;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  Locate(k, x, period, p, &j, &xa, &xb);
  jn = (j + 1) % k;
  h  = xb - xa;
  if (period > 0) {
    pp = x[0] + PetscFmodReal(p - x[0], period);
    if (pp < x[0]) pp += period;
  } else pp = PetscMin(PetscMax(p, x[0]), x[k - 1]);
  a = (xb - pp) / h, b = (pp - xa) / h; /* a + b = 1 */
  w[j] += a, w[jn] += b;
  if (S2)
    for (PetscInt i = 0; i < k; i++) w[i] += ((a * a * a - a) * S2[j + i * k] + (b * b * b - b) * S2[jn + i * k]) * h * h / 6;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPMORWeights(PetscInt k, const PetscReal ps[], const char *type, PetscReal period, PetscReal p, PetscReal w[])
{
  PetscReal *S2 = NULL;
  PetscBool  spline;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(type, "spline", &spline));
  if (spline) PetscCall(DRPMORSplineSetUp(k, ps, period, &S2));
  PetscCall(DRPMORWeightsEval(k, ps, S2, period, p, w));
  PetscCall(PetscFree(S2));
  PetscFunctionReturn(PETSC_SUCCESS);
}
