#!/usr/bin/env bash
# Seed 002 (thesis) eq. (5.17): the 12-state minimal realization of the
# 6-DOF suspension (tests/data/sysred/thesis517_*.mtx; the header says which
# OCR splits were resolved how).  References are the thesis's printed numbers:
#  - poles of Table 5.2;
#  - Hankel singular values of Table 5.3 (2.005, 1.486, 0.0685, 0.0532,
#    3.99e-3, 1.23e-3, 5.79e-5);
#  - the order-2 bound 2 (sigma_3 + ... + sigma_12) = 0.2539 (the thesis
#    prints 0.2544, from its rounded values; METHODS.md 6);
#  - the order-2 model of eq. (5.24) up to the signs of the states.
set -euo pipefail
cd "$T"
D=$ROOT/tests/data/sysred
cat > thesis.yaml <<Y
job: sysred
output: thesis.h5
sysred:
  mtx: {A: $D/thesis517_A.mtx, B: $D/thesis517_B.mtx, C: $D/thesis517_C.mtx}
  method: bt
  order: 2
Y
$DYNRED -config thesis.yaml > thesis.log
$DYNRED -config thesis.yaml -sysred_order 12 -sysred_method minreal -output minreal.h5 > minreal.log
/usr/bin/python3 - "$D" <<'PY'
import sys, h5py, numpy as np, scipy.io
D = sys.argv[1]
A = scipy.io.mmread(f"{D}/thesis517_A.mtx")
poles = np.array([-3894.4, -2565.2, -86.82 + 90.757j, -86.82 - 90.757j, -89.87 + 59.361j, -89.87 - 59.361j,
                  -11.096 + 55.427j, -11.096 - 55.427j, -56.417, -67.6, -1.665 + 11.1j, -1.665 - 11.1j])
ev = np.linalg.eigvals(A)
e = max(min(abs(ev - p)) / abs(p) for p in poles)
print(f"Table 5.2 poles: max relative distance {e:.2e}")
# the matrix is printed with 4-5 significant digits; the poles it gives are
# within 0.2 % of the printed ones (a transcription error moves them by far more:
# the literal A(1,2) = 11830.9 gives unstable poles)
assert e < 2e-3, e
f = h5py.File("thesis.h5")
h = f["/sysred/hsv"][:]
tab = np.array([2.005, 1.486, 0.0685, 0.0532, 3.99e-3, 1.23e-3, 5.79e-5])
print("HSV:", " ".join(f"{x:.4g}" for x in h))
# Table 5.3 prints 3-4 digits: agree to half a unit of the last printed digit,
# plus 3e-4 relative for the rounding of the transcribed A (A(1,2) = 1180.9 vs
# the 1180.94 that fits Table 5.2 moves sigma_1 by 2.8e-4 relative)
half = np.array([5e-4, 5e-4, 5e-5, 5e-5, 5e-6, 5e-6, 5e-8])
assert np.all(abs(h[:7] - tab) <= half + 3e-4 * tab), abs(h[:7] - tab)
b = f["/sysred/error_bound"][0]
print(f"order-2 bound {b:.5f} (thesis: 0.2544 from rounded values, 0.2539 recomputed)")
assert abs(b - 0.2539) < 1e-4, b   # 4 printed digits
Ar, Br, Cr = (f["/sysred/" + k][:] for k in "ABC")
Ath = np.array([[-1.864, -11.178], [11.178, -1.492]]); Bth = np.array([[-2.741], [2.113]]); Cth = np.array([[-2.741, -2.113]])
# the state signs are free: S = diag(+-1) with S A S, S B, C S
best = min((abs(np.diag(s) @ Ar @ np.diag(s) - Ath).max() + abs(np.diag(s) @ Br - Bth).max() + abs(Cr @ np.diag(s) - Cth).max(), tuple(s))
           for s in ([1, 1], [1, -1], [-1, 1], [-1, -1]))
print(f"order-2 model vs eq. (5.24) up to state signs {best[1]}: max entry difference {best[0]:.4f}")
print(Ar, Br.ravel(), Cr.ravel())
# 0.03 absolute on entries of size 2..11 (0.3 %): the thesis balanced its own
# unrounded matrices; the 4-5 digit transcription moves the poles by up to 0.13 %
# (Table 5.2 check above) and the balanced entries by the same order
assert best[0] < 0.03, best
m = h5py.File("minreal.h5")
assert m["/sysred/A"].shape == (12, 12), "eq. (5.17) is minimal: minreal keeps all 12 states"
print("ok")
PY
