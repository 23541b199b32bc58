#!/usr/bin/python3
"""A small 'cylinder' of springs and masses as Matrix Market files, for the
pmor tests: nc nodes around x nl rings, ring 0 clamped (not in the model),
two DOFs per node (directions 1 and 3), 2x2 SPD spring blocks on every
circumferential, axial and diagonal edge, lumped masses varying smoothly.

  ring_gen.py DIR [nc nl]   writes DIR/{K,M}.mtx, DIR/ring.dof
Node id of ring l (1..nl), position c (0..nc-1): 1000 l + c + 1.
The tip ring (l = nl) carries the load path of the tests.
"""
import os
import sys

import numpy as np


def build(nc=16, nl=5):
    ids = [(l, c) for l in range(1, nl + 1) for c in range(nc)]
    idx = {lc: i for i, lc in enumerate(ids)}
    n = 2 * len(ids)
    K = np.zeros((n, n))
    M = np.zeros(n)

    def edge(a, b, k):
        blk = k * np.array([[1.0, 0.3], [0.3, 0.8]])  # SPD: det = 0.71 > 0
        ia = idx.get(a)
        ib = idx.get(b)
        for i, j, s in ((ia, ia, 1), (ib, ib, 1), (ia, ib, -1), (ib, ia, -1)):
            if i is None or j is None:
                continue
            K[2 * i:2 * i + 2, 2 * j:2 * j + 2] += s * blk

    for l in range(0, nl + 1):
        for c in range(nc):
            kc = 1.0e6 * (1 + 0.2 * np.cos(2 * np.pi * c / nc))
            if l >= 1:
                edge((l, c), (l, (c + 1) % nc), kc)
            if l < nl:
                edge((l, c), (l + 1, c), 2.0e6)
                edge((l, c), (l + 1, (c + 1) % nc), 0.5e6)
    for (l, c), i in idx.items():
        m = 1.0 + 0.3 * np.sin(2 * np.pi * c / nc) + 0.1 * l
        M[2 * i:2 * i + 2] = m
    labels = [(1000 * l + c + 1, d) for (l, c) in ids for d in (1, 3)]
    return K, np.diag(M), labels


def write_mtx(path, A):
    n = A.shape[0]
    ent = [(i, j, A[i, j]) for j in range(n) for i in range(j, n) if A[i, j] != 0]
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n% ring_gen.py (dynred pmor tests)\n")
        f.write(f"{n} {n} {len(ent)}\n")
        for i, j, v in ent:
            f.write(f"{i + 1} {j + 1} {v:.17g}\n")


def main():
    d = sys.argv[1]
    nc, nl = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (16, 5)
    K, M, labels = build(nc, nl)
    os.makedirs(d, exist_ok=True)
    write_mtx(os.path.join(d, "K.mtx"), K)
    write_mtx(os.path.join(d, "M.mtx"), M)
    with open(os.path.join(d, "ring.dof"), "w") as f:
        for n_, r in labels:
            f.write(f"{n_}.{r}\n")


if __name__ == "__main__":
    main()
