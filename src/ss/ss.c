/* dynred ss: the modal state-space model, its matrices, modes of a reduced
 * pencil by LAPACK, Matrix Market export and input signals. */
#include <dynred/ss.h>
#include <petscblaslapack.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PetscErrorCode DRSSCreate(PetscInt m, const PetscReal omega[], PetscReal omega_rigid, PetscInt nin, const PetscReal Bm[], PetscInt nout, const PetscReal Cm[], DRSS *ss)
{
  DRSS s;

  PetscFunctionBeginUser;
  PetscCall(PetscNew(&s));
  s->m    = m;
  s->nin  = nin;
  s->nout = nout;
  PetscCall(PetscCalloc3(m, &s->omega, m, &s->c, m, &s->rigid));
  PetscCall(PetscMalloc2(m * nin, &s->Bm, nout * m, &s->Cm));
  for (PetscInt k = 0; k < m; k++) {
    s->rigid[k] = (PetscBool)(omega[k] < omega_rigid);
    s->omega[k] = s->rigid[k] ? 0.0 : omega[k];
  }
  PetscCall(PetscArraycpy(s->Bm, Bm, m * nin));
  PetscCall(PetscArraycpy(s->Cm, Cm, nout * m));
  *ss = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSDestroy(DRSS *ss)
{
  PetscFunctionBeginUser;
  if (!*ss) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3((*ss)->omega, (*ss)->c, (*ss)->rigid));
  PetscCall(PetscFree2((*ss)->Bm, (*ss)->Cm));
  PetscCall(PetscFree((*ss)->in));
  PetscCall(PetscFree((*ss)->out));
  PetscCall(PetscFree(*ss));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetLabels(DRSS ss, const DRLabel in[], const DRLabel out[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(ss->in));
  PetscCall(PetscFree(ss->out));
  PetscCall(PetscMalloc1(ss->nin, &ss->in));
  PetscCall(PetscMalloc1(ss->nout, &ss->out));
  PetscCall(PetscArraycpy(ss->in, in, ss->nin));
  PetscCall(PetscArraycpy(ss->out, out, ss->nout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSetDamping(DRSS ss, DRSSDamping type, PetscInt nzeta, const PetscReal zeta[], PetscReal alpha, PetscReal beta, const char *what)
{
  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < ss->m; k++) ss->c[k] = 0;
  switch (type) {
  case DR_SS_DAMP_NONE:
    break;
  case DR_SS_DAMP_MODAL:
    PetscCheck(nzeta == 1 || nzeta == ss->m, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %" PetscInt_FMT " modal damping ratios for %" PetscInt_FMT " modes; expected one value or one per mode", what, nzeta, ss->m);
    for (PetscInt k = 0; k < ss->m; k++) {
      PetscReal z = zeta[nzeta == 1 ? 0 : k];
      PetscCheck(isfinite(z) && z >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: damping ratio %g of mode %" PetscInt_FMT " is impossible; expected a finite zeta >= 0", what, (double)z, k + 1);
      ss->c[k] = ss->rigid[k] ? 0 : 2 * z * ss->omega[k];
    }
    break;
  case DR_SS_DAMP_RAYLEIGH:
    PetscCheck(isfinite(alpha) && isfinite(beta) && alpha >= 0 && beta >= 0 && (alpha > 0 || beta > 0), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: Rayleigh damping alpha = %g, beta = %g is impossible; expected alpha >= 0, beta >= 0, not both 0", what, (double)alpha, (double)beta);
    for (PetscInt k = 0; k < ss->m; k++) ss->c[k] = ss->rigid[k] ? 0 : alpha + beta * ss->omega[k] * ss->omega[k];
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSGetMatrices(DRSS ss, PetscReal **A, PetscReal **B, PetscReal **C, PetscReal **D)
{
  PetscInt m = ss->m, n2 = 2 * m, ni = ss->nin, no2 = 2 * ss->nout;

  PetscFunctionBeginUser;
  if (A) {
    PetscCall(PetscCalloc1(n2 * n2, A));
    for (PetscInt k = 0; k < m; k++) {
      (*A)[(2 * k) * n2 + 2 * k + 1]     = 1;
      (*A)[(2 * k + 1) * n2 + 2 * k]     = -ss->omega[k] * ss->omega[k];
      (*A)[(2 * k + 1) * n2 + 2 * k + 1] = -ss->c[k];
    }
  }
  if (B) {
    PetscCall(PetscCalloc1(n2 * ni, B));
    for (PetscInt k = 0; k < m; k++)
      for (PetscInt j = 0; j < ni; j++) (*B)[(2 * k + 1) * ni + j] = ss->Bm[k * ni + j];
  }
  if (C) {
    PetscCall(PetscCalloc1(no2 * n2, C));
    for (PetscInt i = 0; i < ss->nout; i++)
      for (PetscInt k = 0; k < m; k++) {
        (*C)[(2 * i) * n2 + 2 * k]         = ss->Cm[i * m + k];
        (*C)[(2 * i + 1) * n2 + 2 * k + 1] = ss->Cm[i * m + k];
      }
  }
  if (D) PetscCall(PetscCalloc1(PetscMax(no2 * ni, 1), D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSModesFromKM(PetscInt n, const PetscReal K[], const PetscReal M[], PetscReal omega[], PetscReal Phi[], const char *what)
{
  PetscBLASInt nn, itype = 1, lwork, info;
  PetscReal   *A, *Bc, *w, *work, wq, lmax = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscBLASIntCast(n, &nn));
  for (PetscInt i = 0; i < n * n; i++) PetscCheck(isfinite(K[i]) && isfinite(M[i]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: K or M has a non-finite entry at (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, i / n + 1, i % n + 1);
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < i; j++) {
      PetscReal sk = PetscAbsReal(K[i * n + i]) + PetscAbsReal(K[j * n + j]), sm = PetscAbsReal(M[i * n + i]) + PetscAbsReal(M[j * n + j]);
      PetscCheck(PetscAbsReal(K[i * n + j] - K[j * n + i]) <= 1e-8 * sk, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: K is not symmetric at (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, i + 1, j + 1);
      PetscCheck(PetscAbsReal(M[i * n + j] - M[j * n + i]) <= 1e-8 * sm, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is not symmetric at (%" PetscInt_FMT ", %" PetscInt_FMT ")", what, i + 1, j + 1);
    }
  PetscCall(PetscMalloc3(n * n, &A, n * n, &Bc, n, &w));
  /* row-major symmetric = column-major symmetric */
  PetscCall(PetscArraycpy(A, K, n * n));
  PetscCall(PetscArraycpy(Bc, M, n * n));
  lwork = -1;
  LAPACKsygv_(&itype, "V", "U", &nn, A, &nn, Bc, &nn, w, &wq, &lwork, &info);
  lwork = (PetscBLASInt)wq;
  PetscCall(PetscMalloc1(lwork, &work));
  LAPACKsygv_(&itype, "V", "U", &nn, A, &nn, Bc, &nn, w, work, &lwork, &info);
  PetscCall(PetscFree(work));
  PetscCheck(info <= nn, PETSC_COMM_WORLD, PETSC_ERR_LIB, "%s: LAPACK dsygv failed (info %d)", what, (int)info);
  PetscCheck(info == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M is not positive definite (LAPACK dsygv info %d)", what, (int)info);
  for (PetscInt k = 0; k < n; k++) lmax = PetscMax(lmax, PetscAbsReal(w[k]));
  for (PetscInt k = 0; k < n; k++) {
    PetscCheck(w[k] >= -1e-10 * lmax, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: K is not positive semidefinite (eigenvalue %g)", what, (double)w[k]);
    omega[k] = w[k] > 0 ? PetscSqrtReal(w[k]) : 0;
    /* column k of the column-major result: A[k*n + i]; sign: largest entry positive */
    {
      PetscInt  imax = 0;
      PetscReal big  = 0, sg;
      for (PetscInt i = 0; i < n; i++)
        if (PetscAbsReal(A[k * n + i]) > big + 1e-12 * big) {
          big  = PetscAbsReal(A[k * n + i]);
          imax = i;
        }
      sg = A[k * n + imax] < 0 ? -1 : 1;
      for (PetscInt i = 0; i < n; i++) Phi[i * n + k] = sg * A[k * n + i];
    }
  }
  PetscCall(PetscFree3(A, Bc, w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRWriteMatrixMarket(const char *path, PetscInt r, PetscInt c, const PetscReal a[], const char *comment)
{
  FILE    *fp;
  PetscInt nnz = 0;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < r * c; i++)
    if (a[i] != 0) nnz++;
  fp = fopen(path, "w");
  PetscCheck(fp, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot open for writing: %s", path, strerror(errno));
  fprintf(fp, "%%%%MatrixMarket matrix coordinate real general\n%% %s\n", comment ? comment : "");
  fprintf(fp, "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "\n", r, c, nnz);
  for (PetscInt i = 0; i < r; i++)
    for (PetscInt j = 0; j < c; j++)
      if (a[i * c + j] != 0) fprintf(fp, "%" PetscInt_FMT " %" PetscInt_FMT " %.17g\n", i + 1, j + 1, (double)a[i * c + j]);
  PetscCheck(fclose(fp) == 0, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: write failed", path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- signals ------------------------------------------------------------ */

PetscErrorCode DRSignalLoadTable(DRSignal *s, const char *path)
{
  FILE    *fp = fopen(path, "r");
  char     line[8192];
  PetscInt cap = 1024, lineno = 0, ncol = 1 + s->nin;

  PetscFunctionBeginUser;
  PetscCheck(fp, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open input history: %s", path, strerror(errno));
  s->nt = 0;
  PetscCall(PetscMalloc1(cap * ncol, &s->tab));
  while (fgets(line, sizeof(line), fp)) {
    char     *p = line, *end;
    PetscInt  k = 0;
    PetscReal v[64];
    lineno++;
    while (isspace((unsigned char)*p)) p++;
    if (!*p || *p == '#') continue;
    if (!(isdigit((unsigned char)*p) || *p == '-' || *p == '+' || *p == '.')) {
      PetscCheck(s->nt == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": '%.40s' is not a row of numbers", path, lineno, p);
      continue; /* header */
    }
    while (*p) {
      while (*p == ',' || isspace((unsigned char)*p)) p++;
      if (!*p) break;
      PetscCheck(k < 64, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": more than 64 columns", path, lineno);
      errno = 0;
      v[k]  = strtod(p, &end);
      PetscCheck(end != p && !errno && isfinite(v[k]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": column %" PetscInt_FMT " is not a number", path, lineno, k + 1);
      p = end;
      k++;
    }
    PetscCheck(k == ncol, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": %" PetscInt_FMT " columns, expected %" PetscInt_FMT " (t and one per input DOF)", path, lineno, k, ncol);
    PetscCheck(s->nt == 0 || v[0] > s->tab[(s->nt - 1) * ncol], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": time %g does not increase", path, lineno, (double)v[0]);
    if (s->nt == cap) {
      PetscReal *t;
      PetscCall(PetscMalloc1(2 * cap * ncol, &t));
      PetscCall(PetscArraycpy(t, s->tab, cap * ncol));
      PetscCall(PetscFree(s->tab));
      s->tab = t;
      cap *= 2;
    }
    PetscCall(PetscArraycpy(s->tab + s->nt * ncol, v, ncol));
    s->nt++;
  }
  fclose(fp);
  PetscCheck(s->nt >= 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no rows", path);
  s->type = DR_SIG_TABLE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSignalEval(void *ctx, PetscReal t, PetscReal u[])
{
  DRSignal *s = (DRSignal *)ctx;
  PetscReal v = 0, tau = t - s->t0;

  PetscFunctionBeginUser;
  switch (s->type) {
  case DR_SIG_ZERO:
    break;
  case DR_SIG_STEP:
    v = tau >= 0 ? s->a : 0;
    break;
  case DR_SIG_RAMP:
    if (tau <= 0) v = 0;
    else if (s->t_rise > 0) v = s->a * PetscMin(tau / s->t_rise, 1.0);
    else v = s->a * tau;
    break;
  case DR_SIG_SINE:
    v = tau >= 0 ? s->a * PetscSinReal(2 * PETSC_PI * s->f * tau) : 0;
    break;
  case DR_SIG_TRAPEZOID:
    if (tau <= 0) v = 0;
    else if (tau < s->t_rise) v = s->a * tau / s->t_rise;
    else if (tau <= s->t_rise + s->t_hold) v = s->a;
    else if (tau < s->t_rise + s->t_hold + s->t_fall) v = s->a * (1 - (tau - s->t_rise - s->t_hold) / s->t_fall);
    else v = 0;
    break;
  case DR_SIG_TABLE: {
    PetscInt nc = 1 + s->nin, lo = 0, hi = s->nt - 1;
    if (t <= s->tab[0]) {
      for (PetscInt j = 0; j < s->nin; j++) u[j] = s->tab[1 + j];
    } else if (t >= s->tab[hi * nc]) {
      for (PetscInt j = 0; j < s->nin; j++) u[j] = s->tab[hi * nc + 1 + j];
    } else {
      while (hi - lo > 1) {
        PetscInt mid = (lo + hi) / 2;
        if (s->tab[mid * nc] <= t) lo = mid;
        else hi = mid;
      }
      {
        PetscReal w = (t - s->tab[lo * nc]) / (s->tab[hi * nc] - s->tab[lo * nc]);
        for (PetscInt j = 0; j < s->nin; j++) u[j] = (1 - w) * s->tab[lo * nc + 1 + j] + w * s->tab[hi * nc + 1 + j];
      }
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  }
  for (PetscInt j = 0; j < s->nin; j++) u[j] = v * (s->scale ? s->scale[j] : 1.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSignalDestroy(DRSignal *s)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(s->scale));
  PetscCall(PetscFree(s->tab));
  PetscFunctionReturn(PETSC_SUCCESS);
}
