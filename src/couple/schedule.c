/* The per-component schedule of a CMS solve (cmsimpl.h: t_start, t_end;
 * written as /cms/components/NAME t_start_s, t_end_s by io.c, drawn as the
 * Gantt chart of scripts/dynred_plot.py). */
#include "cmsimpl.h"

PetscErrorCode DRCMSMark_Private(DRCMS c, PetscInt k, PetscBool start)
{
  PetscLogDouble now;

  PetscFunctionBeginUser;
  if (!c->t_start) {
    PetscCall(PetscMalloc2(c->ncomp + 1, &c->t_start, c->ncomp + 1, &c->t_end));
    for (PetscInt j = 0; j < c->ncomp; j++) {
      c->t_start[j] = PETSC_MAX_REAL;
      c->t_end[j]   = -PETSC_MAX_REAL;
    }
  }
  now = DRTime() - c->t_solve0;
  if (start && c->t_start[k] == PETSC_MAX_REAL) c->t_start[k] = now;
  else if (!start && c->t_end[k] == -PETSC_MAX_REAL) c->t_end[k] = now;
  PetscFunctionReturn(PETSC_SUCCESS);
}

