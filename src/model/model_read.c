/* Component files from the job keys components[k].*: the registry of
 * `components[].format` names.  Paths are relative to the job file. */
#include "model_impl.h"
#include <dynred/io.h>
#include <string.h>

PetscFunctionList DRReaderList = NULL;
static PetscBool  DRReaderRegistered = PETSC_FALSE;

static PetscErrorCode DRReaderRegistryDestroy(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFunctionListDestroy(&DRReaderList));
  DRReaderRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReaderRegister(const char name[], DRReaderCreateFn fn)
{
  PetscFunctionBeginUser;
  PetscCall(DRReaderRegisterAll());
  PetscCall(PetscFunctionListAdd(&DRReaderList, name, fn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* components[k].FIELD resolved against the job file's directory ("" when
 * unset); where: "FILE:LINE" of components[k].format for messages. */
static PetscErrorCode GetPath(DRConfig cfg, PetscInt k, const char *field, char *path, size_t len, char *where, size_t wlen)
{
  char        key[80], raw[PETSC_MAX_PATH_LEN];
  const char *origin;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].%s", k, field));
  PetscCall(DRConfigGetString(cfg, key, raw, sizeof(raw), NULL));
  PetscCall(DRConfigPathBase(cfg, key, &origin));
  PetscCall(DRPathResolve(origin, raw, path, len));
  if (where) {
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].format", k));
    PetscCall(DRConfigWhere(cfg, key, where, wlen));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* format mtx: K, M, [D] and dofs files. */
static PetscErrorCode ReadMTX(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  char K[PETSC_MAX_PATH_LEN], M[PETSC_MAX_PATH_LEN], D[PETSC_MAX_PATH_LEN], dofs[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(GetPath(cfg, k, "K", K, sizeof(K), where, sizeof(where)));
  PetscCall(GetPath(cfg, k, "M", M, sizeof(M), NULL, 0));
  PetscCall(GetPath(cfg, k, "D", D, sizeof(D), NULL, 0));
  PetscCall(GetPath(cfg, k, "dofs", dofs, sizeof(dofs), NULL, 0));
  PetscCheck(K[0] && M[0] && dofs[0], comm, DR_ERR_INPUT, "%s: component '%s' (format mtx) needs K, M and dofs files", where, name);
  PetscCall(DRComponentReadMTX(comm, name, K, M, D[0] ? D : NULL, dofs, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Formats named by one path. */
static PetscErrorCode ReadPath(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, const char *fmt, char *path, size_t len)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(GetPath(cfg, k, "path", path, len, where, sizeof(where)));
  PetscCheck(path[0], comm, DR_ERR_INPUT, "%s: component '%s' (format %s) needs a path", where, name, fmt);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadCalculiX(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(ReadPath(cfg, k, name, comm, "calculix", path, sizeof(path)));
  PetscCall(DRComponentReadCalculiX(comm, name, path, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadPETSc(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(ReadPath(cfg, k, name, comm, "petsc", path, sizeof(path)));
  PetscCall(DRComponentReadPETSc(comm, name, path, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadHDF5(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(ReadPath(cfg, k, name, comm, "hdf5", path, sizeof(path)));
  PetscCall(DRComponentReadHDF5(comm, name, path, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* format op4: one OP4 file (path) with K, M [, D] and the dofs file. */
static PetscErrorCode ReadOP4(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  char path[PETSC_MAX_PATH_LEN], dofs[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(GetPath(cfg, k, "path", path, sizeof(path), where, sizeof(where)));
  PetscCall(GetPath(cfg, k, "dofs", dofs, sizeof(dofs), NULL, 0));
  PetscCheck(path[0] && dofs[0], comm, DR_ERR_INPUT, "%s: component '%s' (format op4) needs a path (the OP4 file with K, M [, D]) and a dofs file", where, name);
  PetscCall(DRComponentReadOP4(comm, name, path, dofs, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* formats abaqus, ansys: K, M [, D] and a label file (abaqus: dofs,
 * optional for FORMAT=MATRIX INPUT; ansys: dofs = the HBMAT mapping file). */
static PetscErrorCode ReadKMD(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, const char *fmt, DRComponent *c)
{
  char K[PETSC_MAX_PATH_LEN], M[PETSC_MAX_PATH_LEN], D[PETSC_MAX_PATH_LEN], dofs[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32];
  PetscBool abq = (PetscBool)!strcmp(fmt, "abaqus");

  PetscFunctionBeginUser;
  PetscCall(GetPath(cfg, k, "K", K, sizeof(K), where, sizeof(where)));
  PetscCall(GetPath(cfg, k, "M", M, sizeof(M), NULL, 0));
  PetscCall(GetPath(cfg, k, "D", D, sizeof(D), NULL, 0));
  PetscCall(GetPath(cfg, k, "dofs", dofs, sizeof(dofs), NULL, 0));
  PetscCheck(K[0] && M[0] && (abq || dofs[0]), comm, DR_ERR_INPUT, "%s: component '%s' (format %s) needs K and M files%s", where, name, fmt, abq ? "" : " and dofs (the HBMAT mapping file)");
  if (abq) PetscCall(DRComponentReadAbaqus(comm, name, K, M, D[0] ? D : NULL, dofs[0] ? dofs : NULL, c));
  else PetscCall(DRComponentReadAnsys(comm, name, K, M, D[0] ? D : NULL, dofs, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadAbaqus(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  PetscFunctionBeginUser;
  PetscCall(ReadKMD(cfg, k, name, comm, "abaqus", c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadAnsys(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  PetscFunctionBeginUser;
  PetscCall(ReadKMD(cfg, k, name, comm, "ansys", c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* format dmig: one bulk data file (path); the matrices named by k_name,
 * m_name (KAAX, MAAX as PARAM,EXTOUT writes them) and d_name (BAAX: read
 * when the file has it, required when the job names it). */
static PetscErrorCode ReadDMIG(DRConfig cfg, PetscInt k, const char *name, MPI_Comm comm, DRComponent *c)
{
  char      path[PETSC_MAX_PATH_LEN], nm[3][64], key[80];
  PetscBool dset = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(ReadPath(cfg, k, name, comm, "dmig", path, sizeof(path)));
  for (int m = 0; m < 3; m++) {
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].%s_name", k, m == 0 ? "k" : m == 1 ? "m" : "d"));
    PetscCall(DRConfigGetString(cfg, key, nm[m], sizeof(nm[m]), m == 2 ? &dset : NULL));
  }
  PetscCall(DRComponentReadDMIG(comm, name, path, nm[0], nm[1], nm[2], dset, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRReaderRegisterAll(void)
{
  PetscFunctionBeginUser;
  if (DRReaderRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  DRReaderRegistered = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(DRReaderRegistryDestroy));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "calculix", ReadCalculiX));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "mtx", ReadMTX));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "petsc", ReadPETSc));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "hdf5", ReadHDF5));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "op4", ReadOP4));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "abaqus", ReadAbaqus));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "ansys", ReadAnsys));
  PetscCall(PetscFunctionListAdd(&DRReaderList, "dmig", ReadDMIG));
  PetscFunctionReturn(PETSC_SUCCESS);
}
