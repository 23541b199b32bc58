#!/usr/bin/env bash
# Fail fast (issue 16 item 5): what can be checked before the expensive work
# is checked first, for every job kind (modal, cms, gmp, ga, ss):
#   - the output's directory exists (and the output name is not a directory);
#   - every key's type and range, also keys a job reads late (the GMP
#     transient's keys are read after the sweep; a bad one used to stop the
#     job only after every grid point was computed);
#   - the input files named by the job file are readable (the LAST
#     component's file, so the other components would be read first);
#   - the memory the model needs (MUMPS analysis) against what a node offers
#     (-mem_limit_mib stands in for a small node);
#   - the rank count suits the job (idle CMS rank groups, ranks_per_group not
#     dividing the ranks, for CMS and for the task farm of GMP).
# Each case: non-zero exit, exactly one `dynred: error:` line matching the
# expected text, printed BEFORE any solve started: no progress line (the
# `[   t s] ...` lines every solve phase prints: component reductions, modal
# solves, sweep points, generations, simulations) in the log, and nothing
# left in the output directory.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/cms/chain_gen.py chain chain
cat > chain/two.yaml <<'Y'
job: cms
output: two.h5
components:
  - {name: a, format: mtx, K: a_K.mtx, M: a_M.mtx, dofs: a.dof}
  - {name: b, format: mtx, K: b_K.mtx, M: b_M.mtx, dofs: b.dof}
cms: {nmodes: 5, component_modes: 4}
Y
cp $ROOT/tests/data/cms/chain.yaml chain/three.yaml
mkdir -p missing && cp chain/*.mtx chain/*.dof chain/three.yaml missing/ && rm missing/c_K.mtx
J=$ROOT/tests/data/jobs
C=$ROOT/configs

# ff NAME PATTERN NP ARGS...: run dynred ARGS on NP ranks in the empty
# directory NAME (its output goes there unless ARGS say otherwise)
ff() {
  local name=$1 pat=$2 np=$3 rc=0 t0 t1 n left
  shift 3
  mkdir -p "$name"
  case " $* " in *" -output "*) ;; *) set -- "$@" -output "$T/$name/out.h5" ;; esac
  t0=$(date +%s)
  (cd "$name" && timeout 300 $MPIEXEC -n "$np" $DYNRED "$@" > ../"$name.log" 2> ../"$name.err") || rc=$?
  t1=$(date +%s)
  [ $rc -ne 0 ] || { echo "$name: expected failure, got exit 0"; cat "$name.log"; exit 1; }
  [ $rc -ne 124 ] || { echo "$name: hung (killed after 300 s)"; cat "$name.log"; exit 1; }
  # stderr apart from stdout (ranks interleave them); the job ends at the
  # error, so whatever it printed on stdout came before it
  cat "$name.err" >> "$name.log"
  n=$(grep -c '^dynred: error:' "$name.err" || true)
  [ "$n" -eq 1 ] || { echo "$name: $n error lines, expected 1"; cat "$name.log"; exit 1; }
  grep -qE -- "^dynred: error: .*$pat" "$name.err" || { echo "$name: message lacks /$pat/"; cat "$name.log"; exit 1; }
  # log order: no solve phase printed its progress before the error
  if grep -qE '\[ *[0-9.]+ s\] ' "$name.log"; then echo "$name: a solve started before the error:"; cat "$name.log"; exit 1; fi
  left=$(ls -A "$name")
  [ -z "$left" ] || { echo "$name: left behind: $left"; exit 1; }
  echo "ok $name ($((t1 - t0)) s): $(grep '^dynred: error:' "$name.err")"
}
NOPE=/nonexistent-dir-$$/sub

# --- output directory, every job kind (the output is opened only at the end)
ff out_modal "output = '$NOPE/x.h5': directory '$NOPE' does not exist" 1 -config $J/small_plate.yaml -output $NOPE/x.h5
ff out_cms "directory '$NOPE' does not exist" 2 -config $T/chain/three.yaml -output $NOPE/x.h5
ff out_gmp "directory '$NOPE' does not exist" 1 -config $C/slider_crank_gmp.yaml -output $NOPE/x.h5
ff out_ga "directory '$NOPE' does not exist" 1 -config $C/bicycle_frame_ga.yaml -output $NOPE/x.h5
ff out_ss "directory '$NOPE' does not exist" 1 -config $C/frame_ss.yaml -output $NOPE/x.h5
ff out_isdir "output = '$T': is a directory|'$T' is a directory, expected a file name" 1 -config $J/small_plate.yaml -output $T
# --- keys and ranges, including the late-read ones
ff key_gmp_late "gmp\.transient\.h = -1, expected" 1 -config $C/slider_crank_gmp.yaml -gmp_transient_h -1
ff key_modal "modal\.nmodes = -3, expected" 1 -config $J/small_plate.yaml -modal_nmodes -3
ff key_cms "cms\.fmax = -5, expected" 1 -config $T/chain/three.yaml -cms_fmax -5
ff key_ga "ga\.crossover = 2, expected" 1 -config $C/bicycle_frame_ga.yaml -ga_crossover 2
ff key_ss "ss\.sim\.h = -1, expected" 1 -config $C/frame_ss.yaml -ss_sim_h -1
# --- input files: the last component's K (a, b would be read first)
ff input_cms "three\.yaml:[0-9]+: components\[2\]\.K = 'c_K\.mtx': cannot read '.*missing/c_K\.mtx' \(No such file or directory\), expected a readable file" 2 -config $T/missing/three.yaml
ff input_modal "components\[2\]\.K = 'c_K\.mtx': cannot read" 1 modal -config $T/missing/three.yaml
ff input_ss_source "ss\.source = 'nofile\.h5': cannot read" 1 -config $C/frame_ss.yaml -ss_source nofile.h5
ff input_ss_signal "ss\.input\.file = 'nosignal\.csv': cannot read" 1 -config $C/frame_ss.yaml -ss_source $C/frame_ss.yaml -ss_input_signal file -ss_input_file nosignal.csv
# --- memory: the factorization does not fit a 1 MiB node
ff mem_modal "model plate \([0-9]+ DOFs; MUMPS estimate.*\) needs about [0-9.e+]+ MiB on a node \(1 rank\(s\) there\), 1 MiB available \(mem_limit_mib\): expected a job that fits in memory; run it on more nodes" 1 -config $J/small_plate.yaml -mem_limit_mib 1
ff mem_modal_np2 "needs about [0-9.e+]+ MiB on a node \(2 rank\(s\) there\), 1 MiB available" 2 -config $J/small_plate.yaml -mem_limit_mib 1
ff mem_cms "the components of the rank groups .* needs about [0-9.e+]+ MiB on a node \(3 rank\(s\) there\), 0\.001 MiB available \(mem_limit_mib\)" 3 -config $T/chain/three.yaml -mem_limit_mib 0.001
# The estimate is at least K's upper triangle in doubles (a factor holds
# K's pattern and more): nnz/2 x 8 bytes from the model line, independent of
# MUMPS.
/usr/bin/python3 - "$T/mem_modal.log" <<'PY'
import re, sys
log = open(sys.argv[1]).read()
nnz = float(re.search(r"(\d+) nonzeros in K", log).group(1))
need = float(re.search(r"needs about ([0-9.e+]+) MiB", log).group(1))
low = nnz / 2 * 8 / 2**20
assert need >= low, (need, low)
print(f"ok mem estimate {need:.3g} MiB >= K's upper triangle {low:.3g} MiB")
PY
# --- rank counts
ff ranks_cms_idle "command line -ranks_per_group: 3 rank groups of 1 rank\(s\) for 2 component\(s\) leave 1 group\(s\) idle; expected at most 2 groups: ranks_per_group >= 2" 3 -config $T/chain/two.yaml -ranks_per_group 1
ff ranks_cms_divide "ranks_per_group = 2 does not divide the 3 ranks" 3 -config $T/chain/three.yaml -ranks_per_group 2
ff ranks_gmp_divide "farm group size 2 does not divide the 3 ranks" 3 -config $C/slider_crank_gmp.yaml -ranks_per_group 2
echo "all fail-fast cases ok"
