/* dynred export -config JOB.yaml: a reduced model of a dynred result as a
 * superelement (Nastran DMIG bulk data or OP4) with a DOF map table.
 *
 * Sources (export.group; empty: the first present of these):
 *   /cms/reduced       K, M of the assembled reduced system; its first
 *                      size - n_modal coordinates are the boundary DOFs
 *                      (boundary_labels, GRID DOFs) unless the interface was
 *                      reduced before the projection (then they are CC mode
 *                      coordinates and, like the component modal coordinates,
 *                      scalar points)
 *   /ss/second_order   M, D, K in modal coordinates (all scalar points)
 *   /ga/solutions/NNN  K, M on the master DOFs dof_labels (all GRID DOFs)
 *   any group with K, M [, D] and optionally labels [nl, 2] naming its first
 *   nl coordinates.
 * Every rank reads the (small, dense) source and checks it the same way;
 * rank 0 writes the output and the map under temporary names and renames
 * them.  Formats: export_write.c. */
#include "export.h"
#include <dynred/h5.h>
#include <dynred/io.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const DRConfigKey DRJobExportKeys[] = {
  {"export.source", DR_CFG_STRING, "", "dynred result (HDF5) holding the reduced model (relative to the job file); unset in the export: section of a cms job, which exports its own output", NULL, NULL, NULL},
  {"export.group", DR_CFG_STRING, "", "group of export.source with K, M [, D] (empty: the first of /cms/reduced, /ss/second_order, /ga/solutions/001)", NULL, NULL, NULL},
  {"export.format", DR_CFG_STRING, "dmig", "dmig (Nastran bulk data, large field, symmetric upper triangle) | op4 (Nastran OUTPUT4 matrices)", "dmig|op4", NULL, NULL},
  {"export.binary", DR_CFG_BOOL, "false", "op4: binary (Fortran records, little endian, 4-byte integers) instead of ASCII", NULL, NULL, NULL},
  {"export.sparse", DR_CFG_BOOL, "false", "op4: sparse bigmat columns (strings of nonzeros) instead of dense columns", NULL, NULL, NULL},
  {"export.output", DR_CFG_STRING, "", "output file (DMIG bulk data to INCLUDE, or the .op4 file)", NULL, NULL, NULL},
  {"export.map", DR_CFG_STRING, "", "DOF map table (CSV: row, kind grid|spoint, id, component, label, coordinate); empty: OUTPUT.map.csv", NULL, NULL, NULL},
  {"export.spoint_start", DR_CFG_INT, "9000001", "SPOINT id of the first generalized (modal) coordinate; ids above it must not be GRID ids", "1..99999999", NULL, NULL},
  {"export.k_name", DR_CFG_STRING, "KAAX", "DMIG/OP4 name of the stiffness matrix (K2GG=)", NULL, NULL, NULL},
  {"export.m_name", DR_CFG_STRING, "MAAX", "DMIG/OP4 name of the mass matrix (M2GG=)", NULL, NULL, NULL},
  {"export.d_name", DR_CFG_STRING, "BAAX", "DMIG/OP4 name of the damping matrix (B2GG=), when the source has D", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

/* dataset GROUP/NAME as an n x n matrix (*A NULL when absent and optional) */
static PetscErrorCode ReadSquare(hid_t f, const DRExportSE *se, const char *name, PetscBool optional, PetscInt *n, PetscReal **A)
{
  char      d[320];
  PetscBool has;
  int       nd;
  hsize_t   dims[4];

  PetscFunctionBeginUser;
  *A = NULL;
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", se->group, name));
  PetscCall(DRH5Exists(f, d, &has));
  if (!has && optional) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(has, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: no dataset %s, expected the reduced %s matrix", se->source, d, name);
  PetscCall(DRH5ReadAll(f, d, H5T_NATIVE_DOUBLE, &nd, dims, (void **)A));
  PetscCheck(nd == 2 && dims[0] == dims[1] && dims[0] > 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is not a square matrix, expected [n, n]", se->source, d);
  PetscCheck(*n < 0 || (PetscInt)dims[0] == *n, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is %d x %d, expected %" PetscInt_FMT " x %" PetscInt_FMT " as K", se->source, d, (int)dims[0], (int)dims[1], *n, *n);
  *n = (PetscInt)dims[0];
  for (PetscInt k = 0; k < *n * *n; k++) PetscCheck(!PetscIsInfOrNanReal((*A)[k]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s[%" PetscInt_FMT ", %" PetscInt_FMT "] = %g, expected a finite value", se->source, d, k / *n, k % *n, (double)(*A)[k]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckSymmetric(const DRExportSE *se, const char *name, const PetscReal *A)
{
  PetscReal amax = 0;
  PetscInt  n = se->n;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < n * n; k++) amax = PetscMax(amax, PetscAbsReal(A[k]));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < i; j++)
      PetscCheck(PetscAbsReal(A[i * n + j] - A[j * n + i]) <= DR_SYMMETRY_RTOL * amax, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s/%s is not symmetric: entry (%" PetscInt_FMT ", %" PetscInt_FMT ") = %.17g, (%" PetscInt_FMT ", %" PetscInt_FMT ") = %.17g, expected equal to %g relative (DMIG IFO=6 stores one triangle)", se->source, se->group, name, i + 1, j + 1, (double)A[i * n + j], j + 1, i + 1, (double)A[j * n + i], (double)DR_SYMMETRY_RTOL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* labels [nl, 2] of dataset `name` (the first nl coordinates); nmax: the
 * most rows allowed */
static PetscErrorCode ReadLabels(hid_t f, DRExportSE *se, const char *name, PetscInt nmax)
{
  char    d[320];
  int     nd;
  hsize_t dims[4];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", se->group, name));
  PetscCall(DRH5ReadAll(f, d, H5T_NATIVE_INT64, &nd, dims, (void **)&se->lab));
  PetscCheck(nd == 2 && dims[1] == 2 && (PetscInt)dims[0] <= nmax, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s is not [nl, 2] with nl <= %" PetscInt_FMT ", expected (node, direction) per physical coordinate", se->source, d, nmax);
  se->nphys = (PetscInt)dims[0];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a /cms/reduced group whose interface was reduced before the projection:
 * its first coordinates are CC mode coordinates, not boundary DOFs */
static PetscErrorCode InterfaceEarly(hid_t f, const char *group, PetscBool *early)
{
  char      v[256];
  PetscBool found;

  PetscFunctionBeginUser;
  PetscCall(DRH5AttrReadString(f, group, "interface_reduction", v, sizeof(v), &found));
  *early = (PetscBool)(found && !strncmp(v, "before the projection", 21));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadSource(DRExportSE *se)
{
  static const char *const groups[] = {"/cms/reduced", "/ss/second_order", "/ga/solutions/001", NULL};
  hid_t     f;
  PetscBool has;
  char      d[320];

  PetscFunctionBeginUser;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, se->source, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: cannot open, expected a dynred result (HDF5) with a reduced model", se->source);
  if (!se->group[0]) {
    for (int k = 0; groups[k] && !se->group[0]; k++) {
      PetscCall(PetscSNPrintf(d, sizeof(d), "%s/K", groups[k]));
      PetscCall(DRH5Exists(f, d, &has));
      if (has) PetscCall(PetscStrncpy(se->group, groups[k], sizeof(se->group)));
    }
    PetscCheck(se->group[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: none of /cms/reduced, /ss/second_order, /ga/solutions/001 holds K, expected a cms, ss or ga result (or name the group with export.group)", se->source);
  }
  se->n = -1;
  PetscCall(ReadSquare(f, se, "K", PETSC_FALSE, &se->n, &se->K));
  PetscCall(ReadSquare(f, se, "M", PETSC_FALSE, &se->n, &se->M));
  PetscCall(ReadSquare(f, se, "D", PETSC_TRUE, &se->n, &se->D));
  PetscCall(PetscStrncpy(se->genname, "generalized coordinate", sizeof(se->genname)));
  PetscCall(PetscStrncpy(se->what, "generalized coordinates", sizeof(se->what)));
  PetscCall(PetscSNPrintf(d, sizeof(d), "%s/boundary_labels", se->group));
  PetscCall(DRH5Exists(f, d, &has));
  if (has) { /* cms */
    PetscInt64 nmodal = 0;
    PetscBool  found, early = PETSC_FALSE;
    PetscCall(DRH5AttrReadInt(f, se->group, "n_modal", &nmodal, &found));
    PetscCheck(found && nmodal >= 0 && nmodal <= se->n, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s has no valid attribute n_modal, expected a /cms/reduced group", se->source, se->group);
    /* the boundary DOFs: the first coordinates unless the interface was
     * reduced before the projection (then boundary_labels are the rows of
     * interface_modes, not coordinates) */
    PetscCall(InterfaceEarly(f, se->group, &early));
    PetscCall(ReadLabels(f, se, "boundary_labels", early ? PETSC_MAX_INT : se->n - (PetscInt)nmodal));
    if (!early) {
      PetscCheck(se->nphys == se->n - nmodal, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s/boundary_labels has %" PetscInt_FMT " rows, expected size - n_modal = %" PetscInt_FMT, se->source, se->group, se->nphys, se->n - (PetscInt)nmodal);
      PetscCall(PetscStrncpy(se->what, "component modal coordinates in component order", sizeof(se->what)));
      PetscCall(PetscStrncpy(se->genname, "modal coordinate", sizeof(se->genname)));
    } else { /* interface reduced before the projection: CC coordinates first */
      PetscCall(PetscSNPrintf(se->what, sizeof(se->what), "%" PetscInt_FMT " CC mode coordinates, then component modal coordinates in component order", se->n - (PetscInt)nmodal));
      se->nphys = 0;
    }
  } else {
    static const char *const ln[] = {"dof_labels", "labels", NULL};
    se->nphys = 0;
    for (int k = 0; ln[k]; k++) {
      PetscCall(PetscSNPrintf(d, sizeof(d), "%s/%s", se->group, ln[k]));
      PetscCall(DRH5Exists(f, d, &has));
      if (has) {
        PetscCall(ReadLabels(f, se, ln[k], se->n));
        break;
      }
    }
    if (!se->nphys) {
      PetscCall(PetscStrncpy(se->what, "modal coordinates", sizeof(se->what)));
      PetscCall(PetscStrncpy(se->genname, "modal coordinate", sizeof(se->genname)));
    }
  }
  PetscCall(DRH5FileClose(&f));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* GRID ids and components Nastran accepts; SPOINT ids not among them */
static PetscErrorCode CheckIds(const DRExportSE *se)
{
  PetscInt nsp = se->n - se->nphys;

  PetscFunctionBeginUser;
  PetscCheck(!nsp || se->spoint_start + nsp - 1 <= 99999999, PETSC_COMM_WORLD, DR_ERR_INPUT, "export.spoint_start = %" PetscInt_FMT ": %" PetscInt_FMT " scalar points would end at %" PetscInt_FMT ", expected ids up to 99999999", se->spoint_start, nsp, se->spoint_start + nsp - 1);
  for (PetscInt i = 0; i < se->nphys; i++) {
    PetscInt64 g = se->lab[2 * i], c = se->lab[2 * i + 1];
    PetscCheck(g >= 1 && g <= 99999999, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s: coordinate %" PetscInt_FMT " is node %" PetscInt64_FMT ", expected a GRID id 1..99999999", se->source, se->group, i + 1, g);
    PetscCheck(c >= 1 && c <= 6, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s: coordinate %" PetscInt_FMT " is %" PetscInt64_FMT ".%" PetscInt64_FMT ", expected a direction 1..6 (a GRID component)", se->source, se->group, i + 1, g, c);
    PetscCheck(!nsp || g < se->spoint_start || g > se->spoint_start + nsp - 1, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: GRID %" PetscInt64_FMT " falls among the scalar points %" PetscInt_FMT "..%" PetscInt_FMT ", expected export.spoint_start above every GRID id", se->source, g, se->spoint_start, se->spoint_start + nsp - 1);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckName(DRConfig cfg, const char *key, char name[9])
{
  char   buf[64], where[PETSC_MAX_PATH_LEN + 32];
  size_t len;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, key, buf, sizeof(buf), NULL));
  PetscCall(PetscStrlen(buf, &len));
  PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
  PetscCheck(len >= 1 && len <= 8 && isalpha((unsigned char)buf[0]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s = '%s', expected a Nastran name: a letter and up to 7 letters or digits", where, key, buf);
  for (size_t k = 0; k < len; k++) PetscCheck(isalnum((unsigned char)buf[k]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: %s = '%s', expected a Nastran name: a letter and up to 7 letters or digits", where, key, buf);
  PetscCall(PetscStrncpy(name, buf, 9));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum { OUT_DMIG, OUT_OP4, OUT_MAP } OutKind;

/* rank 0: write `kind` to PATH.tmp.PID and rename it to PATH */
static PetscErrorCode WriteFile(const DRExportSE *se, const char *path, OutKind kind, PetscBool binary, PetscBool sparse)
{
  char  tmp[PETSC_MAX_PATH_LEN + 32];
  FILE *f;
  int   bad;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()));
  f = fopen(tmp, kind == OUT_OP4 && binary ? "wb" : "w");
  PetscCheck(f, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write (%s), expected a writable output path", tmp, strerror(errno));
  if (kind == OUT_DMIG) PetscCall(DRExportWriteDMIG(f, se));
  else if (kind == OUT_OP4) PetscCall(DRExportWriteOP4(f, se, binary, sparse));
  else PetscCall(DRExportWriteMap(f, se));
  bad = ferror(f);
  bad |= fclose(f);
  if (!bad) bad = rename(tmp, path);
  if (bad) (void)remove(tmp);
  PetscCheck(!bad, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: write or rename failed (%s)", path, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteAll(const DRExportSE *se, const char *out, const char *fmt, PetscBool binary, PetscBool sparse)
{
  PetscFunctionBeginUser;
  PetscCall(WriteFile(se, out, strcmp(fmt, "dmig") ? OUT_OP4 : OUT_DMIG, binary, sparse));
  PetscCall(WriteFile(se, se->mappath, OUT_MAP, PETSC_FALSE, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRExportSectionGiven(DRConfig cfg, PetscBool *given)
{
  PetscFunctionBeginUser;
  *given = PETSC_FALSE;
  for (const DRConfigKey *k = DRJobExportKeys; k->key && !*given; k++) {
    char      buf[PETSC_MAX_PATH_LEN];
    PetscBool b;
    PetscInt  i;
    if (k->type == DR_CFG_BOOL) PetscCall(DRConfigGetBool(cfg, k->key, &b, given));
    else if (k->type == DR_CFG_INT) PetscCall(DRConfigGetInt(cfg, k->key, &i, given));
    else PetscCall(DRConfigGetString(cfg, k->key, buf, sizeof(buf), given));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRExportSetUp(DRConfig cfg, const char *source, DRExport *x)
{
  DRExportSE *se = &x->se;
  char        raw[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32];
  const char *origin;
  PetscBool   set;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(x, sizeof(*x)));
  PetscCall(DRConfigGetString(cfg, "export.source", raw, sizeof(raw), &set));
  PetscCall(DRConfigWhere(cfg, "export.source", where, sizeof(where)));
  if (source) { /* a job's own result (the cms job's export: section) */
    PetscCheck(!set, PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: export.source = '%s' in a job that exports its own output %s, expected it unset", where, raw, source);
    PetscCall(PetscStrncpy(se->source, source, sizeof(se->source)));
  } else {
    PetscCall(DRConfigPathBase(cfg, "export.source", &origin));
    PetscCheck(raw[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: export.source is not set, expected a dynred result file", where);
    PetscCall(DRPathResolve(origin, raw, se->source, sizeof(se->source)));
  }
  PetscCall(DRConfigGetString(cfg, "export.group", se->group, sizeof(se->group), NULL));
  PetscCall(DRConfigGetString(cfg, "export.format", x->fmt, sizeof(x->fmt), NULL));
  PetscCall(DRConfigGetBool(cfg, "export.binary", &x->binary, NULL));
  PetscCall(DRConfigGetBool(cfg, "export.sparse", &x->sparse, NULL));
  PetscCall(DRConfigGetString(cfg, "export.output", x->out, sizeof(x->out), NULL));
  PetscCall(DRConfigWhere(cfg, "export.output", where, sizeof(where)));
  PetscCheck(x->out[0], PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: export.output is not set, expected the file to write", where);
  PetscCall(DRPreflightOutput(cfg, "export.output"));
  PetscCall(DRConfigGetString(cfg, "export.map", se->mappath, sizeof(se->mappath), NULL));
  if (!se->mappath[0]) PetscCall(PetscSNPrintf(se->mappath, sizeof(se->mappath), "%s.map.csv", x->out));
  else PetscCall(DRPreflightOutput(cfg, "export.map"));
  PetscCheck(strcmp(x->out, se->source) && strcmp(se->mappath, se->source) && strcmp(x->out, se->mappath), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: export.output %s, map %s and the exported result %s, expected three different files", where, x->out, se->mappath, se->source);
  PetscCall(DRConfigGetInt(cfg, "export.spoint_start", &se->spoint_start, NULL));
  PetscCall(CheckName(cfg, "export.k_name", se->name[0]));
  PetscCall(CheckName(cfg, "export.m_name", se->name[1]));
  PetscCall(CheckName(cfg, "export.d_name", se->name[2]));
  PetscCheck(strcmp(se->name[0], se->name[1]) && strcmp(se->name[0], se->name[2]) && strcmp(se->name[1], se->name[2]), PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: export.k_name, m_name, d_name are '%s', '%s', '%s', expected three different names", where, se->name[0], se->name[1], se->name[2]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRExportRun(DRExport *x)
{
  DRExportSE *se = &x->se;
  const char *fmt = x->fmt;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCall(ReadSource(se));
  if (!strcmp(fmt, "dmig")) {
    PetscCall(CheckSymmetric(se, "K", se->K));
    PetscCall(CheckSymmetric(se, "M", se->M));
    if (se->D) PetscCall(CheckSymmetric(se, "D", se->D));
  }
  PetscCall(CheckIds(se));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRRootAgree(PETSC_COMM_WORLD, rank ? PETSC_SUCCESS : WriteAll(se, x->out, fmt, x->binary, x->sparse)));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "export: %s %s: %" PetscInt_FMT " coordinates (%" PetscInt_FMT " GRID DOFs, %" PetscInt_FMT " scalar points from %" PetscInt_FMT "; %s), K, M%s\n", se->source, se->group, se->n, se->nphys, se->n - se->nphys, se->spoint_start, se->what, se->D ? ", D" : ""));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "wrote %s (%s%s%s) and %s\n", x->out, fmt, strcmp(fmt, "op4") ? "" : (x->binary ? ", binary" : ", ASCII"), strcmp(fmt, "op4") ? "" : (x->sparse ? ", sparse bigmat" : ", dense"), se->mappath));
  PetscCall(PetscFree(se->K));
  PetscCall(PetscFree(se->M));
  PetscCall(PetscFree(se->D));
  PetscCall(PetscFree(se->lab));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRJobExport(DRConfig cfg)
{
  DRExport x;

  PetscFunctionBeginUser;
  PetscCall(DRJobPreflight(cfg, "export"));
  PetscCall(DRExportSetUp(cfg, NULL, &x));
  PetscCall(DRExportRun(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}
