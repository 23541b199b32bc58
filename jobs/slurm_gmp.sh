#!/bin/bash
# Slurm: a GMP sweep (dynred gmp) on 2 nodes x 32 ranks.  Grid points are
# handed out dynamically to rank groups (-ranks_per_group, default 1 rank a
# point; use a few ranks a group only when one point does not fit a rank's
# memory: at 100k DOFs two 1-rank groups beat one 2-rank group, see
# bench/README.md).  Every finished point is streamed to OUTPUT.sweep.h5, so
# a requeued (preempted, timed-out) or resubmitted job with the same command
# skips the finished points and ends with the same file.
# Submit: sbatch jobs/slurm_gmp.sh JOB.yaml [GROUP_SIZE [DYNRED OPTIONS...]]
# (options after GROUP_SIZE go to dynred last, e.g. -farm_progress 5)
#SBATCH --job-name=dynred-gmp
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=32
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --output=dynred-gmp-%j.log
set -euo pipefail
JOB=${1:-configs/arm3d_lattice_gmp.yaml}
GROUP=${2:-1}
shift $(( $# < 2 ? $# : 2 ))
mkdir -p results
# a fixed output name (no job id): the rerun must find its checkpoint
srun bin/dynred -config "$JOB" -output "results/$(basename "$JOB" .yaml).h5" -ranks_per_group "$GROUP" -farm_progress 60 "$@"
