/* dynred ss: input signals u(t) (include/dynred/ss.h, "inputs"). */
#include <dynred/ss.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
