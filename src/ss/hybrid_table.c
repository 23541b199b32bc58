/* dynred ss: a user force law of the hybrid element from a table
 * (hybrid.element.law: table, hybrid.element.table: FILE).
 *
 * The file: one row per line, numbers separated by blanks or commas, '#'
 * starts a comment, blank lines are skipped; the model's units (force and
 * length of model.units, the time unit of model.units for velocities).
 *   two columns   x N          relative displacement (elongation dl) ->
 *                              force; x strictly increasing, >= 2 rows.
 *                              N(dl) is the piecewise linear interpolant,
 *                              extended linearly with the end segments'
 *                              slopes outside [x_1, x_m]; dN/d(dl) is the
 *                              slope of the segment holding dl (at a knot:
 *                              the right segment's).
 *   three columns x v N        displacement and velocity (rate of dl) ->
 *                              force on a full rectangular grid, x-major:
 *                              the rows of one x hold the same strictly
 *                              increasing v values (>= 2), the x values of
 *                              consecutive blocks strictly increase (>= 2).
 *                              N(dl, dl') is the bilinear interpolant of the
 *                              cell holding (dl, dl') (cells extended
 *                              linearly outside the grid); the tangents
 *                              dN/d(dl), dN/d(dl') its partial derivatives.
 * Every rank reads the file (it is small and every rank integrates the same
 * dense system).  A bad table is one error naming FILE:LINE. */
#include <dynred/ss.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _p_DRHybridTable {
  PetscInt   nx, nv;   /* nv = 1: a two-column table */
  PetscReal *x, *v, *N; /* N[i * nv + j] at (x[i], v[j]) */
  PetscReal  rate;      /* the current dl' (set by the integrator) */
  PetscReal  dNdv;      /* the last evaluation's dN/d(dl') */
};

/* Parse one line into at most 4 numbers; returns the count in *nc (-1: a
 * field that is not a finite number). */
static void ParseLine(char *line, PetscInt *nc, PetscReal val[4])
{
  char *s = strchr(line, '#'), *tok, *save = NULL;

  if (s) *s = 0;
  *nc = 0;
  for (tok = strtok_r(line, " \t,\r\n", &save); tok; tok = strtok_r(NULL, " \t,\r\n", &save)) {
    char  *end;
    double d = strtod(tok, &end);
    if (*end || !isfinite(d)) {
      *nc = -1;
      return;
    }
    if (*nc < 4) val[*nc] = d;
    (*nc)++;
  }
}

/* Index of the cell [a[i], a[i+1]] holding s (first/last cell outside). */
static PetscInt Cell(PetscInt n, const PetscReal a[], PetscReal s)
{
  PetscInt lo = 0, hi = n - 1;
  if (s <= a[0]) return 0;
  if (s >= a[n - 1]) return n - 2;
  while (hi - lo > 1) {
    PetscInt mid = (lo + hi) / 2;
    if (a[mid] <= s) lo = mid;
    else hi = mid;
  }
  return lo;
}

PetscErrorCode DRHybridTableRead(MPI_Comm comm, const char *file, DRHybridTable *tab)
{
  FILE         *fp;
  char          line[4096];
  PetscInt      nrow = 0, cap = 0, ncol = 0, lineno = 0, *lines = NULL;
  PetscReal    *rows = NULL;
  DRHybridTable t;

  PetscFunctionBeginUser;
  *tab = NULL;
  fp   = fopen(file, "r");
  PetscCheck(fp, comm, DR_ERR_INPUT, "%s: cannot open the hybrid.element.table file, expected a readable text table (x N or x v N per line)", file);
  while (fgets(line, sizeof(line), fp)) {
    PetscInt  nc;
    PetscReal val[4];
    lineno++;
    ParseLine(line, &nc, val);
    if (nc == 0) continue;
    if (nc < 0 || (ncol && nc != ncol) || nc < 2 || nc > 3) {
      fclose(fp);
      PetscCall(PetscFree2(rows, lines));
      if (nc < 0) SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": a field is not a finite number, expected numbers (x N or x v N)", file, lineno);
      if (ncol && nc != ncol && nc >= 2 && nc <= 3) SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": %" PetscInt_FMT " columns, expected %" PetscInt_FMT " like the first row", file, lineno, nc, ncol);
      SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": %" PetscInt_FMT " columns, expected 2 (displacement, force) or 3 (displacement, velocity, force)", file, lineno, nc);
    }
    ncol = nc;
    if (nrow == cap) {
      PetscReal *r;
      PetscInt  *l;
      cap = 2 * cap + 64;
      PetscCall(PetscMalloc2(3 * cap, &r, cap, &l));
      if (nrow) PetscCall(PetscArraycpy(r, rows, 3 * nrow));
      if (nrow) PetscCall(PetscArraycpy(l, lines, nrow));
      PetscCall(PetscFree2(rows, lines));
      rows = r, lines = l;
    }
    for (PetscInt k = 0; k < 3; k++) rows[3 * nrow + k] = k < nc ? val[k] : 0;
    lines[nrow++] = lineno;
  }
  fclose(fp);
  if (nrow < 2) {
    PetscCall(PetscFree2(rows, lines));
    SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": %" PetscInt_FMT " data rows, expected at least 2", file, lineno, nrow);
  }
  PetscCall(PetscNew(&t));
  if (ncol == 2) {
    t->nx = nrow, t->nv = 1;
    PetscCall(PetscMalloc3(nrow, &t->x, 1, &t->v, nrow, &t->N));
    t->v[0] = 0;
    for (PetscInt i = 0; i < nrow; i++) {
      t->x[i] = rows[3 * i], t->N[i] = rows[3 * i + 1];
      if (i && !(t->x[i] > t->x[i - 1])) {
        PetscInt  l = lines[i];
        PetscReal a = t->x[i], b = t->x[i - 1];
        PetscCall(PetscFree2(rows, lines));
        PetscCall(DRHybridTableDestroy(&t));
        SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": displacement %g after %g, expected strictly increasing displacements", file, l, (double)a, (double)b);
      }
    }
  } else {
    PetscInt nv = 1, bad = -1;
    while (nv < nrow && rows[3 * nv] == rows[0]) nv++;
    t->nv = nv, t->nx = nrow / nv;
    PetscCall(PetscMalloc3(t->nx, &t->x, nv, &t->v, nrow, &t->N));
    for (PetscInt i = 0; i < nrow && bad < 0; i++) {
      PetscInt  a = i / nv, b = i % nv;
      PetscReal x = rows[3 * i], v = rows[3 * i + 1];
      if (a == 0) t->v[b] = v;
      if (b == 0 && a < t->nx) t->x[a] = x;
      if (a < t->nx) t->N[i] = rows[3 * i + 2];
      if (nv < 2 || (b && !(v > rows[3 * i - 2])) || (a && v != t->v[b]) || (b && x != rows[3 * i - 3]) || (a && b == 0 && !(x > rows[3 * i - 3]))) bad = i;
    }
    if (bad < 0 && nrow % nv) bad = nrow - 1;
    if (bad >= 0) {
      PetscInt l = lines[bad];
      PetscCall(PetscFree2(rows, lines));
      PetscCall(DRHybridTableDestroy(&t));
      SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": not a rectangular (x, v) grid, expected rows x-major: for each strictly increasing x the same >= 2 strictly increasing v values", file, l);
    }
    if (t->nx < 2) {
      PetscInt l = lines[nrow - 1];
      PetscCall(PetscFree2(rows, lines));
      PetscCall(DRHybridTableDestroy(&t));
      SETERRQ(comm, DR_ERR_INPUT, "%s:%" PetscInt_FMT ": one displacement value, expected >= 2 (x-major grid of x v N)", file, l);
    }
  }
  PetscCall(PetscFree2(rows, lines));
  *tab = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRHybridTableHasRate(DRHybridTable t, PetscBool *rate)
{
  *rate = (PetscBool)(t->nv > 1);
  return PETSC_SUCCESS;
}

PetscErrorCode DRHybridTableSetRate(DRHybridTable t, PetscReal rate)
{
  t->rate = rate;
  return PETSC_SUCCESS;
}

PetscErrorCode DRHybridTableEval(DRHybridTable t, PetscReal dl, PetscReal rate, PetscReal *N, PetscReal *dNdl, PetscReal *dNdv)
{
  PetscInt  i = Cell(t->nx, t->x, dl), nv = t->nv;
  PetscReal sx = (dl - t->x[i]) / (t->x[i + 1] - t->x[i]), hx = t->x[i + 1] - t->x[i];

  if (nv == 1) {
    *N    = (1 - sx) * t->N[i] + sx * t->N[i + 1];
    *dNdl = (t->N[i + 1] - t->N[i]) / hx;
    *dNdv = 0;
  } else {
    PetscInt  j  = Cell(nv, t->v, rate);
    PetscReal hv = t->v[j + 1] - t->v[j], sv = (rate - t->v[j]) / hv;
    PetscReal a = t->N[i * nv + j], b = t->N[(i + 1) * nv + j], c = t->N[i * nv + j + 1], d = t->N[(i + 1) * nv + j + 1];
    *N    = (1 - sx) * (1 - sv) * a + sx * (1 - sv) * b + (1 - sx) * sv * c + sx * sv * d;
    *dNdl = ((1 - sv) * (b - a) + sv * (d - c)) / hx;
    *dNdv = ((1 - sx) * (c - a) + sx * (d - b)) / hv;
  }
  return PETSC_SUCCESS;
}

/* The DRHybridLaw of a table (ctx: the DRHybridTable): the rate is the one
 * last set by DRHybridTableSetRate, dN/d(rate) kept for the integrator. */
PetscErrorCode DRHybridLawTable(void *ctx, PetscReal dl, PetscReal *N, PetscReal *dNdl)
{
  DRHybridTable t = (DRHybridTable)ctx;
  return DRHybridTableEval(t, dl, t->rate, N, dNdl, &t->dNdv);
}

PetscErrorCode DRHybridTableGetRateTangent(DRHybridTable t, PetscReal *dNdv)
{
  *dNdv = t->dNdv;
  return PETSC_SUCCESS;
}

PetscErrorCode DRHybridTableDestroy(DRHybridTable *t)
{
  PetscFunctionBeginUser;
  if (!*t) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3((*t)->x, (*t)->v, (*t)->N));
  PetscCall(PetscFree(*t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
