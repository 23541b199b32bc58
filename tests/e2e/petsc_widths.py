#!/usr/bin/python3
"""Writes the Matrix Market K and M of a test component as PETSc binary
files (MatView's AIJ layout, written here from the format description:
big-endian class id 1211216, rows, columns, nonzeros, row lengths, 0-based
column indices ascending per row, float64 values) with 32-bit integers
(DIR/km4.bin) and with 64-bit ones, as a PETSc built with 64-bit indices
writes them (DIR/km8.bin), each with the labels as FILE.dof; and
DIR/bad8.bin: km8.bin with column index 61 (0-based) in K's row 4, which the
reader must reject as it does in a 32-bit file.  dynred reads either width
in either build (src/model/io_petsc.c converts the other width).

usage: petsc_widths.py K.mtx M.mtx DOFS DIR
"""
import shutil
import sys
import numpy as np


def mtx(path):
    lines = [l for l in open(path) if not l.startswith('%')]
    n, _, nz = (int(t) for t in lines[0].split())
    sym = 'symmetric' in open(path).readline()
    A = np.zeros((n, n))
    for l in lines[1:nz + 1]:
        i, j, v = l.split()
        i, j = int(i) - 1, int(j) - 1
        A[i, j] = float(v)
        if sym:
            A[j, i] = float(v)
    return A


def aij(A, it, bad=False):
    n = A.shape[0]
    rl = [int(np.count_nonzero(A[i])) for i in range(n)]
    cj = np.concatenate([np.nonzero(A[i])[0] for i in range(n)]).astype(it)
    v = np.concatenate([A[i][np.nonzero(A[i])[0]] for i in range(n)]).astype('>f8')
    if bad:  # row 4 (1-based), its first entry
        cj[sum(rl[:3])] = 61
    hdr = np.array([1211216, n, n, len(v)], it)
    return hdr.tobytes() + np.array(rl, it).tobytes() + cj.tobytes() + v.tobytes()


K, M = mtx(sys.argv[1]), mtx(sys.argv[2])
d = sys.argv[4]
for name, it, bad in (('km4', '>i4', False), ('km8', '>i8', False), ('bad8', '>i8', True)):
    with open('%s/%s.bin' % (d, name), 'wb') as f:
        f.write(aij(K, it, bad) + aij(M, it))
    shutil.copy(sys.argv[3], '%s/%s.bin.dof' % (d, name))
print('wrote km4.bin, km8.bin, bad8.bin in', d)
