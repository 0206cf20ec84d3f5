#!/bin/bash
# The batch scripts run by hand, with an index as their argument (no scheduler): every
# setting is checked where it enters, with a message naming it; task indices are decimal
# whatever their leading zeros and below the array's size; a rerun into a run's folder
# with other settings is refused and changes nothing; paths with spaces work; two copies
# of one task at once both succeed. Any user; about 20 seconds. EMILIA names the binary
# (default target/release/emilia, built when missing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$SECONDS

say() { printf 'scripts-test: %s\n' "$*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}

if [[ -z ${EMILIA:-} ]]; then
    EMILIA=$repo/target/release/emilia
    [[ -x $EMILIA ]] || (cd "$repo" && cargo build --release)
fi
EMILIA=$(cd "$(dirname "$EMILIA")" && pwd)/$(basename "$EMILIA")

tmp=$(mktemp -d /tmp/emilia-scripts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# Every run below has its folder and binary under a name with a space.
mkdir "$tmp/the binary"
cp "$EMILIA" "$tmp/the binary/emilia"
unset JOBS_DIR SLURM_JOB_ID SLURM_ARRAY_TASK_ID SLURM_CPUS_PER_TASK
export EMILIA="$tmp/the binary/emilia" SEED=3 GAMES=1 DEPTH=1 CHUNKS_PER_TASK=1
export TRAIN_ARGS="--solve 0 --iterations 5" BOOK_DEPTH=4 BOOK_SOLVE=8 SHARDS=2
export MATCH_GAMES=2 MATCH_DEPTH=1

# Runs a script with the given settings (NAME=VALUE) and arguments; its log in $tmp/log, its
# exit status in $status.
run() {
    local script=$1 word settings=() arguments=()
    shift
    for word in "$@"; do
        if [[ $word =~ ^[A-Z_]+= ]]; then settings+=("$word"); else arguments+=("$word"); fi
    done
    status=0
    env "${settings[@]}" "$here/$script" "${arguments[@]}" >"$tmp/log" 2>&1 || status=$?
}
# The last run must have exited with status 2 and named `text` in its message.
refused() {
    [[ $status == 2 ]] || fail "$1 exited $status, not 2 (refused): $(cat "$tmp/log")"
    grep -qF -- "$2" "$tmp/log" || fail "$1: the message does not name $2: $(cat "$tmp/log")"
}
succeeded() {
    [[ $status == 0 ]] || fail "$1 exited $status: $(cat "$tmp/log")"
}
# A listing of a folder with each file's checksum: what a refused run must leave as it was.
state() { (cd "$1" && find . -type f ! -path './locks/*' -print0 | sort -z | xargs -0 -r cksum); }

# Bad values, each refused before anything is written.
book="$tmp/the book.book"
"$EMILIA" book build --out "$book" --min-games 200 "$repo/crates/emilia-core/tests/data/WTH_2003.wtb" >/dev/null 2>&1
bad="$tmp/bad run"
for setting in GAMES=abc DEPTH=-1 SEED=1e3 SIZE=' 8' TASKS=0 CHUNKS_PER_TASK=0 SHARDS=0 \
    MATCH_GAMES=1x BOOK_DEPTH=99999999999999999999 "BOOK=$tmp/none" "MATCH_OPENINGS=$tmp" \
    "EMILIA=$tmp/none"; do
    name=${setting%%=*}
    for script in selfplay.sbatch merge.sbatch; do
        run "$script" OUT="$bad" TASKS=2 BOOK="$book" "$setting" 0
        refused "$script with $setting" "$name='${setting#*=}'"
    done
done
[[ ! -e $bad ]] || fail "a refused setting left $bad"
status=0
"$here/submit.sh" --out "$bad" --emilia "$EMILIA" --games 5x >"$tmp/log" 2>&1 || status=$?
refused "submit.sh --games 5x" "GAMES='5x'"
[[ ! -e $bad ]] || fail "submit.sh with a refused setting made $bad"
say "bad settings refused, naming the setting, before anything was written"

# Task indices: 010 is task 10, 08 is task 8, an index past the array is refused.
run1="$tmp/run one"
run selfplay.sbatch OUT="$run1" TASKS=11 010
succeeded "selfplay task 010"
run selfplay.sbatch OUT="$run1" TASKS=11 08
succeeded "selfplay task 08"
made=$(cd "$run1/selfplay" && echo *.games)
[[ $made == "selfplay-s3-c000008.games selfplay-s3-c000010.games" ]] ||
    fail "tasks 010 and 08 made $made, not chunks 8 and 10"
run selfplay.sbatch OUT="$run1" TASKS=11 11
refused "selfplay task 11 of 11" "TASKS is 11"
run selfplay.sbatch OUT="$run1" TASKS=11 1x
refused "selfplay task 1x" "'1x'"
[[ $(cd "$run1/selfplay" && echo *.games) == "$made" ]] || fail "a refused task made a chunk"
run train.sbatch OUT="$run1" TASKS=11
[[ $status == 1 ]] && grep -qF "has 2 chunks, not TASKS * CHUNKS_PER_TASK = 11" "$tmp/log" ||
    fail "training on 2 of 11 chunks exited $status: $(cat "$tmp/log")"
[[ ! -e $run1/emilia.weights ]] || fail "training on 2 of 11 chunks made weights"
say "task indices 010 and 08 are tasks 10 and 8; 11 of 11 and 1x refused; training on 2 of 11 chunks refused"

# A run of 2 self-play tasks, training, a match, and a book in 2 shards (shard 1 given as
# 01), each step then rerun with other settings: refused, the run's files as they were.
run2="$tmp/run two"
for index in 0 1; do
    run selfplay.sbatch OUT="$run2" TASKS=2 "$index"
    succeeded "selfplay task $index"
done
run train.sbatch OUT="$run2" TASKS=2
succeeded "train"
run match.sbatch OUT="$run2" TASKS=2
succeeded "match with spaces in the binary's and weights' paths"
run deepen.sbatch OUT="$run2" BOOK="$book" 01
succeeded "deepen shard 01"
run deepen.sbatch OUT="$run2" BOOK="$book" 0
succeeded "deepen shard 0"
cp "$book" "$tmp/other.book"
run merge.sbatch OUT="$run2" BOOK="$book"
succeeded "merge of shards 0 and 01"
cmp -s "$book" "$tmp/other.book" || fail "the merge changed its input book"
made=$(state "$run2")
for rerun in "selfplay.sbatch GAMES=2 0" "selfplay.sbatch DEPTH=2 1" "selfplay.sbatch SEED=4 0" \
    "train.sbatch GAMES=2" "train.sbatch TRAIN_ARGS=--solve" "match.sbatch MATCH_DEPTH=2" \
    "match.sbatch TRAIN_ARGS=--solve" "deepen.sbatch BOOK_DEPTH=5 0" \
    "deepen.sbatch BOOK=$tmp/other.book 1" "merge.sbatch BOOK_SOLVE=9" \
    "merge.sbatch SHARDS=3"; do
    read -r script setting index <<<"$rerun"
    run "$script" OUT="$run2" TASKS=2 BOOK="$book" "$setting" ${index:+"$index"}
    refused "rerun of $script with $setting" "${setting%%=*}="
    [[ $(state "$run2") == "$made" ]] || fail "the refused rerun of $script with $setting changed $run2"
done
for script in "selfplay.sbatch 1" train.sbatch match.sbatch "deepen.sbatch 1" merge.sbatch; do
    read -r script index <<<"$script"
    run "$script" OUT="$run2" TASKS=2 BOOK="$book" ${index:+"$index"}
    succeeded "rerun of $script with the same settings"
done
[[ $(state "$run2") == "$made" ]] || fail "a rerun with the same settings changed $run2"
status=0
"$here/submit.sh" --out "$run2" --emilia "$EMILIA" --tasks 2 --games 2 >"$tmp/log" 2>&1 || status=$?
refused "submit.sh into $run2 with --games 2" "GAMES="
say "reruns with other settings refused, leaving the run as it was; with the same, nothing to do"

# Two copies of the match at once, where a stopped one left its temporary files: the second
# waits for the first, both succeed. The first copy's binary waits 2 s before the match,
# so that the second starts while the first runs however fast the machine is.
rm "$run2/match.tsv" "$run2/match.txt"
echo stopped >"$run2/match.tsv.partial"
echo stopped >"$run2/match.txt.partial"
slow="$tmp/the binary/slow emilia"
printf '#!/bin/bash\n[[ $1 != match ]] || sleep 2\nexec %q "$@"\n' "$EMILIA" >"$slow"
chmod +x "$slow"
env OUT="$run2" TASKS=2 EMILIA="$slow" "$here/match.sbatch" >"$tmp/first" 2>&1 &
first=$!
for _ in $(seq 300); do
    grep -q 'match: ' "$tmp/first" && break
    sleep 0.1
done
status=0
env OUT="$run2" TASKS=2 "$here/match.sbatch" >"$tmp/log" 2>&1 || status=$?
second=$status
status=0
wait "$first" || status=$?
[[ $status == 0 ]] || fail "the first copy of the match exited $status: $(cat "$tmp/first")"
[[ $second == 0 ]] || fail "the second copy of the match exited $second: $(cat "$tmp/log")"
grep -q 'waiting' "$tmp/log" || fail "the second copy did not run while the first did: $(cat "$tmp/log")"
[[ -s $run2/match.tsv && -s $run2/match.txt ]] || fail "the two copies left no match"
[[ -z $(find "$run2" -name '*.partial') ]] || fail "the match left a .partial file"
say "two copies of the match at once after a stopped one: the second waited, both succeeded"
say "passed in $((SECONDS - started)) s"
