#!/usr/bin/env bash
# External reference: CalculiX.  A stiffened steel panel of S8R shells with
# B32 beams (scripts/ccx_panel_parts.py: 0.6 x 0.4 m, 4 mm, clamped at x = 0,
# a longitudinal stiffener through all parts, a transverse frame on each cut
# made of two coincident halves, one per part) as 3 CalculiX decks that share
# the cut nodes by id, exported with *FREQUENCY, SOLVER=MATRIXSTORAGE, and the
# whole structure solved by CalculiX's own *FREQUENCY (20 modes).  Every cut
# node is a beam-shell junction, so CalculiX makes it a knot: its rows are
# the node's translations plus a rotation node and an expansion node with ids
# of their own, which dynred's reader ties to the knot (n.4-6, dilatations
# n.0; DESIGN.md "CalculiX expanded elements"), so the parts couple in
# translations and rotations.
#  - The cut labels: 9 nodes per cut with n.1-6 in both neighbours.
#  - The 20 CMS frequencies (1 and 3 ranks) are within 0.5 % of CalculiX's
#    whole-structure frequencies, and not below them by more than 1e-5
#    relative (Rayleigh-Ritz; the allowance is CalculiX's own solve: 7
#    printed digits and its eigensolver, as cms_calculix's 1e-5), and not
#    below dynred's full solve of the assembled parts by more than 1e-9
#    (Rayleigh-Ritz against the same matrices; SLEPc's residual 1e-12).
#  - The same parts with part 2's half frame left out (its cut nodes are then
#    plain expanded shell nodes, several rows per label) stop with one line
#    naming both decks and the node.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/scripts/ccx_panel_parts.py pan 3
for j in pan_full pan_p1 pan_p2 pan_p3; do ccx -i $j > $j.log 2>&1; done
/usr/bin/python3 $ROOT/scripts/ccx_freqs.py pan_full.dat > ref.txt
cat > cms.yaml <<YAML
job: cms
output: cms.h5
components:
  - {name: p1, format: calculix, path: pan_p1}
  - {name: p2, format: calculix, path: pan_p2}
  - {name: p3, format: calculix, path: pan_p3}
cms: {nmodes: 20, component_modes: 60}
verify: true
YAML
$DYNRED -config cms.yaml -output np1.h5 > np1.log 2>&1
timeout 300 $MPIEXEC -n 3 $DYNRED -config cms.yaml -output np3.h5 > np3.log 2>&1
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
ref = np.loadtxt("ref.txt")
assert len(ref) == 20, ref
cut = {1: [5 + 100 * j for j in range(9)], 2: [9 + 100 * j for j in range(9)]}
for name in ("np1", "np3"):
    with h5py.File(name + ".h5", "r") as f:
        fc = f["/cms/frequencies_hz"][:20]
        ff = f["/verify/full_frequencies_hz"][:20]
        bl = {(int(a), int(b)) for a, b in f["/cms/reduced/boundary_labels"][:]}
    for k, nodes in cut.items():
        for n in nodes:
            assert all((n, d) in bl for d in range(1, 7)), (name, n, sorted(l for l in bl if l[0] == n))
    d = (fc - ref) / ref
    for k in range(20):
        print(f"{name} mode {k + 1:2d}: CMS {fc[k]:10.4f} Hz  CalculiX {ref[k]:10.4f} Hz  dev {100 * d[k]:+.5f} %")
    # 0.5 %: the acceptance figure of the CMS (cms.verify_tol_pct of configs/plate_cms.yaml), a truncation claim
    assert np.abs(d).max() < 0.005, f"{name}: CMS deviates {100 * np.abs(d).max():.3f} % from CalculiX"
    # Rayleigh-Ritz against CalculiX: 7 printed digits (5e-7) and CalculiX's own eigensolver, 1e-5 as cms_calculix
    assert d.min() > -1e-5, f"{name}: CMS below CalculiX by {-d.min():.2e}"
    # Rayleigh-Ritz against dynred's solve of the assembled parts (same matrices): SLEPc's 1e-12 residual, 1e-9 with room
    assert np.all(fc >= ff * (1 - 1e-9)), (name, fc, ff)
    print(f"{name}: 20 modes, max |dev| {100 * np.abs(d).max():.5f} %, cut nodes coupled in n.1-6")
PY
# a mismatched pair: part 2 without its half frame on cut 1
mkdir -p bad && cd bad
/usr/bin/python3 $ROOT/scripts/ccx_panel_parts.py pan 3 mismatch
for j in pan_p1 pan_p2; do ccx -i $j > $j.log 2>&1; done
printf 'job: cms\noutput: bad.h5\ncomponents:\n  - {name: p1, format: calculix, path: pan_p1}\n  - {name: p2, format: calculix, path: pan_p2}\ncms: {nmodes: 5}\n' > bad.yaml
if $DYNRED -config bad.yaml > bad.log 2>&1; then echo "mismatched pair accepted"; exit 1; fi
grep -v warning bad.log | grep '^dynred: error:' > err.txt
cat err.txt
[ $(wc -l < err.txt) = 1 ]
grep -Eq 'pan_p(1 and .*pan_p2|2 and .*pan_p1): interface node 5 has several rows per label in .*pan_p2 ' err.txt
[ ! -e bad.h5 ]
echo ok
