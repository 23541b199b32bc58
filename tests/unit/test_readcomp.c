static const char help[] = "Read one component and print its size and norms.\n"
                           "  test_readcomp mtx K M D|- DOFS [options]\n"
                           "  test_readcomp calculix|petsc|hdf5 PATH [options]\n"
                           "  test_readcomp abaqus|ansys K M D|- DOFS|- [options]\n"
                           "  test_readcomp dmig PATH [KNAME MNAME [DNAME]] [options] (default KAAX MAAX, BAAX if present)\n"
                           "Checks, each optional:\n"
                           "  -n_ref N            number of DOFs\n"
                           "  -mass_ref MASS      translational mass in each of directions 1..3 (rel. 1e-10)\n"
                           "  -nnodes_ref N       nodes with coordinates\n"
                           "  -ncells_ref N       cells\n"
                           "  -celltype_ref NAME  XDMF cell type name\n"
                           "  -set_ref NAME:N     node set NAME has N nodes\n"
                           "  -dump PREFIX        write K, M (D) as PETSc binary PREFIX_K.bin, PREFIX_M.bin\n"
                           "                      (PREFIX_D.bin) and the labels as PREFIX.dof, for\n"
                           "                      tests/e2e/readcomp_check.py to compare with the input files\n";

/* The driver of the bad-input tests (tests/expect.sh checks the one-line
 * error) and of the CalculiX test, which compares with the deck. */
#include "drtest.h"
#include <stdlib.h>
#include <string.h>

/* The argument vector given to PETSc: PetscInitialize keeps a pointer to it
 * until PetscFinalize, so it lives until exit (a static, not a leak). */
static char **pargv;

/* The operators as read (PETSc binary, any rank count) and the labels in
 * the component's order, for an independent parse of the input files. */
static PetscErrorCode Dump(DRComponent c, const char *prefix)
{
  const char    *nm[3] = {"K", "M", "D"};
  Mat            A[3];
  PetscInt       n;
  const DRLabel *labels;
  char           path[PETSC_MAX_PATH_LEN];
  PetscMPIInt    rank;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetOperators(c, &A[0], &A[1], &A[2]));
  for (int k = 0; k < 3; k++) {
    PetscViewer v;
    if (!A[k]) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s_%s.bin", prefix, nm[k]));
    PetscCall(PetscViewerBinaryOpen(PETSC_COMM_WORLD, path, FILE_MODE_WRITE, &v));
    PetscCall(MatView(A[k], v));
    PetscCall(PetscViewerDestroy(&v));
  }
  PetscCall(DRComponentGetLabels(c, &n, &labels));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (!rank) {
    FILE *fp;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s.dof", prefix));
    fp = fopen(path, "w");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
    for (PetscInt i = 0; i < n; i++) fprintf(fp, "%lld.%d\n", (long long)DRLabelNode(labels[i]), (int)DRLabelDir(labels[i]));
    fclose(fp);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DRComponent c;
  MPI_Comm    comm;
  const char *pos[8] = {NULL};
  int         npos = 0, pargc = 1;
  PetscReal   nk, nm, nd = 0, mass[3];
  PetscInt    ref;
  PetscReal   mref;
  char        buf[256];
  PetscBool   flg;
  Mat         K, M, D;
  PetscInt    n, nnodes, ncells, nsets;
  DRCellType  celltype;
  const char *source;

  /* Positional arguments come first; '-' alone means "none". */
  pargv    = (char **)malloc(sizeof(char *) * (size_t)(argc + 1));
  pargv[0] = argv[0];
  for (int i = 1; i < argc; i++) {
    if (npos < 8 && pargc == 1 && (argv[i][0] != '-' || !argv[i][1])) pos[npos++] = argv[i];
    else pargv[pargc++] = argv[i];
  }
  pargv[pargc] = NULL;
  PetscCall(DRInitialize(&pargc, &pargv, help));
  comm = PETSC_COMM_WORLD;
  PetscCheck(npos >= 2, comm, PETSC_ERR_ARG_WRONG, "usage: test_readcomp FORMAT PATH [M D DOFS] [options]");
  if (!strcmp(pos[0], "mtx")) {
    PetscCheck(npos == 5, comm, PETSC_ERR_ARG_WRONG, "usage: test_readcomp mtx K M D|- DOFS");
    PetscCall(DRComponentReadMTX(comm, "test", pos[1], pos[2], strcmp(pos[3], "-") ? pos[3] : NULL, pos[4], &c));
  } else if (!strcmp(pos[0], "abaqus") || !strcmp(pos[0], "ansys")) {
    PetscCheck(npos == 5, comm, PETSC_ERR_ARG_WRONG, "usage: test_readcomp abaqus|ansys K M D|- DOFS|-");
    if (pos[0][1] == 'b') PetscCall(DRComponentReadAbaqus(comm, "test", pos[1], pos[2], strcmp(pos[3], "-") ? pos[3] : NULL, strcmp(pos[4], "-") ? pos[4] : NULL, &c));
    else PetscCall(DRComponentReadAnsys(comm, "test", pos[1], pos[2], strcmp(pos[3], "-") ? pos[3] : NULL, pos[4], &c));
  } else if (!strcmp(pos[0], "calculix")) PetscCall(DRComponentReadCalculiX(comm, "test", pos[1], &c));
  else if (!strcmp(pos[0], "petsc")) PetscCall(DRComponentReadPETSc(comm, "test", pos[1], &c));
  else if (!strcmp(pos[0], "hdf5")) PetscCall(DRComponentReadHDF5(comm, "test", pos[1], &c));
  else if (!strcmp(pos[0], "dmig")) PetscCall(DRComponentReadDMIG(comm, "test", pos[1], npos > 2 ? pos[2] : "KAAX", npos > 3 ? pos[3] : "MAAX", npos > 4 ? pos[4] : "BAAX", npos > 4 ? PETSC_TRUE : PETSC_FALSE, &c));
  else SETERRQ(comm, PETSC_ERR_ARG_WRONG, "unknown format '%s', expected mtx, calculix, petsc, hdf5, abaqus, ansys or dmig", pos[0]);

  PetscCall(DRComponentGetOperators(c, &K, &M, &D));
  PetscCall(DRComponentGetSize(c, &n));
  PetscCall(DRComponentGetGeometry(c, &nnodes, NULL, NULL));
  PetscCall(DRComponentGetCells(c, &celltype, &ncells, NULL));
  PetscCall(DRComponentGetNodeSets(c, &nsets, NULL));
  PetscCall(DRComponentGetSource(c, &source));
  PetscCall(MatNorm(K, NORM_FROBENIUS, &nk));
  PetscCall(MatNorm(M, NORM_FROBENIUS, &nm));
  if (D) PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
  for (int d = 0; d < 3; d++) PetscCall(DRComponentTranslationalMass(c, d + 1, &mass[d]));
  PetscCall(PetscPrintf(comm, "%s: n = %d, ||K||_F = %.10g, ||M||_F = %.10g, ||D||_F = %.10g\n", source, (int)n, (double)nk, (double)nm, (double)nd));
  PetscCall(PetscPrintf(comm, "mass in x, y, z: %.12g %.12g %.12g; %d nodes, %d %s cells, %d node sets\n", (double)mass[0], (double)mass[1], (double)mass[2], (int)nnodes, (int)ncells, DRCellName(celltype), (int)nsets));

  PetscCall(PetscOptionsGetString(NULL, NULL, "-dump", buf, sizeof(buf), &flg));
  if (flg) PetscCall(Dump(c, buf));

  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n_ref", &ref, &flg));
  if (flg) DRTEST_TRUE(n == ref, "n = %d, expected %d", (int)n, (int)ref);
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mass_ref", &mref, &flg));
  if (flg)
    /* tol: CalculiX writes 14 significant digits (5e-14 relative per entry); t^T M t sums <= 1e3 of them: <= 5e-11; the decks' masses are exact decimals */
    for (int d = 0; d < 3; d++) DRTEST_CLOSE(mass[d], mref, 1e-10, 0, "translational mass in direction %d", d + 1);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nnodes_ref", &ref, &flg));
  if (flg) DRTEST_TRUE(nnodes == ref, "%d nodes, expected %d", (int)nnodes, (int)ref);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncells_ref", &ref, &flg));
  if (flg) DRTEST_TRUE(ncells == ref, "%d cells, expected %d", (int)ncells, (int)ref);
  PetscCall(PetscOptionsGetString(NULL, NULL, "-celltype_ref", buf, sizeof(buf), &flg));
  if (flg) DRTEST_TRUE(!strcmp(buf, DRCellName(celltype)), "cell type %s, expected %s", DRCellName(celltype), buf);
  PetscCall(PetscOptionsGetString(NULL, NULL, "-set_ref", buf, sizeof(buf), &flg));
  if (flg) {
    char      *colon = strrchr(buf, ':');
    DRNodeSet *s     = NULL;
    PetscCheck(colon, comm, PETSC_ERR_ARG_WRONG, "-set_ref NAME:N");
    *colon = '\0';
    PetscCall(DRComponentGetNodeSet(c, buf, &s));
    DRTEST_TRUE(s && s->n == atoi(colon + 1), "node set %s has %d nodes, expected %s", buf, s ? (int)s->n : -1, colon + 1);
  }
  PetscCall(DRComponentDestroy(&c));
  DRTEST_END();
}
