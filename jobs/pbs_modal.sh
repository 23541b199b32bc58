#!/bin/bash
# PBS/Torque: dynred modal on 2 nodes x 32 ranks.
# Submit: qsub -v JOB=configs/plate_modal.yaml jobs/pbs_modal.sh
#PBS -N dynred
#PBS -l select=2:ncpus=32:mpiprocs=32
#PBS -l walltime=02:00:00
#PBS -j oe
set -euo pipefail
cd "$PBS_O_WORKDIR"
JOB=${JOB:-configs/plate_modal.yaml}
# MPICH (Hydra) and Open MPI both accept -n and read the PBS node file.
mpiexec -n "$(wc -l < "$PBS_NODEFILE")" bin/dynred -config "$JOB" -output "results/$(basename "$JOB" .yaml)-${PBS_JOBID%%.*}.h5" -log_view
