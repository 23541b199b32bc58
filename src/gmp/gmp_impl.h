/* GMP internals shared by the files of src/gmp. */
#ifndef DYNRED_GMP_IMPL_H
#define DYNRED_GMP_IMPL_H
#include <dynred/gmp.h>
#include <dynred/builtin.h>
#include <dynred/ode.h>

struct _p_DRMechanism {
  DRMechanismParams p;
  PetscInt          dim, dpn, ntheta, nb, nnodes, ndof;
  PetscInt          nel[2], first[3]; /* elements (bays) per body, first node of each body */
  PetscReal         L[2];
  PetscReal         pose[6];          /* planar body poses (x, y, phi) of the last configuration */
  DRLabel          *labels;
  /* topology: nodes of body b are first[b] .. first[b + 1] - 1 (first[2] =
   * nnodes); xloc (3 per node) are body-frame coordinates (along the axis,
   * along the frame's y, z); elements conn[2e], conn[2e + 1] of body
   * ebody[e], their beam orientation the body-frame vector evref[e] (0..2).
   * Joint nodes: jbase (to ground), ja, jb (the elbow / revolute A on
   * bodies 1 and 2), jtip (tip mass / slider). */
  PetscInt          nelem, *conn, *ebody, jbase, ja, jb, jtip;
  char             *evref;
  PetscReal        *xloc;
};

/* q = N z, row i = sum_k coef[i][k] z[col[i][k]]; columns 0..nfix-1 are
 * independent DOFs (defdof[c] the DOF defining column c, in DOF order), the
 * rigid columns nfix..nfree-1 the theta's. */
#define DR_CM_MAXTERM 6 /* the arm's chord row: 2 tip + 3 elbow translations + theta */
typedef struct {
  PetscInt  *nterm, *col, *defdof, nfix, nfree;
  PetscReal *coef;
} DRConstraintMap;

/* A mechanism kind (registered by name in DRMechanismList, mechanism.c):
 * defaults fill the built-in parameters, setup checks the kind's own
 * parameters and sets dim, dpn (DOFs per node) and ntheta. */
typedef struct {
  PetscErrorCode (*defaults)(DRMechanismParams *p);
  PetscErrorCode (*setup)(DRMechanism m);
} DRMechanismKind;
typedef PetscErrorCode (*DRMechanismKindFn)(DRMechanismKind *kind);
PetscErrorCode DRMechanismRegister(const char name[], DRMechanismKindFn fn);
/* The unconstrained mass at theta, dense ndof x ndof on one process (xyz:
 * work of dim * nnodes, rho(theta) on return): Naets' terms. */
PetscErrorCode DRMechanismMassDense(DRMechanism m, const PetscReal theta[], PetscReal xyz[], PetscReal Mf[]);
PetscErrorCode DRMechanismKindSliderCrank(DRMechanismKind *kind);
PetscErrorCode DRMechanismKindArm3d(DRMechanismKind *kind);
PetscErrorCode DRMechanismKindFind(MPI_Comm comm, const char *type, const char *where, DRMechanismKind *kind);

/* The package's log events (DRGMPInitializePackage) */
extern PetscClassId  DRGMP_CLASSID;
extern PetscLogEvent DRGMP_Point, DRGMP_Assemble, DRGMP_PointEig, DRGMP_Sweep, DRGMP_Track, DRGMP_Verify, DRGMP_Write, DRGMP_Transient, DRGMP_FlexRef;

/* The built-in interpolation methods (interp.c), registered there on first use */
PetscErrorCode DRGMPInterpolationLinear(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi);
PetscErrorCode DRGMPInterpolationQuadratic(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi);
PetscErrorCode DRGMPInterpolationEigenspace(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi);

/* ||a - ref||_F / ||ref||_F over len entries (interp.c). */
PetscReal DRGMPFrobRel_Private(PetscInt len, const PetscReal *a, const PetscReal *ref);

/* The unreduced references' integration from rest (flexref.c, flexref3.c):
 * TSALPHA2, rho_inf 1, fixed step; jac NULL: forward differences; lag > 1:
 * the Jacobian lagged across steps. */
PetscErrorCode DRGMPFlexRefIntegrate_Private(PetscInt nfree, const char prefix[], DRODE2Residual res, DRODE2Jacobian jac, DRODE2Monitor mon, void *ctx, PetscReal h, PetscReal tend, PetscReal atol, PetscReal rtol, PetscInt lag);
/* The arm's link frames (axis, a2, axis x a2; fr[b][c][d]) and origins at
 * theta, and every member's beam section (mechanism.c). */
PetscErrorCode DRArmBodyFrames(DRMechanism m, const PetscReal theta[], PetscReal fr[2][3][3], PetscReal o[2][3]);
void           DRMechanismSection(DRMechanism m, DRBeamSection *sec);
PetscErrorCode DRArmFrames(const PetscReal theta[], PetscReal d1[3], PetscReal d2[3], PetscReal a2[3]);
PetscErrorCode DRMechanismConstraintMap(DRMechanism m, const PetscReal theta[], DRConstraintMap *cm);
PetscErrorCode DRConstraintMapDestroy(DRConstraintMap *cm);
PetscErrorCode DRMechanismAssembleReuse(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const PetscReal xyz[], PetscBool reuse, Mat *K, Mat *M, Mat *Nfix, Vec Ntheta[]);
/* Naets' delta dPsi/dtheta inertia terms of the reduced transient
 * (transient_naets.c; nt = 1 or 2 driven rigid DOFs): coefficients per step
 * at theta0 (nt) from Psi(theta) given by psi (ndof x n, column-major),
 * eps[t] the central-difference step along theta_t; AddResidual adds them
 * to the residual f; Mass gives the consistent reduced mass and its
 * derivatives dM[t]. */
typedef struct _p_DRGMPNaets *DRGMPNaets;
/* the deformation columns the terms take at most (their work arrays) */
#define DR_GMP_NAETS_MAXM 32
PetscErrorCode DRGMPNaetsCreate(DRMechanism m, PetscInt n, PetscInt nt, const PetscReal eps[], DRGMPNaets *na);
/* the driven DOFs' indices td[t] in the mechanism's theta, the others held at theta[] (default: td[t] = t) */
PetscErrorCode DRGMPNaetsSetHeld(DRGMPNaets na, const PetscInt td[], const PetscReal theta[]);
PetscErrorCode DRGMPNaetsUpdate(DRGMPNaets na, const PetscReal theta0[], PetscErrorCode (*psi)(void *ctx, const PetscReal theta[], PetscReal *Psi), void *ctx);
PetscErrorCode DRGMPNaetsAddResidual(DRGMPNaets na, const PetscReal u[], const PetscReal v[], const PetscReal a[], PetscReal f[]);
PetscErrorCode DRGMPNaetsDestroy(DRGMPNaets *na);
PetscErrorCode DRGMPNaetsMass(DRGMPNaets na, const PetscReal theta[], PetscReal M[], PetscReal *dM[]);
#endif
