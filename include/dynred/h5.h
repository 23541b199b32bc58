/* dynred: the one HDF5 helper layer (core).
 *
 * Every module that reads or writes HDF5 (the result store, the farm and GA
 * checkpoints, component files, state-space sources) goes through these
 * helpers and the one check macro DRH5Call, so every HDF5 failure is one
 * line naming the file and the object:
 *   "out.h5.tmp.123: /modal/frequencies: HDF5 call failed: H5Dwrite(...)".
 * HDF5's own error-stack printing is switched off once (our message says
 * what went wrong).
 *
 * Files opened with a communicator use MPI-IO (parallel HDF5); every helper
 * on such a file is collective.  Row writes/reads select a hyperslab of whole
 * rows [off, off + cnt) (all trailing dimensions); a rank with cnt = 0
 * selects nothing.  Dataset dimensions are C order as h5py shows them.
 * `loc` is any open file or group; object names are paths relative to it
 * ("." is loc itself). */
#ifndef DYNRED_H5_H
#define DYNRED_H5_H

#include <dynred/sys.h>
#include <hdf5.h>

/* The one check macro: `expr` (an HDF5 call) < 0 is an error naming the file
 * that `loc` belongs to and the object `name`. */
#define DRH5Call(loc, name, expr) \
  do { \
    if ((expr) < 0) return DRH5Error_Private(__LINE__, PETSC_FUNCTION_NAME, __FILE__, (loc), (name), #expr); \
  } while (0)
PetscErrorCode DRH5Error_Private(int line, const char *func, const char *file, hid_t loc, const char *name, const char *expr);

/* 64-bit PetscInt or not: the native memory type of PetscInt. */
#define DR_H5_PETSCINT (sizeof(PetscInt) == 8 ? H5T_NATIVE_INT64 : H5T_NATIVE_INT)

typedef enum {
  DR_H5_READ,        /* existing file, read only */
  DR_H5_UPDATE,      /* existing file, read and write */
  DR_H5_CREATE,      /* create, truncating an existing file */
  DR_H5_CREATE_EXCL  /* create, failing when the file exists */
} DRH5Mode;

/* Open or create `path`; parallel (MPI-IO) on comm, serial on this process
 * when comm is MPI_COMM_NULL.  No error when it cannot be opened: *file < 0,
 * so the caller says what it expected.  Collective on comm. */
PetscErrorCode DRH5FileOpen(MPI_Comm comm, const char *path, DRH5Mode mode, hid_t *file);
/* Close (a no-op for file < 0); sets *file = -1. */
PetscErrorCode DRH5FileClose(hid_t *file);
/* Flush the whole file to disk. */
PetscErrorCode DRH5FileFlush(hid_t file);

/* Does the object `path` exist (every link along it)? */
PetscErrorCode DRH5Exists(hid_t loc, const char *path, PetscBool *flg);
/* Open group `path` ("" or "/" is the root of loc's file when loc is a file);
 * create missing groups along it when `create`.  Close with H5Gclose. */
PetscErrorCode DRH5GroupOpen(hid_t loc, const char *path, PetscBool create, hid_t *g);
/* Create group `name` in loc, optionally tracking link creation order. */
PetscErrorCode DRH5GroupCreate(hid_t loc, const char *name, PetscBool track_order, hid_t *g);
/* Split "a/b/leaf" into the group "a/b" (created as needed) and "leaf". */
PetscErrorCode DRH5ParentGroup(hid_t loc, const char *path, hid_t *g, const char **leaf);

/* Scalar attributes on object `obj` (relative to loc; "." is loc), replaced
 * when present.  Strings are fixed-length NUL-terminated; integers are
 * written from a PetscInt64 with file type `ftype` (H5T_STD_I64LE,
 * H5T_STD_I32LE, ...). */
PetscErrorCode DRH5AttrWriteString(hid_t loc, const char *obj, const char *name, const char *value);
PetscErrorCode DRH5AttrWriteReal(hid_t loc, const char *obj, const char *name, PetscReal value);
PetscErrorCode DRH5AttrWriteInt(hid_t loc, const char *obj, const char *name, hid_t ftype, PetscInt64 value);
/* Read a scalar attribute; *found = PETSC_FALSE (value untouched, strings
 * "") when absent; `found` may be NULL.  Strings may be fixed or variable
 * length and are truncated to len. */
PetscErrorCode DRH5AttrReadString(hid_t loc, const char *obj, const char *name, char *buf, size_t len, PetscBool *found);
PetscErrorCode DRH5AttrReadReal(hid_t loc, const char *obj, const char *name, PetscReal *value, PetscBool *found);
PetscErrorCode DRH5AttrReadInt(hid_t loc, const char *obj, const char *name, PetscInt64 *value, PetscBool *found);

/* Dimensions of dataset `name` (1..4 dims); *ndims = 0 when it does not exist. */
PetscErrorCode DRH5Dims(hid_t loc, const char *name, int *ndims, hsize_t dims[4]);
/* Create dataset `name` [dims] (replacing an existing one) of file type
 * ftype; this rank writes rows [off, off + cnt) from buf (memory type mtype).
 * Collective on a parallel file. */
PetscErrorCode DRH5WriteRows(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int ndims, const hsize_t dims[], hsize_t off, hsize_t cnt, const void *buf);
/* The whole dataset from this rank when `mine`, nothing otherwise (the
 * replicated small arrays of a parallel file: rank 0 writes them). */
PetscErrorCode DRH5Write(hid_t loc, const char *name, hid_t ftype, hid_t mtype, int ndims, const hsize_t dims[], PetscBool mine, const void *buf);
/* Read rows [off, off + cnt) (all trailing dims) into buf. */
PetscErrorCode DRH5ReadRows(hid_t loc, const char *name, hid_t mtype, hsize_t off, hsize_t cnt, void *buf);
/* Read a whole dataset into *buf (PetscMalloc'ed, at least one element;
 * PetscFree it); ndims, dims may be NULL. */
PetscErrorCode DRH5ReadAll(hid_t loc, const char *name, hid_t mtype, int *ndims, hsize_t dims[4], void **buf);

/* n fixed-length NUL-terminated strings as a 1-D dataset (width: the
 * longest + 1); written by this rank when `mine`.  strs must be the same on
 * every rank that calls (the width is a collective property). */
PetscErrorCode DRH5WriteStrings(hid_t loc, const char *name, PetscInt n, const char *const strs[], PetscBool mine);
/* Read a 1-D dataset of fixed- or variable-length strings: *n strings,
 * (*strs)[i] PetscMalloc'ed; free with DRH5FreeStrings. */
PetscErrorCode DRH5ReadStrings(hid_t loc, const char *name, PetscInt *n, char ***strs);
PetscErrorCode DRH5FreeStrings(PetscInt n, char ***strs);

#endif
