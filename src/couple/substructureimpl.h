/* Private to substructure.c (the CMS side: components, cost model) and
 * substructure_part.c (the node graph and its deterministic partition). */
#ifndef DYNRED_SUBSTRUCTUREIMPL_H
#define DYNRED_SUBSTRUCTUREIMPL_H

#include "cmsimpl.h"

#define DR_SUB_MIN_DOFS  20000 /* auto: smaller models stay one component */
#define DR_SUB_MIN_PART  2000  /* auto: no subdomain below this many DOFs */
#define DR_SUB_MAX_PARTS 64    /* auto: at most this many subdomains */
#define DR_SUB_MARGIN    0.85  /* auto: split only below this share of the one-solve cost (the model's error: substructure.c) */
#define DR_SUB_CC_PER_MODE 2.5  /* cost model: CC modes kept per system mode (bench/README.md "CMS at 1M DOF: substructured, the root's CC problem by block Lanczos": 490 and 504 for 200) */
#define DR_SUB_NS_PER_OP 0.058  /* cost model: ns per dense operation on one core (2r: 265 s for 4.6e12 by LAPACK) */

struct _DRSubstructure {
  DRComponent full;        /* the model on the world communicator */
  PetscInt    n;           /* its DOFs */
  PetscInt    nnodes;      /* its nodes */
  PetscInt64 *nodeid;      /* nnodes: node ids, ascending */
  PetscInt   *dofnode;     /* n: row -> node index */
  PetscInt   *ndof;        /* nnodes: DOFs of each node */
  PetscInt   *xadj, *adj;  /* rank 0: node graph (CSR, rows ascending, no self loops) */
  PetscInt    N;           /* subdomains */
  PetscInt   *code;        /* nnodes: part p (interior of p) or -1 - p (separator) */
  PetscInt   *sx, *sa;     /* separator node u touches the interiors of parts sa[sx[u]..sx[u+1]) */
};

/* All ranks: nodes and the row -> node map from the replicated labels. */
PetscErrorCode DRSubNodeMap(DRSubstructure s);
/* The node graph (patterns of K and M, symmetrized) on rank 0 of comm. */
PetscErrorCode DRSubGatherGraph(DRSubstructure s, MPI_Comm comm);
/* Rank 0: N parts of the node graph, part[nnodes]; deterministic. */
PetscErrorCode DRSubPartition(DRSubstructure s, PetscInt N, PetscInt part[]);

#endif
