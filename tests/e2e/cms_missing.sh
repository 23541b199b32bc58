#!/usr/bin/env bash
# The accuracy gates see a missing mode.  A 12-mass chain (component a,
# grounded at node 1; tests/data/cms/chain_gen.py's masses and springs) with
# a light oscillator hung on node 6 (component b: node 6 and node 100, mass
# 1e-3 kg, tuned to the geometric mean of the chain's modes 1 and 2, where
# the oscillator's motion in the chain's modes stays near node 6's and the
# MAC pairs them).  The full model's mode 2 is the oscillator's; reduced by
# Guyan, b keeps no interior mode, so the CMS spectrum lacks it while every
# other mode moves by at most 5e-4 relative (the oscillator's 1e-3 kg as a
# static mass on node 6, chain masses >= 1 kg: first-order shift
# <= dm / (2 m) = 5e-4): the deviations of the MAC pairs and
# the index-wise Rayleigh-Ritz bound (a Galerkin reduction: it holds) both
# pass, only the coverage check (every full mode below the highest CMS
# frequency paired) can fail.  numpy solves the 13-DOF model independently
# and names the oscillator's mode (largest kinetic energy share on node 100).
#  1. cms.verify_tol_pct 0.5 with b by Guyan: exit 1, one line naming that
#     mode and its frequency, on 1 and 2 ranks; /verify/missing_modes = it,
#     max_error_pct < 0.5 (the deviation gate alone would pass).
#  2. b by Craig-Bampton with every interior mode (exact CMS): passes, no
#     mode missing; verify_tol_pct 0 (report only) with Guyan: exit 0 and
#     the MISSING line.
#  3. dynred compare of the exact result with a copy lacking mode 3 (its
#     frequency and mode shape column deleted with h5py): -tol_pct 0.5
#     fails naming A's mode 3; the other way round B's mode 3 is extra.
#  4. The deviation gate and the tol_pct warning: the beam of beam.yaml
#     with 2 fixed-interface modes per part (explicit: no refinement), 6
#     modes, every full mode below the top paired: cms.verify_tol_pct 1
#     exits 1 with one line naming the largest deviation, equal to numpy's
#     from /cms/frequencies_hz, /verify/full_frequencies_hz and the
#     pairing (printed with 6 digits) and above 1 %; the warning counts the
#     modes whose /cms/error_estimate_pct exceeds cms.tol_pct 0.5 (numpy's
#     count, > 0).
# Frequencies printed with 9 digits; compared with numpy's to 1e-7
# relative (a 13-DOF model with condition number ~1e3: both solves good to
# 1e-12 relative, the printing to 5e-9).
set -euo pipefail
cd "$T"
/usr/bin/python3 - "$ROOT" <<'PY'
import sys, numpy as np
sys.path.insert(0, sys.argv[1] + "/tests/data/cms")
import chain_gen as cg
n, att, mb = 12, 6, 1e-3
m, k = cg.chain_data(n)
Ka, Ma = cg.component(list(range(1, n + 1)), m, k, {att: 0.9}, True, list(range(1, n + 1)))
fc = cg.eig_hz(*cg.component(list(range(1, n + 1)), m, k, {}, True, list(range(1, n + 1))))
fa = np.sqrt(fc[0] * fc[1])
kb = mb * (2 * np.pi * fa) ** 2
Kb = kb * np.array([[1.0, -1.0], [-1.0, 1.0]])
Mb = np.diag([0.1 * m[att - 1], mb])
cg.write_comp(".", "a", [(nd, 1) for nd in range(1, n + 1)], Ka, Ma)
cg.write_comp(".", "b", [(att, 1), (100, 1)], Kb, Mb)
# the assembled model, labels 1..12, 100
K = np.zeros((n + 1, n + 1)); M = np.zeros((n + 1, n + 1))
K[:n, :n] += Ka; M[:n, :n] += Ma
ix = [att - 1, n]
K[np.ix_(ix, ix)] += Kb; M[np.ix_(ix, ix)] += Mb
L = np.linalg.cholesky(M); Li = np.linalg.inv(L)
w, V = np.linalg.eigh(Li @ K @ Li.T)
X = Li.T @ V
f = np.sqrt(w) / (2 * np.pi)
share = X[n] ** 2 * mb / np.einsum("ij,ij->j", X, M @ X)
j = int(np.argmax(share))
assert share[j] > 0.99 and j == 1, (j, share[j])               # the oscillator's mode, inside the 8 CMS modes' range
np.savetxt("full_hz.txt", f, fmt="%.17g")
open("osc.txt", "w").write("%d %.17g\n" % (j + 1, f[j]))
for name, meth in (("guyan", "guyan"), ("exact", "craig-bampton")):
    open(name + ".yaml", "w").write(f"""job: cms
output: {name}.h5
components:
  - {{name: a, format: mtx, K: a_K.mtx, M: a_M.mtx, dofs: a.dof}}
  - {{name: b, format: mtx, K: b_K.mtx, M: b_M.mtx, dofs: b.dof, method: {meth}}}
cms: {{nmodes: 8, component_modes: 100, verify_tol_pct: 0.5}}
verify: true
""")
PY
read J FJ < osc.txt
FJ9=$(printf '%.9g' "$FJ")
echo "numpy: the oscillator is the full model's mode $J at $FJ9 Hz"
# 1. the CMS gate
for np in 1 2; do
  if timeout 300 $MPIEXEC -n $np $DYNRED -config guyan.yaml -output g$np.h5 > g$np.log 2>&1; then echo "Guyan CMS on $np ranks passed the gate"; cat g$np.log; exit 1; fi
  pat="verification failed: full-model mode $J \(([0-9.]+) Hz\) has no pair in CMS \(1 missing, 0 extra\), expected every full-model mode below CMS's highest frequency [0-9.]+ Hz paired \(cms.verify_tol_pct 0.5\)"
  grep -E "$pat" g$np.log || { echo "no gate line naming mode $J"; cat g$np.log; exit 1; }
  grep -q "MISSING: full mode $J (" g$np.log
done
/usr/bin/python3 - "$J" "$FJ" <<'PY'
import sys, re, h5py, numpy as np
J, FJ = int(sys.argv[1]), float(sys.argv[2])
f = np.loadtxt("full_hz.txt")
for np_ in (1, 2):
    line = [l for l in open("g%d.log" % np_) if "verification failed" in l][0]
    got = float(re.search(r"full-model mode \d+ \(([0-9.]+) Hz\)", line).group(1))
    assert abs(got - FJ) <= 1e-7 * FJ, (got, FJ)                       # tol: header
    with h5py.File("g%d.h5" % np_) as h:
        v = h["/verify"]
        assert list(v["missing_modes"][:]) == [J] and len(v["extra_modes"]) == 0, v["missing_modes"][:]
        assert v.attrs["max_error_pct"] < 0.5 and v.attrs["rayleigh_ritz_bound_ok"] == 1, dict(v.attrs)
        assert J not in v["pairing"][:]
        maxerr = v.attrs["max_error_pct"]
        fc = h["/cms/frequencies_hz"][:]
        # the CMS modes are the chain's: the full modes without the oscillator's, to 5e-4 relative (header)
        fr = np.delete(f, J - 1)[:8]
        assert np.all(np.abs(fc - fr) <= 5e-4 * fr), (fc, fr)
    print(f"{np_} rank(s): gate names mode {J} at {got} Hz (numpy {FJ:.9g}); max deviation of the pairs {maxerr:.4f} % < 0.5 %")
PY
# 2. exact CMS passes; Guyan without the gate reports only
$DYNRED -config exact.yaml > exact.log
grep -q "coverage: every full mode below" exact.log
$DYNRED -config guyan.yaml -output g0.h5 -cms_verify_tol_pct 0 > g0.log 2>&1 || { echo "report-only run failed"; cat g0.log; exit 1; }
grep -q "MISSING: full mode $J (" g0.log
# 3. compare with a mode dropped
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, shutil
shutil.copy("exact.h5", "drop3.h5")
with h5py.File("drop3.h5", "r+") as h:
    f, P = h["/cms/frequencies_hz"][:], h["/cms/modes"][:]
    del h["/cms/frequencies_hz"], h["/cms/modes"]
    h["/cms/frequencies_hz"] = np.delete(f, 2)
    h["/cms/modes"] = np.delete(P, 2, axis=1)
PY
$ROOT/tests/expect.sh "compare: A mode 3 \(([0-9.]+) Hz\) has no pair in B \(1 missing, 0 extra\)" $DYNRED compare exact.h5 drop3.h5 -tol_pct 0.5 > c1.out
$ROOT/tests/expect.sh "compare: B mode 3 \(([0-9.]+) Hz\) has no pair in A \(1 extra\)" $DYNRED compare drop3.h5 exact.h5 -tol_pct 0.5 > c2.out
cat c1.out c2.out
/usr/bin/python3 - <<'PY'
import re, numpy as np
f3 = np.loadtxt("full_hz.txt")[2]
for c in ("c1.out", "c2.out"):
    got = float(re.search(r"mode 3 \(([0-9.]+) Hz\)", open(c).read()).group(1))
    assert abs(got - f3) <= 1e-7 * f3, (c, got, f3)                    # tol: header
print(f"compare names the dropped mode 3 at {f3:.9g} Hz (numpy)")
PY
$DYNRED compare exact.h5 exact.h5 -tol_pct 1e-9 > same.log
# 4. the deviation gate and the tol_pct warning
if $DYNRED -config $ROOT/tests/data/cms/beam.yaml -cms_component_modes 2 -cms_nmodes 6 -cms_verify_tol_pct 1 -cms_checkpoint none -output dev.h5 > dev.log 2>&1; then
  echo "verify_tol_pct 1 passed a 2-mode-per-part beam"; exit 1
fi
grep -E "^dynred: (error|warning):" dev.log
test "$(grep -c '^dynred: error:' dev.log)" = 1
/usr/bin/python3 - <<'PY'
import re, h5py, numpy as np
log = open("dev.log").read()
got = float(re.search(r"^dynred: error: verification failed: largest deviation ([0-9.]+) % exceeds cms.verify_tol_pct 1\.?$", log, re.M).group(1))
nw = int(re.search(r"^dynred: warning: (\d+) mode\(s\) with an error estimate above cms.tol_pct = 0.5 %", log, re.M).group(1))
with h5py.File("dev.h5", "r") as f:
    fc, ff, pair = f["/cms/frequencies_hz"][:], f["/verify/full_frequencies_hz"][:], f["/verify/pairing"][:] - 1
    est = f["/cms/error_estimate_pct"][:]
    assert len(f["/verify/missing_modes"]) == 0, f["/verify/missing_modes"][:]
dev = np.abs(100 * (fc - ff[pair]) / ff[pair]).max()
assert got > 1 and abs(got - dev) <= 5e-6 * dev, (got, dev)          # tol: 6 printed digits
assert nw == int(np.sum(est > 0.5)) and nw > 0, (nw, est)
print(f"deviation gate: {got} % (numpy {dev:.6g} %) > 1 %; tol_pct warning counts {nw} modes above 0.5 % (numpy)")
PY
echo ok
