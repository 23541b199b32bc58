#!/bin/bash
# Slurm: dynred cms with RANKS_PER_GROUP ranks per component group and a
# memory request (--mem-per-cpu) from the job's own memory estimate.
#
# Submit (run the script itself, not sbatch: it submits itself):
#   jobs/slurm_cms.sh JOB.yaml RANKS_PER_GROUP NTASKS [SBATCH OPTIONS...]
#   e.g. jobs/slurm_cms.sh configs/plate_cms.yaml 2 64 --nodes=2
# NTASKS must be a multiple of RANKS_PER_GROUP (NTASKS / RANKS_PER_GROUP
# groups share the components, at most one group per component).
#
# The memory estimate: dynred checks before the reductions that every node
# can hold its ranks' share of the job, the MUMPS analysis (INFO(15), the
# in-core factorization estimate) of each component a rank group reduces
# plus its mode vectors (src/app/job_cms.c, DRMemoryCheck).  Here that check
# runs on the submitting host with the job's NTASKS and RANKS_PER_GROUP and a
# memory limit of 1e-6 MiB (-mem_limit_mib), so it always fails right after
# the setup (the model is read and analysed, nothing is factored) with
#   "... needs about N MiB on a node (R rank(s) there) ..."
# i.e. N MiB for the R = NTASKS ranks together.  The request is
#   --mem-per-cpu = ceil(1.5 N / R) + 256 MiB
# 1.5: the estimate leaves out K and M themselves, the assembled interface
# and MUMPS's peaks beyond INFO(15); 256 MiB: a rank's resident size before
# any model (Open MPI, PETSc, SLEPc, MUMPS, HDF5 libraries: about 100 MiB in
# /timing/peak_rss_mib_per_rank of small jobs).  Set MEM_PER_CPU=MiB to skip
# the estimate (e.g. a model too large to analyse on the login node: run the
# estimate in an interactive allocation instead).  The estimate pass uses
# MPIEXEC (default mpiexec) and DYNRED (default bin/dynred).
#SBATCH --job-name=dynred-cms
#SBATCH --time=02:00:00
#SBATCH --output=dynred-cms-%j.log
set -euo pipefail
JOB=${1:?usage: jobs/slurm_cms.sh JOB.yaml RANKS_PER_GROUP NTASKS [SBATCH OPTIONS...]}
GROUP=${2:?usage: jobs/slurm_cms.sh JOB.yaml RANKS_PER_GROUP NTASKS [SBATCH OPTIONS...]}
NTASKS=${3:?usage: jobs/slurm_cms.sh JOB.yaml RANKS_PER_GROUP NTASKS [SBATCH OPTIONS...]}
shift 3
case "$GROUP$NTASKS" in *[!0-9]*) echo "slurm_cms: RANKS_PER_GROUP '$GROUP' and NTASKS '$NTASKS' must be positive integers" >&2; exit 2;; esac
if [ "$GROUP" -lt 1 ] || [ "$NTASKS" -lt 1 ] || [ $((NTASKS % GROUP)) -ne 0 ]; then
  echo "slurm_cms: NTASKS $NTASKS is not a multiple of RANKS_PER_GROUP $GROUP, expected e.g. NTASKS = $((GROUP * (NTASKS / GROUP + 1)))" >&2
  exit 2
fi
NAME=$(basename "$JOB" .yaml)

if [ -z "${SLURM_JOB_ID:-}" ]; then
  # submitting side: the estimate, then sbatch this script
  if [ -z "${MEM_PER_CPU:-}" ]; then
    est=$(mktemp -d "${TMPDIR:-/tmp}/slurm_cms.XXXXXX")
    ${MPIEXEC:-mpiexec} -n "$NTASKS" "${DYNRED:-bin/dynred}" -config "$JOB" -ranks_per_group "$GROUP" \
      -mem_limit_mib 1e-6 -verify false -output "$est/estimate.h5" > "$est/estimate.log" 2>&1 || true
    line=$(grep -o 'needs about [0-9.e+]* MiB on a node ([0-9]* rank(s) there)' "$est/estimate.log" | head -n 1 || true)
    if [ -z "$line" ]; then
      echo "slurm_cms: the memory estimate of $JOB failed (no 'needs about N MiB' line), its output:" >&2
      tail -n 5 "$est/estimate.log" >&2
      rm -rf "$est"
      exit 1
    fi
    rm -rf "$est"
    MEM_PER_CPU=$(echo "$line" | awk '{mib = $3; r = substr($8, 2); v = 1.5 * mib / r; v = (v == int(v)) ? v : int(v) + 1; print v + 256}')
    echo "slurm_cms: $JOB $line -> --mem-per-cpu=${MEM_PER_CPU}M" >&2
  fi
  exec sbatch --ntasks="$NTASKS" --mem-per-cpu="${MEM_PER_CPU}M" "$@" "$0" "$JOB" "$GROUP" "$NTASKS"
fi

# inside the allocation
mkdir -p results
srun bin/dynred -config "$JOB" -ranks_per_group "$GROUP" -output "results/$NAME-$SLURM_JOB_ID.h5" -log_view
