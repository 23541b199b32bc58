#!/usr/bin/env bash
# The load path as a node set (pmor.path_set) ordered by its coordinates
# (pmor.path_order), on a small CalculiX cylinder (scripts/ccx_cylinder.py,
# 8 x 2 C3D20R).  Sets added to the deck from its node coordinates (numpy):
# TIPHALF = the outer tip ring over half the circumference (the generator's
# own path, in the generator's order: the independent reference), TIPRING
# = the whole outer tip ring, BROKEN = TIPHALF and one node halfway down the
# cylinder; each written in shuffled order (*NSET has none anyway).
#  - chain order of TIPHALF (a set) and of a shuffled id file = the
#    generator's path, and the run equals the run with that explicit
#    pmor.path (same rows and p; full FRF bit for bit, support FRFs 1e-8);
#  - angle order of TIPRING (closed) = numpy's order by atan2 around the
#    cylinder axis (+z) from the smallest id;
#  - bad input, one line each: an empty id file, a set that is not one
#    line (BROKEN), a direction the set's nodes do not have (4: solids have
#    no rotations), both pmor.path and pmor.path_set, an unknown set.
set -euo pipefail
cd "$T"
/usr/bin/python3 "$ROOT/scripts/ccx_cylinder.py" cyl 8 2 > /dev/null
/usr/bin/python3 - <<'PY'
import numpy as np, re
rng = np.random.default_rng(7)
txt = open("cyl.inp").read()
nodes = {}
for l in txt.split("*Element")[0].splitlines()[2:]:
    i, x, y, z = l.split(",")
    nodes[int(i)] = np.array([float(x), float(y), float(z)])
ids = np.array(sorted(nodes)); X = np.array([nodes[i] for i in ids])
r, th = np.hypot(X[:, 0], X[:, 1]), np.mod(np.arctan2(X[:, 1], X[:, 0]), 2 * np.pi)
tip = (np.abs(X[:, 2] - X[:, 2].max()) < 1e-9) & (r > r.max() - 1e-9)
ring = ids[tip]
half = ids[tip & (th < np.pi + 1e-9)]
mid = ids[(np.abs(X[:, 2] - X[:, 2].max() / 2) < 1e-9) & (r > r.max() - 1e-9)][:1]
path = [int(x) for x in re.search(r"path: \[(.*)\]", open("cyl.yaml").read()).group(1).split(",")]
assert sorted(path) == sorted(half), (path, half)
order = ring[np.argsort(th[tip], kind="stable")]
np.savetxt("ring_angle.txt", order, fmt="%d")
np.savetxt("half_chain.txt", path, fmt="%d")
def nset(name, s):
    s = rng.permutation(s)
    return f"*Nset, nset={name}\n" + "".join(f"{v},\n" for v in s)
sets = nset("TIPHALF", half) + nset("TIPRING", ring) + nset("BROKEN", np.concatenate([half, mid]))
open("cyl.inp", "w").write(txt.replace("*Step", sets + "*Step"))
with open("half.ids", "w") as f:
    f.write("# the half tip ring, shuffled\n" + " ".join(map(str, rng.permutation(half))) + "  # trailing comment\n")
open("empty.ids", "w").write("# nothing\n")
PY
ccx -i cyl > ccx.log 2>&1
sed '/^  path:/d' cyl.yaml > set.yaml
R="-pmor_nmodes 8 -pmor_frf_n 4 -pmor_frf_fmin 10 -pmor_frf_fmax 300 -pmor_support_every 2"
$MPIEXEC -n 2 $DYNRED -config cyl.yaml $R -output list.h5 > list.log
$MPIEXEC -n 2 $DYNRED -config set.yaml $R -output half.h5 -pmor_path_set TIPHALF > half.log
$MPIEXEC -n 2 $DYNRED -config set.yaml $R -output file.h5 -pmor_path_set half.ids > file.log
$MPIEXEC -n 2 $DYNRED -config set.yaml $R -output ring.h5 -pmor_path_set TIPRING -pmor_path_order angle -pmor_closed 1 > ring.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
half, ring = np.loadtxt("half_chain.txt", dtype=int), np.loadtxt("ring_angle.txt", dtype=int)
L = h5py.File("list.h5", "r")["/pmor"]
for f in ("half.h5", "file.h5"):
    g = h5py.File(f, "r")["/pmor"]
    assert np.array_equal(g["path/nodes"][:], half), (f, g["path/nodes"][:], half)
    for k in ("path/rows", "path/p", "supports/p", "frf/H_full"):
        assert np.array_equal(g[k][:], L[k][:]), (f, k)
    # the support ROMs' FRFs depend only on the span of [modes | static
    # mode]; the cylinder's modes come in degenerate pairs whose basis the
    # eigensolver picks anew each run (the span to its tolerance 1e-12
    # over the relative gap to the next pair, > 1e-2 here): 1e-8
    Hs, Hl = g["frf/H_support"][:], L["frf/H_support"][:]
    d = np.abs(Hs - Hl).max() / np.abs(Hl).max()
    assert d < 1e-8, (f, d)
    print(f"{f}: chain order = the generator's path; same path, full FRF equal and support FRFs within {d:.1e} of the explicit pmor.path run")
g = h5py.File("ring.h5", "r")["/pmor"]
assert np.array_equal(g["path/nodes"][:], ring), (g["path/nodes"][:], ring)
print(f"ring.h5: angle order of {len(ring)} nodes = numpy atan2 order, period {g.attrs['period']:.4f}")
PY
one() { # PATTERN ARGS...: fails with exactly one error line matching
  pat=$1; shift
  if $MPIEXEC -n 2 $DYNRED "$@" $R -output bad.h5 > bad.log 2>&1; then echo "accepted: $*"; exit 1; fi
  grep -E "$pat" bad.log
  test "$(grep -c 'dynred: error' bad.log)" = 1
}
one "dynred: error: .*pmor.path_set 'empty.ids' has 0 node\(s\), expected at least 2" -config set.yaml -pmor_path_set empty.ids
one "pmor.path_set 'BROKEN' is not one line of nodes" -config set.yaml -pmor_path_set BROKEN
one "pmor.path node [0-9]+ has no free DOF in pmor.direction 4" -config set.yaml -pmor_path_set TIPHALF -pmor_direction 4
one "pmor.path_set and pmor.path are both given" -config cyl.yaml -pmor_path_set TIPHALF
one "pmor.path_set 'NOPE' is neither a node set of the model nor a readable file" -config set.yaml -pmor_path_set NOPE
echo ok
