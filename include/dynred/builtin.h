/* dynred: built-in finite-element models.
 *
 * Parametric models for the demo, tests and benchmarks, sized from a few
 * DOFs to millions.  Each generator builds one component (optionally one
 * part of a model cut into `parts` slabs along an axis) on the given
 * communicator, assembled in parallel from its own elements only, exactly as
 * an FE code exports separate parts: parts share interface nodes by label.
 *
 * Node ids are 1-based.  DOF directions: 1..3 translations, 4..6 rotations.
 * Clamped DOFs are removed; a clamped node keeps its coordinates.
 */
#ifndef DYNRED_BUILTIN_H
#define DYNRED_BUILTIN_H

#include <dynred/component.h>

/* Where a model is clamped: "none", or a comma list of faces x0 x1 y0 y1 z0 z1
 * (the nodes on the plane x = 0, x = lx, ...). */
#define DR_CLAMP_MAX 64

/* Cut into `parts` slabs along axis 'x', 'y' or 'z'; parts = 1: no cut. */
typedef struct {
  char     axis;
  PetscInt parts;
} DRCut;

/* (a) 3D linear-elastic box of 8-node hexahedra (trilinear, 2x2x2 Gauss,
 *     consistent mass), origin at (x0, y0, z0); a cantilever plate when thin. */
typedef struct {
  PetscReal lx, ly, lz, x0, y0, z0;
  PetscInt  nx, ny, nz;
  PetscReal E, nu, rho;
  char      clamp[DR_CLAMP_MAX];
  PetscInt  node_offset; /* added to every node id: lets blocks be combined */
} DRSolidParams;
PetscErrorCode DRSolidParamsDefault(DRSolidParams *p);
PetscErrorCode DRBuiltinSolid(MPI_Comm comm, const DRSolidParams *p, DRCut cut, PetscInt part, DRComponent *c);

/* Beam cross-section and material (SI units unless the caller is consistent
 * in others). */
typedef struct {
  PetscReal E, G, rho;
  PetscReal A, Iy, Iz, J; /* Iz bends in the local x-y plane */
} DRBeamSection;

/* (b) 3D frame of 2-node Euler-Bernoulli beams, 6 DOF per node: a regular
 *     space frame of nx x ny x nz bays of size lx/nx ..., each member divided
 *     into `nel` elements; nx = ny = 0 with nz > 0 or other degenerate
 *     choices give a straight beam along the one non-zero axis. */
typedef struct {
  PetscReal     lx, ly, lz;
  PetscInt      nx, ny, nz, nel;
  DRBeamSection sec;
  PetscBool     lumped;
  char          clamp[DR_CLAMP_MAX];
} DRFrame3DParams;
PetscErrorCode DRFrame3DParamsDefault(DRFrame3DParams *p);
PetscErrorCode DRBuiltinFrame3D(MPI_Comm comm, const DRFrame3DParams *p, DRCut cut, PetscInt part, DRComponent *c);

/* (c) Planar frame (x-y plane), 3 DOF per node (directions 1, 2, 6):
 *     arbitrary nodes and members given as lists, lumped or consistent mass,
 *     hinges (a member end whose rotation is released).  A hinge at a member
 *     end gives that end its own node id whose only DOF is the rotation (dir
 *     6); its translations are the original node's.  Springs between nodes
 *     (k along the line joining them) model e.g. a shock absorber. */
typedef struct {
  PetscInt       nnodes;
  PetscInt      *node_ids;   /* nnodes */
  PetscReal     *xy;         /* 2*nnodes */
  PetscInt       nmembers;
  PetscInt      *members;    /* 2*nmembers node ids */
  PetscInt      *hinge;      /* 2*nmembers flags (released end rotation) or NULL */
  PetscInt      *nel;        /* elements per member, or NULL for 1 */
  DRBeamSection *sec;        /* nmembers sections, or one when nsec = 1 */
  PetscInt       nsec;
  PetscBool      lumped;
  PetscInt       nsprings;
  PetscInt      *springs;    /* 2*nsprings node ids */
  PetscReal     *spring_k;   /* nsprings */
  PetscInt       nfixed;     /* fixed DOF labels (node, dir) */
  DRLabel       *fixed;
} DRFrame2DParams;
PetscErrorCode DRBuiltinFrame2D(MPI_Comm comm, const DRFrame2DParams *p, DRComponent *c);
/* A straight planar cantilever of length L along x, nel elements, clamped at
 * x = 0: the reference case for the Euler-Bernoulli convergence test. */
PetscErrorCode DRBuiltinCantilever2D(MPI_Comm comm, PetscReal L, PetscInt nel, const DRBeamSection *sec, PetscBool lumped, DRComponent *c);

/* Element matrices (exposed for the element tests). Dense, row-major.
 * Hex8: 24x24, node order of VTK_HEXAHEDRON, DOFs node-major (ux uy uz). */
PetscErrorCode DRHex8Matrices(const PetscReal xyz[24], PetscReal E, PetscReal nu, PetscReal rho, PetscReal Ke[576], PetscReal Me[576]);
/* 3D beam: 12x12 in global coordinates; vref orients the local y axis. */
PetscErrorCode DRBeam3DMatrices(const PetscReal x1[3], const PetscReal x2[3], const PetscReal vref[3], const DRBeamSection *s, PetscBool lumped, PetscReal Ke[144], PetscReal Me[144]);
/* Planar beam: 6x6 in global coordinates (u1 v1 r1 u2 v2 r2). */
PetscErrorCode DRBeam2DMatrices(const PetscReal x1[2], const PetscReal x2[2], const DRBeamSection *s, PetscBool lumped, PetscReal Ke[36], PetscReal Me[36]);

#endif
