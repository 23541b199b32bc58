# Sourced by the e2e scripts whose expected failures check the output
# themselves (failfast.sh, rank_failure.sh, pmor_bad.sh).
#
#   san_reject NAME RC FILE...
#
# exits the script (status 1, naming NAME) when the run's exit status RC is
# the sanitizer's (DR_SANITIZER_EXIT, 23: tests/run_tests.sh) or a FILE holds
# an AddressSanitizer / UndefinedBehaviorSanitizer / LeakSanitizer report: an
# expected failure whose clean-up after the error line tripped the sanitizer
# is not a pass.  (Under tests/run_tests.sh the reports go to files of the
# harness, which fails the test on them as well; the exit status is what
# this sees there, the output what it sees elsewhere.)
san_reject() {
  local name=$1 rc=$2
  shift 2
  if [ "$rc" = "${DR_SANITIZER_EXIT:-23}" ] || grep -qE 'ERROR: [A-Za-z]+Sanitizer|runtime error:|SUMMARY: [A-Za-z]+Sanitizer' "$@" 2>/dev/null; then
    echo "$name: a sanitizer report (exit $rc), not the expected failure:"
    cat "$@"
    exit 1
  fi
}
