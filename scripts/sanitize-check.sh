#!/usr/bin/env bash
# Build dynred with AddressSanitizer + UndefinedBehaviorSanitizer and run
# tests against that build, then a leak pass.
#
#   scripts/sanitize-check.sh              the tests of tests/sanitize.list (CI)
#   scripts/sanitize-check.sh --all        every test of tests/tests.list and
#                                          bench/checks.list (make check-sanitize)
#   scripts/sanitize-check.sh NAME ...     the tests whose name contains a NAME
#
# The build goes to build-san/ and bin-san/dynred (make SANITIZE=...), so the
# normal build/ and bin/ stay as they are.
#
# 1. The tests with ASan and UBSan: any invalid access, use after free,
#    overflow or undefined behaviour fails the test, also in a run that was
#    expected to fail (tests/run_tests.sh collects every process's report
#    in files of its own and fails the test on one; the sanitizers exit
#    with DR_SANITIZER_EXIT, 23, which tests/expect.sh and
#    tests/sanitizer.sh reject).  UBSan halts on the first report (the
#    build has -fno-sanitize-recover).  LeakSanitizer is off here: its
#    suppressions need full allocation stacks through the system libraries
#    (built without frame pointers: fast_unwind_on_malloc=0), which costs
#    about 5 s per process in MPI_Init alone.
#    tests/sanitize.list is a subset of the suite that runs every C file of
#    src/ at least once (a greedy cover over gcov data,
#    scripts/sanitize-subset.py, which regenerates it) and the test that the
#    harness catches a report on an error path (sanitizer_catch); this
#    script warns about a file of src/ that the list does not cover (a new
#    file: regenerate the list).
# 2. The leak pass: every job of the fuzz seed corpus (tests/data/fuzz: one
#    per subcommand and reader: modal, cms with mtx / PETSc / HDF5 /
#    CalculiX / OP4 components, ss, gmp, ga) on 1 and 2 ranks, and the unit test
#    programs below, with LeakSanitizer on and scripts/lsan.supp (Open MPI's
#    init/finalize only, each with its reason).  A failed job is not
#    leak-checked (src/app/main.c: PETSc's error returns do not unwind).
#    Open MPI's mca_base_component_disable_dlclose=1 keeps its plugins
#    loaded so their frames are symbolized.
# Ends with "sanitize-check: ... passed" or FAILED; exit 0 only when both
# passes are clean.
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
export DR_SANITIZER_EXIT=${DR_SANITIZER_EXIT:-23}
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=$DR_SANITIZER_EXIT:${UBSAN_OPTIONS:-}"
export ASAN_OPTIONS="exitcode=$DR_SANITIZER_EXIT:${ASAN_OPTIONS:-}"
export OMPI_MCA_mca_base_component_disable_dlclose=1
source scripts/mpi-env.sh
rc=0

# 1. the tests, leaks off
if [ $# -eq 0 ]; then
  # every C file of src/ must be run by some test of the list
  miss=$(find src -name '*.c' | sort | while read -r f; do
           awk -v f="$f" '!/^#/ { for (i = 2; i <= NF; i++) if ($i == f) hit = 1 } END { exit !hit }' tests/sanitize.list || echo "$f"
         done)
  for f in $miss; do echo "sanitize-check: warning: $f is run by no test of tests/sanitize.list; regenerate it (scripts/sanitize-subset.py)"; done
  sel=(--list tests/sanitize.list)
  echo "sanitizer tests: tests/sanitize.list ($(grep -cvE '^(#|$)' tests/sanitize.list) of $(cat tests/tests.list bench/checks.list | grep -cvE '^(#|$)'); --all: every test)"
elif [ "$1" = --all ]; then
  sel=()
else
  sel=("$@")
fi
ASAN_OPTIONS="detect_leaks=0:$ASAN_OPTIONS" TESTS_FILE="tests/tests.list bench/checks.list" bash tests/run_tests.sh "${sel[@]+"${sel[@]}"}" || rc=1
t2=$(date +%s)
echo "sanitizer tests: $((t2 - t1)) s"

# 2. the leak pass
export ASAN_OPTIONS="fast_unwind_on_malloc=0:detect_leaks=1:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
W=$(mktemp -d /tmp/dynred-leaks.XXXXXX)
cp tests/data/fuzz/* "$W/"
nl=0; bad=0
leakrun() { # NAME COMMAND...: must exit 0 without a sanitizer report
  local log="$W/$1.log"; shift
  nl=$((nl + 1))
  if (cd "$W" && "$@") >"$log" 2>&1 && ! grep -qE "ERROR: (Leak|Address)Sanitizer|runtime error:" "$log"; then
    echo "ok   leaks $(basename "$log" .log)"
  else
    bad=$((bad + 1)); echo "FAIL leaks $(basename "$log" .log)"; grep -A12 -E "ERROR: |runtime error:" "$log" | head -n 40 | sed 's/^/     | /'
  fi
}
for j in modal_plate modal_ccx cms_mtx cms_bin cms_op4 ss gmp ga; do
  leakrun "${j}_np1" "$DYNRED" -config $j.yaml -output leak_${j}_1.h5
  leakrun "${j}_np2" $MPIEXEC -n 2 "$DYNRED" -config $j.yaml -output leak_${j}_2.h5
done
leakrun test_config "$TBIN/test_config"
leakrun test_elements "$TBIN/test_elements"
leakrun test_io_np2 $MPIEXEC -n 2 "$TBIN/test_io" -tmp "$W"
leakrun test_readcomp_mtx "$TBIN/test_readcomp" mtx a_K.mtx a_M.mtx - a.dof
rm -rf "$W"
echo "leak pass: $nl runs, $bad with a report; $(( $(date +%s) - t2 )) s"
[ $bad -eq 0 ] || rc=1
echo "sanitize-check: total $(( $(date +%s) - t0 )) s, $([ $rc -eq 0 ] && echo passed || echo FAILED)"
exit $rc
