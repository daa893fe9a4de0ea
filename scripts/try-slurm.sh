#!/usr/bin/env bash
# Tries the Slurm path on this one machine: a single-node Slurm (Debian's slurm-wlm and munge, one
# slurm.conf in a scratch folder), scripts/slurm-table.sbatch submitted with 2 tasks on the node
# (two MPI ranks started by `srun --mpi=pmix`), and its table.csv compared with the same table
# made by one process. docs/scale-out.md, "Trying it on one machine".
#
#   scripts/try-slurm.sh [TABLE.yaml]     (as root, from the repository root, after `make build`)
#
# Installs slurm-wlm and munge if missing; starts munged (if not running), slurmctld and slurmd
# with their state, spool and logs in the scratch folder, and stops the two Slurm daemons at the
# end. The default table is small (3 agents, 2 workloads, 2 seeds, 300 evaluations: seconds).
set -euo pipefail
program=${MEMPLACE_BIN:-build/default/apps/memplace}
[ -x "$program" ] || { echo "no $program: run make build first" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "run as root (it starts Slurm's daemons)" >&2; exit 2; }
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge
done

dir=$(mktemp -d /tmp/memplace-slurm.XXXXXX)
host=$(hostname -s)
mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" <<CONF
ClusterName=memplace-try
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=try Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf

# munge authenticates Slurm's messages; it runs as its own user, with its folders owned by it.
if ! pgrep -x munged > /dev/null; then
  mkdir -p /run/munge
  chown -R munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge
  runuser -u munge -- /usr/sbin/munged
fi
slurmctld
slurmd
trap 'scontrol shutdown > /dev/null 2>&1 || true' EXIT
for _ in $(seq 60); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 1
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] ||
  { echo "the node did not come up: $dir/slurmctld.log, $dir/slurmd.log" >&2; exit 1; }

config=${1:-$dir/small.yaml}
[ $# -gt 0 ] ||
  printf 'agents: [sa, random, greedy-dp]\nworkloads: [resnet50, bert-base]\nseeds: 2\nbudget: 300\n' \
    > "$config"
echo "Slurm is up ($dir/slurm.conf); submitting the table over 2 tasks on $host"
sbatch --wait --ntasks-per-node=2 --cpus-per-task=1 --output="$dir/job-%j.log" \
  scripts/slurm-table.sbatch "$config" --out "$dir/two-ranks" > /dev/null
grep -m1 "shared out over" "$dir"/job-*.log || true
echo "The same table in one process"
"$program" table "$config" --out "$dir/one-process" -q > /dev/null
if cmp -s "$dir/one-process/table.csv" "$dir/two-ranks/table.csv"; then
  echo "same table.csv over 2 Slurm tasks as in one process ($dir)"
else
  echo "table.csv differs: $dir/one-process/table.csv and $dir/two-ranks/table.csv" >&2
  exit 1
fi
