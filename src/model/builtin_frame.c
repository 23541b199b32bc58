/* Built-in models (b) and (c): a regular space frame of 3D Euler-Bernoulli
 * beams and a planar frame given as node and member lists (hinges, springs,
 * fixed DOFs).  Element matrices and the mass options are in fe_beam.c. */
#include "builtin_impl.h"

/* ------------------------------------------------------------------------
 * (b) Space frame
 *
 * Grid node (I, J, K), 0 <= I <= nx, ... has id 1 + I + (nx+1) (J + (ny+1) K)
 * and sits at (I lx/nx, J ly/ny, K lz/nz) (0 along an axis with no bays).
 * Members join neighbouring grid nodes: first those along x (start node
 * (I, J, K), I < nx, in id order of the start node), then along y, then
 * along z.  Member m is divided into nel elements; its nel - 1 interior
 * nodes have ids NG + 1 + m (nel - 1) + t - 1, t = 1 .. nel - 1 from its
 * start, NG = (nx+1)(ny+1)(nz+1).  Element m nel + t joins positions t and
 * t + 1 of member m.  Local y axes: +y for members along x, +z along y, +x
 * along z (so local z is +z, +x, +y: the frame is invariant under a cyclic
 * permutation of the axes).
 * ------------------------------------------------------------------------ */

PetscErrorCode DRFrame3DParamsDefault(DRFrame3DParams *p)
{
  const PetscReal b = 0.01; /* 10 mm x 10 mm solid square section */

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  /* A 1 m steel cantilever along x clamped at x = 0, 20 elements. */
  p->lx      = 1.0;
  p->ly      = 1.0;
  p->lz      = 1.0;
  p->nx      = 1;
  p->ny      = 0;
  p->nz      = 0;
  p->nel     = 20;
  p->sec.E   = 210e9;
  p->sec.G   = 210e9 / (2 * (1 + 0.3));
  p->sec.rho = 7850;
  p->sec.A   = b * b;
  p->sec.Iy  = b * b * b * b / 12;
  p->sec.Iz  = b * b * b * b / 12;
  p->sec.J   = 0.140625 * b * b * b * b; /* Saint-Venant constant of a square, 2.25 (b/2)^4 */
  p->lumped  = PETSC_FALSE;
  PetscCall(PetscStrncpy(p->clamp, "x0", sizeof(p->clamp)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt  n[3], nel, NG, nm[3]; /* bays, elements per member, grid nodes, members per direction */
  PetscReal h[3], len[3];
} Frame3DGrid;

/* Direction and start grid indices of member m. */
static void Frame3DMember(const Frame3DGrid *g, PetscInt m, int *dir, PetscInt ijk[3])
{
  PetscInt ext[3] = {g->n[0] + 1, g->n[1] + 1, g->n[2] + 1};
  int      d      = 0;
  while (m >= g->nm[d]) m -= g->nm[d++];
  ext[d]--; /* start nodes of members along d: one fewer along d */
  ijk[0] = m % ext[0];
  ijk[1] = (m / ext[0]) % ext[1];
  ijk[2] = m / (ext[0] * ext[1]);
  *dir   = d;
}

static PetscInt Frame3DGridId(const Frame3DGrid *g, const PetscInt ijk[3])
{
  return 1 + ijk[0] + (g->n[0] + 1) * (ijk[1] + (g->n[1] + 1) * ijk[2]);
}

/* Id of position t (0..nel) along member m. */
static PetscInt Frame3DMemberNode(const Frame3DGrid *g, PetscInt m, PetscInt t)
{
  PetscInt ijk[3];
  int      d;
  if (t > 0 && t < g->nel) return g->NG + 1 + m * (g->nel - 1) + t - 1;
  Frame3DMember(g, m, &d, ijk);
  if (t == g->nel) ijk[d]++;
  return Frame3DGridId(g, ijk);
}

/* Grid position of node id along each axis in units of bays (fractional
 * for interior member nodes), as numerator / nel. */
static void Frame3DNodePos(const Frame3DGrid *g, PetscInt id, PetscInt pos[3])
{
  if (id <= g->NG) {
    PetscInt q = id - 1;
    pos[0]     = (q % (g->n[0] + 1)) * g->nel;
    pos[1]     = ((q / (g->n[0] + 1)) % (g->n[1] + 1)) * g->nel;
    pos[2]     = (q / ((g->n[0] + 1) * (g->n[1] + 1))) * g->nel;
  } else {
    PetscInt q = id - g->NG - 1, m = q / (g->nel - 1), t = q % (g->nel - 1) + 1, ijk[3];
    int      d;
    Frame3DMember(g, m, &d, ijk);
    for (int a = 0; a < 3; a++) pos[a] = ijk[a] * g->nel + (a == d ? t : 0);
  }
}

static PetscReal Frame3DCoord(const Frame3DGrid *g, const PetscInt pos[3], int a)
{
  if (pos[a] == g->n[a] * g->nel) return g->len[a] * (g->n[a] > 0);
  return (PetscReal)pos[a] / g->nel * g->h[a];
}

typedef struct {
  const Frame3DGrid *g;
  const PetscInt    *elems;    /* global element ids of this part */
  PetscInt           nnodes;   /* part nodes */
  const PetscInt    *node_ids; /* sorted */
  const PetscInt    *node_row; /* first row of each part node, -1 clamped */
  PetscReal          Ke[3][144], Me[3][144];
} Frame3DCtx;

static PetscErrorCode Frame3DElement(void *ctx, PetscInt e, PetscBool want_values, PetscInt *nd, PetscInt rows[], const PetscReal **Ke, const PetscReal **Me)
{
  Frame3DCtx *f = (Frame3DCtx *)ctx;
  PetscInt    ge = f->elems[e], m = ge / f->g->nel, t = ge % f->g->nel, ijk[3];
  int         d;

  PetscFunctionBeginUser;
  for (int a = 0; a < 2; a++) {
    PetscInt id = Frame3DMemberNode(f->g, m, t + a), ln, r;
    PetscCall(PetscFindInt(id, f->nnodes, f->node_ids, &ln));
    PetscCheck(ln >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "builtin:frame3d: node %" PetscInt_FMT " of element %" PetscInt_FMT " is not in the part", id, ge + 1);
    r = f->node_row[ln];
    for (int k = 0; k < 6; k++) rows[6 * a + k] = r >= 0 ? r + k : -1;
  }
  *nd = 12;
  if (want_values) {
    Frame3DMember(f->g, m, &d, ijk);
    *Ke = f->Ke[d];
    *Me = f->Me[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinFrame3D(MPI_Comm comm, const DRFrame3DParams *p, DRCut cut, PetscInt part, DRComponent *comp)
{
  const char *what = "builtin:frame3d";
  Frame3DGrid g;
  Frame3DCtx *ctx;
  PetscBool   faces[6];
  PetscInt    axis, nmem, nelem, *count, *elems, nloc = 0, *ids, nids = 0, *node_row, nrow = 0;
  DRComponent c;
  char        name[64];

  PetscFunctionBeginUser;
  PetscCheck(p->nx >= 0 && p->ny >= 0 && p->nz >= 0 && p->nx + p->ny + p->nz > 0, comm, DR_ERR_INPUT, "%s: nx, ny, nz = %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT ", expected bay counts >= 0, at least one positive", what, p->nx, p->ny, p->nz);
  PetscCheck(p->nel >= 1, comm, DR_ERR_INPUT, "%s: nel = %" PetscInt_FMT ", expected at least 1 element per member", what, p->nel);
  PetscCheck((p->nx == 0 || p->lx > 0) && (p->ny == 0 || p->ly > 0) && (p->nz == 0 || p->lz > 0), comm, DR_ERR_INPUT, "%s: lx, ly, lz = %g, %g, %g, expected positive lengths along axes with bays", what, (double)p->lx, (double)p->ly, (double)p->lz);
  PetscCheck(p->sec.rho > 0, comm, DR_ERR_INPUT, "%s: rho = %g, expected a positive density", what, (double)p->sec.rho);
  PetscCall(DRBuiltinParseClamp(comm, what, p->clamp, faces));
  PetscCall(DRBuiltinCheckCut(comm, what, cut, part, &axis));

  g.n[0]   = p->nx;
  g.n[1]   = p->ny;
  g.n[2]   = p->nz;
  g.len[0] = p->lx;
  g.len[1] = p->ly;
  g.len[2] = p->lz;
  g.nel    = p->nel;
  g.NG     = (p->nx + 1) * (p->ny + 1) * (p->nz + 1);
  g.nm[0]  = p->nx * (p->ny + 1) * (p->nz + 1);
  g.nm[1]  = (p->nx + 1) * p->ny * (p->nz + 1);
  g.nm[2]  = (p->nx + 1) * (p->ny + 1) * p->nz;
  for (int a = 0; a < 3; a++) g.h[a] = g.n[a] ? g.len[a] / g.n[a] : 0;
  nmem  = g.nm[0] + g.nm[1] + g.nm[2];
  nelem = nmem * p->nel;
  PetscCheck(6 * ((PetscInt64)g.NG + (PetscInt64)nmem * (p->nel - 1)) < PETSC_MAX_INT / 8, comm, DR_ERR_INPUT, "%s: the frame needs more node ids than this PETSc's integers hold; build PETSc with 64-bit indices", what);

  /* Cut: an element belongs to the slab of the bounding box (equal slabs
   * along the axis) holding its midpoint.  In units of 1/(2 nel) bays the
   * midpoint is an integer, so the assignment is exact; a midpoint on a
   * slab boundary (members across the axis) goes to the upper slab. */
  PetscCheck(cut.parts == 1 || g.n[axis] > 0, comm, DR_ERR_INPUT, "%s: cut into %" PetscInt_FMT " parts along %c, but the frame has no extent along %c", what, cut.parts, "xyz"[axis], "xyz"[axis]);
  PetscCall(PetscCalloc1(cut.parts, &count));
  PetscCall(PetscMalloc1(nelem, &elems));
  for (PetscInt ge = 0; ge < nelem; ge++) {
    PetscInt slab = 0;
    if (cut.parts > 1) {
      PetscInt m = ge / g.nel, t = ge % g.nel, ijk[3];
      int      d;
      PetscInt64 mid2; /* 2 nel x midpoint in bays */
      Frame3DMember(&g, m, &d, ijk);
      mid2 = 2 * (PetscInt64)ijk[axis] * g.nel + (d == axis ? 2 * t + 1 : 0);
      slab = (PetscInt)((mid2 * cut.parts) / (2 * (PetscInt64)g.n[axis] * g.nel));
      if (slab >= cut.parts) slab = cut.parts - 1;
    }
    count[slab]++;
    if (slab == part) elems[nloc++] = ge;
  }
  {
    PetscInt empty = -1;
    for (PetscInt q = cut.parts - 1; q >= 0; q--)
      if (!count[q]) empty = q;
    PetscCall(PetscFree(count));
    if (empty >= 0) PetscCall(PetscFree(elems));
    PetscCheck(empty < 0, comm, DR_ERR_INPUT, "%s: cut into %" PetscInt_FMT " parts along %c leaves part %" PetscInt_FMT " without elements; expected at most as many parts as element layers along %c", what, cut.parts, "xyz"[axis], empty, "xyz"[axis]);
  }
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Generate, 0, 0, 0, 0));

  if (cut.parts > 1) PetscCall(PetscSNPrintf(name, sizeof(name), "frame3d_part%" PetscInt_FMT, part));
  else PetscCall(PetscStrncpy(name, "frame3d", sizeof(name)));
  PetscCall(DRComponentCreate(comm, name, &c));
  PetscCall(PetscStrncpy(c->source, what, sizeof(c->source)));

  /* Part nodes: those of its elements; cells. */
  c->celltype = DR_CELL_LINE2;
  c->ncells   = nloc;
  PetscCall(PetscMalloc1(2 * nloc + 1, &c->cells));
  PetscCall(PetscMalloc1(2 * nloc + 1, &ids));
  for (PetscInt e = 0; e < nloc; e++)
    for (int a = 0; a < 2; a++) ids[nids++] = c->cells[2 * e + a] = Frame3DMemberNode(&g, elems[e] / g.nel, elems[e] % g.nel + a);
  PetscCall(PetscSortRemoveDupsInt(&nids, ids));
  c->nnodes = nids;
  PetscCall(PetscMalloc1(nids, &c->node_ids));
  PetscCall(PetscMalloc1(3 * nids, &c->xyz));
  PetscCall(PetscMalloc1(nids, &node_row));
  PetscCall(PetscArraycpy(c->node_ids, ids, nids));
  PetscCall(PetscFree(ids));
  for (PetscInt i = 0; i < nids; i++) {
    PetscInt  pos[3];
    PetscBool clamped = PETSC_FALSE;
    Frame3DNodePos(&g, c->node_ids[i], pos);
    for (int a = 0; a < 3; a++) {
      c->xyz[3 * i + a] = Frame3DCoord(&g, pos, a);
      if ((faces[2 * a] && pos[a] == 0) || (faces[2 * a + 1] && pos[a] == g.n[a] * g.nel)) clamped = PETSC_TRUE;
    }
    node_row[i] = clamped ? -1 : nrow;
    if (!clamped) nrow += 6;
  }
  c->n = nrow;
  PetscCheck(c->n > 0, comm, DR_ERR_INPUT, "%s: clamp \"%s\" removes every DOF of part %" PetscInt_FMT ", expected some free DOFs", what, p->clamp, part);
  PetscCall(PetscMalloc1(c->n, &c->labels));
  for (PetscInt i = 0; i < nids; i++)
    if (node_row[i] >= 0)
      for (int k = 0; k < 6; k++) c->labels[node_row[i] + k] = DRLabelMake(c->node_ids[i], k + 1);
  for (int f = 0; f < 6; f++) {
    static const char *fname[6] = {"x0", "x1", "y0", "y1", "z0", "z1"};
    PetscInt          *set, cnt = 0;
    if (!faces[f]) continue;
    PetscCall(PetscMalloc1(nids, &set));
    for (PetscInt i = 0; i < nids; i++) {
      PetscInt pos[3];
      Frame3DNodePos(&g, c->node_ids[i], pos);
      if (pos[f / 2] == ((f % 2) ? g.n[f / 2] * g.nel : 0)) set[cnt++] = c->node_ids[i];
    }
    if (cnt) PetscCall(DRComponentAddNodeSet(c, fname[f], cnt, set));
    PetscCall(PetscFree(set));
  }

  /* Every element along one axis is the same beam. */
  PetscCall(PetscNew(&ctx));
  for (int d = 0; d < 3; d++) {
    const PetscReal x1[3] = {0, 0, 0};
    PetscReal       x2[3] = {0, 0, 0}, vref[3] = {0, 0, 0};
    if (!g.n[d]) continue;
    x2[d]             = g.h[d] / g.nel;
    vref[(d + 1) % 3] = 1;
    PetscCall(DRBeam3DMatrices(x1, x2, vref, &p->sec, p->lumped, ctx->Ke[d], ctx->Me[d]));
  }
  ctx->g        = &g;
  ctx->elems    = elems;
  ctx->nnodes   = nids;
  ctx->node_ids = c->node_ids;
  ctx->node_row = node_row;
  PetscCall(DRBuiltinAssembleElements(c, nloc, Frame3DElement, NULL, ctx));
  PetscCall(PetscFree(ctx));
  PetscCall(PetscFree(node_row));
  PetscCall(PetscFree(elems));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Generate, 0, 0, 0, 0));
  PetscCall(DRComponentValidate(c, 1e-12));
  *comp = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------
 * (c) Planar frame
 *
 * New node ids, above the largest given id, in this order: the interior
 * nodes of subdivided members (member order, from the member's first node),
 * then one node per hinged member end (member order, first end first).  A
 * hinge node has the coordinates of its original node and carries only the
 * end rotation (direction 6) of the elements at that member end.  A node
 * has directions 1, 2 when an element or spring uses it, direction 6 when
 * an element end not released by a hinge uses it.
 * ------------------------------------------------------------------------ */

/* Position of id in sorted ids[n]; the caller has checked it is there. */
static PetscInt FindSorted(PetscInt id, PetscInt n, const PetscInt ids[])
{
  PetscInt lo = 0, hi = n - 1;
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

typedef struct {
  PetscInt a, b;   /* translation nodes */
  PetscInt ra, rb; /* rotation nodes (a, b unless hinged); -1 for a spring */
  PetscInt k;      /* member (beam) or spring index */
} Frame2DElem;

typedef struct {
  const DRFrame2DParams *p;
  DRComponent            c;
  const Frame2DElem     *el;
  PetscReal              Ke[36], Me[36];
} Frame2DCtx;

static PetscErrorCode Frame2DElement(void *ctx, PetscInt e, PetscBool want_values, PetscInt *nd, PetscInt rows[], const PetscReal **Ke, const PetscReal **Me)
{
  Frame2DCtx        *f  = (Frame2DCtx *)ctx;
  const Frame2DElem *el = &f->el[e];
  DRComponent        c  = f->c;
  PetscInt           ia = DRComponentFindNode(c, el->a), ib = DRComponentFindNode(c, el->b);
  const PetscReal    xa[2] = {c->xyz[3 * ia], c->xyz[3 * ia + 1]}, xb[2] = {c->xyz[3 * ib], c->xyz[3 * ib + 1]};

  PetscFunctionBeginUser;
  if (el->ra >= 0) {
    const DRLabel l[6] = {DRLabelMake(el->a, 1), DRLabelMake(el->a, 2), DRLabelMake(el->ra, 6), DRLabelMake(el->b, 1), DRLabelMake(el->b, 2), DRLabelMake(el->rb, 6)};
    for (int i = 0; i < 6; i++) rows[i] = DRBuiltinRow(c, l[i]);
    *nd = 6;
    if (want_values) {
      PetscCall(DRBeam2DMatrices(xa, xb, &f->p->sec[f->p->nsec == 1 ? 0 : el->k], f->p->lumped, f->Ke, f->Me));
      *Ke = f->Ke;
      *Me = f->Me;
    }
  } else {
    const DRLabel l[4] = {DRLabelMake(el->a, 1), DRLabelMake(el->a, 2), DRLabelMake(el->b, 1), DRLabelMake(el->b, 2)};
    for (int i = 0; i < 4; i++) rows[i] = DRBuiltinRow(c, l[i]);
    *nd = 4;
    if (want_values) {
      const PetscReal L = PetscSqrtReal((xb[0] - xa[0]) * (xb[0] - xa[0]) + (xb[1] - xa[1]) * (xb[1] - xa[1]));
      const PetscReal n[4] = {(xb[0] - xa[0]) / L, (xb[1] - xa[1]) / L, -(xb[0] - xa[0]) / L, -(xb[1] - xa[1]) / L};
      /* k (d_b - d_a).n along the line joining the nodes */
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) f->Ke[4 * i + j] = f->p->spring_k[el->k] * n[i] * n[j];
      *Ke = f->Ke;
      *Me = NULL;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Check the frame's lists; the given node ids sorted (gid, with gperm into
 * p->node_ids), the largest id, the element count and the nodes to add
 * (member interiors and hinges). */
static PetscErrorCode Frame2DCheck(MPI_Comm comm, const DRFrame2DParams *p, const char *what, PetscInt gid[], PetscInt gperm[], PetscInt *maxid_out, PetscInt *nelem_out, PetscInt *nnew_out)
{
  PetscInt maxid, nelem = 0, nnew = 0;

  PetscFunctionBeginUser;
  PetscCheck(p->nnodes > 0 && p->nmembers + p->nsprings > 0, comm, DR_ERR_INPUT, "%s: %" PetscInt_FMT " nodes, %" PetscInt_FMT " members, %" PetscInt_FMT " springs, expected nodes and at least one member or spring", what, p->nnodes, p->nmembers, p->nsprings);
  PetscCheck(p->nmembers == 0 || (p->sec && (p->nsec == 1 || p->nsec == p->nmembers)), comm, DR_ERR_INPUT, "%s: %" PetscInt_FMT " sections for %" PetscInt_FMT " members, expected 1 or one per member", what, p->nsec, p->nmembers);
  PetscCheck(p->node_ids && p->xy && (!p->nmembers || p->members) && (!p->nsprings || (p->springs && p->spring_k)) && (!p->nfixed || p->fixed), comm, DR_ERR_INPUT, "%s: a node, member, spring or fixed-DOF list is missing (NULL) for its nonzero count", what);
  for (PetscInt i = 0; i < p->nmembers && p->nsec > 1; i++) PetscCheck(p->sec[i].rho > 0, comm, DR_ERR_INPUT, "%s: member %" PetscInt_FMT " has rho = %g, expected a positive density", what, i + 1, (double)p->sec[i].rho);
  if (p->nmembers) PetscCheck(p->sec[0].rho > 0, comm, DR_ERR_INPUT, "%s: rho = %g, expected a positive density", what, (double)p->sec[0].rho);

  /* Given nodes, sorted by id. */
  for (PetscInt i = 0; i < p->nnodes; i++) {
    PetscCheck(p->node_ids[i] >= 0, comm, DR_ERR_INPUT, "%s: node id %" PetscInt_FMT " is negative, expected ids >= 0", what, p->node_ids[i]);
    gid[i]   = p->node_ids[i];
    gperm[i] = i;
  }
  PetscCall(PetscSortIntWithArray(p->nnodes, gid, gperm));
  for (PetscInt i = 1; i < p->nnodes; i++) PetscCheck(gid[i] != gid[i - 1], comm, DR_ERR_INPUT, "%s: node %" PetscInt_FMT " is given twice, expected unique node ids", what, gid[i]);
  maxid = gid[p->nnodes - 1];
  for (PetscInt m = 0; m < p->nmembers; m++) {
    PetscInt ne = p->nel ? p->nel[m] : 1;
    PetscCheck(ne >= 1, comm, DR_ERR_INPUT, "%s: member %" PetscInt_FMT " has nel = %" PetscInt_FMT ", expected at least 1", what, m + 1, ne);
    for (int t = 0; t < 2; t++) {
      PetscInt loc;
      PetscCall(PetscFindInt(p->members[2 * m + t], p->nnodes, gid, &loc));
      PetscCheck(loc >= 0, comm, DR_ERR_INPUT, "%s: member %" PetscInt_FMT " refers to node %" PetscInt_FMT ", which is not in the node list", what, m + 1, p->members[2 * m + t]);
      if (p->hinge && p->hinge[2 * m + t]) nnew++;
    }
    PetscCheck(p->members[2 * m] != p->members[2 * m + 1], comm, DR_ERR_INPUT, "%s: member %" PetscInt_FMT " joins node %" PetscInt_FMT " to itself, expected two different nodes", what, m + 1, p->members[2 * m]);
    nelem += ne;
    nnew += ne - 1;
  }
  for (PetscInt s = 0; s < p->nsprings; s++) {
    for (int t = 0; t < 2; t++) {
      PetscInt loc;
      PetscCall(PetscFindInt(p->springs[2 * s + t], p->nnodes, gid, &loc));
      PetscCheck(loc >= 0, comm, DR_ERR_INPUT, "%s: spring %" PetscInt_FMT " refers to node %" PetscInt_FMT ", which is not in the node list", what, s + 1, p->springs[2 * s + t]);
    }
    PetscCheck(p->spring_k[s] >= 0, comm, DR_ERR_INPUT, "%s: spring %" PetscInt_FMT " has k = %g, expected k >= 0", what, s + 1, (double)p->spring_k[s]);
    {
      const PetscInt ia = gperm[FindSorted(p->springs[2 * s], p->nnodes, gid)], ib = gperm[FindSorted(p->springs[2 * s + 1], p->nnodes, gid)];
      PetscCheck(p->xy[2 * ia] != p->xy[2 * ib] || p->xy[2 * ia + 1] != p->xy[2 * ib + 1], comm, DR_ERR_INPUT, "%s: spring %" PetscInt_FMT " joins nodes %" PetscInt_FMT " and %" PetscInt_FMT " at the same point, expected distinct points (the spring acts along the line joining them)", what, s + 1, p->springs[2 * s], p->springs[2 * s + 1]);
    }
  }

  *maxid_out = maxid;
  *nelem_out = nelem;
  *nnew_out  = nnew;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The DOFs: the labels the elements use, less the fixed ones (which form
 * the node set "fixed"). */
static PetscErrorCode Frame2DLabels(MPI_Comm comm, const DRFrame2DParams *p, const char *what, const Frame2DElem *el, DRComponent c)
{
  PetscInt  ncand = 0, nfree = 0;
  DRLabel  *cand;
  PetscBool *removed;
  char      b[32];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(6 * c->ncells, &cand));
  for (PetscInt e = 0; e < c->ncells; e++) {
    cand[ncand++] = DRLabelMake(el[e].a, 1);
    cand[ncand++] = DRLabelMake(el[e].a, 2);
    cand[ncand++] = DRLabelMake(el[e].b, 1);
    cand[ncand++] = DRLabelMake(el[e].b, 2);
    if (el[e].ra >= 0) {
      cand[ncand++] = DRLabelMake(el[e].ra, 6);
      cand[ncand++] = DRLabelMake(el[e].rb, 6);
    }
  }
  PetscCall(PetscSortInt64(ncand, cand));
  {
    PetscInt k = 0;
    for (PetscInt i = 0; i < ncand; i++)
      if (!k || cand[i] != cand[k - 1]) cand[k++] = cand[i];
    ncand = k;
  }
  PetscCall(PetscCalloc1(ncand, &removed));
  {
    PetscInt *fixed_nodes, nfn = 0;
    PetscCall(PetscMalloc1(p->nfixed + 1, &fixed_nodes));
    for (PetscInt i = 0; i < p->nfixed; i++) {
      PetscInt k = DRLabelsFind(ncand, cand, p->fixed[i]);
      PetscCheck(k >= 0, comm, DR_ERR_INPUT, "%s: fixed DOF %s is not a DOF of the frame, expected a node used by a member or spring and direction 1, 2 or 6 (not a rotation released by hinges at every member end)", what, DRLabelString(p->fixed[i], b));
      removed[k]         = PETSC_TRUE;
      fixed_nodes[nfn++] = (PetscInt)DRLabelNode(p->fixed[i]);
    }
    if (nfn) PetscCall(DRComponentAddNodeSet(c, "fixed", nfn, fixed_nodes));
    PetscCall(PetscFree(fixed_nodes));
  }
  for (PetscInt i = 0; i < ncand; i++)
    if (!removed[i]) nfree++;
  PetscCheck(nfree > 0, comm, DR_ERR_INPUT, "%s: every DOF is fixed, expected some free DOFs", what);
  c->n = nfree;
  PetscCall(PetscMalloc1(nfree, &c->labels));
  nfree = 0;
  for (PetscInt i = 0; i < ncand; i++)
    if (!removed[i]) c->labels[nfree++] = cand[i];
  PetscCall(PetscFree(removed));
  PetscCall(PetscFree(cand));

  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinFrame2D(MPI_Comm comm, const DRFrame2DParams *p, DRComponent *comp)
{
  const char  *what = "builtin:frame2d";
  PetscInt    *gid, *gperm, maxid = 0, next, nelem = 0, nnew = 0, nall, *aid;
  PetscReal   *axy;
  Frame2DElem *el;
  Frame2DCtx   ctx;
  DRComponent  c;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(p->nnodes, &gid, p->nnodes, &gperm));
  PetscCall(Frame2DCheck(comm, p, what, gid, gperm, &maxid, &nelem, &nnew));

  /* All nodes: given, member interiors, hinges. */
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Generate, 0, 0, 0, 0));
  nall = p->nnodes + nnew;
  PetscCall(PetscMalloc2(nall, &aid, 2 * nall, &axy));
  for (PetscInt i = 0; i < p->nnodes; i++) {
    aid[i]         = p->node_ids[i];
    axy[2 * i]     = p->xy[2 * i];
    axy[2 * i + 1] = p->xy[2 * i + 1];
  }
#define GIVEN_XY(id, d) p->xy[2 * gperm[FindSorted((id), p->nnodes, gid)] + (d)]
  PetscCall(PetscMalloc1(nelem + p->nsprings, &el));
  next = maxid + 1;
  nall = p->nnodes;
  nelem = 0;
  for (PetscInt m = 0; m < p->nmembers; m++) {
    const PetscInt ne = p->nel ? p->nel[m] : 1, n0 = p->members[2 * m], n1 = p->members[2 * m + 1];
    PetscInt       first = next;
    PetscReal      x0[2], x1[2];
    for (int d = 0; d < 2; d++) {
      x0[d] = GIVEN_XY(n0, d);
      x1[d] = GIVEN_XY(n1, d);
    }
    for (PetscInt t = 1; t < ne; t++) {
      aid[nall] = next++;
      for (int d = 0; d < 2; d++) axy[2 * nall + d] = x0[d] + (x1[d] - x0[d]) * (PetscReal)t / ne;
      nall++;
    }
    for (PetscInt t = 0; t < ne; t++) {
      Frame2DElem *E = &el[nelem + t];
      E->a = E->ra = t == 0 ? n0 : first + t - 1;
      E->b = E->rb = t == ne - 1 ? n1 : first + t;
      E->k = m;
    }
    nelem += ne;
  }
  /* Hinge nodes after all interior nodes. */
  for (PetscInt m = 0, e0 = 0; m < p->nmembers; m++) {
    const PetscInt ne = p->nel ? p->nel[m] : 1;
    for (int t = 0; t < 2; t++) {
      PetscInt orig = p->members[2 * m + t];
      if (!(p->hinge && p->hinge[2 * m + t])) continue;
      aid[nall]         = next;
      axy[2 * nall]     = GIVEN_XY(orig, 0);
      axy[2 * nall + 1] = GIVEN_XY(orig, 1);
      nall++;
      if (t == 0) el[e0].ra = next++;
      else el[e0 + ne - 1].rb = next++;
    }
    e0 += ne;
  }
#undef GIVEN_XY
  for (PetscInt s = 0; s < p->nsprings; s++) {
    Frame2DElem *E = &el[nelem + s];
    E->a           = p->springs[2 * s];
    E->b           = p->springs[2 * s + 1];
    E->ra = E->rb = -1;
    E->k          = s;
  }

  PetscCall(DRComponentCreate(comm, "frame2d", &c));
  PetscCall(PetscStrncpy(c->source, what, sizeof(c->source)));
  c->nnodes = nall;
  PetscCall(PetscMalloc1(nall, &c->node_ids));
  PetscCall(PetscMalloc1(3 * nall, &c->xyz));
  {
    PetscInt *perm;
    PetscCall(PetscMalloc1(nall, &perm));
    for (PetscInt i = 0; i < nall; i++) {
      c->node_ids[i] = aid[i];
      perm[i]        = i;
    }
    PetscCall(PetscSortIntWithArray(nall, c->node_ids, perm));
    for (PetscInt i = 0; i < nall; i++) {
      c->xyz[3 * i]     = axy[2 * perm[i]];
      c->xyz[3 * i + 1] = axy[2 * perm[i] + 1];
      c->xyz[3 * i + 2] = 0;
    }
    PetscCall(PetscFree(perm));
  }
  PetscCall(PetscFree2(aid, axy));
  c->celltype = DR_CELL_LINE2;
  c->ncells   = nelem + p->nsprings;
  PetscCall(PetscMalloc1(2 * c->ncells, &c->cells));
  for (PetscInt e = 0; e < c->ncells; e++) {
    c->cells[2 * e]     = el[e].a;
    c->cells[2 * e + 1] = el[e].b;
  }

  PetscCall(Frame2DLabels(comm, p, what, el, c));

  ctx.p  = p;
  ctx.c  = c;
  ctx.el = el;
  PetscCall(DRBuiltinAssembleElements(c, c->ncells, Frame2DElement, NULL, &ctx));
  PetscCall(PetscFree(el));
  PetscCall(PetscFree2(gid, gperm));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Generate, 0, 0, 0, 0));
  PetscCall(DRComponentValidate(c, 1e-12));
  *comp = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinCantilever2D(MPI_Comm comm, PetscReal L, PetscInt nel, const DRBeamSection *sec, PetscBool lumped, DRComponent *c)
{
  DRFrame2DParams p;
  DRLabel         fixed[3] = {DRLabelMake(1, 1), DRLabelMake(1, 2), DRLabelMake(1, 6)};

  PetscFunctionBeginUser;
  PetscCheck(L > 0 && nel >= 1, comm, DR_ERR_INPUT, "builtin:cantilever2d: L = %g, nel = %" PetscInt_FMT ", expected L > 0 and nel >= 1", (double)L, nel);
  PetscCall(PetscMemzero(&p, sizeof(p)));
  p.nnodes   = nel + 1;
  p.nmembers = nel;
  PetscCall(PetscMalloc3(nel + 1, &p.node_ids, 2 * (nel + 1), &p.xy, 2 * nel, &p.members));
  /* Nodes 1 .. nel+1 along x, one member per element. */
  for (PetscInt i = 0; i <= nel; i++) {
    p.node_ids[i]    = i + 1;
    p.xy[2 * i]      = i == nel ? L : L * i / nel;
    p.xy[2 * i + 1]  = 0;
  }
  for (PetscInt e = 0; e < nel; e++) {
    p.members[2 * e]     = e + 1;
    p.members[2 * e + 1] = e + 2;
  }
  p.sec    = (DRBeamSection *)sec;
  p.nsec   = 1;
  p.lumped = lumped;
  p.nfixed = 3;
  p.fixed  = fixed;
  PetscCall(DRBuiltinFrame2D(comm, &p, c));
  PetscCall(PetscFree3(p.node_ids, p.xy, p.members));
  PetscCall(PetscStrncpy((*c)->name, "cantilever2d", sizeof((*c)->name)));
  PetscCall(PetscStrncpy((*c)->source, "builtin:cantilever2d", sizeof((*c)->source)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
