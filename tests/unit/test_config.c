/* Job-file parsing: values, defaults, command-line overrides, lists of maps,
 * and the one-line errors for unknown keys, bad values and bad YAML; the
 * schema's ranges and allowed strings (from the file and the command line)
 * and deprecated keys (replaced_by), each message checked word for word. */
#include "drtest.h"
#include <dynred/config.h>
#include <dynred/model.h>
#include <string.h>

static const DRConfigKey keys[] = {
  {"job", DR_CFG_STRING, "modal", "job", NULL, NULL, NULL},
  {"output", DR_CFG_STRING, "out.h5", "output", NULL, NULL, NULL},
  {"verify", DR_CFG_BOOL, "false", "verify", NULL, NULL, NULL},
  {"modal.nmodes", DR_CFG_INT, "20", "modes", NULL, NULL, NULL},
  {"modal.fmax", DR_CFG_REAL, "0", "fmax", NULL, NULL, NULL},
  {"gmp.theta", DR_CFG_LIST, "", "grid", NULL, NULL, NULL},
  {"t.fmax", DR_CFG_REAL, "100", "band", "0..1e6", "Hz", NULL},
  {"t.parts", DR_CFG_INT, "2", "parts", "1..64", NULL, NULL},
  {"t.tol", DR_CFG_REAL, NULL, "tolerance", "..1", NULL, NULL},
  {"t.method", DR_CFG_STRING, "cb", "method", "cb|mac|free", NULL, NULL},
  {"t.grid", DR_CFG_LIST, "", "grid", "0..", "rad", NULL},
  {"t.old_parts", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "t.parts"},
  {"t.comps[].n", DR_CFG_INT, "1", "n", "1..", NULL, NULL},
  {"t.comps[].old_n", DR_CFG_INT, NULL, "deprecated", NULL, NULL, "t.comps[].n"},
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

/* Everything printed to stderr (the warnings), for exact checks. */
static char stderr_text[4096];
static PetscErrorCode (*vfprintf_orig)(FILE *, const char[], va_list);
static PetscErrorCode CaptureVFPrintf(FILE *fd, const char fmt[], va_list ap)
{
  if (fd != PETSC_STDERR) return vfprintf_orig(fd, fmt, ap);
  size_t l = strlen(stderr_text);
  vsnprintf(stderr_text + l, sizeof(stderr_text) - l, fmt, ap);
  return PETSC_SUCCESS;
}

/* The one-line message of the last error, as the driver prints it. */
static const char *LastMessage(PetscErrorCode ierr)
{
  char *spec = NULL;
  (void)PetscErrorMessage(ierr, NULL, &spec);
  return spec ? spec : "";
}

#define EXPECT_ERROR(ierr, msg)                                                                           \
  DRTEST_TRUE((ierr) == DR_ERR_INPUT && !strcmp(LastMessage(ierr), (msg)), "error '%s' (got '%s')", (msg), LastMessage(ierr))

/* A config from text (loads without error). */
static PetscErrorCode Load(const char *origin, const char *text, DRConfig *cfg)
{
  PetscFunctionBeginUser;
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, cfg));
  PetscCall(DRConfigLoadString(*cfg, origin, text));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Ranges, allowed strings and deprecated keys. */
static PetscErrorCode TestSchema(void)
{
  DRConfig       c;
  PetscErrorCode ierr;
  PetscInt       n;
  PetscReal      r, v[4];
  PetscBool      set;
  char           s[64];

  PetscFunctionBeginUser;
  /* in range: accepted; defaults are not checked when unset */
  PetscCall(Load("ok.yaml", "t:\n  fmax: 1e6\n  parts: 1\n  method: mac\n", &c));
  PetscCall(DRConfigGetReal(c, "t.fmax", &r, NULL));
  DRTEST_TRUE(r == 1e6, "t.fmax = 1e6 is inside 0..1e6");
  PetscCall(DRConfigGetString(c, "t.method", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "mac"), "t.method = mac is allowed");
  PetscCall(DRConfigGetReal(c, "t.tol", &r, &set));
  DRTEST_TRUE(!set && r == 0, "t.tol unset: no value, no check");
  PetscCall(DRConfigDestroy(&c));

  /* out of range in the file */
  PetscCall(Load("r.yaml", "t:\n  fmax: -5\n  parts: 65\n  tol: 2\n  method: foo\n  grid: [0, 1, -2]\n", &c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DRConfigGetReal(c, "t.fmax", &r, NULL);
  EXPECT_ERROR(ierr, "r.yaml:2: t.fmax = -5, expected 0..1e6 Hz");
  ierr = DRConfigGetInt(c, "t.parts", &n, NULL);
  EXPECT_ERROR(ierr, "r.yaml:3: t.parts = 65, expected 1..64");
  ierr = DRConfigGetReal(c, "t.tol", &r, NULL);
  EXPECT_ERROR(ierr, "r.yaml:4: t.tol = 2, expected <= 1");
  ierr = DRConfigGetString(c, "t.method", s, sizeof(s), NULL);
  EXPECT_ERROR(ierr, "r.yaml:5: t.method = 'foo', expected cb, mac or free");
  n    = 4;
  ierr = DRConfigGetRealArray(c, "t.grid", v, &n, NULL);
  EXPECT_ERROR(ierr, "r.yaml:6: t.grid = -2, expected >= 0 rad");
  PetscCall(PetscPopErrorHandler());
  PetscCall(DRConfigDestroy(&c));

  /* out of range on the command line (the file's value was fine) */
  PetscCall(Load("ok.yaml", "t:\n  parts: 3\n", &c));
  PetscCall(PetscOptionsSetValue(NULL, "-t_parts", "0"));
  PetscCall(PetscOptionsSetValue(NULL, "-t_method", "bar"));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DRConfigGetInt(c, "t.parts", &n, NULL);
  EXPECT_ERROR(ierr, "command line -t_parts: t.parts = 0, expected 1..64");
  ierr = DRConfigGetString(c, "t.method", s, sizeof(s), NULL);
  EXPECT_ERROR(ierr, "command line -t_method: t.method = 'bar', expected cb, mac or free");
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscOptionsClearValue(NULL, "-t_parts"));
  PetscCall(PetscOptionsClearValue(NULL, "-t_method"));
  PetscCall(DRConfigDestroy(&c));

  /* a deprecated key in the file: read as its replacement, one warning */
  stderr_text[0] = 0;
  PetscCall(Load("a.yaml", "t:\n  old_parts: 5\n  comps:\n    - n: 2\n    - old_n: 7\n", &c));
  DRTEST_TRUE(!strcmp(stderr_text, "dynred: warning: a.yaml:2: 't.old_parts' is deprecated, read as 't.parts'\n"
                                   "dynred: warning: a.yaml:5: 't.comps[1].old_n' is deprecated, read as 't.comps[1].n'\n"),
              "deprecation warnings name both keys (got '%s')", stderr_text);
  PetscCall(DRConfigGetInt(c, "t.parts", &n, &set));
  DRTEST_TRUE(n == 5 && set, "t.old_parts: 5 is read as t.parts (%d)", (int)n);
  PetscCall(DRConfigGetInt(c, "t.comps[1].n", &n, NULL));
  DRTEST_TRUE(n == 7, "t.comps[1].old_n: 7 is read as t.comps[1].n (%d)", (int)n);
  PetscCall(DRConfigWhere(c, "t.parts", s, sizeof(s)));
  DRTEST_TRUE(!strcmp(s, "a.yaml:2"), "location of the deprecated key (%s)", s);
  PetscCall(DRConfigDestroy(&c));

  /* both names in the file: an error */
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DRConfigLoadString(c, "b.yaml", "t:\n  parts: 2\n  old_parts: 3\n");
  EXPECT_ERROR(ierr, "b.yaml:3: both 't.old_parts' and 't.parts' (line 2) given; expected only 't.parts' ('t.old_parts' is its deprecated name)");
  PetscCall(PetscPopErrorHandler());
  PetscCall(DRConfigDestroy(&c));

  /* a deprecated option: read as the new one (over the file), one warning;
   * its value is range-checked under the new key */
  PetscCall(Load("ok.yaml", "t:\n  parts: 3\n", &c));
  stderr_text[0] = 0;
  PetscCall(PetscOptionsSetValue(NULL, "-t_old_parts", "9"));
  PetscCall(DRConfigGetInt(c, "t.parts", &n, &set));
  DRTEST_TRUE(n == 9 && set, "-t_old_parts 9 is read as t.parts (%d)", (int)n);
  PetscCall(DRConfigGetInt(c, "t.parts", &n, &set));
  DRTEST_TRUE(!strcmp(stderr_text, "dynred: warning: option -t_old_parts is deprecated, read as -t_parts (t.parts)\n"), "one warning naming both options (got '%s')", stderr_text);
  PetscCall(PetscOptionsSetValue(NULL, "-t_old_parts", "99"));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DRConfigGetInt(c, "t.parts", &n, NULL);
  EXPECT_ERROR(ierr, "command line -t_old_parts: t.parts = 99, expected 1..64");
  PetscCall(PetscOptionsSetValue(NULL, "-t_parts", "4"));
  ierr = DRConfigGetInt(c, "t.parts", &n, NULL);
  EXPECT_ERROR(ierr, "command line: both -t_old_parts and -t_parts given; expected only -t_parts (-t_old_parts is its deprecated name)");
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscOptionsClearValue(NULL, "-t_old_parts"));
  PetscCall(PetscOptionsClearValue(NULL, "-t_parts"));
  PetscCall(DRConfigDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char job[] = "job: cms\n"
                          "output: out/plate.h5\n"
                          "model:\n"
                          "  builtin: plate\n"
                          "  plate: {lx: 2.0, nx: 10, clamp: x0}\n"
                          "  cut: {axis: y, parts: 4}\n"
                          "components:\n"
                          "  - name: base\n"
                          "    format: calculix\n"
                          "    path: data/base\n"
                          "  - name: arm\n"
                          "    K: data/arm_K.mtx\n"
                          "modal:\n"
                          "  nmodes: 30\n"
                          "gmp:\n"
                          "  theta: [0, 0.5, 1.5]\n"
                          "verify: yes\n";

/* Load text and return the error code; the message goes to stderr. */
static PetscErrorCode TryLoad(const char *text, PetscErrorCode *ierr)
{
  DRConfig cfg;

  PetscFunctionBeginUser;
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &cfg));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = DRConfigLoadString(cfg, "bad.yaml", text);
  PetscCall(PetscPopErrorHandler());
  PetscCall(DRConfigDestroy(&cfg));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DRConfig  cfg;
  char      s[256];
  PetscInt  n;
  PetscReal r, th[8];
  PetscBool b, set;
  PetscErrorCode ierr;

  PetscCall(DRInitialize(&argc, &argv, NULL));
  vfprintf_orig = PetscVFPrintf;
  PetscVFPrintf = CaptureVFPrintf;
  PetscCall(DRConfigRegisterKeys(keys));
  PetscCall(DRModelRegisterKeys());
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &cfg));
  PetscCall(DRConfigLoadString(cfg, "job.yaml", job));

  PetscCall(DRConfigGetString(cfg, "job", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "cms"), "job = cms (%s)", s);
  PetscCall(DRConfigGetReal(cfg, "model.plate.lx", &r, &set));
  /* tol: exact: a decimal literal parsed by strtod */
  DRTEST_CLOSE(r, 2.0, 0, 0, "flow-map value model.plate.lx");
  PetscCall(DRConfigGetReal(cfg, "model.plate.ly", &r, &set));
  /* tol: exact: a decimal literal parsed by strtod */
  DRTEST_CLOSE(r, 0.5, 0, 0, "schema default model.plate.ly");
  DRTEST_TRUE(!set, "default is reported as not set");
  PetscCall(DRConfigGetInt(cfg, "model.cut.parts", &n, NULL));
  DRTEST_TRUE(n == 4, "model.cut.parts = 4 (%d)", (int)n);
  PetscCall(DRConfigGetListLength(cfg, "components", &n));
  DRTEST_TRUE(n == 2, "two components (%d)", (int)n);
  PetscCall(DRConfigGetString(cfg, "components[1].K", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "data/arm_K.mtx"), "components[1].K (%s)", s);
  PetscCall(DRConfigGetString(cfg, "components[1].format", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "mtx"), "components[1].format default mtx (%s)", s);
  PetscCall(DRConfigGetBool(cfg, "verify", &b, NULL));
  DRTEST_TRUE(b, "verify: yes is true");
  n = 8;
  PetscCall(DRConfigGetRealArray(cfg, "gmp.theta", th, &n, NULL));
  DRTEST_TRUE(n == 3 && th[2] == 1.5, "list gmp.theta has 3 values, last 1.5");
  PetscCall(DRConfigWhere(cfg, "modal.nmodes", s, sizeof(s)));
  DRTEST_TRUE(!strcmp(s, "job.yaml:14"), "location of modal.nmodes is job.yaml:14 (%s)", s);

  /* command-line overrides, PETSc style */
  PetscCall(PetscOptionsSetValue(NULL, "-modal_nmodes", "40"));
  PetscCall(PetscOptionsSetValue(NULL, "-components_0_path", "other/base"));
  PetscCall(PetscOptionsSetValue(NULL, "-output", "x.h5"));
  PetscCall(DRConfigGetInt(cfg, "modal.nmodes", &n, NULL));
  DRTEST_TRUE(n == 40, "-modal_nmodes 40 overrides the file (%d)", (int)n);
  PetscCall(DRConfigGetString(cfg, "components[0].path", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "other/base"), "-components_0_path overrides (%s)", s);
  PetscCall(DRConfigGetString(cfg, "output", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "x.h5"), "-output overrides (%s)", s);
  PetscCall(DRConfigDestroy(&cfg));

  /* errors: each is bad input (DR_ERR_INPUT), message checked by e2e tests */
  PetscCall(TryLoad("job: modal\nmodal:\n  nmodez: 3\n", &ierr));
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "unknown key is an input error");
  PetscCall(TryLoad("job: modal\nbogus: 1\n", &ierr));
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "unknown top-level key is an input error");
  PetscCall(TryLoad("job: modal\nmodal: {nmodes: 3\n", &ierr));
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "malformed YAML is an input error");
  PetscCall(TryLoad("job: modal\njob: cms\n", &ierr));
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "duplicate key is an input error");
  {
    DRConfig c2;
    PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &c2));
    PetscCall(DRConfigLoadString(c2, "v.yaml", "modal:\n  fmax: abc\n"));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = DRConfigGetReal(c2, "modal.fmax", &r, NULL);
    PetscCall(PetscPopErrorHandler());
    DRTEST_TRUE(ierr == DR_ERR_INPUT, "non-numeric value is an input error");
    PetscCall(DRConfigDestroy(&c2));
  }
  PetscCall(TestSchema());
  DRTEST_END();
}
