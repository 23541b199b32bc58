#!/usr/bin/python3
"""A closed circular ring of Euler-Bernoulli grid-beam elements bending out
of its plane, as Matrix Market files, for the pmor tests (a small stand-in
for the seed's cylinder rim: a load moving around a closed path whose
static response is smooth along it).

  ring_gen.py DIR [nnodes]   writes DIR/{K,M}.mtx, DIR/ring.dof

Ring radius 0.5 m, steel (E 210 GPa, G 81 GPa, rho 7850), round bar of
10 mm diameter; nodes 1..nnodes (default 48) at angles 2 pi (i-1)/nnodes,
DOFs w (direction 3) and the rotations about x, y (4, 5).  Springs of
1e7 N/m to the ground in z at the nodes at 0, 97.5 and 232.5 degrees (no
symmetry left, so no singular values tie) hold the rigid-body motions.  Element: bending (w, slope) with the cubic
Hermite stiffness and consistent mass, torsion linear; the slope and the
twist are the rotation vector's components along n = t x z and t.
"""
import os
import sys

import numpy as np


def build(nn=48, R=0.5, E=210e9, G=81e9, rho=7850.0, d=0.01):
    A = np.pi * d * d / 4
    I = np.pi * d ** 4 / 64
    J = 2 * I
    n = 3 * nn
    K = np.zeros((n, n))
    M = np.zeros((n, n))
    ang = 2 * np.pi * np.arange(nn) / nn
    X = np.column_stack([R * np.cos(ang), R * np.sin(ang)])
    for e in range(nn):
        a, b = e, (e + 1) % nn
        dx = X[b] - X[a]
        L = np.hypot(*dx)
        t = dx / L
        nvec = np.array([t[1], -t[0]])  # t x z in the plane
        # local [w1, slope1, twist1, w2, slope2, twist2]
        kb = E * I / L ** 3 * np.array([[12, 6 * L, -12, 6 * L], [6 * L, 4 * L * L, -6 * L, 2 * L * L],
                                        [-12, -6 * L, 12, -6 * L], [6 * L, 2 * L * L, -6 * L, 4 * L * L]])
        mb = rho * A * L / 420 * np.array([[156, 22 * L, 54, -13 * L], [22 * L, 4 * L * L, 13 * L, -3 * L * L],
                                           [54, 13 * L, 156, -22 * L], [-13 * L, -3 * L * L, -22 * L, 4 * L * L]])
        kl = np.zeros((6, 6))
        ml = np.zeros((6, 6))
        ib = [0, 1, 3, 4]
        kl[np.ix_(ib, ib)] = kb
        ml[np.ix_(ib, ib)] = mb
        kt = G * J / L
        mt = rho * J * L / 6
        kl[np.ix_([2, 5], [2, 5])] = kt * np.array([[1, -1], [-1, 1]])
        ml[np.ix_([2, 5], [2, 5])] = mt * np.array([[2, 1], [1, 2]])
        # global [w, rx, ry] -> local [w, slope = omega.n, twist = omega.t]
        Tn = np.array([[1, 0, 0], [0, nvec[0], nvec[1]], [0, t[0], t[1]]])
        T = np.zeros((6, 6))
        T[:3, :3] = Tn
        T[3:, 3:] = Tn
        dofs = [3 * a, 3 * a + 1, 3 * a + 2, 3 * b, 3 * b + 1, 3 * b + 2]
        K[np.ix_(dofs, dofs)] += T.T @ kl @ T
        M[np.ix_(dofs, dofs)] += T.T @ ml @ T
    for s in (0, (13 * nn) // 48, (31 * nn) // 48):  # no symmetry of the ring survives
        K[3 * s, 3 * s] += 1e7
    labels = [(i + 1, dd) for i in range(nn) for dd in (3, 4, 5)]
    return K, M, labels


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
    nn = int(sys.argv[2]) if len(sys.argv) > 2 else 48
    K, M, labels = build(nn)
    os.makedirs(d, exist_ok=True)
    write_mtx(os.path.join(d, "K.mtx"), K)
    write_mtx(os.path.join(d, "M.mtx"), M)
    with open(os.path.join(d, "ring.dof"), "w") as f:
        for n_, r in labels:
            f.write(f"{n_}.{r}\n")


if __name__ == "__main__":
    main()
