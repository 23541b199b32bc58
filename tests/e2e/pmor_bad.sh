#!/usr/bin/env bash
# Bad pmor input: one line naming the file, line and key, exit 1 (not a
# timeout, not a sanitizer report: tests/sanitizer.sh).
set -euo pipefail
source "$ROOT/tests/sanitizer.sh"
cd "$T"
cp "$ROOT/tests/data/pmor/ring.yaml" .
/usr/bin/python3 "$ROOT/tests/data/pmor/ring_gen.py" .
one() { # PATTERN ARGS...: fails with exactly one error line matching
  local rc=0
  pat=$1; shift
  timeout 300 $MPIEXEC -n 2 $DYNRED -config ring.yaml "$@" > bad.log 2>&1 || rc=$?
  [ $rc -ne 0 ] || { echo "accepted: $*"; exit 1; }
  [ $rc -ne 124 ] || { echo "hung (killed after 300 s): $*"; cat bad.log; exit 1; }
  san_reject "$*" $rc bad.log
  grep -E "$pat" bad.log
  test "$(grep -c 'dynred: error' bad.log)" = 1
}
sed 's/path: \[1, 2, 3,/path: [1, 99, 3,/' ring.yaml > missing.yaml
rc=0; timeout 300 $MPIEXEC -n 2 $DYNRED -config missing.yaml > bad.log 2>&1 || rc=$?
[ $rc -ne 0 ] || { echo "missing node accepted"; exit 1; }
[ $rc -ne 124 ] || { echo "missing node: hung (killed after 300 s)"; cat bad.log; exit 1; }
san_reject missing $rc bad.log
grep -E "dynred: error: .*missing.yaml:10: pmor.path node 99 is not a node of the model" bad.log
test "$(grep -c 'dynred: error' bad.log)" = 1
one "ring.yaml:10: pmor.path node 1 has no free DOF in pmor.direction 2 \(no label 1.2" -pmor_direction 2
one "pmor.supports entry 48 is outside the path, expected a path index 0..47" -pmor_supports 0,10,48
one "pmor.supports must increase" -pmor_supports 0,10,5
one "pmor.direction = 7, expected" -pmor_direction 7
one "pmor.method = 'x', expected" -pmor_method x
echo ok
