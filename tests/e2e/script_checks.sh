#!/usr/bin/env bash
# The test scripts' own checks must be able to fail.  Under `set -e` bash
# ignores the status of a negated command (`! grep -q X f` on a line of its
# own) and of every command of an && list but the last, so such a line
# passes whatever it finds (eleven did until 2026-11-29, among them the
# "nothing half-written is left" checks of three error tests).  This scans
# every shell script of the suite for those forms: a line that starts with
# `!` or ends in `&& ! CMD`, without `||` or `if`/`while`/`until` to act on
# the status.  Exit 1 names each offending line.
set -euo pipefail
cd "$ROOT"
bad=$(grep -nE '^\s*! [a-z]|&& ! [a-z][^|]*$' tests/e2e/*.sh tests/*.sh tests/slurm/*.sh scripts/*.sh .ci/run \
      | grep -vE '\|\||^[^:]+:[0-9]+:\s*(if|while|until|elif) ' || true)
if [ -n "$bad" ]; then
  echo "test-script checks that set -e ignores (use 'if ...; then exit 1; fi' or '|| exit 1'):"
  echo "$bad"
  exit 1
fi
# the scan itself finds both forms (a scan that matched nothing would pass anything)
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf '#!/bin/bash\nset -e\n! grep -q x f\ntest -e a && ! ls b 2>/dev/null\nif ! grep -q y f; then exit 1; fi\n! grep -q z f || exit 1\n' > "$d/probe.sh"
n=$(grep -nE '^\s*! [a-z]|&& ! [a-z][^|]*$' "$d/probe.sh" | grep -vcE '\|\||^[0-9]+:\s*(if|while|until|elif) ' || true)
[ "$n" = 2 ] || { echo "the scan found $n of the probe's 2 ignored checks"; exit 1; }
echo "ok: no ignored checks in the test scripts"
