#!/usr/bin/env bash
# Accuracy per frequency band (/verify/bands, bands of width fmax/6):
# recomputed in Python from /verify/freq_error_pct, /verify/pairing and
# /verify/full_frequencies_hz.  Two jobs: plate4 (tests/data/cms/plate4.yaml)
# with cms.fmax 1200 on 2 ranks, and plate5 with cms.fmax 0 (15 modes: fmax
# is then the highest CMS frequency).  Checks: the bands tile [0, fmax]
# (first lower edge 0, contiguous, equal width, last upper edge fmax); their
# mode counts add up to the paired modes with full-model frequency <= fmax;
# each band's max and mean equal the max and mean of |freq_error_pct| over
# the modes binned into it (NaN for an empty band); the table is printed.
# Independent of the code's per-mode errors: freq_error_pct is recomputed
# from the two frequency lists (/cms/frequencies_hz, /verify/full_frequencies_hz)
# and the pairing checked against nearest-frequency pairing where the full
# modes are separated by more than twice the largest error; the band
# statistics are asserted against the recomputed errors.
set -euo pipefail
cd "$T"
D=$ROOT/tests/data/cms
timeout 300 $MPIEXEC -n 2 $DYNRED -config $D/plate4.yaml -cms_fmax 1200 -verify true -output a.h5 > a.log
$DYNRED -config $D/plate5.yaml -verify true -output b.h5 > b.log
for l in a.log b.log; do sed -n '/accuracy per band/,/^wrote/p' $l; done
grep -q "accuracy per band" a.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
for path, fmax_cfg in (("a.h5", 1200.0), ("b.h5", 0.0)):
    with h5py.File(path, "r") as f:
        fc = f["/cms/frequencies_hz"][:]
        err = f["/verify/freq_error_pct"][:]
        pair = f["/verify/pairing"][:] - 1
        ff = f["/verify/full_frequencies_hz"][:]
        g = f["/verify/bands"]
        lo, up = g["lower_hz"][:], g["upper_hz"][:]
        nm, mx, mn = g["n_modes"][:], g["max_error_pct"][:], g["mean_error_pct"][:]
        assert g["upper_hz"].attrs["units"] in (b"Hz", "Hz") and g["max_error_pct"].attrs["units"] in (b"%", "%")
        fmax_attr = g.attrs["fmax_hz"]
        vmax = f["/verify"].attrs["max_error_pct"]
    fmax = fmax_cfg if fmax_cfg > 0 else fc[-1]
    # independent per-mode errors from the two frequency lists; the two
    # roundings of 100 (fc - ff) / ff (or 100 (fc/ff - 1)) differ by a few u
    # of 100 fc/ff: 400 u absolute in percent (fc/ff ~ 1 here)
    fref0 = ff[pair]
    eind = 100 * (fc - fref0) / fref0
    assert np.abs(eind - err).max() <= 400 * np.finfo(float).eps * max(1, (fc / fref0).max()), (path, eind, err)
    # pairing: nearest full frequency, unambiguous when neighbouring full
    # modes are further apart than twice the largest relative error
    gap = np.diff(ff) / ff[1:]
    if gap.min() > 2 * np.abs(eind).max() / 100:
        near = np.array([np.argmin(np.abs(ff - x)) for x in fc])
        assert (near == pair).all(), (path, near, pair)
        print(f"{path}: pairing = nearest full frequency (min relative gap {gap.min():.3g})")
    err = eind
    nb = len(up)
    assert nb == 6 and len(lo) == len(nm) == len(mx) == len(mn) == 6, nb
    assert fmax_attr == fmax, (fmax_attr, fmax)
    assert lo[0] == 0 and up[-1] == fmax, (lo, up)
    # edges k fmax / 6 in double: a few ulps of fmax (2e-16 each), 1e-12 is far above
    assert np.allclose(lo[1:], up[:-1], rtol=0, atol=1e-12 * fmax), (lo, up)
    assert np.allclose(up - lo, fmax / 6, rtol=1e-12), up - lo
    fref = ff[pair]
    rigid = 1e-4 * ff[ff > 1e-3][0]   # dynred's own rigid-body threshold (src/app/job_cms.c: 1e-4 of the first flexible mode)
    below = (fref <= fmax) & (np.abs(fref) >= rigid)
    assert nm.sum() == below.sum(), f"{path}: band counts {nm} add up to {nm.sum()}, paired modes below fmax {below.sum()}"
    for k in range(nb):
        inb = below & (fref >= lo[k]) & ((fref < up[k]) if k < nb - 1 else (fref <= up[k]))
        assert nm[k] == inb.sum(), (path, k, nm[k], inb.sum())
        if inb.any():
            e = np.abs(err[inb])
            # tol: e is the recomputed error, equal to the file's to the 400 u (percent) above
            assert abs(mx[k] - e.max()) <= 400 * np.finfo(float).eps, (path, k, mx[k], e.max())
            # tol: a mean of <= 30 values summed in another order (<= 30 u relative) plus the 400 u of each value
            assert abs(mn[k] - e.mean()) <= 1e-12 * max(e.mean(), 1e-300) + 400 * np.finfo(float).eps, (path, k, mn[k], e.mean())
        else:
            assert np.isnan(mx[k]) and np.isnan(mn[k]), (path, k, mx[k], mn[k])
    assert np.nanmax(mx) <= vmax, (np.nanmax(mx), vmax)
    print(f"{path}: fmax {fmax:.4g} Hz, {len(fc)} CMS modes; per band n {list(nm)}, max {np.round(mx, 5)}")
print("ok")
PY
