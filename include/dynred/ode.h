/* dynred: time integration of second-order systems (the ode layer, on the
 * floor of eigen: it uses core only).
 *
 * DRODE2 is the ONE place where dynred sets up PETSc's TSALPHA2
 * (generalized-alpha for second-order systems) on a small sequential system
 *
 *   F(t, q, v, a) = M(q, t) a + f(q, v, t) = 0,   v = q', a = q'',
 *
 * with a fixed step (TSAdapt "none"), a spectral radius rho_inf, Newton
 * with a direct solve (KSPPREONLY + PCLU) and the caller's callbacks on raw
 * arrays of length n (the residual; optionally the Jacobian
 * dF/dq + sv dF/dv + sa dF/da, a monitor and a pre-step hook).
 *
 *   DRODE2 ode;
 *   DRODE2Create(PETSC_COMM_SELF, &ode);
 *   DRODE2SetSizes(ode, n);
 *   DRODE2SetResidual(ode, Residual, ctx);
 *   DRODE2SetJacobian(ode, J, Jacobian, ctx);      optional: J NULL = dense,
 *                                                  Jacobian NULL = forward
 *                                                  differences of Residual
 *   DRODE2SetTimeSpan(ode, 0.0, h, nsteps, 0.0);
 *   DRODE2SetOptionsPrefix(ode, "ss_");            TS options: -ss_ts_...
 *   DRODE2GetTS(ode, &ts);                         optional: tune the SNES
 *   DRODE2SetUp(ode);                              TSSetFromOptions
 *   DRODE2Solve(ode, q, v, &steps);                q, v: initial -> final
 *   DRODE2Destroy(&ode);
 */
#ifndef DYNRED_ODE_H
#define DYNRED_ODE_H

#include <dynred/sys.h>
#include <petscts.h>

typedef struct _p_DRODE2 *DRODE2;

/* F = M(q, t) a + f(q, v, t) at time t (all arrays n long). */
typedef PetscErrorCode (*DRODE2Residual)(PetscReal t, const PetscReal q[], const PetscReal v[], const PetscReal a[], PetscReal F[], void *ctx);
/* J = dF/dq + sv dF/dv + sa dF/da into the caller's matrix P (values only:
 * DRODE2 assembles P and J afterwards). */
typedef PetscErrorCode (*DRODE2Jacobian)(PetscReal t, const PetscReal q[], const PetscReal v[], const PetscReal a[], PetscReal sv, PetscReal sa, Mat P, void *ctx);
/* After step `step` (0: the initial state) at time t. */
typedef PetscErrorCode (*DRODE2Monitor)(PetscInt step, PetscReal t, const PetscReal q[], const PetscReal v[], void *ctx);
/* Before the step from t with size h, from state (q, v). */
typedef PetscErrorCode (*DRODE2PreStep)(PetscReal t, PetscReal h, const PetscReal q[], const PetscReal v[], void *ctx);

PetscErrorCode DRODEInitializePackage(void);
PetscErrorCode DRODE2Create(MPI_Comm comm, DRODE2 *ode);
PetscErrorCode DRODE2SetSizes(DRODE2 ode, PetscInt n);
PetscErrorCode DRODE2SetResidual(DRODE2 ode, DRODE2Residual fn, void *ctx);
/* P: the Jacobian's storage (a reference is taken; NULL: SeqDense n x n).
 * fn NULL: forward differences of the residual along (e_j, sv e_j, sa e_j),
 * step 1e-7 max(1e-3, |q_j|), written into a SeqDense P. */
PetscErrorCode DRODE2SetJacobian(DRODE2 ode, Mat P, DRODE2Jacobian fn, void *ctx);
PetscErrorCode DRODE2SetMonitor(DRODE2 ode, DRODE2Monitor fn, void *ctx);
PetscErrorCode DRODE2SetPreStep(DRODE2 ode, DRODE2PreStep fn, void *ctx);
/* Spectral radius at infinite frequency, 0..1 (default 1: no numerical
 * damping). */
PetscErrorCode DRODE2SetRadius(DRODE2 ode, PetscReal rho_inf);
/* nsteps steps of size h from t0.  t_end <= 0: the run ends after exactly
 * nsteps steps (max time (nsteps + 1/2) h, TS_EXACTFINALTIME_STEPOVER);
 * t_end > 0: max time t_end with TS_EXACTFINALTIME_MATCHSTEP (the last step
 * is shortened to end at t_end). */
PetscErrorCode DRODE2SetTimeSpan(DRODE2 ode, PetscReal t0, PetscReal h, PetscInt nsteps, PetscReal t_end);
PetscErrorCode DRODE2SetOptionsPrefix(DRODE2 ode, const char prefix[]);
/* The configured TS (created on first call; set the callbacks, radius and
 * time span before), e.g. to set SNES tolerances or a line search before
 * DRODE2SetUp, so that options still override them. */
PetscErrorCode DRODE2GetTS(DRODE2 ode, TS *ts);
/* Creates the TS if needed and calls TSSetFromOptions (once); DRODE2Solve
 * calls it. */
PetscErrorCode DRODE2SetUp(DRODE2 ode);
/* Integrate from (q, v) (n each); on return the final state.  *steps (may be
 * NULL): the steps taken. */
PetscErrorCode DRODE2Solve(DRODE2 ode, PetscReal q[], PetscReal v[], PetscInt *steps);
PetscErrorCode DRODE2Destroy(DRODE2 *ode);

#endif
