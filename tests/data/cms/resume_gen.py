#!/usr/bin/python3
"""An 80-mass spring chain in 4 Matrix Market components for
tests/e2e/cms_resume.sh (the cms.reuse design loop).

  resume_gen.py DIR [SCALE]   writes DIR/{a,b,c,d}_{K,M}.mtx, DIR/{a,b,c,d}.dof
                              and DIR/ref_hz.txt (all 80 frequencies of the
                              assembled chain: numpy, Cholesky of M, eigvalsh);
                              SCALE multiplies the springs of component c
                              (nodes 40..60) only -- "one part changed".

Chain data, component writer and the dense reference come from chain_gen.py
(same directory).  Components share nodes 20, 40, 60 (mass split 0.3 / 0.7).
"""
import importlib.util
import os
import sys

import numpy as np

spec = importlib.util.spec_from_file_location("chain_gen", os.path.join(os.path.dirname(os.path.abspath(__file__)), "chain_gen.py"))
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)


def main(d, scale):
    n = 80
    m, k = g.chain_data(n)
    k = k.copy()
    k[40:60] *= scale  # springs 41..60 join nodes 40..60: all inside component c
    cuts = [(1, 20), (20, 40), (40, 60), (60, 80)]
    share = {20: (0.3, 0.7), 40: (0.3, 0.7), 60: (0.3, 0.7)}
    Kf = np.zeros((n, n))
    Mf = np.zeros((n, n))
    for c, (lo, hi) in enumerate(cuts):
        nodes = list(range(lo, hi + 1))
        springs = list(range(lo + 1 if lo > 1 else 1, hi + 1))
        mfrac = {}
        for nd, (f_lo, f_hi) in share.items():
            if nd == lo:
                mfrac[nd] = f_hi
            if nd == hi:
                mfrac[nd] = f_lo
        K, M = g.component(nodes, m, k, mfrac, lo == 1, springs)
        ix = np.array(nodes) - 1
        Kf[np.ix_(ix, ix)] += K
        Mf[np.ix_(ix, ix)] += M
        g.write_comp(d, "abcd"[c], [(nd, 1) for nd in nodes], K, M)
    assert np.allclose(np.diag(Mf), m, rtol=1e-14)
    np.savetxt(os.path.join(d, "ref_hz.txt"), g.eig_hz(Kf, Mf), fmt="%.17g")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.0)
