/* HDF5 result store (parallel HDF5), written atomically, with XDMF. */
#include <dynred/store.h>
#include <hdf5.h>
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
  PetscInt    nnodes, ncells;
  DRCellType  celltype;
  ShapeSet   *shapes;
  PetscInt    nshapes;
};

#define H5CHK(expr)                                                                                 \
  do {                                                                                              \
    if ((expr) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "HDF5 error in %s", #expr);     \
  } while (0)

PetscErrorCode DRStoreCreate(MPI_Comm comm, const char *path, DRStore *s)
{
  DRStore st;
  hid_t   fapl;
  long    pid;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCall(PetscNew(&st));
  st->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &st->rank));
  PetscCall(PetscStrncpy(st->path, path, sizeof(st->path)));
  pid = (long)getpid();
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_LONG, 0, comm));
  snprintf(st->tmp, sizeof(st->tmp), "%s.tmp.%ld", path, pid);
  H5CHK(fapl = H5Pcreate(H5P_FILE_ACCESS));
  H5CHK(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  st->file = H5Fcreate(st->tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  PetscCheck(st->file >= 0, comm, DR_ERR_INPUT, "%s: cannot create output file (does the directory exist and is it writable?)", st->tmp);
  *s = st;
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Open a group, creating the missing ones along the path. */
static PetscErrorCode OpenGroup(DRStore s, const char *group, hid_t *g)
{
  char buf[512];

  PetscFunctionBeginUser;
  if (!group[0] || !strcmp(group, "/")) {
    H5CHK(*g = H5Gopen2(s->file, "/", H5P_DEFAULT));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrncpy(buf, group, sizeof(buf)));
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || !*p) {
      char c = *p;
      *p     = 0;
      if (H5Lexists(s->file, buf, H5P_DEFAULT) <= 0) {
        hid_t ng;
        H5CHK(ng = H5Gcreate2(s->file, buf, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        H5Gclose(ng);
      }
      *p = c;
      if (!c) break;
    }
  }
  H5CHK(*g = H5Gopen2(s->file, group, H5P_DEFAULT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Split "/a/b/name" into group "/a/b" and leaf "name"; create the group. */
static PetscErrorCode ParentGroup(DRStore s, const char *dset, hid_t *g, const char **leaf)
{
  char        parent[512];
  const char *slash = strrchr(dset, '/');

  PetscFunctionBeginUser;
  if (!slash) {
    PetscCall(OpenGroup(s, "/", g));
    *leaf = dset;
  } else {
    size_t n = (size_t)(slash - dset);
    memcpy(parent, dset, n);
    parent[n] = 0;
    PetscCall(OpenGroup(s, n ? parent : "/", g));
    *leaf = slash + 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteAttr(hid_t obj, const char *name, hid_t type, const void *value)
{
  hid_t sp, a;

  PetscFunctionBeginUser;
  if (H5Aexists(obj, name) > 0) H5CHK(H5Adelete(obj, name));
  H5CHK(sp = H5Screate(H5S_SCALAR));
  H5CHK(a = H5Acreate2(obj, name, type, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CHK(H5Awrite(a, type, value));
  H5Aclose(a);
  H5Sclose(sp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode StringAttr(hid_t obj, const char *name, const char *value)
{
  hid_t t;

  PetscFunctionBeginUser;
  H5CHK(t = H5Tcopy(H5T_C_S1));
  H5CHK(H5Tset_size(t, strlen(value) + 1));
  PetscCall(WriteAttr(obj, name, t, value));
  H5Tclose(t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreAttrString(DRStore s, const char *group, const char *name, const char *value)
{
  hid_t g;

  PetscFunctionBeginUser;
  PetscCall(OpenGroup(s, group, &g));
  PetscCall(StringAttr(g, name, value));
  H5Gclose(g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreAttrReal(DRStore s, const char *group, const char *name, PetscReal value)
{
  hid_t  g;
  double v = (double)value;

  PetscFunctionBeginUser;
  PetscCall(OpenGroup(s, group, &g));
  PetscCall(WriteAttr(g, name, H5T_NATIVE_DOUBLE, &v));
  H5Gclose(g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreAttrInt(DRStore s, const char *group, const char *name, PetscInt64 value)
{
  hid_t     g;
  long long v = (long long)value;

  PetscFunctionBeginUser;
  PetscCall(OpenGroup(s, group, &g));
  PetscCall(WriteAttr(g, name, H5T_NATIVE_LLONG, &v));
  H5Gclose(g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Create dset and let rank 0 write all of it. */
static PetscErrorCode WriteRoot(DRStore s, const char *dset, int ndims, const PetscInt dims[], hid_t type, const void *data, const char *units)
{
  hid_t       g, sp, d, ms, fs;
  hsize_t     hd[4];
  const char *leaf;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCheck(ndims >= 1 && ndims <= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ndims %d", ndims);
  for (int i = 0; i < ndims; i++) hd[i] = (hsize_t)dims[i];
  PetscCall(ParentGroup(s, dset, &g, &leaf));
  if (H5Lexists(g, leaf, H5P_DEFAULT) > 0) H5CHK(H5Ldelete(g, leaf, H5P_DEFAULT));
  H5CHK(sp = H5Screate_simple(ndims, hd, NULL));
  H5CHK(d = H5Dcreate2(g, leaf, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5CHK(fs = H5Dget_space(d));
  H5CHK(ms = H5Screate_simple(ndims, hd, NULL));
  if (s->rank) {
    H5Sselect_none(fs);
    H5Sselect_none(ms);
  }
  H5CHK(H5Dwrite(d, type, ms, fs, H5P_DEFAULT, data));
  if (units) PetscCall(StringAttr(d, "units", units));
  H5Sclose(ms);
  H5Sclose(fs);
  H5Dclose(d);
  H5Sclose(sp);
  H5Gclose(g);
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
  size_t len = 1;
  char  *buf;
  hid_t  t;
  PetscInt dims[1] = {n};

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) len = PetscMax(len, strlen(strs[i]) + 1);
  PetscCall(PetscCalloc1(len * (size_t)PetscMax(n, 1), &buf));
  for (PetscInt i = 0; i < n; i++) memcpy(buf + (size_t)i * len, strs[i], strlen(strs[i]));
  H5CHK(t = H5Tcopy(H5T_C_S1));
  H5CHK(H5Tset_size(t, len));
  H5CHK(H5Tset_strpad(t, H5T_STR_NULLTERM));
  PetscCall(WriteRoot(s, dset, 1, dims, t, buf, NULL));
  H5Tclose(t);
  PetscCall(PetscFree(buf));
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
  hid_t       g, sp, d, ms, fs;
  hsize_t     hd[2], start[2], count[2];
  const char *leaf;
  PetscInt    N = 0, rs = 0, re = 0;
  PetscReal  *buf;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  if (nv) {
    PetscCall(VecGetSize(v[0], &N));
    PetscCall(VecGetOwnershipRange(v[0], &rs, &re));
  }
  hd[0] = (hsize_t)N;
  hd[1] = (hsize_t)nv;
  PetscCall(ParentGroup(s, dset, &g, &leaf));
  if (H5Lexists(g, leaf, H5P_DEFAULT) > 0) H5CHK(H5Ldelete(g, leaf, H5P_DEFAULT));
  H5CHK(sp = H5Screate_simple(2, hd, NULL));
  H5CHK(d = H5Dcreate2(g, leaf, H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(PetscMalloc1((size_t)(re - rs) * nv + 1, &buf));
  for (PetscInt j = 0; j < nv; j++) {
    const PetscScalar *a;
    PetscCall(VecGetArrayRead(v[j], &a));
    for (PetscInt i = 0; i < re - rs; i++) buf[i * nv + j] = PetscRealPart(a[i]);
    PetscCall(VecRestoreArrayRead(v[j], &a));
  }
  start[0] = (hsize_t)rs;
  start[1] = 0;
  count[0] = (hsize_t)(re - rs);
  count[1] = (hsize_t)nv;
  H5CHK(fs = H5Dget_space(d));
  H5CHK(ms = H5Screate_simple(2, count, NULL));
  if (count[0] && count[1]) H5CHK(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL));
  else {
    H5Sselect_none(fs);
    H5Sselect_none(ms);
  }
  H5CHK(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, buf));
  if (units) PetscCall(StringAttr(d, "units", units));
  PetscCall(PetscFree(buf));
  H5Sclose(ms);
  H5Sclose(fs);
  H5Dclose(d);
  H5Sclose(sp);
  H5Gclose(g);
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteMesh(DRStore s, DRComponent c)
{
  PetscInt    nv = DRCellNodes(c->celltype), dims[2];
  PetscInt64 *buf = NULL;

  PetscFunctionBeginUser;
  if (!c->nnodes) PetscFunctionReturn(PETSC_SUCCESS);
  dims[0] = c->nnodes;
  dims[1] = 3;
  PetscCall(DRStoreWriteReal(s, "/mesh/coordinates", 2, dims, c->xyz, NULL));
  if (!s->rank) {
    PetscCall(PetscMalloc1(c->nnodes, &buf));
    for (PetscInt i = 0; i < c->nnodes; i++) buf[i] = c->node_ids[i];
  }
  PetscCall(DRStoreWriteInt(s, "/mesh/node_ids", 1, dims, buf));
  PetscCall(PetscFree(buf));
  s->nnodes = c->nnodes;
  if (nv && c->ncells) {
    dims[0] = c->ncells;
    dims[1] = nv;
    if (!s->rank) {
      PetscCall(PetscMalloc1(c->ncells * nv, &buf));
      for (PetscInt i = 0; i < c->ncells * nv; i++) buf[i] = DRComponentFindNode(c, c->cells[i]);
    }
    PetscCall(DRStoreWriteInt(s, "/mesh/topology", 2, dims, buf));
    PetscCall(DRStoreAttrString(s, "/mesh", "celltype", DRCellName(c->celltype)));
    PetscCall(PetscFree(buf));
    s->ncells   = c->ncells;
    s->celltype = c->celltype;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreWriteShapes(DRStore s, const char *group, DRComponent c, PetscInt nv, Vec v[], const char *const names[])
{
  PetscInt *node_of = NULL; /* DOF -> node index, or -1 for rotations */
  PetscReal *buf    = NULL;
  PetscInt   dims[2] = {c->nnodes, 3};
  ShapeSet  *ss;

  PetscFunctionBeginUser;
  if (!c->nnodes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  if (!s->rank) {
    PetscCall(PetscMalloc1(c->n, &node_of));
    for (PetscInt i = 0; i < c->n; i++) node_of[i] = DRLabelDir(c->labels[i]) <= 3 ? DRComponentFindNode(c, DRLabelNode(c->labels[i])) : -1;
    PetscCall(PetscMalloc1(3 * c->nnodes, &buf));
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
      PetscCall(PetscArrayzero(buf, 3 * c->nnodes));
      PetscCall(VecGetArrayRead(z, &a));
      for (PetscInt i = 0; i < c->n; i++)
        if (node_of[i] >= 0) buf[3 * node_of[i] + DRLabelDir(c->labels[i]) - 1] = PetscRealPart(a[i]);
      PetscCall(VecRestoreArrayRead(z, &a));
    }
    snprintf(dset, sizeof(dset), "%s/shapes/%04ld", group, (long)(j + 1));
    PetscCall(DRStoreWriteReal(s, dset, 2, dims, buf, NULL));
    PetscCall(VecScatterDestroy(&sc));
    PetscCall(VecDestroy(&z));
  }
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(node_of));
  /* Remember for the XDMF file. */
  {
    ShapeSet *n;
    PetscCall(PetscCalloc1(s->nshapes + 1, &n));
    if (s->nshapes) PetscCall(PetscArraycpy(n, s->shapes, s->nshapes));
    PetscCall(PetscFree(s->shapes));
    s->shapes = n;
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
  PetscCheck(f, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write", xtmp);
  fprintf(f, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"2.0\">\n <Domain>\n  <Grid Name=\"model\" GridType=\"Uniform\">\n");
  if (nv && s->ncells) {
    fprintf(f, "   <Topology TopologyType=\"%s\" NumberOfElements=\"%ld\"%s>\n", DRCellName(s->celltype), (long)s->ncells, s->celltype == DR_CELL_LINE2 ? " NodesPerElement=\"2\"" : "");
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
  PetscCheck(!fclose(f), PETSC_COMM_SELF, DR_ERR_INPUT, "%s: write failed", xtmp);
  PetscCheck(!rename(xtmp, xpath), PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot rename to %s", xtmp, xpath);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStoreClose(DRStore *sp, PetscBool commit)
{
  DRStore s = *sp;
  int     ok;

  PetscFunctionBeginUser;
  if (!s) PetscFunctionReturn(PETSC_SUCCESS);
  ok = H5Fclose(s->file) >= 0;
  PetscCallMPI(MPI_Barrier(s->comm));
  if (!s->rank) {
    if (commit && ok) {
      PetscCheck(!rename(s->tmp, s->path), PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot rename to %s", s->tmp, s->path);
      if (s->nnodes) PetscCall(WriteXDMF(s));
    } else unlink(s->tmp);
  }
  PetscCallMPI(MPI_Barrier(s->comm));
  for (PetscInt k = 0; k < s->nshapes; k++) {
    for (PetscInt j = 0; j < s->shapes[k].nv; j++) PetscCall(PetscFree(s->shapes[k].names[j]));
    PetscCall(PetscFree(s->shapes[k].names));
  }
  PetscCall(PetscFree(s->shapes));
  PetscCheck(ok || !commit, s->comm, PETSC_ERR_FILE_WRITE, "%s: closing the HDF5 file failed", s->tmp);
  PetscCall(PetscFree(*sp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
