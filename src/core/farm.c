/* The task farm (include/dynred/farm.h).
 *
 * Scheduling is point-to-point only, so it runs on any MPI that passes
 * messages (no one-sided atomics, whose shared-memory implementations fail
 * in some containers).  Rank 0 is a group root like the others and also the
 * dispatcher:
 *
 *   - Each group starts with a static share of the unfinished tasks (task k
 *     of the first 2 * ngroups goes to group k mod ngroups), so no group
 *     waits for a first answer.
 *   - A worker root (the root of any group but rank 0's) keeps one task in
 *     reserve behind the one it runs: when it starts a task and its queue is
 *     then empty, it sends a request (TAG_REQ) to rank 0 and goes on with the
 *     task.  Rank 0 answers (TAG_TASK) with the next task from the pool or
 *     with STOP, between its own tasks.  The reply is needed only when the
 *     worker's running task is done, so rank 0 may be busy with a task of its
 *     own for as long as one of the worker's tasks without the worker ever
 *     waiting.  Rank 0's own group takes tasks straight from the pool.
 *   - A worker has at most one request outstanding and each request gets
 *     exactly one answer; STOP ends the worker's run.  Rank 0 leaves the run
 *     when it has no task left and has sent STOP to every worker, so nothing
 *     of one run is in flight when the next starts.  Messages go over a
 *     private duplicate of the communicator.
 *
 * Results: group roots send them to rank 0 (TAG_RESULT, the task index as
 * the first entry) with Isend and go on; rank 0 drains them between its own
 * tasks, while it serves requests and at the end, appends each to the
 * checkpoint (serial HDF5, only rank 0 opens it) and flushes.  At the end of
 * a run one reduction counts the results sent, and rank 0 receives exactly
 * those.
 *
 * Failures: a task that fails fails on its group alone (the other groups are
 * busy with theirs).  The group agrees on it (DRErrorDeferTake), its root
 * stops taking tasks and, on a worker, says so in its next request; rank 0
 * then answers every request with STOP, so the others finish the task they
 * hold and leave.  The same reduction finds the lowest failing rank, whose
 * line `LABEL N: MESSAGE` every rank then raises: the job ends with one error
 * line and a checkpoint to resume from, instead of hanging in the next
 * collective.
 */
#include <dynred/farm.h>
#include <dynred/config.h>
#include <dynred/h5.h>
#include <dynred/preflight.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define TAG_RESULT 7301
#define TAG_REQ    7302
#define TAG_TASK   7303
/* the answer to a request that ends the worker's run */
#define FARM_STOP (-1L)
/* a request's content: 0, or 1 when the worker's group has failed */

struct _p_DRFarm {
  MPI_Comm   comm, group;
  PetscMPIInt rank, size, grank, gsize;
  PetscInt   group_size, igroup, ngroups;
  PetscBool  setup;
  DRConfig   cfg;            /* the job (optional; NULL: options only) */
  char       ckpt[PETSC_MAX_PATH_LEN], signature[256], label[64];
  hid_t      file;           /* checkpoint, rank 0 */
  PetscReal  progress_every; /* seconds */
  PetscInt   stop_after;     /* testing: abort after this many results were written */
  PetscInt   kill_after;     /* testing: SIGKILL rank 0 after this many (-farm_test_kill_after) */
  PetscInt   fail_task;      /* testing: this task fails (-farm_fail_task) */
  PetscInt   fault_task;     /* testing: this task faults (-farm_fault_task) */
  char       fault[16];      /* testing: how (-farm_fault segv|mpi) */
  /* results of the last run (rank 0) */
  PetscInt    ntasks, ncomputed, nrestored;
  PetscInt   *len;
  PetscReal **res;
  PetscReal   seconds;
  /* the private duplicate of comm the scheduling messages go over */
  MPI_Comm    msg;
  /* this rank's seconds over all runs: in task functions, waiting for tasks
   * (workers) or serving requests (rank 0), receiving and checkpointing
   * results (rank 0), waiting at the end of runs */
  PetscLogDouble t_task, t_claim, t_drain, t_wait;
};

PetscErrorCode DRFarmCreate(MPI_Comm comm, DRFarm *farm)
{
  DRFarm f;

  PetscFunctionBeginUser;
  PetscCall(DRSysInitializePackage());
  PetscCall(PetscNew(&f));
  f->comm           = comm;
  f->group          = MPI_COMM_NULL;
  f->msg            = MPI_COMM_NULL;
  f->group_size     = 1;
  f->file           = -1;
  f->progress_every = 5.0;
  f->stop_after     = -1;
  f->kill_after     = -1;
  f->fail_task      = -1;
  f->fault_task     = -1;
  PetscCall(PetscStrncpy(f->label, "task", sizeof(f->label)));
  PetscCallMPI(MPI_Comm_rank(comm, &f->rank));
  PetscCallMPI(MPI_Comm_size(comm, &f->size));
  *farm = f;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmSetGroupSize(DRFarm f, PetscInt n)
{
  PetscFunctionBeginUser;
  PetscCheck(!f->setup, f->comm, PETSC_ERR_ORDER, "DRFarmSetGroupSize() after DRFarmSetUp()");
  PetscCheck(n >= 1, f->comm, DR_ERR_INPUT, "farm group size %" PetscInt_FMT ": expected a positive number of ranks per group", n);
  f->group_size = PetscMin(n, (PetscInt)f->size);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmSetConfig(DRFarm f, DRConfig cfg)
{
  PetscFunctionBeginUser;
  f->cfg = cfg;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmSetFromOptions(DRFarm f)
{
  DRConfig  cfg = f->cfg;
  PetscInt  n;
  PetscBool set;

  PetscFunctionBeginUser;
  /* Through the config getters (option > job file > default); without a job
   * an empty one, so the options and defaults still apply. */
  if (!cfg) PetscCall(DRConfigCreate(f->comm, &cfg));
  PetscCall(DRConfigGetInt(cfg, "ranks_per_group", &n, &set));
  if (set && n > 0) PetscCall(DRFarmSetGroupSize(f, n));
  PetscCall(DRConfigGetReal(cfg, "farm.progress", &f->progress_every, NULL));
  PetscCall(DRConfigGetInt(cfg, "farm.stop_after", &f->stop_after, NULL));
  PetscCall(DRConfigGetInt(cfg, "farm.fail_task", &f->fail_task, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-farm_fault_task", &f->fault_task, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-farm_test_kill_after", &f->kill_after, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-farm_fault", f->fault, sizeof(f->fault), NULL));
  if (cfg != f->cfg) PetscCall(DRConfigDestroy(&cfg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmSetUp(DRFarm f)
{
  PetscFunctionBeginUser;
  if (f->setup) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(f->size % f->group_size == 0, f->comm, DR_ERR_INPUT, "farm group size %" PetscInt_FMT " does not divide the %d ranks: expected a divisor of the number of ranks", f->group_size, f->size);
  f->ngroups = f->size / f->group_size;
  f->igroup  = f->rank / f->group_size;
  PetscCallMPI(MPI_Comm_split(f->comm, (int)f->igroup, f->rank, &f->group));
  PetscCallMPI(MPI_Comm_rank(f->group, &f->grank));
  PetscCallMPI(MPI_Comm_size(f->group, &f->gsize));
  PetscCallMPI(MPI_Comm_dup(f->comm, &f->msg));
  f->setup = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmGetGroup(DRFarm f, MPI_Comm *group, PetscInt *igroup, PetscInt *ngroups)
{
  PetscFunctionBeginUser;
  PetscCall(DRFarmSetUp(f));
  if (group) *group = f->group;
  if (igroup) *igroup = f->igroup;
  if (ngroups) *ngroups = f->ngroups;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmSetCheckpoint(DRFarm f, const char *path, const char *signature)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(f->ckpt, path ? path : "", sizeof(f->ckpt)));
  PetscCall(PetscStrncpy(f->signature, signature ? signature : "", sizeof(f->signature)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmSetLabel(DRFarm f, const char *label)
{
  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(f->label, label, sizeof(f->label)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void FreeResults(DRFarm f)
{
  for (PetscInt i = 0; i < f->ntasks && f->res; i++) (void)PetscFree(f->res[i]);
  (void)PetscFree(f->res);
  (void)PetscFree(f->len);
  f->ntasks = 0;
}

/* Rank 0: open (or create) the checkpoint and load the results it holds.
 * A file that cannot be opened is an error naming it; a file from another
 * sweep (signature or task count differ) likewise. */
static PetscErrorCode CheckpointOpen(DRFarm f, PetscInt ntasks, char *msg, size_t msglen)
{
  char       sig[256] = "";
  PetscInt64 nt       = -1;
  PetscBool  has;

  PetscFunctionBeginUser;
  msg[0] = 0;
  if (access(f->ckpt, F_OK) == 0) {
    PetscCall(DRH5FileOpen(MPI_COMM_NULL, f->ckpt, DR_H5_UPDATE, &f->file));
    if (f->file < 0) {
      PetscCall(PetscSNPrintf(msg, msglen, "%s: cannot open the sweep checkpoint (corrupt?): expected an HDF5 file written by an earlier run of this job; delete it to start over", f->ckpt));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(DRH5AttrReadString(f->file, "/", "signature", sig, sizeof(sig), NULL));
    PetscCall(DRH5AttrReadInt(f->file, "/", "ntasks", &nt, NULL));
    if (strcmp(sig, f->signature) || nt != ntasks) {
      PetscCall(PetscSNPrintf(msg, msglen, "%s: checkpoint of a different sweep (%lld tasks, signature '%s'): expected %" PetscInt_FMT " tasks, signature '%s'; delete it to start over", f->ckpt, (long long)nt, sig, ntasks, f->signature));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    /* load the finished tasks */
    PetscCall(DRH5Exists(f->file, "/farm", &has));
    if (has) {
      for (PetscInt i = 0; i < ntasks; i++) {
        char    name[40];
        hsize_t dims[4];
        int     nd;
        snprintf(name, sizeof(name), "/farm/%07lld", (long long)i);
        PetscCall(DRH5Dims(f->file, name, &nd, dims));
        if (!nd) continue;
        PetscCheck(nd == 1, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: %s is not 1-D: expected a checkpoint written by dynred; delete it to start over", f->ckpt, name);
        f->len[i] = (PetscInt)dims[0];
        PetscCall(DRH5ReadAll(f->file, name, H5T_NATIVE_DOUBLE, NULL, NULL, (void **)&f->res[i]));
        f->nrestored++;
      }
    }
  } else {
    hid_t g;
    PetscCall(DRH5FileOpen(MPI_COMM_NULL, f->ckpt, DR_H5_CREATE_EXCL, &f->file));
    if (f->file < 0) {
      PetscCall(PetscSNPrintf(msg, msglen, "%s: cannot create the sweep checkpoint: expected a writable location", f->ckpt));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(DRH5AttrWriteString(f->file, "/", "signature", f->signature));
    PetscCall(DRH5AttrWriteInt(f->file, "/", "ntasks", H5T_NATIVE_LLONG, ntasks));
    PetscCall(DRH5GroupOpen(f->file, "/farm", PETSC_TRUE, &g));
    H5Gclose(g);
    PetscCall(DRH5FileFlush(f->file));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckpointWrite(DRFarm f, PetscInt task)
{
  char    name[40];
  hsize_t n = (hsize_t)f->len[task];

  PetscFunctionBeginUser;
  if (f->file < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventBegin(DR_EVENT_FarmCheckpoint, 0, 0, 0, 0));
  snprintf(name, sizeof(name), "/farm/%07lld", (long long)task);
  DRCriticalBegin(); /* a stop signal waits until the record is whole */
  PetscCall(DRH5Write(f->file, name, H5T_NATIVE_DOUBLE, H5T_NATIVE_DOUBLE, 1, &n, PETSC_TRUE, f->res[task]));
  PetscCall(DRH5FileFlush(f->file));
  DRCriticalEnd();
  PetscCall(PetscLogEventEnd(DR_EVENT_FarmCheckpoint, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt       done, pending;
  PetscLogDouble t0, last;
} Progress;

static PetscErrorCode Arrived(DRFarm f, PetscInt task, Progress *p)
{
  PetscLogDouble now = DRTime();

  PetscFunctionBeginUser;
  PetscCall(CheckpointWrite(f, task));
  p->done++;
  f->ncomputed++;
  if (p->done == p->pending || now - p->last >= f->progress_every) {
    PetscReal rate = p->done / PetscMax(now - p->t0, 1e-9), eta = (p->pending - p->done) / PetscMax(rate, 1e-12);
    PetscCall(DRProgress(PETSC_COMM_SELF, "%ss: %" PetscInt_FMT "/%" PetscInt_FMT " done%s (%.3g/s), ETA %.0f s", f->label, p->done + f->nrestored, f->ntasks, f->nrestored ? " incl. restored" : "", (double)rate, (double)eta));
    p->last = now;
  }
  if (f->kill_after >= 0 && f->ncomputed >= f->kill_after) { /* test hook: a real kill -9 of rank 0 */
    fflush(stdout);
    raise(SIGKILL);
  }
  if (f->stop_after >= 0 && f->ncomputed >= f->stop_after) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "dynred: -farm_stop_after %" PetscInt_FMT ": aborting the sweep with %" PetscInt_FMT " %ss checkpointed in %s\n", f->stop_after, f->ncomputed + f->nrestored, f->label, f->ckpt));
    if (f->file >= 0) H5Fclose(f->file);
    MPI_Abort(f->comm, 3);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: receive the result whose envelope `st` probed. */
static PetscErrorCode ReceiveResult(DRFarm f, const MPI_Status *st, Progress *p)
{
  int        count;
  PetscReal *buf;
  PetscInt   task;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Get_count(st, MPI_DOUBLE, &count));
  PetscCall(PetscMalloc1(PetscMax(count, 1), &buf));
  PetscCallMPI(MPI_Recv(buf, count, MPI_DOUBLE, st->MPI_SOURCE, TAG_RESULT, f->msg, MPI_STATUS_IGNORE));
  /* the task index travels as the first entry */
  task = (PetscInt)buf[0];
  PetscCheck(task >= 0 && task < f->ntasks && !f->res[task], PETSC_COMM_SELF, PETSC_ERR_PLIB, "farm: unexpected result for task %" PetscInt_FMT, task);
  f->len[task] = count - 1;
  PetscCall(PetscMalloc1(PetscMax(count - 1, 1), &f->res[task]));
  PetscCall(PetscArraycpy(f->res[task], buf + 1, count - 1));
  PetscCall(PetscFree(buf));
  PetscCall(Arrived(f, task, p));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One run's scheduling state.  `pending` lists the unfinished tasks; a
 * position in it is what travels, and a grant is a range of positions.
 * Every group root holds its queue (at most two ranges: the rest of the
 * current one and the grant asked for in reserve); rank 0 also the pool
 * (positions not yet handed out) and the count of workers it has sent
 * STOP; a worker root its one outstanding request. */
typedef struct {
  long lo, hi;
} Range;

typedef struct {
  const PetscInt *pending;
  long            npending;
  Range           queue[2];
  PetscInt        nr;       /* ranges in the queue */
  long            pool;     /* rank 0: next position to hand out */
  PetscBool       stopping; /* rank 0: a group failed: no more tasks */
  PetscInt        nstopped; /* rank 0: workers sent STOP */
  PetscBool       asked;    /* worker: a request is outstanding */
  PetscBool       stopped;  /* worker: STOP received */
  long            reply[2]; /* worker: the answer's buffer, a range or STOP */
  MPI_Request     rreq;     /* worker: the answer's receive */
} Schedule;

/* Guided self-scheduling: a grant is the pool's remainder over twice the
 * number of groups, at least 1 and at most FARM_CHUNK_MAX positions, so a
 * worker asks about 2 ngroups log(n) times per run and the last grants are
 * single tasks (the tail stays balanced). */
#define FARM_CHUNK_MAX 256L
static long Chunk(long remaining, PetscInt ngroups)
{
  long k = remaining / (2 * (long)ngroups);

  return PetscMax(1L, PetscMin(k, FARM_CHUNK_MAX));
}

/* Every group root: its static share, a quarter of its even part of the
 * tasks (group g: positions [g s0, (g + 1) s0)); rank 0: the pool after
 * them. */
static void ScheduleInit(DRFarm f, Schedule *s, const PetscInt *pending, PetscInt npending)
{
  const long s0 = PetscMax(1L, PetscMin((long)npending / (4 * (long)f->ngroups), FARM_CHUNK_MAX));
  const long lo = f->igroup * s0, hi = PetscMin((f->igroup + 1) * s0, (long)npending);

  PetscMemzero(s, sizeof(*s));
  s->pending  = pending;
  s->npending = npending;
  s->rreq     = MPI_REQUEST_NULL;
  if (lo < hi) s->queue[s->nr++] = (Range){lo, hi};
  s->pool = PetscMin(f->ngroups * s0, (long)npending);
}

static long QueueLength(const Schedule *s)
{
  long n = 0;

  for (PetscInt i = 0; i < s->nr; i++) n += s->queue[i].hi - s->queue[i].lo;
  return n;
}

static long QueuePop(Schedule *s)
{
  long k = s->queue[0].lo++;

  if (s->queue[0].lo == s->queue[0].hi) {
    s->queue[0] = s->queue[1];
    s->nr--;
  }
  return k;
}

/* Worker root: ask rank 0 for a task; `failed` tells it to stop the run. */
static PetscErrorCode Ask(DRFarm f, Schedule *s, PetscBool failed)
{
  int flag = failed ? 1 : 0;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Irecv(s->reply, 2, MPI_LONG, 0, TAG_TASK, f->msg, &s->rreq));
  PetscCallMPI(MPI_Send(&flag, 1, MPI_INT, 0, TAG_REQ, f->msg));
  s->asked = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Worker root: take in rank 0's answer, waiting for it if `wait`. */
static PetscErrorCode Listen(DRFarm f, Schedule *s, PetscBool wait, PetscBool failed)
{
  int done = 1;

  PetscFunctionBeginUser;
  if (!s->asked) PetscFunctionReturn(PETSC_SUCCESS);
  if (wait) PetscCallMPI(MPI_Wait(&s->rreq, MPI_STATUS_IGNORE));
  else PetscCallMPI(MPI_Test(&s->rreq, &done, MPI_STATUS_IGNORE));
  if (!done) PetscFunctionReturn(PETSC_SUCCESS);
  s->asked = PETSC_FALSE;
  if (s->reply[0] == FARM_STOP) {
    s->stopped = PETSC_TRUE;
    if (s->reply[1]) s->nr = 0; /* a failure elsewhere: the reserve is left undone */
  } else if (!failed) s->queue[s->nr++] = (Range){s->reply[0], s->reply[1]};
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Worker root: the position of its next task, or -1 when its run is over.
 * It keeps a reserve: a request goes out as soon as at most one task is
 * left in the queue, while the task just taken runs, so rank 0 may answer
 * after a task of its own without the worker waiting. */
static PetscErrorCode WorkerNext(DRFarm f, Schedule *s, long *next)
{
  PetscLogDouble t0 = DRTime();

  PetscFunctionBeginUser;
  PetscCall(Listen(f, s, PETSC_FALSE, PETSC_FALSE));
  while (!s->stopped && !s->nr) {
    if (!s->asked) PetscCall(Ask(f, s, PETSC_FALSE));
    PetscCall(Listen(f, s, PETSC_TRUE, PETSC_FALSE));
  }
  *next = -1;
  if (s->nr) {
    *next = QueuePop(s);
    if (QueueLength(s) <= 1 && !s->asked && !s->stopped) PetscCall(Ask(f, s, PETSC_FALSE));
  }
  f->t_claim += DRTime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Worker root whose group failed: tell rank 0 and wait for its STOP, so no
 * message of this run is left in flight. */
static PetscErrorCode WorkerFail(DRFarm f, Schedule *s)
{
  PetscFunctionBeginUser;
  PetscCall(Listen(f, s, PETSC_TRUE, PETSC_TRUE));
  while (!s->stopped) {
    PetscCall(Ask(f, s, PETSC_TRUE));
    PetscCall(Listen(f, s, PETSC_TRUE, PETSC_TRUE));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: answer the request whose envelope `st` probed. */
static PetscErrorCode Answer(DRFarm f, Schedule *s, const MPI_Status *st)
{
  int  flag;
  long reply[2] = {FARM_STOP, 0}; /* STOP; 1 in [1]: drop the queue (a group failed) */

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Recv(&flag, 1, MPI_INT, st->MPI_SOURCE, TAG_REQ, f->msg, MPI_STATUS_IGNORE));
  if (flag) s->stopping = PETSC_TRUE;
  if (!s->stopping && s->pool < s->npending) {
    reply[0] = s->pool;
    reply[1] = s->pool = PetscMin(s->npending, s->pool + Chunk(s->npending - s->pool, f->ngroups));
  } else {
    reply[1] = s->stopping;
    s->nstopped++;
  }
  PetscCallMPI(MPI_Send(reply, 2, MPI_LONG, st->MPI_SOURCE, TAG_TASK, f->msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: answer the requests and receive the results that are waiting;
 * with `wait`, block until at least one message was handled.  Without a
 * schedule (s NULL: every request of the run is answered) only results. */
static PetscErrorCode Serve(DRFarm f, Schedule *s, PetscBool wait, Progress *p)
{
  const int      tag = s ? MPI_ANY_TAG : TAG_RESULT;
  PetscLogDouble t0  = DRTime();

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DR_EVENT_FarmDrain, 0, 0, 0, 0));
  for (;;) {
    int        flag = 0;
    MPI_Status st;
    if (wait) {
      PetscCallMPI(MPI_Probe(MPI_ANY_SOURCE, tag, f->msg, &st));
      flag = 1;
    } else PetscCallMPI(MPI_Iprobe(MPI_ANY_SOURCE, tag, f->msg, &flag, &st));
    if (!flag) break;
    if (st.MPI_TAG == TAG_REQ) PetscCall(Answer(f, s, &st));
    else PetscCall(ReceiveResult(f, &st, p));
    if (wait) break;
  }
  PetscCall(PetscLogEventEnd(DR_EVENT_FarmDrain, 0, 0, 0, 0));
  if (wait) f->t_wait += DRTime() - t0;
  else f->t_drain += DRTime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rank 0: the position of its group's next task, or -1. */
static long RootNext(Schedule *s)
{
  if (s->stopping) return -1;
  if (s->nr) return QueuePop(s);
  if (s->pool < s->npending) return s->pool++;
  return -1;
}

/* Test hook (tests/e2e/signals.sh): the group root of task -farm_fault_task
 * faults as a defect (-farm_fault segv) or a broken transport (-farm_fault
 * mpi: a send of a negative count, which MPI reports as an error) would. */
static PetscErrorCode Fault(DRFarm f)
{
  int x = 0;

  PetscFunctionBeginUser;
  if (!strcmp(f->fault, "segv")) raise(SIGSEGV);
  else if (!strcmp(f->fault, "mpi")) PetscCallMPI(MPI_Send(&x, -1, MPI_INT, 0, TAG_REQ, f->msg));
  else SETERRQ(PETSC_COMM_SELF, DR_ERR_INPUT, "-farm_fault '%s': expected segv or mpi", f->fault);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The task, with a failure agreed on its group: *msg is empty on success,
 * else `LABEL N: MESSAGE` on every rank of the group. */
static PetscErrorCode RunTask(DRFarm f, PetscInt task, DRFarmTaskFn fn, void *ctx, PetscInt *n, PetscReal **r, char *msg, size_t len)
{
  PetscErrorCode e;
  char           what[96];

  PetscFunctionBeginUser;
  msg[0] = 0;
  snprintf(what, sizeof(what), "%s %lld", f->label, (long long)task);
  DRPhaseSet("%s", what);
  if (task == f->fault_task && f->grank == 0) PetscCall(Fault(f));
  PetscCall(PetscLogEventBegin(DR_EVENT_FarmTask, 0, 0, 0, 0));
  PetscCall(DRErrorDeferBegin());
  if (task == f->fail_task) e = PetscError(f->group, __LINE__, PETSC_FUNCTION_NAME, __FILE__, PETSC_ERR_CONV_FAILED, PETSC_ERROR_INITIAL, "solver breakdown injected by the test hook -farm_fail_task %" PetscInt_FMT, task);
  else e = fn(f->group, task, ctx, n, r);
  e = DRErrorDeferTake(f->group, e, what, msg, len);
  PetscCall(PetscLogEventEnd(DR_EVENT_FarmTask, 0, 0, 0, 0));
  if (e == PETSC_ERR_MPI) PetscCall(e);
  if (e && !msg[0]) snprintf(msg, len, "%s: failed (error %d)", what, (int)e);
  if (e) {
    PetscCall(PetscFree(*r));
    *n = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmRun(DRFarm f, PetscInt ntasks, DRFarmTaskFn fn, void *ctx)
{
  PetscInt      *pending = NULL, npending = 0, *flags;
  Schedule       sched;
  Progress       p   = {0};
  char           msg[PETSC_MAX_PATH_LEN + 256];
  PetscInt       nsent = 0, cap = 16;
  MPI_Request   *req;
  PetscReal    **sendbuf;
  PetscLogDouble t0 = DRTime();
  PetscInt       nown = 0; /* rank 0: results of its own group's tasks */
  char           fail[2560];

  PetscFunctionBeginUser;
  PetscCall(DRFarmSetUp(f));
  FreeResults(f);
  f->ntasks    = ntasks;
  f->ncomputed = 0;
  f->nrestored = 0;
  PetscCall(PetscCalloc1(ntasks, &f->len));
  PetscCall(PetscCalloc1(ntasks, &f->res));
  PetscCall(PetscCalloc1(ntasks, &flags));
  msg[0]  = 0;
  fail[0] = 0;
  if (f->rank == 0 && f->ckpt[0]) {
    if (f->file >= 0) H5Fclose(f->file); /* reopen: restore what the previous run wrote */
    f->file = -1;
    PetscCall(PetscLogEventBegin(DR_EVENT_FarmCheckpoint, 0, 0, 0, 0));
    PetscCall(CheckpointOpen(f, ntasks, msg, sizeof(msg)));
    if (f->file >= 0) DRCheckpointRegister(f->ckpt);
    PetscCall(PetscLogEventEnd(DR_EVENT_FarmCheckpoint, 0, 0, 0, 0));
    for (PetscInt i = 0; i < ntasks; i++) flags[i] = f->res[i] ? 1 : 0;
  }
  if (f->ckpt[0]) { /* the same on every rank: without a checkpoint nothing to agree on */
    int bad = msg[0] != 0;
    PetscCallMPI(MPI_Bcast(&bad, 1, MPI_INT, 0, f->comm));
    PetscCheck(!bad, f->comm, DR_ERR_INPUT, "%s", msg);
    PetscCallMPI(MPI_Bcast(flags, (PetscMPIInt)ntasks, MPIU_INT, 0, f->comm));
  }
  PetscCall(PetscMalloc1(ntasks, &pending));
  for (PetscInt i = 0; i < ntasks; i++)
    if (!flags[i]) pending[npending++] = i;
  PetscCall(PetscFree(flags));
  p.pending = npending;
  p.t0 = p.last = DRTime();
  if (f->rank == 0 && f->nrestored) PetscCall(DRProgress(PETSC_COMM_SELF, "%ss: %" PetscInt_FMT " of %" PetscInt_FMT " restored from %s; %" PetscInt_FMT " to go on %" PetscInt_FMT " group(s)", f->label, f->nrestored, ntasks, f->ckpt, npending, f->ngroups));

  ScheduleInit(f, &sched, pending, npending);
  PetscCall(PetscMalloc2(cap, &req, cap, &sendbuf));
  for (;;) {
    long           next = -1;
    PetscInt       task, n = 0;
    PetscReal     *r = NULL;
    PetscLogDouble tt;
    if (f->rank == 0) {
      PetscCall(Serve(f, &sched, PETSC_FALSE, &p));
      next = RootNext(&sched);
    } else if (f->grank == 0) PetscCall(WorkerNext(f, &sched, &next));
    if (f->gsize > 1) PetscCallMPI(MPI_Bcast(&next, 1, MPI_LONG, 0, f->group));
    if (next < 0) break;
    task = pending[next];
    tt   = DRTime();
    PetscCall(RunTask(f, task, fn, ctx, &n, &r, fail, sizeof(fail)));
    f->t_task += DRTime() - tt;
    if (fail[0]) {
      if (f->rank == 0) sched.stopping = PETSC_TRUE;
      else if (f->grank == 0) PetscCall(WorkerFail(f, &sched));
      break;
    }
    if (f->grank == 0) {
      PetscCheck(r || n == 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "farm: task %" PetscInt_FMT " returned no result", task);
      if (f->rank == 0) {
        f->len[task] = n;
        f->res[task] = r ? r : NULL;
        if (!r) PetscCall(PetscMalloc1(1, &f->res[task]));
        nown++;
        PetscCall(Arrived(f, task, &p));
      } else {
        PetscReal *buf;
        PetscCall(PetscMalloc1(n + 1, &buf));
        buf[0] = (PetscReal)task;
        PetscCall(PetscArraycpy(buf + 1, r, n));
        PetscCall(PetscFree(r));
        if (nsent == cap) {
          MPI_Request *nr;
          PetscReal  **nb;
          PetscCall(PetscMalloc2(2 * cap, &nr, 2 * cap, &nb));
          PetscCall(PetscArraycpy(nr, req, cap));
          PetscCall(PetscArraycpy(nb, sendbuf, cap));
          PetscCall(PetscFree2(req, sendbuf));
          req = nr, sendbuf = nb, cap *= 2;
        }
        sendbuf[nsent] = buf;
        PetscCallMPI(MPI_Isend(buf, (PetscMPIInt)(n + 1), MPI_DOUBLE, 0, TAG_RESULT, f->msg, &req[nsent]));
        nsent++;
      }
    }
  }
  /* rank 0: every worker gets its STOP before the run ends */
  if (f->rank == 0)
    while (sched.nstopped < f->ngroups - 1) PetscCall(Serve(f, &sched, PETSC_TRUE, &p));
  {
    /* how many results rank 0 is to receive, and the lowest failing rank */
    long nrecv, mine = f->rank ? (long)nsent : 0;
    struct {
      int v, r;
    } in = {fail[0] && f->grank == 0 ? 0 : 1, (int)f->rank}, out;
    PetscCallMPI(MPI_Allreduce(&mine, &nrecv, 1, MPI_LONG, MPI_SUM, f->comm));
    PetscCallMPI(MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, f->comm));
    if (f->rank == 0)
      while (p.done < nown + nrecv) PetscCall(Serve(f, NULL, PETSC_TRUE, &p));
    if (out.v == 0) {
      PetscCallMPI(MPI_Bcast(fail, (int)sizeof(fail), MPI_CHAR, out.r, f->comm));
      PetscCallMPI(MPI_Waitall((PetscMPIInt)nsent, req, MPI_STATUSES_IGNORE));
      for (PetscInt i = 0; i < nsent; i++) PetscCall(PetscFree(sendbuf[i]));
      PetscCall(PetscFree2(req, sendbuf));
      PetscCall(PetscFree(pending));
      if (f->file >= 0) H5Fclose(f->file); /* what arrived is checkpointed: a rerun resumes */
      f->file = -1;
      SETERRQ(f->comm, DR_ERR_INPUT, "%s%s%s", fail, f->ckpt[0] ? "; the results before it are in the checkpoint " : "", f->ckpt[0] ? f->ckpt : "");
    }
  }
  {
    PetscLogDouble tw = DRTime();
    PetscCallMPI(MPI_Waitall((PetscMPIInt)nsent, req, MPI_STATUSES_IGNORE));
    f->t_wait += DRTime() - tw;
  }
  for (PetscInt i = 0; i < nsent; i++) PetscCall(PetscFree(sendbuf[i]));
  PetscCall(PetscFree2(req, sendbuf));
  PetscCall(PetscFree(pending));
  PetscCallMPI(MPI_Bcast(&f->nrestored, 1, MPIU_INT, 0, f->comm));
  PetscCallMPI(MPI_Bcast(&f->ncomputed, 1, MPIU_INT, 0, f->comm));
  f->seconds = DRTime() - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmGetResult(DRFarm f, PetscInt task, PetscInt *n, const PetscReal **r)
{
  PetscFunctionBeginUser;
  PetscCheck(f->rank == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "DRFarmGetResult() is for rank 0");
  PetscCheck(task >= 0 && task < f->ntasks && f->res[task], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "farm: no result for task %" PetscInt_FMT, task);
  if (n) *n = f->len[task];
  if (r) *r = f->res[task];
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmGetStats(DRFarm f, PetscInt *computed, PetscInt *restored, PetscReal *seconds)
{
  PetscFunctionBeginUser;
  if (computed) *computed = f->ncomputed;
  if (restored) *restored = f->nrestored;
  if (seconds) *seconds = f->seconds;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmGetTimes(DRFarm f, PetscReal *task, PetscReal *claim, PetscReal *drain, PetscReal *wait)
{
  PetscFunctionBeginUser;
  if (task) *task = (PetscReal)f->t_task;
  if (claim) *claim = (PetscReal)f->t_claim;
  if (drain) *drain = (PetscReal)f->t_drain;
  if (wait) *wait = (PetscReal)f->t_wait;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmRemoveCheckpoint(DRFarm f)
{
  PetscFunctionBeginUser;
  if (f->rank == 0 && f->file >= 0) {
    H5Fclose(f->file);
    f->file = -1;
    (void)unlink(f->ckpt);
    DRCheckpointForget(f->ckpt);
  }
  PetscCallMPI(MPI_Barrier(f->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFarmDestroy(DRFarm *farm)
{
  DRFarm f = *farm;

  PetscFunctionBeginUser;
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  FreeResults(f);
  if (f->file >= 0) H5Fclose(f->file);
  if (f->msg != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&f->msg));
  if (f->group != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&f->group));
  PetscCall(PetscFree(f));
  *farm = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}
