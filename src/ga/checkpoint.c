/* The GA checkpoint (gaimpl.h): an HDF5 side file written by rank 0 to
 * PATH.tmp and renamed, holding the population with its fronts, the RNG
 * state, the hypervolume history and the evaluation cache, so a restarted
 * run repeats exactly what the killed one would have done.  The signature
 * attribute names the optimisation; a checkpoint of another one is refused.
 *
 * Every HDF5 call of src/ga is in this file (H5CK, H5WriteArr, H5ReadArr):
 * the seam where the project's one HDF5 helper layer replaces them. */
#include "gaimpl.h"
#include <hdf5.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

#define H5CK(call) PetscCheck((call) >= 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "HDF5 error in %s (checkpoint %s)", #call, g->ckpt)

static PetscErrorCode H5WriteArr(DRGA g, hid_t f, const char *name, hid_t type, int nd, const hsize_t *dims, const void *data)
{
  hid_t sp, d;

  PetscFunctionBeginUser;
  H5CK(sp = H5Screate_simple(nd, dims, NULL));
  H5CK(d = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  if (dims[0] > 0) H5CK(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  H5Dclose(d);
  H5Sclose(sp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5ReadArr(DRGA g, hid_t f, const char *name, hid_t type, void *data)
{
  hid_t d;

  PetscFunctionBeginUser;
  H5CK(d = H5Dopen2(f, name, H5P_DEFAULT));
  H5CK(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  H5Dclose(d);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: the GA state after generation g->gen, to CKPT.tmp then renamed */
static PetscErrorCode CheckpointWrite(DRGA g)
{
  char     tmp[PETSC_MAX_PATH_LEN + 16];
  hid_t    f, sp, a, t;
  hsize_t  d2[2], d1[1];
  PetscInt nc = g->cache.n, k = 0;
  uint64_t *keys;
  PetscReal *vals;
  long long  i8;
  int       *pf;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", g->ckpt));
  H5CK(f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(sp = H5Screate(H5S_SCALAR));
  H5CK(t = H5Tcopy(H5T_C_S1));
  H5CK(H5Tset_size(t, strlen(g->signature) + 1));
  H5CK(a = H5Acreate2(f, "signature", t, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, t, g->signature));
  H5Aclose(a);
  H5Tclose(t);
  i8 = g->gen;
  H5CK(a = H5Acreate2(f, "generation", H5T_NATIVE_LLONG, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  i8 = g->nevals;
  H5CK(a = H5Acreate2(f, "evaluations", H5T_NATIVE_LLONG, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  H5CK(a = H5Acreate2(f, "eref", H5T_NATIVE_DOUBLE, sp, H5P_DEFAULT, H5P_DEFAULT));
  H5CK(H5Awrite(a, H5T_NATIVE_DOUBLE, &g->eref));
  H5Aclose(a);
  H5Sclose(sp);
  d1[0] = 4;
  PetscCall(H5WriteArr(g, f, "rng", H5T_NATIVE_UINT64, 1, d1, g->rng.s));
  d2[0] = (hsize_t)g->pop;
  d2[1] = (hsize_t)g->nw;
  PetscCall(H5WriteArr(g, f, "population", H5T_NATIVE_UINT64, 2, d2, g->P));
  d1[0] = (hsize_t)g->pop;
  PetscCall(H5WriteArr(g, f, "r", H5T_NATIVE_DOUBLE, 1, d1, g->Pr));
  PetscCall(H5WriteArr(g, f, "e", H5T_NATIVE_DOUBLE, 1, d1, g->Pe));
  PetscCall(H5WriteArr(g, f, "crowd", H5T_NATIVE_DOUBLE, 1, d1, g->Pcrowd));
  PetscCall(PetscMalloc1(2 * g->pop, &pf));
  for (PetscInt i = 0; i < g->pop; i++) {
    pf[i]          = (int)g->Pfeas[i];
    pf[g->pop + i] = g->Pfront[i] == PETSC_MAX_INT ? -1 : (int)g->Pfront[i];
  }
  d2[0] = 2;
  d2[1] = (hsize_t)g->pop;
  PetscCall(H5WriteArr(g, f, "feasible_front", H5T_NATIVE_INT, 2, d2, pf));
  PetscCall(PetscFree(pf));
  d1[0] = (hsize_t)(g->gen + 1);
  PetscCall(H5WriteArr(g, f, "hypervolume", H5T_NATIVE_DOUBLE, 1, d1, g->hv));
  PetscCall(PetscMalloc2(nc * g->nw + 1, &keys, nc * NVAL + 1, &vals));
  for (PetscInt s = 0; s < g->cache.cap; s++)
    if (g->cache.used[s]) {
      PetscCall(PetscArraycpy(keys + k * g->nw, g->cache.keys + s * g->nw, g->nw));
      PetscCall(PetscArraycpy(vals + k * NVAL, g->cache.vals + s * NVAL, NVAL));
      k++;
    }
  d2[0] = (hsize_t)nc;
  d2[1] = (hsize_t)g->nw;
  PetscCall(H5WriteArr(g, f, "cache_keys", H5T_NATIVE_UINT64, 2, d2, keys));
  d2[1] = NVAL;
  PetscCall(H5WriteArr(g, f, "cache_values", H5T_NATIVE_DOUBLE, 2, d2, vals));
  PetscCall(PetscFree2(keys, vals));
  H5CK(H5Fclose(f));
  PetscCheck(!rename(tmp, g->ckpt), PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot rename the GA checkpoint %s (%s)", g->ckpt, tmp, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: restore the state if the checkpoint exists; msg says why not */
static PetscErrorCode CheckpointRead(DRGA g, PetscBool *found, char *msg, size_t len)
{
  hid_t     f, a, t;
  char      sig[sizeof(g->signature)] = "";
  long long i8;
  hsize_t   dims[2];
  int      *pf;

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  if (access(g->ckpt, F_OK)) PetscFunctionReturn(PETSC_SUCCESS);
  f = H5Fopen(g->ckpt, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    PetscCall(PetscSNPrintf(msg, len, "%s: cannot open the GA checkpoint as HDF5, expected a file written by dynred ga (delete it to start afresh)", g->ckpt));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  H5CK(a = H5Aopen(f, "signature", H5P_DEFAULT));
  H5CK(t = H5Tcopy(H5T_C_S1));
  H5CK(H5Tset_size(t, sizeof(sig)));
  H5CK(H5Aread(a, t, sig));
  H5Tclose(t);
  H5Aclose(a);
  if (strcmp(sig, g->signature)) {
    PetscCall(PetscSNPrintf(msg, len, "%s: GA checkpoint of a different optimisation (%s), expected %s; delete it or set ga.checkpoint", g->ckpt, sig, g->signature));
    H5Fclose(f);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  H5CK(a = H5Aopen(f, "generation", H5P_DEFAULT));
  H5CK(H5Aread(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  g->gen = (PetscInt)i8;
  H5CK(a = H5Aopen(f, "evaluations", H5P_DEFAULT));
  H5CK(H5Aread(a, H5T_NATIVE_LLONG, &i8));
  H5Aclose(a);
  g->nevals = (PetscInt)i8;
  H5CK(a = H5Aopen(f, "eref", H5P_DEFAULT));
  H5CK(H5Aread(a, H5T_NATIVE_DOUBLE, &g->eref));
  H5Aclose(a);
  PetscCall(H5ReadArr(g, f, "rng", H5T_NATIVE_UINT64, g->rng.s));
  PetscCall(H5ReadArr(g, f, "population", H5T_NATIVE_UINT64, g->P));
  PetscCall(H5ReadArr(g, f, "r", H5T_NATIVE_DOUBLE, g->Pr));
  PetscCall(H5ReadArr(g, f, "e", H5T_NATIVE_DOUBLE, g->Pe));
  PetscCall(H5ReadArr(g, f, "crowd", H5T_NATIVE_DOUBLE, g->Pcrowd));
  PetscCall(PetscMalloc1(2 * g->pop, &pf));
  PetscCall(H5ReadArr(g, f, "feasible_front", H5T_NATIVE_INT, pf));
  for (PetscInt i = 0; i < g->pop; i++) {
    g->Pfeas[i]  = (PetscBool)pf[i];
    g->Pfront[i] = pf[g->pop + i] < 0 ? PETSC_MAX_INT : pf[g->pop + i];
  }
  PetscCall(PetscFree(pf));
  PetscCall(H5ReadArr(g, f, "hypervolume", H5T_NATIVE_DOUBLE, g->hv));
  {
    hid_t     d, sp;
    uint64_t *keys;
    PetscReal *vals;
    H5CK(d = H5Dopen2(f, "cache_keys", H5P_DEFAULT));
    H5CK(sp = H5Dget_space(d));
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    H5Dclose(d);
    PetscCall(PetscMalloc2(dims[0] * g->nw + 1, &keys, dims[0] * NVAL + 1, &vals));
    if (dims[0]) {
      PetscCall(H5ReadArr(g, f, "cache_keys", H5T_NATIVE_UINT64, keys));
      PetscCall(H5ReadArr(g, f, "cache_values", H5T_NATIVE_DOUBLE, vals));
    }
    for (hsize_t k = 0; k < dims[0]; k++) PetscCall(DRBitCacheInsert(&g->cache, keys + k * g->nw, vals + k * NVAL));
    PetscCall(PetscFree2(keys, vals));
  }
  H5Fclose(f);
  *found = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGACheckpointWrite(DRGA g)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Checkpoint, 0, 0, 0, 0));
  PetscCall(CheckpointWrite(g));
  PetscCall(PetscLogEventEnd(DR_GA_Checkpoint, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGACheckpointRead(DRGA g, PetscBool *found, char *msg, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_GA_Checkpoint, 0, 0, 0, 0));
  PetscCall(CheckpointRead(g, found, msg, len));
  PetscCall(PetscLogEventEnd(DR_GA_Checkpoint, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRGARemoveCheckpoint(DRGA g)
{
  PetscFunctionBeginUser;
  if (g->rank == 0 && !access(g->ckpt, F_OK)) PetscCheck(!unlink(g->ckpt), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s: cannot remove the GA checkpoint (%s)", g->ckpt, strerror(errno));
  PetscFunctionReturn(PETSC_SUCCESS);
}
