#!/usr/bin/env bash
# What CI and every new user do: clone the committed state of this repository
# into a temporary directory and run the README's test command there.
# Uncommitted changes are not part of the clone (commit first).
#   bash scripts/fresh-check.sh [make target, default: check]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/dynred-fresh.XXXXXX)
trap 'rm -rf "$dir"' EXIT
git clone -q "$src" "$dir/dynred"
# shared/ sits beside the repository on CI; the clone gets the same view
[ -d "$src/../shared" ] && ln -s "$(cd "$src/../shared" && pwd)" "$dir/shared"
cd "$dir/dynred"
echo "fresh clone of $(git rev-parse --short HEAD) in $dir/dynred"
make "${1:-check}"
