/* dynred: component mode synthesis.
 *
 * Components are distributed over groups of ranks (MPI_COMM_WORLD split into
 * contiguous blocks; components assigned largest estimated cost first to the
 * least loaded group, deterministically).  Each group reduces its components
 * (a DRReduction each, the method per component) on its own communicator; the
 * superelements are gathered on world rank 0, assembled by boundary label
 * (shared boundary coordinates merged, generalized coordinates appended in
 * component order) and solved there: dense (DRDenseEigen) up to
 * cms.dense_max coordinates, SLEPc on a distributed sparse matrix beyond.
 * System modes are recovered u = T q on the ranks that hold each basis and
 * assembled into vectors over the full model's DOF labels (the sorted union
 * of all component labels: the same numbering as the assembled full model).
 *
 * Interface reduction (cms.interface_modes or cms.interface_cutoff_factor):
 * the root replaces the merged boundary coordinates by the lowest
 * characteristic constraint modes Psi of the assembled boundary problem
 * (K_BB, M_BB of the reduced system) and solves R^T K R, R^T M R with
 * R = blkdiag(Psi, I); recovery uses q = R q'.
 *
 * A PETSc-style object: Create, SetConfig (the job: model and cms.* keys),
 * SetFromOptions (reads the keys; option > YAML > default), SetUp
 * (distribution, components, interfaces), Solve, View(PetscViewer),
 * Verify (optional), Write(DRStore), Destroy.  Log class "DR CMS", one event per phase
 * (DRCMSInitializePackage; -log_view shows them, /timing is read from them).
 */
#ifndef DYNRED_CMS_H
#define DYNRED_CMS_H

#include <dynred/config.h>
#include <dynred/store.h>
#include <dynred/component.h>
#include <dynred/compare.h>

typedef struct _p_DRCMS *DRCMS;

PetscErrorCode DRCMSInitializePackage(void);
PetscErrorCode DRCMSRegisterKeys(void);
PetscErrorCode DRCMSCreate(MPI_Comm comm, DRCMS *cms);
PetscErrorCode DRCMSDestroy(DRCMS *cms);
PetscErrorCode DRCMSSetConfig(DRCMS cms, DRConfig cfg);
PetscErrorCode DRCMSSetFromOptions(DRCMS cms);
PetscErrorCode DRCMSSetUp(DRCMS cms);
PetscErrorCode DRCMSSolve(DRCMS cms);
/* Per-component and system tables (ASCII viewers; NULL: stdout of the comm). */
PetscErrorCode DRCMSView(DRCMS cms, PetscViewer viewer);
/* /cms/... datasets, /timing, the mesh and the XDMF mode shapes. */
PetscErrorCode DRCMSWrite(DRCMS cms, DRStore store);
/* Verification against the full model (assembly of all components): its
 * modes by DRModal (prefix modal_), the comparison table on stdout and in
 * /verify, accuracy per band; verdict: largest paired frequency deviation
 * in % and the full-model modes missing / CMS modes extra (compare.h), for
 * DRVerdictCheck.  Errors when the Rayleigh-Ritz bound is violated. */
PetscErrorCode DRCMSVerify(DRCMS cms, DRStore store, DRVerdict *verdict);
/* After DRCMSSetUp: the component count, the rank groups and the components
 * of this rank's group (on its communicator; owned by cms). */
PetscErrorCode DRCMSGetLocalComponents(DRCMS cms, PetscInt *ncomp, PetscInt *ngroups, PetscInt *nmine, DRComponent **comps);
/* System modes over the full labels (world vectors, owned by cms). */
PetscErrorCode DRCMSGetModes(DRCMS cms, PetscInt *n, const PetscReal **freq_hz, Vec **modes, PetscInt *nlabels, const DRLabel **labels);
/* Reduced (assembled) system size and the phase times (seconds, from the
 * log events): component eigensolves, constraint modes, projection, gather,
 * assembly, interface reduction, coupled solve, recovery. */
PetscErrorCode DRCMSGetTimes(DRCMS cms, PetscInt *nred, PetscInt *nphases, const char *const **names, const PetscReal **seconds);

#endif
