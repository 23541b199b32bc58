# Sourced by the scripts that start MPI jobs: lets Open MPI run as root (CI
# runs as root) and with more ranks than cores.  MPICH ignores these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# Shared-memory single-copy (CMA) is refused inside many containers.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
if mpiexec --version 2>&1 | grep -qi "open mpi\|openrte"; then
  MPIEXEC="mpiexec --oversubscribe"
else
  MPIEXEC="mpiexec"
fi
export MPIEXEC
# Not set: OMPI_MCA_mpi_yield_when_idle=1 (it made single-process runs stall
# about 60 s in MPI here); oversubscribed tests get generous hang guards
# instead.
