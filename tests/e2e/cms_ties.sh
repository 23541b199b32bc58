#!/usr/bin/env bash
# Tie lists (model.ties): part c of the 60-mass chain numbers the node it
# shares with part b differently (1040 instead of 40).  Without a tie, c
# touches nothing (one-line error); with `ties: [40, 1040]` the CMS result
# equals the analytic-free reference of the assembled chain (numpy) to 1e-10
# and the output labels use the kept id.
set -euo pipefail
cd "$T"
/usr/bin/python3 $ROOT/tests/data/cms/chain_gen.py chain .
sed -i 's/^40\.1$/1040.1/' c.dof
grep -q '^1040.1$' c.dof
cp $ROOT/tests/data/cms/chain.yaml .
$ROOT/tests/expect.sh "component 'c' shares no DOF label" $DYNRED -config chain.yaml -output untied.h5
$DYNRED -config chain.yaml -model_ties 40,1040 -output tied.h5 > tied.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
ref = np.loadtxt("ref_hz.txt")
f = h5py.File("tied.h5")
fc = f["/cms/frequencies_hz"][:]
err = np.max(np.abs(fc - ref[:len(fc)]) / ref[:len(fc)])
labels = f["/cms/labels"][:]
# 1e-10 >= the round-off bound of the 60-mass chain, 9.3e-12 (see cms_exact_chain.sh)
assert len(fc) == 60 and err < 1e-10, (len(fc), err)
assert 40 in labels[:, 0] and 1040 not in labels[:, 0]
print(f"ok tied chain: 60 modes, max rel error {err:.1e} against numpy")
PY
