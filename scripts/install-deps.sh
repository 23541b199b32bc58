#!/usr/bin/env bash
# Installs the Debian 12 packages dynred needs; does nothing when they are
# present.  Run as root (CI) or with sudo available.
#   scripts/install-deps.sh            what `make` needs
#   scripts/install-deps.sh --index64  also PETSc/SLEPc with 64-bit indices
#                                      (for `make INDEX64=1`, `make check64`)
#   scripts/install-deps.sh --slurm    also Slurm (slurmctld, slurmd, the
#                                      client commands; for `make check-slurm`)
set -euo pipefail
pkgs=(build-essential pkg-config make petsc-dev slepc-dev libhdf5-openmpi-dev
      libyaml-dev openmpi-bin liblapack-dev libblas-dev libopenblas0-serial
      libscalapack-mpi-dev
      calculix-ccx libslicot-dev python3-meshio python3-scipy
      python3-h5py python3-matplotlib python3-numpy)
for a in "$@"; do
  case "$a" in
    --index64) pkgs+=(libpetsc64-real3.18-dev libslepc64-real3.18-dev);;
    --slurm) pkgs+=(slurm-wlm);;
    *) echo "install-deps: unknown option '$a', expected --index64 or --slurm" >&2; exit 2;;
  esac
done
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
