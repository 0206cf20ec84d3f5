"""Benchmarks of the Python package (figures, not tests):

same-search  the in-process engine against the binary from the 8x8 start position, book
             off, one thread: the move and nodes at depth 10 (they must be equal), then
             nodes per second of both at a deeper depth, runs interleaved.
random-games random 8x8 games a second through Board.legal_moves/play (and with
             is_game_over asked before every move too), and, when the package
             rust-reversi is installed in the same environment, through its
             is_game_over/is_pass/get_legal_moves_vec/do_move, side by side.

  python python/benches/bench.py [--emilia target/release/emilia] [--runs 4] [--depth 24]

Both print the load average first: figures taken on a loaded machine are ratios of
interleaved runs, not speeds.
"""

import argparse
import os
import random
import statistics
import subprocess
import time

import emilia

# Both sides search depth 1 first: an engine's first search pays one-time set-up (its
# tables' first touch), which is not search speed. The nodes stay equal.


def binary_search(binary, depth):
    """(move, nodes, seconds) of the binary's search at `depth`, one thread, book off."""
    script = (
        "setoption threads 1\ngenmove black depth 1\nclear_board\n"
        f"genmove black depth {depth}\nlast_search\nquit\n"
    )
    out = subprocess.run(
        [binary, "--book", "off"], input=script, capture_output=True, text=True, check=True
    ).stdout
    answers = [line[2:] for line in out.splitlines() if line.startswith("= ") and line[2:]]
    fields = answers[2].split()
    report = dict(zip(fields[::2], fields[1::2], strict=False))
    return answers[1], int(report["nodes"]), float(report["time"])


def inprocess_search(depth):
    engine = emilia.Engine(threads=1, hash=64, book=False)
    engine.play(emilia.Board(8), emilia.Limit(depth=1))
    result = engine.play(emilia.Board(8), emilia.Limit(depth=depth))
    return result.move, result.nodes, result.seconds


def same_search(binary, runs, depth):
    print("same search: 8x8 start, book off, one thread")
    theirs, ours = binary_search(binary, 10), inprocess_search(10)
    # (The binary's figure without the warm-up: `printf 'setoption threads 1\ngenmove black
    # depth 10\nlast_search\n' | emilia --book off`; the same nodes.)
    print(f"  depth 10  binary {theirs[0]} {theirs[1]:,} nodes   in-process {ours[0]} {ours[1]:,}")
    print(f"  equal: {theirs[:2] == ours[:2]}")
    rates = {"binary": [], "in-process": []}
    for _ in range(runs):  # interleaved: A B A B
        for name, run in (
            ("binary", lambda: binary_search(binary, depth)),
            ("in-process", lambda: inprocess_search(depth)),
        ):
            _, nodes, seconds = run()
            rates[name].append(nodes / seconds)
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for name, value in medians.items():
        print(f"  depth {depth}  {name:<10} {value:12,.0f} nodes/s (median of {runs})")
    print(f"  in-process / binary: {medians['in-process'] / medians['binary']:.3f}")


def emilia_games(seconds, seed=1):
    """Random games through legal_moves() and play() alone: legal_moves() is ["pass"] when
    the mover must pass and empty once the game is over."""
    rng, games, started = random.Random(seed), 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        board = emilia.Board(8)
        while moves := board.legal_moves():
            board.play(rng.choice(moves))
        games += 1
    return games / (time.perf_counter() - started)


def emilia_games_asking_game_over(seconds, seed=1):
    """The same games, asking is_game_over() before every move as well."""
    rng, games, started = random.Random(seed), 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        board = emilia.Board(8)
        while not board.is_game_over():
            board.play(rng.choice(board.legal_moves()))
        games += 1
    return games / (time.perf_counter() - started)


def rust_reversi_games(seconds, seed=1):
    import rust_reversi

    rng, games, started = random.Random(seed), 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        board = rust_reversi.Board()
        while not board.is_game_over():
            if board.is_pass():
                board.do_pass()
            else:
                board.do_move(rng.choice(board.get_legal_moves_vec()))
        games += 1
    return games / (time.perf_counter() - started)


def random_games(runs, seconds=2.0):
    print("random 8x8 games a second")
    players = {
        "emilia": emilia_games,
        "emilia (+is_game_over)": emilia_games_asking_game_over,
    }
    try:
        import rust_reversi  # noqa: F401

        players["rust-reversi"] = rust_reversi_games
    except ImportError:
        print("  (rust-reversi is not installed here: emilia alone)")
    rates = {name: [] for name in players}
    for _ in range(runs):  # interleaved
        for name, play in players.items():
            rates[name].append(play(seconds))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for name, value in medians.items():
        print(f"  {name:<22} {value:10,.0f} games/s (median of {runs})")
    if "rust-reversi" in medians:
        for name in ("emilia", "emilia (+is_game_over)"):
            ratio = medians[name] / medians["rust-reversi"]
            print(f"  {name} / rust-reversi: {ratio:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--emilia", default="target/release/emilia")
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--depth", type=int, default=24)
    parser.add_argument("which", nargs="*", default=["same-search", "random-games"])
    args = parser.parse_args()
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if "same-search" in args.which:
        same_search(args.emilia, args.runs, args.depth)
    if "random-games" in args.which:
        random_games(args.runs)


if __name__ == "__main__":
    main()
