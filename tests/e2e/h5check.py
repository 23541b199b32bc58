#!/usr/bin/python3
"""Checks on dynred result files (h5py), used by the end-to-end tests.

  h5check.py layout FILE.h5            required datasets, units, root attrs, XDMF
  h5check.py same A.h5 B.h5 [RTOL]     same frequencies (relative RTOL, default
                                       1e-9) and mode shapes (|MAC| > 1 - 1e-6
                                       for modes whose frequency is isolated)
  h5check.py freqs FILE.h5 REF.txt RTOL  frequencies equal reference values
  h5check.py group A.h5 B.h5 GROUP RTOL [SUFFIX ATOL]
                                       every dataset under GROUP in both files,
                                       max |a - b| <= RTOL max |a| (RTOL 0:
                                       bit-identical); datasets whose name ends
                                       in SUFFIX may instead differ by ATOL
                                       absolute (relative errors near zero)

Every numeric check is written so that NaN fails it (`not x <= tol`, never
`x > tol`: a comparison with NaN is false), and a non-finite value in a
checked dataset fails by itself; exit status 1 on any failure.
"""
import os
import sys

import h5py
import numpy as np


def fail(msg):
    print("FAIL", msg)
    sys.exit(1)


def layout(path):
    with h5py.File(path, "r") as f:
        for a in ("dynred_version", "job", "nranks", "config"):
            if a not in f.attrs:
                fail(f"{path}: root attribute {a} missing")
        job = f.attrs["job"].decode() if isinstance(f.attrs["job"], bytes) else f.attrs["job"]
        need = {"modal": ["/modal/frequencies_hz", "/modal/modes", "/modal/labels", "/modal/residuals"],
                "cms": ["/cms/frequencies_hz", "/cms/modes", "/cms/labels", "/cms/reduced/K", "/cms/reduced/M"]}[job]
        for d in need:
            if d not in f:
                fail(f"{path}: dataset {d} missing")
        g = "/" + job
        if f[g + "/frequencies_hz"].attrs.get("units") not in (b"Hz", "Hz"):
            fail(f"{path}: {g}/frequencies_hz has no units=Hz attribute")
        n = f[g + "/frequencies_hz"].shape[0]
        ndof = f[g + "/labels"].shape[0]
        if f[g + "/modes"].shape != (ndof, n):
            fail(f"{path}: {g}/modes shape {f[g + '/modes'].shape}, expected ({ndof}, {n})")
        if "/timing" not in f or len(f["/timing"].attrs) < 2:
            fail(f"{path}: /timing attributes missing")
        fr = f[g + "/frequencies_hz"][:]
        if not np.all(np.isfinite(fr)):
            fail(f"{path}: {g}/frequencies_hz holds non-finite values at modes {list(np.flatnonzero(~np.isfinite(fr)) + 1)}")
        if not np.all(np.diff(fr) >= 0):
            fail(f"{path}: frequencies not sorted")
        # tol: dynred's modal solve targets relative residuals of 1e-12; 1e-8 flags a failed solve, not rounding
        if job == "modal" and not np.max(f["/modal/residuals"][:], initial=0.0) <= 1e-8:
            fail(f"{path}: residual above 1e-8 (or not finite): max {np.max(f['/modal/residuals'][:], initial=0.0)}")
        if "/mesh/coordinates" in f:
            x = os.path.splitext(path)[0] + ".xdmf"
            if not os.path.exists(x):
                fail(f"{x} missing")
            txt = open(x).read()
            if g + "/shapes" not in txt or os.path.basename(path) not in txt:
                fail(f"{x} does not reference the mode shapes")
            nn = f["/mesh/coordinates"].shape[0]
            if len(f[g + "/shapes"]) != n or f[g + "/shapes/0001"].shape != (nn, 3):
                fail(f"{g}/shapes: expected one [nnodes, 3] dataset per mode")
            # the XDMF file must load in a reader other than ours
            import meshio
            m = meshio.read(x)
            if m.points.shape != (nn, 3) or len(m.point_data) != n:
                fail(f"{x}: meshio sees {m.points.shape} points and {len(m.point_data)} fields")
            first = m.point_data[sorted(m.point_data)[0]]
            if not np.allclose(first, f[g + "/shapes/0001"][:]):
                fail(f"{x}: mode 1 read through XDMF differs from the HDF5 data")
    d = os.path.dirname(os.path.abspath(path))
    left = [p for p in os.listdir(d) if ".tmp" in p]
    if left:
        fail(f"temporary files left behind: {left}")
    print(f"ok layout {path}: {n} modes, {ndof} DOFs")


def same(a, b, rtol):
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        f1, f2 = fa["/modal/frequencies_hz"][:], fb["/modal/frequencies_hz"][:]
        if f1.shape != f2.shape:
            fail(f"mode counts differ: {f1.shape} vs {f2.shape}")
        if not (np.all(np.isfinite(f1)) and np.all(np.isfinite(f2))):
            fail(f"non-finite frequencies: {a} {f1}, {b} {f2}")
        err = np.max(np.abs(f1 - f2) / np.maximum(np.abs(f1), 1e-300), initial=0.0)
        if not err <= rtol:
            fail(f"frequencies differ: max relative {err:.3e} > {rtol}")
        if not np.array_equal(fa["/modal/labels"][:], fb["/modal/labels"][:]):
            fail("DOF labels differ")
        p1, p2 = fa["/modal/modes"][:], fb["/modal/modes"][:]
        macs = [1.0]
        for k in range(len(f1)):
            gap = min([abs(f1[k] - f1[j]) / f1[k] for j in range(len(f1)) if j != k] + [1.0])
            # tol: shapes of modes closer than 1e-4 (relative) are not individually defined at solver tol 1e-12
            if gap < 1e-4:
                continue  # (near-)repeated frequency: the basis within it is arbitrary
            mac = np.dot(p1[:, k], p2[:, k]) ** 2 / (np.dot(p1[:, k], p1[:, k]) * np.dot(p2[:, k], p2[:, k]))
            macs.append(mac)
        worst = np.min(macs)  # NaN (a non-finite shape) propagates; min() would drop it
        # tol: eigenvector differences <= tol / gap = 1e-12 / 1e-4 = 1e-8, MAC deficit ~ their square; 1e-6 is looser (left)
        if not worst >= 1 - 1e-6:
            fail(f"mode shapes differ: min MAC {worst}")
        print(f"ok same {a} {b}: {len(f1)} modes, max rel freq diff {err:.2e}, min MAC {worst:.12f}")


def freqs(path, ref, rtol):
    r = np.loadtxt(ref, ndmin=1)
    with h5py.File(path, "r") as f:
        fr = f["/modal/frequencies_hz"][: len(r)]
    if len(fr) < len(r):
        fail(f"{path}: {len(fr)} modes, the reference lists {len(r)}")
    err = np.abs(fr - r) / np.abs(r)
    for k, (a, b, e) in enumerate(zip(fr, r, err)):
        print(f"{'ok  ' if e <= rtol else 'FAIL'} mode {k + 1}: dynred {a:.9g} Hz reference {b:.9g} Hz rel err {e:.2e}")
    bad = [k + 1 for k, e in enumerate(err) if not e <= rtol]
    if bad:
        fail(f"modes {bad}: relative error above {rtol} (or not finite), max {np.max(err):.3e}")


def group(a, b, grp, rtol, suffix=None, atol=0.0):
    def walk(g, out):
        for k, v in g.items():
            if isinstance(v, h5py.Dataset):
                out[v.name] = v[()]
            else:
                walk(v, out)
    da, db = {}, {}
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        walk(fa[grp], da)
        walk(fb[grp], db)
    if da.keys() != db.keys():
        fail(f"{grp}: datasets in one file only: {sorted(set(da) ^ set(db))}")
    if not da:
        fail(f"{grp}: no datasets")
    worst = 0.0
    for k in da:
        x, y = np.asarray(da[k]), np.asarray(db[k])
        if x.shape != y.shape:
            fail(f"{k}: shape {x.shape} vs {y.shape}")
        if x.dtype.kind not in "fiu":
            if not np.array_equal(x, y):
                fail(f"{k} differs")
            continue
        for name, z in ((a, x), (b, y)):
            if not np.all(np.isfinite(z)):
                fail(f"{k}: {np.count_nonzero(~np.isfinite(z))} non-finite values in {name}")
        d = float(np.abs(x - y).max()) if x.size else 0.0
        dev = d / max(float(np.abs(x).max()) if x.size else 0.0, 1e-300)
        if rtol == 0 and d != 0 or not dev <= rtol and not (suffix and k.endswith(suffix) and d <= atol):
            fail(f"{k}: max difference {d:.3e} ({dev:.3e} relative), allowed {rtol:g}")
        worst = max(worst, dev)
    print(f"ok group {grp}: {len(da)} datasets of {a} and {b} agree, max relative difference {worst:.2e}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "layout":
        layout(sys.argv[2])
    elif cmd == "same":
        same(sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 1e-9)
    elif cmd == "group":
        group(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]),
              sys.argv[6] if len(sys.argv) > 6 else None, float(sys.argv[7]) if len(sys.argv) > 7 else 0.0)
    elif cmd == "freqs":
        freqs(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        fail("unknown command " + cmd)
