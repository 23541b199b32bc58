/* dynred: the HDF5 result store.
 *
 * One output file per job, layout in DESIGN.md section 5.  The file is
 * written under a temporary name (PATH.tmp.PID) with parallel HDF5 on the
 * job's communicator and renamed to PATH only by DRStoreClose(&s, PETSC_TRUE),
 * so a failed run never leaves a half-written result.  Every call is
 * collective; small arrays are taken from rank 0, distributed vectors are
 * written by each rank as its own hyperslab.  Datasets that carry a physical
 * quantity get a `units` attribute.
 *
 * Mode shapes on a mesh (DRStoreWriteMesh + DRStoreWriteShapes) are also
 * described in PATH.xdmf (written at close) so ParaView shows them.
 * Matrices and vectors are stored row-major as h5py shows them: a dataset of
 * modes [ndof, nmodes] has one column per mode (MATLAB's h5read returns the
 * transpose, [nmodes, ndof]).
 */
#ifndef DYNRED_STORE_H
#define DYNRED_STORE_H

#include <dynred/component.h>
#include <petscvec.h>

typedef struct _p_DRStore *DRStore;

PetscErrorCode DRStoreCreate(MPI_Comm comm, const char *path, DRStore *s);
/* commit: rename the temporary file to its final name; else remove it. */
PetscErrorCode DRStoreClose(DRStore *s, PetscBool commit);

/* Attributes on a group ("/" or "/timing"); groups are created as needed. */
PetscErrorCode DRStoreAttrString(DRStore s, const char *group, const char *name, const char *value);
PetscErrorCode DRStoreAttrReal(DRStore s, const char *group, const char *name, PetscReal value);
PetscErrorCode DRStoreAttrInt(DRStore s, const char *group, const char *name, PetscInt64 value);

/* Dense arrays from rank 0 (dims[0] x dims[1] ...; ndims <= 3). */
PetscErrorCode DRStoreWriteReal(DRStore s, const char *dset, int ndims, const PetscInt dims[], const PetscReal *data, const char *units);
PetscErrorCode DRStoreWriteInt(DRStore s, const char *dset, int ndims, const PetscInt dims[], const PetscInt64 *data);
/* n fixed-length strings (rank 0's), e.g. DOF label lists. */
PetscErrorCode DRStoreWriteStrings(DRStore s, const char *dset, PetscInt n, const char *const strs[]);
/* DOF labels as two columns [n, 2]: node id, direction. */
PetscErrorCode DRStoreWriteLabels(DRStore s, const char *dset, PetscInt n, const DRLabel labels[]);
/* nv distributed vectors of equal layout as the columns of dset [N, nv]. */
PetscErrorCode DRStoreWriteVecs(DRStore s, const char *dset, PetscInt nv, Vec v[], const char *units);

/* The component's nodes and cells under /mesh (coordinates, node_ids,
 * topology as 0-based node indices). */
PetscErrorCode DRStoreWriteMesh(DRStore s, DRComponent c);
/* Nodal displacement of each vector (DOF directions 1..3 of c's labels) as
 * GROUP/shapes/0001, 0002, ... [nnodes, 3]; listed in the XDMF file with `names`. */
PetscErrorCode DRStoreWriteShapes(DRStore s, const char *group, DRComponent c, PetscInt nv, Vec v[], const char *const names[]);

#endif
