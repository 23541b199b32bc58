/* dynred sysred: private layout of DRSysRed and the Fortran interfaces
 * (SLICOT, LAPACK).  Internal matrices are column-major (Fortran). */
#ifndef DYNRED_SYSREDIMPL_H
#define DYNRED_SYSREDIMPL_H

#include <petscts.h>
#include <dynred/sysred.h>
#include <dynred/ss.h>
#include <dynred/units.h>
#include <complex.h>
#include <stddef.h>

typedef struct {
  PetscInt   n, m, p;
  PetscReal *A, *B, *C, *D; /* n x n, n x m, p x n, p x m; column-major */
} DRLTI;
PetscErrorCode DRLTIAlloc(PetscInt n, PetscInt m, PetscInt p, DRLTI *s);
PetscErrorCode DRLTIFree(DRLTI *s);
PetscErrorCode DRLTICopy(const DRLTI *a, DRLTI *b);

/* second-order model M q'' + D q' + K q = B u, y = C q (column-major) */
typedef struct {
  PetscInt   n, m, p;
  PetscReal *M, *D, *K, *B, *C;
} DRSecondOrder;
PetscErrorCode DRSecondOrderAlloc(PetscInt n, PetscInt m, PetscInt p, DRSecondOrder *so);
PetscErrorCode DRSecondOrderFree(DRSecondOrder *so);
PetscErrorCode DRSecondOrderProject(const DRSecondOrder *so, PetscInt r, const PetscReal *V, const PetscReal *W, DRSecondOrder *red);

/* energy flow per modal coordinate and per substructure of a CMS model
 * (energy_sub.c; method energy, model modal): m modes, ns substructures */
typedef struct {
  PetscInt   m, ns, nin;
  char       cms[PETSC_MAX_PATH_LEN];
  char     (*name)[64];
  PetscReal *Mh, *Kh;        /* ns blocks m x m: Phi_s^T M_s Phi_s, Phi_s^T K_s Phi_s */
  PetscInt  *owner;          /* nin: substructure holding the input's DOF (first one) */
  PetscReal  mpart, kpart;   /* max |sum_s Mh - I|, max |sum_s Kh - K| / max K */
  /* modes: P_k = eta_k' (B u)_k, the power of the forces on mode k */
  PetscReal *mact, *mp2, *mwork, *mdiss, *menergy, *mact_pct, *mp2_pct;
  /* substructures: P_s = v_s^T f_s, f_s the external and interface forces on s */
  PetscReal *sact, *sp2, *swork, *sdiss, *senergy, *sext, *iact, *ip2, *sact_pct, *sp2_pct;
  PetscReal  win, dtot, eend;
} DREnergySub;

/* energy-based ranking (energy.c, energy_fit.c) */
enum { DR_ENERGY_ELEMENTS, DR_ENERGY_PISTON_CRANK, DR_ENERGY_MODAL };
enum { DR_EN_MASS, DR_EN_INERTIA, DR_EN_SPRING, DR_EN_DAMPER, DR_EN_FORCE };
typedef struct {
  int        kind;
  PetscInt   nq, nc, nt, out, maxit, iters;
  char (*name)[48];
  int       *type;
  PetscInt  *body, *di, *dj;   /* piston-crank: link 1..3; elements: dofs (dj -1: ground) */
  PetscReal *cout;             /* elements, modal: y = cout . q (nq) */
  PetscReal *fhz;              /* modal: the modes' frequencies [Hz] */
  PetscReal *par0, *par;       /* component values: full model, after the refit */
  PetscBool *on, *removed, *needed;
  PetscReal *act, *p2, *rel_act, *rel_p2, *work;
  PetscReal  l1, l2, h, rtol, thr;
  PetscBool  refit, use_activity;
  DRSignal   sig;
  PetscReal *y_full, *y_removed, *y_refit, *Q;
  PetscReal  err_before, err_after, max_before, max_after;
  DREnergySub sub;             /* modal: powers per mode and per substructure */
} DREnergy;
PetscErrorCode DREnergyAlloc(DREnergy *e);
PetscErrorCode DREnergyFree(DREnergy *e);
PetscErrorCode DREnergySetFromConfig(DRConfig cfg, DREnergy *e);
/* modal: the modes of a dynred ss result as unit masses, springs omega^2,
 * dampers c to the ground and forces input_map u (energy.c) */
PetscErrorCode DREnergyModal(DRConfig cfg, const DRSecondOrder *so, const char *where, DREnergy *e);
PetscErrorCode DREnergyForce(const DREnergy *e, PetscReal t, PetscReal f[]);
PetscErrorCode DREnergyMass(const DREnergy *e, const PetscReal q[], const PetscReal par[], const PetscBool on[], PetscReal Md[]);
PetscErrorCode DREnergyEval(const DREnergy *e, const PetscReal f[], const PetscReal q[], const PetscReal v[], const PetscReal par[], const PetscBool on[], PetscReal a[], PetscReal P[]);
PetscReal      DREnergyOutput(const DREnergy *e, const PetscReal q[]);
/* The TS of the energy simulations (RK5DP, tolerance e->rtol, to e->nt e->h,
 * steps landing on the requested time): energy.c and energy_sub.c */
PetscErrorCode DREnergyTSCreate(const DREnergy *e, PetscErrorCode (*rhs)(TS, PetscReal, Vec, Vec, void *), void *ctx, TS *ts);
PetscErrorCode DREnergySimulate(const DREnergy *e, const PetscReal par[], const PetscBool on[], PetscReal y[], PetscReal Q[], PetscReal act[], PetscReal p2[]);
PetscErrorCode DREnergyRank(DREnergy *e);
PetscErrorCode DREnergyView(const DREnergy *e, PetscViewer v);
PetscErrorCode DREnergyWrite(const DREnergy *e, DRStore st);
/* energy_sub.c: modal model only; cfg's sysred.energy.cms (may be empty: modes only) */
PetscErrorCode DREnergySubSetUp(DRConfig cfg, const DRSecondOrder *so, const char *sspath, DREnergySub *sb);
PetscErrorCode DREnergySubSolve(const DREnergy *e, const DRSecondOrder *so, DREnergySub *sb);
PetscErrorCode DREnergySubView(const DREnergy *e, PetscViewer v);
PetscErrorCode DREnergySubWrite(const DREnergySub *sb, DRStore st);
PetscErrorCode DREnergySubFree(DREnergySub *sb);

struct _p_DRSysRed {
  MPI_Comm  comm;
  DRConfig  cfg;
  char      method[16], where[PETSC_MAX_PATH_LEN + 64]; /* where: the source's description for messages */
  PetscInt  order, nw;
  PetscReal tol, minreal_tol, marginal_tol, wmin, wmax;
  PetscBool split, setup, solved, lowrank;
  PetscReal lr_tol;
  PetscInt  lr_maxit, lr_ncv, lr_shifts, lr_adi_maxit;
  char      lr_solver[16];  /* auto | krylov | adi */
  char      lr_how[256];    /* which solver made the factors (log, /sysred attribute) */
  DRLTI     full, red;
  /* results */
  PetscInt   nu, ns, nmin; /* states kept exactly, stable states, order of the minimal stable part */
  PetscReal  alpha;        /* split: relative threshold tol (marginal_tol): s kept when Re(s) >= -(tol |s| + a0) or |s| <= z0 */
  PetscReal  a0, z0;       /* the split's absolute floors (dense.c) */
  PetscReal *hsv, bound;   /* ns Hankel singular values, error bound */
  PetscReal *T, *Ti;       /* n x r, r x n (bt, spa, minreal, pod; sobt: on the positions) */
  PetscReal *omega, *Gf, *Gr; /* nw; nw x p x m complex as (re, im) pairs, row-major over (w, i, j) */
  PetscReal  frf_max, frf_hinf, frf_ref;
  PetscReal  seconds;
  /* unit system: the source file's root attribute units,
   * else model.units (default SI); frequencies in Hz = omega / (2 pi time_s) */
  char       srcpath[PETSC_MAX_PATH_LEN];
  DRUnits    units;
  /* pod */
  PetscInt   nsnap;
  PetscReal *X, pod_discarded; /* n x nsnap snapshots; discarded energy fraction */
  char       snapwhere[PETSC_MAX_PATH_LEN + 300];
  /* time response (sim.c) */
  PetscReal  sim_t_end, sim_h, sig_a, sig_t0, sig_f, sig_rise, sig_hold, sig_fall, sim_err;
  int        sig_type; /* DRSignalType */
  PetscInt   nsim;
  PetscReal *Yf, *Yr; /* (nsim+1) x p row-major */
  DREnergy   en;       /* method energy */
  DRSecondOrder so, sored; /* method sobt: the model and the reduced one */
};

extern PetscClassId  DR_SYSRED_CLASSID;
extern PetscLogEvent DR_SYSRED_Read, DR_SYSRED_Minreal, DR_SYSRED_Split, DR_SYSRED_Balance, DR_SYSRED_FRF, DR_SYSRED_Write, DR_SYSRED_Energy, DR_SYSRED_Substructures;

/* source.c: A, B, C[, D] from an HDF5 group or Matrix Market files */
PetscErrorCode DRSysRedReadH5(const char *path, const char *group, DRLTI *s);
PetscErrorCode DRSysRedReadMtx(PetscInt nfiles, char *const files[], DRLTI *s);
/* snapshots [N, n] (one state per row) as column-major n x N */
PetscErrorCode DRSysRedReadSnapshots(const char *path, const char *dset, PetscInt n, PetscInt *N, PetscReal **X);
/* sim.c: time responses of full and reduced system */
PetscErrorCode DRSysRedSimulate(DRSysRed s);
/* pod.c */
PetscErrorCode DRSysRedPOD(DRSysRed s);
/* sysred.c: the state-space reduction by s->method */
PetscErrorCode DRSysRedReduce(DRSysRed s);
/* sobt.c: second-order balanced truncation (pv) */
PetscErrorCode DRSysRedSecondOrder(DRSysRed s);
/* source.c: M, D, K, B (or input_map), C (or output_map) of a group */
PetscErrorCode DRSysRedReadSO(const char *path, const char *group, DRSecondOrder *so);
/* dense.c */
PetscErrorCode DRSysRedMinreal(DRSysRed s);
PetscErrorCode DRSysRedBalanced(DRSysRed s, PetscBool spa);
/* dense.c: the per-pole split rule and its floors from ||A||_F */
PetscBool DRSysRedPoleKept(PetscReal wr, PetscReal wi, PetscReal tol, PetscReal a0, PetscReal z0);
void      DRSysRedSplitFloors(PetscReal nrmF, PetscReal *a0, PetscReal *z0);
/* the stable order from sysred.order / sysred.tol and s->hsv; sets nmin, bound */
PetscErrorCode DRSysRedChooseOrder(DRSysRed s, PetscInt *rs);
/* lowrank.c: bt with low-rank Gramian factors (SLEPc LME) */
PetscErrorCode DRSysRedLowRank(DRSysRed s);
/* adi.c: low-rank ADI factors of A X + X A^T = -F F^T (A dense replicated
 * column-major n x n, solved distributed with MUMPS) */
typedef struct _DRADI *DRADI;
PetscErrorCode DRADICreate(MPI_Comm comm, PetscInt n, const PetscReal *A, PetscBool trans, DRADI *adi);
PetscErrorCode DRADISolve(DRADI c, const PetscReal *A, PetscInt m, const PetscReal *F, PetscInt nc, const PetscReal *cr, const PetscReal *ci, PetscInt l0, PetscReal tol, PetscInt maxit, PetscInt *k, PetscReal **Z, PetscInt *its, PetscReal *res, PetscInt *nsh);
PetscErrorCode DRADIPenzl(PetscInt nc, const PetscReal *cr, const PetscReal *ci, PetscInt l0, PetscInt *l, PetscReal *pr, PetscReal *pi);
PetscErrorCode DRADIDestroy(DRADI *adi);
/* blocks.c: the blocks of a block-diagonal A with 1x1 and 2x2 blocks of
 * adjacent states (bs: n + 1 entries; block b = states bs[b]..bs[b+1]-1;
 * *nb = 0 when A has another form, O(n^2) to check), the poles of block b */
PetscErrorCode DRLTIBlocks(const DRLTI *f, PetscInt *nb, PetscInt *bs);
void           DRLTIBlockPoles(const DRLTI *f, const PetscInt *bs, PetscInt b, PetscReal *wr, PetscReal *wi);
/* frf.c: frequency grid, responses of full and reduced system, errors */
PetscErrorCode DRSysRedFRF(DRSysRed s);

/* Fortran: SLICOT 5.0 (libslicot) and LAPACK; character arguments carry
 * hidden lengths (size_t, gfortran >= 8) at the end. */
typedef int fint;
void tb01pd_(const char *job, const char *equil, const fint *n, const fint *m, const fint *p, double *a, const fint *lda, double *b, const fint *ldb, double *c, const fint *ldc, fint *nr, const double *tol, fint *iwork, double *dwork, const fint *ldwork, fint *info, size_t, size_t);
void tb01ud_(const char *jobz, const fint *n, const fint *m, const fint *p, double *a, const fint *lda, double *b, const fint *ldb, double *c, const fint *ldc, fint *ncont, fint *indcon, fint *nblk, double *z, const fint *ldz, double *tau, const double *tol, fint *iwork, double *dwork, const fint *ldwork, fint *info, size_t);
void ab09ax_(const char *dico, const char *job, const char *ordsel, const fint *n, const fint *m, const fint *p, fint *nr, double *a, const fint *lda, double *b, const fint *ldb, double *c, const fint *ldc, double *hsv, double *t, const fint *ldt, double *ti, const fint *ldti, const double *tol, fint *iwork, double *dwork, const fint *ldwork, fint *iwarn, fint *info, size_t, size_t, size_t);
void ab09bx_(const char *dico, const char *job, const char *ordsel, const fint *n, const fint *m, const fint *p, fint *nr, double *a, const fint *lda, double *b, const fint *ldb, double *c, const fint *ldc, double *d, const fint *ldd, double *hsv, double *t, const fint *ldt, double *ti, const fint *ldti, const double *tol1, const double *tol2, fint *iwork, double *dwork, const fint *ldwork, fint *iwarn, fint *info, size_t, size_t, size_t);
typedef fint (*DRSelect2)(const double *, const double *);
void dgees_(const char *jobvs, const char *sort, DRSelect2 select, const fint *n, double *a, const fint *lda, fint *sdim, double *wr, double *wi, double *vs, const fint *ldvs, double *work, const fint *lwork, fint *bwork, fint *info, size_t, size_t);
void dtrsyl_(const char *trana, const char *tranb, const fint *isgn, const fint *m, const fint *n, const double *a, const fint *lda, const double *b, const fint *ldb, double *c, const fint *ldc, double *scale, fint *info, size_t, size_t);
typedef fint (*DRSelectZ)(const double _Complex *);
void zgees_(const char *jobvs, const char *sort, DRSelectZ select, const fint *n, double _Complex *a, const fint *lda, fint *sdim, double _Complex *w, double _Complex *vs, const fint *ldvs, double _Complex *work, const fint *lwork, double *rwork, fint *bwork, fint *info, size_t, size_t);
void ztrtrs_(const char *uplo, const char *trans, const char *diag, const fint *n, const fint *nrhs, const double _Complex *a, const fint *lda, double _Complex *b, const fint *ldb, fint *info, size_t, size_t, size_t);
void zgesvd_(const char *jobu, const char *jobvt, const fint *m, const fint *n, double _Complex *a, const fint *lda, double *s, double _Complex *u, const fint *ldu, double _Complex *vt, const fint *ldvt, double _Complex *work, const fint *lwork, double *rwork, fint *info, size_t, size_t);
void dgesvd_(const char *ju, const char *jv, const fint *m, const fint *n, double *a, const fint *lda, double *s, double *u, const fint *ldu, double *vt, const fint *ldvt, double *work, const fint *lwork, fint *info, size_t, size_t);
void dgemm_(const char *ta, const char *tb, const fint *m, const fint *n, const fint *k, const double *alpha, const double *a, const fint *lda, const double *b, const fint *ldb, const double *beta, double *c, const fint *ldc, size_t, size_t);

/* C = op(A) op(B) (+ beta C), column-major, sizes from the op'ed shapes */
PetscErrorCode DRGemm(char ta, char tb, PetscInt m, PetscInt n, PetscInt k, PetscReal alpha, const PetscReal *a, PetscInt lda, const PetscReal *b, PetscInt ldb, PetscReal beta, PetscReal *c, PetscInt ldc);

#endif
