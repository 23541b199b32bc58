#!/usr/bin/env bash
# CMS input errors: one line naming what was found and what was expected,
# non-zero exit, no output file left behind (tests/expect.sh).
#  (a) a component sharing no label with any other (two chains, nodes 1..10
#      and 11..20);
#  (b) an interface DOF free in one part and constrained (absent) in the
#      other (node 5: directions 1, 2 in part a, only 1 in part b);
#  (c) interior DOFs floating once the boundary is fixed (part b's nodes
#      16..20 hang on nothing): K_II singular, the message names exactly the
#      floating DOFs 16.1 .. 20.1; also on 2 ranks, where parts a and b are
#      reduced on separate rank groups and only b's group fails: the job
#      must end (not hang) with the same message;
#  (d) an unknown reduction method;
#  (e) cms.cutoff_factor below 1;
#  (f) an interface pencil that is not semidefinite, on 1, 2 and 3 ranks.
# Data: tests/data/cms/chain_gen.py errors; jobs: tests/data/cms/*.yaml.
set -euo pipefail
cd "$T"
E=$ROOT/tests/expect.sh
D=$ROOT/tests/data/cms
/usr/bin/python3 $D/chain_gen.py errors .
for s in disjoint constrained floating; do cp $D/two_mtx.yaml $s/job.yaml; done
# a job that hangs is killed after 120 s and counts as exit 0, so expect.sh
# fails it
nohang() { local rc=0; timeout 120 "$@" || rc=$?; if [ $rc -eq 124 ]; then echo "hung (killed after 120 s): $*"; return 0; fi; return $rc; }
export -f nohang
oneline() { # the error is one line on stderr (1 rank)
  local n; n=$( ($DYNRED "$@" 2>&1 >/dev/null || true) | wc -l)
  [ "$n" -eq 1 ] || { echo "error message is $n lines, expected 1: $*"; exit 1; }
}
$E "components 'a', 'b' share no DOF label with any other component" $DYNRED -config disjoint/job.yaml
oneline -config disjoint/job.yaml
$E "interface DOF 5\.2 is free in component 'a' but constrained \(absent\) in component 'b', which shares node 5" $DYNRED -config constrained/job.yaml
oneline -config constrained/job.yaml
pat="b_K\.mtx: component 'b': interior DOFs float when the boundary is fixed .*K_II singular.*moving most: 16\.1, 17\.1, 18\.1, 19\.1, 20\.1;"
$E "$pat" $DYNRED -config floating/job.yaml
oneline -config floating/job.yaml
$E "unknown reduction method 'xyz'; known: .*craig-bampton" $DYNRED -config $D/bad_method.yaml -output m.h5
oneline -config $D/bad_method.yaml -output m.h5
$E "bad_cutoff\.yaml:[0-9]+: cms\.cutoff_factor = 0\.5, expected >= 1" $DYNRED -config $D/bad_cutoff.yaml -output c.h5
oneline -config $D/bad_cutoff.yaml -output c.h5
# nothing left behind by the rejected jobs
left=$(ls disjoint constrained floating . | grep -E "\.h5|\.tmp" || true)
[ -z "$left" ] || { echo "output left behind: $left"; exit 1; }
echo "ok on 1 rank"
# (c) on 2 ranks: part b on group 1 alone
$E "$pat" nohang $MPIEXEC -n 2 $DYNRED -config floating/job.yaml
echo "ok on 2 ranks"
# (f) an interface pencil that is not semidefinite (the fuzz corpus' two
# chains, part b's boundary stiffness K(5.1, 5.1) = -50000: K_II stays
# definite, the boundary Schur complement does not), with the interface
# reduced before the projection (cms.fmax): the root's CC solve fails; on 2
# and 3 ranks that is one line on every rank and an exit, where the other
# ranks used to wait in a broadcast while the root waited in a barrier
mkdir -p indef && cp $ROOT/tests/data/fuzz/{a_K.mtx,a_M.mtx,b_K.mtx,b_M.mtx,a.dof,b.dof} indef/
sed -i 's/^1 1 13000$/1 1 -50000/' indef/b_K.mtx
grep -q "^1 1 -50000$" indef/b_K.mtx
printf 'job: cms\noutput: indef.h5\ncomponents:\n  - {name: a, format: mtx, K: a_K.mtx, M: a_M.mtx, dofs: a.dof}\n  - {name: b, format: mtx, K: b_K.mtx, M: b_M.mtx, dofs: b.dof}\ncms: {fmax: 100}\n' > indef/job.yaml
for n in 1 2 3; do
  $E "reduced stiffness matrix is not positive semidefinite.*expected a semidefinite K" nohang $MPIEXEC -n $n $DYNRED -config indef/job.yaml
  left=$(ls -d indef/indef.h5 indef/indef.h5.tmp.* indef.h5 indef.h5.tmp.* 2>/dev/null || true)
  [ -z "$left" ] || { echo "output left behind: $left"; exit 1; }
done
echo "ok: an indefinite interface pencil on 1, 2, 3 ranks"
