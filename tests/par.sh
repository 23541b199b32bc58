#!/usr/bin/env bash
# tests/par.sh 'COMMAND' 'COMMAND' ...
# Runs independent single-process commands of a test side by side, NPAR at a
# time (default: the number of cores), each in bash with `set -euo pipefail`
# in the current directory, and starts the next as soon as one ends.  Exits
# non-zero, naming the commands that failed, if any of them fails; their
# output is wherever they redirect it (the callers write NAME.log).
# The e2e tests run many serial one-rank dynred jobs (the GMP transients:
# one per mode count, frame or method); on the 2-core CI machine two at a
# time nearly halve their wall time.  Multi-rank jobs stay serial in the
# callers: they already use the cores.  Needs bash >= 5.1 (wait -n -p;
# Debian 12 has 5.2).
set -u
npar=${NPAR:-$(nproc 2>/dev/null || echo 1)}
[ "$npar" -ge 1 ] 2>/dev/null || npar=1
declare -A cmd=()
failed=()
reap() {  # wait for whichever running command ends first
  local p rc=0
  wait -n -p p || rc=$?
  [ $rc -ne 0 ] && failed+=("${cmd[$p]} (exit $rc)")
  unset "cmd[$p]"
}
for c in "$@"; do
  [ ${#cmd[@]} -ge "$npar" ] && reap
  bash -euo pipefail -c "$c" </dev/null &
  cmd[$!]=$c
done
while [ ${#cmd[@]} -gt 0 ]; do reap; done
for c in "${failed[@]+"${failed[@]}"}"; do echo "par.sh: failed: $c" >&2; done
[ ${#failed[@]} -eq 0 ]
