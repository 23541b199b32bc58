/* dynred ss: the integrator registry (a PetscFunctionList of the methods by
 * name, and their nominal orders), filled with the built-in integrators on
 * first use and destroyed at PetscFinalize. */
#include "ssimpl.h"
#include <string.h>

static PetscFunctionList ss_integrators = NULL;
static struct {
  char     name[32];
  PetscInt order;
} ss_orders[64];
static PetscInt  ss_norders = 0;
static PetscBool ss_registered = PETSC_FALSE;

static PetscErrorCode DRSSRegistryDestroy(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&ss_integrators));
  ss_norders    = 0;
  ss_registered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RegisterOne(const char name[], PetscInt order, DRSSIntegrator fn)
{
  PetscInt i;

  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&ss_integrators, name, fn));
  for (i = 0; i < ss_norders; i++)
    if (!strcmp(ss_orders[i].name, name)) break;
  if (i == ss_norders) {
    PetscCheck(ss_norders < (PetscInt)(sizeof(ss_orders) / sizeof(ss_orders[0])), PETSC_COMM_SELF, PETSC_ERR_SUP, "DRSSRegister: too many integrators");
    PetscCall(PetscStrncpy(ss_orders[i].name, name, sizeof(ss_orders[i].name)));
    ss_norders++;
  }
  ss_orders[i].order = order;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The built-in integrators, once (before any user registration). */
static PetscErrorCode RegisterAll(void)
{
  static const struct {
    const char    *name;
    PetscInt       order;
    DRSSIntegrator fn;
  } builtin[] = {
    {"exact", 0, DRSSIntegrate_Exact}, {"zoh", 1, DRSSIntegrate_ZOH}, {"newmark", 2, DRSSIntegrate_Newmark}, {"central", 2, DRSSIntegrate_Central}, {"rk3bs", 3, DRSSIntegrate_TS}, {"rk4", 4, DRSSIntegrate_TS}, {"rk5dp", 5, DRSSIntegrate_TS}, {"rk8vr", 8, DRSSIntegrate_TS}, {"beuler", 1, DRSSIntegrate_TS}, {"cn", 2, DRSSIntegrate_TS}, {"theta", 2, DRSSIntegrate_TS}, {"alpha2", 2, DRSSIntegrate_Alpha2},
  };

  PetscFunctionBegin;
  if (ss_registered) PetscFunctionReturn(PETSC_SUCCESS);
  ss_registered = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(DRSSRegistryDestroy));
  for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) PetscCall(RegisterOne(builtin[i].name, builtin[i].order, builtin[i].fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSRegister(const char name[], PetscInt order, DRSSIntegrator fn)
{
  PetscFunctionBegin;
  PetscCall(DRSSInitializePackage());
  PetscCall(RegisterAll());
  PetscCall(RegisterOne(name, order, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSMethodOrder(const char *method, PetscInt *order, PetscBool *known)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(RegisterAll());
  *known = PETSC_FALSE;
  for (PetscInt i = 0; i < ss_norders; i++)
    if (!strcmp(method, ss_orders[i].name)) {
      *known = PETSC_TRUE;
      if (order) *order = ss_orders[i].order;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSSIntegratorNames(char buf[], size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(RegisterAll());
  PetscCall(DRRegistryNames(ss_integrators, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The integrator registered as `method`; unknown: an input error naming the
 * known ones. */
PetscErrorCode DRSSFindIntegrator(const char *method, const char *where, DRSSIntegrator *fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRSSInitializePackage());
  PetscCall(RegisterAll());
  PetscCall(DRRegistryFind(PETSC_COMM_WORLD, ss_integrators, "integration method", method, where, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}
