#!/usr/bin/env bash
# The test checkers fail on NaN: tests/e2e/h5check.py (layout, same, freqs,
# group) and tests/e2e/ga_check.py (front, same) on files crafted here with
# one NaN, each against a control that passes (so the check is live).  A
# comparison with NaN is false, so `x > tol` let NaN through; the checkers
# now test `not x <= tol` and refuse non-finite values.
set -euo pipefail
cd "$T"
H="/usr/bin/python3 $ROOT/tests/e2e/h5check.py"
G="/usr/bin/python3 $ROOT/tests/e2e/ga_check.py"
fails() { # name command...: must exit non-zero and print FAIL
  if "${@:2}" > "$1.out" 2>&1; then echo "$1: NaN passed"; cat "$1.out"; exit 1; fi
  grep -q "FAIL" "$1.out" || { echo "$1: no FAIL line"; cat "$1.out"; exit 1; }
  echo "ok: $1 fails: $(grep FAIL "$1.out" | tail -1)"
}
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
def modal(path, f, modes, res):
    with h5py.File(path, "w") as h:
        for k, v in (("dynred_version", "0"), ("job", "modal"), ("nranks", 1), ("config", "")):
            h.attrs[k] = v
        d = h.create_dataset("/modal/frequencies_hz", data=np.asarray(f, float)); d.attrs["units"] = "Hz"
        h["/modal/modes"] = modes
        h["/modal/labels"] = np.array([[i + 1, 1] for i in range(modes.shape[0])])
        h["/modal/residuals"] = np.asarray(res, float)
        t = h.create_group("/timing"); t.attrs["a"] = 1.0; t.attrs["b"] = 2.0
P = np.linalg.qr(np.random.default_rng(1).standard_normal((6, 3)))[0]
modal("ok.h5", [1, 2, 3], P, [1e-13] * 3)
modal("nanf.h5", [1, np.nan, 3], P, [1e-13] * 3)
modal("nanres.h5", [1, 2, 3], P, [1e-13, np.nan, 1e-13])
Q = P.copy(); Q[2, 1] = np.nan
modal("nanmode.h5", [1, 2, 3], Q, [1e-13] * 3)
np.savetxt("ref.txt", [1, 2, 3])
with h5py.File("g1.h5", "w") as h: h["/pmor/x"] = np.arange(4.0)
with h5py.File("g2.h5", "w") as h: h["/pmor/x"] = np.array([0, 1, np.nan, 3.0])
PY
# controls: pass (identical or exact data: any tolerance above round-off would do)
$H layout ok.h5
$H same ok.h5 ok.h5 1e-9
$H freqs ok.h5 ref.txt 1e-12
$H group g1.h5 g1.h5 /pmor 1e-12
# NaN: fail
fails layout_freq $H layout nanf.h5
fails layout_res $H layout nanres.h5
fails same_freq $H same ok.h5 nanf.h5 1e-9
fails same_mode $H same ok.h5 nanmode.h5 1e-9
fails freqs $H freqs nanf.h5 ref.txt 1e-6
grep -q "^FAIL mode 2: dynred nan Hz" freqs.out
fails group_one $H group g1.h5 g2.h5 /pmor 1e-12
fails group_both $H group g2.h5 g2.h5 /pmor 1e-12
# ga_check on a small real run (8 candidate DOFs, a few generations), then
# copies with one NaN each
$DYNRED ga -config $ROOT/configs/bicycle_frame_ga.yaml -output ga.h5 -ga_candidate_nodes 7,8,10,11 \
  -ga_population 16 -ga_generations 10 -ga_progress_every 10 > ga.log
$G front ga.h5 --method idc
$G same ga.h5 ga.h5
doctor() { # name python (f: the copy, opened r+)
  cp ga.h5 "$1.h5"
  /usr/bin/python3 -c "
import h5py, numpy as np
f = h5py.File('$1.h5', 'r+')
$2
f.close()"
}
doctor ga_e 'd = f["/ga/pareto/e"]; v = d[()]; v[-1] = np.nan; d[...] = v'
doctor ga_full 'd = f["/ga/full_frequencies_hz"]; v = d[()]; v[0] = np.nan; d[...] = v'
doctor ga_dt 'f["/ga/solutions/001"].attrs["dt_critical_s"] = np.nan'
doctor ga_KR 'd = f["/ga/solutions/001/K"]; v = d[()]; v[0, 0] = np.nan; d[...] = v'
fails ga_front_e $G front ga_e.h5
fails ga_front_full $G front ga_full.h5
fails ga_front_dt $G front ga_dt.h5
fails ga_front_KR $G front ga_KR.h5
fails ga_same_e $G same ga.h5 ga_e.h5
echo ok
