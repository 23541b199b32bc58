/* dynred sysred: block-diagonal state matrices (the modal form `dynred ss`
 * writes: 2x2 blocks [[0, 1], [-w^2, -c]] of adjacent states, 1x1 blocks
 * for first-order states).  Detected once, they let the marginal split
 * (lowrank.c), the frequency response (frf.c) and the time response
 * (sim.c) work block by block, in O(n) per frequency or step instead of
 * the O(n^3) of a dense Schur form or LU. */
#include "sysredimpl.h"

/* the blocks of a block-diagonal A with 1x1 and 2x2 blocks: *nb blocks,
 * block b = states bs[b] .. bs[b+1]-1; *nb = 0 when A has another form */
PetscErrorCode DRLTIBlocks(const DRLTI *f, PetscInt *nb, PetscInt *bs)
{
  PetscInt n = f->n, b = 0;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < n;) {
    PetscInt w = (i + 1 < n && (f->A[i + 1 + i * n] != 0 || f->A[i + (i + 1) * n] != 0)) ? 2 : 1;
    bs[b++] = i;
    i += w;
  }
  bs[b] = n;
  *nb   = b;
  for (PetscInt k = 0; k < b && *nb; k++) /* nothing outside the blocks */
    for (PetscInt j = bs[k]; j < bs[k + 1] && *nb; j++)
      for (PetscInt i = 0; i < n; i++)
        if ((i < bs[k] || i >= bs[k + 1]) && f->A[i + j * n] != 0) { *nb = 0; break; }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the poles of block b (wr, wi: w[0..size-1]) */
void DRLTIBlockPoles(const DRLTI *f, const PetscInt *bs, PetscInt b, PetscReal *wr, PetscReal *wi)
{
  PetscInt  n = f->n, i = bs[b];
  PetscReal a, bb, c, d, tr, det, disc;

  if (bs[b + 1] - i == 1) {
    wr[0] = f->A[i + i * n];
    wi[0] = 0;
    return;
  }
  a = f->A[i + i * n]; bb = f->A[i + (i + 1) * n]; c = f->A[i + 1 + i * n]; d = f->A[i + 1 + (i + 1) * n];
  tr = a + d; det = a * d - bb * c; disc = tr * tr / 4 - det;
  if (disc < 0) {
    wr[0] = wr[1] = tr / 2;
    wi[0] = PetscSqrtReal(-disc);
    wi[1] = -wi[0];
  } else { /* real poles: the stable root without cancellation */
    PetscReal q = tr / 2 + (tr >= 0 ? 1 : -1) * PetscSqrtReal(disc);
    wr[0] = q;
    wr[1] = q != 0 ? det / q : 0;
    wi[0] = wi[1] = 0;
  }
}

