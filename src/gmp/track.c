/* GMP mode tracking: mode order and sign made consistent between
 * neighbouring reduced models (METHODS.md 5; include/dynred/gmp.h). */
#include "gmp_impl.h"
#include <dynred/compare.h>

/* p[i] = the column of row i in the assignment of largest total w (n x n,
 * row-major): the verify layer's optimal assignment (DRAssignMax pairs
 * test columns with reference rows; inverted here). */
static PetscErrorCode Assign(PetscInt n, const PetscReal *w, PetscInt *p)
{
  PetscInt *pair;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &pair));
  PetscCall(DRAssignMax(n, n, w, pair));
  for (PetscInt j = 0; j < n; j++) p[pair[j]] = j;
  PetscCall(PetscFree(pair));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* G = prev.MPsi^T cur.Psi (n x n, column-major) */
static void Cross(const DRGMPRom *prev, const DRGMPRom *cur, PetscReal *G)
{
  PetscInt n = prev->n, nd = prev->ndof;
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt k = 0; k < n; k++) {
      PetscReal s = 0;
      for (PetscInt i = 0; i < nd; i++) s += prev->MPsi[i + j * nd] * cur->Psi[i + k * nd];
      G[j + k * n] = s;
    }
}

PetscErrorCode DRGMPTrack(const DRGMPRom *prev, DRGMPRom *cur, PetscReal macdiag[], PetscReal *macmin)
{
  PetscInt   n = cur->n, nt = cur->nt, nm = cur->nm, nd = cur->ndof, *perm;
  PetscReal *G, *W, *sg, *tmp;

  PetscFunctionBeginUser;
  PetscCheck(prev->n == n && prev->ndof == nd && prev->Psi && cur->Psi, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "GMP tracking: the two reduced models differ in size or lack mode shapes");
  PetscCall(PetscMalloc5(n * n, &G, nm * nm, &W, nm, &perm, nm, &sg, nd * n + n * n, &tmp));
  Cross(prev, cur, G);
  for (PetscInt j = 0; j < nm; j++)
    for (PetscInt k = 0; k < nm; k++) {
      PetscInt  a = nt + j, b = nt + k;
      PetscReal c = G[a + b * n];
      W[j * nm + k] = c * c / (prev->M[a + a * n] * cur->M[b + b * n]); /* mass-weighted MAC (prev's M) */
    }
  PetscCall(Assign(nm, W, perm));
  *macmin = 1;
  for (PetscInt j = 0; j < nm; j++) {
    sg[j]      = G[(nt + j) + (nt + perm[j]) * n] < 0 ? -1 : 1;
    macdiag[j] = W[j * nm + perm[j]];
    *macmin    = PetscMin(*macmin, macdiag[j]);
  }
  /* new coordinate j = sg[j] * old coordinate perm[j]: Psi' = Psi T,
   * M' = T^T M T, K' = T^T K T, Phi' = T^T Phi */
#define NEWIDX(j) ((j) < nt ? (j) : nt + perm[(j) - nt])
#define SGN(j)    ((j) < nt ? 1.0 : sg[(j) - nt])
  {
    PetscReal *arrs[2] = {cur->Psi, cur->MPsi};
    for (int a = 0; a < 2; a++) {
      PetscCall(PetscArraycpy(tmp, arrs[a], nd * n));
      for (PetscInt j = 0; j < n; j++)
        for (PetscInt i = 0; i < nd; i++) arrs[a][i + j * nd] = SGN(j) * tmp[i + NEWIDX(j) * nd];
    }
  }
  {
    PetscReal *mats[2] = {cur->M, cur->K};
    for (int a = 0; a < 2; a++) {
      PetscCall(PetscArraycpy(tmp, mats[a], n * n));
      for (PetscInt j = 0; j < n; j++)
        for (PetscInt i = 0; i < n; i++) mats[a][i + j * n] = SGN(i) * SGN(j) * tmp[NEWIDX(i) + NEWIDX(j) * n];
    }
  }
  PetscCall(PetscArraycpy(tmp, cur->Phi, n * n));
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt i = 0; i < n; i++) cur->Phi[i + k * n] = SGN(i) * tmp[NEWIDX(i) + k * n];
#undef NEWIDX
#undef SGN
  PetscCall(PetscFree5(G, W, perm, sg, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPTrackEigen(const DRGMPRom *prev, DRGMPRom *cur)
{
  PetscInt   n = cur->n, nt = cur->nt, ne = n - nt, *perm;
  PetscReal *G, *C, *W, *tmp, *lt;

  PetscFunctionBeginUser;
  if (ne <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc5(n * n, &G, n * n, &C, ne * ne, &W, ne, &perm, n * n, &tmp));
  PetscCall(PetscMalloc1(n, &lt));
  Cross(prev, cur, G);
  /* C = Phi_prev^T G Phi_cur: the physical free-mechanism modes Psi Phi */
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt k = 0; k < n; k++) {
      PetscReal s = 0;
      for (PetscInt a = 0; a < n; a++) {
        PetscReal t = 0;
        for (PetscInt b = 0; b < n; b++) t += G[a + b * n] * cur->Phi[b + k * n];
        s += prev->Phi[a + j * n] * t;
      }
      C[j + k * n] = s;
    }
  /* the rigid (zero) eigenvectors have a canonical basis (see rom.c); track the others */
  for (PetscInt j = 0; j < ne; j++)
    for (PetscInt k = 0; k < ne; k++) W[j * ne + k] = PetscSqr(C[(nt + j) + (nt + k) * n]);
  PetscCall(Assign(ne, W, perm));
  PetscCall(PetscArraycpy(tmp, cur->Phi, n * n));
  PetscCall(PetscArraycpy(lt, cur->lambda, n));
  for (PetscInt j = 0; j < ne; j++) {
    PetscInt  k = nt + perm[j];
    PetscReal s = C[(nt + j) + k * n] < 0 ? -1 : 1;
    cur->lambda[nt + j] = lt[k];
    for (PetscInt i = 0; i < n; i++) cur->Phi[i + (nt + j) * n] = s * tmp[i + k * n];
  }
  PetscCall(PetscFree5(G, C, W, perm, tmp));
  PetscCall(PetscFree(lt));
  PetscFunctionReturn(PETSC_SUCCESS);
}
