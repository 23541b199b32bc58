#!/usr/bin/env bash
# scripts/compare_results.py, the before/after comparator of
# scripts/compare-results.sh, on doctored copies of one small CMS result
# (tests/data/cms/beam.yaml, 2 parts, verify on):
#  - a file against itself and against a copy with mode signs flipped (a
#    column of /cms/modes with its /cms/shapes/NNNN and /verify/
#    cross_orthogonality column, a modal coordinate of /cms/reduced/K, M as
#    row and column): "same";
#  - a frequency moved by 1e-9 relative, a mode shape by 1e-5, the largest reduced K
#    entry by 1e-9, a dataset removed, an integer changed: each "DIFFERENT"
#    (exit 1) naming the dataset;
#  - a timing attribute and the version changed: still "same".
set -euo pipefail
cd "$T"
$DYNRED -config $ROOT/tests/data/cms/beam.yaml -output a.h5 > a.log
C="/usr/bin/python3 $ROOT/scripts/compare_results.py"
$C a.h5 a.h5 | tail -1 | grep -qx same
doctor() { # name python-statements (f: the copy, opened r+)
  cp a.h5 "$1.h5"
  /usr/bin/python3 -c "
import h5py, numpy as np
f = h5py.File('$1.h5', 'r+')
$2
f.close()"
}
doctor flip '
k = 2
f["/cms/modes"][:, k] = -f["/cms/modes"][:, k]
d = f["/cms/shapes/%04d" % (k + 1)]; d[...] = -d[()]
x = f["/verify/cross_orthogonality"]; v = x[()]; v[:, k] = -v[:, k]; x[...] = v
nb = f["/cms/reduced"].attrs["n_boundary"]; j = nb + 3
for n in ("K", "M"):
    a = f["/cms/reduced/" + n][()]; a[j, :] = -a[j, :]; a[:, j] = -a[:, j]; f["/cms/reduced/" + n][...] = a
f["/timing"].attrs["cms_total"] = 123.0
f.attrs["dynred_version"] = np.bytes_("9.9.9")'
$C a.h5 flip.h5 > flip.out || { cat flip.out; exit 1; }
tail -1 flip.out | grep -qx same
grep -q "equal up to row/column signs" flip.out
bad() { # name expected-dataset python
  doctor "$1" "$3"
  if $C a.h5 "$1.h5" > "$1.out"; then echo "$1: not detected"; cat "$1.out"; exit 1; fi
  grep -q "DIFF: .*$2" "$1.out" || { echo "$1: $2 not named"; cat "$1.out"; exit 1; }
}
# tol: each planted change is 10x above scripts/compare_results.py's tolerance for its kind
# (frequencies 1e-10 relative, reduced matrices 1e-10 of the dataset's max, mode shapes 1e-6
# relative), so "DIFFERENT" is the only correct answer
bad freq /cms/frequencies_hz 'd = f["/cms/frequencies_hz"]; v = d[()]; v[4] *= 1 + 1e-9; d[...] = v'
bad shape /cms/modes 'd = f["/cms/modes"]; v = d[()]; v[:, 5] += 1e-5 * np.abs(v[:, 5]).max(); d[...] = v'
bad redK /cms/reduced/K 'd = f["/cms/reduced/K"]; v = d[()]; i = np.argmax(np.abs(v)); v.flat[i] *= 1 + 1e-9; d[...] = v'
bad gone /verify/mac 'del f["/verify/mac"]'
bad int /cms/labels 'd = f["/cms/labels"]; v = d[()]; v[0, 0] += 1; d[...] = v'
echo ok
