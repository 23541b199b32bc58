/* Private helpers shared by the built-in FE generators (builtin_solid.c,
 * builtin_frame.c): clamp-string parsing, slab cutting and the one parallel
 * element-assembly loop every generator uses. */
#ifndef DYNRED_BUILTIN_IMPL_H
#define DYNRED_BUILTIN_IMPL_H

#include <dynred/builtin.h>
#include "componentimpl.h"
#include "model_impl.h"

/* Largest element DOF count the assembly loop accepts (hex8: 24). */
#define DR_MAX_ELEM_DOF 24

/* One element of a generator.  Called for element e (0-based, of the
 * component's own elements) with want_values false in the preallocation pass
 * (only nd and rows are needed) and true in the value pass.  rows[k] is the
 * component row (position in the sorted c->labels) of element DOF k, or -1
 * for a removed (clamped / fixed) DOF.  Ke and Me point to nd x nd row-major
 * element matrices owned by the generator (Me may be NULL: massless element,
 * e.g. a spring). */
typedef PetscErrorCode (*DRElementFn)(void *ctx, PetscInt e, PetscBool want_values, PetscInt *nd, PetscInt rows[], const PetscReal **Ke, const PetscReal **Me);

/* Optional exact nonzero pattern of the owned rows [rs, re) in CSR form:
 * *ia (re - rs + 1 offsets) and *ja (global columns, sorted within each
 * row), allocated with PetscMalloc1 (the caller frees).  Generators on
 * structured grids know it from the stencil: much faster than a
 * MATPREALLOCATOR pass (hashing every element entry), and inserting into an
 * existing sorted pattern avoids shifting row entries on every insertion. */
typedef PetscErrorCode (*DRPatternFn)(void *ctx, PetscInt rs, PetscInt re, PetscInt **ia, PetscInt **ja);

/* Create c->K and c->M (size c->n, PETSc default row layout on c->comm) from
 * nelem elements, owner computes: every rank scans the element list and
 * computes (in the value pass) the elements touching its rows, inserting only
 * its own rows with ADD_VALUES, so nothing goes through the stash.  The
 * nonzero pattern is preallocated exactly, from pattern when given, else by a
 * MATPREALLOCATOR pass.  Sets MAT_SYMMETRIC and MAT_SYMMETRY_ETERNAL: the
 * element matrices are symmetric by construction.  fn is called twice per
 * element it touches (rows, then values), so element matrices that are
 * expensive should be cached by the generator. */
PetscErrorCode DRBuiltinAssembleElements(DRComponent c, PetscInt nelem, DRElementFn fn, DRPatternFn pattern, void *ctx);

/* Parse a clamp string ("none" or a comma list of x0 x1 y0 y1 z0 z1) into
 * face flags in that order; an unknown face is a DR_ERR_INPUT error naming
 * `what` (e.g. "builtin:solid clamp") and the string. */
PetscErrorCode DRBuiltinParseClamp(MPI_Comm comm, const char *what, const char *clamp, PetscBool faces[6]);

/* Axis index 0, 1, 2 of a cut ('x', 'y', 'z', case-insensitive); checks
 * parts >= 1 and 0 <= part < parts. */
PetscErrorCode DRBuiltinCheckCut(MPI_Comm comm, const char *what, DRCut cut, PetscInt part, PetscInt *axis);

/* Rows of every label, in sorted order: c->labels must be sorted and unique;
 * returns the row of label l (binary search), -1 when absent. */
static inline PetscInt DRBuiltinRow(const DRComponent c, DRLabel l)
{
  return DRLabelsFind(c->n, c->labels, l);
}

#endif
