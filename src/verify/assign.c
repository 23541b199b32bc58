/* Optimal assignment for mode pairing (include/dynred/compare.h):
 * Hungarian algorithm with potentials (Kuhn-Munkres in the O(n^2 m) form of
 * Jonker-Volgenant's shortest augmenting paths) on a dense n x m weight
 * matrix, maximizing the sum of the chosen weights.  Hand-written: the
 * problems are small and dense (modes x modes) and no assignment solver is
 * among the libraries dynred links (PETSc, SLEPc, LAPACK, HDF5). */
#include <dynred/compare.h>

/* Rows 1..n, columns 1..m, n <= m: every row gets a distinct column.
 * cost(i, j) = -w[(i-1) * ld + (j-1)] (or the transposed access). */
static PetscErrorCode AssignRows(PetscInt n, PetscInt m, const PetscReal *w, PetscBool trans, PetscInt ld, PetscInt *rowcol)
{
  PetscReal *u, *v, *minv;
  PetscInt  *pm, *way;
  PetscBool *used;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc3(n + 1, &u, m + 1, &v, m + 1, &minv));
  PetscCall(PetscMalloc3(m + 1, &pm, m + 1, &way, m + 1, &used));
  for (PetscInt i = 0; i <= n; i++) u[i] = 0;
  for (PetscInt j = 0; j <= m; j++) v[j] = 0, pm[j] = 0, way[j] = 0;
  for (PetscInt i = 1; i <= n; i++) {
    PetscInt j0 = 0;
    pm[0] = i;
    for (PetscInt j = 0; j <= m; j++) minv[j] = PETSC_MAX_REAL, used[j] = PETSC_FALSE;
    do {
      PetscInt  i0 = pm[j0], j1 = 0;
      PetscReal delta = PETSC_MAX_REAL;
      used[j0] = PETSC_TRUE;
      for (PetscInt j = 1; j <= m; j++)
        if (!used[j]) {
          PetscReal wij = trans ? w[(j - 1) * ld + (i0 - 1)] : w[(i0 - 1) * ld + (j - 1)];
          PetscReal cur = -wij - u[i0] - v[j];
          if (cur < minv[j]) minv[j] = cur, way[j] = j0;
          if (minv[j] < delta) delta = minv[j], j1 = j;
        }
      for (PetscInt j = 0; j <= m; j++)
        if (used[j]) u[pm[j]] += delta, v[j] -= delta;
        else minv[j] -= delta;
      j0 = j1;
    } while (pm[j0] != 0);
    do {
      PetscInt j1 = way[j0];
      pm[j0]      = pm[j1];
      j0          = j1;
    } while (j0);
  }
  for (PetscInt i = 0; i < n; i++) rowcol[i] = -1;
  for (PetscInt j = 1; j <= m; j++)
    if (pm[j]) rowcol[pm[j] - 1] = j - 1;
  PetscCall(PetscFree3(u, v, minv));
  PetscCall(PetscFree3(pm, way, used));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRAssignMax(PetscInt nref, PetscInt ntest, const PetscReal w[], PetscInt pair[])
{
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < ntest; j++) pair[j] = -1;
  if (!nref || !ntest) PetscFunctionReturn(PETSC_SUCCESS);
  if (ntest <= nref) {
    /* rows = test modes, columns = reference modes: w[i * ntest + j] transposed */
    PetscCall(AssignRows(ntest, nref, w, PETSC_TRUE, ntest, pair));
  } else {
    PetscInt *refcol;
    PetscCall(PetscMalloc1(nref, &refcol));
    PetscCall(AssignRows(nref, ntest, w, PETSC_FALSE, ntest, refcol));
    for (PetscInt i = 0; i < nref; i++)
      if (refcol[i] >= 0) pair[refcol[i]] = i;
    PetscCall(PetscFree(refcol));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRAssignGreedy(PetscInt nref, PetscInt ntest, const PetscReal w[], PetscInt pair[])
{
  PetscFunctionBeginUser;
  for (PetscInt j = 0; j < ntest; j++) {
    PetscInt best = nref ? 0 : -1;
    for (PetscInt i = 1; i < nref; i++)
      if (w[i * ntest + j] > w[best * ntest + j]) best = i;
    pair[j] = best;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
