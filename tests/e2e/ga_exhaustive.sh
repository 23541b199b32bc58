#!/usr/bin/env bash
# The GA's front equals the exact Pareto front of an exhaustive search: the
# bicycle frame with the candidates restricted to nodes 7 8 10 11 20 (10
# genes, 1024 master sets, every 1-of-N and 2-of-N addition among them),
# each set condensed by an independent numpy implementation (Guyan with
# K_ss, and one IDC step as span(Q^2 E_m)).
set -euo pipefail
cd "$T"
for m in guyan idc; do
  $DYNRED ga -config $ROOT/configs/bicycle_frame_ga.yaml -output $m.h5 -ga_candidate_nodes 7,8,10,11,20 \
    -ga_population 40 -ga_generations 200 -ga_stall_generations 50 -ga_method $m -ga_progress_every 50 > $m.log
  /usr/bin/python3 $ROOT/tests/e2e/ga_check.py exhaustive $m.h5 $m
done
