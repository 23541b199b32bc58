#!/usr/bin/python3
"""Compare two dynred result files (before/after a change): compare_results.py A.h5 B.h5

Exit 0 when B reproduces A within the tolerances below, 1 otherwise (2 on a
usage error).  Prints one line per dataset class with the worst difference,
then the failures (at most 20) and the notes.

Every dataset and attribute is compared, both files must hold the same set.
Ignored: the /timing group, and the attributes that describe the run rather
than its results (IGNORED_ATTRS: version, rank layout, job text, wall clock).

Classes (first match wins):
  ga_front   /ga/pareto/*: r and masters exactly, e to 1e-12 relative, the
             rest of the front (frequencies, time steps) as their own class
  freq       *frequencies_hz*, */eigenvalues, */lambda: 1e-10 relative
  gmp_grid   /gmp/grid/*: 1e-10 relative to the dataset's max |value|
  shapes     */modes (columns = modes) and */shapes/NNNN (one mode each):
             up to the sign of each mode, 1e-6 relative; degenerate modes
             (clusters) compared as a subspace
  basis_sign matrices in modal coordinates (reduced K/M, cross-orthogonality,
             state-space A/B/C): equal up to a sign per row and per column
             (the mode sign convention), then as `other`
  residual   residual norms: same magnitude (within a factor 10)
  error      errors and deviations (names with "error"): absolute
  mac        MAC values: 1e-6 absolute
  other      float: 1e-10 relative to the dataset's max |value|; integers and
             strings exactly
"""
import sys

import h5py
import re
import numpy as np

# --- tolerances -------------------------------------------------------------
# The acceptance (issue 12, "Done when"): frequencies to 1e-10
# relative, GA fronts identical, GMP grids to 1e-10.
TOL_FREQ = 1e-10
TOL_GMP = 1e-10
# GA front "identical": r and masters exactly; e is printed with 10 digits
# by the GA and summed in a fixed order, so only the last bits may move
# (1e-12 relative, 4 orders above double rounding of a few hundred terms).
TOL_GA_E = 1e-12
# Mode shapes: the eigensolver's convergence tolerance (SLEPc EPS tol, 1e-12
# on the relative residual of the shift-inverted problem) bounds the angle
# between a computed and an exact eigenvector by tol / relgap (Davis-Kahan).
# With relgap >= DEGENERATE_GAP = 1e-6 the angle is <= 1e-6: TOL_SHAPE.
# Closer modes are compared as a cluster (their span; same bound with the gap
# to the modes outside the cluster).
TOL_SHAPE = 1e-6
DEGENERATE_GAP = 1e-6
# Rigid-body modes have frequencies that are round-off; below this fraction
# of the largest frequency of the set they form one cluster.
RIGID_FRACTION = 1e-6
# Everything else that is a float result: the frequency tolerance relative to
# the dataset's scale (it is computed from the same modes and matrices).
TOL_OTHER = 1e-10
# Errors and deviations are differences of two frequencies (or responses),
# each allowed to move by TOL_FREQ: absolute 2 * TOL_FREQ in relative units,
# 100 times that for the *_pct ones.
TOL_ERROR = 2 * TOL_FREQ
# MAC and cross-orthogonality values are products of two shapes, each within
# TOL_SHAPE: absolute TOL_SHAPE.
TOL_MAC = TOL_SHAPE
# Residual norms of converged eigenpairs (/modal/residuals: ||K x - lambda M
# x|| / (||K x|| + |lambda| ||M x||)) are round-off, u times a condition
# factor: only their magnitude is reproducible (a different summation order or
# rank layout moves them by tens of percent).  Within RESIDUAL_FACTOR, or both
# below the solver tolerance 1e-12.
RESIDUAL_FACTOR = 10.0
RESIDUAL_FLOOR = 1e-12
# Entries below this fraction of a matrix's max |value| carry no reliable
# sign in the row/column sign matching (basis_sign).
SIGN_FLOOR = 1e-6

IGNORED_GROUPS = ("timing",)
IGNORED_ATTRS = {
    "dynred_version", "version", "nranks", "config", "rank_group", "farm_groups",
    "group_size", "wall_s", "real_time_factor", "evaluations_per_s", "units_timing",
    "peak_rss_mib_per_rank", "seconds", "source",  # source: the path of the input file (differs per run directory)
    "t_start_s", "t_end_s",  # the CMS schedule per component (times, like /timing)
}
BASIS_SIGN = ("cross_orthogonality", "cms/reduced/K", "cms/reduced/M", "ss/A", "ss/B", "ss/C",
              "ss/second_order/K", "ss/second_order/M", "ss/second_order/D",
              "ss/second_order/input_map", "ss/second_order/output_map")


def classify(path):
    base = path.rsplit("/", 1)[-1]
    if path.startswith("ga/pareto/"):
        if base in ("r", "masters"):
            return "ga_front"
        if base == "e":
            return "ga_e"
    if "frequencies_hz" in base or base in ("eigenvalues", "lambda"):
        return "freq"
    if path.startswith("gmp/grid/"):
        return "gmp_grid"
    if base == "modes" or "/shapes/" in path:
        return "shapes"
    if any(path.endswith(s) for s in BASIS_SIGN):
        return "basis_sign"
    if "residual" in base:
        return "residual"
    if "error" in base:
        return "error"
    if "mac" in base:
        return "mac"
    return "other"


class Report:
    def __init__(self):
        self.worst = {}
        self.fails = []
        self.notes = []

    def add(self, cls, val, tol, what):
        if not np.isfinite(val):
            val = np.inf
        w = self.worst.get(cls)
        if w is None or val > w[0]:
            self.worst[cls] = (val, tol, what)
        if val > tol:
            self.fails.append(f"{what}: {cls} difference {val:.3e} > {tol:.1e}")


def maxabs(x):
    return float(np.max(np.abs(x))) if x.size else 0.0


def rel_scaled(a, b):
    """max |a - b| / max |b| (0 when both are zero)."""
    if a.size == 0:
        return 0.0
    s = max(maxabs(a), maxabs(b))
    d = maxabs(a - b)
    return 0.0 if d == 0 else d / s


def rel_elementwise(a, b):
    """max |a - b| / |b|, elementwise; entries below RIGID_FRACTION of the
    largest (rigid-body frequencies, round-off) relative to that floor."""
    if a.size == 0:
        return 0.0
    floor = RIGID_FRACTION * max(maxabs(a), maxabs(b))
    den = np.maximum(np.abs(b), floor)
    d = np.abs(a - b)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(d == 0, 0.0, d / np.where(den == 0, 1.0, den))
    return float(np.max(r))


def sign_match(a, b):
    """Signs r (rows), c (columns) with diag(r) a diag(c) ~ b, or None."""
    m, n = a.shape
    parent = list(range(m + n))
    par = [0] * (m + n)  # parity to the parent: 0 same sign, 1 flipped

    def find(i):
        p = 0
        while parent[i] != i:
            p ^= par[i]
            i = parent[i]
        return i, p

    s = max(maxabs(a), maxabs(b))
    if s == 0:
        return np.ones(m), np.ones(n)
    sig = (np.abs(a) > SIGN_FLOOR * s) & (np.abs(b) > SIGN_FLOOR * s)
    for i, j in zip(*np.nonzero(sig)):
        want = 0 if (a[i, j] > 0) == (b[i, j] > 0) else 1
        ri, pi = find(i)
        rj, pj = find(m + j)
        if ri == rj:
            if pi ^ pj != want:
                return None
        else:
            parent[ri] = rj
            par[ri] = pi ^ pj ^ want
    sgn = np.array([1.0 - 2 * find(k)[1] for k in range(m + n)])
    return sgn[:m], sgn[m:]


def clusters(freqs):
    """Groups of mode indices whose frequencies are within DEGENERATE_GAP
    relative (rigid modes, below RIGID_FRACTION of the top, form one)."""
    f = np.abs(np.asarray(freqs, dtype=float))
    top = f.max() if f.size else 0.0
    out, cur = [], []
    for k in range(len(f)):
        if cur:
            prev = f[cur[-1]]
            rigid = f[k] <= RIGID_FRACTION * top and prev <= RIGID_FRACTION * top
            if rigid or abs(f[k] - prev) <= DEGENERATE_GAP * max(f[k], prev):
                cur.append(k)
                continue
            out.append(cur)
        cur = [k]
    if cur:
        out.append(cur)
    return out


def compare_shapes(rep, what, A, B, freqs):
    """A, B: columns = modes.  Per isolated mode: up to sign; per cluster:
    the span (principal angle)."""
    if freqs is None or len(freqs) != A.shape[1]:
        groups = [[k] for k in range(A.shape[1])]
        if A.shape[1] > 1:
            rep.notes.append(f"{what}: no matching frequencies, every mode compared as isolated")
    else:
        groups = clusters(freqs)
    worst = 0.0
    for g in groups:
        a, b = A[:, g], B[:, g]
        if len(g) == 1:
            sa = maxabs(a)
            if sa == 0 and maxabs(b) == 0:
                continue
            d = min(maxabs(a - b), maxabs(a + b)) / max(sa, maxabs(b))
        else:
            qa, _ = np.linalg.qr(a)
            qb, _ = np.linalg.qr(b)
            # sine of the largest principal angle between the two spans
            d = float(np.linalg.norm(qb - qa @ (qa.T @ qb), 2))
            rep.notes.append(f"{what}: modes {g[0] + 1}..{g[-1] + 1} degenerate (relative gap < {DEGENERATE_GAP:g}): compared as a subspace, sin angle {d:.1e}")
        worst = max(worst, d)
    rep.add("shapes", worst, TOL_SHAPE, what)


def frequencies_for(f, path):
    """The frequencies that belong to a modes/shapes dataset: a sibling
    frequencies_hz (or of the parent group for shapes/NNNN)."""
    parts = path.split("/")
    for up in (1, 2):
        grp = "/".join(parts[:-up])
        key = (grp + "/" if grp else "") + "frequencies_hz"
        if key in f and isinstance(f[key], h5py.Dataset):
            return f[key][()]
    return None


# DOF labels: the GA wrote its own notation "15H" before the restructure,
# dynred's one notation "15.1" after it; both name the same DOF.
_GA_DIR = {"H": 1, "V": 2, "Z": 3, "RX": 4, "RY": 5, "RZ": 6, "R": 6}
_GA_LABEL = re.compile(r"^(\d+)(RX|RY|RZ|H|V|Z|R)$")


def norm_labels(x):
    def one(v):
        t = v.decode() if isinstance(v, bytes) else str(v)
        out = []
        for tok in t.split(" "):
            m = _GA_LABEL.match(tok)
            out.append(f"{m.group(1)}.{_GA_DIR[m.group(2)]}" if m else tok)
        return " ".join(out)
    if x.dtype.kind in "SUO":
        return np.vectorize(one, otypes=[object])(x) if x.ndim else np.array(one(x[()]), dtype=object)
    return x


def compare_values(rep, cls, what, a, b):
    a = norm_labels(np.asarray(a))
    b = norm_labels(np.asarray(b))
    if a.shape != b.shape:
        rep.fails.append(f"{what}: shape {a.shape} != {b.shape}")
        return
    if a.dtype.kind in "SUOb" or b.dtype.kind in "SUOb" or cls == "ga_front" or a.dtype.kind in "iu":
        same = np.array_equal(a, b)
        rep.add(cls if cls == "ga_front" else "exact", 0.0 if same else np.inf, 0.0, what)
        return
    a = a.astype(float)
    b = b.astype(float)
    # NaN marks "no value" (an empty band): it must sit at the same places
    na, nb = np.isnan(a), np.isnan(b)
    if not np.array_equal(na, nb):
        rep.add(cls if cls in ("freq", "gmp_grid", "error", "mac") else "other", np.inf, 0.0, what + " (NaN at different places)")
        return
    if na.any():
        a = np.where(na, 0.0, a)
        b = np.where(nb, 0.0, b)
    if cls == "ga_e":
        rep.add("ga_front", rel_elementwise(a, b), TOL_GA_E, what)
    elif cls == "freq":
        rep.add("freq", rel_elementwise(a, b), TOL_FREQ, what)
    elif cls == "gmp_grid":
        rep.add("gmp_grid", rel_scaled(a, b), TOL_GMP, what)
    elif cls == "error":
        tol = 100 * TOL_ERROR if "pct" in what else TOL_ERROR
        rep.add("error", maxabs(a - b) if a.size else 0.0, tol, what)
    elif cls == "residual":
        lo = np.maximum(np.minimum(np.abs(a), np.abs(b)), RESIDUAL_FLOOR)
        hi = np.maximum(np.maximum(np.abs(a), np.abs(b)), RESIDUAL_FLOOR)
        rep.add("residual", float(np.max(hi / lo)) if a.size else 1.0, RESIDUAL_FACTOR, what)
    elif cls == "mac":
        rep.add("mac", maxabs(a - b) if a.size else 0.0, TOL_MAC, what)
    elif cls == "basis_sign" and a.ndim == 2 and a.size:
        d = rel_scaled(a, b)
        if d > TOL_OTHER:
            sg = sign_match(a, b)
            if sg is not None:
                a2 = sg[0][:, None] * a * sg[1][None, :]
                d2 = rel_scaled(a2, b)
                if d2 <= TOL_OTHER:
                    rep.notes.append(f"{what}: equal up to row/column signs (mode sign convention)")
                d = d2
        tol = TOL_MAC if "cross_orthogonality" in what else TOL_OTHER
        rep.add("basis_sign", d, tol, what)
    else:
        rep.add("other", rel_scaled(a, b), TOL_OTHER, what)


def compare_attrs(rep, path, oa, ob):
    ka = {k for k in oa.attrs if k not in IGNORED_ATTRS}
    kb = {k for k in ob.attrs if k not in IGNORED_ATTRS}
    for k in sorted(ka ^ kb):
        rep.fails.append(f"{path or '/'}@{k}: attribute only in {'A' if k in ka else 'B'}")
    for k in sorted(ka & kb):
        cls = classify(f"{path}/{k}".lstrip("/"))
        if cls == "shapes":
            cls = "other"
        compare_values(rep, cls, f"{path or '/'}@{k}", oa.attrs[k], ob.attrs[k])


def walk(f):
    items = {"": f}

    def visit(name, obj):
        if name.split("/")[0] in IGNORED_GROUPS:
            return
        items[name] = obj
    f.visititems(visit)
    return items


def compare_files(pa, pb):
    rep = Report()
    with h5py.File(pa, "r") as fa, h5py.File(pb, "r") as fb:
        ia, ib = walk(fa), walk(fb)
        for k in sorted(set(ia) ^ set(ib)):
            rep.fails.append(f"/{k}: only in {'A' if k in ia else 'B'}")
        shape_sets = {}
        for k in sorted(set(ia) & set(ib)):
            oa, ob = ia[k], ib[k]
            if isinstance(oa, h5py.Dataset) != isinstance(ob, h5py.Dataset):
                rep.fails.append(f"/{k}: dataset in one file, group in the other")
                continue
            compare_attrs(rep, "/" + k if k else "", oa, ob)
            if not isinstance(oa, h5py.Dataset):
                continue
            cls = classify(k)
            if cls == "shapes" and oa.dtype.kind == "f" and ob.dtype.kind == "f":
                if oa.shape != ob.shape:
                    rep.fails.append(f"/{k}: shape {oa.shape} != {ob.shape}")
                elif "/shapes/" in k:
                    # one mode per dataset: gather the group's modes as columns
                    grp = k.rsplit("/", 1)[0]
                    shape_sets.setdefault(grp, []).append((k, oa[()].ravel(), ob[()].ravel()))
                elif oa.ndim == 2:
                    compare_shapes(rep, "/" + k, oa[()], ob[()], frequencies_for(fa, k))
                else:
                    compare_shapes(rep, "/" + k, oa[()].reshape(-1, 1), ob[()].reshape(-1, 1), None)
                continue
            compare_values(rep, cls, "/" + k, oa[()], ob[()])
        for grp, cols in shape_sets.items():
            cols.sort()
            sizes = {c[1].size for c in cols}
            if len(sizes) != 1:
                for name, a, b in cols:
                    compare_shapes(rep, "/" + name, a.reshape(-1, 1), b.reshape(-1, 1), None)
                continue
            A = np.stack([c[1] for c in cols], axis=1)
            B = np.stack([c[2] for c in cols], axis=1)
            fr = frequencies_for(fa, grp + "/x")
            compare_shapes(rep, f"/{grp}/*", A, B, fr[: A.shape[1]] if fr is not None and len(fr) >= A.shape[1] else None)
    return rep


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    rep = compare_files(argv[1], argv[2])
    for cls in sorted(rep.worst):
        val, tol, what = rep.worst[cls]
        print(f"  {cls:<10} worst {val:9.2e} (tol {tol:.0e})  {what}")
    for n in rep.notes[:10]:
        print(f"  note: {n}")
    if len(rep.notes) > 10:
        print(f"  note: ... {len(rep.notes) - 10} more")
    for m in rep.fails[:20]:
        print(f"  DIFF: {m}")
    if len(rep.fails) > 20:
        print(f"  DIFF: ... {len(rep.fails) - 20} more")
    print("same" if not rep.fails else f"DIFFERENT ({len(rep.fails)} differences)")
    return 1 if rep.fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
