#!/usr/bin/env bash
# dynred sysred honours the unit system of its source (issue 18 item 4): the
# root attribute units of the ss result (or model.units when the file has
# none) is stored in the result, and the frequency response's grid is also
# given in Hz (/sysred/frf/freq_hz = omega / (2 pi time unit in s)):
#  - a source in N-mm-s-t: units stored, freq_hz = omega / 2 pi;
#  - a source in N-mm-ms-g (time in ms, omega in rad/ms): freq_hz = 1000 omega / 2 pi;
#  - no units in the file: model.units of the job;
#  - model.units disagreeing with the file's: a clear error.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/sysred/modal_gen.py s.h5 10 1 10 0.05
/usr/bin/python3 $ROOT/tests/data/sysred/modal_gen.py ms.h5 10 1 10 0.05
/usr/bin/python3 $ROOT/tests/data/sysred/modal_gen.py none.h5 10 1 10 0.05
/usr/bin/python3 -c "
import h5py
h5py.File('s.h5', 'a').attrs['units'] = 'N-mm-s-t'
h5py.File('ms.h5', 'a').attrs['units'] = 'N-mm-ms-g'"
cat > u.yaml <<'Y'
job: sysred
output: u.h5
sysred:
  source: s.h5
  order: 6
  frf: {n: 50}
Y
$DYNRED -config u.yaml > s.log
$DYNRED -config u.yaml -sysred_source ms.h5 -output ums.h5 > ms.log
$DYNRED -config u.yaml -sysred_source none.h5 -output unone.h5 -model_units N-m-s-kg > none.log
grep -q "Hz (units N-mm-s-t)" s.log
grep -q "Hz (units N-mm-ms-g)" ms.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
def s(x): return x.decode() if isinstance(x, bytes) else x
for fn, units, tu in (("u.h5", "N-mm-s-t", 1.0), ("ums.h5", "N-mm-ms-g", 1e-3), ("unone.h5", "N-m-s-kg", 1.0)):
    f = h5py.File(fn)
    assert s(f.attrs["units"]) == units, (fn, f.attrs["units"])
    assert abs(f.attrs["time_unit_s"] - tu) <= 1e-15 * tu
    w, hz = f["/sysred/frf/omega"][:], f["/sysred/frf/freq_hz"][:]
    # exact conversion: one multiplication and division in double precision
    assert np.allclose(hz, w / (2 * np.pi * tu), rtol=1e-14, atol=0), fn
    print(fn, s(f.attrs["units"]), f"{hz[0]:.4g}..{hz[-1]:.4g} Hz")
print("ok")
PY
$ROOT/tests/expect.sh 'model.units = N-m-s-kg but .*s.h5 is in N-mm-s-t, expected N-mm-s-t \(or no model.units\)' $DYNRED -config u.yaml -model_units N-m-s-kg
