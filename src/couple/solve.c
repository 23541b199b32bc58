/* CMS coupled solve of the assembled reduced system on world rank 0 (dense,
 * DRDenseEigen) up to cms.dense_max coordinates, distributed with SLEPc
 * (DRModal) beyond; optionally after the interface reduction of the
 * assembled boundary by characteristic constraint modes. */
#include "cmsimpl.h"
#include <dynred/modal.h>
#include <dynred/eigen.h>
#include <dynred/preflight.h>
#include <petscblaslapack.h>

/* Interface reduction (root): characteristic constraint (CC) modes of the
 * assembled boundary problem K_BB psi = w^2 M_BB psi (the boundary blocks of
 * the assembled reduced system: the Guyan-condensed interface matrices of
 * the whole assembly), the lowest ncc kept as Psi (M_BB-normalized), and the
 * coupled system transformed with R = blkdiag(Psi, I_modal):
 *   K2 = R^T Kred R = [ Psi^T K_BB Psi   Psi^T K_Bq ]   (same for M),
 *                     [ sym              K_qq       ]
 * a Galerkin projection of the assembled system (so the Rayleigh-Ritz bound
 * still holds).  K2, M2: (ncc + nq)^2, column-major. */
static PetscErrorCode InterfaceReduce(DRCMS c, PetscReal **K2out, PetscReal **M2out)
{
  PetscInt   nb = c->nbglob, N = c->nred, nq = N - nb, nc, N2;
  PetscReal *KBB, *MBB, *lam, *X, *W, *K2, *M2;
  PetscReal  one = 1, zero = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(nb * nb + 1, &KBB, nb * nb + 1, &MBB, nb + 1, &lam, nb * nb + 1, &X));
  for (PetscInt j = 0; j < nb; j++)
    for (PetscInt i = 0; i < nb; i++) {
      KBB[i + j * nb] = c->Kred[i + j * N];
      MBB[i + j * nb] = c->Mred[i + j * N];
    }
  PetscCall(DRDenseEigen(nb, KBB, MBB, c->iface_modes, PetscSqr(2 * PETSC_PI * c->iface_factor * c->fmax), &nc, lam, X));
  c->ncc = nc;
  N2     = nc + nq;
  PetscCall(PetscMalloc1(nb * nc + 1, &c->Psi));
  PetscCall(PetscArraycpy(c->Psi, X, nb * nc));
  PetscCall(PetscMalloc1(nc + 1, &c->ccfreq));
  for (PetscInt k = 0; k < nc; k++) c->ccfreq[k] = (lam[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(lam[k])) / (2 * PETSC_PI);
  PetscCall(PetscCalloc1(N2 * N2 + 1, &K2));
  PetscCall(PetscCalloc1(N2 * N2 + 1, &M2));
  PetscCall(PetscMalloc1(nb * nc + 1, &W));
  for (int pass = 0; pass < 2; pass++) {
    const PetscReal *A = pass ? c->Mred : c->Kred, *ABB = pass ? MBB : KBB;
    PetscReal       *A2 = pass ? M2 : K2;
    if (nc > 0 && nb > 0) {
      PetscBLASInt mb, mc, lda, ld2;
      PetscCall(PetscBLASIntCast(nb, &mb));
      PetscCall(PetscBLASIntCast(nc, &mc));
      PetscCall(PetscBLASIntCast(N, &lda));
      PetscCall(PetscBLASIntCast(N2, &ld2));
      /* W = A_BB Psi; A2_cc = Psi^T W */
      BLASgemm_("N", "N", &mb, &mc, &mb, &one, ABB, &mb, c->Psi, &mb, &zero, W, &mb);
      BLASgemm_("T", "N", &mc, &mc, &mb, &one, c->Psi, &mb, W, &mb, &zero, A2, &ld2);
      /* A2_cq = Psi^T A_Bq */
      if (nq > 0) {
        PetscBLASInt mq;
        PetscCall(PetscBLASIntCast(nq, &mq));
        BLASgemm_("T", "N", &mc, &mq, &mb, &one, c->Psi, &mb, A + nb * N, &lda, &zero, A2 + nc * N2, &ld2);
      }
    }
    /* exact symmetry of the CC block; A2_qc = A2_cq^T; A2_qq = A_qq */
    for (PetscInt j = 0; j < nc; j++)
      for (PetscInt i = 0; i < j; i++) A2[i + j * N2] = A2[j + i * N2] = 0.5 * (A2[i + j * N2] + A2[j + i * N2]);
    for (PetscInt j = 0; j < nq; j++)
      for (PetscInt i = 0; i < nc; i++) A2[nc + j + i * N2] = A2[i + (nc + j) * N2];
    for (PetscInt j = 0; j < nq; j++)
      for (PetscInt i = 0; i < nq; i++) A2[nc + i + (nc + j) * N2] = A[nb + i + (nb + j) * N];
  }
  PetscCall(PetscFree(W));
  PetscCall(PetscFree4(KBB, MBB, lam, X));
  *K2out = K2;
  *M2out = M2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* From the c->next computed eigenvalues lam (ascending): c->lamext, and the
 * reported modes c->nm, c->freq (those up to fmax, or the lowest nmodes). */
static PetscErrorCode SetReported(DRCMS c, const PetscReal lam[])
{
  PetscReal lmax = PetscSqr(2 * PETSC_PI * c->fmax);

  PetscFunctionBeginUser;
  if (lam != c->lamext) {
    PetscCall(PetscFree(c->lamext));
    PetscCall(PetscMalloc1(c->next + 1, &c->lamext));
    PetscCall(PetscArraycpy(c->lamext, lam, c->next));
  }
  PetscCall(PetscFree(c->freq));
  c->nm = 0;
  if (c->fmax > 0)
    while (c->nm < c->next && lam[c->nm] <= lmax) c->nm++;
  else c->nm = PetscMin(c->nmodes, c->next);
  PetscCall(PetscMalloc1(c->nm + 1, &c->freq));
  for (PetscInt k = 0; k < c->nm; k++) c->freq[k] = (lam[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(lam[k])) / (2 * PETSC_PI);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root, after the dense coupled solve found K_r - sigma M_r not positive
 * definite at the leading minor of order `minor`: that coordinate named by
 * what it belongs to in the assembled layout (the boundary union, then each
 * component's modal coordinates); an input error. */
static PetscErrorCode StiffnessFailure(DRCMS c, PetscInt N, PetscInt minor)
{
  PetscInt i = minor - 1, off = c->nbglob;
  char     lb[32];

  PetscFunctionBeginUser;
  if (N == c->nred && i >= c->nbglob)
    for (PetscInt k = 0; k < c->ncomp; off += c->nq[k++])
      if (i < off + c->nq[k]) SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "component '%s': the coupled reduced stiffness matrix is not positive semidefinite at its modal coordinate %" PetscInt_FMT ", expected a semidefinite K and a definite M (check K and M of component '%s': an indefinite K, or entries spread over too many orders of magnitude for double precision)", c->names[k], i - off + 1, c->names[k]);
  if (N == c->nred && !c->iface_early && i >= 0 && i < c->nbglob) SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "the coupled reduced stiffness matrix is not positive semidefinite at the boundary DOF %s, expected a semidefinite K and a definite M (check the parts sharing it: an indefinite K, or entries spread over too many orders of magnitude for double precision)", DRLabelString(c->bglob[i], lb));
  SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "the coupled reduced stiffness matrix is not positive semidefinite (at coordinate %" PetscInt_FMT " of %" PetscInt_FMT "), expected a semidefinite K and a definite M (an indefinite K, or entries spread over too many orders of magnitude for double precision)", minor, N);
}

/* Root: the wanted modes of the N x N pencil and a few above them (the gaps
 * of the error estimate); c->next, c->nm, c->freq, Q (N x N). */
static PetscErrorCode RootDenseSolve(DRCMS c, PetscInt N, const PetscReal *Kr, const PetscReal *Mr, PetscReal **Q)
{
  PetscReal     *w;
  PetscInt       minor;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(N + 1, &w));
  PetscCall(PetscMalloc1(N * N + 1, Q));
  PetscCall(DRDenseEigenMinor(N, Kr, Mr, c->fmax > 0 ? 0 : PetscMin(N, c->nmodes + DR_CMS_EXTRA_MODES), PetscSqr(2 * PETSC_PI * DR_CMS_EXTRA_RANGE * c->fmax), &c->next, w, *Q, &minor));
  if (minor) PetscCall(PetscFree(w));
  if (minor) PetscCall(StiffnessFailure(c, N, minor)); /* the one input failure of the dense solve (dpotrf of K - sigma M) */
  if (c->fmax > 0 && c->next < N && w[c->next - 1] <= PetscSqr(2 * PETSC_PI * c->fmax)) /* none above fmax in the window: one more */
    PetscCall(DRDenseEigen(N, Kr, Mr, c->next + 1, 0, &c->next, w, *Q));
  PetscCall(SetReported(c, w));
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The AIJ matrix of the root's column-major N x N array A on c->comm, its
 * rows preallocated exactly (the root counts each row's diagonal- and
 * off-diagonal-block entries and scatters the counts) and inserted a row at
 * a time: without preallocation each insertion shifts the row, quadratic
 * in N (a 12558 x 12558 Craig-Bampton system did not finish in minutes). */
static PetscErrorCode CreatePreallocated(DRCMS c, PetscInt N, const PetscReal *A, Mat *X)
{
  PetscInt    nloc = PETSC_DECIDE, Nn = N, *dn = NULL, *on = NULL, *dl, *ol, *cols = NULL;
  PetscMPIInt size, nl, *cnt = NULL, *dsp = NULL;
  PetscReal  *vals = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(c->comm, &size));
  PetscCall(PetscSplitOwnership(c->comm, &nloc, &Nn));
  PetscCall(PetscMPIIntCast(nloc, &nl));
  if (!c->rank) PetscCall(PetscMalloc4(size, &cnt, size + 1, &dsp, N + 1, &dn, N + 1, &on));
  PetscCallMPI(MPI_Gather(&nl, 1, MPI_INT, cnt, 1, MPI_INT, 0, c->comm));
  if (!c->rank) {
    PetscInt r = 0;
    dsp[0] = 0;
    for (PetscMPIInt q = 0; q < size; q++) dsp[q + 1] = dsp[q] + cnt[q];
    for (PetscInt i = 0; i < N; i++) {
      while (i >= dsp[r + 1]) r++;
      dn[i] = on[i] = 0;
      for (PetscInt j = 0; j < N; j++)
        if (A[i + j * N] != 0) {
          if (j >= dsp[r] && j < dsp[r + 1]) dn[i]++;
          else on[i]++;
        }
    }
  }
  PetscCall(PetscMalloc2(nloc + 1, &dl, nloc + 1, &ol));
  PetscCallMPI(MPI_Scatterv(dn, cnt, dsp, MPIU_INT, dl, nl, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Scatterv(on, cnt, dsp, MPIU_INT, ol, nl, MPIU_INT, 0, c->comm));
  PetscCall(MatCreateAIJ(c->comm, nloc, nloc, N, N, 0, dl, 0, ol, X));
  PetscCall(PetscFree2(dl, ol));
  if (!c->rank) {
    PetscCall(PetscMalloc2(N + 1, &cols, N + 1, &vals));
    for (PetscInt i = 0; i < N; i++) {
      PetscInt nc = 0;
      for (PetscInt j = 0; j < N; j++)
        if (A[i + j * N] != 0) { cols[nc] = j; vals[nc++] = A[i + j * N]; }
      PetscCall(MatSetValues(*X, 1, &i, nc, cols, vals, INSERT_VALUES));
    }
    PetscCall(PetscFree2(cols, vals));
    PetscCall(PetscFree4(cnt, dsp, dn, on));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Distributed: the root inserts the assembled entries, SLEPc solves; the
 * modes are scattered back to the root (Q: N x nm there). */
static PetscErrorCode DistributedSolve(DRCMS c, PetscInt N, const PetscReal *Kr, const PetscReal *Mr, PetscReal **Qout)
{
  Mat              K, M;
  DRModal          modal;
  const PetscReal *lam;
  Vec             *v;
  PetscReal       *Q = NULL;

  PetscFunctionBeginUser;
  PetscCall(CreatePreallocated(c, N, Kr, &K));
  PetscCall(CreatePreallocated(c, N, Mr, &M));
  PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(K, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
  PetscCall(DRModalCreate(c->comm, &modal));
  PetscCall(DRModalSetOptionsPrefix(modal, "cms_"));
  PetscCall(DRModalSetOperators(modal, K, M, "reduced system"));
  PetscCall(DRModalSetRange(modal, c->fmax > 0 ? 0 : PetscMin(N, c->nmodes + DR_CMS_EXTRA_MODES), DR_CMS_EXTRA_RANGE * c->fmax));
  PetscCall(DRModalSetFromOptions(modal));
  PetscCall(DRModalSolve(modal));
  PetscCall(DRModalGetModes(modal, &c->next, NULL, &lam, &v, NULL));
  if (c->fmax > 0 && c->next < N && (c->next == 0 || lam[c->next - 1] <= PetscSqr(2 * PETSC_PI * c->fmax))) { /* none above fmax in the window: one more */
    PetscCall(DRModalSetRange(modal, c->next + 1, 0));
    PetscCall(DRModalSetFromOptions(modal));
    PetscCall(DRModalSolve(modal));
    PetscCall(DRModalGetModes(modal, &c->next, NULL, &lam, &v, NULL));
  }
  PetscCall(SetReported(c, lam));
  if (!c->rank) PetscCall(PetscMalloc1(N * c->next + 1, &Q));
  for (PetscInt k = 0; k < c->next; k++) {
    Vec        z;
    VecScatter sc;
    PetscCall(VecScatterCreateToZero(v[k], &sc, &z));
    PetscCall(VecScatterBegin(sc, v[k], z, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, v[k], z, INSERT_VALUES, SCATTER_FORWARD));
    if (!c->rank) {
      const PetscScalar *a;
      PetscCall(VecGetArrayRead(z, &a));
      for (PetscInt i = 0; i < N; i++) Q[i + k * N] = PetscRealPart(a[i]);
      PetscCall(VecRestoreArrayRead(z, &a));
    }
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&z));
  }
  PetscCall(DRModalDestroy(&modal));
  PetscCall(MatDestroy(&K));
  PetscCall(MatDestroy(&M));
  *Qout = Q;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Above dense_max the root still solves densely when a quarter or more of
 * the N modes are wanted (cms.nmodes without fmax) and the dense solve fits
 * in the root's memory: SLEPc then needs a basis of about 2 x nmodes vectors
 * and restarts, dearer than the whole dense spectrum (the 12558-coordinate
 * CMS chain of bench/README.md "sysred: dense vs low-rank Gramians", 10000 modes: SLEPc still running after
 * 17 min, dense dsyevr 435 s).  Memory: Kr and Mr are held already; the
 * dense path adds Q and DRDenseEigen's copies and workspace, about
 * 5 N^2 doubles, allowed up to 80 % of the node's available memory. */
static PetscErrorCode DenseAnyway(DRCMS c, PetscInt N, PetscBool *dense)
{
  PetscReal   avail = 0, need = 5.0 * (PetscReal)N * (PetscReal)N * sizeof(PetscReal) / 1048576.0;
  const char *src;
  PetscInt    want = PetscMin(N, c->nmodes + DR_CMS_EXTRA_MODES);

  PetscFunctionBeginUser;
  *dense = PETSC_FALSE;
  if (c->fmax > 0 || 4 * want < N) PetscFunctionReturn(PETSC_SUCCESS);
  if (!c->rank) PetscCall(DRMemoryNodeAvailable(c->cfg, &avail, &src));
  PetscCallMPI(MPI_Bcast(&avail, 1, MPIU_REAL, 0, c->comm));
  *dense = (PetscBool)(need <= 0.8 * avail);
  PetscCall(DRProgress(c->comm, "cms: coupled system of %" PetscInt_FMT " coordinates, %" PetscInt_FMT " modes wanted (a quarter or more): %s (dense_max %" PetscInt_FMT "; the dense solve needs about %.0f MiB, %.0f MiB available)", N, want, *dense ? "solved densely on the root" : "distributed (the dense solve does not fit)", c->dense_max, (double)need, (double)avail));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Eigenproblem of an N x N reduced system (K, M column-major, root only):
 * dense on the root up to dense_max (or beyond it, DenseAnyway), else
 * distributed with SLEPc.  Sets c->nm and c->freq on every rank; Q (N x nm,
 * column-major) on the root only (NULL elsewhere). */
static PetscErrorCode SolveSystem(DRCMS c, PetscInt N, const PetscReal *Kr, const PetscReal *Mr, PetscReal **Qout)
{
  PetscBool dense = (PetscBool)(N <= c->dense_max);

  PetscFunctionBeginUser;
  *Qout = NULL;
  if (!dense) PetscCall(DenseAnyway(c, N, &dense));
  if (dense) {
    PetscErrorCode ierr = PETSC_SUCCESS;
    if (!c->rank) ierr = RootDenseSolve(c, N, Kr, Mr, Qout);
    PetscCall(DRRootAgree(c->comm, ierr));
    PetscCallMPI(MPI_Bcast(&c->next, 1, MPIU_INT, 0, c->comm));
    if (c->rank) {
      PetscCall(PetscFree(c->lamext));
      PetscCall(PetscMalloc1(c->next + 1, &c->lamext));
    }
    PetscCallMPI(MPI_Bcast(c->lamext, (PetscMPIInt)c->next, MPIU_REAL, 0, c->comm));
    if (c->rank) PetscCall(SetReported(c, c->lamext));
  } else PetscCall(DistributedSolve(c, N, Kr, Mr, Qout));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: back to the assembled coordinates q_B = Psi q'_c, q_q = q'_q. */
static PetscErrorCode InterfaceExpand(DRCMS c, const PetscReal *Q2, PetscReal **Qout)
{
  PetscInt   N = c->nred, nb = c->nbglob, nc = c->ncc, nq = N - nb, N2 = c->ncoupled;
  PetscReal *Q;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(N * c->next + 1, &Q));
  if (nb > 0 && c->next > 0) {
    PetscBLASInt mb, mm, mc, ld2;
    PetscReal    one = 1, zero = 0;
    PetscCall(PetscBLASIntCast(nb, &mb));
    PetscCall(PetscBLASIntCast(c->next, &mm));
    PetscCall(PetscBLASIntCast(nc, &mc));
    PetscCall(PetscBLASIntCast(N2, &ld2));
    if (nc > 0) {
      PetscBLASInt ldq;
      PetscCall(PetscBLASIntCast(N, &ldq));
      BLASgemm_("N", "N", &mb, &mm, &mc, &one, c->Psi, &mb, Q2, &ld2, &zero, Q, &ldq);
    } else
      for (PetscInt m = 0; m < c->next; m++) PetscCall(PetscArrayzero(Q + m * N, nb));
  }
  for (PetscInt m = 0; m < c->next; m++)
    for (PetscInt i = 0; i < nq; i++) Q[nb + i + m * N] = Q2[nc + i + m * N2];
  *Qout = Q;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Coupled reduced system (optionally after interface reduction) solved on
 * the root or distributed.  Q: nred x next full reduced coordinates (the
 * nm reported modes first, then the few above them for the estimate)
 * (q = R q' when the interface was reduced), column-major, on every rank,
 * signed by the one mode-sign rule (DRModeSignFix). */
PetscErrorCode DRCMSCoupledSolve_Private(DRCMS c, PetscReal **Qout)
{
  PetscReal *Q = NULL, *Q2 = NULL, *K2 = NULL, *M2 = NULL;
  PetscInt   N = c->nred;
  PetscBool  reduce = (c->iface && !c->iface_early && c->nbglob > 0) ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Coupled, 0, 0, 0, 0));
  c->ncoupled = N;
  if (!c->iface_early) c->ncc = 0;
  if (reduce) {
    PetscErrorCode ierr = PETSC_SUCCESS;
    PetscCall(PetscLogEventBegin(DRCMS_IfaceReduce, 0, 0, 0, 0));
    if (!c->rank) ierr = InterfaceReduce(c, &K2, &M2);
    PetscCall(DRRootAgree(c->comm, ierr));
    PetscCallMPI(MPI_Bcast(&c->ncc, 1, MPIU_INT, 0, c->comm));
    c->ncoupled = c->ncc + c->nred - c->nbglob;
    PetscCall(DRProgress(c->comm, "cms: interface reduction: %" PetscInt_FMT " boundary coordinates -> %" PetscInt_FMT " CC modes; coupled system %" PetscInt_FMT " -> %" PetscInt_FMT " coordinates", c->nbglob, c->ncc, c->nred, c->ncoupled));
    PetscCall(PetscLogEventEnd(DRCMS_IfaceReduce, 0, 0, 0, 0));
    PetscCall(SolveSystem(c, c->ncoupled, K2, M2, &Q2));
    PetscCall(PetscFree(K2));
    PetscCall(PetscFree(M2));
    if (!c->rank) PetscCall(InterfaceExpand(c, Q2, &Q));
    PetscCall(PetscFree(Q2));
  } else PetscCall(SolveSystem(c, N, c->Kred, c->Mred, &Q));
  if (c->rank) PetscCall(PetscMalloc1(N * c->next + 1, &Q));
  PetscCallMPI(MPI_Bcast(Q, (PetscMPIInt)(N * c->next), MPIU_REAL, 0, c->comm));
  /* deterministic sign: largest-magnitude reduced coordinate positive */
  DRModeSignFix(N, c->next, Q, N);
  PetscCall(PetscLogEventEnd(DRCMS_Coupled, 0, 0, 0, 0));
  *Qout = Q;
  PetscFunctionReturn(PETSC_SUCCESS);
}
