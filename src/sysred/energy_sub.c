/* dynred sysred: energy flow per modal coordinate and per substructure of a
 * CMS model (METHODS.md section 6; Nguyen, "Model reduction for vehicle
 * systems modelling", MASc thesis, Waterloo, 2014, chapter 3).
 *
 * The model is the modal second-order form of a `dynred ss` result,
 *   eta'' + C eta' + Lambda eta = B u,   u_j(t) = the signal sysred.input.*,
 * (C, Lambda diagonal, B = Phi^T S_in), the physical motion q = Phi eta with
 * Phi the mass-normalized modes of the `dynred cms` result it was made from
 * (sysred.energy.cms).  The substructures s are the components of that CMS
 * model, rebuilt from the cms result's own job text (root attribute config)
 * with the model layer: K_s, M_s over the component's DOFs, Phi_s the rows of
 * Phi there, and the projections Kh_s = Phi_s^T K_s Phi_s, Mh_s =
 * Phi_s^T M_s Phi_s (sum_s Mh_s = I, sum_s Kh_s = Lambda: checked).
 *
 * Powers (P = v^T f over the DOFs of the part):
 *   mode k:        P_k = eta_k' (B u)_k, the power of the modal force;
 *                  dissipation c_k eta_k'^2, energy (eta_k'^2 + w_k^2 eta_k^2)/2;
 *   substructure:  P_s = v_s^T f_s, f_s the forces on s from outside (the
 *                  inputs on its DOFs and the interface forces of the other
 *                  parts) = M_s a + D_s v + K_s q on its DOFs:
 *                    P_s = eta'^T (Mh_s (B u - Lambda eta) + Kh_s eta),
 *                  the modal damping force M Phi C eta' split over the parts
 *                  in proportion to their mass (dissipation eta'^T Mh_s C eta'),
 *                  energy (eta'^T Mh_s eta' + eta^T Kh_s eta) / 2; the input
 *                  power on its DOFs P_ext,s (an input on a shared DOF counts
 *                  for the first component holding it) and the power through
 *                  its interface P_s - P_ext,s.
 * Balances (the integrator's accuracy): sum_k P_k = sum_s P_s = the input
 * power; per part  int P dt = energy at t_end + dissipated energy.
 * Integrals ride along as ODE states (PETSc TS rk5dp, sysred.energy.rtol),
 * as in energy.c.  Small dense work, replicated on every rank. */
#include "sysredimpl.h"
#include <dynred/h5.h>
#include <dynred/model.h>
#include <petscts.h>
#include <string.h>

/* the per-part integrals in the ODE state after [eta, eta']:
 * modes: |P|, P^2, P, dissipation (4 m); parts: |P|, P^2, P, dissipation,
 * P_ext, |P - P_ext|, (P - P_ext)^2 (7 ns) */
enum { SUB_NI = 7 };

static PetscErrorCode Alloc(DREnergySub *sb)
{
  PetscInt m = sb->m, ns = sb->ns;

  PetscFunctionBegin;
  PetscCall(PetscCalloc7(m, &sb->mact, m, &sb->mp2, m, &sb->mwork, m, &sb->mdiss, m, &sb->menergy, m, &sb->mact_pct, m, &sb->mp2_pct));
  PetscCall(PetscCalloc5(ns + 1, &sb->sact, ns + 1, &sb->sp2, ns + 1, &sb->swork, ns + 1, &sb->sdiss, ns + 1, &sb->senergy));
  PetscCall(PetscCalloc5(ns + 1, &sb->sext, ns + 1, &sb->iact, ns + 1, &sb->ip2, ns + 1, &sb->sact_pct, ns + 1, &sb->sp2_pct));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergySubFree(DREnergySub *sb)
{
  PetscFunctionBegin;
  if (!sb->mact) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree7(sb->mact, sb->mp2, sb->mwork, sb->mdiss, sb->menergy, sb->mact_pct, sb->mp2_pct));
  PetscCall(PetscFree5(sb->sact, sb->sp2, sb->swork, sb->sdiss, sb->senergy));
  PetscCall(PetscFree5(sb->sext, sb->iact, sb->ip2, sb->sact_pct, sb->sp2_pct));
  PetscCall(PetscFree4(sb->name, sb->Mh, sb->Kh, sb->owner));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a [n, c] integer dataset of (node, direction) pairs as labels */
static PetscErrorCode ReadLabels(hid_t f, const char *path, const char *dset, PetscInt *n, DRLabel **l)
{
  int      nd;
  hsize_t  dd[4];
  int     *buf;

  PetscFunctionBegin;
  PetscCall(DRH5Dims(f, dset, &nd, dd));
  PetscCheck(nd == 2 && dd[1] == 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is missing or not [n, 2], expected the (node, direction) labels a dynred cms/ss result writes", path, dset);
  PetscCall(DRH5ReadAll(f, dset, H5T_NATIVE_INT, NULL, NULL, (void **)&buf));
  *n = (PetscInt)dd[0];
  PetscCall(PetscMalloc1(*n + 1, l));
  for (PetscInt i = 0; i < *n; i++) (*l)[i] = DRLabelMake(buf[2 * i], buf[2 * i + 1]);
  PetscCall(DRLabelsNumberCopies(*n, *l));
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mh_s, Kh_s of component c: Phi_s (rows of Phi, ndof x ncol row-major, at
 * c's labels) projected on c's K and M */
static PetscErrorCode Project(DRComponent c, PetscInt m, PetscInt ncol, const PetscReal *Phi, PetscInt nl, const DRLabel sorted[], const PetscInt perm[], const char *cmspath, PetscReal *Mh, PetscReal *Kh)
{
  Mat             K, M, P, X;
  PetscInt        n;
  const DRLabel  *lab;
  const char     *name;
  PetscScalar    *p;
  const PetscReal *x;

  PetscFunctionBegin;
  PetscCall(DRComponentGetOperators(c, &K, &M, NULL));
  PetscCall(DRComponentGetLabels(c, &n, &lab));
  PetscCall(DRComponentGetName(c, &name));
  PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, n, m, NULL, &P));
  PetscCall(MatDenseGetArray(P, &p));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt r = DRLabelsFind(nl, sorted, lab[i]);
    char     b[32];
    PetscCheck(r >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: component %s's DOF %s is not in /cms/labels, expected the model the cms result was computed from", cmspath, name, DRLabelString(lab[i], b));
    for (PetscInt k = 0; k < m; k++) p[i + k * n] = Phi[perm[r] * ncol + k];
  }
  PetscCall(MatDenseRestoreArray(P, &p));
  for (int w = 0; w < 2; w++) {
    Mat G;
    PetscCall(MatMatMult(w ? K : M, P, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &X));
    PetscCall(MatTransposeMatMult(P, X, MAT_INITIAL_MATRIX, PETSC_DEFAULT, &G));
    PetscCall(MatDenseGetArrayRead(G, &x));
    PetscCall(PetscArraycpy(w ? Kh : Mh, x, m * m));
    PetscCall(MatDenseRestoreArrayRead(G, &x));
    PetscCall(MatDestroy(&G));
    PetscCall(MatDestroy(&X));
  }
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the rebuilt components are the CMS substructures (not the subdomains of
 * an automatic partition of one component, cms.partition) */
static PetscErrorCode CheckParts(const char *path, const DREnergySub *sb)
{
  hid_t      f, g;
  H5G_info_t info;
  PetscBool  ok = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open, expected the dynred cms result (sysred.energy.cms)", path);
  PetscCall(DRH5Exists(f, "/cms/components", &ok));
  info.nlinks = 0;
  if (ok) {
    PetscCall(DRH5GroupOpen(f, "/cms/components", PETSC_FALSE, &g));
    DRH5Call(f, "/cms/components", H5Gget_info(g, &info));
    for (PetscInt s = 0; s < sb->ns && ok; s++) PetscCall(DRH5Exists(g, sb->name[s], &ok));
    H5Gclose(g);
  }
  PetscCall(DRH5FileClose(&f));
  PetscCheck(ok && (PetscInt)info.nlinks == sb->ns, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: /cms/components has %" PetscInt_FMT " parts, the model of its job text %" PetscInt_FMT " components, expected the same parts (a model cut by model.cut or a components: list; not an automatic partition, cms.partition)", path, (PetscInt)info.nlinks, sb->ns);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the substructures of the cms result at path: Mh, Kh, names, input owners */
static PetscErrorCode Substructures(const char *path, const DRSecondOrder *so, const DRLabel in[], DREnergySub *sb)
{
  hid_t       f;
  int         nd;
  hsize_t     dd[4];
  PetscInt    nl, m = so->n, ncol;
  DRLabel    *lab, *sorted;
  PetscInt   *perm;
  PetscReal  *Phi, *fhz;
  char       *text;
  DRConfig    cfg;
  size_t      cap = 1 << 20;
  PetscBool   found;

  PetscFunctionBegin;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open, expected the HDF5 result of the dynred cms job the ss source was made from (sysred.energy.cms)", path);
  PetscCall(DRH5Dims(f, "/cms/modes", &nd, dd));
  if (nd != 2) PetscCall(DRH5FileClose(&f));
  PetscCheck(nd == 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no /cms/modes, expected a dynred cms result with its modes (sysred.energy.cms; not cms.write_modes false)", path);
  ncol = (PetscInt)dd[1];
  PetscCheck(ncol >= m, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: /cms/modes has %" PetscInt_FMT " modes, expected at least the %" PetscInt_FMT " of the ss model", path, ncol, m);
  PetscCall(DRH5ReadAll(f, "/cms/modes", H5T_NATIVE_DOUBLE, NULL, NULL, (void **)&Phi));
  PetscCall(DRH5ReadAll(f, "/cms/frequencies_hz", H5T_NATIVE_DOUBLE, NULL, NULL, (void **)&fhz));
  PetscCall(ReadLabels(f, path, "/cms/labels", &nl, &lab));
  PetscCheck(nl == (PetscInt)dd[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: /cms/labels has %" PetscInt_FMT " rows, /cms/modes %" PetscInt_FMT ", expected the same", path, nl, (PetscInt)dd[0]);
  PetscCall(PetscMalloc1(cap, &text));
  PetscCall(DRH5AttrReadString(f, ".", "config", text, cap, &found));
  PetscCall(DRH5FileClose(&f));
  PetscCheck(found && text[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no root attribute config, expected a dynred cms result (its job text names the model)", path);
  /* the ss model must be these modes: w_k^2 = K_kk, M = I, B = Phi^T S_in */
  for (PetscInt k = 0; k < m; k++) {
    PetscReal w2 = PetscSqr(2 * PETSC_PI * fhz[k]), kk = so->K[k + k * m], scale = PetscSqr(2 * PETSC_PI * fhz[m - 1]);
    PetscCheck(PetscAbsReal(so->M[k + k * m] - 1) < 1e-10 && PetscAbsReal(kk - w2) <= 1e-8 * scale, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: mode %" PetscInt_FMT " of the ss model has M %g, K %g, the cms result %g Hz (K %g), expected the ss result of these mass-normalized modes (sysred.energy.cms)", path, k + 1, (double)so->M[k + k * m], (double)kk, (double)fhz[k], (double)w2);
  }
  PetscCall(DRLabelsSort(nl, lab, &sorted, &perm));
  for (PetscInt j = 0; j < sb->nin; j++) {
    PetscInt  r = DRLabelsFind(nl, sorted, in[j]);
    PetscReal bmax = 0, d = 0;
    char      b[32];
    PetscCheck(r >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: the ss input %s is not in /cms/labels, expected the cms result of the ss source", path, DRLabelString(in[j], b));
    for (PetscInt k = 0; k < m; k++) {
      bmax = PetscMax(bmax, PetscAbsReal(so->B[k + j * m]));
      d    = PetscMax(d, PetscAbsReal(so->B[k + j * m] - Phi[perm[r] * ncol + k]));
    }
    PetscCheck(d <= 1e-9 * bmax, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: input_map column %" PetscInt_FMT " differs from the modes at %s by %g, expected Phi^T S_in (the ss source and its cms result, SI time units)", path, j + 1, DRLabelString(in[j], b), (double)d);
  }
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &cfg));
  PetscCall(DRConfigLoadString(cfg, path, text)); /* relative component paths: next to the cms result */
  PetscCall(PetscFree(text));
  PetscCall(DRModelGetComponentCount(cfg, &sb->ns));
  PetscCall(PetscCalloc4(sb->ns, &sb->name, sb->ns * m * m, &sb->Mh, sb->ns * m * m, &sb->Kh, sb->nin + 1, &sb->owner));
  for (PetscInt j = 0; j < sb->nin; j++) sb->owner[j] = -1;
  for (PetscInt s = 0; s < sb->ns; s++) {
    DRComponent     c;
    const char     *name;
    const DRLabel  *cl;
    PetscInt        nc;
    PetscCall(DRModelCreateComponent(cfg, s, PETSC_COMM_SELF, &c));
    PetscCall(DRComponentGetName(c, &name));
    PetscCall(PetscStrncpy(sb->name[s], name, sizeof(sb->name[s])));
    PetscCall(Project(c, m, ncol, Phi, nl, sorted, perm, path, sb->Mh + s * m * m, sb->Kh + s * m * m));
    PetscCall(DRComponentGetLabels(c, &nc, &cl));
    for (PetscInt j = 0; j < sb->nin; j++)
      for (PetscInt i = 0; i < nc && sb->owner[j] < 0; i++)
        if (cl[i] == in[j]) sb->owner[j] = s;
    PetscCall(DRComponentDestroy(&c));
  }
  PetscCall(DRConfigDestroy(&cfg));
  PetscCall(CheckParts(path, sb));
  /* the parts sum to the whole: sum Mh = I, sum Kh = Lambda */
  sb->mpart = sb->kpart = 0;
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt k = 0; k < m; k++) {
      PetscReal sm = 0, sk = 0;
      for (PetscInt s = 0; s < sb->ns; s++) sm += sb->Mh[s * m * m + i + k * m], sk += sb->Kh[s * m * m + i + k * m];
      sb->mpart = PetscMax(sb->mpart, PetscAbsReal(sm - (i == k ? 1 : 0)));
      sb->kpart = PetscMax(sb->kpart, PetscAbsReal(sk - so->K[i + k * m]) / PetscMax(so->K[m * m - 1], PETSC_SMALL));
    }
  /* the modes' own M- and K-orthogonality on the rebuilt model, to the cms eigensolver's accuracy */
  PetscCheck(sb->mpart < 1e-6 && sb->kpart < 1e-6, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: the rebuilt substructures do not reproduce the modes (max |sum Phi_s^T M_s Phi_s - I| = %g, relative K defect %g), expected the model the cms result was computed from", path, (double)sb->mpart, (double)sb->kpart);
  PetscCall(PetscFree(lab));
  PetscCall(PetscFree(Phi));
  PetscCall(PetscFree(fhz));
  PetscCall(PetscFree(sorted));
  PetscCall(PetscFree(perm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergySubSetUp(DRConfig cfg, const DRSecondOrder *so, const char *sspath, DREnergySub *sb)
{
  char        file[PETSC_MAX_PATH_LEN];
  const char *origin;
  DRLabel    *in = NULL;

  PetscFunctionBegin;
  PetscCall(DREnergySubFree(sb));
  sb->m   = so->n;
  sb->nin = so->m;
  sb->ns  = 0;
  PetscCall(DRConfigGetString(cfg, "sysred.energy.cms", file, sizeof(file), NULL));
  if (file[0]) {
    hid_t    f;
    PetscInt n;
    PetscCall(DRConfigPathBase(cfg, "sysred.energy.cms", &origin));
    PetscCall(DRPathResolve(origin, file, sb->cms, sizeof(sb->cms)));
    PetscCall(DRH5FileOpen(MPI_COMM_NULL, sspath, DR_H5_READ, &f));
    PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open, expected the dynred ss result (sysred.source)", sspath);
    PetscCall(ReadLabels(f, sspath, "/ss/inputs", &n, &in));
    PetscCall(DRH5FileClose(&f));
    PetscCheck(n == sb->nin, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: /ss/inputs has %" PetscInt_FMT " labels, input_map %" PetscInt_FMT " columns, expected the same", sspath, n, sb->nin);
    PetscCall(Substructures(sb->cms, so, in, sb));
    PetscCall(PetscFree(in));
  } else {
    sb->cms[0] = 0;
    PetscCall(PetscCalloc4(1, &sb->name, 1, &sb->Mh, 1, &sb->Kh, sb->nin + 1, &sb->owner));
  }
  PetscCall(Alloc(sb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const DREnergy      *e;
  const DRSecondOrder *so;
  const DREnergySub   *sb;
  DRSignal             sig; /* one input shape */
  PetscReal           *F, *a, *g, *cv;
} SubCtx;

static PetscErrorCode SubRHS(TS ts, PetscReal t, Vec X, Vec Fv, void *ctx)
{
  SubCtx              *r  = (SubCtx *)ctx;
  const DRSecondOrder *so = r->so;
  const DREnergySub   *sb = r->sb;
  PetscInt             m = so->n, nin = so->m, ns = sb->ns;
  const PetscScalar   *x;
  PetscScalar         *fx;
  PetscReal            u;

  PetscFunctionBegin;
  PetscCall(DRSignalEval(&r->sig, t, &u));
  PetscCall(VecGetArrayRead(X, &x));
  PetscCall(VecGetArray(Fv, &fx));
  const PetscScalar *q = x, *v = x + m;
  PetscScalar       *Iv = fx + 2 * m;
  for (PetscInt k = 0; k < m; k++) {
    PetscReal Fk = 0, P, d;
    for (PetscInt j = 0; j < nin; j++) Fk += so->B[k + j * m] * u;
    r->F[k]  = Fk;
    r->a[k]  = Fk - so->K[k + k * m] * q[k];  /* B u - Lambda eta */
    r->cv[k] = so->D[k + k * m] * v[k];       /* C eta' */
    fx[k]     = v[k];
    fx[m + k] = (r->a[k] - r->cv[k]) / so->M[k + k * m];
    P = v[k] * Fk, d = v[k] * r->cv[k];
    Iv[4 * k] = PetscAbsReal(P), Iv[4 * k + 1] = P * P, Iv[4 * k + 2] = P, Iv[4 * k + 3] = d;
  }
  Iv += 4 * m;
  for (PetscInt s = 0; s < ns; s++) {
    const PetscReal *Mh = sb->Mh + s * m * m, *Kh = sb->Kh + s * m * m;
    PetscReal        P = 0, d = 0, pe = 0, pi;
    for (PetscInt i = 0; i < m; i++) {
      PetscReal gi = 0, di = 0;
      for (PetscInt k = 0; k < m; k++) {
        gi += Mh[i + k * m] * r->a[k] + Kh[i + k * m] * q[k];
        di += Mh[i + k * m] * r->cv[k];
      }
      P += v[i] * gi, d += v[i] * di;
    }
    for (PetscInt j = 0; j < nin; j++)
      if (sb->owner[j] == s)
        for (PetscInt k = 0; k < m; k++) pe += so->B[k + j * m] * v[k] * u;
    pi = P - pe;
    Iv[SUB_NI * s] = PetscAbsReal(P), Iv[SUB_NI * s + 1] = P * P, Iv[SUB_NI * s + 2] = P, Iv[SUB_NI * s + 3] = d;
    Iv[SUB_NI * s + 4] = pe, Iv[SUB_NI * s + 5] = PetscAbsReal(pi), Iv[SUB_NI * s + 6] = pi * pi;
  }
  PetscCall(VecRestoreArray(Fv, &fx));
  PetscCall(VecRestoreArrayRead(X, &x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void Percent(PetscInt n, const PetscReal *x, PetscReal *pct)
{
  PetscReal sum = 0;
  for (PetscInt i = 0; i < n; i++) sum += x[i];
  for (PetscInt i = 0; i < n; i++) pct[i] = sum > 0 ? 100 * x[i] / sum : 0;
}

/* simulate the modal model over [0, t_end] with the integrals riding along */
PetscErrorCode DREnergySubSolve(const DREnergy *e, const DRSecondOrder *so, DREnergySub *sb)
{
  TS                 ts;
  Vec                X;
  PetscInt           m = so->n, ns = sb->ns, nx = 2 * m + 4 * m + SUB_NI * ns;
  SubCtx             r = {e, so, sb, e->sig, NULL, NULL, NULL, NULL};
  PetscReal          one = 1;
  const PetscScalar *x;

  PetscFunctionBegin;
  r.sig.nin   = 1;
  r.sig.scale = &one;
  PetscCall(PetscMalloc4(m, &r.F, m, &r.a, m, &r.g, m, &r.cv));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, nx, &X));
  PetscCall(VecSet(X, 0.0));
  PetscCall(DREnergyTSCreate(e, SubRHS, &r, &ts));
  PetscCall(PetscLogEventBegin(DR_SYSRED_Substructures, 0, 0, 0, 0));
  PetscCall(TSSolve(ts, X));
  PetscCall(PetscLogEventEnd(DR_SYSRED_Substructures, 0, 0, 0, 0));
  PetscCall(VecGetArrayRead(X, &x));
  {
    const PetscScalar *q = x, *v = x + m, *Iv = x + 2 * m, *Jv = x + 6 * m;
    sb->win = sb->dtot = sb->eend = 0;
    for (PetscInt k = 0; k < m; k++) {
      sb->mact[k]    = Iv[4 * k];
      sb->mp2[k]     = PetscSqrtReal(Iv[4 * k + 1]);
      sb->mwork[k]   = Iv[4 * k + 2];
      sb->mdiss[k]   = Iv[4 * k + 3];
      sb->menergy[k] = 0.5 * (so->M[k + k * m] * v[k] * v[k] + so->K[k + k * m] * q[k] * q[k]);
      sb->win += sb->mwork[k], sb->dtot += sb->mdiss[k], sb->eend += sb->menergy[k];
    }
    for (PetscInt s = 0; s < ns; s++) {
      const PetscReal *Mh = sb->Mh + s * m * m, *Kh = sb->Kh + s * m * m;
      PetscReal        E = 0;
      for (PetscInt i = 0; i < m; i++)
        for (PetscInt k = 0; k < m; k++) E += 0.5 * (v[i] * Mh[i + k * m] * v[k] + q[i] * Kh[i + k * m] * q[k]);
      sb->sact[s]    = Jv[SUB_NI * s];
      sb->sp2[s]     = PetscSqrtReal(Jv[SUB_NI * s + 1]);
      sb->swork[s]   = Jv[SUB_NI * s + 2];
      sb->sdiss[s]   = Jv[SUB_NI * s + 3];
      sb->sext[s]    = Jv[SUB_NI * s + 4];
      sb->iact[s]    = Jv[SUB_NI * s + 5];
      sb->ip2[s]     = PetscSqrtReal(Jv[SUB_NI * s + 6]);
      sb->senergy[s] = E;
    }
  }
  PetscCall(VecRestoreArrayRead(X, &x));
  Percent(m, sb->mact, sb->mact_pct);
  Percent(m, sb->mp2, sb->mp2_pct);
  Percent(ns, sb->sact, sb->sact_pct);
  Percent(ns, sb->sp2, sb->sp2_pct);
  PetscCall(TSDestroy(&ts));
  PetscCall(VecDestroy(&X));
  PetscCall(PetscFree4(r.F, r.a, r.g, r.cv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergySubView(const DREnergy *e, PetscViewer v)
{
  const DREnergySub *sb = &e->sub;
  PetscReal          bal = sb->win - sb->dtot - sb->eend;

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "  power per mode (P_k = eta_k' (B u)_k):\n  %-6s %12s %12s %8s %12s %8s %12s %12s %12s\n", "mode", "f [Hz]", "activity", "[%]", "||P||_2", "[%]", "int P dt", "dissipated", "E(t_end)"));
  for (PetscInt k = 0; k < sb->m; k++) PetscCall(PetscViewerASCIIPrintf(v, "  %-6" PetscInt_FMT " %12.6g %12.5g %8.4g %12.5g %8.4g %12.5g %12.5g %12.5g\n", k + 1, (double)e->fhz[k], (double)sb->mact[k], (double)sb->mact_pct[k], (double)sb->mp2[k], (double)sb->mp2_pct[k], (double)sb->mwork[k], (double)sb->mdiss[k], (double)sb->menergy[k]));
  PetscCall(PetscViewerASCIIPrintf(v, "  energy balance: input work %.6g = dissipated %.6g + energy at t_end %.6g (defect %.3g)\n", (double)sb->win, (double)sb->dtot, (double)sb->eend, (double)bal));
  if (!sb->ns) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(v, "  power per substructure of %s (P_s = v_s^T f_s, f_s the input and interface forces on its DOFs; modal damping split by mass):\n", sb->cms));
  PetscCall(PetscViewerASCIIPrintf(v, "  %-16s %12s %8s %12s %8s %12s %12s %12s %12s %12s\n", "substructure", "activity", "[%]", "||P||_2", "[%]", "int P dt", "input work", "interface", "dissipated", "E(t_end)"));
  for (PetscInt s = 0; s < sb->ns; s++) PetscCall(PetscViewerASCIIPrintf(v, "  %-16s %12.5g %8.4g %12.5g %8.4g %12.5g %12.5g %12.5g %12.5g %12.5g\n", sb->name[s], (double)sb->sact[s], (double)sb->sact_pct[s], (double)sb->sp2[s], (double)sb->sp2_pct[s], (double)sb->swork[s], (double)sb->sext[s], (double)(sb->swork[s] - sb->sext[s]), (double)sb->sdiss[s], (double)sb->senergy[s]));
  PetscCall(PetscViewerASCIIPrintf(v, "  the parts sum to the modes: max |sum Phi_s^T M_s Phi_s - I| %.2g, relative K defect %.2g\n", (double)sb->mpart, (double)sb->kpart));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DREnergySubWrite(const DREnergySub *sb, DRStore st)
{
  PetscInt    dm[1] = {sb->m}, ds[1] = {sb->ns};
  const char *mg = "/sysred/energy/modes", *sg = "/sysred/energy/substructures";

  PetscFunctionBegin;
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/activity", 1, dm, sb->mact, "J"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/activity_pct", 1, dm, sb->mact_pct, "%"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/power_2norm", 1, dm, sb->mp2, "W s^0.5"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/power_2norm_pct", 1, dm, sb->mp2_pct, "%"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/work", 1, dm, sb->mwork, "J"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/dissipated", 1, dm, sb->mdiss, "J"));
  PetscCall(DRStoreWriteReal(st, "/sysred/energy/modes/energy_end", 1, dm, sb->menergy, "J"));
  PetscCall(DRStoreAttrString(st, mg, "power", "P_k = eta_k' (B u)_k (the modal force's power); work = int P dt = energy_end + dissipated"));
  PetscCall(DRStoreAttrReal(st, mg, "input_work", sb->win));
  PetscCall(DRStoreAttrReal(st, mg, "dissipated", sb->dtot));
  PetscCall(DRStoreAttrReal(st, mg, "energy_end", sb->eend));
  if (!sb->ns) PetscFunctionReturn(PETSC_SUCCESS);
  {
    PetscReal   *iw;
    const char **names;
    PetscCall(PetscMalloc2(sb->ns, &iw, sb->ns, &names));
    for (PetscInt s = 0; s < sb->ns; s++) iw[s] = sb->swork[s] - sb->sext[s], names[s] = sb->name[s];
    PetscCall(DRStoreWriteStrings(st, "/sysred/energy/substructures/names", sb->ns, names));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/activity", 1, ds, sb->sact, "J"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/activity_pct", 1, ds, sb->sact_pct, "%"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/power_2norm", 1, ds, sb->sp2, "W s^0.5"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/power_2norm_pct", 1, ds, sb->sp2_pct, "%"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/work", 1, ds, sb->swork, "J"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/input_work", 1, ds, sb->sext, "J"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/interface_work", 1, ds, iw, "J"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/interface_activity", 1, ds, sb->iact, "J"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/interface_power_2norm", 1, ds, sb->ip2, "W s^0.5"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/dissipated", 1, ds, sb->sdiss, "J"));
    PetscCall(DRStoreWriteReal(st, "/sysred/energy/substructures/energy_end", 1, ds, sb->senergy, "J"));
    PetscCall(PetscFree2(iw, names));
  }
  PetscCall(DRStoreAttrString(st, sg, "power", "P_s = v_s^T f_s over the substructure's DOFs, f_s = the input and interface forces on it = M_s a + D_s v + K_s q there (modal damping force M Phi C eta' split by mass); interface = P_s - input power on its DOFs (an input on a shared DOF counts for the first component holding it); work = energy_end + dissipated"));
  PetscCall(DRStoreAttrString(st, sg, "cms", sb->cms));
  PetscCall(DRStoreAttrReal(st, sg, "mass_partition_defect", sb->mpart));
  PetscCall(DRStoreAttrReal(st, sg, "stiffness_partition_defect", sb->kpart));
  PetscFunctionReturn(PETSC_SUCCESS);
}
