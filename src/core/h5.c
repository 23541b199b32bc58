/* The one HDF5 helper layer (include/dynred/h5.h). */
#include <dynred/h5.h>
#include <stdio.h>
#include <string.h>

/* The name of loc's file, for messages. */
static const char *FName(hid_t loc, char *buf, size_t len)
{
  ssize_t n = -1;
  H5E_BEGIN_TRY { n = H5Fget_name(loc, buf, len); }
  H5E_END_TRY;
  if (n < 0) snprintf(buf, len, "(HDF5 file)");
  return buf;
}

/* Was loc's file opened read-only? */
static PetscBool ReadOnly(hid_t loc)
{
  hid_t    f;
  unsigned intent = 0;
  herr_t   e      = -1;

  H5E_BEGIN_TRY
  {
    f = H5Iget_file_id(loc);
    if (f >= 0) {
      e = H5Fget_intent(f, &intent);
      H5Fclose(f);
    }
  }
  H5E_END_TRY;
  return (e >= 0 && !(intent & H5F_ACC_RDWR)) ? PETSC_TRUE : PETSC_FALSE;
}

PetscErrorCode DRH5Error_Private(int line, const char *func, const char *file, hid_t loc, const char *name, const char *expr)
{
  char fname[PETSC_MAX_PATH_LEN];

  if (loc >= 0) FName(loc, fname, sizeof(fname));
  else snprintf(fname, sizeof(fname), "(HDF5 file)");
  /* A failed read of a file opened read-only is bad input (a damaged file, or
   * an object of another type or shape than the layout says): a one-line
   * input error.  Failures while writing stay library errors. */
  if (loc >= 0 && ReadOnly(loc)) return PetscError(PETSC_COMM_SELF, line, func, file, DR_ERR_INPUT, PETSC_ERROR_INITIAL, "%s: %s: cannot read (HDF5 call failed: %s), expected the layout dynred writes", fname, name ? name : "", expr);
  return PetscError(PETSC_COMM_SELF, line, func, file, PETSC_ERR_LIB, PETSC_ERROR_INITIAL, "%s: %s: HDF5 call failed: %s", fname, name ? name : "", expr);
}

/* HDF5's own error stack is switched off once: DRH5Call names what failed. */
static void Quiet(void)
{
  static PetscBool done = PETSC_FALSE;
  if (done) return;
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  done = PETSC_TRUE;
}

PetscErrorCode DRH5FileOpen(MPI_Comm comm, const char *path, DRH5Mode mode, hid_t *file)
{
  hid_t fapl = H5P_DEFAULT;

  PetscFunctionBeginUser;
  Quiet();
  *file = -1;
  if (comm != MPI_COMM_NULL) {
    DRH5Call(-1, path, fapl = H5Pcreate(H5P_FILE_ACCESS));
#if defined(H5_HAVE_PARALLEL)
    DRH5Call(-1, path, H5Pset_fapl_mpio(fapl, comm, MPI_INFO_NULL));
#else
    {
      PetscMPIInt size;
      PetscCallMPI(MPI_Comm_size(comm, &size));
      PetscCheck(size == 1, comm, PETSC_ERR_SUP, "%s: this HDF5 is not parallel; expected one rank or a parallel HDF5", path);
    }
#endif
  }
  switch (mode) {
  case DR_H5_READ: *file = H5Fopen(path, H5F_ACC_RDONLY, fapl); break;
  case DR_H5_UPDATE: *file = H5Fopen(path, H5F_ACC_RDWR, fapl); break;
  case DR_H5_CREATE: *file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl); break;
  case DR_H5_CREATE_EXCL: *file = H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, fapl); break;
  }
  if (fapl != H5P_DEFAULT) H5Pclose(fapl);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5FileClose(hid_t *file)
{
  hid_t f = *file;

  PetscFunctionBeginUser;
  if (f < 0) PetscFunctionReturn(PETSC_SUCCESS);
  *file = -1;
  DRH5Call(-1, "(closing)", H5Fclose(f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5FileFlush(hid_t file)
{
  PetscFunctionBeginUser;
  DRH5Call(file, "/", H5Fflush(file, H5F_SCOPE_GLOBAL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5Exists(hid_t loc, const char *path, PetscBool *flg)
{
  char buf[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  *flg = PETSC_TRUE;
  if (!path[0] || !strcmp(path, "/") || !strcmp(path, ".")) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscStrncpy(buf, path, sizeof(buf)));
  /* each link along the path: H5Lexists fails on a missing parent */
  for (char *p = buf + 1;; p++) {
    if (*p == '/' || !*p) {
      char   c = *p;
      htri_t e;
      *p = 0;
      e  = H5Lexists(loc, buf, H5P_DEFAULT);
      *p = c;
      if (e <= 0) {
        *flg = PETSC_FALSE;
        break;
      }
      if (!c) break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5GroupOpen(hid_t loc, const char *path, PetscBool create, hid_t *g)
{
  char buf[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  if (!path[0] || !strcmp(path, "/")) {
    DRH5Call(loc, "/", *g = H5Gopen2(loc, "/", H5P_DEFAULT));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (create) {
    PetscCall(PetscStrncpy(buf, path, sizeof(buf)));
    for (char *p = buf + 1;; p++) {
      if (*p == '/' || !*p) {
        char c = *p;
        *p     = 0;
        if (H5Lexists(loc, buf, H5P_DEFAULT) <= 0) {
          hid_t ng;
          DRH5Call(loc, buf, ng = H5Gcreate2(loc, buf, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
          DRH5Call(loc, buf, H5Gclose(ng));
        }
        *p = c;
        if (!c) break;
      }
    }
  }
  DRH5Call(loc, path, *g = H5Gopen2(loc, path, H5P_DEFAULT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5GroupCreate(hid_t loc, const char *name, PetscBool track_order, hid_t *g)
{
  hid_t gcpl = H5P_DEFAULT;

  PetscFunctionBeginUser;
  if (track_order) {
    DRH5Call(loc, name, gcpl = H5Pcreate(H5P_GROUP_CREATE));
    DRH5Call(loc, name, H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
  }
  DRH5Call(loc, name, *g = H5Gcreate2(loc, name, H5P_DEFAULT, gcpl, H5P_DEFAULT));
  if (track_order) DRH5Call(loc, name, H5Pclose(gcpl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5ParentGroup(hid_t loc, const char *path, hid_t *g, const char **leaf)
{
  char        parent[PETSC_MAX_PATH_LEN];
  const char *slash = strrchr(path, '/');

  PetscFunctionBeginUser;
  if (!slash) {
    DRH5Call(loc, ".", *g = H5Oopen(loc, ".", H5P_DEFAULT));
    *leaf = path;
  } else {
    size_t n = (size_t)(slash - path);
    PetscCheck(n < sizeof(parent), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "HDF5 path too long: %s", path);
    memcpy(parent, path, n);
    parent[n] = 0;
    PetscCall(DRH5GroupOpen(loc, n ? parent : "/", PETSC_TRUE, g));
    *leaf = slash + 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- attributes ------------------------------------------------------- */

static PetscErrorCode AttrWrite(hid_t loc, const char *obj, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
  hid_t sp, a;

  PetscFunctionBeginUser;
  if (H5Aexists_by_name(loc, obj, name, H5P_DEFAULT) > 0) DRH5Call(loc, name, H5Adelete_by_name(loc, obj, name, H5P_DEFAULT));
  DRH5Call(loc, name, sp = H5Screate(H5S_SCALAR));
  DRH5Call(loc, name, a = H5Acreate_by_name(loc, obj, name, ftype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  DRH5Call(loc, name, H5Awrite(a, mtype, value));
  DRH5Call(loc, name, H5Aclose(a));
  DRH5Call(loc, name, H5Sclose(sp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5AttrWriteString(hid_t loc, const char *obj, const char *name, const char *value)
{
  hid_t t;

  PetscFunctionBeginUser;
  DRH5Call(loc, name, t = H5Tcopy(H5T_C_S1));
  DRH5Call(loc, name, H5Tset_size(t, strlen(value) + 1));
  DRH5Call(loc, name, H5Tset_strpad(t, H5T_STR_NULLTERM));
  PetscCall(AttrWrite(loc, obj, name, t, t, value));
  DRH5Call(loc, name, H5Tclose(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5AttrWriteReal(hid_t loc, const char *obj, const char *name, PetscReal value)
{
  double v = (double)value;

  PetscFunctionBeginUser;
  PetscCall(AttrWrite(loc, obj, name, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5AttrWriteInt(hid_t loc, const char *obj, const char *name, hid_t ftype, PetscInt64 value)
{
  int64_t v = (int64_t)value;

  PetscFunctionBeginUser;
  PetscCall(AttrWrite(loc, obj, name, ftype, H5T_NATIVE_INT64, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AttrOpen(hid_t loc, const char *obj, const char *name, hid_t *a, PetscBool *found)
{
  PetscFunctionBeginUser;
  *a = -1;
  if (found) *found = PETSC_FALSE;
  if (H5Aexists_by_name(loc, obj, name, H5P_DEFAULT) <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  DRH5Call(loc, name, *a = H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT));
  if (found) *found = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5AttrReadString(hid_t loc, const char *obj, const char *name, char *buf, size_t len, PetscBool *found)
{
  hid_t  a, ft, mt;
  htri_t vlen;

  PetscFunctionBeginUser;
  buf[0] = '\0';
  PetscCall(AttrOpen(loc, obj, name, &a, found));
  if (a < 0) PetscFunctionReturn(PETSC_SUCCESS);
  DRH5Call(loc, name, ft = H5Aget_type(a));
  if (H5Tget_class(ft) != H5T_STRING) {
    char fname[PETSC_MAX_PATH_LEN], oname[256] = "";
    H5Tclose(ft);
    H5Aclose(a);
    H5E_BEGIN_TRY { H5Iget_name(loc, oname, sizeof(oname)); }
    H5E_END_TRY;
    SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "%s: attribute '%s' of %s%s%s is not a string, expected a string", FName(loc, fname, sizeof(fname)), name, oname, strcmp(obj, ".") ? "/" : "", strcmp(obj, ".") ? obj : "");
  }
  DRH5Call(loc, name, vlen = H5Tis_variable_str(ft));
  DRH5Call(loc, name, mt = H5Tcopy(H5T_C_S1));
  /* h5py writes str attributes as UTF-8: HDF5 converts no ASCII <-> UTF-8 */
  DRH5Call(loc, name, H5Tset_cset(mt, H5Tget_cset(ft)));
  if (vlen) {
    char *s = NULL;
    DRH5Call(loc, name, H5Tset_size(mt, H5T_VARIABLE));
    DRH5Call(loc, name, H5Aread(a, mt, &s));
    if (s) {
      PetscCall(PetscStrncpy(buf, s, len));
      H5free_memory(s);
    }
  } else {
    size_t sz = H5Tget_size(ft);
    char  *s;
    PetscCall(PetscCalloc1(sz + 1, &s));
    DRH5Call(loc, name, H5Tset_size(mt, sz + 1));
    DRH5Call(loc, name, H5Aread(a, mt, s));
    PetscCall(PetscStrncpy(buf, s, len));
    PetscCall(PetscFree(s));
  }
  DRH5Call(loc, name, H5Tclose(mt));
  DRH5Call(loc, name, H5Tclose(ft));
  DRH5Call(loc, name, H5Aclose(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5AttrReadReal(hid_t loc, const char *obj, const char *name, PetscReal *value, PetscBool *found)
{
  hid_t  a;
  double v;

  PetscFunctionBeginUser;
  PetscCall(AttrOpen(loc, obj, name, &a, found));
  if (a < 0) PetscFunctionReturn(PETSC_SUCCESS);
  DRH5Call(loc, name, H5Aread(a, H5T_NATIVE_DOUBLE, &v));
  DRH5Call(loc, name, H5Aclose(a));
  *value = (PetscReal)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5AttrReadInt(hid_t loc, const char *obj, const char *name, PetscInt64 *value, PetscBool *found)
{
  hid_t   a;
  int64_t v;

  PetscFunctionBeginUser;
  PetscCall(AttrOpen(loc, obj, name, &a, found));
  if (a < 0) PetscFunctionReturn(PETSC_SUCCESS);
  DRH5Call(loc, name, H5Aread(a, H5T_NATIVE_INT64, &v));
  DRH5Call(loc, name, H5Aclose(a));
  *value = (PetscInt64)v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- datasets --------------------------------------------------------- */

PetscErrorCode DRH5Dims(hid_t loc, const char *name, int *ndims, hsize_t dims[4])
{
  hid_t     d, s;
  PetscBool e;

  PetscFunctionBeginUser;
  *ndims = 0;
  for (int i = 0; i < 4; i++) dims[i] = 0;
  PetscCall(DRH5Exists(loc, name, &e));
  if (!e) PetscFunctionReturn(PETSC_SUCCESS);
  DRH5Call(loc, name, d = H5Dopen2(loc, name, H5P_DEFAULT));
  DRH5Call(loc, name, s = H5Dget_space(d));
  DRH5Call(loc, name, *ndims = H5Sget_simple_extent_ndims(s));
  if (*ndims >= 1 && *ndims <= 4) DRH5Call(loc, name, H5Sget_simple_extent_dims(s, dims, NULL));
  DRH5Call(loc, name, H5Sclose(s));
  DRH5Call(loc, name, H5Dclose(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective transfer on an MPI-IO file when `collective`, the default
 * (independent) otherwise. */
static PetscErrorCode Transfer(hid_t loc, const char *name, PetscBool collective, hid_t *x)
{
  PetscFunctionBeginUser;
  DRH5Call(loc, name, *x = H5Pcreate(H5P_DATASET_XFER));
#if defined(H5_HAVE_PARALLEL)
  if (collective) {
    hid_t f, fapl;
    DRH5Call(loc, name, f = H5Iget_file_id(loc));
    DRH5Call(loc, name, fapl = H5Fget_access_plist(f));
    if (H5Pget_driver(fapl) == H5FD_MPIO) DRH5Call(loc, name, H5Pset_dxpl_mpio(*x, H5FD_MPIO_COLLECTIVE));
    DRH5Call(loc, name, H5Pclose(fapl));
    DRH5Call(loc, name, H5Fclose(f));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Select rows [off, off + cnt) of file space fs and a matching memory space. */
static PetscErrorCode SelectRows(hid_t loc, const char *name, hid_t fs, int nd, const hsize_t dims[], hsize_t off, hsize_t cnt, hid_t *ms)
{
  hsize_t start[4] = {0, 0, 0, 0}, count[4], one[4] = {1, 1, 1, 1};
  hsize_t rest = 1;

  PetscFunctionBeginUser;
  start[0] = off;
  count[0] = cnt;
  for (int i = 1; i < nd; i++) {
    count[i] = dims[i];
    rest *= dims[i];
  }
  if (cnt && rest) {
    DRH5Call(loc, name, H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL));
    DRH5Call(loc, name, *ms = H5Screate_simple(nd, count, NULL));
  } else {
    DRH5Call(loc, name, H5Sselect_none(fs));
    DRH5Call(loc, name, *ms = H5Screate_simple(nd, one, NULL));
    DRH5Call(loc, name, H5Sselect_none(*ms));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteRows(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int ndims, const hsize_t dims[], hsize_t off, hsize_t cnt, PetscBool collective, const void *buf)
{
  hid_t       g, fs, ms, d, x;
  const char *leaf;
  char        fn[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCheck(ndims >= 1 && ndims <= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: %s: %d dimensions, expected 1..4", FName(loc, fn, sizeof(fn)), name, ndims);
  PetscCall(DRH5ParentGroup(loc, name, &g, &leaf));
  if (H5Lexists(g, leaf, H5P_DEFAULT) > 0) DRH5Call(loc, name, H5Ldelete(g, leaf, H5P_DEFAULT));
  DRH5Call(loc, name, fs = H5Screate_simple(ndims, dims, NULL));
  DRH5Call(loc, name, d = H5Dcreate2(g, leaf, ftype, fs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  PetscCall(Transfer(loc, name, collective, &x));
  if (!collective && cnt > 0) {
    /* one writer: slabs of at most 1 GiB, since MPI-IO transfers count in
     * int and a single H5Dwrite of 2 GiB or more fails on an MPI-IO file
     * (a 20000-state /ss/A is 3.2 GB) */
    size_t   row  = H5Tget_size(mtype);
    PetscInt slab = 1 << 30; /* -dr_h5_slab_bytes: the tests push small data through many slabs */
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_h5_slab_bytes", &slab, NULL));
    for (int i = 1; i < ndims; i++) row *= (size_t)dims[i];
    hsize_t per = (hsize_t)PetscMax((size_t)1, (size_t)PetscMax(slab, 1) / PetscMax(row, (size_t)1));
    for (hsize_t r0 = 0; r0 < cnt; r0 += per) {
      hsize_t nr = PetscMin(per, cnt - r0);
      PetscCall(SelectRows(loc, name, fs, ndims, dims, off + r0, nr, &ms));
      DRH5Call(loc, name, H5Dwrite(d, mtype, ms, fs, x, (const char *)buf + r0 * row));
      DRH5Call(loc, name, H5Sclose(ms));
    }
  } else {
    PetscCall(SelectRows(loc, name, fs, ndims, dims, off, cnt, &ms));
    DRH5Call(loc, name, H5Dwrite(d, mtype, ms, fs, x, buf));
    DRH5Call(loc, name, H5Sclose(ms));
  }
  DRH5Call(loc, name, H5Pclose(x));
  DRH5Call(loc, name, H5Sclose(fs));
  DRH5Call(loc, name, H5Dclose(d));
  DRH5Call(loc, name, H5Oclose(g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5WriteRows(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int ndims, const hsize_t dims[], hsize_t off, hsize_t cnt, const void *buf)
{
  PetscFunctionBeginUser;
  PetscCall(WriteRows(loc, name, ftype, mtype, ndims, dims, off, cnt, PETSC_TRUE, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One writer: an independent transfer (as the store always did). */
PetscErrorCode DRH5Write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int ndims, const hsize_t dims[], PetscBool mine, const void *buf)
{
  PetscFunctionBeginUser;
  PetscCall(WriteRows(loc, name, ftype, mtype, ndims, dims, 0, mine ? dims[0] : 0, PETSC_FALSE, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5ReadRows(hid_t loc, const char *name, hid_t mtype, hsize_t off, hsize_t cnt, void *buf)
{
  hsize_t dims[4] = {0, 0, 0, 0};
  int     nd;
  hid_t   d, fs, ms, x;
  char    fn[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  DRH5Call(loc, name, d = H5Dopen2(loc, name, H5P_DEFAULT));
  DRH5Call(loc, name, fs = H5Dget_space(d));
  DRH5Call(loc, name, nd = H5Sget_simple_extent_ndims(fs));
  PetscCheck(nd >= 1 && nd <= 4, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: %s has %d dimensions, expected 1..4", FName(loc, fn, sizeof(fn)), name, nd);
  DRH5Call(loc, name, H5Sget_simple_extent_dims(fs, dims, NULL));
  PetscCall(SelectRows(loc, name, fs, nd, dims, off, cnt, &ms));
  PetscCall(Transfer(loc, name, PETSC_TRUE, &x));
  DRH5Call(loc, name, H5Dread(d, mtype, ms, fs, x, buf));
  DRH5Call(loc, name, H5Pclose(x));
  DRH5Call(loc, name, H5Sclose(ms));
  DRH5Call(loc, name, H5Sclose(fs));
  DRH5Call(loc, name, H5Dclose(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5ReadAll(hid_t loc, const char *name, hid_t mtype, int *ndims, hsize_t dims[4], void **buf)
{
  hsize_t d[4], n = 1;
  int     nd;
  size_t  sz = H5Tget_size(mtype);
  char    fn[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRH5Dims(loc, name, &nd, d));
  PetscCheck(nd >= 1 && nd <= 4, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: %s is %s, expected a dataset of 1..4 dimensions", FName(loc, fn, sizeof(fn)), name, nd ? "of more dimensions" : "missing");
  for (int i = 0; i < nd; i++) n *= d[i];
  PetscCall(PetscMalloc(sz * (size_t)(n ? n : 1), buf));
  PetscCall(DRH5ReadRows(loc, name, mtype, 0, d[0], *buf));
  if (ndims) *ndims = nd;
  if (dims)
    for (int i = 0; i < 4; i++) dims[i] = d[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- string lists ----------------------------------------------------- */

PetscErrorCode DRH5WriteStrings(hid_t loc, const char *name, PetscInt n, const char *const strs[], PetscBool mine)
{
  size_t  len = 1;
  char   *buf;
  hid_t   t;
  hsize_t dims[1] = {(hsize_t)n};

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) len = PetscMax(len, strlen(strs[i]) + 1);
  PetscCall(PetscCalloc1(len * (size_t)PetscMax(n, 1), &buf));
  for (PetscInt i = 0; i < n; i++) memcpy(buf + (size_t)i * len, strs[i], strlen(strs[i]));
  DRH5Call(loc, name, t = H5Tcopy(H5T_C_S1));
  DRH5Call(loc, name, H5Tset_size(t, len));
  DRH5Call(loc, name, H5Tset_strpad(t, H5T_STR_NULLTERM));
  PetscCall(DRH5Write(loc, name, t, t, 1, dims, mine, buf));
  DRH5Call(loc, name, H5Tclose(t));
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5ReadStrings(hid_t loc, const char *name, PetscInt *n, char ***strs)
{
  hid_t   d, ft, mt;
  htri_t  vlen;
  hsize_t dims[4];
  int     nd;
  char    fn[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(DRH5Dims(loc, name, &nd, dims));
  PetscCheck(nd == 1, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: %s is %s, expected a 1-D list of strings", FName(loc, fn, sizeof(fn)), name, nd ? "not 1-D" : "missing");
  *n = (PetscInt)dims[0];
  PetscCall(PetscCalloc1(*n + 1, strs));
  DRH5Call(loc, name, d = H5Dopen2(loc, name, H5P_DEFAULT));
  DRH5Call(loc, name, ft = H5Dget_type(d));
  DRH5Call(loc, name, vlen = H5Tis_variable_str(ft));
  DRH5Call(loc, name, mt = H5Tcopy(H5T_C_S1));
  /* h5py writes str attributes as UTF-8: HDF5 converts no ASCII <-> UTF-8 */
  DRH5Call(loc, name, H5Tset_cset(mt, H5Tget_cset(ft)));
  if (vlen) {
    char **v;
    hid_t  sp;
    PetscCall(PetscCalloc1(*n + 1, &v));
    DRH5Call(loc, name, H5Tset_size(mt, H5T_VARIABLE));
    DRH5Call(loc, name, H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v));
    for (PetscInt i = 0; i < *n; i++) PetscCall(PetscStrallocpy(v[i] ? v[i] : "", &(*strs)[i]));
    DRH5Call(loc, name, sp = H5Dget_space(d));
    DRH5Call(loc, name, H5Dvlen_reclaim(mt, sp, H5P_DEFAULT, v));
    DRH5Call(loc, name, H5Sclose(sp));
    PetscCall(PetscFree(v));
  } else {
    size_t sz = H5Tget_size(ft) + 1;
    char  *b;
    PetscCall(PetscCalloc1(sz * (size_t)PetscMax(*n, 1), &b));
    DRH5Call(loc, name, H5Tset_size(mt, sz));
    DRH5Call(loc, name, H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, b));
    for (PetscInt i = 0; i < *n; i++) PetscCall(PetscStrallocpy(b + (size_t)i * sz, &(*strs)[i]));
    PetscCall(PetscFree(b));
  }
  DRH5Call(loc, name, H5Tclose(mt));
  DRH5Call(loc, name, H5Tclose(ft));
  DRH5Call(loc, name, H5Dclose(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRH5FreeStrings(PetscInt n, char ***strs)
{
  PetscFunctionBeginUser;
  if (!*strs) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree((*strs)[i]));
  PetscCall(PetscFree(*strs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
