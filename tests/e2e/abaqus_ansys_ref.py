#!/usr/bin/python3
"""Independent writers of the Abaqus and Ansys matrix files dynred reads
(components[].format abaqus / ansys), from the formats' documented layouts
(docs/formats.md), not from dynred's readers; and the check of what the
readers built against the numpy matrices.

  abaqus_ansys_ref.py write DIR    the model (DIR/model.npz) in every form
  abaqus_ansys_ref.py check PREFIX DIR [NPZ]
      PREFIX_K.bin, PREFIX_M.bin [PREFIX_D.bin], PREFIX.dof (test_readcomp
      -dump) against DIR/model.npz (or DIR/NPZ), entry by entry through the
      labels

The model: 9 nodes of 6 DOFs (54 DOFs), numbered sparsely with one large
node number (Abaqus and Ansys keep user node numbers), joined in a chain by
random symmetric positive definite 6 x 6 springs, with springs to ground at
both ends (K definite) and random SPD 6 x 6 nodal masses coupled between
neighbours (M definite, not diagonal); D = 0.3 M + 2e-4 K.  The files number
the equations in a shuffled order (a solver's ordering), so the label
mapping matters.
"""
import sys
import numpy as np

NODES = [3, 7, 8, 15, 16, 42, 100, 101, 1000000007]
DIRS = ["UX", "UY", "UZ", "ROTX", "ROTY", "ROTZ"]


def model():
    rng = np.random.default_rng(11)
    nn = len(NODES)
    n = 6 * nn
    K = np.zeros((n, n))
    M = np.zeros((n, n))

    def spd(scale):
        A = rng.standard_normal((6, 6))
        return scale * (A @ A.T / 6 + np.eye(6))

    def spring(a, b, k):
        ia, ib = slice(6 * a, 6 * a + 6), slice(6 * b, 6 * b + 6)
        K[ia, ia] += k
        K[ib, ib] += k
        K[ia, ib] -= k
        K[ib, ia] -= k

    for a in range(nn - 1):
        spring(a, a + 1, spd(1e6))
    K[0:6, 0:6] += spd(2e6)
    K[-6:, -6:] += spd(5e5)
    for a in range(nn):
        M[6 * a:6 * a + 6, 6 * a:6 * a + 6] += spd(1.0)
    for a in range(nn - 1):
        c = 0.05 * np.eye(6)
        M[6 * a:6 * a + 6, 6 * a + 6:6 * a + 12] += c
        M[6 * a + 6:6 * a + 12, 6 * a:6 * a + 6] += c
    D = 0.3 * M + 2e-4 * K
    K = (K + K.T) / 2
    M = (M + M.T) / 2
    D = (D + D.T) / 2
    labels = [(node, d + 1) for node in NODES for d in range(6)]
    return K, M, D, labels


def order():
    """Equation e (0-based) of the files is model DOF perm[e]."""
    n = 6 * len(NODES)
    return np.random.default_rng(5).permutation(n)


def entries(A, perm, tri):
    """(row, col, value), 1-based equation numbers, rows in order: tri
    'lower' (col <= row), 'upper' (col >= row) or 'square'; exact zeros
    left out (as the programs write sparse storage)."""
    B = A[np.ix_(perm, perm)]
    out = []
    n = len(perm)
    for i in range(n):
        for j in range(n):
            if B[i, j] == 0.0:
                continue
            if (tri == "lower" and j > i) or (tri == "upper" and j < i):
                continue
            out.append((i + 1, j + 1, B[i, j]))
    return out


def abaqus_input(path, A, perm, labels, tri="lower"):
    """*MATRIX OUTPUT, FORMAT=MATRIX INPUT: 'row node, row DOF, column
    node, column DOF, value', as Abaqus prints it ("1,1, 1,1, 1.0...")."""
    with open(path, "w") as f:
        f.write("** written by tests/e2e/abaqus_ansys_ref.py\n")
        for i, j, v in entries(A, perm, tri):
            (ni, di), (nj, dj) = labels[perm[i - 1]], labels[perm[j - 1]]
            f.write(f"{ni},{di}, {nj},{dj}, {v:.16e}\n")


def abaqus_coord(path, A, perm):
    """*MATRIX OUTPUT, FORMAT=COORDINATE: 'row, column, value' (lower
    triangle, 1-based equation numbers)."""
    with open(path, "w") as f:
        for i, j, v in entries(A, perm, "lower"):
            f.write(f"{i},{j}, {v:.16e}\n")


def dofs(path, perm, labels):
    with open(path, "w") as f:
        for e in perm:
            f.write("%d.%d\n" % labels[e])


def ansys_mapping(path, perm, labels):
    """HBMAT's mapping file: a header line, then 'equation node DOF'."""
    with open(path, "w") as f:
        f.write(" Matrix Eqn   Node   DOF\n")
        for e, m in enumerate(perm):
            node, d = labels[m]
            f.write("%11d %6d %5s\n" % (e + 1, node, DIRS[d - 1]))


def fortran_e(v, w, d, exp="E", scale=1):
    """A value as Fortran's (kP, Ew.d) would print it: scale 1 gives one
    digit before the point (1P), 0 gives 0.dddd."""
    if scale == 1:
        s = f"{v:.{d}E}"
    else:
        m, e = f"{v:.{d - 1}E}".split("E")
        sign = "-" if m.startswith("-") else ""
        digits = m.lstrip("-").replace(".", "")
        s = f"{sign}0.{digits}E{int(e) + 1:+03d}"
    return s.replace("E", exp).rjust(w)


def hb(path, A, perm, title, ptrfmt=(10, 8), indfmt=(10, 8), valfmt=(4, 25, 16, "E", 1), sym=True, rhs=False):
    """Harwell-Boeing RSA (lower triangle by columns) or RUA (all entries):
    the 4 (5 with a right-hand side) header lines, then pointers, row
    indices, values in fixed-width fields of their Fortran formats."""
    n = len(perm)
    B = A[np.ix_(perm, perm)]
    ptr, ind, val = [1], [], []
    for j in range(n):
        for i in range(j if sym else 0, n):
            if B[i, j] != 0.0:
                ind.append(i + 1)
                val.append(B[i, j])
        ptr.append(len(ind) + 1)

    def lines(xs, per, field):
        return ["".join(field(x) for x in xs[k:k + per]) for k in range(0, len(xs), per)]

    P = lines(ptr, ptrfmt[0], lambda x: str(x).rjust(ptrfmt[1]))
    I = lines(ind, indfmt[0], lambda x: str(x).rjust(indfmt[1]))
    vp, vw, vd, ve, vs = valfmt
    V = lines(val, vp, lambda x: fortran_e(x, vw, vd, ve, vs))
    R = lines([1.0] * n, vp, lambda x: fortran_e(x, vw, vd, ve, vs)) if rhs else []
    tot = len(P) + len(I) + len(V) + len(R)
    sf = "1P," if vs == 1 else ""
    with open(path, "w") as f:
        f.write(f"{title:<72.72}{'KEY':<8}\n")
        f.write("%14d%14d%14d%14d%14d\n" % (tot, len(P), len(I), len(V), len(R)))
        f.write("%-14s%14d%14d%14d%14d\n" % ("RSA" if sym else "RUA", n, n, len(ind), 0))
        f.write("%-16s%-16s%-20s%-20s\n" % (f"({ptrfmt[0]}I{ptrfmt[1]})", f"({indfmt[0]}I{indfmt[1]})",
                                           f"({sf}{vp}{ve}{vw}.{vd})", f"({sf}{vp}{ve}{vw}.{vd})"))
        if rhs:
            f.write("%-3s%11s%14d%14d\n" % ("F", "", 1, 0))
        for l in P + I + V + R:
            f.write(l + "\n")


def mm(path, A, perm, symmetric=True):
    """Matrix Market as APDL Math's *EXPORT, MMF writes it."""
    e = entries(A, perm, "lower" if symmetric else "square")
    n = len(perm)
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate real %s\n" % ("symmetric" if symmetric else "general"))
        f.write("%% written by tests/e2e/abaqus_ansys_ref.py\n")
        f.write(f"{n} {n} {len(e)}\n")
        for i, j, v in e:
            f.write(f"{i} {j} {v:.17e}\n")


def write(d):
    K, M, D, labels = model()
    perm = order()
    np.savez(f"{d}/model.npz", K=K, M=M, D=D, labels=np.array(labels))
    # Abaqus, FORMAT=MATRIX INPUT: lower (as written), upper, square; with D
    for tri in ("lower", "upper", "square"):
        abaqus_input(f"{d}/abq_{tri}_STIF1.mtx", K, perm, labels, tri)
        abaqus_input(f"{d}/abq_{tri}_MASS1.mtx", M, perm, labels, tri)
    abaqus_input(f"{d}/abq_lower_DMPV1.mtx", D, perm, labels)
    # Abaqus, FORMAT=COORDINATE with the equations' labels
    abaqus_coord(f"{d}/abqc_STIF1.mtx", K, perm)
    abaqus_coord(f"{d}/abqc_MASS1.mtx", M, perm)
    abaqus_coord(f"{d}/abqc_DMPV1.mtx", D, perm)
    dofs(f"{d}/abqc.dof", perm, labels)
    # Ansys HBMAT: Ansys-like formats; one value per line with D exponents
    # and no scale factor (0.ddd); an RUA file with a right-hand side
    ansys_mapping(f"{d}/ans.mapping", perm, labels)
    hb(f"{d}/ans_K.matrix", K, perm, "Stiffness matrix")
    hb(f"{d}/ans_M.matrix", M, perm, "Mass matrix")
    hb(f"{d}/ans_D.matrix", D, perm, "Damping matrix")
    hb(f"{d}/ans1_K.matrix", K, perm, "Stiffness matrix", (1, 14), (1, 14), (1, 26, 17, "D", 0))
    hb(f"{d}/ans1_M.matrix", M, perm, "Mass matrix", (16, 5), (16, 5), (3, 26, 17, "D", 0))
    hb(f"{d}/ansu_K.matrix", K, perm, "Stiffness matrix", sym=False, rhs=True)
    hb(f"{d}/ansu_M.matrix", M, perm, "Mass matrix", sym=False, rhs=True)
    # Ansys *EXPORT, MMF with the same mapping
    mm(f"{d}/ans_K.mtx", K, perm)
    mm(f"{d}/ans_M.mtx", M, perm, symmetric=False)
    mm(f"{d}/ans_D.mtx", D, perm)
    # 1206 DOFs (201 nodes): more labels than the reader's first label
    # buffer (1024), so its compaction and growth run
    nb = 201
    nodes = [10 * a + 1 for a in range(nb)]
    Kb = np.zeros((6 * nb, 6 * nb))
    for a in range(nb - 1):
        for c in range(6):
            i, j = 6 * a + c, 6 * a + 6 + c
            k = 1e5 * (1 + (a * 7 + c) % 5)
            Kb[i, i] += k; Kb[j, j] += k; Kb[i, j] -= k; Kb[j, i] -= k
    Kb[np.arange(6), np.arange(6)] += 1e5
    Mb = np.diag(1.0 + np.arange(6 * nb) % 3)
    lb = [(node, c + 1) for node in nodes for c in range(6)]
    pb = np.random.default_rng(3).permutation(6 * nb)
    np.savez(f"{d}/big.npz", K=Kb, M=Mb, labels=np.array(lb))
    abaqus_input(f"{d}/abq_big_STIF1.mtx", Kb, pb, lb)
    abaqus_input(f"{d}/abq_big_MASS1.mtx", Mb, pb, lb)
    import scipy.linalg as sla
    lam = sla.eigh(K, M, eigvals_only=True)
    np.save(f"{d}/fref.npy", np.sqrt(lam[:12]) / (2 * np.pi))


def petsc_bin(path):
    """PETSc binary AIJ (big-endian; int32 or int64 indices) as dense."""
    b = open(path, "rb").read()
    it = ">i8" if np.frombuffer(b, ">i4", 2)[0] == 0 else ">i4"
    w = np.dtype(it).itemsize
    hdr = np.frombuffer(b, it, 4)
    assert hdr[0] == 1211216, f"{path}: class id {hdr[0]}"
    m, n, nz = int(hdr[1]), int(hdr[2]), int(hdr[3])
    off = 4 * w
    rl = np.frombuffer(b, it, m, off); off += w * m
    cj = np.frombuffer(b, it, nz, off); off += w * nz
    v = np.frombuffer(b, ">f8", nz, off)
    A = np.zeros((m, n))
    A[np.repeat(np.arange(m), rl), cj] = v
    return A


def check(prefix, d, npz="model.npz"):
    import os
    z = np.load(f"{d}/{npz}")
    lab = [tuple(int(x) for x in l) for l in z["labels"]]
    clab = [tuple(int(t) for t in l.split(".")) for l in open(prefix + ".dof").read().split()]
    assert sorted(clab) == sorted(lab), "the component's labels are not the model's"
    p = np.array([lab.index(l) for l in clab])  # component DOF i = model DOF p[i]
    for name in ("K", "M", "D"):
        if not os.path.exists(f"{prefix}_{name}.bin"):
            assert name == "D", f"{prefix}_{name}.bin missing"
            continue
        A = petsc_bin(f"{prefix}_{name}.bin")
        F = z[name][np.ix_(p, p)]
        # tol: the files hold 17 significant digits (16 after the point in
        # E format; 17 in 0.ddd form), so each entry is within 1 ulp of the
        # numpy value after strtod's correct rounding: 2 u of max |entry|
        err = np.abs(A - F).max() / np.abs(F).max()
        assert err <= 2 * np.finfo(float).eps, f"{name}: max entry difference {err:.3g} of max |{name}|"
        assert np.count_nonzero(A) == np.count_nonzero(F), (name, np.count_nonzero(A), np.count_nonzero(F))
        print(f"{name}: {np.count_nonzero(A)} nonzeros equal the model's ({err:.2g} of max |{name}|)")
    print("ok")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        check(*sys.argv[2:])
