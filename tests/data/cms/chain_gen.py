#!/usr/bin/python3
"""Spring-mass chains as Matrix Market component files, for the CMS tests.

  chain_gen.py chain DIR     a 60-mass chain grounded at node 1, split into
                             3 components sharing nodes 20 and 40; writes
                             DIR/{a,b,c}_{K,M}.mtx, DIR/{a,b,c}.dof and the
                             reference DIR/ref_hz.txt (all 60 frequencies of
                             the assembled chain, numpy: Cholesky of M, then
                             eigvalsh of L^-1 K L^-T)
  chain_gen.py errors DIR    the bad-input sets of tests/e2e/cms_errors.sh
                             (disjoint, constrained, floating), one
                             subdirectory each

Node n has the single DOF "n.1" (label files: node.direction per row).
Masses and springs vary along the chain so no two frequencies coincide.
A shared node's mass is split between its components (0.3 / 0.7), so each
component file has a positive mass on every DOF and the assembly restores it.
Component b is written with its rows in a shuffled order and component c in
"general" (both-triangle) storage, to exercise the readers.
"""
import os
import sys

import numpy as np


def write_mtx(path, A, symmetric=True):
    n = A.shape[0]
    ent = [(i, j, A[i, j]) for j in range(n) for i in range(n)
           if A[i, j] != 0 and (not symmetric or i >= j)]
    with open(path, "w") as f:
        f.write(f"%%MatrixMarket matrix coordinate real {'symmetric' if symmetric else 'general'}\n")
        f.write("% chain_gen.py (dynred CMS tests)\n")
        f.write(f"{n} {n} {len(ent)}\n")
        for i, j, v in ent:
            f.write(f"{i + 1} {j + 1} {v:.17g}\n")


def write_comp(d, name, labels, K, M, perm=None, symmetric=True):
    """labels: list of (node, dir); K, M in that order; perm reorders rows."""
    if perm is not None:
        labels = [labels[p] for p in perm]
        K = K[np.ix_(perm, perm)]
        M = M[np.ix_(perm, perm)]
    write_mtx(os.path.join(d, f"{name}_K.mtx"), K, symmetric)
    write_mtx(os.path.join(d, f"{name}_M.mtx"), M, symmetric)
    with open(os.path.join(d, f"{name}.dof"), "w") as f:
        for n, r in labels:
            f.write(f"{n}.{r}\n")


def chain_data(n):
    i = np.arange(1, n + 1)
    m = 1.0 + 0.5 * np.sin(1.3 * i) ** 2 + 0.01 * i          # kg, node i
    k = 1.0e4 * (1.0 + 0.4 * np.cos(0.7 * i)) * (1 + 0.005 * i)  # N/m, spring i joins i-1 and i (0 = ground)
    return m, k


def component(nodes, m, k, mfrac, grounded, springs):
    """K, M over nodes (sorted list); springs: list of spring indices s
    (joining node s-1 and s; s = 1 joins the ground); mfrac[node] mass share."""
    idx = {nd: a for a, nd in enumerate(nodes)}
    nn = len(nodes)
    K = np.zeros((nn, nn))
    M = np.zeros((nn, nn))
    for s in springs:
        a, b = s - 1, s
        if a == 0:
            assert grounded
            K[idx[b], idx[b]] += k[s - 1]
            continue
        ia, ib = idx[a], idx[b]
        K[ia, ia] += k[s - 1]
        K[ib, ib] += k[s - 1]
        K[ia, ib] -= k[s - 1]
        K[ib, ia] -= k[s - 1]
    for nd in nodes:
        M[idx[nd], idx[nd]] = m[nd - 1] * mfrac.get(nd, 1.0)
    return K, M


def eig_hz(K, M):
    L = np.linalg.cholesky(M)
    Li = np.linalg.inv(L)
    A = Li @ K @ Li.T
    lam = np.linalg.eigvalsh(0.5 * (A + A.T))
    return np.sqrt(lam) / (2 * np.pi)


def chain(d):
    n = 60
    m, k = chain_data(n)
    cuts = [(1, 20), (20, 40), (40, 60)]
    share = {20: (0.3, 0.7), 40: (0.3, 0.7)}
    Kf = np.zeros((n, n))
    Mf = np.zeros((n, n))
    rng = np.random.default_rng(7)
    for c, (lo, hi) in enumerate(cuts):
        nodes = list(range(lo, hi + 1))
        springs = list(range(lo + 1 if lo > 1 else 1, hi + 1))
        mfrac = {}
        for nd, (f_lo, f_hi) in share.items():
            if nd == lo:
                mfrac[nd] = f_hi
            if nd == hi:
                mfrac[nd] = f_lo
        K, M = component(nodes, m, k, mfrac, lo == 1, springs)
        ix = np.array(nodes) - 1
        Kf[np.ix_(ix, ix)] += K
        Mf[np.ix_(ix, ix)] += M
        perm = rng.permutation(len(nodes)) if c == 1 else None
        write_comp(d, "abc"[c], [(nd, 1) for nd in nodes], K, M, perm, symmetric=(c != 2))
    # the assembled chain, straight from the definition
    Kd = np.zeros((n, n))
    for s in range(1, n + 1):
        if s == 1:
            Kd[0, 0] += k[0]
        else:
            a, b = s - 2, s - 1
            Kd[a, a] += k[s - 1]
            Kd[b, b] += k[s - 1]
            Kd[a, b] -= k[s - 1]
            Kd[b, a] -= k[s - 1]
    assert np.allclose(Kd, Kf, rtol=0, atol=1e-9) and np.allclose(np.diag(Mf), m, rtol=1e-14)
    f = eig_hz(Kd, np.diag(m))
    np.savetxt(os.path.join(d, "ref_hz.txt"), f, fmt="%.17g")


def errors(d):
    m, k = chain_data(40)
    # (a) disjoint: two grounded chains, nodes 1..10 and 11..20 share nothing
    e = os.path.join(d, "disjoint")
    os.makedirs(e, exist_ok=True)
    K, M = component(list(range(1, 11)), m, k, {}, True, list(range(1, 11)))
    write_comp(e, "a", [(nd, 1) for nd in range(1, 11)], K, M)
    # second chain grounded at its node 11: spring 11 joins node 10 (not in
    # this part) and 11, so ground it directly
    nodes = list(range(11, 21))
    K, M = component(nodes, m, k, {}, False, list(range(12, 21)))
    K[0, 0] += k[10]
    write_comp(e, "b", [(nd, 1) for nd in nodes], K, M)
    # (b) constrained: a planar chain (directions 1 and 2) in part a, nodes
    # 1..5; part b continues from node 5 in direction 1 only, i.e. node 5's
    # direction 2 is constrained (absent) in b but free in a
    e = os.path.join(d, "constrained")
    os.makedirs(e, exist_ok=True)
    K1, M1 = component(list(range(1, 6)), m, k, {5: 0.5}, True, list(range(1, 6)))
    K = np.kron(K1, np.eye(2))
    M = np.kron(M1, np.eye(2))
    write_comp(e, "a", [(nd, r) for nd in range(1, 6) for r in (1, 2)], K, M)
    K, M = component(list(range(5, 11)), m, k, {5: 0.5}, False, list(range(6, 11)))
    write_comp(e, "b", [(nd, 1) for nd in range(5, 11)], K, M)
    # (c) floating: part a nodes 1..10 (grounded); part b nodes 10..20 where
    # the spring between 15 and 16 is missing, so nodes 16..20 hang on
    # nothing once the interface node 10 is fixed
    e = os.path.join(d, "floating")
    os.makedirs(e, exist_ok=True)
    K, M = component(list(range(1, 11)), m, k, {10: 0.5}, True, list(range(1, 11)))
    write_comp(e, "a", [(nd, 1) for nd in range(1, 11)], K, M)
    K, M = component(list(range(10, 21)), m, k, {10: 0.5}, False, [s for s in range(11, 21) if s != 16])
    write_comp(e, "b", [(nd, 1) for nd in range(10, 21)], K, M)


if __name__ == "__main__":
    what, d = sys.argv[1], sys.argv[2]
    os.makedirs(d, exist_ok=True)
    {"chain": chain, "errors": errors}[what](d)
