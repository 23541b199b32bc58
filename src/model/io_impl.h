/* Private helpers shared by the model file readers and writers (io_*.c).
 *
 * The text readers all work the same way: rank 0 streams the file through a
 * buffered line reader, collects matrix entries in a chunk of DR_IO_CHUNK
 * triplets, and every rank takes part in a collective exchange that sends
 * each rank the triplets of the rows it owns (PETSc's default PETSC_DECIDE row
 * layout).  A parse error found on rank 0 is recorded in a DRInputStatus and
 * broadcast at the next exchange, so every rank raises the same one-line
 * DR_ERR_INPUT error together instead of deadlocking.  The writers stream
 * rows to rank 0 the other way round.  The helpers live in io_stream.c (line
 * reader, status, triplets), io_common.c (the reader preamble and loop,
 * component pieces) and io_write.c (temporary files, rows to rank 0). */
#ifndef DYNRED_IO_IMPL_H
#define DYNRED_IO_IMPL_H

#include <dynred/io.h>
#include "componentimpl.h"
#include "model_impl.h"
#include <stdio.h>

/* Entries per streamed chunk (rank 0 holds one chunk plus its bucketed copy). */
#define DR_IO_CHUNK (1 << 20)
/* stdio buffer of the line reader and the writers. */
#define DR_IO_BUFSIZE (1 << 20)

/* --- buffered line reader (rank 0) --------------------------------------- */
typedef struct {
  FILE      *f;
  char      *buf;    /* stdio buffer (large, so reads are few) */
  char      *line;   /* current line, trailing newline/CR stripped */
  size_t     cap;
  size_t     len;
  PetscInt64 lineno; /* 1-based number of the current line */
  char       path[PETSC_MAX_PATH_LEN];
} DRLineReader;
/* Opens path; *ok is PETSC_FALSE (errno kept) when the file cannot be read. */
PetscErrorCode DRLineReaderOpen(DRLineReader *r, const char *path, PetscBool *ok);
/* Next line into r->line; *got is PETSC_FALSE at end of file. */
PetscErrorCode DRLineReaderNext(DRLineReader *r, PetscBool *got);
PetscErrorCode DRLineReaderClose(DRLineReader *r);
/* True when s holds only white space. */
PetscBool DRStrBlank(const char *s);

/* --- collective input errors --------------------------------------------- */
typedef struct {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscBool   bad;
  char        msg[1024];
} DRInputStatus;
PetscErrorCode DRInputStatusInit(MPI_Comm comm, DRInputStatus *st);
/* Records the first error (any rank may call it; rank 0's is the one raised
 * by DRInputSync unless only another rank failed, see DRInputSyncAll). */
PetscErrorCode DRInputFail(DRInputStatus *st, const char *fmt, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);
/* Broadcast rank 0's state (and *more, when not NULL) to every rank. */
PetscErrorCode DRInputSync(DRInputStatus *st, PetscInt *more);
/* Every rank may have failed: the lowest failing rank's message wins. */
PetscErrorCode DRInputSyncAll(DRInputStatus *st);
/* Raise the recorded error on every rank (call after a sync). */
#define DRInputCheck(st) PetscCheck(!(st)->bad, (st)->comm, DR_ERR_INPUT, "%s", (st)->msg)

/* --- triplets distributed to the owning ranks ----------------------------- */
typedef struct {
  PetscInt    i, j;
  PetscScalar v;
} DRTriplet;

typedef struct {
  MPI_Comm    comm;
  PetscMPIInt rank, size;
  PetscInt    n;                /* global rows = columns */
  PetscLayout map;              /* PETSC_DECIDE layout of n rows */
  DRTriplet  *chunk, *sendbuf;  /* rank 0: entries read since the last exchange */
  PetscInt    nchunk, cap;
  DRTriplet  *local;            /* every rank: triplets of its own rows */
  PetscInt    nlocal, caplocal;
  PetscBool   symmetric;        /* mirrored storage: mark the Mat symmetric */
} DRTriplets;
PetscErrorCode DRTripletsCreate(MPI_Comm comm, PetscInt n, DRTriplets *t);
/* Room for one more entry and its mirror? (rank 0 reads until not) */
static inline PetscBool DRTripletsFull(DRTriplets *t)
{
  return t->nchunk + 2 > t->cap ? PETSC_TRUE : PETSC_FALSE;
}
/* Rank 0: append (i, j, v), 0-based, and (j, i, v) too when mirror and i != j. */
static inline void DRTripletsAdd(DRTriplets *t, PetscInt i, PetscInt j, PetscScalar v, PetscBool mirror)
{
  t->chunk[t->nchunk].i   = i;
  t->chunk[t->nchunk].j   = j;
  t->chunk[t->nchunk++].v = v;
  if (mirror && i != j) {
    t->chunk[t->nchunk].i   = j;
    t->chunk[t->nchunk].j   = i;
    t->chunk[t->nchunk++].v = v;
  }
}
/* Rank 0: append (i, j, v) of a file that may store either triangle or both
 * (Abaqus *MATRIX INPUT, Harwell-Boeing): (i, j, v) and, for i != j, its
 * mirror (j, i, v) marked by a negative column -(i + 1).  DRTripletsResolve
 * then keeps at each position the entries the file gave there, or else the
 * mirrors: a triangle is expanded, a square file read as is. */
static inline void DRTripletsAddEither(DRTriplets *t, PetscInt i, PetscInt j, PetscScalar v)
{
  t->chunk[t->nchunk].i   = i;
  t->chunk[t->nchunk].j   = j;
  t->chunk[t->nchunk++].v = v;
  if (i != j) {
    t->chunk[t->nchunk].i   = j;
    t->chunk[t->nchunk].j   = -(i + 1);
    t->chunk[t->nchunk++].v = v;
  }
}
/* Collective: resolve the mirrors of DRTripletsAddEither in t->local; *dup
 * the first position (row * n + column) the file gave twice, or -1. */
PetscErrorCode DRTripletsResolve(DRTriplets *t, PetscInt64 *dup);
/* The MPI datatype of one DRTriplet (created once, freed at PetscFinalize). */
PetscErrorCode DRTripletType(MPI_Datatype *type);
/* Collective: send rank 0's chunk to the owners and empty it. */
PetscErrorCode DRTripletsExchange(DRTriplets *t);
/* Collective: preallocated MATAIJ from the received triplets (duplicates add). */
PetscErrorCode DRTripletsAssemble(DRTriplets *t, Mat *A);
PetscErrorCode DRTripletsDestroy(DRTriplets *t);

/* "row col value" (1-based indices) parsed from s; the value's text is
 * returned for messages.  Returns 0 when the line is not three numbers. */
int DRParseEntry(char *s, long long *i, long long *j, double *v, char **vtok, int *vlen);
/* Record in st what is wrong with an entry of an n x n matrix read on line
 * lineno of path (not parsed, index out of 1..n, not finite); `expect`
 * describes the line format for the message. */
PetscErrorCode DRCheckEntry(DRInputStatus *st, const char *path, PetscInt64 lineno, const char *line, int parsed, long long i, long long j, double v, const char *vtok, int vlen, PetscInt n, const char *expect);

/* --- the reader preamble (io_common.c) ------------------------------------ */
/* Rank 0: open path into r; a failure is recorded in st as
 * "PATH: cannot open (REASON), expected WHAT" (without ", expected" when
 * what is NULL). */
PetscErrorCode DRInputOpen(DRInputStatus *st, DRLineReader *r, const char *path, const char *what);
/* Collective: is path a readable file (tested on rank 0)? */
PetscErrorCode DRFileExists(MPI_Comm comm, const char *path, PetscBool *exists);
/* Collective: an input error "PATH: cannot open, expected WHAT" unless
 * path is a readable file (for formats another library opens). */
PetscErrorCode DRInputCheckReadable(MPI_Comm comm, const char *path, const char *what);

/* A square matrix file streamed on rank 0: the one reader loop of the text
 * formats.  DRMatStreamRead opens s->path on rank 0 (DRInputOpen with
 * s->what), calls header (optional) to read n and the storage, then calls
 * entries repeatedly to fill chunks that are sent to the owning ranks, and
 * assembles the MATAIJ.  Errors recorded in st by the callbacks are raised
 * on every rank together; destroy (optional) runs on every rank at the end,
 * also on the error path. */
typedef struct _DRMatStream DRMatStream;
struct _DRMatStream {
  const char *path;
  const char *what;      /* what the file should be, for the open error */
  PetscInt    n;         /* rows = columns (set here or by header) */
  PetscBool   symmetric; /* one triangle stored and mirrored: mark the Mat symmetric */
  PetscBool   either;    /* entries added by DRTripletsAddEither: resolve before assembly */
  /* rank 0: read what precedes the entries, set n and symmetric */
  PetscErrorCode (*header)(DRMatStream *s, DRInputStatus *st, DRLineReader *r);
  /* rank 0: add entries to t until DRTripletsFull(t) or the last entry;
   * *more: entries may follow */
  PetscErrorCode (*entries)(DRMatStream *s, DRInputStatus *st, DRLineReader *r, DRTriplets *t, PetscBool *more);
  PetscErrorCode (*destroy)(DRMatStream *s);
  void *ctx;
};
PetscErrorCode DRMatStreamRead(MPI_Comm comm, DRMatStream *s, Mat *A);

/* The Matrix Market reader of io_mtx.c for a component's matrix: its size
 * must be nexpect (the labels of dofs); role "K", "M" or "D" and kpath name
 * the matrices in messages. */
PetscErrorCode DRMatReadMatrixMarketSized(MPI_Comm comm, const char *path, PetscInt nexpect, const char *role, const char *kpath, const char *dofs, Mat *A);

/* --- writers --------------------------------------------------------------- */
/* "PATH.tmp.<pid of rank 0>", the same on every rank. */
PetscErrorCode DRTmpPath(MPI_Comm comm, const char *path, char *tmp, size_t len);
/* Rank 0 opens tmp for writing with a large buffer (others get NULL); a
 * failure is raised on every rank. */
PetscErrorCode DRFileOpenWrite(MPI_Comm comm, const char *tmp, FILE **f);
/* Rank 0 closes f; then, when every rank is done, renames tmp to path.
 * Write or rename failures are raised on every rank. */
PetscErrorCode DRFileCommit(MPI_Comm comm, FILE **f, const char *tmp, const char *path);
/* Entries of A in row order: all (lower = false) or col <= row.  Collective. */
PetscErrorCode DRMatCountEntries(Mat A, PetscBool lower, PetscInt64 *nnz);
/* Stream the entries of A, selected as above, to rank 0 in chunks and print
 * them to f (rank 0) as "r c value" with 1-based r, c; swap prints "c r",
 * i.e. the lower triangle by rows becomes the upper triangle by columns. */
PetscErrorCode DRMatStreamToRoot(Mat A, PetscBool lower, PetscBool swap, FILE *f);

/* --- component pieces -------------------------------------------------------- */
/* Rank 0's geometry (nodes, cells, sets) copied to the other ranks of c->comm. */
PetscErrorCode DRComponentBcastGeometry(DRComponent c);
/* Sizes of K, M, D against the labels, with a message naming the files. */
PetscErrorCode DRComponentCheckSizes(DRComponent c, const char *kpath, const char *mpath, const char *dpath, const char *dofpath);
/* Name the matrices for viewers: "NAME_K", ... */
PetscErrorCode DRComponentNameMats(DRComponent c);
/* The last step of every reader: name the matrices, validate. */
PetscErrorCode DRComponentReadFinish(DRComponent c);

/* CalculiX: knots' rotation and expansion nodes relabelled to the knot,
 * other generated nodes tagged (io_calculix_knots.c); collective. */
PetscErrorCode DRCcxKnots(DRComponent C);

#endif
