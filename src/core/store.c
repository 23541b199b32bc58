/* HDF5 result store (parallel HDF5), written atomically, with XDMF. */
#include <dynred/store.h>
#include <dynred/h5.h>
#include <dynred/preflight.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char     group[256];
  PetscInt nv;
  char   **names;
} ShapeSet;

struct _p_DRStore {
  MPI_Comm    comm;
  PetscMPIInt rank;
  char        path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 32];
  hid_t       file;
  PetscInt    nnodes, ncells, ntop; /* ntop: integers in /mesh/topology */
  DRCellType  celltype;
  ShapeSet   *shapes;
  PetscInt    nshapes;
};

PetscInt DRCellNodes(DRCellType t)
{
  switch (t) {
  case DR_CELL_LINE2: return 2;
  case DR_CELL_TET4: return 4;
  case DR_CELL_TET10: return 10;
  case DR_CELL_HEX8: return 8;
  case DR_CELL_HEX20: return 20;
  case DR_CELL_VERTEX: return 1;
  case DR_CELL_LINE3: return 3;
  case DR_CELL_TRI3: return 3;
  case DR_CELL_TRI6: return 6;
  case DR_CELL_QUAD4: return 4;
  case DR_CELL_QUAD8: return 8;
  case DR_CELL_WEDGE6: return 6;
  case DR_CELL_WEDGE15: return 15;
  case DR_CELL_MIXED: return DR_CELL_MIXED_WIDTH;
  default: return 0;
  }
}

const char *DRCellName(DRCellType t)
{
  switch (t) {
  case DR_CELL_LINE2: return "Polyline";
  case DR_CELL_TET4: return "Tetrahedron";
  case DR_CELL_TET10: return "Tetrahedron_10";
  case DR_CELL_HEX8: return "Hexahedron";
  case DR_CELL_HEX20: return "Hexahedron_20";
  case DR_CELL_VERTEX: return "Polyvertex";
  case DR_CELL_LINE3: return "Edge_3";
  case DR_CELL_TRI3: return "Triangle";
  case DR_CELL_TRI6: return "Triangle_6";
  case DR_CELL_QUAD4: return "Quadrilateral";
  case DR_CELL_QUAD8: return "Quadrilateral_8";
  case DR_CELL_WEDGE6: return "Wedge";
  case DR_CELL_WEDGE15: return "Wedge_15";
  case DR_CELL_MIXED: return "Mixed";
  default: return "None";
  }
}

/* XDMF's code of a shape in a Mixed topology (XDMF's XdmfTopology type
 * table); 0 for none. */
static PetscInt CellXdmfCode(DRCellType t)
{
  switch (t) {
  case DR_CELL_VERTEX: return 0x1;
  case DR_CELL_LINE2: return 0x2;
  case DR_CELL_TRI3: return 0x4;
  case DR_CELL_QUAD4: return 0x5;
  case DR_CELL_TET4: return 0x6;
  case DR_CELL_WEDGE6: return 0x8;
  case DR_CELL_HEX8: return 0x9;
  case DR_CELL_LINE3: return 0x22;
  case DR_CELL_TRI6: return 0x24;
  case DR_CELL_QUAD8: return 0x25;
  case DR_CELL_TET10: return 0x26;
  case DR_CELL_WEDGE15: return 0x28;
  case DR_CELL_HEX20: return 0x30;
  default: return 0;
  }
}

PetscErrorCode DRStoreCreate(MPI_Comm comm, const char *path, DRStore *s)
{
  DRStore st;
  long    pid;

  PetscFunctionBeginUser;
  PetscCall(DRSysInitializePackage());
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCall(PetscNew(&st));
  st->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &st->rank));
  PetscCheck(path && path[0], comm, DR_ERR_INPUT, "output file name is empty, expected a file name (output: in the job file, or -output)");
  PetscCall(PetscStrncpy(st->path, path, sizeof(st->path)));
  pid = (long)getpid();
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_LONG, 0, comm));
  snprintf(st->tmp, sizeof(st->tmp), "%s.tmp.%ld", path, pid);
  PetscCall(DRH5FileOpen(comm, st->tmp, DR_H5_CREATE, &st->file));
  PetscCheck(st->file >= 0, comm, DR_ERR_INPUT, "%s: cannot create output file (does the directory exist and is it writable?)", st->tmp);
  DRTempRegister(st->tmp);
  *s = st;
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  {
    /* test hook (tests/e2e/rank_failure.sh): one rank fails alone with its output open */
    PetscInt fr = -1;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-test_fail_rank_output", &fr, NULL));
    PetscCheck(fr != st->rank, PETSC_COMM_SELF, DR_ERR_INPUT, "rank %d failed alone with %s open (test hook -test_fail_rank_output)", st->rank, st->tmp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreAttrString(DRStore s, const char *group, const char *name, const char *value)
{
  hid_t g;

  PetscFunctionBeginUser;
  PetscCall(DRH5GroupOpen(s->file, group, PETSC_TRUE, &g));
  PetscCall(DRH5AttrWriteString(g, ".", name, value));
  H5Gclose(g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreAttrReal(DRStore s, const char *group, const char *name, PetscReal value)
{
  hid_t g;

  PetscFunctionBeginUser;
  PetscCall(DRH5GroupOpen(s->file, group, PETSC_TRUE, &g));
  PetscCall(DRH5AttrWriteReal(g, ".", name, value));
  H5Gclose(g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreAttrInt(DRStore s, const char *group, const char *name, PetscInt64 value)
{
  hid_t g;

  PetscFunctionBeginUser;
  PetscCall(DRH5GroupOpen(s->file, group, PETSC_TRUE, &g));
  PetscCall(DRH5AttrWriteInt(g, ".", name, H5T_NATIVE_LLONG, value));
  H5Gclose(g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Create dset and let rank 0 write all of it. */
static PetscErrorCode WriteRoot(DRStore s, const char *dset, int ndims, const PetscInt dims[], hid_t type, const void *data, const char *units)
{
  hsize_t hd[4];

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCheck(ndims >= 1 && ndims <= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ndims %d", ndims);
  for (int i = 0; i < ndims; i++) hd[i] = (hsize_t)dims[i];
  PetscCall(DRH5Write(s->file, dset, type, type, ndims, hd, (PetscBool)(s->rank == 0), data));
  if (units) PetscCall(DRH5AttrWriteString(s->file, dset, "units", units));
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteReal(DRStore s, const char *dset, int ndims, const PetscInt dims[], const PetscReal *data, const char *units)
{
  PetscFunctionBeginUser;
  PetscCall(WriteRoot(s, dset, ndims, dims, H5T_NATIVE_DOUBLE, data, units));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteInt(DRStore s, const char *dset, int ndims, const PetscInt dims[], const PetscInt64 *data)
{
  PetscFunctionBeginUser;
  PetscCall(WriteRoot(s, dset, ndims, dims, H5T_NATIVE_LLONG, data, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteStrings(DRStore s, const char *dset, PetscInt n, const char *const strs[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCall(DRH5WriteStrings(s->file, dset, n, strs, (PetscBool)(s->rank == 0)));
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteLabels(DRStore s, const char *dset, PetscInt n, const DRLabel labels[])
{
  PetscInt64 *buf = NULL;
  PetscInt    dims[2] = {n, 2};

  PetscFunctionBeginUser;
  if (!s->rank) {
    PetscCall(PetscMalloc1(2 * n + 1, &buf));
    for (PetscInt i = 0; i < n; i++) {
      buf[2 * i]     = DRLabelNode(labels[i]);
      buf[2 * i + 1] = DRLabelDir(labels[i]);
    }
  }
  PetscCall(DRStoreWriteInt(s, dset, 2, dims, buf));
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteVecs(DRStore s, const char *dset, PetscInt nv, Vec v[], const char *units)
{
  hsize_t    hd[2];
  PetscInt   N = 0, rs = 0, re = 0;
  PetscReal *buf;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  if (nv) {
    PetscCall(VecGetSize(v[0], &N));
    PetscCall(VecGetOwnershipRange(v[0], &rs, &re));
  }
  hd[0] = (hsize_t)N;
  hd[1] = (hsize_t)nv;
  PetscCall(PetscMalloc1((size_t)(re - rs) * nv + 1, &buf));
  for (PetscInt j = 0; j < nv; j++) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(v[j], &a));
    for (PetscInt i = 0; i < re - rs; i++) buf[i * nv + j] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(v[j], &a));
  }
  PetscCall(DRH5WriteRows(s->file, dset, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 2, hd, (hsize_t)rs, (hsize_t)(re - rs), buf));
  if (units) PetscCall(DRH5AttrWriteString(s->file, dset, "units", units));
  PetscCall(PetscFree(buf));
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Index of node id `node` in the ascending ids[n]; -1 when absent. */
static PetscInt FindNode(PetscInt n, const PetscInt ids[], PetscInt64 node)
{
  PetscInt lo = 0, hi = n - 1;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (ids[mid] == node) return mid;
    if (ids[mid] < node) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

PetscErrorCode DRStoreWriteMesh(DRStore s, PetscInt nnodes, const PetscInt node_ids[], const PetscReal xyz[], DRCellType celltype, PetscInt ncells, const PetscInt cells[])
{
  PetscInt    nv = DRCellNodes(celltype), dims[2];
  PetscInt64 *buf = NULL;

  PetscFunctionBeginUser;
  if (!nnodes) PetscFunctionReturn(PETSC_SUCCESS);
  dims[0] = nnodes;
  dims[1] = 3;
  PetscCall(DRStoreWriteReal(s, "/mesh/coordinates", 2, dims, xyz, NULL));
  if (!s->rank) {
    PetscCall(PetscMalloc1(nnodes, &buf));
    for (PetscInt i = 0; i < nnodes; i++) buf[i] = node_ids[i];
  }
  PetscCall(DRStoreWriteInt(s, "/mesh/node_ids", 1, dims, buf));
  PetscCall(PetscFree(buf));
  s->nnodes = nnodes;
  if (nv && ncells && celltype == DR_CELL_MIXED) {
    /* XDMF's Mixed topology rather than one grid per cell type in a
     * collection: one unstructured grid keeps each node and each mode-shape
     * attribute once, so ParaView's filters (Warp By Vector, the animation
     * of a mode) act on the whole component at once, and both of ParaView's
     * XDMF readers (Xdmf2, Xdmf3) read it into one vtkUnstructuredGrid.
     * Polyvertex and Polyline cells carry their node count after the type
     * code, as XDMF defines for its variable-size cells and ParaView reads
     * it (vtkXdmfHeavyData: the count follows for VTK_POLY_VERTEX and
     * VTK_POLY_LINE).  Only rank 0 holds the cells in every caller: it
     * sizes the array. */
    PetscInt64 len = 0;
    if (!s->rank) {
      for (PetscInt e = 0; e < ncells; e++) {
        DRCellType t = (DRCellType)(-cells[e * nv]);
        len += 1 + (t == DR_CELL_LINE2 || t == DR_CELL_VERTEX) + DRCellNodes(t);
      }
      PetscCall(PetscMalloc1(len, &buf));
      len = 0;
      for (PetscInt e = 0; e < ncells; e++) {
        DRCellType t = (DRCellType)(-cells[e * nv]);
        buf[len++]   = CellXdmfCode(t);
        if (t == DR_CELL_LINE2 || t == DR_CELL_VERTEX) buf[len++] = DRCellNodes(t);
        for (PetscInt k = 0; k < DRCellNodes(t); k++) buf[len++] = FindNode(nnodes, node_ids, cells[e * nv + 1 + k]);
      }
    }
    PetscCallMPI(MPI_Bcast(&len, 1, MPIU_INT64, 0, s->comm));
    dims[0] = (PetscInt)len;
    PetscCall(DRStoreWriteInt(s, "/mesh/topology", 1, dims, buf));
    PetscCall(DRStoreAttrString(s, "/mesh", "celltype", DRCellName(celltype)));
    PetscCall(PetscFree(buf));
    s->ncells   = ncells;
    s->ntop     = (PetscInt)len;
    s->celltype = celltype;
  } else if (nv && ncells) {
    dims[0] = ncells;
    dims[1] = nv;
    if (!s->rank) {
      PetscCall(PetscMalloc1(ncells * nv, &buf));
      for (PetscInt i = 0; i < ncells * nv; i++) buf[i] = FindNode(nnodes, node_ids, cells[i]);
    }
    PetscCall(DRStoreWriteInt(s, "/mesh/topology", 2, dims, buf));
    PetscCall(DRStoreAttrString(s, "/mesh", "celltype", DRCellName(celltype)));
    PetscCall(PetscFree(buf));
    s->ncells   = ncells;
    s->celltype = celltype;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteShapes(DRStore s, const char *group, PetscInt nnodes, const PetscInt node_ids[], PetscInt n, const DRLabel labels[], PetscInt nv, Vec v[], const char *const names[])
{
  PetscInt  *node_of = NULL; /* DOF -> node index, or -1 for rotations */
  PetscReal *buf     = NULL, *w = NULL;
  PetscInt   dims[2] = {nnodes, 3};
  ShapeSet  *ss;

  PetscFunctionBeginUser;
  if (!nnodes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  if (!s->rank) {
    PetscCall(PetscMalloc1(n, &node_of));
    for (PetscInt i = 0; i < n; i++) node_of[i] = DRLabelDir(labels[i]) >= 1 && DRLabelDir(labels[i]) <= 3 ? FindNode(nnodes, node_ids, DRLabelNode(labels[i])) : -1;
    PetscCall(PetscMalloc1(3 * nnodes, &buf));
    /* Several rows of one node.dir (copies: the nodes CalculiX expands a
     * shell, beam or 2-D node into) show their mean, the motion of the
     * mid-surface or axis for a symmetric expansion. */
    PetscCall(PetscCalloc1(3 * nnodes, &w));
    for (PetscInt i = 0; i < n; i++)
      if (node_of[i] >= 0) w[3 * node_of[i] + DRLabelDir(labels[i]) - 1] += 1;
    for (PetscInt k = 0; k < 3 * nnodes; k++) w[k] = w[k] > 0 ? 1 / w[k] : 0;
  }
  /* One shape at a time through rank 0 (memory O(n) there, whatever nv is),
   * each its own dataset GROUP/shapes/NNNN so any XDMF reader can use it. */
  for (PetscInt j = 0; j < nv; j++) {
    Vec        z;
    VecScatter sc;
    char       dset[512];
    PetscCall(VecScatterCreateToZero(v[j], &sc, &z));
    PetscCall(VecScatterBegin(sc, v[j], z, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sc, v[j], z, INSERT_VALUES, SCATTER_FORWARD));
    if (!s->rank) {
      const PetscScalar *a;
      PetscCall(PetscArrayzero(buf, 3 * nnodes));
      PetscCall(VecGetArrayRead(z, &a));
      for (PetscInt i = 0; i < n; i++)
        if (node_of[i] >= 0) buf[3 * node_of[i] + DRLabelDir(labels[i]) - 1] += w[3 * node_of[i] + DRLabelDir(labels[i]) - 1] * PetscRealPart(a[i]);
      PetscCall(VecRestoreArrayRead(z, &a));
    }
    snprintf(dset, sizeof(dset), "%s/shapes/%04ld", group, (long)(j + 1));
    PetscCall(DRStoreWriteReal(s, dset, 2, dims, buf, NULL));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&z));
  }
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(w));
  PetscCall(PetscFree(node_of));
  /* Remember for the XDMF file. */
  {
    ShapeSet *nw;
    PetscCall(PetscCalloc1(s->nshapes + 1, &nw));
    if (s->nshapes) PetscCall(PetscArraycpy(nw, s->shapes, s->nshapes));
    PetscCall(PetscFree(s->shapes));
    s->shapes = nw;
    ss        = &s->shapes[s->nshapes++];
    PetscCall(PetscStrncpy(ss->group, group, sizeof(ss->group)));
    ss->nv = nv;
    PetscCall(PetscMalloc1(nv, &ss->names));
    for (PetscInt j = 0; j < nv; j++) PetscCall(PetscStrallocpy(names[j], &ss->names[j]));
  }
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PATH.xdmf: one grid on /mesh, one vector attribute per stored shape, so
 * ParaView lists the modes by name. */
static PetscErrorCode WriteXDMF(DRStore s)
{
  char        xpath[PETSC_MAX_PATH_LEN + 8], xtmp[PETSC_MAX_PATH_LEN + 40];
  const char *base = strrchr(s->path, '/');
  FILE       *f;
  PetscInt    nv = DRCellNodes(s->celltype);

  PetscFunctionBeginUser;
  base = base ? base + 1 : s->path;
  snprintf(xpath, sizeof(xpath), "%.*s.xdmf", (int)(strlen(s->path) - (strlen(s->path) > 3 && !strcmp(s->path + strlen(s->path) - 3, ".h5") ? 3 : 0)), s->path);
  snprintf(xtmp, sizeof(xtmp), "%s.tmp", xpath);
  f = fopen(xtmp, "w");
  PetscCheck(f, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write the ParaView index of %s (%s), expected a writable file path", xtmp, s->path, strerror(errno));
  fprintf(f, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"2.0\">\n <Domain>\n  <Grid Name=\"model\" GridType=\"Uniform\">\n");
  if (s->celltype == DR_CELL_MIXED && s->ncells) {
    fprintf(f, "   <Topology TopologyType=\"Mixed\" NumberOfElements=\"%ld\">\n", (long)s->ncells);
    fprintf(f, "    <DataItem Dimensions=\"%ld\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">%s:/mesh/topology</DataItem>\n   </Topology>\n", (long)s->ntop, base);
  } else if (nv && s->ncells) {
    fprintf(f, "   <Topology TopologyType=\"%s\" NumberOfElements=\"%ld\"%s>\n", DRCellName(s->celltype), (long)s->ncells, s->celltype == DR_CELL_LINE2 ? " NodesPerElement=\"2\"" : s->celltype == DR_CELL_VERTEX ? " NodesPerElement=\"1\"" : "");
    fprintf(f, "    <DataItem Dimensions=\"%ld %ld\" NumberType=\"Int\" Precision=\"8\" Format=\"HDF\">%s:/mesh/topology</DataItem>\n   </Topology>\n", (long)s->ncells, (long)nv, base);
  } else {
    fprintf(f, "   <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%ld\"/>\n", (long)s->nnodes);
  }
  fprintf(f, "   <Geometry GeometryType=\"XYZ\">\n    <DataItem Dimensions=\"%ld 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:/mesh/coordinates</DataItem>\n   </Geometry>\n", (long)s->nnodes, base);
  for (PetscInt k = 0; k < s->nshapes; k++)
    for (PetscInt j = 0; j < s->shapes[k].nv; j++) {
      fprintf(f, "   <Attribute Name=\"%s\" AttributeType=\"Vector\" Center=\"Node\">\n", s->shapes[k].names[j]);
      fprintf(f, "    <DataItem Dimensions=\"%ld 3\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">%s:%s/shapes/%04ld</DataItem>\n", (long)s->nnodes, base, s->shapes[k].group, (long)(j + 1));
      fprintf(f, "   </Attribute>\n");
    }
  fprintf(f, "  </Grid>\n </Domain>\n</Xdmf>\n");
  if (fclose(f) || rename(xtmp, xpath)) { /* nothing half-written left */
    int e = errno;
    (void)unlink(xtmp);
    SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write the ParaView index of %s (%s), expected a writable file path", xpath, s->path, strerror(e));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreClose(DRStore *sp, PetscBool commit)
{
  DRStore s = *sp;
  int     ok, renamed = 0;

  PetscErrorCode xerr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  /* Abandoned (a failed job): rank 0 removes the temporary file first, so it
   * is gone even when the other ranks never reach the collective close below
   * (an error raised on one rank only). */
  if (!commit && !s->rank) unlink(s->tmp);
  ok = H5Fclose(s->file) >= 0; /* a failed close is reported below, collectively */
  PetscCallMPI(MPI_Barrier(s->comm));
  if (!s->rank) {
    /* errno of a failed rename; the temporary file is removed (nothing
     * half-written is left) and every rank raises the error below */
    if (commit && ok) renamed = rename(s->tmp, s->path) ? (errno ? errno : EIO) : 0;
    if (!(commit && ok) || renamed) unlink(s->tmp);
    else if (s->nnodes) xerr = WriteXDMF(s); /* its failure (one line, rank 0) reaches every rank below */
  }
  DRTempForget(s->tmp);
  PetscCallMPI(MPI_Bcast(&renamed, 1, MPI_INT, 0, s->comm));
  PetscCheck(!renamed, s->comm, DR_ERR_INPUT, "%s: cannot rename the finished output %s to it (%s), expected a writable file path", s->path, s->tmp, strerror(renamed));
  for (PetscInt k = 0; k < s->nshapes; k++) {
    for (PetscInt j = 0; j < s->shapes[k].nv; j++) PetscCall(PetscFree(s->shapes[k].names[j]));
    PetscCall(PetscFree(s->shapes[k].names));
  }
  PetscCall(PetscFree(s->shapes));
  PetscCheck(ok || !commit, s->comm, PETSC_ERR_FILE_WRITE, "%s: closing the HDF5 file failed", s->tmp);
  {
    MPI_Comm comm = s->comm;
    PetscCall(PetscFree(*sp));
    PetscCall(DRRootAgree(comm, xerr));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
