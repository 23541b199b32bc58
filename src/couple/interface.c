/* CMS interfaces: the boundary DOFs of every component are the labels it
 * shares with another component (ties are shared labels too, made by the
 * model layer), plus the retained node sets (cms.retain).  Also the full
 * model's label numbering: the sorted union of all component labels. */
#include "cmsimpl.h"
#include <string.h>

/* Every rank learns every component's labels (from its group's root). */
static PetscErrorCode ExchangeLabels(DRCMS c, PetscInt **nlab_out, DRLabel ***lab_out)
{
  PetscInt   *nlab, *tmp;
  DRLabel   **lab;
  PetscMPIInt grank;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(c->ncomp, &nlab));
  PetscCall(PetscCalloc1(c->ncomp, &lab));
  /* sizes: each component's group root contributes */
  PetscCallMPI(MPI_Comm_rank(c->gcomm, &grank));
  PetscCall(PetscCalloc1(c->ncomp, &tmp));
  if (!grank)
    for (PetscInt i = 0; i < c->nmine; i++) PetscCall(DRComponentGetSize(c->comps[i], &tmp[c->mine[i]]));
  PetscCall(MPIU_Allreduce(tmp, nlab, c->ncomp, MPIU_INT, MPI_SUM, c->comm));
  PetscCall(PetscFree(tmp));
  for (PetscInt k = 0; k < c->ncomp; k++) {
    PetscCall(PetscMalloc1(nlab[k] + 1, &lab[k]));
    for (PetscInt i = 0; i < c->nmine; i++)
      if (c->mine[i] == k) {
        const DRLabel *l;
        PetscCall(DRComponentGetLabels(c->comps[i], NULL, &l));
        PetscCall(PetscArraycpy(lab[k], l, nlab[k]));
      }
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

/* The full labels (sorted union) into c->full; per component the number of
 * its labels shared with another component. */
static PetscErrorCode BuildUnion(DRCMS c, PetscInt ntot, const LabComp all[], PetscInt shared[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(ntot + 1, &c->full));
  c->nfull = 0;
  for (PetscInt i = 0; i < ntot;) {
    PetscInt j = i;
    while (j < ntot && all[j].l == all[i].l) j++;
    if (j - i > 1)
      for (PetscInt t = i; t < j; t++) shared[all[t].comp]++;
    c->full[c->nfull++] = all[i].l;
    i = j;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Interface compatibility: per node shared by several parts, every part
 * that has translations there has the same translations. */
static PetscErrorCode CheckCompatible(DRCMS c, PetscInt ntot, const LabComp all[])
{
  char b1[32];

  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < ntot;) {
    PetscInt64 node = DRLabelNode(all[i].l), j = i;
    while (j < ntot && DRLabelNode(all[j].l) == node) j++;
    /* all[i..j) are the DOFs at this node, sorted by direction then component */
    for (PetscInt a = i; a < j; a++) {
      PetscInt d = DRLabelDir(all[a].l);
      if (d < 1 || d > 3) continue; /* rotations, scalar points */
      for (PetscInt k = 0; k < c->ncomp; k++) {
        PetscBool hasnode = PETSC_FALSE, hasdof = PETSC_FALSE;
        for (PetscInt t = i; t < j; t++)
          if (all[t].comp == k) {
            if (DRLabelDir(all[t].l) >= 1 && DRLabelDir(all[t].l) <= 3) hasnode = PETSC_TRUE;
            if (all[t].l == all[a].l) hasdof = PETSC_TRUE;
          }
        PetscCheck(!hasnode || hasdof, c->comm, DR_ERR_INPUT, "interface DOF %s is free in component '%s' but constrained (absent) in component '%s', which shares node %lld; expected interface DOFs free in every part or constrained in all", DRLabelString(all[a].l, b1), c->names[all[a].comp], c->names[k], (long long)node);
      }
    }
    i = j;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Retained node sets (cms.retain, comma list) of my component i are boundary. */
static PetscErrorCode MarkRetained(DRCMS c, PetscInt i)
{
  DRComponent    comp = c->comps[i];
  char          *copy, *save = NULL;
  PetscInt       n;
  const DRLabel *labels;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetLabels(comp, &n, &labels));
  PetscCall(PetscStrallocpy(c->retain, &copy));
  for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
    DRNodeSet *set;
    PetscCall(DRComponentGetNodeSet(comp, tok, &set));
    if (!set) continue;
    for (PetscInt r = 0; r < n; r++) {
      PetscInt node = (PetscInt)DRLabelNode(labels[r]), lo = 0, hi = set->n - 1;
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Flags of my components: a label is boundary when it occurs more than once
 * in the sorted (label, component) list, or lies in a retained node set. */
static PetscErrorCode MarkBoundary(DRCMS c, PetscInt ntot, const LabComp all[])
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(c->nmine, &c->isboundary));
  for (PetscInt i = 0; i < c->nmine; i++) {
    PetscInt       n;
    const DRLabel *labels;
    PetscCall(DRComponentGetLabels(c->comps[i], &n, &labels));
    PetscCall(PetscCalloc1(n + 1, &c->isboundary[i]));
    for (PetscInt r = 0; r < n; r++) {
      /* shared when the label occurs more than once: find its first entry */
      PetscInt lo = 0, hi = ntot;
      while (lo < hi) {
        PetscInt mid = (lo + hi) / 2;
        if (all[mid].l < labels[r]) lo = mid + 1;
        else hi = mid;
      }
      c->isboundary[i][r] = (lo + 1 < ntot && all[lo + 1].l == labels[r]) ? PETSC_TRUE : PETSC_FALSE;
    }
    if (c->retain[0]) PetscCall(MarkRetained(c, i));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The file of component k (from its group's root), on every rank. */
static PetscErrorCode ComponentSource(DRCMS c, PetscInt k, char src[PETSC_MAX_PATH_LEN])
{
  PetscFunctionBeginUser;
  src[0] = '\0';
  for (PetscInt i = 0; i < c->nmine; i++)
    if (c->mine[i] == k) {
      const char *s;
      PetscCall(DRComponentGetSource(c->comps[i], &s));
      PetscCall(PetscStrncpy(src, s, PETSC_MAX_PATH_LEN));
    }
  PetscCallMPI(MPI_Bcast(src, PETSC_MAX_PATH_LEN, MPI_CHAR, c->group_root[c->group_of[k]], c->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A node shared by parts where one part has several rows per label (a
 * CalculiX shell, beam or 2-D node expanded into several nodes): which row of
 * one part meets which of the other is not known from the labels, so the job
 * stops rather than couple them by guess. */
static PetscErrorCode CheckExpanded(DRCMS c, const PetscInt nlab[], DRLabel **lab)
{
  PetscInt64 node;
  PetscInt   ka, kb;
  PetscBool  gen;

  PetscFunctionBeginUser;
  PetscCall(DRLabelsFindExpandedShared(c->ncomp, nlab, (const DRLabel *const *)lab, &node, &ka, &kb, &gen));
  if (node >= 0) {
    char sa[PETSC_MAX_PATH_LEN], sb[PETSC_MAX_PATH_LEN];
    PetscCall(ComponentSource(c, ka, sa));
    PetscCall(ComponentSource(c, kb, sb));
    if (gen) SETERRQ(c->comm, DR_ERR_INPUT, "%s and %s: interface node %" PetscInt64_FMT " is a node CalculiX generated in %s (not in its deck's *NODE: an element's internal node, or a rotation node not tied to a knot; its rows are rotations or internal modes, not translations), expected interface nodes defined in every deck: couple '%s' and '%s' through nodes of the decks", sa, sb, node, sa, c->names[ka], c->names[kb]);
    SETERRQ(c->comm, DR_ERR_INPUT, "%s and %s: interface node %" PetscInt64_FMT " has several rows per label in %s (a CalculiX node of a shell, beam or 2-D element, expanded), expected the rows of interface nodes to match one-to-one by label: couple '%s' and '%s' through nodes of solid elements or through knots (nodes where beams meet shells)", sa, sb, node, sa, c->names[ka], c->names[kb]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Boundary DOFs: labels shared with another component, plus retained node
 * sets.  Errors: a component that touches nothing; a node whose
 * translations are free in one part and constrained in another. */
PetscErrorCode DRCMSFindInterfaces_Private(DRCMS c)
{
  PetscInt *nlab = NULL, ntot = 0;
  DRLabel **lab = NULL;
  LabComp  *all;
  PetscInt *shared; /* per component: number of shared DOFs */

  PetscFunctionBeginUser;
  PetscCall(PetscLogEventBegin(DRCMS_Interfaces, 0, 0, 0, 0));
  PetscCall(ExchangeLabels(c, &nlab, &lab));
  PetscCall(CheckExpanded(c, nlab, lab));
  for (PetscInt k = 0; k < c->ncomp; k++) ntot += nlab[k];
  PetscCall(PetscMalloc1(ntot + 1, &all));
  ntot = 0;
  for (PetscInt k = 0; k < c->ncomp; k++)
    for (PetscInt i = 0; i < nlab[k]; i++) {
      all[ntot].l      = lab[k][i];
      all[ntot++].comp = k;
    }
  qsort(all, (size_t)ntot, sizeof(*all), cmp_labcomp);
  PetscCall(PetscCalloc1(c->ncomp, &shared));
  PetscCall(BuildUnion(c, ntot, all, shared));
  PetscCall(CheckCompatible(c, ntot, all));
  if (c->ncomp > 1) { /* every part without an interface in one line: a changed label file may leave its neighbours disjoint too */
    char     list[512] = "";
    PetscInt nd        = 0;
    for (PetscInt k = 0; k < c->ncomp; k++)
      if (!shared[k] && strlen(list) + strlen(c->names[k]) + 8 < sizeof(list)) {
        PetscCall(DRStrAppend(list, nd ? ", '" : "'", sizeof(list)));
        PetscCall(DRStrAppend(list, c->names[k], sizeof(list)));
        PetscCall(DRStrAppend(list, "'", sizeof(list)));
        nd++;
      } else if (!shared[k]) nd++;
    PetscCheck(nd == 0, c->comm, DR_ERR_INPUT, "component%s %s share%s no DOF label with any other component; expected an interface (common node ids) with at least one other part (check the DOF labels of %s)", nd > 1 ? "s" : "", list, nd > 1 ? "" : "s", nd > 1 ? "these parts and their neighbours" : "this part and its neighbours");
  }
  PetscCall(MarkBoundary(c, ntot, all));
  for (PetscInt k = 0; k < c->ncomp; k++) PetscCall(PetscFree(lab[k]));
  PetscCall(PetscFree(lab));
  PetscCall(PetscFree(nlab));
  PetscCall(PetscFree(shared));
  PetscCall(PetscFree(all));
  PetscCall(PetscLogEventEnd(DRCMS_Interfaces, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
