"""What comes into the in-process board and engine from Python: every value checked where it
enters, with the package's own error naming it; no panic reaching Python; Ctrl-C ending a
long search; iterables read only as far as a board goes; the games both engines take."""

import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
import warnings

import pytest

import emilia
from emilia import (
    Board,
    Engine,
    IllegalMoveError,
    InvalidBoardError,
    Limit,
    LimitError,
    OptionError,
)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EMILIA = os.environ.get("EMILIA", os.path.join(ROOT, "target", "release", "emilia"))


@pytest.fixture(scope="module")
def engine():
    return Engine(threads=1, hash=16, book=False)


def test_clock_values_the_engine_cannot_take_are_refused_and_leave_it_working(engine):
    for fields, shown in (
        ({"black_clock": 0.1, "black_inc": 1e18}, "1e+18"),
        ({"black_clock": 1.8e19}, "1.8e+19"),
        ({"time": float("inf")}, "inf"),
        ({"time": float("nan")}, "nan"),
        ({"time": -1}, "-1"),
        ({"black_clock": "5"}, "'5'"),
    ):
        # LimitError where the engine takes the Limit (a ValueError, as a check in Limit
        # itself would raise).
        with pytest.raises(ValueError) as error:
            engine.play(Board(8), Limit(**fields))
        assert shown in str(error.value), (fields, str(error.value))
    # Nothing was left half done: an idle stop shortens no later search.
    engine.stop()
    assert engine.play(Board(8), Limit(depth=8)).depth == 8
    # The largest clock the protocols take plays at once on a short depth.
    assert engine.play(Board(8), Limit(depth=2, black_clock=1e9, black_inc=1e9)).depth == 2


def test_option_ranges_are_the_option_tables():
    for options, shown in (
        ({"threads": 10**6}, "1000000"),
        ({"threads": 65}, "65"),
        ({"hash": 10**9}, "1000000000"),
        ({"hash": 65537}, "65537"),
        ({"hash": -1}, "-1"),
        ({"threads": -1}, "-1"),
        ({"hash": 1.5}, "1.5"),
        ({"threads": True}, "True"),
        ({"eval": "nonsense"}, "nonsense"),
    ):
        with pytest.raises(OptionError) as error:
            Engine(**options)
        assert shown in str(error.value), (options, str(error.value))
    assert Engine(threads=64, hash=1, book=False).option("threads") == "64"


def test_sizes_depths_and_moves_of_the_wrong_kind_name_the_value(engine):
    cases = [
        (lambda: Board(-1), InvalidBoardError, "-1"),
        (lambda: Board(2**70), InvalidBoardError, str(2**70)),
        (lambda: Board("8"), InvalidBoardError, "'8'"),
        (lambda: Board.from_transcript("f5", size=-3), InvalidBoardError, "-3"),
        (lambda: engine.play(Board(8), Limit(depth=-1)), ValueError, "-1"),
        (lambda: engine.play(Board(8), Limit(depth=0)), ValueError, "0"),
        (lambda: engine.play(Board(8), Limit(depth=1000)), ValueError, "1000"),
        (lambda: engine.play(Board(8), Limit(nodes=-5)), ValueError, "-5"),
        (lambda: engine.analyse(Board(8), Limit(depth=2), multipv=-1), LimitError, "-1"),
        (lambda: Board(8).perft(-1), LimitError, "-1"),
        (lambda: Board(8).perft(2.5), LimitError, "2.5"),
        (lambda: Board.from_array([0] * 64), InvalidBoardError, "rows"),
        (lambda: Board(8).play(37), IllegalMoveError, "37"),
        (lambda: Board(8).play(None), IllegalMoveError, "None"),
        (lambda: Board.from_transcript(["f5", 37]), InvalidBoardError, "37"),
        (lambda: Board.from_transcript(["f5", "a1"]), InvalidBoardError, "a1"),
    ]
    for action, kind, shown in cases:
        with pytest.raises(kind) as error:
            action()
        message = str(error.value)
        assert shown in message, message
        assert "r#" not in message and "integral type conversion" not in message, message
    assert not Board(8).is_legal(37)


def test_a_board_being_searched_can_be_played_on():
    engine = Engine(threads=1, hash=16, book=False)
    board = Board(8)
    found = []
    search = threading.Thread(target=lambda: found.append(engine.play(board, Limit(time=1.0))))
    search.start()
    time.sleep(0.3)
    board.play("f5")  # the engine searches a copy of the position it was given
    board.play("d6")
    search.join()
    assert found and found[0].move in Board(8).legal_moves()
    assert board.transcript() == "f5d6"


def test_an_endless_iterable_is_read_only_as_far_as_a_board_goes():
    # In a process of its own: a reader that does not stop would never return.
    script = (
        "import itertools, emilia\n"
        "for rows in (itertools.repeat([0] * 8), [itertools.repeat(0)] * 8):\n"
        "    try:\n"
        "        emilia.Board.from_array(rows)\n"
        "    except emilia.InvalidBoardError as error:\n"
        "        print(error)\n"
        "try:\n"
        "    emilia.Board.from_transcript(itertools.repeat('f5'))\n"
        "except emilia.InvalidBoardError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30
    ).stdout.splitlines()
    assert len(out) == 3, out
    assert "more than 12 rows" in out[0] and "more than 12 cells" in out[1], out
    assert "f5" in out[2], out


def test_whole_floats_and_bools_are_cells_and_other_values_are_refused():
    numpy = pytest.importorskip("numpy")
    board = Board.from_transcript("f5d6c3")
    rows = board.to_array()
    assert board.turn == "white"
    assert Board.from_array(numpy.array(rows, dtype=numpy.float64), "white") == board
    assert Board.from_array(numpy.array(rows, dtype=numpy.float32), "white") == board
    assert Board.from_array([[float(c) for c in row] for row in rows], 2.0) == board
    flags = numpy.zeros((6, 6), dtype=bool)
    flags[0][0] = True
    assert Board.from_array(flags).squares() == "X" + "-" * 35
    for bad, shown in ((0.5, "0.5"), (3.0, "3.0"), ("1", "'1'"), (float("nan"), "nan")):
        cells = [[0] * 8 for _ in range(8)]
        cells[2][3] = bad
        with pytest.raises(InvalidBoardError) as error:
            Board.from_array(cells)
        assert "row 2, column 3" in str(error.value) and shown in str(error.value)


def test_the_agent_plays_its_engines_move_on_a_float_board_and_warns_when_it_cannot():
    numpy = pytest.importorskip("numpy")
    from emilia.agents import EmiliaAgent

    agent = EmiliaAgent(seconds=0.05, threads=1, hash=16)
    board = numpy.zeros((8, 8))  # float64, numpy's default
    board[3][3] = board[4][4] = 2
    board[3][4] = board[4][3] = 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        move = agent.step(board, 1, 2)
    assert agent.last is not None, "the engine played, not the fallback scan"
    assert "abcdefgh"[move[1]] + str(move[0] + 1) == agent.last.move
    board[0][0] = 0.5
    with pytest.warns(RuntimeWarning, match="0.5"):
        agent.step(board, 1, 2)
    assert agent.last is None
    for seconds in (-1, 0, float("nan"), "1.5", True):
        with pytest.raises(LimitError, match="seconds"):
            EmiliaAgent(seconds=seconds, threads=1, hash=1)


def test_both_engines_take_the_same_games(engine):
    def fresh_search(game):
        result = Engine(threads=1, hash=1, book=False).play(game, Limit(depth=4))
        return result.move, result.nodes, result.score

    by_board = fresh_search(Board.from_transcript("f5d6"))
    same = (
        "f5d6",
        ["f5", "d6"],
        ("f5", "d6"),
        iter(["f5", "d6"]),
        Board.from_transcript(["f5", "d6"]),
    )
    for game in same:
        assert fresh_search(game) == by_board, game
    first = Board(6).legal_moves()[0]
    six = engine.play(first, Limit(depth=2), size=6)
    assert six.move in Board.from_transcript(first, 6).legal_moves()
    assert [r.move for r in engine.analyse("f5d6", Limit(depth=3))] == [
        r.move for r in engine.analyse(Board.from_transcript("f5d6"), Limit(depth=3))
    ]
    assert engine.solve("f5", Limit(nodes=1000)).move in Board.from_transcript("f5").legal_moves()
    with pytest.raises(InvalidBoardError):
        engine.play("f5f5", Limit(depth=2))
    with pytest.raises(TypeError):
        engine.play(42, Limit(depth=2))


def test_one_reader_takes_transcripts_board_strings_and_ggf_games(engine):
    played = Board.from_transcript("f5d6c3")
    start = "-------- -------- -------- ---O*--- ---*O--- -------- -------- --------"
    ggf = Board.from_transcript(f"(;GM[Othello]PB[a]PW[b]BO[8 {start} *]B[F5]W[D6]B[C3];)")
    assert ggf == played and ggf.move_stack == ["f5", "d6", "c3"]
    squares = Board.from_transcript(f"{played.squares()} {played.side()}")
    assert squares == played and squares.move_stack == []
    # A board string and a GGF game carry their own size; a transcript is read on `size`.
    ten = Board.from_transcript(Board(10).squares() + " O")
    assert (ten.size, ten.turn) == (10, "white")
    assert Board.from_transcript("g6", size=10).transcript() == "g6"
    with pytest.raises(InvalidBoardError, match="game of 10x10"):
        Board.from_transcript("g6", size=8)
    for bad in ("(;GM[Othello]BO[8 nonsense];)", "XO-- X", "f5 f5"):
        with pytest.raises(InvalidBoardError):
            Board.from_transcript(bad)
    assert Board.from_transcript(" ", 6) == Board(6)  # no moves yet
    # The in-process engine reads its games the same way.
    result = engine.play(f"{played.squares()} {played.side()}", Limit(depth=2))
    assert result.move in played.legal_moves()


def test_passes_in_a_transcript_are_plies_of_their_own():
    rng = random.Random(5)
    for _ in range(100):
        board = Board(6)
        while (moves := board.legal_moves()) and board.move_stack[-1:] != ["pass"]:
            board.play(rng.choice(moves))
        if moves:
            break
    assert board.move_stack[-1] == "pass" and not board.is_game_over()
    # The transcript leaves passes implicit; a pass written at its end is kept.
    for text in (board.transcript() + "pass", board.transcript() + " PA"):
        again = Board.from_transcript(text, 6)
        assert again == board and again.move_stack == board.move_stack, text
        assert again.pop() == "pass" and again.move_stack == board.move_stack[:-1]
    ahead = Board.from_transcript(board.transcript(), 6)
    assert ahead.turn != board.turn and ahead.move_stack == board.move_stack[:-1]


def test_the_board_is_drawn_as_the_command_line_draws_it():
    board = Board.from_transcript("f5d6c3d3c4")
    out = subprocess.run(
        [EMILIA],
        input="play black f5\nplay white d6\nplay black c3\nplay white d3\nplay black c4\n"
        "showboard\nquit\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()

    ours = [line.split()[1:] for line in str(board).splitlines()[1:9]]
    theirs = [
        [c.replace("*", ".") for c in line.split()[1:9]]
        for line in out
        if line.split() and line.split()[0].isdigit()
    ]
    assert ours == theirs, (str(board), out)


INTERRUPTED = r"""
import signal, sys, time, emilia
# A child started in the background inherits SIGINT ignored; a user's Ctrl-C is not.
signal.signal(signal.SIGINT, signal.default_int_handler)
what = sys.argv[1]
engine = emilia.Engine(threads=1, hash=16, book=False)
engine.play(emilia.Board(6), emilia.Limit(depth=1))
print("ready", flush=True)
try:
    if what == "play":
        engine.play(emilia.Board(8), emilia.Limit(time=15))
    elif what == "solve":
        engine.solve(emilia.Board(6), emilia.Limit(time=12))
    else:
        emilia.Board(8).perft(13)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    # The engine works on, and no stop is left over: the next search goes to its depth.
    engine.stop()
    print("after", engine.play(emilia.Board(8), emilia.Limit(depth=6)).depth, flush=True)
"""


def line_within(stream, seconds):
    """The next line of `stream`, or "" when none comes within `seconds`."""
    ready, _, _ = select.select([stream], [], [], seconds)
    return stream.readline() if ready else ""


@pytest.mark.parametrize("what", ["play", "solve", "perft"])
def test_ctrl_c_ends_a_long_search_at_once(what):
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED, what], stdout=subprocess.PIPE, text=True
    )
    try:
        assert line_within(child.stdout, 60).strip() == "ready"
        time.sleep(0.5)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        words = line_within(child.stdout, 5).split()
        assert words[:1] == ["interrupted"], words
        # Within 0.2 s on a quiet machine (20 ms is the poll); generous here for load.
        assert float(words[1]) - sent < 1.5, float(words[1]) - sent
        assert line_within(child.stdout, 60).split() == ["after", "6"]
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
        child.wait()


def test_the_limit_error_is_the_packages_and_a_value_error():
    assert issubclass(LimitError, ValueError)
    assert emilia.LimitError is LimitError
    # What the compiled engine raises for the bounds it is given.
    core = Engine(threads=1, hash=1, book=False)._core
    for bounds in ({"depth": -1}, {"clock": 0.1, "increment": 1e18}, {"time": float("inf")}):
        with pytest.raises(LimitError):
            core.search(Board(8), **bounds)
