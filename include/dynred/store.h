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

#include <dynred/sys.h>
#include <petscvec.h>

/* Element shapes known to the XDMF writer (values are XDMF topology codes'
 * names; node order is the VTK/XDMF order). */
typedef enum {
  DR_CELL_NONE = 0,
  DR_CELL_LINE2, /* 2-node beam */
  DR_CELL_TET4,
  DR_CELL_TET10,
  DR_CELL_HEX8,
  DR_CELL_HEX20,
  DR_CELL_VERTEX,  /* point mass, grounded spring */
  DR_CELL_LINE3,   /* 3-node beam: ends, then middle */
  DR_CELL_TRI3,    /* shells, membranes and 2-D elements are surface cells */
  DR_CELL_TRI6,
  DR_CELL_QUAD4,
  DR_CELL_QUAD8,
  DR_CELL_WEDGE6,
  DR_CELL_WEDGE15,
  DR_CELL_MIXED,   /* cells of several shapes, rows of DR_CELL_MIXED_WIDTH (below) */
  DR_CELL_NTYPES   /* number of values, not a shape */
} DRCellType;
/* Most nodes of one cell (Hexahedron_20). */
#define DR_CELL_MAXNV 20
/* A DR_CELL_MIXED mesh stores each cell as a row of DR_CELL_MIXED_WIDTH
 * integers: -(its DRCellType), its DRCellNodes node ids, then -1 up to the
 * row's end.  Fixed-width rows keep "ncells * DRCellNodes(celltype)"
 * entries true for every mesh, and as node ids are >= 0, code that looks
 * for or renames node ids passes over the type and the padding. */
#define DR_CELL_MIXED_WIDTH (1 + DR_CELL_MAXNV)
PetscInt    DRCellNodes(DRCellType t); /* nodes per cell (DR_CELL_MIXED: the row width) */
const char *DRCellName(DRCellType t);  /* XDMF TopologyType */

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

/* A mesh under /mesh: nnodes node ids (ascending) with coordinates xyz
 * [nnodes, 3] (row-major), and ncells cells of `celltype` given as node IDS
 * [ncells, DRCellNodes(celltype)] (row-major), stored as 0-based node
 * indices (/mesh/topology).  Arrays replicated on every rank (rank 0's are
 * written).  Nothing is written when nnodes = 0.  A DR_CELL_MIXED mesh is
 * written as XDMF's Mixed topology: /mesh/topology is then 1-D, each cell
 * its XDMF type code (Polyline and Polyvertex followed by their node
 * count), then its node indices; /mesh@celltype is "Mixed".  (A DRComponent is written
 * with DRComponentWriteMesh, include/dynred/componentstore.h.) */
PetscErrorCode DRStoreWriteMesh(DRStore s, PetscInt nnodes, const PetscInt node_ids[], const PetscReal xyz[], DRCellType celltype, PetscInt ncells, const PetscInt cells[]);
/* Nodal displacement of each vector as GROUP/shapes/0001, 0002, ...
 * [nnodes, 3]; listed in the XDMF file with `names`.  Row i of every vector
 * is DOF labels[i] (n labels, replicated); directions 1..3 go to the node
 * labels[i] names in node_ids (ascending, as given to DRStoreWriteMesh),
 * rotations are left out.  Nothing is written when nnodes = 0. */
PetscErrorCode DRStoreWriteShapes(DRStore s, const char *group, PetscInt nnodes, const PetscInt node_ids[], PetscInt n, const DRLabel labels[], PetscInt nv, Vec v[], const char *const names[]);

#endif
