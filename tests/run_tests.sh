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
# Sanitizer reports: every process a test starts writes its AddressSanitizer /
# UndefinedBehaviorSanitizer / LeakSanitizer report (if any) to a file of
# its own under the suite's scratch directory (log_path, beside T, not in
# it), and a report there fails the test whatever the test's command did
# with the process's exit status or output: an expected failure that
# printed its error line and then tripped the sanitizer in its clean-up
# fails, as does a report of a run whose output a test discards.  The
# sanitizer's exit code is DR_SANITIZER_EXIT (23, in no other use: dynred
# exits 1 on an error, PETSc's codes are 54..99, timeout 124) so that
# tests/expect.sh and the e2e scripts can reject it too.  Without a
# sanitizer build these variables reach no sanitizer and change nothing.
# A passed test's scratch files are removed (its log stays; a whole suite
# would otherwise leave about 1.5 GB in /tmp per run); a failed test keeps
# everything.  KEEP=1 keeps the files of passed tests too.
set -u
cd "$(dirname "$0")/.."
# DYNRED and TBIN may be set by the caller to test another build (the
# sanitizer build: make SANITIZE=address,undefined check, or
# scripts/sanitize-check.sh, sets DYNRED=bin-san/dynred TBIN=build-san/tests).
#
#   bash tests/run_tests.sh [NAME ...]          the tests whose name contains a NAME
#   bash tests/run_tests.sh --list FILE [NAME ...]
#                                               also those named exactly by a line of
#                                               FILE (tests/sanitize.list)
# TESTS_FILE (default tests/tests.list) is the file of test lines, or several
# separated by spaces (scripts/sanitize-check.sh: the suite and
# bench/checks.list, the heavy cases `make check-heavy` runs).
export DYNRED="${DYNRED:-$PWD/bin/dynred}" TBIN="${TBIN:-$PWD/build/tests}" ROOT="$PWD"
export DR_SANITIZER_EXIT="${DR_SANITIZER_EXIT:-23}"
tests_file=${TESTS_FILE:-tests/tests.list}
for f in $tests_file; do [ -r "$f" ] || { echo "run_tests.sh: TESTS_FILE names $f, which cannot be read"; exit 2; }; done
declare -A exact=()
nsel=0
if [ "${1:-}" = --list ]; then
  [ -r "${2:-}" ] || { echo "run_tests.sh: --list needs a readable file of test names"; exit 2; }
  while read -r n _; do case "$n" in ''|'#'*) ;; *) exact[$n]=1; nsel=$((nsel + 1));; esac; done < "$2"
  shift 2
fi
nsel=$((nsel + $#))
source scripts/mpi-env.sh
export PETSC_OPTIONS="${PETSC_OPTIONS:-} -options_left no"
scratch=$(mktemp -d /tmp/dynred-tests.XXXXXX)
asan0=${ASAN_OPTIONS:-} ubsan0=${UBSAN_OPTIONS:-} lsan0=${LSAN_OPTIONS:-}
SANREPORT='ERROR: [A-Za-z]+Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer'
pass=0; fail=0; failed=(); times=()
start=$(date +%s)
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  name=${line%%:*}; cmd=${line#*:}
  if [ $nsel -gt 0 ]; then
    sel=0; for pat in "$@"; do [[ "$name" == *$pat* ]] && sel=1; done
    [ -n "${exact[$name]:-}" ] && sel=1
    [ $sel -eq 1 ] || continue
  fi
  unset "exact[$name]"
  export T="$scratch/$name"; mkdir -p "$T"
  san="$scratch/.sanitizer/$name"; mkdir -p "$san"
  so="exitcode=$DR_SANITIZER_EXIT:log_path=$san/report"
  export ASAN_OPTIONS="${asan0:+$asan0:}$so" UBSAN_OPTIONS="${ubsan0:+$ubsan0:}$so" LSAN_OPTIONS="${lsan0:+$lsan0:}$so"
  if [ -n "${GCOV_DIR:-}" ]; then export GCOV_PREFIX="$GCOV_DIR/$name"; fi # scripts/sanitize-subset.py
  t0=$(date +%s.%N)
  rc=0; (bash -c "set -e; $cmd") </dev/null >"$T/log" 2>&1 || rc=$?
  reports=$(grep -lE "$SANREPORT" "$san"/report* 2>/dev/null || true)
  notes=$(grep -LE "$SANREPORT" "$san"/report* 2>/dev/null || true)
  for f in $notes; do { echo "--- sanitizer output without a report ($f):"; cat "$f"; } >>"$T/log"; done
  if [ -n "$reports" ]; then
    { echo "--- FAIL: sanitizer report(s), the test's exit status was $rc:"; for f in $reports; do echo "--- $f"; cat "$f"; done; } >>"$T/log"
    rc=1
  fi
  if [ $rc -eq 0 ]; then
    pass=$((pass+1)); st=ok
    [ "${KEEP:-0}" = 1 ] || find "$T" -mindepth 1 -maxdepth 1 ! -name log -exec rm -rf {} +
    rm -rf "$san"
  else
    fail=$((fail+1)); st=FAIL; failed+=("$name")
  fi
  dt=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.1f", a-b}')
  times+=("$dt $name")
  printf '%-4s %-40s %6.1f s\n' "$st" "$name" "$dt"
  if [ $st = FAIL ]; then sed 's/^/     | /' "$T/log" | tail -n 25; fi
done < <(cat $tests_file)
for n in "${!exact[@]}"; do fail=$((fail+1)); failed+=("$n"); echo "FAIL $n: no such test in $tests_file"; done
echo "total $(( $(date +%s) - start )) s; logs in $scratch"
# the suite's time budget (make check within 10 minutes on 2 cores) is kept
# by making the slowest tests lighter: they are named here
[ ${#times[@]} -gt 10 ] && echo "slowest: $(printf '%s\n' "${times[@]}" | sort -rn | head -8 | awk '{printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1}')"
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
