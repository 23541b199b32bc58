#!/usr/bin/env bash
# External reference: CalculiX.  calculix_types.sh TYPE...: for each CalculiX
# element type, a small deck of that type alone (scripts/ccx_families.py: a
# clamped bar of solids, a clamped plate of shells or 2-D elements, a
# cantilever of beams), then
#  1. ccx's own *FREQUENCY on the deck: reference frequencies (.dat);
#  2. the same deck with SOLVER=MATRIXSTORAGE read by dynred modal (format:
#     calculix, 1 rank: calculix_families.sh runs the reader on 3 ranks too)
#     gives the same 8 frequencies within 1e-5 relative;
#  3. the ParaView mesh has the type's cell, one per element of the deck,
#     and element 1's connectivity is the deck's (node ids, XDMF order).
# Every deck is clamped: no rigid-body mode, and the test checks that the
# lowest reference frequency is above a 10 Hz floor (the lowest of these
# decks is the B32 cantilever's, 69.3 Hz), so no near-zero frequency is
# compared relatively.
# Not here: S4R and B31R, whose matrix storage from CalculiX 2.20 has a zero
# mass diagonal on a DOF of a clamped node (dynred refuses such an M with one
# error line), while ccx's own *FREQUENCY of the same deck solves.
set -euo pipefail
cd "$T"
for typ in "$@"; do
  /usr/bin/python3 $ROOT/scripts/ccx_families.py $typ $typ storage
  /usr/bin/python3 $ROOT/scripts/ccx_families.py $typ freq_$typ freq
  ccx -i $typ > $typ.ccx.log 2>&1
  ccx -i freq_$typ > freq_$typ.log 2>&1
  /usr/bin/python3 $ROOT/scripts/ccx_freqs.py freq_$typ.dat > ref_$typ.txt
  awk -v t=$typ 'NR == 1 && !($1 > 10) { print "FAIL: " t ": lowest reference frequency " $1 " Hz is below the 10 Hz floor"; exit 1 }' ref_$typ.txt
  cat > m_$typ.yaml <<YAML
job: modal
output: m_$typ.h5
components:
  - name: $typ
    format: calculix
    path: $typ
modal:
  nmodes: 8
YAML
  timeout 120 $DYNRED -config m_$typ.yaml > m_$typ.log 2> m_$typ.err
  # tol: as calculix_families.sh: CalculiX prints 7 significant digits
  # (<= 5e-7 relative) and stores K, M with 14 (amplified by the expanded
  # shell/beam models' condition number to at most ~1e-6); 1e-5 bounds both.
  /usr/bin/python3 $ROOT/tests/e2e/h5check.py freqs m_$typ.h5 ref_$typ.txt 1e-5
  case $typ in
    C3D4) cell=Tetrahedron ;; C3D10) cell=Tetrahedron_10 ;;
    C3D6) cell=Wedge ;; C3D15) cell=Wedge_15 ;;
    C3D8 | C3D8R | C3D8I) cell=Hexahedron ;; C3D20 | C3D20R) cell=Hexahedron_20 ;;
    S3 | CPS3 | CPE3 | CAX3) cell=Triangle ;; S6 | CPS6 | CPE6 | CAX6) cell=Triangle_6 ;;
    S4 | S4R | CPS4 | CPS4R | CPE4 | CPE4R | CAX4 | CAX4R) cell=Quadrilateral ;;
    S8 | S8R | CPS8 | CPS8R | CPE8 | CPE8R | CAX8 | CAX8R) cell=Quadrilateral_8 ;;
    B31 | B31R) cell=Polyline ;; B32 | B32R) cell=Edge_3 ;;
    *) echo "FAIL: no cell type known for $typ"; exit 1 ;;
  esac
  /usr/bin/python3 - m_$typ.h5 $typ.inp $cell <<'PY'
import sys, h5py
h5, inp, cell = sys.argv[1:4]
# element 1 and the element count from the deck (lines continue after a comma)
lines = [l.strip() for l in open(inp)]
k = next(i for i, l in enumerate(lines) if l.upper().startswith("*ELEMENT"))
els, cur = [], ""
for l in lines[k + 1:]:
    if l.startswith("*"):
        break
    cur += l
    if not l.endswith(","):
        els.append([int(v) for v in cur.split(",")])
        cur = ""
want = els[0][1:]
if cell == "Edge_3":  # CalculiX (end, middle, end), XDMF Edge_3 (end, end, middle)
    want = [want[0], want[2], want[1]]
with h5py.File(h5, "r") as f:
    c = f["/mesh"].attrs["celltype"]
    c = c.decode() if isinstance(c, bytes) else c
    top, ids = f["/mesh/topology"][()], f["/mesh/node_ids"][()]
assert c == cell, f"mesh cell type {c}, expected {cell}"
assert top.shape[0] == len(els), f"{top.shape[0]} cells, expected the deck's {len(els)} elements"
got = [int(ids[i]) for i in top[0]]
assert got == want, f"element 1 has nodes {got}, expected {want}"
print(inp, "mesh", c, top.shape, "element 1", got)
PY
  if grep -q "dynred: warning" m_$typ.err; then echo "FAIL: $typ: unexpected warning"; cat m_$typ.err; exit 1; fi
done
echo ok
