/* The GA's results (gaimpl.h): DRGAWrite puts the final front, the reduced
 * matrices of its solutions, the history and the problem under /ga of the
 * store and the front as CSV; DRGAView prints the front table.  Labels are
 * written in the project's notation "node.dir" with the numeric
 * dof_labels beside them. */
#include "gaimpl.h"
#include <string.h>
#include <errno.h>
#include <unistd.h>

/* /ga/solutions/NNN: K_R, M_R, labels, frequencies and the attributes of solution k */
static PetscErrorCode WriteSolution(DRGA g, DRStore s, PetscInt k, PetscReal dtc, PetscReal dts)
{
  PetscInt         r = g->fr[k], *m, dims[2] = {r, r}, d1[1] = {r};
  const PetscReal *res = g->fres[k];
  char             grp[64], path[96];
  DRLabel         *lab;
  const char     **ls;
  PetscReal       *f;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(g->n, &m));
  (void)DRGAMasters(g, g->fbits + k * g->nw, m);
  PetscCall(PetscMalloc2(r, &lab, r, &ls));
  for (PetscInt i = 0; i < r; i++) lab[i] = g->labels[m[i]];
  PetscCall(PetscSNPrintf(grp, sizeof(grp), "/ga/solutions/%03" PetscInt_FMT, k + 1));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/K", grp));
  PetscCall(DRStoreWriteReal(s, path, 2, dims, res + NVAL + r, NULL));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/M", grp));
  PetscCall(DRStoreWriteReal(s, path, 2, dims, res + NVAL + r + r * r, NULL));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/labels", grp));
  for (PetscInt i = 0; i < r; i++) {
    char *t;
    PetscCall(PetscMalloc1(32, &t));
    DRLabelString(lab[i], t);
    ls[i] = t;
  }
  PetscCall(DRStoreWriteStrings(s, path, r, ls));
  for (PetscInt i = 0; i < r; i++) PetscCall(PetscFree(ls[i]));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/dof_labels", grp));
  PetscCall(DRStoreWriteLabels(s, path, r, lab));
  PetscCall(PetscMalloc1(r, &f));
  for (PetscInt i = 0; i < r; i++) f[i] = PetscSqrtReal(res[NVAL + i]) / (2 * PETSC_PI * g->time_unit);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/frequencies_hz", grp));
  PetscCall(DRStoreWriteReal(s, path, 1, d1, f, "Hz"));
  PetscCall(PetscFree(f));
  PetscCall(DRStoreAttrInt(s, grp, "r", r));
  PetscCall(DRStoreAttrReal(s, grp, "e", res[0]));
  PetscCall(DRStoreAttrReal(s, grp, "dt_critical_s", dtc));
  PetscCall(DRStoreAttrReal(s, grp, "dt_suggested_s", dts));
  PetscCall(DRStoreAttrReal(s, grp, "omega_max_rad_s", PetscSqrtReal(res[2]) / g->time_unit));
  PetscCall(DRStoreAttrString(s, grp, "masters", g->ftxt[k]));
  PetscCall(PetscFree2(lab, ls));
  PetscCall(PetscFree(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* critical central-difference step 2/omega_max of solution k [s] */
static PetscReal DtCritical(DRGA g, PetscInt k) { return 2.0 / PetscSqrtReal(g->fres[k][2]) * g->time_unit; }

/* /ga/model: the full model (small models only), labels, candidate and forced rows */
static PetscErrorCode WriteModel(DRGA g, DRStore s)
{
  PetscBool   have = (PetscBool)(g->Kfull != NULL);
  PetscInt    d1[1] = {g->nvar}, d2[1] = {g->nforced};
  PetscInt64 *ci;

  PetscFunctionBeginUser;
  /* the full model, for checks and the ss job (small models only) */
  PetscCallMPI(MPI_Bcast(&have, 1, MPIU_BOOL, 0, g->comm));
  if (have) {
    PetscInt dims[2] = {g->n, g->n};
    PetscCall(DRStoreWriteReal(s, "/ga/model/K", 2, dims, g->Kfull, NULL));
    PetscCall(DRStoreWriteReal(s, "/ga/model/M", 2, dims, g->Mfull, NULL));
  }
  PetscCall(DRStoreWriteLabels(s, "/ga/model/labels", g->n, g->labels));
  PetscCall(PetscMalloc1(g->nvar + g->nforced, &ci));
  for (PetscInt j = 0; j < g->nvar; j++) ci[j] = g->cand[j];
  PetscCall(DRStoreWriteInt(s, "/ga/model/candidate_rows", 1, d1, ci));
  for (PetscInt j = 0; j < g->nforced; j++) ci[j] = g->forced[j];
  PetscCall(DRStoreWriteInt(s, "/ga/model/forced_rows", 1, d2, ci));
  PetscCall(PetscFree(ci));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /ga/pareto, /ga/full_frequencies_hz, /ga/history */
static PetscErrorCode WritePareto(DRGA g, DRStore s)
{
  PetscInt    nf = g->nfront, dims[1] = {nf}, d2[2] = {nf, g->b}, d3[1] = {g->nfull}, d4[1] = {g->gen + 1};
  PetscInt64 *rr;
  PetscReal  *ee, *dtc, *dts, *fb, *ff;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc5(nf + 1, &rr, nf + 1, &ee, nf + 1, &dtc, nf + 1, &dts, nf * g->b + 1, &fb));
  for (PetscInt k = 0; k < nf; k++) {
    rr[k]  = g->fr[k];
    ee[k]  = g->fres[k][0];
    dtc[k] = DtCritical(g, k);
    dts[k] = g->dt_safety * dtc[k];
    for (PetscInt h = 0; h < g->b; h++) fb[k * g->b + h] = PetscSqrtReal(g->fres[k][NVAL + h]) / (2 * PETSC_PI * g->time_unit);
  }
  PetscCall(DRStoreWriteInt(s, "/ga/pareto/r", 1, dims, rr));
  PetscCall(DRStoreWriteReal(s, "/ga/pareto/e", 1, dims, ee, NULL));
  PetscCall(DRStoreWriteStrings(s, "/ga/pareto/masters", nf, (const char *const *)g->ftxt));
  PetscCall(DRStoreWriteReal(s, "/ga/pareto/dt_critical", 1, dims, dtc, "s"));
  PetscCall(DRStoreWriteReal(s, "/ga/pareto/dt_suggested", 1, dims, dts, "s"));
  PetscCall(DRStoreWriteReal(s, "/ga/pareto/frequencies_hz", 2, d2, fb, "Hz"));
  PetscCall(PetscMalloc1(g->nfull + 1, &ff));
  for (PetscInt k = 0; k < g->nfull; k++) ff[k] = PetscSqrtReal(PetscMax(g->lam_full[k], 0)) / (2 * PETSC_PI * g->time_unit);
  PetscCall(DRStoreWriteReal(s, "/ga/full_frequencies_hz", 1, d3, ff, "Hz"));
  PetscCall(PetscFree(ff));
  if (g->rank == 0) PetscCall(DRStoreWriteReal(s, "/ga/history/hypervolume", 1, d4, g->hv, NULL));
  else {
    PetscReal dummy = 0;
    PetscCall(DRStoreWriteReal(s, "/ga/history/hypervolume", 1, d4, &dummy, NULL));
  }
  PetscCall(PetscFree5(rr, ee, dtc, dts, fb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: the front as CSV: r, e, dt_critical_s, dt_suggested_s, masters;
 * written to CSV.tmp and renamed (nothing half-written is left) */
static PetscErrorCode WriteCSVRoot(DRGA g)
{
  FILE *csv;
  char  tmp[PETSC_MAX_PATH_LEN + 8];
  int   bad;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", g->csv));
  csv = fopen(tmp, "w");
  PetscCheck(csv, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write the CSV front (%s)", g->csv, strerror(errno));
  fprintf(csv, "r,e,dt_critical_s,dt_suggested_s,masters\n");
  for (PetscInt k = 0; k < g->nfront; k++) {
    PetscReal dtc = DtCritical(g, k);
    fprintf(csv, "%" PetscInt_FMT ",%.12g,%.6g,%.6g,%s\n", g->fr[k], (double)g->fres[k][0], (double)dtc, (double)(g->dt_safety * dtc), g->ftxt[k]);
  }
  bad = ferror(csv);
  bad = fclose(csv) || bad;
  if (bad || rename(tmp, g->csv)) {
    int e = errno;
    (void)unlink(tmp);
    SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot write the CSV front (%s)", g->csv, strerror(e));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Collective: the CSV by rank 0, its failure every rank's */
static PetscErrorCode WriteCSV(DRGA g)
{
  PetscFunctionBeginUser;
  if (!g->csv[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRRootAgree(g->comm, g->rank ? PETSC_SUCCESS : WriteCSVRoot(g)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGAWrite(DRGA g, DRStore s)
{
  char fl[1024];

  PetscFunctionBeginUser;
  PetscCheck(g->solved, g->comm, PETSC_ERR_ORDER, "DRGAWrite() before DRGASolve()");
  PetscCall(PetscLogEventBegin(DR_GA_Write, 0, 0, 0, 0));
  PetscCall(WriteCSV(g));
  for (PetscInt k = 0; k < g->nfront; k++) {
    PetscReal dtc = DtCritical(g, k);
    PetscCall(WriteSolution(g, s, k, dtc, g->dt_safety * dtc));
  }
  PetscCall(WritePareto(g, s));
  PetscCall(DRGAForcedString(g, fl, sizeof(fl)));
  PetscCall(DRStoreAttrString(s, "/ga", "forced_masters", fl));
  PetscCall(WriteModel(g, s));
  PetscCall(DRStoreAttrString(s, "/ga", "label_convention", "NODE + H (x), V (y), Z (z), RX, RY, RZ (rotations; RZ is the planar rotation)"));
  PetscCall(DRStoreAttrInt(s, "/ga", "ndof", g->n));
  PetscCall(DRStoreAttrInt(s, "/ga", "n_candidates", g->nvar));
  PetscCall(DRStoreAttrInt(s, "/ga", "n_forced", g->nforced));
  PetscCall(DRStoreAttrInt(s, "/ga", "b", g->b));
  PetscCall(DRStoreAttrReal(s, "/ga", "fmax_hz", g->fmax));
  PetscCall(DRStoreAttrReal(s, "/ga", "time_unit_s", g->time_unit));
  PetscCall(DRStoreAttrString(s, "/ga", "method", g->method));
  PetscCall(DRStoreAttrInt(s, "/ga", "generations", g->gen));
  PetscCall(DRStoreAttrInt(s, "/ga", "evaluations", g->nevals));
  PetscCall(DRStoreAttrInt(s, "/ga", "population", g->pop));
  PetscCall(DRStoreAttrInt(s, "/ga", "restarted_from_generation", g->nrestored_gen));
  PetscCall(DRStoreAttrString(s, "/ga", "stop_reason", g->stop_reason));
  PetscCall(DRStoreAttrReal(s, "/ga", "seconds", g->t_total));
  PetscCall(DRStoreAttrReal(s, "/ga", "evaluations_per_s", g->nevals / PetscMax(g->t_eval, 1e-9)));
  PetscCall(DRStoreAttrInt(s, "/ga", "farm_groups", g->ngroups));
  {
    /* /ga/timing/rank_seconds: ranks x DR_GA_NSPLIT, column names in the attribute /ga/timing:rank_seconds_columns */
    PetscInt  dims[2] = {g->size, DR_GA_NSPLIT};
    char      cols[256] = "";
    PetscReal dummy[DR_GA_NSPLIT] = {0};
    for (PetscInt j = 0; j < DR_GA_NSPLIT; j++) {
      PetscCall(DRStrAppend(cols, j ? " " : "", sizeof(cols)));
      PetscCall(DRStrAppend(cols, DRGASplitNames[j], sizeof(cols)));
    }
    PetscCall(DRStoreWriteReal(s, "/ga/timing/rank_seconds", 2, dims, g->rank == 0 && g->tsplit ? g->tsplit : dummy, "s"));
    PetscCall(DRStoreAttrString(s, "/ga/timing", "rank_seconds_columns", cols));
  }
  PetscCall(PetscLogEventEnd(DR_GA_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Pareto front table after DRGASolve; before it, the settings. */
PetscErrorCode DRGAView(DRGA g, PetscViewer v)
{
  PetscBool ascii;

  PetscFunctionBeginUser;
  if (!v) v = PETSC_VIEWER_STDOUT_(g->comm);
  PetscCall(PetscObjectTypeCompare((PetscObject)v, PETSCVIEWERASCII, &ascii));
  if (!ascii) PetscFunctionReturn(PETSC_SUCCESS);
  if (!g->solved) {
    PetscCall(PetscViewerASCIIPrintf(v, "ga: NSGA-II, population %" PetscInt_FMT ", at most %" PetscInt_FMT " generations, crossover %g, mutation %g, seed %lld; %s condensation\n", g->pop, g->maxgen, (double)g->pc, (double)g->pm, (long long)g->seed, g->method));
    if (g->setup) PetscCall(PetscViewerASCIIPrintf(v, "ga: %" PetscInt_FMT " DOFs, %" PetscInt_FMT " forced masters, %" PetscInt_FMT " candidate DOFs (genes); b = %" PetscInt_FMT "\n", g->n, g->nforced, g->nvar, g->b));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscViewerASCIIPrintf(v, "Pareto front (%s condensation, b = %" PetscInt_FMT "):\n  %3s %14s %12s  %s\n", g->method, g->b, "r", "e", "dt_cr [s]", "masters"));
  for (PetscInt k = 0; k < g->nfront; k++) PetscCall(PetscViewerASCIIPrintf(v, "  %3" PetscInt_FMT " %14.6e %12.4e  %s\n", g->fr[k], (double)g->fres[k][0], (double)DtCritical(g, k), g->ftxt[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}
