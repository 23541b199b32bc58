/* Job configuration: YAML (libyaml) + PETSc options, against one schema. */
#include <dynred/config.h>
#include <yaml.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char  path[256]; /* components[1].name */
  char  norm[256]; /* components[].name  */
  char *value;     /* scalar text, or a list joined by ',' */
  int   line;
} Leaf;

struct _p_DRConfig {
  MPI_Comm comm;
  char     origin[PETSC_MAX_PATH_LEN];
  char    *text;
  Leaf    *leaves;
  int      nleaves, cap;
};

#define MAX_TABLES 32
static const DRConfigKey *tables[MAX_TABLES];
static int                ntables = 0;

PetscErrorCode DRConfigRegisterKeys(const DRConfigKey keys[])
{
  PetscFunctionBeginUser;
  for (int t = 0; t < ntables; t++)
    if (tables[t] == keys) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(ntables < MAX_TABLES, PETSC_COMM_SELF, PETSC_ERR_PLIB, "too many schema tables");
  tables[ntables++] = keys;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const DRConfigKey *SchemaFind(const char *norm)
{
  for (int t = 0; t < ntables; t++)
    for (const DRConfigKey *k = tables[t]; k->key; k++)
      if (!strcmp(k->key, norm)) return k;
  return NULL;
}

/* Is `norm` a section (a proper prefix of some key followed by '.' or '[')? */
static PetscBool SchemaIsSection(const char *norm)
{
  size_t l = strlen(norm);
  for (int t = 0; t < ntables; t++)
    for (const DRConfigKey *k = tables[t]; k->key; k++)
      if (!strncmp(k->key, norm, l) && (k->key[l] == '.' || k->key[l] == '[')) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* components[1].name -> components[].name */
static void Normalize(const char *path, char *norm, size_t len)
{
  size_t j = 0;
  int    inbr = 0;
  for (const char *p = path; *p && j + 1 < len; p++) {
    if (*p == '[') inbr = 1;
    else if (*p == ']') inbr = 0;
    else if (inbr) continue;
    norm[j++] = *p;
  }
  norm[j] = 0;
}

/* components[1].name -> -components_1_name */
static void OptionName(const char *path, char *opt, size_t len)
{
  size_t j = 0;
  opt[j++] = '-';
  for (const char *p = path; *p && j + 1 < len; p++) {
    if (*p == ']') continue;
    opt[j++] = (*p == '.' || *p == '[') ? '_' : *p;
  }
  opt[j] = 0;
}

static const char *TypeName(DRConfigType t)
{
  switch (t) {
  case DR_CFG_STRING: return "string";
  case DR_CFG_REAL: return "real";
  case DR_CFG_INT: return "int";
  case DR_CFG_BOOL: return "bool";
  case DR_CFG_LIST: return "list";
  }
  return "?";
}

PetscErrorCode DRConfigPrintSchema(MPI_Comm comm)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(comm, "Job-file keys (YAML) and their command-line options; precedence: option > file > default\n"));
  for (int t = 0; t < ntables; t++)
    for (const DRConfigKey *k = tables[t]; k->key; k++) {
      char opt[300];
      OptionName(k->key, opt, sizeof(opt));
      PetscCall(PetscPrintf(comm, "  %-28s %-30s <%s> %s (%s)\n", k->key, opt, k->def ? k->def : "", k->help, TypeName(k->type)));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigCreate(MPI_Comm comm, DRConfig *cfg)
{
  PetscFunctionBeginUser;
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

static PetscErrorCode AddLeaf(DRConfig cfg, const char *path, const char *value, int line)
{
  Leaf *l;

  PetscFunctionBeginUser;
  for (int i = 0; i < cfg->nleaves; i++)
    PetscCheck(strcmp(cfg->leaves[i].path, path), cfg->comm, DR_ERR_INPUT, "%s:%d: key '%s' given twice (first on line %d)", cfg->origin, line, path, cfg->leaves[i].line);
  if (cfg->nleaves == cfg->cap) {
    cfg->cap    = cfg->cap ? 2 * cfg->cap : 64;
    cfg->leaves = (Leaf *)realloc(cfg->leaves, (size_t)cfg->cap * sizeof(Leaf));
    PetscCheck(cfg->leaves, PETSC_COMM_SELF, PETSC_ERR_MEM, "out of memory");
  }
  l = &cfg->leaves[cfg->nleaves++];
  PetscCall(PetscStrncpy(l->path, path, sizeof(l->path)));
  Normalize(path, l->norm, sizeof(l->norm));
  l->value = strdup(value);
  l->line  = line;
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
  for (int t = 0; t < ntables; t++)
    for (const DRConfigKey *k = tables[t]; k->key; k++) {
      const char *rest;
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
    Normalize(path, norm, sizeof(norm));
    if (v->type == YAML_MAPPING_NODE) {
      if (!SchemaIsSection(norm)) PetscCall(UnknownKey(cfg, path, norm, line));
      PetscCall(Walk(cfg, doc, v, path));
    } else if (v->type == YAML_SEQUENCE_NODE) {
      yaml_node_item_t *it = v->data.sequence.items.start;
      int               n  = (int)(v->data.sequence.items.top - it);
      yaml_node_t      *first = n ? yaml_document_get_node(doc, it[0]) : NULL;
      if (first && first->type == YAML_MAPPING_NODE) {
        char secn[300], cnt[32];
        snprintf(secn, sizeof(secn), "%s[]", norm);
        if (!SchemaIsSection(secn)) PetscCall(UnknownKey(cfg, path, norm, line));
        for (int i = 0; i < n; i++) {
          char         ip[300];
          yaml_node_t *item = yaml_document_get_node(doc, it[i]);
          snprintf(ip, sizeof(ip), "%s[%d]", path, i);
          PetscCall(Walk(cfg, doc, item, ip));
        }
        snprintf(cnt, sizeof(cnt), "%d", n);
        PetscCall(AddLeaf(cfg, path, cnt, line)); /* list length */
      } else {
        /* list of scalars: joined by ',' */
        size_t total = 1;
        char  *joined;
        if (!SchemaFind(norm)) PetscCall(UnknownKey(cfg, path, norm, line));
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
        PetscCall(AddLeaf(cfg, path, joined, line));
        free(joined);
      }
    } else {
      if (!SchemaFind(norm)) PetscCall(UnknownKey(cfg, path, norm, line));
      PetscCall(AddLeaf(cfg, path, (char *)v->data.scalar.value, line));
    }
  }
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

/* The value before command-line override: YAML, else schema default. */
static PetscErrorCode Lookup(DRConfig cfg, const char *key, DRConfigType type, const DRConfigKey **sk, const char **val, PetscBool *inyaml)
{
  char  norm[256];
  Leaf *l;

  PetscFunctionBeginUser;
  Normalize(key, norm, sizeof(norm));
  *sk = SchemaFind(norm);
  PetscCheck(*sk, PETSC_COMM_SELF, PETSC_ERR_PLIB, "key '%s' is not in the schema (register it)", key);
  PetscCheck((*sk)->type == type, PETSC_COMM_SELF, PETSC_ERR_PLIB, "key '%s' is a %s, read as %s", key, TypeName((*sk)->type), TypeName(type));
  l       = FindLeaf(cfg, key);
  *inyaml = l ? PETSC_TRUE : PETSC_FALSE;
  *val    = l ? l->value : (*sk)->def;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ParseReal(DRConfig cfg, const char *key, const char *s, PetscReal *v)
{
  char *end;
  char  where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  errno = 0;
  *v    = strtod(s, &end);
  while (*end && isspace((unsigned char)*end)) end++;
  PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
  PetscCheck(*s && !*end && !errno && isfinite(*v), cfg->comm, DR_ERR_INPUT, "%s: %s = '%s' is not a number", where, key, s);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetReal(DRConfig cfg, const char *key, PetscReal *v, PetscBool *set)
{
  const DRConfigKey *sk;
  const char        *val;
  PetscBool          iny, flg = PETSC_FALSE;
  char               opt[300];

  PetscFunctionBeginUser;
  PetscCall(Lookup(cfg, key, DR_CFG_REAL, &sk, &val, &iny));
  *v = 0;
  if (val) PetscCall(ParseReal(cfg, key, val, v));
  OptionName(key, opt, sizeof(opt));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsReal(opt, sk->help, NULL, *v, v, &flg));
  PetscOptionsEnd();
  if (set) *set = (PetscBool)(iny || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetInt(DRConfig cfg, const char *key, PetscInt *v, PetscBool *set)
{
  const DRConfigKey *sk;
  const char        *val;
  PetscBool          iny, flg = PETSC_FALSE;
  char               opt[300], where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(Lookup(cfg, key, DR_CFG_INT, &sk, &val, &iny));
  *v = 0;
  if (val) {
    char *end;
    long  x;
    errno = 0;
    x     = strtol(val, &end, 10);
    while (*end && isspace((unsigned char)*end)) end++;
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCheck(*val && !*end && !errno && x >= PETSC_MIN_INT && x <= PETSC_MAX_INT, cfg->comm, DR_ERR_INPUT, "%s: %s = '%s' is not an integer", where, key, val);
    *v = (PetscInt)x;
  }
  OptionName(key, opt, sizeof(opt));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsInt(opt, sk->help, NULL, *v, v, &flg));
  PetscOptionsEnd();
  if (set) *set = (PetscBool)(iny || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetBool(DRConfig cfg, const char *key, PetscBool *v, PetscBool *set)
{
  const DRConfigKey *sk;
  const char        *val;
  PetscBool          iny, flg = PETSC_FALSE;
  char               opt[300], where[PETSC_MAX_PATH_LEN + 32];

  PetscFunctionBeginUser;
  PetscCall(Lookup(cfg, key, DR_CFG_BOOL, &sk, &val, &iny));
  *v = PETSC_FALSE;
  if (val) {
    PetscBool t1, t2, t3, t4, f1, f2, f3, f4;
    PetscCall(PetscStrcasecmp(val, "true", &t1));
    PetscCall(PetscStrcasecmp(val, "yes", &t2));
    PetscCall(PetscStrcasecmp(val, "on", &t3));
    PetscCall(PetscStrcasecmp(val, "1", &t4));
    PetscCall(PetscStrcasecmp(val, "false", &f1));
    PetscCall(PetscStrcasecmp(val, "no", &f2));
    PetscCall(PetscStrcasecmp(val, "off", &f3));
    PetscCall(PetscStrcasecmp(val, "0", &f4));
    PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
    PetscCheck(t1 || t2 || t3 || t4 || f1 || f2 || f3 || f4, cfg->comm, DR_ERR_INPUT, "%s: %s = '%s' is not true or false", where, key, val);
    *v = (PetscBool)(t1 || t2 || t3 || t4);
  }
  OptionName(key, opt, sizeof(opt));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsBool(opt, sk->help, NULL, *v, v, &flg));
  PetscOptionsEnd();
  if (set) *set = (PetscBool)(iny || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetString(DRConfig cfg, const char *key, char *buf, size_t len, PetscBool *set)
{
  const DRConfigKey *sk;
  const char        *val;
  PetscBool          iny, flg = PETSC_FALSE;
  char               opt[300];

  PetscFunctionBeginUser;
  PetscCall(Lookup(cfg, key, DR_CFG_STRING, &sk, &val, &iny));
  PetscCall(PetscStrncpy(buf, val ? val : "", len));
  OptionName(key, opt, sizeof(opt));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  PetscCall(PetscOptionsString(opt, sk->help, NULL, buf, buf, len, &flg));
  PetscOptionsEnd();
  if (set) *set = (PetscBool)(iny || flg);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRConfigGetRealArray(DRConfig cfg, const char *key, PetscReal v[], PetscInt *n, PetscBool *set)
{
  const DRConfigKey *sk;
  const char        *val;
  PetscBool          iny, flg = PETSC_FALSE;
  PetscInt           cap = *n, cnt = 0;
  char               opt[300];

  PetscFunctionBeginUser;
  PetscCall(Lookup(cfg, key, DR_CFG_LIST, &sk, &val, &iny));
  if (val && *val) {
    char *copy = strdup(val), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      char where[PETSC_MAX_PATH_LEN + 32];
      PetscCall(DRConfigWhere(cfg, key, where, sizeof(where)));
      PetscCheck(cnt < cap, cfg->comm, DR_ERR_INPUT, "%s: %s has more than %" PetscInt_FMT " values", where, key, cap);
      PetscCall(ParseReal(cfg, key, tok, &v[cnt]));
      cnt++;
    }
    free(copy);
  }
  OptionName(key, opt, sizeof(opt));
  PetscOptionsBegin(cfg->comm, NULL, key, NULL); /* title per key: PETSc prints help once per title */
  {
    PetscInt m = cap;
    PetscCall(PetscOptionsRealArray(opt, sk->help, NULL, v, &m, &flg));
    if (flg) cnt = m;
  }
  PetscOptionsEnd();
  *n = cnt;
  if (set) *set = (PetscBool)(iny || flg);
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
