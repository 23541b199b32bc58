#!/usr/bin/python3
"""Independent OP4 (Nastran OUTPUT4) and DMIG code for the exchange tests,
written from the format description, not from dynred's C code:

OP4, real matrices.  Per matrix a header (ncol, nrow, form, type, 8-char
name), one record per column with a nonzero (icol, irow, nw, values),
closed by a record for column ncol + 1.  Dense column: irow = first row of
the run.  Sparse column: irow = 0, then strings of consecutive rows, each
with a header: bigmat (nrow written negative) two words L + 1, irow;
non-bigmat one word IS = irow + 65536 (L + 1); L in 4-byte words.  ASCII:
"%8d" integers, values in the width the header's format gives
("1P,3E24.16"); in a dense ASCII column nw counts values, elsewhere words
(a double = 2).  Binary: Fortran sequential records (int32 length before
and after), 4-byte integers.

DMIG, large field: "DMIG*" cards of 16-character fields (8-character first
field), continuation lines starting with "*"; header NAME, 0, IFO, TIN /
TOUT, POLAR, -, NCOL; column NAME, GJ, CJ / then per term GI, CI, A.
"""
import re
import struct

import numpy as np


# ----------------------------------------------------------------- writer
def _runs(col):
    """(start, values) strings of consecutive nonzeros of a column"""
    nz = np.flatnonzero(col)
    out = []
    if len(nz) == 0:
        return out
    start = prev = nz[0]
    for i in nz[1:]:
        if i != prev + 1:
            out.append((start, col[start:prev + 1]))
            start = i
        prev = i
    out.append((start, col[start:prev + 1]))
    return out


def write_op4(path, mats, binary=False, sparse=None, endian="<", width=24, digits=16, perline=3):
    """mats: list of (name, dense square array).  sparse: None (dense
    columns), 'bigmat' or 'nonbigmat'."""
    fmt = f"%{width}.{digits}E"

    def ascii_values(vals):
        s = ""
        for k, v in enumerate(vals):
            s += fmt % v
            if k % perline == perline - 1 or k == len(vals) - 1:
                s += "\n"
        return s

    with open(path, "wb") as f:
        for name, A in mats:
            A = np.asarray(A, dtype=float)
            n = A.shape[0]
            form = 6 if np.array_equal(A, A.T) else 1
            nrow = -n if sparse == "bigmat" else n
            if binary:
                f.write(struct.pack(endian + "5i8si", 24, n, nrow, form, 2, name.ljust(8).encode(), 24))
            else:
                f.write(f"{n:8d}{nrow:8d}{form:8d}{2:8d}{name:<8s}1P,{perline}E{width}.{digits}\n".encode())
            for j in range(n):
                runs = _runs(A[:, j])
                if not runs:
                    continue
                if sparse is None:
                    s0, e0 = runs[0][0], runs[-1][0] + len(runs[-1][1])
                    vals = A[s0:e0, j]
                    if binary:
                        rl = 12 + 8 * len(vals)
                        f.write(struct.pack(endian + "4i", rl, j + 1, s0 + 1, 2 * len(vals)))
                        f.write(struct.pack(endian + f"{len(vals)}d", *vals))
                        f.write(struct.pack(endian + "i", rl))
                    else:
                        f.write(f"{j + 1:8d}{s0 + 1:8d}{len(vals):8d}\n".encode())
                        f.write(ascii_values(vals).encode())
                else:
                    hw = 2 if sparse == "bigmat" else 1
                    nw = sum(hw + 2 * len(v) for _, v in runs)
                    if binary:
                        f.write(struct.pack(endian + "4i", (3 + nw) * 4, j + 1, 0, nw))
                    else:
                        f.write(f"{j + 1:8d}{0:8d}{nw:8d}\n".encode())
                    for s0, v in runs:
                        L = 2 * len(v)
                        if sparse == "bigmat":
                            hdr = (L + 1, s0 + 1)
                        else:
                            hdr = (s0 + 1 + 65536 * (L + 1),)
                        if binary:
                            f.write(struct.pack(endian + f"{len(hdr)}i", *hdr))
                            f.write(struct.pack(endian + f"{len(v)}d", *v))
                        else:
                            f.write(("".join(f"{h:8d}" for h in hdr) + "\n").encode())
                            f.write(ascii_values(v).encode())
                    if binary:
                        f.write(struct.pack(endian + "i", (3 + nw) * 4))
            if binary:
                f.write(struct.pack(endian + "4id i", 20, n + 1, 1, 2, 1.0, 20))
            else:
                f.write(f"{n + 1:8d}{1:8d}{1:8d}\n".encode() + ascii_values([1.0]).encode())


# ----------------------------------------------------------------- reader
def read_op4(path):
    """list of (name, form, dense array); ASCII or binary (either byte order)."""
    data = open(path, "rb").read()
    if data[:4] in (struct.pack("<i", 24), struct.pack(">i", 24)):
        return _read_binary(data)
    return _read_ascii(data.decode())


def _read_binary(data):
    e = "<" if data[:4] == struct.pack("<i", 24) else ">"
    pos = 0
    out = []

    def record():
        nonlocal pos
        (n,) = struct.unpack_from(e + "i", data, pos)
        body = data[pos + 4:pos + 4 + n]
        (m,) = struct.unpack_from(e + "i", data, pos + 4 + n)
        assert m == n, (m, n)
        pos += 8 + n
        return body

    while pos < len(data):
        h = record()
        ncol, nrow, form, typ = struct.unpack_from(e + "4i", h, 0)
        name = h[16:24].decode().strip()
        assert typ == 2
        bigmat = nrow < 0
        A = np.zeros((abs(nrow), ncol))
        while True:
            r = record()
            icol, irow, nw = struct.unpack_from(e + "3i", r, 0)
            if icol == ncol + 1:
                break
            if irow > 0:
                A[irow - 1:irow - 1 + nw // 2, icol - 1] = struct.unpack_from(e + f"{nw // 2}d", r, 12)
            else:
                p, left = 12, nw
                while left > 0:
                    if bigmat:
                        L1, ir = struct.unpack_from(e + "2i", r, p)
                        p += 8
                        left -= 2
                    else:
                        (IS,) = struct.unpack_from(e + "i", r, p)
                        L1 = IS // 65536
                        ir = IS - 65536 * L1
                        p += 4
                        left -= 1
                    L = L1 - 1
                    A[ir - 1:ir - 1 + L // 2, icol - 1] = struct.unpack_from(e + f"{L // 2}d", r, p)
                    p += 4 * L
                    left -= L
        out.append((name, form, A))
    return out


def _read_ascii(text):
    lines = text.splitlines()
    i = 0
    out = []
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        h = lines[i]
        i += 1
        ncol, nrow, form, typ = (int(h[k:k + 8]) for k in range(0, 32, 8))
        name = h[32:40].strip()
        m = re.match(r"(?:1P,)?(\d+)[ED](\d+)\.(\d+)", h[40:].strip())
        perline, width = int(m.group(1)), int(m.group(2))
        bigmat = nrow < 0
        A = np.zeros((abs(nrow), ncol))

        def values(count):
            nonlocal i
            vals = []
            while len(vals) < count:
                ln = lines[i]
                i += 1
                k = min(perline, count - len(vals))
                vals += [float(ln[w * width:(w + 1) * width].replace("D", "E")) for w in range(k)]
            return vals

        while True:
            icol, irow, nw = (int(lines[i][k:k + 8]) for k in (0, 8, 16))
            i += 1
            if icol == ncol + 1:
                values(nw)
                break
            if irow > 0:
                A[irow - 1:irow - 1 + nw, icol - 1] = values(nw)
            else:
                left = nw
                while left > 0:
                    if bigmat:
                        L1, ir = int(lines[i][0:8]), int(lines[i][8:16])
                        left -= 2
                    else:
                        IS = int(lines[i])
                        L1 = IS // 65536
                        ir = IS - 65536 * L1
                        left -= 1
                    i += 1
                    L = L1 - 1
                    A[ir - 1:ir - 1 + L // 2, icol - 1] = values(L // 2)
                    left -= L
        out.append((name, form, A))
    return out


def read_dmig(path):
    """{name: {(GJ, CJ): {(GI, CI): value}}}, header fields per name, SPOINT ranges"""
    cards = []  # list of field lists (fields 2..) per logical card
    spoints = []
    for ln in open(path).read().splitlines():
        if ln.startswith("$") or not ln.strip():
            continue
        if ln.startswith("SPOINT"):
            f = [ln[k:k + 8].strip() for k in range(8, 40, 8)]
            assert f[1] == "THRU", f
            spoints.append((int(f[0]), int(f[2])))
            continue
        if ln.startswith("DMIG*"):
            cards.append([ln[k:k + 16].strip() for k in range(8, 72, 16)])
        elif ln.startswith("*"):
            cards[-1] += [ln[k:k + 16].strip() for k in range(8, 72, 16)]
        else:
            raise ValueError("unexpected line " + ln)
    mats, headers = {}, {}
    for c in cards:
        name = c[0]
        if c[1] == "0":
            headers[name] = c
            mats[name] = {}
            continue
        col = (int(c[1]), int(c[2]))
        terms = c[4:]
        entries = {}
        for k in range(0, len(terms), 4):
            if not terms[k]:
                continue
            entries[(int(terms[k]), int(terms[k + 1]))] = float(terms[k + 2])
        mats[name][col] = entries
    return mats, headers, spoints
