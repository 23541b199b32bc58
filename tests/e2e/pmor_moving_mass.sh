#!/usr/bin/env bash
# K and M that depend on the load position (issue 15 item 2): a tool of mass
# 0.1 kg (5 % of the ring's 1.94 kg) and a spring of 2000 N/m to ground (of
# the order of the ring's own point stiffness between its supports) moves
# with the load around the closed ring (tests/data/pmor/ring.yaml):
# M(p) = M + m b b^T, K(p) = K + k b b^T, each support its own eigensolve
# and factorization on the farm.
#  a. tests/e2e/pmor_check.py (numpy/scipy from the Matrix Market files, the
#     tool added densely): the support ROMs' lowest eigenvalues and
#     /pmor/supports/frequencies_hz equal scipy eigh of the full (K(p_i),
#     M(p_i)); every support ROM's FRF from its own scipy basis; the full FRF
#     (dynred: Sherman-Morrison on one factorization per frequency) against
#     a dense solve of (K(p), M(p)) at every grid position; invariance under
#     T_i and the interpolated ROM;
#  b. the interpolated ROM between supports against an independent dense
#     solve of the full (K(p), M(p)): the median eps_rel off the supports
#     falls from every 6th to every 4th to every 2nd node a support;
#  c. mass 0 and stiffness 0 with every support solved on its own
#     (pmor.tool.each_support) reproduce the shared-basis path;
#  d. 1 and 3 ranks, as 3 groups of 1 and as one group of 3, identical,
#     the moving-load simulation included (a, b and c run on 2 ranks; 2
#     groups of 1 would repeat the 3 groups of 1 with one group fewer, and
#     pmor_ranks runs the farm on 1, 2 and 3 ranks); its full reference (PETSc TS, Sherman-Morrison on
#     one factorization) against numpy's Newmark with K(p(t)), M(p(t));
#  e. a negative mass or stiffness: one error line.
set -euo pipefail
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
TOOL="-pmor_tool_mass 0.1 -pmor_tool_stiffness 2000"
SIM="-pmor_sim_enabled 1 -pmor_sim_speed 8 -pmor_sim_t_end 0.15 -pmor_sim_h 5e-4"

# a.
$MPIEXEC -n 2 $DYNRED -config ring.yaml -output a.h5 $TOOL > a.log
cat a.log
grep -q "K, M depend on p: each support solved on its own" a.log
grep -q "supports: 12 computed, 0 restored" a.log
/usr/bin/python3 "$ROOT/tests/e2e/pmor_check.py" . a.h5

# b.
for e in 6 4 2; do
  $MPIEXEC -n 2 $DYNRED -config ring.yaml -output b$e.h5 $TOOL -pmor_support_every $e -pmor_frf_refine 1 > b$e.log
done

# c.
C="-pmor_frf_n 12 $SIM"
$MPIEXEC -n 2 $DYNRED -config ring.yaml -output c_shared.h5 $C > c_shared.log
$MPIEXEC -n 2 $DYNRED -config ring.yaml -output c_each.h5 $C -pmor_tool_each_support 1 > c_each.log
grep -q "only B depends on p" c_shared.log
grep -q "each support solved on its own" c_each.log

# d.
D="-pmor_frf_n 12 $SIM $TOOL"
$MPIEXEC -n 1 $DYNRED -config ring.yaml -output d1.h5 $D > d1.log
$MPIEXEC -n 3 $DYNRED -config ring.yaml -output d3.h5 $D > d3.log
$MPIEXEC -n 3 $DYNRED -config ring.yaml -output d3g.h5 $D -ranks_per_group 3 > d3g.log
grep -q "on 3 rank group(s)" d3.log
grep -q "on 1 rank group(s)" d3g.log

/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.io, scipy.linalg as sla

K = scipy.io.mmread("K.mtx").toarray()
M = scipy.io.mmread("M.mtx").toarray()
N = K.shape[0]


def walk(g, out):
    for k, v in g.items():
        if isinstance(v, h5py.Dataset):
            out[v.name] = v[:]
        else:
            walk(v, out)


def load(g, p):
    """b(p), linear between the nodes of the closed path"""
    rows, pp, period = g["path/rows"][:], g["path/p"][:], float(g.attrs["period"])
    q = pp[0] + np.mod(p - pp[0], period)
    ext = np.append(pp, pp[0] + period)
    j = min(np.searchsorted(ext, q, side="right") - 1, len(pp) - 1)
    t = (q - ext[j]) / (ext[j + 1] - ext[j])
    b = np.zeros(N)
    b[rows[j]] += 1 - t
    b[rows[(j + 1) % len(pp)]] += t
    return b


def full(g, b):
    m, k = float(g.attrs["tool_mass"]), float(g.attrs["tool_stiffness"])
    al, be = float(g.attrs["alpha"]), float(g.attrs["beta"])
    Kp, Mp = K + k * np.outer(b, b), M + m * np.outer(b, b)
    return Kp, Mp, al * Mp + be * Kp


# b. the interpolated ROM's FRF (H_reduced) against a dense solve of the
# full (K(p), M(p)), not dynred's own H_full.  The median over the positions
# off the supports and the 40 frequencies (5..200 Hz), as pmor_converge: the
# mean is ruled by the few points near an interpolated pole.
med = {}
for e in (6, 4, 2):
    g = h5py.File(f"b{e}.h5", "r")["/pmor"]
    assert float(g.attrs["tool_mass"]) == 0.1 and int(g.attrs["each_support"]) == 1
    fp, om, ps = g["frf/p"][:], g["frf/omega"][:], g["supports/p"][:]
    Hr = g["frf/H_reduced"][:, :, 0] + 1j * g["frf/H_reduced"][:, :, 1]
    errs = []
    for j, p in enumerate(fp):
        if np.min(np.abs(ps - p)) < 1e-9:
            continue
        b = load(g, p)
        Kp, Mp, Dp = full(g, b)
        for i, w in enumerate(om):
            h = b @ np.linalg.solve(Kp - w * w * Mp + 1j * w * Dp, b)
            errs.append(abs(Hr[j, i] - h) / abs(h))
    med[e] = np.median(errs)
    print(f"b. every {e} a support: median eps_rel between supports vs dense (K(p), M(p)): {med[e]:.3e}")
assert med[6] > med[4] > med[2], med

# c. the per-support path with no tool against the shared-basis path.  The
# support bases are the same eigenvectors (the same SLEPc solve of the same
# matrices: deterministic start vector, signs fixed by DRModal) and the same
# static modes, so only basis-invariant quantities are compared: the FRFs,
# the frequencies and the simulation (the Panzer coordinates come from an
# SVD of [V_1 .. V_k] in both, there through the Cholesky factor of W^T W
# with W = [Phi | s_1 .. s_k], here through the eigendecomposition of W^T W
# with W = [V_1 .. V_k]: the transforms agree up to round-off amplified by
# cond(T)^2 ~ 1e6, the FRF near an interpolated pole by cond(K_r - w^2 M_r)
# ~ 1e7: 1e-8, the bound pmor_ranks uses for the same amplification).
a, b = {}, {}
walk(h5py.File("c_shared.h5", "r")["/pmor"], a)
walk(h5py.File("c_each.h5", "r")["/pmor"], b)
worst = 0.0
for k in ("/pmor/frequencies_hz", "/pmor/supports/frequencies_hz", "/pmor/frf/H_full", "/pmor/frf/H_reduced",
          "/pmor/frf/H_support", "/pmor/frf/error", "/pmor/frf/support_error", "/pmor/sim/y_full", "/pmor/sim/y_reduced"):
    x, y = a[k], b[k]
    if k.endswith("error"):
        dev = (np.abs(x - y) / np.maximum(np.abs(x), 1)).max()
    else:
        dev = np.abs(x - y).max() / np.abs(x).max()
    worst = max(worst, dev)
    assert dev < 1e-8, (k, dev)
print(f"c. zero tool, each support on its own = shared basis: within {worst:.1e}")

# d. ranks: every /pmor dataset as pmor_ranks (1e-8, its reasons)
ref = {}
walk(h5py.File("d1.h5", "r")["/pmor"], ref)
for f in ("d3.h5", "d3g.h5"):
    d = {}
    walk(h5py.File(f, "r")["/pmor"], d)
    assert d.keys() == ref.keys(), set(d) ^ set(ref)
    worst = 0.0
    for k in ref:
        x, y = ref[k].astype(float), d[k].astype(float)
        if k.endswith("/error") or k.endswith("support_error"):
            dev = (np.abs(x - y) / np.maximum(np.abs(x), 1)).max()
        else:
            dev = np.abs(x - y).max() / max(np.abs(x).max(), 1e-300)
        worst = max(worst, dev)
        assert dev < 1e-8, (f, k, dev)
    print(f"d. {f}: every /pmor dataset within {worst:.1e} of 1 rank")

# d. the full moving-load reference with K(p(t)), M(p(t)) against numpy:
# TSALPHA2's start-up (two backward-Euler half steps, then the initial
# acceleration by the backward difference), then Newmark's average
# acceleration rule, every matrix at the stage time's position, dense LU
# each step.  1e-8 of max |y|: round-off of a stable recursion (300 steps x
# 1e-14) and the solves' backward error times cond(M + h/2 D + h^2/4 K) ~ 1e2
# (Sherman-Morrison adds cond of 1 + c b^T J0^-1 b, about 1 here).
g = h5py.File("d1.h5", "r")["/pmor"]
t, p, yf = (g["sim/" + k][:] for k in ("t", "p", "y_full"))
h, Fm, tr = (float(g["sim"].attrs[k]) for k in ("h", "F_max", "t_ramp"))
speed = (p[1] - p[0]) / h


def step(ts, c1, c2, q, v):
    """b(p(ts)) and the acceleration a at ts: (M + c1 D + c2 K)(ts) a = F b - D(ts) v - K(ts) q"""
    b = load(g, p[0] + speed * ts)
    F = Fm / 2 * (1 - np.cos(np.pi * ts / tr)) if ts <= tr else Fm
    Kp, Mp, Dp = full(g, b)
    return b, np.linalg.solve(Mp + c1 * Dp + c2 * Kp, F * b - Dp @ v - Kp @ q)


q, v = np.zeros(N), np.zeros(N)
d = h / 2
qq, vv, vs = q.copy(), v.copy(), [v.copy()]
for k in (1, 2):
    _, ab = step(k * d, d, d * d / 2, qq + d * vv, vv)
    qq, vv = qq + d * vv + d * d / 2 * ab, vv + d * ab
    vs.append(vv)
a = (-3 * vs[0] + 4 * vs[1] - vs[2]) / d
y = np.zeros(len(t))
for s in range(1, len(t)):
    b, an = step(t[s], h / 2, h * h / 4, q + h * v + h * h / 4 * a, v + h / 2 * a)
    q, v, a = q + h * v + h * h / 4 * (a + an), v + h / 2 * (a + an), an
    y[s] = b @ q
dev = np.abs(y - yf).max() / np.abs(y).max()
print(f"d. full moving-load run with K(p(t)), M(p(t)) vs numpy Newmark: {dev:.2e} of max |y| = {np.abs(y).max():.4g} m")
assert dev < 1e-8, dev
# and the tool matters: the same run without it differs by far more
y0 = h5py.File("c_shared.h5", "r")["/pmor/sim/y_full"][:]
print(f"d. without the tool: {np.abs(y0 - yf).max() / np.abs(y).max():.2e} of max |y|")
assert np.abs(y0 - yf).max() > 1e-3 * np.abs(y).max()
print("ok")
PY

# e.
for opt in "-pmor_tool_mass -1" "-pmor_tool_stiffness -5"; do
  if $MPIEXEC -n 2 $DYNRED -config ring.yaml -output e.h5 $opt > e.log 2>&1; then echo "accepted: $opt"; exit 1; fi
  cat e.log
  grep -Eq "dynred: error: .*pmor.tool.(mass|stiffness) = -[15], expected >= 0" e.log
  test "$(grep -c 'dynred: error' e.log)" = 1
  test ! -e e.h5
done
echo ok
