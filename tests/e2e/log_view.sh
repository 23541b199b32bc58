#!/usr/bin/env bash
# -log_view shows one class per layer with an event per phase (issue 12):
# a modal job (model, eigen, job phases, store), a CMS job (model reader,
# reduction steps, every CMS phase) and a GMP sweep (points, farm).  The GA
# and ss events are asserted by ga_bicycle and ss_export.  Also: /timing is
# read from the events, so it is filled (> 0) without -log_view.
set -euo pipefail
cd "$T"
expect() { # LOG EVENT...
  local log=$1; shift
  for e in "$@"; do
    grep -qE "^$e +[1-9]" "$log" || { echo "$log: event $e missing from -log_view"; exit 1; }
  done
}
$DYNRED -config $ROOT/configs/frame_modal.yaml -output modal.h5 -log_view > modal.log
expect modal.log DRModelGenerate DRModelValidate DREigenSolve DRJobModel DRJobSolve DRJobOutput DRWrite

/usr/bin/python3 $ROOT/tests/data/cms/chain_gen.py chain .
cp $ROOT/tests/data/cms/chain.yaml .
$DYNRED -config chain.yaml -output cms.h5 -log_view > cms.log
expect cms.log DRModelReadMTX DRRedApply DRRedCompEig DRRedConstraint DRRedProject \
  DRCMSSetUp DRCMSPartition DRCMSInterfaces DRCMSCompReduce DRCMSGather DRCMSAssemble \
  DRCMSCoupledSolve DRCMSRecover DRCMSWrite DRJobModel DRJobSolve
$DYNRED -config chain.yaml -output cms_nolog.h5 > /dev/null

$DYNRED -config $ROOT/configs/arm3d_gmp.yaml -output gmp.h5 -log_view > gmp.log
expect gmp.log DRGMPPoint DRGMPAssemble DRGMPPointEig DRGMPSweep DRGMPTrack DRGMPWrite DRFarmTask DRFarmCheckpoint

/usr/bin/python3 - <<'PY'
import h5py, sys
for f, keys in (("modal.h5", ["model", "eigensolve"]), ("cms_nolog.h5", ["component_eigensolve", "model", "cms_total"])):
    t = h5py.File(f, "r")["/timing"].attrs
    for k in keys:
        if not t[k] > 0: sys.exit(f"{f}: /timing@{k} = {t[k]} without -log_view, expected > 0 (read from the events)")
print("ok: /timing filled from the events without -log_view")
PY
