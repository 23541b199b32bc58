/* What the CMS error estimate needs of a free-interface component
 * (free_interface.c, residual.c): the estimate is a property of the coupled
 * Ritz pair and the full operators, not of the basis, so a free-interface
 * component answers it with the fixed-interface kit (partition, one MUMPS
 * factorization of K_II, the residual split of residual.c), made only when
 * an estimate is asked for and kept for the later rounds. */
#ifndef DYNRED_FREE_INTERFACE_H
#define DYNRED_FREE_INTERFACE_H

#include "fixed_interface.h"

/* r a free-interface reduction? */
PetscBool DRReductionIsFreeInterface(DRReduction r);
/* The kit of a free-interface reduction after Apply (or a restore): made
 * on first use from the superelement's physical boundary, K_II factored
 * (prefix "<prefix>static_"); kept until the reduction is destroyed. */
PetscErrorCode DRFreeInterfaceEstimateKit(DRReduction r, DRComponent c, DRFixedInterface **fi);
/* S_c of a free-interface reduction (computed once, kept; a copy on rank 0
 * of the comm, caller frees). */
PetscErrorCode DRFreeInterfaceSchur(DRReduction r, DRComponent c, PetscReal **S);
/* The component's boundary Schur complement S_c = K_BB - K_BI K_II^{-1} K_IB
 * (pnb x pnb, physical boundary order, rank 0 of the comm; NULL elsewhere),
 * by the constraint modes through the held factorization (residual.c). */
PetscErrorCode DRFixedInterfaceSchur(DRFixedInterface *fi, DRReduction r, PetscReal **S);

#endif
