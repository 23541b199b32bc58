/* dynred: the component (substructure) data model.
 *
 * A component is what an FE code exports for one part: stiffness K, mass M
 * (optional damping D) over the part's free DOFs, one DOF label per row,
 * optional node coordinates and element connectivity (for XDMF output) and
 * named node sets (interface, inputs, outputs, fixed).  Constrained DOFs have
 * been removed.  Matrices are distributed over the component's communicator;
 * labels, nodes, cells and sets are replicated on every rank of it (they are
 * O(n) integers, small next to the matrices).
 */
#ifndef DYNRED_COMPONENT_H
#define DYNRED_COMPONENT_H

#include <dynred/sys.h>
#include <petscmat.h>
#include <dynred/store.h>

/* DRCellType, DRCellNodes and DRCellName live in the core (store.h). */

typedef struct {
  char      name[64];
  PetscInt  n;
  PetscInt *nodes; /* node ids, sorted, unique */
} DRNodeSet;

typedef struct _p_DRComponent *DRComponent;

/* Empty component on comm; fill it with the setters, then DRComponentValidate.
 * The layout is private (src/model/componentimpl.h). */
PetscErrorCode DRComponentCreate(MPI_Comm comm, const char *name, DRComponent *c);
PetscErrorCode DRComponentDestroy(DRComponent *c);

/* Accessors (the layout is private to src/model).  Getters return borrowed pointers
 * owned by the component; any output argument may be NULL.  Setters copy
 * their arrays (operators: take a reference; NULL clears).
 *   geometry: nnodes ids (ascending) and 3*nnodes coordinates (x, y, z per node)
 *   cells:    ncells*DRCellNodes(celltype) node ids, cell-major */
PetscErrorCode DRComponentGetName(DRComponent c, const char **name);
PetscErrorCode DRComponentSetName(DRComponent c, const char *name);
PetscErrorCode DRComponentGetSource(DRComponent c, const char **source);
/* The file M was read from (CalculiX JOB.mas, an mtx file), else the source. */
PetscErrorCode DRComponentGetMassSource(DRComponent c, const char **source);
PetscErrorCode DRComponentSetSource(DRComponent c, const char *source);
PetscErrorCode DRComponentGetComm(DRComponent c, MPI_Comm *comm);
PetscErrorCode DRComponentGetSize(DRComponent c, PetscInt *n);
PetscErrorCode DRComponentGetOperators(DRComponent c, Mat *K, Mat *M, Mat *D);
PetscErrorCode DRComponentSetOperators(DRComponent c, Mat K, Mat M, Mat D);
PetscErrorCode DRComponentGetLabels(DRComponent c, PetscInt *n, const DRLabel **labels);
PetscErrorCode DRComponentSetLabels(DRComponent c, PetscInt n, const DRLabel labels[]);
PetscErrorCode DRComponentGetGeometry(DRComponent c, PetscInt *nnodes, const PetscInt **ids, const PetscReal **xyz);
PetscErrorCode DRComponentSetGeometry(DRComponent c, PetscInt nnodes, const PetscInt ids[], const PetscReal xyz[]);
PetscErrorCode DRComponentGetCells(DRComponent c, DRCellType *celltype, PetscInt *ncells, const PetscInt **cells);
PetscErrorCode DRComponentSetCells(DRComponent c, DRCellType celltype, PetscInt ncells, const PetscInt cells[]);
PetscErrorCode DRComponentGetNodeSets(DRComponent c, PetscInt *nsets, const DRNodeSet **sets);

/* Add a named node set (copies, sorts and de-duplicates ids). */
PetscErrorCode DRComponentAddNodeSet(DRComponent c, const char *name, PetscInt n, const PetscInt ids[]);
/* Find a node set by name; NULL when absent. */
PetscErrorCode DRComponentGetNodeSet(DRComponent c, const char *name, DRNodeSet **set);

/* Checks every reader applies, each failing with one line naming
 * c->source and the entry: sizes agree, labels unique, values finite,
 * K (and M, D) symmetric within rtol relative to the matrix norm,
 * M with positive diagonal, and the geometry refers to known nodes. */
PetscErrorCode DRComponentValidate(DRComponent c, PetscReal rtol);

/* Index of node id in c->node_ids (binary search), -1 when absent. */
PetscInt DRComponentFindNode(DRComponent c, PetscInt64 node);

/* Sorted copy of the labels with the permutation: sorted[k] = labels[perm[k]].
 * Caller frees both with PetscFree. */
PetscErrorCode DRLabelsSort(PetscInt n, const DRLabel labels[], DRLabel **sorted, PetscInt **perm);
/* Number repeated labels in row order: the k-th row carrying a node.dir gets
 * copy k (DRLabelWithCopy), as CalculiX's JOB.dof of expanded elements needs. */
PetscErrorCode DRLabelsNumberCopies(PetscInt n, DRLabel labels[]);
/* A node of several components that some component has expanded (a label
 * with copy > 0): such rows cannot be matched between components by label.
 * lab[k] holds the nlab[k] labels of component k (the same on every rank).
 * *node = -1 when there is none, else the node, *ka a component holding
 * copies of it and *kb another component with a label of that node. */
PetscErrorCode DRLabelsFindExpandedShared(PetscInt ncomp, const PetscInt nlab[], const DRLabel *const lab[], PetscInt64 *node, PetscInt *ka, PetscInt *kb, PetscBool *generated);
/* Position of l in a sorted label array (binary search), -1 when absent. */
PetscInt DRLabelsFind(PetscInt n, const DRLabel sorted[], DRLabel l);

/* Assemble several components (each on comm) into one model by label:
 * global DOFs are the sorted union of all labels; entries of shared labels
 * add.  Geometry and cells are merged (nodes by id).  The result is a new
 * component on comm named `name`.  This is the "full model" of CMS. */
PetscErrorCode DRComponentAssemble(MPI_Comm comm, const char *name, PetscInt ncomp, DRComponent comps[], DRComponent *full);

/* A scalar and a distributed matrix for a component: convenience for tests.
 * Total mass along direction dir: u^T M u with u = 1 on every dir-DOF. */
PetscErrorCode DRComponentTranslationalMass(DRComponent c, PetscInt dir, PetscReal *mass);

#endif
