#!/usr/bin/env bash
# docs/tutorial.md, run exactly as written (issue 17 item 7): every fenced
# ```sh block of the tutorial, in order, in one shell, from a fake home
# whose ~/dynred is this checkout (bin/dynred -> the dynred under test,
# scripts/ and docs/ of this tree), so the document cannot rot.  Then the
# numbers against independent references:
#  - CMS frequencies against CalculiX's own *FREQUENCY on the whole-bar deck
#    (parsed here from bar_full.dat), as in cms_calculix.sh;
#  - bar.dmig read by the small DMIG parser below (written from the format:
#    large field, 16-character fields, IFO=6 upper triangle) equals
#    /cms/reduced/K, M of bar.h5 to print precision, its GRID rows are the
#    boundary labels, and its K, M (scipy) give the CMS frequencies;
#  - the poles of the state space's A (scipy eig) have |s| = 2 pi f_CMS and
#    damping ratio 0.02 (ss.yaml);
#  - the balanced truncation's frequency-response error (numpy, on a grid)
#    is below the bound 2 sum of the discarded Hankel values computed here
#    by scipy (Lyapunov equations, square-root method);
#  - every figure the tutorial lists is a non-empty PNG.
set -euo pipefail
cd "$T"
doc=$ROOT/docs/tutorial.md
mkdir -p home/dynred/bin
ln -s "$DYNRED" home/dynred/bin/dynred
ln -s "$ROOT/scripts" home/dynred/scripts
ln -s "$ROOT/docs" home/dynred/docs
awk '/^```sh$/ {on = 1; next} /^```/ {on = 0} on' "$doc" > cmds.sh
# the steps the tutorial promises are in the blocks that run
for want in 'ccx_bar_parts.py' 'ccx -i' 'dynred -config bar.yaml' 'dynred export -config' 'dynred ss -config' \
            'dynred sysred -config' 'dynred_plot.py bar.h5' 'dynred_plot.py bar_sysred.h5'; do
  grep -qF "$want" cmds.sh || { echo "docs/tutorial.md: no command '$want' in its sh blocks"; exit 1; }
done
HOME=$T/home timeout 600 bash -euo pipefail cmds.sh > cmds.log 2>&1 || { cat cmds.log; exit 1; }
cat cmds.log
W=$T/home/dynred-tutorial
cd "$W"
grep -q "Rayleigh-Ritz bound f_reduced >= f_full: holds" cms.log
/usr/bin/python3 - <<'PY'
import csv, h5py, numpy as np, scipy.linalg as sl

# --- CalculiX's frequencies of the whole bar (bar_full.dat, EIGENVALUE OUTPUT)
ref, on = [], False
for line in open("bar_full.dat"):
    if "E I G E N V A L U E   O U T P U T" in line:
        on = True
        continue
    p = line.split()
    if on and len(p) == 5 and p[0].isdigit():
        ref.append(float(p[3]))            # MODE NO, EIGENVALUE, OMEGA [rad/time], [cycles/time], IMAG
    elif on and ref and not p:
        break
ref = np.array(ref)
with h5py.File("bar.h5", "r") as f:
    fc = f["/cms/frequencies_hz"][:]
    ff = f["/verify/full_frequencies_hz"][:len(fc)]
    K, M = f["/cms/reduced/K"][:], f["/cms/reduced/M"][:]
    bl = f["/cms/reduced/boundary_labels"][:]
    nmodal = int(f["/cms/reduced"].attrs["n_modal"])
assert len(fc) == 8 and len(ref) == 8, (fc, ref)
d = (fc - ref) / ref
print("CMS vs CalculiX whole deck [%]:", np.round(100 * d, 5))
# 0.5 %: the project's CMS accuracy target (cms.verify_tol_pct default), a truncation claim
assert d.max() < 0.005, d
# Rayleigh-Ritz (CMS >= exact) against CalculiX's 7 printed digits: rounding <= 5e-7 relative, so 1e-6
assert d.min() > -1e-6, d
# dynred's full solve vs CalculiX: same matrices, 7 printed digits (5e-7) and CalculiX's own solver: 1e-5 as cms_calculix.sh
assert np.max(np.abs(ff - ref) / ref) < 1e-5, (ff, ref)

# --- the DMIG superelement, read from the format description
def fields(line):                          # large field: 8-character card, then 16-character fields
    return [line[8 + 16 * k: 24 + 16 * k].strip() for k in range(4)]
mats, spoints, cur = {}, [], None
lines = [l.rstrip("\n") for l in open("bar.dmig")]
for i, l in enumerate(lines):
    if l.startswith("$"):
        continue
    if l.startswith("SPOINT"):
        p = l.split()
        assert p[2] == "THRU", l
        spoints.append((int(p[1]), int(p[3])))
    elif l.startswith("DMIG*"):
        name, g, c, x = fields(l)
        if g == "0":                       # header: NAME 0 IFO TIN / * TOUT
            assert c == "6" and x == "2" and fields(lines[i + 1])[0] == "2", (l, lines[i + 1])
            mats[name] = {}
            cur = None
        else:
            cur = mats[name].setdefault((int(g), int(c)), {})
    elif l.startswith("*") and cur is not None:
        g, c, v, _ = fields(l)
        cur[(int(g), int(c))] = float(v.replace("D", "E"))
rows = [r for r in csv.reader(l for l in open("bar.dmig.map.csv") if not l.startswith("#"))][1:]
n, nb = K.shape[0], K.shape[0] - nmodal
assert len(rows) == n and [(int(r[2]), int(r[3])) for r in rows[:nb]] == [tuple(x) for x in bl], "map GRID rows"
assert all(r[1] == "spoint" and r[3] == "0" for r in rows[nb:]) and spoints == [(int(rows[nb][2]), int(rows[-1][2]))], spoints
key = {(int(r[2]), int(r[3])): k for k, r in enumerate(rows)}
R = {}
for nm, A in (("KAAX", K), ("MAAX", M)):
    U = np.zeros((n, n))
    for gc, col in mats[nm].items():
        for gci, v in col.items():
            U[key[gci], key[gc]] = v
    up = np.triu(A)
    # 16-character fields hold 10 significant digits: each entry to 5e-10 relative; zeros left out exactly
    assert np.all((U == 0) == (up == 0)) and np.all(np.abs(U - up) <= 5e-10 * np.abs(up)), nm
    R[nm] = U + np.triu(U, 1).T
lam = sl.eigh(R["KAAX"], R["MAAX"], eigvals_only=True, subset_by_index=[0, 7])
fd = np.sqrt(lam) / (2 * np.pi)
# tol: entries off by eta <= 5e-10 relative move lambda_i, to first order, by x^T (dK - lambda dM) x
# (x M-normalized, here from scipy on the HDF5 K, M), so by at most eta (|x|^T |K| |x| + lambda |x|^T |M| |x|):
# a bound per mode from the cancellation in x^T K x; 2x for the second-order terms, half of it in frequency
lh, X = sl.eigh(K, M, subset_by_index=[0, 7])
ax = np.abs(X)
tolf = 0.5 * 2 * 5e-10 * (np.einsum("ik,ij,jk->k", ax, np.abs(K), ax) + lh * np.einsum("ik,ij,jk->k", ax, np.abs(M), ax)) / lh
relf = np.abs(fd - fc) / fc
print(f"DMIG K, M: {n} x {n}; frequencies vs CMS: relative {relf.max():.1e}, bound per mode {tolf.min():.1e} .. {tolf.max():.1e}")
assert np.all(relf <= tolf + 1e-12), (relf, tolf)   # 1e-12: the two eigensolvers (LAPACK on the root, scipy) on a 114 x 114 pencil

# --- the state space: poles |s| = 2 pi f_CMS, damping ratio 0.02
with h5py.File("bar_ss.h5", "r") as f:
    A, B, C, D = (f["/ss/" + k][:] for k in "ABCD")
Ab = sl.matrix_balance(A, permute=False)[0]
w, vl, vr = sl.eig(Ab, left=True, right=True)
kappa = 1 / np.abs(np.sum(vl.conj() * vr, axis=0))          # eigenvalue condition numbers (unit vectors)
eps = np.finfo(float).eps
# tol per pole: backward error of the QR algorithm (a small multiple of eps ||A_bal||) x condition number
tolp = 100 * eps * np.linalg.norm(Ab, 2) * kappa / np.abs(w)
o = np.argsort(np.abs(w))
wp, tp = w[o][::2], tolp[o][::2]
wp = np.where(wp.imag >= 0, wp, wp.conj())
fs = np.abs(wp) / (2 * np.pi)
print("ss poles |s| / 2 pi [Hz]:", fs)
assert len(fs) == len(fc) and np.all(np.abs(fs - fc) / fc <= tp), (fs, fc, tp)
assert np.all(np.abs(-wp.real / np.abs(wp) - 0.02) <= tp), -wp.real / np.abs(wp)

# --- balanced truncation: error on a grid below 2 sum of the discarded Hankel values
with h5py.File("bar_sysred.h5", "r") as f:
    Ar, Br, Cr, Dr = (f["/sysred/" + k][:] for k in "ABCD")
r = Ar.shape[0]
assert r == 8, r
P = sl.solve_continuous_lyapunov(A, -B @ B.T)
Q = sl.solve_continuous_lyapunov(A.T, -C.T @ C)
def sqrtm_psd(X):
    e, V = np.linalg.eigh((X + X.T) / 2)
    return V * np.sqrt(np.clip(e, 0, None))
hsv = np.linalg.svd(sqrtm_psd(Q).T @ sqrtm_psd(P), compute_uv=False)
bound = 2 * hsv[r:].sum()
om = np.logspace(np.log10(0.1 * np.abs(w).min()), np.log10(10 * np.abs(w).max()), 400)
G = lambda A, B, C, D, s: C @ np.linalg.solve(s * np.eye(len(A)) - A, B) + D
err = max(np.linalg.norm(G(A, B, C, D, 1j * x) - G(Ar, Br, Cr, Dr, 1j * x), 2) for x in om)
gmax = max(np.linalg.norm(G(A, B, C, D, 1j * x), 2) for x in om)
# tol: the bound holds exactly for the true error (Glover); the Hankel values here carry eps sigma_1 n
# errors from the square-root method, the FRF solves eps x cond(i w I - A) ~ 1/zeta: 1e-12 ||G|| covers both
print(f"sysred bt order {r}: grid error {err:.3e} <= bound {bound:.3e} (||G|| {gmax:.3e})")
assert err <= bound + 1e-12 * gmax, (err, bound)
assert err < 1e-6 * gmax, "order 8 keeps every mode the y input reaches"
PY
for p in bar_mac bar_freq_error bar_mode_count bar_components bar_timing bar_sysred_frf bar_sysred_hankel; do
  test -s $p.png && head -c 8 $p.png | od -c | grep -q 'P   N   G' || { echo "$p.png missing or not a PNG"; exit 1; }
done
echo ok
