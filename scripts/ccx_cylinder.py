#!/usr/bin/python3
"""A thin-walled cylinder as a CalculiX deck of quadratic bricks (C3D20R:
no shear locking in bending, unlike the built-in trilinear hex8 solid), for
dynred pmor (the seed 001 example), plus the pmor job that uses it.

  ccx_cylinder.py NAME [NC NL] [R L T]

NC elements around (default 60), NL along (default 30), one through the
wall; radius R = 100 mm, length L = 200 mm, wall T = 2 mm (the seed gives
no geometry: chosen so the band 0..3000 Hz holds some 20-30 modes); steel
in mm, t, s (E 210000 MPa, nu 0.3, rho 7.85e-9 t/mm^3).  Clamped at z = 0
(every node of that end fixed by *BOUNDARY, so CalculiX leaves them out of
the exported matrices).  Writes NAME.inp (run `ccx -i NAME`: *FREQUENCY,
SOLVER=MATRIXSTORAGE exports NAME.sti, NAME.mas, NAME.dof) and NAME.yaml:
the load in x (a constant direction, as the seed) on the outer tip ring
over half the circumference, every corner and mid-edge node (2 NC / 2 + 1
path nodes, arc length), supports every 5th path node.
"""
import math
import sys


def main():
    name = sys.argv[1]
    nc, nl = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (60, 30)
    R, L, T = (float(x) for x in sys.argv[4:7]) if len(sys.argv) > 6 else (100.0, 200.0, 2.0)
    NI, NJ = 2 * nc, 2 * nl + 1  # doubled grid: I around (periodic), J along, K = 0..2 through
    ids, lines = {}, []
    for J in range(NJ):
        for I in range(NI):
            for K in range(3):
                if (I % 2) + (J % 2) + (K % 2) > 1:
                    continue  # not a corner or a mid-edge node of a brick
                nid = len(ids) + 1
                ids[I, J, K] = nid
                th = 2 * math.pi * I / NI
                r = R - T / 2 + T * K / 2
                lines.append(f"{nid}, {r * math.cos(th):.12g}, {r * math.sin(th):.12g}, {L * J / (NJ - 1):.12g}")
    # local (xi, eta, zeta) = (radial K, around I, along J): right-handed
    corner = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (0, 0, 2), (2, 0, 2), (2, 2, 2), (0, 2, 2)]
    edges = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]
    elems = []
    for ej in range(nl):
        for ei in range(nc):
            def node(dk, di, dj):
                return ids[(2 * ei + di) % NI, 2 * ej + dj, dk]
            cs = [node(*c) for c in corner]
            ms = []
            for a, b in edges:
                ca, cb = corner[a], corner[b]
                ms.append(node(*((ca[q] + cb[q]) // 2 for q in range(3))))
            elems.append(cs + ms)
    with open(f"{name}.inp", "w") as f:
        f.write(f"** thin-walled cylinder R {R} L {L} t {T} mm, {nc} x {nl} x 1 C3D20R (scripts/ccx_cylinder.py)\n")
        f.write("*Node, nset=NALL\n" + "\n".join(lines) + "\n")
        f.write("*Element, type=C3D20R, elset=EALL\n")
        for e, c in enumerate(elems):
            f.write(f"{e + 1}, " + ", ".join(map(str, c[:15])) + ",\n" + ", ".join(map(str, c[15:])) + "\n")
        f.write("*Nset, nset=CLAMP\n")
        cl = [ids[k] for k in ids if k[1] == 0]
        for q in range(0, len(cl), 16):
            f.write(", ".join(map(str, cl[q:q + 16])) + ",\n")
        f.write("*Boundary\nCLAMP, 1, 3\n")
        f.write("*Material, name=STEEL\n*Elastic\n210000., 0.3\n*Density\n7.85e-9\n")
        f.write("*Solid section, elset=EALL, material=STEEL\n")
        f.write("*Step\n*Frequency, solver=matrixstorage\n*End step\n")
    path = [ids[I, NJ - 1, 2] for I in range(0, nc + 1)]  # outer tip ring, half the circumference
    with open(f"{name}.yaml", "w") as f:
        f.write(f"# seed 001's example: a load moving around the tip of a clamped thin-walled\n"
                f"# cylinder ({nc} x {nl} C3D20R, {3 * (len(ids) - len(cl))} DOFs; scripts/ccx_cylinder.py, then ccx -i {name})\n")
        f.write(f"job: pmor\noutput: {name}_pmor.h5\n")
        f.write(f"components:\n  - {{name: cylinder, format: calculix, path: {name}}}\n")
        f.write("pmor:\n")
        f.write("  path: [" + ", ".join(map(str, path)) + "]\n")
        f.write("  direction: 1\n  parameter: arclength\n  support_every: 5\n  nmodes: 20\n")
        f.write("  damping: {beta: 1.0e-6}\n  frf: {fmin: 10, fmax: 3000, n: 100, refine: 1}\n")
    print(f"wrote {name}.inp ({len(ids)} nodes, {len(elems)} C3D20R) and {name}.yaml ({len(path)} path nodes)")


if __name__ == "__main__":
    main()
