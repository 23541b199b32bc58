#!/usr/bin/env bash
# The test scripts' own checks must be able to fail.  Under `set -e` bash
# ignores the status of a negated command (`! grep -q X f` on a line of its
# own) and of every command of an && list but the last, so such a line
# passes whatever it finds (eleven did until 2026-11-29, among them the
# "nothing half-written is left" checks of three error tests).  This scans
# every shell script of the suite for those forms: a line that starts with
# `!`, ends in `&& ! CMD`, or chains tests (`test A && test B`, `[ A ] &&
# [ B ]`: A's failure is ignored, B is not run), without `||` or
# `if`/`while`/`until` to act on the status.  Exit 1 names each offending
# line.  (The chained form was found on 2026-11-29, sixteenth session: 13
# "restart leaves no output but its checkpoint" checks in 7 scripts.)
set -euo pipefail
cd "$ROOT"
SCAN='^\s*! [a-z]|&& ! [a-z][^|]*$|^\s*(test|\[) [^|]*&& (test|\[) [^&|]*$'
bad=$(grep -nE "$SCAN" tests/e2e/*.sh tests/*.sh tests/slurm/*.sh scripts/*.sh .ci/run \
      | grep -vE '\|\||^[^:]+:[0-9]+:\s*(if|while|until|elif) ' || true)
if [ -n "$bad" ]; then
  echo "test-script checks that set -e ignores (use 'if ...; then exit 1; fi' or '|| exit 1'):"
  echo "$bad"
  exit 1
fi
# the scan itself finds the three forms (a scan that matched nothing would pass anything)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf '#!/bin/bash\nset -e\n! grep -q x f\ntest -e a && ! ls b 2>/dev/null\ntest ! -e c && test -e d\n[ -e e ] && [ -e g ] || exit 1\nif ! grep -q y f; then exit 1; fi\n! grep -q z f || exit 1\n' > "$d/probe.sh"
n=$(grep -nE "$SCAN" "$d/probe.sh" | grep -vcE '\|\||^[0-9]+:\s*(if|while|until|elif) ' || true)
[ "$n" = 3 ] || { echo "the scan found $n of the probe's 3 ignored checks"; exit 1; }
echo "ok: no ignored checks in the test scripts"
