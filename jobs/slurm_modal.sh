#!/bin/bash
# Slurm: dynred modal on 2 nodes x 32 ranks.  srun starts the MPI ranks for
# MPICH and Open MPI builds alike.  Submit: sbatch jobs/slurm_modal.sh JOB.yaml
#SBATCH --job-name=dynred
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=32
#SBATCH --time=02:00:00
#SBATCH --output=dynred-%j.log
set -euo pipefail
JOB=${1:-configs/plate_modal.yaml}
srun bin/dynred -config "$JOB" -output "results/$(basename "$JOB" .yaml)-$SLURM_JOB_ID.h5" -log_view
