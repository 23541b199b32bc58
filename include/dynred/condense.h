/* dynred: condensation of a model onto a master DOF set with one shared
 * factorization of K0 (METHODS.md 1.4 and 4).
 *
 * A DRCondense object factors K0 once (MUMPS Cholesky on its communicator)
 * and then condenses onto any number of master sets, each costing only block
 * solves with that factor: what a GA needs, where thousands of master sets
 * are tried on the same model.  Every method is written with the flexibility
 * of the full model, never with a factorization of K_ss:
 *
 *   Guyan   X = K0^{-1} E_m,  T_G = X X_mm^{-1}   (the static response to
 *           forces at the masters only, = [I; -K_ss^{-1} K_sm] permuted)
 *   IRS     T = T_G + S M T_G M_G^{-1} K_G with S y = z - T_G z_m,
 *           z = K0^{-1} y  (= [0 0; 0 K_ss^{-1}] y, the slave response with
 *           the masters held)
 *   IDC     iterative dynamic condensation (Qu-Fu), Q = K0^{-1} M:
 *           R0 = Q_sm Q_mm^{-1};  R <- (Q_sm + Q_ss R)(Q_mm + Q_ms R)^{-1},
 *           i.e. T <- Q T normalized by its master rows (T_mm = I) at every
 *           step; `inner` steps per outer step; after each outer step the
 *           reduced eigenvalues are compared with the previous ones and the
 *           iteration stops when the tracked frequencies change by less than
 *           `tol` (relative).  With M block diagonal between masters and
 *           slaves (lumped mass) R0 is exactly Guyan; converged, the reduced
 *           eigenvalues are the r lowest of the full model (block subspace
 *           iteration), always from above.
 *
 * Reduced matrices K_R = T^T K0 T, M_R = T^T M T (r x r, column-major,
 * replicated on every rank of the communicator), eigenvalues by LAPACK
 * dsygv.  Small models on one process (n <= dense_max) keep K0^{-1} and
 * Q = K0^{-1} M as dense arrays, computed once from the factorization, so an
 * evaluation is a few small GEMMs; larger or distributed models do block
 * solves with the MUMPS factor per evaluation.
 *
 * A master set that cannot be condensed (X_mm or Q_mm singular: a massless
 * master, or M_R not positive definite) is reported through the status, never
 * as an error, so an optimizer can penalize it.
 */
#ifndef DYNRED_CONDENSE_H
#define DYNRED_CONDENSE_H

#include <dynred/sys.h>
#include <petscmat.h>

typedef struct _p_DRCondense *DRCondense;

/* Built-in methods (registry names) */
#define DRCONDENSE_GUYAN "guyan"
#define DRCONDENSE_IRS   "irs"
#define DRCONDENSE_IDC   "idc"

typedef enum {
  DR_CONDENSE_OK = 0,
  DR_CONDENSE_SINGULAR_MASTERS, /* X_mm or Q_mm singular (massless master, ...) */
  DR_CONDENSE_MASS_NOT_PD,      /* M_R (or M_G in IRS) not positive definite */
  DR_CONDENSE_STIFFNESS_NOT_PD, /* a reduced eigenvalue <= 0 */
} DRCondenseStatus;
const char *DRCondenseStatusString(DRCondenseStatus s);

typedef struct {
  DRCondenseStatus status;
  PetscInt         outer;     /* IDC outer steps taken (0: Guyan start only) */
  PetscBool        converged; /* IDC met tol within the outer limit */
  PetscReal        change;    /* IDC last relative frequency change */
} DRCondenseInfo;

/* A condensation method (registry entry): builds the basis and K_R, M_R and
 * their eigenvalues inside c; an infeasible set is reported via info. */
typedef PetscErrorCode (*DRCondenseFn)(DRCondense, PetscInt r, const PetscInt masters[], DRCondenseInfo *info);
PetscErrorCode DRCondenseRegister(const char name[], DRCondenseFn fn);
/* Registers the built-in methods (once; called by DRCondenseCreate). */
PetscErrorCode DRCondenseRegisterAll(void);

/* K0 (stiffness incl. absorber springs) and M on the same communicator and
 * row layout.  K0 must be symmetric positive definite (a supported model). */
PetscErrorCode DRCondenseCreate(Mat K0, Mat M, DRCondense *c);
PetscErrorCode DRCondenseDestroy(DRCondense *c);
/* "guyan" | "irs" | "idc" (default) or a registered name; an unknown name
 * is a one-line input error listing the known ones. */
PetscErrorCode DRCondenseSetType(DRCondense c, const char type[]);
PetscErrorCode DRCondenseGetType(DRCondense c, const char **type);
/* IDC: inner steps per outer step (>= 1), outer steps (>= 0), relative
 * frequency tolerance, number of lowest frequencies tracked (0: all r). */
PetscErrorCode DRCondenseSetIDC(DRCondense c, PetscInt inner, PetscInt outer, PetscReal tol, PetscInt ntrack);
/* Keep dense K0^{-1} and K0^{-1} M when on one process and n <= dense_max
 * (default 4000; 0 disables). */
PetscErrorCode DRCondenseSetDenseMax(DRCondense c, PetscInt dense_max);
/* Factor K0 (and form the dense operators).  Collective. */
PetscErrorCode DRCondenseSetUp(DRCondense c);
/* Condense onto masters (r global row indices, ascending).  KR, MR (r*r,
 * column-major, may be NULL), lam (r, ascending reduced eigenvalues, may be
 * NULL) on every rank.  Collective; never fails on an infeasible set. */
PetscErrorCode DRCondenseReduce(DRCondense c, PetscInt r, const PetscInt masters[], PetscReal *KR, PetscReal *MR, PetscReal *lam, DRCondenseInfo *info);
/* The basis of the last Reduce on this rank's rows (nloc x r, column-major,
 * rows in K0's local ownership order); owned by c, valid until the next call. */
PetscErrorCode DRCondenseGetBasis(DRCondense c, PetscInt *nloc, PetscInt *r, const PetscReal **T);
/* Dense generalized eigenvalues of (K, M), r x r, ascending; status
 * DR_CONDENSE_MASS_NOT_PD when M is not positive definite.  No error. */
PetscErrorCode DRCondenseEigenvalues(PetscInt r, const PetscReal *K, const PetscReal *M, PetscReal *lam, DRCondenseStatus *status);


#endif
