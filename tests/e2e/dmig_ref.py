#!/usr/bin/python3
"""An independent Nastran DMIG writer for the tests of dynred's dmig reader,
written from the bulk data card description (MSC/NX Quick Reference Guide,
DMIG), not from dynred's writer or reader:

  header  DMIG NAME "0" IFO TIN TOUT POLAR (blank) NCOL
  column  DMIG NAME GJ CJ (blank) G1 C1 A1 B1 / G2 C2 A2 B2 G3 C3 A3 B3 ...

in the three bulk data forms: small field (10 fields of 8 characters, the
continuation id in field 10 repeated in field 1 of the next line), large
field (a '*' after the name, 4 data fields of 16 characters per line,
continuation lines starting with '*') and free field (comma separated).
Reals are written in Nastran's notations (a decimal point, E or D exponent or
the bare signed exponent "1.2345-3"), and parsed back here by the same rules
(nastran_real), so the matrices "as written" are exactly what a correct
reader must return.

write_dmig(path, mats, pts, form, ifo, ...) returns those matrices.
"""
import numpy as np


def nastran_real(s):
    """A Nastran real field (decimal point required; E/D or implied exponent)."""
    s = s.strip().upper().replace("D", "E")
    assert "." in s, s
    k = max(s.rfind("+"), s.rfind("-"))
    if k > 0 and s[k - 1] != "E":
        s = s[:k] + "E" + s[k:]
    return float(s)


def real8(v):
    """v in at most 8 characters, as many digits as fit, implied exponent."""
    if v == 0:
        return "0."
    for p in range(7, -1, -1):
        m, e = f"{v:.{p}E}".split("E")
        e = int(e)
        if "." not in m:
            m += "."
        m = m.rstrip("0") if p else m
        s = m + ("" if e == 0 else f"{e:+d}")
        if len(s) <= 8:
            return s
    raise ValueError(v)


def real16(v):
    """v in 16 characters with a D exponent (as MSC's double precision punch)."""
    for p in range(10, 0, -1):
        s = f"{v:.{p}E}".replace("E", "D")
        if len(s) <= 16:
            return s
    raise ValueError(v)


def realfree(v):
    """17 significant digits: every double round-trips (free field has no width)."""
    return f"{v:.16E}"


class Card:
    """Logical fields 2.. of one card; lines() lays them out."""

    def __init__(self, fields):
        self.f = list(fields)

    def lines(self, form, name, contid, blank_f1=False):
        out = []
        if form == "small":
            f = self.f + [""] * (-len(self.f) % 8)
            for k in range(0, len(f), 8):
                head = name if k == 0 else ("" if blank_f1 else f"+{contid}{k // 8:03d}"[:8])
                tail = f"+{contid}{k // 8 + 1:03d}"[:8] if k + 8 < len(f) else ""
                out.append(f"{head:<8s}" + "".join(f"{x:>8s}" for x in f[k:k + 8]) + tail)
        elif form == "large":
            f = self.f + [""] * (-len(self.f) % 4)
            for k in range(0, len(f), 4):
                head = name + "*" if k == 0 else f"*{contid}{k // 4:02d}"[:8]
                tail = f"*{contid}{k // 4 + 1:02d}"[:8] if k + 4 < len(f) else ""
                out.append(f"{head:<8s}" + "".join(f"{x:>16s}" for x in f[k:k + 4]) + tail)
        else:  # free field, 8 data fields per line
            f = self.f + [""] * (-len(self.f) % 8)
            for k in range(0, len(f), 8):
                out.append((name if k == 0 else "") + "," + ",".join(f[k:k + 8]))
        return out


def write_dmig(path, mats, pts, form="small", ifo=6, triangle="upper",
               spoint_blank=False, blank_f1=False, extra=None, rng=None):
    """Write the matrices mats = [(NAME, A), ...] (A dense n x n over the
    points pts = [(G, C), ...], C = 0 a scalar point) as DMIG cards.
    ifo 6: one triangle ('upper', 'lower' or 'mixed': each pair from a random
    side); ifo 1: every nonzero.  Columns are written in a shuffled order
    with shuffled terms when rng is given.  Returns the matrices as written
    (values parsed back with nastran_real, mirrored for ifo 6)."""
    real = {"small": real8, "large": real16, "free": realfree}[form]
    lines = ["$ DMIG test file written by tests/e2e/dmig_ref.py (%s field, IFO=%d)" % (form, ifo)]
    if extra:
        lines += extra
    n = len(pts)
    out = []
    comp = lambda c: "" if (c == 0 and spoint_blank) else str(c)
    for im, (name, A) in enumerate(mats):
        W = np.zeros((n, n))
        hdr = Card([name, "0", str(ifo), "2", "0", "", "", ""])
        lines += hdr.lines(form, "DMIG", f"H{im}")
        cols = list(range(n))
        if rng is not None:
            rng.shuffle(cols)
        for j in cols:
            terms = []
            for i in range(n):
                if A[i, j] == 0:
                    continue
                if ifo == 6:
                    side = triangle if triangle != "mixed" else ("upper" if (i * 7 + j * 3) % 2 else "lower")
                    if (side == "upper" and i > j) or (side == "lower" and i < j):
                        continue
                terms.append(i)
            if not terms:
                continue
            if rng is not None:
                rng.shuffle(terms)
            f = [name, str(pts[j][0]), comp(pts[j][1]), ""]
            for i in terms:
                s = real(A[i, j])
                f += [str(pts[i][0]), comp(pts[i][1]), s, ""]
                W[i, j] = nastran_real(s)
                if ifo == 6:
                    W[j, i] = W[i, j]
            lines += Card(f).lines(form, "DMIG", f"{im}{j:03d}"[-4:], blank_f1)
        out.append(W)
    open(path, "w").write("\n".join(lines) + "\n")
    return out
