/* Component mode synthesis: distribution, interfaces, reduction, root
 * assembly and coupled solve, recovery (METHODS.md 1.1-1.2). */
#include <dynred/cms.h>
#include <dynred/model.h>
#include <dynred/reduce.h>
#include <dynred/modal.h>
#include <dynred/componentstore.h>
#include <petscblaslapack.h>
#include <string.h>
#include <sys/stat.h>

static const DRConfigKey cms_keys[] = {
  {"cms.method", DR_CFG_STRING, "craig-bampton", "component reduction (per component: components[].method)", NULL, NULL, NULL},
  {"cms.fmax", DR_CFG_REAL, "0", "range of interest [Hz]: system modes below fmax; component modes below cutoff_factor * fmax", NULL, NULL, NULL},
  {"cms.nmodes", DR_CFG_INT, "20", "system modes to keep when fmax = 0", NULL, NULL, NULL},
  {"cms.component_modes", DR_CFG_INT, "20", "component modes to keep when fmax = 0", NULL, NULL, NULL},
  {"cms.cutoff_factor", DR_CFG_REAL, "2.0", "component modes kept below cutoff_factor * fmax", NULL, NULL, NULL},
  {"cms.retain", DR_CFG_STRING, "", "node sets kept physical (loads, sensors), comma list", NULL, NULL, NULL},
  {"cms.support", DR_CFG_STRING, "", "free-interface: node set of a statically determinate support for floating parts (default: chosen automatically)", NULL, NULL, NULL},
  {"cms.groups", DR_CFG_INT, "0", "rank groups (0: min(ranks, components))", NULL, NULL, NULL},
  {"cms.dense_max", DR_CFG_INT, "4000", "largest reduced system solved densely (LAPACK) on rank 0; SLEPc beyond", NULL, NULL, NULL},
  {"cms.verify_tol_pct", DR_CFG_REAL, "0", "with verify: fail (exit 1) when a paired mode deviates more [%]; 0: report only", NULL, NULL, NULL},
  {"cms.interface_modes", DR_CFG_INT, "0", "interface reduction: keep the lowest N characteristic constraint (CC) modes of the assembled boundary (0: off)", NULL, NULL, NULL},
  {"cms.interface_cutoff_factor", DR_CFG_REAL, "0", "interface reduction: keep the CC modes below interface_cutoff_factor * fmax (0: off; needs fmax)", NULL, NULL, NULL},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

#define NPHASE 8
static const char *const phase_names[NPHASE] = {"component_eigensolve", "constraint_modes", "projection", "gather", "assembly", "interface_reduction", "coupled_solve", "recovery"};

struct _p_DRCMS {
  MPI_Comm    comm, gcomm;
  PetscMPIInt rank, size;
  DRConfig    cfg;
  /* options */
  char      method[32], retain[256];
  PetscReal fmax, cutoff_factor;
  PetscInt  nmodes, comp_modes, ngroups_opt, dense_max;
  PetscInt  iface_modes;     /* cms.interface_modes */
  PetscReal iface_factor;    /* cms.interface_cutoff_factor */
  /* distribution */
  PetscInt     ncomp, ngroups, mygroup;
  PetscInt    *group_of;     /* component -> group */
  PetscMPIInt *group_root;   /* group -> world rank of its first rank */
  PetscInt     nmine, *mine; /* components of my group, in order */
  DRComponent *comps;        /* nmine */
  char       **names;        /* ncomp */
  /* interfaces (all ranks) */
  PetscInt   nfull;
  DRLabel   *full;          /* sorted union of all labels */
  PetscBool **isboundary;   /* nmine flag arrays */
  /* reduction */
  DRSuperelement *se;       /* nmine */
  /* root: per component sizes (all ranks after Solve) */
  PetscInt  *nb, *nq, nbglob, nred;
  PetscReal *Kred, *Mred;   /* root only */
  DRLabel   *bglob;         /* root only: boundary union */
  PetscReal **qfreq;        /* root: component mode frequencies */
  /* interface reduction (all ranks: iface, ncc, ncoupled; root: the arrays) */
  PetscBool  iface;         /* CC reduction of the boundary requested */
  PetscInt   ncc;           /* CC modes kept */
  PetscInt   ncoupled;      /* size of the system actually solved */
  PetscReal *Psi;           /* root: nbglob x ncc, column-major, M_BB-normalized */
  PetscReal *ccfreq;        /* root: ncc CC mode frequencies (Hz) */
  /* results */
  PetscInt   nm;
  PetscReal *freq;
  Vec       *modes;
  PetscReal  t[NPHASE];
  /* geometry for XDMF (rank 0 arrays) */
  DRComponent geom;
};

PetscErrorCode DRCMSRegisterKeys(void)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigRegisterKeys(cms_keys));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSCreate(MPI_Comm comm, DRCMS *cms)
{
  PetscFunctionBeginUser;
  PetscCall(PetscNew(cms));
  (*cms)->comm  = comm;
  (*cms)->gcomm = MPI_COMM_NULL;
  PetscCallMPI(MPI_Comm_rank(comm, &(*cms)->rank));
  PetscCallMPI(MPI_Comm_size(comm, &(*cms)->size));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSDestroy(DRCMS *cms)
{
  DRCMS c = *cms;

  PetscFunctionBeginUser;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < c->nmine; i++) {
    if (c->se) PetscCall(DRSuperelementDestroy(&c->se[i]));
    if (c->comps) PetscCall(DRComponentDestroy(&c->comps[i]));
    if (c->isboundary) PetscCall(PetscFree(c->isboundary[i]));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    if (c->names) PetscCall(PetscFree(c->names[k]));
    if (c->qfreq) PetscCall(PetscFree(c->qfreq[k]));
  }
  PetscCall(PetscFree(c->names));
  PetscCall(PetscFree(c->qfreq));
  PetscCall(PetscFree(c->se));
  PetscCall(PetscFree(c->comps));
  PetscCall(PetscFree(c->isboundary));
  PetscCall(PetscFree(c->group_of));
  PetscCall(PetscFree(c->group_root));
  PetscCall(PetscFree(c->mine));
  PetscCall(PetscFree(c->full));
  PetscCall(PetscFree(c->nb));
  PetscCall(PetscFree(c->nq));
  PetscCall(PetscFree(c->Kred));
  PetscCall(PetscFree(c->Mred));
  PetscCall(PetscFree(c->bglob));
  PetscCall(PetscFree(c->Psi));
  PetscCall(PetscFree(c->ccfreq));
  PetscCall(PetscFree(c->freq));
  if (c->modes) PetscCall(VecDestroyVecs(c->nm, &c->modes));
  PetscCall(DRComponentDestroy(&c->geom));
  if (c->gcomm != MPI_COMM_NULL) PetscCallMPI(MPI_Comm_free(&c->gcomm));
  PetscCall(PetscFree(*cms));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSSetFromConfig(DRCMS c, DRConfig cfg)
{
  char where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  c->cfg = cfg;
  PetscCall(DRConfigGetString(cfg, "cms.method", c->method, sizeof(c->method), NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.fmax", &c->fmax, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.nmodes", &c->nmodes, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.component_modes", &c->comp_modes, NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.cutoff_factor", &c->cutoff_factor, NULL));
  PetscCall(DRConfigGetString(cfg, "cms.retain", c->retain, sizeof(c->retain), NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.groups", &c->ngroups_opt, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.dense_max", &c->dense_max, NULL));
  PetscCall(DRConfigGetInt(cfg, "cms.interface_modes", &c->iface_modes, NULL));
  PetscCall(DRConfigGetReal(cfg, "cms.interface_cutoff_factor", &c->iface_factor, NULL));
  PetscCall(DRConfigWhere(cfg, "cms.fmax", where, sizeof(where)));
  PetscCheck(c->fmax >= 0 && (c->fmax > 0 || c->nmodes > 0), c->comm, DR_ERR_INPUT, "%s: expected cms.fmax > 0 or cms.nmodes > 0", where);
  PetscCall(DRConfigWhere(cfg, "cms.cutoff_factor", where, sizeof(where)));
  PetscCheck(c->cutoff_factor >= 1, c->comm, DR_ERR_INPUT, "%s: cms.cutoff_factor = %g, expected >= 1 (the paper keeps 1.5-2 x fmax)", where, (double)c->cutoff_factor);
  PetscCall(DRConfigWhere(cfg, "cms.groups", where, sizeof(where)));
  PetscCheck(c->ngroups_opt >= 0 && c->ngroups_opt <= c->size, c->comm, DR_ERR_INPUT, "%s: cms.groups = %" PetscInt_FMT ", expected 0..%d (number of ranks)", where, c->ngroups_opt, (int)c->size);
  PetscCall(DRConfigWhere(cfg, "cms.interface_modes", where, sizeof(where)));
  PetscCheck(c->iface_modes >= 0, c->comm, DR_ERR_INPUT, "%s: cms.interface_modes = %" PetscInt_FMT ", expected >= 0 (0: no interface reduction)", where, c->iface_modes);
  PetscCall(DRConfigWhere(cfg, "cms.interface_cutoff_factor", where, sizeof(where)));
  PetscCheck(c->iface_factor == 0 || c->iface_factor >= 1, c->comm, DR_ERR_INPUT, "%s: cms.interface_cutoff_factor = %.6g, expected 0 (off) or >= 1", where, (double)c->iface_factor);
  PetscCheck(c->iface_factor == 0 || c->fmax > 0, c->comm, DR_ERR_INPUT, "%s: cms.interface_cutoff_factor = %.6g with cms.fmax = 0, expected cms.fmax > 0 (the cutoff is a multiple of fmax)", where, (double)c->iface_factor);
  PetscCheck(c->iface_factor == 0 || c->iface_modes == 0, c->comm, DR_ERR_INPUT, "%s: cms.interface_cutoff_factor = %.6g and cms.interface_modes = %" PetscInt_FMT ", expected only one of them", where, (double)c->iface_factor, c->iface_modes);
  c->iface = (c->iface_modes > 0 || c->iface_factor > 0) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Estimated cost of component k before building it: its file size, or for
 * a cut built-in model the number of element layers in the part. */
static PetscErrorCode EstimateCost(DRConfig cfg, PetscInt k, PetscInt ncomp, PetscReal *cost)
{
  char b[64], key[80], path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  *cost = 1.0;
  PetscCall(DRConfigGetString(cfg, "model.builtin", b, sizeof(b), NULL));
  if (b[0]) {
    PetscInt n = 0;
    char     axis[8];
    if (!strcmp(b, "plate") || !strcmp(b, "solid")) {
      PetscCall(DRConfigGetString(cfg, "model.cut.axis", axis, sizeof(axis), NULL));
      PetscCall(PetscSNPrintf(key, sizeof(key), "model.%s.n%c", b, axis[0]));
      PetscCall(DRConfigGetInt(cfg, key, &n, NULL));
      *cost = (PetscReal)((k + 1) * n / ncomp - k * n / ncomp);
    }
  } else {
    const char *origin, *slash;
    struct stat st;
    char        fmt[32], full[2 * PETSC_MAX_PATH_LEN];
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].format", k));
    PetscCall(DRConfigGetString(cfg, key, fmt, sizeof(fmt), NULL));
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].%s", k, strcmp(fmt, "mtx") ? "path" : "K"));
    PetscCall(DRConfigGetString(cfg, key, path, sizeof(path), NULL));
    PetscCall(DRConfigGetOrigin(cfg, &origin));
    slash = strrchr(origin, '/');
    if (path[0] != '/' && slash) PetscCall(PetscSNPrintf(full, sizeof(full), "%.*s/%s%s", (int)(slash - origin), origin, path, strcmp(fmt, "calculix") ? "" : ".sti"));
    else PetscCall(PetscSNPrintf(full, sizeof(full), "%s%s", path, strcmp(fmt, "calculix") ? "" : ".sti"));
    if (!stat(full, &st)) *cost = (PetscReal)st.st_size;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Split the world into groups, assign components largest cost first to the
 * least loaded group (ties: lowest index), deterministic on every rank. */
static PetscErrorCode Distribute(DRCMS c)
{
  PetscReal *cost, *load;
  PetscInt  *order;

  PetscFunctionBeginUser;
  PetscCall(DRModelGetComponentCount(c->cfg, &c->ncomp));
  c->ngroups = c->ngroups_opt ? c->ngroups_opt : PetscMin((PetscInt)c->size, c->ncomp);
  PetscCall(PetscMalloc1(c->ncomp, &cost));
  PetscCall(PetscMalloc1(c->ncomp, &order));
  PetscCall(PetscCalloc1(c->ngroups, &load));
  PetscCall(PetscMalloc1(c->ncomp, &c->group_of));
  PetscCall(PetscMalloc1(c->ngroups, &c->group_root));
  PetscCall(PetscCalloc1(c->ncomp, &c->names));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscCall(EstimateCost(c->cfg, k, c->ncomp, &cost[k]));
    order[k] = k;
    PetscCall(PetscMalloc1(64, &c->names[k]));
    PetscCall(DRModelGetComponentName(c->cfg, k, c->names[k], 64));
  }
  /* stable sort by decreasing cost */
  for (PetscInt i = 1; i < c->ncomp; i++)
    for (PetscInt j = i; j > 0 && cost[order[j]] > cost[order[j - 1]]; j--) {
      PetscInt t   = order[j];
      order[j]     = order[j - 1];
      order[j - 1] = t;
    }
  for (PetscInt i = 0; i < c->ncomp; i++) {
    PetscInt g = 0, k = order[i];
    for (PetscInt h = 1; h < c->ngroups; h++)
      if (load[h] < load[g]) g = h;
    c->group_of[k] = g;
    load[g] += cost[k];
  }
  for (PetscInt g = 0; g < c->ngroups; g++) c->group_root[g] = (PetscMPIInt)((g * c->size) / c->ngroups);
  c->mygroup = 0;
  for (PetscInt g = 0; g < c->ngroups; g++)
    if (c->rank >= c->group_root[g]) c->mygroup = g;
  PetscCallMPI(MPI_Comm_split(c->comm, (int)c->mygroup, c->rank, &c->gcomm));
  c->nmine = 0;
  PetscCall(PetscMalloc1(c->ncomp, &c->mine));
  for (PetscInt k = 0; k < c->ncomp; k++)
    if (c->group_of[k] == c->mygroup) c->mine[c->nmine++] = k;
  PetscCall(PetscPrintf(c->comm, "cms: %" PetscInt_FMT " components on %" PetscInt_FMT " rank group(s) of %d rank(s) in all\n", c->ncomp, c->ngroups, (int)c->size));
  for (PetscInt g = 0; g < c->ngroups; g++) {
    PetscMPIInt last = (PetscMPIInt)(((g + 1) * c->size) / c->ngroups) - 1;
    char        list[1024] = "";
    for (PetscInt k = 0; k < c->ncomp; k++)
      if (c->group_of[k] == g) {
        if (list[0]) PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
        PetscCall(PetscStrlcat(list, c->names[k], sizeof(list)));
      }
    PetscCall(PetscPrintf(c->comm, "  group %" PetscInt_FMT " (ranks %d-%d): %s\n", g, (int)c->group_root[g], (int)last, list));
  }
  PetscCall(PetscFree(cost));
  PetscCall(PetscFree(order));
  PetscCall(PetscFree(load));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank learns every component's labels (from its group's root). */
static PetscErrorCode ExchangeLabels(DRCMS c, PetscInt **nlab_out, DRLabel ***lab_out)
{
  PetscInt *nlab;
  DRLabel **lab;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(c->ncomp, &nlab));
  PetscCall(PetscCalloc1(c->ncomp, &lab));
  for (PetscInt i = 0; i < c->nmine; i++) nlab[c->mine[i]] = c->comps[i]->n;
  /* sizes: each component's group root contributes */
  {
    PetscInt   *tmp;
    PetscMPIInt grank;
    PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
    PetscCall(PetscCalloc1(c->ncomp, &tmp));
    if (!grank)
      for (PetscInt i = 0; i < c->nmine; i++) tmp[c->mine[i]] = c->comps[i]->n;
    PetscCall(MPIU_Allreduce(tmp, nlab, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
    PetscCall(PetscFree(tmp));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscCall(PetscMalloc1(nlab[k] + 1, &lab[k]));
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k) PetscCall(PetscArraycpy(lab[k], c->comps[i]->labels, nlab[k]));
    PetscCallMPI(MPI_Bcast(lab[k], (PetscMPIInt)nlab[k], MPIU_INT64, c->group_root[c->group_of[k]], c->comm));
  }
  *nlab_out = nlab;
  *lab_out  = lab;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  DRLabel  l;
  PetscInt comp;
} LabComp;

static int cmp_labcomp(const void *a, const void *b)
{
  const LabComp *x = (const LabComp *)a, *y = (const LabComp *)b;
  if (x->l != y->l) return x->l < y->l ? -1 : 1;
  return (x->comp > y->comp) - (x->comp < y->comp);
}

/* Boundary DOFs: labels shared with another component, plus retained node
 * sets.  Errors: a component that touches nothing; a node whose
 * translations are free in one part and constrained in another. */
static PetscErrorCode FindInterfaces(DRCMS c)
{
  PetscInt *nlab, ntot = 0;
  DRLabel **lab;
  LabComp  *all;
  PetscInt *shared; /* per component: number of shared DOFs */
  char      b1[32];

  PetscFunctionBeginUser;
  PetscCall(ExchangeLabels(c, &nlab, &lab));
  for (PetscInt k = 0; k < c->ncomp; k++) ntot += nlab[k];
  PetscCall(PetscMalloc1(ntot + 1, &all));
  ntot = 0;
  for (PetscInt k = 0; k < c->ncomp; k++)
    for (PetscInt i = 0; i < nlab[k]; i++) {
      all[ntot].l      = lab[k][i];
      all[ntot++].comp = k;
    }
  qsort(all, (size_t)ntot, sizeof(*all), cmp_labcomp);
  PetscCall(PetscMalloc1(ntot + 1, &c->full));
  PetscCall(PetscCalloc1(c->ncomp, &shared));
  c->nfull = 0;
  for (PetscInt i = 0; i < ntot;) {
    PetscInt j = i;
    while (j < ntot && all[j].l == all[i].l) j++;
    if (j - i > 1)
      for (PetscInt t = i; t < j; t++) shared[all[t].comp]++;
    c->full[c->nfull++] = all[i].l;
    i = j;
  }
  /* interface compatibility: per node shared by several parts, every part
   * that has translations there has the same translations */
  for (PetscInt i = 0; i < ntot;) {
    PetscInt64 node = DRLabelNode(all[i].l), j = i;
    while (j < ntot && DRLabelNode(all[j].l) == node) j++;
    /* all[i..j) are the DOFs at this node, sorted by direction then component */
    for (PetscInt a = i; a < j; a++) {
      PetscInt d = DRLabelDir(all[a].l);
      if (d > 3) continue;
      for (PetscInt k = 0; k < c->ncomp; k++) {
        PetscBool hasnode = PETSC_FALSE, hasdof = PETSC_FALSE;
        for (PetscInt t = i; t < j; t++)
          if (all[t].comp == k) {
            if (DRLabelDir(all[t].l) <= 3) hasnode = PETSC_TRUE;
            if (all[t].l == all[a].l) hasdof = PETSC_TRUE;
          }
        PetscCheck(!hasnode || hasdof, c->comm, DR_ERR_INPUT, "interface DOF %s is free in component '%s' but constrained (absent) in component '%s', which shares node %lld; expected interface DOFs free in every part or constrained in all", DRLabelString(all[a].l, b1), c->names[all[a].comp], c->names[k], (long long)node);
      }
    }
    i = j;
  }
  if (c->ncomp > 1)
    for (PetscInt k = 0; k < c->ncomp; k++) PetscCheck(shared[k] > 0, c->comm, DR_ERR_INPUT, "component '%s' shares no DOF label with any other component; expected an interface (common node ids) with at least one other part", c->names[k]);
  /* my components' flags */
  PetscCall(PetscMalloc1(c->nmine, &c->isboundary));
  for (PetscInt i = 0; i < c->nmine; i++) {
    DRComponent comp = c->comps[i];
    PetscCall(PetscCalloc1(comp->n + 1, &c->isboundary[i]));
    for (PetscInt r = 0; r < comp->n; r++) {
      /* shared when the label occurs more than once: find its first entry */
      {
        PetscInt lo = 0, hi = ntot;
        while (lo < hi) {
          PetscInt mid = (lo + hi) / 2;
          if (all[mid].l < comp->labels[r]) lo = mid + 1;
          else hi = mid;
        }
        c->isboundary[i][r] = (lo + 1 < ntot && all[lo + 1].l == comp->labels[r]) ? PETSC_TRUE : PETSC_FALSE;
      }
    }
    if (c->retain[0]) {
      char *copy, *save = NULL;
      PetscCall(PetscStrallocpy(c->retain, &copy));
      for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        DRNodeSet *set;
        PetscCall(DRComponentGetNodeSet(comp, tok, &set));
        if (!set) continue;
        for (PetscInt r = 0; r < comp->n; r++) {
          PetscInt node = (PetscInt)DRLabelNode(comp->labels[r]), lo = 0, hi = set->n - 1;
          while (lo <= hi) {
            PetscInt mid = (lo + hi) / 2;
            if (set->nodes[mid] == node) {
              c->isboundary[i][r] = PETSC_TRUE;
              break;
            }
            if (set->nodes[mid] < node) lo = mid + 1;
            else hi = mid - 1;
          }
        }
      }
      PetscCall(PetscFree(copy));
    }
  }
  for (PetscInt k = 0; k < c->ncomp; k++) PetscCall(PetscFree(lab[k]));
  PetscCall(PetscFree(lab));
  PetscCall(PetscFree(nlab));
  PetscCall(PetscFree(shared));
  PetscCall(PetscFree(all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A failure inside one rank group (bad file, floating part) must stop every
 * group, or the others would wait forever in the next world collective.  The
 * failing group has printed its one-line message; the others exit quietly. */
static PetscErrorCode AllGroupsAgree(MPI_Comm comm, PetscErrorCode ierr)
{
  int mine = (int)ierr, any = 0;
  if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm)) return PETSC_ERR_MPI;
  return (PetscErrorCode)any;
}

PetscErrorCode DRCMSSetUp(DRCMS c)
{
  PetscErrorCode ierr = PETSC_SUCCESS;

  PetscFunctionBeginUser;
  PetscCall(Distribute(c));
  PetscCall(PetscCalloc1(c->nmine + 1, &c->comps));
  for (PetscInt i = 0; i < c->nmine && !ierr; i++) ierr = DRModelCreateComponent(c->cfg, c->mine[i], c->gcomm, &c->comps[i]);
  ierr = AllGroupsAgree(c->comm, ierr);
  if (ierr) PetscFunctionReturn(ierr);
  PetscCall(FindInterfaces(c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Component method: components[k].method, else cms.method. */
static PetscErrorCode ComponentMethod(DRCMS c, PetscInt k, char *m, size_t len)
{
  char b[64], key[80];

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(m, c->method, len));
  PetscCall(DRConfigGetString(c->cfg, "model.builtin", b, sizeof(b), NULL));
  if (!b[0]) {
    char mm[32];
    PetscCall(PetscSNPrintf(key, sizeof(key), "components[%" PetscInt_FMT "].method", k));
    PetscCall(DRConfigGetString(c->cfg, key, mm, sizeof(mm), NULL));
    if (mm[0]) PetscCall(PetscStrncpy(m, mm, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Superelements to world rank 0: sizes, boundary labels, K, M, frequencies. */
static PetscErrorCode Gather(DRCMS c)
{
  PetscMPIInt grank;
  DRLabel   **bl = NULL;
  PetscReal **K = NULL, **M = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  PetscCall(PetscCalloc1(c->ncomp, &c->nb));
  PetscCall(PetscCalloc1(c->ncomp, &c->nq));
  {
    PetscInt *tb, *tq;
    PetscCall(PetscCalloc1(c->ncomp, &tb));
    PetscCall(PetscCalloc1(c->ncomp, &tq));
    if (!grank)
      for (PetscInt i = 0; i < c->nmine; i++) {
        tb[c->mine[i]] = c->se[i].nb;
        tq[c->mine[i]] = c->se[i].nq;
      }
    PetscCall(MPIU_Allreduce(tb, c->nb, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
    PetscCall(MPIU_Allreduce(tq, c->nq, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
    PetscCall(PetscFree(tb));
    PetscCall(PetscFree(tq));
  }
  if (!c->rank) {
    PetscCall(PetscCalloc1(c->ncomp, &bl));
    PetscCall(PetscCalloc1(c->ncomp, &K));
    PetscCall(PetscCalloc1(c->ncomp, &M));
    PetscCall(PetscCalloc1(c->ncomp, &c->qfreq));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscMPIInt src = c->group_root[c->group_of[k]];
    PetscInt    nr  = c->nb[k] + c->nq[k];
    if (c->rank == src) {
      DRSuperelement *se = NULL;
      for (PetscInt i = 0; i < c->nmine; i++)
        if (c->mine[i] == k) se = &c->se[i];
      if (!c->rank) {
        PetscCall(PetscMalloc1(c->nb[k] + 1, &bl[k]));
        PetscCall(PetscArraycpy(bl[k], se->blabels, c->nb[k]));
        PetscCall(PetscMalloc1(nr * nr + 1, &K[k]));
        PetscCall(PetscMalloc1(nr * nr + 1, &M[k]));
        PetscCall(PetscArraycpy(K[k], se->K, nr * nr));
        PetscCall(PetscArraycpy(M[k], se->M, nr * nr));
        PetscCall(PetscMalloc1(c->nq[k] + 1, &c->qfreq[k]));
        PetscCall(PetscArraycpy(c->qfreq[k], se->qfreq_hz, c->nq[k]));
      } else {
        PetscCallMPI(MPI_Send(se->blabels, (PetscMPIInt)c->nb[k], MPIU_INT64, 0, 1, c->comm));
        PetscCallMPI(MPI_Send(se->K, (PetscMPIInt)(nr * nr), MPIU_REAL, 0, 2, c->comm));
        PetscCallMPI(MPI_Send(se->M, (PetscMPIInt)(nr * nr), MPIU_REAL, 0, 3, c->comm));
        PetscCallMPI(MPI_Send(se->qfreq_hz, (PetscMPIInt)c->nq[k], MPIU_REAL, 0, 4, c->comm));
      }
    } else if (!c->rank) {
      PetscCall(PetscMalloc1(c->nb[k] + 1, &bl[k]));
      PetscCall(PetscMalloc1(nr * nr + 1, &K[k]));
      PetscCall(PetscMalloc1(nr * nr + 1, &M[k]));
      PetscCall(PetscMalloc1(c->nq[k] + 1, &c->qfreq[k]));
      PetscCallMPI(MPI_Recv(bl[k], (PetscMPIInt)c->nb[k], MPIU_INT64, src, 1, c->comm, MPI_STATUS_IGNORE));
      PetscCallMPI(MPI_Recv(K[k], (PetscMPIInt)(nr * nr), MPIU_REAL, src, 2, c->comm, MPI_STATUS_IGNORE));
      PetscCallMPI(MPI_Recv(M[k], (PetscMPIInt)(nr * nr), MPIU_REAL, src, 3, c->comm, MPI_STATUS_IGNORE));
      PetscCallMPI(MPI_Recv(c->qfreq[k], (PetscMPIInt)c->nq[k], MPIU_REAL, src, 4, c->comm, MPI_STATUS_IGNORE));
    }
  }
  /* assembly on the root: boundary union first, then modal coordinates */
  if (!c->rank) {
    PetscInt nball = 0, off;
    PetscLogDouble t0 = DRTime();
    PetscCall(PetscLogEventBegin(DR_EVENT_RedAssemble, 0, 0, 0, 0));
    for (PetscInt k = 0; k < c->ncomp; k++) nball += c->nb[k];
    PetscCall(PetscMalloc1(nball + 1, &c->bglob));
    nball = 0;
    for (PetscInt k = 0; k < c->ncomp; k++) {
      PetscCall(PetscArraycpy(c->bglob + nball, bl[k], c->nb[k]));
      nball += c->nb[k];
    }
    PetscCall(PetscSortInt64(nball, c->bglob));
    c->nbglob = 0;
    for (PetscInt i = 0; i < nball; i++)
      if (!c->nbglob || c->bglob[i] != c->bglob[c->nbglob - 1]) c->bglob[c->nbglob++] = c->bglob[i];
    c->nred = c->nbglob;
    for (PetscInt k = 0; k < c->ncomp; k++) c->nred += c->nq[k];
    PetscCall(PetscCalloc1(c->nred * c->nred, &c->Kred));
    PetscCall(PetscCalloc1(c->nred * c->nred, &c->Mred));
    off = c->nbglob;
    for (PetscInt k = 0; k < c->ncomp; k++) {
      PetscInt  nr = c->nb[k] + c->nq[k], *map;
      PetscCall(PetscMalloc1(nr + 1, &map));
      for (PetscInt j = 0; j < c->nb[k]; j++) map[j] = DRLabelsFind(c->nbglob, c->bglob, bl[k][j]);
      for (PetscInt j = 0; j < c->nq[k]; j++) map[c->nb[k] + j] = off + j;
      off += c->nq[k];
      for (PetscInt j = 0; j < nr; j++)
        for (PetscInt i = 0; i < nr; i++) {
          c->Kred[map[i] + map[j] * c->nred] += K[k][i + j * nr];
          c->Mred[map[i] + map[j] * c->nred] += M[k][i + j * nr];
        }
      PetscCall(PetscFree(map));
      PetscCall(PetscFree(bl[k]));
      PetscCall(PetscFree(K[k]));
      PetscCall(PetscFree(M[k]));
    }
    PetscCall(PetscFree(bl));
    PetscCall(PetscFree(K));
    PetscCall(PetscFree(M));
    PetscCall(PetscLogEventEnd(DR_EVENT_RedAssemble, 0, 0, 0, 0));
    c->t[4] = DRTime() - t0;
  }
  PetscCallMPI(MPI_Bcast(&c->nred, 1, MPIU_INT, 0, c->comm));
  PetscCallMPI(MPI_Bcast(&c->nbglob, 1, MPIU_INT, 0, c->comm));
  if (c->rank) PetscCall(PetscMalloc1(c->nbglob + 1, &c->bglob));
  PetscCallMPI(MPI_Bcast(c->bglob, (PetscMPIInt)c->nbglob, MPIU_INT64, 0, c->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Interface reduction (root): characteristic constraint (CC) modes of the
 * assembled boundary problem K_BB psi = w^2 M_BB psi (the boundary blocks of
 * the assembled reduced system: the Guyan-condensed interface matrices of
 * the whole assembly), the lowest ncc kept as Psi (M_BB-normalized), and the
 * coupled system transformed with R = blkdiag(Psi, I_modal):
 *   K2 = R^T Kred R = [ Psi^T K_BB Psi   Psi^T K_Bq ]   (same for M),
 *                     [ sym              K_qq       ]
 * a Galerkin projection of the assembled system (so the Rayleigh-Ritz bound
 * still holds).  K2, M2: (ncc + nq)^2, column-major. */
static PetscErrorCode InterfaceReduce(DRCMS c, PetscReal **K2out, PetscReal **M2out)
{
  PetscInt   nb = c->nbglob, N = c->nred, nq = N - nb, nc, N2;
  PetscReal *KBB, *MBB, *lam, *X, *W, *K2, *M2;
  PetscReal  one = 1, zero = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc4(nb * nb + 1, &KBB, nb * nb + 1, &MBB, nb + 1, &lam, nb * nb + 1, &X));
  for (PetscInt j = 0; j < nb; j++)
    for (PetscInt i = 0; i < nb; i++) {
      KBB[i + j * nb] = c->Kred[i + j * N];
      MBB[i + j * nb] = c->Mred[i + j * N];
    }
  PetscCall(DRDenseEigen(nb, KBB, MBB, c->iface_modes, PetscSqr(2 * PETSC_PI * c->iface_factor * c->fmax), &nc, lam, X));
  c->ncc = nc;
  N2     = nc + nq;
  PetscCall(PetscMalloc1(nb * nc + 1, &c->Psi));
  PetscCall(PetscArraycpy(c->Psi, X, nb * nc));
  PetscCall(PetscMalloc1(nc + 1, &c->ccfreq));
  for (PetscInt k = 0; k < nc; k++) c->ccfreq[k] = (lam[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(lam[k])) / (2 * PETSC_PI);
  PetscCall(PetscCalloc1(N2 * N2 + 1, &K2));
  PetscCall(PetscCalloc1(N2 * N2 + 1, &M2));
  PetscCall(PetscMalloc1(nb * nc + 1, &W));
  for (int pass = 0; pass < 2; pass++) {
    const PetscReal *A  = pass ? c->Mred : c->Kred, *ABB = pass ? MBB : KBB;
    PetscReal       *A2 = pass ? M2 : K2;
    if (nc > 0 && nb > 0) {
      PetscBLASInt mb, mc, lda, ld2;
      PetscCall(PetscBLASIntCast(nb, &mb));
      PetscCall(PetscBLASIntCast(nc, &mc));
      PetscCall(PetscBLASIntCast(N, &lda));
      PetscCall(PetscBLASIntCast(N2, &ld2));
      /* W = A_BB Psi; A2_cc = Psi^T W */
      BLASgemm_("N", "N", &mb, &mc, &mb, &one, ABB, &mb, c->Psi, &mb, &zero, W, &mb);
      BLASgemm_("T", "N", &mc, &mc, &mb, &one, c->Psi, &mb, W, &mb, &zero, A2, &ld2);
      /* A2_cq = Psi^T A_Bq */
      if (nq > 0) {
        PetscBLASInt mq;
        PetscCall(PetscBLASIntCast(nq, &mq));
        BLASgemm_("T", "N", &mc, &mq, &mb, &one, c->Psi, &mb, A + nb * N, &lda, &zero, A2 + nc * N2, &ld2);
      }
    }
    /* exact symmetry of the CC block; A2_qc = A2_cq^T; A2_qq = A_qq */
    for (PetscInt j = 0; j < nc; j++)
      for (PetscInt i = 0; i < j; i++) A2[i + j * N2] = A2[j + i * N2] = 0.5 * (A2[i + j * N2] + A2[j + i * N2]);
    for (PetscInt j = 0; j < nq; j++)
      for (PetscInt i = 0; i < nc; i++) A2[nc + j + i * N2] = A2[i + (nc + j) * N2];
    for (PetscInt j = 0; j < nq; j++)
      for (PetscInt i = 0; i < nq; i++) A2[nc + i + (nc + j) * N2] = A[nb + i + (nb + j) * N];
  }
  PetscCall(PetscFree(W));
  PetscCall(PetscFree4(KBB, MBB, lam, X));
  *K2out = K2;
  *M2out = M2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Eigenproblem of an N x N reduced system (K, M column-major, root only):
 * dense LAPACK on the root up to dense_max, else distributed with SLEPc.
 * Sets c->nm and c->freq on every rank; Q (N x nm, column-major) on the
 * root only (NULL elsewhere). */
/* Work done by the root alone must not leave the other ranks waiting when
 * it fails: its error code is broadcast and every rank returns it (the root
 * has printed the message). */
static PetscErrorCode RootAgrees(DRCMS c, PetscErrorCode ierr)
{
  int e = (int)ierr;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Bcast(&e, 1, MPI_INT, 0, c->comm));
  if (e) PetscFunctionReturn((PetscErrorCode)e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RootDenseSolve(DRCMS c, PetscInt N, const PetscReal *Kr, const PetscReal *Mr, PetscReal **Q)
{
  PetscReal *w;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(N + 1, &w));
  PetscCall(PetscMalloc1(N * N + 1, Q));
  PetscCall(DRDenseEigen(N, Kr, Mr, c->fmax > 0 ? 0 : c->nmodes, PetscSqr(2 * PETSC_PI * c->fmax), &c->nm, w, *Q));
  PetscCall(PetscMalloc1(c->nm + 1, &c->freq));
  for (PetscInt k = 0; k < c->nm; k++) c->freq[k] = (w[k] >= 0 ? 1 : -1) * PetscSqrtReal(PetscAbsReal(w[k])) / (2 * PETSC_PI);
  PetscCall(PetscFree(w));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveSystem(DRCMS c, PetscInt N, const PetscReal *Kr, const PetscReal *Mr, PetscReal **Qout)
{
  PetscReal *Q = NULL;

  PetscFunctionBeginUser;
  if (N <= c->dense_max) {
    PetscErrorCode ierr = PETSC_SUCCESS;
    if (!c->rank) ierr = RootDenseSolve(c, N, Kr, Mr, &Q);
    PetscCall(RootAgrees(c, ierr));
    PetscCallMPI(MPI_Bcast(&c->nm, 1, MPIU_INT, 0, c->comm));
    if (c->rank) PetscCall(PetscMalloc1(c->nm + 1, &c->freq));
    PetscCallMPI(MPI_Bcast(c->freq, (PetscMPIInt)c->nm, MPIU_REAL, 0, c->comm));
  } else {
    /* distributed: root inserts the assembled entries, SLEPc solves */
    Mat              K, M;
    DRModal          modal;
    const PetscReal *f;
    Vec             *v;
    PetscCall(MatCreateAIJ(c->comm, PETSC_DECIDE, PETSC_DECIDE, N, N, 0, NULL, 0, NULL, &K));
    PetscCall(MatSetOption(K, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatCreateAIJ(c->comm, PETSC_DECIDE, PETSC_DECIDE, N, N, 0, NULL, 0, NULL, &M));
    PetscCall(MatSetOption(M, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    if (!c->rank)
      for (PetscInt j = 0; j < N; j++)
        for (PetscInt i = 0; i < N; i++) {
          if (Kr[i + j * N] != 0) PetscCall(MatSetValue(K, i, j, Kr[i + j * N], INSERT_VALUES));
          if (Mr[i + j * N] != 0) PetscCall(MatSetValue(M, i, j, Mr[i + j * N], INSERT_VALUES));
        }
    PetscCall(MatAssemblyBegin(K, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(K, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetOption(K, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(M, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(DRModalCreate(c->comm, &modal));
    PetscCall(DRModalSetOptionsPrefix(modal, "cms_"));
    PetscCall(DRModalSetOperators(modal, K, M, "reduced system"));
    PetscCall(DRModalSetRange(modal, c->fmax > 0 ? 0 : c->nmodes, c->fmax));
    PetscCall(DRModalSetFromOptions(modal));
    PetscCall(DRModalSolve(modal));
    PetscCall(DRModalGetModes(modal, &c->nm, &f, NULL, &v, NULL));
    PetscCall(PetscMalloc1(c->nm + 1, &c->freq));
    PetscCall(PetscArraycpy(c->freq, f, c->nm));
    if (!c->rank) PetscCall(PetscMalloc1(N * c->nm + 1, &Q));
    for (PetscInt k = 0; k < c->nm; k++) {
      Vec        z;
      VecScatter sc;
      PetscCall(VecScatterCreateToZero(v[k], &sc, &z));
      PetscCall(VecScatterBegin(sc, v[k], z, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(VecScatterEnd(sc, v[k], z, INSERT_VALUES, SCATTER_FORWARD));
      if (!c->rank) {
        const PetscScalar *a;
        PetscCall(VecGetArrayRead(z, &a));
        for (PetscInt i = 0; i < N; i++) Q[i + k * N] = PetscRealPart(a[i]);
        PetscCall(VecRestoreArrayRead(z, &a));
      }
      PetscCall(VecScatterDestroy(&sc));
      PetscCall(VecDestroy(&z));
    }
    PetscCall(DRModalDestroy(&modal));
    PetscCall(MatDestroy(&K));
    PetscCall(MatDestroy(&M));
  }
  *Qout = Q;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Coupled reduced system (optionally after interface reduction) solved on
 * the root or distributed.  Q: nred x nm full reduced coordinates
 * (q = R q' when the interface was reduced), column-major, on every rank.
 * Times: interface reduction into c->t[5]. */
static PetscErrorCode CoupledSolve(DRCMS c, PetscReal **Qout)
{
  PetscReal     *Q = NULL, *Q2 = NULL, *K2 = NULL, *M2 = NULL;
  PetscInt       N = c->nred;
  PetscLogDouble t0 = DRTime();

  PetscFunctionBeginUser;
  c->ncoupled = N;
  c->ncc      = 0;
  if (c->iface && c->nbglob > 0) {
    PetscErrorCode ierr = PETSC_SUCCESS;
    if (!c->rank) ierr = InterfaceReduce(c, &K2, &M2);
    PetscCall(RootAgrees(c, ierr));
    PetscCallMPI(MPI_Bcast(&c->ncc, 1, MPIU_INT, 0, c->comm));
    c->ncoupled = c->ncc + c->nred - c->nbglob;
    PetscCall(DRProgress(c->comm, "cms: interface reduction: %" PetscInt_FMT " boundary coordinates -> %" PetscInt_FMT " CC modes; coupled system %" PetscInt_FMT " -> %" PetscInt_FMT " coordinates", c->nbglob, c->ncc, c->nred, c->ncoupled));
  }
  c->t[5] = DRTime() - t0;
  if (c->iface && c->nbglob > 0) {
    PetscCall(SolveSystem(c, c->ncoupled, K2, M2, &Q2));
    PetscCall(PetscFree(K2));
    PetscCall(PetscFree(M2));
    if (!c->rank) {
      /* back to the assembled coordinates: q_B = Psi q'_c, q_q = q'_q */
      PetscInt nb = c->nbglob, nc = c->ncc, nq = N - nb, N2 = c->ncoupled;
      PetscCall(PetscMalloc1(N * c->nm + 1, &Q));
      if (nb > 0 && c->nm > 0) {
        PetscBLASInt mb, mm, mc, ld2;
        PetscReal    one = 1, zero = 0;
        PetscCall(PetscBLASIntCast(nb, &mb));
        PetscCall(PetscBLASIntCast(c->nm, &mm));
        PetscCall(PetscBLASIntCast(nc, &mc));
        PetscCall(PetscBLASIntCast(N2, &ld2));
        if (nc > 0) {
          PetscBLASInt ldq;
          PetscCall(PetscBLASIntCast(N, &ldq));
          BLASgemm_("N", "N", &mb, &mm, &mc, &one, c->Psi, &mb, Q2, &ld2, &zero, Q, &ldq);
        } else
          for (PetscInt m = 0; m < c->nm; m++) PetscCall(PetscArrayzero(Q + m * N, nb));
      }
      for (PetscInt m = 0; m < c->nm; m++)
        for (PetscInt i = 0; i < nq; i++) Q[nb + i + m * N] = Q2[nc + i + m * N2];
      PetscCall(PetscFree(Q2));
    }
  } else PetscCall(SolveSystem(c, N, c->Kred, c->Mred, &Q));
  if (c->rank) PetscCall(PetscMalloc1(N * c->nm + 1, &Q));
  PetscCallMPI(MPI_Bcast(Q, (PetscMPIInt)(N * c->nm), MPIU_REAL, 0, c->comm));
  /* deterministic sign: largest-magnitude reduced coordinate positive */
  for (PetscInt k = 0; k < c->nm; k++) {
    PetscInt imax = 0;
    for (PetscInt i = 1; i < N; i++)
      if (PetscAbsReal(Q[i + k * N]) > PetscAbsReal(Q[imax + k * N]) * (1 + 1e-10)) imax = i;
    if (Q[imax + k * N] < 0)
      for (PetscInt i = 0; i < N; i++) Q[i + k * N] = -Q[i + k * N];
  }
  *Qout = Q;
  PetscFunctionReturn(PETSC_SUCCESS);
}
/* u = T q per component, inserted into world vectors over the full labels. */
static PetscErrorCode Recover(DRCMS c, const PetscReal *Q)
{
  PetscInt N = c->nred, *off;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(c->ncomp + 1, &off));
  off[0] = c->nbglob;
  for (PetscInt k = 0; k < c->ncomp; k++) off[k + 1] = off[k] + c->nq[k];
  {
    Vec proto;
    PetscCall(VecCreateMPI(c->comm, PETSC_DECIDE, c->nfull, &proto));
    PetscCall(VecDuplicateVecs(proto, c->nm, &c->modes));
    PetscCall(VecDestroy(&proto));
  }
  for (PetscInt i = 0; i < c->nmine; i++) {
    DRSuperelement    *se = &c->se[i];
    DRComponent        comp = c->comps[i];
    PetscInt           k = c->mine[i], nr = se->nb + se->nq, rs, re, ldt, *grow;
    PetscReal         *Qc, *U;
    const PetscScalar *t;
    PetscCall(PetscMalloc1(nr * c->nm + 1, &Qc));
    for (PetscInt m = 0; m < c->nm; m++) {
      for (PetscInt j = 0; j < se->nb; j++) Qc[j + m * nr] = Q[DRLabelsFind(c->nbglob, c->bglob, se->blabels[j]) + m * N];
      for (PetscInt j = 0; j < se->nq; j++) Qc[se->nb + j + m * nr] = Q[off[k] + j + m * N];
    }
    PetscCall(MatGetOwnershipRange(se->T, &rs, &re));
    PetscCall(MatDenseGetLDA(se->T, &ldt));
    PetscCall(MatDenseGetArrayRead(se->T, &t));
    PetscCall(PetscMalloc1((re - rs) * c->nm + 1, &U));
    if (re > rs && c->nm > 0 && nr > 0) {
      PetscBLASInt mm, nn, kk, lda, ldb, ldc;
      PetscReal    one = 1, zero = 0;
      PetscCall(PetscBLASIntCast(re - rs, &mm));
      PetscCall(PetscBLASIntCast(c->nm, &nn));
      PetscCall(PetscBLASIntCast(nr, &kk));
      PetscCall(PetscBLASIntCast(ldt, &lda));
      ldb = kk;
      ldc = mm;
      BLASgemm_("N", "N", &mm, &nn, &kk, &one, t, &lda, Qc, &ldb, &zero, U, &ldc);
    } else PetscCall(PetscArrayzero(U, (re - rs) * c->nm));
    PetscCall(MatDenseRestoreArrayRead(se->T, &t));
    PetscCall(PetscMalloc1(re - rs + 1, &grow));
    for (PetscInt r = rs; r < re; r++) grow[r - rs] = DRLabelsFind(c->nfull, c->full, comp->labels[r]);
    for (PetscInt m = 0; m < c->nm; m++) PetscCall(VecSetValues(c->modes[m], re - rs, grow, U + m * (re - rs), INSERT_VALUES));
    PetscCall(PetscFree(grow));
    PetscCall(PetscFree(U));
    PetscCall(PetscFree(Qc));
  }
  for (PetscInt m = 0; m < c->nm; m++) {
    PetscCall(VecAssemblyBegin(c->modes[m]));
    PetscCall(VecAssemblyEnd(c->modes[m]));
  }
  PetscCall(PetscFree(off));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSSolve(DRCMS c)
{
  DRReduceOptions opt;
  PetscReal      *Q = NULL;
  PetscLogDouble  t0;
  PetscReal       loc[3] = {0, 0, 0}, mx[3];

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&opt, sizeof(opt)));
  opt.nmodes    = c->comp_modes;
  opt.cutoff_hz = c->fmax > 0 ? c->cutoff_factor * c->fmax : 0;
  PetscCall(DRConfigGetString(c->cfg, "cms.support", opt.support, sizeof(opt.support), NULL));
  PetscCall(PetscStrncpy(opt.prefix, "cms_comp_", sizeof(opt.prefix)));
  PetscCall(PetscCalloc1(c->nmine + 1, &c->se));
  {
    PetscErrorCode ierr = PETSC_SUCCESS;
    for (PetscInt i = 0; i < c->nmine && !ierr; i++) {
      char m[32];
      PetscCall(ComponentMethod(c, c->mine[i], m, sizeof(m)));
      ierr = DRReduce(m, c->comps[i], c->isboundary[i], &opt, &c->se[i]);
      if (ierr) break;
      loc[0] += c->se[i].t_eig;
      loc[1] += c->se[i].t_static;
      loc[2] += c->se[i].t_project;
      PetscCall(DRProgress(c->gcomm, "cms: group %" PetscInt_FMT " reduced '%s' (%s): %" PetscInt_FMT " DOFs -> %" PetscInt_FMT " boundary + %" PetscInt_FMT " modal", c->mygroup, c->comps[i]->name, m, c->comps[i]->n, c->se[i].nb, c->se[i].nq));
    }
    /* one agreement point for all groups, whatever their component counts */
    ierr = AllGroupsAgree(c->comm, ierr);
    if (ierr) PetscFunctionReturn(ierr);
  }
  /* per-phase times: the slowest group sets the pace */
  PetscCall(MPIU_Allreduce(loc, mx, 3, MPIU_REAL, MPI_MAX, c->comm));
  c->t[0] = mx[0];
  c->t[1] = mx[1];
  c->t[2] = mx[2];
  t0 = DRTime();
  PetscCall(PetscLogEventBegin(DR_EVENT_Gather, 0, 0, 0, 0));
  PetscCall(Gather(c));
  PetscCall(PetscLogEventEnd(DR_EVENT_Gather, 0, 0, 0, 0));
  c->t[3] = DRTime() - t0 - c->t[4];
  PetscCall(DRProgress(c->comm, "cms: reduced system of %" PetscInt_FMT " coordinates (%" PetscInt_FMT " boundary)", c->nred, c->nbglob));
  t0 = DRTime();
  PetscCall(PetscLogEventBegin(DR_EVENT_Coupled, 0, 0, 0, 0));
  PetscCall(CoupledSolve(c, &Q));
  PetscCall(PetscLogEventEnd(DR_EVENT_Coupled, 0, 0, 0, 0));
  c->t[6] = DRTime() - t0 - c->t[5];
  t0 = DRTime();
  PetscCall(PetscLogEventBegin(DR_EVENT_Recover, 0, 0, 0, 0));
  PetscCall(Recover(c, Q));
  PetscCall(PetscLogEventEnd(DR_EVENT_Recover, 0, 0, 0, 0));
  c->t[7] = DRTime() - t0;
  PetscCall(PetscFree(Q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSGetModes(DRCMS c, PetscInt *n, const PetscReal **freq_hz, Vec **modes, PetscInt *nlabels, const DRLabel **labels)
{
  PetscFunctionBeginUser;
  if (n) *n = c->nm;
  if (freq_hz) *freq_hz = c->freq;
  if (modes) *modes = c->modes;
  if (nlabels) *nlabels = c->nfull;
  if (labels) *labels = c->full;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSGetTimes(DRCMS c, PetscInt *nred, PetscInt *nphases, const char *const **names, const PetscReal **seconds)
{
  PetscFunctionBeginUser;
  if (nred) *nred = c->nred;
  if (nphases) *nphases = NPHASE;
  if (names) *names = phase_names;
  if (seconds) *seconds = c->t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSView(DRCMS c)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(c->comm, "  component              DOFs  boundary  modes  method\n"));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscInt n = 0, loc = 0;
    char     m[32];
    PetscMPIInt grank;
    PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k && !grank) loc = c->comps[i]->n;
    PetscCall(MPIU_Allreduce(&loc, &n, 1, MPIU_INT, MPI_SUM, c->comm));
    PetscCall(ComponentMethod(c, k, m, sizeof(m)));
    PetscCall(PetscPrintf(c->comm, "  %-20s %7" PetscInt_FMT "  %8" PetscInt_FMT "  %5" PetscInt_FMT "  %s\n", c->names[k], n, c->nb[k], c->nq[k], m));
  }
  PetscCall(PetscPrintf(c->comm, "  reduced system: %" PetscInt_FMT " coordinates (%" PetscInt_FMT " boundary, %" PetscInt_FMT " modal) for %" PetscInt_FMT " DOFs\n", c->nred, c->nbglob, c->nred - c->nbglob, c->nfull));
  if (c->iface && c->nbglob > 0) {
    PetscReal fhi = 0;
    if (!c->rank && c->ncc) fhi = c->ccfreq[c->ncc - 1];
    PetscCallMPI(MPI_Bcast(&fhi, 1, MPIU_REAL, 0, c->comm));
    PetscCall(PetscPrintf(c->comm, "  interface reduction: %" PetscInt_FMT " boundary coordinates -> %" PetscInt_FMT " CC modes (highest %.6g Hz", c->nbglob, c->ncc, (double)fhi));
    if (c->iface_factor > 0) PetscCall(PetscPrintf(c->comm, ", cutoff %.6g x %.6g Hz", (double)c->iface_factor, (double)c->fmax));
    PetscCall(PetscPrintf(c->comm, "); coupled system %" PetscInt_FMT " -> %" PetscInt_FMT " coordinates\n", c->nred, c->ncoupled));
  }
  PetscCall(PetscPrintf(c->comm, "  mode   frequency [Hz]\n"));
  for (PetscInt k = 0; k < c->nm; k++) PetscCall(PetscPrintf(c->comm, "  %4" PetscInt_FMT "   %14.6f\n", k + 1, (double)c->freq[k]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometry of all components merged on world rank 0 (nodes by id, cells
 * when all parts have one cell type): a component with labels but no
 * matrices, for the mesh and the mode shapes in the XDMF file. */
static PetscErrorCode GatherGeometry(DRCMS c)
{
  DRComponent g;
  PetscInt    nn = 0, nc = 0, nv = 0;
  PetscInt   *ids = NULL, *cells = NULL;
  PetscReal  *xyz = NULL;
  DRCellType  ct = DR_CELL_NONE;
  PetscBool   same = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(DRComponentCreate(c->comm, "cms", &g));
  g->n = c->nfull;
  PetscCall(PetscMalloc1(c->nfull + 1, &g->labels));
  PetscCall(PetscArraycpy(g->labels, c->full, c->nfull));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscMPIInt src = c->group_root[c->group_of[k]];
    PetscInt    hdr[3] = {0, 0, 0}; /* nnodes, ncells, celltype */
    DRComponent comp   = NULL;
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k) comp = c->comps[i];
    if (c->rank == src) {
      hdr[0] = comp->nnodes;
      hdr[1] = comp->ncells;
      hdr[2] = (PetscInt)comp->celltype;
    }
    PetscCallMPI(MPI_Bcast(hdr, 3, MPIU_INT, src, c->comm));
    if (!hdr[0]) continue;
    if (!c->rank) {
      PetscInt knv = DRCellNodes((DRCellType)hdr[2]);
      if (ct == DR_CELL_NONE && !nc) ct = (DRCellType)hdr[2];
      if ((DRCellType)hdr[2] != ct) same = PETSC_FALSE;
      PetscCall(PetscRealloc(sizeof(PetscInt) * (nn + hdr[0]), &ids));
      PetscCall(PetscRealloc(sizeof(PetscReal) * 3 * (nn + hdr[0]), &xyz));
      PetscCall(PetscRealloc(sizeof(PetscInt) * (nc + hdr[1]) * PetscMax(knv, 1) + 1, &cells));
      if (src == 0) {
        PetscCall(PetscArraycpy(ids + nn, comp->node_ids, hdr[0]));
        PetscCall(PetscArraycpy(xyz + 3 * nn, comp->xyz, 3 * hdr[0]));
        if (knv) PetscCall(PetscArraycpy(cells + nc * knv, comp->cells, hdr[1] * knv));
      } else {
        PetscCallMPI(MPI_Recv(ids + nn, (PetscMPIInt)hdr[0], MPIU_INT, src, 11, c->comm, MPI_STATUS_IGNORE));
        PetscCallMPI(MPI_Recv(xyz + 3 * nn, (PetscMPIInt)(3 * hdr[0]), MPIU_REAL, src, 12, c->comm, MPI_STATUS_IGNORE));
        if (knv) PetscCallMPI(MPI_Recv(cells + nc * knv, (PetscMPIInt)(hdr[1] * knv), MPIU_INT, src, 13, c->comm, MPI_STATUS_IGNORE));
      }
      nn += hdr[0];
      nc += hdr[1];
      nv = knv;
    } else if (c->rank == src) {
      PetscInt knv = DRCellNodes(comp->celltype);
      PetscCallMPI(MPI_Send(comp->node_ids, (PetscMPIInt)hdr[0], MPIU_INT, 0, 11, c->comm));
      PetscCallMPI(MPI_Send(comp->xyz, (PetscMPIInt)(3 * hdr[0]), MPIU_REAL, 0, 12, c->comm));
      if (knv) PetscCallMPI(MPI_Send(comp->cells, (PetscMPIInt)(hdr[1] * knv), MPIU_INT, 0, 13, c->comm));
    }
  }
  if (!c->rank && nn) {
    PetscInt *perm, k = 0;
    PetscCall(PetscMalloc1(nn, &perm));
    for (PetscInt i = 0; i < nn; i++) perm[i] = i;
    PetscCall(PetscSortIntWithArray(nn, ids, perm));
    PetscCall(PetscMalloc1(nn, &g->node_ids));
    PetscCall(PetscMalloc1(3 * nn, &g->xyz));
    for (PetscInt i = 0; i < nn; i++) {
      if (k && g->node_ids[k - 1] == ids[i]) continue;
      g->node_ids[k] = ids[i];
      for (int d = 0; d < 3; d++) g->xyz[3 * k + d] = xyz[3 * perm[i] + d];
      k++;
    }
    g->nnodes = k;
    PetscCall(PetscFree(perm));
    if (same && nv) {
      g->celltype = ct;
      g->ncells   = nc;
      g->cells    = cells;
      cells       = NULL;
    }
  }
  PetscCall(PetscFree(ids));
  PetscCall(PetscFree(xyz));
  PetscCall(PetscFree(cells));
  {
    PetscInt hdr[3] = {g->nnodes, g->ncells, (PetscInt)g->celltype};
    PetscCallMPI(MPI_Bcast(hdr, 3, MPIU_INT, 0, c->comm)); /* the store's calls are collective */
    g->nnodes   = hdr[0];
    g->ncells   = hdr[1];
    g->celltype = (DRCellType)hdr[2];
  }
  c->geom = g;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRCMSWrite(DRCMS c, DRStore s)
{
  PetscInt dims[2];

  PetscFunctionBeginUser;
  dims[0] = c->nm;
  PetscCall(DRStoreWriteReal(s, "/cms/frequencies_hz", 1, dims, c->freq, "Hz"));
  PetscCall(DRStoreWriteLabels(s, "/cms/labels", c->nfull, c->full));
  if (c->nm) PetscCall(DRStoreWriteVecs(s, "/cms/modes", c->nm, c->modes, NULL));
  PetscCall(DRStoreAttrString(s, "/cms", "modes_normalization", "mass: Phi^T M Phi = I (recovered u = T q); columns = modes, rows = /cms/labels"));
  PetscCall(DRStoreAttrInt(s, "/cms", "ndof", c->nfull));
  PetscCall(DRStoreAttrReal(s, "/cms", "fmax_hz", c->fmax));
  dims[0] = c->nred;
  dims[1] = c->nred;
  PetscCall(DRStoreWriteReal(s, "/cms/reduced/K", 2, dims, c->Kred, NULL));
  PetscCall(DRStoreWriteReal(s, "/cms/reduced/M", 2, dims, c->Mred, NULL));
  PetscCall(DRStoreWriteLabels(s, "/cms/reduced/boundary_labels", c->nbglob, c->bglob));
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "n_boundary", c->nbglob));
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "n_modal", c->nred - c->nbglob));
  PetscCall(DRStoreAttrString(s, "/cms/reduced", "coordinates", "[merged boundary DOFs (boundary_labels) | component modal coordinates in component order]"));
  /* interface reduction: K, M above stay the assembled system; the solved
   * one is R^T K R with R = blkdiag(interface_modes, I) */
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "n_interface_modes", c->iface ? c->ncc : 0));
  PetscCall(DRStoreAttrInt(s, "/cms/reduced", "coupled_size", c->ncoupled));
  if (c->iface && c->nbglob > 0) {
    PetscReal *rowmajor = NULL;
    PetscCall(DRStoreAttrString(s, "/cms/reduced", "interface_reduction", "characteristic constraint modes of (K_BB, M_BB) of the assembled reduced system, M_BB-normalized; solved system R^T K R, R^T M R with R = blkdiag(interface_modes, I_modal) (coupled_size coordinates)"));
    if (c->iface_factor > 0) PetscCall(DRStoreAttrReal(s, "/cms/reduced", "interface_cutoff_hz", c->iface_factor * c->fmax));
    if (!c->rank) {
      PetscCall(PetscMalloc1(c->nbglob * c->ncc + 1, &rowmajor));
      for (PetscInt i = 0; i < c->nbglob; i++)
        for (PetscInt j = 0; j < c->ncc; j++) rowmajor[i * c->ncc + j] = c->Psi[i + j * c->nbglob];
    }
    dims[0] = c->nbglob;
    dims[1] = c->ncc;
    PetscCall(DRStoreWriteReal(s, "/cms/reduced/interface_modes", 2, dims, rowmajor, NULL));
    PetscCall(PetscFree(rowmajor));
    dims[0] = c->ncc;
    PetscCall(DRStoreWriteReal(s, "/cms/reduced/interface_frequencies_hz", 1, dims, c->rank ? NULL : c->ccfreq, "Hz"));
  }
  for (PetscInt k = 0; k < c->ncomp; k++) {
    char     grp[128], m[32];
    PetscInt n = 0, loc = 0;
    PetscMPIInt grank;
    PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k && !grank) loc = c->comps[i]->n;
    PetscCall(MPIU_Allreduce(&loc, &n, 1, MPIU_INT, MPI_SUM, c->comm));
    PetscCall(ComponentMethod(c, k, m, sizeof(m)));
    PetscCall(PetscSNPrintf(grp, sizeof(grp), "/cms/components/%s", c->names[k]));
    PetscCall(DRStoreAttrInt(s, grp, "n_boundary", c->nb[k]));
    PetscCall(DRStoreAttrInt(s, grp, "n_interior", n - c->nb[k]));
    PetscCall(DRStoreAttrInt(s, grp, "n_modes", c->nq[k]));
    PetscCall(DRStoreAttrInt(s, grp, "rank_group", c->group_of[k]));
    PetscCall(DRStoreAttrString(s, grp, "method", m));
    PetscCall(PetscStrlcat(grp, "/frequencies_hz", sizeof(grp)));
    dims[0] = c->nq[k];
    PetscCall(DRStoreWriteReal(s, grp, 1, dims, c->rank ? NULL : c->qfreq[k], "Hz"));
  }
  for (PetscInt p = 0; p < NPHASE; p++) PetscCall(DRStoreAttrReal(s, "/timing", phase_names[p], c->t[p]));
  /* mesh and mode shapes for ParaView */
  if (!c->geom) PetscCall(GatherGeometry(c));
  if (c->geom->nnodes && c->nm) {
    char **names;
    PetscCall(DRComponentWriteMesh(c->geom, s));
    PetscCall(PetscMalloc1(c->nm, &names));
    for (PetscInt k = 0; k < c->nm; k++) {
      PetscCall(PetscMalloc1(64, &names[k]));
      PetscCall(PetscSNPrintf(names[k], 64, "cms mode %03" PetscInt_FMT " (%.4g Hz)", k + 1, (double)c->freq[k]));
    }
    PetscCall(DRComponentWriteShapes(c->geom, s, "/cms", c->nm, c->modes, (const char *const *)names));
    for (PetscInt k = 0; k < c->nm; k++) PetscCall(PetscFree(names[k]));
    PetscCall(PetscFree(names));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
