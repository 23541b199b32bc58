#!/usr/bin/env bash
# Build dynred with AddressSanitizer + UndefinedBehaviorSanitizer and run the
# whole test suite (which includes the quick fuzz run, fuzz_quick) against
# that build.
#
#   scripts/sanitize-check.sh [TEST-NAME ...]    (names as for tests/run_tests.sh)
#
# The build goes to build-san/ and bin-san/dynred (make SANITIZE=...), so the
# normal build/ and bin/ stay as they are.  Run-time options:
#   ASAN  fast_unwind_on_malloc=0: full allocation stacks through the system
#         libraries (built without frame pointers), which the suppressions
#         need to see MPI_Init / MPI_Finalize; detect_leaks=1.
#   LSAN  suppressions=scripts/lsan.supp (Open MPI's init/finalize only,
#         each with its reason).
#   UBSAN print_stacktrace=1, halt_on_error=1 (the build also has
#         -fno-sanitize-recover): any undefined behaviour fails the test.
#   Open MPI mca_base_component_disable_dlclose=1: its plugins stay loaded,
#         so leak stacks through them are symbolized and matched.
# Ends with the harness's "N passed, N failed" line; exit status 0 only when
# every test passes.
set -u
cd "$(dirname "$0")/.."
SAN=${SANITIZE:-address,undefined}
t0=$(date +%s)
make -j"${JOBS:-2}" SANITIZE="$SAN" all >/tmp/dynred-sanitize-build.$$.log 2>&1 || {
  tail -n 30 /tmp/dynred-sanitize-build.$$.log; echo "sanitizer build failed"; exit 1; }
rm -f /tmp/dynred-sanitize-build.$$.log
t1=$(date +%s)
echo "sanitizer build ($SAN): $((t1 - t0)) s"
export DYNRED="$PWD/bin-san/dynred" TBIN="$PWD/build-san/tests"
export ASAN_OPTIONS="fast_unwind_on_malloc=0:detect_leaks=1:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export OMPI_MCA_mca_base_component_disable_dlclose=1
rc=0
# the suite includes fuzz_quick (scripts/fuzz.py runs $DYNRED, with
# LeakSanitizer off: leaks are checked by every other test)
bash tests/run_tests.sh "$@" || rc=1
echo "sanitizer suite: $(( $(date +%s) - t1 )) s"
echo "sanitize-check: total $(( $(date +%s) - t0 )) s, $([ $rc -eq 0 ] && echo passed || echo FAILED)"
exit $rc
