#!/usr/bin/env bash
# expect.sh [--may-time-out] PATTERN COMMAND...: the command must FAIL and its
# output must contain PATTERN (grep -E).  Used for the bad-input tests: one
# clear line naming the file, entry and expectation.
# Not a pass, whatever the message:
#   - exit 0;
#   - a sanitizer report: the exit code DR_SANITIZER_EXIT (23, set by
#     tests/run_tests.sh, scripts/sanitize-check.sh and `make SANITIZE=...`)
#     or an ASan / UBSan / LSan report in the output (a job that printed its
#     error line and then read freed memory in its clean-up);
#   - a timeout (exit 124 from timeout(1), 137 from its KILL): the error
#     line came but some rank hung after it.  --may-time-out accepts a
#     timeout, for a test whose subject is a time limit.
to_ok=0
if [ "${1:-}" = --may-time-out ]; then to_ok=1; shift; fi
pat=$1; shift
sanexit=${DR_SANITIZER_EXIT:-23}
out=$("$@" 2>&1); rc=$?
if [ $rc -eq 0 ]; then echo "expected failure, got exit 0:"; echo "$out"; exit 1; fi
if [ "$rc" = "$sanexit" ] || grep -qE 'ERROR: [A-Za-z]+Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer' <<<"$out"; then
  echo "expected failure, got a sanitizer report (exit $rc; the report is in the output below or, under tests/run_tests.sh, in the test's log):"; echo "$out"; exit 1
fi
if [ $to_ok -eq 0 ] && { [ $rc -eq 124 ] || [ $rc -eq 137 ]; }; then
  echo "expected failure, got a timeout (exit $rc: killed by timeout(1)):"; echo "$out"; exit 1
fi
if ! grep -qE -- "$pat" <<<"$out"; then echo "exit $rc but message lacks /$pat/:"; echo "$out"; exit 1; fi
echo "ok: exit $rc: $(grep -E -- "$pat" <<<"$out" | head -1)"
