#!/usr/bin/python3
"""Regenerate the binary seeds of the fuzz corpus (scripts/fuzz.py).

  make_seeds.py [DIR]      (default: the directory of this script)

The text seeds (job files, Matrix Market, labels, the CalculiX deck) are
checked in as they are; this script writes the ones that are generated:
  a.bin, a.bin.dof   component a of chain.yaml as a PETSc binary (MatView
                     layout: big-endian int32 header, row lengths, columns,
                     float64 values; K then M) plus its label file
  b.h5               component b as a dynred HDF5 component (the layout of
                     src/model/io_h5comp.c: CSR with both triangles)
  a.op4, b.op4       components a and b as OP4 files (tests/e2e/export_op4_ref.py:
                     a ASCII sparse bigmat, b binary dense little-endian;
                     KAA, MAA; labels a.dof, b.dof), for cms_op4.yaml
  block.{sti,mas,dof}  CalculiX's matrix storage of block.inp (runs ccx)
  cms_result.h5      the result of cms_mtx.yaml (runs bin/dynred), the
                     source of ss.yaml
The chain: 8 masses, spring-grounded at node 1, components a (nodes 1..5)
and b (nodes 5..8) sharing node 5 (mass split 0.4 / 0.6).
"""
import os
import shutil
import struct
import subprocess
import sys

import h5py
import numpy as np

D = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__))
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def chain():
    n = 8
    m = [1.0 + 0.1 * i for i in range(1, n + 1)]
    k = [1.0e4 * (1 + 0.05 * i) for i in range(1, n + 1)]
    return m, k


def comp(nodes, shared, frac):
    m, k = chain()
    idx = {nd: a for a, nd in enumerate(nodes)}
    K = np.zeros((len(nodes), len(nodes)))
    M = np.zeros_like(K)
    for s in range(1, 9):            # spring s joins s-1 and s (0 = ground)
        a, b = s - 1, s
        if b not in idx or (a != 0 and a not in idx):
            continue
        K[idx[b], idx[b]] += k[s - 1]
        if a != 0:
            K[idx[a], idx[a]] += k[s - 1]
            K[idx[a], idx[b]] -= k[s - 1]
            K[idx[b], idx[a]] -= k[s - 1]
    for nd in nodes:
        M[idx[nd], idx[nd]] = m[nd - 1] * (frac if nd == shared else 1.0)
    return K, M


def write_mtx(path, A):
    ent = [(i, j, A[i, j]) for j in range(A.shape[0]) for i in range(A.shape[0]) if A[i, j] != 0 and i >= j]
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n")
        f.write(f"{A.shape[0]} {A.shape[0]} {len(ent)}\n")
        for i, j, v in ent:
            f.write(f"{i + 1} {j + 1} {v:.17g}\n")


def petsc_mat(A):
    n = A.shape[0]
    rows = [[j for j in range(n) if A[i, j] != 0] for i in range(n)]
    nz = sum(len(r) for r in rows)
    b = struct.pack(">4i", 1211216, n, n, nz)
    b += struct.pack(f">{n}i", *[len(r) for r in rows])
    b += struct.pack(f">{nz}i", *[j for r in rows for j in r])
    b += struct.pack(f">{nz}d", *[A[i, j] for i, r in enumerate(rows) for j in r])
    return b


def write_h5comp(path, name, nodes, K, M):
    n = len(nodes)
    with h5py.File(path, "w") as f:
        g = f.create_group("component")
        g.attrs["format"] = np.bytes_(b"dynred-component")
        g.attrs.create("version", 1, dtype="<i4")
        g.attrs["name"] = np.bytes_(name.encode())
        g.attrs["source"] = np.bytes_(b"make_seeds.py")
        g.attrs.create("n", n, dtype="<i8")
        g.create_dataset("labels_node", data=np.array(nodes, dtype="<i8"))
        g.create_dataset("labels_dir", data=np.ones(n, dtype="<i4"))
        for mn, A in (("K", K), ("M", M)):
            h = g.create_group(mn)
            rowptr, col, val = [0], [], []
            for i in range(n):
                for j in range(n):
                    if A[i, j] != 0:
                        col.append(j)
                        val.append(A[i, j])
                rowptr.append(len(col))
            h.create_dataset("rowptr", data=np.array(rowptr, dtype="<i8"))
            h.create_dataset("colind", data=np.array(col, dtype="<i8"))
            h.create_dataset("values", data=np.array(val, dtype="<f8"))


def main():
    na, nb = [1, 2, 3, 4, 5], [5, 6, 7, 8]
    Ka, Ma = comp(na, 5, 0.4)
    Kb, Mb = comp(nb, 5, 0.6)
    for nm, nodes, K, M in (("a", na, Ka, Ma), ("b", nb, Kb, Mb)):
        write_mtx(os.path.join(D, f"{nm}_K.mtx"), K)
        write_mtx(os.path.join(D, f"{nm}_M.mtx"), M)
        with open(os.path.join(D, f"{nm}.dof"), "w") as f:
            f.write("".join(f"{x}.1\n" for x in nodes))
    with open(os.path.join(D, "a.bin"), "wb") as f:
        f.write(petsc_mat(Ka) + petsc_mat(Ma))
    shutil.copy(os.path.join(D, "a.dof"), os.path.join(D, "a.bin.dof"))
    write_h5comp(os.path.join(D, "b.h5"), "b", nb, Kb, Mb)
    sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
    from export_op4_ref import write_op4
    write_op4(os.path.join(D, "a.op4"), [("KAA", Ka), ("MAA", Ma)], sparse="bigmat")
    write_op4(os.path.join(D, "b.op4"), [("KAA", Kb), ("MAA", Mb)], binary=True)
    tmp = os.path.join(D, "ccx.tmp")
    os.makedirs(tmp, exist_ok=True)
    shutil.copy(os.path.join(D, "block.inp"), tmp)
    subprocess.run(["ccx", "-i", "block"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
    for ext in ("sti", "mas", "dof"):
        shutil.copy(os.path.join(tmp, f"block.{ext}"), D)
    shutil.rmtree(tmp)
    subprocess.run([os.path.join(ROOT, "bin", "dynred"), "-config", "cms_mtx.yaml", "-output", "cms_result.h5"],
                   cwd=D, check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
