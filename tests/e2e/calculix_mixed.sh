#!/usr/bin/env bash
# External reference: CalculiX, and the deck itself.  A CalculiX deck of
# separate clamped parts of several cell shapes (scripts/ccx_families.py
# mixed: C3D8, C3D6, S4, B31, SPRINGA and MASS) read by dynred modal on 2
# ranks:
#  1. the 8 frequencies equal ccx's own *FREQUENCY of the deck within 1e-5
#     relative (tolerance as in calculix_families.sh; every part is
#     clamped, the lowest reference frequency is 28.7 Hz: no rigid-body mode);
#  2. the ParaView mesh is one XDMF Mixed topology: its cell count by XDMF
#     type equals the deck's element count by family (solids as volumes,
#     shells as faces, beams and springs as lines, masses as vertices), and
#     the connectivity of the first element of each type is the deck's;
#  3. no warning (every type of the deck has a cell).
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/scripts/ccx_families.py mixed mixed storage
/usr/bin/python3 $ROOT/scripts/ccx_families.py mixed freq freq
ccx -i mixed > mixed.ccx.log 2>&1
ccx -i freq > freq.log 2>&1
/usr/bin/python3 $ROOT/scripts/ccx_freqs.py freq.dat > ref.txt
cat > m.yaml <<YAML
job: modal
output: m.h5
components:
  - name: mixed
    format: calculix
    path: mixed
modal:
  nmodes: 8
YAML
timeout 120 $MPIEXEC -n 2 $DYNRED -config m.yaml > m.log 2> m.err
# tol: CalculiX prints 7 significant digits (<= 5e-7 relative) and stores
# K, M with 14 (amplified by the expanded shell/beam condition number to at
# most ~1e-6); 1e-5 bounds both.
/usr/bin/python3 $ROOT/tests/e2e/h5check.py freqs m.h5 ref.txt 1e-5
if grep -q "dynred: warning" m.err; then echo "FAIL: unexpected warning"; cat m.err; exit 1; fi
grep -q 'TopologyType="Mixed"' m.xdmf || { echo "FAIL: m.xdmf has no Mixed topology"; cat m.xdmf; exit 1; }
/usr/bin/python3 - m.h5 mixed.inp <<'PY'
import sys, h5py
h5, inp = sys.argv[1:3]
# XDMF type codes (XdmfTopology) of the cell each CalculiX type is drawn as
CODE = {"C3D8": 0x9, "C3D6": 0x8, "S4": 0x5, "B31": 0x2, "SPRINGA": 0x2, "MASS": 0x1}
NAME = {0x9: "Hexahedron", 0x8: "Wedge", 0x5: "Quadrilateral", 0x2: "Polyline", 0x1: "Polyvertex"}
want_count, want_first, typ = {}, {}, None
for l in open(inp):
    l = l.strip()
    if l.startswith("*"):
        typ = l.split("TYPE=")[1].split(",")[0].strip() if l.upper().startswith("*ELEMENT") else None
        continue
    if typ and l:
        v = [int(x) for x in l.split(",")]
        c = CODE[typ]
        want_count[c] = want_count.get(c, 0) + 1
        want_first.setdefault(typ, v[1:])
with h5py.File(h5, "r") as f:
    ct = f["/mesh"].attrs["celltype"]
    ct = ct.decode() if isinstance(ct, bytes) else ct
    top, ids = list(f["/mesh/topology"][()]), f["/mesh/node_ids"][()]
assert ct == "Mixed", f"mesh cell type {ct}, expected Mixed"
NV = {0x9: 8, 0x8: 6, 0x5: 4}
cells, k = [], 0
while k < len(top):
    c = int(top[k]); k += 1
    n = int(top[k]) if c in (0x1, 0x2) else NV[c]
    k += c in (0x1, 0x2)
    cells.append((c, [int(ids[i]) for i in top[k:k + n]]))
    k += n
got_count = {}
for c, _ in cells:
    got_count[c] = got_count.get(c, 0) + 1
for c in sorted(set(want_count) | set(got_count)):
    print(f"{NAME[c]}: {got_count.get(c, 0)} cells, deck {want_count.get(c, 0)} elements")
assert got_count == want_count, "cell counts differ from the deck's"
for typ, nodes in want_first.items():
    assert (CODE[typ], nodes) in cells, f"no {NAME[CODE[typ]]} cell with the nodes {nodes} of the first {typ}"
    print(f"first {typ}: {NAME[CODE[typ]]} {nodes}")
PY
echo ok
