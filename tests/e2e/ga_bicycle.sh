#!/usr/bin/env bash
# dynred ga on configs/bicycle_frame_ga.yaml (short run: population 60,
# 40 generations), checked by tests/e2e/ga_check.py against scipy:
#  - the model has 73 DOFs, 6 forced masters, 41 candidates, b = 5;
#  - the front is non-dominated, starts with the forced-masters-only set,
#    and its /ga/solutions K_R, M_R reproduce e and dt_cr;
#  - the same front on 1, 2 and 3 ranks (3: oversubscribed);
#  - a run stopped after generation 15 (checkpoint every 5) and restarted
#    with the same command ends with the front of the uninterrupted run;
#  - -log_view shows every GA phase (DRGAInitializePackage's events), and
#    /timing, read from those events, is filled without -log_view too.
set -euo pipefail
cd "$T"
C=$ROOT/configs/bicycle_frame_ga.yaml
CHK="/usr/bin/python3 $ROOT/tests/e2e/ga_check.py"
OPTS="-ga_population 60 -ga_generations 40 -ga_checkpoint_every 5 -ga_progress_every 10"
$DYNRED ga -config $C -output np1.h5 $OPTS -log_view > np1.log
for ev in DRGASetUp DRGASolve DRGAGeneration DRGAEvalBatch DRGAFitness DRGASelect DRGACheckpoint DRGAFront DRGAWrite; do
  grep -q "^$ev " np1.log || { echo "-log_view shows no event $ev"; exit 1; }
done
grep -q "ga: 73 DOFs, 6 forced masters (6.2 13.2 15.1 15.2 16.1 16.2), 41 candidate DOFs (genes); b = 5" np1.log
test -f np1.csv
test ! -f np1.h5.ckpt.h5
$CHK front np1.h5 --ndof 73 --ncand 41 --b 5 --nforced 6 --method idc
timeout 300 $MPIEXEC -n 2 $DYNRED ga -config $C -output np2.h5 $OPTS > np2.log
timeout 300 $MPIEXEC -n 3 $DYNRED ga -config $C -output np3.h5 $OPTS > np3.log
$CHK same np1.h5 np2.h5 np3.h5
/usr/bin/python3 -c "import h5py; t=h5py.File('np2.h5')['/timing'].attrs; assert t['setup'] > 0 and t['optimisation'] > 0 and t['output'] > 0, dict(t)"
# killed run: exits 1 after writing the checkpoint of generation 15 ...
if timeout 300 $MPIEXEC -n 2 $DYNRED ga -config $C -output rs.h5 $OPTS -ga_stop_after_generation 15 > rs1.log 2>&1; then echo "stopped run exited 0"; exit 1; fi
grep -q "stopped after generation 15" rs1.log
test -f rs.h5.ckpt.h5
test ! -f rs.h5
# ... and the same command continues it (on 1 rank: the rank count may change)
$DYNRED ga -config $C -output rs.h5 $OPTS > rs2.log
grep -q "continuing from rs.h5.ckpt.h5 after generation 15" rs2.log
/usr/bin/python3 -c "import h5py,sys; a=h5py.File('rs.h5')['/ga'].attrs; sys.exit(0 if a['restarted_from_generation']==15 else 1)"
$CHK same np1.h5 rs.h5
test ! -f rs.h5.ckpt.h5
/usr/bin/python3 $ROOT/scripts/ga_plot.py np1.h5 front.png && test -s front.png
echo "ok"
