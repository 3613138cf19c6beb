#!/usr/bin/env bash
# Submits a sharded `shogi-count estimate` run to Slurm: the job array of
# estimate-array.sbatch and merge.sbatch after it (--dependency=afterok:<array>).
#
#   [NAME=value...] deploy/slurm/submit.sh [sbatch options for both jobs...]
#
#   OUTDIR   the run's directory, on a file system every node sees [$PWD/shogi-estimate]
#   GAME     shogi or mini [shogi]
#   SAMPLES  samples of the whole run [30000000 shogi, 10000000 mini]
#   SEED     [1]
#   METHOD   the estimate's --method: conditional, fast or paper [conditional]
#   SHARDS   number of shards, N [4]
#   ARRAY    the array indices to submit [0-(N-1)]; e.g. 0-999%50 runs at most 50 at once;
#            ARRAY=K (or K1,K2) re-runs failed tasks alone, resuming their checkpoints
#   CPUS     --cpus-per-task of each task [1]; shogi-count runs that many threads
#   THREADS  force --threads (still capped at the task's cores) [unset]
#   CHECKPOINT_EVERY  seconds between checkpoints [30]
#   BIN      the shogi-count binary [shogi-count on PATH, else
#            ${CARGO_TARGET_DIR:-<repo>/target}/release/shogi-count]
# Once OUTDIR holds a run, GAME, SAMPLES, SEED, SHARDS, METHOD and BIN come from $OUTDIR/run.env and
# a different value is refused, so re-running task 7 of a run is just
#   ARRAY=7 OUTDIR=/scratch/me/run1 deploy/slurm/submit.sh
#
# Examples:
#   GAME=mini SAMPLES=100000000 SHARDS=10 OUTDIR=/scratch/me/mini deploy/slurm/submit.sh
#   GAME=shogi SAMPLES=5000000000 SHARDS=200 CPUS=8 OUTDIR=/scratch/me/shogi \
#     deploy/slurm/submit.sh --partition=compute --time=3:00:00
#
# Prints ARRAY_JOB=<id> and MERGE_JOB=<id> on standard output; logs go to $OUTDIR/logs/.
# The tasks are --requeue'able: a preempted task resumes from its checkpoint under the same
# job id. The merge job is cancelled if a task fails (--kill-on-invalid-dep=yes); re-run
# the failed tasks with ARRAY=... as above, which submits a new merge job.
set -euo pipefail

die() { echo "submit.sh: error: $*" >&2; exit 1; }

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v sbatch >/dev/null || die "sbatch not found: is this a Slurm login node?"

OUTDIR=$(realpath -m "${OUTDIR:-$PWD/shogi-estimate}")
RUN_ENV=$OUTDIR/run.env
mkdir -p "$OUTDIR/logs"

if [ -f "$RUN_ENV" ]; then
    while IFS='=' read -r k v; do
        case $k in
            GAME | SAMPLES | SEED | SHARDS | METHOD)
                if [ -n "${!k:-}" ] && [ "${!k}" != "$v" ]; then
                    die "$OUTDIR belongs to the run with $k=$v ($RUN_ENV), not $k=${!k}: use another OUTDIR"
                fi
                printf -v "$k" '%s' "$v"
                ;;
            BIN) BIN=${BIN:-$v} ;;
        esac
    done <"$RUN_ENV"
fi

GAME=${GAME:-shogi}
case $GAME in
    shogi) SAMPLES=${SAMPLES:-30000000} ;;
    mini) SAMPLES=${SAMPLES:-10000000} ;;
    *) die "GAME must be shogi or mini, not $GAME" ;;
esac
case ${METHOD:-conditional} in
    conditional | fast | paper) ;;
    *) die "METHOD must be conditional, fast or paper, not $METHOD" ;;
esac
SEED=${SEED:-1}
METHOD=${METHOD:-conditional}
SHARDS=${SHARDS:-4}
CPUS=${CPUS:-1}
if [ -z "${BIN:-}" ]; then
    BIN=$(command -v shogi-count || echo "${CARGO_TARGET_DIR:-$ROOT/target}/release/shogi-count")
fi
BIN=$(realpath -m "$BIN")
[ -x "$BIN" ] || die "no shogi-count binary at $BIN: build it (cargo build --release -p shogi-cli) or set BIN"
for v in SAMPLES SEED SHARDS CPUS; do
    [[ ${!v} =~ ^[0-9]+$ ]] || die "$v must be a number, not ${!v}"
done
[ "$SHARDS" -ge 1 ] || die "SHARDS must be at least 1"
ARRAY=${ARRAY:-0-$((SHARDS - 1))}

if [ ! -f "$RUN_ENV" ]; then
    tmp=$(mktemp "$OUTDIR/.run.env.XXXXXX")
    printf 'GAME=%s\nSAMPLES=%s\nSEED=%s\nSHARDS=%s\nMETHOD=%s\nBIN=%s\n' \
        "$GAME" "$SAMPLES" "$SEED" "$SHARDS" "$METHOD" "$BIN" >"$tmp"
    if ! ln "$tmp" "$RUN_ENV" 2>/dev/null; then
        rm -f "$tmp"
        die "$RUN_ENV appeared meanwhile: submit again"
    fi
    rm -f "$tmp"
fi

# The jobs get this environment (--export=ALL, also where a site makes NONE the default).
export OUTDIR GAME SAMPLES SEED SHARDS METHOD BIN
[ -z "${THREADS:-}" ] || export THREADS
[ -z "${CHECKPOINT_EVERY:-}" ] || export CHECKPOINT_EVERY

array_job=$(sbatch --parsable --export=ALL --array="$ARRAY" --cpus-per-task="$CPUS" \
    --output="$OUTDIR/logs/estimate-%A_%a.log" "$@" "$HERE/estimate-array.sbatch")
array_job=${array_job%%;*}
merge_job=$(sbatch --parsable --export=ALL --dependency="afterok:$array_job" --kill-on-invalid-dep=yes \
    --output="$OUTDIR/logs/merge-%j.log" "$@" "$HERE/merge.sbatch")
merge_job=${merge_job%%;*}

echo "submit.sh: $GAME, $SAMPLES samples, seed $SEED, method $METHOD, $SHARDS shards; tasks $ARRAY as job $array_job," \
    "merge as job $merge_job; results in $OUTDIR" >&2
echo "ARRAY_JOB=$array_job"
echo "MERGE_JOB=$merge_job"
