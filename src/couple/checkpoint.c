/* The CMS component checkpoint: every finished
 * superelement is stored in its own HDF5 file CKPT/HASH.h5 (CKPT: the
 * directory cms.checkpoint, default OUTPUT.ckpt), written by the group's
 * rank 0 to HASH.h5.tmp and renamed, so a job killed at any point leaves
 * only whole files.  A rerun of the same command (or one with cms.reuse
 * naming an earlier result or checkpoint) reads the superelement of every
 * component whose key is found instead of reducing it, and logs
 *   "cms: component 'NAME' reused from FILE (hash H)".
 *
 * The key: FNV-1a 64 over, in this order, a format tag; the reduction
 * options as text (method, component-mode count and cutoff, %.17g, the
 * free-interface support, every -cms_comp_* option sorted); the rows of K
 * then of M by global row (each row: index, count, global columns, values,
 * hashed alone, the row hashes folded in row order on rank 0, so the key
 * does not depend on the ranks of the group); the DOF labels and the
 * boundary flags (interfaces and retained sets).  A file whose stored key
 * differs, whose checksum (FNV-1a 64 over every stored array) does not
 * match, or that HDF5 cannot read (truncated, foreign) is ignored with one
 * line "cms: checkpoint FILE ignored: WHY; component 'NAME' recomputed".
 *
 * What a reused component skips and redoes: reduce/restore.c.  With the
 * interface reduced before the projection (the default of a tol_pct job,
 * iface_early.c) a superelement depends on every component's interface
 * pencil, so the record is the component's phase 1 instead (format
 * CKPT_PENCIL_FORMAT, a key of its own: kept modes, their eigenvalues,
 * S_c, M_c, the factor's prefix, and how M_c was made: one rank or
 * several); a restored phase 1 skips the eigensolve and the Schur
 * factorizations, and the interface basis and phase 2 are recomputed from
 * the same numbers, so the result is again bit-identical.  After a
 * successful solve the checkpoint is kept (it is what cms.reuse reads in the
 * next design iteration) and holds exactly this run's superelements (older
 * files and temporaries are removed).  -cms_test_kill_after N (test hook,
 * tests/e2e/cms_resume.sh): a process that has just stored a superelement
 * sends itself SIGKILL when the checkpoint then holds N or more (one rank
 * group: right after the N-th write; several groups write concurrently, so
 * one or two more may be stored before the job dies).  -cms_test_stall S
 * (test hook, tests/e2e/signals.sh): wait S seconds after each store, so a
 * signal sent once the first file exists reaches a job still running. */
#include "checkpointimpl.h"
#include <dynred/h5.h>
#include <dynred/preflight.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


struct _DRCMSCheckpoint {
  char      dir[PETSC_MAX_PATH_LEN];   /* own checkpoint ("" none) */
  char      reuse[PETSC_MAX_PATH_LEN]; /* earlier checkpoint to read ("" none) */
  char     *opts;                      /* the -cms_comp_* options, sorted */
  uint64_t *hash;                      /* ncomp: keys of my group's components (0: none) */
  PetscBool *have;                     /* ncomp: found in the own checkpoint (not rewritten) */
  PetscBool *wrote;                    /* ncomp: stored by this process in this run */
  PetscInt  nwritten, kill_after, nreused;
  PetscReal stall; /* test hook: seconds to wait after each stored superelement */
};


/* Fold the row hashes of A (each row alone: index, count, columns, values)
 * in global row order into *h on rank 0 of comm. */
static PetscErrorCode FoldRows(MPI_Comm comm, Mat A, uint64_t *h)
{
  PetscInt     rs, re;
  uint64_t    *rh, *all = NULL;
  PetscMPIInt  size, rank, nl, *cnt = NULL, *dsp = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  PetscCall(PetscMalloc1(re - rs + 1, &rh));
  for (PetscInt r = rs; r < re; r++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    int64_t            row = r, n, cl;
    uint64_t           x = FNV_OFFSET;
    PetscCall(MatGetRow(A, r, &nc, &cols, &vals));
    n = nc;
    Fnv(&x, &row, sizeof(row));
    Fnv(&x, &n, sizeof(n));
    for (PetscInt k = 0; k < nc; k++) {
      cl = cols[k];
      Fnv(&x, &cl, sizeof(cl));
    }
    Fnv(&x, vals, sizeof(PetscScalar) * (size_t)nc);
    PetscCall(MatRestoreRow(A, r, &nc, &cols, &vals));
    rh[r - rs] = x;
  }
  PetscCall(PetscMPIIntCast(re - rs, &nl));
  if (!rank) PetscCall(PetscMalloc2(size, &cnt, size + 1, &dsp));
  PetscCallMPI(MPI_Gather(&nl, 1, MPI_INT, cnt, 1, MPI_INT, 0, comm));
  if (!rank) {
    PetscInt n;
    dsp[0] = 0;
    for (PetscMPIInt p = 0; p < size; p++) dsp[p + 1] = dsp[p] + cnt[p];
    PetscCall(MatGetSize(A, &n, NULL));
    PetscCall(PetscMalloc1(n + 1, &all));
  }
  PetscCallMPI(MPI_Gatherv(rh, nl, MPI_UINT64_T, all, cnt, dsp, MPI_UINT64_T, 0, comm));
  if (!rank) Fnv(h, all, sizeof(uint64_t) * (size_t)dsp[size]);
  PetscCall(PetscFree(all));
  if (!rank) PetscCall(PetscFree2(cnt, dsp));
  PetscCall(PetscFree(rh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The key of my component i (every rank of its group); pencil: of its
 * phase-1 record (the interface reduced before the projection). */
static PetscErrorCode ComponentHash(DRCMS c, PetscInt i, PetscBool pencil, uint64_t *hash)
{
  DRCMSCheckpoint ck = c->ckpt;
  PetscInt        k  = c->mine[i], n;
  MPI_Comm        comm;
  Mat             K, M;
  const DRLabel  *labels;
  PetscMPIInt     rank;
  uint64_t        h = FNV_OFFSET;
  char            text[1024];

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetComm(c->comps[i], &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(DRComponentGetOperators(c->comps[i], &K, &M, NULL));
  PetscCall(DRComponentGetLabels(c->comps[i], &n, &labels));
  PetscCall(PetscSNPrintf(text, sizeof(text), "%s\nmethod=%s nmodes=%" PetscInt_FMT " cutoff_hz=%.17g support=%s\n", pencil ? CKPT_PENCIL_FORMAT : CKPT_FORMAT, c->methods[k], c->comp_nmodes[k], (double)c->comp_cut[k], c->support));
  Fnv(&h, text, strlen(text));
  if (pencil) { /* how phase 1 makes M_c: finite differences of Schur complements (one rank) or the constraint modes (several) */
    PetscMPIInt size;
    const char *how;
    PetscCallMPI(MPI_Comm_size(comm, &size));
    how = size > 1 ? "pencil=constraint-modes\n" : "pencil=schur\n";
    Fnv(&h, how, strlen(how));
  }
  Fnv(&h, ck->opts, strlen(ck->opts));
  PetscCall(FoldRows(comm, K, &h));
  PetscCall(FoldRows(comm, M, &h));
  if (!rank) {
    Fnv(&h, labels, sizeof(DRLabel) * (size_t)n);
    for (PetscInt j = 0; j < n; j++) {
      unsigned char b = c->isboundary[i][j] ? 1 : 0;
      Fnv(&h, &b, 1);
    }
  }
  PetscCallMPI(MPI_Bcast(&h, 1, MPI_UINT64_T, 0, comm));
  *hash = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}


/* T between the distributed dense Mat (column-major local rows) and Tall on
 * rank 0 (n x N row-major). */
static PetscErrorCode GatherT(MPI_Comm comm, Mat T, PetscReal **Tall)
{
  PetscInt           rs, re, n, N, lda;
  const PetscScalar *t;
  PetscReal         *loc;
  PetscMPIInt        size, rank, nl, *cnt = NULL, *dsp = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetSize(T, &n, &N));
  PetscCall(MatGetOwnershipRange(T, &rs, &re));
  PetscCall(MatDenseGetLDA(T, &lda));
  PetscCall(PetscMalloc1((re - rs) * N + 1, &loc));
  PetscCall(MatDenseGetArrayRead(T, &t));
  for (PetscInt i = 0; i < re - rs; i++)
    for (PetscInt j = 0; j < N; j++) loc[i * N + j] = t[i + j * lda];
  PetscCall(MatDenseRestoreArrayRead(T, &t));
  PetscCall(PetscMPIIntCast((re - rs) * N, &nl));
  *Tall = NULL;
  if (!rank) {
    PetscCall(PetscMalloc2(size, &cnt, size + 1, &dsp));
    PetscCall(PetscMalloc1(n * N + 1, Tall));
  }
  PetscCallMPI(MPI_Gather(&nl, 1, MPI_INT, cnt, 1, MPI_INT, 0, comm));
  if (!rank) {
    dsp[0] = 0;
    for (PetscMPIInt p = 0; p < size; p++) dsp[p + 1] = dsp[p] + cnt[p];
  }
  PetscCallMPI(MPI_Gatherv(loc, nl, MPIU_REAL, *Tall, cnt, dsp, MPIU_REAL, 0, comm));
  if (!rank) PetscCall(PetscFree2(cnt, dsp));
  PetscCall(PetscFree(loc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The basis for the rows of K's layout from Tall on rank 0. */
static PetscErrorCode ScatterT(MPI_Comm comm, Mat K, PetscInt N, const PetscReal *Tall, Mat *T)
{
  PetscInt     rs, re, n, lda;
  PetscScalar *t;
  PetscReal   *loc;
  PetscMPIInt  size, rank, nl, *cnt = NULL, *dsp = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MatGetSize(K, &n, NULL));
  PetscCall(MatGetOwnershipRange(K, &rs, &re));
  PetscCall(PetscMPIIntCast((re - rs) * N, &nl));
  if (!rank) PetscCall(PetscMalloc2(size, &cnt, size + 1, &dsp));
  PetscCallMPI(MPI_Gather(&nl, 1, MPI_INT, cnt, 1, MPI_INT, 0, comm));
  if (!rank) {
    dsp[0] = 0;
    for (PetscMPIInt p = 0; p < size; p++) dsp[p + 1] = dsp[p] + cnt[p];
  }
  PetscCall(PetscMalloc1((re - rs) * N + 1, &loc));
  PetscCallMPI(MPI_Scatterv(Tall, cnt, dsp, MPIU_REAL, loc, nl, MPIU_REAL, 0, comm));
  if (!rank) PetscCall(PetscFree2(cnt, dsp));
  PetscCall(MatCreateDense(comm, re - rs, PETSC_DECIDE, n, N, NULL, T));
  PetscCall(MatDenseGetLDA(*T, &lda));
  PetscCall(MatDenseGetArrayWrite(*T, &t));
  for (PetscInt i = 0; i < re - rs; i++)
    for (PetscInt j = 0; j < N; j++) t[i + j * lda] = loc[i * N + j];
  PetscCall(MatDenseRestoreArrayWrite(*T, &t));
  PetscCall(MatAssemblyBegin(*T, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*T, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(loc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FilePath(const char *dir, uint64_t hash, char *path, size_t len)
{
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, len, "%s/%016llx.h5", dir, (unsigned long long)hash));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Superelement files (HASH.h5) in a checkpoint directory. */
static PetscInt StoredCount(const char *dir)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  PetscInt       n = 0;

  while (d && (e = readdir(d)))
    if (strlen(e->d_name) == 19 && !strcmp(e->d_name + 16, ".h5")) n++;
  if (d) closedir(d);
  return n;
}

/* Group rank 0: write my component i's superelement (st: its arrays, Tall
 * on rank 0) into the own checkpoint; the test hook. */
static PetscErrorCode Store(DRCMS c, PetscInt i, const Stored *st)
{
  DRCMSCheckpoint ck = c->ckpt;
  char            path[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  if (mkdir(ck->dir, 0777) && errno != EEXIST) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s: cannot make the CMS checkpoint directory (%s)", ck->dir, strerror(errno));
  PetscCall(FilePath(ck->dir, ck->hash[c->mine[i]], path, sizeof(path)));
  PetscCall(DRCMSCkptWrite_Private(path, c->names[c->mine[i]], ck->hash[c->mine[i]], st));
  ck->wrote[c->mine[i]] = PETSC_TRUE;
  ck->nwritten++;
  if (ck->stall > 0) PetscCall(PetscSleep(ck->stall)); /* test hook: a job that a signal can reach between two stores */
  if (ck->kill_after > 0 && StoredCount(ck->dir) >= ck->kill_after) { /* test hook: a real kill -9 */
    fflush(stdout);
    fflush(stderr);
    raise(SIGKILL);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* My component i's record of the kind `pencil` into the own checkpoint
 * (a phase-1 record: S, MG its S_c, M_c on the group's rank 0). */
static PetscErrorCode StoreKind(DRCMS c, PetscInt i, PetscBool pencil, PetscReal *S, PetscReal *MG)
{
  DRCMSCheckpoint ck = c->ckpt;
  MPI_Comm        comm;
  PetscMPIInt     rank;
  Stored          st;
  const char     *type;
  int             e = 0;

  PetscFunctionBeginUser;
  if (!ck || !ck->dir[0] || ck->have[c->mine[i]]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRComponentGetComm(c->comps[i], &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMemzero(&st, sizeof(st)));
  st.pencil = pencil;
  if (pencil) { /* T, lam made here; the rest borrowed */
    PetscCall(DRReductionGetPencilSaved(c->red[i], &st.s, &st.lam, &st.qtop_hz));
    st.s.K = S;
    st.s.M = MG;
  } else PetscCall(DRReductionGetSaved(c->red[i], &st.s)); /* all borrowed */
  PetscCall(DRReductionGetType(c->red[i], &type));
  PetscCall(PetscStrncpy(st.method, type, sizeof(st.method)));
  PetscCall(GatherT(comm, st.s.T, &st.Tall));
  if (!rank) e = Store(c, i, &st);
  PetscCall(PetscFree(st.Tall));
  if (pencil) {
    PetscCall(PetscFree(st.lam));
    PetscCall(MatDestroy(&st.s.T));
  }
  /* the group agrees (rank 0 has the message) */
  PetscCallMPI(MPI_Bcast(&e, 1, MPI_INT, 0, comm));
  if (e) PetscFunctionReturn((PetscErrorCode)e);
  ck->have[c->mine[i]] = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSCheckpointStore_Private(DRCMS c, PetscInt i)
{
  PetscFunctionBeginUser;
  PetscCall(StoreKind(c, i, PETSC_FALSE, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Phase 1 of my component i just computed (S, MG: its S_c, M_c on the
 * group's rank 0): stored as a record of the own checkpoint. */
PetscErrorCode DRCMSCheckpointStorePencil_Private(DRCMS c, PetscInt i, PetscReal *S, PetscReal *MG)
{
  PetscFunctionBeginUser;
  PetscCall(StoreKind(c, i, PETSC_TRUE, S, MG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Group rank 0: the first usable file of the key in the own checkpoint,
 * then in cms.reuse; *src 0 none, 1 own, 2 reuse. */
static PetscErrorCode Find(DRCMS c, PetscInt i, Stored *st, int *src, char *path, size_t plen)
{
  DRCMSCheckpoint ck   = c->ckpt;
  const char     *d[2] = {ck->dir, ck->reuse};
  PetscInt        k = c->mine[i], n;
  char            why[256];
  PetscBool       pencil = st->pencil; /* the kind of record: kept for every try */

  PetscFunctionBeginUser;
  *src = 0;
  PetscCall(DRComponentGetSize(c->comps[i], &n));
  for (int s = 0; s < 2 && !*src; s++) {
    if (!d[s][0]) continue;
    st->pencil = pencil;
    PetscCall(FilePath(d[s], ck->hash[k], path, plen));
    if (access(path, F_OK)) continue;
    PetscCall(DRCMSCkptRead_Private(path, ck->hash[k], n, st, why, sizeof(why)));
    if (!why[0] && strcmp(st->method, c->methods[k])) PetscCall(PetscSNPrintf(why, sizeof(why), "method %s, expected %s", st->method, c->methods[k]));
    if (why[0]) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "cms: checkpoint %s ignored: %s; component '%s' recomputed\n", path, why, c->names[k]));
      PetscCall(DRCMSCkptStoredFree_Private(st));
      PetscCall(PetscMemzero(st, sizeof(*st)));
    } else *src = s + 1;
  }
  st->pencil = pencil;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* My component i's record of the kind st->pencil (key computed before), from
 * the own checkpoint or cms.reuse, on every rank of its group: the arrays
 * broadcast from the group's rank 0 (K, M stay there), T scattered; a
 * record from cms.reuse copied into the own checkpoint.  *src 0: none. */
static PetscErrorCode Fetch(DRCMS c, PetscInt i, Stored *st, int *src, char *path, size_t plen)
{
  DRCMSCheckpoint ck = c->ckpt;
  PetscInt        k  = c->mine[i], sz[4];
  MPI_Comm        comm;
  PetscMPIInt     rank;
  Mat             K;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetComm(c->comps[i], &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  *src = 0;
  if (!rank) PetscCall(Find(c, i, st, src, path, plen));
  PetscCallMPI(MPI_Bcast(src, 1, MPI_INT, 0, comm));
  if (!*src) PetscFunctionReturn(PETSC_SUCCESS);
  sz[0] = st->s.n;
  sz[1] = st->s.nb;
  sz[2] = st->s.pnb;
  sz[3] = st->s.nq;
  PetscCallMPI(MPI_Bcast(sz, 4, MPIU_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(st->s.factor, sizeof(st->s.factor), MPI_CHAR, 0, comm));
  PetscCallMPI(MPI_Bcast(&st->qtop_hz, 1, MPIU_REAL, 0, comm));
  if (rank) {
    st->s.n   = sz[0];
    st->s.nb  = sz[1];
    st->s.pnb = sz[2];
    st->s.nq  = sz[3];
    PetscCall(PetscMalloc1(sz[1] + 1, &st->s.blabels));
    PetscCall(PetscMalloc1(sz[2] + 1, &st->s.pblabels));
    PetscCall(PetscMalloc1(sz[3] + 1, &st->s.qfreq_hz));
    if (st->pencil) PetscCall(PetscMalloc1(sz[3] + 1, &st->lam));
  }
  PetscCallMPI(MPI_Bcast(st->s.blabels, (PetscMPIInt)sz[1], MPIU_INT64, 0, comm));
  PetscCallMPI(MPI_Bcast(st->s.pblabels, (PetscMPIInt)sz[2], MPIU_INT64, 0, comm));
  PetscCallMPI(MPI_Bcast(st->s.qfreq_hz, (PetscMPIInt)sz[3], MPIU_REAL, 0, comm));
  if (st->pencil) PetscCallMPI(MPI_Bcast(st->lam, (PetscMPIInt)sz[3], MPIU_REAL, 0, comm));
  PetscCall(DRComponentGetOperators(c->comps[i], &K, NULL, NULL));
  PetscCall(ScatterT(comm, K, st->pencil ? sz[3] : sz[1] + sz[3], st->Tall, &st->s.T));
  if (*src == 2 && ck->dir[0]) { /* read from cms.reuse: into the own checkpoint too */
    int e = 0;
    if (!rank) e = Store(c, i, st);
    PetscCallMPI(MPI_Bcast(&e, 1, MPI_INT, 0, comm));
    if (e) PetscFunctionReturn((PetscErrorCode)e);
  }
  ck->have[k] = (PetscBool)(*src == 1 || ck->dir[0]);
  PetscCall(PetscFree(st->Tall));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* My component i restored from a record of the kind `pencil` (see Fetch);
 * a phase-1 record's S_c, M_c to *S, *MG on the group's rank 0. */
static PetscErrorCode RestoreKind(DRCMS c, PetscInt i, PetscBool pencil, PetscBool *reused, PetscReal **S, PetscReal **MG)
{
  DRCMSCheckpoint ck = c->ckpt;
  PetscInt        k  = c->mine[i];
  MPI_Comm        comm;
  PetscMPIInt     rank;
  Stored          st;
  int             src = 0;
  char            path[PETSC_MAX_PATH_LEN + 32] = "";

  PetscFunctionBeginUser;
  *reused = PETSC_FALSE;
  if (!ck) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ComponentHash(c, i, pencil, &ck->hash[k]));
  PetscCall(PetscMemzero(&st, sizeof(st)));
  st.pencil = pencil;
  PetscCall(Fetch(c, i, &st, &src, path, sizeof(path)));
  if (!src) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRComponentGetComm(c->comps[i], &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (pencil) {
    *S     = st.s.K; /* the group's rank 0 (NULL elsewhere) */
    *MG    = st.s.M;
    st.s.K = st.s.M = NULL;
    PetscCall(DRReductionRestorePencil(c->red[i], c->comps[i], c->isboundary[i], &st.s, &st.lam, st.qtop_hz));
  } else PetscCall(DRReductionRestore(c->red[i], c->comps[i], c->isboundary[i], &st.s));
  PetscCall(DRCMSCkptStoredFree_Private(&st)); /* what the restore did not take over */
  PetscCall(DRProgress(comm, "cms: component '%s' reused from %s (hash %016llx)%s", c->names[k], path, (unsigned long long)ck->hash[k], pencil ? ": its modes and interface pencil" : ""));
  if (!rank) ck->nreused++;
  *reused = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSCheckpointRestore_Private(DRCMS c, PetscInt i, PetscBool *reused)
{
  PetscFunctionBeginUser;
  PetscCall(RestoreKind(c, i, PETSC_FALSE, reused, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The early interface path (iface_early.c), phase 1 of my component i: its
 * record restored into c->red[i] (the reduction set up, not applied), S_c
 * and M_c to *S, *MG on the group's rank 0; *reused false: compute it. */
PetscErrorCode DRCMSCheckpointRestorePencil_Private(DRCMS c, PetscInt i, PetscBool *reused, PetscReal **S, PetscReal **MG)
{
  PetscFunctionBeginUser;
  *S = *MG = NULL;
  PetscCall(RestoreKind(c, i, PETSC_TRUE, reused, S, MG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareStrings(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The -cms_comp_* options (the component solvers' options) as sorted
 * "name=value" lines: part of every key. */
static PetscErrorCode OptionsText(char **text)
{
  char    *all, *tok, *save = NULL, **items;
  PetscInt n = 0;
  size_t   len = 1;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetAll(NULL, &all));
  PetscCall(PetscStrlen(all, &len));
  PetscCall(PetscCalloc1(len / 2 + 2, &items));
  for (tok = strtok_r(all, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    if (!strncmp(tok, "-cms_comp_", 10)) items[n++] = tok;
    else if (n && tok[0] != '-' && !strchr(items[n - 1], '=')) { /* its value: name=value */
      char *p = items[n - 1] + strlen(items[n - 1]);
      *p      = '=';
      memmove(p + 1, tok, strlen(tok) + 1);
    }
  }
  qsort(items, (size_t)n, sizeof(char *), CompareStrings);
  PetscCall(PetscCalloc1(len + 2 * (size_t)n + 2, text));
  for (PetscInt k = 0; k < n; k++) {
    PetscCall(DRStrAppend(*text, items[k], len + 2 * (size_t)n + 2));
    PetscCall(DRStrAppend(*text, "\n", len + 2 * (size_t)n + 2));
  }
  PetscCall(PetscFree(items));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* cms.reuse: an earlier result R (its checkpoint R.ckpt) or a checkpoint
 * directory; rank 0 resolves it, one input error when neither exists. */
static PetscErrorCode ResolveReuse(DRCMS c, const char *reuse, char *dir, size_t len)
{
  struct stat sb;
  int         ok = 0;
  char        where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  dir[0] = 0;
  if (!reuse[0]) PetscFunctionReturn(PETSC_SUCCESS);
  if (!c->rank) {
    if (!stat(reuse, &sb) && S_ISDIR(sb.st_mode)) {
      PetscCall(PetscStrncpy(dir, reuse, len));
      ok = 1;
    } else {
      PetscCall(PetscSNPrintf(dir, len, "%s.ckpt", reuse));
      ok = !stat(dir, &sb) && S_ISDIR(sb.st_mode);
    }
  }
  PetscCallMPI(MPI_Bcast(&ok, 1, MPI_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(dir, (PetscMPIInt)len, MPI_CHAR, 0, c->comm));
  PetscCall(DRConfigWhere(c->cfg, "cms.reuse", where, sizeof(where)));
  PetscCheck(ok, c->comm, DR_ERR_INPUT, "%s: cms.reuse = '%s': neither a checkpoint directory nor a result with one (%s), expected an earlier dynred cms output whose checkpoint was kept, or its .ckpt directory", where, reuse, dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before the reductions, rank 0: the checkpoint directory exists and is a
 * writable directory, or its parent is (it is made at the first store, so a
 * job that fails before leaves nothing behind); one input error else. */
static PetscErrorCode CheckDir(DRCMS c, const char *dir)
{
  int         err = 0;
  struct stat sb;
  char        where[PETSC_MAX_PATH_LEN + 32], parent[PETSC_MAX_PATH_LEN], *slash;

  PetscFunctionBeginUser;
  if (!c->rank) {
    if (!stat(dir, &sb)) err = !S_ISDIR(sb.st_mode) ? ENOTDIR : access(dir, W_OK | X_OK) ? errno : 0;
    else {
      PetscCall(PetscStrncpy(parent, dir, sizeof(parent)));
      slash = strrchr(parent, '/');
      if (slash == parent) slash[1] = 0;
      else if (slash) *slash = 0;
      else PetscCall(PetscStrncpy(parent, ".", sizeof(parent)));
      err = stat(parent, &sb) ? errno : !S_ISDIR(sb.st_mode) ? ENOTDIR : access(parent, W_OK | X_OK) ? errno : 0;
    }
  }
  PetscCallMPI(MPI_Bcast(&err, 1, MPI_INT, 0, c->comm));
  PetscCall(DRConfigWhere(c->cfg, "cms.checkpoint", where, sizeof(where)));
  PetscCheck(!err, c->comm, DR_ERR_INPUT, "%s: cannot make the CMS checkpoint directory %s (%s), expected a writable place: set cms.checkpoint to a directory, or none", where, dir, strerror(err));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSCheckpointOpen_Private(DRCMS c)
{
  char            ckpt[PETSC_MAX_PATH_LEN], reuse[PETSC_MAX_PATH_LEN], out[PETSC_MAX_PATH_LEN] = "";
  PetscBool       off;
  DRCMSCheckpoint ck;

  PetscFunctionBeginUser;
  PetscCall(DRCMSCheckpointDestroy_Private(c));
  PetscCall(DRConfigGetString(c->cfg, "cms.checkpoint", ckpt, sizeof(ckpt), NULL));
  PetscCall(DRConfigGetString(c->cfg, "cms.reuse", reuse, sizeof(reuse), NULL));
  PetscCall(DRConfigGetString(c->cfg, "output", out, sizeof(out), NULL));
  PetscCall(PetscStrcmp(ckpt, "none", &off));
  if (off && !reuse[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscNew(&ck));
  c->ckpt = ck;
  ck->kill_after = -1;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cms_test_kill_after", &ck->kill_after, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-cms_test_stall", &ck->stall, NULL));
  if (!off) {
    if (ckpt[0]) PetscCall(PetscStrncpy(ck->dir, ckpt, sizeof(ck->dir)));
    else PetscCall(PetscSNPrintf(ck->dir, sizeof(ck->dir), "%s.ckpt", out));
    PetscCall(CheckDir(c, ck->dir));
    DRCheckpointRegister(ck->dir);
  }
  PetscCall(ResolveReuse(c, reuse, ck->reuse, sizeof(ck->reuse)));
  if (ck->reuse[0] && ck->dir[0]) {
    char      a[PETSC_MAX_PATH_LEN], b[PETSC_MAX_PATH_LEN];
    PetscBool same = PETSC_FALSE;
    if (!c->rank) same = (PetscBool)(realpath(ck->dir, a) && realpath(ck->reuse, b) && !strcmp(a, b));
    PetscCallMPI(MPI_Bcast(&same, 1, MPIU_BOOL, 0, c->comm));
    if (same) ck->reuse[0] = 0;
  }
  PetscCall(OptionsText(&ck->opts));
  PetscCall(PetscCalloc1(c->ncomp + 1, &ck->hash));
  PetscCall(PetscCalloc1(c->ncomp + 1, &ck->have));
  PetscCall(PetscCalloc1(c->ncomp + 1, &ck->wrote));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a successful solve: the checkpoint keeps exactly this run's
 * superelements (older ones and temporaries removed); one summary line. */
PetscErrorCode DRCMSCheckpointClose_Private(DRCMS c)
{
  DRCMSCheckpoint ck = c->ckpt;
  uint64_t       *all;
  PetscInt        nreused = 0;

  PetscFunctionBeginUser;
  if (!ck) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(c->ncomp + 1, &all));
  PetscCallMPI(MPI_Allreduce(ck->hash, all, (PetscMPIInt)c->ncomp, MPI_UINT64_T, MPI_BOR, c->comm));
  PetscCallMPI(MPI_Allreduce(&ck->nreused, &nreused, 1, MPIU_INT, MPI_SUM, c->comm));
  if (!c->rank && ck->dir[0]) {
    DIR           *d = opendir(ck->dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      size_t    l    = strlen(e->d_name);
      PetscBool keep = PETSC_FALSE, ours = PETSC_FALSE;
      char      path[PETSC_MAX_PATH_LEN + 300];
      if (l == 19 && !strcmp(e->d_name + 16, ".h5")) {
        ours = PETSC_TRUE;
        for (PetscInt k = 0; k < c->ncomp && !keep; k++) {
          char hx[32];
          PetscCall(PetscSNPrintf(hx, sizeof(hx), "%016llx.h5", (unsigned long long)all[k]));
          keep = (PetscBool)!strcmp(hx, e->d_name);
        }
      } else if (l == 23 && !strcmp(e->d_name + 16, ".h5.tmp")) ours = PETSC_TRUE;
      if (!ours || keep) continue;
      PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", ck->dir, e->d_name));
      (void)unlink(path);
    }
    if (d) closedir(d);
  }
  PetscCall(PetscFree(all));
  if (ck->dir[0]) PetscCall(DRProgress(c->comm, "cms: %" PetscInt_FMT " of %" PetscInt_FMT " components reused; checkpoint %s kept (cms.reuse reads it)", nreused, c->ncomp, ck->dir));
  else PetscCall(DRProgress(c->comm, "cms: %" PetscInt_FMT " of %" PetscInt_FMT " components reused", nreused, c->ncomp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSCheckpointDestroy_Private(DRCMS c)
{
  PetscFunctionBeginUser;
  if (!c->ckpt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree(c->ckpt->opts));
  PetscCall(PetscFree(c->ckpt->hash));
  PetscCall(PetscFree(c->ckpt->have));
  PetscCall(PetscFree(c->ckpt->wrote));
  PetscCall(PetscFree(c->ckpt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* On the error path of the reductions (collective on c->comm, no error of
 * its own): a job rejected for its input leaves nothing behind, so the
 * superelements this run stored are removed, and the directory when that
 * empties it (those of earlier runs stay). */
void DRCMSCheckpointAbandon_Private(DRCMS c)
{
  DRCMSCheckpoint ck = c->ckpt;
  char            path[PETSC_MAX_PATH_LEN + 32];

  if (!ck || !ck->dir[0]) return;
  for (PetscInt k = 0; k < c->ncomp; k++)
    if (ck->wrote[k] && !FilePath(ck->dir, ck->hash[k], path, sizeof(path))) (void)unlink(path);
  (void)MPI_Barrier(c->comm);
  if (!c->rank) (void)rmdir(ck->dir);
  DRCheckpointForget(ck->dir);
}
