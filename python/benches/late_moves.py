"""Benchmark (figures, not a test): how long the in-process engine takes to answer a move
on a time limit late in 10x10 and 12x12 games, beside CPU-bound processes.

Every search is a fresh ``emilia.Engine`` (as a course simulator makes a new agent for
every game) warmed up with one depth-1 search on 6x6 only, then ``play(board,
Limit(time=SECONDS))`` on a position of 20 to 35 empty squares; the wall time of that call
is what a simulator counts. The positions come from games of depth-2 searches mixed with
random moves (seeded), made in a separate process so that the measuring process meets each
board size for the first time in its first timed search. ``--load N`` starts N busy loops
(``sh -c 'while :; do :; done'``) for the measurement and ends them after it.

  python python/benches/late_moves.py [--positions 12] [--seconds 1.5] [--load 2]
                                      [--sizes 10 12] [--seed 1] [--limit 1.8]

Prints each search (size, empties, wall time, the engine's own time, depth), then per size
the distribution (median, 90th percentile, worst) and how many took over ``--limit``
seconds; exits 1 when any did.
"""

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time

import emilia


def make_positions(size, count, seed):
    """`count` positions (squares, side) of 20 to 35 empties on a board of side `size`."""
    rng = random.Random(seed * 100 + size)
    engine = emilia.Engine(threads=1, hash=16, book=False)
    positions = []
    while len(positions) < count:
        board = emilia.Board(size)
        target = rng.randint(20, 35)
        while not board.is_game_over():
            empties = size * size - sum(board.discs())
            if empties <= target:
                break
            moves = board.legal_moves()
            if rng.random() < 0.3:
                board.play(rng.choice(moves))
            else:
                board.play(engine.play(board, emilia.Limit(depth=2)).move)
        if size * size - sum(board.discs()) == target and not board.is_game_over():
            positions.append((board.squares(), board.side()))
    return positions


def busy_loops(count):
    """`count` CPU-bound processes, each in a process group of its own."""
    return [
        subprocess.Popen(["sh", "-c", "while :; do :; done"], start_new_session=True)
        for _ in range(count)
    ]


def end(loops):
    for loop in loops:
        os.killpg(loop.pid, signal.SIGKILL)
        loop.wait()


def measure(size, positions, seconds):
    """(empties, wall seconds, engine seconds, depth) of a fresh engine's timed search of
    each position."""
    rows = []
    for squares, side in positions:
        agent = emilia.Engine(hash=64)
        agent.play(emilia.Board(6), emilia.Limit(depth=1))
        board = emilia.Board.from_squares(squares, side)
        started = time.monotonic()
        result = agent.play(board, emilia.Limit(time=seconds))
        wall = time.monotonic() - started
        empties = squares.count("-")
        rows.append((empties, wall, result.seconds, result.depth))
        print(
            f"  {size}x{size} {empties:2} empties  {wall:6.3f} s  "
            f"(engine {result.seconds:6.3f} s, depth {result.depth})",
            flush=True,
        )
        del agent
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12, help="per size")
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--load", type=int, default=2, help="busy loops beside the searches")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 12])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=1.8, help="the most a move may take")
    parser.add_argument("--generate", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:
        made = {size: make_positions(size, args.positions, args.seed) for size in args.sizes}
        json.dump(made, sys.stdout)
        return 0
    command = [sys.executable, __file__, "--generate", "--positions", str(args.positions)]
    command += ["--seed", str(args.seed), "--sizes", *map(str, args.sizes)]
    made = json.loads(subprocess.run(command, capture_output=True, check=True).stdout)
    loops = busy_loops(args.load)
    try:
        print(f"play at {args.seconds} s, fresh engines, beside {args.load} busy loops")
        results = {size: measure(size, made[str(size)], args.seconds) for size in args.sizes}
    finally:
        end(loops)
    over = 0
    for size, rows in results.items():
        walls = sorted(row[1] for row in rows)
        late = sum(wall > args.limit for wall in walls)
        over += late
        ninetieth = walls[min(len(walls) - 1, int(0.9 * len(walls)))]
        print(
            f"{size}x{size}: {len(walls)} moves, median {statistics.median(walls):.3f} s, "
            f"90th {ninetieth:.3f} s, worst {walls[-1]:.3f} s, over {args.limit} s: {late}"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
