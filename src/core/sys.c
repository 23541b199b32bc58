/* System-level helpers: initialization, log events, progress, memory. */
#include <dynred/sys.h>
#include <dynred/preflight.h>
#include <slepcsys.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

PetscLogEvent DR_EVENT_Write, DR_EVENT_FarmTask, DR_EVENT_FarmCheckpoint, DR_EVENT_FarmDrain;
PetscClassId  DR_CLASSID;
static PetscBool DRSysPackageInitialized = PETSC_FALSE;
static PetscLogDouble dr_t0;

const char *DRLabelString(DRLabel l, char buf[32])
{
  if (DRLabelGenerated(l)) snprintf(buf, 32, "%lld.%d (generated)", (long long)DRLabelNode(l), (int)DRLabelDir(l));
  else if (DRLabelDilatation(l)) snprintf(buf, 32, "%lld.0 (dilatation %d)", (long long)DRLabelNode(l), (int)(DRLabelCopy(l) & 7));
  else if (DRLabelCopy(l)) snprintf(buf, 32, "%lld.%d#%d", (long long)DRLabelNode(l), (int)DRLabelDir(l), (int)DRLabelCopy(l) + 1);
  else snprintf(buf, 32, "%lld.%d", (long long)DRLabelNode(l), (int)DRLabelDir(l));
  return buf;
}

PetscBool DRLabelParse(const char *s, DRLabel *l)
{
  /* The GA's short form "15H": node followed by a direction name. */
  static const struct {
    const char *name;
    int         dir;
  } dn[] = {
    {"H", 1}, {"V", 2}, {"Z", 3}, {"RX", 4}, {"RY", 5}, {"RZ", 6}, {"R", 6}
  };
  long long node;
  int       dir, end = 0;
  char      suffix[4];
  if (sscanf(s, " %lld.%d %n", &node, &dir, &end) == 2 && s[end] == '\0') {
    if (node < 0 || node > DR_LABEL_NODE_MAX || dir < 0 || dir > 6) return PETSC_FALSE; /* 0: a scalar point */
    *l = DRLabelMake(node, dir);
    return PETSC_TRUE;
  }
  end = 0;
  if (sscanf(s, " %lld%3[A-Z] %n", &node, suffix, &end) != 2 || !end || s[end] != '\0' || node < 0 || node > DR_LABEL_NODE_MAX) return PETSC_FALSE;
  for (size_t k = 0; k < sizeof(dn) / sizeof(dn[0]); k++)
    if (!strcmp(suffix, dn[k].name)) {
      *l = DRLabelMake(node, dn[k].dir);
      return PETSC_TRUE;
    }
  return PETSC_FALSE;
}

PetscLogDouble DRTime(void)
{
  PetscLogDouble t;
  (void)PetscTime(&t);
  return t;
}

static PetscErrorCode DRSysFinalizePackage(void)
{
  PetscFunctionBeginUser;
  DRSysPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRSysInitializePackage(void)
{
  PetscFunctionBeginUser;
  if (DRSysPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  DRSysPackageInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("DR Core", &DR_CLASSID));
  PetscCall(PetscLogEventRegister("DRWrite", DR_CLASSID, &DR_EVENT_Write));
  PetscCall(PetscLogEventRegister("DRFarmTask", DR_CLASSID, &DR_EVENT_FarmTask));
  PetscCall(PetscLogEventRegister("DRFarmCheckpoint", DR_CLASSID, &DR_EVENT_FarmCheckpoint));
  PetscCall(PetscLogEventRegister("DRFarmDrain", DR_CLASSID, &DR_EVENT_FarmDrain));
  PetscCall(DRLogEnable());
  PetscCall(PetscRegisterFinalize(DRSysFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRInitialize(int *argc, char ***argv, const char *help)
{
  PetscFunctionBeginUser;
  PetscCall(SlepcInitialize(argc, argv, NULL, help));
  dr_t0 = DRTime();
  PetscCall(DRSysInitializePackage());
  PetscCall(DRErrorAgreeSetUp());
  PetscCall(DRSignalsSetUp());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRFinalize(void)
{
  PetscFunctionBeginUser;
  DRErrorAgreeFree();
  PetscCall(SlepcFinalize());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRProgress(MPI_Comm comm, const char *fmt, ...)
{
  PetscMPIInt rank;
  char        msg[1024];
  va_list     ap;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  DRPhaseSet("'%s'", msg); /* what a signal or MPI error line names */
  if (rank == 0) PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%8.1f s] %s\n", DRTime() - dr_t0, msg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRPeakRSS(PetscReal *mib)
{
  FILE *f;
  char  line[256];

  PetscFunctionBeginUser;
  *mib = 0;
  f    = fopen("/proc/self/status", "r");
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  while (fgets(line, sizeof(line), f)) {
    long kb;
    if (sscanf(line, "VmHWM: %ld kB", &kb) == 1) *mib = kb / 1024.0;
  }
  fclose(f);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRStrAppend(char s[], const char t[], size_t n)
{
  size_t ls, lt;

  PetscFunctionBeginUser;
  if (!t || !n) PetscFunctionReturn(PETSC_SUCCESS);
  ls = strnlen(s, n);
  if (ls >= n) { /* not terminated within n: terminate, append nothing */
    s[n - 1] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  lt = strlen(t);
  if (lt > n - 1 - ls) lt = n - 1 - ls;
  memcpy(s + ls, t, lt);
  s[ls + lt] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRRegistryNames(PetscFunctionList list, char *buf, size_t len)
{
  const char **names = NULL;
  int          n     = 0;

  PetscFunctionBeginUser;
  buf[0] = 0;
  if (list) PetscCall(PetscFunctionListGet(list, &names, &n));
  /* PETSc 3.18's PetscFunctionListGet counts the terminating NULL in n */
  for (int i = 0; i < n && names[i]; i++) {
    if (i) PetscCall(DRStrAppend(buf, ", ", len));
    PetscCall(DRStrAppend(buf, names[i], len));
  }
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRRegistryFind_Private(MPI_Comm comm, PetscFunctionList list, const char *kind, const char *name, const char *where, PetscVoidFunction *fn)
{
  char known[1024];

  PetscFunctionBeginUser;
  *fn = NULL;
  if (list && name) PetscCall(PetscFunctionListFind(list, name, fn));
  if (*fn) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DRRegistryNames(list, known, sizeof(known)));
  SETERRQ(comm, DR_ERR_INPUT, "%s%sunknown %s '%s'; known: %s", where ? where : "", where ? ": " : "", kind, name ? name : "(none)", known);
}

PetscErrorCode DRLogEnable(void)
{
  PetscBool active;

  PetscFunctionBeginUser;
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscCall(PetscLogDefaultBegin());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLogEventCount(const char name[], PetscInt *count)
{
  PetscEventPerfInfo info;
  PetscLogEvent      e;
  PetscBool          active;

  PetscFunctionBeginUser;
  *count = 0;
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetId(name, &e));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, e, &info));
  *count = info.count;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRLogEventSeconds(PetscLogEvent e, PetscLogDouble *seconds)
{
  PetscEventPerfInfo info;
  PetscBool          active;

  PetscFunctionBeginUser;
  *seconds = 0; /* a library caller that never started PETSc's log */
  PetscCall(PetscLogIsActive(&active));
  if (!active) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, e, &info));
  *seconds = info.time;
  PetscFunctionReturn(PETSC_SUCCESS);
}
