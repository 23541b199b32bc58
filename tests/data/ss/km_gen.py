#!/usr/bin/python3
"""Writes a reduced model as a GA solution group would hold it:
/ga/solutions/001/{K, M, labels} (a grounded 8-DOF chain with a full,
non-diagonal mass matrix, labels node 10..17 direction 2) and
/ga/solutions/002/... (the same chain without its ground spring: one
rigid-body mode).  Usage: km_gen.py OUT.h5"""
import sys
import h5py
import numpy as np


def chain(n, grounded):
    rng = np.random.default_rng(7)
    k = 1e4 * (1 + rng.random(n))
    K = np.zeros((n, n))
    for i in range(n - 1):
        K[i, i] += k[i]; K[i + 1, i + 1] += k[i]; K[i, i + 1] -= k[i]; K[i + 1, i] -= k[i]
    if grounded:
        K[0, 0] += k[-1]
    m = 1 + rng.random(n)
    M = np.diag(m)
    for i in range(n - 1):  # consistent-mass-like coupling keeps M positive definite
        c = 0.1 * min(m[i], m[i + 1])
        M[i, i + 1] += c; M[i + 1, i] += c
    return K, M


if __name__ == "__main__":
    n = 8
    lab = np.array([[10 + i, 2] for i in range(n)], dtype=np.int64)
    with h5py.File(sys.argv[1], "w") as f:
        for name, grounded in (("001", True), ("002", False)):
            K, M = chain(n, grounded)
            g = f.create_group(f"/ga/solutions/{name}")
            g["K"] = K; g["M"] = M; g["labels"] = lab
