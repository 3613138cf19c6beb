#!/usr/bin/env bash
# A single-node Slurm "cluster" on localhost, started without systemd: a test bed for the
# array jobs of this directory (CI, a laptop, a VM). Needs root and Debian/Ubuntu packages.
#
#   deploy/slurm/single-node.sh install [PKG...]  install munge + Slurm (and PKG...) if missing
#   deploy/slurm/single-node.sh up                 install if needed, start munged (unless one
#                                                  runs), slurmctld and slurmd; wait for the node
#   eval "$(deploy/slurm/single-node.sh env)"      point sbatch/squeue/scontrol at it
#   deploy/slurm/single-node.sh down               cancel its jobs, stop the daemons it started
#
# Everything lives in $SLURM_CI_DIR (default /tmp/slurm-ci): slurm.conf, state, logs, and
# the PID files of the daemons this script started; `down` stops those PIDs and nothing else.
# The node has every core of the machine (nproc); the ports are the first free pair from
# 6817/6818 upwards, so a Slurm already running elsewhere on the machine is left alone.
#
# Notes (Debian 12, Slurm 22.05):
# - No slurmdbd: `sacct` says accounting is disabled; use `scontrol show job` or the jobcomp
#   file $SLURM_CI_DIR/log/jobcomp.txt.
# - TaskPlugin=task/affinity binds each task to the cores it was given (-c N), which is what
#   `shogi-count` reads to cap its threads; set SLURM_CI_TASK_PLUGIN=task/none where
#   affinity cannot be set.
# - Purging the munge or Slurm packages also removes OpenMPI (libpmix2 depends on libmunge2).
set -euo pipefail

D=${SLURM_CI_DIR:-/tmp/slurm-ci}
export SLURM_CONF=$D/slurm.conf
PKGS=(slurmctld slurmd slurm-client munge)

log() { printf 'single-node.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts daemons)"; }

install() {
    local want=("${PKGS[@]}" "$@") missing=() p
    for p in "${want[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    need_root
    command -v apt-get >/dev/null || die "no apt-get: install ${missing[*]} by hand"
    log "installing ${missing[*]} (about a minute)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# True if something listens on 127.0.0.1:$1.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Whether PID $1 is alive and runs the program $2 (guards against recycled PIDs).
alive() { [ -n "$1" ] && [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; }

pid_of() { cat "$1" 2>/dev/null || true; }

start_munge() {
    if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
        log "using the munged already running"
        return 0
    fi
    [ -s /etc/munge/munge.key ] || { mungekey --create --keyfile=/etc/munge/munge.key; chown munge:munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key; }
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    # --force: a socket left by a dead munged (a restarted container) must not block us.
    runuser -u munge -- /usr/sbin/munged --force
    local i
    for i in $(seq 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
        [ "$i" -eq 50 ] && die "munged does not answer"
        sleep 0.1
    done
    pid_of /run/munge/munged.pid >"$D/munged.pid"   # ours: `down` stops it
}

write_conf() {
    local host ncpu port plugin cred_expire
    host=$(hostname -s)
    # A requeued job waits cred_expire seconds before it may start again (Slurm's default:
    # 120) and is then started by the backfill scheduler (every 30 s by default): a test
    # bed wants both short.
    cred_expire=${SLURM_CI_CRED_EXPIRE:-5}
    ncpu=$(nproc)
    plugin=${SLURM_CI_TASK_PLUGIN:-task/affinity}
    port=6817
    while port_busy "$port" || port_busy $((port + 1)); do
        port=$((port + 100))
        [ "$port" -lt 7800 ] || die "no free port pair between 6817 and 7800"
    done
    cat >"$SLURM_CONF" <<CONF
ClusterName=ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=cred_expire=$cred_expire
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=$plugin
MpiDefault=none
MailProg=/bin/true
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$D/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
KillWait=5
SchedulerParameters=bf_interval=1
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$ncpu RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

up() {
    need_root
    install
    if alive "$(pid_of "$D/slurmctld.pid")" slurmctld; then
        log "a cluster from $D is still up: stopping it first"
        down
    fi
    rm -rf "${D:?}/state" "${D:?}/spool" "${D:?}/log"
    mkdir -p "$D/state" "$D/spool" "$D/log"
    start_munge
    write_conf
    slurmctld || { tail -n 30 "$D/log/slurmctld.log" >&2 || true; die "slurmctld did not start"; }
    slurmd || { tail -n 30 "$D/log/slurmd.log" >&2 || true; die "slurmd did not start"; }
    local i state=
    for i in $(seq 100); do
        state=$(sinfo -h -o %T 2>/dev/null || true)
        [ "$state" = idle ] && break
        sleep 0.2
    done
    if [ "$state" != idle ]; then
        log "the node is not idle after 20 s (state: ${state:-none}); logs:"
        tail -n 20 "$D/log/slurmctld.log" "$D/log/slurmd.log" >&2 || true
        die "cluster did not come up"
    fi
    sinfo
}

down() {
    if alive "$(pid_of "$D/slurmctld.pid")" slurmctld; then
        local jobs i
        jobs=$(squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
        if [ -n "${jobs// /}" ]; then
            # shellcheck disable=SC2086 # a list of job ids
            scancel $jobs 2>/dev/null || true
            for i in $(seq 50); do
                [ -z "$(squeue -h -o %A 2>/dev/null || true)" ] && break
                sleep 0.2
            done
        fi
    fi
    local f name pid pids=()
    for f in slurmd slurmctld munged; do
        pid=$(pid_of "$D/$f.pid")
        name=$f
        if alive "$pid" "$name"; then
            kill "$pid" 2>/dev/null || true
            pids+=("$pid:$name")
        fi
    done
    local entry i
    for entry in ${pids[@]+"${pids[@]}"}; do
        pid=${entry%%:*}
        name=${entry#*:}
        for i in $(seq 50); do
            alive "$pid" "$name" || break
            sleep 0.1
        done
        if alive "$pid" "$name"; then
            log "$name ($pid) ignores SIGTERM: killing it"
            kill -9 "$pid" 2>/dev/null || true
        fi
    done
    rm -f "$D/munged.pid"
}

print_env() { printf 'export SLURM_CONF=%q\n' "$SLURM_CONF"; }

case ${1:-} in
    install) shift; install "$@" ;;
    up) up ;;
    down) down ;;
    env) print_env ;;
    *) echo "usage: $0 install [PKG...] | up | down | env" >&2; exit 2 ;;
esac
