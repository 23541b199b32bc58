#!/usr/bin/env bash
# dynred ga input errors: one line naming the file and entry, exit 1, no
# output left behind.
set -euo pipefail
cd "$T"
E=$ROOT/tests/expect.sh
C=$ROOT/configs/bicycle_frame_ga.yaml
oneline() { local n; n=$( ($DYNRED "$@" 2>&1 >/dev/null || true) | wc -l); [ "$n" -eq 1 ] || { echo "error message is $n lines, expected 1: $*"; exit 1; }; }
$E "bicycle_frame_ga\.yaml:[0-9]+: ga\.forced_masters entry '99H' \(99\.1\) is not a DOF of the model" $DYNRED ga -config $C -output o.h5 -ga_forced_masters 15H,99H
oneline ga -config $C -output o.h5 -ga_forced_masters 15H,99H
$E "ga\.forced_masters entry '15Q' is not a DOF label, expected NODE followed by H, V" $DYNRED ga -config $C -output o.h5 -ga_forced_masters 15Q
oneline ga -config $C -output o.h5 -ga_forced_masters 15Q
$E "ga\.forced_masters lists '15H' twice" $DYNRED ga -config $C -output o.h5 -ga_forced_masters 15H,15H
$E "command line -ga_mutation: ga\.mutation = 2, expected 0\.\.1" $DYNRED ga -config $C -output o.h5 -ga_mutation 2
$E "ga\.method = 'serep', expected idc, irs or guyan" $DYNRED ga -config $C -output o.h5 -ga_method serep
$E "ga\.population = 7, expected an even number >= 4" $DYNRED ga -config $C -output o.h5 -ga_population 7
$E "no mode of the model reaches 3 x ga\.fmax" $DYNRED ga -config $C -output o.h5 -ga_fmax 1e6
left=$(ls | grep -E "\.h5|\.tmp|\.csv" || true)
[ -z "$left" ] || { echo "output left behind: $left"; exit 1; }
echo ok
