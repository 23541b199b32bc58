#!/usr/bin/env bash
# Fail fast: what can be checked before the expensive work is checked
# first, for every job kind (modal, cms, gmp, ga, ss, pmor, sysred):
#   - the output's directory exists (and the output name is not a directory);
#   - every key's type and range, also keys a job reads late (the GMP
#     transient's keys are read after the sweep; a bad one used to stop the
#     job only after every grid point was computed);
#   - the input files named by the job file are readable (the LAST
#     component's file, so the other components would be read first);
#   - the memory the model needs (MUMPS analysis) against what a node offers
#     (-mem_limit_mib stands in for a small node), for modal, cms, gmp, ga
#     and ss;
#   - the fuzz run's message defects outside the readers: built-in model and
#     mechanism values, modal.tol / nmodes, GMP grids, a component's bad M;
#   - the rank count suits the job (idle CMS rank groups, ranks_per_group not
#     dividing the ranks, for CMS and for the task farm of GMP);
#   - checks between keys: the GMP transient's start, driven axes and mode
#     count against the grid, gmp.export_point against the grid, pmor.nmodes
#     against the model's DOFs, sysred's output directory and source files,
#     the places gmp.checkpoint and pmor.(frf.)checkpoint name, ss.sim.h
#     against ss.sim.t_end.
# Each case: non-zero exit that is neither a timeout nor a sanitizer report
# (tests/sanitizer.sh), exactly one `dynred: error:` line matching the
# expected text, printed BEFORE any solve started: no progress line (the
# `[   t s] ...` lines every solve phase prints: component reductions, modal
# solves, sweep points, generations, simulations) in the log, and nothing
# left in the output directory.
set -euo pipefail
source "$ROOT/tests/sanitizer.sh"
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
sed 's/{name: b,/{name: a,/' chain/three.yaml > chain/dupname.yaml   # two components named a
mkdir -p missing && cp chain/*.mtx chain/*.dof chain/three.yaml missing/ && rm missing/c_K.mtx
# a planar frame whose member 6 joins two nodes at the same place (6 and 7):
# its elements are formed on the rank that owns their rows only
cat > coin.yaml <<'Y'
job: modal
model:
  builtin: frame2d
  frame2d:
    nodes: [1, 0, 0,  2, 1, 0,  3, 2, 0,  4, 3, 0,  5, 4, 0,  6, 5, 0,  7, 5, 0,  8, 6, 0]
    members: [1, 2,  2, 3,  3, 4,  4, 5,  5, 6,  6, 7,  7, 8]
    sections: [1e-3, 1e-7]
    nel: 4
    fixed: [1, 1,  1, 2,  1, 6]
modal: {nmodes: 4}
Y
# the last component's M spoiled three ways (the fuzz run's message defects:
# the message named K's file, or SLEPc/PETSc traces came out of the solve)
/usr/bin/python3 - <<'PY'
import os, shutil
def spoil(d, edit):
    os.makedirs(d, exist_ok=True)
    for f in os.listdir("chain"):
        shutil.copy(os.path.join("chain", f), d)
    ls = open(os.path.join(d, "c_M.mtx")).read().split("\n")
    edit(ls)
    open(os.path.join(d, "c_M.mtx"), "w").write("\n".join(ls))
def first(ls):  # index of the entry "1 1 m11"
    return next(i for i, l in enumerate(ls) if l.startswith("1 1 "))
def subnormal(ls): ls[first(ls)] = "1 1 1e-320"       # a mass of 1e-320 kg
def negative(ls): ls[first(ls)] = "1 1 -1"
def indefinite(ls):  # M_12 = M_21 = 10 with M_11, M_22 ~ 1.5: a 2x2 minor < 0
    i = first(ls); n = ls[i - 1].split()
    ls[i - 1] = f"{n[0]} {n[1]} {int(n[2]) + 2}"
    ls[i:i] = ["1 2 10", "2 1 10"]
spoil("m_subnormal", subnormal); spoil("m_negative", negative); spoil("m_indefinite", indefinite)
PY
J=$ROOT/tests/data/jobs
C=$ROOT/configs

# ff1 NAME PATTERN NP ARGS...: run dynred ARGS on NP ranks in the empty
# directory NAME (its output goes there unless ARGS say otherwise)
ff1() {
  local name=$1 pat=$2 np=$3 rc=0 t0 t1 n left
  shift 3
  mkdir -p "$name"
  case " $* " in *" -output "*) ;; *) set -- "$@" -output "$T/$name/out.h5" ;; esac
  t0=$(date +%s)
  (cd "$name" && timeout 300 $MPIEXEC -n "$np" $DYNRED "$@" > ../"$name.log" 2> ../"$name.err") || rc=$?
  t1=$(date +%s)
  [ $rc -ne 0 ] || { echo "$name: expected failure, got exit 0"; cat "$name.log"; exit 1; }
  [ $rc -ne 124 ] || { echo "$name: hung (killed after 300 s)"; cat "$name.log"; exit 1; }
  san_reject "$name" $rc "$name.log" "$name.err"
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
# ff NAME PATTERN NP ARGS...: ff1 in the background, NPAR cases at a time
# (default: the number of cores, as tests/par.sh).  Each case is a start-up
# that stops at its check (Open MPI's launch, PETSc's set-up, the job
# file): mostly waiting, not computing, and the cases share nothing but
# read-only inputs (each has its own directory), so side by side they make
# the same checks in about half the wall time.  ffwait reports every case
# started so far in the order of this file and fails on the first failed one.
npar=${NPAR:-$(nproc 2>/dev/null || echo 1)}
ffnames=()
ff() {
  while [ "$(jobs -rp | wc -l)" -ge "$npar" ]; do wait -n || true; done
  (set +e; (set -e; ff1 "$@") > "$1.out" 2>&1; echo $? > "$1.rc") &
  ffnames+=("$1")
}
ffwait() {
  local n
  wait
  for n in "${ffnames[@]}"; do
    cat "$n.out"
    [ "$(cat "$n.rc")" = 0 ] || { echo "$n: failed (exit $(cat "$n.rc"))"; exit 1; }
  done
  ffnames=()
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
# fuzz case 18527 (2026-11-24, fourth session): a repeated component name; on 2 ranks both groups wrote
# the same checkpoint file and one failed to create it, a message that named no input
ff comp_dupname "dupname\.yaml:7: component 2 is named 'a' like component 1, expected a unique name per component" 2 -config $T/chain/dupname.yaml
ff key_ga "ga\.crossover = 2, expected" 1 -config $C/bicycle_frame_ga.yaml -ga_crossover 2
ff key_ss "ss\.sim\.h = -1, expected" 1 -config $C/frame_ss.yaml -ss_sim_h -1
ff key_modal_tol "command line -modal_tol: modal\.tol = 0, expected 1e-15\.\.1" 1 -config $J/small_plate.yaml -modal_tol 0
ff key_modal_none "command line -modal_nmodes: modal\.nmodes = 0 and modal\.fmax = 0: expected nmodes > 0" 1 -config $J/small_plate.yaml -modal_nmodes 0
# 2 x 2 x 1 hex8 plate clamped at x = 0: (3 x 3 - 3) x 2 free nodes x 3 = 36 DOFs
ff key_modal_many "command line -modal_nmodes: modal\.nmodes = 99999: 99999 modes requested but the model has only 36 DOFs, expected at most 36" 1 -config $J/small_plate.yaml -model_plate_nx 2 -model_plate_ny 2 -model_plate_nz 1 -modal_nmodes 99999
ff key_plate_nu "command line -model_plate_nu: model\.plate\.nu = 0\.5, expected > -1 and < 0\.5" 1 -config $J/small_plate.yaml -model_plate_nu 0.5
ff key_plate_E "command line -model_plate_E: model\.plate\.E = 0, expected > 0 Pa" 1 -config $J/small_plate.yaml -model_plate_E 0
ff key_plate_clamp "command line -model_plate_clamp: model\.plate\.clamp: clamp \"x0,q1\" has unknown face \"q1\"" 1 -config $J/small_plate.yaml -model_plate_clamp x0,q1
ff key_gmp_grid "command line -gmp_theta1_step: gmp\.theta1\.step = 0\.1: \(stop - start\) / step = 2\.1[0-9]*e\+10 grid points along theta1, expected at most 1000000" 1 -config $C/slider_crank_gmp.yaml -gmp_theta1_start -2147483649 -gmp_theta1_step 0.1
ff key_gmp_verify "command line -gmp_verify_step: gmp\.verify_step = 1e-09: .* verification points along theta1, expected at most 1000000" 1 -config $C/slider_crank_gmp.yaml -gmp_verify_step 1e-9
# the fuzz run of 2026-11-24 (third session): a section of 1e308 (case 9319: LAPACK "found 0 of 2
# deformation modes" as a trace, the sweep checkpoint left behind) and an output name of 8000
# characters (case 7779: a GA job crashed writing its files)
ff key_gmp_A "command line -gmp_A: gmp\.E = .*gmp\.A = 1e\+308: axial stiffness inf.*expected positive normal numbers up to 1e150" 2 -config $C/slider_crank_gmp.yaml -gmp_A 1e308
ff out_long "output has [0-9]+ characters \(a file name of [0-9]+\), expected a path of at most [0-9]+ and a file name of at most [0-9]+ characters" 1 -config $C/bicycle_frame_ga.yaml -output $T/out_long/$(printf 'x%.0s' $(seq 300)).h5
# the fuzz run of 2026-11-24 (fourth session), case 12112: gmp.nmodes beyond the mechanism's deformation DOFs
# was refused inside the sweep without the job file's line, and the sweep checkpoint was left behind.
# slider-crank, 2 + 2 beam elements: 6 nodes x 3 DOFs = 18, minus the 5 joint constraints and theta = 12
ff key_gmp_nmodes "command line -gmp_nmodes: gmp\.nmodes 13: expected 1 to 12 " 2 -config $C/slider_crank_gmp.yaml -gmp_nel1 2 -gmp_nel2 2 -gmp_nmodes 13
ff key_gmp_L2 "command line -gmp_L2: gmp\.L1 = 0\.3, gmp\.L2 = 0\.2 .*expected the connector L2 longer than the crank L1" 1 -config $C/slider_crank_gmp.yaml -gmp_L2 0.2
# a density of 1e300 gives mass entries whose squares overflow (the
# eigensolver then found M "indefinite"); the builder's message is raised
# again at the job file's model.builtin line
ff key_builder_overflow "small_plate\.yaml:[0-9]+: model\.builtin = plate: builtin:solid: M has a value beyond 1e\+150 in row [0-9]+ \(DOF [0-9]+\.[1-3]\), expected \|entries\| <= 1e\+150" 2 -config $J/small_plate.yaml -model_plate_rho 1e300
# --- a component's M: the message names M's file and the entry
ff mass_subnormal "c_M\.mtx: M has a subnormal value \(0 < \|v\| < 2\.2[0-9]*e-308\) in row 1 \(DOF [0-9]+\.1\), expected 0 or a normal number" 2 modal -config $T/m_subnormal/three.yaml
ff mass_negative "c_M\.mtx: M diagonal entry 1 \(DOF [0-9]+\.1\) is not positive" 1 modal -config $T/m_negative/three.yaml
ff mass_indefinite "c_M\.mtx: M entry \(1, 2\) \(DOFs [0-9]+\.1, [0-9]+\.1\) exceeds sqrt\(M_ii M_jj\): M is not positive definite" 3 modal -config $T/m_indefinite/three.yaml
# --- input files: the last component's K (a, b would be read first)
ff input_cms "three\.yaml:[0-9]+: components\[2\]\.K = 'c_K\.mtx': cannot read '.*missing/c_K\.mtx' \(No such file or directory\), expected a readable file" 2 -config $T/missing/three.yaml
ff input_modal "components\[2\]\.K = 'c_K\.mtx': cannot read" 1 modal -config $T/missing/three.yaml
ff input_op4 "command line -components_1_dofs: components\[1\]\.dofs = 'nope\.dof': cannot read '.*nope\.dof' \(No such file or directory\), expected a readable file" 1 -config $ROOT/tests/data/fuzz/cms_op4.yaml -components_1_dofs nope.dof
ff input_ss_source "ss\.source = 'nofile\.h5': cannot read" 1 -config $C/frame_ss.yaml -ss_source nofile.h5
ff input_ss_signal "ss\.input\.file = 'nosignal\.csv': cannot read" 1 -config $C/frame_ss.yaml -ss_source $C/frame_ss.yaml -ss_input_signal file -ss_input_file nosignal.csv
# --- memory: the factorization does not fit a 1 MiB node
ff mem_modal "model plate \([0-9]+ DOFs; MUMPS estimate.*\) needs about [0-9.e+]+ MiB on a node \(1 rank\(s\) there\), 1 MiB available \(mem_limit_mib\): expected a job that fits in memory; run it on more nodes" 1 -config $J/small_plate.yaml -mem_limit_mib 1
ff mem_modal_np2 "needs about [0-9.e+]+ MiB on a node \(2 rank\(s\) there\), 1 MiB available" 2 -config $J/small_plate.yaml -mem_limit_mib 1
ff mem_cms "the components of the rank groups .* needs about [0-9.e+]+ MiB on a node \(3 rank\(s\) there\), 0\.001 MiB available \(mem_limit_mib\)" 3 -config $T/chain/three.yaml -mem_limit_mib 0.001
ffwait
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
# gmp, ga, ss: their own estimates, also before any solve (gmp: the points'
# reduced models gathered on rank 0; ga: the full eigenproblem and the
# groups' factorizations; ss: the dense state space and the output histories)
ff mem_gmp "gmp sweep of 693 points \(slider-crank, [0-9]+ DOFs: one point's dense eigenproblem on every rank, .* MiB of reduced models on rank 0\) needs about [0-9.e+]+ MiB on a node \(1 rank\(s\) there\), 1 MiB available \(mem_limit_mib\): expected a job that fits in memory; a coarser grid" 1 -config $C/slider_crank_gmp.yaml -mem_limit_mib 1
ff mem_gmp_np2 "gmp sweep of 693 points \(slider-crank, [0-9]+ DOFs: one point's MUMPS estimate on every rank, .*\(2 rank\(s\) there\), 1 MiB available" 2 -config $C/slider_crank_gmp.yaml -mem_limit_mib 1 -dense_max 10
ff mem_ga "ga on model .* DOFs; the full eigenproblem \(dense\) and, per farm group of 1 rank\(s\), the model and the MUMPS estimate of its factorization\) needs about [0-9.e+]+ MiB on a node \(1 rank\(s\) there\), 0\.01 MiB available \(mem_limit_mib\)" 1 -config $C/bicycle_frame_ga.yaml -mem_limit_mib 0.01
ff mem_ss "ss on .*cms_result\.h5 /cms \([0-9]+ modes, [0-9]+ states; 3 output histories of 5000001 steps x 4 outputs; every rank holds all of it\) needs about [0-9.e+]+ MiB on a node \(1 rank\(s\) there\), 100 MiB available \(mem_limit_mib\): expected a job that fits in memory; fewer steps" 1 -config $ROOT/tests/data/fuzz/ss.yaml -ss_sim_h 1e-8 -mem_limit_mib 100
ffwait
# Each estimate is at least what the job must hold, counted here from the
# log and the job's keys: gmp: rank 0 keeps Psi (ndof x (1 + nmodes)) of
# all 64 + 629 points; ga: K and M dense (n^2 each) for LAPACK; ss: 3 (2
# methods + the reference) histories of t_end/h + 1 steps x 2 outputs x
# (displacement, velocity).
/usr/bin/python3 - "$T" <<'PY'
import re, sys
T = sys.argv[1]
def need(name):
    return float(re.search(r"needs about ([0-9.e+]+) MiB", open(f"{T}/{name}.log").read()).group(1))
MiB = 2.0**20
g = open(f"{T}/mem_gmp.log").read()
nd, nm = map(int, re.search(r"slider-crank, (\d+) DOFs, 1 rigid \+ (\d+) deformation", g).groups())
low = (64 + 629) * nd * (1 + nm) * 8 / MiB
assert need("mem_gmp") >= low, (need("mem_gmp"), low)
print(f"ok gmp estimate {need('mem_gmp'):.3g} MiB >= rank 0's Psi {low:.3g} MiB")
n = int(re.search(r"ga on model \S+ \((\d+) DOFs", open(f"{T}/mem_ga.log").read()).group(1))
low = 2 * n * n * 8 / MiB
assert need("mem_ga") >= low, (need("mem_ga"), low)
print(f"ok ga estimate {need('mem_ga'):.3g} MiB >= dense K, M {low:.3g} MiB")
low = 3 * (0.05 / 1e-8 + 1) * 2 * 2 * 8 / MiB
assert need("mem_ss") >= low, (need("mem_ss"), low)
print(f"ok ss estimate {need('mem_ss'):.3g} MiB >= histories {low:.3g} MiB")
PY
# --- a builder's check that fails on the ranks owning the element only
# (it used to leave the others in the assembly: the 30 s -error_wait abort)
ff frame_coincide_np1 "coin\.yaml:[0-9]+: model\.builtin = frame2d: planar beam: end nodes coincide at \(5\., 0\.\), expected a positive length" 1 -config $T/coin.yaml
ff frame_coincide_np3 "coin\.yaml:[0-9]+: model\.builtin = frame2d: planar beam: end nodes coincide at \(5\., 0\.\), expected a positive length" 3 -config $T/coin.yaml
# --- rank counts
ff ranks_cms_idle "command line -ranks_per_group: 3 rank groups of 1 rank\(s\) for 2 component\(s\) leave 1 group\(s\) idle; expected at most 2 groups: ranks_per_group >= 2" 3 -config $T/chain/two.yaml -ranks_per_group 1
ff ranks_cms_divide "ranks_per_group = 2 does not divide the 3 ranks" 3 -config $T/chain/three.yaml -ranks_per_group 2
ff ranks_gmp_divide "farm group size 2 does not divide the 3 ranks" 3 -config $C/slider_crank_gmp.yaml -ranks_per_group 2
# --- checks between keys, made before the expensive phase: the job is
# refused at set-up, names the key's place (the job file's line or the
# command-line option) and leaves nothing (no sweep checkpoint, no output)
F=$ROOT/tests/data/fuzz/gmp_transient.yaml
sed 's/theta0: 0.2/theta0: 2.0/' $F > tr_theta0.yaml           # line 19: the start beyond the grid [0, 0.6]
sed '/theta0:/d; s/start: 0.0, stop: 0.6/start: 1.0, stop: 1.6/' $F > tr_grid.yaml   # theta0 = 0 (default) against the grid of line 10
sed 's/export_point: 1/export_point: 4/' $F > tr_export.yaml    # line 12: a grid of 4 points (0..3)
ff tr_theta0 "tr_theta0\.yaml:19: gmp\.transient\.theta0 = 2\.?: outside the gmp\.theta1 grid \[0\.?, 0\.6\], expected a start inside it" 1 -config $T/tr_theta0.yaml
ff tr_theta0_np2 "tr_theta0\.yaml:19: gmp\.transient\.theta0 = 2\.?: outside the gmp\.theta1 grid" 2 -config $T/tr_theta0.yaml
ff tr_grid "tr_grid\.yaml:10: gmp\.transient\.theta0 = 0\.?: outside the gmp\.theta1 grid \[1\.?, 1\.6\]" 1 -config $T/tr_grid.yaml
ff tr_export "tr_export\.yaml:12: gmp\.export_point = 4: expected a grid point index 0\.\.3 \(the grid has 4 points\)" 1 -config $T/tr_export.yaml
ff tr_uniform "command line -gmp_theta1_values: gmp\.theta1\.values are not equally spaced: the transient interpolates along theta1" 1 -config $F -gmp_theta1_values 0,0.2,0.5 -gmp_transient_theta0 0.3
ff tr_points "command line -gmp_theta1_step: gmp\.theta1 has 2 grid point\(s\): the transient interpolates along theta1, expected at least 3" 1 -config $F -gmp_theta1_step 0.6
# slider-crank, 10 + 10 beam elements: 22 nodes x 3 DOFs = 66, less 5 joint constraints and theta: 60 >= 33 modes
ff tr_naets "command line -gmp_transient_naets: gmp\.transient\.naets with 33 deformation columns \(gmp\.nmodes\), expected at most 32" 1 -config $F -gmp_nel1 10 -gmp_nel2 10 -gmp_nmodes 33 -gmp_transient_naets true -gmp_transient_reference nonlinear
ff tr_ramp "command line -gmp_transient_ramp_hz: gmp\.transient\.ramp_hz 0\.?: expected a positive frequency" 1 -config $F -gmp_transient_ramp_hz 0
ff tr_h "command line -gmp_transient_t_end: gmp\.transient: t_end 0\.0001, h 0\.0002: expected 0 < h < t_end" 1 -config $F -gmp_transient_t_end 1e-4
# a t_end of 9.2e18 s: a step count beyond 1e9 (and beyond PetscInt), refused before the sweep
ff tr_steps "command line -gmp_transient_t_end: gmp\.transient: t_end 9\.2[0-9]*e\+18 / h 0\.0002 = 4\.6[0-9]*e\+22 steps, expected at most 1e9" 1 -config $F -gmp_transient_t_end 9223372036854775808
# arm3d: the elevation's start against the theta2 grid [0, 1.2] (the yaw held), the yaw's against theta1 [0, 0.8]
ff tr_arm_theta0 "command line -gmp_transient_theta0: gmp\.transient\.theta0 = 2\.?: outside the gmp\.theta2 grid \[0\.?, 1\.2\]" 2 -config $C/arm3d_gmp_transient.yaml -gmp_nel1 4 -gmp_nel2 4 -gmp_transient_theta0 2
ff tr_arm_yaw0 "command line -gmp_transient_yaw0: gmp\.transient\.yaw0 0\.9: expected inside the gmp\.theta1 grid \(0\.?, 0\.8\)" 1 -config $C/arm3d_gmp_transient_yaw.yaml -gmp_nel1 4 -gmp_nel2 4 -gmp_transient_yaw0 0.9
# pmor: the ring of tests/data/pmor (48 nodes x 3 DOFs = 144): 144 modes and a static mode exceed them
cp $ROOT/tests/data/pmor/ring.yaml . && /usr/bin/python3 $ROOT/tests/data/pmor/ring_gen.py . > /dev/null
sed 's/nmodes: 12/nmodes: 144/' ring.yaml > ring144.yaml
ff pmor_nmodes "ring144\.yaml:14: pmor\.nmodes = 144: the model has 144 DOFs, expected at most 143" 2 -config $T/ring144.yaml
# a checkpoint placed by its key where it cannot be written: refused at set-up, not when the sweep starts writing
ff ckpt_gmp "command line -gmp_checkpoint: gmp\.checkpoint = '$NOPE/c\.h5': directory '$NOPE' does not exist" 2 -config $ROOT/tests/data/fuzz/gmp.yaml -gmp_checkpoint $NOPE/c.h5
ff ckpt_pmor "command line -pmor_checkpoint: pmor\.checkpoint = '$NOPE/c\.h5': directory '$NOPE' does not exist" 1 -config $T/ring.yaml -pmor_checkpoint $NOPE/c.h5
ff ckpt_pmor_frf "command line -pmor_frf_checkpoint: pmor\.frf\.checkpoint = '$NOPE/f\.h5': directory '$NOPE' does not exist" 1 -config $T/ring.yaml -pmor_frf_checkpoint $NOPE/f.h5
# ss: a step longer than the simulated time (no step: the histories were empty)
ff ss_h "ss\.yaml:[0-9]+: ss\.sim\.h = 2\.?, ss\.sim\.t_end = 0\.05: no step fits, expected h <= t_end" 1 -config $ROOT/tests/data/fuzz/ss.yaml -ss_sim_h 2
# sysred: the output's directory and the files it reads, before any of them is read
/usr/bin/python3 $ROOT/tests/data/sysred/randsys.py sys.h5 > /dev/null
printf 'job: sysred\noutput: out.h5\nsysred:\n  source: nosys.h5\n  group: /stable\n  order: 4\n' > sr_nosrc.yaml
sed 's/nosys.h5/sys.h5/' sr_nosrc.yaml > sr.yaml
ff sr_out "command line -output: output = '$NOPE/x\.h5': directory '$NOPE' does not exist" 1 -config $T/sr.yaml -output $NOPE/x.h5
ff sr_source "sr_nosrc\.yaml:4: sysred\.source = 'nosys\.h5': cannot read '.*nosys\.h5' \(No such file or directory\), expected a readable file" 1 -config $T/sr_nosrc.yaml
ff sr_pod "command line -sysred_pod_snapshots: sysred\.pod\.snapshots = 'nosnap\.h5': cannot read" 1 -config $T/sr.yaml -sysred_method pod -sysred_order 2 -sysred_pod_snapshots nosnap.h5
ffwait
# --- the ParaView index written beside an HDF5 result (NAME.xdmf): a
# directory there is refused before the run; an index that cannot be
# written at the end (its temporary name taken by a directory) ends every
# rank with one line on 3 ranks, not the -error_wait abort ("not every
# rank"); the HDF5 result is complete by then and stays
mkdir -p xdmf/out.xdmf
rc=0; (cd xdmf && timeout 300 $MPIEXEC -n 2 $DYNRED -config $J/small_plate.yaml -output out.h5 > ../xdmf.log 2>&1) || rc=$?
[ $rc -ne 0 ] || { echo "xdmf: exit 0 with out.xdmf a directory"; exit 1; }
[ $rc -ne 124 ] || { echo "xdmf: hung (killed after 300 s)"; cat xdmf.log; exit 1; }
san_reject xdmf $rc xdmf.log
grep -q "^dynred: error: command line -output: output = 'out.h5': its ParaView index 'out.xdmf' is a directory, expected a file name or nothing there" xdmf.log || { cat xdmf.log; echo "xdmf: message"; exit 1; }
test "$(ls -A xdmf)" = out.xdmf
rm -rf xdmf && mkdir -p xdmf/out.xdmf.tmp
rc=0; (cd xdmf && timeout 300 $MPIEXEC -n 3 $DYNRED -config $J/small_plate.yaml -output out.h5 > ../xdmf3.log 2>&1) || rc=$?
[ $rc -ne 0 ] || { echo "xdmf3: exit 0 with out.xdmf.tmp a directory"; exit 1; }
[ $rc -ne 124 ] || { echo "xdmf3: hung (killed after 300 s)"; cat xdmf3.log; exit 1; }
san_reject xdmf3 $rc xdmf3.log
grep -q "^dynred: error: out.xdmf.tmp: cannot write the ParaView index of out.h5 (Is a directory), expected a writable file path" xdmf3.log || { cat xdmf3.log; echo "xdmf3: message"; exit 1; }
test "$(grep -c '^dynred: error' xdmf3.log)" = 1
if grep -q "not every rank" xdmf3.log; then cat xdmf3.log; echo "xdmf3: the index's failure on rank 0 ended in the -error_wait abort"; exit 1; fi
test -e xdmf/out.h5
test ! -e xdmf/out.xdmf
echo "ok xdmf: a directory at the index refused before the run; its late failure one line on 3 ranks"
echo "all fail-fast cases ok"
