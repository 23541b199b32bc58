#!/usr/bin/python3
"""Independent checks of a dynred pmor result on a Matrix Market model.

  pmor_check.py DIR RESULT.h5

With a tool at the load point (/pmor attributes tool_mass m, tool_stiffness
k) every matrix below is the position's own: K(p) = K + k b(p) b(p)^T,
M(p) = M + m b(p) b(p)^T, D(p) = alpha M(p) + beta K(p), formed densely.

Reads K.mtx, M.mtx, ring.dof in DIR (scipy.io.mmread) and recomputes with
numpy/scipy, without any of dynred's numbers except the grid it asks for:
 1. the full FRF H(p, w) = b(p)^T (K - w^2 M + i w D)^{-1} b(p), dense solve;
 2. each support ROM's FRF from its own basis [lowest modes (scipy eigh) |
    K^{-1} b_i] (a Galerkin ROM's FRF depends only on the span), and the
    support ROM's lowest eigenfrequencies against scipy eigh of the full
    (K(p_i), M(p_i));
 3. the spline / hat weights: sum to one, interpolatory (w_i(p_j) =
    delta_ij), and scipy's CubicSpline of the cardinal data agrees;
 4. the transformed support ROMs reproduce the raw ROM's FRF (invariance
    under T_i), and the interpolated ROM at p_i equals the transformed
    support ROM (H_reduced at the support positions).
"""
import sys

import h5py
import numpy as np
import scipy.io
import scipy.linalg as sla
from scipy.interpolate import CubicSpline

d, res = sys.argv[1], sys.argv[2]
K = scipy.io.mmread(f"{d}/K.mtx").toarray()
M = scipy.io.mmread(f"{d}/M.mtx").toarray()
f = h5py.File(res, "r")
g = f["/pmor"]
alpha, beta = float(g.attrs["alpha"]), float(g.attrs["beta"])
D = alpha * M + beta * K
# the moving tool (K, M depend on p): M(p) = M + m b b^T, K(p) = K + k b b^T
tm = float(g.attrs.get("tool_mass", 0.0))
tk = float(g.attrs.get("tool_stiffness", 0.0))
rows = g["path/rows"][:]
pp = g["path/p"][:]
period = float(g.attrs["period"])
sup = g["supports/index"][:]
ps = g["supports/p"][:]
fp = g["frf/p"][:]
om = g["frf/omega"][:]
n = int(g.attrs["n"])
m = n - 1
N = K.shape[0]


dist = g.attrs.get("distribute", b"linear")
dist = dist.decode() if isinstance(dist, bytes) else dist


def load(p):
    """b(p): linear between path nodes (dynred's default distribution) or
    quadratic: 3-node edges (path nodes 2e, 2e+1, 2e+2) with the
    isoparametric shape functions xi (xi - 1)/2, 1 - xi^2, xi (xi + 1)/2 of
    xi in [-1, 1] (exact for a path of equally spaced nodes, as the index
    parameter or a regular ring)"""
    b = np.zeros(N)
    npth = len(pp)
    if period > 0:
        q = pp[0] + np.mod(p - pp[0], period)
        ext = np.append(pp, pp[0] + period)
    else:
        q = min(max(p, pp[0]), pp[-1])
        ext = pp
    j = min(np.searchsorted(ext, q, side="right") - 1, len(ext) - 2)
    if dist == "quadratic":
        if period > 0:
            ext = np.append(ext, pp[1] + period)
        s = j - j % 2
        xi = 2 * (q - ext[s]) / (ext[s + 2] - ext[s]) - 1
        for a, Na in enumerate((xi * (xi - 1) / 2, 1 - xi * xi, xi * (xi + 1) / 2)):
            b[rows[(s + a) % npth]] += Na
        return b
    t = (q - ext[j]) / (ext[j + 1] - ext[j])
    b[rows[j % npth]] += 1 - t
    b[rows[(j + 1) % npth]] += t
    return b


def H(Kx, Mx, Dx, b, c, w):
    return c @ np.linalg.solve(Kx - w * w * Mx + 1j * w * Dx, b)


EPS = np.finfo(float).eps


def full(b):
    """K(p), M(p), D(p) for the load vector b = b(p)"""
    Kp, Mp = K + tk * np.outer(b, b), M + tm * np.outer(b, b)
    return Kp, Mp, alpha * Mp + beta * Kp


def rel(a, b):
    return abs(a - b) / abs(b)


# 1. full FRF: conditioning of K - w^2 M near a pole amplifies round-off;
# the tolerance 1e-8 allows a condition number of 1e7 at 1e-15 round-off
# (the grid avoids the poles by more than 1e-3 relative on this model).
Hf = g["frf/H_full"][:, :, 0] + 1j * g["frf/H_full"][:, :, 1]
e1 = 0.0
for j, p in enumerate(fp):
    b = load(p)
    Kp, Mp, Dp = full(b)
    for i, w in enumerate(om):
        e1 = max(e1, rel(Hf[j, i], H(Kp, Mp, Dp, b, b, w)))
print(f"full FRF vs dense numpy: max rel. difference {e1:.2e}")
assert e1 < 1e-8, e1

# 2. support ROMs from an independent basis.  The modes converge to the
# eigensolver tolerance 1e-12 (relative residual); the same 1e-8 margin.
Hs = g["frf/H_support"][:, :, 0] + 1j * g["frf/H_support"][:, :, 1]
e2 = e3 = 0.0
serr_ref = np.zeros((len(sup), len(om)))
Kraw_, Mraw_ = g["supports/raw/K"][:], g["supports/raw/M"][:]
fs = g["supports/frequencies_hz"][:]
for s, j in enumerate(sup):
    b = np.zeros(N)
    b[rows[j]] = 1
    Kp, Mp, Dp = full(b)
    lam, Phi = sla.eigh(Kp, Mp)
    Phi = Phi[:, :m]
    V = np.column_stack([Phi, np.linalg.solve(Kp, b)])
    Kr, Mr, Dr, Br = V.T @ Kp @ V, V.T @ Mp @ V, V.T @ Dp @ V, V.T @ b
    for i, w in enumerate(om):
        h = H(Kr, Mr, Dr, Br, Br, w)
        e2 = max(e2, rel(Hs[s, i], h))
        serr_ref[s, i] = rel(h, H(Kp, Mp, Dp, b, b, w))
    # the support ROM (Galerkin on [Phi_i | s_i], Phi_i exact eigenvectors of
    # (K(p_i), M(p_i))) has the lowest m eigenvalues of the full pencil: its
    # span holds their eigenvectors.  Eigenvectors with a relative residual of
    # tol = 1e-12 give Rayleigh quotients with error O(tol^2) (symmetric
    # pencil).  The reference itself, a backward-stable dense eigh of the
    # full pencil, is accurate to about eps lambda_max in each eigenvalue
    # (lambda_max from the ground springs: 1e-9 relative at the first mode
    # of the ring), the n x n reduced eigh to eps cond(M_r) lambda_i: the
    # tolerance is 10 times their sum, per eigenvalue (frequencies: half).
    lr = sla.eigh(Kraw_[s], Mraw_[s], eigvals_only=True)[:m]
    tl = 10 * EPS * (lam[-1] / lam[:m] + np.linalg.cond(Mraw_[s]))
    e3 = max(e3, np.max(np.abs(lr - lam[:m]) / lam[:m] / tl))
    fr = np.sqrt(np.abs(lam[:m])) / (2 * np.pi)
    e3 = max(e3, np.max(np.abs(fs[s] - fr) / fr / tl))
print(f"support ROM FRFs vs numpy bases: max rel. difference {e2:.2e}")
assert e2 < 1e-8, e2
print(f"support ROM eigenvalues and /pmor/supports/frequencies_hz vs scipy eigh of the full (K(p_i), M(p_i)): max rel. difference {e3:.2e} of the tolerance")
assert e3 < 1, e3
se = g["frf/support_error"][:]
e2b = np.max(np.abs(se - serr_ref))
print(f"support FRF error eps_rel vs numpy: max abs. difference {e2b:.2e} (eps_rel {serr_ref.min():.1e} .. {serr_ref.max():.1e})")
# eps_rel is a difference of nearly equal numbers: its relative accuracy is
# (round-off of H) / eps_rel; the smallest eps here is ~1e-6, so 1e-8/1e-6
assert np.all(np.abs(se - serr_ref) <= 1e-8 * np.abs(Hs).max() / np.abs(Hf).min() + 1e-2 * serr_ref), e2b

# 3. weights: recomputed with scipy (CubicSpline natural / periodic, np.interp)
wtype = g.attrs["weights"]
if isinstance(wtype, bytes):
    wtype = wtype.decode()
k = len(ps)


def weights(p):
    w = np.zeros(k)
    for i in range(k):
        y = np.zeros(k)
        y[i] = 1
        if period > 0:
            x = np.append(ps, ps[0] + period)
            y = np.append(y, y[0])
            q = ps[0] + np.mod(p - ps[0], period)
            if wtype == "spline":
                w[i] = CubicSpline(x, y, bc_type="periodic")(q)
            else:
                w[i] = np.interp(q, x, y)
        else:
            w[i] = CubicSpline(ps, y, bc_type="natural")(p) if wtype == "spline" else np.interp(p, ps, y)
    return w


Wf = np.array([weights(p) for p in fp])
assert np.allclose(Wf.sum(axis=1), 1, atol=1e-12), "weights do not sum to one"
assert np.allclose(np.array([weights(p) for p in ps]), np.eye(k), atol=1e-12), "not interpolatory"

interp = g.attrs.get("interpolation", b"direct")
if isinstance(interp, bytes):
    interp = interp.decode()
ref = int(g.attrs["reference"])
EPS = np.finfo(float).eps


class Manifold:
    """X(w) = X_ref^1/2 expm(sum w_i logm(X_ref^-1/2 X_i X_ref^-1/2)) X_ref^1/2"""

    def __init__(self, X):
        self.h = np.real(sla.sqrtm(X[ref]))
        hi = np.linalg.inv(self.h)
        self.L = np.array([np.real(sla.logm(hi @ x @ hi)) for x in X])
        # round-off bound of the log-exp round trip through X_ref^{-+1/2}:
        # eigendecompositions and products cost n eps ||X_ref|| ||X_ref^-1||
        # relative, times (1 + |log lambda|) for the function values
        self.tol = 10 * n * EPS * np.linalg.cond(X[ref]) * (1 + max(np.abs(np.linalg.eigvalsh((l + l.T) / 2)).max() for l in self.L))

    def __call__(self, w):
        return self.h @ np.real(sla.expm(np.einsum("i,iab->ab", w, self.L))) @ self.h


# 4. invariance under T_i and interpolation at the supports, and the
# interpolated ROM everywhere from the transformed supports with scipy's
# weights: all n x n solves of a well-conditioned reduced system (1e-8).
Mt, Kt, Bt, Ct = (g[f"supports/{x}"][:] for x in "MKBC")
Mraw, Kraw, Braw = (g[f"supports/raw/{x}"][:] for x in "MKB")
T = g["supports/T"][:]
e4 = e5 = e6 = 0.0
Hr = g["frf/H_reduced"][:, :, 0] + 1j * g["frf/H_reduced"][:, :, 1]
for s in range(k):
    # T^T M T in floating point: error <= n eps ||T||^2 ||M|| (n = 13, eps 2.2e-16)
    tol = 1e-13 * n * np.linalg.norm(T[s], 2) ** 2 * np.linalg.norm(Mraw[s], 2)
    assert np.abs(T[s].T @ Mraw[s] @ T[s] - Mt[s]).max() < tol, s
    for i, w in enumerate(om):
        ht = H(Kt[s], Mt[s], alpha * Mt[s] + beta * Kt[s], Bt[s], Ct[s], w)
        hr = H(Kraw[s], Mraw[s], alpha * Mraw[s] + beta * Kraw[s], Braw[s], Braw[s], w)
        # forming T^T M T costs eps cond(T)^2, each backward-stable solve
        # eps cond(Z) (Z = K - w^2 M + i w D; large near an undamped pole):
        # 1e-10, or those bounds (x10, x100 margins) where they are larger
        Z = Kt[s] - w * w * Mt[s] + 1j * w * (alpha * Mt[s] + beta * Kt[s])
        tol4 = max(1e-10, 2.2e-16 * (10 * np.linalg.cond(T[s]) ** 2 + 100 * np.linalg.cond(Z)))
        e4 = max(e4, rel(ht, hr) / tol4 * 1e-10)
# dynred's interpolated ROM at p_i against its transformed support ROM i:
# direct interpolation adds w_i = 1 times X_i to zeros, exactly (1e-12 is
# round-off headroom only); manifold: the log-exp round trip (Manifold.tol)
man = {x: Manifold(X) for x, X in (("M", Mt), ("K", Kt))} if interp == "manifold" else None
for s in range(k):
    for x in "MKBC":
        a, b = g[f"supports/interpolated/{x}"][s], g[f"supports/{x}"][s]
        d = np.abs(a - b).max() / np.abs(b).max()
        e5 = max(e5, d / (max(1e-12, man[x].tol) if man and x in man else 1e-12) * 1e-12)
for j, p in enumerate(fp):
    w8 = weights(p)
    Mi, Ki = np.einsum("i,iab->ab", w8, Mt), np.einsum("i,iab->ab", w8, Kt)
    if man:
        Mi, Ki = man["M"](w8), man["K"](w8)
    # Rayleigh damping of the interpolated M, K (linear: the weighted sum of
    # the D_i; manifold: of its SPD M, K, so D stays SPD; DESIGN.md pmor)
    Di = alpha * Mi + beta * Ki
    Bi, Ci = w8 @ Bt, w8 @ Ct
    for i, w in enumerate(om):
        e6 = max(e6, rel(Hr[j, i], H(Ki, Mi, Di, Bi, Ci, w)))
print(f"transfer function invariant under T_i: {e4:.2e} (scaled to the 1e-10 bound); interpolated = support ROM at p_i: {e5:.2e}; "
      f"interpolated FRF vs numpy: {e6:.2e}")
assert e4 < 1e-10, e4
assert e5 < 1e-12, e5
assert e6 < 1e-8, e6

# 5. the interpolated M, K halfway between supports
pm_ = g["midpoints/p"][:]
for x in "MK":
    X = g[f"midpoints/{x}"][:]
    lmin = min(np.linalg.eigvalsh(a).min() / np.linalg.eigvalsh(a).max() for a in X)
    print(f"{interp}: midpoint {x}: smallest eigenvalue / largest {lmin:.2e}")
    if man:
        assert lmin > 0, (x, lmin)  # SPD: the congruence of a matrix exponential
        e7 = max(np.abs(X[i] - man[x](weights(p))).max() / np.abs(X[i]).max() for i, p in enumerate(pm_))
        # the two algorithms' round-off (Manifold.tol each) plus the weights'
        # (1e-15 relative, amplified by ||L_i|| in the exponent)
        print(f"manifold {x} at the midpoints vs scipy logm/expm: {e7:.2e} (tolerance {2 * man[x].tol:.1e})")
        assert e7 < 2 * man[x].tol, (x, e7)
print("ok")
