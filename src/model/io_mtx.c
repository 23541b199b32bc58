/* Matrix Market and DOF label files, and the streaming machinery every text
 * reader and writer of src/model/io_*.c uses (declared in io_impl.h):
 *
 *   rank 0 reads lines -> chunk of triplets -> scatter to owning ranks
 *   -> each rank sorts its triplets, counts diagonal/off-diagonal nonzeros
 *   per row, preallocates MATAIJ and inserts its rows.
 *
 * Matrix Market: "%%MatrixMarket matrix coordinate real|integer
 * general|symmetric", '%' comment lines, a size line "rows cols entries",
 * then one "row col value" line per entry, 1-based.  A symmetric file stores
 * one triangle (the standard says the lower; the upper is accepted too, but
 * not a mix of both); the other is mirrored here, and the matrix is marked
 * symmetric so validation skips the symmetry check.  A general file is read
 * as is and its symmetry is checked by DRComponentValidate. */
#include "io_impl.h"
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define DR_IO_BUFSIZE (1 << 20)

/* ======================================================================== */
/* Buffered line reader                                                     */
/* ======================================================================== */

PetscErrorCode DRLineReaderOpen(DRLineReader *r, const char *path, PetscBool *ok)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(r, sizeof(*r)));
  PetscCall(PetscStrncpy(r->path, path, sizeof(r->path)));
  r->f = fopen(path, "r");
  *ok  = r->f ? PETSC_TRUE : PETSC_FALSE;
  /* stdio allocates the (large) buffer itself and frees it at fclose. */
  if (r->f) (void)setvbuf(r->f, NULL, _IOFBF, DR_IO_BUFSIZE);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLineReaderNext(DRLineReader *r, PetscBool *got)
{
  ssize_t len;

  PetscFunctionBeginUser;
  *got = PETSC_FALSE;
  if (!r->f) PetscFunctionReturn(PETSC_SUCCESS);
  len = getline(&r->line, &r->cap, r->f);
  if (len < 0) PetscFunctionReturn(PETSC_SUCCESS);
  while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r')) r->line[--len] = '\0';
  r->len = (size_t)len;
  r->lineno++;
  *got = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLineReaderClose(DRLineReader *r)
{
  PetscFunctionBeginUser;
  if (r->f) (void)fclose(r->f);
  free(r->line); /* allocated by getline() */
  r->f    = NULL;
  r->line = NULL;
  r->cap  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool DRStrBlank(const char *s)
{
  for (; *s; s++)
    if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n') return PETSC_FALSE;
  return PETSC_TRUE;
}

/* ======================================================================== */
/* Collective input errors                                                  */
/* ======================================================================== */

PetscErrorCode DRInputStatusInit(MPI_Comm comm, DRInputStatus *st)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(st, sizeof(*st)));
  st->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &st->rank));
  PetscCallMPI(MPI_Comm_size(comm, &st->size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputFail(DRInputStatus *st, const char *fmt, ...)
{
  va_list ap;

  PetscFunctionBeginUser;
  if (!st->bad) {
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof(st->msg), fmt, ap);
    va_end(ap);
    st->bad = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputSync(DRInputStatus *st, PetscInt *more)
{
  PetscInt buf[2];

  PetscFunctionBeginUser;
  buf[0] = st->bad ? 1 : 0;
  buf[1] = more ? *more : 0;
  PetscCallMPI(MPI_Bcast(buf, 2, MPIU_INT, 0, st->comm));
  st->bad = buf[0] ? PETSC_TRUE : PETSC_FALSE;
  if (more) *more = buf[1];
  if (st->bad) PetscCallMPI(MPI_Bcast(st->msg, (PetscMPIInt)sizeof(st->msg), MPI_CHAR, 0, st->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInputSyncAll(DRInputStatus *st)
{
  PetscMPIInt who = st->bad ? st->rank : st->size, first;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, st->comm));
  if (first < st->size) {
    PetscCallMPI(MPI_Bcast(st->msg, (PetscMPIInt)sizeof(st->msg), MPI_CHAR, first, st->comm));
    st->bad = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Triplets sent to the owning ranks                                        */
/* ======================================================================== */

static MPI_Datatype dr_triplet_type = MPI_DATATYPE_NULL;

static PetscErrorCode TripletTypeFree(void)
{
  PetscFunctionBeginUser;
  if (dr_triplet_type != MPI_DATATYPE_NULL) PetscCallMPI(MPI_Type_free(&dr_triplet_type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The MPI datatype of one DRTriplet: plain bytes, as the struct travels
 * between identical processes.  Created once, freed by PetscFinalize. */
static PetscErrorCode TripletType(MPI_Datatype *type)
{
  PetscFunctionBeginUser;
  if (dr_triplet_type == MPI_DATATYPE_NULL) {
    PetscCallMPI(MPI_Type_contiguous((PetscMPIInt)sizeof(DRTriplet), MPI_BYTE, &dr_triplet_type));
    PetscCallMPI(MPI_Type_commit(&dr_triplet_type));
    PetscCall(PetscRegisterFinalize(TripletTypeFree));
  }
  *type = dr_triplet_type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsCreate(MPI_Comm comm, PetscInt n, DRTriplets *t)
{
  PetscInt cap = DR_IO_CHUNK;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  t->comm = comm;
  t->n    = n;
  PetscCallMPI(MPI_Comm_rank(comm, &t->rank));
  PetscCallMPI(MPI_Comm_size(comm, &t->size));
  PetscCall(PetscLayoutCreate(comm, &t->map));
  PetscCall(PetscLayoutSetSize(t->map, n));
  PetscCall(PetscLayoutSetBlockSize(t->map, 1));
  PetscCall(PetscLayoutSetUp(t->map));
  /* -dr_io_chunk lets the tests push a tiny file through many exchanges. */
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_io_chunk", &cap, NULL));
  t->cap = PetscMax(cap, 2);
  if (t->rank == 0) {
    PetscCall(PetscMalloc1(t->cap, &t->chunk));
    if (t->size > 1) PetscCall(PetscMalloc1(t->cap, &t->sendbuf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsDestroy(DRTriplets *t)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree(t->chunk));
  PetscCall(PetscFree(t->sendbuf));
  PetscCall(PetscFree(t->local));
  PetscCall(PetscLayoutDestroy(&t->map));
  t->nchunk = t->nlocal = t->caplocal = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TripletsReserve(DRTriplets *t, PetscInt more)
{
  PetscFunctionBeginUser;
  if (t->nlocal + more > t->caplocal) {
    PetscInt   cap = PetscMax(t->nlocal + more, t->caplocal + t->caplocal / 2 + 16);
    DRTriplet *tmp;
    PetscCall(PetscMalloc1(cap, &tmp));
    if (t->nlocal) PetscCall(PetscArraycpy(tmp, t->local, t->nlocal));
    PetscCall(PetscFree(t->local));
    t->local    = tmp;
    t->caplocal = cap;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRTripletsExchange(DRTriplets *t)
{
  PetscMPIInt  *counts = NULL, *displs = NULL, mine = 0;
  MPI_Datatype  type;

  PetscFunctionBeginUser;
  if (t->size == 1) {
    PetscCall(TripletsReserve(t, t->nchunk));
    if (t->nchunk) PetscCall(PetscArraycpy(t->local + t->nlocal, t->chunk, t->nchunk));
    t->nlocal += t->nchunk;
    t->nchunk = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(TripletType(&type));
  if (t->rank == 0) {
    PetscMPIInt *fill;
    PetscCall(PetscCalloc2(t->size, &counts, t->size + 1, &displs));
    PetscCall(PetscCalloc1(t->size, &fill));
    /* Counting sort of the chunk by owner: rows are in contiguous ranges. */
    for (PetscInt k = 0; k < t->nchunk; k++) {
      PetscMPIInt owner;
      PetscCall(PetscLayoutFindOwner(t->map, t->chunk[k].i, &owner));
      counts[owner]++;
    }
    for (PetscMPIInt r = 0; r < t->size; r++) displs[r + 1] = displs[r] + counts[r];
    for (PetscInt k = 0; k < t->nchunk; k++) {
      PetscMPIInt owner;
      PetscCall(PetscLayoutFindOwner(t->map, t->chunk[k].i, &owner));
      t->sendbuf[displs[owner] + fill[owner]++] = t->chunk[k];
    }
    PetscCall(PetscFree(fill));
  }
  PetscCallMPI(MPI_Scatter(counts, 1, MPI_INT, &mine, 1, MPI_INT, 0, t->comm));
  PetscCall(TripletsReserve(t, mine));
  PetscCallMPI(MPI_Scatterv(t->sendbuf, counts, displs, type, t->local + t->nlocal, mine, type, 0, t->comm));
  t->nlocal += mine;
  t->nchunk = 0;
  if (t->rank == 0) PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CmpTriplet(const void *a, const void *b)
{
  const DRTriplet *x = (const DRTriplet *)a, *y = (const DRTriplet *)b;
  if (x->i != y->i) return x->i < y->i ? -1 : 1;
  return x->j < y->j ? -1 : (x->j > y->j);
}

PetscErrorCode DRTripletsAssemble(DRTriplets *t, Mat *A)
{
  PetscInt     rstart, rend, m, nu = 0, maxrow = 0, *dnnz, *onnz, *cols;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(PetscLayoutGetRange(t->map, &rstart, &rend));
  m = rend - rstart;
  /* Sorted by (row, col); repeated entries add, as in FE assembly. */
  if (t->nlocal) qsort(t->local, (size_t)t->nlocal, sizeof(DRTriplet), CmpTriplet);
  for (PetscInt k = 0; k < t->nlocal; k++) {
    if (nu && t->local[nu - 1].i == t->local[k].i && t->local[nu - 1].j == t->local[k].j) t->local[nu - 1].v += t->local[k].v;
    else t->local[nu++] = t->local[k];
  }
  t->nlocal = nu;
  PetscCall(PetscCalloc2(m + 1, &dnnz, m + 1, &onnz));
  for (PetscInt k = 0; k < nu; k++) {
    PetscInt j = t->local[k].j;
    PetscCheck(t->local[k].i >= rstart && t->local[k].i < rend, PETSC_COMM_SELF, PETSC_ERR_PLIB, "received row %" PetscInt_FMT " outside %" PetscInt_FMT "..%" PetscInt_FMT, t->local[k].i, rstart, rend);
    if (j >= rstart && j < rend) dnnz[t->local[k].i - rstart]++;
    else onnz[t->local[k].i - rstart]++;
  }
  for (PetscInt r = 0; r < m; r++) maxrow = PetscMax(maxrow, dnnz[r] + onnz[r]);
  PetscCall(MatCreate(t->comm, A));
  PetscCall(MatSetSizes(*A, m, m, t->n, t->n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatXAIJSetPreallocation(*A, 1, dnnz, onnz, NULL, NULL));
  PetscCall(MatSetOption(*A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  PetscCall(PetscFree2(dnnz, onnz));
  PetscCall(PetscMalloc2(maxrow + 1, &cols, maxrow + 1, &vals));
  for (PetscInt k = 0; k < nu;) {
    PetscInt row = t->local[k].i, nc = 0;
    for (; k < nu && t->local[k].i == row; k++) {
      cols[nc]   = t->local[k].j;
      vals[nc++] = t->local[k].v;
    }
    PetscCall(MatSetValues(*A, 1, &row, nc, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  /* The triplets are in the matrix now: free them before assembly. */
  PetscCall(PetscFree(t->local));
  t->nlocal = t->caplocal = 0;
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (t->symmetric) {
    PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(*A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Writers: temporary names, streaming rows to rank 0                       */
/* ======================================================================== */

PetscErrorCode DRTmpPath(MPI_Comm comm, const char *path, char *tmp, size_t len)
{
  long pid = (long)getpid();

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&pid, 1, MPI_LONG, 0, comm));
  snprintf(tmp, len, "%s.tmp.%ld", path, pid);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFileOpenWrite(MPI_Comm comm, const char *tmp, FILE **f)
{
  DRInputStatus st;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  *f = NULL;
  if (st.rank == 0) {
    *f = fopen(tmp, "w");
    if (!*f) PetscCall(DRInputFail(&st, "%s: cannot create (%s), expected a writable directory", tmp, strerror(errno)));
    else (void)setvbuf(*f, NULL, _IOFBF, DR_IO_BUFSIZE);
  }
  PetscCall(DRInputSync(&st, NULL));
  DRInputCheck(&st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFileCommit(MPI_Comm comm, FILE **f, const char *tmp, const char *path)
{
  DRInputStatus st;

  PetscFunctionBeginUser;
  PetscCall(DRInputStatusInit(comm, &st));
  /* Every rank has finished its part once rank 0 gets here after this
   * barrier (HDF5 writers close their file collectively before). */
  PetscCallMPI(MPI_Barrier(comm));
  if (st.rank == 0) {
    if (f && *f) {
      int werr = ferror(*f), cerr = fclose(*f);
      *f       = NULL;
      if (werr || cerr) PetscCall(DRInputFail(&st, "%s: writing failed (%s), expected space on the device", tmp, strerror(errno)));
    }
    if (!st.bad && rename(tmp, path)) PetscCall(DRInputFail(&st, "%s: cannot rename to %s (%s)", tmp, path, strerror(errno)));
    if (st.bad) (void)remove(tmp);
  }
  PetscCall(DRInputSync(&st, NULL));
  DRInputCheck(&st);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatCountEntries(Mat A, PetscBool lower, PetscInt64 *nnz)
{
  PetscInt        rs, re, nc;
  const PetscInt *cols;
  PetscInt64      loc = 0;
  MPI_Comm        comm;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    if (!lower) loc += nc;
    else
      for (PetscInt k = 0; k < nc; k++) loc += cols[k] <= i;
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  PetscCallMPI(MPI_Allreduce(&loc, nnz, 1, MPIU_INT64, MPI_SUM, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PrintTriplets(FILE *f, PetscInt n, const DRTriplet *e, PetscBool swap)
{
  for (PetscInt k = 0; k < n; k++) {
    long long r = (long long)e[k].i + 1, c = (long long)e[k].j + 1;
    fprintf(f, "%lld %lld %.17g\n", swap ? c : r, swap ? r : c, (double)PetscRealPart(e[k].v));
  }
}

PetscErrorCode DRMatStreamToRoot(Mat A, PetscBool lower, PetscBool swap, FILE *f)
{
  MPI_Comm           comm;
  PetscMPIInt        rank, size, tag;
  PetscInt           rs, re, nc, cap = DR_IO_CHUNK, nbuf = 0;
  const PetscInt    *cols;
  const PetscScalar *vals;
  PetscInt64         mine = 0, *counts = NULL;
  DRTriplet         *buf;
  MPI_Datatype       type;

  PetscFunctionBeginUser;
  PetscCall(TripletType(&type));
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscObjectGetNewTag((PetscObject)A, &tag));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dr_io_chunk", &cap, NULL));
  cap = PetscMax(cap, 1);
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
    for (PetscInt k = 0; k < nc; k++) mine += !lower || cols[k] <= i;
    PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
  }
  if (rank == 0) PetscCall(PetscMalloc1(size, &counts));
  PetscCallMPI(MPI_Gather(&mine, 1, MPIU_INT64, counts, 1, MPIU_INT64, 0, comm));
  PetscCall(PetscMalloc1(cap, &buf));
  /* Rank 0 prints its rows, then receives every other rank's in rank order,
   * chunk by chunk: the file is in global row order. */
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++) {
      if (lower && cols[k] > i) continue;
      buf[nbuf].i   = i;
      buf[nbuf].j   = cols[k];
      buf[nbuf++].v = vals[k];
      if (nbuf == cap) {
        if (rank == 0) PrintTriplets(f, nbuf, buf, swap);
        else PetscCallMPI(MPI_Send(buf, (PetscMPIInt)nbuf, type, 0, tag, comm));
        nbuf = 0;
      }
    }
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  if (nbuf) {
    if (rank == 0) PrintTriplets(f, nbuf, buf, swap);
    else PetscCallMPI(MPI_Send(buf, (PetscMPIInt)nbuf, type, 0, tag, comm));
  }
  if (rank == 0) {
    for (PetscMPIInt r = 1; r < size; r++) {
      for (PetscInt64 left = counts[r]; left > 0;) {
        MPI_Status  status;
        PetscMPIInt got;
        PetscCallMPI(MPI_Recv(buf, (PetscMPIInt)cap, type, r, tag, comm, &status));
        PetscCallMPI(MPI_Get_count(&status, type, &got));
        PrintTriplets(f, got, buf, swap);
        left -= got;
      }
    }
  }
  PetscCall(PetscFree(buf));
  PetscCall(PetscFree(counts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Component helpers                                                        */
/* ======================================================================== */

PetscErrorCode DRComponentBcastGeometry(DRComponent c)
{
  PetscMPIInt rank;
  PetscInt    hdr[4] = {c->nnodes, (PetscInt)c->celltype, c->ncells, c->nsets}, nv;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(c->comm, &rank));
  PetscCallMPI(MPI_Bcast(hdr, 4, MPIU_INT, 0, c->comm));
  nv = DRCellNodes((DRCellType)hdr[1]);
  if (rank) {
    c->nnodes   = hdr[0];
    c->celltype = (DRCellType)hdr[1];
    c->ncells   = hdr[2];
    PetscCall(PetscMalloc1(c->nnodes, &c->node_ids));
    PetscCall(PetscMalloc1(3 * c->nnodes, &c->xyz));
    PetscCall(PetscMalloc1(c->ncells * nv, &c->cells));
  }
  if (c->nnodes) {
    PetscCallMPI(MPI_Bcast(c->node_ids, (PetscMPIInt)c->nnodes, MPIU_INT, 0, c->comm));
    PetscCallMPI(MPI_Bcast(c->xyz, (PetscMPIInt)(3 * c->nnodes), MPIU_REAL, 0, c->comm));
  }
  if (c->ncells > 0 && nv > 0) PetscCallMPI(MPI_Bcast(c->cells, (PetscMPIInt)(c->ncells * nv), MPIU_INT, 0, c->comm));
  for (PetscInt s = 0; s < hdr[3]; s++) {
    char      name[64];
    PetscInt  n     = rank ? 0 : c->sets[s].n;
    PetscInt *nodes = rank ? NULL : c->sets[s].nodes;
    if (!rank) PetscCall(PetscStrncpy(name, c->sets[s].name, sizeof(name)));
    PetscCallMPI(MPI_Bcast(name, (PetscMPIInt)sizeof(name), MPI_CHAR, 0, c->comm));
    PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, c->comm));
    if (rank) PetscCall(PetscMalloc1(n, &nodes));
    if (n) PetscCallMPI(MPI_Bcast(nodes, (PetscMPIInt)n, MPIU_INT, 0, c->comm));
    if (rank) {
      PetscCall(DRComponentAddNodeSet(c, name, n, nodes));
      PetscCall(PetscFree(nodes));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentCheckSizes(DRComponent c, const char *kpath, const char *mpath, const char *dpath, const char *dofpath)
{
  PetscInt nk, mk, nm, mm;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(c->K, &mk, &nk));
  PetscCheck(mk == nk, c->comm, DR_ERR_INPUT, "%s: K is %" PetscInt_FMT " x %" PetscInt_FMT ", expected a square matrix", kpath, mk, nk);
  PetscCall(MatGetSize(c->M, &mm, &nm));
  PetscCheck(mm == mk && nm == nk, c->comm, DR_ERR_INPUT, "%s: M is %" PetscInt_FMT " x %" PetscInt_FMT " but K (%s) is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", mpath, mm, nm, kpath, mk, nk);
  if (c->D) {
    PetscCall(MatGetSize(c->D, &mm, &nm));
    PetscCheck(mm == mk && nm == nk, c->comm, DR_ERR_INPUT, "%s: D is %" PetscInt_FMT " x %" PetscInt_FMT " but K (%s) is %" PetscInt_FMT " x %" PetscInt_FMT ", expected the same size", dpath, mm, nm, kpath, mk, nk);
  }
  PetscCheck(c->n == mk, c->comm, DR_ERR_INPUT, "%s: has %" PetscInt_FMT " labels but K (%s) has %" PetscInt_FMT " rows, expected one label per row", dofpath, c->n, kpath, mk);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentNameMats(DRComponent c)
{
  char buf[128];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_K", c->name));
  PetscCall(PetscObjectSetName((PetscObject)c->K, buf));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_M", c->name));
  PetscCall(PetscObjectSetName((PetscObject)c->M, buf));
  if (c->D) {
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%s_D", c->name));
    PetscCall(PetscObjectSetName((PetscObject)c->D, buf));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* DOF label files                                                          */
/* ======================================================================== */

PetscErrorCode DRLabelsRead(MPI_Comm comm, const char *path, PetscInt *n, DRLabel **labels)
{
  DRInputStatus st;
  DRLineReader  r;
  PetscInt      cnt = 0, cap = 0;
  DRLabel      *lab = NULL;
  PetscInt64   *line = NULL;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Read, 0, 0, 0, 0));
  PetscCall(DRInputStatusInit(comm, &st));
  if (st.rank == 0) {
    PetscBool ok, got;
    PetscCall(DRLineReaderOpen(&r, path, &ok));
    if (!ok) PetscCall(DRInputFail(&st, "%s: cannot open (%s), expected a DOF label file (node.direction per row)", path, strerror(errno)));
    while (!st.bad) {
      PetscCall(DRLineReaderNext(&r, &got));
      if (!got) break;
      if (DRStrBlank(r.line)) continue;
      if (cnt == cap) {
        DRLabel    *l2;
        PetscInt64 *n2;
        cap = 2 * cap + 1024;
        PetscCall(PetscMalloc2(cap, &l2, cap, &n2));
        if (cnt) {
          PetscCall(PetscArraycpy(l2, lab, cnt));
          PetscCall(PetscArraycpy(n2, line, cnt));
        }
        PetscCall(PetscFree2(lab, line));
        lab  = l2;
        line = n2;
      }
      if (!DRLabelParse(r.line, &lab[cnt])) {
        char *s = r.line;
        while (*s == ' ' || *s == '\t') s++;
        PetscCall(DRInputFail(&st, "%s:%lld: label '%.64s' is not node.direction with direction 1..6", path, (long long)r.lineno, s));
      }
      line[cnt++] = r.lineno;
    }
    PetscCall(DRLineReaderClose(&r));
    if (!st.bad && cnt == 0) PetscCall(DRInputFail(&st, "%s: has no labels, expected one node.direction per matrix row", path));
    if (!st.bad) {
      /* Duplicates named by the line of the repeat. */
      DRLabel  *sorted;
      PetscInt *perm, worst = -1;
      char      b[32];
      PetscCall(DRLabelsSort(cnt, lab, &sorted, &perm));
      for (PetscInt k = 1; k < cnt; k++)
        if (sorted[k] == sorted[k - 1] && (worst < 0 || perm[k] < perm[worst])) worst = k;
      if (worst >= 0) PetscCall(DRInputFail(&st, "%s:%lld: label %s repeats line %lld, expected one row per label", path, (long long)line[perm[worst]], DRLabelString(sorted[worst], b), (long long)line[perm[worst - 1]]));
      PetscCall(PetscFree(sorted));
      PetscCall(PetscFree(perm));
    }
  }
  PetscCall(DRInputSync(&st, &cnt));
  if (st.bad) PetscCall(PetscFree2(lab, line));
  DRInputCheck(&st);
  if (st.rank == 0) {
    PetscCall(PetscMalloc1(cnt, labels));
    PetscCall(PetscArraycpy(*labels, lab, cnt));
    PetscCall(PetscFree2(lab, line));
  } else PetscCall(PetscMalloc1(cnt, labels));
  PetscCallMPI(MPI_Bcast(*labels, (PetscMPIInt)cnt, MPIU_INT64, 0, comm));
  *n = cnt;
  PetscCall(PetscLogEventEnd(DR_EVENT_Read, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLabelsWrite(MPI_Comm comm, const char *path, PetscInt n, const DRLabel labels[])
{
  char  tmp[PETSC_MAX_PATH_LEN + 32], b[32];
  FILE *f;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCall(DRTmpPath(comm, path, tmp, sizeof(tmp)));
  PetscCall(DRFileOpenWrite(comm, tmp, &f));
  if (f)
    for (PetscInt i = 0; i < n; i++) fprintf(f, "%s\n", DRLabelString(labels[i], b));
  PetscCall(DRFileCommit(comm, &f, tmp, path));
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ======================================================================== */
/* Matrix Market                                                            */
/* ======================================================================== */

int DRParseEntry(char *s, long long *i, long long *j, double *v, char **vtok, int *vlen)
{
  char *e;
  *i = strtoll(s, &e, 10);
  if (e == s) return 0;
  s  = e;
  *j = strtoll(s, &e, 10);
  if (e == s) return 0;
  s = e;
  while (*s == ' ' || *s == '\t') s++;
  *v = strtod(s, &e);
  if (e == s) return 0;
  *vtok = s;
  *vlen = (int)(e - s);
  while (*e == ' ' || *e == '\t') e++;
  return *e == '\0';
}

PetscErrorCode DRCheckEntry(DRInputStatus *st, const char *path, PetscInt64 lineno, const char *line, int parsed, long long i, long long j, double v, const char *vtok, int vlen, PetscInt n, const char *expect)
{
  PetscFunctionBeginUser;
  if (!parsed) {
    while (*line == ' ' || *line == '\t') line++;
    PetscCall(DRInputFail(st, "%s:%lld: found '%.80s', expected %s", path, (long long)lineno, line, expect));
  } else if (i < 1 || i > n) PetscCall(DRInputFail(st, "%s:%lld: row index %lld out of range 1..%" PetscInt_FMT, path, (long long)lineno, i, n));
  else if (j < 1 || j > n) PetscCall(DRInputFail(st, "%s:%lld: column index %lld out of range 1..%" PetscInt_FMT, path, (long long)lineno, j, n));
  else if (!isfinite(v)) PetscCall(DRInputFail(st, "%s:%lld: value '%.*s' is not a finite number (NaN or Inf), expected a finite real", path, (long long)lineno, vlen, vtok));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt   n;
  PetscInt64 nnz;
  PetscBool  symmetric;
} MMHeader;

/* Rank 0: banner, comments, size line. */
static PetscErrorCode MMReadHeader(DRInputStatus *st, DRLineReader *r, const char *path, MMHeader *h)
{
  PetscBool got;
  char      tok[5][64];
  int       ntok;

  PetscFunctionBeginUser;
  PetscCall(DRLineReaderNext(r, &got));
  if (!got) {
    PetscCall(DRInputFail(st, "%s: is empty, expected a '%%%%MatrixMarket matrix coordinate real symmetric|general' header", path));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  ntok = sscanf(r->line, "%63s %63s %63s %63s %63s", tok[0], tok[1], tok[2], tok[3], tok[4]);
  if (ntok != 5 || strcasecmp(tok[0], "%%MatrixMarket") || strcasecmp(tok[1], "matrix") || strcasecmp(tok[2], "coordinate") || (strcasecmp(tok[3], "real") && strcasecmp(tok[3], "integer") && strcasecmp(tok[3], "double")) || (strcasecmp(tok[4], "general") && strcasecmp(tok[4], "symmetric"))) {
    PetscCall(DRInputFail(st, "%s:1: header '%.100s' is not supported, expected '%%%%MatrixMarket matrix coordinate real symmetric|general'", path, r->line));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  h->symmetric = strcasecmp(tok[4], "symmetric") ? PETSC_FALSE : PETSC_TRUE;
  for (;;) {
    long long m = 0, n = 0, nnz = 0;
    char     *s, *e;
    PetscCall(DRLineReaderNext(r, &got));
    if (!got) {
      PetscCall(DRInputFail(st, "%s: ends before the size line, expected 'rows columns entries'", path));
      break;
    }
    if (r->line[0] == '%' || DRStrBlank(r->line)) continue;
    s = r->line;
    m = strtoll(s, &e, 10);
    if (e != s) {
      s = e;
      n = strtoll(s, &e, 10);
    }
    if (e != s) {
      s   = e;
      nnz = strtoll(s, &e, 10);
    }
    if (e == s || !DRStrBlank(e) || m < 0 || n < 0 || nnz < 0) {
      PetscCall(DRInputFail(st, "%s:%lld: size line '%.80s' is not 'rows columns entries'", path, (long long)r->lineno, r->line));
      break;
    }
    if (m != n) {
      PetscCall(DRInputFail(st, "%s:%lld: matrix is %lld x %lld, expected a square matrix", path, (long long)r->lineno, m, n));
      break;
    }
    if (n > PETSC_MAX_INT) {
      PetscCall(DRInputFail(st, "%s:%lld: %lld rows exceed this PETSc build's 32-bit indices, expected a PETSc configured --with-64-bit-indices", path, (long long)r->lineno, n));
      break;
    }
    h->n   = (PetscInt)n;
    h->nnz = nnz;
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatReadMatrixMarket(MPI_Comm comm, const char *path, Mat *A)
{
  DRInputStatus st;
  DRLineReader  r;
  DRTriplets    t;
  MMHeader      h    = {0, 0, PETSC_FALSE};
  PetscInt64    done = 0, below = 0, above = 0; /* line of the first entry in each strict triangle */
  PetscInt      hdr[2];
  const char   *expect = "'row column value'";

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Read, 0, 0, 0, 0));
  PetscCall(DRInputStatusInit(comm, &st));
  PetscCall(PetscMemzero(&r, sizeof(r)));
  if (st.rank == 0) {
    PetscBool ok;
    PetscCall(DRLineReaderOpen(&r, path, &ok));
    if (!ok) PetscCall(DRInputFail(&st, "%s: cannot open (%s), expected a Matrix Market file", path, strerror(errno)));
    else PetscCall(MMReadHeader(&st, &r, path, &h));
  }
  PetscCall(DRInputSync(&st, NULL));
  if (st.bad) PetscCall(DRLineReaderClose(&r));
  DRInputCheck(&st);
  hdr[0] = h.n;
  hdr[1] = h.symmetric;
  PetscCallMPI(MPI_Bcast(hdr, 2, MPIU_INT, 0, comm));
  PetscCall(DRTripletsCreate(comm, hdr[0], &t));
  t.symmetric = hdr[1] ? PETSC_TRUE : PETSC_FALSE;
  for (;;) {
    PetscInt more = 0;
    if (st.rank == 0) {
      PetscBool got;
      while (!st.bad && done < h.nnz && !DRTripletsFull(&t)) {
        long long i, j;
        double    v;
        char     *vtok = NULL;
        int       vlen = 0, parsed;
        PetscCall(DRLineReaderNext(&r, &got));
        if (!got) {
          PetscCall(DRInputFail(&st, "%s: ends after %lld of %lld entries", path, (long long)done, (long long)h.nnz));
          break;
        }
        if (r.line[0] == '%' || DRStrBlank(r.line)) continue;
        parsed = DRParseEntry(r.line, &i, &j, &v, &vtok, &vlen);
        PetscCall(DRCheckEntry(&st, path, r.lineno, r.line, parsed, i, j, v, vtok, vlen, h.n, expect));
        if (st.bad) break;
        if (h.symmetric && i != j) {
          PetscInt64 *mine = i > j ? &below : &above, *other = i > j ? &above : &below;
          if (!*mine) *mine = r.lineno;
          if (*other) {
            PetscCall(DRInputFail(&st, "%s:%lld: entry (%lld, %lld) is %s the diagonal but line %lld holds one %s it, expected a 'symmetric' file to store one triangle", path, (long long)r.lineno, i, j, i > j ? "below" : "above", (long long)*other, i > j ? "above" : "below"));
            break;
          }
        }
        DRTripletsAdd(&t, (PetscInt)(i - 1), (PetscInt)(j - 1), (PetscScalar)v, h.symmetric);
        done++;
      }
      /* Whatever follows the last entry may only be comments. */
      while (!st.bad && done == h.nnz) {
        PetscCall(DRLineReaderNext(&r, &got));
        if (!got) break;
        if (r.line[0] == '%' || DRStrBlank(r.line)) continue;
        PetscCall(DRInputFail(&st, "%s:%lld: more entries than the %lld the size line announced", path, (long long)r.lineno, (long long)h.nnz));
      }
      more = !st.bad && done < h.nnz;
    }
    PetscCall(DRInputSync(&st, &more));
    if (st.bad) {
      PetscCall(DRLineReaderClose(&r));
      PetscCall(DRTripletsDestroy(&t));
    }
    DRInputCheck(&st);
    PetscCall(DRTripletsExchange(&t));
    if (!more) break;
  }
  PetscCall(DRLineReaderClose(&r));
  PetscCall(DRTripletsAssemble(&t, A));
  PetscCall(DRTripletsDestroy(&t));
  PetscCall(PetscLogEventEnd(DR_EVENT_Read, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMatWriteMatrixMarket(Mat A, const char *path, PetscBool symmetric)
{
  MPI_Comm   comm;
  char       tmp[PETSC_MAX_PATH_LEN + 32];
  FILE      *f;
  PetscInt   m, n;
  PetscInt64 nnz;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Write, 0, 0, 0, 0));
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetSize(A, &m, &n));
  PetscCheck(!symmetric || m == n, comm, PETSC_ERR_ARG_SIZ, "%s: a symmetric Matrix Market file needs a square matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, path, m, n);
  PetscCall(DRMatCountEntries(A, symmetric, &nnz));
  PetscCall(DRTmpPath(comm, path, tmp, sizeof(tmp)));
  PetscCall(DRFileOpenWrite(comm, tmp, &f));
  if (f) {
    fprintf(f, "%%%%MatrixMarket matrix coordinate real %s\n", symmetric ? "symmetric" : "general");
    fprintf(f, "%% written by dynred %s%s\n", DYNRED_VERSION, symmetric ? " (lower triangle)" : "");
    fprintf(f, "%lld %lld %lld\n", (long long)m, (long long)n, (long long)nnz);
  }
  PetscCall(DRMatStreamToRoot(A, symmetric, PETSC_FALSE, f));
  PetscCall(DRFileCommit(comm, &f, tmp, path));
  PetscCall(PetscLogEventEnd(DR_EVENT_Write, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentReadMTX(MPI_Comm comm, const char *name, const char *K, const char *M, const char *D, const char *dofs, DRComponent *c)
{
  DRComponent C;

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_Read, 0, 0, 0, 0));
  PetscCall(DRComponentCreate(comm, name, &C));
  PetscCall(PetscStrncpy(C->source, K, sizeof(C->source)));
  PetscCall(DRMatReadMatrixMarket(comm, K, &C->K));
  PetscCall(DRMatReadMatrixMarket(comm, M, &C->M));
  if (D && D[0]) PetscCall(DRMatReadMatrixMarket(comm, D, &C->D));
  PetscCall(DRLabelsRead(comm, dofs, &C->n, &C->labels));
  PetscCall(DRComponentCheckSizes(C, K, M, D, dofs));
  PetscCall(DRComponentNameMats(C));
  PetscCall(DRComponentValidate(C, DR_SYMMETRY_RTOL));
  *c = C;
  PetscCall(PetscLogEventEnd(DR_EVENT_Read, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Symmetric storage when the matrix is known to be symmetric (a validated
 * component always is). */
static PetscErrorCode WriteMaybeSymmetric(Mat A, const char *path)
{
  PetscBool known, sym;

  PetscFunctionBeginUser;
  PetscCall(MatIsSymmetricKnown(A, &known, &sym));
  PetscCall(DRMatWriteMatrixMarket(A, path, (PetscBool)(known && sym)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRComponentWriteMTX(DRComponent c, const char *prefix)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s_K.mtx", prefix));
  PetscCall(WriteMaybeSymmetric(c->K, path));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s_M.mtx", prefix));
  PetscCall(WriteMaybeSymmetric(c->M, path));
  if (c->D) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s_D.mtx", prefix));
    PetscCall(WriteMaybeSymmetric(c->D, path));
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s.dof", prefix));
  PetscCall(DRLabelsWrite(c->comm, path, c->n, c->labels));
  PetscFunctionReturn(PETSC_SUCCESS);
}
