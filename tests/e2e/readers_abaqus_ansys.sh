#!/usr/bin/env bash
# The abaqus and ansys component readers (components[].format abaqus, ansys;
# docs/formats.md) on files written by the test's own writer
# (tests/e2e/abaqus_ansys_ref.py, from the formats' documented layouts, not
# from the readers): a 54-DOF model of 9 six-DOF nodes (sparse and large
# node numbers, equations in a shuffled order) built in numpy, written as
#   Abaqus FORMAT=MATRIX INPUT: lower triangle (what Abaqus writes), upper,
#     square, and with D; labels taken from the node/DOF pairs;
#   Abaqus FORMAT=COORDINATE with the equations' label file, with D;
#   Ansys HBMAT RSA in (10I8) (1P,4E25.16), in one field per line with D
#     exponents and no scale factor, RUA with a right-hand side; *EXPORT
#     Matrix Market (symmetric and general), all with the mapping file.
# Each is read by test_readcomp (1 rank; 4 of them also on 3 ranks with
# 3-entry chunks; and a 1206-DOF MATRIX INPUT model, more labels than the
# reader's first label buffer)
# and compared entry by entry with the numpy K, M, D through the labels;
# `dynred modal` on each gives the same 12 frequencies (1e-10 relative) as
# on every other form and as scipy.linalg.eigh of the numpy matrices.
set -euo pipefail
cd "$T"
PY=/usr/bin/python3
REF=$ROOT/tests/e2e/abaqus_ansys_ref.py
$PY $REF write .
rc() { # prefix np format K M D DOFS
  local p=$1 np=$2; shift 2
  timeout 300 $MPIEXEC -n $np $TBIN/test_readcomp "$@" -n_ref 54 -dump $p -dr_io_chunk $([ $np = 1 ] && echo 1048576 || echo 3) > $p.log
  $PY $REF check $p . | tail -1 | grep -qx ok
  echo "$p ($np rank(s)): K, M$([ "$4" = - ] || echo ", D") equal the numpy matrices"
}
# modal jobs: one component per form
job() { # name component...
  printf 'job: modal\noutput: %s.h5\ncomponents:\n  - %s\nmodal: {nmodes: 12}\n' "$1" "$2" > $1.yaml
  timeout 300 $DYNRED -config $1.yaml > $1.log
}
# the one-rank reads and jobs side by side (tests/par.sh: two at a time on
# 2 cores; each writes and checks files of its own prefix), their reports
# in this order after them; the 3-rank reads after those
export -f rc job
export PY REF
one=("rc abq_lower 1 abaqus abq_lower_STIF1.mtx abq_lower_MASS1.mtx abq_lower_DMPV1.mtx -"
  "rc abq_upper 1 abaqus abq_upper_STIF1.mtx abq_upper_MASS1.mtx - -"
  "rc abq_dofs 1 abaqus abq_lower_STIF1.mtx abq_square_MASS1.mtx - abqc.dof"
  "rc ans1_hb 1 ansys ans1_K.matrix ans1_M.matrix - ans.mapping"
  "rc ans_hbu 1 ansys ansu_K.matrix ansu_M.matrix - ans.mapping"
  "rc abq_square1 1 abaqus abq_square_STIF1.mtx abq_square_MASS1.mtx - -"
  "rc abqc1 1 abaqus abqc_STIF1.mtx abqc_MASS1.mtx abqc_DMPV1.mtx abqc.dof"
  "rc ans_hb1 1 ansys ans_K.matrix ans_M.matrix ans_D.matrix ans.mapping"
  "rc ans_mm1 1 ansys ans_K.mtx ans_M.mtx ans_D.mtx ans.mapping"
  "timeout 300 $TBIN/test_readcomp abaqus abq_big_STIF1.mtx abq_big_MASS1.mtx - - -n_ref 1206 -dump big > big.log; $PY $REF check big . big.npz | tail -1 | grep -qx ok; echo 'abq_big: 1206 DOFs labelled from the files, K, M equal the numpy matrices'"
  "job m_abq '{name: c, format: abaqus, K: abq_lower_STIF1.mtx, M: abq_lower_MASS1.mtx}'"
  "job m_abqs '{name: c, format: abaqus, K: abq_square_STIF1.mtx, M: abq_square_MASS1.mtx, D: abq_lower_DMPV1.mtx}'"
  "job m_abqc '{name: c, format: abaqus, K: abqc_STIF1.mtx, M: abqc_MASS1.mtx, dofs: abqc.dof}'"
  "job m_hb '{name: c, format: ansys, K: ans_K.matrix, M: ans_M.matrix, D: ans_D.matrix, dofs: ans.mapping}'"
  "job m_hb1 '{name: c, format: ansys, K: ans1_K.matrix, M: ans1_M.matrix, dofs: ans.mapping}'"
  "job m_mm '{name: c, format: ansys, K: ans_K.mtx, M: ans_M.mtx, dofs: ans.mapping}'")
cmds=()
for i in "${!one[@]}"; do cmds+=("${one[$i]} > one$i.out"); done
$ROOT/tests/par.sh "${cmds[@]}"
for i in "${!one[@]}"; do cat one$i.out; done
rc abq_square3 3 abaqus abq_square_STIF1.mtx abq_square_MASS1.mtx - -
rc abqc3 3 abaqus abqc_STIF1.mtx abqc_MASS1.mtx abqc_DMPV1.mtx abqc.dof
rc ans_hb3 3 ansys ans_K.matrix ans_M.matrix ans_D.matrix ans.mapping
rc ans_mm3 3 ansys ans_K.mtx ans_M.mtx ans_D.mtx ans.mapping
printf 'job: modal\noutput: m_np3.h5\ncomponents:\n  - {name: c, format: ansys, K: ans_K.matrix, M: ans_M.mtx, dofs: ans.mapping}\nmodal: {nmodes: 12}\n' > m_np3.yaml
timeout 300 $MPIEXEC -n 3 $DYNRED -config m_np3.yaml > m_np3.log
$PY - <<'PY'
import h5py, numpy as np
fref = np.load("fref.npy")
fr = lambda n: h5py.File(n + ".h5", "r")["/modal/frequencies_hz"][:]
f0 = fr("m_abq")
for v in ("m_abq", "m_abqs", "m_abqc", "m_hb", "m_hb1", "m_mm", "m_np3"):
    f = fr(v)
    # tol: every form holds the numpy matrices to the last bit (the entry
    # checks above find 0 difference), so only the solver's rounding and
    # the rank count differ: 1e-10 relative
    assert len(f) == 12 and np.abs(f - f0).max() <= 1e-10 * f0.max(), (v, f, f0)
    # tol: scipy's eigh of the numpy matrices; SLEPc's relative residual
    # 1e-12 on this pencil (kappa(M) below 10) moves a frequency by far
    # less than 1e-10 of the largest
    assert np.abs(f - fref).max() <= 1e-10 * fref.max(), (v, f, fref)
    print(f"{v}: 12 frequencies = the other forms' ({np.abs(f - f0).max() / f0.max():.1e}) = scipy's ({np.abs(f - fref).max() / fref.max():.1e})")
PY
echo ok
