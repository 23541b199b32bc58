/* Error estimate of every CMS mode without the full-model solve.
 *
 * CMS is a Rayleigh-Ritz method: the Ritz values theta_k of the coupled
 * system bound the exact eigenvalues from above (theta_k >= lambda_k).  For a
 * Ritz pair (theta, u), u^T M u = 1, with residual r = K u - theta M u,
 *   eta^2 = r^T K^{-1} r / u^T K u = r^T K^{-1} r / theta
 * is the relative residual of the equivalent standard problem K^{-1} M in
 * the K inner product (eigenvalues 1/lambda).  Two classical bounds follow
 * (Parlett, The Symmetric Eigenvalue Problem, 1998, ch. 10-11; Knyazev,
 * Math. Comp. 1997, for the block form):
 *   first order   min_j |theta - lambda_j| / lambda_j <= eta,
 *   Kato-Temple   |theta - lambda| / lambda <= eta^2 / delta,
 * delta the relative gap |theta / lambda_i - 1| to the other eigenvalues.
 * The quadratic one is the tight one (CMS errors are O(eta^2)), but it needs
 * the exact neighbours, which are unknown: we take them from the Ritz values
 * of the coupled system, moved to the side where they can mislead.  An
 * upper neighbour's exact eigenvalue may lie below its Ritz value, so its
 * gap is taken to its estimated lower end theta_i / (1 + e_i) (e_i its own
 * estimate, from the top down; the first-order e_i = eta_i would make this
 * rigorous but the top modes' estimates 30-80x too large); a lower
 * neighbour only moves further away.  Modes
 * whose intervals [theta / (1 + eta), theta] overlap form a cluster (close
 * pairs such as the 823.05 / 823.37 Hz pair of the issue): the block form
 * bounds the cluster's errors by sum_cluster eta_j^2 / delta_cluster, with
 * the gap to the Ritz values outside it.  The estimate of a mode is the
 * smaller of that and its first-order bound; in frequency,
 * 100 (sqrt(1 + e) - 1) percent.  The coupled solve computes at least
 * one mode above the reported ones; only when the reduced system has no
 * more (every one of its modes reported) the top cluster has no upper gap,
 * and then no bound on its k-th error either (the first-order bound holds
 * for the nearest eigenvalue, which may be another): its estimate is
 * infinite, which the refinement answers with more component modes.
 *
 * r^T K^{-1} r without the full model: by static condensation
 *   K^{-1} = blkdiag_c(K_II^{-1}, 0) + Psi S^{-1} Psi^T,
 * Psi = [-K_II^{-1} K_IB; I] the constraint modes, S the assembled Schur
 * complement on the boundary (the boundary block of the assembled
 * Craig-Bampton matrix, c->Kred).  So r^T K^{-1} r = sum_c r_I^T K_II^{-1} r_I
 * + g^T S^{-1} g with g = Psi^T r: each component computes its part with the
 * K_II factorization it holds (reduce/residual.c), the root adds the
 * boundary term (zero up to round-off when every constraint mode is kept:
 * the Galerkin condition; it carries the interface truncation when the
 * interface is reduced).  The split is a property of the Ritz pair and the
 * full operators, not of the basis that produced u: a free-interface
 * component (reduce/free_interface.c) gives its part the same way, with a
 * K_II factorization made for the estimate only (one MUMPS factorization,
 * on the first estimate, kept for the later rounds) and its own T for u.
 * Its basis holds residual-flexibility attachments, not the static
 * constraint modes, so its boundary term is no round-off but part of its
 * error, and the assembled boundary block of c->Kred is not S: with such a
 * component in the assembly the root sums S from the components' S_c
 * (DRReductionBoundarySchur: a Craig-Bampton part's reduced boundary block,
 * a free-interface part's K_BB - K_BI K_II^{-1} K_IB by one block solve).
 * Guyan, IRS and SEREP components have no estimate (said in the log).
 *
 * The share of component k in mode j's eta^2 (its r_I part) tells the
 * refinement (cms.c) which components to enrich; the boundary term's share
 * (interface reduced before the projection) whether to add CC modes. */
#include "cmsimpl.h"
#include <petscblaslapack.h>
#include <math.h>

/* Root: boundary term g_j^T S^{-1} g_j for the ncol columns of g (nb x ncol)
 * by a Cholesky factorization of S (nb x nb, overwritten); *ok false when S
 * is not definite (a floating assembly: its rigid modes are in every CMS
 * basis, g has no component along them).  Then, with pinv (S assembled from
 * the components' S_c, free-interface ones among them: their boundary term
 * is no round-off but the error of the residual-flexibility attachment), the
 * term is taken on the range of S (its eigenvalues above 1e-10 of the
 * largest: the rigid ones are round-off of O(eps kappa), kappa <= 1e5 here);
 * without (Craig-Bampton), the caller deflates the rigid-body modes
 * (FloatingBoundaryTerm: the term is the interface truncation when the
 * interface is reduced, and round-off otherwise). */
static PetscErrorCode BoundaryTerm(PetscInt nb, PetscReal *S, PetscBool pinv, PetscBool factored, PetscInt ncol, const PetscReal *g, PetscReal *term, PetscBool *ok)
{
  PetscReal   *y, *S0 = NULL;
  PetscBLASInt n, nrhs, info;

  PetscFunctionBeginUser;
  *ok = PETSC_TRUE;
  for (PetscInt j = 0; j < ncol; j++) term[j] = 0;
  if (nb == 0 || ncol == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(nb * ncol, &y));
  if (pinv) {
    PetscCall(PetscMalloc1(nb * nb, &S0));
    PetscCall(PetscArraycpy(S0, S, nb * nb));
  }
  PetscCall(PetscArraycpy(y, g, nb * ncol));
  PetscCall(PetscBLASIntCast(nb, &n));
  PetscCall(PetscBLASIntCast(ncol, &nrhs));
  if (factored) info = 0; /* S holds its Cholesky factor already */
  else LAPACKpotrf_("L", &n, S, &n, &info);
  if (info == 0) {
    LAPACKpotrs_("L", &n, &nrhs, S, &n, y, &n, &info);
    for (PetscInt j = 0; j < ncol; j++)
      for (PetscInt i = 0; i < nb; i++) term[j] += g[i + j * nb] * y[i + j * nb];
  } else if (pinv) {
    PetscReal   *w, *work, wmax = 0;
    PetscBLASInt lwork = 3 * n + 1;
    PetscCall(PetscMalloc2(nb, &w, lwork, &work));
    LAPACKsyev_("V", "L", &n, S0, &n, w, work, &lwork, &info);
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "dsyev of the assembled boundary Schur complement failed: info %d", (int)info);
    for (PetscInt i = 0; i < nb; i++) wmax = PetscMax(wmax, PetscAbsReal(w[i]));
    for (PetscInt i = 0; i < nb; i++) {
      if (w[i] <= 1e-10 * wmax) continue;
      for (PetscInt j = 0; j < ncol; j++) {
        PetscReal d = 0;
        for (PetscInt l = 0; l < nb; l++) d += S0[l + i * nb] * g[l + j * nb];
        term[j] += d * d / w[i];
      }
    }
    PetscCall(PetscFree2(w, work));
  } else *ok = PETSC_FALSE;
  PetscCall(PetscFree(S0));
  PetscCall(PetscFree(y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* LAPACK's pivoted Cholesky of a semidefinite matrix (LAPACK 3.2; not in
 * petscblaslapack.h) */
extern void dpstrf_(const char *, const PetscBLASInt *, PetscReal *, const PetscBLASInt *, PetscBLASInt *, PetscBLASInt *, const PetscReal *, PetscReal *, PetscBLASInt *, size_t);

/* Root: the boundary term of a floating assembly, S (nb x nb, intact, not
 * changed) singular with the rigid-body modes of the assembly in its null
 * space; lam: the ncol lowest Ritz values of the coupled system.
 *
 * Why the term is still the one the estimate needs.  K is singular, its
 * null space R the rigid-body motions.  Every CMS basis holds R (the static
 * extension of a rigid boundary motion is the rigid motion of each part:
 * K_c R = 0), so the elastic Ritz vectors u are M-orthogonal to R and
 * R^T r = R^T K u - theta R^T M u = 0.  On the M-orthogonal complement of R
 * the pencil (K, M) is definite and has the elastic eigenvalues of the
 * assembly: the bounds at the top of the file hold there, with
 * r^T K^- r for the inverse on that space.  Because r lies in range(K),
 * r^T X r is the same for every generalized inverse X of K (r = K a:
 * r^T X r = a^T K X K a = a^T K a).  The static condensation
 * K = L blkdiag(K_II, S) L^T gives one: X = L^-T blkdiag(K_II^-1, S^-) L^-1
 * for any generalized inverse S^- of S (K X K = K).  The null space of S is
 * R_B, the rigid motions on the boundary (R = Psi R_B), and
 * R_B^T g = R^T r = 0 with g = Psi^T r: g lies in range(S), so g^T S^- g is
 * again independent of the choice of S^-.  The interior parts stay as they
 * are (the K_II are definite: each part is held by its boundary), and the
 * sum is the eta^2 of the definite elastic problem: the estimate of a
 * floating assembly is what it is for a supported one.
 *
 * The generalized inverse taken: S^- = P [S_11^-1, 0; 0, 0] P^T, S_11 the
 * principal submatrix on nb - nnull boundary DOFs chosen by the complete
 * pivoting of a Cholesky factorization (LAPACK dpstrf): the floating
 * structure held at a statically determinate set of its boundary DOFs (as
 * FETI does for its floating subdomains: Farhat and Roux, Int. J. Numer.
 * Meth. Engng 32, 1991).  nnull: the pivots left below 1e-10 of the largest
 * diagonal entry (the threshold of the eigenvalue form in BoundaryTerm: the
 * rigid pivots are round-off, O(eps kappa), kappa <= 1e5 here).  Those null
 * directions must be rigid-body modes: the coupled system must have as many
 * Ritz values at zero, the lowest nnull below 1e-6 of the next (a rigid
 * Ritz value is round-off of eps ||K_red|| / ||M_red||, 1e-11 of the first
 * elastic one in the plate and the beam of cms_estimate_float.sh).  Else (a
 * mechanism, or an elastic stiffness below the threshold) *ok is false and
 * the caller says the term is left out. */
static PetscErrorCode FloatingBoundaryTerm(PetscInt nb, const PetscReal *S, PetscInt ncol, const PetscReal lam[], const PetscReal *g, PetscReal *term, PetscBool *ok)
{
  PetscReal   *L, *work, *y, tol = 0;
  PetscBLASInt n, rank = 0, info = 0, *piv, nrhs;
  PetscInt     nnull;

  PetscFunctionBeginUser;
  *ok = PETSC_FALSE;
  for (PetscInt j = 0; j < ncol; j++) term[j] = 0;
  if (nb == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscBLASIntCast(nb, &n));
  PetscCall(PetscBLASIntCast(ncol, &nrhs));
  for (PetscInt i = 0; i < nb; i++) tol = PetscMax(tol, S[i + i * nb]);
  tol *= 1e-10;
  PetscCall(PetscMalloc4(nb * nb, &L, 2 * nb, &work, nb, &piv, nb * ncol + 1, &y));
  PetscCall(PetscArraycpy(L, S, nb * nb));
  dpstrf_("L", &n, L, &n, piv, &rank, &tol, work, &info, 1);
  PetscCheck(info >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dpstrf of the assembled boundary Schur complement failed: info %d", (int)info);
  nnull = nb - rank;
  *ok   = (PetscBool)(rank > 0 && nnull < ncol && lam[nnull] > 0);
  for (PetscInt i = 0; *ok && i < nnull; i++) *ok = (PetscBool)(PetscAbsReal(lam[i]) <= 1e-6 * lam[nnull]);
  if (*ok) {
    /* y = L_11^-1 (P^T g)_(1:rank), term = ||y||^2 = g_1^T S_11^-1 g_1 */
    for (PetscInt j = 0; j < ncol; j++)
      for (PetscInt i = 0; i < rank; i++) y[i + j * rank] = g[(piv[i] - 1) + j * nb];
    LAPACKtrtrs_("L", "N", "N", &rank, &nrhs, L, &n, y, &rank, &info);
    PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dtrtrs failed: info %d", (int)info);
    for (PetscInt j = 0; j < ncol; j++) {
      PetscReal t = 0;
      for (PetscInt i = 0; i < rank; i++) t += y[i + j * rank] * y[i + j * rank];
      term[j] = t;
    }
  }
  PetscCall(PetscInfo(NULL, "cms estimate: floating assembly: boundary Schur complement of %" PetscInt_FMT " DOFs, %" PetscInt_FMT " null pivots (pivoted Cholesky)%s\n", nb, nnull, *ok ? ", deflated as rigid-body modes" : ": not as many zero Ritz values, not deflated"));
  PetscCall(PetscFree4(L, work, piv, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: the assembled S on the nb boundary DOFs: the Craig-Bampton boundary
 * block of the assembled system, or Sc (given: assembled from the
 * components' S_c because free-interface ones are among them).  (With the
 * interface reduced before the projection the assembled pencil's S is
 * factored in place in c->Sfull instead: DRCMSRootSchurFactor_Private.) */
static PetscErrorCode AssembledSchur(DRCMS c, const PetscReal *Sc, PetscReal **S)
{
  PetscInt nb = c->nbglob, N = c->nred;

  PetscFunctionBeginUser;
  PetscCheck(!c->iface_early, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the early interface's S is factored in place (c->Sfull)");
  PetscCall(PetscMalloc1(nb * nb + 1, S));
  for (PetscInt j = 0; j < nb; j++)
    for (PetscInt i = 0; i < nb; i++) (*S)[i + j * nb] = Sc ? Sc[i + j * nb] : c->Kred[i + j * N];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: estimates (relative eigenvalue errors) of the nm reported modes from
 * the next Ritz values lam and their eta (see the top of the file).  The
 * lower ends l_i of the exact eigenvalues are built from the top down: the
 * highest computed mode gets its first-order end, every other one the
 * quadratic estimate with the gap to the lower end of the one above (a
 * first-order end for every neighbour, the rigorous choice, makes the top
 * modes' estimates first-order ones: 30-80x too large). */
static PetscErrorCode GapEstimates(PetscInt next, PetscInt nm, const PetscReal lam[], const PetscReal eta[], const PetscBool rigid[], PetscReal est[])
{
  PetscInt   a = 0;
  PetscReal *low;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(next + 1, &low));
  for (PetscInt i = next - 1; i >= 0; i--) {
    PetscReal e = eta[i];
    if (rigid[i]) {
      low[i] = lam[i];
      continue;
    }
    if (i + 1 < next) {
      PetscReal d = 1 - lam[i] / low[i + 1];
      if (d > eta[i]) e = PetscMin(eta[i], eta[i] * eta[i] / d);
    }
    low[i] = lam[i] / (1 + e);
  }
  while (a < nm) {
    PetscInt  b = a;
    PetscReal sum, delta = PETSC_MAX_REAL;
    if (rigid[a]) {
      est[a++] = 0;
      continue;
    }
    /* cluster [a, b]: the next interval [low, theta] overlaps */
    while (b + 1 < next && !rigid[b + 1] && low[b + 1] <= lam[b]) b++;
    sum = 0;
    for (PetscInt j = a; j <= b; j++) sum += eta[j] * eta[j];
    if (b + 1 < next) delta = PetscMin(delta, 1 - lam[b] / low[b + 1]);
    else delta = -1; /* nothing above: the whole reduced spectrum is reported */
    if (a > 0 && !rigid[a - 1]) delta = PetscMin(delta, lam[a] / lam[a - 1] - 1);
    for (PetscInt j = a; j <= b && j < nm; j++) est[j] = delta > 0 ? PetscMin(eta[j], sum / delta) : delta == 0 ? eta[j] : PETSC_INFINITY;
    a = b + 1;
  }
  PetscCall(PetscFree(low));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: the truncation form of the quadratic estimate.  The Galerkin
 * condition makes each component's r_I orthogonal to its kept
 * fixed-interface modes, so r_I lies in the span of the truncated ones,
 * whose eigenvalues are >= lc_k (the component's cutoff, or its highest kept
 * mode).  Second-order perturbation, theta - lambda ~ r^T (K - theta M)^+ r,
 * with the interiors' fixed-interface spectrum standing in for the
 * assembly's gives, relative to theta,
 *   e = sum_k eta_k^2 lc_k / (lc_k - theta) + (boundary term) / theta,
 * eta_k^2 = r_I^T K_II^{-1} r_I / theta of component k: the gap to the
 * truncated spectrum replaces the gap to the neighbouring system mode,
 * which in a dense spectrum (200 modes: neighbours 0.5 % apart) makes the
 * Kato-Temple form 50-100x too large.  A free-interface component's lc_k
 * is the same (its cutoff or highest kept free mode): its residual lies in
 * its truncated free modes, and the residual flexibility only makes the
 * residual smaller, not its spectrum lower; measured (cms_estimate_fi.sh,
 * the plate in 4 up to 3 kHz, free-interface only and mixed, tol_pct 0):
 * estimate / true error 2.1-2.5 in the median, max 2.8-17, never below.
 * Used where every component's lc_k
 * lies above theta (else the Kato-Temple form stays); the smaller of the
 * two is the estimate; modes whose intervals overlap are grouped and share
 * the sum of their estimates.  The stand-in spectrum and the neglected cross terms
 * make it an approximation, not a bound: measured on the cases of
 * tests/e2e/cms_estimate.sh it is 1.00-1.34x the true error in the
 * median, so it is taken twice (DR_CMS_TRUNC_SAFETY), a margin chosen, not
 * derived, that keeps it above the true error with the tightness the issue
 * asks for (within 10x). */
#define DR_CMS_TRUNC_SAFETY 2.0
static PetscErrorCode TruncationEstimates(DRCMS c, PetscInt ncol, const PetscReal eta2c[], const PetscReal term[], const PetscBool rigid[], PetscReal est[])
{
  PetscReal *lc, *e;
  PetscBool *ok;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(c->ncomp + 1, &lc, ncol + 1, &e, ncol + 1, &ok));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    /* the highest mode a component eigensolve found (an enrichment appends
     * its modes; residual corrections are not eigenvectors and do not raise
     * the truncated spectrum's lower end: the gap stays on the safe side) */
    PetscReal top = PetscSqr(2 * PETSC_PI * c->qtop[k]);
    lc[k] = PetscMax(top, PetscSqr(2 * PETSC_PI * c->comp_cut[k]));
  }
  for (PetscInt j = 0; j < ncol; j++) {
    PetscReal th = c->lamext[j];
    ok[j]        = (PetscBool)!rigid[j];
    e[j]         = ok[j] ? term[j] / th : 0;
    /* interface reduced before the projection: the boundary residual lies in
     * the truncated CC modes (eigenvalues >= lcc), the same form */
    if (ok[j] && c->iface_early && term[j] > 0 && c->lcc < PETSC_INFINITY) {
      if (c->lcc <= th) ok[j] = PETSC_FALSE;
      else e[j] *= c->lcc / (c->lcc - th);
    }
    for (PetscInt k = 0; ok[j] && k < c->ncomp; k++) {
      if (eta2c[k * ncol + j] <= 0) continue;
      if (lc[k] <= th) ok[j] = PETSC_FALSE;
      else e[j] += eta2c[k * ncol + j] / th * (lc[k] < PETSC_INFINITY ? lc[k] / (lc[k] - th) : 1); /* a complete interior (qtop infinite): its round-off residual alone */
    }
    e[j] *= DR_CMS_TRUNC_SAFETY;
  }
  /* clusters: modes whose intervals [theta / (1 + e), theta] overlap share
   * the sum of their estimates (a poorly resolved mode among close ones
   * shifts the k-th pairing; the group carries the error) */
  for (PetscInt a = 0; a < c->nm;) {
    PetscInt  b = a;
    PetscReal sum;
    PetscBool all;
    while (b + 1 < ncol && ok[b + 1] && c->lamext[b + 1] / (1 + e[b + 1]) <= c->lamext[b]) b++;
    sum = 0;
    all = PETSC_TRUE;
    for (PetscInt j = a; j <= b; j++) {
      sum += e[j];
      all = (PetscBool)(all && ok[j]);
    }
    for (PetscInt j = a; j <= b && j < c->nm; j++)
      if (all) est[j] = PetscMin(est[j], sum);
    a = b + 1;
  }
  PetscCall(PetscFree3(lc, e, ok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSEstimate_Private(DRCMS c, const PetscReal *Q)
{
  PetscInt    ncol = c->next, ncomp = c->ncomp, nb = c->iface_early ? c->pnbglob : c->nbglob;
  DRLabel    *bglob = c->iface_early ? c->pglob : c->bglob;
  PetscReal  *part, *eta2c, *g, *eta2c_all = NULL, *g_all = NULL;
  PetscReal  *Sloc = NULL, *Sc_all = NULL;
  PetscBool   ok = PETSC_TRUE, fromc = PETSC_FALSE;
  PetscMPIInt grank;
  PetscInt    bad = PETSC_MAX_INT;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Estimate, 0, 0, 0, 0));
  PetscCall(PetscFree(c->est_pct));
  PetscCall(PetscFree(c->share));
  PetscCall(PetscFree(c->ishare));
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  PetscCall(PetscCalloc3(ncol + 1, &part, ncomp * ncol + 1, &eta2c, nb * ncol + 1, &g));
  c->est_noiface = PETSC_FALSE;
  /* S from the components' S_c when the assembled boundary block is not S:
   * a free-interface (or other non-Craig-Bampton) component in the assembly */
  for (PetscInt k = 0; !c->iface_early && k < ncomp; k++) {
    PetscBool cb;
    PetscCall(PetscStrcmp(c->methods[k], "craig-bampton", &cb));
    if (!cb) fromc = PETSC_TRUE;
  }
  if (fromc) PetscCall(PetscCalloc1(nb * nb + 1, &Sloc));
  for (PetscInt i = 0; i < c->nmine; i++) {
    PetscReal     *Qc, *gB;
    PetscBool      sup;
    const DRLabel *bl;
    PetscInt       nbc, k = c->mine[i];
    PetscCall(DRCMSComponentCoordinates_Private(c, i, Q, ncol, &Qc));
    PetscCall(DRReductionResidual(c->red[i], c->comps[i], ncol, Qc, c->lamext, part, &gB, &sup));
    PetscCall(PetscFree(Qc));
    if (!sup) {
      ok  = PETSC_FALSE;
      bad = PetscMin(bad, k);
      continue;
    }
    PetscCall(DRReductionGetPhysicalBoundary(c->red[i], &nbc, &bl));
    if (!grank) {
      for (PetscInt j = 0; j < ncol; j++) eta2c[k * ncol + j] = part[j];
      for (PetscInt b = 0; b < nbc; b++) {
        PetscInt row = DRLabelsFind(nb, bglob, bl[b]);
        for (PetscInt j = 0; j < ncol; j++) g[row + j * nb] += gB[b + j * nbc];
      }
    }
    PetscCall(PetscFree(gB));
    if (fromc) {
      PetscReal *Sc;
      PetscCall(DRReductionBoundarySchur(c->red[i], c->comps[i], &Sc, &sup));
      if (!sup) {
        ok  = PETSC_FALSE;
        bad = PetscMin(bad, k);
        continue;
      }
      if (!grank) {
        PetscInt *rows;
        PetscCall(PetscMalloc1(nbc + 1, &rows));
        for (PetscInt b = 0; b < nbc; b++) rows[b] = DRLabelsFind(nb, bglob, bl[b]);
        for (PetscInt b2 = 0; b2 < nbc; b2++)
          for (PetscInt b = 0; b < nbc; b++) Sloc[rows[b] + rows[b2] * nb] += Sc[b + b2 * nbc];
        PetscCall(PetscFree(rows));
      }
      PetscCall(PetscFree(Sc));
    }
    PetscCall(DRCMSIdle_Private(c, i, PETSC_FALSE)); /* its K_II^{-1} r_I stays for the corrections */
  }
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &ok, 1, MPIU_BOOL, MPI_LAND, c->comm));
  if (!ok) {
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &bad, 1, MPIU_INT, MPI_MIN, c->comm));
    PetscCall(DRProgress(c->comm, "cms: no error estimate: it needs a K_II factorization (craig-bampton, free-interface); component '%s' (%s) has none", c->names[bad], c->methods[bad]));
  } else {
    if (!c->rank) PetscCall(PetscMalloc2(ncomp * ncol + 1, &eta2c_all, nb * ncol + 1, &g_all));
    PetscCallMPI(MPI_Reduce(eta2c, eta2c_all, (PetscMPIInt)(ncomp * ncol), MPIU_REAL, MPIU_SUM, 0, c->comm));
    PetscCallMPI(MPI_Reduce(g, g_all, (PetscMPIInt)(nb * ncol), MPIU_REAL, MPIU_SUM, 0, c->comm));
    if (fromc) {
      if (!c->rank) PetscCall(PetscMalloc1(nb * nb + 1, &Sc_all));
      PetscCallMPI(MPI_Reduce(Sloc, Sc_all, (PetscMPIInt)(nb * nb), MPIU_REAL, MPIU_SUM, 0, c->comm));
    }
    PetscCall(PetscMalloc1(c->nm + 1, &c->est_pct));
    PetscCall(PetscCalloc1(ncomp * c->nm + 1, &c->share));
    PetscCall(PetscCalloc1(c->nm + 1, &c->ishare));
    if (!c->rank) {
      PetscReal *term, *eta, *est, tk = 0, tm = 0, zero;
      PetscBool *rigid, sok;
      PetscCall(PetscMalloc4(ncol + 1, &term, ncol + 1, &eta, ncol + 1, &est, ncol + 1, &rigid));
      /* zero eigenvalues: |lambda| below 1e-6 of the shift scale
       * 1e-8 trace(K)/trace(M) of the coupled system, as DRModal decides */
      for (PetscInt i = 0; i < c->nred; i++) {
        tk += c->Kred[i * (c->nred + 1)];
        tm += c->Mred[i * (c->nred + 1)];
      }
      zero = 1e-6 * 1e-8 * PetscAbsReal(tk / tm);
      /* rigid-body modes: in every CMS basis, exact */
      for (PetscInt j = 0; j < ncol; j++) rigid[j] = (PetscBool)(c->lamext[j] <= zero);
      if (c->iface_early && !fromc) {
        /* the interface pencil's S does not change between the rounds:
         * its Cholesky factor is kept, in place (iface_early.c) */
        if (!c->Sfac_state) PetscCall(DRCMSRootSchurFactor_Private(c));
        if (c->Sfac_state > 0) PetscCall(BoundaryTerm(nb, c->Sfull, PETSC_FALSE, PETSC_TRUE, ncol, g_all, term, &sok));
        else PetscCall(FloatingBoundaryTerm(nb, c->Sfull, ncol, c->lamext, g_all, term, &sok)); /* not definite: Sfull intact */
      } else {
        PetscReal *S;
        PetscCall(AssembledSchur(c, Sc_all, &S));
        PetscCall(BoundaryTerm(nb, S, fromc, PETSC_FALSE, ncol, g_all, term, &sok));
        PetscCall(PetscFree(S));
        if (!sok) { /* a floating Craig-Bampton assembly: S again (the failed Cholesky overwrote it), its rigid-body modes deflated */
          PetscCall(AssembledSchur(c, Sc_all, &S));
          PetscCall(FloatingBoundaryTerm(nb, S, ncol, c->lamext, g_all, term, &sok));
          PetscCall(PetscFree(S));
        }
      }
      if (!sok) {
        for (PetscInt j = 0; j < ncol; j++) term[j] = 0;
        c->est_noiface = PETSC_TRUE;
        if (!c->est_warned) PetscCall(PetscFPrintf(PETSC_COMM_SELF, PETSC_STDOUT, "dynred: warning: cms: the assembled boundary Schur complement is singular beyond the rigid-body modes of the coupled system, so the interface-truncation term is left out: the estimate is not an upper estimate for this job\n"));
        c->est_warned = PETSC_TRUE;
      }
      for (PetscInt j = 0; j < ncol; j++) {
        PetscReal e2 = term[j];
        for (PetscInt k = 0; k < ncomp; k++) e2 += eta2c_all[k * ncol + j];
        eta[j]   = rigid[j] ? 0 : PetscSqrtReal(PetscMax(e2, 0) / c->lamext[j]);
        for (PetscInt k = 0; j < c->nm && k < ncomp; k++) c->share[k * c->nm + j] = e2 > 0 ? eta2c_all[k * ncol + j] / e2 : 0;
        /* the boundary term: the interface truncation (zero up to round-off
         * when every boundary coordinate is kept) */
        if (j < c->nm && c->iface_early) c->ishare[j] = e2 > 0 ? term[j] / e2 : 0;
      }
      PetscCall(GapEstimates(ncol, c->nm, c->lamext, eta, rigid, est));
      PetscCall(TruncationEstimates(c, ncol, eta2c_all, term, rigid, est));
      for (PetscInt j = 0; j < c->nm; j++) c->est_pct[j] = est[j] >= PETSC_INFINITY ? (PetscReal)INFINITY : 100 * (PetscSqrtReal(1 + est[j]) - 1);
      PetscCall(PetscFree4(term, eta, est, rigid));
    }
    PetscCallMPI(MPI_Bcast(c->est_pct, (PetscMPIInt)c->nm, MPIU_REAL, 0, c->comm));
    PetscCallMPI(MPI_Bcast(c->share, (PetscMPIInt)(ncomp * c->nm), MPIU_REAL, 0, c->comm));
    PetscCallMPI(MPI_Bcast(c->ishare, (PetscMPIInt)c->nm, MPIU_REAL, 0, c->comm));
    if (!c->rank) PetscCall(PetscFree2(eta2c_all, g_all));
    PetscCall(PetscFree(Sc_all));
  }
  PetscCall(PetscFree(Sloc));
  PetscCall(PetscFree3(part, eta2c, g));
  PetscCall(PetscLogEventEnd(DRCMS_Estimate, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
