#!/usr/bin/env bash
# The suite's expected-failure checks fail on a sanitizer report that comes
# after the error line.  The hidden option -dr_test_overread_after_error
# (src/core/errors.c) reads one byte past a heap buffer in dynred's error
# clean-up, after `dynred: error: ...` is printed, in the AddressSanitizer
# build only.  On a bad input (modal.nmodes = -3) with that option:
#   (a) tests/expect.sh fails: by the report in the output (log_path=stderr,
#       the sanitizer's exit code left at 1), by the exit code
#       DR_SANITIZER_EXIT alone (the report in a file, as under the
#       harness), and on 2 ranks through mpiexec;
#   (b) tests/sanitizer.sh's san_reject (failfast, rank_failure, pmor_bad)
#       fails;
#   (c) tests/run_tests.sh fails a test whose check ignores both the exit
#       status and the output (`if dynred ... >/dev/null; then exit 1; fi`),
#       from the report file alone.
# Each is paired with the same check without the option, which must pass
# (a check that fails on everything would show nothing).  Not a sanitizer
# build ($DYNRED without libasan): the option does nothing, and only the
# controls run (the hook must not change the expected failure); the test
# says so.  scripts/sanitize-check.sh runs it in its subset
# (tests/sanitize.list) on the sanitizer build.
set -euo pipefail
source "$ROOT/tests/sanitizer.sh"
cd "$T"
E=$ROOT/tests/expect.sh
pat='modal\.nmodes = -3, expected'
bad="-config $ROOT/tests/data/jobs/small_plate.yaml -modal_nmodes -3 -output $T/x.h5"
hook=-dr_test_overread_after_error
# reports of the deliberate runs go where each check says, not to the
# harness's files (that would fail this test itself).  san OPTS COMMAND...:
# COMMAND with ASAN_OPTIONS, UBSAN_OPTIONS and LSAN_OPTIONS (the ASan
# runtime reads all three, and the common options, exitcode and log_path,
# from each) set to this script's values and OPTS, not the harness's
san() {
  local o=$1; shift
  ASAN_OPTIONS="detect_leaks=0:exitcode=$DR_SANITIZER_EXIT:$o" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=$DR_SANITIZER_EXIT:$o" \
    LSAN_OPTIONS="exitcode=$DR_SANITIZER_EXIT:$o" "$@"
}
DR_SANITIZER_EXIT=${DR_SANITIZER_EXIT:-23}
mkdir -p san
$E "$pat" $DYNRED $bad
libs=$(ldd "$DYNRED") # not `ldd | grep -q`: under pipefail, ldd's SIGPIPE would fail the test's branch choice
if ! grep -q libasan <<<"$libs"; then
  $E "$pat" $DYNRED $bad $hook
  test ! -e x.h5
  echo "not a sanitizer build ($DYNRED has no libasan): $hook does nothing here and only the controls ran; scripts/sanitize-check.sh runs this test on bin-san/dynred"
  exit 0
fi
# (a) expect.sh
rc=0; san exitcode=1:log_path=stderr $E "$pat" $DYNRED $bad $hook > a1.log 2>&1 || rc=$?
cat a1.log
[ $rc -ne 0 ] || { echo "expect.sh passed a run with an ASan report in its output"; exit 1; }
grep -q "dynred: error: .*$pat" a1.log            # the error line came first, then the report
grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" a1.log
grep -q "expected failure, got a sanitizer report" a1.log
rc=0; san log_path=$T/san/a2 $E "$pat" $DYNRED $bad $hook > a2.log 2>&1 || rc=$?
[ $rc -ne 0 ] || { echo "expect.sh passed a run that exited with the sanitizer's code $DR_SANITIZER_EXIT"; cat a2.log; exit 1; }
grep -q "got a sanitizer report (exit $DR_SANITIZER_EXIT" a2.log
grep -q "READ of size 1" san/a2.*
grep -q "TestOverreadAfterError" san/a2.*
rc=0; san log_path=$T/san/a3 $E "$pat" $MPIEXEC -n 2 $DYNRED $bad $hook > a3.log 2>&1 || rc=$?
[ $rc -ne 0 ] || { echo "expect.sh passed a 2-rank run with an ASan report"; cat a3.log; exit 1; }
grep -q "got a sanitizer report" a3.log
test "$(grep -l 'heap-buffer-overflow' san/a3.* | wc -l)" = 2   # one report per rank
$E "$pat" $MPIEXEC -n 2 $DYNRED $bad                              # control, 2 ranks
echo "ok (a): expect.sh fails on the report in the output, on the exit code $DR_SANITIZER_EXIT, and on 2 ranks"
# (b) san_reject
rc=0; san exitcode=1:log_path=stderr $DYNRED $bad $hook > b1.log 2>&1 || rc=$?
[ $rc -eq 1 ] || { echo "exit $rc, expected 1"; cat b1.log; exit 1; }
if (san_reject b1 $rc b1.log) > b1.out; then echo "san_reject passed an ASan report in the output"; exit 1; fi
rc=0; san log_path=$T/san/b2 $DYNRED $bad $hook > b2.log 2>&1 || rc=$?
[ "$rc" = "$DR_SANITIZER_EXIT" ] || { echo "exit $rc, expected the sanitizer's $DR_SANITIZER_EXIT"; cat b2.log; exit 1; }
if (san_reject b2 $rc b2.log) > b2.out; then echo "san_reject passed the sanitizer's exit code"; exit 1; fi
rc=0; $DYNRED $bad > b3.log 2>&1 || rc=$?
(san_reject b3 $rc b3.log)                                        # control
echo "ok (b): san_reject fails on the report and on the exit code"
# (c) the harness, on a check that looks at neither
cat > list <<L
sloppy_hook: if \$DYNRED $bad $hook > /dev/null 2>&1; then exit 1; fi
sloppy_plain: if \$DYNRED $bad > /dev/null 2>&1; then exit 1; fi
L
rc=0; TESTS_FILE=$T/list bash "$ROOT/tests/run_tests.sh" > c.log 2>&1 || rc=$?
cat c.log
nd=$(sed -n 's/.*; logs in //p' c.log)
[ $rc -ne 0 ] || { echo "the harness passed a test with a sanitizer report"; exit 1; }
grep -q "^FAIL sloppy_hook" c.log
grep -q "^ok   sloppy_plain" c.log
grep -q "^1 passed, 1 failed" c.log
grep -q "^--- FAIL: sanitizer report(s), the test's exit status was 0" "$nd/sloppy_hook/log"
grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" "$nd/sloppy_hook/log"
rm -rf "$nd"
echo "ok (c): the harness fails a test on a report its check ignored"
