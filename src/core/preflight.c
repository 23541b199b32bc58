/* Fail-fast checks before the expensive work (include/dynred/preflight.h):
 * the output's directory, the input files (components, ss and sysred
 * sources), every key's type and range, the memory a node offers against
 * what the job will need. */
#include <dynred/preflight.h>
#include "configimpl.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rank 0 checks, every rank raises the same one-line error (msg broadcast). */
static PetscErrorCode RootMessage(MPI_Comm comm, char *msg, size_t len)
{
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(msg, (PetscMPIInt)len, MPI_CHAR, 0, comm));
  PetscCheck(!msg[0], comm, DR_ERR_INPUT, "%s", msg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPreflightOutput(DRConfig cfg, const char *key)
{
  char        out[PETSC_MAX_PATH_LEN], dir[PETSC_MAX_PATH_LEN], where[PETSC_MAX_PATH_LEN + 32], msg[8 * PETSC_MAX_PATH_LEN] = "";
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(cfg->comm, &rank));
  PetscCall(DRConfigGetString(cfg, key, out, sizeof(out), NULL));
  PetscCall(DRConfigWhereValue(cfg, key, where, sizeof(where)));
  if (!rank) {
    struct stat st;
    const char *slash = strrchr(out, '/');
    const char *base = slash ? slash + 1 : out;
    if (!out[0]) snprintf(msg, sizeof(msg), "%s: %s is empty, expected an output file name", where, key);
    /* room for what jobs append (".ckpt/HASH.h5.tmp", ".sweep.h5", ".csv", ".tmp.PID"): a path of
     * PETSC_MAX_PATH_LEN - 64 and a file name of NAME_MAX - 64 characters at most (the name read
     * is cut at PETSC_MAX_PATH_LEN - 1: a longer one arrives at that length) */
    else if (strlen(out) > PETSC_MAX_PATH_LEN - 64 || strlen(base) > NAME_MAX - 64) snprintf(msg, sizeof(msg), "%s: %s has %d characters (a file name of %d), expected a path of at most %d and a file name of at most %d characters", where, key, (int)strlen(out), (int)strlen(base), PETSC_MAX_PATH_LEN - 64, NAME_MAX - 64);
    else if (!stat(out, &st) && S_ISDIR(st.st_mode)) snprintf(msg, sizeof(msg), "%s: %s = '%s' is a directory, expected a file name", where, key, out);
    else {
      if (!slash) snprintf(dir, sizeof(dir), ".");
      else if (slash == out) snprintf(dir, sizeof(dir), "/");
      else snprintf(dir, sizeof(dir), "%.*s", (int)(slash - out), out);
      if (stat(dir, &st)) snprintf(msg, sizeof(msg), "%s: %s = '%s': directory '%s' does not exist (%s), expected an existing writable directory", where, key, out, dir, strerror(errno));
      else if (!S_ISDIR(st.st_mode)) snprintf(msg, sizeof(msg), "%s: %s = '%s': '%s' is not a directory, expected an existing writable directory", where, key, out, dir);
      else if (access(dir, W_OK | X_OK)) snprintf(msg, sizeof(msg), "%s: %s = '%s': directory '%s' is not writable (%s), expected an existing writable directory", where, key, out, dir, strerror(errno));
      else {
        /* the ParaView index written beside an HDF5 result (store.c: NAME.h5 -> NAME.xdmf) */
        char   xdmf[PETSC_MAX_PATH_LEN + 8];
        size_t l = strlen(out);
        snprintf(xdmf, sizeof(xdmf), "%.*s.xdmf", (int)(l > 3 && !strcmp(out + l - 3, ".h5") ? l - 3 : l), out);
        if (!stat(xdmf, &st) && S_ISDIR(st.st_mode)) snprintf(msg, sizeof(msg), "%s: %s = '%s': its ParaView index '%s' is a directory, expected a file name or nothing there", where, key, out, xdmf);
      }
    }
  }
  PetscCall(RootMessage(cfg->comm, msg, sizeof(msg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* msg: "WHERE: KEY = 'RAW': cannot read 'PATH' (why), expected a readable file" */
static void CheckReadable(const char *where, const char *key, const char *raw, const char *path, char *msg, size_t len)
{
  struct stat st;
  FILE       *f;

  if (msg[0] || !path[0]) return;
  if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
    snprintf(msg, len, "%s: %s = '%s': '%s' is a directory, expected a readable file", where, key, raw, path);
    return;
  }
  f = fopen(path, "r");
  if (!f) snprintf(msg, len, "%s: %s = '%s': cannot read '%s' (%s), expected a readable file", where, key, raw, path, strerror(errno));
  else fclose(f);
}

/* One key naming a file (ext appended, e.g. ".sti"); optional files are
 * checked when given. */
static PetscErrorCode CheckKeyFile(DRConfig cfg, const char *key, const char *ext, char *msg, size_t len)
{
  char        raw[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN], full[PETSC_MAX_PATH_LEN + 8], where[PETSC_MAX_PATH_LEN + 32];
  const char *origin;

  PetscFunctionBeginUser;
  if (msg[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRConfigGetString(cfg, key, raw, sizeof(raw), NULL));
  if (!raw[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRConfigPathBase(cfg, key, &origin));
  PetscCall(DRPathResolve(origin, raw, path, sizeof(path)));
  PetscCall(DRConfigWhereValue(cfg, key, where, sizeof(where)));
  snprintf(full, sizeof(full), "%s%s", path, ext ? ext : "");
  CheckReadable(where, key, raw, full, msg, len);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Is `key` registered (ss.* only when the ss job's table is)? */
static PetscBool Known(const char *key)
{
  char norm[256];
  DRCfgNormalize(key, norm, sizeof(norm));
  return DRCfgSchemaFind(norm) ? PETSC_TRUE : PETSC_FALSE;
}

PetscErrorCode DRPreflightInputs(DRConfig cfg)
{
  char        msg[4 * PETSC_MAX_PATH_LEN] = "", key[96], fmt[64], sig[32] = "";
  PetscInt    n;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(cfg->comm, &rank));
  PetscCall(DRConfigGetListLength(cfg, "components", &n));
  /* every rank reads the keys (the getters are collective), rank 0 opens */
  for (PetscInt k = 0; k < n; k++) {
    static const char *const mtx[] = {"K", "M", "D", "dofs"};
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].format", k));
    PetscCall(DRConfigGetString(cfg, key, fmt, sizeof(fmt), NULL));
    if (!strcmp(fmt, "mtx") || !strcmp(fmt, "abaqus") || !strcmp(fmt, "ansys"))
      for (int f = 0; f < 4; f++) {
        PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].%s", k, mtx[f]));
        if (!rank) PetscCall(CheckKeyFile(cfg, key, NULL, msg, sizeof(msg)));
      }
    else if (!strcmp(fmt, "calculix")) {
      static const char *const ext[] = {".sti", ".mas", ".dof"};
      PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].path", k));
      for (int f = 0; f < 3; f++)
        if (!rank) PetscCall(CheckKeyFile(cfg, key, ext[f], msg, sizeof(msg)));
    } else if (!strcmp(fmt, "petsc") || !strcmp(fmt, "hdf5") || !strcmp(fmt, "dmig")) {
      PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].path", k));
      if (!rank) PetscCall(CheckKeyFile(cfg, key, NULL, msg, sizeof(msg)));
    } else if (!strcmp(fmt, "op4")) {
      static const char *const op4[] = {"path", "dofs"};
      for (int f = 0; f < 2; f++) {
        PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].%s", k, op4[f]));
        if (!rank) PetscCall(CheckKeyFile(cfg, key, NULL, msg, sizeof(msg)));
      }
    } /* an unknown format is the reader registry's error */
  }
  if (Known("ss.source")) {
    if (!rank) PetscCall(CheckKeyFile(cfg, "ss.source", NULL, msg, sizeof(msg)));
    PetscCall(DRConfigGetString(cfg, "ss.input.signal", sig, sizeof(sig), NULL));
    if (!strcmp(sig, "file") && !rank) PetscCall(CheckKeyFile(cfg, "ss.input.file", NULL, msg, sizeof(msg)));
  }
  if (Known("sysred.source")) {
    /* the files the method reads (src/sysred/sysred.c, DRSysRedSetUp): the
     * system (an HDF5 source or Matrix Market A, B, C[, D]; sobt and energy
     * read the source only) unless the energy method's model is built in, the snapshots of pod, the cms
     * result of the energy method's substructures */
    static const char *const sys[] = {"sysred.source", "sysred.mtx.A", "sysred.mtx.B", "sysred.mtx.C", "sysred.mtx.D"};
    char                     method[32], emodel[32];
    PetscCall(DRConfigGetString(cfg, "sysred.method", method, sizeof(method), NULL));
    PetscCall(DRConfigGetString(cfg, "sysred.energy.model", emodel, sizeof(emodel), NULL));
    PetscBool so = (PetscBool)(!strcmp(method, "sobt") || !strcmp(method, "energy")); /* a second-order model: sysred.source only */
    if (strcmp(method, "energy") || !strcmp(emodel, "modal"))
      for (int f = 0; f < (so ? 1 : 5); f++)
        if (!rank) PetscCall(CheckKeyFile(cfg, sys[f], NULL, msg, sizeof(msg)));
    if (!strcmp(method, "pod") && !rank) PetscCall(CheckKeyFile(cfg, "sysred.pod.snapshots", NULL, msg, sizeof(msg)));
    if (!strcmp(method, "energy") && !strcmp(emodel, "modal") && !rank) PetscCall(CheckKeyFile(cfg, "sysred.energy.cms", NULL, msg, sizeof(msg)));
  }
  PetscCall(RootMessage(cfg->comm, msg, sizeof(msg)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool InSections(const char *key, const char *const sections[])
{
  for (int s = 0; sections && sections[s]; s++)
    if (!strncmp(key, sections[s], strlen(sections[s]))) return PETSC_TRUE;
  return PETSC_FALSE;
}

static PetscBool InYAML(DRConfig cfg, const char *key)
{
  for (int i = 0; i < cfg->nleaves; i++)
    if (!strcmp(cfg->leaves[i].path, key)) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* Read `key` through its typed getter (which checks type and range). */
static PetscErrorCode ReadKey(DRConfig cfg, const DRConfigKey *sk, const char *key)
{
  char      buf[PETSC_MAX_PATH_LEN];
  PetscReal r, arr[256];
  PetscInt  i, n = 256;
  PetscBool b;

  PetscFunctionBeginUser;
  switch (sk->type) {
  case DR_CFG_STRING: PetscCall(DRConfigGetString(cfg, key, buf, sizeof(buf), NULL)); break;
  case DR_CFG_REAL: PetscCall(DRConfigGetReal(cfg, key, &r, NULL)); break;
  case DR_CFG_INT: PetscCall(DRConfigGetInt(cfg, key, &i, NULL)); break;
  case DR_CFG_BOOL: PetscCall(DRConfigGetBool(cfg, key, &b, NULL)); break;
  case DR_CFG_LIST: /* numeric lists only (a range is declared); label lists are the module's */
    if (sk->range) PetscCall(DRConfigGetRealArray(cfg, key, arr, &n, NULL));
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigCheckAll(DRConfig cfg, const char *const sections[])
{
  PetscInt nleft;
  char   **names, **values;

  PetscFunctionBeginUser;
  /* the options nobody read yet, without marking them read */
  PetscCall(PetscOptionsLeftGet(NULL, &nleft, &names, &values));
  for (int t = 0; t < DRCfgNTables; t++)
    for (const DRConfigKey *k = DRCfgTables[t]; k->key; k++) {
      const char *br = strstr(k->key, "[]");
      PetscInt    len = 1;
      if (k->replaced_by) continue;
      if (br) {
        char list[256];
        snprintf(list, sizeof(list), "%.*s", (int)(br - k->key), k->key);
        PetscCall(DRConfigGetListLength(cfg, list, &len));
      }
      for (PetscInt i = 0; i < len; i++) {
        char      key[300], idx[32], opt[320];
        PetscBool hasopt = PETSC_FALSE;
        if (br) {
          snprintf(idx, sizeof(idx), "x[%d]", (int)i);
          DRCfgFillIndices(k->key, idx, key, sizeof(key));
        } else snprintf(key, sizeof(key), "%s", k->key);
        DRCfgOptionName(key, opt, sizeof(opt));
        for (PetscInt o = 0; o < nleft && !hasopt; o++) hasopt = (PetscBool)!strcmp(names[o][0] == '-' ? names[o] + 1 : names[o], opt + 1);
        if (InYAML(cfg, key) || (hasopt && InSections(key, sections))) PetscCall(ReadKey(cfg, k, key));
      }
    }
  PetscCall(PetscOptionsLeftRestore(NULL, &nleft, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMemoryNodeAvailable(DRConfig cfg, PetscReal *mib, const char **source)
{
  PetscReal lim = 0;
  PetscBool set = PETSC_FALSE;
  FILE     *f;
  char      line[256];

  PetscFunctionBeginUser;
  if (cfg && Known("mem_limit_mib")) PetscCall(DRConfigGetReal(cfg, "mem_limit_mib", &lim, &set));
  if (set && lim > 0) {
    *mib    = lim;
    *source = "mem_limit_mib";
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *mib    = -1;
  *source = "MemAvailable in /proc/meminfo";
  f       = fopen("/proc/meminfo", "r");
  if (f) {
    while (fgets(line, sizeof(line), f)) {
      long long kb;
      if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) *mib = kb / 1024.0;
    }
    fclose(f);
  }
  if (*mib < 0) {
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    *source    = "sysconf available pages";
    *mib       = (pages > 0 && psz > 0) ? (PetscReal)pages * (PetscReal)psz / 1048576.0 : PETSC_MAX_REAL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMemoryFactorEstimate(Mat A, PetscReal *mib)
{
  Mat       F;
  IS        rperm, cperm;
  PetscInt  info15 = 0, N;
  PetscBool mumps;
  MatInfo   info;

  PetscFunctionBeginUser;
  PetscCall(MatGetFactorAvailable(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &mumps));
  if (!mumps) { /* no MUMPS for this matrix type: the factor-size model of
                   DESIGN.md (cost model), nnz max(1, log2(N)/4) entries of
                   a value and an index each */
    PetscCall(MatGetSize(A, &N, NULL));
    PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
    *mib = (PetscReal)info.nz_used * PetscMax(1.0, PetscLog2Real((PetscReal)PetscMax(N, 2)) / 4) * (sizeof(PetscScalar) + sizeof(PetscInt)) / 1048576.0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetFactor(A, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &F));
  PetscCall(MatGetOrdering(A, MATORDERINGNATURAL, &rperm, &cperm));
  PetscCall(MatCholeskyFactorSymbolic(F, A, rperm, NULL));
  PetscCall(MatMumpsGetInfo(F, 15, &info15)); /* MB, this process, in-core factorization */
  *mib = (PetscReal)info15 * 1e6 / 1048576.0;
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscCall(MatDestroy(&F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMemoryCheck(MPI_Comm comm, DRConfig cfg, PetscReal need_mib, const char *what)
{
  PetscFunctionBeginUser;
  PetscCall(DRMemoryCheckHint(comm, cfg, need_mib, what, "run it on more nodes (the ranks share the factorization), or on a node with more memory"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRMemoryCheckHint(MPI_Comm comm, DRConfig cfg, PetscReal need_mib, const char *what, const char *hint)
{
  MPI_Comm    node;
  PetscMPIInt nrank, nsize;
  PetscReal   need = 0, avail = 0, v[3] = {0, 0, 0}, all[3];
  const char *source;
  struct {
    double ratio;
    int    rank;
  } in, out;
  PetscMPIInt rank;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCallMPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  PetscCallMPI(MPI_Comm_rank(node, &nrank));
  PetscCallMPI(MPI_Comm_size(node, &nsize));
  PetscCall(MPIU_Allreduce(&need_mib, &need, 1, MPIU_REAL, MPIU_SUM, node));
  PetscCallMPI(MPI_Comm_free(&node));
  PetscCall(DRMemoryNodeAvailable(cfg, &avail, &source));
  in.ratio = (!nrank && avail > 0) ? (double)(need / avail) : 0;
  in.rank  = (int)rank;
  PetscCallMPI(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm));
  if (rank == out.rank) {
    v[0] = need;
    v[1] = avail;
    v[2] = nsize;
  }
  PetscCallMPI(MPI_Bcast(v, 3, MPIU_REAL, out.rank, comm));
  all[0] = v[0];
  all[1] = v[1];
  all[2] = v[2];
  PetscCheck(out.ratio <= 1, comm, DR_ERR_INPUT, "%s needs about %.3g MiB on a node (%d rank(s) there), %.3g MiB available (%s): expected a job that fits in memory; %s", what, (double)all[0], (int)all[2], (double)all[1], source, hint);
  PetscFunctionReturn(PETSC_SUCCESS);
}
