#!/usr/bin/env bash
# External reference: CalculiX.  A C3D8 steel bar 0.4 x 0.04 x 0.04 m (30 x
# 3 x 3 elements, one conforming mesh) clamped at x = 0, split into 3 parts
# along x (scripts/ccx_bar_parts.py).  Each part is its own CalculiX deck
# (only its elements and nodes; interface nodes keep their ids; only part 1
# has the clamp, parts 2 and 3 float) exported with
# *FREQUENCY, SOLVER=MATRIXSTORAGE; dynred cms couples them (format:
# calculix, tests/data/cms/bar_ccx.yaml) on 1 and 2 ranks.
#  - CalculiX writes matrices for the floating parts: K of part 2 (528 DOFs)
#    has exactly 6 rigid-body modes (eigenvalues of M^-1 K below 1e-8 of the
#    7th), part 1 none.
#  - The 12 CMS frequencies are within 0.5 % of CalculiX's own *FREQUENCY on
#    the whole-bar deck (7 printed digits) and not below them by more than
#    the print precision (Rayleigh-Ritz, 1e-6).
#  - dynred's verify (assembled parts) agrees with CalculiX's full deck to
#    1e-5 (same matrices, different eigensolvers).
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/scripts/ccx_bar_parts.py bar 0.4 0.04 0.04 30 3 3 3 210e9 0.3 7850 12
for j in bar_full bar_p1 bar_p2 bar_p3; do ccx -i $j > $j.log 2>&1; done
/usr/bin/python3 $ROOT/scripts/ccx_freqs.py bar_full.dat > ref.txt
cp $ROOT/tests/data/cms/bar_ccx.yaml .
$DYNRED -config bar_ccx.yaml -output np1.h5 > np1.log
timeout 300 $MPIEXEC -n 2 $DYNRED -config bar_ccx.yaml -output np2.h5 > np2.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl

def ccx_matrix(path, n):
    A = np.zeros((n, n))
    for line in open(path):
        i, j, v = line.split()
        i, j = int(i) - 1, int(j) - 1
        A[i, j] = A[j, i] = float(v)
    return A

for part, nrigid in (("bar_p1", 0), ("bar_p2", 6)):
    n = sum(1 for _ in open(part + ".dof"))
    K, M = ccx_matrix(part + ".sti", n), ccx_matrix(part + ".mas", n)
    lam = sl.eigh(K, M, eigvals_only=True, subset_by_index=[0, 7])
    # rigid modes: .sti/.mas print 14 digits (5e-14 relative) plus sqrt(n) u: |lambda| <~ 5e-14 lambda_max, ~5e-11 of mode 7
    # for part 2 (observed 1e-12); 1e-8 is derived with margin
    small = int(np.sum(np.abs(lam) < 1e-8 * lam[nrigid]))
    print(f"{part}: {n} DOFs, lowest eigenvalues {lam[:8]}; {small} rigid-body modes")
    assert small == nrigid, f"{part}: {small} rigid-body modes, expected {nrigid}"

ref = np.loadtxt("ref.txt")
assert len(ref) == 12, ref
for np_ in (1, 2):
    with h5py.File(f"np{np_}.h5", "r") as f:
        fc = f["/cms/frequencies_hz"][:]
        ff = f["/verify/full_frequencies_hz"][:12]
        comps = {k: dict(g.attrs) for k, g in f["/cms/components"].items()}
    assert sorted(comps) == ["p1", "p2", "p3"] and all(c["n_modes"] == 30 for c in comps.values()), comps
    assert len(fc) == 12, fc
    d = (fc - ref) / ref
    dv = np.max(np.abs(ff - ref) / ref)
    for k in range(12):
        print(f"mode {k + 1:2d}: CMS {fc[k]:12.4f} Hz  CalculiX {ref[k]:12.4f} Hz  dev {100 * d[k]:+.4f} %")
    print(f"{np_} rank(s): max dev {100 * d.max():.4f} %, verify full vs CalculiX {dv:.1e}")
    # 0.5 %: the project's CMS accuracy target (cms.verify_tol_pct of configs/plate_cms.yaml), a truncation claim
    assert d.max() < 0.005, f"CMS deviates {100 * d.max():.3f} % from CalculiX"
    # Rayleigh-Ritz (exact: d >= 0) against 7 printed digits (0.ddddddd E+xx): rounding <= 5e-7 relative, so 1e-6
    assert d.min() > -1e-6, f"CMS below CalculiX by {-d.min():.2e} (Rayleigh-Ritz)"
    # not derived: 20x the 5e-7 print rounding (0.ddddddd E+xx), room for CalculiX's own eigensolver (a regression limit)
    assert dv < 1e-5, f"dynred's full solve of the assembled parts deviates {dv:.2e} from CalculiX"
print("ok")
PY
