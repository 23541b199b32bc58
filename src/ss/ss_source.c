/* dynred ss: reading the reduced model a state-space export starts from.
 * Serial reads (read-only) on every rank through the core HDF5 helper layer
 * (dynred/h5.h): a failing HDF5 call is one line naming file and dataset. */
#include "ssimpl.h"
#include <dynred/component.h>
#include <dynred/h5.h>
#include <string.h>

static PetscBool Exists(hid_t f, const char *path)
{
  PetscBool e = PETSC_FALSE;
  if (DRH5Exists(f, path, &e)) return PETSC_FALSE;
  return e;
}

/* Dataset dims (1 or 2; a 1-D dataset has d[1] = 1). */
static PetscErrorCode Dims(hid_t f, const char *file, const char *dset, int *ndims, hsize_t d[2])
{
  hsize_t dd[4];
  int     nd;

  PetscFunctionBeginUser;
  PetscCall(DRH5Dims(f, dset, &nd, dd));
  PetscCheck(nd, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open dataset %s", file, dset);
  PetscCheck(nd >= 1 && nd <= 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has %d dimensions, expected 1 or 2", file, dset, nd);
  d[0]   = dd[0];
  d[1]   = nd == 2 ? dd[1] : 1;
  *ndims = nd;
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
  PetscCall(DRH5ReadAll(f, dset, H5T_NATIVE_INT64, NULL, NULL, (void **)&raw));
  PetscCall(PetscMalloc1(*n + 1, labels));
  for (PetscInt i = 0; i < *n; i++) {
    PetscCheck(raw[2 * i] >= 0 && raw[2 * i + 1] >= 0 && raw[2 * i + 1] <= 6, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s row %" PetscInt_FMT " is (%" PetscInt64_FMT ", %" PetscInt64_FMT "), not a node and a direction 1..6 (or 0: a scalar point)", file, dset, i, raw[2 * i], raw[2 * i + 1]);
    (*labels)[i] = DRLabelMake(raw[2 * i], raw[2 * i + 1]);
  }
  PetscCall(DRLabelsNumberCopies(*n, *labels));
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

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(src, sizeof(*src)));
  PetscCall(PetscStrncpy(src->path, path, sizeof(src->path)));
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  if (f < 0) {
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open as HDF5 (ss.source)", path);
  }
  if (group && group[0]) {
    PetscCall(PetscSNPrintf(g, sizeof(g), "%s%s", group[0] == '/' ? "" : "/", group));
    if (!Exists(f, g)) {
      PetscCall(DRH5FileClose(&f));
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no group %s (ss.group)", path, g);
    }
  } else if (Exists(f, "/cms/modes")) PetscCall(PetscStrncpy(g, "/cms", sizeof(g)));
  else if (Exists(f, "/modal/modes")) PetscCall(PetscStrncpy(g, "/modal", sizeof(g)));
  else {
    PetscCall(DRH5FileClose(&f));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no /cms/modes or /modal/modes (written unless cms.write_modes or modal.write_modes is false); name the group of the reduced model with ss.group", path);
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
    PetscCall(DRH5FileClose(&f));
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
    PetscCall(DRH5ReadRows(f, dK, H5T_NATIVE_DOUBLE, 0, (hsize_t)n, src->K));
    PetscCall(DRH5ReadRows(f, dM, H5T_NATIVE_DOUBLE, 0, (hsize_t)n, src->M));
    PetscCall(DRH5FileClose(&f));
    src->from_km = PETSC_TRUE;
    src->m       = n;
  } else {
    PetscReal *hz;
    PetscCall(Dims(f, path, dF, &nd, d));
    src->m = (PetscInt)d[0];
    PetscCall(Dims(f, path, dP, &nd, d));
    PetscCheck(nd == 2 && d[0] == (hsize_t)src->ndof && d[1] == (hsize_t)src->m, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %llu x %llu, expected %" PetscInt_FMT " x %" PetscInt_FMT " (labels x frequencies)", path, dP, (unsigned long long)d[0], (unsigned long long)d[1], src->ndof, src->m);
    PetscCall(PetscMalloc1(src->m + 1, &src->omega));
    PetscCall(DRH5ReadAll(f, dF, H5T_NATIVE_DOUBLE, NULL, NULL, (void **)&hz));
    { /* frequencies of a file whose writer converted them to Hz carry time_unit_s = 1 */
      PetscBool found;
      PetscCall(DRH5AttrReadReal(f, dF, "time_unit_s", &src->freq_tu, &found));
      if (!found || !(src->freq_tu > 0)) src->freq_tu = 0;
    }
    PetscCall(DRH5FileClose(&f));
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
    hid_t f;
    char  dP[300];
    PetscCall(PetscSNPrintf(dP, sizeof(dP), "%s/modes", src->group));
    PetscCall(DRH5FileOpen(MPI_COMM_NULL, src->path, DR_H5_READ, &f));
    PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open as HDF5", src->path);
    /* the requested rows one at a time, in the order asked for */
    for (PetscInt i = 0; i < nl; i++) PetscCall(DRH5ReadRows(f, dP, H5T_NATIVE_DOUBLE, (hsize_t)idx[i], 1, rows + i * src->m));
    PetscCall(DRH5FileClose(&f));
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
