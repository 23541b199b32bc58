#!/usr/bin/env bash
# make demo: run the embedded default job on 2 ranks and print its table.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
mkdir -p out
cd out
$MPIEXEC -n 2 ../bin/dynred "$@"
echo "results: out/dynred_demo.h5 (h5py/MATLAB), out/dynred_demo.xdmf (ParaView)"
