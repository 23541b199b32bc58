#!/usr/bin/env bash
# One CMS job whose parts come from four formats, against the same job with
# every part from CalculiX.  The C3D8 bar of cms_calculix (0.4 x 0.04 x 0.04
# m, 32 x 3 x 3 elements, clamped at x = 0; scripts/ccx_bar_parts.py) cut in 4
# parts along x, each exported by CalculiX (*FREQUENCY,
# SOLVER=MATRIXSTORAGE).  Parts 2-4 are converted from the CalculiX files by
# the test's independent writers (from the formats' documented layouts, not
# from dynred): part 2 as Abaqus *MATRIX OUTPUT, FORMAT=MATRIX INPUT (lower
# triangle; tests/e2e/abaqus_ansys_ref.py), part 3 as Ansys HBMAT RSA with its
# mapping file, part 4 as Nastran DMIG in free field (tests/e2e/dmig_ref.py);
# Abaqus and Ansys number the equations in a shuffled order, so their
# interface rows are not sorted by label.
#  - The 12 CMS frequencies of the mixed job (1 and 3 ranks) equal those of
#    the all-CalculiX job to 1e-8 relative.  Source of the bound: the
#    matrices are the same doubles (the writers print 17 significant digits,
#    %.16e / (1P,4E25.16) / %.16E, so every value the CalculiX reader got
#    reads back bit for bit), so only the round-off of the factorizations
#    and eigensolvers in another row order differs (SLEPc residual 1e-12).
#  - Both are within 0.5 % of CalculiX's own whole-bar solve (cms_calculix's
#    truncation claim), as a check that the jobs solved the bar.
#  - A CalculiX part whose internal node (C3D8I adds nodes with ids above
#    the deck's largest, no *NODE line) has the id of a GRID of a DMIG part:
#    the job stops with one line naming both files and the node, instead of
#    coupling internal modes to the GRID's translations and rotations.
set -euo pipefail
cd "$T"
PY=/usr/bin/python3
$PY $ROOT/scripts/ccx_bar_parts.py bar 0.4 0.04 0.04 32 3 3 4 210e9 0.3 7850 12
for j in bar_full bar_p1 bar_p2 bar_p3 bar_p4; do ccx -i $j > $j.log 2>&1; done
$PY $ROOT/scripts/ccx_freqs.py bar_full.dat > ref.txt
PYTHONPATH=$ROOT/tests/e2e $PY - <<'PY'
import numpy as np
import abaqus_ansys_ref as aa
from dmig_ref import write_dmig

def ccx(job):
    labels = [tuple(int(x) for x in l.split(".")) for l in open(job + ".dof")]
    n = len(labels)
    mats = []
    for ext in ("sti", "mas"):
        A = np.zeros((n, n))
        for line in open(f"{job}.{ext}"):
            i, j, v = line.split()
            A[int(i) - 1, int(j) - 1] = A[int(j) - 1, int(i) - 1] = float(v)
        mats.append(A)
    return labels, mats[0], mats[1]

rng = np.random.default_rng(3)
lab, K, M = ccx("bar_p2")
perm = rng.permutation(len(lab))
aa.abaqus_input("abq_p2_STIF1.mtx", K, perm, lab, "lower")
aa.abaqus_input("abq_p2_MASS1.mtx", M, perm, lab, "lower")
lab, K, M = ccx("bar_p3")
perm = rng.permutation(len(lab))
aa.ansys_mapping("ans_p3.mapping", perm, lab)
aa.hb("ans_p3_K.matrix", K, perm, "Stiffness matrix")
aa.hb("ans_p3_M.matrix", M, perm, "Mass matrix")
lab, K, M = ccx("bar_p4")
Wk, Wm = write_dmig("dmig_p4.dat", [("KAAX", K), ("MAAX", M)], lab, "free", 6)
assert np.array_equal(Wk, K) and np.array_equal(Wm, M)   # 17 digits: the written values are the doubles
PY
job() { # name p2 p3 p4 (component lines)
  printf 'job: cms\noutput: %s.h5\ncomponents:\n  - {name: p1, format: calculix, path: bar_p1}\n  - %s\n  - %s\n  - %s\ncms: {nmodes: 12, component_modes: 30}\n' "$@" > $1.yaml
}
job ccx "{name: p2, format: calculix, path: bar_p2}" "{name: p3, format: calculix, path: bar_p3}" "{name: p4, format: calculix, path: bar_p4}"
job mixed "{name: p2, format: abaqus, K: abq_p2_STIF1.mtx, M: abq_p2_MASS1.mtx}" \
  "{name: p3, format: ansys, K: ans_p3_K.matrix, M: ans_p3_M.matrix, dofs: ans_p3.mapping}" \
  "{name: p4, format: dmig, path: dmig_p4.dat}"
$DYNRED -config ccx.yaml > ccx.log 2>&1
$DYNRED -config mixed.yaml > mixed.log 2>&1
timeout 300 $MPIEXEC -n 3 $DYNRED -config mixed.yaml -output mixed3.h5 > mixed3.log 2>&1
$PY - <<'PY'
import h5py, numpy as np
ref = np.loadtxt("ref.txt")
fr = lambda n: h5py.File(n + ".h5", "r")["/cms/frequencies_hz"][:]
f0 = fr("ccx")
assert len(f0) == 12 and len(ref) == 12, (f0, ref)
# 0.5 %: cms_calculix's truncation claim for this bar
assert np.abs(f0 / ref - 1).max() < 0.005, (f0, ref)
for name in ("mixed", "mixed3"):
    f = fr(name)
    d = np.abs(f / f0 - 1).max()
    print(f"{name}: 12 frequencies, max relative difference to all-CalculiX {d:.1e} (first {f[0]:.6f} Hz)")
    assert len(f) == 12 and d <= 1e-8, (name, f, f0)   # bound: see the header
PY
# error: a CalculiX internal node id shared with a DMIG GRID
sed 's/TYPE=C3D8,/TYPE=C3D8I,/' bar_p1.inp > bari_p1.inp
grep -q 'TYPE=C3D8I,' bari_p1.inp
ccx -i bari_p1 > bari_p1.log 2>&1
g=$($PY - <<'PY'
deck = set()
on = False
for l in open("bari_p1.inp"):
    if l.startswith("*"):
        on = l.upper().startswith("*NODE")
        continue
    if on:
        deck.add(int(l.split(",")[0]))
gen = sorted({int(l.split(".")[0]) for l in open("bari_p1.dof")} - deck)
assert gen, "C3D8I wrote no internal nodes"
print(gen[0])
PY
)
PYTHONPATH=$ROOT/tests/e2e $PY -c "
import numpy as np
from dmig_ref import write_dmig
write_dmig('grid.dat', [('KAAX', np.eye(6) * 1e6), ('MAAX', np.eye(6))], [($g, c) for c in range(1, 7)], 'free', 6)"
printf 'job: cms\noutput: bad.h5\ncomponents:\n  - {name: a, format: calculix, path: bari_p1}\n  - {name: b, format: dmig, path: grid.dat}\ncms: {nmodes: 4}\n' > bad.yaml
if $DYNRED -config bad.yaml > bad.log 2>&1; then echo "shared internal node accepted"; exit 1; fi
grep '^dynred: error:' bad.log > err.txt
cat err.txt
[ $(wc -l < err.txt) = 1 ]
grep -q "bari_p1 and .*grid.dat: interface node $g is a node CalculiX generated in .*bari_p1" err.txt
[ ! -e bad.h5 ]
echo ok
