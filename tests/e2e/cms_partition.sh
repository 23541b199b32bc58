#!/usr/bin/env bash
# Automatic substructuring (cms.partition, issue 13 item 5).
#  1. A one-component built-in plate (30 x 15 x 2 hex8, clamped at x = 0,
#     4320 DOFs; no model.cut) split into 2, 4 and 8 subdomains + separator:
#     every full-model mode below fmax is found (same count), none lies below
#     its full value (Rayleigh-Ritz) and each is within 0.5 % of it.  The
#     reference is the job's own verification solve (the full model by
#     `dynred modal`'s solver, /verify/full_frequencies_hz).
#  2. The same job (4 subdomains) on 1, 2 and 3 ranks, and on 3 ranks in one
#     rank group (distributed component matrices): frequencies agree to 1e-8.
#  3. A Matrix Market model of one component (no coordinates: the graph
#     bisection path), a 2-D grid of scalar springs, split into 4: the lowest
#     20 frequencies against numpy's dense eigensolution of the same files.
#  4. cms.partition larger than the model allows, and malformed values: one
#     line naming the key, the value and the limit; exit != 0.
#  5. cms.partition off keeps today's single component, and auto on this small
#     model does the same (a log line says so), with the same frequencies; the
#     substructured job writes the same mesh as the one-component job.
#  6. Kept whole on the default tol_pct path: only the modes below 1.05 fmax
#     are solved (the count dynred modal finds there), equal to the full model.
#  8. The auto choice on the 46k-DOF plate (100 x 50 x 2, one component):
#     kept whole for 20 modes, split into 8 for 200 modes, the cases the cost
#     model was calibrated on (bench/README.md "CMS: cms.partition auto
#     calibration": measured 1.18 of the modal job split in 2 at 20 modes,
#     0.65-0.73 in 8 at 200).  The decision is made before any solve, so
#     cms.dry_run shows it: the job stops after the set-up, prints that it
#     solved nothing and leaves no file.  The split job's accuracy at that
#     size is bench/cms_bench.py's (plate50k-auto, against `dynred modal`);
#     items 1 and 2 check it here on the small plate.
#  9. A refinement round that enriches many components (the plate in 16,
#     fmax 6000: 10 named in one log line): the line is built within its
#     buffer (PETSc 3.18's PetscStrlcat wrote past it: a crash, or an
#     AddressSanitizer report in the sanitizer run), and the job's modes
#     below fmax are within 0.5 % of its full-model solve.
#  7. The root's CC problem on the separator (675 DOFs) by the dense block
#     Lanczos path (src/eigen/dense_lanczos.c, lowered to n >= 128 by
#     -dr_dense_lanczos_min; by default from 3000): the log says it solved the
#     separator's pencil, and the frequencies equal the LAPACK path's run.
set -euo pipefail
cd "$T"
cat > plate.yaml <<'EOF'
job: cms
output: plate.h5
model:
  builtin: plate
  plate: {lx: 1.0, ly: 0.5, lz: 0.02, nx: 30, ny: 15, nz: 2, clamp: x0}
cms: {fmax: 2000, cutoff_factor: 4}
verify: true
EOF
run() { # name np [options]
  local name=$1 np=$2; shift 2
  timeout 300 $MPIEXEC -n $np $DYNRED -config plate.yaml -output $name.h5 "$@" > $name.log 2> $name.err || { echo "$name: exit $? (124: hung)"; tail -5 $name.log $name.err; exit 1; }
}
for n in 2 4 8; do run p$n 2 -cms_partition $n; done
# (the full-model verification only where it is the reference)
run np1 1 -cms_partition 4 -verify false
run np3 3 -cms_partition 4 -verify false
run np3g1 3 -cms_partition 4 -ranks_per_group 3 -verify false
run off 2 -cms_partition off -verify false
run auto 2 -verify false
# 7. (fmax 600: few CC modes, where the Lanczos path's operation count wins)
run lz 2 -cms_partition 8 -cms_fmax 600 -verify false
run lzb 2 -cms_partition 8 -cms_fmax 600 -verify false -dr_dense_lanczos_min 128 -info
grep -E "dense pencil of (6[7-9][0-9]|[7-9][0-9][0-9]|[0-9]{4,}): the lowest [0-9]+ modes by block Lanczos" lzb.log \
  || { echo "lzb: the separator's pencil (>= 675 DOFs) was not solved by block Lanczos"; grep "dense pencil" lzb.log | head; exit 1; }
# 6. kept whole with the default tol_pct path (no cutoff_factor): its modes
#    are the system's own, so it keeps only those below 1.05 fmax (the coupled
#    solve's range; 1.25 before, 1.5 before that) and they equal the full model's
sed '/^cms:/d' plate.yaml > whole.yaml && echo "cms: {fmax: 2000}" >> whole.yaml
timeout 300 $MPIEXEC -n 2 $DYNRED -config whole.yaml -verify false -output whole.h5 > whole.log 2>&1 || { echo "whole: exit $?"; tail -5 whole.log; exit 1; }
timeout 300 $MPIEXEC -n 2 $DYNRED -config whole.yaml -cms_partition 16 -cms_fmax 6000 -output p16r.h5 > p16r.log 2>&1 || { echo "p16r: exit $?"; tail -5 p16r.log; exit 1; }
[ "$(grep "cms: refinement 1:" p16r.log | grep -o "'sub[0-9]*'" | wc -l)" -ge 9 ] || { echo "p16r: the refinement line names fewer than 9 components"; grep "refinement" p16r.log; exit 1; }
timeout 300 $MPIEXEC -n 2 $DYNRED modal -config whole.yaml -modal_fmax 2100 -modal_write_modes false -output whole_ref.h5 > whole_ref.log 2>&1 || { echo "whole_ref: exit $?"; tail -5 whole_ref.log; exit 1; }
# 8. auto on the 46k plate (fmax: the 20th and the 200th frequency of the full model)
big="-model_builtin plate -model_plate_nx 100 -model_plate_ny 50 -model_plate_nz 2 -verify false -cms_checkpoint none"
timeout 300 $MPIEXEC -n 2 $DYNRED cms $big -model_cut_axis x -model_cut_parts 1 -cms_nmodes 20 -cms_fmax 1542.39831 -cms_dry_run true -output a20.h5 > a20.log 2>&1 || { echo "a20: exit $?"; tail -5 a20.log; exit 1; }
timeout 300 $MPIEXEC -n 2 $DYNRED cms $big -model_cut_axis x -model_cut_parts 1 -cms_nmodes 200 -cms_fmax 14620.8751 -cms_dry_run true -output a200.h5 > a200.log 2>&1 || { echo "a200: exit $?"; tail -5 a200.log; exit 1; }
grep -h "partition auto" a20.log a200.log
grep -q "cms: dry run: 1 component(s) on 1 rank group(s) .*nothing solved, a20.h5 not written" a20.log || { echo "a20: no dry-run line"; tail -3 a20.log; exit 1; }
grep -q "cms: dry run: 9 component(s) on 2 rank group(s) .*nothing solved, a200.h5 not written" a200.log || { echo "a200: no dry-run line"; tail -3 a200.log; exit 1; }
! ls a20.h5* a200.h5* 2>/dev/null || { echo "a dry run left files"; exit 1; }
grep -q "partition auto: 45900 DOFs; .* -> kept as one component" a20.log || { echo "a20: auto did not keep the 46k plate whole at 20 modes"; exit 1; }
grep -q "partition auto: 45900 DOFs; .* -> 8 subdomains" a200.log || { echo "a200: auto did not split the 46k plate into 8 at 200 modes"; exit 1; }
grep -h "substructured" p2.log p4.log p8.log
grep -A6 "cms: balance" np3.log
grep -q "cms: partition auto: 4320 DOFs (below 20000): kept as one component" auto.log || { echo "auto: no 'kept as one component' line"; exit 1; }
! grep -q "substructured\|partition auto" off.log || { echo "off: substructuring lines in the log"; exit 1; }

# 3. Matrix Market: 24 x 12 grid of unit-DOF nodes, springs to the 8
# neighbours, grounded along x = 0, masses varying so no frequency repeats
/usr/bin/python3 - <<'PY'
import numpy as np
nx, ny = 24, 12
node = lambda i, j: 1 + i + nx * j
n = nx * ny
K, M = np.zeros((n, n)), np.diag(1.0 + 0.5 * np.sin(np.arange(n) * 0.37) ** 2)
for j in range(ny):
    for i in range(nx):
        a = node(i, j) - 1
        for di, dj, k in ((1, 0, 1e4), (0, 1, 1.3e4), (1, 1, 0.4e4), (1, -1, 0.4e4)):
            if 0 <= i + di < nx and 0 <= j + dj < ny:
                b = node(i + di, j + dj) - 1
                K[a, a] += k; K[b, b] += k; K[a, b] -= k; K[b, a] -= k
        if i == 0:
            K[a, a] += 2e4
def mtx(path, A):
    ent = [(r, c, A[r, c]) for c in range(n) for r in range(c, n) if A[r, c] != 0]
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n" + "%d %d %d\n" % (n, n, len(ent)))
        f.writelines("%d %d %.17g\n" % (r + 1, c + 1, v) for r, c, v in ent)
mtx("g_K.mtx", K); mtx("g_M.mtx", M)
open("g.dof", "w").write("".join("%d.1\n" % (k + 1) for k in range(n)))
L = np.linalg.cholesky(M); Li = np.linalg.inv(L)
lam = np.linalg.eigvalsh(Li @ K @ Li.T)
np.savetxt("g_ref_hz.txt", np.sqrt(lam) / (2 * np.pi), fmt="%.17g")
open("grid.yaml", "w").write("""job: cms
output: grid.h5
components:
  - {name: grid, format: mtx, K: g_K.mtx, M: g_M.mtx, dofs: g.dof}
cms: {nmodes: 20, component_modes: 40, partition: 4}
""")
PY
timeout 300 $MPIEXEC -n 2 $DYNRED -config grid.yaml > grid.log 2>&1 || { echo "grid: exit $?"; tail -5 grid.log; exit 1; }
grep "substructured" grid.log

# 4. bad values: one line, exit != 0
bad() { # expected-regex option-value
  local re=$1 v=$2 rc=0
  timeout 120 $MPIEXEC -n 2 $DYNRED -config plate.yaml -output bad.h5 -verify false -cms_partition "$v" > bad.log 2>&1 || rc=$?
  [ $rc -ne 0 ] || { echo "cms.partition = '$v': exit 0, expected an error"; exit 1; }
  [ "$(grep -c 'dynred: error:' bad.log)" = 1 ] || { echo "cms.partition = '$v': expected one error line"; cat bad.log; exit 1; }
  grep -E "dynred: error: .*$re" bad.log || { echo "cms.partition = '$v': message does not match '$re'"; cat bad.log; exit 1; }
}
bad "cms.partition = 100000, expected at most 1440 \(the nodes of the model\)" 100000
bad "cms.partition = 1000 leaves [0-9]+ of the 1000 subdomains without an interior node .*expected at most [0-9]+ for this model" 1000
bad "cms.partition = 'two', expected auto, off or a number of subdomains >= 2" two
bad "cms.partition = '1', expected auto, off or a number of subdomains >= 2" 1
bad "cms.partition = '2.5', expected auto, off or a number of subdomains >= 2" 2.5

/usr/bin/python3 - <<'PY'
import h5py, numpy as np
def load(name):
    with h5py.File(f"{name}.h5", "r") as f:
        return (f["/cms/frequencies_hz"][:], f["/verify/full_frequencies_hz"][:] if "verify" in f else None,
                sorted(f["/cms/components"]), f["/cms"].attrs["ndof"])
fmax = 2000.0
for n in (2, 4, 8):
    fc, ff, comps, nd = load(f"p{n}")
    assert nd == 4320, nd
    assert comps == sorted([f"sub{i}" for i in range(1, n + 1)] + ["separator"]), comps
    fc, ffb = fc[fc <= fmax], ff[ff <= fmax]
    # all modes up to fmax paired: CMS spans a subspace, so it cannot find more; a
    # missing one would be a mode lost by the reduction
    assert len(fc) == len(ffb), f"p{n}: {len(fc)} CMS modes below fmax, full model {len(ffb)}"
    d = (fc - ffb) / ffb
    print(f"p{n}: {len(fc)} modes below {fmax} Hz; deviation min {d.min():.2e}, max {100 * d.max():.4f} %")
    # -1e-9 relative: Rayleigh-Ritz (f_cms >= f_full) up to the two solvers' tolerance; both
    # eigensolves converge to ~1e-12 relative in the frequency here, the slack is a regression limit
    assert d.min() > -1e-9, f"p{n}: mode {d.argmin() + 1} below the full model by {-d.min():.2e}"
    # 0.5 %: the project's CMS accuracy target (issue 13 tol_pct default), a truncation
    # claim for cutoff_factor 4; observed 0.08 / 0.21 / 0.28 % for 2 / 4 / 8 subdomains
    assert d.max() < 5e-3, f"p{n}: mode {d.argmax() + 1} deviates {100 * d.max():.3f} %"
f1 = load("np1")[0]
for case in ("p4", "np3", "np3g1"):
    fc = load(case)[0]
    e = np.max(np.abs(fc - f1) / f1)
    print(f"{case}: max rel. difference to 1 rank {e:.1e}")
    # 1e-8: the project's rank-independence limit for CMS (cms_ranks.sh); the components are
    # identical on any rank count (partition on one rank, from a rank-independent graph), so
    # only the distributed solves' round-off differs
    assert e < 1e-8, f"{case}: differs from 1 rank by {e:.2e}"
# the XDMF mesh of a substructured job is the model's whole mesh (carried by sub1)
with h5py.File("p4.h5", "r") as f, h5py.File("off.h5", "r") as g:
    for ds in ("/mesh/node_ids", "/mesh/coordinates", "/mesh/topology"):
        assert np.array_equal(f[ds][:], g[ds][:]), f"{ds} differs from the one-component job's"
fo, _, co, _ = load("off")
fa, _, ca, _ = load("auto")
assert co == ["plate"] and ca == ["plate"], (co, ca)
# the same single component and solver path; not bitwise: two runs of the unchanged
# one-component path on 2 ranks already differ by ~6e-13 (parallel MUMPS), and by
# up to 6e-10 in the highest modes; 1e-8 is the project's CMS run-to-run/rank limit
e = np.max(np.abs(fo - fa) / fo)
print(f"off vs auto (one component): max rel. difference {e:.1e}")
assert e < 1e-8, e
# 6. the model kept whole (default path): as many component modes as the
# full model has below 1.05 fmax (dynred modal's count there, by inertia),
# at least the first round's floor of 8 (cms.min_component_modes); and the modes below fmax are the
# full model's own (no reduction error)
with h5py.File("whole.h5", "r") as f, h5py.File("whole_ref.h5", "r") as g:
    nq = int(f["/cms/components/plate"].attrs["n_modes"])
    below = len(g["/modal/frequencies_hz"])
    fw, fr = f["/cms/frequencies_hz"][:], g["/modal/frequencies_hz"][:]  # the full model: dynred modal
print(f"whole: {nq} component modes, {below} full-model modes below 1.05 fmax")
assert nq == max(below, 8), f"whole: {nq} component modes, expected max({below}, 8)"
e = np.max(np.abs(fw - fr[:len(fw)]) / fr[:len(fw)])
# 1e-8: the CMS run-to-run/rank limit as above (the same eigenpairs from two solves)
assert e < 1e-8, f"whole: the kept-whole modes differ from the full model by {e:.1e}"
# 7. the dense block Lanczos path against LAPACK's: eigenvalues to ~1e-20 and
# vectors to ~1e-10 (its residual tolerance) move the CMS frequencies far below
# 1e-8, the project's CMS run-to-run/rank limit
with h5py.File("lz.h5", "r") as f, h5py.File("lzb.h5", "r") as g:
    fl, fb = f["/cms/frequencies_hz"][:], g["/cms/frequencies_hz"][:]
assert len(fl) == len(fb) and len(fl) > 0, (len(fl), len(fb))
e = np.max(np.abs(fb - fl) / fl)
print(f"separator by block Lanczos vs LAPACK: {len(fl)} modes, max rel. difference {e:.1e}")
assert e < 1e-8, e
# 9. the plate in 16 after a refinement round against its full-model solve
with h5py.File("p16r.h5", "r") as f:
    fc, ff = f["/cms/frequencies_hz"][:], f["/verify/full_frequencies_hz"][:]
fc = fc[fc <= 6000.0]
d = (fc - ff[:len(fc)]) / ff[:len(fc)]
print(f"p16r: {len(fc)} modes below 6000 Hz; deviation min {d.min():.2e}, max {100 * d.max():.4f} %")
# -1e-9 and 0.5 %: Rayleigh-Ritz and cms.tol_pct's default, as for p2-p8
assert d.min() > -1e-9 and d.max() < 5e-3, (d.min(), d.max())
with h5py.File("grid.h5", "r") as f:
    fg = f["/cms/frequencies_hz"][:]
    comps = sorted(f["/cms/components"])
assert comps == ["separator", "sub1", "sub2", "sub3", "sub4"], comps
ref = np.loadtxt("g_ref_hz.txt")[:len(fg)]
d = (fg - ref) / ref
print(f"grid (graph bisection): {len(fg)} modes, deviation from numpy min {d.min():.2e}, max {100 * d.max():.4f} %")
# -1e-9: Rayleigh-Ritz as above (numpy's eigvalsh is accurate to ~1e-14 relative here)
assert d.min() > -1e-9, f"grid: mode {d.argmin() + 1} below the exact value by {-d.min():.2e}"
# 0.5 %: the same accuracy target; 40 fixed-interface modes per subdomain of ~70 DOFs
assert d.max() < 5e-3, f"grid: mode {d.argmax() + 1} deviates {100 * d.max():.3f} %"
print("ok")
PY
