# Sourced by the scripts that start MPI jobs: lets Open MPI run as root (CI
# runs as root) and with more ranks than cores, which is what a user of this
# machine must set too.  MPICH ignores these.  Nothing here changes what a
# job computes or whether it runs: the two settings below only make short
# jobs start and end faster.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# A job that exits non-zero (every bad-input test) made Open MPI's mpiexec
# wait about 2 s before it returned (`mpiexec -n 1 false`: 2.1 s, 0.1 s with
# this): the grace between the SIGTERM and the SIGKILL it sends the job's
# processes.  dynred installs no SIGTERM handler, so the grace buys nothing.
export OMPI_MCA_odls_base_sigkill_timeout=0
# Open MPI 4.1 picks the UCX messaging layer by default, whose start-up
# probing of transports costs about 0.2 s per launch here (`mpiexec -n 2` of
# an empty MPI program: 0.51 s, 0.32 s with ob1).  On one node ob1 with the
# shared-memory transport is Open MPI's own path; the test suite starts
# hundreds of short jobs (failfast + fuzz_quick: 107 -> 76 s).  A caller's
# choice wins.
export OMPI_MCA_pml="${OMPI_MCA_pml:-ob1}"
if mpiexec --version 2>&1 | grep -qi "open mpi\|openrte"; then
  MPIEXEC="mpiexec --oversubscribe"
else
  MPIEXEC="mpiexec"
fi
export MPIEXEC
# Not set: OMPI_MCA_mpi_yield_when_idle=1 (it made single-process runs stall
# about 60 s in MPI here); oversubscribed tests get generous hang guards
# instead.
