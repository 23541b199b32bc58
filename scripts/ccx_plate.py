#!/usr/bin/python3
"""Write a CalculiX deck of dynred's built-in plate/solid mesh (C3D8, same node
numbering: node (i,j,k) -> 1 + i + (nx+1)*(j + (ny+1)*k)), clamped at x = 0.

  ccx_plate.py JOB lx ly lz nx ny nz E nu rho NMODES [storage]

Without `storage` the deck runs *FREQUENCY (CalculiX's own eigensolver);
with it, *FREQUENCY,SOLVER=MATRIXSTORAGE exports JOB.sti/.mas/.dof.
"""
import sys

job = sys.argv[1]
lx, ly, lz = map(float, sys.argv[2:5])
nx, ny, nz = map(int, sys.argv[5:8])
E, nu, rho = map(float, sys.argv[8:11])
nmodes = int(sys.argv[11])
storage = len(sys.argv) > 12 and sys.argv[12] == "storage"


def nid(i, j, k):
    return 1 + i + (nx + 1) * (j + (ny + 1) * k)


with open(job + ".inp", "w") as f:
    f.write("** dynred built-in plate as a CalculiX deck (scripts/ccx_plate.py)\n*NODE, NSET=NALL\n")
    for k in range(nz + 1):
        for j in range(ny + 1):
            for i in range(nx + 1):
                f.write(f"{nid(i, j, k)}, {lx * i / nx:.17g}, {ly * j / ny:.17g}, {lz * k / nz:.17g}\n")
    f.write("*ELEMENT, TYPE=C3D8, ELSET=EALL\n")
    e = 1
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                n = [nid(i, j, k), nid(i + 1, j, k), nid(i + 1, j + 1, k), nid(i, j + 1, k),
                     nid(i, j, k + 1), nid(i + 1, j, k + 1), nid(i + 1, j + 1, k + 1), nid(i, j + 1, k + 1)]
                f.write(f"{e}, " + ", ".join(map(str, n)) + "\n")
                e += 1
    f.write("*NSET, NSET=X0\n")
    ids = [nid(0, j, k) for k in range(nz + 1) for j in range(ny + 1)]
    for s in range(0, len(ids), 16):
        f.write(", ".join(map(str, ids[s:s + 16])) + "\n")
    f.write("*BOUNDARY\nX0, 1, 3\n")
    f.write(f"*MATERIAL, NAME=STEEL\n*ELASTIC\n{E:.17g}, {nu:.17g}\n*DENSITY\n{rho:.17g}\n")
    f.write("*SOLID SECTION, ELSET=EALL, MATERIAL=STEEL\n")
    f.write("*STEP\n")
    f.write("*FREQUENCY, SOLVER=MATRIXSTORAGE\n" if storage else f"*FREQUENCY\n{nmodes}\n")
    f.write("*END STEP\n")
