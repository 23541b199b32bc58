/* dynred ss: reading the reduced model a state-space export starts from.
 * Serial HDF5 reads (read-only, default property lists) on every rank. */
#include "ssimpl.h"
#include <dynred/component.h>
#include <hdf5.h>
#include <string.h>

#define H5Chk(expr, ...)                                                       \
  do {                                                                         \
    if ((expr) < 0) SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, __VA_ARGS__);       \
  } while (0)

static PetscBool Exists(hid_t f, const char *path)
{
  /* H5Lexists on every prefix: a missing intermediate group is not an error */
  char   buf[512];
  size_t n = strlen(path);
  if (n >= sizeof(buf)) return PETSC_FALSE;
  for (size_t i = 1; i <= n; i++) {
    if (i == n || path[i] == '/') {
      memcpy(buf, path, i);
      buf[i] = 0;
      if (H5Lexists(f, buf, H5P_DEFAULT) <= 0) return PETSC_FALSE;
    }
  }
  return PETSC_TRUE;
}

/* Dataset dims (up to 2; a 1-D dataset has d[1] = 1). */
static PetscErrorCode Dims(hid_t f, const char *file, const char *dset, int *ndims, hsize_t d[2])
{
  hid_t ds, sp;
  int   nd;

  PetscFunctionBeginUser;
  H5Chk(ds = H5Dopen2(f, dset, H5P_DEFAULT), "%s: cannot open dataset %s", file, dset);
  H5Chk(sp = H5Dget_space(ds), "%s: %s: no dataspace", file, dset);
  nd = H5Sget_simple_extent_ndims(sp);
  PetscCheck(nd >= 1 && nd <= 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has %d dimensions, expected 1 or 2", file, dset, nd);
  d[1] = 1;
  H5Sget_simple_extent_dims(sp, d, NULL);
  *ndims = nd;
  H5Sclose(sp);
  H5Dclose(ds);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadAll(hid_t f, const char *file, const char *dset, hid_t mtype, void *buf)
{
  hid_t ds;

  PetscFunctionBeginUser;
  H5Chk(ds = H5Dopen2(f, dset, H5P_DEFAULT), "%s: cannot open dataset %s", file, dset);
  H5Chk(H5Dread(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), "%s: cannot read %s as numbers", file, dset);
  H5Dclose(ds);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadLabels(hid_t f, const char *file, const char *dset, PetscInt *n, DRLabel **labels)
{
  int         nd;
  hsize_t     d[2];
  PetscInt64 *raw;

  PetscFunctionBeginUser;
  PetscCall(Dims(f, file, dset, &nd, d));
  PetscCheck(nd == 2 && d[1] == 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is not [n, 2] (node, direction)", file, dset);
  *n = (PetscInt)d[0];
  PetscCall(PetscMalloc1(2 * d[0] + 1, &raw));
  PetscCall(ReadAll(f, file, dset, H5T_NATIVE_INT64, raw));
  PetscCall(PetscMalloc1(*n + 1, labels));
  for (PetscInt i = 0; i < *n; i++) {
    PetscCheck(raw[2 * i] >= 0 && raw[2 * i + 1] >= 1 && raw[2 * i + 1] <= 6, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s row %" PetscInt_FMT " is (%" PetscInt64_FMT ", %" PetscInt64_FMT "), not a node and a direction 1..6", file, dset, i, raw[2 * i], raw[2 * i + 1]);
    (*labels)[i] = DRLabelMake(raw[2 * i], raw[2 * i + 1]);
  }
  PetscCall(PetscFree(raw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SourceRead(const char *path, const char *group, DRSSSource *src)
{
  hid_t       f;
  char        g[256], dK[300], dM[300], dF[300], dP[300], dL[300];
  PetscBool   km = PETSC_FALSE, md = PETSC_FALSE;
  int         nd;
  hsize_t     d[2];
  H5E_auto2_t efn;
  void       *edata;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(src, sizeof(*src)));
  PetscCall(PetscStrncpy(src->path, path, sizeof(src->path)));
  H5Eget_auto2(H5E_DEFAULT, &efn, &edata);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* our messages, not HDF5's stack dumps */
  f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open as HDF5 (ss.source)", path);
  }
  if (group && group[0]) {
    PetscCall(PetscSNPrintf(g, sizeof(g), "%s%s", group[0] == '/' ? "" : "/", group));
    if (!Exists(f, g)) {
      H5Fclose(f);
      H5Eset_auto2(H5E_DEFAULT, efn, edata);
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no group %s (ss.group)", path, g);
    }
  } else if (Exists(f, "/cms/modes")) PetscCall(PetscStrncpy(g, "/cms", sizeof(g)));
  else if (Exists(f, "/modal/modes")) PetscCall(PetscStrncpy(g, "/modal", sizeof(g)));
  else {
    H5Fclose(f);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no /cms/modes or /modal/modes; name the group of the reduced model with ss.group", path);
  }
  PetscCall(PetscStrncpy(src->group, g, sizeof(src->group)));
  PetscCall(PetscSNPrintf(dK, sizeof(dK), "%s/K", g));
  PetscCall(PetscSNPrintf(dM, sizeof(dM), "%s/M", g));
  PetscCall(PetscSNPrintf(dF, sizeof(dF), "%s/frequencies_hz", g));
  PetscCall(PetscSNPrintf(dP, sizeof(dP), "%s/modes", g));
  PetscCall(PetscSNPrintf(dL, sizeof(dL), "%s/dof_labels", g)); /* ga solutions: numeric labels beside the "15H" strings */
  if (!Exists(f, dL)) PetscCall(PetscSNPrintf(dL, sizeof(dL), "%s/labels", g));
  if (Exists(f, dK) && Exists(f, dM) && Exists(f, dL)) km = PETSC_TRUE;
  else if (Exists(f, dF) && Exists(f, dP) && Exists(f, dL)) md = PETSC_TRUE;
  if (!km && !md) {
    H5Fclose(f);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: group %s holds neither K, M, labels (reduced matrices) nor frequencies_hz, modes, labels (modes)", path, g);
  }
  PetscCall(ReadLabels(f, path, dL, &src->ndof, &src->labels));
  {
    DRLabel *s;
    PetscInt *perm;
    PetscCall(DRLabelsSort(src->ndof, src->labels, &s, &perm));
    for (PetscInt i = 1; i < src->ndof; i++) {
      char b[32];
      PetscCheck(s[i] != s[i - 1], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s repeats label %s", path, dL, DRLabelString(s[i], b));
    }
    PetscCall(PetscFree(s));
    PetscCall(PetscFree(perm));
  }
  if (km) {
    PetscInt n = src->ndof;
    PetscCall(Dims(f, path, dK, &nd, d));
    PetscCheck(nd == 2 && d[0] == (hsize_t)n && d[1] == (hsize_t)n, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %d-D %llu x %llu, expected %" PetscInt_FMT " x %" PetscInt_FMT " (one row per label)", path, dK, nd, (unsigned long long)d[0], (unsigned long long)d[1], n, n);
    PetscCall(Dims(f, path, dM, &nd, d));
    PetscCheck(nd == 2 && d[0] == (hsize_t)n && d[1] == (hsize_t)n, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %d-D %llu x %llu, expected %" PetscInt_FMT " x %" PetscInt_FMT " (one row per label)", path, dM, nd, (unsigned long long)d[0], (unsigned long long)d[1], n, n);
    PetscCall(PetscMalloc4(n * n, &src->K, n * n, &src->M, n * n, &src->Phi, n, &src->omega));
    PetscCall(ReadAll(f, path, dK, H5T_NATIVE_DOUBLE, src->K));
    PetscCall(ReadAll(f, path, dM, H5T_NATIVE_DOUBLE, src->M));
    H5Fclose(f);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    src->from_km = PETSC_TRUE;
    src->m       = n;
  } else {
    PetscReal *hz;
    PetscCall(Dims(f, path, dF, &nd, d));
    src->m = (PetscInt)d[0];
    PetscCall(Dims(f, path, dP, &nd, d));
    PetscCheck(nd == 2 && d[0] == (hsize_t)src->ndof && d[1] == (hsize_t)src->m, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %llu x %llu, expected %" PetscInt_FMT " x %" PetscInt_FMT " (labels x frequencies)", path, dP, (unsigned long long)d[0], (unsigned long long)d[1], src->ndof, src->m);
    PetscCall(PetscMalloc1(src->m + 1, &hz));
    PetscCall(PetscMalloc1(src->m + 1, &src->omega));
    PetscCall(ReadAll(f, path, dF, H5T_NATIVE_DOUBLE, hz));
    H5Fclose(f);
    H5Eset_auto2(H5E_DEFAULT, efn, edata);
    for (PetscInt k = 0; k < src->m; k++) {
      /* rigid-body modes may carry a tiny negative (signed) frequency */
      PetscCheck(PetscIsNormalReal(hz[k] + 1) && (k == 0 || hz[k] >= hz[k - 1]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s[%" PetscInt_FMT "] = %g: expected finite, ascending frequencies", path, dF, k, (double)hz[k]);
      src->omega[k] = hz[k] > 0 ? 2 * PETSC_PI * hz[k] : 0;
    }
    PetscCall(PetscFree(hz));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSourceRead(const char *path, const char *group, DRSSSource *src)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_SS_SourceRead, 0, 0, 0, 0));
  PetscCall(SourceRead(path, group, src));
  PetscCall(PetscLogEventEnd(DR_SS_SourceRead, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSourceModes(DRSSSource *src)
{
  char what[PETSC_MAX_PATH_LEN + 300];

  PetscFunctionBeginUser;
  if (!src->from_km) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s: %s", src->path, src->group));
  PetscCall(DRSSModesFromKM(src->ndof, src->K, src->M, src->omega, src->Phi, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSourceModeRows(DRSSSource *src, PetscInt nl, const DRLabel l[], PetscReal rows[], PetscInt *missing)
{
  PetscInt *idx;

  PetscFunctionBeginUser;
  *missing = -1;
  PetscCall(PetscMalloc1(nl + 1, &idx));
  for (PetscInt i = 0; i < nl; i++) {
    idx[i] = -1;
    for (PetscInt j = 0; j < src->ndof; j++)
      if (src->labels[j] == l[i]) {
        idx[i] = j;
        break;
      }
    if (idx[i] < 0) {
      *missing = i;
      PetscCall(PetscFree(idx));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (src->from_km) {
    for (PetscInt i = 0; i < nl; i++)
      for (PetscInt k = 0; k < src->m; k++) rows[i * src->m + k] = src->Phi[idx[i] * src->m + k];
  } else if (nl && src->m) {
    hid_t f, ds, fs, ms;
    char  dP[300];
    PetscCall(PetscSNPrintf(dP, sizeof(dP), "%s/modes", src->group));
    H5Chk(f = H5Fopen(src->path, H5F_ACC_RDONLY, H5P_DEFAULT), "%s: cannot open as HDF5", src->path);
    H5Chk(ds = H5Dopen2(f, dP, H5P_DEFAULT), "%s: cannot open %s", src->path, dP);
    H5Chk(fs = H5Dget_space(ds), "%s: %s", src->path, dP);
    {
      hsize_t cnt[2] = {1, (hsize_t)src->m}, mdims[2] = {(hsize_t)nl, (hsize_t)src->m};
      H5Sselect_none(fs);
      for (PetscInt i = 0; i < nl; i++) {
        hsize_t st[2] = {(hsize_t)idx[i], 0};
        H5Chk(H5Sselect_hyperslab(fs, H5S_SELECT_OR, st, NULL, cnt, NULL), "%s: %s: row selection", src->path, dP);
      }
      H5Chk(ms = H5Screate_simple(2, mdims, NULL), "%s: memory space", src->path);
      /* an OR of hyperslabs is read in file order: read row by row instead when
       * the requested rows are not ascending */
      {
        PetscBool asc = PETSC_TRUE;
        for (PetscInt i = 1; i < nl; i++)
          if (idx[i] <= idx[i - 1]) asc = PETSC_FALSE;
        if (asc) H5Chk(H5Dread(ds, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, rows), "%s: cannot read %s", src->path, dP);
        else {
          hsize_t one[2] = {1, (hsize_t)src->m};
          H5Sclose(ms);
          H5Chk(ms = H5Screate_simple(2, one, NULL), "%s: memory space", src->path);
          for (PetscInt i = 0; i < nl; i++) {
            hsize_t st[2] = {(hsize_t)idx[i], 0};
            H5Chk(H5Sselect_hyperslab(fs, H5S_SELECT_SET, st, NULL, cnt, NULL), "%s: %s: row selection", src->path, dP);
            H5Chk(H5Dread(ds, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, rows + i * src->m), "%s: cannot read %s", src->path, dP);
          }
        }
      }
      H5Sclose(ms);
    }
    H5Sclose(fs);
    H5Dclose(ds);
    H5Fclose(f);
  }
  PetscCall(PetscFree(idx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSSourceDestroy(DRSSSource *src)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(src->labels));
  if (src->from_km) PetscCall(PetscFree4(src->K, src->M, src->Phi, src->omega));
  else PetscCall(PetscFree(src->omega));
  PetscFunctionReturn(PETSC_SUCCESS);
}
