#!/usr/bin/env bash
# Build dynred with AddressSanitizer + UndefinedBehaviorSanitizer and run the
# test suite against that build, then a leak pass.
#
#   scripts/sanitize-check.sh [TEST-NAME ...]    (names as for tests/run_tests.sh)
#
# The build goes to build-san/ and bin-san/dynred (make SANITIZE=...), so the
# normal build/ and bin/ stay as they are.
#
# 1. The suite (every test of tests/tests.list, or the named ones; it
#    includes the quick fuzz run fuzz_quick) with ASan and UBSan:
#    any invalid access, use after free, overflow or undefined behaviour
#    fails the test (UBSAN halt_on_error, the build has
#    -fno-sanitize-recover).  LeakSanitizer is off here: its suppressions
#    need full allocation stacks through the system libraries (built
#    without frame pointers: fast_unwind_on_malloc=0), which costs about
#    5 s per process in MPI_Init alone.
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
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export OMPI_MCA_mca_base_component_disable_dlclose=1
source scripts/mpi-env.sh
rc=0

# 1. the suite, leaks off
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" bash tests/run_tests.sh "$@" || rc=1
t2=$(date +%s)
echo "sanitizer suite: $((t2 - t1)) s"

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
