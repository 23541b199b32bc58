#!/usr/bin/env bash
# dynred export (issue 17 item 1): the reduced model of a CMS job (small
# clamped plate in 5 parts, tests/data/cms/plate5.yaml on a coarser mesh)
# and of a state space (second-order form with D) and a GA solution (master
# DOFs only) written as DMIG and as OP4
# in all four forms (ASCII/binary x dense/sparse bigmat), read back by the
# independent reader of tests/e2e/export_op4_ref.py (written from the format
# description) and compared with the matrices in the HDF5 result:
#   OP4 binary: bit for bit;
#   OP4 ASCII: exactly too (17 significant digits, %24.16E: every double
#     round-trips through correctly rounded printf/strtod);
#   DMIG: 16-character fields hold 10 significant digits (11 for positive
#     values), so each entry to a relative 5e-10 (half a unit in the 10th
#     digit); the upper triangle only (IFO=6), exact zeros left out.
# The DOF map: its GRID rows are /cms/reduced/boundary_labels in order, its
# SPOINT rows consecutive from export.spoint_start, the DMIG's SPOINT card
# covers exactly them.  Then the OP4 superelement read back by dynred's own
# op4 reader (labels from the map) gives the CMS frequencies (the coupled
# system's eigenvalues are those of exactly these K, M).  Bad inputs: a
# non-symmetric K for DMIG, a GRID id among the scalar points, a bad name.
# The `export:` section of a cms job (item 1): the superelement the cms job
# writes right after its result is the file `dynred export` writes from that
# result (binary OP4 byte for byte; DMIG and map equal but for the comment
# lines naming paths), and the independent reader gives /cms/reduced from it
# bit for bit (OP4) or to 5e-10 (DMIG); one case with the interface reduced
# before the projection (every coordinate a scalar point), one with the keys
# on the command line; bad export keys in a cms job fail before any work
# with one line.
set -euo pipefail
cd "$T"
J=$ROOT/tests/data/cms/plate5.yaml
# the plate5 job with the export keys on the command line (DMIG), on 2
# ranks: its result is the source of every export below (as cms.h5), and
# its own DMIG (cmsd.dmig) is compared with what `dynred export` writes
# from it further down (one CMS run serves both: an export reads the
# result, whichever job wrote it)
timeout 300 $MPIEXEC -n 2 $DYNRED -config $J -model_plate_nx 15 -model_plate_ny 6 -output cmsd.h5 -export_output cmsd.dmig -export_spoint_start 500001 > cmsd.log
cp cmsd.h5 cms.h5
run() { # name format binary sparse [np]
  cat > $1.yaml <<EOF
job: export
export: {source: cms.h5, format: $2, binary: $3, sparse: $4, output: $1.out, spoint_start: 500001}
EOF
  timeout 300 $MPIEXEC -n ${5:-1} $DYNRED export -config $1.yaml > $1.log
}
run dmig dmig false false 2
run a_sparse op4 false true 3
run b_sparse op4 true true 2
# a state space of the same reduced model (second-order form M, D, K in modal coordinates)
/usr/bin/python3 - <<'PY'
import h5py
with h5py.File("cms.h5", "r") as f:
    node, d = f["/cms/labels"][-1]          # a DOF of the model (the last label)
open("ss.yaml", "w").write(f"job: ss\noutput: ss.h5\nss: {{source: cms.h5, nmodes: 6, inputs: [{node}.{d}], outputs: [{node}.{d}], damping: {{type: modal, zeta: 0.02}}}}\n")
PY
cat > ssx.yaml <<EOF
job: export
export: {source: ss.h5, format: dmig, output: ssx.out}
EOF
cat > ssop4.yaml <<EOF
job: export
export: {source: ss.h5, format: op4, binary: true, output: ssx.op4}
EOF
printf 'job: export\nexport: {source: ga.h5, group: /ga/solutions/002, output: ga.dmig}\n' > gax.yaml
printf 'job: export\nexport: {source: ga.h5, group: /ga/solutions/002, format: op4, sparse: true, output: ga.op4}\n' > gaop4.yaml
# the one-rank runs side by side (tests/par.sh: two at a time on 2 cores);
# the GA solution's run and exports are checked further down
export -f run
$ROOT/tests/par.sh "run a_dense op4 false false" "run b_dense op4 true false" \
  "timeout 300 $DYNRED -config ss.yaml > ss.log; timeout 300 $DYNRED export -config ssx.yaml > ssx.log; timeout 300 $DYNRED export -config ssop4.yaml > ssop4.log" \
  "timeout 300 $DYNRED ga -config $ROOT/configs/bicycle_frame_ga.yaml -output ga.h5 -ga_candidate_nodes 7,8,10,11,20 -ga_population 20 -ga_generations 10 > ga.log; timeout 300 $DYNRED export -config gax.yaml > gax.log; timeout 300 $DYNRED export -config gaop4.yaml > gaop4.log"
PYTHONPATH=$ROOT/tests/e2e /usr/bin/python3 - <<'PY'
import csv, h5py, numpy as np
from export_op4_ref import read_op4, read_dmig
with h5py.File("cms.h5", "r") as f:
    K, M = f["/cms/reduced/K"][:], f["/cms/reduced/M"][:]
    bl = f["/cms/reduced/boundary_labels"][:]
    nmodal = int(f["/cms/reduced"].attrs["n_modal"])
    fcms = f["/cms/frequencies_hz"][:]
n = K.shape[0]
nb = n - nmodal
assert len(bl) == nb and nmodal > 0 and nb > 0, (n, nb, nmodal)
# OP4: binary bit for bit, ASCII exactly (17 significant digits round-trip)
for name in ("a_dense", "a_sparse", "b_dense", "b_sparse"):
    mats = read_op4(name + ".out")
    assert [m[0] for m in mats] == ["KAAX", "MAAX"], [m[0] for m in mats]
    for (nm, form, A), R in zip(mats, (K, M)):
        assert A.shape == R.shape and np.array_equal(A, R), (name, nm, np.abs(A - R).max())
        assert form == (6 if np.array_equal(R, R.T) else 1), (name, nm, form)
    print(f"{name}: KAAX, MAAX {n} x {n} equal to /cms/reduced bit for bit")
# DOF map
rows = list(csv.reader(l for l in open("dmig.out.map.csv") if not l.startswith("#")))
assert rows[0] == ["row", "kind", "id", "component", "label", "coordinate"], rows[0]
rows = rows[1:]
assert len(rows) == n and [int(r[0]) for r in rows] == list(range(1, n + 1))
assert all(r[1] == "grid" for r in rows[:nb]) and all(r[1] == "spoint" for r in rows[nb:])
assert [(int(r[2]), int(r[3])) for r in rows[:nb]] == [tuple(x) for x in bl]
assert [int(r[2]) for r in rows[nb:]] == list(range(500001, 500001 + nmodal)) and all(r[3] == "0" for r in rows[nb:])
key = {(int(r[2]), int(r[3])): i for i, r in enumerate(rows)}
# DMIG
mats, headers, spoints = read_dmig("dmig.out")
assert spoints == [(500001, 500000 + nmodal)], spoints
assert set(mats) == {"KAAX", "MAAX"}, set(mats)
for nm, R in (("KAAX", K), ("MAAX", M)):
    assert headers[nm][1:5] == ["0", "6", "2", "2"], headers[nm]   # 0, IFO=6 symmetric, TIN=2, TOUT=2
    U = np.zeros_like(R)
    for (gj, cj), col in mats[nm].items():
        j = key[(gj, cj)]
        for (gi, ci), v in col.items():
            i = key[(gi, ci)]
            assert i <= j, (nm, "entry below the diagonal", i, j)
            assert U[i, j] == 0, (nm, "duplicate", i, j)
            U[i, j] = v
    up = np.triu(R)
    # tol: 10 significant digits -> |rel| <= 5e-10 per entry; zeros are exact
    assert np.all((up == 0) == (U == 0)), nm
    rel = np.abs(U - up)[up != 0] / np.abs(up[up != 0])
    assert rel.max() <= 5e-10, (nm, rel.max())
    print(f"dmig {nm}: {np.count_nonzero(U)} upper-triangle entries, max relative difference {rel.max():.2e} (<= 5e-10)")
# dofs file for dynred's op4 reader: GRID rows node.dir, SPOINT rows as node id, direction 1
with open("se.dof", "w") as f:
    for r in rows:
        f.write(f"{r[2]}.{r[3] if r[1] == 'grid' else 1}\n")
# ss second-order form: M, D, K in modal coordinates, all scalar points
with h5py.File("ss.h5", "r") as f:
    so = {k: f["/ss/second_order/" + k][:] for k in ("K", "M", "D")}
mats = read_op4("ssx.op4")
assert [m[0] for m in mats] == ["KAAX", "MAAX", "BAAX"], [m[0] for m in mats]
for (nm, form, A), k in zip(mats, ("K", "M", "D")):
    assert np.array_equal(A, so[k]), (nm, k)
dm, hd, sp = read_dmig("ssx.out")
m = so["K"].shape[0]
assert sp == [(9000001, 9000000 + m)] and set(dm) == {"KAAX", "MAAX", "BAAX"}, (sp, set(dm))
for nm, k in (("KAAX", "K"), ("MAAX", "M"), ("BAAX", "D")):
    for (gj, cj), col in dm[nm].items():
        for (gi, ci), v in col.items():
            ref = so[k][gi - 9000001, gj - 9000001]
            assert cj == 0 and ci == 0 and abs(v - ref) <= 5e-10 * abs(ref), (nm, gi, gj, v, ref)   # tol: 10 digits, as above
print(f"ss second-order form: K, M, D ({m} x {m}) in OP4 bit for bit and in DMIG to 5e-10")
np.save("fcms.npy", fcms)
PY
# the exported OP4 read back by dynred's op4 reader: the CMS frequencies
cat > back.yaml <<EOF
job: modal
output: back.h5
components:
  - {name: se, format: op4, path: b_sparse.out, dofs: se.dof}
modal: {nmodes: 15}
EOF
timeout 300 $MPIEXEC -n 2 $DYNRED -config back.yaml > back.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
fc = np.load("fcms.npy")
with h5py.File("back.h5", "r") as f:
    fb = f["/modal/frequencies_hz"][:]
k = min(len(fc), len(fb))
# tol: the same K, M solved by two eigensolvers (the CMS root's LAPACK on the
# shifted inverted pencil, SLEPc with relative residual 1e-12 here): 1e-9
# relative in frequency is far above both and far below any wrong entry
rel = np.abs(fb[:k] - fc[:k]) / fc[:k]
assert k >= 10 and rel.max() <= 1e-9, (fc[:k], fb[:k])
print(f"OP4 superelement read back by dynred: {k} frequencies equal the CMS ones to {rel.max():.1e}")
PY
# a GA solution (master DOFs only: all GRID DOFs, no scalar point)
# (ga.h5, ga.dmig, ga.op4: made above, beside the exports of the CMS result)
PYTHONPATH=$ROOT/tests/e2e /usr/bin/python3 - <<'PY'
import h5py, numpy as np
from export_op4_ref import read_op4, read_dmig
with h5py.File("ga.h5", "r") as f:
    g = f["/ga/solutions/002"]
    K, M, lab = g["K"][:], g["M"][:], g["dof_labels"][:]
for (nm, form, A), R in zip(read_op4("ga.op4"), (K, M)):
    assert np.array_equal(A, R), nm          # ASCII with 17 digits: exact
dm, hd, sp = read_dmig("ga.dmig")
assert sp == [], sp
key = {tuple(l): i for i, l in enumerate(lab)}
for nm, R in (("KAAX", K), ("MAAX", M)):
    U = np.zeros_like(R)
    for gc, col in dm[nm].items():
        for gci, v in col.items():
            U[key[gci], key[gc]] = v
    up = np.triu(R)
    assert np.all((up == 0) == (U == 0)) and np.all(np.abs(U - up) <= 5e-10 * np.abs(up)), nm   # tol: 10 digits
print(f"GA solution 002: {len(lab)} master DOFs as GRID DOFs in DMIG (5e-10) and OP4 (exact)")
PY
# bad inputs: one line each
cat > badname.yaml <<EOF
job: export
export: {source: cms.h5, output: x.out, k_name: 9K}
EOF
$ROOT/tests/expect.sh "badname.yaml:2: export.k_name = '9K', expected a Nastran name" $DYNRED export -config badname.yaml
cat > badspoint.yaml <<EOF
job: export
export: {source: cms.h5, output: x.out, spoint_start: 20}
EOF
$ROOT/tests/expect.sh "cms.h5: GRID [0-9]+ falls among the scalar points 20\.\.[0-9]+, expected export.spoint_start above every GRID id" $DYNRED export -config badspoint.yaml
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
with h5py.File("nonsym.h5", "w") as f:
    K = np.diag([1.0, 2.0, 3.0]); K[0, 2] = 0.5
    f["/x/K"] = K; f["/x/M"] = np.eye(3); f["/x/labels"] = np.array([[1, 1], [1, 2], [1, 3]])
PY
cat > nonsym.yaml <<EOF
job: export
export: {source: nonsym.h5, group: /x, output: x.out}
EOF
$ROOT/tests/expect.sh "nonsym.h5: /x/K is not symmetric: entry \(3, 1\) = 0, \(1, 3\) = 0.5" $DYNRED export -config nonsym.yaml
[ ! -e x.out ] && [ -z "$(ls -d x.out.tmp.* 2>/dev/null)" ] || { echo "FAIL: x.out or x.out.tmp.* was left"; exit 1; }
# --- the export: section of a cms job
cat > cmsx.yaml <<EOF
job: cms
output: cmsx.h5
model:
  builtin: plate
  plate: {lx: 1.0, ly: 0.5, lz: 0.02, nx: 15, ny: 6, nz: 1, clamp: x0}
  cut: {axis: x, parts: 3}
cms: {fmax: 300, interface_auto: true}
export: {format: op4, binary: true, sparse: true, output: cmsx.op4, spoint_start: 700001}
EOF
timeout 300 $MPIEXEC -n 3 $DYNRED -config cmsx.yaml > cmsx.log
mkdir sa
printf 'job: export\nexport: {source: ../cmsx.h5, format: op4, binary: true, sparse: true, output: cmsx.op4, spoint_start: 700001}\n' > sa/x.yaml
(cd sa && timeout 300 $DYNRED export -config x.yaml > x.log)
cmp cmsx.op4 sa/cmsx.op4
# the plate5 job with the export keys on the command line (DMIG), on 2 ranks
# (run first: cmsd.h5, cmsd.dmig)
printf 'job: export\nexport: {source: ../cmsd.h5, output: cmsd.dmig, spoint_start: 500001}\n' > sa/d.yaml
(cd sa && timeout 300 $DYNRED export -config d.yaml > d.log)
diff <(grep -v '^\$' cmsd.dmig) <(grep -v '^\$' sa/cmsd.dmig)
diff <(grep -v '^#' cmsd.dmig.map.csv) <(grep -v '^#' sa/cmsd.dmig.map.csv)
grep -q "^wrote cmsd.h5" cmsd.log && grep -q "^wrote cmsd.dmig (dmig) and cmsd.dmig.map.csv" cmsd.log
PYTHONPATH=$ROOT/tests/e2e /usr/bin/python3 - <<'PY'
import csv, h5py, numpy as np
from export_op4_ref import read_op4, read_dmig
with h5py.File("cmsx.h5", "r") as f:
    g = f["/cms/reduced"]
    K, M, nmodal = g["K"][:], g["M"][:], int(g.attrs["n_modal"])
    nbl = g["boundary_labels"].shape[0]
    assert "interface_modes" in g and nbl > K.shape[0] - nmodal, "expected the interface reduced before the projection"
mats = read_op4("cmsx.op4")
assert [m[0] for m in mats] == ["KAAX", "MAAX"] and all(np.array_equal(A, R) for (_, _, A), R in zip(mats, (K, M)))
rows = [r for r in csv.reader(l for l in open("cmsx.op4.map.csv") if not l.startswith("#"))][1:]
# CC mode coordinates and modal coordinates: all scalar points from 700001
assert [(r[1], int(r[2]), r[3]) for r in rows] == [("spoint", 700001 + i, "0") for i in range(K.shape[0])], rows[:3]
with h5py.File("cmsd.h5", "r") as f:
    Kd, bl = f["/cms/reduced/K"][:], f["/cms/reduced/boundary_labels"][:]
dm, hd, sp = read_dmig("cmsd.dmig")
nb = len(bl)
assert sp == [(500001, 500000 + Kd.shape[0] - nb)], sp
key = {tuple(x): i for i, x in enumerate(bl)}
key.update({(500001 + k, 0): nb + k for k in range(Kd.shape[0] - nb)})
U = np.zeros_like(Kd)
for gc, col in dm["KAAX"].items():
    for gci, v in col.items():
        U[key[gci], key[gc]] = v
up = np.triu(Kd)
assert np.all((up == 0) == (U == 0)) and np.all(np.abs(U - up) <= 5e-10 * np.abs(up))   # tol: 10 digits, as above
print(f"cms job export: section: OP4 {K.shape[0]} x {K.shape[0]} (interface reduced first, all scalar points) bit for bit; DMIG {Kd.shape[0]} x {Kd.shape[0]} to 5e-10")
PY
# bad export keys in a cms job: one line, before any work (no result written)
bad() { # pattern export-flow-map
  printf 'job: cms\noutput: bad.h5\nmodel: {builtin: plate, plate: {nx: 6, ny: 2, nz: 1, clamp: x0}, cut: {axis: x, parts: 2}}\ncms: {nmodes: 3}\nexport: %s\n' "$2" > bad.yaml
  $ROOT/tests/expect.sh "$1" $DYNRED -config bad.yaml
  [ ! -e bad.h5 ] && [ -z "$(ls -d bad.h5.tmp* 2>/dev/null)" ] || { echo "FAIL: bad.h5 or bad.h5.tmp* was left"; exit 1; }
}
bad "bad.yaml:5: export.format = 'op5', expected dmig or op4" "{format: op5, output: b.op4}"
bad "bad.yaml:5: export.source = 'cms.h5' in a job that exports its own output bad.h5, expected it unset" "{source: cms.h5, output: b.dmig}"
bad "bad.yaml:5: unknown key 'export.outptu'" "{outptu: b.dmig}"
bad "export.output is not set, expected the file to write" "{format: dmig}"
bad "bad.yaml:5: export.m_name = 'M-1', expected a Nastran name" "{output: b.dmig, m_name: M-1}"
bad "bad.yaml:5: export.output bad.h5, map bad.h5.map.csv and the exported result bad.h5, expected three different files" "{output: bad.h5}"
test ! -e b.dmig
test ! -e b.op4
echo ok
