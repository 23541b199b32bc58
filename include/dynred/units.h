/* dynred: the unit system of a model (`model.units`).
 *
 * A system is FORCE-LENGTH-TIME-MASS, e.g. N-m-s-kg (SI, the default),
 * N-mm-s-t, N-mm-ms-g, kN-mm-ms-kg; it must be consistent (1 FORCE = 1 MASS
 * LENGTH / TIME^2), so that K, M and the eigenvalues of the model need no
 * conversion factor: eigenvalues are in (rad / TIME)^2 and frequencies in
 * Hz are sqrt(lambda) / (2 pi time_s).  Every result file carries the system
 * of its quantities as root attributes (DRUnitsWrite): `units` (the name),
 * `units_force`, `units_length`, `units_time`, `units_mass` and the factors
 * `time_unit_s`, `length_unit_m`, `mass_unit_kg`, `force_unit_N`. */
#ifndef DYNRED_UNITS_H
#define DYNRED_UNITS_H

#include <dynred/config.h>
#include <dynred/store.h>
#include <dynred/component.h>

typedef struct {
  char      name[48];                       /* canonical FORCE-LENGTH-TIME-MASS */
  char      force[16], length[16], time[16], mass[16];
  PetscReal force_N, length_m, time_s, mass_kg; /* SI value of one unit */
} DRUnits;

/* Parse a system name ("SI" or FORCE-LENGTH-TIME-MASS).  Not a system:
 * *ok = PETSC_FALSE and why[] says what is wrong (no error raised). */
PetscErrorCode DRUnitsParse(const char *name, DRUnits *u, PetscBool *ok, char why[], size_t len);
/* The model's system from `model.units` (default SI); an unknown or
 * inconsistent system is one line naming FILE:LINE.  *set: given explicitly. */
PetscErrorCode DRModelGetUnits(DRConfig cfg, DRUnits *u, PetscBool *set);
/* The same force and length units with the time in seconds (and the mass
 * unit that keeps the system consistent: N-mm-ms-g -> N-mm-s-t). */
PetscErrorCode DRUnitsToSeconds(const DRUnits *u, DRUnits *s);
/* A model (or component) of the job's model.units converted in place to its
 * seconds system (DRUnitsToSeconds: M scaled by time_s^2, D by time_s; K
 * unchanged), so eigenvalues are in (rad/s)^2 and frequencies in Hz; *s the
 * system it is then in.  No change for a system already in seconds. */
PetscErrorCode DRModelToSeconds(DRConfig cfg, DRComponent c, DRUnits *s);
/* Root attributes of a result file (see above); collective on the store. */
PetscErrorCode DRUnitsWrite(DRStore s, const DRUnits *u);
/* The system of an existing result file (root attribute `units`); *found
 * PETSC_FALSE when the file has none (written before units were stored). */
PetscErrorCode DRUnitsRead(const char *path, DRUnits *u, PetscBool *found);

#endif
