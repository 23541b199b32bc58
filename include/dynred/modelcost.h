/* dynred: what the model layer knows about a component before building it.
 *
 * For schedulers that place components on rank groups (CMS): an estimate of
 * the work to build and reduce component k, and whether the components come
 * from the job's `components:` list (a file per part) or from a built-in
 * model cut into parts.  Both read only the model's own job keys.
 */
#ifndef DYNRED_MODELCOST_H
#define DYNRED_MODELCOST_H

#include <dynred/config.h>

/* Relative cost of component k (no unit; compare between components of one
 * model): the size in bytes of its input file (CalculiX: the .sti
 * stiffness file; mtx: the K file), or for a cut plate or solid the number
 * of element layers in the part; 1 when unknown. */
PetscErrorCode DRModelComponentCost(DRConfig cfg, PetscInt k, PetscReal *cost);
/* PETSC_TRUE when the components are the entries of the `components:` list
 * (so per-entry keys such as components[k].method apply), PETSC_FALSE for a
 * built-in model. */
PetscErrorCode DRModelComponentsListed(DRConfig cfg, PetscBool *listed);

#endif
