/* Component cost estimates for rank-group scheduling (include/dynred/modelcost.h). */
#include "componentimpl.h"
#include <dynred/modelcost.h>
#include <dynred/model.h>
#include <string.h>
#include <sys/stat.h>

PetscErrorCode DRModelComponentsListed(DRConfig cfg, PetscBool *listed)
{
  char b[64];

  PetscFunctionBeginUser;
  PetscCall(DRConfigGetString(cfg, "model.builtin", b, sizeof(b), NULL));
  *listed = b[0] ? PETSC_FALSE : PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Size of the file that holds component k's stiffness (its path resolved
 * as the reader resolves it: DRConfigPathBase). */
static PetscErrorCode FileCost(DRConfig cfg, PetscInt k, PetscReal *cost)
{
  const char *origin;
  struct stat st;
  char        key[80], fmt[32], path[PETSC_MAX_PATH_LEN], rel[PETSC_MAX_PATH_LEN], full[PETSC_MAX_PATH_LEN + 8];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].format", k));
  PetscCall(DRConfigGetString(cfg, key, fmt, sizeof(fmt), NULL));
  PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].%s", k, strcmp(fmt, "mtx") ? "path" : "K"));
  PetscCall(DRConfigGetString(cfg, key, path, sizeof(path), NULL));
  PetscCall(DRConfigPathBase(cfg, key, &origin));
  PetscCall(DRPathResolve(origin, path, rel, sizeof(rel)));
  PetscCall(PetscSNPrintf(full, sizeof(full), "%s%s", rel, strcmp(fmt, "calculix") ? "" : ".sti"));
  if (!stat(full, &st)) *cost = (PetscReal)st.st_size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRModelComponentCost(DRConfig cfg, PetscInt k, PetscReal *cost)
{
  char b[64];

  PetscFunctionBeginUser;
  *cost = 1.0;
  PetscCall(DRConfigGetString(cfg, "model.builtin", b, sizeof(b), NULL));
  if (!b[0]) PetscCall(FileCost(cfg, k, cost));
  else if (!strcmp(b, "plate") || !strcmp(b, "solid")) {
    /* element layers of part k along the cut axis */
    PetscInt n = 0, ncomp;
    char     axis[8], key[80];
    PetscCall(DRModelGetComponentCount(cfg, &ncomp));
    PetscCall(DRConfigGetString(cfg, "model.cut.axis", axis, sizeof(axis), NULL));
    PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s.n%c", b, axis[0]));
    PetscCall(DRConfigGetInt(cfg, key, &n, NULL));
    *cost = (PetscReal)((k + 1) * n / ncomp - k * n / ncomp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
