#!/usr/bin/python3
"""Checks of the Slurm test's results (tests/slurm/run.sh) against
independent references.

  check.py modal RESULT.h5 CHAIN_HZ.txt
      the modal job's frequencies against the chain's analytic ones
  check.py cms RESULT.h5 FULL_MODAL.h5 TOL_PCT
      the CMS job's frequencies against a full-model `dynred modal` run
      outside Slurm, index against index
  check.py same A.h5 B.h5 GROUP
      every dataset under GROUP of A equals B's bit for bit
  check.py rss RESULT.h5 MIB
      /timing attr peak_rss_mib_per_rank (the job's own getrusage) <= MIB
"""
import os
import sys

import h5py
import numpy as np


def modal(res, ref_txt):
    with h5py.File(res, "r") as f:
        fr = f["/modal/frequencies_hz"][:]
    ref = np.loadtxt(ref_txt)[: len(fr)]
    assert len(fr) >= 8, f"{res}: only {len(fr)} modes"
    rel = np.abs(fr - ref) / ref
    # Tolerance: SLEPc converges each mode to a relative residual of 1e-12
    # (DRModal's default); the shift-and-invert solve with MUMPS adds a
    # backward error of u * kappa, kappa = lambda_max / lambda_min of the
    # chain = 1 / sin^2(pi / (2 (2N + 1))) ~ 6.6e4 for N = 200, i.e. 1.5e-11
    # relative in an eigenvalue, 7e-12 in a frequency.  1e-9 leaves two
    # orders of magnitude and still fails any wrong mode (neighbouring chain
    # frequencies differ by > 1e-3 relative).
    print(f"modal: {len(fr)} modes, max rel. deviation from the analytic chain {rel.max():.2e}")
    assert rel.max() < 1e-9, (fr, ref)


def cms(res, full, tol_pct):
    tol_pct = float(tol_pct)
    with h5py.File(res, "r") as f:
        fc = f["/cms/frequencies_hz"][:]
    with h5py.File(full, "r") as f:
        ff = f["/modal/frequencies_hz"][:]
    n = len(fc)
    assert n >= 5 and len(ff) >= n, (n, len(ff))
    dev = 100 * (fc - ff[:n]) / ff[:n]
    print(f"cms: {n} modes, deviation from the full model {dev.min():.2e} .. {dev.max():.2e} %")
    # cms.tol_pct: the CMS refines its bases until every mode's error
    # estimate, an upper bound of the true error (tests/e2e/cms_estimate.sh),
    # is below it; so every true deviation is below tol_pct.
    assert dev.max() <= tol_pct, dev
    # Rayleigh-Ritz: a reduced model's k-th frequency is never below the
    # full model's k-th; slack 1e-7 % = the full solve's accuracy (SLEPc
    # residual 1e-12, MUMPS u * kappa with kappa <= 1e6 on this plate:
    # < 1e-9 relative).
    assert dev.min() > -1e-7, dev


def same(a, b, group):
    # the sweep's points do not depend on the rank or group that computed
    # them (tests/e2e/gmp_restart.sh): bit-for-bit equality (RTOL 0)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import h5check
    h5check.group(a, b, group, 0.0)


def rss(res, mib):
    with h5py.File(res, "r") as f:
        peak = float(f["/timing"].attrs["peak_rss_mib_per_rank"])
    print(f"rss: peak {peak:.1f} MiB per rank, requested {float(mib):.0f} MiB per CPU")
    assert 0 < peak <= float(mib), (peak, mib)


if __name__ == "__main__":
    {"modal": modal, "cms": cms, "same": same, "rss": rss}[sys.argv[1]](*sys.argv[2:])
