/* CMS results: the table (DRCMSView) and the store (DRCMSWrite: /cms
 * datasets, /timing, the merged mesh and the XDMF mode shapes). */
#include <dynred/componentstore.h>
#include "cmsimpl.h"

static const char *const phase_names[DR_CMS_NPHASE] = {"component_eigensolve", "constraint_modes", "projection", "gather", "assembly", "interface_reduction", "coupled_solve", "recovery", "error_estimate"};

PetscErrorCode DRCMSGetTimes(DRCMS c, PetscInt *nred, PetscInt *nphases, const char *const **names, const PetscReal **seconds)
{
  PetscFunctionBeginUser;
  if (nred) *nred = c->nred;
  if (nphases) *nphases = DR_CMS_NPHASE;
  if (names) *names = phase_names;
  if (seconds) *seconds = c->t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSView(DRCMS c, PetscViewer v)
{
  PetscBool ascii;
  char      line[512];

  PetscFunctionBeginUser;
  if (!v) v = PETSC_VIEWER_STDOUT_(c->comm);
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(c->solved, c->comm, PETSC_ERR_ORDER, "DRCMSView: call DRCMSSolve first");
  PetscCall(PetscViewerASCIIPrintf(v, "  component              DOFs  boundary  modes  method\n"));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscInt n;
    PetscCall(DRCMSComponentSize_Private(c, k, &n));
    PetscCall(PetscViewerASCIIPrintf(v, "  %-20s %7" PetscInt_FMT "  %8" PetscInt_FMT "  %5" PetscInt_FMT "  %s\n", c->names[k], n, c->nb[k], c->nq[k], c->methods[k]));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "  reduced system: %" PetscInt_FMT " coordinates (%" PetscInt_FMT " boundary, %" PetscInt_FMT " modal) for %" PetscInt_FMT " DOFs\n", c->nred, c->nbglob, c->nred - c->nbglob, c->nfull));
  if (c->iface && (c->iface_early ? c->pnbglob : c->nbglob) > 0) {
    PetscReal fhi = 0;
    size_t    len;
    if (!c->rank && c->ncc) fhi = c->ccfreq[c->ncc - 1];
    PetscCallMPI(MPI_Bcast(&fhi, 1, MPIU_REAL, 0, c->comm));
    PetscCall(PetscSNPrintf(line, sizeof(line), "  interface reduction%s: %" PetscInt_FMT " boundary coordinates -> %" PetscInt_FMT " CC modes (highest %.6g Hz", c->iface_early ? " before the projection" : "", c->iface_early ? c->pnbglob : c->nbglob, c->ncc, (double)fhi));
    PetscCall(PetscStrlen(line, &len));
    if (c->iface_auto) PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, ", chosen by cms.tol_pct from a first cutoff %.6g x %.6g Hz", (double)c->iface_factor, (double)c->fmax));
    else if (c->iface_factor > 0) PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, ", cutoff %.6g x %.6g Hz", (double)c->iface_factor, (double)c->fmax));
    PetscCall(PetscStrlen(line, &len));
    PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, "); coupled system %" PetscInt_FMT " -> %" PetscInt_FMT " coordinates\n", c->nred, c->ncoupled));
    PetscCall(PetscViewerASCIIPrintf(v, "%s", line));
  }
  PetscCall(PetscViewerASCIIPrintf(v, "  K_II solves of the reductions: %" PetscInt_FMT " block-solve columns (constraint modes, interface basis, estimate), %" PetscInt_FMT " single-vector and %" PetscInt_FMT " block-solve columns (component eigensolvers)\n", c->nblockcols, c->nsingle, c->neigcols));
  if (c->est_pct) {
    PetscReal worst = 0;
    for (PetscInt k = 0; k < c->nm; k++) worst = PetscMax(worst, c->est_pct[k]);
    PetscCall(PetscViewerASCIIPrintf(v, "  error estimate: max %.3g %% (tol_pct %g) after %" PetscInt_FMT " refinement(s)%s\n", (double)worst, (double)c->tol_pct, c->nrefine, c->est_noiface ? "; the interface-truncation term is left out: not an upper estimate" : ""));
    PetscCall(PetscViewerASCIIPrintf(v, "  mode   frequency [Hz]   est. error [%%]\n"));
    for (PetscInt k = 0; k < c->nm; k++) PetscCall(PetscViewerASCIIPrintf(v, "  %4" PetscInt_FMT "   %14.6f   %14.3e\n", k + 1, (double)c->freq[k], (double)c->est_pct[k]));
  } else {
    PetscCall(PetscViewerASCIIPrintf(v, "  mode   frequency [Hz]\n"));
    for (PetscInt k = 0; k < c->nm; k++) PetscCall(PetscViewerASCIIPrintf(v, "  %4" PetscInt_FMT "   %14.6f\n", k + 1, (double)c->freq[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometry arrays of one merged component on the root. */
typedef struct {
  PetscInt   nn, nc, nv;
  PetscInt  *ids, *cells;
  PetscReal *xyz;
  DRCellType ct;
  PetscBool  same;
} GeomAcc;

/* Component k's nodes (and cells) from the rank that holds it appended on
 * the root. */
static PetscErrorCode GatherComponentGeometry(DRCMS c, PetscInt k, GeomAcc *a)
{
  PetscMPIInt      src    = c->group_root[c->group_of[k]];
  PetscInt         hdr[3] = {0, 0, 0}; /* nnodes, ncells, celltype */
  DRComponent      comp   = NULL;
  const PetscInt  *ids = NULL, *cells = NULL;
  const PetscReal *xyz = NULL;

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < c->nmine; i++)
    if (c->mine[i] == k) comp = c->comps[i];
  if (c->rank == src) {
    DRCellType ct;
    PetscCall(DRComponentGetGeometry(comp, &hdr[0], &ids, &xyz));
    PetscCall(DRComponentGetCells(comp, &ct, &hdr[1], &cells));
    hdr[2] = (PetscInt)ct;
  }
  PetscCallMPI(MPI_Bcast(hdr, 3, MPIU_INT, src, c->comm));
  if (!hdr[0]) PetscFunctionReturn(PETSC_SUCCESS);
  if (!c->rank) {
    PetscInt knv = DRCellNodes((DRCellType)hdr[2]);
    if (a->ct == DR_CELL_NONE && !a->nc) a->ct = (DRCellType)hdr[2];
    if ((DRCellType)hdr[2] != a->ct) a->same = PETSC_FALSE;
    PetscCall(PetscRealloc(sizeof(PetscInt) * (a->nn + hdr[0]), &a->ids));
    PetscCall(PetscRealloc(sizeof(PetscReal) * 3 * (a->nn + hdr[0]), &a->xyz));
    PetscCall(PetscRealloc(sizeof(PetscInt) * (a->nc + hdr[1]) * PetscMax(knv, 1) + 1, &a->cells));
    if (src == 0) {
      PetscCall(PetscArraycpy(a->ids + a->nn, ids, hdr[0]));
      PetscCall(PetscArraycpy(a->xyz + 3 * a->nn, xyz, 3 * hdr[0]));
      if (knv) PetscCall(PetscArraycpy(a->cells + a->nc * knv, cells, hdr[1] * knv));
    } else {
      PetscCallMPI(MPI_Recv(a->ids + a->nn, (PetscMPIInt)hdr[0], MPIU_INT, src, 11, c->comm, MPI_STATUS_IGNORE));
      PetscCallMPI(MPI_Recv(a->xyz + 3 * a->nn, (PetscMPIInt)(3 * hdr[0]), MPIU_REAL, src, 12, c->comm, MPI_STATUS_IGNORE));
      if (knv) PetscCallMPI(MPI_Recv(a->cells + a->nc * knv, (PetscMPIInt)(hdr[1] * knv), MPIU_INT, src, 13, c->comm, MPI_STATUS_IGNORE));
    }
    a->nn += hdr[0];
    a->nc += hdr[1];
    a->nv = knv;
  } else if (c->rank == src) {
    PetscInt knv = DRCellNodes((DRCellType)hdr[2]);
    PetscCallMPI(MPI_Send(ids, (PetscMPIInt)hdr[0], MPIU_INT, 0, 11, c->comm));
    PetscCallMPI(MPI_Send(xyz, (PetscMPIInt)(3 * hdr[0]), MPIU_REAL, 0, 12, c->comm));
    if (knv) PetscCallMPI(MPI_Send(cells, (PetscMPIInt)(hdr[1] * knv), MPIU_INT, 0, 13, c->comm));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Root: nodes sorted by id without duplicates; cells kept when all parts
 * have one cell type. */
static PetscErrorCode MergeGeometry(GeomAcc *a, DRComponent g)
{
  PetscInt  *perm, *ids, k = 0, nn = a->nn;
  PetscReal *xyz;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(nn, &perm));
  for (PetscInt i = 0; i < nn; i++) perm[i] = i;
  PetscCall(PetscSortIntWithArray(nn, a->ids, perm));
  PetscCall(PetscMalloc1(nn, &ids));
  PetscCall(PetscMalloc1(3 * nn, &xyz));
  for (PetscInt i = 0; i < nn; i++) {
    if (k && ids[k - 1] == a->ids[i]) continue;
    ids[k] = a->ids[i];
    for (int d = 0; d < 3; d++) xyz[3 * k + d] = a->xyz[3 * perm[i] + d];
    k++;
  }
  PetscCall(DRComponentSetGeometry(g, k, ids, xyz));
  PetscCall(PetscFree(ids));
  PetscCall(PetscFree(xyz));
  PetscCall(PetscFree(perm));
  if (a->same && a->nv) PetscCall(DRComponentSetCells(g, a->ct, a->nc, a->cells));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometry of all components merged on world rank 0 (nodes by id, cells
 * when all parts have one cell type): a component with labels but no
 * matrices, for the mesh and the mode shapes in the XDMF file.  The other
 * ranks hold the sizes only (zero arrays): the store writes rank 0's data. */
static PetscErrorCode GatherGeometry(DRCMS c)
{
  DRComponent g;
  GeomAcc     a = {0, 0, 0, NULL, NULL, NULL, DR_CELL_NONE, PETSC_TRUE};
  PetscInt    hdr[3] = {0, 0, 0};

  PetscFunctionBeginUser;
  PetscCall(DRComponentCreate(c->comm, "cms", &g));
  PetscCall(DRComponentSetLabels(g, c->nfull, c->full));
  for (PetscInt k = 0; k < c->ncomp; k++) PetscCall(GatherComponentGeometry(c, k, &a));
  if (!c->rank && a.nn) PetscCall(MergeGeometry(&a, g));
  PetscCall(PetscFree(a.ids));
  PetscCall(PetscFree(a.xyz));
  PetscCall(PetscFree(a.cells));
  if (!c->rank) {
    DRCellType ct;
    PetscCall(DRComponentGetGeometry(g, &hdr[0], NULL, NULL));
    PetscCall(DRComponentGetCells(g, &ct, &hdr[1], NULL));
    hdr[2] = (PetscInt)ct;
  }
  PetscCallMPI(MPI_Bcast(hdr, 3, MPIU_INT, 0, c->comm)); /* the store's calls are collective */
  if (c->rank && hdr[0]) {
    PetscInt  *zi, nci = hdr[1] * DRCellNodes((DRCellType)hdr[2]);
    PetscReal *zr;
    PetscCall(PetscCalloc2(PetscMax(hdr[0], nci) + 1, &zi, 3 * hdr[0], &zr));
    PetscCall(DRComponentSetGeometry(g, hdr[0], zi, zr));
    PetscCall(DRComponentSetCells(g, (DRCellType)hdr[2], hdr[1], zi));
    PetscCall(PetscFree2(zi, zr));
  }
  c->geom = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /cms/reduced: the assembled system and, with interface reduction, the CC
 * modes (written row-major: nbglob rows, ncc columns). */
static PetscErrorCode WriteReduced(DRCMS c, DRStore s)
{
  PetscInt dims[2], nbp = c->iface_early ? c->pnbglob : c->nbglob;

  PetscFunctionBeginUser;
  dims[0] = c->nred;
  dims[1] = c->nred;
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "size", c->nred));
  PetscCall(DRStoreWriteReal(s, "/cms/reduced/K", 2, dims, c->Kred, NULL));
  PetscCall(DRStoreWriteReal(s, "/cms/reduced/M", 2, dims, c->Mred, NULL));
  PetscCall(DRStoreWriteLabels(s, "/cms/reduced/boundary_labels", nbp, c->iface_early ? c->pglob : c->bglob));
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "n_boundary", nbp));
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "n_modal", c->nred - c->nbglob));
  PetscCall(DRStoreAttrString(s, "/cms/reduced", "coordinates", c->iface_early ? "[CC mode coordinates (interface_modes over boundary_labels) | component modal coordinates in component order]" : "[merged boundary DOFs (boundary_labels) | component modal coordinates in component order]"));
  /* interface reduction: K, M above stay the assembled system; the solved
   * one is R^T K R with R = blkdiag(interface_modes, I) */
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "n_interface_modes", c->iface ? c->ncc : 0));
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "coupled_size", c->ncoupled));
  if (c->iface && nbp > 0) {
    PetscReal *rowmajor = NULL;
    if (c->iface_early) PetscCall(DRStoreAttrString(s, "/cms/reduced", "interface_reduction", "before the projection: characteristic constraint modes of the assembled boundary Schur complement and Guyan mass (from the components' MUMPS Schur complements), M-normalized; every component projected on them, so K, M above are the solved system"));
    else PetscCall(DRStoreAttrString(s, "/cms/reduced", "interface_reduction", "characteristic constraint modes of (K_BB, M_BB) of the assembled reduced system, M_BB-normalized; solved system R^T K R, R^T M R with R = blkdiag(interface_modes, I_modal) (coupled_size coordinates)"));
    if (c->iface_auto) PetscCall(DRStoreAttrString(s, "/cms/reduced", "interface_choice", "CC count chosen by cms.tol_pct (cms.interface_auto): first cut 2 x cutoff_factor x fmax, more CC modes where the estimate's boundary term dominates"));
    else if (c->iface_factor > 0) PetscCall(DRStoreAttrReal(s, "/cms/reduced", "interface_cutoff_hz", c->iface_factor * c->fmax));
    if (!c->rank) {
      PetscCall(PetscMalloc1(nbp * c->ncc + 1, &rowmajor));
      for (PetscInt i = 0; i < nbp; i++)
        for (PetscInt j = 0; j < c->ncc; j++) rowmajor[i * c->ncc + j] = c->Psi[i + j * nbp];
    }
    dims[0] = nbp;
    dims[1] = c->ncc;
    PetscCall(DRStoreWriteReal(s, "/cms/reduced/interface_modes", 2, dims, rowmajor, NULL));
    PetscCall(PetscFree(rowmajor));
    dims[0] = c->ncc;
    PetscCall(DRStoreWriteReal(s, "/cms/reduced/interface_frequencies_hz", 1, dims, c->rank ? NULL : c->ccfreq, "Hz"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /cms/components/NAME: sizes, rank group, method, mode frequencies, and
 * the schedule t_start_s, t_end_s (seconds since the solve began: the
 * group's first pass on it, see cmsimpl.h; the Gantt chart of
 * scripts/dynred_plot.py). */
static PetscErrorCode WriteComponents(DRCMS c, DRStore s)
{
  PetscLogDouble *t0 = NULL, *t1 = NULL;

  PetscFunctionBeginUser;
  if (c->t_start) {
    PetscCall(PetscMalloc2(c->ncomp + 1, &t0, c->ncomp + 1, &t1));
    PetscCallMPI(MPI_Allreduce(c->t_start, t0, (PetscMPIInt)c->ncomp, MPI_DOUBLE, MPI_MIN, c->comm));
    PetscCallMPI(MPI_Allreduce(c->t_end, t1, (PetscMPIInt)c->ncomp, MPI_DOUBLE, MPI_MAX, c->comm));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    char     grp[128];
    PetscInt n, dims[1];
    PetscCall(DRCMSComponentSize_Private(c, k, &n));
    PetscCall(PetscSNPrintf(grp, sizeof(grp), "/cms/components/%s", c->names[k]));
    PetscCall(DRStoreAttrInt(s, grp, "n_boundary", c->nb[k]));
    PetscCall(DRStoreAttrInt(s, grp, "n_interior", n - c->nb[k]));
    PetscCall(DRStoreAttrInt(s, grp, "n_modes", c->nq[k]));
    PetscCall(DRStoreAttrInt(s, grp, "rank_group", c->group_of[k]));
    PetscCall(DRStoreAttrString(s, grp, "method", c->methods[k]));
    if (t0 && t0[k] <= t1[k]) { /* a reused (checkpointed) component has no work */
      PetscCall(DRStoreAttrReal(s, grp, "t_start_s", (PetscReal)t0[k]));
      PetscCall(DRStoreAttrReal(s, grp, "t_end_s", (PetscReal)t1[k]));
    }
    PetscCall(DRStrAppend(grp, "/frequencies_hz", sizeof(grp)));
    dims[0] = c->nq[k];
    PetscCall(DRStoreWriteReal(s, grp, 1, dims, c->rank ? NULL : c->qfreq[k], "Hz"));
  }
  PetscCall(PetscFree2(t0, t1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mesh and mode shapes for ParaView. */
static PetscErrorCode WriteShapes(DRCMS c, DRStore s)
{
  char **names;

  PetscFunctionBeginUser;
  if (!c->geom) PetscCall(GatherGeometry(c));
  {
    PetscInt nnodes;
    PetscCall(DRComponentGetGeometry(c->geom, &nnodes, NULL, NULL));
    if (!nnodes || !c->nm) PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRComponentWriteMesh(c->geom, s));
  PetscCall(PetscMalloc1(c->nm, &names));
  for (PetscInt k = 0; k < c->nm; k++) {
    PetscCall(PetscMalloc1(64, &names[k]));
    PetscCall(PetscSNPrintf(names[k], 64, "cms mode %03" PetscInt_FMT " (%.4g Hz)", k + 1, (double)c->freq[k]));
  }
  PetscCall(DRComponentWriteShapes(c->geom, s, "/cms", c->nm, c->modes, (const char *const *)names));
  for (PetscInt k = 0; k < c->nm; k++) PetscCall(PetscFree(names[k]));
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSWrite(DRCMS c, DRStore s)
{
  PetscInt dims[1];

  PetscFunctionBeginUser;
  PetscCheck(c->solved, c->comm, PETSC_ERR_ORDER, "DRCMSWrite: call DRCMSSolve first");
  PetscCall(PetscLogEventBegin(DRCMS_Write, 0, 0, 0, 0));
  dims[0] = c->nm;
  PetscCall(DRStoreWriteReal(s, "/cms/frequencies_hz", 1, dims, c->freq, "Hz"));
  if (c->est_pct) {
    PetscCall(DRStoreWriteReal(s, "/cms/error_estimate_pct", 1, dims, c->est_pct, "%"));
    /* the interface truncation's part (the boundary term) of each mode's
     * squared residual: nonzero with the interface reduced before the
     * projection */
    if (c->ishare) PetscCall(DRStoreWriteReal(s, "/cms/error_estimate_interface_share", 1, dims, c->ishare, NULL));
    PetscCall(DRStoreAttrReal(s, "/cms", "tol_pct", c->tol_pct));
    PetscCall(DRStoreAttrInt(s, "/cms", "refinements", c->nrefine));
    /* 0 when the interface-truncation term had to be left out (estimate.c:
     * the boundary Schur complement singular beyond the rigid-body modes):
     * the estimates are then no upper estimates, as the summary line says */
    PetscCall(DRStoreAttrInt(s, "/cms", "error_estimate_upper", !c->est_noiface));
  }
  /* the reductions' K_II solves (all rounds): what this run did, beside the
   * times (a component reused from a checkpoint made none) */
  PetscCall(DRStoreAttrInt(s, "/timing", "block_solve_columns", c->nblockcols));
  PetscCall(DRStoreAttrInt(s, "/timing", "single_solves", c->nsingle));
  PetscCall(DRStoreAttrInt(s, "/timing", "eigen_block_columns", c->neigcols));
  PetscCall(DRStoreWriteLabels(s, "/cms/labels", c->nfull, c->full));
  if (c->nm && c->write_modes) {
    PetscCall(DRStoreWriteVecs(s, "/cms/modes", c->nm, c->modes, NULL));
    PetscCall(DRStoreAttrString(s, "/cms", "modes_normalization", "mass: Phi^T M Phi = I (recovered u = T q); columns = modes, rows = /cms/labels"));
  }
  PetscCall(DRStoreAttrInt(s, "/cms", "ndof", c->nfull));
  PetscCall(DRStoreAttrReal(s, "/cms", "fmax_hz", c->fmax));
  PetscCall(WriteReduced(c, s));
  PetscCall(WriteComponents(c, s));
  for (PetscInt p = 0; p < DR_CMS_NPHASE; p++) PetscCall(DRStoreAttrReal(s, "/timing", phase_names[p], c->t[p]));
  if (c->write_modes) PetscCall(WriteShapes(c, s));
  PetscCall(PetscLogEventEnd(DRCMS_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
