/* Private to the CMS checkpoint (checkpoint.c: keys, lookup, life cycle;
 * checkpoint_file.c: one superelement's HDF5 file). */
#ifndef DYNRED_CHECKPOINTIMPL_H
#define DYNRED_CHECKPOINTIMPL_H
#include "cmsimpl.h"
#include <stdint.h>

#define CKPT_FORMAT "dynred cms superelement 1"
/* phase 1 of the interface reduction before the projection (the default
 * path): kept fixed-interface modes, eigenvalues, S_c, M_c */
#define CKPT_PENCIL_FORMAT "dynred cms interface pencil 1"

/* FNV-1a 64 */
static inline void Fnv(uint64_t *h, const void *p, size_t n)
{
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) {
    *h ^= b[i];
    *h *= 1099511628211ULL;
  }
}
#define FNV_OFFSET 14695981039346656037ULL

/* The arrays of one stored superelement on the group's rank 0 (Tall: n x N
 * row-major, row = component DOF). */
typedef struct {
  DRReductionSaved s;
  PetscReal       *Tall;
  char             method[64];
  /* a phase-1 record (CKPT_PENCIL_FORMAT): s.K = S_c, s.M = M_c (nb x nb),
   * Tall n x nq (the kept modes in the interior rows), lam[nq], qtop_hz */
  PetscBool        pencil;
  PetscReal       *lam, qtop_hz;
} Stored;

PetscErrorCode DRCMSCkptStoredFree_Private(Stored *st);
/* path: written to path.tmp and renamed (the group's rank 0) */
PetscErrorCode DRCMSCkptWrite_Private(const char *path, const char *name, uint64_t hash, const Stored *st);
/* a damaged file is an answer, not an error: *why says what is wrong ("" read);
 * st->pencil on entry: the kind of record expected */
PetscErrorCode DRCMSCkptRead_Private(const char *path, uint64_t hash, PetscInt n, Stored *st, char *why, size_t len);
#endif
