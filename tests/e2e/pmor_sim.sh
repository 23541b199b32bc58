#!/usr/bin/env bash
# Moving load on the ring (seed 001's load law, corrected: F = F_max/2 (1 -
# cos(pi t / 0.5 s)) up to 0.5 s, then F_max = 200 N), 8 path nodes per
# second, Newmark average acceleration h = 0.4 ms for 0.8 s (1 rank; the
# simulation on 1, 2, 3 ranks is compared in pmor_ranks).
#  1. the full model's deflection under the load (PETSc TS: TSALPHA2 with
#     Newmark's parameters, one MUMPS factorization for the steps and one for
#     TSALPHA2's start-up) against numpy: the same discretization on K, M
#     read from the Matrix Market files (dense LU): TSALPHA2's start-up (two
#     backward-Euler half steps give the initial acceleration), then the
#     Newmark recursion: 1e-8 relative to max |y| (round-off of a stable
#     recursion grows at most linearly: 2000 steps x 1e-14, and the
#     factorizations' backward error times cond(M + h/2 D + h^2/4 K) ~ 1e2);
#  2. reduced (linear weights, every path node a support) vs full: the load
#     moves slowly against the first mode (15 Hz), so y ~ H(p(t), 0) F(t)
#     and the error is bounded by the FRF error near 0 Hz over the path,
#     max_p eps_rel(p, 0..10 Hz), from the same run (/pmor/frf/error);
#  3. with every 2nd node a support the error is larger (fewer supports);
#  4. every node a support with cubic-spline weights: their overshoot makes
#     the interpolated M, K or D indefinite at some midpoints between
#     supports (the Panzer coordinates of neighbouring supports lie far
#     apart); dynred warns with the count, which numpy's eigvalsh of
#     /pmor/midpoints/{M,K,D} must reproduce exactly (linear weights: 0, a
#     convex combination of SPD matrices);
#  5. the same on the SPD manifold (pmor.interpolation: manifold): M and K
#     stay SPD and D = alpha M + beta K of them (before, D was the spline sum
#     of the D_i, indefinite: the run diverged to 1e121), so every midpoint
#     is SPD and the run obeys the bound of 2.
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
S="-pmor_sim_enabled 1 -pmor_sim_speed 8 -pmor_sim_t_end 0.8 -pmor_sim_h 4e-4 -pmor_weights linear -pmor_frf_fmin 0 -pmor_frf_fmax 10 -pmor_frf_n 3 -pmor_frf_refine 4"
$DYNRED -config ring.yaml -output s1.h5 $S -pmor_support_every 1 > s1.log
$DYNRED -config ring.yaml -output s2.h5 $S -pmor_support_every 2 > s2.log
$DYNRED -config ring.yaml -output s1s.h5 $S -pmor_support_every 1 -pmor_weights spline > s1s.log
$DYNRED -config ring.yaml -output s1m.h5 $S -pmor_support_every 1 -pmor_weights spline -pmor_interpolation manifold > s1m.log
grep "moving load" s1.log s2.log s1s.log s1m.log
grep "warning" s1s.log
if grep -q "warning" s1.log s1m.log; then echo "FAIL: unexpected match: grep -q 'warning' s1.log s1m.log"; exit 1; fi
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.io, scipy.linalg as sla
K = scipy.io.mmread("K.mtx").toarray(); M = scipy.io.mmread("M.mtx").toarray()
g = h5py.File("s1.h5", "r")["/pmor"]
rows, pp, period = g["path/rows"][:], g["path/p"][:], float(g.attrs["period"])
beta, alpha = float(g.attrs["beta"]), float(g.attrs["alpha"])
D = alpha * M + beta * K
t, p, yf, yr = (g["sim/" + k][:] for k in ("t", "p", "y_full", "y_reduced"))
h, Fm, tr = (float(g["sim"].attrs[k]) for k in ("h", "F_max", "t_ramp"))
N = K.shape[0]; q = np.zeros(N); v = np.zeros(N); y = np.zeros(len(t))
ext = np.append(pp, pp[0] + period)
def force(ts, ps):
    F = Fm / 2 * (1 - np.cos(np.pi * ts / tr)) if ts <= tr else Fm
    x = pp[0] + np.mod(ps - pp[0], period)
    j = min(np.searchsorted(ext, x, side="right") - 1, len(pp) - 1)
    c = (x - ext[j]) / (ext[j + 1] - ext[j])
    b = np.zeros(N); b[rows[j]] += 1 - c; b[rows[(j + 1) % len(pp)]] += c
    return F, b
# TSALPHA2's start-up: two backward-Euler half steps, then the initial
# acceleration by the backward difference (-3 v0 + 4 v1 - v2) / (h / 2)
speed = (p[1] - p[0]) / h
d = h / 2; be = sla.lu_factor(M + d * D + d * d / 2 * K); qq, vv, vs = q.copy(), v.copy(), [v.copy()]
for k in (1, 2):
    F, b = force(k * d, p[0] + speed * k * d)
    ab = sla.lu_solve(be, F * b - D @ vv - K @ (qq + d * vv))
    qq, vv = qq + d * vv + d * d / 2 * ab, vv + d * ab
    vs.append(vv)
a = (-3 * vs[0] + 4 * vs[1] - vs[2]) / d
lu = sla.lu_factor(M + h / 2 * D + h * h / 4 * K)
for s in range(1, len(t)):
    F, b = force(t[s], p[s])
    an = sla.lu_solve(lu, F * b - D @ (v + h / 2 * a) - K @ (q + h * v + h * h / 4 * a))
    q = q + h * v + h * h / 4 * (a + an); v = v + h / 2 * (a + an); a = an
    y[s] = b @ q
d = np.abs(y - yf).max() / np.abs(y).max()
print(f"full simulation vs numpy Newmark: {d:.2e} of max |y| = {np.abs(y).max():.4g} m")
assert d < 1e-8, d
e = g["frf/error"][:].max()
em = float(g["sim"].attrs["max_error"])
print(f"reduced vs full, every node a support: max {em:.2e} (bound from the FRF error at 0..10 Hz: {e:.2e})")
assert em < e, (em, e)
e2 = float(h5py.File("s2.h5", "r")["/pmor/sim"].attrs["max_error"])
print(f"every 2nd node a support: max {e2:.2e}")
assert e2 > em
import re
def indefinite(f):
    g = h5py.File(f, "r")["/pmor"]
    bad = [i for i in range(len(g["midpoints/p"])) if min(np.linalg.eigvalsh(g["midpoints/" + x][i]).min() for x in "MKD") <= 0]
    return bad, int(g.attrs["indefinite_midpoints"]), g
for f, log in (("s1.h5", "s1.log"), ("s1s.h5", "s1s.log"), ("s1m.h5", "s1m.log")):
    bad, attr, g = indefinite(f)
    m = re.search(r"not positive definite at (\d+) of (\d+) midpoints", open(log).read())
    said = int(m.group(1)) if m else 0
    print(f"{f}: numpy finds {len(bad)} indefinite midpoints of {len(g['midpoints/p'])}, dynred says {said} (attribute {attr})")
    assert len(bad) == said == attr, (f, bad, said, attr)
    if f != "s1s.h5": assert not bad
assert indefinite("s1s.h5")[1] > 0
g = h5py.File("s1m.h5", "r")["/pmor"]
a_, b_ = float(g.attrs["alpha"]), float(g.attrs["beta"])
M, K, D = (g["midpoints/" + x][:] for x in "MKD")
dd = np.abs(D - a_ * M - b_ * K).max() / np.abs(D).max()
print(f"manifold: D = alpha M + beta K at the midpoints to {dd:.1e}")
assert dd < 1e-12, dd  # the same products, only summation order differs
e, em = g["frf/error"][:].max(), float(g["sim"].attrs["max_error"])
print(f"manifold, spline weights, every node a support: max {em:.2e} (bound {e:.2e})")
assert em < e, (em, e)
PY
