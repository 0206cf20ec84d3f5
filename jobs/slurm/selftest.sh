#!/bin/bash
# The workflow on a real Slurm: starts a single-node cluster on this machine (munged,
# slurmctld and slurmd with the machine's cores, on localhost, every file in a temporary
# folder), submits a small run through submit.sh, requeues one running self-play task (it
# is killed as a preempted task is, then run again), waits for every job, and compares
# the results with the same work done by one process: the self-play chunks, the weights,
# the merged book and the match's games must be identical. Installs Debian's slurm-wlm and
# munge when missing (they stay installed); stops the daemons it started and removes its
# folder (KEEP=1 keeps it). Runs as root. EMILIA names the binary (default
# target/release/emilia, built when missing).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
started=$SECONDS

say() { printf 'selftest: %s\n' "$*" >&2; }
fail() {
    say "FAILED: $*"
    exit 1
}

[[ $(id -u) == 0 ]] || fail "run it as root: it starts slurmd, which runs jobs as their users"

if [[ -z ${EMILIA:-} ]]; then
    EMILIA=$repo/target/release/emilia
    [[ -x $EMILIA ]] || (cd "$repo" && cargo build --release)
fi
EMILIA=$(cd "$(dirname "$EMILIA")" && pwd)/$(basename "$EMILIA")

# Install what is missing, without letting the packages start their daemons.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    policy=/usr/sbin/policy-rc.d
    own_policy=""
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        own_policy=1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
    [[ -n $own_policy ]] && rm -f "$policy"
fi
for daemon in slurmctld slurmd munged; do
    if pgrep -x "$daemon" >/dev/null; then
        fail "a $daemon is running already: this test starts a cluster of its own"
    fi
done

tmp=$(mktemp -d /tmp/emilia-slurm.XXXXXX)
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    if [[ ${KEEP:-0} == 1 || $status != 0 ]]; then
        say "kept $tmp (daemons' logs in it)"
    else
        rm -rf "$tmp"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge, with its own key and socket.
mkdir -p "$tmp/munge"
chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" \
    --socket="$tmp/munge/munge.socket" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" \
    >>"$tmp/munge/munged.err" 2>&1 &
pids+=($!)

# Free ports for the two daemons.
port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
        echo $((20000 + RANDOM % 20000))
}
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF=$tmp/slurm.conf
touch "$tmp/plugstack.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=emilia-selftest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(port)
SlurmdPort=$(port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
PlugStackConfig=$tmp/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
ReturnToService=2
MinJobAge=3600
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=selftest Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
for _ in $(seq 50); do
    [[ -S $tmp/munge/munge.socket ]] && break
    sleep 0.1
done
slurmctld -D -i -f "$SLURM_CONF" 2>>"$tmp/slurmctld.err" &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" 2>>"$tmp/slurmd.err" &
pids+=($!)
for _ in $(seq 100); do
    sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)' && break
    sleep 0.2
done
sinfo -h -N -o '%T' | grep -Eq '^idle' || fail "the node did not come up (logs in $tmp)"
say "cluster up: node $host with $cpus CPUs, $(sinfo --version)"

# A small run: 4 self-play tasks of 2 chunks of 5 games, the training, a book of the
# positions 40 games of 2003 reached deepened in 2 shards, and a match of 10 games.
settings=(--seed 5 --games 5 --depth 6)
tasks=4
chunks=2
train_args="--solve 0 --iterations 20"
book_settings=(--book-depth 10 --book-solve 14)
"$EMILIA" book build --out "$tmp/games40.book" --min-games 40 "$repo/crates/emilia-core/tests/data/WTH_2003.wtb" >/dev/null 2>&1
run="$tmp/run one"  # a space in every path the jobs are given
"$here/submit.sh" --out "$run" --emilia "$EMILIA" "${settings[@]}" --tasks "$tasks" \
    --chunks-per-task "$chunks" --train-args "$train_args" --book "$tmp/games40.book" \
    --shards 2 "${book_settings[@]}" --match-games 10 --match-depth 4 >"$tmp/jobs"
jobs=()
while read -r step id; do
    say "submitted $step: job $id"
    jobs+=("$id")
done <"$tmp/jobs"
job_selfplay=$(awk '$1 == "selfplay" { print $2 }' "$tmp/jobs")

# A script submitted by hand, as docs/cluster.md shows: Slurm runs a copy of it from its
# spool folder. Chunks 0 and 1 of the run's settings, one a task.
by_hand=$(cd "$tmp" && env -u JOBS_DIR OUT="by hand" EMILIA="$EMILIA" SEED=5 GAMES=5 DEPTH=6 \
    TASKS=2 CHUNKS_PER_TASK=1 sbatch --parsable --array=0-1 --output="$tmp/by-hand-%A_%a.log" \
    "$here/selfplay.sbatch")
say "submitted self-play by hand: job $by_hand"
jobs+=("$by_hand")

# Preempt a running self-play task: the requeue kills it (SIGTERM, then SIGKILL) and runs it
# again from the start.
victim="${job_selfplay}_1"
for _ in $(seq 600); do
    state=$(squeue -h -j "$victim" -o '%T' 2>/dev/null || true)
    [[ $state == RUNNING ]] && break
    sleep 0.1
done
[[ $state == RUNNING ]] || fail "self-play task $victim never ran"
sleep 1
scontrol requeue "$victim"
say "requeued self-play task $victim while it ran"

# Wait for every job to leave the queue.
for _ in $(seq 1200); do
    [[ -z $(squeue -h -j "$(
        IFS=,
        echo "${jobs[*]}"
    )" -o '%i' 2>/dev/null) ]] && break
    if squeue -h -o '%r' | grep -q DependencyNeverSatisfied; then
        fail "a dependency can never be satisfied (logs in $run/logs)"
    fi
    sleep 0.5
done
for id in "${jobs[@]}"; do
    while read -r line; do
        [[ $line =~ JobId=([0-9]+).*JobState=([A-Z_]+).*ExitCode=([0-9:]+) ]] || continue
        [[ ${BASH_REMATCH[2]} == COMPLETED && ${BASH_REMATCH[3]} == 0:0 ]] ||
            fail "job $id: ${BASH_REMATCH[2]}, exit ${BASH_REMATCH[3]} (logs in $run/logs and $tmp)"
    done < <(scontrol -o show job "$id")
done
restarts=$(scontrol -o show job "$victim" | grep -o 'Restarts=[0-9]*')
[[ $restarts == Restarts=1 ]] || fail "task $victim: $restarts, expected 1 requeue"
grep -q "restart 1" "$run"/logs/selfplay-"${job_selfplay}"_1.log ||
    fail "task $victim's log does not show its second run"
say "every job completed; task $victim ran twice ($restarts)"

# The same work by one process each.
single=$tmp/single
mkdir -p "$single"
"$EMILIA" selfplay --out "$single/selfplay" "${settings[@]}" --chunks $((tasks * chunks)) >/dev/null 2>&1
# shellcheck disable=SC2086  # train_args is a list of options
"$EMILIA" train --selfplay "$single/selfplay" --out "$single/emilia.weights" $train_args >/dev/null 2>&1
cp "$tmp/games40.book" "$single/deeper.book"
"$EMILIA" book deepen "$single/deeper.book" --depth 10 --solve 14 >/dev/null 2>&1
"$EMILIA" match --games 10 --depth 4 --openings "$repo/data/xot-openings.txt" \
    --engine "$EMILIA --threads 1 --book off --weights $single/emilia.weights" name=new \
    --engine "$EMILIA --threads 1 --book off" name=old --results "$single/match.tsv" \
    >/dev/null 2>&1

diff -r "$single/selfplay" "$run/selfplay" >/dev/null ||
    fail "the self-play chunks differ from one process's"
for chunk in "$tmp/by hand/selfplay"/*; do
    cmp -s "$chunk" "$single/selfplay/$(basename "$chunk")" ||
        fail "the chunk $(basename "$chunk") of the job submitted by hand differs from one process's"
done
[[ $(find "$tmp/by hand/selfplay" -name '*.games' | wc -l) == 2 ]] ||
    fail "the job submitted by hand did not make its 2 chunks (logs in $tmp)"
compared="$(find "$run/selfplay" -name '*.games' | wc -l) self-play chunks"
for file in emilia.weights deeper.book match.tsv; do
    cmp -s "$single/$file" "$run/$file" || fail "$file differs from one process's"
    compared+=", $file"
done
leftovers=$(find "$run" -name '*.partial' -o -name '*.tmp' -o -name '*.unfinished')
[[ -z $leftovers ]] || fail "files left unfinished: $leftovers"
say "identical to one process: $compared, the 2 chunks of the job submitted by hand; no unfinished file left"
say "match: $(grep -m1 -i 'score' "$run/match.txt" || true)"
say "passed in $((SECONDS - started)) s"
