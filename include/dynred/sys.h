/* dynred: system-level definitions shared by every module.
 *
 * DOF labels, error helpers, logging events and progress reporting.  Every
 * other dynred header includes this one. */
#ifndef DYNRED_SYS_H
#define DYNRED_SYS_H

#include <petscsys.h>

/* PETSc < 3.19 has no PETSC_SUCCESS; dynred uses the newer spelling. */
#ifndef PETSC_SUCCESS
  #define PETSC_SUCCESS 0
#endif

#define DYNRED_VERSION "0.1.0"

/* A DOF label: FE node id and direction 1..6 (ux uy uz rx ry rz), or 0 for a
 * scalar point (one DOF with no direction, e.g. a Nastran SPOINT), encoded in
 * one 64-bit integer as node*8 + dir so label arrays sort by node, then by
 * direction, and compare in one instruction.  Node ids are 0 .. 2^45 - 1.
 * A CalculiX model of shells, beams or 2-D elements has several rows with the
 * same "node.dir" (one per node CalculiX expands the element's node into,
 * DESIGN.md "CalculiX expanded elements"): the k-th such row in file order is
 * copy k (0-based) of the label, kept in bits 48..62, so a label stays a
 * unique key of one row.  Copy 0 is the plain label of every other model. */
typedef PetscInt64 DRLabel;
#define DR_LABEL_COPY_SHIFT    48
#define DR_LABEL_NODE_MAX      (((PetscInt64)1 << 45) - 1)
#define DRLabelMake(node, dir) ((DRLabel)(node) * 8 + (DRLabel)(dir))
#define DRLabelNode(l)         ((PetscInt64)(((l) >> 3) & DR_LABEL_NODE_MAX))
#define DRLabelDir(l)          ((PetscInt)((l) & 7))
#define DRLabelCopy(l)         ((PetscInt)((l) >> DR_LABEL_COPY_SHIFT))
#define DRLabelBase(l)         ((DRLabel)((l) & (((DRLabel)1 << DR_LABEL_COPY_SHIFT) - 1)))
#define DRLabelWithCopy(l, k)  (DRLabelBase(l) | ((DRLabel)(k) << DR_LABEL_COPY_SHIFT))
/* Set in the copy bits of the rows of a node CalculiX generated (an id not in
 * the deck's *NODE: C3D8I internal nodes, a knot's rotation node that could
 * not be tied to its knot): such a row is no DOF of a node another component
 * can know, so sharing its id is an error, not an interface. */
#define DR_LABEL_GENERATED     0x4000
#define DRLabelGenerated(l)    ((DRLabelCopy(l) & DR_LABEL_GENERATED) != 0)
/* The dilatation DOFs of a CalculiX knot at node n (its expansion node's rows
 * e.d) are labelled n.0 with DR_LABEL_DILATATION | d in the copy bits: DOFs
 * of n that another deck with the same knot labels alike. */
#define DR_LABEL_DILATATION    0x2000
#define DRLabelDilatation(l)   ((DRLabelCopy(l) & DR_LABEL_DILATATION) != 0)

/* Format a label as CalculiX does ("12.3") into buf (at least 32 chars); a
 * copy k > 0 of a repeated label is written "12.3#k+1" ("12.3#2" is the
 * second row labelled 12.3), for messages.  Files get DRLabelBase. */
const char *DRLabelString(DRLabel l, char buf[32]);
/* Parse "node.dir" (CalculiX, the one notation DRLabelString writes; dir
 * 1..6, or 0 for a scalar point such as a Nastran SPOINT) or the
 * GA's short form "nodeD" with D one of H V Z RX RY RZ (R = RZ), e.g. "15H";
 * surrounding white space is allowed.  PETSC_FALSE when s is not a label. */
PetscBool DRLabelParse(const char *s, DRLabel *l);

/* Error for bad user input: one line naming the file, entry and expectation.
 * Raised with PETSC_ERR_USER so the driver prints just the message. */
#define DR_ERR_INPUT PETSC_ERR_USER
/* A verification gate (verify_tol_pct) failed: also printed as one line. */
#define DR_ERR_VERIFY PETSC_ERR_USER_INPUT

/* SlepcInitialize and the core package (DRSysInitializePackage). */
PetscErrorCode DRInitialize(int *argc, char ***argv, const char *help);
PetscErrorCode DRFinalize(void);

/* The core package: its class ("DR Core") and log events, registered once
 * (again after PetscFinalize); called by DRInitialize and lazily by
 * DRStoreCreate and DRFarmCreate.  Each module above registers its own
 * class and events in its own ...InitializePackage. */
PetscErrorCode DRSysInitializePackage(void);
extern PetscClassId DR_CLASSID;
/* Core events: the result store (DRWrite) and the task farm: one task
 * (DRFarmTask), checkpoint I/O (DRFarmCheckpoint), receiving results on
 * rank 0 (DRFarmDrain). */
extern PetscLogEvent DR_EVENT_Write, DR_EVENT_FarmTask, DR_EVENT_FarmCheckpoint, DR_EVENT_FarmDrain;
/* Event times are the one clock of /timing: DRLogEnable switches PETSc's
 * default log on (it records nothing otherwise; DRSysInitializePackage calls
 * it, so every dynred run records), DRLogEventSeconds reads the inclusive
 * time of an event on this process so far (0 when the log is off). */
PetscErrorCode DRLogEnable(void);
PetscErrorCode DRLogEventSeconds(PetscLogEvent e, PetscLogDouble *seconds);
/* The number of times the event named `name` (e.g. "MatSolve") ran on this
 * process so far (0 when the log is off). */
PetscErrorCode DRLogEventCount(const char name[], PetscInt *count);

/* Registries (PETSc's PetscFunctionList, one per method family): look up
 * `name`; an unknown name is a one-line input error on comm that names
 * `where` (FILE:LINE, an option, or NULL), the family (`kind`, e.g.
 * "reduction") and every registered name:
 *   "job.yaml:12: unknown reduction 'foo'; known: craig-bampton, guyan". */
PetscErrorCode DRRegistryFind_Private(MPI_Comm comm, PetscFunctionList list, const char *kind, const char *name, const char *where, PetscVoidFunction *fn);
#define DRRegistryFind(comm, list, kind, name, where, fptr) DRRegistryFind_Private((comm), (list), (kind), (name), (where), (PetscVoidFunction *)(fptr))
/* The registered names joined by ", " into buf (for help texts). */
PetscErrorCode DRRegistryNames(PetscFunctionList list, char *buf, size_t len);

/* Append t to the string s of n bytes in all, truncated to fit (always
 * terminated).  Use this, not PetscStrlcat: PETSc 3.18's bounds strncat by
 * n - strlen(t) instead of the room left in s, so it writes past s once s
 * is nearly full (a refinement log line listing 16 components did). */
PetscErrorCode DRStrAppend(char s[], const char t[], size_t n);

/* Wall-clock timer for the /timing group and progress lines. */
PetscLogDouble DRTime(void);

/* Progress line on rank 0 of comm, prefixed with elapsed time:
 * "[   12.3 s] modal: 30 of 40 converged". */
PetscErrorCode DRProgress(MPI_Comm comm, const char *fmt, ...) PETSC_ATTRIBUTE_FORMAT(2, 3);

/* Peak resident set size of this process in MiB (VmHWM). */
PetscErrorCode DRPeakRSS(PetscReal *mib);

/* Scratch files (src/core/scratch.c): a file made in dir ("": $TMPDIR,
 * else /tmp) and unlinked at once (nothing is left behind, also when the
 * job is killed), written and read whole from its start; *fd -1 after
 * Close.  what names the data in error messages. */
PetscErrorCode DRScratchOpen(const char dir[], const char what[], int *fd);
PetscErrorCode DRScratchWrite(int fd, const void *buf, size_t bytes, const char what[]);
PetscErrorCode DRScratchRead(int fd, void *buf, size_t bytes, const char what[]);
PetscErrorCode DRScratchClose(int *fd);

/* Resolve `path` as written in the file `base_file`: a relative path is
 * taken relative to base_file's directory; an empty or absolute path, or a
 * base that is not a file name ("<embedded demo>", NULL) or has no directory
 * part, leaves path unchanged.  Result in out (len bytes). */
PetscErrorCode DRPathResolve(const char *base_file, const char *path, char *out, size_t len);

#endif
