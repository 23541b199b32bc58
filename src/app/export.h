/* dynred export (job_export.c, export_write.c): a reduced model as a
 * superelement for Nastran-family tools. */
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

/* Rank 0 alone, into an open file (the caller names it and renames). */
PetscErrorCode DRExportWriteDMIG(FILE *f, const DRExportSE *se);
PetscErrorCode DRExportWriteOP4(FILE *f, const DRExportSE *se, PetscBool binary, PetscBool sparse);
PetscErrorCode DRExportWriteMap(FILE *f, const DRExportSE *se);

#endif
