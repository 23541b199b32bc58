#!/usr/bin/env bash
# make bench: every benchmark, tables to stdout and bench/results/*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 bench/modal_bench.py "$@"
bash bench/gmp_bench.sh
/usr/bin/python3 bench/ga_bench.py
/usr/bin/python3 bench/ss_rtf.py
