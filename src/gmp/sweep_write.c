/* The GMP sweep's datasets: /gmp/grid, /gmp/labels, /gmp/elements,
 * /gmp/export (a source for dynred ss, with its mesh and mode shapes) and
 * /gmp/track (include/dynred/gmpsweep.h). */
#include <dynred/componentstore.h>
#include "sweepimpl.h"

/* Matrices are column-major in memory; datasets are row-major [.., row, col]. */
static void Transpose(PetscInt r, PetscInt c, const PetscReal *a, PetscReal *b)
{
  for (PetscInt i = 0; i < r; i++)
    for (PetscInt j = 0; j < c; j++) b[i * c + j] = a[i + j * r];
}

PetscErrorCode DRGMPSweepWriteGrid_Private(DRGMPSweep s, DRStore store)
{
  PetscInt        np = s->ngrid, n = s->n, ndof = s->ndof, nt = s->nt, dims[3], nn, dim, ne;
  PetscReal      *buf = NULL, *thbuf = NULL;
  const DRGMPRom *grid = s->grid;
  const DRLabel  *labels;
  const PetscInt *conn;
  PetscInt64     *c64 = NULL;
  PetscMPIInt     rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCall(DRMechanismGetSizes(s->mech, &dim, &nn, NULL, NULL));
  if (rank == 0) {
    PetscCall(PetscMalloc1(np * PetscMax(PetscMax(n * n, ndof * n), nn * 3) + np * DR_GMP_MAXTHETA, &buf));
    PetscCall(PetscMalloc1(np * nt, &thbuf));
    for (PetscInt i = 0; i < np; i++)
      for (PetscInt t = 0; t < nt; t++) thbuf[i * nt + t] = grid[i].theta[t];
  }
  dims[0] = np, dims[1] = nt;
  PetscCall(DRStoreWriteReal(store, "/gmp/grid/theta", 2, dims, thbuf, "rad"));
  dims[1] = n, dims[2] = n;
  if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(n, n, grid[i].M, buf + i * n * n);
  PetscCall(DRStoreWriteReal(store, "/gmp/grid/M", 3, dims, buf, NULL));
  if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(n, n, grid[i].K, buf + i * n * n);
  PetscCall(DRStoreWriteReal(store, "/gmp/grid/K", 3, dims, buf, NULL));
  if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(n, n, grid[i].Phi, buf + i * n * n);
  PetscCall(DRStoreWriteReal(store, "/gmp/grid/Phi", 3, dims, buf, NULL));
  dims[1] = n;
  if (rank == 0) for (PetscInt i = 0; i < np; i++) PetscCall(PetscArraycpy(buf + i * n, grid[i].lambda, n));
  PetscCall(DRStoreWriteReal(store, "/gmp/grid/lambda", 2, dims, buf, "rad^2/s^2"));
  if (s->shapes) {
    dims[1] = ndof, dims[2] = n;
    if (rank == 0) for (PetscInt i = 0; i < np; i++) Transpose(ndof, n, grid[i].Psi, buf + i * ndof * n);
    PetscCall(DRStoreWriteReal(store, "/gmp/grid/psi", 3, dims, buf, NULL));
  }
  dims[1] = nn, dims[2] = dim;
  if (rank == 0) for (PetscInt i = 0; i < np; i++) PetscCall(PetscArraycpy(buf + i * nn * dim, grid[i].xyz, nn * dim));
  PetscCall(DRStoreWriteReal(store, "/gmp/grid/rho", 3, dims, buf, "m"));
  PetscCall(DRMechanismGetLabels(s->mech, &labels));
  PetscCall(DRStoreWriteLabels(store, "/gmp/labels", ndof, labels));
  /* the beam elements (0-based node indices into /gmp/grid/rho), for
   * plotting the mode shapes */
  PetscCall(DRMechanismGetElements(s->mech, &ne, &conn));
  if (rank == 0) {
    PetscCall(PetscMalloc1(2 * ne, &c64));
    for (PetscInt i = 0; i < 2 * ne; i++) c64[i] = conn[i];
  }
  dims[0] = ne, dims[1] = 2;
  PetscCall(DRStoreWriteInt(store, "/gmp/elements", 2, dims, c64));
  PetscCall(PetscFree(c64));
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(thbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The mechanism at the export point as a mesh of 2-node lines (/mesh) and
 * its free-mechanism modes as nodal translations (/gmp/export/shapes/NNNN),
 * listed in OUTPUT.xdmf so ParaView shows them.  modes: rank 0's row-major
 * [ndof, n] (Psi Phi), freq: rank 0's frequencies [Hz]. */
static PetscErrorCode WriteExportShapes(DRStore store, DRMechanism mech, const PetscReal theta[], PetscInt n, const PetscReal *modes, const PetscReal *freq)
{
  DRComponent     c;
  PetscInt        nn, dim, ndof, ne;
  const PetscInt *conn;
  const DRLabel  *labels;
  PetscReal      *xyz;
  Vec            *v;
  char          **names;
  PetscMPIInt     rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(DRMechanismGetSizes(mech, &dim, &nn, &ndof, NULL));
  PetscCall(DRMechanismGetLabels(mech, &labels));
  PetscCall(DRMechanismGetElements(mech, &ne, &conn));
  PetscCall(DRComponentCreate(PETSC_COMM_WORLD, "mechanism", &c));
  PetscCall(PetscMalloc1(nn * dim, &xyz));
  PetscCall(DRMechanismConfigure(mech, theta, xyz, NULL));
  {
    PetscInt  *ids, *cells;
    PetscReal *x3;
    PetscCall(PetscMalloc3(nn, &ids, 3 * nn, &x3, 2 * ne, &cells));
    PetscCall(PetscArrayzero(x3, 3 * nn));
    for (PetscInt i = 0; i < nn; i++) {
      ids[i] = i + 1; /* the labels' node ids */
      for (PetscInt d = 0; d < dim; d++) x3[3 * i + d] = xyz[dim * i + d];
    }
    for (PetscInt e = 0; e < 2 * ne; e++) cells[e] = conn[e] + 1;
    PetscCall(DRComponentSetLabels(c, ndof, labels));
    PetscCall(DRComponentSetGeometry(c, nn, ids, x3));
    PetscCall(DRComponentSetCells(c, DR_CELL_LINE2, ne, cells));
    PetscCall(PetscFree3(ids, x3, cells));
  }
  PetscCall(PetscFree(xyz));
  PetscCall(DRComponentWriteMesh(c, store));
  PetscCall(PetscMalloc2(n, &v, n, &names));
  for (PetscInt k = 0; k < n; k++) {
    char name[64];
    PetscCall(VecCreateMPI(PETSC_COMM_WORLD, rank ? 0 : ndof, ndof, &v[k]));
    if (!rank) {
      PetscScalar *a;
      PetscCall(VecGetArray(v[k], &a));
      for (PetscInt i = 0; i < ndof; i++) a[i] = modes[i * n + k];
      PetscCall(VecRestoreArray(v[k], &a));
    }
    PetscCall(PetscSNPrintf(name, sizeof(name), "mode %02d (%.6g Hz)", (int)(k + 1), rank ? 0.0 : (double)freq[k]));
    PetscCall(PetscStrallocpy(name, &names[k]));
  }
  PetscCall(DRComponentWriteShapes(c, store, "/gmp/export", n, v, (const char *const *)names));
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(VecDestroy(&v[k]));
    PetscCall(PetscFree(names[k]));
  }
  PetscCall(PetscFree2(v, names));
  PetscCall(DRComponentDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One configuration's free-mechanism modes, in the layout dynred ss reads
 * (frequencies_hz, modes [ndof, n] mass-normalized, labels) */
PetscErrorCode DRGMPSweepWriteExport_Private(DRGMPSweep s, DRStore store)
{
  PetscInt        ex = s->export_point, np = s->ngrid, n = s->n, ndof = s->ndof, nt = s->nt;
  PetscReal      *buf = NULL, *fr, th[DR_GMP_MAXTHETA] = {0};
  const DRLabel  *labels;
  const DRGMPRom *grid = s->grid;
  PetscMPIInt     rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCheck(ex >= 0 && ex < np, s->comm, DR_ERR_INPUT, "gmp.export_point %" PetscInt_FMT ": expected a grid point index in [0, %" PetscInt_FMT ")", ex, np);
  if (rank == 0) {
    const DRGMPRom *r = &grid[ex];
    PetscCall(PetscMalloc1(ndof * n + n + nt, &buf));
    for (PetscInt i = 0; i < ndof; i++)
      for (PetscInt k = 0; k < n; k++) {
        PetscReal v = 0;
        for (PetscInt j = 0; j < n; j++) v += r->Psi[i + j * ndof] * r->Phi[j + k * n];
        buf[i * n + k] = v;
      }
  }
  PetscCall(DRStoreWriteReal(store, "/gmp/export/modes", 2, (PetscInt[]){ndof, n}, buf, NULL));
  PetscCall(PetscCalloc1(n, &fr));
  if (rank == 0) {
    for (PetscInt k = 0; k < n; k++) fr[k] = PetscSqrtReal(PetscMax(grid[ex].lambda[k], 0)) / (2 * PETSC_PI);
    PetscCall(PetscArraycpy(th, grid[ex].theta, nt));
  }
  PetscCallMPI(MPI_Bcast(th, DR_GMP_MAXTHETA, MPIU_REAL, 0, s->comm));
  PetscCall(WriteExportShapes(store, s->mech, th, n, buf, fr));
  PetscCall(PetscFree(fr));
  if (rank == 0)
    for (PetscInt k = 0; k < n; k++) buf[k] = PetscSqrtReal(PetscMax(grid[ex].lambda[k], 0)) / (2 * PETSC_PI);
  PetscCall(DRStoreWriteReal(store, "/gmp/export/frequencies_hz", 1, (PetscInt[]){n}, buf, "Hz"));
  PetscCall(DRMechanismGetLabels(s->mech, &labels));
  PetscCall(DRStoreWriteLabels(store, "/gmp/export/labels", ndof, labels));
  if (rank == 0) PetscCall(PetscArraycpy(buf, grid[ex].theta, nt));
  PetscCall(DRStoreWriteReal(store, "/gmp/export/theta", 1, (PetscInt[]){nt}, buf, "rad"));
  PetscCall(DRStoreAttrString(store, "/gmp/export", "description", "free-mechanism modes Psi Phi (mass-normalized, rigid mode(s) first, zero frequency) at grid point gmp.export_point: dynred ss -ss_source FILE -ss_group /gmp/export"));
  PetscCall(PetscFree(buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGMPSweepWriteTrack_Private(DRGMPSweep s, DRStore store)
{
  PetscInt    np = s->ngrid, dims[2] = {s->ngrid, s->opt.nmodes};
  PetscInt64 *vi = NULL;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(s->comm, &rank));
  PetscCall(DRStoreWriteReal(store, "/gmp/track/mac_diag", 2, dims, s->macd, NULL));
  if (rank == 0) {
    PetscCall(PetscMalloc1(np, &vi));
    for (PetscInt i = 0; i < np; i++) vi[i] = s->veer[i];
  }
  PetscCall(DRStoreWriteInt(store, "/gmp/track/veering", 1, dims, vi));
  PetscCall(PetscFree(vi));
  PetscCall(DRStoreAttrReal(store, "/gmp/track", "min_mac", s->macmin));
  PetscCall(DRStoreAttrReal(store, "/gmp/track", "mac_warn", s->macwarn));
  if (s->periodic[0] && s->nt == 1) PetscCall(DRStoreAttrReal(store, "/gmp/track", "periodic_closure", s->closure));
  PetscCall(DRStoreAttrString(store, "/gmp/track", "description", "mode order and sign made consistent from each grid point to its predecessor (theta1 neighbour, else the next axis): mass-weighted MAC with the predecessor's M, optimal assignment, signs so the diagonal cross-product is positive; mac_diag[i, j] = MAC of mode j with the predecessor; veering[i] = 1 when its smallest entry < mac_warn; periodic_closure = relative difference of modes between the last point and the first (a period apart)"));
  PetscCall(DRStoreAttrString(store, "/gmp/grid", "layout", "point i: theta[i, :]; M[i], K[i] the reduced matrices over eta = [theta | delta] (row-major [n, n]); lambda[i] and Phi[i] (columns = eigenvectors, mass-normalized) of the reduced pencil; psi[i] = [rigid modes | deformation modes] on the DOFs /gmp/labels ([ndof, n]); rho[i] = node coordinates of the undeformed configuration"));
  PetscCall(DRStoreAttrString(store, "/gmp", "mechanism", s->type));
  PetscCall(DRStoreAttrInt(store, "/gmp", "n_rigid", s->nt));
  PetscCall(DRStoreAttrInt(store, "/gmp", "n_deformation", s->opt.nmodes));
  PetscCall(DRStoreAttrString(store, "/gmp", "frame", s->p.chord ? (s->nt == 1 ? "chord: theta is the crank's chord angle; the last deformation column is the static response to a moment at O (gmp.frame)" : "chord: theta2 is the elevation of link 2's chord (elbow to tip); the last deformation column is the static response to the elbow motor's moment pair (gmp.frame)") : s->nt == 1 && !strcmp(s->type, "slider-crank") ? "hinge: theta is the crank's section rotation at O (gmp.frame)" : "the joint rotations"));
  PetscCall(DRStoreAttrReal(store, "/gmp", "second_moment_m4", s->p.Ib));
  PetscCall(DRStoreAttrReal(store, "/gmp", "slider_mass_kg", s->p.slider_mass));
  PetscCall(DRStoreAttrString(store, "/gmp", "beam", s->p.lumped ? "2-node Euler-Bernoulli beams (no shear deformation), lumped (HRZ) mass" : "2-node Euler-Bernoulli beams (no shear deformation), consistent mass"));
  PetscFunctionReturn(PETSC_SUCCESS);
}
