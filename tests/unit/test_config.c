/* Job-file parsing: values, defaults, command-line overrides, lists of maps,
 * and the one-line errors for unknown keys, bad values and bad YAML. */
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
  {NULL, 0, NULL, NULL, NULL, NULL, NULL},
};

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
  PetscCall(DRConfigRegisterKeys(keys));
  PetscCall(DRModelRegisterKeys());
  PetscCall(DRConfigCreate(PETSC_COMM_WORLD, &cfg));
  PetscCall(DRConfigLoadString(cfg, "job.yaml", job));

  PetscCall(DRConfigGetString(cfg, "job", s, sizeof(s), NULL));
  DRTEST_TRUE(!strcmp(s, "cms"), "job = cms (%s)", s);
  PetscCall(DRConfigGetReal(cfg, "model.plate.lx", &r, &set));
  DRTEST_CLOSE(r, 2.0, 0, 0, "flow-map value model.plate.lx");
  PetscCall(DRConfigGetReal(cfg, "model.plate.ly", &r, &set));
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
  DRTEST_END();
}
