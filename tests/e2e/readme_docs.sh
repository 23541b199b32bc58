#!/usr/bin/env bash
# The README stays a front door and its links lead somewhere:
#  1. README.md has at most 300 lines (the reference material lives in
#     docs/, one page per subcommand; the README's target is about 250);
#  2. every docs/NAME.md the README names (as a link target or in the text)
#     exists, and every page of docs/ is named by the README (a page no
#     link reaches is a page no reader finds);
#  3. every relative .md link inside docs/*.md resolves from docs/.
# Fails with one line per problem.
set -euo pipefail
R="$ROOT/README.md"
bad=0
n=$(wc -l < "$R")
if [ "$n" -gt 300 ]; then echo "FAIL: README.md has $n lines, more than 300"; bad=1; else echo "ok README.md: $n lines (<= 300)"; fi
named=$(grep -oE 'docs/[A-Za-z0-9_.-]+\.md' "$R" | sort -u)
[ -n "$named" ] || { echo "FAIL: README.md names no docs/*.md page"; exit 1; }
for d in $named; do
  [ -f "$ROOT/$d" ] || { echo "FAIL: README.md names $d, which does not exist"; bad=1; }
done
echo "ok $(wc -w <<< "$named") docs pages named by README.md"
for f in "$ROOT"/docs/*.md; do
  grep -qxF "docs/${f##*/}" <<< "$named" || { echo "FAIL: docs/${f##*/} is not named by README.md"; bad=1; }
  # markdown links (target) to .md files, relative to docs/
  for l in $(grep -oE '\]\([^)#: ]+\.md(#[^)]*)?\)' "$f" | sed -E 's/^\]\(//; s/(#[^)]*)?\)$//' | sort -u); do
    [ -f "$ROOT/docs/$l" ] || { echo "FAIL: docs/${f##*/} links $l, which does not exist (from docs/)"; bad=1; }
  done
done
[ $bad = 0 ] && echo "ok links"
exit $bad
