/* The job-file schema: the key tables (the core's shared keys first), name
 * mapping (key path <-> option), ranges and units, dynred help. */
#include "configimpl.h"
#include <string.h>

const DRConfigKey *DRCfgTables[MAX_TABLES];
int                DRCfgNTables = 0;

/* Keys shared by several subcommands: one name and one meaning each.  The
 * subcommands' own former names are `replaced_by` aliases in their tables
 * (e.g. {"ga.group_size", ..., "ranks_per_group"}). */
static const DRConfigKey shared_keys[] = {
  {"ranks_per_group", DR_CFG_INT, "0", "MPI ranks per rank group: a task-farm task (gmp grid point, ga individual) or a cms component group runs on one group; 0: the subcommand's choice", "0..", NULL, NULL},
  {"dense_max", DR_CFG_INT, NULL, "largest system (DOFs) solved with dense LAPACK, sparse solvers beyond; unset: the subcommand's default (cms 4000, gmp 2000, ga 4000)", "0..", NULL, NULL},
  {"farm.progress", DR_CFG_REAL, "5", "task farm: seconds between progress lines (0: every task)", "0..", "s", NULL},
  {"farm.stop_after", DR_CFG_INT, "-1", "task farm, testing: abort the job after this many results were checkpointed (simulates a killed sweep); -1: never", "-1..", NULL, NULL},
  {"farm.fail_task", DR_CFG_INT, "-1", "task farm, testing: task N fails on its rank group as a solver breakdown would (the job must end with one line naming it); -1: none", "-1..", NULL, NULL},
  {"farm.group_size", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "ranks_per_group"},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

PetscErrorCode DRCfgRegisterShared(void)
{
  PetscFunctionBeginUser;
  if (!DRCfgNTables) DRCfgTables[DRCfgNTables++] = shared_keys;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigRegisterKeys(const DRConfigKey keys[])
{
  PetscFunctionBeginUser;
  PetscCall(DRCfgRegisterShared());
  for (int t = 0; t < DRCfgNTables; t++)
    if (DRCfgTables[t] == keys) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(DRCfgNTables < MAX_TABLES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "too many schema tables");
  DRCfgTables[DRCfgNTables++] = keys;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const DRConfigKey *DRCfgSchemaFind(const char *norm)
{
  for (int t = 0; t < DRCfgNTables; t++)
    for (const DRConfigKey *k = DRCfgTables[t]; k->key; k++)
      if (!strcmp(k->key, norm)) return k;
  return NULL;
}

/* Is `norm` a section (a proper prefix of some key followed by '.' or '[')? */
PetscBool DRCfgIsSection(const char *norm)
{
  size_t l = strlen(norm);
  for (int t = 0; t < DRCfgNTables; t++)
    for (const DRConfigKey *k = DRCfgTables[t]; k->key; k++)
      if (!strncmp(k->key, norm, l) && (k->key[l] == '.' || k->key[l] == '[')) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Fill the "[]" of a normalized key `norm` with the indices of `path`, in
 * order: ("ranks_per_group", x) -> itself; ("components[].fmt",
 * "components[2].format") -> "components[2].fmt". */
void DRCfgFillIndices(const char *norm, const char *path, char *out, size_t len)
{
  const char *q = path;
  size_t      j = 0;
  for (const char *p = norm; *p && j + 1 < len; p++) {
    if (p[0] == '[' && p[1] == ']') {
      const char *b = strchr(q, '['), *e = b ? strchr(b, ']') : NULL;
      if (b && e) {
        for (const char *c = b; c <= e && j + 1 < len; c++) out[j++] = *c;
        q = e + 1;
        p++;
        continue;
      }
    }
    out[j++] = *p;
  }
  out[j] = 0;
}

/* components[1].name -> components[].name */
void DRCfgNormalize(const char *path, char *norm, size_t len)
{
  size_t j = 0;
  int    inbr = 0;
  for (const char *p = path; *p && j + 1 < len; p++) {
    if (*p == '[') inbr = 1;
    else if (*p == ']') inbr = 0;
    else if (inbr) continue;
    norm[j++] = *p;
  }
  norm[j] = 0;
}

/* components[1].name -> -components_1_name */
void DRCfgOptionName(const char *path, char *opt, size_t len)
{
  size_t j = 0;
  opt[j++] = '-';
  for (const char *p = path; *p && j + 1 < len; p++) {
    if (*p == ']') continue;
    opt[j++] = (*p == '.' || *p == '[') ? '_' : *p;
  }
  opt[j] = 0;
}

const char *DRCfgTypeName(DRConfigType t)
{
  switch (t) {
  case DR_CFG_STRING: return "string";
  case DR_CFG_REAL: return "real";
  case DR_CFG_INT: return "int";
  case DR_CFG_BOOL: return "bool";
  case DR_CFG_LIST: return "list";
  }
  return "?";
}

/* " [0..1] (Hz)" for help texts: the range and units of a key. */
void DRCfgRangeUnits(const DRConfigKey *k, char *buf, size_t len)
{
  buf[0] = 0;
  if (k->range && k->range[0]) snprintf(buf + strlen(buf), len - strlen(buf), " [%s]", k->range);
  if (k->units && k->units[0]) snprintf(buf + strlen(buf), len - strlen(buf), " (%s)", k->units);
}

PetscErrorCode DRConfigPrintSchema(MPI_Comm comm)
{
  PetscFunctionBeginUser;
  PetscCall(DRCfgRegisterShared());
  PetscCall(PetscPrintf(comm, "Job-file keys (YAML) and their command-line options; precedence: option > file > default\n"));
  PetscCall(PetscPrintf(comm, "  [range]: allowed values, MIN..MAX inclusive (either end may be open; (MIN or MAX): exclusive) or a|b|c; (units)\n"));
  for (int t = 0; t < DRCfgNTables; t++)
    for (const DRConfigKey *k = DRCfgTables[t]; k->key; k++) {
      char opt[300], ru[256];
      DRCfgOptionName(k->key, opt, sizeof(opt));
      if (k->replaced_by) {
        char nopt[300];
        DRCfgOptionName(k->replaced_by, nopt, sizeof(nopt));
        PetscCall(PetscPrintf(comm, "  %-28s %-30s deprecated: read as %s (%s)\n", k->key, opt, k->replaced_by, nopt));
        continue;
      }
      DRCfgRangeUnits(k, ru, sizeof(ru));
      PetscCall(PetscPrintf(comm, "  %-28s %-30s <%s> %s (%s)%s\n", k->key, opt, k->def ? k->def : "", k->help, DRCfgTypeName(k->type), ru));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* "expected 0..1 Hz", "expected >= 0 Pa", "expected > 0 Pa and < 0.5": lo
 * and hi as written in the range, '(' / ')' marking an exclusive end. */
static void Expected(const DRConfigKey *k, const char *lo, const char *hi, char *buf, size_t len)
{
  const char *u = k->units && k->units[0] ? k->units : NULL;
  PetscBool   xlo = (PetscBool)(lo[0] == '('), xhi = (PetscBool)(hi[0] && hi[strlen(hi) - 1] == ')');
  const char *l = xlo ? lo + 1 : lo;
  int         nh = (int)strlen(hi) - (xhi ? 1 : 0);

  if (lo[0] && hi[0] && !xlo && !xhi) snprintf(buf, len, "expected %s..%s%s%s", lo, hi, u ? " " : "", u ? u : "");
  else if (lo[0] && hi[0]) snprintf(buf, len, "expected %s %s and %s %.*s%s%s", xlo ? ">" : ">=", l, xhi ? "<" : "<=", nh, hi, u ? " " : "", u ? u : "");
  else if (lo[0]) snprintf(buf, len, "expected %s %s%s%s", xlo ? ">" : ">=", l, u ? " " : "", u ? u : "");
  else snprintf(buf, len, "expected %s %.*s%s%s", xhi ? "<" : "<=", nh, hi, u ? " " : "", u ? u : "");
}

/* A number against the key's range "MIN..MAX" (inclusive, either end open;
 * "(MIN.." and "..MAX)" exclude the bound: "(0.." is "> 0"). */
PetscErrorCode DRCfgCheckNumber(MPI_Comm comm, const char *where, const char *key, const DRConfigKey *sk, PetscReal v, const char *vtext)
{
  const char *r = sk->range, *dots;
  char        lo[64] = "", hi[64] = "", exp[200];
  PetscBool   ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  if (!r || !r[0]) PetscFunctionReturn(PETSC_SUCCESS);
  dots = strstr(r, "..");
  PetscCheck(dots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "key '%s': range '%s' is not MIN..MAX", key, r);
  snprintf(lo, sizeof(lo), "%.*s", (int)(dots - r), r);
  snprintf(hi, sizeof(hi), "%s", dots + 2);
  if (lo[0] == '(') {
    if (!(v > strtod(lo + 1, NULL))) ok = PETSC_FALSE;
  } else if (lo[0] && !(v >= strtod(lo, NULL))) ok = PETSC_FALSE;
  if (hi[0] && hi[strlen(hi) - 1] == ')') {
    if (!(v < strtod(hi, NULL))) ok = PETSC_FALSE;
  } else if (hi[0] && !(v <= strtod(hi, NULL))) ok = PETSC_FALSE;
  if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  Expected(sk, lo, hi, exp, sizeof(exp));
  SETERRQ(comm, DR_ERR_INPUT, "%s: %s = %s, %s", where, key, vtext, exp);
}

/* A string against the allowed strings "a|b|c". */
PetscErrorCode DRCfgCheckString(MPI_Comm comm, const char *where, const char *key, const DRConfigKey *sk, const char *v)
{
  const char *r = sk->range;
  char        exp[1024] = "", tok[256];
  int         n = 0, i = 0;

  PetscFunctionBeginUser;
  if (!r || !r[0]) PetscFunctionReturn(PETSC_SUCCESS);
  for (const char *p = r;; p = strchr(p, '|') + 1) {
    size_t l = strcspn(p, "|");
    if (l == strlen(v) && !strncmp(p, v, l)) PetscFunctionReturn(PETSC_SUCCESS);
    n++;
    if (!strchr(p, '|')) break;
  }
  /* "a, b or c" */
  for (const char *p = r;; p = strchr(p, '|') + 1, i++) {
    size_t l = strcspn(p, "|");
    snprintf(tok, sizeof(tok), "%.*s", (int)l, p);
    if (i) PetscCall(DRStrAppend(exp, i == n - 1 ? " or " : ", ", sizeof(exp)));
    PetscCall(DRStrAppend(exp, tok, sizeof(exp)));
    if (!strchr(p, '|')) break;
  }
  SETERRQ(comm, DR_ERR_INPUT, "%s: %s = '%s', expected %s", where, key, v, exp);
}

