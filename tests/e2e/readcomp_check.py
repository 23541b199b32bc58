#!/usr/bin/python3
"""Independent check of a component reader: parse the input files here
(Matrix Market or CalculiX .sti/.mas/.dof, both upper or lower triangle of a
symmetric matrix) and compare them entry by entry with the matrices the
reader built (test_readcomp -dump PREFIX: PETSc binary + labels), after
mapping the component's DOF order to the file's by label.  Also compares
the generalized eigenvalues of (K, M) from the raw files (scipy) with those
of the matrices read.

  readcomp_check.py mtx PREFIX K.mtx M.mtx DOFS
  readcomp_check.py calculix PREFIX JOBNAME
"""
import sys
import numpy as np
import scipy.linalg as sla


def petsc_bin(path):
    """A PETSc binary AIJ matrix (big-endian: classid, M, N, nz, row
    lengths, column indices, values) as a dense array.  The integers are
    int32, or int64 from a PETSc with 64-bit indices (make INDEX64=1)."""
    b = open(path, "rb").read()
    it = ">i8" if np.frombuffer(b, ">i4", 2)[0] == 0 else ">i4"
    w = np.dtype(it).itemsize
    hdr = np.frombuffer(b, it, 4)
    assert hdr[0] == 1211216, f"{path}: class id {hdr[0]}, expected a PETSc Mat"
    m, n, nz = int(hdr[1]), int(hdr[2]), int(hdr[3])
    off = 4 * w
    rl = np.frombuffer(b, it, m, off); off += w * m
    cj = np.frombuffer(b, it, nz, off); off += w * nz
    v = np.frombuffer(b, ">f8", nz, off)
    A = np.zeros((m, n))
    A[np.repeat(np.arange(m), rl), cj] = v
    return A


def labels(path):
    return [tuple(int(t) for t in l.split(".")) for l in open(path).read().split()]


def triangle(rows, n):
    """Dense symmetric matrix from (i, j, v) 1-based entries of one triangle;
    repeated entries add (FE assembly), in file order."""
    A = np.zeros((n, n))
    for i, j, v in rows:
        A[i - 1, j - 1] += v
        if i != j:
            A[j - 1, i - 1] += v
    return A


def mtx(path):
    lines = [l for l in open(path) if not l.startswith("%")]
    m, n, nz = (int(t) for t in lines[0].split())
    rows = [(int(a), int(b), float(c)) for a, b, c in (l.split() for l in lines[1:1 + nz])]
    assert len(rows) == nz and m == n
    return triangle(rows, n)


def ccx(path, n):
    rows = [(int(a), int(b), float(c)) for a, b, c in (l.split() for l in open(path) if l.strip())]
    return triangle(rows, n)


def main():
    fmt, prefix = sys.argv[1], sys.argv[2]
    if fmt == "mtx":
        lab = labels(sys.argv[5])
        Kf, Mf = mtx(sys.argv[3]), mtx(sys.argv[4])
    else:
        job = sys.argv[3]
        lab = labels(job + ".dof")
        Kf, Mf = ccx(job + ".sti", len(lab)), ccx(job + ".mas", len(lab))
    clab = labels(prefix + ".dof")
    K, M = petsc_bin(prefix + "_K.bin"), petsc_bin(prefix + "_M.bin")
    n = len(lab)
    assert sorted(clab) == sorted(lab) and K.shape == (n, n), (len(clab), n, K.shape)
    p = np.array([lab.index(l) for l in clab])  # component DOF i = file DOF p[i]
    for name, A, F in (("K", K, Kf), ("M", M, Mf)):
        Fp = F[np.ix_(p, p)]
        # both sides parse the same decimal text with a correctly rounded
        # strtod: equal up to a possible rescale/symmetrization, i.e. a few
        # rounding errors (4 u = 9e-16) of the largest entry
        err = np.abs(A - Fp).max() / np.abs(Fp).max()
        assert err <= 4 * np.finfo(float).eps, f"{name}: max entry difference {err:.3g} of max |{name}|"
        assert (np.count_nonzero(A) == np.count_nonzero(Fp)), (name, np.count_nonzero(A), np.count_nonzero(Fp))
        print(f"{name}: {np.count_nonzero(A)} nonzeros, max rel entry difference {err:.3g}")
    lf = sla.eigh(Kf, Mf, eigvals_only=True)
    lc = sla.eigh(K, M, eigvals_only=True)
    # equal matrices up to 4 u: eigenvalues of a symmetric-definite pencil
    # move by <= kappa(M) * 4 u relative to max |lambda| (Weyl); M is
    # well conditioned here, 1e-12 leaves kappa(M) up to ~1e3
    kap = np.linalg.cond(Mf)
    assert kap < 1e3, kap
    assert np.abs(lf - lc).max() <= 1e-12 * np.abs(lf).max(), (lf, lc)
    print(f"eigenvalues of (K, M) from the raw files = of the matrices read (kappa(M) = {kap:.3g}); lowest {lf[:3]}")
    print("ok")


main()
