#!/usr/bin/python3
"""Small CalculiX decks, one per element family, for tests/e2e/calculix_families.sh.

ccx_families.py FAMILY JOB MODE: writes JOB.inp for FAMILY (wedge, shell,
beam, plane, axisym, spring, rigid) with a *FREQUENCY step of 8 modes; MODE
'storage' adds SOLVER=MATRIXSTORAGE (JOB.sti/.mas/.dof), 'freq' is CalculiX's
own eigenvalue solve (frequencies in JOB.dat).  Steel, SI units."""
import sys

STEEL = "*MATERIAL, NAME=STEEL\n*ELASTIC\n210e9, 0.3\n*DENSITY\n7850.\n"


def grid(nx, ny, lx, ly, z=0.0, first=1, quad=False):
    """Nodes of an nx x ny grid of (bi-quadratic when quad) elements."""
    mx, my = (2 * nx, 2 * ny) if quad else (nx, ny)
    ids, lines = {}, []
    for j in range(my + 1):
        for i in range(mx + 1):
            if quad and i % 2 and j % 2:
                continue
            n = first + len(ids)
            ids[i, j] = n
            lines.append(f"{n}, {lx * i / mx:.10g}, {ly * j / my:.10g}, {z:.10g}")
    return ids, lines


def quad8(ids, nx, ny):
    els = []
    for j in range(ny):
        for i in range(nx):
            a, b = 2 * i, 2 * j
            c = [ids[a, b], ids[a + 2, b], ids[a + 2, b + 2], ids[a, b + 2],
                 ids[a + 1, b], ids[a + 2, b + 1], ids[a + 1, b + 2], ids[a, b + 1]]
            els.append(c)
    return els


def deck(family):
    out = []
    if family == "wedge":  # 6 x 1 x 1 hexes of 0.05 m, each split into two C3D6
        nx = 6
        ids = {}
        for k in range(2):
            for j in range(2):
                for i in range(nx + 1):
                    ids[i, j, k] = len(ids) + 1
                    out.append(f"{ids[i, j, k]}, {0.05 * i:.10g}, {0.05 * j:.10g}, {0.04 * k:.10g}")
        out.insert(0, "*NODE, NSET=NALL")
        out.append("*ELEMENT, TYPE=C3D6, ELSET=EALL")
        e = 1
        for i in range(nx):
            n = lambda a, b, c: ids[i + a, b, c]
            for tri in (((0, 0), (1, 0), (1, 1)), ((0, 0), (1, 1), (0, 1))):
                bot = [n(a, b, 0) for a, b in tri]
                top = [n(a, b, 1) for a, b in tri]
                out.append(f"{e}, " + ", ".join(map(str, bot + top)))
                e += 1
        out.append("*NSET, NSET=FIX\n" + ", ".join(str(ids[0, j, k]) for j in range(2) for k in range(2)))
        out.append(STEEL + "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n*BOUNDARY\nFIX, 1, 3")
    elif family in ("shell", "plane", "axisym"):
        nx, ny = 3, 2
        x0 = 0.1 if family == "axisym" else 0.0
        ids, nodes = grid(nx, ny, 0.3, 0.2, quad=True)
        if x0:
            nodes = [f"{l.split(',')[0]}, {float(l.split(',')[1]) + x0:.10g},{l.split(',', 2)[2]}" for l in nodes]
        typ = {"shell": "S8R", "plane": "CPS8R", "axisym": "CAX8"}[family]
        out.append("*NODE, NSET=NALL")
        out += nodes
        out.append(f"*ELEMENT, TYPE={typ}, ELSET=EALL")
        out += [f"{k + 1}, " + ", ".join(map(str, c)) for k, c in enumerate(quad8(ids, nx, ny))]
        edge = [ids[i, j] for (i, j) in ids if i == 0] if family != "axisym" else [ids[i, j] for (i, j) in ids if j == 0]
        out.append("*NSET, NSET=FIX\n" + ", ".join(map(str, sorted(edge))))
        out.append(STEEL)
        if family == "shell":
            out.append("*SHELL SECTION, ELSET=EALL, MATERIAL=STEEL\n0.01\n*BOUNDARY\nFIX, 1, 6")
        elif family == "plane":
            out.append("*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n0.01\n*BOUNDARY\nFIX, 1, 2")
        else:
            out.append("*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n*BOUNDARY\nFIX, 1, 2")
    elif family == "beam":  # B32R cantilever 0.5 m, 0.04 x 0.02 section, 4 elements
        out.append("*NODE, NSET=NALL")
        out += [f"{i + 1}, {0.5 * i / 8:.10g}, 0, 0" for i in range(9)]
        out.append("*ELEMENT, TYPE=B32R, ELSET=EALL")
        out += [f"{e + 1}, {2 * e + 1}, {2 * e + 2}, {2 * e + 3}" for e in range(4)]
        out.append(STEEL + "*BEAM SECTION, ELSET=EALL, MATERIAL=STEEL, SECTION=RECT\n0.04, 0.02\n0., 0., 1.\n*BOUNDARY\n1, 1, 6")
    elif family == "spring":  # SPRINGA chain of 40 point masses, a grounded SPRING1 at its end
        nm = 40
        out.append("*NODE, NSET=NALL")
        out += [f"{i + 1}, {0.1 * i:.10g}, 0, 0" for i in range(nm + 1)]
        out.append("*ELEMENT, TYPE=SPRINGA, ELSET=ESPR")
        out += [f"{i + 1}, {i + 1}, {i + 2}" for i in range(nm)]
        out.append("*ELEMENT, TYPE=MASS, ELSET=EMASS")
        out += [f"{100 + i}, {i + 2}" for i in range(nm)]
        out.append(f"*ELEMENT, TYPE=SPRING1, ELSET=EGROUND\n200, {nm + 1}")
        out.append("*SPRING, ELSET=ESPR\n1.0e6\n*SPRING, ELSET=EGROUND\n1\n3.0e5\n*MASS, ELSET=EMASS\n2.5")
        out.append("*BOUNDARY\n1, 1, 3\nNALL, 2, 3")
    elif family == "rigid":  # a C3D8 bar 0.4 m, a rigid end plate with a point mass, an equation to a mass on a spring
        nx = 8
        ids = {}
        out.append("*NODE, NSET=NALL")
        for k in range(2):
            for j in range(2):
                for i in range(nx + 1):
                    ids[i, j, k] = len(ids) + 1
                    out.append(f"{ids[i, j, k]}, {0.05 * i:.10g}, {0.03 * j:.10g}, {0.03 * k:.10g}")
        out.append("100, 0.4, 0.015, 0.015\n101, 0.4, 0.015, 0.015\n102, 0.5, 0.015, 0.015\n103, 0.6, 0.015, 0.015")
        out.append("*ELEMENT, TYPE=C3D8, ELSET=EALL")
        for i in range(nx):
            c = [ids[i, 0, 0], ids[i + 1, 0, 0], ids[i + 1, 1, 0], ids[i, 1, 0],
                 ids[i, 0, 1], ids[i + 1, 0, 1], ids[i + 1, 1, 1], ids[i, 1, 1]]
            out.append(f"{i + 1}, " + ", ".join(map(str, c)))
        out.append("*ELEMENT, TYPE=MASS, ELSET=EMASS\n20, 100\n21, 102")
        out.append("*ELEMENT, TYPE=SPRINGA, ELSET=ESPR\n22, 102, 103")
        out.append("*NSET, NSET=FIX\n" + ", ".join(str(ids[0, j, k]) for j in range(2) for k in range(2)))
        out.append("*NSET, NSET=TIP\n" + ", ".join(str(ids[nx, j, k]) for j in range(2) for k in range(2)))
        out.append(STEEL + "*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL")
        out.append("*MASS, ELSET=EMASS\n0.5\n*SPRING, ELSET=ESPR\n\n2.0e6")
        out.append("*RIGID BODY, NSET=TIP, REF NODE=100, ROT NODE=101")
        out.append("*EQUATION\n2\n102, 2, 1., 100, 2, -1.\n2\n102, 3, 1., 100, 3, -1.")
        out.append("*BOUNDARY\nFIX, 1, 3\n103, 1, 3")
    else:
        sys.exit(f"ccx_families.py: unknown family '{family}'")
    return "\n".join(out)


family, job, mode = sys.argv[1:4]
solver = ", SOLVER=MATRIXSTORAGE" if mode == "storage" else ""
with open(job + ".inp", "w") as f:
    f.write(deck(family) + f"\n*STEP\n*FREQUENCY{solver}\n8\n*END STEP\n")
