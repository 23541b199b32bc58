#!/usr/bin/env bash
# make bench: every benchmark, tables to stdout and bench/results/*.md.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 bench/modal_bench.py "$@"
