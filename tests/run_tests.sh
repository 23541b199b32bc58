#!/usr/bin/env bash
# dynred test harness.  Runs every test named in tests/tests.list (or only
# those whose name matches one of the arguments) and ends with the line
# "N passed, N failed".
#
# A line of tests/tests.list is "NAME: SHELL COMMAND".  The command runs from
# the repository root in bash with these variables:
#   DYNRED   bin/dynred            TBIN  build/tests (unit test programs;
#            both overridable from the environment)
#   MPIEXEC  mpiexec with the flags root and oversubscription need
#   T        a fresh scratch directory for this test
# It passes when it exits 0.  Tests assert numbers against independent
# references themselves (analytic values, full-model solves, CalculiX);
# tests/expect.sh compares output with a reference file.
# A passed test's scratch files are removed (its log stays; a whole suite
# would otherwise leave about 1.5 GB in /tmp per run); a failed test keeps
# everything.  KEEP=1 keeps the files of passed tests too.
set -u
cd "$(dirname "$0")/.."
# DYNRED and TBIN may be set by the caller to test another build (the
# sanitizer build: make SANITIZE=address,undefined check, or
# scripts/sanitize-check.sh, sets DYNRED=bin-san/dynred TBIN=build-san/tests).
export DYNRED="${DYNRED:-$PWD/bin/dynred}" TBIN="${TBIN:-$PWD/build/tests}" ROOT="$PWD"
source scripts/mpi-env.sh
export PETSC_OPTIONS="${PETSC_OPTIONS:-} -options_left no"
scratch=$(mktemp -d /tmp/dynred-tests.XXXXXX)
pass=0; fail=0; failed=()
start=$(date +%s)
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  name=${line%%:*}; cmd=${line#*:}
  if [ $# -gt 0 ]; then
    sel=0; for pat in "$@"; do [[ "$name" == *$pat* ]] && sel=1; done
    [ $sel -eq 1 ] || continue
  fi
  export T="$scratch/$name"; mkdir -p "$T"
  t0=$(date +%s.%N)
  if (bash -c "set -e; $cmd") </dev/null >"$T/log" 2>&1; then
    pass=$((pass+1)); st=ok
    [ "${KEEP:-0}" = 1 ] || find "$T" -mindepth 1 -maxdepth 1 ! -name log -exec rm -rf {} +
  else
    fail=$((fail+1)); st=FAIL; failed+=("$name")
  fi
  printf '%-4s %-40s %6.1f s\n' "$st" "$name" "$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{print a-b}')"
  if [ $st = FAIL ]; then sed 's/^/     | /' "$T/log" | tail -n 25; fi
done < tests/tests.list
echo "total $(( $(date +%s) - start )) s; logs in $scratch"
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
