#!/usr/bin/env bash
# The README stays a front door and its links lead somewhere:
#  1. README.md has at most 300 lines (the reference material lives in
#     docs/, one page per subcommand; the README's target is about 250);
#  2. every docs/NAME.md the README names (as a link target or in the text)
#     exists, and every page of docs/ is named by the README (a page no
#     link reaches is a page no reader finds);
#  3. every relative .md link inside docs/*.md resolves from docs/;
#  4. every benchmark section that code, tests, scripts, configs, jobs,
#     DESIGN.md or docs/ cite as bench/README.md "SECTION" is a heading of
#     bench/README.md (the sections are cited by name).
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
# 4. bench/README.md "SECTION" (also wrapped over a line break, or as
# `bench/README.md, section NAME)` inside a help string)
/usr/bin/python3 - "$ROOT" <<'PY' || bad=1
import os, re, sys
root = sys.argv[1]
heads = {l[3:].strip() for l in open(os.path.join(root, "bench/README.md")) if l.startswith("## ")}
pat = re.compile(r'bench/README(?:\.md)?(?:\]\(\.\./bench/README\.md\))?,?\s*(?:[#*]\s*)?(?:"((?:[^"\\]|\\.)+?)"|section ([^)]+)\))')
n = bad = 0
for top in ("src", "include", "tests", "scripts", "bench", "configs", "jobs", "docs", "DESIGN.md"):
    base = os.path.join(root, top)
    files = [base] if os.path.isfile(base) else [os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs]
    for f in files:
        if f.endswith(("bench/README.md", "tests/e2e/readme_docs.sh")) or "/results/" in f and not f.endswith((".sh", ".txt")):
            continue
        try:
            text = open(f, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        for m in pat.finditer(text):
            name = re.sub(r"\s*\n\s*[#*]?\s*", " ", m.group(1) or m.group(2)).strip()
            n += 1
            if name not in heads:
                print(f"FAIL: {os.path.relpath(f, root)} cites bench/README.md section '{name}', not a heading there")
                bad = 1
if not bad:
    print(f"ok {n} bench/README.md section references")
sys.exit(bad)
PY
exit $bad
