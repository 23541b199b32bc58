#!/usr/bin/env bash
# External reference: CalculiX.  calculix_families.sh FAMILY: a small deck of
# one element family (scripts/ccx_families.py: wedge C3D6, shell S8R, beam
# B32R, plane stress CPS8R, axisymmetric CAX8, SPRINGA/SPRING1 chain with MASS
# elements, C3D8 bar with *RIGID BODY, *EQUATION, MASS and SPRINGA), each
# supported so that it has no rigid-body mode (every reference frequency is
# far above 0: the lowest is 7.3 Hz, the spring chain's).
#  1. ccx's own *FREQUENCY on the deck: reference frequencies (.dat).
#  2. The same deck with SOLVER=MATRIXSTORAGE: JOB.sti/.mas/.dof, in which
#     shells, beams and 2-D elements repeat labels (expanded nodes) and knots
#     and rigid bodies add nodes; dynred modal (format: calculix) on 1 and 3
#     ranks gives the same 8 frequencies within 1e-5 relative.
#  3. The ParaView mesh shows the family's own cell (faces, lines, wedges),
#     or a Mixed mesh when the deck has several (springs as lines, masses as
#     vertices beside them), with no warning: every type has a cell.
set -euo pipefail
fam=$1
cd "$T"
/usr/bin/python3 $ROOT/scripts/ccx_families.py $fam store storage
/usr/bin/python3 $ROOT/scripts/ccx_families.py $fam freq freq
ccx -i store > store.log 2>&1
ccx -i freq > freq.log 2>&1
/usr/bin/python3 $ROOT/scripts/ccx_freqs.py freq.dat > ref.txt
cat > m.yaml <<YAML
job: modal
output: m.h5
components:
  - name: $fam
    format: calculix
    path: store
modal:
  nmodes: 8
YAML
for np in 1 3; do
  timeout 300 $MPIEXEC -n $np $DYNRED -config m.yaml -output m$np.h5 > m$np.log 2> m$np.err
  # tol: CalculiX prints 7 significant digits (rounding <= 5e-7 relative) and
  # its .sti/.mas 14 (1e-14 relative, amplified by the condition number of the
  # expanded shell/beam models to at most ~1e-6 on the lowest eigenvalue);
  # both eigensolvers converge far below that.  1e-5 = the brief's bound,
  # twice the worst of those sums.
  /usr/bin/python3 $ROOT/tests/e2e/h5check.py freqs m$np.h5 ref.txt 1e-5
done
case $fam in
  wedge) cell=Wedge warn="" ;;
  shell | plane | axisym) cell=Quadrilateral_8 warn="" ;;
  beam) cell=Edge_3 warn="" ;;
  spring) cell=Mixed warn="" ;;
  rigid) cell=Mixed warn="" ;;
esac
/usr/bin/python3 - m1.h5 $cell <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    c = f["/mesh"].attrs["celltype"]
    c = c.decode() if isinstance(c, bytes) else c
    print("mesh cell type", c, f["/mesh/topology"].shape)
    assert c == sys.argv[2], f"mesh cell type {c}, expected {sys.argv[2]}"
PY
nwarn=$(grep -c "dynred: warning: store.inp:[0-9]*: element type" m1.err || true)
for w in $warn; do grep -q "warning: store.inp:[0-9]*: element type $w " m1.err || { echo "FAIL: no warning for $w"; exit 1; }; done
[ "$nwarn" = "$(echo $warn | wc -w)" ] || { echo "FAIL: $nwarn warning lines, expected one per left-out type ($warn)"; cat m1.err; exit 1; }
echo ok
