#!/usr/bin/env bash
# cms.keep_factors (issue 13, the 1M-DOF case's memory): a component that
# waits for the others may release its K_II factorization, made again the
# way it was first made when the next step needs it (estimate residuals,
# enrichment, the interface basis applied again), and with it the residual
# blocks K_II^{-1} r_I of the estimate: a correction solves its selected
# columns again from the kept coefficients.
#  1. The 4320-DOF plate (30 x 15 x 2 hex8, one component) split into 8 by
#     cms.partition, default tol_pct path (interface reduced before the
#     projection, residual corrections, one interface refinement), 2 ranks:
#     keep_factors false releases factorizations and residual blocks (the
#     -info lines say so) and gives the frequencies, estimates and mode
#     shapes of keep_factors true to round-off: the factorization made again
#     is bit for bit the same (MUMPS is deterministic for the same matrix and
#     options), but the residual columns are solved again as a narrower block
#     (the selected modes only), and MUMPS' multi-RHS solve and the BLAS sum
#     in another order for another block width;
#     the modes below fmax are within tol_pct (0.5 %) of the job's full-model
#     solve (/verify/full_frequencies_hz), the independent reference.
#  2. auto with a node offering 16 MiB (mem_limit_mib; the memory preflight
#     estimates 11.4 for this job): a rank may hold a quarter of its 8 MiB,
#     2 MiB of factorizations, less than its 4 subdomains' (about 1 MB each
#     by MUMPS' INFO(16)): -info says which are released; the same as
#     keep_factors true to round-off.
#  3. The refinement by more fixed-interface modes (cms.refine modes: the
#     eigensolve continues through the factorization, made again; no
#     residual corrections): the same bits as true.  A group of 3 ranks (a distributed factorization, which
#     MUMPS does not reproduce bitwise): the same to round-off.
#  4. free-interface components (the plate cut in 3 parts, cms.method
#     free-interface: the estimate's own factorization is released and made
#     again): the same frequencies and estimates as true.
#  5. cms.spill_basis: a waiting component's basis T put aside in a scratch
#     file and read back by its next step (and the root's interface mass M_G
#     between its CC solves): `true` with keep_factors true, and `auto` with
#     keep_factors false (it follows the factorization's release), give the
#     same bits as the same job with spill_basis false -- the file holds T's
#     bytes, nothing is recomputed; -info says a basis was put aside, read
#     back, and not written again when unchanged; the free-interface bases
#     too.
#  6. Bad values: one line naming the key, exit != 0 (keep_factors,
#     spill_basis, a scratch_dir that cannot take a file).
# The plate's jobs solve the root's CC problem by LAPACK on the root
# (cms.dense_parallel false): its default, auto, takes ScaLAPACK unless the
# root spills its pencil, which keep_factors false and spill_basis true make
# it do -- another dense path, the same results to round-off only, where
# items 1, 3 and 5 compare bits.
set -euo pipefail
cd "$T"
cat > plate.yaml <<'EOF'
job: cms
output: plate.h5
model:
  builtin: plate
  plate: {lx: 1.0, ly: 0.5, lz: 0.02, nx: 30, ny: 15, nz: 2, clamp: x0}
cms: {fmax: 6000, partition: 8, dense_parallel: false}
verify: false
EOF
run() { # name np [options]; the job file: $CFG (default plate.yaml)
  local name=$1 np=$2; shift 2
  timeout 300 $MPIEXEC -n $np $DYNRED -config ${CFG:-plate.yaml} -output $name.h5 "$@" > $name.log 2> $name.err || { echo "$name: exit $? (124: hung)"; tail -5 $name.log $name.err; exit 1; }
}
run keep 2 -cms_keep_factors true -verify true
run lean 2 -cms_keep_factors false -info :sys
run spill 2 -cms_keep_factors true -cms_spill_basis true -info :sys
run leannos 2 -cms_keep_factors false -cms_spill_basis false
run auto 2 -mem_limit_mib 16 -info :sys
run keepm 2 -cms_keep_factors true -cms_refine modes
run leanm 2 -cms_keep_factors false -cms_refine modes
run keep3 3 -cms_keep_factors true -ranks_per_group 3
run lean3 3 -cms_keep_factors false -ranks_per_group 3
cat > fi.yaml <<'EOF'
job: cms
output: fi.h5
model:
  builtin: plate
  plate: {lx: 1.0, ly: 0.5, lz: 0.02, nx: 30, ny: 15, nz: 2, clamp: x0}
  cut: {axis: x, parts: 3}
cms: {fmax: 3000, method: free-interface}
verify: false
EOF
for k in true false; do CFG=fi.yaml run fi_$k 2 -cms_keep_factors $k -info :sys; done
n=$(grep -c "K_II factorization released" lean.log || true)
[ "$n" -ge 8 ] || { echo "keep_factors false: $n releases logged, expected one or more per subdomain"; exit 1; }
grep -q "K_II factorization released" auto.log || { echo "auto with 16 MiB: no factorization released"; exit 1; }
! grep -q "K_II factorization released" keep.log || { echo "keep_factors true released a factorization"; exit 1; }
grep -q "K_II factorization released" fi_false.log || { echo "free-interface, keep_factors false: no factorization released"; exit 1; }
for f in spill lean fi_false; do
  grep -q "put aside in a scratch file" $f.log || { echo "$f: no basis put aside (cms.spill_basis)"; exit 1; }
done
for f in spill lean; do
  grep -q "basis read back from its scratch file" $f.log || { echo "$f: no basis read back"; exit 1; }
  grep -q "unchanged since it was read back: not written" $f.log || { echo "$f: every spill wrote its basis again"; exit 1; }
  grep -q "Guyan mass M_G .* put aside" $f.log || { echo "$f: the root's M_G was not put aside"; exit 1; }
done
! grep -q "put aside" keep.log || { echo "keep_factors true, spill_basis auto: a basis was put aside"; exit 1; }
grep -q "residual columns K_II^{-1} r_I solved again" lean.log || { echo "keep_factors false: no residual block released and solved again"; exit 1; }
! grep -q "solved again (the block was released)" keep.log || { echo "keep_factors true released a residual block"; exit 1; }
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
def read(name, shapes=True):
    with h5py.File(f"{name}.h5", "r") as f:
        out = [f["/cms/frequencies_hz"][()], f["/cms/error_estimate_pct"][()]]
        if shapes:
            out.append(f["/cms/modes"][()])
        full = f["/verify/full_frequencies_hz"][()] if "/verify/full_frequencies_hz" in f else None
    return out, full
(ref, full) = read("keep")
fmax = 6000.0
a, _ = read("leanm")
b, _ = read("keepm")
for what, x, y in zip(("frequencies", "estimates", "mode shapes"), a, b):
    assert x.shape == y.shape and np.array_equal(x, y), f"leanm vs keepm: {what} differ (max {np.max(np.abs(x - y)) if x.shape == y.shape else x.shape})"
print("leanm: frequencies, estimates and mode shapes equal to keepm's bit for bit")
# to round-off: a perturbation of eps * cond(K_II) (about 1e-16 * 1e6) in the
# solves (residual columns solved again in a narrower block; or a group of 3
# ranks, where a distributed MUMPS factorization is not bitwise reproducible:
# its reductions' order varies, two runs of keep_factors true differ too);
# the frequencies are Ritz values, stationary in the basis vectors (second
# order: 1e-9 is far above it), the estimates and mode shapes first order
def roundoff(name, base):
    (f, e, u), _ = read(base)
    (g, d, v), _ = read(name)
    assert f.shape == g.shape and np.max(np.abs(f - g) / f) < 1e-9, (name, np.max(np.abs(f - g) / f))
    de = np.max(np.abs(e - d) / np.maximum(e, 1e-12))
    assert de < 1e-7, (name, de)
    s = np.sign(np.sum(u * v, axis=0))
    du = np.max(np.linalg.norm(u - v * s, axis=0) / np.linalg.norm(u, axis=0))
    assert du < 1e-7, (name, du)
    print(f"{name} vs {base}: frequencies {np.max(np.abs(f - g) / f):.2g}, estimates {de:.2g}, mode shapes {du:.2g} relative")
for x, y in (("spill", "keep"), ("lean", "leannos")):
    a, _ = read(x)
    b, _ = read(y)
    for what, u, v in zip(("frequencies", "estimates", "mode shapes"), a, b):
        assert u.shape == v.shape and np.array_equal(u, v), f"{x} vs {y}: {what} differ"
    print(f"{x}: frequencies, estimates and mode shapes equal to {y}'s bit for bit (bases put aside and read back)")
roundoff("lean", "keep")
roundoff("auto", "keep")
roundoff("lean3", "keep3")
# the reference: the full model (tol_pct 0.5 %, the job's default)
f = ref[0]
k = int(np.sum(full <= fmax))
assert k >= 10 and len(f) >= k, (k, len(f))
dev = (f[:k] - full[:k]) / full[:k] * 100
assert np.all(dev > -1e-8) and np.all(dev < 0.5), dev
print(f"keep: {k} modes below {fmax} Hz within {dev.max():.3g} % of the full model (tol_pct 0.5)")
a, _ = read("fi_false", shapes=False)
b, _ = read("fi_true", shapes=False)
for what, x, y in zip(("frequencies", "estimates"), a, b):
    assert np.array_equal(x, y), f"free-interface: {what} differ"
print("free-interface: frequencies and estimates equal bit for bit")
PY
# 6. bad values
bad() { # expected-message options...
  local msg=$1 rc=0; shift
  timeout 120 $MPIEXEC -n 2 $DYNRED -config plate.yaml -output bad.h5 "$@" > bad.log 2>&1 || rc=$?
  [ $rc -ne 0 ] || { echo "$*: exit 0"; exit 1; }
  [ "$(grep -c 'dynred: error:' bad.log)" = 1 ] || { echo "$*: expected one error line"; cat bad.log; exit 1; }
  grep -E "dynred: error: .*$msg" bad.log || { echo "$*: expected '$msg'"; cat bad.log; exit 1; }
  [ ! -e bad.h5 ] || { echo "$*: left bad.h5 behind"; exit 1; }
}
bad "cms.keep_factors = 'maybe', expected auto, true or false" -cms_keep_factors maybe
bad "cms.spill_basis" -cms_spill_basis sometimes
bad "cms.scratch_dir = '$T/none' \\(for cms.spill_basis\\): cannot create a scratch file in $T/none, expected a writable directory" -cms_spill_basis true -cms_scratch_dir $T/none
