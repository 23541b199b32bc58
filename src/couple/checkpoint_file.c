/* One stored CMS superelement as an HDF5 file (checkpoint.c has the keys,
 * the lookup and the life cycle; the file layout is in DESIGN.md, "CMS
 * checkpoint"): written by the group's rank 0 to PATH.tmp and renamed, read
 * back with every array checked (key, format, sizes, checksum). */
#include "checkpointimpl.h"
#include <dynred/h5.h>
#include <dynred/preflight.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the sizes of a record's arrays: K, M are KSize^2 (a superelement's
 * nb + nq, a pencil's S_c, M_c nb); T is n x TCols */
static PetscInt KSize(const Stored *st)
{
  return st->pencil ? st->s.nb : st->s.nb + st->s.nq;
}
static PetscInt TCols(const Stored *st)
{
  return st->pencil ? st->s.nq : st->s.nb + st->s.nq;
}

static uint64_t Checksum(const Stored *st)
{
  const DRReductionSaved *s = &st->s;
  PetscInt                N = KSize(st), NT = TCols(st);
  uint64_t                h = FNV_OFFSET;

  Fnv(&h, s->blabels, sizeof(DRLabel) * (size_t)s->nb);
  Fnv(&h, s->pblabels, sizeof(DRLabel) * (size_t)s->pnb);
  Fnv(&h, s->qfreq_hz, sizeof(PetscReal) * (size_t)s->nq);
  Fnv(&h, s->K, sizeof(PetscReal) * (size_t)(N * N));
  Fnv(&h, s->M, sizeof(PetscReal) * (size_t)(N * N));
  Fnv(&h, st->Tall, sizeof(PetscReal) * (size_t)(s->n * NT));
  if (st->pencil) {
    Fnv(&h, st->lam, sizeof(PetscReal) * (size_t)s->nq);
    Fnv(&h, &st->qtop_hz, sizeof(PetscReal));
  }
  Fnv(&h, s->factor, strlen(s->factor));
  Fnv(&h, st->method, strlen(st->method));
  return h;
}

PetscErrorCode DRCMSCkptStoredFree_Private(Stored *st)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(st->s.blabels));
  PetscCall(PetscFree(st->s.pblabels));
  PetscCall(PetscFree(st->s.qfreq_hz));
  PetscCall(PetscFree(st->s.K));
  PetscCall(PetscFree(st->s.M));
  PetscCall(MatDestroy(&st->s.T));
  PetscCall(PetscFree(st->Tall));
  PetscCall(PetscFree(st->lam));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* nd = 1: d0 values; nd = 2: d0 x d1 (either may be 0: no dataset) */
static PetscErrorCode WriteArray(hid_t f, const char *name, hid_t type, int nd, hsize_t d0, hsize_t d1, const void *buf)
{
  hsize_t dims[2] = {d0, d1};

  PetscFunctionBeginUser;
  if (d0 * (nd == 2 ? d1 : 1) == 0) PetscFunctionReturn(PETSC_SUCCESS); /* empty: no dataset */
  PetscCall(DRH5Write(f, name, type, type, nd, dims, PETSC_TRUE, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Group rank 0: PATH.tmp written, then renamed to PATH. */
PetscErrorCode DRCMSCkptWrite_Private(const char *path, const char *name, uint64_t hash, const Stored *st)
{
  const DRReductionSaved *s = &st->s;
  char                    tmp[PETSC_MAX_PATH_LEN + 8], hx[32];
  hid_t                   f;
  PetscInt                N = KSize(st), NT = TCols(st);

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.tmp", path));
  DRTempRegister(tmp); /* a stop signal removes it; the whole files stay */
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, tmp, DR_H5_CREATE, &f));
  PetscCheck(f >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s: cannot create the CMS checkpoint file as HDF5 (set cms.checkpoint to a writable directory, or none)", tmp);
  PetscCall(DRH5AttrWriteString(f, ".", "format", st->pencil ? CKPT_PENCIL_FORMAT : CKPT_FORMAT));
  PetscCall(PetscSNPrintf(hx, sizeof(hx), "%016llx", (unsigned long long)hash));
  PetscCall(DRH5AttrWriteString(f, ".", "hash", hx));
  PetscCall(PetscSNPrintf(hx, sizeof(hx), "%016llx", (unsigned long long)Checksum(st)));
  PetscCall(DRH5AttrWriteString(f, ".", "checksum", hx));
  PetscCall(DRH5AttrWriteString(f, ".", "component", name));
  PetscCall(DRH5AttrWriteString(f, ".", "method", st->method));
  PetscCall(DRH5AttrWriteString(f, ".", "factor", s->factor[0] ? s->factor : "-"));
  PetscCall(DRH5AttrWriteInt(f, ".", "n", H5T_STD_I64LE, s->n));
  PetscCall(DRH5AttrWriteInt(f, ".", "nb", H5T_STD_I64LE, s->nb));
  PetscCall(DRH5AttrWriteInt(f, ".", "pnb", H5T_STD_I64LE, s->pnb));
  PetscCall(DRH5AttrWriteInt(f, ".", "nq", H5T_STD_I64LE, s->nq));
  PetscCall(WriteArray(f, "boundary_labels", H5T_NATIVE_INT64, 1, (hsize_t)s->nb, 0, s->blabels));
  PetscCall(WriteArray(f, "physical_boundary_labels", H5T_NATIVE_INT64, 1, (hsize_t)s->pnb, 0, s->pblabels));
  PetscCall(WriteArray(f, "component_frequencies_hz", H5T_NATIVE_DOUBLE, 1, (hsize_t)s->nq, 0, s->qfreq_hz));
  PetscCall(WriteArray(f, "K", H5T_NATIVE_DOUBLE, 2, (hsize_t)N, (hsize_t)N, s->K));
  PetscCall(WriteArray(f, "M", H5T_NATIVE_DOUBLE, 2, (hsize_t)N, (hsize_t)N, s->M));
  PetscCall(WriteArray(f, "T", H5T_NATIVE_DOUBLE, 2, (hsize_t)s->n, (hsize_t)NT, st->Tall));
  if (st->pencil) {
    PetscCall(WriteArray(f, "eigenvalues", H5T_NATIVE_DOUBLE, 1, (hsize_t)s->nq, 0, st->lam));
    PetscCall(DRH5AttrWriteReal(f, ".", "qtop_hz", st->qtop_hz));
  }
  PetscCall(DRH5FileClose(&f));
  DRCriticalBegin();
  PetscCheck(!rename(tmp, path), PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s: cannot rename the CMS checkpoint file %s (%s)", path, tmp, strerror(errno));
  DRTempForget(tmp);
  DRCriticalEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read dataset name of exactly d0 (nd = 1) or d0 x d1 (nd = 2) values; none when empty. */
static PetscErrorCode ReadArray(hid_t f, const char *name, hid_t type, int nd, hsize_t d0, hsize_t d1, void **buf, char *why, size_t len)
{
  int     fnd;
  hsize_t dims[4];

  PetscFunctionBeginUser;
  *buf = NULL;
  if (d0 * (nd == 2 ? d1 : 1) == 0) {
    PetscCall(PetscMalloc(sizeof(double), buf));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRH5Dims(f, name, &fnd, dims));
  if (fnd != nd || dims[0] != d0 || (nd == 2 && dims[1] != d1)) {
    PetscCall(PetscSNPrintf(why, len, "dataset %s missing or of another size", name));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRH5ReadAll(f, name, type, NULL, NULL, buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Group rank 0: the superelement of key `hash` for a component of n DOFs
 * from path into st; why[0] != 0: not usable (why says why). */
static PetscErrorCode ReadFileInner(const char *path, uint64_t hash, PetscInt n, Stored *st, hid_t *f, char *why, size_t len)
{
  DRReductionSaved *s = &st->s;
  char              buf[64], hx[32];
  PetscInt64        v[4];
  PetscBool         has[4];
  PetscInt          N, NT;
  const char       *fmt = st->pencil ? CKPT_PENCIL_FORMAT : CKPT_FORMAT;

  PetscFunctionBeginUser;
  PetscCall(DRH5FileOpen(MPI_COMM_NULL, path, DR_H5_READ, f));
  if (*f < 0) {
    PetscCall(PetscSNPrintf(why, len, "not an HDF5 file (truncated or foreign)"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRH5AttrReadString(*f, ".", "format", buf, sizeof(buf), &has[0]));
  if (!has[0] || strcmp(buf, fmt)) {
    PetscCall(PetscSNPrintf(why, len, "format '%s', expected '%s'", has[0] ? buf : "(none)", fmt));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscSNPrintf(hx, sizeof(hx), "%016llx", (unsigned long long)hash));
  PetscCall(DRH5AttrReadString(*f, ".", "hash", buf, sizeof(buf), &has[0]));
  if (!has[0] || strcmp(buf, hx)) {
    PetscCall(PetscSNPrintf(why, len, "its key is %s, expected %s (another component or options)", has[0] ? buf : "(none)", hx));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(DRH5AttrReadString(*f, ".", "method", st->method, sizeof(st->method), NULL));
  PetscCall(DRH5AttrReadString(*f, ".", "factor", s->factor, sizeof(s->factor), NULL));
  if (!strcmp(s->factor, "-")) s->factor[0] = 0;
  PetscCall(DRH5AttrReadInt(*f, ".", "n", &v[0], &has[0]));
  PetscCall(DRH5AttrReadInt(*f, ".", "nb", &v[1], &has[1]));
  PetscCall(DRH5AttrReadInt(*f, ".", "pnb", &v[2], &has[2]));
  PetscCall(DRH5AttrReadInt(*f, ".", "nq", &v[3], &has[3]));
  if (!(has[0] && has[1] && has[2] && has[3]) || v[0] != n || v[1] < 0 || v[1] > n || v[2] < 0 || v[2] > n || v[3] < 0 || v[3] > n) {
    PetscCall(PetscSNPrintf(why, len, "sizes missing or not those of a component of %" PetscInt_FMT " DOFs", n));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  s->n   = n;
  s->nb  = (PetscInt)v[1];
  s->pnb = (PetscInt)v[2];
  s->nq  = (PetscInt)v[3];
  N      = KSize(st);
  NT     = TCols(st);
  PetscCall(ReadArray(*f, "boundary_labels", H5T_NATIVE_INT64, 1, (hsize_t)s->nb, 0, (void **)&s->blabels, why, len));
  if (!why[0]) PetscCall(ReadArray(*f, "physical_boundary_labels", H5T_NATIVE_INT64, 1, (hsize_t)s->pnb, 0, (void **)&s->pblabels, why, len));
  if (!why[0]) PetscCall(ReadArray(*f, "component_frequencies_hz", H5T_NATIVE_DOUBLE, 1, (hsize_t)s->nq, 0, (void **)&s->qfreq_hz, why, len));
  if (!why[0]) PetscCall(ReadArray(*f, "K", H5T_NATIVE_DOUBLE, 2, (hsize_t)N, (hsize_t)N, (void **)&s->K, why, len));
  if (!why[0]) PetscCall(ReadArray(*f, "M", H5T_NATIVE_DOUBLE, 2, (hsize_t)N, (hsize_t)N, (void **)&s->M, why, len));
  if (!why[0]) PetscCall(ReadArray(*f, "T", H5T_NATIVE_DOUBLE, 2, (hsize_t)n, (hsize_t)NT, (void **)&st->Tall, why, len));
  if (!why[0] && st->pencil) {
    PetscCall(ReadArray(*f, "eigenvalues", H5T_NATIVE_DOUBLE, 1, (hsize_t)s->nq, 0, (void **)&st->lam, why, len));
    PetscCall(DRH5AttrReadReal(*f, ".", "qtop_hz", &st->qtop_hz, &has[0]));
    if (!why[0] && !has[0]) PetscCall(PetscSNPrintf(why, len, "attribute qtop_hz missing"));
  }
  if (why[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRH5AttrReadString(*f, ".", "checksum", buf, sizeof(buf), &has[0]));
  PetscCall(PetscSNPrintf(hx, sizeof(hx), "%016llx", (unsigned long long)Checksum(st)));
  if (!has[0] || strcmp(buf, hx)) PetscCall(PetscSNPrintf(why, len, "checksum %s of its arrays, expected %s (damaged)", hx, has[0] ? buf : "(none)"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A damaged file is an answer here, not an error: HDF5 failures become why. */
PetscErrorCode DRCMSCkptRead_Private(const char *path, uint64_t hash, PetscInt n, Stored *st, char *why, size_t len)
{
  PetscErrorCode ierr;
  hid_t          f = -1;

  PetscFunctionBeginUser;
  why[0] = 0;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = ReadFileInner(path, hash, n, st, &f, why, len);
  PetscCall(PetscPopErrorHandler());
  if (f >= 0) PetscCall(DRH5FileClose(&f));
  if (ierr && !why[0]) PetscCall(PetscSNPrintf(why, len, "HDF5 cannot read it (error %d)", (int)ierr));
  if (why[0]) {
    PetscCall(DRCMSCkptStoredFree_Private(st));
    PetscCall(PetscMemzero(st, sizeof(*st)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
