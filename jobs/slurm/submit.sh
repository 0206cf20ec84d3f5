#!/bin/bash
# Submits the workflow to Slurm and prints its job ids:
#   self-play (an array of TASKS tasks) -> training -> match of the new weights against the old
#   book deepening (an array of SHARDS shards, with --book) -> merge
# Each step starts only when the steps it needs have all succeeded (--dependency=afterok).
# Settings are the options below or the environment variables of common.sh; sbatch's own
# environment variables (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...) and
# --sbatch set what a site needs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

usage() {
    cat <<'USAGE'
Usage: submit.sh --out DIR [options]
  --out DIR             the run's folder (created); logs go to DIR/logs
  --emilia PATH         the emilia binary (default: emilia on PATH)
  --seed S              self-play seed (1)
  --size N              board side (8)
  --tasks N             self-play tasks in the array (10)
  --chunks-per-task N   self-play chunks a task (10)
  --games N             self-play games a chunk (500)
  --depth D             self-play depth (6)
  --train-args "..."    further options of emilia train
  --book FILE           also deepen this book (default: no book jobs)
  --shards N            book shards (16)
  --book-depth D        book depth (18)
  --book-solve E        book: solve from E empties (20)
  --match-games N       match games (100)
  --match-depth D       match depth (8)
  --match-openings FILE match openings ("" for none; default the shipped XOT set)
  --sbatch "..."        further sbatch options for every job (partition, account, ...)
  --parallel N          at most N array tasks at once (default no limit)
USAGE
}

sbatch_args=""
parallel=""
while [[ $# -gt 0 ]]; do
    option=$1
    if [[ $option == --help || $option == -h ]]; then
        usage
        exit 0
    fi
    if [[ $# -lt 2 ]]; then
        echo "submit.sh: $option needs a value" >&2
        usage >&2
        exit 2
    fi
    value=$2
    shift 2
    case $option in
    --out) OUT=$value ;;
    --emilia) EMILIA=$value ;;
    --seed) SEED=$value ;;
    --size) SIZE=$value ;;
    --tasks) TASKS=$value ;;
    --chunks-per-task) CHUNKS_PER_TASK=$value ;;
    --games) GAMES=$value ;;
    --depth) DEPTH=$value ;;
    --train-args) TRAIN_ARGS=$value ;;
    --book) BOOK=$value ;;
    --shards) SHARDS=$value ;;
    --book-depth) BOOK_DEPTH=$value ;;
    --book-solve) BOOK_SOLVE=$value ;;
    --match-games) MATCH_GAMES=$value ;;
    --match-depth) MATCH_DEPTH=$value ;;
    --match-openings) MATCH_OPENINGS=$value ;;
    --sbatch) sbatch_args=$value ;;
    --parallel) parallel=%$value ;;
    *)
        echo "submit.sh: unknown option $option" >&2
        usage >&2
        exit 2
        ;;
    esac
done
if [[ -z ${OUT:-} ]]; then
    echo "submit.sh: --out DIR is needed" >&2
    usage >&2
    exit 2
fi
if [[ ${EMILIA:-emilia} == */* && -e $EMILIA ]]; then
    EMILIA=$(cd "$(dirname "$EMILIA")" && pwd)/$(basename "$EMILIA")
fi
# The settings with their defaults, each checked (the message names a bad one) and made
# what the jobs will see: numbers without leading zeros, files as absolute paths.
source "$here/common.sh"
if [[ -n $parallel ]] && ! [[ $parallel =~ ^%[1-9][0-9]{0,8}$ ]]; then
    echo "submit.sh: --parallel '${parallel#%}' is not a positive number" >&2
    exit 2
fi
# A run into a folder of an earlier run must have its settings: the jobs would refuse.
if [[ -d $OUT/settings ]]; then
    same_settings selfplay "${SELFPLAY_SETTINGS[@]}"
    same_settings train "${TRAIN_SETTINGS[@]}"
    same_settings match "${MATCH_SETTINGS[@]}"
    if [[ -n $BOOK ]]; then
        same_settings book "${BOOK_SETTINGS[@]}"
        same_settings merge "${BOOK_SETTINGS[@]}"
    fi
fi
mkdir -p "$OUT/logs"
OUT=$(cd "$OUT" && pwd)
export JOBS_DIR OUT EMILIA SEED SIZE TASKS GAMES DEPTH CHUNKS_PER_TASK TRAIN_ARGS BOOK
export BOOK_DEPTH BOOK_SOLVE SHARDS MATCH_GAMES MATCH_DEPTH MATCH_OPENINGS

# sbatch with the site's options, the log in OUT/logs; prints the job id.
submit() {
    local name=$1
    shift
    # shellcheck disable=SC2086  # sbatch_args is a list of options
    sbatch --parsable --export=ALL $sbatch_args --output="$OUT/logs/$name-%A_%a.log" "$@" |
        cut -d';' -f1
}

selfplay=$(submit selfplay --array="0-$((TASKS - 1))$parallel" "$here/selfplay.sbatch")
train=$(submit train --dependency="afterok:$selfplay" "$here/train.sbatch")
match=$(submit match --dependency="afterok:$train" "$here/match.sbatch")
echo "selfplay $selfplay"
echo "train $train"
echo "match $match"
if [[ -n $BOOK ]]; then
    deepen=$(submit deepen --array="0-$((SHARDS - 1))$parallel" "$here/deepen.sbatch")
    merge=$(submit merge --dependency="afterok:$deepen" "$here/merge.sbatch")
    echo "deepen $deepen"
    echo "merge $merge"
fi
