/* The GMP transient's private state (transient_setup.c reads the options
 * and sets up, transient.c integrates, transient_report.c measures and
 * writes). */
#ifndef DYNRED_GMP_TRANSIENTIMPL_H
#define DYNRED_GMP_TRANSIENTIMPL_H
#include "gmp_impl.h"
#include <dynred/gmpsweep.h>

typedef struct {
  PetscInt          ngrid;
  const DRGMPRom   *grid;    /* the sweep's tracked grid (rank 0) */
  DRGMPRomBuilder   builder; /* the exact ROMs (method 3), cached on PETSC_COMM_SELF */
  PetscInt          method;  /* 0..2 interpolation, 3 exact */
  PetscInt          n, ndof, tipdof[2];
  PetscBool         chord; /* gmp.frame chord: theta is the chord angle, the torque acts on the driven joint's rotation (DrivenRotation) */
  PetscReal         L1;
  /* arm3d: the elbow driven (theta = theta_2, the elevation), the yaw held
   * at the grid's one theta_1 (DRGMPRomHold drops its row and column) */
  PetscBool         arm;
  PetscReal         yaw, L2, d1[3], a2[3];
  PetscInt          dpn, ja, jb, jtip;
  /* arm3d with the yaw driven too (gmp.theta1 swept): eta = [yaw, theta2 |
   * delta] on the 2-D grid (npts), dM2, dK2 the derivatives along theta2
   * (dM, dK along the yaw), Ty the base motor's torque amplitude */
  PetscInt          ntd, npts[2];
  PetscReal         Ty, *dM2, *dK2;
  PetscReal         T0, fr, period, theta_lo;
  /* per-step model: M(th) ~ M0 + (th - th0) Mth (exact), or the interpolant */
  PetscReal         th0, *M0, *K0, *Mt, *Kt, *Psi0;
  DRGMPRom          ex; /* the last exact ROM (method 3): the next one is aligned with it */
  PetscReal        *M, *K, *dM, *dK, *Psi; /* work: the model at the current theta */
  /* recorded history */
  PetscInt          nrec, caprec;
  PetscReal        *t, *th, *w, *th1, *wl; /* th1, wl: the yaw and the tip out of the arm's plane (yaw driven) */
  /* size of the inertia terms the equations drop (methods 0..2): the
   * velocity field delta dPsi_d/dtheta theta' against the kept Psi eta',
   * lumped-mass norms (ml: per DOF), maxima over the run */
  PetscReal        *ml, *Psip, *Psim, vdrop, vkept;
  PetscInt          every;
  DRGMPNaets        na; /* Naets' terms (methods 0..2, gmp.transient.naets) */
} TrCtx;

struct _p_DRGMPTransient {
  MPI_Comm   comm;
  DRConfig   cfg;
  PetscBool  owncfg, on, solved;
  DRGMPSweep sweep;
  PetscReal  tend, h, theta0, window, T0, fr;
  PetscInt   every;
  TrCtx      c[4]; /* rank 0: linear, quadratic, eigenspace, exact */
  PetscReal  corr[3], thetaerr[3], phaseerr[3], werr[3], fdom, wall[4], thend;
  PetscBool  nonlinear; /* reference: the unreduced nonlinear mechanism instead of the exact ROM */
  PetscBool  naets;     /* Naets' terms in the methods' equations */
  PetscBool  yawdrive;  /* arm3d: the yaw driven too (the reference: the spatial arm, flexref3.c) */
  PetscReal  yaw0, Ty, yawerr[3], wlerr[3], wlcorr[3];
  DRMechanism mech;
  DRGMPRom  *hgrid; /* arm3d: the grid with the yaw held (rank 0) */
  PetscInt   nh;
};

/* Rank 0: the methods' errors against the reference (method 3). */
PetscErrorCode DRGMPTransientErrors_Private(DRGMPTransient tr);
#endif
