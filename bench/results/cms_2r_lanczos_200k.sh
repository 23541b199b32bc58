#!/bin/bash
# bench/README.md "CMS at 1M DOF: substructured, the root's CC problem by block Lanczos": the root's CC problem by LAPACK (-dr_dense_lanczos_min 0)
# and by the dense block Lanczos path (the default), alternately, on the
# 200k-DOF plate as one component in 8 subdomains (separator 5400 DOFs), 200
# modes, 2 ranks; one line per run (wall and peak RSS of the largest process,
# DREigenDense of -log_view, the interface-reduction phase and the CMS total)
# and the largest relative difference of the frequencies between the paths.
cd "$(dirname "$0")/../.." && source scripts/mpi-env.sh
W=${WORKDIR:-/tmp/dynred-bench-2r}; mkdir -p "$W"
M="-model_builtin plate -model_plate_nx 180 -model_plate_ny 90 -model_plate_nz 3 -model_cut_axis x -model_cut_parts 1 -cms_partition 8 -cms_nmodes 200 -cms_fmax 14185.7 -verify false -cms_checkpoint none"
for r in 1 2; do for lz in 0 3000; do
  L=$W/lz_${lz}_$r.log
  /usr/bin/time -f "%e s %M KB" $MPIEXEC -n 2 bin/dynred cms $M -dr_dense_lanczos_min $lz -output $W/lz_${lz}_$r.h5 -log_view > $L 2>&1
  echo "lanczos_min=$lz r=$r $(grep -E ' KB$' $L) | $(grep -E '^DREigenDense' $L | awk '{print "dense", $4, "s"}') | $(grep 'cms time' $L | sed 's/.*interface_reduction/iface/;s/, coupled.*total/ total/')"
done; done
/usr/bin/python3 - "$W" <<'PY'
import sys, h5py, numpy as np
w = sys.argv[1]
a = h5py.File(f"{w}/lz_0_1.h5", "r")["/cms/frequencies_hz"][:]
b = h5py.File(f"{w}/lz_3000_1.h5", "r")["/cms/frequencies_hz"][:]
print(f"frequencies: {len(a)} / {len(b)} modes, max rel. difference LAPACK vs Lanczos {np.max(np.abs(a - b) / a):.1e}")
PY
