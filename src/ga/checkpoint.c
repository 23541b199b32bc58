/* The GA checkpoint (gaimpl.h): an HDF5 side file written by rank 0 to
 * PATH.tmp and renamed, holding the population with its fronts, the RNG
 * state, the hypervolume history and the evaluation cache, so a restarted
 * run repeats exactly what the killed one would have done.  The signature
 * attribute names the optimisation; a checkpoint of another one is refused.
 *
 * The file goes through the core HDF5 helper layer (dynred/h5.h): every
 * HDF5 failure is one line naming the checkpoint and the object. */
#include "gaimpl.h"
#include <dynred/h5.h>
#include <dynred/preflight.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

/* Read dataset `name` of exactly `count` values into buf. */
static PetscErrorCode ReadArr(DRGA g, hid_t f, const char *name, hid_t mtype, hsize_t count, void *buf)
{
  int     nd;
  hsize_t dims[4], n = 1;

  PetscFunctionBeginUser;
  PetscCall(DRH5Dims(f, name, &nd, dims));
  for (int i = 0; i < nd; i++) n *= dims[i];
  PetscCheck(nd >= 1 && n == count, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: GA checkpoint dataset %s has %llu values%s, expected %llu (delete it to start afresh)", g->ckpt, name, (unsigned long long)(nd ? n : 0), nd ? "" : " (missing)", (unsigned long long)count);
  PetscCall(DRH5ReadRows(f, name, mtype, 0, dims[0], buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: the GA state after generation g->gen, to CKPT.tmp then renamed */
static PetscErrorCode CheckpointWrite(DRGA g)
{
  char       tmp[PETSC_MAX_PATH_LEN + 16];
  hid_t      f;
  hsize_t    d2[2], d1[1];
  PetscInt   nc = g->cache.n, k = 0;
  uint64_t  *keys;
  PetscReal *vals;
  int       *pf;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", g->ckpt));
  DRTempRegister(tmp); /* a stop signal removes it and keeps the previous checkpoint */
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, tmp, DR_H5_CREATE, &f));
  PetscCheck(f >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot create the GA checkpoint (HDF5) for ga.checkpoint = %s, expected a writable file", tmp, g->ckpt);
  PetscCall(DRH5AttrWriteString(f, ".", "signature", g->signature));
  PetscCall(DRH5AttrWriteInt(f, ".", "generation", H5T_NATIVE_LLONG, g->gen));
  PetscCall(DRH5AttrWriteInt(f, ".", "evaluations", H5T_NATIVE_LLONG, g->nevals));
  PetscCall(DRH5AttrWriteReal(f, ".", "eref", g->eref));
  d1[0] = 4;
  PetscCall(DRH5Write(f, "rng", H5T_NATIVE_UINT64, H5T_NATIVE_UINT64, 1, d1, PETSC_TRUE, g->rng.s));
  d2[0] = (hsize_t)g->pop;
  d2[1] = (hsize_t)g->nw;
  PetscCall(DRH5Write(f, "population", H5T_NATIVE_UINT64, H5T_NATIVE_UINT64, 2, d2, PETSC_TRUE, g->P));
  d1[0] = (hsize_t)g->pop;
  PetscCall(DRH5Write(f, "r", H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 1, d1, PETSC_TRUE, g->Pr));
  PetscCall(DRH5Write(f, "e", H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 1, d1, PETSC_TRUE, g->Pe));
  PetscCall(DRH5Write(f, "crowd", H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 1, d1, PETSC_TRUE, g->Pcrowd));
  PetscCall(PetscMalloc1(2 * g->pop, &pf));
  for (PetscInt i = 0; i < g->pop; i++) {
    pf[i]          = (int)g->Pfeas[i];
    pf[g->pop + i] = g->Pfront[i] == PETSC_MAX_INT ? -1 : (int)g->Pfront[i];
  }
  d2[0] = 2;
  d2[1] = (hsize_t)g->pop;
  PetscCall(DRH5Write(f, "feasible_front", H5T_NATIVE_INT, H5T_NATIVE_INT, 2, d2, PETSC_TRUE, pf));
  PetscCall(PetscFree(pf));
  d1[0] = (hsize_t)(g->gen + 1);
  PetscCall(DRH5Write(f, "hypervolume", H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 1, d1, PETSC_TRUE, g->hv));
  PetscCall(PetscMalloc2(nc * g->nw + 1, &keys, nc * NVAL + 1, &vals));
  for (PetscInt s = 0; s < g->cache.cap; s++)
    if (g->cache.used[s]) {
      PetscCall(PetscArraycpy(keys + k * g->nw, g->cache.keys + s * g->nw, g->nw));
      PetscCall(PetscArraycpy(vals + k * NVAL, g->cache.vals + s * NVAL, NVAL));
      k++;
    }
  d2[0] = (hsize_t)nc;
  d2[1] = (hsize_t)g->nw;
  PetscCall(DRH5Write(f, "cache_keys", H5T_NATIVE_UINT64, H5T_NATIVE_UINT64, 2, d2, PETSC_TRUE, keys));
  d2[1] = NVAL;
  PetscCall(DRH5Write(f, "cache_values", H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 2, d2, PETSC_TRUE, vals));
  PetscCall(PetscFree2(keys, vals));
  PetscCall(DRH5FileClose(&f));
  DRCriticalBegin();
  PetscCheck(!rename(tmp, g->ckpt), PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot rename the GA checkpoint %s (%s)", g->ckpt, tmp, strerror(errno));
  DRTempForget(tmp);
  DRCheckpointRegister(g->ckpt);
  DRCriticalEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rank 0: restore the state if the checkpoint exists; msg says why not */
static PetscErrorCode CheckpointRead(DRGA g, PetscBool *found, char *msg, size_t len)
{
  hid_t      f;
  char       sig[sizeof(g->signature)] = "";
  PetscInt64 i8;
  PetscBool  has[4];
  int       *pf, nd;
  hsize_t    dims[4];

  PetscFunctionBeginUser;
  *found = PETSC_FALSE;
  if (access(g->ckpt, F_OK)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, g->ckpt, DR_H5_READ, &f));
  if (f < 0) {
    PetscCall(PetscSNPrintf(msg, len, "%s: cannot open the GA checkpoint as HDF5, expected a file written by dynred ga (delete it to start afresh)", g->ckpt));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRH5AttrReadString(f, ".", "signature", sig, sizeof(sig), &has[0]));
  PetscCheck(has[0], PETSC_COMM_SELF, DR_ERR_INPUT, "%s: GA checkpoint without a signature attribute, expected a file written by dynred ga (delete it to start afresh)", g->ckpt);
  if (strcmp(sig, g->signature)) {
    PetscCall(PetscSNPrintf(msg, len, "%s: GA checkpoint of a different optimisation (%s), expected %s; delete it or set ga.checkpoint", g->ckpt, sig, g->signature));
    PetscCall(DRH5FileClose(&f));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRH5AttrReadInt(f, ".", "generation", &i8, &has[1]));
  g->gen = (PetscInt)i8;
  PetscCall(DRH5AttrReadInt(f, ".", "evaluations", &i8, &has[2]));
  g->nevals = (PetscInt)i8;
  PetscCall(DRH5AttrReadReal(f, ".", "eref", &g->eref, &has[3]));
  PetscCheck(has[1] && has[2] && has[3], PETSC_COMM_SELF, DR_ERR_INPUT, "%s: GA checkpoint without the generation, evaluations and eref attributes (delete it to start afresh)", g->ckpt);
  PetscCheck(g->gen >= 0 && g->gen <= g->maxgen, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: GA checkpoint at generation %" PetscInt_FMT ", expected 0..%" PetscInt_FMT " (delete it to start afresh)", g->ckpt, g->gen, g->maxgen);
  PetscCall(ReadArr(g, f, "rng", H5T_NATIVE_UINT64, 4, g->rng.s));
  PetscCall(ReadArr(g, f, "population", H5T_NATIVE_UINT64, (hsize_t)(g->pop * g->nw), g->P));
  PetscCall(ReadArr(g, f, "r", H5T_NATIVE_DOUBLE, (hsize_t)g->pop, g->Pr));
  PetscCall(ReadArr(g, f, "e", H5T_NATIVE_DOUBLE, (hsize_t)g->pop, g->Pe));
  PetscCall(ReadArr(g, f, "crowd", H5T_NATIVE_DOUBLE, (hsize_t)g->pop, g->Pcrowd));
  PetscCall(PetscMalloc1(2 * g->pop, &pf));
  PetscCall(ReadArr(g, f, "feasible_front", H5T_NATIVE_INT, (hsize_t)(2 * g->pop), pf));
  for (PetscInt i = 0; i < g->pop; i++) {
    g->Pfeas[i]  = (PetscBool)pf[i];
    g->Pfront[i] = pf[g->pop + i] < 0 ? PETSC_MAX_INT : pf[g->pop + i];
  }
  PetscCall(PetscFree(pf));
  PetscCall(ReadArr(g, f, "hypervolume", H5T_NATIVE_DOUBLE, (hsize_t)(g->gen + 1), g->hv));
  {
    uint64_t  *keys;
    PetscReal *vals;
    PetscCall(DRH5Dims(f, "cache_keys", &nd, dims));
    PetscCheck(nd == 2 && dims[1] == (hsize_t)g->nw, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: GA checkpoint dataset cache_keys is not [n, %" PetscInt_FMT "] (delete it to start afresh)", g->ckpt, g->nw);
    PetscCall(PetscMalloc2(dims[0] * g->nw + 1, &keys, dims[0] * NVAL + 1, &vals));
    if (dims[0]) {
      PetscCall(ReadArr(g, f, "cache_keys", H5T_NATIVE_UINT64, dims[0] * g->nw, keys));
      PetscCall(ReadArr(g, f, "cache_values", H5T_NATIVE_DOUBLE, dims[0] * NVAL, vals));
    }
    for (hsize_t k = 0; k < dims[0]; k++) PetscCall(DRBitCacheInsert(&g->cache, keys + k * g->nw, vals + k * NVAL));
    PetscCall(PetscFree2(keys, vals));
  }
  PetscCall(DRH5FileClose(&f));
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
  DRCheckpointForget(g->ckpt);
  PetscFunctionReturn(PETSC_SUCCESS);
}
