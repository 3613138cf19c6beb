#!/usr/bin/env bash
# End-to-end test of deploy/slurm on a real Slurm: a single-node cluster on localhost
# (single-node.sh: Debian packages, no systemd), the job array of estimate-array.sbatch and
# the dependent merge.sbatch, submitted by submit.sh, against single-process runs.
#
#  1. A few thousand Mini Shogi samples in 4 shards: the merged report (all but its timing
#     fields) and the merged counters equal those of one `shogi-count estimate` process with
#     the same seed, byte for byte. Each task ran 1 thread (SLURM_CPUS_PER_TASK=1), and a
#     task bound to one core runs 1 thread even when asked for more (CPU affinity).
#  2. Kill and resume: a larger run in 4 shards, checkpointing every second. Task 0 is
#     requeued mid-run (`scontrol requeue`, what a preemption does) and resumes from its
#     checkpoint under the same job id; task 1 is cancelled mid-run, which cancels the merge
#     job (its dependency can no longer be met), and is re-run alone (ARRAY=1 submit.sh) with
#     a new merge job. The merged result again equals the single run's.
#
# Needs root (it installs packages and starts daemons); run by .ci/run. Without root but with
# passwordless sudo, it builds as the caller and runs the rest through sudo; with neither it
# fails at once (`ci-test.sh --check-privileges` only makes that check). Builds the release
# binary (cargo build --release --locked -p shogi-cli; a no-op when up to date) in
# ${CARGO_TARGET_DIR:-target}. Stops the daemons it started, by PID, on exit. Work files are
# in a temporary directory, removed on success and kept (path printed) on failure.
#
# Knobs: SMALL_SAMPLES [4000], KILL_SAMPLES [measured: enough that a shard runs about
# KILL_SHARD_SECONDS (10) on one core, so that it can be killed after its first checkpoint
# whatever the machine's speed; never fewer than 4,000,000], SLURM_CI_TIMEOUT [seconds per
# wait, 120];
# SLURM_CI_BIN, a prebuilt shogi-count to use instead of building one.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
HERE=$ROOT/deploy/slurm
SMALL_SAMPLES=${SMALL_SAMPLES:-4000}
KILL_SAMPLES=${KILL_SAMPLES:-}
KILL_SHARD_SECONDS=${KILL_SHARD_SECONDS:-10}
TIMEOUT=${SLURM_CI_TIMEOUT:-120}
# The jobs inherit the environment: parameters of submit.sh must come from this script only.
unset OUTDIR GAME SAMPLES SEED SHARDS METHOD ARRAY CPUS THREADS CHECKPOINT_EVERY BIN

T0=$SECONDS
say() { printf '[slurm-ci %3ds] %s\n' "$((SECONDS - T0))" "$*" >&2; }
JOBS=()
fail() {
    printf '[slurm-ci %3ds] FAIL: %s\n' "$((SECONDS - T0))" "$*" >&2
    show_logs
    exit 1
}

if [ "$(id -u)" -ne 0 ] && ! sudo -n true 2>/dev/null; then
    echo "deploy/slurm/ci-test.sh: error: the Slurm test needs root or passwordless sudo to" \
        "install and start slurmctld/slurmd; run .ci/run as root, or set SKIP_SLURM_TEST=1 to" \
        "skip it explicitly" >&2
    exit 1
fi
[ "${1:-}" != --check-privileges ] || exit 0

TARGET=$(realpath -m "${CARGO_TARGET_DIR:-$ROOT/target}")
BIN=${SLURM_CI_BIN:-$TARGET/release/shogi-count}
if [ "$(id -u)" -ne 0 ]; then
    # Built by the caller, not root: a root-owned target/ would break their next build, and
    # root's PATH under sudo may lack their cargo or hold an older one.
    if [ -z "${SLURM_CI_BIN:-}" ]; then
        say "building $BIN"
        cargo build --release --locked -p shogi-cli
    fi
    say "running the rest as root through sudo"
    knobs=()
    for v in SLURM_CI_TASK_PLUGIN SLURM_CI_CRED_EXPIRE; do
        if [ -n "${!v:-}" ]; then knobs+=("$v=${!v}"); fi
    done
    exec sudo -n env SLURM_CI_BIN="$BIN" SMALL_SAMPLES="$SMALL_SAMPLES" KILL_SAMPLES="$KILL_SAMPLES" \
        KILL_SHARD_SECONDS="$KILL_SHARD_SECONDS" SLURM_CI_TIMEOUT="$TIMEOUT" ${knobs[@]+"${knobs[@]}"} "$HERE/ci-test.sh"
fi

W=$(mktemp -d /tmp/shogi-slurm-ci.XXXXXX)
export SLURM_CI_DIR=$W/slurm
export SLURM_CONF=$SLURM_CI_DIR/slurm.conf
CLUSTER=0
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [ "$CLUSTER" = 1 ]; then
        "$HERE/single-node.sh" down || say "warning: stopping the cluster failed"
    fi
    if [ "$rc" -eq 0 ]; then
        rm -rf "$W"
    else
        say "work files kept in $W"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Slurm helpers -----------------------------------------------------------------------

# "<job or task id> <state>" lines, finished jobs included.
states() { squeue -h -t all -j "$1" -o '%i %T' 2>/dev/null || true; }
state_of() { squeue -h -t all -j "$1" -o '%T' 2>/dev/null | head -n 1; }
terminal() {
    case $1 in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE) return 0 ;;
        *) return 1 ;;
    esac
}

# Prints the state, scontrol record and log of every job submitted so far that did not
# complete, and the daemons' logs.
show_logs() {
    if [ "$CLUSTER" != 1 ] || [ ${#JOBS[@]} -eq 0 ]; then return 0; fi
    local j id st log
    for j in "${JOBS[@]}"; do
        while read -r id st; do
            if [ -z "$id" ] || [ "$st" = COMPLETED ]; then continue; fi
            echo "----- job $id: $st" >&2
            scontrol show job "$id" 2>/dev/null | grep -E 'JobState|Reason|ExitCode|Restarts|StdOut' >&2 || true
            log=$(scontrol -o show job "$id" 2>/dev/null | grep -o 'StdOut=[^ ]*' | cut -d= -f2 || true)
            if [ -n "$log" ] && [ -f "$log" ]; then
                echo "----- log $log (last 40 lines)" >&2
                tail -n 40 "$log" >&2
            fi
        done < <(states "$j")
    done
    echo "----- slurmctld.log, slurmd.log (last 15 lines each)" >&2
    tail -n 15 "$SLURM_CI_DIR/log/slurmctld.log" "$SLURM_CI_DIR/log/slurmd.log" >&2 2>/dev/null || true
}

# wait_jobs IDS: until every job/task of the comma-separated IDS has finished.
wait_jobs() {
    local deadline=$((SECONDS + TIMEOUT)) s id st busy
    while :; do
        s=$(states "$1")
        [ -n "$s" ] || fail "Slurm does not know jobs $1"
        busy=0
        while read -r id st; do terminal "$st" || busy=1; done <<<"$s"
        [ "$busy" = 0 ] && return 0
        [ "$SECONDS" -lt "$deadline" ] || fail "jobs $1 not finished after $TIMEOUT s: $(echo "$s" | tr '\n' ' ')"
        sleep 0.5
    done
}

# expect ID STATE
expect() {
    local st
    st=$(state_of "$1")
    [ "$st" = "$2" ] || fail "job $1 is ${st:-unknown}, expected $2"
}

# submit NAME=value...: runs submit.sh; sets ARRAY_JOB and MERGE_JOB.
submit() {
    local out
    out=$(env "$@" "$HERE/submit.sh") || fail "submit.sh $* failed"
    ARRAY_JOB=$(sed -n 's/^ARRAY_JOB=//p' <<<"$out")
    MERGE_JOB=$(sed -n 's/^MERGE_JOB=//p' <<<"$out")
    if [ -z "$ARRAY_JOB" ] || [ -z "$MERGE_JOB" ]; then fail "no job ids from submit.sh: $out"; fi
    JOBS+=("$ARRAY_JOB" "$MERGE_JOB")
}

# wait_checkpoint FILE TASK: until FILE holds a checkpoint of an unfinished shard.
wait_checkpoint() {
    local deadline=$((SECONDS + TIMEOUT))
    until grep -qm1 '"complete": false' "$1" 2>/dev/null; do
        if grep -qm1 '"complete": true' "$1" 2>/dev/null; then
            fail "task $2 finished before it could be killed: raise KILL_SAMPLES (now $KILL_SAMPLES)"
        fi
        [ "$SECONDS" -lt "$deadline" ] || fail "no checkpoint $1 after $TIMEOUT s"
        sleep 0.05
    done
}

# single PREFIX SAMPLES SEED: the reference, one process, every core.
single() {
    "$BIN" estimate --game mini --samples "$2" --seed "$3" --json --quiet --out "$1.json" \
        >"$1-report.json" || fail "the single-process run failed"
}

# compare LABEL OUTDIR PREFIX SAMPLES: the merged result of OUTDIR against single PREFIX.
compare() {
    local drop='del(.elapsed_seconds, .samples_per_second, .threads)'
    if [ ! -s "$2/report.json" ] || [ ! -s "$2/merged.json" ]; then
        fail "$1: no report.json or merged.json in $2"
    fi
    if ! diff <(jq -S "$drop" "$2/report.json") <(jq -S "$drop" "$3-report.json") >"$W/$1.diff"; then
        head -n 40 "$W/$1.diff" >&2
        fail "$1: the merged report differs from the single run's (< merged, > single)"
    fi
    if ! cmp -s <(jq -S .content.counters "$2/merged.json") <(jq -S .content.counters "$3.json"); then
        fail "$1: the merged counters (merged.json) differ from the single run's"
    fi
    jq -e --argjson n "$4" '.samples == $n and .reachable > 0' "$2/report.json" >/dev/null ||
        fail "$1: the merged report does not cover $4 samples"
    say "$1: merged == single run: $(jq -c '{samples, passed_mirror, passed_placement, passed_check, reachable, unreachable, unknown, unreachable_depths}' "$2/report.json")"
}

# --- Setup -------------------------------------------------------------------------------

say "installing Slurm, munge and jq if missing"
"$HERE/single-node.sh" install jq
T_INSTALL=$((SECONDS - T0))

if [ -n "${SLURM_CI_BIN:-}" ]; then
    [ -x "$BIN" ] || fail "SLURM_CI_BIN=$BIN is not an executable"
elif command -v cargo >/dev/null; then
    say "building $BIN"
    cargo build --release --locked -p shogi-cli
elif [ ! -x "$BIN" ]; then
    fail "no cargo and no $BIN"
fi
T_BUILD=$((SECONDS - T0 - T_INSTALL))

say "starting a single-node cluster in $SLURM_CI_DIR"
CLUSTER=1
"$HERE/single-node.sh" up >&2
T_UP=$SECONDS

# --- 1. A small run: the array against one process -----------------------------------------

say "1. $SMALL_SAMPLES Mini Shogi samples in 4 shards"
O1=$W/small
submit OUTDIR="$O1" GAME=mini SAMPLES="$SMALL_SAMPLES" SEED=7 SHARDS=4 CPUS=1 BIN="$BIN"
say "array job $ARRAY_JOB, merge job $MERGE_JOB"
wait_jobs "$ARRAY_JOB,$MERGE_JOB"
for k in 0 1 2 3; do expect "${ARRAY_JOB}_$k" COMPLETED; done
expect "$MERGE_JOB" COMPLETED
for k in 0 1 2 3; do
    [ "$(jq .content.threads "$O1/shard-$k.json")" = 1 ] || fail "task $k ran $(jq .content.threads "$O1/shard-$k.json") threads with --cpus-per-task=1"
done
single "$W/small-single" "$SMALL_SAMPLES" 7
compare small "$O1" "$W/small-single" "$SMALL_SAMPLES"
[ -s "$O1/report.txt" ] || fail "no report.txt"

# CPU affinity: a task given one core runs one thread, whatever --threads asks.
# shellcheck disable=SC2016 # expanded by the inner bash
aff=$(srun --quiet -c 1 bash -c 'grep Cpus_allowed_list /proc/self/status | cut -f2
    "$0" estimate --game mini --samples 1000 --threads 64 --json --quiet | jq .threads' "$BIN") ||
    fail "srun failed"
cpus=$(sed -n 1p <<<"$aff")
threads=$(sed -n 2p <<<"$aff")
if [[ $cpus =~ ^[0-9]+$ ]]; then
    [ "$threads" = 1 ] || fail "bound to CPU $cpus, --threads 64 ran $threads threads"
    say "1. affinity: a task bound to CPU $cpus ran 1 thread with --threads 64"
else
    say "1. affinity: not checked (the task may use CPUs $cpus: no binding)"
fi
T_SMALL=$((SECONDS - T_UP))

# --- 2. Kill, requeue, re-run, resume ------------------------------------------------------

# A fixed size raced the machine: on a fast idle one a 1,000,000-sample shard ended in about
# a second, before its first checkpoint. Measure one core's rate and size the shards by time.
if [ -z "$KILL_SAMPLES" ]; then
    probe=1000000
    t=$(date +%s%N)
    "$BIN" estimate --game mini --samples "$probe" --seed 3 --threads 1 --quiet >/dev/null ||
        fail "the calibration run failed"
    ms=$((($(date +%s%N) - t) / 1000000 + 1))
    KILL_SAMPLES=$((4 * probe * KILL_SHARD_SECONDS * 1000 / ms))
    [ "$KILL_SAMPLES" -ge 4000000 ] || KILL_SAMPLES=4000000
    say "2. one core ran $probe Mini Shogi samples in $ms ms: $((KILL_SAMPLES / 4)) a shard"
fi
say "2. $KILL_SAMPLES Mini Shogi samples in 4 shards, checkpoints every second; kill two tasks mid-run"
O2=$W/kill
submit OUTDIR="$O2" GAME=mini SAMPLES="$KILL_SAMPLES" SEED=11 SHARDS=4 CPUS=1 CHECKPOINT_EVERY=1 BIN="$BIN"
J=$ARRAY_JOB
M1=$MERGE_JOB
say "array job $J, merge job $M1"

wait_checkpoint "$O2/shard-0.json" 0
scontrol requeue "${J}_0" || fail "scontrol requeue ${J}_0 failed"
say "2. requeued task 0 after its checkpoint at $(jq .content.next "$O2/shard-0.json") of 0..$((KILL_SAMPLES / 4))"

wait_checkpoint "$O2/shard-1.json" 1
scancel "${J}_1" || fail "scancel ${J}_1 failed"
wait_jobs "${J}_1"
[ "$(state_of "${J}_1")" = CANCELLED ] ||
    fail "task 1 is $(state_of "${J}_1"), not CANCELLED: it finished before it could be killed; raise KILL_SAMPLES"
read -r next1 complete1 < <(jq -r '.content | "\(.next) \(.complete)"' "$O2/shard-1.json")
[ "$complete1" = false ] || fail "shard-1.json is complete after the kill"
say "2. cancelled task 1; its checkpoint stands at $next1 of $((KILL_SAMPLES / 4))..$((KILL_SAMPLES / 2))"

wait_jobs "$J,$M1"
for k in 0 2 3; do expect "${J}_$k" COMPLETED; done
scontrol show job "${J}_0" | grep -q 'Restarts=1' || fail "task 0 was not restarted"
grep -q 'restart 1, .*resuming from' "$O2/logs/estimate-${J}_0.log" ||
    fail "the requeued task 0 did not resume from its checkpoint (see its log)"
expect "$M1" CANCELLED
[ ! -e "$O2/merged.json" ] || fail "the first merge job ran although task 1 failed"
say "2. task 0 resumed after the requeue; the first merge job was cancelled (dependency never satisfied)"

submit ARRAY=1 OUTDIR="$O2" BIN="$BIN"
say "2. re-running task 1 alone: array job $ARRAY_JOB, merge job $MERGE_JOB"
wait_jobs "$ARRAY_JOB,$MERGE_JOB"
expect "${ARRAY_JOB}_1" COMPLETED
expect "$MERGE_JOB" COMPLETED
grep -q 'resuming from' "$O2/logs/estimate-${ARRAY_JOB}_1.log" ||
    fail "the re-run of task 1 did not resume from its checkpoint"
single "$W/kill-single" "$KILL_SAMPLES" 11
compare kill "$O2" "$W/kill-single" "$KILL_SAMPLES"
T_KILL=$((SECONDS - T_UP - T_SMALL))

say "PASS in $((SECONDS - T0)) s: install ${T_INSTALL} s, build ${T_BUILD} s," \
    "cluster up $((T_UP - T0 - T_INSTALL - T_BUILD)) s, test 1 ${T_SMALL} s, test 2 ${T_KILL} s"
