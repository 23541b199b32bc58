/* Job configuration: YAML (libyaml) + PETSc options, against one schema
 * (configschema.c): loading, locations, and the typed getters. */
#include "configimpl.h"
#include <yaml.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

PetscErrorCode DRConfigCreate(MPI_Comm comm, DRConfig *cfg)
{
  PetscFunctionBeginUser;
  PetscCall(DRCfgRegisterShared());
  PetscCall(PetscNew(cfg));
  (*cfg)->comm = comm;
  PetscCall(PetscStrncpy((*cfg)->origin, "<command line>", sizeof((*cfg)->origin)));
  PetscCall(PetscStrallocpy("", &(*cfg)->text));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigDestroy(DRConfig *cfg)
{
  PetscFunctionBeginUser;
  if (!*cfg) PetscFunctionReturn(PETSC_SUCCESS);
  for (int i = 0; i < (*cfg)->nleaves; i++) free((*cfg)->leaves[i].value);
  free((*cfg)->leaves);
  PetscCall(PetscFree((*cfg)->text));
  PetscCall(PetscFree(*cfg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* `given`: the key as written when it is a deprecated alias of `path`. */
static PetscErrorCode AddLeaf(DRConfig cfg, const char *path, const char *given, const char *value, int line)
{
  Leaf *l;

  PetscFunctionBeginUser;
  for (int i = 0; i < cfg->nleaves; i++) {
    Leaf *o = &cfg->leaves[i];
    if (strcmp(o->path, path)) continue;
    PetscCheck(!strcmp(o->given, given), cfg->comm, DR_ERR_INPUT, "%s:%d: both '%s' and '%s' (line %d) given; expected only '%s' ('%s' is its deprecated name)", cfg->origin, line, given, o->given, o->line, path, strcmp(given, path) ? given : o->given);
    SETERRQ(cfg->comm, DR_ERR_INPUT, "%s:%d: key '%s' given twice (first on line %d)", cfg->origin, line, path, o->line);
  }
  if (cfg->nleaves == cfg->cap) {
    cfg->cap    = cfg->cap ? 2 * cfg->cap : 64;
    cfg->leaves = (Leaf *)realloc(cfg->leaves, (size_t)cfg->cap * sizeof(Leaf));
    PetscCheck(cfg->leaves, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  }
  l = &cfg->leaves[cfg->nleaves++];
  PetscCall(PetscStrncpy(l->path, path, sizeof(l->path)));
  PetscCall(PetscStrncpy(l->given, given, sizeof(l->given)));
  DRCfgNormalize(path, l->norm, sizeof(l->norm));
  l->value = strdup(value);
  l->line  = line;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A scalar or list leaf of the file: a deprecated key is stored under its
 * replacement, with one warning line naming both. */
static PetscErrorCode AddKeyLeaf(DRConfig cfg, const char *path, const char *norm, const char *value, int line)
{
  const DRConfigKey *sk = DRCfgSchemaFind(norm);
  char               np[256];

  PetscFunctionBeginUser;
  if (!sk || !sk->replaced_by) {
    PetscCall(AddLeaf(cfg, path, path, value, line));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(DRCfgSchemaFind(sk->replaced_by), PETSC_COMM_SELF, PETSC_ERR_PLIB, "deprecated key '%s' is replaced by '%s', which is not in the schema", sk->key, sk->replaced_by);
  DRCfgFillIndices(sk->replaced_by, path, np, sizeof(np));
  PetscCall(PetscFPrintf(cfg->comm, PETSC_STDERR, "dynred: warning: %s:%d: '%s' is deprecated, read as '%s'\n", cfg->origin, line, path, np));
  PetscCall(AddLeaf(cfg, np, path, value, line));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode UnknownKey(DRConfig cfg, const char *path, const char *norm, int line)
{
  char   known[2048] = "", sect[256];
  size_t sl;
  char  *dot;

  PetscFunctionBeginUser;
  /* List the keys known in the same section, as a hint. */
  PetscCall(PetscStrncpy(sect, norm, sizeof(sect)));
  dot = strrchr(sect, '.');
  if (dot) *dot = 0;
  else sect[0] = 0;
  sl = strlen(sect);
  for (int t = 0; t < DRCfgNTables; t++)
    for (const DRConfigKey *k = DRCfgTables[t]; k->key; k++) {
      const char *rest;
      if (k->replaced_by) continue;
      if (sl && (strncmp(k->key, sect, sl) || k->key[sl] != '.')) continue;
      rest = sl ? k->key + sl + 1 : k->key;
      if (!sl && (strchr(rest, '.') || strchr(rest, '['))) {
        /* top level: list section names once */
        char head[64];
        size_t n = strcspn(rest, ".[");
        if (n >= sizeof(head)) continue;
        memcpy(head, rest, n);
        head[n] = 0;
        if (strstr(known, head)) continue;
        rest = head;
        if (strlen(known) + strlen(rest) + 3 < sizeof(known)) {
          if (known[0]) strcat(known, ", ");
          strcat(known, rest);
        }
        continue;
      }
      if (strchr(rest, '.') || strchr(rest, '[')) continue;
      if (strlen(known) + strlen(rest) + 3 < sizeof(known)) {
        if (known[0]) strcat(known, ", ");
        strcat(known, rest);
      }
    }
  SETERRQ(cfg->comm, DR_ERR_INPUT, "%s:%d: unknown key '%s'; expected one of: %s", cfg->origin, line, path, known);
}

static PetscErrorCode Walk(DRConfig cfg, yaml_document_t *doc, yaml_node_t *node, const char *prefix)
{
  PetscFunctionBeginUser;
  PetscCheck(node->type == YAML_MAPPING_NODE, cfg->comm, DR_ERR_INPUT, "%s:%d: expected a mapping 'key: value'%s%s", cfg->origin, (int)node->start_mark.line + 1, prefix[0] ? " under " : "", prefix);
  for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
    yaml_node_t *k = yaml_document_get_node(doc, p->key), *v = yaml_document_get_node(doc, p->value);
    char         path[256], norm[256];
    int          line = (int)k->start_mark.line + 1;
    PetscCheck(k->type == YAML_SCALAR_NODE, cfg->comm, DR_ERR_INPUT, "%s:%d: keys must be plain names", cfg->origin, line);
    if (prefix[0]) snprintf(path, sizeof(path), "%s.%s", prefix, (char *)k->data.scalar.value);
    else snprintf(path, sizeof(path), "%s", (char *)k->data.scalar.value);
    DRCfgNormalize(path, norm, sizeof(norm));
    if (v->type == YAML_MAPPING_NODE) {
      if (!DRCfgIsSection(norm)) PetscCall(UnknownKey(cfg, path, norm, line));
      PetscCall(Walk(cfg, doc, v, path));
    } else if (v->type == YAML_SEQUENCE_NODE) {
      yaml_node_item_t *it = v->data.sequence.items.start;
      int               n  = (int)(v->data.sequence.items.top - it);
      yaml_node_t      *first = n ? yaml_document_get_node(doc, it[0]) : NULL;
      if (first && first->type == YAML_MAPPING_NODE) {
        char secn[300], cnt[32];
        snprintf(secn, sizeof(secn), "%s[]", norm);
        if (!DRCfgIsSection(secn)) PetscCall(UnknownKey(cfg, path, norm, line));
        for (int i = 0; i < n; i++) {
          char         ip[300];
          yaml_node_t *item = yaml_document_get_node(doc, it[i]);
          snprintf(ip, sizeof(ip), "%s[%d]", path, i);
          PetscCall(Walk(cfg, doc, item, ip));
        }
        snprintf(cnt, sizeof(cnt), "%d", n);
        PetscCall(AddLeaf(cfg, path, path, cnt, line)); /* list length */
      } else {
        /* list of scalars: joined by ',' */
        size_t total = 1;
        char  *joined;
        if (!DRCfgSchemaFind(norm)) PetscCall(UnknownKey(cfg, path, norm, line));
        for (int i = 0; i < n; i++) {
          yaml_node_t *s = yaml_document_get_node(doc, it[i]);
          PetscCheck(s->type == YAML_SCALAR_NODE, cfg->comm, DR_ERR_INPUT, "%s:%d: '%s' must be a list of values", cfg->origin, (int)s->start_mark.line + 1, path);
          total += strlen((char *)s->data.scalar.value) + 1;
        }
        joined = (char *)calloc(total, 1);
        for (int i = 0; i < n; i++) {
          yaml_node_t *s = yaml_document_get_node(doc, it[i]);
          if (i) strcat(joined, ",");
          strcat(joined, (char *)s->data.scalar.value);
        }
        PetscCall(AddKeyLeaf(cfg, path, norm, joined, line));
        free(joined);
      }
    } else {
      if (!DRCfgSchemaFind(norm)) PetscCall(UnknownKey(cfg, path, norm, line));
      PetscCall(AddKeyLeaf(cfg, path, norm, (char *)v->data.scalar.value, line));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A job file is a few levels deep (components[].K is the deepest: 3).  A
 * pathological nesting (a fuzzed "[[[[..." of 200k levels) took libyaml's
 * loader and Walk minutes; it is refused from one pass over the events. */
#define DR_CFG_MAX_DEPTH 32
static PetscErrorCode CheckDepth(DRConfig cfg, const char *origin, const char *text)
{
  yaml_parser_t parser;
  yaml_event_t  ev;
  int           depth = 0, done = 0, bad = 0, line = 0;

  PetscFunctionBeginUser;
  PetscCheck(yaml_parser_initialize(&parser), PETSC_COMM_SELF, PETSC_ERR_LIB, "libyaml: cannot initialize parser");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
  while (!done && !bad) {
    if (!yaml_parser_parse(&parser, &ev)) break; /* the loader reports syntax errors */
    if (ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
      if (++depth > DR_CFG_MAX_DEPTH) {
        bad  = 1;
        line = (int)ev.start_mark.line + 1;
      }
    } else if (ev.type == YAML_SEQUENCE_END_EVENT || ev.type == YAML_MAPPING_END_EVENT) depth--;
    else if (ev.type == YAML_STREAM_END_EVENT) done = 1;
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&parser);
  PetscCheck(!bad, cfg->comm, DR_ERR_INPUT, "%s:%d: lists and mappings nested more than %d deep, expected a dynred job file (at most a few levels)", origin, line, DR_CFG_MAX_DEPTH);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigLoadString(DRConfig cfg, const char *origin, const char *text)
{
  yaml_parser_t   parser;
  yaml_document_t doc;
  yaml_node_t    *root;
  PetscErrorCode  ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(cfg->origin, origin, sizeof(cfg->origin)));
  PetscCall(PetscFree(cfg->text));
  PetscCall(PetscStrallocpy(text, &cfg->text));
  PetscCall(CheckDepth(cfg, origin, text));
  PetscCheck(yaml_parser_initialize(&parser), PETSC_COMM_SELF, PETSC_ERR_LIB, "libyaml: cannot initialize parser");
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
  if (!yaml_parser_load(&parser, &doc)) {
    char msg[512];
    snprintf(msg, sizeof(msg), "%s:%d: %s %s, expected valid YAML", origin, (int)parser.problem_mark.line + 1, parser.problem ? parser.problem : "syntax error", parser.context ? parser.context : "");
    yaml_parser_delete(&parser);
    SETERRQ(cfg->comm, DR_ERR_INPUT, "%s", msg);
  }
  root = yaml_document_get_root_node(&doc);
  ierr = root ? Walk(cfg, &doc, root, "") : PETSC_SUCCESS;
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigLoadFile(DRConfig cfg, const char *path)
{
  PetscMPIInt rank;
  long        len = -1;
  char       *buf = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(cfg->comm, &rank));
  if (!rank) {
    FILE *f = fopen(path, "rb");
    if (f) {
      fseek(f, 0, SEEK_END);
      len = ftell(f);
      fseek(f, 0, SEEK_SET);
      buf = (char *)malloc((size_t)len + 1);
      if (fread(buf, 1, (size_t)len, f) != (size_t)len) len = -1;
      else buf[len] = 0;
      fclose(f);
    }
  }
  PetscCallMPI(MPI_Bcast(&len, 1, MPI_LONG, 0, cfg->comm));
  PetscCheck(len >= 0, cfg->comm, DR_ERR_INPUT, "%s: cannot read job file (%s)", path, strerror(errno ? errno : ENOENT));
  if (rank) buf = (char *)malloc((size_t)len + 1);
  PetscCallMPI(MPI_Bcast(buf, (int)len + 1, MPI_CHAR, 0, cfg->comm));
  PetscCall(DRConfigLoadString(cfg, path, buf));
  free(buf);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetText(DRConfig cfg, const char **text)
{
  PetscFunctionBeginUser;
  *text = cfg->text;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetOrigin(DRConfig cfg, const char **origin)
{
  PetscFunctionBeginUser;
  *origin = cfg->origin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static Leaf *FindLeaf(DRConfig cfg, const char *path)
{
  for (int i = 0; i < cfg->nleaves; i++)
    if (!strcmp(cfg->leaves[i].path, path)) return &cfg->leaves[i];
  return NULL;
}

PetscErrorCode DRConfigWhere(DRConfig cfg, const char *key, char *buf, size_t len)
{
  Leaf *l;

  PetscFunctionBeginUser;
  l = FindLeaf(cfg, key);
  if (l) snprintf(buf, len, "%s:%d", cfg->origin, l->line);
  else snprintf(buf, len, "%s", cfg->origin);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigWhereValue(DRConfig cfg, const char *key, char *buf, size_t len)
{
  char      opt[320];
  PetscBool set;

  PetscFunctionBeginUser;
  DRCfgOptionName(key, opt, sizeof(opt));
  PetscCall(PetscOptionsHasName(NULL, NULL, opt, &set));
  if (set) snprintf(buf, len, "command line %s", opt);
  else PetscCall(DRConfigWhere(cfg, key, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigPathBase(DRConfig cfg, const char *key, const char **base)
{
  char      opt[320];
  PetscBool set;

  PetscFunctionBeginUser;
  DRCfgOptionName(key, opt, sizeof(opt));
  PetscCall(PetscOptionsHasName(NULL, NULL, opt, &set));
  *base = set ? NULL : cfg->origin;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ranges are checked on the values a user gave (file or command line), not
 * on schema defaults. */
/* One getter's state: the schema entry, the value before the command line
 * (YAML or default) and where it came from, the option name and help text. */
typedef struct {
  const DRConfigKey *sk;
  const char        *val;     /* text: YAML, a deprecated option, or the default; NULL: none */
  PetscBool          iny;     /* YAML gave it */
  PetscBool          byalias; /* a deprecated command-line option gave it */
  char               opt[300], help[1024], where[PETSC_MAX_PATH_LEN + 64];
  char               abuf[1024]; /* the deprecated option's value */
} Getter;

/* Deprecated options already warned about (one warning each per run). */
static char warned[16][300];
static int  nwarned = 0;

/* A command-line option under a deprecated name of `key`: read as `key`,
 * with one warning naming both; giving both names is an error. */
static PetscErrorCode AliasOption(DRConfig cfg, const char *key, const char *norm, Getter *g)
{
  PetscFunctionBeginUser;
  for (int t = 0; t < DRCfgNTables; t++)
    for (const DRConfigKey *k = DRCfgTables[t]; k->key; k++) {
      char      ap[256], aopt[300];
      PetscBool flg, both, seen = PETSC_FALSE;
      if (!k->replaced_by || strcmp(k->replaced_by, norm)) continue;
      DRCfgFillIndices(k->key, key, ap, sizeof(ap));
      DRCfgOptionName(ap, aopt, sizeof(aopt));
      PetscCall(PetscOptionsGetString(NULL, NULL, aopt, g->abuf, sizeof(g->abuf), &flg));
      if (!flg) continue;
      PetscCall(PetscOptionsHasName(NULL, NULL, g->opt, &both));
      PetscCheck(!both && !g->byalias, cfg->comm, DR_ERR_INPUT, "command line: both %s and %s given; expected only %s (%s is its deprecated name)", aopt, both ? g->opt : g->where + strlen("command line "), g->opt, aopt);
      g->val     = g->abuf;
      g->byalias = PETSC_TRUE;
      snprintf(g->where, sizeof(g->where), "command line %s", aopt);
      for (int i = 0; i < nwarned; i++) seen = (PetscBool)(seen || !strcmp(warned[i], aopt));
      if (!seen) {
        PetscCall(PetscFPrintf(cfg->comm, PETSC_STDERR, "dynred: warning: option %s is deprecated, read as %s (%s)\n", aopt, g->opt, key));
        if (nwarned < 16) PetscCall(PetscStrncpy(warned[nwarned++], aopt, sizeof(warned[0])));
      }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The value before the command-line option of `key` itself: a deprecated
 * option, else YAML, else the schema default. */
static PetscErrorCode GetterBegin(DRConfig cfg, const char *key, DRConfigType type, Getter *g)
{
  char  norm[256], ru[256];
  Leaf *l;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(g, sizeof(*g)));
  DRCfgNormalize(key, norm, sizeof(norm));
  g->sk = DRCfgSchemaFind(norm);
  PetscCheck(g->sk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "key '%s' is not in the schema (register it)", key);
  PetscCheck(!g->sk->replaced_by, PETSC_COMM_SELF, PETSC_ERR_PLIB, "key '%s' is deprecated: read '%s'", key, g->sk->replaced_by);
  PetscCheck(g->sk->type == type, PETSC_COMM_SELF, PETSC_ERR_PLIB, "key '%s' is a %s, read as %s", key, DRCfgTypeName(g->sk->type), DRCfgTypeName(type));
  l      = FindLeaf(cfg, key);
  g->iny = l ? PETSC_TRUE : PETSC_FALSE;
  g->val = l ? l->value : g->sk->def;
  PetscCall(DRConfigWhere(cfg, key, g->where, sizeof(g->where)));
  DRCfgOptionName(key, g->opt, sizeof(g->opt));
  DRCfgRangeUnits(g->sk, ru, sizeof(ru));
  snprintf(g->help, sizeof(g->help), "%s%s", g->sk->help, ru);
  PetscCall(AliasOption(cfg, key, norm, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the option: where the final value came from. */
static void GetterFromOption(Getter *g, PetscBool flg)
{
  if (flg) snprintf(g->where, sizeof(g->where), "command line %s", g->opt);
}

/* "expected 1..64 Hz" etc. into buf. */
static PetscErrorCode ParseReal(DRConfig cfg, const char *key, const char *where, const char *s, PetscReal *v)
{
  char *end;

  PetscFunctionBeginUser;
  errno = 0;
  *v    = strtod(s, &end);
  while (*end && isspace((unsigned char)*end)) end++;
  PetscCheck(*s && !*end && !errno && isfinite(*v), cfg->comm, DR_ERR_INPUT, "%s: %s = '%s' is not a number", where, key, s);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetReal(DRConfig cfg, const char *key, PetscReal *v, PetscBool *set)
{
  Getter    g;
  PetscBool flg = PETSC_FALSE;
  char      txt[64];

  PetscFunctionBeginUser;
  PetscCall(GetterBegin(cfg, key, DR_CFG_REAL, &g));
  *v = 0;
  if (g.val) PetscCall(ParseReal(cfg, key, g.where, g.val, v));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsReal(g.opt, g.help, NULL, *v, v, &flg));
  PetscOptionsEnd();
  GetterFromOption(&g, flg);
  snprintf(txt, sizeof(txt), "%g", (double)*v);
  if (g.iny || g.byalias || flg) PetscCall(DRCfgCheckNumber(cfg->comm, g.where, key, g.sk, *v, txt));
  if (set) *set = (PetscBool)(g.iny || g.byalias || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetInt(DRConfig cfg, const char *key, PetscInt *v, PetscBool *set)
{
  Getter    g;
  PetscBool flg = PETSC_FALSE;
  char      txt[64];

  PetscFunctionBeginUser;
  PetscCall(GetterBegin(cfg, key, DR_CFG_INT, &g));
  *v = 0;
  if (g.val) {
    char *end;
    long  x;
    errno = 0;
    x     = strtol(g.val, &end, 10);
    while (*end && isspace((unsigned char)*end)) end++;
    PetscCheck(*g.val && !*end && !errno && x >= PETSC_MIN_INT && x <= PETSC_MAX_INT, cfg->comm, DR_ERR_INPUT, "%s: %s = '%s' is not an integer", g.where, key, g.val);
    *v = (PetscInt)x;
  }
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsInt(g.opt, g.help, NULL, *v, v, &flg));
  PetscOptionsEnd();
  GetterFromOption(&g, flg);
  snprintf(txt, sizeof(txt), "%" PetscInt_FMT, *v);
  if (g.iny || g.byalias || flg) PetscCall(DRCfgCheckNumber(cfg->comm, g.where, key, g.sk, (PetscReal)*v, txt));
  if (set) *set = (PetscBool)(g.iny || g.byalias || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetBool(DRConfig cfg, const char *key, PetscBool *v, PetscBool *set)
{
  Getter    g;
  PetscBool flg = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(GetterBegin(cfg, key, DR_CFG_BOOL, &g));
  *v = PETSC_FALSE;
  if (g.val) {
    PetscBool t1, t2, t3, t4, f1, f2, f3, f4;
    PetscCall(PetscStrcasecmp(g.val, "true", &t1));
    PetscCall(PetscStrcasecmp(g.val, "yes", &t2));
    PetscCall(PetscStrcasecmp(g.val, "on", &t3));
    PetscCall(PetscStrcasecmp(g.val, "1", &t4));
    PetscCall(PetscStrcasecmp(g.val, "false", &f1));
    PetscCall(PetscStrcasecmp(g.val, "no", &f2));
    PetscCall(PetscStrcasecmp(g.val, "off", &f3));
    PetscCall(PetscStrcasecmp(g.val, "0", &f4));
    PetscCheck(t1 || t2 || t3 || t4 || f1 || f2 || f3 || f4, cfg->comm, DR_ERR_INPUT, "%s: %s = '%s' is not true or false", g.where, key, g.val);
    *v = (PetscBool)(t1 || t2 || t3 || t4);
  }
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsBool(g.opt, g.help, NULL, *v, v, &flg));
  PetscOptionsEnd();
  if (set) *set = (PetscBool)(g.iny || g.byalias || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetString(DRConfig cfg, const char *key, char *buf, size_t len, PetscBool *set)
{
  Getter    g;
  PetscBool flg = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(GetterBegin(cfg, key, DR_CFG_STRING, &g));
  PetscCall(PetscStrncpy(buf, g.val ? g.val : "", len));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsString(g.opt, g.help, NULL, buf, buf, len, &flg));
  PetscOptionsEnd();
  GetterFromOption(&g, flg);
  if (g.iny || g.byalias || flg) PetscCall(DRCfgCheckString(cfg->comm, g.where, key, g.sk, buf));
  if (set) *set = (PetscBool)(g.iny || g.byalias || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetRealArray(DRConfig cfg, const char *key, PetscReal v[], PetscInt *n, PetscBool *set)
{
  Getter    g;
  PetscBool flg = PETSC_FALSE;
  PetscInt  cap = *n, cnt = 0;

  PetscFunctionBeginUser;
  PetscCall(GetterBegin(cfg, key, DR_CFG_LIST, &g));
  if (g.val && *g.val) {
    char *copy = strdup(g.val), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      PetscCheck(cnt < cap, cfg->comm, DR_ERR_INPUT, "%s: %s has more than %" PetscInt_FMT " values", g.where, key, cap);
      PetscCall(ParseReal(cfg, key, g.where, tok, &v[cnt]));
      cnt++;
    }
    free(copy);
  }
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  {
    PetscInt m = cap;
    PetscCall(PetscOptionsRealArray(g.opt, g.help, NULL, v, &m, &flg));
    if (flg) cnt = m;
  }
  PetscOptionsEnd();
  GetterFromOption(&g, flg);
  for (PetscInt i = 0; i < cnt && (g.iny || g.byalias || flg); i++) {
    char txt[64];
    snprintf(txt, sizeof(txt), "%g", (double)v[i]);
    PetscCall(DRCfgCheckNumber(cfg->comm, g.where, key, g.sk, v[i], txt));
  }
  *n = cnt;
  if (set) *set = (PetscBool)(g.iny || g.byalias || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetListLength(DRConfig cfg, const char *key, PetscInt *n)
{
  Leaf *l;

  PetscFunctionBeginUser;
  l  = FindLeaf(cfg, key);
  *n = l ? (PetscInt)atoi(l->value) : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
