#!/usr/bin/python3
"""A stiffened steel panel of S8R shells with B32 beams, as CalculiX decks:
one for the whole structure and one per part, for tests/e2e/cms_shell_parts.sh.

ccx_panel_parts.py NAME NPARTS [MISMATCH]

Panel 0.6 x 0.4 m in the x-y plane, 4 mm thick, 2 x 4 S8R elements per part
along x, clamped (DOFs 1-6) at x = 0.  A longitudinal stiffener (B32, RECT
6 x 30 mm) runs along y = 0.2 through every part; on every cut x = const a
transverse frame (B32, RECT 6 x 30 mm) is made of two coincident halves of
3 x 30 mm, one in each of the two parts that meet there, so every node of a
cut is a beam-shell junction, which CalculiX makes a knot.  Parts share the
cut nodes by id; NAME_full.inp holds every element (both frame halves) and
solves *FREQUENCY itself (20 modes), NAME_pK.inp use SOLVER=MATRIXSTORAGE.
With MISMATCH, part 2's half frame on its first cut is left out: its nodes
there are plain expanded shell nodes (several rows per label), not knots."""
import sys

name, nparts = sys.argv[1], int(sys.argv[2])
mismatch = len(sys.argv) > 3
NX, NY, LX, LY = 2 * nparts, 4, 0.2 * nparts, 0.4
MAT = "*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n*DENSITY\n7850."


def nid(i, j):
    return 1 + 100 * j + i


def deck(job, e0, e1, cuts, storage):
    """Shell elements e0 <= ex < e1; half frames on the node columns cuts."""
    shells, used = [], set()
    for ey in range(NY):
        for ex in range(e0, e1):
            a, b = 2 * ex, 2 * ey
            c = [nid(a, b), nid(a + 2, b), nid(a + 2, b + 2), nid(a, b + 2),
                 nid(a + 1, b), nid(a + 2, b + 1), nid(a + 1, b + 2), nid(a, b + 1)]
            shells.append((1000 * ey + ex + 1, c))
            used.update(c)
    stiff = [(20000 + ex, [nid(2 * ex, NY), nid(2 * ex + 1, NY), nid(2 * ex + 2, NY)]) for ex in range(e0, e1)]
    frames = [(30000 + 100 * k + 10 * ci + ey, [nid(ci, 2 * ey), nid(ci, 2 * ey + 1), nid(ci, 2 * ey + 2)])
              for k, ci in cuts for ey in range(NY)]
    out = ["*NODE, NSET=NALL"]
    for j in range(2 * NY + 1):
        for i in range(2 * NX + 1):
            if nid(i, j) in used:
                out.append(f"{nid(i, j)}, {LX * i / (2 * NX):.10g}, {LY * j / (2 * NY):.10g}, 0")
    out.append("*ELEMENT, TYPE=S8R, ELSET=SH")
    out += [f"{e}, " + ", ".join(map(str, c)) for e, c in shells]
    out.append("*ELEMENT, TYPE=B32, ELSET=STIFF")
    out += [f"{e}, " + ", ".join(map(str, c)) for e, c in stiff]
    if frames:
        out.append("*ELEMENT, TYPE=B32, ELSET=FRAME")
        out += [f"{e}, " + ", ".join(map(str, c)) for e, c in frames]
    out.append(MAT)
    out.append("*SHELL SECTION, ELSET=SH, MATERIAL=STEEL\n0.004")
    out.append("*BEAM SECTION, ELSET=STIFF, MATERIAL=STEEL, SECTION=RECT\n0.006, 0.03\n0., 1., 0.")
    if frames:
        out.append("*BEAM SECTION, ELSET=FRAME, MATERIAL=STEEL, SECTION=RECT\n0.003, 0.03\n1., 0., 0.")
    if e0 == 0:
        out.append("*NSET, NSET=CLAMP\n" + ", ".join(str(nid(0, j)) for j in range(2 * NY + 1)))
        out.append("*BOUNDARY\nCLAMP, 1, 6")
    out.append("*STEP\n*FREQUENCY" + (", SOLVER=MATRIXSTORAGE" if storage else "") + "\n20\n*END STEP")
    open(job + ".inp", "w").write("\n".join(out) + "\n")


cutcols = [2 * 2 * k for k in range(1, nparts)]        # node column of cut k (between part k and k+1)
full_frames = [(s, c) for c in cutcols for s in (0, 1)]  # two halves per cut
deck(f"{name}_full", 0, NX, full_frames, False)
for p in range(nparts):
    cuts = []
    if p > 0 and not (mismatch and p == 1):
        cuts.append((1, cutcols[p - 1]))                 # right half of the frame on the left cut
    if p < nparts - 1:
        cuts.append((0, cutcols[p]))                     # left half of the frame on the right cut
    deck(f"{name}_p{p + 1}", 2 * p, 2 * p + 2, cuts, True)
