#!/usr/bin/env bash
# expect.sh PATTERN COMMAND...: the command must FAIL (non-zero exit) and its
# output must contain PATTERN (grep -E).  Used for the bad-input tests: one
# clear line naming the file, entry and expectation.
pat=$1; shift
out=$("$@" 2>&1); rc=$?
if [ $rc -eq 0 ]; then echo "expected failure, got exit 0:"; echo "$out"; exit 1; fi
if ! grep -qE -- "$pat" <<<"$out"; then echo "exit $rc but message lacks /$pat/:"; echo "$out"; exit 1; fi
echo "ok: exit $rc: $(grep -E -- "$pat" <<<"$out" | head -1)"
