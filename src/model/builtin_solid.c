/* Built-in model (a): a linear-elastic box of 8-node hexahedra on a uniform
 * nx x ny x nz grid, optionally cut into slabs of element layers.
 *
 * Node (i, j, k), 0 <= i <= nx, ... has id
 *   node_offset + 1 + i + (nx+1) (j + (ny+1) k)
 * and DOFs id.1, id.2, id.3; the nodes of a clamped face lose all three.
 * Every element of the uniform grid is the same brick, so Ke and Me are
 * computed once. */
#include "builtin_impl.h"
#include <dynred/preflight.h>

PetscErrorCode DRSolidParamsDefault(DRSolidParams *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  /* The demo plate: a 1 m x 0.5 m x 20 mm steel plate clamped along x = 0. */
  p->lx  = 1.0;
  p->ly  = 0.5;
  p->lz  = 0.02;
  p->nx  = 40;
  p->ny  = 20;
  p->nz  = 2;
  p->E   = 210e9;
  p->nu  = 0.3;
  p->rho = 7850;
  PetscCall(PetscStrncpy(p->clamp, "x0", sizeof(p->clamp)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt         ne[3], m[3]; /* elements and nodes per direction of this part */
  PetscInt        *node_row;           /* first row of each part node (local index), -1 when clamped */
  const PetscReal *Ke, *Me;
} SolidCtx;

static PetscErrorCode SolidElement(void *ctx, PetscInt e, PetscBool want_values, PetscInt *nd, PetscInt rows[], const PetscReal **Ke, const PetscReal **Me)
{
  SolidCtx     *s = (SolidCtx *)ctx;
  const PetscInt ei = e % s->ne[0], ej = (e / s->ne[0]) % s->ne[1], ek = e / (s->ne[0] * s->ne[1]);
  /* Corners in increasing node id (rows come out sorted, which speeds up
   * the insertion); the cached Ke, Me use the same order. */
  static const PetscInt di[8] = {0, 1, 0, 1, 0, 1, 0, 1}, dj[8] = {0, 0, 1, 1, 0, 0, 1, 1}, dk[8] = {0, 0, 0, 0, 1, 1, 1, 1};

  PetscFunctionBeginUser;
  for (int a = 0; a < 8; a++) {
    PetscInt ln = (ei + di[a]) + s->m[0] * ((ej + dj[a]) + s->m[1] * (ek + dk[a]));
    PetscInt r  = s->node_row[ln];
    for (int d = 0; d < 3; d++) rows[3 * a + d] = r >= 0 ? r + d : -1;
  }
  *nd = 24;
  if (want_values) {
    *Ke = s->Ke;
    *Me = s->Me;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The nonzero pattern from the 27-point node stencil: in a box of bricks,
 * two nodes share an element exactly when no index differs by more than 1.
 * Neighbours in (k, j, i) order have increasing rows, so rows come out
 * sorted. */
static PetscErrorCode SolidPattern(void *ctx, PetscInt rs, PetscInt re, PetscInt **ia, PetscInt **ja)
{
  SolidCtx      *s = (SolidCtx *)ctx;
  const PetscInt m0 = s->m[0], m1 = s->m[1], m2 = s->m[2];
  PetscInt      *cnt = NULL, nnz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(re - rs + 1, ia));
  for (int pass = 0; pass < 2; pass++) {
    for (PetscInt k = 0, ln = 0; k < m2; k++)
      for (PetscInt j = 0; j < m1; j++)
        for (PetscInt i = 0; i < m0; i++, ln++) {
          const PetscInt r = s->node_row[ln];
          PetscInt       n = 0;
          if (r < 0 || r + 3 <= rs || r >= re) continue;
          for (PetscInt q = 0; q < 3; q++) {
            if (r + q < rs || r + q >= re) continue;
            if (pass) cnt = *ja + (*ia)[r + q - rs];
            n = 0;
            for (PetscInt kk = PetscMax(k - 1, 0); kk <= PetscMin(k + 1, m2 - 1); kk++)
              for (PetscInt jj = PetscMax(j - 1, 0); jj <= PetscMin(j + 1, m1 - 1); jj++)
                for (PetscInt ii = PetscMax(i - 1, 0); ii <= PetscMin(i + 1, m0 - 1); ii++) {
                  const PetscInt cr = s->node_row[ii + m0 * (jj + m1 * kk)];
                  if (cr < 0) continue;
                  if (pass)
                    for (PetscInt d = 0; d < 3; d++) cnt[n + d] = cr + d;
                  n += 3;
                }
            if (!pass) (*ia)[r + q - rs + 1] = n;
          }
        }
    if (!pass) {
      (*ia)[0] = 0;
      for (PetscInt r = 0; r < re - rs; r++) (*ia)[r + 1] += (*ia)[r];
      nnz = (*ia)[re - rs];
      PetscCall(PetscMalloc1(nnz + 1, ja));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinSolid(MPI_Comm comm, const DRSolidParams *p, DRCut cut, PetscInt part, DRComponent *comp)
{
  const char *what = "builtin:solid";
  const PetscInt n[3] = {p->nx, p->ny, p->nz};
  const PetscReal len[3] = {p->lx, p->ly, p->lz}, org[3] = {p->x0, p->y0, p->z0};
  PetscBool   faces[6];
  PetscInt    axis, lo[3], hi[3], m[3], nnodes, nrow = 0;
  SolidCtx    ctx;
  PetscReal   h[3], Ke[576], Me[576];
  DRComponent c;
  char        name[64];

  PetscFunctionBeginUser;
  PetscCheck(p->nx >= 1 && p->ny >= 1 && p->nz >= 1, comm, DR_ERR_INPUT, "%s: nx, ny, nz = %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ", expected at least 1 element in each direction", what, p->nx, p->ny, p->nz);
  PetscCheck(p->lx > 0 && p->ly > 0 && p->lz > 0, comm, DR_ERR_INPUT, "%s: lx, ly, lz = %g, %g, %g, expected positive lengths", what, (double)p->lx, (double)p->ly, (double)p->lz);
  PetscCheck(p->E > 0 && p->nu > -1 && p->nu < 0.5 && p->rho > 0, comm, DR_ERR_INPUT, "%s: E = %g, nu = %g, rho = %g, expected E > 0, -1 < nu < 0.5, rho > 0", what, (double)p->E, (double)p->nu, (double)p->rho);
  PetscCheck(p->node_offset >= 0, comm, DR_ERR_INPUT, "%s: node_offset = %" PetscInt_FMT ", expected >= 0", what, p->node_offset);
  PetscCall(DRBuiltinParseClamp(comm, what, p->clamp, faces));
  PetscCall(DRBuiltinCheckCut(comm, what, cut, part, &axis));
  PetscCheck(cut.parts <= n[axis], comm, DR_ERR_INPUT, "%s: cut into %" PetscInt_FMT " parts along %c, but the model has only %" PetscInt_FMT " element layers along %c; expected parts <= %" PetscInt_FMT, what, cut.parts, "xyz"[axis], n[axis], "xyz"[axis], n[axis]);
  /* in double: (nx + 1) overflows PetscInt at nx = 2^31 - 1, the product int64 beyond 2^63 (fuzz) */
  PetscCheck(((double)p->nx + 1) * ((double)p->ny + 1) * ((double)p->nz + 1) + (double)p->node_offset < (double)(PETSC_MAX_INT / 8), comm, DR_ERR_INPUT, "%s: %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " elements need more node ids than this PETSc's integers hold; build PETSc with 64-bit indices", what, p->nx, p->ny, p->nz);
  /* 64-bit indices pass the check above: the assembled K and M alone (81 x 3
   * nonzeros per row of a hex8 mesh, 8-byte values and column indices) must
   * fit in the memory the machine has, before anything is allocated */
  {
    PetscMPIInt size;
    PetscReal   nodes = ((PetscReal)p->nx + 1) * ((PetscReal)p->ny + 1) * ((PetscReal)p->nz + 1), mib;
    char        whatm[256];
    PetscCallMPI(MPI_Comm_size(comm, &size));
    mib = nodes * 3 * 81 * 3 * 2 * 16 / 1048576.0 / size; /* this rank's rows */
    PetscCall(PetscSNPrintf(whatm, sizeof(whatm), "%s: %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " elements (K and M of %.3g DOFs)", what, p->nx, p->ny, p->nz, (double)(3 * nodes)));
    PetscCall(DRMemoryCheckHint(comm, NULL, mib, whatm, "fewer elements or more nodes"));
  }

  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Generate, 0, 0, 0, 0));
  for (int d = 0; d < 3; d++) {
    lo[d] = 0;
    hi[d] = n[d];
    h[d]  = len[d] / n[d];
  }
  /* Part `part` owns element layers [part ne / parts, (part+1) ne / parts). */
  lo[axis] = (PetscInt)(((PetscInt64)part * n[axis]) / cut.parts);
  hi[axis] = (PetscInt)(((PetscInt64)(part + 1) * n[axis]) / cut.parts);
  for (int d = 0; d < 3; d++) m[d] = hi[d] - lo[d] + 1;
  nnodes = m[0] * m[1] * m[2];

  if (cut.parts > 1) PetscCall(PetscSNPrintf(name, sizeof(name), "solid_part%" PetscInt_FMT, part));
  else PetscCall(PetscStrncpy(name, "solid", sizeof(name)));
  PetscCall(DRComponentCreate(comm, name, &c));
  PetscCall(PetscStrncpy(c->source, what, sizeof(c->source)));

  /* Nodes in id order (k slowest), their rows, coordinates. */
  c->nnodes = nnodes;
  PetscCall(PetscMalloc1(nnodes, &c->node_ids));
  PetscCall(PetscMalloc1(3 * nnodes, &c->xyz));
  PetscCall(PetscMalloc1(nnodes, &ctx.node_row));
  for (PetscInt k = lo[2], ln = 0; k <= hi[2]; k++)
    for (PetscInt j = lo[1]; j <= hi[1]; j++)
      for (PetscInt i = lo[0]; i <= hi[0]; i++, ln++) {
        const PetscInt ijk[3] = {i, j, k};
        PetscBool      clamped = PETSC_FALSE;
        for (int d = 0; d < 3; d++) {
          if ((faces[2 * d] && ijk[d] == 0) || (faces[2 * d + 1] && ijk[d] == n[d])) clamped = PETSC_TRUE;
          /* exact at the far faces: x0 + lx, not x0 + nx * (lx / nx) */
          c->xyz[3 * ln + d] = ijk[d] == n[d] ? org[d] + len[d] : org[d] + ijk[d] * h[d];
        }
        c->node_ids[ln]  = p->node_offset + 1 + i + (p->nx + 1) * (j + (p->ny + 1) * k);
        ctx.node_row[ln] = clamped ? -1 : nrow;
        if (!clamped) nrow += 3;
      }
  c->n = nrow;
  PetscCheck(c->n > 0, comm, DR_ERR_INPUT, "%s: clamp \"%s\" removes every DOF of part %" PetscInt_FMT ", expected some free DOFs", what, p->clamp, part);
  PetscCall(PetscMalloc1(c->n, &c->labels));
  for (PetscInt ln = 0; ln < nnodes; ln++)
    if (ctx.node_row[ln] >= 0)
      for (int d = 0; d < 3; d++) c->labels[ctx.node_row[ln] + d] = DRLabelMake(c->node_ids[ln], d + 1);

  /* Cells in VTK order. */
  c->celltype = DR_CELL_HEX8;
  c->ncells   = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  PetscCall(PetscMalloc1(8 * c->ncells, &c->cells));
  for (PetscInt k = lo[2], e = 0; k < hi[2]; k++)
    for (PetscInt j = lo[1]; j < hi[1]; j++)
      for (PetscInt i = lo[0]; i < hi[0]; i++, e++) {
        static const PetscInt di[8] = {0, 1, 1, 0, 0, 1, 1, 0}, dj[8] = {0, 0, 1, 1, 0, 0, 1, 1}, dk[8] = {0, 0, 0, 0, 1, 1, 1, 1};
        for (int a = 0; a < 8; a++) c->cells[8 * e + a] = p->node_offset + 1 + (i + di[a]) + (p->nx + 1) * ((j + dj[a]) + (p->ny + 1) * (k + dk[a]));
      }

  /* Clamp faces as node sets (this part's nodes on them). */
  for (int f = 0; f < 6; f++) {
    static const char *fname[6] = {"x0", "x1", "y0", "y1", "z0", "z1"};
    const int          d = f / 2;
    const PetscInt     at = (f % 2) ? n[d] : 0;
    PetscInt          *ids, cnt = 0;
    if (!faces[f] || at < lo[d] || at > hi[d]) continue;
    PetscCall(PetscMalloc1(nnodes, &ids));
    for (PetscInt k = lo[2], ln = 0; k <= hi[2]; k++)
      for (PetscInt j = lo[1]; j <= hi[1]; j++)
        for (PetscInt i = lo[0]; i <= hi[0]; i++, ln++) {
          const PetscInt ijk[3] = {i, j, k};
          if (ijk[d] == at) ids[cnt++] = c->node_ids[ln];
        }
    PetscCall(DRComponentAddNodeSet(c, fname[f], cnt, ids));
    PetscCall(PetscFree(ids));
  }

  /* One brick for the whole grid. */
  {
    PetscReal             X[24], Kv[576], Mv[576];
    static const int      vtk[8] = {0, 1, 3, 2, 4, 5, 7, 6};
    static const PetscInt di[8] = {0, 1, 1, 0, 0, 1, 1, 0}, dj[8] = {0, 0, 1, 1, 0, 0, 1, 1}, dk[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    for (int a = 0; a < 8; a++) {
      X[3 * a + 0] = di[a] * h[0];
      X[3 * a + 1] = dj[a] * h[1];
      X[3 * a + 2] = dk[a] * h[2];
    }
    PetscCall(DRHex8Matrices(X, p->E, p->nu, p->rho, Kv, Mv));
    /* VTK order -> increasing node id: swap corners 2, 3 and 6, 7. */
    for (int a = 0; a < 8; a++)
      for (int b = 0; b < 8; b++)
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++) {
            const int va = vtk[a], vb = vtk[b];
            Ke[(3 * a + i) * 24 + 3 * b + j] = Kv[(3 * va + i) * 24 + 3 * vb + j];
            Me[(3 * a + i) * 24 + 3 * b + j] = Mv[(3 * va + i) * 24 + 3 * vb + j];
          }
  }
  for (int d = 0; d < 3; d++) {
    ctx.ne[d] = hi[d] - lo[d];
    ctx.m[d]  = m[d];
  }
  ctx.Ke = Ke;
  ctx.Me = Me;
  PetscCall(DRBuiltinAssembleElements(c, c->ncells, SolidElement, SolidPattern, &ctx));
  PetscCall(PetscFree(ctx.node_row));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Generate, 0, 0, 0, 0));
  PetscCall(DRComponentValidate(c, 1e-12));
  *comp = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}
