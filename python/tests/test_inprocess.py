"""The in-process board and engine: perft against the binary's, games on every size, stop()
from a thread, the GIL released while searching, the formats in and out, typed errors."""

import os
import random
import subprocess
import threading
import time

import pytest

import emilia
from emilia import (
    Board,
    Engine,
    GameOverError,
    IllegalMoveError,
    InvalidBoardError,
    Limit,
    OptionError,
    PlayResult,
)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EMILIA = os.environ.get("EMILIA", os.path.join(ROOT, "target", "release", "emilia"))
PERFT_DEPTH = {6: 8, 8: 7, 10: 6, 12: 5}


def binary_perft(depth, size, board=None):
    command = [EMILIA, "perft", str(depth), "--size", str(size)]
    if board is not None:
        command += ["--board", board.squares(), board.side()]
    lines = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in lines.splitlines()]
    return {int(row[0]): int(row[1]) for row in rows if row and row[0].isdigit()}


def random_board(size, plies, seed):
    rng, board = random.Random(seed), Board(size)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.play(rng.choice(board.legal_moves()))
    return board


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_perft_equals_the_binarys_on_every_size(size):
    depth = PERFT_DEPTH[size]
    counts = binary_perft(depth, size)
    assert [Board(size).perft(d) for d in range(1, depth + 1)] == [
        counts[d] for d in range(1, depth + 1)
    ]
    midgame = random_board(size, 12, seed=size)
    assert midgame.perft(depth - 2) == binary_perft(depth - 2, size, midgame)[depth - 2]


@pytest.fixture(scope="module")
def engine():
    return Engine(threads=1, hash=16, book=False)


@pytest.mark.parametrize("size", [6, 8, 10, 12])
def test_a_game_on_every_size(engine, size):
    board, played = Board(size), 0
    while not board.is_game_over():
        legal = board.legal_moves()
        result = engine.play(board, Limit(depth=3))
        assert isinstance(result, PlayResult)
        assert result.move in legal, (result.move, legal)
        assert result.pv[0] == result.move
        assert result.depth >= 1 and result.nodes >= 0 and result.seconds >= 0
        board.play(result.move)
        played += 1
    black, white = board.discs()
    assert board.result() == (
        f"B+{black - white + (size * size - black - white)}"
        if black > white
        else f"W+{white - black + (size * size - black - white)}"
        if white > black
        else "0"
    )
    assert board.legal_moves() == []
    assert played >= size * size - 4 - 10  # a few squares may stay empty
    again = Board.from_transcript(board.transcript(), size)
    assert again == board and again.transcript() == board.transcript()
    with pytest.raises(GameOverError):
        engine.play(board, Limit(depth=2))


def test_the_same_search_as_the_binary(engine):
    # The binary's figure: `printf 'setoption threads 1\ngenmove black depth 10\nlast_search\n'
    # | emilia --book off`.
    out = subprocess.run(
        [EMILIA, "--book", "off"],
        input="setoption threads 1\ngenmove black depth 10\nlast_search\nquit\n",
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    answers = [line[2:] for line in out.splitlines() if line.startswith("= ") and line[2:]]
    move, fields = answers[0], answers[1].split()
    report = dict(zip(fields[::2], fields[1::2], strict=False))
    ours = Engine(threads=1, hash=64, book=False).play(Board(8), Limit(depth=10))
    assert ours.move == move
    assert ours.nodes == int(report["nodes"])
    assert ours.score == float(report["score"])


def test_stop_from_another_thread_ends_the_search_at_once():
    engine = Engine(threads=1, hash=16, book=False)
    board = Board(12)
    threading.Timer(0.3, engine.stop).start()
    started = time.monotonic()
    result = engine.play(board, Limit(time=60))
    elapsed = time.monotonic() - started
    assert elapsed < 3.0, elapsed
    assert result.move in board.legal_moves()
    # A stop with no search under way shortens no later search.
    engine.stop()
    assert engine.play(board, Limit(depth=4)).depth == 4


def test_other_threads_run_while_the_engine_searches():
    engine = Engine(threads=1, hash=16, book=False)
    ticks, searching = [0], threading.Event()

    def count():
        searching.wait()
        while searching.is_set():
            ticks[0] += 1

    counter = threading.Thread(target=count)
    counter.start()
    searching.set()
    before = ticks[0]
    engine.play(Board(10), Limit(time=0.5))
    during = ticks[0] - before
    searching.clear()
    counter.join()
    # Holding the GIL for the search's half second would leave the counter a few thousand
    # ticks of the interpreter's 5 ms switch interval at most.
    assert during > 100_000, during


def test_analyse_values_every_move_or_the_best_n(engine):
    board = Board.from_transcript("f5d6c3d3c4")
    every = engine.analyse(board, Limit(depth=5))
    assert sorted(r.move for r in every) == sorted(board.legal_moves())
    scores = [r.score for r in every]
    assert scores == sorted(scores, reverse=True)
    assert all(r.depth == 5 and not r.book for r in every)
    best = engine.analyse(board, Limit(depth=5), multipv=2)
    assert [r.move for r in best] == [r.move for r in every[:2]]
    booked = Engine(threads=1, hash=16, book=True).analyse(Board(8), Limit(depth=3), multipv=2)
    assert all(r.book for r in booked) and len(booked) == 2


def negamax(board):
    """The mover's exact final margin, by full search: an independent check of solve."""
    if board.is_game_over():
        black, white = board.discs()
        empty = board.size * board.size - black - white
        margin = black - white + (empty if black > white else -empty if white > black else 0)
        return margin if board.turn == "black" else -margin
    best = None
    for move in board.legal_moves():
        child = board.copy()
        child.play(move)
        value = -negamax(child)
        best = value if best is None else max(best, value)
    return best


def test_solve_is_exact(engine):
    for seed in range(3):
        board = random_board(6, 36 - 4 - 7, seed)
        if board.is_game_over():
            continue
        result = engine.solve(board)
        assert result.exact
        assert result.score == negamax(board)
        child = board.copy()
        child.play(result.move)
        assert -negamax(child) == result.score


def test_strings_arrays_and_transcripts_round_trip():
    for size in (6, 8, 10, 12):
        board = random_board(size, 20, seed=size)
        squares = board.squares()
        assert len(squares) == size * size and set(squares) <= set("XO-")
        assert Board.from_squares(squares, board.side()) == board
        assert eval(repr(board), {"Board": Board}) == board
        rows = board.to_array()
        assert len(rows) == size and all(len(row) == size for row in rows)
        assert rows[0][0] == {"X": 1, "O": 2, "-": 0}[squares[0]]
        assert Board.from_array(rows, board.turn) == board
        assert Board.from_transcript(board.transcript(), size) == board
    start = Board(8).to_array()
    assert (start[3][3], start[3][4], start[4][3], start[4][4]) == (2, 1, 1, 2)  # d4 White
    assert str(Board(6)).splitlines()[0].split() == list("abcdef")


def test_numpy_arrays_in_and_out():
    numpy = pytest.importorskip("numpy")
    board = random_board(10, 15, seed=3)
    array = numpy.array(board.to_array())
    assert array.shape == (10, 10)
    assert Board.from_array(array, board.turn) == board
    assert Board.from_array(array.astype(numpy.int8), 2 if board.turn == "white" else 1) == board


def test_equality_hashing_and_copies():
    a = Board.from_transcript("f5f6e6f4")
    b = Board.from_squares(a.squares(), a.side())
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    c = a.copy()
    c.play(c.legal_moves()[0])
    assert c != a and a == b and a.transcript() == "f5f6e6f4"
    assert Board(8) != Board(6) and Board(8) != "board"


def test_passes():
    # The first forced pass of random 6x6 games: "pass" is the one legal move, and plays.
    passes = 0
    for seed in range(40):
        rng, board = random.Random(seed), Board(6)
        while not board.is_game_over():
            legal = board.legal_moves()
            if legal == ["pass"]:
                turn = board.turn
                unchanged(
                    board,
                    lambda board=board: board.play("a1" if board.squares()[0] != "-" else "zz"),
                )
                board.play("pass")
                assert board.turn != turn and board.legal_moves() not in ([], ["pass"])
                passes += 1
                break
            assert "pass" not in legal
            board.play(rng.choice(legal))
    assert passes > 0
    with pytest.raises(IllegalMoveError):
        Board(8).play("pass")


def unchanged(board, action):
    before = (board.squares(), board.side(), board.transcript())
    with pytest.raises(ValueError) as error:
        action()
    assert (board.squares(), board.side(), board.transcript()) == before
    return error


def test_bad_input_raises_typed_errors_and_changes_nothing():
    board = Board.from_transcript("f5d6")
    for move in ("a1", "d4", "pass", "z9", "f", "", "f55", "i1"):
        error = unchanged(board, lambda move=move: board.play(move))
        assert error.type is IllegalMoveError, move
    assert not board.is_legal("a1") and board.is_legal(board.legal_moves()[0])
    bad = [
        lambda: Board(7),
        lambda: Board.from_squares("X-O", "X"),
        lambda: Board.from_squares("-" * 64, "Q"),
        lambda: Board.from_squares("-" * 63 + "?", "X"),
        lambda: Board.from_transcript("f5a1"),
        lambda: Board.from_transcript("f5", size=9),
        lambda: Board.from_array([[0] * 8] * 7),
        lambda: Board.from_array([[0] * 8] * 7 + [[0] * 7]),
        lambda: Board.from_array([[3] * 8] * 8),
        lambda: Board.from_array([[0] * 8] * 8, turn="red"),
        lambda: Board.from_array(5),
    ]
    for action in bad:
        with pytest.raises(InvalidBoardError):
            action()
    assert issubclass(IllegalMoveError, ValueError) and issubclass(InvalidBoardError, ValueError)


def test_bad_engine_options_raise_option_errors(engine):
    for options in ({"hash": 0}, {"threads": 0}, {"eval": "nonsense"}, {"book": "/no/such/book"}):
        with pytest.raises(OptionError):
            Engine(**options)
    with pytest.raises(OptionError):
        engine.configure(no_such_option=1)
    with pytest.raises(OptionError):
        engine.configure(probcut="lots")
    assert engine.option("threads") == "1"
    with pytest.raises(ValueError):
        engine.play(Board(8), Limit(time=-1))
    with pytest.raises(TypeError):
        engine.play(Board(8), {"depth": 3})
    assert emilia.Limit is emilia.engine.Limit
