static const char help[] = "Round trip of a component through every file format of io.h.\n"
                           "  -tmp DIR      scratch directory (default .)\n"
                           "  -dr_io_chunk  entries per streamed chunk (small values exercise the exchange)\n";

/* A 12-DOF spring chain (4 nodes x 3 directions, labels in a scrambled
 * order) with a 2-hexahedron mesh and two node sets is written in every
 * format and read back; matrices must come back bit for bit (%.17g text
 * round-trips doubles), labels, geometry and sets unchanged.  A CalculiX deck
 * written next to the matrices (lower-case keywords, *INCLUDE, continuation
 * lines, GENERATE, set references) must give the same geometry. */
#include "drtest.h"
#include <stdio.h>
#include <string.h>

#define NDOF 12

/* The dense matrices, identical on every rank. */
static void ChainMatrices(PetscReal K[NDOF][NDOF], PetscReal M[NDOF][NDOF])
{
  const PetscReal k[3] = {1.0 / 3.0, 2.718281828459045, 1e6 / 7.0};
  memset(K, 0, sizeof(PetscReal) * NDOF * NDOF);
  memset(M, 0, sizeof(PetscReal) * NDOF * NDOF);
  for (int d = 0; d < 3; d++) {
    K[d][d] += 5 * k[d]; /* ground spring at the first node */
    for (int a = 0; a < 3; a++) {
      int       i = 3 * a + d, j = 3 * (a + 1) + d;
      PetscReal s = k[d] * (1 + a / 3.0);
      K[i][i] += s;
      K[j][j] += s;
      K[i][j] -= s;
      K[j][i] -= s;
      M[i][j] = M[j][i] = 0.1 / (a + 7);
    }
  }
  for (int a = 0; a < 4; a++) {
    K[3 * a][3 * a + 1] = K[3 * a + 1][3 * a] = 0.1 * k[0] / 3;
    for (int d = 0; d < 3; d++) M[3 * a + d][3 * a + d] = 1.0 + a / 9.0;
  }
}

static PetscErrorCode FillMat(MPI_Comm comm, PetscReal A[NDOF][NDOF], Mat *out)
{
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, PETSC_DECIDE, PETSC_DECIDE, NDOF, NDOF, NDOF, NULL, NDOF, NULL, out));
  PetscCall(MatGetOwnershipRange(*out, &rs, &re));
  for (PetscInt i = rs; i < re; i++)
    for (PetscInt j = 0; j < NDOF; j++)
      if (A[i][j] != 0) PetscCall(MatSetValue(*out, i, j, A[i][j], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*out, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*out, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const PetscInt  chain_nodes[4] = {12, 9, 11, 10};
static const PetscReal box_xyz[12][3] = {
  {0, 0, 0},
  {1, 0, 0},
  {1, 1, 0},
  {0, 1, 0},
  {0, 0, 1},
  {1, 0, 1},
  {1, 1, 1},
  {0, 1, 1},
  {2, 0, 0},
  {2, 1, 0},
  {2, 0, 1},
  {2, 1, 1}
};
static const PetscInt box_cells[16] = {1, 2, 3, 4, 5, 6, 7, 8, 2, 9, 10, 3, 6, 11, 12, 7};

static PetscErrorCode BuildChain(MPI_Comm comm, DRComponent *c)
{
  DRComponent C;
  PetscReal   K[NDOF][NDOF], M[NDOF][NDOF], xyz[36];
  PetscInt    fix[4] = {1, 4, 5, 8}, iface[4] = {12, 11, 10, 9}, ids[12];
  DRLabel     labels[NDOF];
  Mat         Km, Mm, Dm;

  PetscFunctionBeginUser;
  ChainMatrices(K, M);
  PetscCall(DRComponentCreate(comm, "chain", &C));
  PetscCall(DRComponentSetSource(C, "test_io:chain"));
  for (int a = 0; a < 4; a++)
    for (int d = 0; d < 3; d++) labels[3 * a + d] = DRLabelMake(chain_nodes[a], d + 1);
  PetscCall(DRComponentSetLabels(C, NDOF, labels));
  PetscCall(FillMat(comm, K, &Km));
  PetscCall(FillMat(comm, M, &Mm));
  /* Rayleigh damping D = 0.01 M + 1e-4 K */
  PetscCall(MatDuplicate(Mm, MAT_COPY_VALUES, &Dm));
  PetscCall(MatScale(Dm, 0.01));
  PetscCall(MatAXPY(Dm, 1e-4, Km, DIFFERENT_NONZERO_PATTERN));
  PetscCall(DRComponentSetOperators(C, Km, Mm, Dm));
  PetscCall(MatDestroy(&Km));
  PetscCall(MatDestroy(&Mm));
  PetscCall(MatDestroy(&Dm));
  for (int i = 0; i < 12; i++) {
    ids[i] = i + 1;
    for (int d = 0; d < 3; d++) xyz[3 * i + d] = box_xyz[i][d];
  }
  PetscCall(DRComponentSetGeometry(C, 12, ids, xyz));
  PetscCall(DRComponentSetCells(C, DR_CELL_HEX8, 2, box_cells));
  PetscCall(DRComponentAddNodeSet(C, "FIX", 4, fix));
  PetscCall(DRComponentAddNodeSet(C, "IFACE", 4, iface));
  PetscCall(DRComponentValidate(C, DR_SYMMETRY_RTOL));
  *c = C;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||A - B||_F */
static PetscErrorCode MatDiff(Mat A, Mat B, PetscReal *d)
{
  Mat C;

  PetscFunctionBeginUser;
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &C));
  PetscCall(MatAXPY(C, -1.0, B, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(C, NORM_FROBENIUS, d));
  PetscCall(MatDestroy(&C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Compare(const char *fmt, DRComponent ref, DRComponent c, PetscBool geometry, PetscBool damping)
{
  PetscReal        d;
  PetscBool        same;
  PetscInt         n, rn, nn, rnn, nc, rnc, nsets;
  const DRLabel   *l, *rl;
  const PetscInt  *ids, *rids, *cells, *rcells;
  const PetscReal *xyz, *rxyz;
  DRCellType       t, rt;
  const DRNodeSet *sets;
  Mat              K, M, D, rK, rM, rD;

  PetscFunctionBeginUser;
  PetscCall(DRComponentGetLabels(c, &n, &l));
  PetscCall(DRComponentGetLabels(ref, &rn, &rl));
  PetscCall(DRComponentGetOperators(c, &K, &M, &D));
  PetscCall(DRComponentGetOperators(ref, &rK, &rM, &rD));
  DRTEST_TRUE(n == rn, "%s: n = %d", fmt, (int)n);
  same = n == rn;
  for (PetscInt i = 0; same && i < n; i++) same = (PetscBool)(l[i] == rl[i]);
  DRTEST_TRUE(same, "%s: labels in row order", fmt);
  PetscCall(MatDiff(rK, K, &d));
  /* tol: exact: binary, HDF5 and 17-digit text round trips of doubles are lossless */
  DRTEST_CLOSE(d, 0, 0, 0, "%s: ||K - K_ref||", fmt);
  PetscCall(MatDiff(rM, M, &d));
  /* tol: exact (lossless round trip) */
  DRTEST_CLOSE(d, 0, 0, 0, "%s: ||M - M_ref||", fmt);
  if (damping) {
    DRTEST_TRUE(D != NULL, "%s: has D", fmt);
    if (D) {
      PetscCall(MatDiff(rD, D, &d));
      /* tol: exact (lossless round trip) */
      DRTEST_CLOSE(d, 0, 0, 0, "%s: ||D - D_ref||", fmt);
    }
  }
  if (geometry) {
    PetscCall(DRComponentGetGeometry(c, &nn, &ids, &xyz));
    PetscCall(DRComponentGetGeometry(ref, &rnn, &rids, &rxyz));
    same = nn == rnn;
    for (PetscInt i = 0; same && i < nn; i++) same = (PetscBool)(ids[i] == rids[i] && xyz[3 * i] == rxyz[3 * i] && xyz[3 * i + 1] == rxyz[3 * i + 1] && xyz[3 * i + 2] == rxyz[3 * i + 2]);
    DRTEST_TRUE(same, "%s: %d nodes with coordinates", fmt, (int)nn);
    PetscCall(DRComponentGetCells(c, &t, &nc, &cells));
    PetscCall(DRComponentGetCells(ref, &rt, &rnc, &rcells));
    same = t == rt && nc == rnc;
    for (PetscInt i = 0; same && i < nc * DRCellNodes(t); i++) same = (PetscBool)(cells[i] == rcells[i]);
    DRTEST_TRUE(same, "%s: %d %s cells", fmt, (int)nc, DRCellName(t));
    PetscCall(DRComponentGetNodeSets(ref, &nsets, &sets));
    for (PetscInt s = 0; s < nsets; s++) {
      DRNodeSet *set;
      PetscCall(DRComponentGetNodeSet(c, sets[s].name, &set));
      same = set && set->n == sets[s].n;
      for (PetscInt i = 0; same && i < set->n; i++) same = (PetscBool)(set->nodes[i] == sets[s].nodes[i]);
      DRTEST_TRUE(same, "%s: node set %s", fmt, sets[s].name);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A CalculiX deck with the chain's mesh, in the forms real decks use. */
static PetscErrorCode WriteDeck(MPI_Comm comm, const char *dir)
{
  PetscMPIInt rank;
  char        path[PETSC_MAX_PATH_LEN];
  FILE       *f;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/ccx.inp", dir));
    f = fopen(path, "w");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
    fprintf(f, "*HEADING\nchain mesh for test_io\n** a comment, *NODE in a comment is ignored\n"
               "*include, input=ccx_mesh.msh\n"
               "*Nset, nset=Fix\n1, 4\n5,8,\n"
               "*NSET,NSET=IFACE,GENERATE\n9, 12\n"
               "*NSET, NSET=both\nfix, 9\n"
               "*MATERIAL, NAME=STEEL\n*ELASTIC\n210000., 0.3\n*STEP\n*STATIC\n*END STEP\n");
    fclose(f);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/ccx_mesh.msh", dir));
    f = fopen(path, "w");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
    fprintf(f, "*node, nset=Nall\n");
    for (int i = 11; i >= 0; i--) fprintf(f, "%d, %.17g, %.17g,%.17g\n", i + 1, box_xyz[i][0], box_xyz[i][1], box_xyz[i][2]);
    fprintf(f, "3, 9, 9, 9\n3, 1, 1, 0\n"); /* redefined: the last definition wins */
    fprintf(f, "*ELEMENT, TYPE=C3D8R, ELSET=Eall\n2, 2, 9, 10, 3,\n 6, 11, 12, 7\n1, 1, 2, 3, 4, 5, 6, 7, 8\n");
    fclose(f);
  }
  PetscCallMPI(MPI_Barrier(comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DRComponent ref, c;
  MPI_Comm    comm;
  char        dir[PETSC_MAX_PATH_LEN] = ".", path[PETSC_MAX_PATH_LEN], kp[PETSC_MAX_PATH_LEN], mp[PETSC_MAX_PATH_LEN], dp[PETSC_MAX_PATH_LEN], lp[PETSC_MAX_PATH_LEN];
  PetscMPIInt size;

  PetscCall(DRInitialize(&argc, &argv, help));
  comm = PETSC_COMM_WORLD;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-tmp", dir, sizeof(dir), NULL));
  PetscCall(PetscPrintf(comm, "test_io on %d ranks\n", (int)size));
  PetscCall(BuildChain(comm, &ref));

  /* Matrix Market component (symmetric storage) */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/chain", dir));
  PetscCall(DRComponentWriteMTX(ref, path));
  PetscCall(PetscSNPrintf(kp, sizeof(kp), "%s/chain_K.mtx", dir));
  PetscCall(PetscSNPrintf(mp, sizeof(mp), "%s/chain_M.mtx", dir));
  PetscCall(PetscSNPrintf(dp, sizeof(dp), "%s/chain_D.mtx", dir));
  PetscCall(PetscSNPrintf(lp, sizeof(lp), "%s/chain.dof", dir));
  PetscCall(DRComponentReadMTX(comm, "chain", kp, mp, dp, lp, &c));
  PetscCall(Compare("mtx", ref, c, PETSC_FALSE, PETSC_TRUE));
  {
    PetscBool known, sym;
    Mat       K;
    PetscCall(DRComponentGetOperators(c, &K, NULL, NULL));
    PetscCall(MatIsSymmetricKnown(K, &known, &sym));
    DRTEST_TRUE(known && sym, "mtx: symmetric storage gives a matrix marked symmetric");
  }
  PetscCall(DRComponentDestroy(&c));

  /* Matrix Market 'general', of a non-symmetric matrix */
  {
    Mat       A, B;
    PetscReal d;
    PetscInt  rs, re;
    PetscBool known, sym;
    Mat       K;
    PetscCall(DRComponentGetOperators(ref, &K, NULL, NULL));
    PetscCall(MatDuplicate(K, MAT_COPY_VALUES, &A));
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_FALSE));
    PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_FALSE));
    PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscCall(MatGetOwnershipRange(A, &rs, &re));
    if (rs <= 2 && 2 < re) PetscCall(MatSetValue(A, 2, 7, 0.5, INSERT_VALUES)); /* (8, 3) stays absent */
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/general.mtx", dir));
    PetscCall(DRMatWriteMatrixMarket(A, path, PETSC_FALSE));
    PetscCall(DRMatReadMatrixMarket(comm, path, &B));
    PetscCall(MatDiff(A, B, &d));
    /* tol: exact: %.17g text and strtod round-trip doubles */
    DRTEST_CLOSE(d, 0, 0, 0, "mtx general: ||A - A_ref|| of a non-symmetric matrix");
    PetscCall(MatIsSymmetricKnown(B, &known, &sym));
    DRTEST_TRUE(!(known && sym), "mtx general: symmetry left to the validation");
    PetscCall(MatDestroy(&A));
    PetscCall(MatDestroy(&B));
  }

  /* CalculiX matrix storage, then the same with a deck for the geometry */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/ccx", dir));
  PetscCall(DRComponentWriteCalculiX(ref, path));
  PetscCall(DRComponentReadCalculiX(comm, "chain", path, &c));
  PetscCall(Compare("calculix", ref, c, PETSC_FALSE, PETSC_TRUE));
  {
    PetscInt nn;
    PetscCall(DRComponentGetGeometry(c, &nn, NULL, NULL));
    DRTEST_TRUE(nn == 0, "calculix: no deck, no geometry");
  }
  PetscCall(DRComponentDestroy(&c));
  PetscCall(WriteDeck(comm, dir));
  PetscCall(DRComponentReadCalculiX(comm, "chain", path, &c));
  PetscCall(Compare("calculix+inp", ref, c, PETSC_TRUE, PETSC_TRUE));
  {
    DRNodeSet *s;
    PetscCall(DRComponentGetNodeSet(c, "NALL", &s));
    DRTEST_TRUE(s && s->n == 12, "calculix+inp: *NODE, NSET=Nall has %d nodes", s ? (int)s->n : -1);
    PetscCall(DRComponentGetNodeSet(c, "BOTH", &s));
    DRTEST_TRUE(s && s->n == 5 && s->nodes[4] == 9, "calculix+inp: set of a set and a node has %d nodes", s ? (int)s->n : -1);
  }
  PetscCall(DRComponentDestroy(&c));

  /* PETSc binary */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/chain.petsc", dir));
  PetscCall(DRComponentWritePETSc(ref, path));
  PetscCall(DRComponentReadPETSc(comm, "chain", path, &c));
  PetscCall(Compare("petsc", ref, c, PETSC_FALSE, PETSC_TRUE));
  PetscCall(DRComponentDestroy(&c));
  {
    /* and without D */
    Mat K, M, D, cD;
    PetscCall(DRComponentGetOperators(ref, &K, &M, &D));
    PetscCall(PetscObjectReference((PetscObject)D));
    PetscCall(DRComponentSetOperators(ref, K, M, NULL));
    PetscCall(DRComponentWritePETSc(ref, path));
    PetscCall(DRComponentReadPETSc(comm, "chain", path, &c));
    PetscCall(Compare("petsc (K, M only)", ref, c, PETSC_FALSE, PETSC_FALSE));
    PetscCall(DRComponentGetOperators(c, NULL, NULL, &cD));
    DRTEST_TRUE(cD == NULL, "petsc (K, M only): no D");
    PetscCall(DRComponentDestroy(&c));
    PetscCall(DRComponentSetOperators(ref, K, M, D));
    PetscCall(MatDestroy(&D));
  }

  /* dynred HDF5 */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/chain.h5", dir));
  PetscCall(DRComponentWriteHDF5(ref, path));
  PetscCall(DRComponentReadHDF5(comm, NULL, path, &c));
  PetscCall(Compare("hdf5", ref, c, PETSC_TRUE, PETSC_TRUE));
  {
    const char *name;
    PetscCall(DRComponentGetName(c, &name));
    DRTEST_TRUE(!strcmp(name, "chain"), "hdf5: name '%s'", name);
  }
  PetscCall(DRComponentDestroy(&c));

  /* Dense Matrix Market: row- and column-major storage give the same file,
   * read back as the same matrix. */
  {
    const PetscReal ar[6] = {1, 0, -2.5, 0, 3, 1e-300}, ac[6] = {1, 0, 0, 3, -2.5, 1e-300}; /* 2 x 3 */
    char            p2[PETSC_MAX_PATH_LEN + 8];
    PetscMPIInt     rank;
    PetscInt        same = 1;
    PetscCallMPI(MPI_Comm_rank(comm, &rank));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/dense_r.mtx", dir));
    PetscCall(PetscSNPrintf(p2, sizeof(p2), "%s/dense_c.mtx", dir));
    if (rank == 0) {
      FILE *f1, *f2;
      int   c1, c2;
      PetscCall(DRDenseWriteMatrixMarket(path, 2, 3, ar, PETSC_TRUE, "test_io dense"));
      PetscCall(DRDenseWriteMatrixMarket(p2, 2, 3, ac, PETSC_FALSE, "test_io dense"));
      f1 = fopen(path, "r");
      f2 = fopen(p2, "r");
      same = f1 && f2;
      while (same && (c1 = fgetc(f1)) != EOF) {
        c2   = fgetc(f2);
        same = c1 == c2;
      }
      if (same) same = fgetc(f2) == EOF;
      if (f1) fclose(f1);
      if (f2) fclose(f2);
    }
    PetscCallMPI(MPI_Bcast(&same, 1, MPIU_INT, 0, comm));
    DRTEST_TRUE(same, "mtx dense: row-major and column-major storage write the same file");
  }

  /* One label parser: CalculiX's node.direction and the GA's short form. */
  {
    DRLabel l = 0;
    DRTEST_TRUE(DRLabelParse(" 12.3 ", &l) && l == DRLabelMake(12, 3), "label '12.3'");
    DRTEST_TRUE(DRLabelParse("15H", &l) && l == DRLabelMake(15, 1), "label '15H'");
    DRTEST_TRUE(DRLabelParse("7RZ", &l) && l == DRLabelMake(7, 6), "label '7RZ'");
    DRTEST_TRUE(DRLabelParse("7R", &l) && l == DRLabelMake(7, 6), "label '7R'");
    DRTEST_TRUE(!DRLabelParse("3.9", &l) && !DRLabelParse("15X", &l) && !DRLabelParse("15 H", &l) && !DRLabelParse("-1.2", &l) && !DRLabelParse("12.3x", &l), "not labels: 3.9, 15X, '15 H', -1.2, 12.3x");
  }

  PetscCall(DRComponentDestroy(&ref));
  DRTEST_END();
}
