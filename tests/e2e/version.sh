#!/usr/bin/env bash
# `dynred -version` / `--version`: dynred's version and the PETSc, SLEPc,
# HDF5 and MPI versions it runs with, checked against what the system says
# (include/dynred/sys.h, pkg-config, mpiexec --version); exit 0 and nothing
# written, once on 2 ranks.  Any other --word is one error line before
# anything runs.  Each command runs in an empty directory that must stay
# empty (the tests run as root, for whom a read-only directory is writable:
# emptiness is the check that the job did not start).
set -euo pipefail
W="$T/cwd"
mkdir -p "$W"
cd "$W"
empty() { [ -z "$(ls -A "$W")" ] || { echo "FAIL: $1 wrote into the working directory:"; ls -A "$W"; exit 1; }; }

want=$(sed -n 's/^#define DYNRED_VERSION "\(.*\)"$/\1/p' "$ROOT/include/dynred/sys.h")
[ -n "$want" ]
for flag in --version -version; do
  $DYNRED $flag > "$T/v.txt" 2> "$T/v.err"
  empty "dynred $flag"
  [ ! -s "$T/v.err" ] || { echo "FAIL: dynred $flag wrote to stderr:"; cat "$T/v.err"; exit 1; }
  cat "$T/v.txt"
  grep -q "^dynred $want\( (git [0-9a-z.-]*)\)\?\$" "$T/v.txt"
  # the libraries' versions as their pkg-config files give them (the 64-bit
  # index build links Debian's petsc64/slepc64)
  if grep -q "^PETSc: .*(64-bit PetscInt)" "$T/v.txt"; then sfx=64; else sfx=; fi
  if command -v pkg-config > /dev/null && pkg-config --exists petsc$sfx slepc$sfx; then
    grep -q "^PETSc: Petsc Release Version $(pkg-config --modversion petsc$sfx)," "$T/v.txt"
    grep -q "^SLEPc: SLEPc Release Version $(pkg-config --modversion slepc$sfx)," "$T/v.txt"
  fi
  for h in hdf5-openmpi hdf5-mpich hdf5-mpi hdf5; do
    if pkg-config --exists $h 2> /dev/null; then
      grep -q "^HDF5: $(pkg-config --modversion $h)\$" "$T/v.txt"
      break
    fi
  done
  mv=$(mpiexec --version 2>&1 | grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+' | head -n 1)
  grep -q "^MPI: .*$mv" "$T/v.txt"
  echo "ok $flag"
done
# 2 ranks: printed once
$MPIEXEC -n 2 $DYNRED -version > "$T/v2.txt"
empty "mpiexec -n 2 dynred -version"
[ "$(grep -c '^dynred ' "$T/v2.txt")" -eq 1 ] || { echo "FAIL: -version on 2 ranks printed:"; cat "$T/v2.txt"; exit 1; }
cmp "$T/v.txt" "$T/v2.txt"
echo "ok -version on 2 ranks"
# --help is `dynred help`
$DYNRED help > "$T/h1.txt"
$DYNRED --help > "$T/h2.txt"
cmp "$T/h1.txt" "$T/h2.txt"
empty "dynred --help"
echo "ok --help"
# any other --word: one error line, non-zero exit, nothing run or written
for args in "--verbose" "cms --verbose" "-config $ROOT/tests/data/jobs/small_plate.yaml --versoin" "--version=1"; do
  rc=0
  $DYNRED $args > "$T/e.txt" 2>&1 || rc=$?
  empty "dynred $args"
  [ $rc -ne 0 ] || { echo "FAIL: dynred $args exited 0"; exit 1; }
  w=${args##* }
  [ "$(wc -l < "$T/e.txt")" -eq 1 ] || { echo "FAIL: dynred $args: not one line:"; cat "$T/e.txt"; exit 1; }
  grep -q "^dynred: error: command line: unknown option '$w'; expected options with one dash" "$T/e.txt"
  echo "ok $args: $(cat "$T/e.txt")"
done
rc=0
$MPIEXEC -n 2 $DYNRED --verbose > "$T/e2.txt" 2>&1 || rc=$?
empty "mpiexec -n 2 dynred --verbose"
[ $rc -ne 0 ]
[ "$(grep -c "^dynred: error: command line: unknown option '--verbose'" "$T/e2.txt")" -eq 1 ]
echo "ok --verbose on 2 ranks"
