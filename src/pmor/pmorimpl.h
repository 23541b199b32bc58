/* Private layout of DRPMOR (include/dynred/pmor.h). */
#ifndef DYNRED_PMORIMPL_H
#define DYNRED_PMORIMPL_H
#include <dynred/pmor.h>
#include <dynred/component.h>
#include <dynred/model.h>
#include <dynred/modal.h>
#include <dynred/farm.h>
#include <dynred/units.h>
#include <petscksp.h>

extern PetscClassId  DRPMOR_CLASSID;
extern PetscLogEvent DRPMOR_SetUp, DRPMOR_Eigen, DRPMOR_Static, DRPMOR_Project, DRPMOR_Transform, DRPMOR_FRF, DRPMOR_Sim, DRPMOR_Write;

/* a rank group's own copy of what its tasks need (the factorization of K,
 * or of the dynamic stiffness) */
typedef struct {
  MPI_Comm    key;    /* the farm's group communicator this was built for */
  MPI_Comm    comm;   /* the communicator of K, M (not owned) */
  DRComponent model;  /* NULL: the world model serves (one group) */
  Mat         K, M;   /* borrowed from model or the world model */
  KSP         ksp;    /* MUMPS Cholesky of K (static modes) */
  PetscInt   *rows;   /* global rows of the path DOFs */
} DRPMORGroup;

struct _p_DRPMOR {
  MPI_Comm    comm;
  DRConfig    cfg;
  char        output[PETSC_MAX_PATH_LEN], ckpt[PETSC_MAX_PATH_LEN + 16], ckpt_frf[PETSC_MAX_PATH_LEN + 16], sig[1024];
  /* options */
  PetscInt    nmodes, dir, every, refine, nfreq, ref;
  PetscReal   tol, fmin, fmax, alpha, beta;
  char        method[32], weights[32], parameter[32], distribute[32], interp[32];
  PetscBool   closed, frf;
  /* the tool at the load point: M(p) = M + tool_m b b^T, K(p) = K + tool_k b b^T;
   * each: every support is its own task (own eigensolve and factorization) */
  PetscReal   tool_m, tool_k;
  PetscBool   each;
  /* model and path */
  DRComponent model;
  Mat         K, M;
  PetscInt    ndof, npath, *path_nodes, *path_rows;
  PetscReal  *path_p, period; /* parameter of every path node; period (closed) */
  PetscInt    k, *sup;        /* supports: path indices */
  PetscReal  *ps;             /* their parameters */
  /* reduction: W = [Phi | s_1 .. s_k], or (each) W = [V_1 .. V_k] */
  PetscInt    m, nw;          /* modes found, columns of W */
  PetscReal  *freq;           /* [m] Hz (each: the reference support's) */
  PetscReal  *sfreq;          /* [k x m] Hz of every support */
  PetscInt   *E;              /* [k x n] columns of W that form V_i */
  PetscReal  *GK, *GM, *GI;   /* W^T K W, W^T M W, W^T W [nw x nw] */
  PetscReal  *Wp;             /* rows of W at the path DOFs [npath x nw], row-major */
  PetscInt    n;              /* reduced size m + 1 */
  PetscReal  *raw, *T, *tr;   /* per support: raw ROM (M, K, B, C), T_i, transformed ROM */
  PetscReal  *S2;             /* spline second derivatives (NULL: linear) */
  PetscReal  *mf;             /* manifold interpolation (manifold.c; NULL: direct) */
  PetscInt    nindef;         /* midpoints where the interpolated M, K or D is not SPD */
  PetscReal   sv_ratio;       /* Panzer: sigma_n+1 / sigma_1 (what the truncation drops) */
  /* farm bookkeeping */
  PetscInt    computed, restored, ngroups, frf_computed, frf_restored;
  /* FRF */
  PetscInt    nfp;            /* p grid */
  PetscReal  *fp, *omega, *Hf, *Hr, *Hs, *err, *serr; /* Hf, Hr [nfp x nf x 2], Hs [k x nf x 2] */
  PetscReal   t_offline, t_frf, t_sim;
  /* moving-load simulation */
  PetscBool   sim;
  PetscInt    sim_n, sim_nfact;
  PetscReal   sim_tend, sim_h, sim_speed, sim_p0, sim_fmax, sim_ramp;
  PetscReal  *sim_t, *sim_yf, *sim_yr, sim_emax, sim_erms, sim_wfull, sim_wred;
};

/* layout of the per-support arrays raw / tr: M, K, B, C of size n*n, n*n, n, n */
#define DRPMOR_ROMLEN(n) (2 * (n) * (n) + 2 * (n))

PetscErrorCode DRPMORSplineSetUp(PetscInt k, const PetscReal x[], PetscReal period, PetscReal **S2);
PetscErrorCode DRPMORWeightsEval(PetscInt k, const PetscReal x[], const PetscReal *S2, PetscReal period, PetscReal p, PetscReal w[]);
/* load distribution: the coefficients of b(p) over the path nodes (at most 3) */
#define DRPMOR_NLOAD 3
PetscErrorCode DRPMORLoadAt(DRPMOR pm, PetscReal p, PetscInt idx[DRPMOR_NLOAD], PetscReal c[DRPMOR_NLOAD]);
/* path.c, pathset.c */
PetscErrorCode DRPMORPathFromSet(DRPMOR pm, const char *name, PetscReal *v, PetscInt *nv);
PetscErrorCode DRPMORPathSetUp(DRPMOR pm);
/* support.c */
PetscErrorCode DRPMORSupports(DRPMOR pm);
PetscErrorCode DRPMORRawROMs(DRPMOR pm); /* the Galerkin ROMs of the supports from their bases */
PetscErrorCode DRPMORGroupGet(DRPMOR pm, MPI_Comm group, DRPMORGroup *g);
PetscErrorCode DRPMORGroupDestroy(DRPMORGroup *g);
/* tool.c: K, M depend on p (the tool at the load point) */
PetscErrorCode DRPMORSupportsEach(DRPMOR pm);
PetscErrorCode DRPMORProject(DRPMOR pm, PetscInt nw, Vec *W);
PetscErrorCode DRPMORToolSM(DRPMOR pm, PetscReal w, PetscReal h[2]);
/* compat.c */
PetscErrorCode DRPMORTransform(DRPMOR pm);
/* sim.c */
PetscErrorCode DRPMORSimulate(DRPMOR pm);
/* frf.c */
PetscErrorCode DRPMORFRF(DRPMOR pm);
PetscErrorCode DRPMORReducedH(PetscInt n, const PetscReal *M, const PetscReal *K, const PetscReal *D, const PetscReal *B, const PetscReal *C, PetscReal w, PetscReal H[2]);
/* manifold.c */
PetscErrorCode DRPMORManifoldSetUp(DRPMOR pm);
PetscErrorCode DRPMORManifoldEval(DRPMOR pm, const PetscReal w[], PetscReal *M, PetscReal *K);
#endif
