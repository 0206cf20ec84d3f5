# Sourced by the batch scripts: settings from the environment, with their defaults, and
# helpers. Every setting is an environment variable that submit.sh exports to the jobs.
# shellcheck shell=bash disable=SC2034  # the settings are used by the scripts that source this

JOBS_DIR=${JOBS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)}  # these scripts
EMILIA=${EMILIA:-emilia}                  # the emilia binary
OUT=${OUT:?set OUT, the folder of the run}     # everything the run writes goes below it
SEED=${SEED:-1}                           # self-play seed
SIZE=${SIZE:-8}                           # board side
GAMES=${GAMES:-500}                       # self-play games a chunk
DEPTH=${DEPTH:-6}                         # self-play search depth
CHUNKS_PER_TASK=${CHUNKS_PER_TASK:-10}    # self-play chunks a task of the array
TRAIN_ARGS=${TRAIN_ARGS:-}                # further `emilia train` options
BOOK=${BOOK:-}                            # the book to deepen (none: no book jobs)
BOOK_DEPTH=${BOOK_DEPTH:-18}              # book deepening depth
BOOK_SOLVE=${BOOK_SOLVE:-20}              # book deepening: solve from this many empties
SHARDS=${SHARDS:-16}                      # book shards
MATCH_GAMES=${MATCH_GAMES:-100}           # match games, new weights against the old
MATCH_DEPTH=${MATCH_DEPTH:-8}             # match search depth
MATCH_OPENINGS=${MATCH_OPENINGS-$JOBS_DIR/../../data/xot-openings.txt}  # empty: none
THREADS=${SLURM_CPUS_PER_TASK:-1}         # threads of a task: the CPUs Slurm gave it

SELFPLAY_DIR=$OUT/selfplay
WEIGHTS=$OUT/emilia.weights
BOOK_DIR=$OUT/book
DEEPER_BOOK=$OUT/deeper.book

# A line of the task's log: the time, the task, the text.
say() {
    printf '%s %s: %s\n' "$(date -u +%FT%TZ)" "${SLURM_JOB_ID:-local}${SLURM_ARRAY_TASK_ID:+[$SLURM_ARRAY_TASK_ID]}" "$*" >&2
}

# The task's index in its array: Slurm's, or the one given as the script's argument.
task_index() {
    local index=${SLURM_ARRAY_TASK_ID:-${1:-}}
    if ! [[ $index =~ ^[0-9]+$ ]]; then
        say "no task index: run as an array job, or give the index as the argument"
        exit 2
    fi
    echo "$index"
}

say "started on $(hostname) (restart ${SLURM_RESTART_COUNT:-0}), $THREADS thread(s)"
