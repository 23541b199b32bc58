/* The parallel element-assembly loop and the small parsers shared by the
 * built-in FE generators. */
#include "builtin_impl.h"
#include <dynred/preflight.h>
#include <string.h>

/* Add the rows of one element that this rank owns ([rs, re)) into A, with
 * every kept column; removed DOFs (row -1) are dropped.  The element matrix
 * is compacted so the insertion never sees a negative index. */
static PetscErrorCode AddElement(Mat A, PetscInt nd, const PetscInt rows[], const PetscReal *Ae, PetscInt rs, PetscInt re, PetscScalar *work)
{
  PetscInt nr = 0, nc = 0, kr[DR_MAX_ELEM_DOF], kc[DR_MAX_ELEM_DOF], r[DR_MAX_ELEM_DOF], cidx[DR_MAX_ELEM_DOF];

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < nd; i++) {
    if (rows[i] < 0) continue;
    kc[nc]     = i;
    cidx[nc++] = rows[i];
    if (rows[i] >= rs && rows[i] < re) {
      kr[nr]  = i;
      r[nr++] = rows[i];
    }
  }
  if (!nr) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < nr; i++)
    for (PetscInt j = 0; j < nc; j++) work[i * nc + j] = Ae ? Ae[kr[i] * nd + kc[j]] : 0.0;
  PetscCall(MatSetValues(A, nr, r, nc, cidx, work, ADD_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Does the element have a row in [rs, re)? */
static PetscBool Touches(PetscInt nd, const PetscInt rows[], PetscInt rs, PetscInt re)
{
  for (PetscInt i = 0; i < nd; i++)
    if (rows[i] >= rs && rows[i] < re) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Owner computes: every rank scans the element list (its DOF rows only,
 * cheap: the mesh is replicated like the labels) and computes each element
 * that touches a row it owns, inserting only those rows.  Elements on a
 * rank boundary are computed by both neighbours, but no matrix entry ever
 * travels through the stash: with contiguous element ranges and the stash,
 * 2 ranks assembled a 667k-DOF plate slower than 1 rank. */
PetscErrorCode DRBuiltinAssembleElements(DRComponent c, PetscInt nelem, DRElementFn fn, DRPatternFn pattern, void *ctx)
{
  PetscInt     nd, rows[DR_MAX_ELEM_DOF], m = PETSC_DECIDE, rs, re;
  PetscScalar *work;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(DR_MAX_ELEM_DOF * DR_MAX_ELEM_DOF, &work));
  /* PETSc's default row layout, made explicit so the counts know it. */
  PetscCall(PetscSplitOwnership(c->comm, &m, &c->n));
  PetscCallMPI(MPI_Scan(&m, &re, 1, MPIU_INT, MPI_SUM, c->comm));
  rs = re - m;
  for (int which = 0; which < 2; which++) {
    Mat *A = which ? &c->M : &c->K;
    PetscCall(MatCreate(c->comm, A));
    PetscCall(MatSetSizes(*A, m, m, c->n, c->n));
    PetscCall(MatSetType(*A, MATAIJ));
  }
  if (pattern) {
    PetscInt *ia, *ja;
    PetscCall(pattern(ctx, rs, re, &ia, &ja));
    /* Whichever applies (the other is a no-op); values NULL: zeros. */
    PetscCall(MatSeqAIJSetPreallocationCSR(c->K, ia, ja, NULL));
    PetscCall(MatMPIAIJSetPreallocationCSR(c->K, ia, ja, NULL));
    PetscCall(PetscFree(ia));
    PetscCall(PetscFree(ja));
    PetscCall(MatSetOption(c->K, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
    PetscCall(MatDestroy(&c->M));
    PetscCall(MatDuplicate(c->K, MAT_DO_NOT_COPY_VALUES, &c->M));
  } else {
    Mat prealloc;
    PetscCall(MatCreate(c->comm, &prealloc));
    PetscCall(MatSetSizes(prealloc, m, m, c->n, c->n));
    PetscCall(MatSetType(prealloc, MATPREALLOCATOR));
    PetscCall(MatSetUp(prealloc));
    PetscCall(MatSetOption(prealloc, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
    for (PetscInt e = 0; e < nelem; e++) {
      const PetscReal *Ke = NULL, *Me = NULL;
      PetscCall(fn(ctx, e, PETSC_FALSE, &nd, rows, &Ke, &Me));
      PetscCheck(nd > 0 && nd <= DR_MAX_ELEM_DOF, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%s: element %" PetscInt_FMT " has %" PetscInt_FMT " DOFs, expected 1..%d", c->source, e + 1, nd, DR_MAX_ELEM_DOF);
      PetscCall(AddElement(prealloc, nd, rows, NULL, rs, re, work));
    }
    PetscCall(MatAssemblyBegin(prealloc, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(prealloc, MAT_FINAL_ASSEMBLY));
    /* A preallocator serves one matrix: fill K's pattern with zeros and copy
     * it to M (springs have no mass: M keeps explicit zeros there, so K and
     * M stay structurally equal for shifted solves). */
    PetscCall(MatPreallocatorPreallocate(prealloc, PETSC_TRUE, c->K));
    PetscCall(MatDestroy(&prealloc));
    PetscCall(MatDestroy(&c->M));
    PetscCall(MatDuplicate(c->K, MAT_DO_NOT_COPY_VALUES, &c->M));
  }
  PetscCall(MatSetOption(c->K, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  PetscCall(MatSetOption(c->M, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));

  {
    /* an element's matrices are formed on the ranks that own its rows only:
     * its failure (end nodes that coincide) is agreed before the collective
     * assembly below, so the other ranks do not wait in it (the builder's
     * caller, model.c, gives every rank the failing one's message) */
    PetscErrorCode ierr = PETSC_SUCCESS;
    int            mine, any;
    for (PetscInt e = 0; e < nelem && !ierr; e++) {
      const PetscReal *Ke = NULL, *Me = NULL;
      ierr = fn(ctx, e, PETSC_FALSE, &nd, rows, &Ke, &Me);
      if (ierr || !Touches(nd, rows, rs, re)) continue;
      ierr = fn(ctx, e, PETSC_TRUE, &nd, rows, &Ke, &Me);
      if (!ierr) ierr = AddElement(c->K, nd, rows, Ke, rs, re, work);
      if (!ierr && Me) ierr = AddElement(c->M, nd, rows, Me, rs, re, work);
    }
    mine = (int)ierr;
    PetscCallMPI(MPIU_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, c->comm));
    if (any) { /* every rank raises the failing one's message */
      char          *spec = NULL, agreed[2048];
      PetscErrorCode code;
      if (ierr) PetscCall(PetscErrorMessage(ierr, NULL, &spec));
      PetscCall(DRErrorAgreeMessage(c->comm, ierr, spec, agreed, sizeof(agreed), &code));
      PetscCall(PetscFree(work));
      SETERRQ(PETSC_COMM_SELF, code, "%s", agreed);
    }
  }
  for (int which = 0; which < 2; which++) {
    Mat A = which ? c->M : c->K;
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  PetscCall(PetscFree(work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinParseClamp(MPI_Comm comm, const char *what, const char *clamp, PetscBool faces[6])
{
  static const char *names[6] = {"x0", "x1", "y0", "y1", "z0", "z1"};
  char               buf[DR_CLAMP_MAX];
  char              *tok, *save = NULL;
  PetscBool          none;

  PetscFunctionBeginUser;
  for (int f = 0; f < 6; f++) faces[f] = PETSC_FALSE;
  PetscCall(PetscStrncpy(buf, clamp ? clamp : "none", sizeof(buf)));
  PetscCall(PetscStrcasecmp(buf, "none", &none));
  if (none || !buf[0]) PetscFunctionReturn(PETSC_SUCCESS);
  for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    PetscBool found = PETSC_FALSE;
    for (int f = 0; f < 6 && !found; f++) {
      PetscCall(PetscStrcasecmp(tok, names[f], &found));
      if (found) faces[f] = PETSC_TRUE;
    }
    PetscCheck(found, comm, DR_ERR_INPUT, "%s: clamp \"%s\" has unknown face \"%s\", expected \"none\" or a comma list of x0 x1 y0 y1 z0 z1", what, clamp, tok);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRBuiltinCheckCut(MPI_Comm comm, const char *what, DRCut cut, PetscInt part, PetscInt *axis)
{
  PetscFunctionBeginUser;
  switch (cut.axis) {
  case 'x':
  case 'X': *axis = 0; break;
  case 'y':
  case 'Y': *axis = 1; break;
  case 'z':
  case 'Z': *axis = 2; break;
  default:
    /* An unset axis is fine when nothing is cut. */
    PetscCheck(cut.parts <= 1, comm, DR_ERR_INPUT, "%s: cut axis '%c' is unknown, expected x, y or z", what, cut.axis ? cut.axis : '?');
    *axis = 0;
  }
  PetscCheck(cut.parts >= 1, comm, DR_ERR_INPUT, "%s: cut parts = %" PetscInt_FMT ", expected at least 1", what, cut.parts);
  PetscCheck(part >= 0 && part < cut.parts, comm, DR_ERR_INPUT, "%s: part %" PetscInt_FMT " requested, expected 0..%" PetscInt_FMT, what, part, cut.parts - 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}
