static const char help[] = "Built-in models: the assembled model does not depend on the number of ranks\n"
                           "(compared with a serial rebuild inside the program), cut parts reassemble to\n"
                           "the uncut model, clamps remove the right DOFs, numbering, bad input.\n"
                           "Run with 1, 2 or 3 ranks.\n";

#include "drtest.h"

/* Deterministic vectors defined by the DOF labels, so they mean the same on
 * any rank count and in any part. */
static PetscReal LabelU(DRLabel l) { return PetscSinReal(0.37 * (PetscReal)DRLabelNode(l) + 1.3 * DRLabelDir(l)); }
static PetscReal LabelV(DRLabel l) { return PetscCosReal(0.11 * (PetscReal)DRLabelNode(l) - 0.7 * DRLabelDir(l) + 0.5); }

/* u^T A v with u, v from the labels. */
static PetscErrorCode Checksum(DRComponent c, Mat A, PetscReal *s)
{
  Vec      u, v, Av;
  PetscInt rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &u, &Av));
  PetscCall(VecDuplicate(u, &v));
  PetscCall(VecGetOwnershipRange(u, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(VecSetValue(u, i, LabelU(CV(c).labels[i]), INSERT_VALUES));
    PetscCall(VecSetValue(v, i, LabelV(CV(c).labels[i]), INSERT_VALUES));
  }
  PetscCall(VecAssemblyBegin(u));
  PetscCall(VecAssemblyEnd(u));
  PetscCall(VecAssemblyBegin(v));
  PetscCall(VecAssemblyEnd(v));
  PetscCall(MatMult(A, v, Av));
  PetscCall(VecDot(u, Av, s));
  PetscCall(VecDestroy(&u));
  PetscCall(VecDestroy(&v));
  PetscCall(VecDestroy(&Av));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ||A - A^T||_F / ||A||_F */
static PetscErrorCode Asymmetry(Mat A, PetscReal *r)
{
  Mat       At;
  PetscReal na, nd;

  PetscFunctionBeginUser;
  PetscCall(MatNorm(A, NORM_FROBENIUS, &na));
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatAXPY(At, -1.0, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatNorm(At, NORM_FROBENIUS, &nd));
  PetscCall(MatDestroy(&At));
  *r = nd / na;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The model built on PETSC_COMM_WORLD against the same model built on
 * PETSC_COMM_SELF (every rank builds its own serial copy). */
static PetscErrorCode CompareWithSerial(const char *what, DRComponent cw, DRComponent cs)
{
  PetscBool same = PETSC_TRUE;
  PetscReal a = 0, b = 0, asym = 0;

  PetscFunctionBeginUser;
  DRTEST_TRUE(CV(cw).n == CV(cs).n, "%s: %" PetscInt_FMT " DOFs in parallel, %" PetscInt_FMT " serial", what, CV(cw).n, CV(cs).n);
  for (PetscInt i = 0; i < PetscMin(CV(cw).n, CV(cs).n); i++)
    if (CV(cw).labels[i] != CV(cs).labels[i]) same = PETSC_FALSE;
  for (PetscInt i = 1; i < CV(cw).n; i++)
    if (CV(cw).labels[i] <= CV(cw).labels[i - 1]) same = PETSC_FALSE;
  DRTEST_TRUE(same, "%s: labels sorted (node-major) and equal to the serial build", what);
  DRTEST_TRUE(CV(cw).nnodes == CV(cs).nnodes && CV(cw).ncells == CV(cs).ncells, "%s: %" PetscInt_FMT " nodes, %" PetscInt_FMT " cells (serial %" PetscInt_FMT ", %" PetscInt_FMT ")", what, CV(cw).nnodes, CV(cw).ncells, CV(cs).nnodes, CV(cs).ncells);
  for (int w = 0; w < 2; w++) {
    Mat Aw = w ? CV(cw).M : CV(cw).K, As = w ? CV(cs).M : CV(cs).K;
    PetscCall(MatNorm(Aw, NORM_FROBENIUS, &a));
    PetscCall(MatNorm(As, NORM_FROBENIUS, &b));
    /* tol: the same entries summed in another order over ranks: <= nnz u relative, nnz <= 1e4 here (random walk: sqrt(nnz) u = 2e-14) */
    DRTEST_CLOSE(a, b, 1e-12, 0, "%s: ||%s||_F on all ranks vs serial", what, w ? "M" : "K");
    PetscCall(Checksum(cw, Aw, &a));
    PetscCall(Checksum(cs, As, &b));
    /* tol: same bilinear form, another summation order over ranks: <= nnz u of sum |u_i A_ij v_j| (positive weights, no cancellation) */
    DRTEST_CLOSE(a, b, 1e-12, 0, "%s: u^T %s v on all ranks vs serial", what, w ? "M" : "K");
    {
      MatInfo info;
      PetscCall(MatGetInfo(Aw, MAT_GLOBAL_SUM, &info));
      DRTEST_TRUE(info.nz_unneeded == 0 && info.mallocs == 0, "%s: %s preallocated exactly (%.0f nonzeros, %.0f unneeded, %.0f mallocs)", what, w ? "M" : "K", info.nz_used, info.nz_unneeded, info.mallocs);
    }
    PetscCall(Asymmetry(Aw, &asym));
    /* tol: element matrices symmetric by construction up to one rounding per entry (the rotation T^T K T): a few u */
    DRTEST_CLOSE(asym, 0, 0, 1e-14, "%s: ||%s - %s^T|| / ||%s||", what, w ? "M" : "K", w ? "M" : "K", w ? "M" : "K");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parts reassembled by label must give the uncut model. */
static PetscErrorCode CompareParts(const char *what, DRComponent full, PetscInt np, DRComponent parts[], PetscInt expect_shared)
{
  DRComponent asmb;
  PetscInt    sum = 0;
  PetscBool   same = PETSC_TRUE;

  PetscFunctionBeginUser;
  for (PetscInt p = 0; p < np; p++) sum += CV(parts[p]).n;
  PetscCall(DRComponentAssemble(PETSC_COMM_WORLD, "reassembled", np, parts, &asmb));
  DRTEST_TRUE(CV(asmb).n == CV(full).n, "%s: sum of part DOFs %" PetscInt_FMT " - shared %" PetscInt_FMT " = %" PetscInt_FMT ", uncut model has %" PetscInt_FMT, what, sum, sum - CV(asmb).n, CV(asmb).n, CV(full).n);
  if (expect_shared >= 0) DRTEST_TRUE(sum - CV(asmb).n == expect_shared, "%s: %" PetscInt_FMT " DOF copies shared between parts, expected %" PetscInt_FMT, what, sum - CV(asmb).n, expect_shared);
  for (PetscInt i = 0; i < PetscMin(CV(asmb).n, CV(full).n); i++)
    if (CV(asmb).labels[i] != CV(full).labels[i]) same = PETSC_FALSE;
  DRTEST_TRUE(same, "%s: reassembled labels equal the uncut model's", what);
  DRTEST_TRUE(CV(asmb).nnodes == CV(full).nnodes && CV(asmb).ncells == CV(full).ncells, "%s: reassembled %" PetscInt_FMT " nodes, %" PetscInt_FMT " cells; uncut %" PetscInt_FMT ", %" PetscInt_FMT, what, CV(asmb).nnodes, CV(asmb).ncells, CV(full).nnodes, CV(full).ncells);
  if (CV(asmb).n == CV(full).n && same)
    for (int w = 0; w < 2; w++) {
      Mat       D;
      PetscReal nf, nd;
      PetscCall(MatDuplicate(w ? CV(asmb).M : CV(asmb).K, MAT_COPY_VALUES, &D));
      PetscCall(MatAXPY(D, -1.0, w ? CV(full).M : CV(full).K, DIFFERENT_NONZERO_PATTERN));
      PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
      PetscCall(MatNorm(w ? CV(full).M : CV(full).K, NORM_FROBENIUS, &nf));
      /* tol: the same element contributions added in another order: a few u per entry relative to its row's largest; 1e-12 of ||A||_F is looser (left) */
      DRTEST_CLOSE(nd / nf, 0, 0, 1e-12, "%s: ||%s(parts) - %s(uncut)|| / ||%s||", what, w ? "M" : "K", w ? "M" : "K", w ? "M" : "K");
      PetscCall(MatDestroy(&D));
    }
  PetscCall(DRComponentDestroy(&asmb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSolid(void)
{
  DRSolidParams p;
  DRComponent   cw, cs, parts[4];
  char          what[128];

  PetscFunctionBeginUser;
  PetscCall(DRSolidParamsDefault(&p));
  p.nx = 7;
  p.ny = 4;
  p.nz = 3;
  p.lx = 0.7;
  p.ly = 0.4;
  p.lz = 0.1;
  p.x0 = -0.2;
  p.node_offset = 100;
  PetscCall(DRBuiltinSolid(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &cw));
  PetscCall(DRBuiltinSolid(PETSC_COMM_SELF, &p, (DRCut){'x', 1}, 0, &cs));
  PetscCall(CompareWithSerial("solid 7x4x3 clamp x0", cw, cs));
  /* Clamp x0 removes the 5 x 4 nodes of the face. */
  DRTEST_TRUE(CV(cw).n == 3 * (8 * 5 * 4 - 5 * 4), "solid clamp x0: %" PetscInt_FMT " DOFs, expected %d", CV(cw).n, 3 * (8 * 5 * 4 - 5 * 4));
  DRTEST_TRUE(CV(cw).nnodes == 8 * 5 * 4 && CV(cw).node_ids[0] == 101 && CV(cw).node_ids[CV(cw).nnodes - 1] == 100 + 160, "solid: all %" PetscInt_FMT " nodes kept (clamped ones too), ids %" PetscInt_FMT "..%" PetscInt_FMT " with node_offset 100", CV(cw).nnodes, CV(cw).node_ids[0], CV(cw).node_ids[CV(cw).nnodes - 1]);
  DRTEST_TRUE(CV(cw).labels[0] == DRLabelMake(102, 1), "solid: first free DOF is 102.1 (node (1,0,0))");
  {
    DRNodeSet *s;
    PetscCall(DRComponentGetNodeSet(cw, "x0", &s));
    DRTEST_TRUE(s && s->n == 20, "solid: node set x0 holds the 20 clamped nodes");
    /* tol: x0 + lx computed as x0 + i (lx / n): two roundings, <= 2 u = 4.4e-16 */
    DRTEST_CLOSE(CV(cw).xyz[3 * (CV(cw).nnodes - 1)], 0.5, 1e-15, 0, "solid: x of the last node = x0 + lx");
  }
  DRTEST_TRUE(CV(cw).celltype == DR_CELL_HEX8 && CV(cw).ncells == 7 * 4 * 3, "solid: %" PetscInt_FMT " hex8 cells", CV(cw).ncells);
  /* Element 1 in VTK order: (0,0,0) (1,0,0) (1,1,0) (0,1,0) then z + 1. */
  DRTEST_TRUE(CV(cw).cells[0] == 101 && CV(cw).cells[1] == 102 && CV(cw).cells[2] == 110 && CV(cw).cells[3] == 109 && CV(cw).cells[4] == 141 && CV(cw).cells[6] == 150, "solid: first cell %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " ... in VTK order", CV(cw).cells[0], CV(cw).cells[1], CV(cw).cells[2], CV(cw).cells[3], CV(cw).cells[4]);
  PetscCall(DRComponentDestroy(&cs));

  /* Cuts along each axis (uneven layer counts) reassemble to the uncut model. */
  {
    const char axes[3] = {'x', 'y', 'z'};
    const PetscInt np[3] = {3, 2, 3}, nodes_per_plane[3] = {5 * 4, 8 * 4, 8 * 5}, clamped_per_plane[3] = {0, 4, 5};
    for (int a = 0; a < 3; a++) {
      for (PetscInt q = 0; q < np[a]; q++) PetscCall(DRBuiltinSolid(PETSC_COMM_WORLD, &p, (DRCut){axes[a], np[a]}, q, &parts[q]));
      PetscCall(PetscSNPrintf(what, sizeof(what), "solid cut along %c into %" PetscInt_FMT, axes[a], np[a]));
      PetscCall(CompareParts(what, cw, np[a], parts, 3 * (np[a] - 1) * (nodes_per_plane[a] - clamped_per_plane[a])));
      if (a == 0) {
        /* Layers 7 / 3: [0,2) [2,4) [4,7). */
        DRTEST_TRUE(CV(parts[0]).ncells == 2 * 12 && CV(parts[1]).ncells == 2 * 12 && CV(parts[2]).ncells == 3 * 12, "solid cut x/3: element layers 2, 2, 3");
        DRTEST_TRUE(CV(parts[2]).nnodes == 4 * 20 && CV(parts[2]).node_ids[0] == 100 + 1 + 4, "solid cut x/3: last part has its 4 node planes from i = 4");
      }
      for (PetscInt q = 0; q < np[a]; q++) PetscCall(DRComponentDestroy(&parts[q]));
    }
  }
  PetscCall(DRComponentDestroy(&cw));

  /* Clamps. */
  {
    PetscCall(PetscStrncpy(p.clamp, "x1, y0,z1", sizeof(p.clamp)));
    PetscCall(DRBuiltinSolid(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &cw));
    /* Free nodes: i < 7, j > 0, k < 3. */
    DRTEST_TRUE(CV(cw).n == 3 * (7 * 4 * 3), "solid clamp \"x1, y0,z1\": %" PetscInt_FMT " DOFs, expected %d", CV(cw).n, 3 * 7 * 4 * 3);
    PetscCall(DRComponentDestroy(&cw));
    PetscCall(PetscStrncpy(p.clamp, "none", sizeof(p.clamp)));
    PetscCall(DRBuiltinSolid(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &cw));
    DRTEST_TRUE(CV(cw).n == 3 * 160 && CV(cw).nsets == 0, "solid clamp none: %" PetscInt_FMT " DOFs, expected 480, no node sets", CV(cw).n);
    PetscCall(DRComponentDestroy(&cw));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestFrame3D(void)
{
  DRFrame3DParams p;
  DRComponent     cw, cs, parts[3];

  PetscFunctionBeginUser;
  PetscCall(DRFrame3DParamsDefault(&p));
  /* Default: cantilever along x, 20 elements, clamped at x = 0. */
  PetscCall(DRBuiltinFrame3D(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &cw));
  DRTEST_TRUE(CV(cw).n == 6 * 20 && CV(cw).nnodes == 21 && CV(cw).labels[0] == DRLabelMake(2, 1), "frame3d default cantilever: %" PetscInt_FMT " DOFs (expected 120), %" PetscInt_FMT " nodes, first DOF %s (expected 2.1: node 1 clamped, node 2 the tip, interior nodes 3..21)", CV(cw).n, CV(cw).nnodes, DRLabelString(CV(cw).labels[0], (char[32]){0}));
  PetscCall(DRComponentDestroy(&cw));

  p.nx  = 3;
  p.ny  = 2;
  p.nz  = 1;
  p.lx  = 3.0;
  p.ly  = 1.0;
  p.lz  = 0.8;
  p.nel = 2;
  PetscCall(PetscStrncpy(p.clamp, "z0", sizeof(p.clamp)));
  for (int lumped = 0; lumped < 2; lumped++) {
    p.lumped = (PetscBool)lumped;
    PetscCall(DRBuiltinFrame3D(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &cw));
    PetscCall(DRBuiltinFrame3D(PETSC_COMM_SELF, &p, (DRCut){'x', 1}, 0, &cs));
    PetscCall(CompareWithSerial(lumped ? "frame3d 3x2x1 lumped" : "frame3d 3x2x1 consistent", cw, cs));
    PetscCall(DRComponentDestroy(&cs));
    PetscCall(DRComponentDestroy(&cw));
  }
  /* Nodes: 4*3*2 = 24 grid + members (3*3*2 + 4*2*2 + 4*3*1 = 46) x 1 interior = 70;
   * clamp z0: the 12 grid nodes of K = 0 and the interiors of the 17 members in that plane. */
  PetscCall(DRBuiltinFrame3D(PETSC_COMM_WORLD, &p, (DRCut){'x', 1}, 0, &cw));
  DRTEST_TRUE(CV(cw).nnodes == 70 && CV(cw).n == 6 * (70 - 12 - 17), "frame3d 3x2x1, nel 2, clamp z0: %" PetscInt_FMT " nodes (expected 70), %" PetscInt_FMT " DOFs (expected %d)", CV(cw).nnodes, CV(cw).n, 6 * (70 - 12 - 17));
  /* Cut along x into 3: slabs [0,1) [1,2) [2,3]; members across x at x = 1, 2 go up. */
  for (PetscInt q = 0; q < 3; q++) PetscCall(DRBuiltinFrame3D(PETSC_COMM_WORLD, &p, (DRCut){'x', 3}, q, &parts[q]));
  /* Interface: grid planes x = 1, 2, each 6 grid nodes (3 clamped at z = 0). */
  PetscCall(CompareParts("frame3d 3x2x1 cut along x into 3", cw, 3, parts, 6 * 2 * 3));
  for (PetscInt q = 0; q < 3; q++) PetscCall(DRComponentDestroy(&parts[q]));
  /* Cut along z into 2 with one bay: only the vertical members are split. */
  for (PetscInt q = 0; q < 2; q++) PetscCall(DRBuiltinFrame3D(PETSC_COMM_WORLD, &p, (DRCut){'z', 2}, q, &parts[q]));
  PetscCall(CompareParts("frame3d 3x2x1 cut along z into 2", cw, 2, parts, 6 * 12));
  for (PetscInt q = 0; q < 2; q++) PetscCall(DRComponentDestroy(&parts[q]));
  PetscCall(DRComponentDestroy(&cw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestFrame2D(void)
{
  /* Portal frame 1-2-3-4 (legs 2 m, beam 3 m) clamped at the feet, left
   * leg in 2 elements, a hinge at the right end of the beam, a diagonal
   * spring 1-3. */
  PetscInt        ids[4] = {1, 2, 3, 4}, mem[6] = {1, 2, 2, 3, 3, 4}, hinge[6] = {0, 0, 0, 1, 0, 0}, nel[3] = {2, 1, 1}, spr[2] = {1, 3};
  PetscReal       xy[8] = {0, 0, 0, 2, 3, 2, 3, 0}, k = 5e6;
  DRBeamSection   sec = {.E = 200e9, .rho = 7800, .A = 1e-3, .Iz = 1e-6};
  DRLabel         fixed[6] = {DRLabelMake(1, 1), DRLabelMake(1, 2), DRLabelMake(1, 6), DRLabelMake(4, 1), DRLabelMake(4, 2), DRLabelMake(4, 6)};
  DRFrame2DParams p = {.nnodes = 4, .node_ids = ids, .xy = xy, .nmembers = 3, .members = mem, .hinge = hinge, .nel = nel, .sec = &sec, .nsec = 1, .nsprings = 1, .springs = spr, .spring_k = &k, .nfixed = 6, .fixed = fixed};
  DRComponent     cw, cs, c0;
  const DRLabel   expect[10] = {DRLabelMake(2, 1), DRLabelMake(2, 2), DRLabelMake(2, 6), DRLabelMake(3, 1), DRLabelMake(3, 2), DRLabelMake(3, 6), DRLabelMake(5, 1), DRLabelMake(5, 2), DRLabelMake(5, 6), DRLabelMake(6, 6)};
  PetscBool       same = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(DRBuiltinFrame2D(PETSC_COMM_WORLD, &p, &cw));
  PetscCall(DRBuiltinFrame2D(PETSC_COMM_SELF, &p, &cs));
  PetscCall(CompareWithSerial("frame2d portal", cw, cs));
  PetscCall(DRComponentDestroy(&cs));
  if (CV(cw).n != 10) same = PETSC_FALSE;
  for (PetscInt i = 0; i < PetscMin(CV(cw).n, 10); i++)
    if (CV(cw).labels[i] != expect[i]) same = PETSC_FALSE;
  DRTEST_TRUE(same, "frame2d portal: DOFs 2.1 2.2 2.6 3.1 3.2 3.6 5.1 5.2 5.6 6.6 (5: leg midpoint, 6: hinge node carrying the beam's end rotation)");
  DRTEST_TRUE(CV(cw).nnodes == 6 && CV(cw).ncells == 5, "frame2d portal: %" PetscInt_FMT " nodes (4 given, 1 interior, 1 hinge), %" PetscInt_FMT " cells (4 beams, 1 spring)", CV(cw).nnodes, CV(cw).ncells);
  /* The spring adds k cos^2 to K(3.1, 3.1): compare with the frame without it. */
  p.nsprings = 0;
  PetscCall(DRBuiltinFrame2D(PETSC_COMM_WORLD, &p, &c0));
  {
    Mat       D;
    PetscReal nd, c2 = 9.0 / 13.0;
    PetscCall(MatDuplicate(CV(cw).K, MAT_COPY_VALUES, &D));
    PetscCall(MatAXPY(D, -1.0, CV(c0).K, DIFFERENT_NONZERO_PATTERN));
    PetscCall(MatNorm(D, NORM_FROBENIUS, &nd));
    /* Only node 3 moves: [c^2 cs; cs s^2] k, Frobenius norm k. */
    /* tol: k (c^2, cs, s^2) with c^2 = 9/13: a few roundings of k, and K(no spring) cancels exactly (same entries): ~10 u */
    DRTEST_CLOSE(nd, k, 1e-12, 0, "frame2d portal: ||K(spring) - K(no spring)||_F = k (node 1 is fixed)");
    PetscCall(MatDestroy(&D));
    PetscCall(Checksum(cw, CV(cw).K, &nd));
    {
      PetscReal s0, du = LabelU(DRLabelMake(3, 1)) * LabelV(DRLabelMake(3, 1)) * c2 + (LabelU(DRLabelMake(3, 1)) * LabelV(DRLabelMake(3, 2)) + LabelU(DRLabelMake(3, 2)) * LabelV(DRLabelMake(3, 1))) * PetscSqrtReal(c2 * (1 - c2)) + LabelU(DRLabelMake(3, 2)) * LabelV(DRLabelMake(3, 2)) * (1 - c2);
      PetscCall(Checksum(c0, CV(c0).K, &s0));
      /* tol: a difference of two checksums S = u^T K v ~ 2.5e8 (printed above) vs k du ~ 1.7e6: nnz u S / (k du) ~ 100 x 2.2e-16 x 150 = 3e-12; 1e-8 is looser (left) */
      DRTEST_CLOSE(nd - s0, k * du, 1e-8, 0, "frame2d portal: spring stiffness acts along the line 1-3");
    }
  }
  PetscCall(DRComponentDestroy(&c0));
  PetscCall(DRComponentDestroy(&cw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestBadInput(void)
{
  DRSolidParams   sp;
  DRFrame3DParams fp;
  DRComponent     c = NULL;
  PetscErrorCode  ierr;

  PetscFunctionBeginUser;
  PetscCall(DRSolidParamsDefault(&sp));
  sp.nx = 3;
  sp.ny = 2;
  sp.nz = 2;
  PetscCall(DRFrame3DParamsDefault(&fp));
  fp.nel = 2;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = DRBuiltinSolid(PETSC_COMM_WORLD, &sp, (DRCut){'x', 4}, 0, &c);
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "solid with 3 element layers cut into 4 parts: input error (code %d)", (int)ierr);
  ierr = DRBuiltinSolid(PETSC_COMM_WORLD, &sp, (DRCut){'w', 2}, 0, &c);
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "solid cut along axis 'w': input error (code %d)", (int)ierr);
  PetscCall(PetscStrncpy(sp.clamp, "x0,top", sizeof(sp.clamp)));
  ierr = DRBuiltinSolid(PETSC_COMM_WORLD, &sp, (DRCut){'x', 1}, 0, &c);
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "solid clamp \"x0,top\": input error (code %d)", (int)ierr);
  ierr = DRBuiltinFrame3D(PETSC_COMM_WORLD, &fp, (DRCut){'x', 3}, 0, &c);
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "beam of 2 elements cut into 3 parts: input error (code %d)", (int)ierr);
  ierr = DRBuiltinFrame3D(PETSC_COMM_WORLD, &fp, (DRCut){'y', 2}, 0, &c);
  DRTEST_TRUE(ierr == DR_ERR_INPUT, "beam along x cut along y: input error (code %d)", (int)ierr);
  PetscCall(PetscPopErrorHandler());
  DRTEST_TRUE(c == NULL, "no component returned on error");
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;

  PetscCall(DRInitialize(&argc, &argv, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d rank(s)\n", size));
  PetscCall(TestSolid());
  PetscCall(TestFrame3D());
  PetscCall(TestFrame2D());
  PetscCall(TestBadInput());
  DRTEST_END();
}
