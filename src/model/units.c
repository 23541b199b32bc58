/* The model's unit system (`model.units`, include/dynred/units.h): parsing,
 * consistency check, the root attributes of a result file. */
#include <dynred/units.h>
#include <dynred/h5.h>
#include <dynred/dynred.h>
#include <string.h>

typedef struct {
  const char *name;
  PetscReal   si;
} Unit;

static const Unit forces[]  = {{"N", 1}, {"kN", 1e3}, {"mN", 1e-3}, {"MN", 1e6}, {NULL, 0}};
static const Unit lengths[] = {{"m", 1}, {"mm", 1e-3}, {"cm", 1e-2}, {"um", 1e-6}, {"km", 1e3}, {NULL, 0}};
static const Unit times[]   = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"min", 60}, {NULL, 0}};
static const Unit masses[]  = {{"kg", 1}, {"g", 1e-3}, {"t", 1e3}, {"Mg", 1e3}, {"mg", 1e-6}, {NULL, 0}};

static const Unit *Find(const Unit *t, const char *s, size_t n)
{
  for (; t->name; t++)
    if (strlen(t->name) == n && !strncmp(t->name, s, n)) return t;
  return NULL;
}

static void Names(const Unit *t, char *buf, size_t len)
{
  buf[0] = 0;
  for (; t->name; t++) snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "", t->name);
}

static PetscBool Close(PetscReal a, PetscReal b) { return (PetscBool)(PetscAbsReal(a - b) <= 1e-9 * PetscMax(PetscAbsReal(a), PetscAbsReal(b))); }

PetscErrorCode DRUnitsParse(const char *name, DRUnits *u, PetscBool *ok, char why[], size_t len)
{
  static const Unit *const tab[4] = {forces, lengths, times, masses};
  static const char *const what[4] = {"force", "length", "time", "mass"};
  char       *dst[4] = {u->force, u->length, u->time, u->mass};
  PetscReal  *val[4] = {&u->force_N, &u->length_m, &u->time_s, &u->mass_kg};
  const char *p      = !strcmp(name, "SI") || !strcmp(name, "si") ? "N-m-s-kg" : name;

  PetscFunctionBeginUser;
  *ok = PETSC_FALSE;
  why[0] = 0;
  PetscCall(PetscMemzero(u, sizeof(*u)));
  for (int k = 0; k < 4; k++) {
    const char *e = strchr(p, '-');
    size_t      n = e && k < 3 ? (size_t)(e - p) : strlen(p);
    const Unit *f = Find(tab[k], p, n);
    if (!f || (k < 3 && !e)) {
      char known[128];
      Names(tab[k], known, sizeof(known));
      if (!e && k < 3) snprintf(why, len, "'%s' has %d part(s), expected FORCE-LENGTH-TIME-MASS (e.g. N-mm-ms-g) or SI", name, k + 1);
      else snprintf(why, len, "'%s': unknown %s unit '%.*s', expected one of %s (FORCE-LENGTH-TIME-MASS, e.g. N-mm-ms-g, or SI)", name, what[k], (int)n, p, known);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PetscStrncpy(dst[k], f->name, 16));
    *val[k] = f->si;
    p += n + (k < 3);
  }
  if (!Close(u->force_N, u->mass_kg * u->length_m / (u->time_s * u->time_s))) {
    snprintf(why, len, "'%s' is not consistent: 1 %s %s/%s^2 = %g N but 1 %s = %g N, expected FORCE = MASS LENGTH/TIME^2 (e.g. N-m-s-kg, N-mm-s-t, N-mm-ms-g)", name, u->mass, u->length, u->time, (double)(u->mass_kg * u->length_m / (u->time_s * u->time_s)), u->force, (double)u->force_N);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(u->name, sizeof(u->name), "%s-%s-%s-%s", u->force, u->length, u->time, u->mass));
  *ok = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelGetUnits(DRConfig cfg, DRUnits *u, PetscBool *set)
{
  char      name[64], why[384], where[PETSC_MAX_PATH_LEN + 32];
  PetscBool ok;

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "model.units", name, sizeof(name), set));
  PetscCall(DRUnitsParse(name, u, &ok, why, sizeof(why)));
  if (!ok) {
    PetscBool opt;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-model_units", &opt));
    if (opt) PetscCall(PetscStrncpy(where, "command line -model_units", sizeof(where)));
    else PetscCall(DRConfigWhere(cfg, "model.units", where, sizeof(where)));
    SETERRQ(PETSC_COMM_WORLD, DR_ERR_INPUT, "%s: model.units = %s", where, why);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRUnitsToSeconds(const DRUnits *u, DRUnits *s)
{
  PetscReal kg = u->force_N / u->length_m; /* FORCE s^2 / LENGTH in kg */

  PetscFunctionBeginUser;
  *s        = *u;
  s->time_s = 1;
  PetscCall(PetscStrncpy(s->time, "s", sizeof(s->time)));
  s->mass_kg = kg;
  PetscCall(PetscSNPrintf(s->mass, sizeof(s->mass), "%s s^2/%s", u->force, u->length));
  for (const Unit *m = masses; m->name; m++)
    if (Close(m->si, kg)) {
      PetscCall(PetscStrncpy(s->mass, m->name, sizeof(s->mass)));
      break;
    }
  PetscCall(PetscSNPrintf(s->name, sizeof(s->name), "%s-%s-%s-%s", s->force, s->length, s->time, s->mass));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelToSeconds(DRConfig cfg, DRComponent c, DRUnits *s)
{
  DRUnits   u;
  Mat       M, D;
  PetscReal ts;

  PetscFunctionBeginUser;
  PetscCall(DRModelGetUnits(cfg, &u, NULL));
  PetscCall(DRUnitsToSeconds(&u, s));
  ts = u.time_s;
  if (ts == 1) PetscFunctionReturn(PETSC_SUCCESS);
  /* the same force and length with time in s: a mass of m (FORCE TIME^2 /
   * LENGTH) is m ts^2 in FORCE s^2 / LENGTH, a damping of d (FORCE TIME /
   * LENGTH) is d ts; K keeps its units */
  PetscCall(DRComponentGetOperators(c, NULL, &M, &D));
  PetscCall(MatScale(M, ts * ts));
  if (D) PetscCall(MatScale(D, ts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRUnitsWrite(DRStore s, const DRUnits *u)
{
  PetscFunctionBeginUser;
  PetscCall(DRStoreAttrString(s, "/", "units", u->name));
  PetscCall(DRStoreAttrString(s, "/", "units_force", u->force));
  PetscCall(DRStoreAttrString(s, "/", "units_length", u->length));
  PetscCall(DRStoreAttrString(s, "/", "units_time", u->time));
  PetscCall(DRStoreAttrString(s, "/", "units_mass", u->mass));
  PetscCall(DRStoreAttrReal(s, "/", "force_unit_N", u->force_N));
  PetscCall(DRStoreAttrReal(s, "/", "length_unit_m", u->length_m));
  PetscCall(DRStoreAttrReal(s, "/", "time_unit_s", u->time_s));
  PetscCall(DRStoreAttrReal(s, "/", "mass_unit_kg", u->mass_kg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRUnitsRead(const char *path, DRUnits *u, PetscBool *found)
{
  hid_t     f;
  char      name[64], why[384];
  PetscBool ok;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, &f));
  PetscCheck(f >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot open as HDF5", path);
  PetscCall(DRH5AttrReadString(f, "/", "units", name, sizeof(name), found));
  PetscCall(DRH5FileClose(&f));
  if (!*found) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRUnitsParse(name, u, &ok, why, sizeof(why)));
  PetscCheck(ok, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: root attribute units = %s", path, why);
  PetscFunctionReturn(PETSC_SUCCESS);
}
