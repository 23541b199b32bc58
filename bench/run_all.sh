#!/usr/bin/env bash
# make bench: every benchmark, tables to stdout and bench/results/*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 bench/modal_bench.py "$@"
# CMS against the full model (issue 13): the built-in plates and the
# CalculiX bar, 20 and 200 modes, 2 ranks (decks and jobs in the workdir)
/usr/bin/python3 bench/cms_bench.py --cases plate50k,plate200k,ccxbar50k --modes 20,200 --ranks 2 --workdir /tmp/dynred-bench --out bench/results/cms.md
# the bar's 1/3 target in adjacent CMS / modal pairs
/usr/bin/python3 bench/cms_paired.py --pairs 5 --workdir /tmp/dynred-bench --out bench/results/cms_paired.md
bash bench/gmp_bench.sh
/usr/bin/python3 bench/ga_bench.py
/usr/bin/python3 bench/ss_rtf.py
