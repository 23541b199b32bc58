# Sourced by tests/slurm/run.sh: a private one-node Slurm cluster on this
# host, everything (config, state, spool, logs) under one temporary
# directory, torn down again by slurm_down (run.sh traps it on exit).
#
#   slurm_up DIR    writes DIR/etc/slurm.conf, starts slurmctld and slurmd in
#                   the foreground mode (-D, children of this shell), exports
#                   SLURM_CONF and waits until the node is idle.  Returns 77
#                   with the reason in SLURM_WHY when Slurm cannot start.
#   slurm_down      cancels every job, stops both daemons (TERM, then KILL
#                   after 15 s), removes DIR.
#
# Authentication: Slurm 22.05 (Debian 12) still ships auth/none and
# cred/none (auth_none.so, cred_none.so; newer releases dropped them), so no
# munge daemon or key is needed: slurmctld and slurmd listen on 127.0.0.1
# ports nobody else uses and trust any local user, acceptable for a test
# cluster that lives for a few minutes.  Without those plugins (a newer
# Slurm) this returns 77 saying so.
#
# Processes: proctrack/pgid and task/none (no cgroups: containers often
# have none or read-only ones, so no cgroup.conf is written); memory is
# enforced by jobacct_gather/linux with OverMemoryKill (RSS sampled every
# second, a step above its --mem-per-cpu x CPUs is killed), which is what
# makes the CMS job's memory request a real check.
#
# The node declares 4 CPUs whatever the host has (SlurmdParameters=
# config_overrides: slurmd accepts a configuration larger than the
# hardware) so that 4-rank jobs run oversubscribed on a 2-core machine, as
# the rest of the suite does with mpiexec --oversubscribe.

SLURM_DIR=""; SLURM_WHY=""; SLURM_PIDS=()
SLURM_PLUGINS=${SLURM_PLUGINS:-/usr/lib/x86_64-linux-gnu/slurm-wlm}
SLURM_NODE=dynred1 SLURM_CPUS=4

# two free TCP ports on 127.0.0.1 (bound and released: a tiny race with
# other programs, reported as "cannot start" if it is ever lost)
slurm_ports() {
  /usr/bin/python3 - <<'PY'
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])
PY
}

slurm_up() {
  local d=$1 host ports p1 p2 mem
  SLURM_DIR=$d
  for f in auth_none.so cred_none.so mpi_pmix.so select_cons_tres.so jobacct_gather_linux.so; do
    if [ ! -e "$SLURM_PLUGINS/$f" ]; then
      SLURM_WHY="$SLURM_PLUGINS/$f is missing (this test needs Slurm's auth/none, cred/none, mpi/pmix, select/cons_tres and jobacct_gather/linux plugins; Debian 12's slurm-wlm 22.05 has them)"
      return 77
    fi
  done
  host=$(hostname -s)
  read -r p1 p2 < <(slurm_ports)
  # RealMemory: the MiB the node offers, 90 % of MemAvailable
  mem=$(awk '/^MemAvailable:/ {printf "%d", $2 / 1024 * 0.9}' /proc/meminfo)
  mkdir -p "$d/etc" "$d/state" "$d/spool" "$d/log"
  cat > "$d/etc/slurm.conf" <<EOF
# written by tests/slurm/cluster.sh; removed when the test ends
ClusterName=dynredtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$d/spool
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=pmix
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$d/log/jobcomp.txt
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=3600
KillWait=10
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$SLURM_NODE NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$SLURM_CPUS RealMemory=$mem State=UNKNOWN
PartitionName=dynred Nodes=$SLURM_NODE Default=YES MaxTime=60 State=UP
EOF
  export SLURM_CONF=$d/etc/slurm.conf
  # -D: stay in the foreground (a child of this shell, stopped by PID);
  # -i: ignore any state (there is none: a fresh StateSaveLocation)
  slurmctld -D -i -f "$SLURM_CONF" > "$d/log/slurmctld.out" 2>&1 &
  SLURM_PIDS+=($!)
  slurmd -D -N "$SLURM_NODE" -f "$SLURM_CONF" > "$d/log/slurmd.out" 2>&1 &
  SLURM_PIDS+=($!)
  local t=0 st=""
  while [ $t -lt 60 ]; do
    for p in "${SLURM_PIDS[@]}"; do
      if ! kill -0 "$p" 2>/dev/null; then
        SLURM_WHY="a Slurm daemon (pid $p) exited at start; its log: $(tail -n 3 "$d"/log/*.log "$d"/log/*.out 2>/dev/null | grep -i -E 'error|fatal' | tail -n 2 | tr '\n' ' ')"
        return 77
      fi
    done
    st=$(sinfo -h -n "$SLURM_NODE" -o %t 2>/dev/null || true)
    [ "$st" = idle ] && return 0
    sleep 1; t=$((t + 1))
  done
  SLURM_WHY="node $SLURM_NODE not idle 60 s after starting slurmctld and slurmd (state '${st:-no answer}'); slurmd log: $(grep -i -E 'error|fatal' "$d/log/slurmd.log" 2>/dev/null | tail -n 2 | tr '\n' ' ')"
  return 77
}

# PIDs of the step daemons (slurmstepd) of this cluster: those holding a
# file under DIR open (they keep slurmd's log open), nobody else's
slurm_step_pids() {
  local c p f
  for c in /proc/[0-9]*/comm; do
    case "$(cat "$c" 2>/dev/null)" in slurmstepd*) ;; *) continue;; esac
    p=${c#/proc/}; p=${p%%/*}
    for f in /proc/"$p"/fd/*; do
      case "$(readlink "$f" 2>/dev/null)" in "$SLURM_DIR"/*) echo "$p"; break;; esac
    done
  done
}

slurm_down() {
  local p t
  if [ -n "${SLURM_CONF:-}" ] && [ ${#SLURM_PIDS[@]} -gt 0 ]; then
    scancel --quiet --user=root 2>/dev/null || true
    # the jobs' step daemons end (and report to slurmd) before the daemons do
    for t in $(seq 1 30); do
      [ -z "$(squeue -h -o %i 2>/dev/null)" ] && [ -z "$(slurm_step_pids)" ] && break
      sleep 1
    done
  fi
  for p in "${SLURM_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for t in $(seq 1 15); do
    local alive=0
    for p in "${SLURM_PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 1
  done
  for p in "${SLURM_PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  SLURM_PIDS=()
  # a step daemon left behind (it ignores TERM) is killed by its PID
  if [ -n "$SLURM_DIR" ]; then
    for p in $(slurm_step_pids); do
      echo "slurm test: killing leftover $(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null) (pid $p)" >&2
      kill -KILL "$p" 2>/dev/null || true
    done
  fi
  [ -n "$SLURM_DIR" ] && [ -d "$SLURM_DIR" ] && rm -rf "$SLURM_DIR"
  SLURM_DIR=""
}
