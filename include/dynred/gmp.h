/* dynred: Global Modal Parameterization (METHODS.md section 5, after Naets,
 * Heirman and Desmet, "Reduced-order-model interpolation for use in Global
 * Modal Parameterization").
 *
 * A flexible mechanism is described by its rigid DOFs theta.  At each rigid
 * configuration the undeformed shape rho(theta) is found from the joint
 * constraints, the FE matrices M and K0 are assembled there, and a reduced
 * model is formed from the rigid mode(s) (null vectors of the constrained
 * stiffness with unit theta component) and the lowest deformation modes with
 * theta fixed.  Offline, reduced models are computed on a grid of theta
 * (the sweep, on the task farm); online they are interpolated.
 *
 * Mechanisms (DRMechanism) are built from 2-node Euler-Bernoulli beams
 * (planar: u, v, rz per node, labels NODE.1 NODE.2 NODE.6; spatial: 6 DOF per
 * node) joined by joints: revolute to ground, revolute between bodies,
 * slider (a point on a line).  Joint constraints are linear in the nodal
 * displacements about rho(theta) and are imposed by a sparse null-space basis
 * N (q = N z: pinned DOFs dropped, joined DOFs shared, a slider point moving
 * along its line), so the constrained eigenproblem (N^T K0 N) z =
 * omega^2 (N^T M N) z is sparse and symmetric and goes to SLEPc for large
 * models, LAPACK for small ones.
 */
#ifndef DYNRED_GMP_H
#define DYNRED_GMP_H
#include <dynred/config.h>
#include <petscmat.h>

#define DR_GMP_MAXTHETA 4

typedef struct _p_DRMechanism *DRMechanism;

/* Built-in mechanism kinds register by name (gmp.mechanism); an unknown
 * name is answered with the known ones. */

/* Built-in mechanisms:
 *  slider-crank (planar): crank O-A pinned to ground at O, connector A-B,
 *    slider mass at B moving on the x axis through O; theta = crank angle.
 *  arm3d (spatial two-link arm): link 1 from the base, revolute about the
 *    vertical z axis (theta_1); link 2 at the elbow, revolute about the
 *    horizontal axis normal to link 1 (theta_2: elevation of link 2).
 *    Each link is a chain of nel beams along its axis (lattice = 0), or a
 *    lattice box (lattice = n > 0) so that one configuration can have 100k+
 *    DOFs with the conditioning of a 3-D body rather than of a 0.1 mm beam
 *    chain: nel + 1 stations at s = L (k + 1/2) / (nel + 1), each an
 *    (n+1) x (n+1) grid of nodes over a width x width square centred on the
 *    axis (width x height when height > 0); members along the axis (longerons), across (battens), one
 *    diagonal in every cell face (along +y+z across, +s+y and +s+z along),
 *    and at each end a hub node on the axis (s = 0, s = L) joined by spokes
 *    to every node of the nearest station.  The joints and the tip mass act
 *    on the hubs.  Node order: per link, hub at s = 0, the stations (index
 *    k, then i along y, then j along z), hub at s = L; y_i = width (i/n -
 *    1/2), z_j = height (j/n - 1/2), the link frame being (axis, a2, axis x a2) with a2
 *    the elbow axis. */
typedef struct {
  char      type[32];            /* "slider-crank" | "arm3d" */
  PetscReal L1, L2;              /* body lengths (m) */
  PetscInt  nel1, nel2;          /* elements per body */
  PetscReal E, G, rho, A, Ib;    /* material; section area and second moment (Ib: bending; square: A^2/12) */
  PetscReal Ib2;                 /* arm3d: second moment for the other bending plane (0: Ib) */
  PetscReal J;                   /* torsion constant (arm3d) */
  PetscReal slider_mass;         /* kg (slider-crank) */
  PetscReal tip_mass;            /* kg at the end of link 2 (arm3d) */
  PetscInt  lattice;             /* arm3d: 0 = each link one beam chain; n > 0 = a lattice box of
                                    n x n cells across (section A, I, I2, J then belong to its members) */
  PetscBool lumped;              /* HRZ lumped beam mass (fe_beam.c) instead of consistent: rotation-invariant, so the
                                    nonlinear reference's mass does not depend on the deformation */
  PetscBool chord;               /* slider-crank: theta is the crank's chord angle (pin A's displacement normal to O-A
                                    is theta's, node 0's rotation a free DOF) instead of node 0's section rotation;
                                    arm3d: theta_2 is the elevation of link 2's chord (the tip's displacement normal to
                                    it, relative to the elbow, is theta_2's, the elbow's relative rotation free) */
  PetscReal width, height;       /* arm3d lattice: box width (along the link frame's y) and height (z; 0: = width) [m] */
} DRMechanismParams;

PetscErrorCode DRMechanismParamsDefault(const char *type, DRMechanismParams *p);
PetscErrorCode DRMechanismCreate(const DRMechanismParams *p, DRMechanism *m);
PetscErrorCode DRMechanismDestroy(DRMechanism *m);
/* dim: 2 or 3; ndof: unconstrained nodal DOFs; ntheta: rigid DOFs. */
PetscErrorCode DRMechanismGetSizes(DRMechanism m, PetscInt *dim, PetscInt *nnodes, PetscInt *ndof, PetscInt *ntheta);
/* Undeformed configuration rho(theta): node coordinates xyz[nnodes*dim]; for
 * planar mechanisms by Newton on the body poses (constraint residual
 * returned), for the open-chain arm by forward kinematics. */
PetscErrorCode DRMechanismConfigure(DRMechanism m, const PetscReal theta[], PetscReal xyz[], PetscReal *residual);
/* Closed form of the slider position for the slider-crank (the check of the
 * Newton solve): x_B = L1 cos(theta) + sqrt(L2^2 - L1^2 sin^2(theta)). */
PetscErrorCode DRMechanismSliderCrankClosedForm(DRMechanism m, PetscReal theta, PetscReal *xB);
/* Node labels (one per DOF; node ids from 1). */
PetscErrorCode DRMechanismGetLabels(DRMechanism m, const DRLabel **labels);
/* The FE matrices at the configuration xyz = rho(theta) (MPIAIJ on comm,
 * rows split by whole nodes): K0, M, the null-space basis of the joint
 * constraints with theta fixed Nfix (ndof x nfix) and the rigid columns
 * Ntheta[t] (the DOFs theta_t drives directly), so that the free basis is
 * [Nfix | Ntheta]. */
PetscErrorCode DRMechanismAssemble(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const PetscReal xyz[], Mat *K, Mat *M, Mat *Nfix, Vec Ntheta[]);
/* The constraint Jacobian C(theta) (nc x ndof, same column layout as K) of
 * the joints, linearized about rho(theta): C q = 0 for every admissible
 * displacement q.  Rows: planar: pin O (u, v), revolute A (u, v of the two
 * bodies equal), slider B (v = 0); arm: base (u, v, w, rx, ry), elbow
 * translations equal (3), elbow rotations equal except about a2
 * ((r_b - r_a) . d1 = (r_b - r_a) . e_z = 0).  nc = ndof - nfix - ntheta:
 * C [Nfix | Ntheta] = 0 with [Nfix | Ntheta] of full column rank. */
PetscErrorCode DRMechanismConstraintJacobian(DRMechanism m, MPI_Comm comm, const PetscReal theta[], Mat *C);
/* Beam elements: conn[2e], conn[2e + 1] are 0-based node indices. */
PetscErrorCode DRMechanismGetElements(DRMechanism m, PetscInt *nelem, const PetscInt **conn);
/* Index of the DOF whose label is given (or -1). */
PetscErrorCode DRMechanismFindLabel(DRMechanism m, DRLabel l, PetscInt *dof);

/* A reduced model at one configuration (on rank 0 of the communicator it
 * was computed on).  n = ntheta + nmodes coordinates eta = [theta | delta].
 * Dense arrays are column-major.  Psi = [rigid modes | deformation modes]
 * (ndof x n), MPsi = M Psi (for mass-weighted MAC), M = Psi^T M Psi,
 * K = [0 0; 0 Psi_d^T K0 Psi_d]; (lambda, Phi): eigenpairs of (K, M),
 * Phi mass-normalized (Phi^T M Phi = I), lambda ascending (rigid first). */
typedef struct {
  PetscInt   nt, nm, n, ndof, nnodes, dim;
  PetscReal  theta[DR_GMP_MAXTHETA];
  PetscReal *M, *K, *lambda, *Phi, *Psi, *MPsi, *xyz;
  PetscReal  rigid_energy; /* |rigid^T K rigid| / max diag K_dd: the rigid mode is strain-free */
} DRGMPRom;

typedef struct {
  PetscInt  nmodes;     /* deformation modes */
  PetscInt  dense_max;  /* constrained size up to which LAPACK is used */
  char      prefix[64]; /* options prefix of the SLEPc solve (large models) */
} DRGMPRomOptions;

/* The package: log class "DR GMP" and its events; called lazily by the
 * Create functions.  The registries of mechanism kinds (slider-crank, arm3d)
 * and interpolation methods fill themselves on first use. */
PetscErrorCode DRGMPInitializePackage(void);
/* Seconds of the package's phases on this process, read from its events
 * (the grid on the farm; tracking, verification and writing; the transient
 * check). */
PetscErrorCode DRGMPGetPhaseSeconds(PetscReal *sweep, PetscReal *track_verify_write, PetscReal *transient);

/* The ROM builder computes reduced models of one mechanism and owns the
 * matrix cache: the matrices of its first Compute on a communicator are kept
 * and reused (values refilled, numeric PtAP only) by later calls on the same
 * communicator; calls on another communicator neither use nor replace them.
 * Reset frees them, collectively on that communicator, before it goes away
 * (Destroy does it too).  The mechanism is borrowed: it must outlive the
 * builder. */
typedef struct _p_DRGMPRomBuilder *DRGMPRomBuilder;
PetscErrorCode DRGMPRomBuilderCreate(DRMechanism m, const DRGMPRomOptions *opt, DRGMPRomBuilder *b);
/* Collective on comm: the reduced model at theta. */
PetscErrorCode DRGMPRomBuilderCompute(DRGMPRomBuilder b, MPI_Comm comm, const PetscReal theta[], DRGMPRom *rom);
PetscErrorCode DRGMPRomBuilderGetMechanism(DRGMPRomBuilder b, DRMechanism *m);
PetscErrorCode DRGMPRomBuilderReset(DRGMPRomBuilder b);
PetscErrorCode DRGMPRomBuilderDestroy(DRGMPRomBuilder *b);
/* Collective on comm: one reduced model at theta without a cache (a builder
 * of one call). */
PetscErrorCode DRMechanismROM(DRMechanism m, MPI_Comm comm, const PetscReal theta[], const DRGMPRomOptions *opt, DRGMPRom *rom);
PetscErrorCode DRGMPRomDestroy(DRGMPRom *rom);
PetscErrorCode DRGMPRomCopy(const DRGMPRom *src, DRGMPRom *dst);
/* The reduced model with rigid DOF t held (a locked joint: theta_t's row
 * and column and Psi's column t removed, its eigenpairs recomputed; the
 * deformation modes are the same, computed with every theta fixed). */
PetscErrorCode DRGMPRomHold(const DRGMPRom *in, PetscInt t, DRGMPRom *out);
/* Serialise (the farm ships flat arrays) and back. */
PetscErrorCode DRGMPRomPack(const DRGMPRom *rom, PetscInt *len, PetscReal **buf);
PetscErrorCode DRGMPRomUnpack(PetscInt len, const PetscReal *buf, DRGMPRom *rom);

/* Mode tracking: make `cur`'s deformation modes (and its reduced
 * eigenvectors) follow `prev` in order and sign: mass-weighted MAC
 * (prev's M), optimal assignment, sign flips so the diagonal of the
 * cross-product is positive.  Returns the MAC diagonal (nm, after the
 * permutation) and the smallest of it. */
PetscErrorCode DRGMPTrack(const DRGMPRom *prev, DRGMPRom *cur, PetscReal macdiag[], PetscReal *macmin);
/* Order the eigenpairs (lambda, Phi) of cur like prev's (MAC of the
 * physical free-mechanism modes Psi Phi), signs made consistent. */
PetscErrorCode DRGMPTrackEigen(const DRGMPRom *prev, DRGMPRom *cur);

typedef enum { DR_GMP_LINEAR, DR_GMP_QUADRATIC, DR_GMP_EIGENSPACE } DRGMPMethod;
extern const char *const DRGMPMethods[];

/* Interpolation methods register by name (linear, quadratic, eigenspace are
 * built in; DRGMPMethods[m] is the name of the enum value m).  A method
 * fills M, K (n x n) and, when want_psi and Psi, Psi (ndof x n) of the
 * interpolant at theta on the tensor grid described at
 * DRGMPInterpolateGrid.  Find answers an unknown name with the known ones. */
typedef PetscErrorCode (*DRGMPInterpolationFn)(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], PetscBool want_psi, PetscReal *M, PetscReal *K, PetscReal *Psi);
PetscErrorCode DRGMPInterpolationRegister(const char name[], DRGMPInterpolationFn fn);
PetscErrorCode DRGMPInterpolationFind(MPI_Comm comm, const char *name, const char *where, DRGMPInterpolationFn *fn);

/* Interpolation on a uniform 1-D grid of ROMs (consistently tracked; theta
 * ascending, step h).  out receives M, K and Psi (if grid[].Psi; eigenpairs
 * with DRGMPRomEigen); out's arrays are allocated here
 * (free with DRGMPRomDestroy).  Exact at grid points for every method.  theta
 * outside [theta_0, theta_last] is an error. */
PetscErrorCode DRGMPInterpolate(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, DRGMPMethod method, DRGMPRom *out);
/* The same without Psi unless want_psi (the equations of motion need M, K only). */
PetscErrorCode DRGMPInterpolatePart(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, DRGMPMethod method, PetscBool want_psi, DRGMPRom *out);
/* Interpolation on a tensor grid of nt axes: grid[i1 + npts[0] (i2 +
 * npts[1] (...))] (theta1 fastest, the layout of /gmp/grid), uniform along
 * each axis, consistently tracked.  The 1-D formulas of METHODS.md 5 as
 * tensor products: linear is multilinear, quadratic is the product of the
 * 1-D quadratics (3^nt points), eigenspace sums Phi, Lambda and Psi Phi with
 * the multilinear weights (its eigenvalues are the multilinear
 * interpolation of lambda).  nt = 1 is DRGMPInterpolatePart. */
PetscErrorCode DRGMPInterpolateGrid(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], DRGMPMethod method, PetscBool want_psi, DRGMPRom *out);
/* The same with a registered method given by name. */
PetscErrorCode DRGMPInterpolateGridByName(PetscInt nt, const PetscInt npts[], const DRGMPRom grid[], const PetscReal theta[], const char *method, PetscBool want_psi, DRGMPRom *out);
/* Eigenpairs (lambda, Phi) of a reduced model's pencil (K, M), rigid
 * coordinates condensed exactly, the deformation pencil solved by
 * DRDenseEigen (full relative accuracy of the high
 * eigenvalues); *ok false when M is not positive definite (an interpolant
 * can lose definiteness near veering). */
PetscErrorCode DRGMPRomEigen(DRGMPRom *rom, PetscBool *ok);
PetscErrorCode DRGMPReducedEigen(PetscInt n, PetscInt nt, const PetscReal *K, const PetscReal *M, PetscReal *lambda, PetscReal *Phi, PetscBool *ok);
/* dM/dtheta and dK/dtheta of the interpolant (for the equations of motion). */
PetscErrorCode DRGMPInterpolateDerivative(PetscInt ngrid, const DRGMPRom grid[], PetscReal theta, DRGMPMethod method, PetscReal *dM, PetscReal *dK);
/* The unreduced flexible slider-crank with full nonlinear kinematics
 * (src/gmp/flexref.c; or arm3d driven at the elbow with the yaw held, the
 * planar motion in the vertical plane through link 1, theta0 the
 * elevation): planar co-rotational beams on the mechanism's mesh,
 * the joints eliminated exactly (linear in absolute nodal coordinates),
 * consistent mass in the current chord frame; the reference of the GMP
 * transient (gmp.transient.reference: nonlinear).  Sequential (one rank's
 * work: 3 (nel1 + nel2 + 2) - 5 unknowns).  Displacements q (ndof, the
 * mechanism's DOF layout) are measured from rho(theta0). */
typedef struct _p_DRGMPFlexRef *DRGMPFlexRef;
PetscErrorCode DRGMPFlexRefCreate(DRMechanism m, PetscReal theta0, DRGMPFlexRef *r);
PetscErrorCode DRGMPFlexRefGetSizes(DRGMPFlexRef r, PetscInt *ndof, PetscInt *nfree);
/* Static equilibrium with theta held under nodal loads fext (ndof). */
PetscErrorCode DRGMPFlexRefStatic(DRGMPFlexRef r, const PetscReal fext[], PetscReal q[]);
/* From rest in rho(theta0): the torque tau = T0 sin(2 pi f t) for t < 1/(4 f),
 * then T0, on the crank's rotation at O; TSALPHA2 (rho_inf = 1), step h. */
PetscErrorCode DRGMPFlexRefSolve(DRGMPFlexRef r, PetscReal T0, PetscReal ramp_hz, PetscReal h, PetscReal tend);
/* The recorded steps (0 = initial): time, crank angle theta (rotation at O),
 * crank-end deflection normal to the crank's root tangent (as the reduced
 * transient's), slider position x_B, energy T + V, work of the torque. */
PetscErrorCode DRGMPFlexRefGetHistory(DRGMPFlexRef r, PetscInt *n, const PetscReal **t, const PetscReal **theta, const PetscReal **w, const PetscReal **xslider, const PetscReal **energy, const PetscReal **work);
PetscErrorCode DRGMPFlexRefDestroy(DRGMPFlexRef *r);
/* arm3d with the yaw and the elbow driven (src/gmp/flexref3.c): the
 * unreduced spatial arm, co-rotational beams with finite 3-D rotations on
 * the mechanism's mesh, the base a revolute about z (yaw_free; else
 * clamped) and the elbow a revolute about a2, both eliminated exactly;
 * from rest in rho(theta0) (theta0 = yaw, elevation).  Solve: the yaw
 * motor's torque T0[0] and the elbow's T0[1], each with the ramp of
 * DRGMPFlexRefSolve.  History: time, yaw, the elbow's relative rotation
 * plus theta0[1] (as DRGMPFlexRef's theta), link 2's tip relative to the
 * elbow along link 2's root normal in the arm's plane (its w), the tip
 * relative to the base along the plane's normal (out of the plane), the
 * energy T + V and the motors' work. */
typedef struct _p_DRGMPFlexRef3 *DRGMPFlexRef3;
PetscErrorCode DRGMPFlexRef3Create(DRMechanism m, const PetscReal theta0[2], PetscBool yaw_free, DRGMPFlexRef3 *r);
PetscErrorCode DRGMPFlexRef3GetSizes(DRGMPFlexRef3 r, PetscInt *nfree);
PetscErrorCode DRGMPFlexRef3Solve(DRGMPFlexRef3 r, const PetscReal T0[2], PetscReal ramp_hz, PetscReal h, PetscReal tend);
PetscErrorCode DRGMPFlexRef3GetHistory(DRGMPFlexRef3 r, PetscInt *n, const PetscReal **t, const PetscReal **yaw, const PetscReal **theta, const PetscReal **w, const PetscReal **wlat, const PetscReal **energy, const PetscReal **work);
PetscErrorCode DRGMPFlexRef3Destroy(DRGMPFlexRef3 *r);
#endif
