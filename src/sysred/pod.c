/* dynred sysred: proper orthogonal decomposition (first order): snapshots x(t_k) of a simulation, X = [x_1 .. x_N] (n x N), thin SVD
 * X = V S W^T (LAPACK dgesvd), V_r the leading r left singular vectors:
 * by sysred.order, or the smallest r whose discarded energy fraction
 * sum_{i>r} s_i^2 / sum s_i^2 is <= sysred.tol.  Galerkin projection
 * A_r = V_r^T A V_r, B_r = V_r^T B, C_r = C V_r, D_r = D (T = V_r, Ti = V_r^T).
 * The snapshots' projection error is exactly the discarded energy:
 * ||X - V_r V_r^T X||_F^2 = sum_{i>r} s_i^2.  Not done: the second-order and
 * the constrained (null-space, Baumgarte) forms of METHODS.md 6. */
#include "sysredimpl.h"

void dgesvd_(const char *ju, const char *jv, const fint *m, const fint *n, double *a, const fint *lda, double *s, double *u, const fint *ldu, double *vt, const fint *ldvt, double *work, const fint *lwork, fint *info, size_t, size_t);

PetscErrorCode DRSysRedPOD(DRSysRed s)
{
  const DRLTI *f = &s->full;
  PetscInt     n = f->n, m = f->m, p = f->p, N = s->nsnap, k = PetscMin(n, N), r;
  PetscReal   *X, *U, *sv, *work, wq, tot = 0, tail, *AV;
  fint         nn = (fint)n, NN = (fint)N, lw = -1, info = 0, one = 1;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscCall(PetscMalloc3(n * N, &X, n * k, &U, k, &sv));
  PetscCall(PetscArraycpy(X, s->X, n * N));
  dgesvd_("S", "N", &nn, &NN, X, &nn, sv, U, &nn, NULL, &one, &wq, &lw, &info, 1, 1);
  lw = (fint)wq + 1;
  PetscCall(PetscMalloc1(lw, &work));
  dgesvd_("S", "N", &nn, &NN, X, &nn, sv, U, &nn, NULL, &one, work, &lw, &info, 1, 1);
  PetscCall(PetscFree(work));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgesvd failed: info = %d", (int)info);
  for (PetscInt i = 0; i < k; i++) tot += sv[i] * sv[i];
  PetscCheck(tot > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: the snapshots are all zero, expected a simulated trajectory", s->snapwhere);
  if (s->order > 0) {
    char w[PETSC_MAX_PATH_LEN + 32] = "sysred.order";
    if (s->cfg) PetscCall(DRConfigWhere(s->cfg, "sysred.order", w, sizeof(w)));
    PetscCheck(s->order <= k && sv[s->order - 1] > k * PETSC_MACHINE_EPSILON * sv[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.order = %" PetscInt_FMT " is larger than the rank of the snapshots, expected <= the number of singular values above round-off", w, s->order);
    r = s->order;
  } else {
    r = k;
    for (PetscInt q = k - 1; q >= 1; q--) {
      tail = 0;
      for (PetscInt i = q; i < k; i++) tail += sv[i] * sv[i];
      if (tail / tot <= s->tol) r = q;
      else break;
    }
  }
  tail = 0;
  for (PetscInt i = r; i < k; i++) tail += sv[i] * sv[i];
  s->pod_discarded = tail / tot;
  s->ns            = k;
  PetscCall(PetscFree(s->hsv));
  PetscCall(PetscMalloc1(k, &s->hsv)); /* the snapshot singular values */
  PetscCall(PetscArraycpy(s->hsv, sv, k));
  s->bound = 0;
  s->nu    = 0;
  PetscCall(PetscFree(s->T));
  PetscCall(PetscFree(s->Ti));
  PetscCall(PetscMalloc1(n * r, &s->T));
  PetscCall(PetscMalloc1(r * n, &s->Ti));
  PetscCall(PetscArraycpy(s->T, U, n * r));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = 0; i < r; i++) s->Ti[i + j * r] = U[j + i * n];
  PetscCall(DRLTIFree(&s->red));
  PetscCall(DRLTIAlloc(r, m, p, &s->red));
  PetscCall(PetscMalloc1(n * r, &AV));
  PetscCall(DRGemm('N', 'N', n, r, n, 1.0, f->A, n, U, n, 0.0, AV, n));
  PetscCall(DRGemm('T', 'N', r, r, n, 1.0, U, n, AV, n, 0.0, s->red.A, r));
  PetscCall(DRGemm('T', 'N', r, m, n, 1.0, U, n, f->B, n, 0.0, s->red.B, r));
  PetscCall(DRGemm('N', 'N', p, r, n, 1.0, f->C, p, U, n, 0.0, s->red.C, p));
  PetscCall(PetscArraycpy(s->red.D, f->D, p * m));
  PetscCall(PetscFree(AV));
  PetscCall(PetscFree3(X, U, sv));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Balance, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
