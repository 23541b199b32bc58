#!/usr/bin/env bash
# Largest source files and functions of src/ (issue 12's size targets: no file
# above ~700 lines, no function above ~150).  Needs Universal Ctags (Debian
# package universal-ctags) for the function lengths.
#   bash scripts/code-size.sh [N]     N rows of each list (default 10)
set -eu
cd "$(dirname "$0")/.."
n=${1:-10}
echo "largest files (lines):"
find src -name '*.c' -o -name '*.h' | xargs wc -l | grep -v ' total$' | sort -rn | head -n "$n" | sed 's/^/  /'
if command -v ctags >/dev/null; then
  echo "largest functions (lines):"
  ctags -x --c-kinds=f --fields=+ne --_xformat='%N %F %n %e' -o - $(find src -name '*.c') 2>/dev/null |
    awk '{printf "  %5d %s:%s %s\n", $4 - $3 + 1, $2, $3, $1}' | sort -rn | head -n "$n"
  over=$(ctags -x --c-kinds=f --fields=+ne --_xformat='%N %F %n %e' -o - $(find src -name '*.c') 2>/dev/null | awk '$4 - $3 + 1 > 150' | wc -l)
  echo "functions above 150 lines: $over"
fi
echo "files above 700 lines: $(find src -name '*.c' | xargs wc -l | grep -v ' total$' | awk '$1 > 700' | wc -l)"
