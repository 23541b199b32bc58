/* Private to src/core/config*.c: the loaded job and the schema helpers. */
#ifndef DYNRED_CONFIGIMPL_H
#define DYNRED_CONFIGIMPL_H
#include <dynred/config.h>

typedef struct {
  char  path[256]; /* components[1].name */
  char  norm[256]; /* components[].name  */
  char  given[256]; /* the key as written (a deprecated alias of path) */
  char *value;     /* scalar text, or a list joined by ',' */
  int   line;
} Leaf;

struct _p_DRConfig {
  MPI_Comm comm;
  char     origin[PETSC_MAX_PATH_LEN];
  char    *text;
  Leaf    *leaves;
  int      nleaves, cap;
};

#define MAX_TABLES 32
extern const DRConfigKey *DRCfgTables[MAX_TABLES]; /* registered key tables, DRCfgTables[0]: the shared keys */
extern int                DRCfgNTables;

PetscErrorCode     DRCfgRegisterShared(void);
const DRConfigKey *DRCfgSchemaFind(const char *norm);
/* Is `norm` a section (a proper prefix of some key followed by '.' or '[')? */
PetscBool   DRCfgIsSection(const char *norm);
/* components[1].name -> components[].name */
void        DRCfgNormalize(const char *path, char *norm, size_t len);
/* components[1].name -> -components_1_name */
void        DRCfgOptionName(const char *path, char *opt, size_t len);
/* Fill the "[]" of a normalized key with the indices of `path`. */
void        DRCfgFillIndices(const char *norm, const char *path, char *out, size_t len);
const char *DRCfgTypeName(DRConfigType t);
/* " [range] (units)" of a key, for help texts. */
void        DRCfgRangeUnits(const DRConfigKey *k, char *buf, size_t len);
/* A user-given value against the key's range: the one-line input error
 * "WHERE: KEY = VALUE, expected ..." on comm. */
PetscErrorCode DRCfgCheckNumber(MPI_Comm comm, const char *where, const char *key, const DRConfigKey *sk, PetscReal v, const char *vtext);
PetscErrorCode DRCfgCheckString(MPI_Comm comm, const char *where, const char *key, const DRConfigKey *sk, const char *v);
#endif
