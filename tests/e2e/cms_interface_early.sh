#!/usr/bin/env bash
# Interface reduction BEFORE the projection (issue 13 item 4;
# tests/data/cms/interface.yaml: clamped plate 60 x 30 x 2 hex8 in 4 parts,
# 837 boundary DOFs, fmax 300 Hz, interface cutoff 4 x fmax).  The
# components' boundary Schur complements (MUMPS) give the CC modes, every
# component projects on them only.  References, none of them this path:
#  - the full model (/verify, SLEPc on the assembled K, M), solved once in
#    the early run (the other jobs are compared with it or with each other,
#    so they run with -verify false);
#  - the unreduced Craig-Bampton job (no interface reduction): with EVERY CC
#    mode kept the subspace is the same, so the frequencies agree to
#    round-off; truncated, the result is a Galerkin projection of it
#    (f_early >= f_cb) and of the full model (f_early >= f_full);
#  - the late path (CC modes of the assembled CB boundary blocks): the same
#    construction from another computation (full constraint modes);
#  - numpy: the written CC basis is M_G-orthonormal against the Guyan mass
#    computed from the late path's assembled boundary blocks.
# Ranks: 1, 3 (single-rank groups: MUMPS Schur) and 2 ranks in one group of
# 2 (the constraint-mode path for the pencil) agree.  The counted K_II
# solves (/timing block_solve_columns, single_solves) differ between the paths
# by exactly the boundary columns each projects on.
set -euo pipefail
cd "$T"
J=$ROOT/tests/data/cms/interface.yaml
$DYNRED -config $J -output early.h5 > early.log
timeout 300 $MPIEXEC -n 3 $DYNRED -config $J -verify false -output early3.h5 > early3.log
timeout 300 $MPIEXEC -n 2 $DYNRED -config $J -verify false -ranks_per_group 2 -output early2g.h5 > early2g.log
$DYNRED -config $J -verify false -cms_interface_early false -output late.h5 > late.log
$DYNRED -config $J -verify false -cms_interface_cutoff_factor 0 -output base.h5 > base.log
$DYNRED -config $J -verify false -cms_interface_cutoff_factor 0 -cms_interface_modes 837 -output all.h5 > all.log
grep -q "interface reduction before the projection: 837 boundary DOFs -> [0-9]* CC modes" early.log
grep -q "interface reduction before the projection: 837 boundary DOFs -> 837 CC modes" all.log
grep -E "interface reduction|cms time" early.log late.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
def rd(n):
    with h5py.File(n, "r") as f:
        d = {"f": f["/cms/frequencies_hz"][:], "est": f["/cms/error_estimate_pct"][:], "r": dict(f["/cms/reduced"].attrs)}
        if "verify" in f:  # the early run only (see the header)
            d.update(ff=f["/verify/full_frequencies_hz"][:], true=f["/verify/true_error_pct"][:], va=dict(f["/verify"].attrs))
        if "interface_modes" in f["/cms/reduced"]:
            d["V"] = f["/cms/reduced/interface_modes"][:]
            d["fcc"] = f["/cms/reduced/interface_frequencies_hz"][:]
        d["K"], d["M"] = f["/cms/reduced/K"][:], f["/cms/reduced/M"][:]
        d["t"] = dict(f["/timing"].attrs)
        d["nb"] = {k: int(g.attrs["n_boundary"]) for k, g in f["/cms/components"].items()}
        # the eigensolvers' work: single-vector solves (SLEPc) plus block-Lanczos columns (the default, src/eigen/block.c)
        d["bsc"], d["ss"] = int(f["/timing"].attrs["block_solve_columns"]), int(f["/timing"].attrs["single_solves"]) + int(f["/timing"].attrs["eigen_block_columns"])
    return d
E, E3, E2, L, B, A = (rd(n) for n in ["early.h5", "early3.h5", "early2g.h5", "late.h5", "base.h5", "all.h5"])
n = len(B["f"])
assert n >= 4 and all(len(x["f"]) == n for x in (E, E3, E2, L, A)), [len(x["f"]) for x in (E, E3, E2, L, B, A)]
# every CC mode kept = the unreduced Craig-Bampton subspace: round-off only, within the worst-case bound of two
# dense solves of this pencil, sqrt(n) u kappa_1 = 4.4e-6 (cms_exact_beam.sh)
dall = np.abs(A["f"] / B["f"] - 1).max()
assert dall < 4.4e-6, ("all CC modes vs unreduced", dall)
# truncated: Rayleigh-Ritz against the full model and Galerkin against the unreduced CMS; slack: the round-off
# bound of two solves above
d_full = E["f"] / E["ff"][:n] - 1
d_cb = E["f"] / B["f"] - 1
assert d_full.min() > -4.4e-6 and d_cb.min() > -4.4e-6, (d_full, d_cb)
assert E["va"]["rayleigh_ritz_bound_ok"] == 1, E["va"]
# early vs late: the same construction, the CC modes chosen with the finite-difference Guyan mass (relative error
# |s| / lambda_1 = 1e-3) instead of the exact one; a frequency moves by the basis change (1e-3) times the CC
# truncation error of that mode (<= 0.5 %, d_cb below): 5e-6 -> 1e-5
d_el = np.abs(E["f"] / L["f"] - 1).max()
assert d_el < 1e-5 and d_cb.max() < 5e-3, (d_el, d_cb)
# the two paths keep the same number of CC modes and (nearly) the same CC frequencies (1e-3: the mass error)
assert E["r"]["n_interface_modes"] == L["r"]["n_interface_modes"], (E["r"], L["r"])
assert np.abs(E["fcc"] / L["fcc"] - 1).max() < 1e-3, (E["fcc"], L["fcc"])
# numpy: the early CC basis is orthonormal in the exact Guyan mass M_BB of the late path's assembled system
nb = int(L["r"]["n_boundary"])
MBB, KBB = L["M"][:nb, :nb], L["K"][:nb, :nb]
V = E["V"]
assert V.shape[0] == nb, (V.shape, nb)
G = V.T @ MBB @ V
# 1e-2: M_G-normalized with the finite-difference mass (relative error 1e-3 per entry, summed over a few CC modes);
# a wrong mass (e.g. only the boundary block M_BB of M) is off by factors of 2-10
assert np.abs(G - np.eye(V.shape[1])).max() < 1e-2, np.abs(G - np.eye(V.shape[1])).max()
# and V spans the lowest eigenvectors of (K_BB, M_BB): Rayleigh quotients match the exact CC frequencies (1e-3)
lam = sl.eigh(KBB, MBB, eigvals_only=True, subset_by_index=[0, V.shape[1] - 1])
fq = np.sqrt(np.abs(lam)) / (2 * np.pi)
assert np.abs(E["fcc"] / fq - 1).max() < 1e-3, (E["fcc"], fq)
# ranks: the same CC modes and frequencies on 1, 3 ranks and a 2-rank group (4.4e-6: the round-off bound of two
# solves above; the 2-rank group computes the pencil exactly instead of by finite differences, so it agrees with
# the late path)
assert np.abs(E3["f"] / E["f"] - 1).max() < 4.4e-6, (E3["f"], E["f"])
assert np.abs(E2["f"] / L["f"] - 1).max() < 4.4e-6, (E2["f"], L["f"])
# the error estimate covers the interface truncation: estimate >= true error (slack 4.4e-4 %: the round-off bound
# of the two solves above, 4.4e-6 relative)
assert np.all(E["est"] >= E["true"] - 4.4e-4), (E["est"], E["true"])
tight = E["est"] / np.maximum(E["true"], 1e-12)
# the K_II solves counted (/timing block_solve_columns): each component solves one column per boundary coordinate
# it projects on (constraint modes: n_boundary of base.h5; interface basis: ncc), plus the estimate's residual
# columns, which two jobs with the same frequencies share; so the differences are exact:
#  - all CC modes kept vs unreduced: sum over components of (837 - n_boundary);
#  - a 2-rank group (the pencil from all n_boundary constraint modes, then no solve for the basis) vs one rank
#    (ncc columns per component: the pencil from MUMPS Schur complements, no solve)
assert A["bsc"] - B["bsc"] == sum(A["nb"][k] - B["nb"][k] for k in B["nb"]), (A["bsc"], B["bsc"], A["nb"], B["nb"])
assert E2["bsc"] - E["bsc"] == sum(B["nb"][k] - E["nb"][k] for k in B["nb"]), (E2["bsc"], E["bsc"], B["nb"], E["nb"])
assert E3["bsc"] == E["bsc"], (E3["bsc"], E["bsc"])
# the component eigensolves do not depend on the interface treatment: the same eigensolver solves
# (counted on one rank per group; 1 rank and 3 single-rank groups run the same solves)
assert B["ss"] > 0 and A["ss"] == B["ss"] == E["ss"] == E3["ss"], (B["ss"], A["ss"], E["ss"], E3["ss"])
print(f"K_II solve columns: unreduced {B['bsc']}, all CC {A['bsc']}, early {E['bsc']} (2-rank group {E2['bsc']}); single solves {B['ss']}")
# cost: the projection runs on ncc + nq columns instead of nb + nq
pe, pl = E["t"]["constraint_modes"] + E["t"]["projection"], L["t"]["constraint_modes"] + L["t"]["projection"]
print(f"all CC kept vs unreduced {dall:.1e}; early vs late {d_el:.1e}; CC truncation max {d_cb.max() * 100:.4f} %; "
      f"estimate/true median {np.median(tight):.2f} max {tight.max():.2f}; constraint+projection {pe:.2f} s (late {pl:.2f} s)")
print("ok")
PY
