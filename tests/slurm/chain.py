#!/usr/bin/python3
"""A uniform fixed-free spring-mass chain with analytic frequencies, for the
Slurm modal job (tests/slurm/run.sh).

  chain.py DIR N      writes DIR/chain_K.mtx, DIR/chain_M.mtx, DIR/chain.dof
                      (N masses m = 2 kg, N springs k = 5e4 N/m, spring 1
                      joins mass 1 to the ground) and DIR/chain_hz.txt, the
                      analytic frequencies of all N modes:
                        f_j = sqrt(k/m)/pi * sin((2j - 1) pi / (2 (2N + 1)))
                      (the fixed-free chain: K = k tridiag(-1, 2, -1) with
                      K[N-1, N-1] = k, M = m I; e.g. Meirovitch, Fundamentals
                      of Vibrations, sec. 8.4).
"""
import os
import sys

import numpy as np

M_KG, K_NM = 2.0, 5.0e4


def main():
    d, n = sys.argv[1], int(sys.argv[2])
    ent = []
    for i in range(n):
        ent.append((i, i, K_NM if i == n - 1 else 2 * K_NM))
        if i > 0:
            ent.append((i, i - 1, -K_NM))
    with open(os.path.join(d, "chain_K.mtx"), "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write(f"{n} {n} {len(ent)}\n")
        for i, j, v in ent:
            f.write(f"{i + 1} {j + 1} {v:.17g}\n")
    with open(os.path.join(d, "chain_M.mtx"), "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write(f"{n} {n} {n}\n")
        for i in range(n):
            f.write(f"{i + 1} {i + 1} {M_KG:.17g}\n")
    with open(os.path.join(d, "chain.dof"), "w") as f:
        for i in range(n):
            f.write(f"{i + 1}.1\n")
    j = np.arange(1, n + 1)
    hz = np.sqrt(K_NM / M_KG) / np.pi * np.sin((2 * j - 1) * np.pi / (2 * (2 * n + 1)))
    np.savetxt(os.path.join(d, "chain_hz.txt"), hz, fmt="%.17g")


if __name__ == "__main__":
    main()
