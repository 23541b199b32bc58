/* dynred: job configuration.
 *
 * A job is a YAML file (schema in DESIGN.md section 5) whose every value can
 * be overridden on the command line PETSc-style: the key path with dots and
 * list indices turned into underscores, e.g. model.plate.nx -> -model_plate_nx,
 * components[1].path -> -components_1_path.  Known keys live in one schema
 * table (defaults and help text in one place); a YAML key outside the schema
 * is an error naming the file, line and key.  Getters go through PETSc's
 * options system, so -help prints every key a job reads with its default.
 */
#ifndef DYNRED_CONFIG_H
#define DYNRED_CONFIG_H

#include <dynred/sys.h>

typedef struct _p_DRConfig *DRConfig;

typedef enum { DR_CFG_STRING, DR_CFG_REAL, DR_CFG_INT, DR_CFG_BOOL, DR_CFG_LIST } DRConfigType;

/* One schema entry.  Keys inside lists of maps are written "components[].name". */
typedef struct {
  const char  *key;
  DRConfigType type;
  const char  *def; /* default as text; NULL: no default (optional) */
  const char  *help;
  /* Declared once here, checked by the config layer, shown by `dynred help`
   * and in the -help text of the key:
   * range: NULL (anything of the type), "MIN..MAX" with either end optional
   *        ("0..", "..1", "1..64"; inclusive) for numbers and each value of
   *        a list, or the allowed strings "a|b|c" for strings.  The getters
   *        check every value a user gave (file or command line; not the
   *        default): a value outside is the one-line input error
   *          "job.yaml:7: cms.fmax = -5, expected >= 0 Hz"
   *          "command line -cms_method: cms.method = 'x', expected cb, mac or free";
   * units: NULL or the unit of the value ("Hz", "m", "s", "%");
   * replaced_by: this key is deprecated (type, def, help, range unused): in
   *        the file it is stored as that key, on the command line its
   *        option is read as that key's option, each with one warning line
   *        naming both ("[]" indices carry over); giving both names in the
   *        file, or both options, is an error.  Reading a deprecated key
   *        with a getter is a programming error: read its replacement. */
  const char *range;
  const char *units;
  const char *replaced_by;
} DRConfigKey;

/* Add schema entries (a module's own section); the table must outlive the run.
 * The core's shared keys are always registered: ranks_per_group (MPI ranks
 * per rank group, 0: the subcommand's choice), dense_max (largest system
 * solved with dense LAPACK; unset: the subcommand's default), farm.progress,
 * farm.stop_after, and farm.group_size (deprecated: ranks_per_group). */
PetscErrorCode DRConfigRegisterKeys(const DRConfigKey keys[]);
/* Print the whole schema: option, type, default, help (dynred -help). */
PetscErrorCode DRConfigPrintSchema(MPI_Comm comm);

PetscErrorCode DRConfigCreate(MPI_Comm comm, DRConfig *cfg);
PetscErrorCode DRConfigDestroy(DRConfig *cfg);
/* Rank 0 reads the file; every rank parses the same text. */
PetscErrorCode DRConfigLoadFile(DRConfig cfg, const char *path);
/* Parse YAML text; `origin` names it in messages ("<embedded demo>"). */
PetscErrorCode DRConfigLoadString(DRConfig cfg, const char *origin, const char *text);
/* The YAML text as loaded (written to the output's root attribute). */
PetscErrorCode DRConfigGetText(DRConfig cfg, const char **text);
PetscErrorCode DRConfigGetOrigin(DRConfig cfg, const char **origin);

/* Typed getters.  Precedence: command-line option, YAML value, schema
 * default.  `set` (may be NULL) tells whether the option or YAML gave it. */
PetscErrorCode DRConfigGetString(DRConfig cfg, const char *key, char *buf, size_t len, PetscBool *set);
PetscErrorCode DRConfigGetReal(DRConfig cfg, const char *key, PetscReal *v, PetscBool *set);
PetscErrorCode DRConfigGetInt(DRConfig cfg, const char *key, PetscInt *v, PetscBool *set);
PetscErrorCode DRConfigGetBool(DRConfig cfg, const char *key, PetscBool *v, PetscBool *set);
/* A flow list "[1, 2, 3]" of reals; *n in: capacity, out: count. */
PetscErrorCode DRConfigGetRealArray(DRConfig cfg, const char *key, PetscReal v[], PetscInt *n, PetscBool *set);
/* Number of entries of a list of maps ("components"). */
PetscErrorCode DRConfigGetListLength(DRConfig cfg, const char *key, PetscInt *n);
/* "FILE:LINE" of a key for messages ("FILE" when the key is not in the file). */
PetscErrorCode DRConfigWhere(DRConfig cfg, const char *key, char *buf, size_t len);
/* Where the value in effect came from: "command line -OPT" when the option
 * is given, else DRConfigWhere's "FILE:LINE" (for checks after the getters). */
PetscErrorCode DRConfigWhereValue(DRConfig cfg, const char *key, char *buf, size_t len);
/* The base a path key's value is relative to (DRPathResolve): the job
 * file when the file gave it, NULL (the working directory) when the command
 * line did. */
PetscErrorCode DRConfigPathBase(DRConfig cfg, const char *key, const char **base);

#endif
