#!/usr/bin/env bash
# dynred's command line: help lists subcommands and keys with defaults,
# options override the job file, and every bad input is one line naming the
# file, entry and expectation with a non-zero exit.
set -euo pipefail
cd "$ROOT"
J=tests/data/jobs
E=tests/expect.sh
$DYNRED help > "$T/help.txt"
grep -q "modal .*reference modal analysis" "$T/help.txt"
grep -q "model.plate.nx .*-model_plate_nx .*<40>" "$T/help.txt"
# ranges and units from the schema; deprecated keys name their replacement
grep -q "ranks_per_group .*-ranks_per_group .*<0> .*(int) \[0\.\.\]" "$T/help.txt"
grep -q "farm.progress .*-farm_progress .*<5> .*(real) \[0\.\.\] (s)" "$T/help.txt"
grep -q "farm.group_size .*-farm_group_size .*deprecated: read as ranks_per_group (-ranks_per_group)" "$T/help.txt"
$DYNRED -config $J/small_plate.yaml -output "$T/h.h5" -help > "$T/help2.txt" 2>&1
grep -q -- "-modal_nmodes <now 12 : formerly 12>" "$T/help2.txt"  # the file value is current
grep -q -- "-modal_eps_type" "$T/help2.txt"       # SLEPc's own options, with the stage prefix
echo "ok help"
# a deprecated key: one warning line naming both keys; both keys: an error
{ cat $J/small_plate.yaml; printf 'farm:\n  group_size: 1\n'; } > "$T/dep.yaml"
{ cat "$T/dep.yaml"; printf 'ranks_per_group: 2\n'; } > "$T/both.yaml"
($DYNRED frobnicate -config "$T/dep.yaml" 2>&1 || true) > "$T/dep.txt"
grep -q "^dynred: warning: $T/dep.yaml:11: 'farm.group_size' is deprecated, read as 'ranks_per_group'\$" "$T/dep.txt"
$E "both.yaml:12: both 'ranks_per_group' and 'farm.group_size' \(line 11\) given; expected only 'ranks_per_group'" $DYNRED -config "$T/both.yaml"
echo "ok deprecated"
$E "bad_key.yaml:5: unknown key 'modal.nmodez'; expected one of: .*nmodes" $DYNRED -config $J/bad_key.yaml
$E "bad_value.yaml:6: modal.fmax = 'fast' is not a number" $DYNRED -config $J/bad_value.yaml
$E "bad_builtin.yaml:3: model.builtin = 'plat', expected plate" $DYNRED -config $J/bad_builtin.yaml
$E "bad_yaml.yaml:[0-9]+: .*expected valid YAML" $DYNRED -config $J/bad_yaml.yaml
$E "nonexistent.yaml: cannot read job file" $DYNRED -config $J/nonexistent.yaml
$E "unknown job 'frobnicate'" $DYNRED frobnicate -config $J/small_plate.yaml
$E "5000 modes requested but the model has only 2808 DOFs" $DYNRED -config $J/small_plate.yaml -modal_nmodes 5000 -output "$T/x.h5"
$E "command line -output: output = '/nonexistent-dir/x.h5': directory '/nonexistent-dir' does not exist" $DYNRED -config $J/small_plate.yaml -output /nonexistent-dir/x.h5
# a rejected job leaves nothing behind
ls "$T" | grep -q "x.h5" && { echo "output left behind after an error"; exit 1; }
# the error is one line (plus nothing else on stderr)
n=$( ($DYNRED -config $J/bad_key.yaml 2>&1 >/dev/null || true) | wc -l)
[ "$n" -eq 1 ] || { echo "error message is $n lines, expected 1"; exit 1; }
echo "ok errors"
