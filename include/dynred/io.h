/* dynred: model file readers and writers.
 *
 * Every reader returns a validated component (DRComponentValidate) whose
 * matrices are distributed over comm; a bad file raises DR_ERR_INPUT with one
 * line "FILE:LINE: what was found, what was expected".  Readers stream the
 * file on rank 0 in chunks and send each rank its rows, so no rank holds more
 * than one copy of its part plus one chunk.  Writers write to a temporary name
 * and rename on success.
 *
 * Label files ("dofs"): one "node.direction" per row, as CalculiX's JOB.dof.
 */
#ifndef DYNRED_IO_H
#define DYNRED_IO_H

#include <dynred/component.h>

/* Relative tolerance of the symmetry check applied by the readers. */
#define DR_SYMMETRY_RTOL 1e-8

/* --- Matrix Market (coordinate real, symmetric or general) --------------- */
PetscErrorCode DRMatReadMatrixMarket(MPI_Comm comm, const char *path, Mat *A);
/* Writes the lower triangle (the Matrix Market convention) as "symmetric"
 * when symmetric is true, every entry as "general" otherwise. */
PetscErrorCode DRMatWriteMatrixMarket(Mat A, const char *path, PetscBool symmetric);
/* A small dense m x n array as "coordinate real general" (nonzeros only, 17
 * significant digits, row by row), written by the calling process alone:
 * a[i*n + j] when rowmajor, else a[j*m + i] (column-major).  The comment
 * (may be NULL) is the line after the banner. */
PetscErrorCode DRDenseWriteMatrixMarket(const char *path, PetscInt m, PetscInt n, const PetscReal a[], PetscBool rowmajor, const char *comment);
PetscErrorCode DRLabelsRead(MPI_Comm comm, const char *path, PetscInt *n, DRLabel **labels);
PetscErrorCode DRLabelsWrite(MPI_Comm comm, const char *path, PetscInt n, const DRLabel labels[]);
/* K, M, D (D may be NULL) and the label file. */
PetscErrorCode DRComponentReadMTX(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *dofs, DRComponent *c);
/* Writes PREFIX_K.mtx, PREFIX_M.mtx, [PREFIX_D.mtx], PREFIX.dof. */
PetscErrorCode DRComponentWriteMTX(DRComponent c, const char *prefix);

/* --- CalculiX matrix storage ---------------------------------------------
 * JOB.sti, JOB.mas (1-based upper triangle "i j value"), JOB.dof (labels);
 * if JOB.inp exists, *NODE coordinates and C3D4/C3D10/C3D8/C3D20 cells of
 * *ELEMENT blocks, and *NSET node sets, are read too. */
PetscErrorCode DRComponentReadCalculiX(MPI_Comm comm, const char *name, const char *job, DRComponent *c);
/* Writes JOB.sti, JOB.mas, JOB.dof in the same format, and D as JOB.dam (a
 * dynred extension, same format, read back when present). */
PetscErrorCode DRComponentWriteCalculiX(DRComponent c, const char *job);

/* --- PETSc binary: K, M, [D] with MatView, labels in PATH.dof ------------- */
PetscErrorCode DRComponentReadPETSc(MPI_Comm comm, const char *name, const char *path, DRComponent *c);
PetscErrorCode DRComponentWritePETSc(DRComponent c, const char *path);

/* --- OP4 (Nastran OUTPUT4): K, M [, D] in one file, ASCII or binary, dense
 * or sparse columns (src/model/io_op4.c), and a label file ------------------ */
PetscErrorCode DRComponentReadOP4(MPI_Comm comm, const char *name, const char *path, const char *dofs, DRComponent *c);

/* --- Abaqus *MATRIX OUTPUT files (src/model/io_abaqus.c, docs/formats.md):
 * K, M [, D] as FORMAT=MATRIX INPUT ("node, dof, node, dof, value"; labels
 * from the files unless dofs is given) or FORMAT=COORDINATE ("row, column,
 * value"; dofs required) --------------------------------------------------- */
PetscErrorCode DRComponentReadAbaqus(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *dofs, DRComponent *c);

/* --- Ansys HBMAT (Harwell-Boeing) or *EXPORT Matrix Market files K, M [, D]
 * and the HBMAT mapping file (src/model/io_ansys.c, docs/formats.md) -------- */
PetscErrorCode DRComponentReadAnsys(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *mapping, DRComponent *c);

/* --- Nastran DMIG bulk data (small, large or free field; punch files of
 * PARAM,EXTOUT,DMIGPCH): the matrices named kname, mname and dname (NULL or
 * "": no D; read when present unless drequired), labels from the points the
 * matrices refer to (a scalar point is direction 0); src/model/io_dmig.c -- */
PetscErrorCode DRComponentReadDMIG(MPI_Comm comm, const char *name, const char *path, const char *kname, const char *mname, const char *dname, PetscBool drequired, DRComponent *c);

/* --- dynred HDF5 component file (layout in DESIGN.md) --------------------- */
PetscErrorCode DRComponentReadHDF5(MPI_Comm comm, const char *name, const char *path, DRComponent *c);
PetscErrorCode DRComponentWriteHDF5(DRComponent c, const char *path);

#endif
