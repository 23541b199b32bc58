/* dynred export (job_export.c, export_write.c): a reduced model as a
 * superelement for Nastran-family tools; the export job, and the optional
 * `export:` section of a cms job (the same keys, DRJobExportKeys). */
#ifndef DYNRED_APP_EXPORT_H
#define DYNRED_APP_EXPORT_H

#include "app.h"
#include <stdio.h>

typedef struct {
  char        source[PETSC_MAX_PATH_LEN], group[256], mappath[PETSC_MAX_PATH_LEN];
  char        what[256];    /* what the coordinates are, for comments */
  char        genname[64];  /* name of a generalized coordinate in the map ("modal coordinate") */
  char        name[3][9];   /* DMIG / OP4 names of K, M, D */
  PetscInt    n;            /* coordinates */
  PetscInt    nphys;        /* the first nphys are GRID DOFs (labels lab), the rest scalar points */
  PetscInt64 *lab;          /* [nphys, 2]: node, component */
  PetscInt    spoint_start; /* SPOINT id of the first generalized coordinate */
  PetscReal  *K, *M, *D;    /* row-major n x n; D may be NULL */
} DRExportSE;

/* The export section's settings (keys export.*) and the superelement. */
typedef struct {
  DRExportSE se;
  char       out[PETSC_MAX_PATH_LEN], fmt[16];
  PetscBool  binary, sparse;
} DRExport;

/* Whether the job file (or the command line) gives any export.* key. */
PetscErrorCode DRExportSectionGiven(DRConfig cfg, PetscBool *given);
/* Read and check the export.* keys before any work (names, output paths).
 * source: the result to export; NULL: export.source (resolved against the
 * job file), else export.source must be unset (a job exporting its own
 * output).  Collective on PETSC_COMM_WORLD. */
PetscErrorCode DRExportSetUp(DRConfig cfg, const char *source, DRExport *x);
/* Read the reduced model from the source, check it, and write the output and
 * the DOF map (rank 0, temporary names renamed); prints two lines. */
PetscErrorCode DRExportRun(DRExport *x);

/* Rank 0 alone, into an open file (the caller names it and renames). */
PetscErrorCode DRExportWriteDMIG(FILE *f, const DRExportSE *se);
PetscErrorCode DRExportWriteOP4(FILE *f, const DRExportSE *se, PetscBool binary, PetscBool sparse);
PetscErrorCode DRExportWriteMap(FILE *f, const DRExportSE *se);

#endif
