#!/bin/bash
# bench/README.md "CMS: the root's CC problem on every rank, cms.dense_parallel": cms.dense_parallel off / on, alternately, on the 200k-DOF
# plate as one component in 8 subdomains (separator 5400 DOFs), 200 modes,
# 2 ranks; one line per run (wall and peak RSS of the largest process,
# DREigenDense of -log_view, the interface-reduction phase and the CMS total).
cd "$(dirname "$0")/../.." && source scripts/mpi-env.sh
W=${WORKDIR:-/tmp/dynred-bench-2p}; mkdir -p "$W"
M="-model_builtin plate -model_plate_nx 180 -model_plate_ny 90 -model_plate_nz 3 -model_cut_axis x -model_cut_parts 1 -cms_partition 8 -cms_nmodes 200 -cms_fmax 14185.7 -verify false -cms_checkpoint none"
for r in 1 2; do for dp in false true; do
  L=$W/dp_${dp}_$r.log
  /usr/bin/time -f "%e s %M KB" $MPIEXEC -n 2 bin/dynred cms $M -cms_dense_parallel $dp -output $W/dp_${dp}_$r.h5 -log_view > $L 2>&1
  echo "dp=$dp r=$r $(grep -E ' KB$' $L) | $(grep -E '^DREigenDense' $L | awk '{print "dense", $4, "s"}') | $(grep 'cms time' $L | sed 's/.*interface_reduction/iface/;s/, coupled.*total/ total/')"
done; done
