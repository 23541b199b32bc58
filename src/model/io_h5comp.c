/* dynred HDF5 component file.
 *
 * Layout (all integers 64-bit little-endian, reals IEEE double, strings
 * fixed-length NUL-terminated ASCII; variable-length strings are accepted on
 * reading):
 *
 *   /component                     group
 *       @format   "dynred-component"   @version 1 (int32)
 *       @name     component name       @source  where it was read from
 *       @n        number of DOFs (int64)
 *   /component/labels_node         int64 [n]    node id of row i
 *   /component/labels_dir          int32 [n]    direction 1..6 of row i
 *   /component/K/rowptr            int64 [n+1]  CSR row offsets, rowptr[0] = 0
 *   /component/K/colind            int64 [nnz]  0-based columns, ascending per row
 *   /component/K/values            float64 [nnz]
 *                                  (the full matrix, both triangles)
 *   /component/M/...               same as K
 *   /component/D/...               same, only when the component has damping
 *   /component/nodes/ids           int64 [nnodes]      ascending node ids
 *   /component/nodes/xyz           float64 [nnodes, 3]
 *   /component/cells               int64 [ncells, nv]  node ids (not indices),
 *       @celltype  XDMF topology name: Polyline (2 nodes), Tetrahedron,
 *                  Tetrahedron_10, Hexahedron, Hexahedron_20; XDMF/VTK node order
 *   /component/sets/NAME           int64 [k]    node ids of node set NAME
 *                                  (ascending; sets in creation order)
 *
 * nodes, cells and sets are absent when the component has none.  The file is
 * written with parallel HDF5 (MPI-IO) on the component's communicator: each
 * rank writes the CSR rows it owns as a hyperslab, rank 0 writes the small
 * replicated arrays; reading mirrors that, each rank reading only its rows.
 * Symmetry is checked again on reading (the CSR holds both triangles). */
#include "io_impl.h"
#include <hdf5.h>
#include <math.h>
#include <string.h>

#define H5Call(expr)                                                                               \
  do {                                                                                             \
    if ((expr) < 0) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 call failed: %s", #expr);          \
  } while (0)

#define DR_H5_PETSCINT (sizeof(PetscInt) == 8 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT)

/* ======================================================================== */
/* Small HDF5 helpers                                                       */
/* ======================================================================== */

static PetscErrorCode WriteStringAttr(hid_t obj, const char *name, const char *val)
{
  hid_t t, s, a;

  PetscFunctionBeginUser;
  H5Call(t = H5Tcopy(H5T_C_S1));
  H5Call(H5Tset_size(t, strlen(val) + 1));
  H5Call(H5Tset_strpad(t, H5T_STR_NULLTERM));
  H5Call(s = H5Screate(H5S_SCALAR));
  H5Call(a = H5Acreate2(obj, name, t, s, H5P_DEFAULT, H5P_DEFAULT));
  H5Call(H5Awrite(a, t, val));
  H5Call(H5Aclose(a));
  H5Call(H5Sclose(s));
  H5Call(H5Tclose(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteIntAttr(hid_t obj, const char *name, hid_t ftype, PetscInt64 val)
{
  hid_t s, a;

  PetscFunctionBeginUser;
  H5Call(s = H5Screate(H5S_SCALAR));
  H5Call(a = H5Acreate2(obj, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT));
  H5Call(H5Awrite(a, H5T_NATIVE_INT64, &val));
  H5Call(H5Aclose(a));
  H5Call(H5Sclose(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* String attribute into buf (len), "" when absent. */
static PetscErrorCode ReadStringAttr(hid_t obj, const char *name, char *buf, size_t len)
{
  hid_t a, ft, mt;
  htri_t vlen;

  PetscFunctionBeginUser;
  buf[0] = '\0';
  if (H5Aexists(obj, name) <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  H5Call(a = H5Aopen(obj, name, H5P_DEFAULT));
  H5Call(ft = H5Aget_type(a));
  H5Call(vlen = H5Tis_variable_str(ft));
  if (vlen) {
    char *s = NULL;
    H5Call(mt = H5Tcopy(H5T_C_S1));
    H5Call(H5Tset_size(mt, H5T_VARIABLE));
    H5Call(H5Aread(a, mt, &s));
    if (s) {
      snprintf(buf, len, "%s", s);
      H5free_memory(s);
    }
  } else {
    size_t sz = H5Tget_size(ft);
    char  *s;
    PetscCall(PetscCalloc1(sz + 1, &s));
    H5Call(mt = H5Tcopy(H5T_C_S1));
    H5Call(H5Tset_size(mt, sz + 1));
    H5Call(H5Aread(a, mt, s));
    snprintf(buf, len, "%s", s);
    PetscCall(PetscFree(s));
  }
  H5Call(H5Tclose(mt));
  H5Call(H5Tclose(ft));
  H5Call(H5Aclose(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dataset `name` in loc of `ndims` dims {nrows, ncols} and file type ftype;
 * this rank writes rows [off, off + cnt) from buf (memory type mtype).
 * Collective over the file's communicator. */
static PetscErrorCode WriteRows(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int ndims, hsize_t nrows, hsize_t ncols, hsize_t off, hsize_t cnt, const void *buf)
{
  hsize_t dims[2] = {nrows, ncols}, start[2] = {off, 0}, count[2] = {cnt, ncols}, one[2] = {1, 1};
  hid_t   fs, ms, d, x;

  PetscFunctionBeginUser;
  H5Call(fs = H5Screate_simple(ndims, dims, NULL));
  H5Call(d = H5Dcreate2(loc, name, ftype, fs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (cnt && (ndims == 1 || ncols)) {
    H5Call(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL));
    H5Call(ms = H5Screate_simple(ndims, count, NULL));
  } else {
    H5Call(H5Sselect_none(fs));
    H5Call(ms = H5Screate_simple(ndims, one, NULL));
    H5Call(H5Sselect_none(ms));
  }
  H5Call(x = H5Pcreate(H5P_DATASET_XFER));
#if defined(H5_HAVE_PARALLEL)
  H5Call(H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE));
#endif
  H5Call(H5Dwrite(d, mtype, ms, fs, x, buf));
  H5Call(H5Pclose(x));
  H5Call(H5Sclose(ms));
  H5Call(H5Sclose(fs));
  H5Call(H5Dclose(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Dimensions of dataset loc/name; *ndims = 0 when it does not exist. */
static PetscErrorCode DatasetDims(hid_t loc, const char *name, int *ndims, hsize_t dims[2])
{
  hid_t d, s;

  PetscFunctionBeginUser;
  *ndims  = 0;
  dims[0] = dims[1] = 0;
  if (H5Lexists(loc, name, H5P_DEFAULT) <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  H5Call(d = H5Dopen2(loc, name, H5P_DEFAULT));
  H5Call(s = H5Dget_space(d));
  H5Call(*ndims = H5Sget_simple_extent_ndims(s));
  if (*ndims >= 1 && *ndims <= 2) H5Call(H5Sget_simple_extent_dims(s, dims, NULL));
  H5Call(H5Sclose(s));
  H5Call(H5Dclose(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read rows [off, off + cnt) (all columns) of loc/name into buf.  Collective. */
static PetscErrorCode ReadRows(hid_t loc, const char *name, hid_t mtype, hsize_t off, hsize_t cnt, void *buf)
{
  hsize_t dims[2], start[2] = {off, 0}, count[2], one[2] = {1, 1};
  int     nd;
  hid_t   d, fs, ms, x;

  PetscFunctionBeginUser;
  H5Call(d = H5Dopen2(loc, name, H5P_DEFAULT));
  H5Call(fs = H5Dget_space(d));
  H5Call(nd = H5Sget_simple_extent_ndims(fs));
  H5Call(H5Sget_simple_extent_dims(fs, dims, NULL));
  count[0] = cnt;
  count[1] = nd == 2 ? dims[1] : 1;
  if (cnt && count[1]) {
    H5Call(H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL));
    H5Call(ms = H5Screate_simple(nd, count, NULL));
  } else {
    H5Call(H5Sselect_none(fs));
    H5Call(ms = H5Screate_simple(nd, one, NULL));
    H5Call(H5Sselect_none(ms));
  }
  H5Call(x = H5Pcreate(H5P_DATASET_XFER));
#if defined(H5_HAVE_PARALLEL)
  H5Call(H5Pset_dxpl_mpio(x, H5FD_MPIO_COLLECTIVE));
#endif
  H5Call(H5Dread(d, mtype, ms, fs, x, buf));
  H5Call(H5Pclose(x));
  H5Call(H5Sclose(ms));
  H5Call(H5Sclose(fs));
  H5Call(H5Dclose(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode OpenFile(MPI_Comm comm, const char *path, PetscBool create, hid_t *file)
{
  hid_t fapl;
  H5E_auto2_t func;
  void       *data;

  PetscFunctionBeginUser;
  H5Call(fapl = H5Pcreate(H5P_FILE_ACCESS));
#if defined(H5_HAVE_PARALLEL)
  H5Call(H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
#else
  {
    PetscMPIInt size;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    PetscCheck(size == 1, comm, PETSC_ERR_SUP, "%s: this HDF5 is not parallel; component files need one rank or a parallel HDF5", path);
  }
#endif
  /* Our own message below says what went wrong; keep HDF5's stack quiet. */
  H5Call(H5Eget_auto2(H5E_DEFAULT, &func, &data));
  H5Call(H5Eset_auto2(H5E_DEFAULT, NULL, NULL));
  *file = create ? H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : H5Fopen(path, H5F_ACC_RDONLY, fapl);
  H5Call(H5Eset_auto2(H5E_DEFAULT, func, data));
  H5Call(H5Pclose(fapl));
  PetscCheck(*file >= 0, comm, DR_ERR_INPUT, "%s: cannot %s, expected %s", path, create ? "create" : "open as HDF5", create ? "a writable directory" : "a dynred HDF5 component file");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Writer                                                                   */
/* ======================================================================== */

static PetscErrorCode WriteCSR(hid_t comp, const char *name, Mat A)
{
  MPI_Comm           comm;
  PetscMPIInt        rank, size;
  PetscInt           rs, re, nc, N;
  const PetscInt    *cols;
  const PetscScalar *vals;
  PetscInt64         nloc = 0, off = 0, tot, *rowptr, *colind, k = 0;
  PetscReal         *v;
  hid_t              g;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, NULL, NULL));
    nloc += nc;
    PetscCall(MatRestoreRow(A, i, &nc, NULL, NULL));
  }
  PetscCallMPI(MPI_Exscan(&nloc, &off, 1, MPIU_INT64, MPI_SUM, comm));
  if (rank == 0) off = 0;
  PetscCallMPI(MPI_Allreduce(&nloc, &tot, 1, MPIU_INT64, MPI_SUM, comm));
  /* The last rank also writes rowptr[N] = nnz. */
  PetscCall(PetscMalloc3(re - rs + 1, &rowptr, nloc, &colind, nloc, &v));
  for (PetscInt i = rs; i < re; i++) {
    rowptr[i - rs] = off + k;
    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt c = 0; c < nc; c++) {
      colind[k] = cols[c];
      v[k++]    = PetscRealPart(vals[c]);
    }
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  rowptr[re - rs] = off + k;
  H5Call(g = H5Gcreate2(comp, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(WriteRows(g, "rowptr", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, (hsize_t)N + 1, 1, (hsize_t)rs, (hsize_t)(re - rs + (rank == size - 1)), rowptr));
  PetscCall(WriteRows(g, "colind", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, (hsize_t)tot, 1, (hsize_t)off, (hsize_t)nloc, colind));
  PetscCall(WriteRows(g, "values", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, (hsize_t)tot, 1, (hsize_t)off, (hsize_t)nloc, v));
  H5Call(H5Gclose(g));
  PetscCall(PetscFree3(rowptr, colind, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWriteHDF5(DRComponent c, const char *path)
{
  PetscMPIInt rank;
  char        tmp[PETSC_MAX_PATH_LEN + 32];
  hid_t       file, comp, g;
  PetscInt64 *node;
  int        *dir;
  hsize_t     mine;

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  for (PetscInt s = 0; s < c->nsets; s++) PetscCheck(!strchr(c->sets[s].name, '/') && strcmp(c->sets[s].name, ".") && c->sets[s].name[0], c->comm, PETSC_ERR_ARG_WRONG, "%s: node set name '%s' cannot be an HDF5 dataset name, expected no '/'", path, c->sets[s].name);
  PetscCall(DRTmpPath(c->comm, path, tmp, sizeof(tmp)));
  PetscCall(OpenFile(c->comm, tmp, PETSC_TRUE, &file));
  H5Call(comp = H5Gcreate2(file, "component", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(WriteStringAttr(comp, "format", "dynred-component"));
  PetscCall(WriteIntAttr(comp, "version", H5T_STD_I32LE, 1));
  PetscCall(WriteStringAttr(comp, "name", c->name));
  PetscCall(WriteStringAttr(comp, "source", c->source));
  PetscCall(WriteIntAttr(comp, "n", H5T_STD_I64LE, c->n));

  /* Replicated arrays: rank 0 writes them, the others select nothing. */
  mine = rank == 0 ? 1 : 0;
  PetscCall(PetscMalloc2(c->n, &node, c->n, &dir));
  for (PetscInt i = 0; i < c->n; i++) {
    node[i] = DRLabelNode(c->labels[i]);
    dir[i]  = (int)DRLabelDir(c->labels[i]);
  }
  PetscCall(WriteRows(comp, "labels_node", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, (hsize_t)c->n, 1, 0, mine * (hsize_t)c->n, node));
  PetscCall(WriteRows(comp, "labels_dir", H5T_STD_I32LE, H5T_NATIVE_INT, 1, (hsize_t)c->n, 1, 0, mine * (hsize_t)c->n, dir));
  PetscCall(PetscFree2(node, dir));

  PetscCall(WriteCSR(comp, "K", c->K));
  PetscCall(WriteCSR(comp, "M", c->M));
  if (c->D) PetscCall(WriteCSR(comp, "D", c->D));

  if (c->nnodes) {
    H5Call(g = H5Gcreate2(comp, "nodes", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    PetscCall(WriteRows(g, "ids", H5T_STD_I64LE, DR_H5_PETSCINT, 1, (hsize_t)c->nnodes, 1, 0, mine * (hsize_t)c->nnodes, c->node_ids));
    PetscCall(WriteRows(g, "xyz", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, (hsize_t)c->nnodes, 3, 0, mine * (hsize_t)c->nnodes, c->xyz));
    H5Call(H5Gclose(g));
  }
  if (c->ncells && c->celltype != DR_CELL_NONE) {
    hid_t d;
    PetscCall(WriteRows(comp, "cells", H5T_STD_I64LE, DR_H5_PETSCINT, 2, (hsize_t)c->ncells, (hsize_t)DRCellNodes(c->celltype), 0, mine * (hsize_t)c->ncells, c->cells));
    H5Call(d = H5Dopen2(comp, "cells", H5P_DEFAULT));
    PetscCall(WriteStringAttr(d, "celltype", DRCellName(c->celltype)));
    H5Call(H5Dclose(d));
  }
  if (c->nsets) {
    hid_t gcpl;
    H5Call(gcpl = H5Pcreate(H5P_GROUP_CREATE));
    H5Call(H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    H5Call(g = H5Gcreate2(comp, "sets", H5P_DEFAULT, gcpl, H5P_DEFAULT));
    H5Call(H5Pclose(gcpl));
    for (PetscInt s = 0; s < c->nsets; s++) PetscCall(WriteRows(g, c->sets[s].name, H5T_STD_I64LE, DR_H5_PETSCINT, 1, (hsize_t)c->sets[s].n, 1, 0, mine * (hsize_t)c->sets[s].n, c->sets[s].nodes));
    H5Call(H5Gclose(g));
  }
  H5Call(H5Gclose(comp));
  H5Call(H5Fclose(file));
  PetscCall(DRFileCommit(c->comm, NULL, tmp, path));
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Reader                                                                   */
/* ======================================================================== */

static PetscErrorCode ReadCSR(DRComponent c, const char *path, hid_t comp, const char *name, Mat *A)
{
  DRInputStatus st;
  PetscLayout   map;
  PetscInt      rs, re, m, *ia, *ja;
  PetscInt64   *rowptr, nnz, lo, hi;
  PetscScalar  *va;
  hsize_t       dims[2];
  int           nd;
  hid_t         g;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(c->comm, &st));
  H5Call(g = H5Gopen2(comp, name, H5P_DEFAULT));
  PetscCall(DatasetDims(g, "rowptr", &nd, dims));
  PetscCheck(nd == 1 && dims[0] == (hsize_t)c->n + 1, c->comm, DR_ERR_INPUT, "%s: /component/%s/rowptr has %llu entries, expected n + 1 = %lld", path, name, nd ? (unsigned long long)dims[0] : 0ULL, (long long)c->n + 1);
  PetscCall(PetscLayoutCreate(c->comm, &map));
  PetscCall(PetscLayoutSetSize(map, c->n));
  PetscCall(PetscLayoutSetBlockSize(map, 1));
  PetscCall(PetscLayoutSetUp(map));
  PetscCall(PetscLayoutGetRange(map, &rs, &re));
  m = re - rs;
  PetscCall(PetscMalloc1(m + 1, &rowptr));
  PetscCall(ReadRows(g, "rowptr", H5T_NATIVE_INT64, (hsize_t)rs, (hsize_t)(m + 1), rowptr));
  PetscCall(DatasetDims(g, "colind", &nd, dims));
  nnz = nd == 1 ? (PetscInt64)dims[0] : -1;
  PetscCall(DatasetDims(g, "values", &nd, dims));
  PetscCheck(nnz >= 0 && nd == 1 && (PetscInt64)dims[0] == nnz, c->comm, DR_ERR_INPUT, "%s: /component/%s/colind and values are missing or differ in length, expected two 1-D datasets of nnz entries", path, name);
  lo = rowptr[0];
  hi = rowptr[m];
  for (PetscInt i = 0; i < m && !st.bad; i++)
    if (rowptr[i + 1] < rowptr[i]) PetscCall(DRInputFail(&st, "%s: /component/%s/rowptr decreases at row %" PetscInt_FMT ", expected non-decreasing CSR offsets", path, name, rs + i + 1));
  if (!st.bad && (lo < 0 || hi > nnz || (rs == 0 && lo != 0) || (re == c->n && hi != nnz))) PetscCall(DRInputFail(&st, "%s: /component/%s/rowptr has offsets %lld..%lld, expected 0..%lld", path, name, (long long)lo, (long long)hi, (long long)nnz));
  PetscCall(DRInputSyncAll(&st));
  if (st.bad) {
    PetscCall(PetscFree(rowptr));
    PetscCall(PetscLayoutDestroy(&map));
    H5Call(H5Gclose(g));
  }
  DRInputCheck(&st);
  PetscCall(PetscMalloc3(m + 1, &ia, hi - lo, &ja, hi - lo, &va));
  for (PetscInt i = 0; i <= m; i++) ia[i] = (PetscInt)(rowptr[i] - lo);
  PetscCall(ReadRows(g, "colind", DR_H5_PETSCINT, (hsize_t)lo, (hsize_t)(hi - lo), ja));
  PetscCall(ReadRows(g, "values", H5T_NATIVE_DOUBLE, (hsize_t)lo, (hsize_t)(hi - lo), va));
  H5Call(H5Gclose(g));
  /* AIJ's CSR preallocation wants each row's columns ascending. */
  for (PetscInt i = 0; i < m; i++) PetscCall(PetscSortIntWithScalarArray(ia[i + 1] - ia[i], ja + ia[i], va + ia[i]));
  for (PetscInt64 k = 0; k < hi - lo && !st.bad; k++)
    if (ja[k] < 0 || ja[k] >= c->n) PetscCall(DRInputFail(&st, "%s: /component/%s/colind[%lld] = %" PetscInt_FMT " is out of range 0..%" PetscInt_FMT, path, name, (long long)(lo + k), ja[k], c->n - 1));
  PetscCall(DRInputSyncAll(&st));
  if (st.bad) {
    PetscCall(PetscFree3(ia, ja, va));
    PetscCall(PetscFree(rowptr));
    PetscCall(PetscLayoutDestroy(&map));
  }
  DRInputCheck(&st);
  PetscCall(MatCreate(c->comm, A));
  PetscCall(MatSetSizes(*A, m, m, c->n, c->n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocationCSR(*A, ia, ja, va));
  PetscCall(MatMPIAIJSetPreallocationCSR(*A, ia, ja, va));
  PetscCall(PetscFree3(ia, ja, va));
  PetscCall(PetscFree(rowptr));
  PetscCall(PetscLayoutDestroy(&map));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A whole small dataset, or an input error naming it. */
static PetscErrorCode ReadAll(DRComponent c, const char *path, hid_t loc, const char *where, const char *name, hid_t mtype, int ndims, hsize_t nrows, hsize_t ncols, void *buf)
{
  hsize_t dims[2];
  int     nd;

  PetscFunctionBeginUser;
  PetscCall(DatasetDims(loc, name, &nd, dims));
  PetscCheck(nd == ndims && dims[0] == nrows && (ndims == 1 || dims[1] == ncols), c->comm, DR_ERR_INPUT, "%s: %s/%s is %s, expected %d-D with %llu rows", path, where, name, nd ? "of another shape" : "missing", ndims, (unsigned long long)nrows);
  PetscCall(ReadRows(loc, name, mtype, 0, nrows, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadHDF5(MPI_Comm comm, const char *name, const char *path, DRComponent *c)
{
  DRComponent   C;
  hid_t         file, comp;
  PetscInt64    n = -1, *node;
  int          *dir, nd;
  hsize_t       dims[2];
  char          buf[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadHDF5, 0, 0, 0, 0));
  PetscCall(DRInputCheckReadable(comm, path, "a dynred HDF5 component file"));
  PetscCall(OpenFile(comm, path, PETSC_FALSE, &file));
  if (H5Lexists(file, "component", H5P_DEFAULT) <= 0) {
    H5Call(H5Fclose(file));
    SETERRQ(comm, DR_ERR_INPUT, "%s: has no /component group, expected a dynred HDF5 component file", path);
  }
  H5Call(comp = H5Gopen2(file, "component", H5P_DEFAULT));
  if (H5Aexists(comp, "n") > 0) {
    hid_t a;
    H5Call(a = H5Aopen(comp, "n", H5P_DEFAULT));
    H5Call(H5Aread(a, H5T_NATIVE_INT64, &n));
    H5Call(H5Aclose(a));
  }
  PetscCheck(n > 0 && n <= PETSC_MAX_INT, comm, DR_ERR_INPUT, "%s: /component attribute n = %lld, expected the number of DOFs (> 0)", path, (long long)n);
  PetscCall(ReadStringAttr(comp, "name", buf, sizeof(buf)));
  PetscCall(DRComponentCreate(comm, name ? name : (buf[0] ? buf : NULL), &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  C->n = (PetscInt)n;

  PetscCall(PetscMalloc2(n, &node, n, &dir));
  PetscCall(ReadAll(C, path, comp, "/component", "labels_node", H5T_NATIVE_INT64, 1, (hsize_t)n, 1, node));
  PetscCall(ReadAll(C, path, comp, "/component", "labels_dir", H5T_NATIVE_INT, 1, (hsize_t)n, 1, dir));
  PetscCall(PetscMalloc1(n, &C->labels));
  for (PetscInt64 i = 0; i < n; i++) C->labels[i] = DRLabelMake(node[i], dir[i]);
  /* Validation reports labels with bad directions; a node < 0 or a
   * direction outside 0..7 would alias in the encoding, so catch it here. */
  for (PetscInt64 i = 0; i < n; i++) PetscCheck(node[i] >= 0 && dir[i] >= 1 && dir[i] <= 6, comm, DR_ERR_INPUT, "%s: label %lld is node %lld direction %d, expected node >= 0 and direction 1..6", path, (long long)i + 1, (long long)node[i], dir[i]);
  PetscCall(PetscFree2(node, dir));

  PetscCheck(H5Lexists(comp, "K", H5P_DEFAULT) > 0 && H5Lexists(comp, "M", H5P_DEFAULT) > 0, comm, DR_ERR_INPUT, "%s: /component/K or /component/M is missing, expected both", path);
  PetscCall(ReadCSR(C, path, comp, "K", &C->K));
  PetscCall(ReadCSR(C, path, comp, "M", &C->M));
  if (H5Lexists(comp, "D", H5P_DEFAULT) > 0) PetscCall(ReadCSR(C, path, comp, "D", &C->D));

  if (H5Lexists(comp, "nodes", H5P_DEFAULT) > 0) {
    hid_t g;
    H5Call(g = H5Gopen2(comp, "nodes", H5P_DEFAULT));
    PetscCall(DatasetDims(g, "ids", &nd, dims));
    PetscCheck(nd == 1, comm, DR_ERR_INPUT, "%s: /component/nodes/ids is missing or not 1-D", path);
    C->nnodes = (PetscInt)dims[0];
    PetscCall(PetscMalloc1(C->nnodes, &C->node_ids));
    PetscCall(PetscMalloc1(3 * C->nnodes, &C->xyz));
    PetscCall(ReadAll(C, path, g, "/component/nodes", "ids", DR_H5_PETSCINT, 1, dims[0], 1, C->node_ids));
    PetscCall(ReadAll(C, path, g, "/component/nodes", "xyz", H5T_NATIVE_DOUBLE, 2, dims[0], 3, C->xyz));
    H5Call(H5Gclose(g));
  }
  if (H5Lexists(comp, "cells", H5P_DEFAULT) > 0) {
    hid_t      d;
    DRCellType types[] = {DR_CELL_LINE2, DR_CELL_TET4, DR_CELL_TET10, DR_CELL_HEX8, DR_CELL_HEX20};
    H5Call(d = H5Dopen2(comp, "cells", H5P_DEFAULT));
    PetscCall(ReadStringAttr(d, "celltype", buf, sizeof(buf)));
    H5Call(H5Dclose(d));
    for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++)
      if (!strcmp(buf, DRCellName(types[k]))) C->celltype = types[k];
    PetscCheck(C->celltype != DR_CELL_NONE, comm, DR_ERR_INPUT, "%s: /component/cells has celltype '%s', expected Polyline, Tetrahedron, Tetrahedron_10, Hexahedron or Hexahedron_20", path, buf);
    PetscCall(DatasetDims(comp, "cells", &nd, dims));
    PetscCheck(nd == 2 && dims[1] == (hsize_t)DRCellNodes(C->celltype), comm, DR_ERR_INPUT, "%s: /component/cells is not [ncells, %" PetscInt_FMT "], expected %" PetscInt_FMT " node ids per %s", path, DRCellNodes(C->celltype), DRCellNodes(C->celltype), buf);
    C->ncells = (PetscInt)dims[0];
    PetscCall(PetscMalloc1(C->ncells * DRCellNodes(C->celltype), &C->cells));
    PetscCall(ReadRows(comp, "cells", DR_H5_PETSCINT, 0, dims[0], C->cells));
  }
  if (H5Lexists(comp, "sets", H5P_DEFAULT) > 0) {
    hid_t      g;
    H5G_info_t info;
    H5_index_t idx = H5_INDEX_CRT_ORDER;
    H5Call(g = H5Gopen2(comp, "sets", H5P_DEFAULT));
    H5Call(H5Gget_info(g, &info));
    {
      /* Creation order when the file tracks it (ours does), else by name. */
      hid_t    gcpl;
      unsigned flags = 0;
      H5Call(gcpl = H5Gget_create_plist(g));
      H5Call(H5Pget_link_creation_order(gcpl, &flags));
      H5Call(H5Pclose(gcpl));
      if (!(flags & H5P_CRT_ORDER_INDEXED)) idx = H5_INDEX_NAME;
    }
    for (hsize_t k = 0; k < info.nlinks; k++) {
      char      sname[64];
      PetscInt *ids;
      ssize_t   len;
      H5Call(len = H5Lget_name_by_idx(g, ".", idx, H5_ITER_INC, k, sname, sizeof(sname), H5P_DEFAULT));
      PetscCheck((size_t)len < sizeof(sname), comm, DR_ERR_INPUT, "%s: node set name /component/sets/%s... is longer than %d characters", path, sname, (int)sizeof(sname) - 1);
      PetscCall(DatasetDims(g, sname, &nd, dims));
      PetscCheck(nd == 1, comm, DR_ERR_INPUT, "%s: /component/sets/%s is not a 1-D dataset of node ids", path, sname);
      PetscCall(PetscMalloc1(dims[0], &ids));
      PetscCall(ReadRows(g, sname, DR_H5_PETSCINT, 0, dims[0], ids));
      PetscCall(DRComponentAddNodeSet(C, sname, (PetscInt)dims[0], ids));
      PetscCall(PetscFree(ids));
    }
    H5Call(H5Gclose(g));
  }
  H5Call(H5Gclose(comp));
  H5Call(H5Fclose(file));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadHDF5, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
