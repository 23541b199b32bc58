/* dynred sysred: energy-based ranking, removal and refit (2NPR; Nguyen,
 * "Model reduction for vehicle systems modelling", 2014, section 3.2.2).  Models and simulation: energy.c.
 *
 *  1. simulate the full model: output y_k at t_k = k h, activity A_i and
 *     2-norm of power ||P_i||_2 of each component, relative values
 *     100 kappa_i / sum kappa over the passive components (masses,
 *     inertias, springs, dampers; the forces drive the model and are
 *     reported, never removed, and not in the sum, as the thesis's five
 *     piston-crank components leave out the torque);
 *  2. remove, from the smallest up, the passive components whose relative
 *     value (sysred.energy.metric: p2, the thesis's 2-norm, or activity) is
 *     below sysred.energy.threshold_pct, except one whose removal leaves the
 *     mass matrix singular somewhere on the full model's trajectory (the
 *     thesis keeps the wheel inertia for the same reason): marked needed;
 *  3. output error E = sum_k (y_k - yhat_k)^2 of the model without them, then
 *     refit the values of the remaining passive components by least squares
 *     against the full model's output: Levenberg-Marquardt on log values
 *     (positive by construction), Jacobian by central differences of
 *     simulations, steps by LAPACK dgels on [J; sqrt(lambda) D]; E after. */
#include "sysredimpl.h"
#include <string.h>

void dgels_(const char *trans, const fint *m, const fint *n, const fint *nrhs, double *a, const fint *lda, double *b, const fint *ldb, double *work, const fint *lwork, fint *info, size_t);

static PetscReal SqErr(PetscInt n, const PetscReal *a, const PetscReal *b, PetscReal *mx)
{
  PetscReal e = 0;
  *mx = 0;
  for (PetscInt k = 0; k < n; k++) {
    e += (a[k] - b[k]) * (a[k] - b[k]);
    *mx = PetscMax(*mx, PetscAbsReal(a[k] - b[k]));
  }
  return e;
}

/* residual r = y(z) - y_full with the free parameters exp(z) */
static PetscErrorCode Resid(DREnergy *e, PetscInt np, const PetscInt fi[], const PetscReal z[], PetscReal par[], PetscReal r[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < np; j++) par[fi[j]] = PetscExpReal(z[j]);
  PetscCall(DREnergySimulate(e, par, e->on, r, NULL, NULL, NULL));
  for (PetscInt k = 0; k <= e->nt; k++) r[k] -= e->y_full[k];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Refit(DREnergy *e)
{
  PetscInt   np = 0, nr = e->nt + 1, *fi;
  PetscReal *z, *zt, *r, *rt, *J, *G, *b, *par, *work, E, lam = 1e-3;
  const PetscReal dz = 1e-4; /* central differences: O(dz^2) = 1e-8 truncation, ODE noise rtol/dz */
  fint       m, n, one = 1, lwork, info;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(e->nc, &fi));
  for (PetscInt c = 0; c < e->nc; c++) /* zero values (a rigid mode's spring, no damping) stay zero */
    if (e->on[c] && e->type[c] != DR_EN_FORCE && e->par[c] > 0) fi[np++] = c;
  if (np == 0 || !e->refit) {
    PetscCall(PetscFree(fi));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  m = (fint)(nr + np), n = (fint)np, lwork = (fint)(m + n) * 64;
  PetscCall(PetscMalloc5(np, &z, np, &zt, nr, &r, nr, &rt, nr * np, &J));
  PetscCall(PetscMalloc4(m * np, &G, m, &b, e->nc, &par, lwork, &work));
  PetscCall(PetscArraycpy(par, e->par, e->nc));
  for (PetscInt j = 0; j < np; j++) z[j] = PetscLogReal(e->par[fi[j]]);
  PetscCall(Resid(e, np, fi, z, par, r));
  E = 0;
  for (PetscInt k = 0; k < nr; k++) E += r[k] * r[k];
  for (e->iters = 0; e->iters < e->maxit; e->iters++) {
    PetscReal Et = PETSC_MAX_REAL, step = 0;
    for (PetscInt j = 0; j < np; j++) {
      PetscCall(PetscArraycpy(zt, z, np));
      zt[j] = z[j] + dz;
      PetscCall(Resid(e, np, fi, zt, par, rt));
      for (PetscInt k = 0; k < nr; k++) J[k + j * nr] = rt[k];
      zt[j] = z[j] - dz;
      PetscCall(Resid(e, np, fi, zt, par, rt));
      for (PetscInt k = 0; k < nr; k++) J[k + j * nr] = (J[k + j * nr] - rt[k]) / (2 * dz);
    }
    for (int tries = 0; tries < 12; tries++) {
      PetscReal cmax = 0;
      for (PetscInt j = 0; j < np; j++)
        for (PetscInt k = 0; k < nr; k++) cmax = PetscMax(cmax, PetscAbsReal(J[k + j * nr]));
      PetscCheck(cmax > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "refit: no remaining component changes the output");
      for (PetscInt j = 0; j < np; j++) {
        PetscReal cn = 0;
        for (PetscInt k = 0; k < nr; k++) {
          G[k + j * m] = J[k + j * nr];
          cn += J[k + j * nr] * J[k + j * nr];
        }
        /* Marquardt's scaling by the column norms; a component that does not
         * reach the output (zero column) gets a unit row and keeps its value */
        for (PetscInt i = 0; i < np; i++) G[nr + i + j * m] = i == j ? (cn > 1e-24 * cmax * cmax ? PetscSqrtReal(lam * cn) : 1) : 0;
      }
      for (PetscInt k = 0; k < nr; k++) b[k] = -r[k];
      for (PetscInt i = 0; i < np; i++) b[nr + i] = 0;
      dgels_("N", &m, &n, &one, G, &m, b, &m, work, &lwork, &info, 1);
      PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dgels: info %d (refit Jacobian rank deficient: a parameter does not change the output)", (int)info);
      step = 0;
      for (PetscInt j = 0; j < np; j++) {
        zt[j] = z[j] + b[j];
        step  = PetscMax(step, PetscAbsReal(b[j]));
      }
      PetscCall(Resid(e, np, fi, zt, par, rt));
      Et = 0;
      for (PetscInt k = 0; k < nr; k++) Et += rt[k] * rt[k];
      if (Et < E) break;
      lam *= 10;
    }
    if (!(Et < E)) break; /* no descent left at the noise level of the simulations */
    PetscReal dE = E - Et;
    PetscCall(PetscArraycpy(z, zt, np));
    PetscCall(PetscArraycpy(r, rt, nr));
    E   = Et;
    lam = PetscMax(lam / 10, 1e-12);
    if (dE < 1e-8 * E || step < 1e-8) { /* 1e-8: well above the simulations' noise (rtol), below any error that matters */
      e->iters++;
      break;
    }
  }
  for (PetscInt j = 0; j < np; j++) e->par[fi[j]] = PetscExpReal(z[j]);
  PetscCall(PetscFree5(z, zt, r, rt, J));
  PetscCall(PetscFree4(G, b, par, work));
  PetscCall(PetscFree(fi));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* does the model without component c (and those already off) keep a
 * regular mass matrix along the full model's trajectory? */
static PetscErrorCode Regular(DREnergy *e, PetscBool *ok)
{
  PetscReal *Md = e->work, *M0;

  PetscFunctionBegin;
  *ok = PETSC_TRUE;
  PetscCall(PetscMalloc1(e->nq, &M0));
  for (PetscInt k = 0; k <= e->nt && *ok; k++) {
    PetscBool *all;
    PetscCall(PetscMalloc1(e->nc, &all));
    for (PetscInt c = 0; c < e->nc; c++) all[c] = PETSC_TRUE;
    PetscCall(DREnergyMass(e, e->Q + k * e->nq, e->par0, all, Md));
    PetscCall(PetscArraycpy(M0, Md, e->nq));
    PetscCall(DREnergyMass(e, e->Q + k * e->nq, e->par0, e->on, Md));
    for (PetscInt i = 0; i < e->nq; i++)
      if (!(Md[i] > 1e-8 * M0[i])) *ok = PETSC_FALSE; /* 1e-8: well above round-off, far below any physical mass ratio */
    PetscCall(PetscFree(all));
  }
  PetscCall(PetscFree(M0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergyRank(DREnergy *e)
{
  PetscInt   nc = e->nc, nr = e->nt + 1;
  PetscReal  sa = 0, s2 = 0;
  PetscInt  *ord;

  PetscFunctionBegin;
  PetscCall(PetscFree4(e->y_full, e->y_removed, e->y_refit, e->Q));
  PetscCall(PetscMalloc4(nr, &e->y_full, nr, &e->y_removed, nr, &e->y_refit, nr * e->nq, &e->Q));
  for (PetscInt c = 0; c < nc; c++) {
    e->on[c]  = PETSC_TRUE;
    e->par[c] = e->par0[c];
  }
  PetscCall(DREnergySimulate(e, e->par0, e->on, e->y_full, e->Q, e->act, e->p2));
  for (PetscInt c = 0; c < nc; c++)
    if (e->type[c] != DR_EN_FORCE) {
      sa += e->act[c];
      s2 += e->p2[c];
    }
  PetscCheck(sa > 0 && s2 > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "the model does not move: all component powers are zero, expected a nonzero force (sysred.energy.forces, sysred.input.*)");
  for (PetscInt c = 0; c < nc; c++) {
    e->rel_act[c] = 100 * e->act[c] / sa;
    e->rel_p2[c]  = 100 * e->p2[c] / s2;
  }
  /* removal, smallest first */
  PetscCall(PetscMalloc1(nc, &ord));
  for (PetscInt c = 0; c < nc; c++) ord[c] = c;
  for (PetscInt i = 1; i < nc; i++) /* insertion sort by the metric: nc is small */
    for (PetscInt j = i; j > 0; j--) {
      const PetscReal *k = e->use_activity ? e->rel_act : e->rel_p2;
      if (k[ord[j]] < k[ord[j - 1]]) {
        PetscInt t = ord[j];
        ord[j] = ord[j - 1], ord[j - 1] = t;
      } else break;
    }
  if (e->kind == DR_ENERGY_MODAL) { /* a mode goes as a whole: its mass, spring, damper and forces */
    for (PetscInt q = 0; q < e->nq; q++) {
      PetscReal k = 0;
      for (PetscInt c = 0; c < nc; c++)
        if (e->body[c] == q && e->type[c] != DR_EN_FORCE) k += e->use_activity ? e->rel_act[c] : e->rel_p2[c];
      if (!(k < e->thr)) continue;
      for (PetscInt c = 0; c < nc; c++)
        if (e->body[c] == q) e->on[c] = PETSC_FALSE, e->removed[c] = PETSC_TRUE;
    }
  }
  for (PetscInt i = 0; i < nc && e->kind != DR_ENERGY_MODAL; i++) {
    PetscInt  c = ord[i];
    PetscReal k = e->use_activity ? e->rel_act[c] : e->rel_p2[c];
    PetscBool ok;
    if (e->type[c] == DR_EN_FORCE || !(k < e->thr)) continue;
    e->on[c] = PETSC_FALSE;
    PetscCall(Regular(e, &ok));
    if (ok) e->removed[c] = PETSC_TRUE;
    else {
      e->on[c]     = PETSC_TRUE;
      e->needed[c] = PETSC_TRUE;
    }
  }
  PetscCall(PetscFree(ord));
  PetscCall(DREnergySimulate(e, e->par0, e->on, e->y_removed, NULL, NULL, NULL));
  e->err_before = SqErr(nr, e->y_full, e->y_removed, &e->max_before);
  PetscCall(Refit(e));
  PetscCall(DREnergySimulate(e, e->par, e->on, e->y_refit, NULL, NULL, NULL));
  e->err_after = SqErr(nr, e->y_full, e->y_refit, &e->max_after);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergyView(const DREnergy *e, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "  %s model, %" PetscInt_FMT " dof, %" PetscInt_FMT " components, t in [0, %g] s; ranking by %s, threshold %g %%\n", e->kind == DR_ENERGY_PISTON_CRANK ? "piston-crank (seed 002, section 5.8)" : e->kind == DR_ENERGY_MODAL ? "modal (a dynred ss result; a mode is removed as a whole when the sum of its components is below the threshold)" : "element", e->nq, e->nc, (double)(e->nt * e->h), e->use_activity ? "activity" : "2-norm of power", (double)e->thr));
  PetscCall(PetscViewerASCIIPrintf(v, "  %-28s %12s %10s %12s %10s  %s\n", "component", "activity", "[%]", "||P||_2", "[%]", "value: full -> refit"));
  for (PetscInt c = 0; c < e->nc; c++) {
    const char *st = e->type[c] == DR_EN_FORCE ? (e->removed[c] ? "  (input) removed with its mode" : "  (input)") : e->removed[c] ? "  removed" : e->needed[c] ? "  kept: needed for a regular mass matrix" : "";
    if (e->type[c] == DR_EN_FORCE) PetscCall(PetscViewerASCIIPrintf(v, "  %-28s %12.5g %10s %12.5g %10s  %g%s\n", e->name[c], (double)e->act[c], "-", (double)e->p2[c], "-", (double)e->par0[c], st));
    else if (e->removed[c]) PetscCall(PetscViewerASCIIPrintf(v, "  %-28s %12.5g %10.4g %12.5g %10.4g  %g%s\n", e->name[c], (double)e->act[c], (double)e->rel_act[c], (double)e->p2[c], (double)e->rel_p2[c], (double)e->par0[c], st));
    else PetscCall(PetscViewerASCIIPrintf(v, "  %-28s %12.5g %10.4g %12.5g %10.4g  %g -> %.6g%s\n", e->name[c], (double)e->act[c], (double)e->rel_act[c], (double)e->p2[c], (double)e->rel_p2[c], (double)e->par0[c], (double)e->par[c], st));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "  output error sum (y - y_r)^2: %.6g without the removed components, %.6g after the refit (%" PetscInt_FMT " Levenberg-Marquardt iterations); max |y - y_r| %.4g -> %.4g\n", (double)e->err_before, (double)e->err_after, e->iters, (double)e->max_before, (double)e->max_after));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergyWrite(const DREnergy *e, DRStore st)
{
  PetscInt    nc = e->nc, nr = e->nt + 1, d1[1] = {nc}, dt[1] = {nr};
  PetscInt64 *rm;
  PetscReal  *t;
  const char **names;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(nc, &rm, nr, &t, nc, &names));
  for (PetscInt c = 0; c < nc; c++) {
    rm[c]    = e->removed[c] ? 1 : e->needed[c] ? -1 : 0;
    names[c] = e->name[c];
  }
  for (PetscInt k = 0; k < nr; k++) t[k] = k * e->h;
  PetscCall(DRStoreWriteStrings(st, "/sysred/energy/components", nc, names));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/activity", 1, d1, e->act, "J"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/activity_pct", 1, d1, e->rel_act, "%"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/power_2norm", 1, d1, e->p2, "W s^0.5"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/power_2norm_pct", 1, d1, e->rel_p2, "%"));
  PetscCall(DRStoreWriteInt(st, "/sysred/energy/removed", 1, d1, rm));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/value_full", 1, d1, e->par0, NULL));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/value_refit", 1, d1, e->par, NULL));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/t", 1, dt, t, "s"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/y_full", 1, dt, e->y_full, NULL));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/y_removed", 1, dt, e->y_removed, NULL));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/y_refit", 1, dt, e->y_refit, NULL));
  PetscCall(DRStoreAttrString(st, "/sysred/energy", "model", e->kind == DR_ENERGY_PISTON_CRANK ? "piston_crank" : e->kind == DR_ENERGY_MODAL ? "modal" : "elements"));
  PetscCall(DRStoreAttrString(st, "/sysred/energy", "metric", e->use_activity ? "activity" : "p2"));
  PetscCall(DRStoreAttrString(st, "/sysred/energy", "removed_legend", "1 removed, 0 kept, -1 below the threshold but kept (its removal makes the mass matrix singular); forces are never removed and not in the percentages"));
  PetscCall(DRStoreAttrReal(st, "/sysred/energy", "threshold_pct", e->thr));
  PetscCall(DRStoreAttrReal(st, "/sysred/energy", "error_before", e->err_before));
  PetscCall(DRStoreAttrReal(st, "/sysred/energy", "error_after", e->err_after));
  PetscCall(DRStoreAttrReal(st, "/sysred/energy", "max_error_before", e->max_before));
  PetscCall(DRStoreAttrReal(st, "/sysred/energy", "max_error_after", e->max_after));
  PetscCall(DRStoreAttrInt(st, "/sysred/energy", "refit_iterations", e->iters));
  PetscCall(PetscFree3(rm, t, names));
  PetscFunctionReturn(PETSC_SUCCESS);
}
