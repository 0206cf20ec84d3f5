# Sourced by the batch scripts and submit.sh: settings from the environment, with their
# defaults, each checked here, and helpers. Every setting is an environment variable that
# submit.sh exports to the jobs.
# shellcheck shell=bash disable=SC2034  # the settings are used by the scripts that source this

JOBS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)  # these scripts
EMILIA=${EMILIA:-emilia}                  # the emilia binary
OUT=${OUT:?set OUT, the folder of the run}     # everything the run writes goes below it
SEED=${SEED:-1}                           # self-play seed
SIZE=${SIZE:-8}                           # board side
TASKS=${TASKS:-10}                        # self-play tasks in the array
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

# A line of the task's log: the time, the task, the text.
say() {
    printf '%s %s: %s\n' "$(date -u +%FT%TZ)" "${SLURM_JOB_ID:-local}${SLURM_ARRAY_TASK_ID:+[$SLURM_ARRAY_TASK_ID]}" "$*" >&2
}

# Refuses a value that is not a whole number of at most 18 digits (at least `least`), and
# writes it back without leading zeros: the shell would read 010 as octal, and a file name
# made of it must be the same however the number was written.
check_number() {
    local name=$1 least=$2 value=${!1}
    if ! [[ $value =~ ^[0-9]{1,18}$ ]] || ((10#$value < least)); then
        say "$name='$value' is not a whole number from $least up"
        exit 2
    fi
    printf -v "$name" '%d' "$((10#$value))"
}

# A file setting, made absolute (the jobs may start in another folder; a recorded setting
# must not depend on how the path was written); refuses one that is not a readable file.
check_file() {
    local name=$1 value=${!1}
    if [[ ! -f $value || ! -r $value ]]; then
        say "$name='$value' is not a readable file"
        exit 2
    fi
    printf -v "$name" '%s' "$(cd "$(dirname "$value")" && pwd)/$(basename "$value")"
}

for setting in SEED SIZE DEPTH BOOK_DEPTH BOOK_SOLVE MATCH_DEPTH; do check_number "$setting" 0; done
for setting in TASKS GAMES CHUNKS_PER_TASK SHARDS MATCH_GAMES THREADS; do check_number "$setting" 1; done
[[ -z $BOOK ]] || check_file BOOK
[[ -z $MATCH_OPENINGS ]] || check_file MATCH_OPENINGS
if ! command -v "$EMILIA" >/dev/null; then
    say "EMILIA='$EMILIA' is not a program"
    exit 2
fi

SELFPLAY_DIR=$OUT/selfplay
WEIGHTS=$OUT/emilia.weights
BOOK_DIR=$OUT/book
DEEPER_BOOK=$OUT/deeper.book

# What the files of each step depend on: its own settings and those of the steps before it.
SELFPLAY_SETTINGS=(SIZE SEED GAMES DEPTH TASKS CHUNKS_PER_TASK)
TRAIN_SETTINGS=("${SELFPLAY_SETTINGS[@]}" TRAIN_ARGS)
MATCH_SETTINGS=("${TRAIN_SETTINGS[@]}" MATCH_GAMES MATCH_DEPTH MATCH_OPENINGS)
BOOK_SETTINGS=(BOOK BOOK_DEPTH BOOK_SOLVE SHARDS)

# Refuses to run a step whose files in OUT were made with other settings: the first run of
# the step records `names` with their values in OUT/settings/STEP, every later run (a
# requeue, a rerun, another task of the array) must have the same values, or it stops
# naming the ones that differ, before it writes anything.
same_settings() {
    local step=$1 record=$OUT/settings/$1 name line wanted="" differ=""
    shift
    for name in "$@"; do
        printf -v line '%s=%q' "$name" "${!name}"
        wanted+=$line$'\n'
    done
    mkdir -p "$OUT/settings"
    if [[ ! -e $record ]]; then
        # Written whole under a name of this process, then linked: of two tasks that start
        # at once, one records and the other compares.
        printf '%s' "$wanted" >"$record.$$"
        ln "$record.$$" "$record" 2>/dev/null || true
        rm -f "$record.$$"
    fi
    if [[ ! -f $record || $(stat -c %s "$record") -gt 65536 ]]; then
        say "$record is not a settings record"
        exit 2
    fi
    [[ $(<"$record")$'\n' == "$wanted" ]] && return 0
    for name in "$@"; do
        printf -v line '%s=%q' "$name" "${!name}"
        grep -qxF -- "$line" "$record" ||
            differ+=" $line (recorded: $(grep -m1 "^$name=" "$record" || echo none))"
    done
    say "OUT's $step files were made with other settings:$differ; use another OUT, or remove the step's files and $record to redo it"
    exit 2
}

# Holds the lock of one task of the run until the script ends: a second copy of the same
# task started at once waits for the first and then finds its work done, instead of
# writing the same temporary files. The wait ends with the first copy, which the
# scheduler's time limit bounds.
lock_task() {
    local lock=$OUT/locks/$1
    mkdir -p "$OUT/locks"
    exec {task_lock}>>"$lock"
    if ! flock -n "$task_lock"; then
        say "another copy of this task holds $lock: waiting for it"
        flock "$task_lock"
    fi
}

# The task's index in its array: Slurm's, or the one given as the script's argument; below
# `count` (the array's size).
task_index() {
    local index=${SLURM_ARRAY_TASK_ID:-${1:-}} count=$2 name=$3
    if ! [[ $index =~ ^[0-9]{1,18}$ ]]; then
        say "task index '$index' is not a whole number: run as an array job, or give the index as the argument"
        exit 2
    fi
    if ((10#$index >= count)); then
        say "task index $index is past the array: $name is $count (indices 0 to $((count - 1)))"
        exit 2
    fi
    echo "$((10#$index))"
}

if [[ ${0##*/} != submit.sh ]]; then
    say "started on $(hostname) (restart ${SLURM_RESTART_COUNT:-0}), $THREADS thread(s)"
fi
