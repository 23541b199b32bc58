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
 *   /component/labels_dir          int32 [n]    direction 1..6 of row i (0: scalar point)
 *   /component/K/rowptr            int64 [n+1]  CSR row offsets, rowptr[0] = 0
 *   /component/K/colind            int64 [nnz]  0-based columns, ascending per row
 *   /component/K/values            float64 [nnz]
 *                                  (the full matrix, both triangles)
 *   /component/M/...               same as K
 *   /component/D/...               same, only when the component has damping
 *   /component/nodes/ids           int64 [nnodes]      ascending node ids
 *   /component/nodes/xyz           float64 [nnodes, 3]
 *   /component/cells               int64 [ncells, nv]  node ids (not indices),
 *       @celltype  XDMF topology name (DRCellName): Polyvertex, Polyline
 *                  (2 nodes), Edge_3, Triangle(_6), Quadrilateral(_8),
 *                  Tetrahedron(_10), Wedge(_15), Hexahedron(_20); XDMF node order;
 *                  or Mixed: nv = 21, each row -(dynred's cell type code),
 *                  the cell's node ids, -1 to the row's end (DR_CELL_MIXED,
 *                  include/dynred/store.h)
 *   /component/sets/NAME           int64 [k]    node ids of node set NAME
 *                                  (ascending; sets in creation order)
 *
 * nodes, cells and sets are absent when the component has none.  The file is
 * written with parallel HDF5 (MPI-IO) on the component's communicator: each
 * rank writes the CSR rows it owns as a hyperslab, rank 0 writes the small
 * replicated arrays; reading mirrors that, each rank reading only its rows.
 * Symmetry is checked again on reading (the CSR holds both triangles). */
#include "io_impl.h"
#include <dynred/h5.h>
#include <math.h>
#include <string.h>

static PetscErrorCode OpenFile(MPI_Comm comm, const char *path, PetscBool create, hid_t *file)
{
  PetscFunctionBeginUser;
  PetscCall(DRH5FileOpen(comm, path, create ? DR_H5_CREATE : DR_H5_READ, file));
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
  hsize_t            dn[1], dt[1];

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
  dn[0] = (hsize_t)N + 1;
  dt[0] = (hsize_t)tot;
  PetscCall(DRH5GroupCreate(comp, name, PETSC_FALSE, &g));
  PetscCall(DRH5WriteRows(g, "rowptr", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, dn, (hsize_t)rs, (hsize_t)(re - rs + (rank == size - 1)), rowptr));
  PetscCall(DRH5WriteRows(g, "colind", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, dt, (hsize_t)off, (hsize_t)nloc, colind));
  PetscCall(DRH5WriteRows(g, "values", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, dt, (hsize_t)off, (hsize_t)nloc, v));
  DRH5Call(g, name, H5Gclose(g));
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
  PetscBool   mine;
  hsize_t     dims[2];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_Write, 0, 0, 0, 0));
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  for (PetscInt s = 0; s < c->nsets; s++) PetscCheck(!strchr(c->sets[s].name, '/') && strcmp(c->sets[s].name, ".") && c->sets[s].name[0], c->comm, PETSC_ERR_ARG_WRONG, "%s: node set name '%s' cannot be an HDF5 dataset name, expected no '/'", path, c->sets[s].name);
  PetscCall(DRTmpPath(c->comm, path, tmp, sizeof(tmp)));
  PetscCall(OpenFile(c->comm, tmp, PETSC_TRUE, &file));
  PetscCall(DRH5GroupCreate(file, "component", PETSC_FALSE, &comp));
  PetscCall(DRH5AttrWriteString(comp, ".", "format", "dynred-component"));
  PetscCall(DRH5AttrWriteInt(comp, ".", "version", H5T_STD_I32LE, 1));
  PetscCall(DRH5AttrWriteString(comp, ".", "name", c->name));
  PetscCall(DRH5AttrWriteString(comp, ".", "source", c->source));
  PetscCall(DRH5AttrWriteInt(comp, ".", "n", H5T_STD_I64LE, c->n));

  /* Replicated arrays: rank 0 writes them, the others select nothing. */
  mine    = (PetscBool)(rank == 0);
  dims[0] = (hsize_t)c->n;
  PetscCall(PetscMalloc2(c->n, &node, c->n, &dir));
  for (PetscInt i = 0; i < c->n; i++) {
    node[i] = DRLabelNode(c->labels[i]);
    dir[i]  = (int)DRLabelDir(c->labels[i]);
  }
  PetscCall(DRH5Write(comp, "labels_node", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, dims, mine, node));
  PetscCall(DRH5Write(comp, "labels_dir", H5T_STD_I32LE, H5T_NATIVE_INT, 1, dims, mine, dir));
  PetscCall(PetscFree2(node, dir));

  PetscCall(WriteCSR(comp, "K", c->K));
  PetscCall(WriteCSR(comp, "M", c->M));
  if (c->D) PetscCall(WriteCSR(comp, "D", c->D));

  if (c->nnodes) {
    dims[0] = (hsize_t)c->nnodes;
    dims[1] = 3;
    PetscCall(DRH5GroupCreate(comp, "nodes", PETSC_FALSE, &g));
    PetscCall(DRH5Write(g, "ids", H5T_STD_I64LE, DR_H5_PETSCINT, 1, dims, mine, c->node_ids));
    PetscCall(DRH5Write(g, "xyz", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 2, dims, mine, c->xyz));
    DRH5Call(g, "nodes", H5Gclose(g));
  }
  if (c->ncells && c->celltype != DR_CELL_NONE) {
    dims[0] = (hsize_t)c->ncells;
    dims[1] = (hsize_t)DRCellNodes(c->celltype);
    PetscCall(DRH5Write(comp, "cells", H5T_STD_I64LE, DR_H5_PETSCINT, 2, dims, mine, c->cells));
    PetscCall(DRH5AttrWriteString(comp, "cells", "celltype", DRCellName(c->celltype)));
  }
  if (c->nsets) {
    PetscCall(DRH5GroupCreate(comp, "sets", PETSC_TRUE, &g));
    for (PetscInt s = 0; s < c->nsets; s++) {
      dims[0] = (hsize_t)c->sets[s].n;
      PetscCall(DRH5Write(g, c->sets[s].name, H5T_STD_I64LE, DR_H5_PETSCINT, 1, dims, mine, c->sets[s].nodes));
    }
    DRH5Call(g, "sets", H5Gclose(g));
  }
  DRH5Call(comp, "/component", H5Gclose(comp));
  PetscCall(DRH5FileClose(&file));
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
  hsize_t       dims[4];
  int           nd;
  hid_t         g;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(c->comm, &st));
  PetscCall(DRH5GroupOpen(comp, name, PETSC_FALSE, &g));
  PetscCall(DRH5Dims(g, "rowptr", &nd, dims));
  PetscCheck(nd == 1 && dims[0] == (hsize_t)c->n + 1, c->comm, DR_ERR_INPUT, "%s: /component/%s/rowptr has %llu entries, expected n + 1 = %lld", path, name, nd ? (unsigned long long)dims[0] : 0ULL, (long long)c->n + 1);
  PetscCall(PetscLayoutCreate(c->comm, &map));
  PetscCall(PetscLayoutSetSize(map, c->n));
  PetscCall(PetscLayoutSetBlockSize(map, 1));
  PetscCall(PetscLayoutSetUp(map));
  PetscCall(PetscLayoutGetRange(map, &rs, &re));
  m = re - rs;
  PetscCall(PetscMalloc1(m + 1, &rowptr));
  PetscCall(DRH5ReadRows(g, "rowptr", H5T_NATIVE_INT64, (hsize_t)rs, (hsize_t)(m + 1), rowptr));
  PetscCall(DRH5Dims(g, "colind", &nd, dims));
  nnz = nd == 1 ? (PetscInt64)dims[0] : -1;
  PetscCall(DRH5Dims(g, "values", &nd, dims));
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
    DRH5Call(g, name, H5Gclose(g));
  }
  DRInputCheck(&st);
  PetscCall(PetscMalloc3(m + 1, &ia, hi - lo, &ja, hi - lo, &va));
  for (PetscInt i = 0; i <= m; i++) ia[i] = (PetscInt)(rowptr[i] - lo);
  PetscCall(DRH5ReadRows(g, "colind", DR_H5_PETSCINT, (hsize_t)lo, (hsize_t)(hi - lo), ja));
  PetscCall(DRH5ReadRows(g, "values", H5T_NATIVE_DOUBLE, (hsize_t)lo, (hsize_t)(hi - lo), va));
  DRH5Call(g, name, H5Gclose(g));
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
  hsize_t dims[4];
  int     nd;

  PetscFunctionBeginUser;
  PetscCall(DRH5Dims(loc, name, &nd, dims));
  PetscCheck(nd == ndims && dims[0] == nrows && (ndims == 1 || dims[1] == ncols), c->comm, DR_ERR_INPUT, "%s: %s/%s is %s, expected %d-D with %llu rows", path, where, name, nd ? "of another shape" : "missing", ndims, (unsigned long long)nrows);
  PetscCall(DRH5ReadRows(loc, name, mtype, 0, nrows, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadHDF5(MPI_Comm comm, const char *name, const char *path, DRComponent *c)
{
  DRComponent   C;
  hid_t         file, comp;
  PetscInt64    n = -1, *node;
  int          *dir, nd;
  hsize_t       dims[4];
  PetscBool     has;
  char          buf[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRModelInitializePackage());
  PetscCall(PetscLogEventBegin(DR_MODEL_EVENT_ReadHDF5, 0, 0, 0, 0));
  PetscCall(DRInputCheckReadable(comm, path, "a dynred HDF5 component file"));
  PetscCall(OpenFile(comm, path, PETSC_FALSE, &file));
  PetscCall(DRH5Exists(file, "component", &has));
  if (!has) {
    PetscCall(DRH5FileClose(&file));
    SETERRQ(comm, DR_ERR_INPUT, "%s: has no /component group, expected a dynred HDF5 component file", path);
  }
  PetscCall(DRH5GroupOpen(file, "component", PETSC_FALSE, &comp));
  PetscCall(DRH5AttrReadInt(comp, ".", "n", &n, NULL));
  PetscCheck(n > 0 && n <= PETSC_MAX_INT, comm, DR_ERR_INPUT, "%s: /component attribute n = %lld, expected the number of DOFs (> 0)", path, (long long)n);
  PetscCall(DRH5AttrReadString(comp, ".", "name", buf, sizeof(buf), NULL));
  PetscCall(DRComponentCreate(comm, name ? name : (buf[0] ? buf : NULL), &C));
  PetscCall(PetscStrncpy(C->source, path, sizeof(C->source)));
  C->n = (PetscInt)n;

  PetscCall(PetscMalloc2(n, &node, n, &dir));
  PetscCall(ReadAll(C, path, comp, "/component", "labels_node", H5T_NATIVE_INT64, 1, (hsize_t)n, 1, node));
  PetscCall(ReadAll(C, path, comp, "/component", "labels_dir", H5T_NATIVE_INT, 1, (hsize_t)n, 1, dir));
  PetscCall(PetscMalloc1(n, &C->labels));
  for (PetscInt64 i = 0; i < n; i++) C->labels[i] = DRLabelMake(node[i], dir[i]);
  PetscCall(DRLabelsNumberCopies(C->n, C->labels));
  /* Validation reports labels with bad directions; a node < 0 or a
   * direction outside 0..7 would alias in the encoding, so catch it here. */
  for (PetscInt64 i = 0; i < n; i++) PetscCheck(node[i] >= 0 && dir[i] >= 0 && dir[i] <= 6, comm, DR_ERR_INPUT, "%s: label %lld is node %lld direction %d, expected node >= 0 and direction 0..6", path, (long long)i + 1, (long long)node[i], dir[i]);
  PetscCall(PetscFree2(node, dir));

  {
    PetscBool hk, hm;
    PetscCall(DRH5Exists(comp, "K", &hk));
    PetscCall(DRH5Exists(comp, "M", &hm));
    has = (PetscBool)(hk && hm);
  }
  PetscCheck(has, comm, DR_ERR_INPUT, "%s: /component/K or /component/M is missing, expected both", path);
  PetscCall(ReadCSR(C, path, comp, "K", &C->K));
  PetscCall(ReadCSR(C, path, comp, "M", &C->M));
  PetscCall(DRH5Exists(comp, "D", &has));
  if (has) PetscCall(ReadCSR(C, path, comp, "D", &C->D));

  PetscCall(DRH5Exists(comp, "nodes", &has));
  if (has) {
    hid_t g;
    PetscCall(DRH5GroupOpen(comp, "nodes", PETSC_FALSE, &g));
    PetscCall(DRH5Dims(g, "ids", &nd, dims));
    PetscCheck(nd == 1, comm, DR_ERR_INPUT, "%s: /component/nodes/ids is missing or not 1-D", path);
    C->nnodes = (PetscInt)dims[0];
    PetscCall(PetscMalloc1(C->nnodes, &C->node_ids));
    PetscCall(PetscMalloc1(3 * C->nnodes, &C->xyz));
    PetscCall(ReadAll(C, path, g, "/component/nodes", "ids", DR_H5_PETSCINT, 1, dims[0], 1, C->node_ids));
    PetscCall(ReadAll(C, path, g, "/component/nodes", "xyz", H5T_NATIVE_DOUBLE, 2, dims[0], 3, C->xyz));
    DRH5Call(g, "/component/nodes", H5Gclose(g));
  }
  PetscCall(DRH5Exists(comp, "cells", &has));
  if (has) {
    PetscCall(DRH5AttrReadString(comp, "cells", "celltype", buf, sizeof(buf), NULL));
    for (int k = DR_CELL_NONE + 1; k < DR_CELL_NTYPES; k++)
      if (!strcmp(buf, DRCellName((DRCellType)k))) C->celltype = (DRCellType)k;
    PetscCheck(C->celltype != DR_CELL_NONE, comm, DR_ERR_INPUT, "%s: /component/cells has celltype '%s', expected an XDMF topology name (Polyvertex, Polyline, Edge_3, Triangle, Triangle_6, Quadrilateral, Quadrilateral_8, Tetrahedron, Tetrahedron_10, Wedge, Wedge_15, Hexahedron, Hexahedron_20, Mixed)", path, buf);
    PetscCall(DRH5Dims(comp, "cells", &nd, dims));
    PetscCheck(nd == 2 && dims[1] == (hsize_t)DRCellNodes(C->celltype), comm, DR_ERR_INPUT, "%s: /component/cells is not [ncells, %" PetscInt_FMT "], expected %" PetscInt_FMT " node ids per %s", path, DRCellNodes(C->celltype), DRCellNodes(C->celltype), buf);
    C->ncells = (PetscInt)dims[0];
    PetscCall(PetscMalloc1(C->ncells * DRCellNodes(C->celltype), &C->cells));
    PetscCall(DRH5ReadRows(comp, "cells", DR_H5_PETSCINT, 0, dims[0], C->cells));
  }
  PetscCall(DRH5Exists(comp, "sets", &has));
  if (has) {
    hid_t      g;
    H5G_info_t info;
    H5_index_t idx = H5_INDEX_CRT_ORDER;
    PetscCall(DRH5GroupOpen(comp, "sets", PETSC_FALSE, &g));
    DRH5Call(g, "/component/sets", H5Gget_info(g, &info));
    {
      /* Creation order when the file tracks it (ours does), else by name. */
      hid_t    gcpl;
      unsigned flags = 0;
      DRH5Call(g, "/component/sets", gcpl = H5Gget_create_plist(g));
      DRH5Call(g, "/component/sets", H5Pget_link_creation_order(gcpl, &flags));
      DRH5Call(g, "/component/sets", H5Pclose(gcpl));
      if (!(flags & H5P_CRT_ORDER_INDEXED)) idx = H5_INDEX_NAME;
    }
    for (hsize_t k = 0; k < info.nlinks; k++) {
      char      sname[64];
      PetscInt *ids;
      ssize_t   len;
      DRH5Call(g, "/component/sets", len = H5Lget_name_by_idx(g, ".", idx, H5_ITER_INC, k, sname, sizeof(sname), H5P_DEFAULT));
      PetscCheck((size_t)len < sizeof(sname), comm, DR_ERR_INPUT, "%s: node set name /component/sets/%s... is longer than %d characters", path, sname, (int)sizeof(sname) - 1);
      PetscCall(DRH5Dims(g, sname, &nd, dims));
      PetscCheck(nd == 1, comm, DR_ERR_INPUT, "%s: /component/sets/%s is not a 1-D dataset of node ids", path, sname);
      PetscCall(PetscMalloc1(dims[0], &ids));
      PetscCall(DRH5ReadRows(g, sname, DR_H5_PETSCINT, 0, dims[0], ids));
      PetscCall(DRComponentAddNodeSet(C, sname, (PetscInt)dims[0], ids));
      PetscCall(PetscFree(ids));
    }
    DRH5Call(g, "/component/sets", H5Gclose(g));
  }
  DRH5Call(comp, "/component", H5Gclose(comp));
  PetscCall(DRH5FileClose(&file));
  PetscCall(DRComponentReadFinish(C));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_MODEL_EVENT_ReadHDF5, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
