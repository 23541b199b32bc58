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
#  (e) cms.cutoff_factor below 1.
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
