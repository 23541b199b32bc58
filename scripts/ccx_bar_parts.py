#!/usr/bin/python3
"""CalculiX decks of a C3D8 bar cut into parts along x (for the CMS tests).

  ccx_bar_parts.py PREFIX lx ly lz nx ny nz parts E nu rho NMODES

One conforming mesh of nx x ny x nz hex8 elements over [0,lx]x[0,ly]x[0,lz],
node (i,j,k) -> 1 + i + (nx+1)*(j + (ny+1)*k), clamped at x = 0 (ux=uy=uz=0).
Writes
  PREFIX_full.inp   the whole bar, *FREQUENCY with NMODES (CalculiX's own
                    eigensolver: the reference);
  PREFIX_pK.inp     part K = 1..parts: only the elements with
                    i in [K-1, K) * nx/parts and only their nodes (interface
                    nodes keep their ids, so parts share them), same material,
                    *FREQUENCY,SOLVER=MATRIXSTORAGE (exports .sti/.mas/.dof).
                    Only part 1 has the x = 0 clamp; the other parts float.
"""
import sys

prefix = sys.argv[1]
lx, ly, lz = map(float, sys.argv[2:5])
nx, ny, nz, parts = map(int, sys.argv[5:9])
E, nu, rho = map(float, sys.argv[9:12])
nmodes = int(sys.argv[12])


def nid(i, j, k):
    return 1 + i + (nx + 1) * (j + (ny + 1) * k)


def deck(path, i0, i1, storage, title):
    nodes = sorted({nid(i, j, k) for i in range(i0, i1 + 1) for j in range(ny + 1) for k in range(nz + 1)})
    with open(path, "w") as f:
        f.write(f"** {title} (scripts/ccx_bar_parts.py)\n*NODE, NSET=NALL\n")
        for k in range(nz + 1):
            for j in range(ny + 1):
                for i in range(i0, i1 + 1):
                    f.write(f"{nid(i, j, k)}, {lx * i / nx:.17g}, {ly * j / ny:.17g}, {lz * k / nz:.17g}\n")
        f.write("*ELEMENT, TYPE=C3D8, ELSET=EALL\n")
        for k in range(nz):
            for j in range(ny):
                for i in range(i0, i1):
                    e = 1 + i + nx * (j + ny * k)
                    n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                         nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                    f.write(f"{e}, " + ", ".join(map(str, n)) + "\n")
        if i0 == 0:
            f.write("*NSET, NSET=X0\n")
            ids = [nid(0, j, k) for k in range(nz + 1) for j in range(ny + 1)]
            for s in range(0, len(ids), 16):
                f.write(", ".join(map(str, ids[s:s + 16])) + "\n")
            f.write("*BOUNDARY\nX0, 1, 3\n")
        f.write(f"*MATERIAL, NAME=STEEL\n*ELASTIC\n{E:.17g}, {nu:.17g}\n*DENSITY\n{rho:.17g}\n")
        f.write("*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n*STEP\n")
        f.write("*FREQUENCY, SOLVER=MATRIXSTORAGE\n" if storage else f"*FREQUENCY\n{nmodes}\n")
        f.write("*END STEP\n")
    return len(nodes)


deck(f"{prefix}_full.inp", 0, nx, False, "whole bar")
for p in range(parts):
    i0, i1 = p * nx // parts, (p + 1) * nx // parts
    deck(f"{prefix}_p{p + 1}.inp", i0, i1, True, f"part {p + 1} of {parts}, elements {i0}..{i1 - 1} along x")
