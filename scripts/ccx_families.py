#!/usr/bin/python3
"""Small CalculiX decks, one per element family, for tests/e2e/calculix_families.sh.

ccx_families.py FAMILY JOB MODE: writes JOB.inp for FAMILY (wedge, shell,
beam, plane, axisym, spring, rigid, or a CalculiX element type of
ELEMENT_TYPES: a small clamped bar, plate or beam of that type alone, or
mixed: several of those parts side by side) with a
*FREQUENCY step of 8 modes; MODE
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


# Element types with a deck of their own: (shape, corner pattern, quadratic).
# Solids are a 3 x 1 x 1 bar of 0.05 m cubes clamped at x = 0, faces are a
# 3 x 2 plate of 0.1 m squares clamped along x = 0 (shells, plane stress and
# strain) or y = 0 (axisymmetric, r = x from 0.1 m), lines a 0.5 m cantilever
# of 4 elements (rectangular 0.04 x 0.02 section).  Triangles and wedges split
# each square along one diagonal, tetrahedra split each cube into six
# (Kuhn's triangulation, all sharing the diagonal 0-6).  Quadratic elements
# take their mid-side nodes at edge midpoints, CalculiX's local order.
# Linear triangles, tetrahedra and 2-D elements use a mesh twice as fine (ARPACK in ccx
# needs more DOFs than the coarse one leaves for 8 modes).
ELEMENT_TYPES = {
    "C3D4": ("solid", "tet", False), "C3D10": ("solid", "tet", True),
    "C3D6": ("solid", "wedge", False), "C3D15": ("solid", "wedge", True),
    "C3D8": ("solid", "hex", False), "C3D8R": ("solid", "hex", False),
    "C3D8I": ("solid", "hex", False), "C3D20": ("solid", "hex", True),
    "S3": ("shell", "tri", False), "S6": ("shell", "tri", True),
    "S4": ("shell", "quad", False), "S4R": ("shell", "quad", False),
    "S8": ("shell", "quad", True), "S8R": ("shell", "quad", True),
    "CPS3": ("plane", "tri", False), "CPS4": ("plane", "quad", False),
    "CPS6": ("plane", "tri", True), "CPE4R": ("plane", "quad", False),
    "CPE8": ("plane", "quad", True),
    "CAX4": ("axisym", "quad", False), "CAX6": ("axisym", "tri", True),
    "B31": ("line", "line", False), "B31R": ("line", "line", False),
    "B32": ("line", "line", True), "B32R": ("line", "line", True),
}
# Corner index offsets (doubled grid units: a corner step is 2) of each cell
# of a unit square / cube, in CalculiX's local order.
HEX = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (0, 0, 2), (2, 0, 2), (2, 2, 2), (0, 2, 2)]
CELLS = {
    "hex": [HEX],
    "wedge": [[(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 0, 2), (2, 0, 2), (2, 2, 2)],
              [(0, 0, 0), (2, 2, 0), (0, 2, 0), (0, 0, 2), (2, 2, 2), (0, 2, 2)]],
    "tet": [[HEX[0], HEX[a], HEX[b], HEX[6]] for a, b in ((1, 2), (2, 3), (3, 7), (7, 4), (4, 5), (5, 1))],
    "quad": [[(0, 0), (2, 0), (2, 2), (0, 2)]],
    "tri": [[(0, 0), (2, 0), (2, 2)], [(0, 0), (2, 2), (0, 2)]],
    "line": [[(0,), (2,)]],
}
# Mid-side nodes: pairs of corners (0-based), CalculiX's order after the corners.
EDGES = {
    "hex": [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)],
    "wedge": [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 3), (0, 3), (1, 4), (2, 5)],
    "tet": [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)],
    "quad": [(0, 1), (1, 2), (2, 3), (3, 0)],
    "tri": [(0, 1), (1, 2), (2, 0)],
}


def signed_volume(p):
    """Six times the volume of the tetrahedron of the first point and the
    next three corners (orientation of a solid's first corner)."""
    a, b, c, d = p[:4]
    u = [b[k] - a[k] for k in range(3)]
    v = [c[k] - a[k] for k in range(3)]
    w = [d[k] - a[k] for k in range(3)]
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
            + u[2] * (v[0] * w[1] - v[1] * w[0]))


def type_deck(typ, n0=0, e0=0, shift=(0.0, 0.0, 0.0), tag="EALL", material=True):
    """Deck lines of the element type's part; node and element ids start
    after n0 and e0, coordinates are moved by shift, the part's element set
    is tag and its clamped nodes FIX_tag."""
    shape, pattern, quad = ELEMENT_TYPES[typ]
    dims = {"solid": (3, 1, 1), "line": (4,)}.get(shape, (3, 2))
    step = {"solid": 0.05, "line": 0.125}.get(shape, 0.1)
    if not quad and (pattern in ("tet", "tri") or shape in ("plane", "axisym")):  # enough DOFs for 8 modes
        dims, step = tuple(2 * n for n in dims), step / 2
    x0 = 0.1 if shape == "axisym" else 0.0
    ids, coords, els = {}, [], []

    def node(g):
        if g not in ids:
            ids[g] = n0 + len(ids) + 1
            x = [step * v / 2 for v in g] + [0.0] * (3 - len(g))
            x[0] += x0
            x = [a + b for a, b in zip(x, shift)]
            coords.append(f"{ids[g]}, " + ", ".join(f"{v:.10g}" for v in x))
        return ids[g]

    import itertools
    for base in itertools.product(*[range(0, 2 * n, 2) for n in dims]):
        for cell in CELLS[pattern]:
            cg = [tuple(b + o for b, o in zip(base, c)) for c in cell]
            if pattern == "line" and quad:
                cg = [cg[0], tuple((a + b) // 2 for a, b in zip(cg[0], cg[1])), cg[1]]
            elif quad:
                cg = cg + [tuple((a + b) // 2 for a, b in zip(cg[i], cg[j])) for i, j in EDGES[pattern]]
            if pattern == "tet" and signed_volume(cg) < 0:  # CalculiX needs a positive Jacobian
                sw = {1: 2, 2: 1, 4: 6, 6: 4, 7: 8, 8: 7} if quad else {1: 2, 2: 1}
                cg = [cg[sw.get(k, k)] for k in range(len(cg))]
            els.append([node(g) for g in cg])
    out = ["*NODE, NSET=NALL"] + coords + [f"*ELEMENT, TYPE={typ}, ELSET={tag}"]
    for k, c in enumerate(els):  # CalculiX reads at most 16 entries a line
        f = [str(e0 + k + 1)] + list(map(str, c))
        out.append(",\n".join(", ".join(f[i:i + 15]) for i in range(0, len(f), 15)))
    axis = 1 if shape == "axisym" else 0
    fix = sorted(n for g, n in ids.items() if g[axis] == 0)
    out.append(f"*NSET, NSET=FIX_{tag}\n" + ",\n".join(", ".join(map(str, fix[i:i + 12])) for i in range(0, len(fix), 12)))
    if material:
        out.append(STEEL)
    if shape == "solid":
        out.append(f"*SOLID SECTION, ELSET={tag}, MATERIAL=STEEL\n*BOUNDARY\nFIX_{tag}, 1, 3")
    elif shape == "shell":
        out.append(f"*SHELL SECTION, ELSET={tag}, MATERIAL=STEEL\n0.01\n*BOUNDARY\nFIX_{tag}, 1, 6")
    elif shape == "plane":
        out.append(f"*SOLID SECTION, ELSET={tag}, MATERIAL=STEEL\n0.01\n*BOUNDARY\nFIX_{tag}, 1, 2")
    elif shape == "axisym":
        out.append(f"*SOLID SECTION, ELSET={tag}, MATERIAL=STEEL\n*BOUNDARY\nFIX_{tag}, 1, 2")
    else:
        out.append(f"*BEAM SECTION, ELSET={tag}, MATERIAL=STEEL, SECTION=RECT\n0.04, 0.02\n0., 0., 1.\n*BOUNDARY\nFIX_{tag}, 1, 6")
    return out


def deck(family):
    out = []
    if family in ELEMENT_TYPES:
        return "\n".join(type_deck(family))
    if family == "mixed":
        # Separate clamped parts of several cell shapes in one deck: a bar of
        # C3D8 (ids from 1), one of C3D6 (from 100), a plate of S4 (from
        # 200), a B31 cantilever (from 300), and a SPRINGA chain of MASS
        # points (from 400) held in y and z, grounded at node 400.
        out = type_deck("C3D8", 0, 0, (0, 0, 0), "EHEX")
        out += type_deck("C3D6", 100, 100, (0, 0.2, 0), "EWEDGE", False)
        out += type_deck("S4", 200, 200, (0, 0.4, 0), "ESHELL", False)
        out += type_deck("B31", 300, 300, (0, 0.8, 0), "EBEAM", False)
        nm = 5
        out.append("*NODE, NSET=NCHAIN")
        out += [f"{400 + i}, {0.1 * i:.10g}, 1.0, 0" for i in range(nm + 1)]
        out.append("*ELEMENT, TYPE=SPRINGA, ELSET=ESPR")
        out += [f"{400 + i}, {400 + i}, {401 + i}" for i in range(nm)]
        out.append("*ELEMENT, TYPE=MASS, ELSET=EMASS")
        out += [f"{420 + i}, {401 + i}" for i in range(nm)]
        out.append("*SPRING, ELSET=ESPR\n\n1.0e6\n*MASS, ELSET=EMASS\n2.5")
        out.append("*BOUNDARY\n400, 1, 3\nNCHAIN, 2, 3")
        return "\n".join(out)
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
