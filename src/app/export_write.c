/* Writers of `dynred export` (job_export.c): Nastran DMIG bulk data, OP4
 * (Nastran OUTPUT4; ASCII or binary, dense or sparse "bigmat" columns) and
 * the DOF map table.  Called by rank 0 alone on a temporary name; the caller
 * renames.  Formats (as the writers produce them):
 *
 * DMIG, large field (a `*` after the card name, 8-character name field and
 * four 16-character fields per line, continuation lines start with `*`):
 *   header   DMIG* NAME 0 IFO=6 TIN=2 / * TOUT=2            (symmetric, real double)
 *   column   DMIG* NAME GJ CJ / then one line per term * GI CI A
 * Only the upper triangle is written (GI/CI rows up to the column's own
 * coordinate, IFO=6 symmetric storage); exact zeros are left out.  A GRID
 * DOF is (node, component 1..6); a modal coordinate is the scalar point
 * (SPOINT id, component 0); the SPOINT cards come first.  Values take the
 * most digits a 16-character field holds (11 significant for a positive
 * value with a two-digit exponent, 10 for a negative one).
 *
 * OP4 (real double precision, type 2; form 6 symmetric, else 1): every
 * matrix is a header record (ncol, nrow, form, type, name) and one record per
 * column with a nonzero entry, then a closing record for column ncol + 1.
 *   ASCII   header "%8d%8d%8d%8d%-8s1P,3E24.16"; dense column "%8d%8d%8d"
 *           (icol, first nonzero row irow, number of values), the values
 *           from irow to the last nonzero row, 3 per line as %24.16E
 *           (17 significant digits: doubles round-trip exactly);
 *           sparse (bigmat: nrow written negative) column "icol 0 nw" with
 *           nw = 2 strings + 2 values (words of 4 bytes), per string of
 *           consecutive nonzeros "%8d%8d" (L + 1, irow), L = 2 x its length,
 *           then its values.
 *   binary  Fortran unformatted sequential records (a 4-byte length before
 *           and after each), little endian, 4-byte integers: header
 *           (ncol, nrow, form, type, 8-byte name); dense column (icol, irow,
 *           nw = 2 x values, the doubles); sparse column (icol, 0, nw, then
 *           per string L + 1, irow, the doubles).
 *   closing column: icol = ncol + 1, irow 1, one value 1.0.
 */
#include "export.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* DMIG                                                                     */
/* ------------------------------------------------------------------------ */

/* v in at most 16 characters with as many digits as fit */
static void Field16(double v, char out[32])
{
  for (int p = 10; p >= 1; p--) {
    snprintf(out, 32, "%.*E", p, v);
    if (strlen(out) <= 16) return;
  }
}

/* GRID (node, component) or SPOINT (id, 0) of coordinate i */
static void Point(const DRExportSE *se, PetscInt i, long long *g, int *c)
{
  if (i < se->nphys) {
    *g = (long long)se->lab[2 * i];
    *c = (int)se->lab[2 * i + 1];
  } else {
    *g = (long long)(se->spoint_start + (i - se->nphys));
    *c = 0;
  }
}

static PetscErrorCode DMIGMatrix(FILE *f, const char *name, PetscInt n, const PetscReal *A, const DRExportSE *se)
{
  PetscFunctionBeginUser;
  fprintf(f, "$ %s: %" PetscInt_FMT " x %" PetscInt_FMT ", symmetric (IFO=6), upper triangle by columns\n", name, n, n);
  fprintf(f, "DMIG*   %-16s%16d%16d%16d\n*       %16d\n", name, 0, 6, 2, 2);
  for (PetscInt j = 0; j < n; j++) {
    long long gj;
    int       cj, any = 0;
    for (PetscInt i = 0; i <= j && !any; i++) any = A[i * n + j] != 0;
    if (!any) continue;
    Point(se, j, &gj, &cj);
    fprintf(f, "DMIG*   %-16s%16lld%16d\n", name, gj, cj);
    for (PetscInt i = 0; i <= j; i++) {
      long long gi;
      int       ci;
      char      v[32];
      if (A[i * n + j] == 0) continue;
      Point(se, i, &gi, &ci);
      Field16((double)A[i * n + j], v);
      fprintf(f, "*       %16lld%16d%16s\n", gi, ci, v);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRExportWriteDMIG(FILE *f, const DRExportSE *se)
{
  PetscInt nsp = se->n - se->nphys;

  PetscFunctionBeginUser;
  fprintf(f, "$ dynred %s superelement (DMIG bulk data, large field)\n", DYNRED_VERSION);
  fprintf(f, "$ source: %s %s\n", se->source, se->group);
  fprintf(f, "$ %" PetscInt_FMT " coordinates: %" PetscInt_FMT " GRID DOFs, %" PetscInt_FMT " scalar points %" PetscInt_FMT "..%" PetscInt_FMT " (%s); DOF map: %s\n", se->n, se->nphys, nsp, nsp ? se->spoint_start : 0, nsp ? se->spoint_start + nsp - 1 : 0, se->what, se->mappath);
  fprintf(f, "$ use in case control: K2GG=%s M2GG=%s%s%s\n", se->name[0], se->name[1], se->D ? " B2GG=" : "", se->D ? se->name[2] : "");
  if (nsp) fprintf(f, "SPOINT  %8" PetscInt_FMT "    THRU%8" PetscInt_FMT "\n", se->spoint_start, se->spoint_start + nsp - 1);
  PetscCall(DMIGMatrix(f, se->name[0], se->n, se->K, se));
  PetscCall(DMIGMatrix(f, se->name[1], se->n, se->M, se));
  if (se->D) PetscCall(DMIGMatrix(f, se->name[2], se->n, se->D, se));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* OP4                                                                      */
/* ------------------------------------------------------------------------ */

static void PutI32(FILE *f, PetscInt v)
{
  int32_t x = (int32_t)v;
  fwrite(&x, 4, 1, f);
}

static void AsciiValues(FILE *f, const PetscReal *v, PetscInt n)
{
  for (PetscInt k = 0; k < n; k++) fprintf(f, "%24.16E%s", (double)v[k], (k % 3 == 2 || k == n - 1) ? "\n" : "");
}

static PetscBool Symmetric(PetscInt n, const PetscReal *A)
{
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < i; j++)
      if (A[i * n + j] != A[j * n + i]) return PETSC_FALSE;
  return PETSC_TRUE;
}

static PetscErrorCode OP4Matrix(FILE *f, const char *name, PetscInt n, const PetscReal *A, PetscBool binary, PetscBool sparse)
{
  PetscReal *col, one = 1.0;
  PetscInt   form = Symmetric(n, A) ? 6 : 1;
  char       nm[9];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(n + 1, &col));
  snprintf(nm, sizeof(nm), "%-8.8s", name);
  if (binary) {
    PutI32(f, 24);
    PutI32(f, n);
    PutI32(f, sparse ? -n : n);
    PutI32(f, form);
    PutI32(f, 2);
    fwrite(nm, 1, 8, f);
    PutI32(f, 24);
  } else fprintf(f, "%8" PetscInt_FMT "%8" PetscInt_FMT "%8" PetscInt_FMT "%8d%-8s1P,3E24.16\n", n, sparse ? -n : n, form, 2, nm);
  for (PetscInt j = 0; j < n; j++) {
    PetscInt first = -1, last = -1;
    for (PetscInt i = 0; i < n; i++) {
      col[i] = A[i * n + j];
      if (col[i] != 0) {
        if (first < 0) first = i;
        last = i;
      }
    }
    if (first < 0) continue; /* an all-zero column is not written */
    if (!sparse) {
      PetscInt nv = last - first + 1;
      if (binary) {
        PutI32(f, 12 + 8 * nv);
        PutI32(f, j + 1);
        PutI32(f, first + 1);
        PutI32(f, 2 * nv);
        fwrite(col + first, 8, (size_t)nv, f);
        PutI32(f, 12 + 8 * nv);
      } else {
        fprintf(f, "%8" PetscInt_FMT "%8" PetscInt_FMT "%8" PetscInt_FMT "\n", j + 1, first + 1, nv);
        AsciiValues(f, col + first, nv);
      }
    } else {
      PetscInt nw = 0;
      for (PetscInt i = first; i <= last;) { /* strings of consecutive nonzeros */
        PetscInt e = i;
        while (e <= last && col[e] != 0) e++;
        nw += 2 + 2 * (e - i);
        for (i = e; i <= last && col[i] == 0; i++) {}
      }
      if (binary) {
        PutI32(f, (3 + nw) * 4);
        PutI32(f, j + 1);
        PutI32(f, 0);
        PutI32(f, nw);
      } else fprintf(f, "%8" PetscInt_FMT "%8d%8" PetscInt_FMT "\n", j + 1, 0, nw);
      for (PetscInt i = first; i <= last;) {
        PetscInt e = i;
        while (e <= last && col[e] != 0) e++;
        if (binary) {
          PutI32(f, 2 * (e - i) + 1);
          PutI32(f, i + 1);
          fwrite(col + i, 8, (size_t)(e - i), f);
        } else {
          fprintf(f, "%8" PetscInt_FMT "%8" PetscInt_FMT "\n", 2 * (e - i) + 1, i + 1);
          AsciiValues(f, col + i, e - i);
        }
        for (i = e; i <= last && col[i] == 0; i++) {}
      }
      if (binary) PutI32(f, (3 + nw) * 4);
    }
  }
  if (binary) {
    PutI32(f, 20);
    PutI32(f, n + 1);
    PutI32(f, 1);
    PutI32(f, 2);
    fwrite(&one, 8, 1, f);
    PutI32(f, 20);
  } else {
    fprintf(f, "%8" PetscInt_FMT "%8d%8d\n", n + 1, 1, 1);
    AsciiValues(f, &one, 1);
  }
  PetscCall(PetscFree(col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRExportWriteOP4(FILE *f, const DRExportSE *se, PetscBool binary, PetscBool sparse)
{
  PetscFunctionBeginUser;
  PetscCall(OP4Matrix(f, se->name[0], se->n, se->K, binary, sparse));
  PetscCall(OP4Matrix(f, se->name[1], se->n, se->M, binary, sparse));
  if (se->D) PetscCall(OP4Matrix(f, se->name[2], se->n, se->D, binary, sparse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------ */
/* DOF map                                                                  */
/* ------------------------------------------------------------------------ */

PetscErrorCode DRExportWriteMap(FILE *f, const DRExportSE *se)
{
  PetscFunctionBeginUser;
  fprintf(f, "# dynred %s DOF map of %s %s: row of the exported matrices (1-based) -> GRID DOF (node, component 1..6)\n", DYNRED_VERSION, se->source, se->group);
  fprintf(f, "# or scalar point (SPOINT id, component 0) of a generalized coordinate (%s)\n", se->what);
  fprintf(f, "row,kind,id,component,label,coordinate\n");
  for (PetscInt i = 0; i < se->n; i++) {
    long long g;
    int       c;
    Point(se, i, &g, &c);
    if (i < se->nphys) fprintf(f, "%" PetscInt_FMT ",grid,%lld,%d,%lld.%d,physical DOF\n", i + 1, g, c, g, c);
    else fprintf(f, "%" PetscInt_FMT ",spoint,%lld,0,,%s %" PetscInt_FMT "\n", i + 1, g, se->genname, i - se->nphys + 1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
