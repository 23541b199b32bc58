/* dynred sysred: energy-based ranking of the components of a lumped-parameter
 * model (METHODS.md section 6; Nguyen, "Model reduction for vehicle systems
 * modelling", MASc thesis, Waterloo, 2014, chapter 3): the
 * models and their simulation.  Ranking, removal and refit: energy_fit.c.
 *
 * Two models, both M(q) q'' + (velocity terms) = forces in q, simulated with
 * the per-component integrals riding along as extra states:
 *   x = [q, q', A_1..A_nc, S_1..S_nc],  A_i' = |P_i|,  S_i' = P_i^2,
 * so the activity A_i = int |P_i| dt and the 2-norm of power
 * ||P_i||_2 = sqrt(S_i) come out at the ODE solver's own accuracy (PETSc TS,
 * adaptive Dormand-Prince 5(4), tolerance sysred.energy.rtol), not from a
 * quadrature of samples.  The component powers (Nguyen 2014, eqs. 3.4-3.10):
 *   mass m v.v', inertia I omega omega', spring k L L', damper c L'^2,
 *   force F.v (torque tau omega).
 *
 * elements: masses on DOFs (diagonal M), springs and dampers between two
 *   DOFs or a DOF and the ground, forces on DOFs with the shape of
 *   sysred.input.* times their amplitude; output: one DOF's displacement.
 * piston_crank: the thesis's example (Nguyen 2014, section 5.8): crank OA = l1
 *   = 0.15 m turning about O, connecting rod AB = l2 = 0.35 m, piston B on
 *   the line through O, horizontal plane (no gravity); m1 = 0.12, m2 = 0.5,
 *   m3 = 2 kg, I1 = 0.001, I2 = 0.004 kg m^2, torque on the crank
 *   0.25 e^{-0.2 t} sin(pi t) N m, output the piston position d = OB,
 *   t in [0, 5] s.  The thesis does not give the centres of mass: taken at
 *   the middle of each link (crank mass at l1/2, rod mass at the middle of
 *   AB), I1 and I2 about those centres; start at rest with the crank along
 *   OB (theta = 0, d = l1 + l2).  One DOF theta, Lagrange:
 *     M(theta) theta'' + M'(theta) theta'^2 / 2 = T(t),
 *     M = m1 l1^2/4 + m2 |J2|^2 + m3 J3^2 + I1 + I2 Jphi^2,
 *   J the velocity of each centre (or the rod's angular velocity) per unit
 *   theta'. */
#include "sysredimpl.h"
#include <dynred/ss.h>
#include <petscts.h>
#include <stdio.h>
#include <string.h>

/* velocity Jacobians of the piston-crank and their theta-derivatives:
 * j[0..1] rod centre (x, y), j[2] piston x, j[3] rod angle; dj likewise */
static void PCKin(PetscReal l1, PetscReal l2, PetscReal th, PetscReal j[4], PetscReal dj[4])
{
  PetscReal s = PetscSinReal(th), c = PetscCosReal(th), r = PetscSqrtReal(l2 * l2 - l1 * l1 * s * s);
  PetscReal dr = -l1 * l1 * s * c / r;
  PetscReal J3 = -l1 * s - l1 * l1 * s * c / r;
  PetscReal dJ3 = -l1 * c - l1 * l1 * (c * c - s * s) / r + l1 * l1 * s * c * dr / (r * r);

  j[0]  = 0.5 * (-l1 * s + J3);
  j[1]  = 0.5 * l1 * c;
  j[2]  = J3;
  j[3]  = -l1 * c / r;
  dj[0] = 0.5 * (-l1 * c + dJ3);
  dj[1] = -0.5 * l1 * s;
  dj[2] = dJ3;
  dj[3] = l1 * s / r + l1 * c * dr / (r * r);
}

PetscErrorCode DREnergyForce(const DREnergy *e, PetscReal t, PetscReal f[])
{
  PetscFunctionBegin;
  if (e->kind == DR_ENERGY_PISTON_CRANK) {
    for (PetscInt c = 0; c < e->nc; c++)
      if (e->type[c] == DR_EN_FORCE) f[c] = PetscExpReal(-0.2 * t) * PetscSinReal(PETSC_PI * t);
  } else {
    PetscReal *u;
    PetscCall(PetscMalloc1(e->sig.nin + 1, &u));
    PetscCall(DRSignalEval((void *)&e->sig, t, u));
    for (PetscInt c = 0, k = 0; c < e->nc; c++)
      if (e->type[c] == DR_EN_FORCE) f[c] = u[k++]; /* shape; the amplitude is the parameter */
    PetscCall(PetscFree(u));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the diagonal of M(q) (elements) or M(theta) (piston-crank) with the active
 * components of par */
PetscErrorCode DREnergyMass(const DREnergy *e, const PetscReal q[], const PetscReal par[], const PetscBool on[], PetscReal Md[])
{
  PetscFunctionBegin;
  if (e->kind == DR_ENERGY_PISTON_CRANK) {
    PetscReal j[4], dj[4], l1 = e->l1;
    PCKin(l1, e->l2, q[0], j, dj);
    Md[0] = 0;
    for (PetscInt c = 0; c < e->nc; c++) {
      if (!on[c]) continue;
      switch (e->body[c]) {
      case 1: Md[0] += par[c] * (e->type[c] == DR_EN_MASS ? l1 * l1 / 4 : 1); break;
      case 2: Md[0] += par[c] * (e->type[c] == DR_EN_MASS ? j[0] * j[0] + j[1] * j[1] : j[3] * j[3]); break;
      case 3: Md[0] += par[c] * j[2] * j[2]; break;
      default: break;
      }
    }
  } else {
    for (PetscInt i = 0; i < e->nq; i++) Md[i] = 0;
    for (PetscInt c = 0; c < e->nc; c++)
      if (on[c] && e->type[c] == DR_EN_MASS) Md[e->di[c]] += par[c];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* accelerations a and component powers P (P may be NULL) at (t, q, v);
 * f: the force shapes at t (DREnergyForce) */
PetscErrorCode DREnergyEval(const DREnergy *e, const PetscReal f[], const PetscReal q[], const PetscReal v[], const PetscReal par[], const PetscBool on[], PetscReal a[], PetscReal P[])
{
  PetscInt nq = e->nq;

  PetscFunctionBegin;
  if (e->kind == DR_ENERGY_PISTON_CRANK) {
    PetscReal j[4], dj[4], l1 = e->l1, M = 0, dM = 0, T = 0, w = v[0], al;
    PCKin(l1, e->l2, q[0], j, dj);
    for (PetscInt c = 0; c < e->nc; c++) {
      if (!on[c]) continue;
      if (e->type[c] == DR_EN_FORCE) T += par[c] * f[c];
      else if (e->body[c] == 1) M += par[c] * (e->type[c] == DR_EN_MASS ? l1 * l1 / 4 : 1);
      else if (e->body[c] == 2 && e->type[c] == DR_EN_MASS) {
        M += par[c] * (j[0] * j[0] + j[1] * j[1]);
        dM += 2 * par[c] * (j[0] * dj[0] + j[1] * dj[1]);
      } else if (e->body[c] == 2) {
        M += par[c] * j[3] * j[3];
        dM += 2 * par[c] * j[3] * dj[3];
      } else {
        M += par[c] * j[2] * j[2];
        dM += 2 * par[c] * j[2] * dj[2];
      }
    }
    al   = (T - 0.5 * dM * w * w) / M;
    a[0] = al;
    if (P)
      for (PetscInt c = 0; c < e->nc; c++) {
        PetscReal pc = 0;
        if (!on[c]) pc = 0;
        else if (e->type[c] == DR_EN_FORCE) pc = par[c] * f[c] * w;
        else if (e->body[c] == 1) pc = par[c] * (e->type[c] == DR_EN_MASS ? l1 * l1 / 4 : 1) * w * al;
        else if (e->body[c] == 2 && e->type[c] == DR_EN_MASS) pc = par[c] * ((j[0] * j[0] + j[1] * j[1]) * w * al + (j[0] * dj[0] + j[1] * dj[1]) * w * w * w);
        else if (e->body[c] == 2) pc = par[c] * j[3] * w * (j[3] * al + dj[3] * w * w);
        else pc = par[c] * j[2] * w * (j[2] * al + dj[2] * w * w);
        P[c] = pc;
      }
  } else {
    PetscReal *Md = e->work;
    for (PetscInt i = 0; i < nq; i++) a[i] = 0;
    for (PetscInt c = 0; c < e->nc; c++) {
      PetscInt  i = e->di[c], k = e->dj[c];
      PetscReal L = q[i] - (k >= 0 ? q[k] : 0), dL = v[i] - (k >= 0 ? v[k] : 0), F = 0;
      if (!on[c]) continue;
      if (e->type[c] == DR_EN_SPRING) F = -par[c] * L;
      else if (e->type[c] == DR_EN_DAMPER) F = -par[c] * dL;
      else if (e->type[c] == DR_EN_FORCE) F = par[c] * f[c];
      else continue;
      a[i] += F;
      if (k >= 0 && e->type[c] != DR_EN_FORCE) a[k] -= F;
    }
    PetscCall(DREnergyMass(e, q, par, on, Md));
    for (PetscInt i = 0; i < nq; i++) a[i] = Md[i] > 0 ? a[i] / Md[i] : 0; /* no mass: a dof whose components are all removed (modal) */
    if (P)
      for (PetscInt c = 0; c < e->nc; c++) {
        PetscInt  i = e->di[c], k = e->dj[c];
        PetscReal L = q[i] - (k >= 0 ? q[k] : 0), dL = v[i] - (k >= 0 ? v[k] : 0);
        if (!on[c]) P[c] = 0;
        else if (e->type[c] == DR_EN_MASS) P[c] = par[c] * v[i] * a[i];
        else if (e->type[c] == DR_EN_SPRING) P[c] = par[c] * L * dL;
        else if (e->type[c] == DR_EN_DAMPER) P[c] = par[c] * dL * dL;
        else P[c] = par[c] * f[c] * v[i];
      }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal DREnergyOutput(const DREnergy *e, const PetscReal q[])
{
  if (e->kind == DR_ENERGY_PISTON_CRANK) {
    PetscReal s = PetscSinReal(q[0]);
    return e->l1 * PetscCosReal(q[0]) + PetscSqrtReal(e->l2 * e->l2 - e->l1 * e->l1 * s * s);
  }
  PetscReal y = 0;
  for (PetscInt i = 0; i < e->nq; i++) y += e->cout[i] * q[i];
  return y;
}

typedef struct {
  const DREnergy  *e;
  const PetscReal *par;
  const PetscBool *on;
  PetscReal       *f, *P;
} RunCtx;

static PetscErrorCode RHS(TS ts, PetscReal t, Vec X, Vec F, void *ctx)
{
  RunCtx            *r = (RunCtx *)ctx;
  const DREnergy    *e = r->e;
  const PetscScalar *x;
  PetscScalar       *fx;
  PetscInt           nq = e->nq, nc = e->nc;

  PetscFunctionBegin;
  PetscCall(DREnergyForce(e, t, r->f));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArray(F, &fx));
  PetscCall(DREnergyEval(e, r->f, x, x + nq, r->par, r->on, fx + nq, r->P));
  for (PetscInt i = 0; i < nq; i++) fx[i] = x[nq + i];
  for (PetscInt c = 0; c < nc; c++) {
    fx[2 * nq + c]      = PetscAbsReal(r->P[c]);
    fx[2 * nq + nc + c] = r->P[c] * r->P[c];
  }
  PetscCall(VecRestoreArray(F, &fx));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* simulate with parameters par and active set on; y: the output at the
 * nt + 1 sample times; Q (or NULL): the q's there, (nt+1) x nq; act, p2
 * (or NULL): activity and 2-norm of power per component over [0, t_end] */
PetscErrorCode DREnergySimulate(const DREnergy *e, const PetscReal par[], const PetscBool on[], PetscReal y[], PetscReal Q[], PetscReal act[], PetscReal p2[])
{
  TS                 ts;
  Vec                x;
  PetscReal         *times;
  PetscInt           nq = e->nq, nc = e->nc, nx = 2 * nq + 2 * nc;
  RunCtx             r = {e, par, on, NULL, NULL};
  const PetscScalar *xv;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(e->nt + 1, &times, nc, &r.f, nc, &r.P));
  for (PetscInt k = 0; k <= e->nt; k++) times[k] = k * e->h;
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nx, &x));
  PetscCall(VecSet(x, 0.0));
  PetscCall(DREnergyTSCreate(e, RHS, &r, &ts));
  PetscCall(TSSetSolution(ts, x));
  for (PetscInt k = 0; k <= e->nt; k++) { /* to each sample time in turn: the step lands on it */
    if (k > 0) {
      PetscCall(TSSetMaxTime(ts, times[k]));
      PetscCall(TSSolve(ts, x));
    }
    PetscCall(VecGetArrayRead(x, &xv));
    y[k] = DREnergyOutput(e, xv);
    if (Q)
      for (PetscInt i = 0; i < nq; i++) Q[k * nq + i] = xv[i];
    if (k == e->nt && act)
      for (PetscInt c = 0; c < nc; c++) {
        act[c] = xv[2 * nq + c];
        p2[c]  = PetscSqrtReal(xv[2 * nq + nc + c]);
      }
    PetscCall(VecRestoreArrayRead(x, &xv));
  }
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&x));
  PetscCall(PetscFree3(times, r.f, r.P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the built-in piston-crank (parameters in the header comment) */
static PetscErrorCode PistonCrank(DREnergy *e)
{
  const char     *names[6] = {"m1 crank mass", "m2 connecting rod mass", "m3 piston mass", "I1 crank inertia", "I2 connecting rod inertia", "T crank torque"};
  const PetscReal val[6]   = {0.12, 0.5, 2.0, 0.001, 0.004, 0.25};
  const int       type[6]  = {DR_EN_MASS, DR_EN_MASS, DR_EN_MASS, DR_EN_INERTIA, DR_EN_INERTIA, DR_EN_FORCE};
  const PetscInt  body[6]  = {1, 2, 3, 1, 2, 1};

  PetscFunctionBegin;
  e->nq = 1;
  e->nc = 6;
  e->l1 = 0.15;
  e->l2 = 0.35;
  PetscCall(DREnergyAlloc(e));
  for (PetscInt c = 0; c < 6; c++) {
    PetscCall(PetscStrncpy(e->name[c], names[c], sizeof(e->name[c])));
    e->par0[c] = val[c];
    e->type[c] = type[c];
    e->body[c] = body[c];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergyAlloc(DREnergy *e)
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc5(e->nc, &e->name, e->nc, &e->type, e->nc, &e->body, e->nc, &e->di, e->nc, &e->dj));
  PetscCall(PetscCalloc5(e->nc, &e->par0, e->nc, &e->par, e->nc, &e->on, e->nc, &e->act, e->nc, &e->p2));
  PetscCall(PetscCalloc5(e->nc, &e->rel_act, e->nc, &e->rel_p2, e->nc, &e->removed, e->nc, &e->needed, e->nq + 1, &e->work));
  PetscCall(PetscCalloc2(e->nq, &e->cout, e->nq, &e->fhz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergyFree(DREnergy *e)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(e->name, e->type, e->body, e->di, e->dj));
  PetscCall(PetscFree5(e->par0, e->par, e->on, e->act, e->p2));
  PetscCall(PetscFree5(e->rel_act, e->rel_p2, e->removed, e->needed, e->work));
  PetscCall(PetscFree2(e->cout, e->fhz));
  PetscCall(PetscFree4(e->y_full, e->y_removed, e->y_refit, e->Q));
  PetscCall(PetscFree(e->sig.scale));
  PetscCall(DREnergySubFree(&e->sub));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one kind of element from a flat list of groups of `per` numbers: dof (and
 * a second dof or 0 = ground for springs and dampers), value */
static PetscErrorCode ReadGroups(DRConfig cfg, const char *key, PetscInt per, PetscInt nq, PetscReal **v, PetscInt *n)
{
  PetscInt cap = 3 * 4096;
  char     w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(cap, v));
  PetscCall(DRConfigGetRealArray(cfg, key, *v, &cap, NULL));
  PetscCall(DRConfigWhere(cfg, key, w, sizeof(w)));
  PetscCheck(cap % per == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has %" PetscInt_FMT " numbers, expected groups of %" PetscInt_FMT " (%s)", w, key, cap, per, per == 3 ? "dof, dof or 0 for the ground, value" : "dof, value");
  *n = cap / per;
  for (PetscInt g = 0; g < *n; g++) {
    PetscReal *x = *v + g * per;
    char       d0[32], d1[32]; /* libc %g: PETSc's printf writes 2 as "2." */
    snprintf(d0, sizeof(d0), "%g", (double)x[0]);
    snprintf(d1, sizeof(d1), "%g", (double)x[1]);
    PetscCheck(x[0] == PetscFloorReal(x[0]) && x[0] >= 1 && x[0] <= nq, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s entry %" PetscInt_FMT ": dof %s, expected an integer 1..%" PetscInt_FMT " (sysred.energy.ndof)", w, key, g + 1, d0, nq);
    if (per == 3) PetscCheck(x[1] == PetscFloorReal(x[1]) && x[1] >= 0 && x[1] <= nq && x[1] != x[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s entry %" PetscInt_FMT ": second dof %s, expected an integer 0 (ground)..%" PetscInt_FMT " other than the first", w, key, g + 1, d1, nq);
    PetscCheck(per == 2 && !strcmp(key, "sysred.energy.forces") ? PetscIsNormalReal(x[per - 1]) : x[per - 1] > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s entry %" PetscInt_FMT ": value %g, expected %s", w, key, g + 1, (double)x[per - 1], !strcmp(key, "sysred.energy.forces") ? "a nonzero amplitude" : "> 0");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Elements(DRConfig cfg, DREnergy *e)
{
  const char *keys[4] = {"sysred.energy.masses", "sysred.energy.springs", "sysred.energy.dampers", "sysred.energy.forces"};
  const char *label[4] = {"mass", "spring", "damper", "force"};
  const int   type[4] = {DR_EN_MASS, DR_EN_SPRING, DR_EN_DAMPER, DR_EN_FORCE};
  PetscReal  *v[4];
  PetscInt    n[4], per[4] = {2, 3, 3, 2}, c = 0, nf;
  char        w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBegin;
  PetscCall(DRConfigGetInt(cfg, "sysred.energy.ndof", &e->nq, NULL));
  PetscCall(DRConfigWhere(cfg, "sysred.energy.ndof", w, sizeof(w)));
  PetscCheck(e->nq > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.energy.ndof is missing, expected the number of degrees of freedom of the element model", w);
  for (int k = 0; k < 4; k++) PetscCall(ReadGroups(cfg, keys[k], per[k], e->nq, &v[k], &n[k]));
  nf    = n[3];
  e->nc = n[0] + n[1] + n[2] + n[3];
  PetscCall(DRConfigWhere(cfg, "sysred.energy.forces", w, sizeof(w)));
  PetscCheck(nf > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.energy.forces is empty, expected at least one force [dof, amplitude] driving the model", w);
  PetscCall(DREnergyAlloc(e));
  for (int k = 0; k < 4; k++)
    for (PetscInt g = 0; g < n[k]; g++, c++) {
      PetscReal *x = v[k] + g * per[k];
      e->type[c]   = type[k];
      e->di[c]     = (PetscInt)x[0] - 1;
      e->dj[c]     = per[k] == 3 ? (PetscInt)x[1] - 1 : -1;
      e->par0[c]   = x[per[k] - 1];
      if (per[k] == 3 && e->dj[c] < 0) PetscCall(PetscSNPrintf(e->name[c], sizeof(e->name[c]), "%s %" PetscInt_FMT " (dof %" PetscInt_FMT "-ground)", label[k], g + 1, e->di[c] + 1));
      else if (per[k] == 3) PetscCall(PetscSNPrintf(e->name[c], sizeof(e->name[c]), "%s %" PetscInt_FMT " (dof %" PetscInt_FMT "-%" PetscInt_FMT ")", label[k], g + 1, e->di[c] + 1, e->dj[c] + 1));
      else PetscCall(PetscSNPrintf(e->name[c], sizeof(e->name[c]), "%s %" PetscInt_FMT " (dof %" PetscInt_FMT ")", label[k], g + 1, e->di[c] + 1));
    }
  for (int k = 0; k < 4; k++) PetscCall(PetscFree(v[k]));
  {
    PetscReal *Md = e->work;
    PetscCall(DRConfigWhere(cfg, "sysred.energy.masses", w, sizeof(w)));
    for (PetscInt i = 0; i < e->nc; i++) e->on[i] = PETSC_TRUE;
    PetscCall(DREnergyMass(e, NULL, e->par0, e->on, Md));
    for (PetscInt i = 0; i < e->nq; i++) PetscCheck(Md[i] > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: dof %" PetscInt_FMT " has no mass, expected a mass on every dof (sysred.energy.masses)", w, i + 1);
  }
  PetscCall(DRConfigGetInt(cfg, "sysred.energy.output", &e->out, NULL));
  PetscCall(DRConfigWhere(cfg, "sysred.energy.output", w, sizeof(w)));
  PetscCheck(e->out >= 1 && e->out <= e->nq, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.energy.output = %" PetscInt_FMT ", expected the dof 1..%" PetscInt_FMT " whose displacement is the output", w, e->out, e->nq);
  e->out--;
  e->cout[e->out] = 1;
  e->sig.nin = nf;
  PetscCall(PetscMalloc1(nf, &e->sig.scale));
  for (PetscInt j = 0; j < nf; j++) e->sig.scale[j] = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* modal: every mode k of M q'' + D q' + K q = input_map u (diagonal: the
 * form dynred ss writes) becomes a unit mass, a spring omega_k^2 and a
 * damper c_k to the ground and one force per input, amplitude
 * input_map(k, j) times the signal sysred.input.*; the output is row
 * sysred.energy.output of output_map (the displacement of that output) */
PetscErrorCode DREnergyModal(DRConfig cfg, const DRSecondOrder *so, const char *where, DREnergy *e)
{
  PetscInt n = so->n, m = so->m, c = 0;
  char     w[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) {
      if (i == j) continue;
      PetscCheck(so->M[i + j * n] == 0 && so->D[i + j * n] == 0 && so->K[i + j * n] == 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: M, D or K has the off-diagonal entry (%" PetscInt_FMT ",%" PetscInt_FMT "), expected the diagonal modal model dynred ss writes (/ss/second_order) for sysred.energy.model modal", where, i + 1, j + 1);
    }
  for (PetscInt i = 0; i < n; i++) PetscCheck(so->M[i + i * n] > 0 && so->K[i + i * n] >= 0 && so->D[i + i * n] >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: mode %" PetscInt_FMT " has M %g, D %g, K %g, expected M > 0, D >= 0, K >= 0", where, i + 1, (double)so->M[i + i * n], (double)so->D[i + i * n], (double)so->K[i + i * n]);
  e->nq = n;
  e->nc = 3 * n + n * m;
  PetscCall(DREnergyAlloc(e));
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal v[3] = {so->M[k + k * n], so->K[k + k * n], so->D[k + k * n]};
    const int       t[3] = {DR_EN_MASS, DR_EN_SPRING, DR_EN_DAMPER};
    const char     *l[3] = {"mass", "stiffness", "damper"};
    e->fhz[k] = PetscSqrtReal(v[1] / v[0]) / (2 * PETSC_PI);
    for (int q = 0; q < 3; q++, c++) {
      e->type[c] = t[q], e->di[c] = k, e->dj[c] = -1, e->par0[c] = v[q], e->body[c] = k;
      PetscCall(PetscSNPrintf(e->name[c], sizeof(e->name[c]), "mode %" PetscInt_FMT " (%.5g Hz) %s", k + 1, (double)e->fhz[k], l[q]));
    }
  }
  for (PetscInt j = 0; j < m; j++)
    for (PetscInt k = 0; k < n; k++, c++) {
      e->type[c] = DR_EN_FORCE, e->di[c] = k, e->dj[c] = -1, e->par0[c] = so->B[k + j * n], e->body[c] = k;
      PetscCall(PetscSNPrintf(e->name[c], sizeof(e->name[c]), "input %" PetscInt_FMT " on mode %" PetscInt_FMT, j + 1, k + 1));
    }
  PetscCall(DRConfigGetInt(cfg, "sysred.energy.output", &e->out, NULL));
  PetscCall(DRConfigWhere(cfg, "sysred.energy.output", w, sizeof(w)));
  PetscCheck(e->out >= 1 && e->out <= so->p, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.energy.output = %" PetscInt_FMT ", expected the output 1..%" PetscInt_FMT " (rows of %s output_map)", w, e->out, so->p, where);
  e->out--;
  for (PetscInt k = 0; k < n; k++) e->cout[k] = so->C[e->out + k * so->p];
  e->sig.nin = n * m; /* one shape per force component, in order (DREnergyForce) */
  PetscCall(PetscMalloc1(e->nc, &e->sig.scale));
  for (PetscInt j = 0; j < e->nc; j++) e->sig.scale[j] = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the sysred.energy section (and sysred.input.* for the element forces) */
PetscErrorCode DREnergySetFromConfig(DRConfig cfg, DREnergy *e)
{
  char      m[32], w[PETSC_MAX_PATH_LEN + 32];
  PetscReal t_end;

  PetscFunctionBegin;
  PetscCall(DRConfigGetString(cfg, "sysred.energy.model", m, sizeof(m), NULL));
  e->kind = !strcmp(m, "piston_crank") ? DR_ENERGY_PISTON_CRANK : !strcmp(m, "modal") ? DR_ENERGY_MODAL : DR_ENERGY_ELEMENTS;
  PetscCall(DRConfigGetReal(cfg, "sysred.energy.t_end", &t_end, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.energy.h", &e->h, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.energy.rtol", &e->rtol, NULL));
  PetscCall(DRConfigGetReal(cfg, "sysred.energy.threshold_pct", &e->thr, NULL));
  PetscCall(DRConfigGetBool(cfg, "sysred.energy.refit", &e->refit, NULL));
  PetscCall(DRConfigGetInt(cfg, "sysred.energy.maxit", &e->maxit, NULL));
  PetscCall(DRConfigGetString(cfg, "sysred.energy.metric", m, sizeof(m), NULL));
  e->use_activity = strcmp(m, "activity") ? PETSC_FALSE : PETSC_TRUE;
  PetscCall(DRConfigWhere(cfg, "sysred.energy.h", w, sizeof(w)));
  PetscCheck(e->h > 0 && e->h <= t_end, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: sysred.energy.h = %g, expected 0 < h <= sysred.energy.t_end = %g", w, (double)e->h, (double)t_end);
  e->nt = (PetscInt)PetscCeilReal(t_end / e->h - 1e-9);
  if (e->kind == DR_ENERGY_PISTON_CRANK) PetscCall(PistonCrank(e));
  else { /* elements here; modal: DREnergyModal once the source is read (DRSysRedSetUp) */
    PetscCall(DRConfigGetString(cfg, "sysred.input.signal", m, sizeof(m), NULL));
    e->sig.type = !strcmp(m, "step") ? DR_SIG_STEP : !strcmp(m, "ramp") ? DR_SIG_RAMP : !strcmp(m, "sine") ? DR_SIG_SINE : DR_SIG_TRAPEZOID;
    PetscCall(DRConfigGetReal(cfg, "sysred.input.amplitude", &e->sig.a, NULL));
    PetscCall(DRConfigGetReal(cfg, "sysred.input.t0", &e->sig.t0, NULL));
    PetscCall(DRConfigGetReal(cfg, "sysred.input.freq_hz", &e->sig.f, NULL));
    PetscCall(DRConfigGetReal(cfg, "sysred.input.t_rise", &e->sig.t_rise, NULL));
    PetscCall(DRConfigGetReal(cfg, "sysred.input.t_hold", &e->sig.t_hold, NULL));
    PetscCall(DRConfigGetReal(cfg, "sysred.input.t_fall", &e->sig.t_fall, NULL));
    if (e->kind == DR_ENERGY_ELEMENTS) PetscCall(Elements(cfg, e));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
