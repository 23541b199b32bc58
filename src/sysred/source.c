/* dynred sysred: the system to reduce, from an HDF5 group (a `dynred ss`
 * result /ss, or any group holding A, B, C and optionally D, row-major as
 * h5py writes them) or from Matrix Market files A, B, C[, D] (coordinate or
 * array, real general).  Every rank reads (the data is small); every rank
 * finds the same error, raised on PETSC_COMM_WORLD.  All file I/O of
 * sysred/ except the result is here. */
#include "sysredimpl.h"
#include <dynred/h5.h>
#include <stdio.h>
#include <string.h>
#include <ctype.h>

PetscErrorCode DRLTIAlloc(PetscInt n, PetscInt m, PetscInt p, DRLTI *s)
{
  PetscFunctionBegin;
  s->n = n;
  s->m = m;
  s->p = p;
  PetscCall(PetscCalloc4(n * n + 1, &s->A, n * m + 1, &s->B, p * n + 1, &s->C, p * m + 1, &s->D));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLTIFree(DRLTI *s)
{
  PetscFunctionBegin;
  if (s->A) PetscCall(PetscFree4(s->A, s->B, s->C, s->D));
  s->A = s->B = s->C = s->D = NULL;
  s->n = s->m = s->p = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSecondOrderAlloc(PetscInt n, PetscInt m, PetscInt p, DRSecondOrder *so)
{
  PetscFunctionBegin;
  so->n = n, so->m = m, so->p = p;
  PetscCall(PetscCalloc5(n * n + 1, &so->M, n * n + 1, &so->D, n * n + 1, &so->K, n * m + 1, &so->B, p * n + 1, &so->C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSecondOrderFree(DRSecondOrder *so)
{
  PetscFunctionBegin;
  if (so->M) PetscCall(PetscFree5(so->M, so->D, so->K, so->B, so->C));
  so->M = so->D = so->K = so->B = so->C = NULL;
  so->n = so->m = so->p = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLTICopy(const DRLTI *a, DRLTI *b)
{
  PetscFunctionBegin;
  PetscCall(DRLTIFree(b));
  PetscCall(DRLTIAlloc(a->n, a->m, a->p, b));
  PetscCall(PetscArraycpy(b->A, a->A, a->n * a->n));
  PetscCall(PetscArraycpy(b->B, a->B, a->n * a->m));
  PetscCall(PetscArraycpy(b->C, a->C, a->p * a->n));
  PetscCall(PetscArraycpy(b->D, a->D, a->p * a->m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* row-major r x c into column-major */
static void ToColMajor(PetscInt r, PetscInt c, const PetscReal *in, PetscReal *out)
{
  for (PetscInt i = 0; i < r; i++)
    for (PetscInt j = 0; j < c; j++) out[i + j * r] = in[i * c + j];
}

static const char *const names[4] = {"A", "B", "C", "D"};

/* the sizes n, m, p from the shapes of A, B, C, D (D may be absent: r[3] < 0) */
static PetscErrorCode CheckShapes(const char *where[4], const PetscInt r[4], const PetscInt c[4], PetscInt *n, PetscInt *m, PetscInt *p)
{
  PetscFunctionBegin;
  *n = r[0];
  *m = c[1];
  *p = r[2];
  PetscCheck(r[0] == c[0] && r[0] > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: A is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix with at least one row", where[0], r[0], c[0]);
  PetscCheck(r[1] == *n && *m > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: B is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " rows (A is %" PetscInt_FMT " x %" PetscInt_FMT ") and at least one column", where[1], r[1], c[1], *n, *n, *n);
  PetscCheck(c[2] == *n && *p > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: C is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " columns (A is %" PetscInt_FMT " x %" PetscInt_FMT ") and at least one row", where[2], r[2], c[2], *n, *n, *n);
  PetscCheck(r[3] < 0 || (r[3] == *p && c[3] == *m), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: D is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %" PetscInt_FMT " x %" PetscInt_FMT " (outputs of C x inputs of B)", where[3], r[3], c[3], *p, *m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedReadH5(const char *path, const char *group, DRLTI *s)
{
  hid_t      f;
  PetscBool  e;
  PetscReal *buf[4] = {NULL, NULL, NULL, NULL};
  PetscInt   r[4] = {-1, -1, -1, -1}, c[4] = {-1, -1, -1, -1}, n, m, p;
  char       where[4][PETSC_MAX_PATH_LEN + 300], d[300];
  const char *w[4] = {where[0], where[1], where[2], where[3]};

  PetscFunctionBegin;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open as HDF5 (sysred.source), expected a dynred ss result or a file with A, B, C[, D]", path);
  for (int k = 0; k < 4; k++) {
    int     nd;
    hsize_t dd[4];
    PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", group, names[k]));
    PetscCall(PetscSNPrintf(where[k], sizeof(where[k]), "%s: %s", path, d));
    PetscCall(DRH5Exists(f, d, &e));
    if (!e && k == 3) break;
    if (!e) {
      PetscCall(DRH5FileClose(&f));
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no dataset %s, expected A, B, C[, D] in group %s (sysred.group)", path, d, group);
    }
    PetscCall(DRH5Dims(f, d, &nd, dd));
    if (nd != 2) {
      PetscCall(DRH5FileClose(&f));
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %d-dimensional, expected a matrix (2 dimensions)", where[k], nd);
    }
    r[k] = (PetscInt)dd[0];
    c[k] = (PetscInt)dd[1];
    if (k > 0) PetscCall(DRH5ReadAll(f, d, H5T_NATIVE_DOUBLE, NULL, NULL, (void **)&buf[k]));
  }
  {
    PetscErrorCode ierr = CheckShapes(w, r, c, &n, &m, &p);
    if (ierr) PetscCall(DRH5FileClose(&f));
    PetscCall(ierr);
  }
  PetscCall(DRLTIAlloc(n, m, p, s));
  /* A straight into its place (one n x n array: 3.2 GB at 20000 states),
   * transposed in place */
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/A", group));
  PetscCall(DRH5ReadRows(f, d, H5T_NATIVE_DOUBLE, 0, (hsize_t)n, s->A));
  PetscCall(DRH5FileClose(&f));
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt i = j + 1; i < n; i++) {
      PetscReal t = s->A[i + j * n];
      s->A[i + j * n] = s->A[j + i * n];
      s->A[j + i * n] = t;
    }
  ToColMajor(n, m, buf[1], s->B);
  ToColMajor(p, n, buf[2], s->C);
  if (buf[3]) ToColMajor(p, m, buf[3], s->D);
  for (int k = 0; k < 4; k++) PetscCall(PetscFree(buf[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One Matrix Market file into a dense column-major array. */
static PetscErrorCode ReadMtx(const char *path, PetscInt *rows, PetscInt *cols, PetscReal **a)
{
  FILE     *fp = fopen(path, "r");
  char      line[1024];
  long      ln = 0, r = 0, c = 0, nnz = 0, k = 0;
  PetscBool coord = PETSC_TRUE, sym = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(fp, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open (sysred.mtx), expected a Matrix Market file", path);
  *a = NULL;
  while (fgets(line, sizeof(line), fp)) {
    ln++;
    if (ln == 1) {
      for (char *q = line; *q; q++) *q = (char)tolower((unsigned char)*q);
      if (strncmp(line, "%%matrixmarket matrix", 21) || !strstr(line, "real") || (!strstr(line, "coordinate") && !strstr(line, "array")) || strstr(line, "skew")) {
        fclose(fp);
        SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:1: found '%.60s', expected '%%%%MatrixMarket matrix coordinate|array real general|symmetric'", path, strtok(line, "\n"));
      }
      coord = strstr(line, "coordinate") ? PETSC_TRUE : PETSC_FALSE;
      sym   = strstr(line, "symmetric") ? PETSC_TRUE : PETSC_FALSE;
      continue;
    }
    if (line[0] == '%' || strspn(line, " \t\r\n") == strlen(line)) continue;
    if (!*a) {
      int ok = coord ? sscanf(line, "%ld %ld %ld", &r, &c, &nnz) == 3 : sscanf(line, "%ld %ld", &r, &c) == 2;
      if (!ok || r <= 0 || c <= 0 || nnz < 0) {
        fclose(fp);
        SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%ld: found '%.60s', expected the size line '%s'", path, ln, strtok(line, "\n"), coord ? "rows cols nonzeros" : "rows cols");
      }
      PetscCall(PetscCalloc1(r * c + 1, a));
      if (!coord) nnz = sym ? r * (r + 1) / 2 : r * c;
      continue;
    }
    if (k >= nnz) {
      fclose(fp);
      PetscCall(PetscFree(*a));
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%ld: more entries than the %ld of the size line", path, ln, nnz);
    }
    long   i, j;
    double v;
    int    ok;
    if (coord) ok = sscanf(line, "%ld %ld %lf", &i, &j, &v) == 3;
    else {
      ok = sscanf(line, "%lf", &v) == 1;
      if (sym) { /* lower triangle column by column */
        long cnt = k;
        for (j = 1; cnt >= r - j + 1; j++) cnt -= r - j + 1;
        i = j + cnt;
      } else {
        i = k % r + 1;
        j = k / r + 1;
      }
    }
    if (!ok || i < 1 || i > r || j < 1 || j > c || PetscIsInfOrNanReal(v)) {
      fclose(fp);
      PetscCall(PetscFree(*a));
      SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%ld: found '%.60s', expected %s of a %ld x %ld matrix", path, ln, strtok(line, "\n"), coord ? "'row col value' (1-based)" : "one finite value", r, c);
    }
    (*a)[(i - 1) + (j - 1) * r] = v;
    if (sym) (*a)[(j - 1) + (i - 1) * r] = v;
    k++;
  }
  fclose(fp);
  PetscCheck(*a, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%ld: no size line, expected a Matrix Market matrix", path, ln);
  if (k < nnz) {
    PetscCall(PetscFree(*a));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s:%ld: %ld entries, expected %ld (the size line)", path, ln, k, nnz);
  }
  *rows = (PetscInt)r;
  *cols = (PetscInt)c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedReadMtx(PetscInt nfiles, char *const files[], DRLTI *s)
{
  PetscReal  *buf[4] = {NULL, NULL, NULL, NULL};
  PetscInt    r[4] = {-1, -1, -1, -1}, c[4] = {-1, -1, -1, -1}, n, m, p;
  const char *w[4] = {files[0], files[1], files[2], nfiles > 3 ? files[3] : ""};

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nfiles; k++) PetscCall(ReadMtx(files[k], &r[k], &c[k], &buf[k]));
  PetscCall(CheckShapes(w, r, c, &n, &m, &p));
  PetscCall(DRLTIAlloc(n, m, p, s));
  PetscCall(PetscArraycpy(s->A, buf[0], n * n));
  PetscCall(PetscArraycpy(s->B, buf[1], n * m));
  PetscCall(PetscArraycpy(s->C, buf[2], p * n));
  if (buf[3]) PetscCall(PetscArraycpy(s->D, buf[3], p * m));
  for (int k = 0; k < 4; k++) PetscCall(PetscFree(buf[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedReadSnapshots(const char *path, const char *dset, PetscInt n, PetscInt *N, PetscReal **X)
{
  hid_t     f;
  PetscBool e;
  int       nd;
  hsize_t   dd[4];

  PetscFunctionBegin;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open as HDF5 (sysred.pod.snapshots), expected a file with snapshots %s [time samples, states]", path, dset);
  PetscCall(DRH5Exists(f, dset, &e));
  if (e) PetscCall(DRH5Dims(f, dset, &nd, dd));
  if (!e || nd != 2 || (PetscInt)dd[1] != n || dd[0] < 1) {
    PetscCall(DRH5FileClose(&f));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s %s, expected snapshots [time samples, %" PetscInt_FMT " states] (sysred.pod.dataset)", path, dset, !e ? "does not exist" : "has the wrong shape", n);
  }
  *N = (PetscInt)dd[0];
  PetscCall(DRH5ReadAll(f, dset, H5T_NATIVE_DOUBLE, NULL, NULL, (void **)X)); /* row-major [N][n] = column-major n x N */
  PetscCall(DRH5FileClose(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one matrix of a second-order group: the first of two names that exists
 * (alt may be NULL); rows, cols < 0: free, else checked */
static PetscErrorCode ReadSOMat(hid_t f, const char *path, const char *group, const char *name, const char *alt, PetscInt rows, PetscInt cols, PetscInt *r, PetscInt *c, PetscReal **out)
{
  char       d[300], d2[300];
  PetscBool  e;
  int        nd;
  hsize_t    dd[4];
  PetscReal *buf;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", group, name));
  PetscCall(DRH5Exists(f, d, &e));
  if (!e && alt) {
    PetscCall(PetscSNPrintf(d2, sizeof(d2), "%s/%s", group, alt));
    PetscCall(DRH5Exists(f, d2, &e));
    if (e) PetscCall(PetscStrncpy(d, d2, sizeof(d)));
  }
  PetscCheck(e, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no dataset %s/%s%s%s, expected M, D, K, B (or input_map), C (or output_map) in group %s (sysred.group) for sysred.method sobt", path, group, name, alt ? " or " : "", alt ? alt : "", group);
  PetscCall(DRH5Dims(f, d, &nd, dd));
  PetscCheck(nd == 2, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %d-dimensional, expected a matrix (2 dimensions)", path, d, nd);
  *r = (PetscInt)dd[0];
  *c = (PetscInt)dd[1];
  PetscCheck((rows < 0 || *r == rows) && (cols < 0 || *c == cols) && *r > 0 && *c > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %" PetscInt_FMT " x %" PetscInt_FMT ", expected %s%" PetscInt_FMT " x %s%" PetscInt_FMT " (M is n x n, B n x inputs, C outputs x n)", path, d, *r, *c, rows < 0 ? ">= " : "", rows < 0 ? 1 : rows, cols < 0 ? ">= " : "", cols < 0 ? 1 : cols);
  PetscCall(DRH5ReadAll(f, d, H5T_NATIVE_DOUBLE, NULL, NULL, (void **)&buf));
  PetscCall(PetscMalloc1(*r * *c, out));
  ToColMajor(*r, *c, buf, *out);
  for (PetscInt k = 0; k < *r * *c; k++) PetscCheck(!PetscIsInfOrNanReal((*out)[k]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has a non-finite entry, expected finite numbers", path, d);
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysRedReadSO(const char *path, const char *group, DRSecondOrder *so)
{
  hid_t      f;
  PetscInt   n, r, c, m, p;
  PetscReal *X[5];

  PetscFunctionBegin;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open as HDF5 (sysred.source), expected a dynred ss result or a file with M, D, K, B, C", path);
  PetscCall(ReadSOMat(f, path, group, "M", NULL, -1, -1, &n, &c, &X[0]));
  PetscCheck(c == n, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s/M is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix", path, group, n, c);
  PetscCall(ReadSOMat(f, path, group, "D", NULL, n, n, &r, &c, &X[1]));
  PetscCall(ReadSOMat(f, path, group, "K", NULL, n, n, &r, &c, &X[2]));
  PetscCall(ReadSOMat(f, path, group, "B", "input_map", n, -1, &r, &m, &X[3]));
  PetscCall(ReadSOMat(f, path, group, "C", "output_map", -1, n, &p, &c, &X[4]));
  PetscCall(DRH5FileClose(&f));
  PetscCall(DRSecondOrderFree(so));
  PetscCall(DRSecondOrderAlloc(n, m, p, so));
  PetscCall(PetscArraycpy(so->M, X[0], n * n));
  PetscCall(PetscArraycpy(so->D, X[1], n * n));
  PetscCall(PetscArraycpy(so->K, X[2], n * n));
  PetscCall(PetscArraycpy(so->B, X[3], n * m));
  PetscCall(PetscArraycpy(so->C, X[4], p * n));
  for (int k = 0; k < 5; k++) PetscCall(PetscFree(X[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
