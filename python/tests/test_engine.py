"""The pipe client against Emilia's binary in both protocols, against GRhino, and against
engines that die, stay silent or answer garbage."""

import os
import shutil
import signal
import sys
import time

import pytest

from emilia.engine import (
    EngineError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    SimpleEngine,
    _Position,
)

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
EMILIA = os.environ.get("EMILIA", os.path.join(ROOT, "target", "release", "emilia"))
GRHINO = shutil.which("gtp-rhino") or shutil.which("/usr/games/gtp-rhino")
FAKE = [sys.executable, os.path.join(os.path.dirname(__file__), "fake_engine.py")]


def gone(engine):
    """Whether the engine's process and every process of its group have ended, or do
    within a tenth of a second (a killed process takes a moment to go; zombies, which only
    wait for their parent to collect them, count as ended)."""
    for _ in range(10):
        if engine._process.poll() is None or group_runs(engine._process.pid):
            time.sleep(0.01)
        else:
            return True
    return False


def group_runs(group):
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[2]) == group:
                return True
    return False


def play_out(black, white, limit, size=8):
    """Plays a game between two engines; returns the moves and the final position."""
    moves, position = [], _Position(size)
    while not position.is_game_over():
        if not position.moves():
            position.play("pass")
            moves.append("pass")
        engine = black if position.to_move == "black" else white
        result = engine.play(moves, limit, size=size)
        assert result.move in (position.moves() or ["pass"])
        position.play(result.move)
        moves.append(result.move)
    return moves, position


def test_emilia_over_gtp_reports_its_search():
    with SimpleEngine.popen_gtp([EMILIA, "--book", "off", "--threads", "1"]) as engine:
        result = engine.play("f5d6", Limit(depth=6))
        assert result.move in _position("f5d6").moves()
        assert (result.depth, result.book, result.exact) == (6, False, False)
        assert result.nodes > 0 and result.seconds >= 0
        assert engine.play("f5d6c3", Limit(time=0.2)).seconds < 0.2 + 1
    assert gone(engine)


def _position(transcript):
    position = _Position(8)
    for i in range(0, len(transcript), 2):
        position.play(transcript[i : i + 2])
    return position


def test_emilia_plays_itself_on_every_size_in_both_protocols():
    for size in (6, 8, 10, 12):
        with (
            SimpleEngine.popen_gtp([EMILIA]) as black,
            SimpleEngine.popen_nboard([EMILIA]) as white,
        ):
            moves, position = play_out(black, white, Limit(depth=2), size)
            assert len(moves) >= 9
            assert position.count("black") + position.count("white") <= size * size
        assert gone(black) and gone(white)


def test_a_game_clock_and_a_move_time_bound_the_search():
    with SimpleEngine.popen_nboard([EMILIA, "--book", "off"]) as engine:
        assert engine.play("f5", Limit(time=0.3)).seconds < 0.3 + 1
        clock = Limit(black_clock=1.0, white_clock=1.0)
        assert engine.play("f5d6", clock).seconds < 1.0


def test_a_refused_move_is_an_error_and_the_session_goes_on():
    with SimpleEngine.popen_gtp([EMILIA]) as engine:
        with pytest.raises(ValueError):
            engine.play("f5f5", Limit(depth=1))
        assert engine.play("f5", Limit(depth=1)).move in _position("f5").moves()


@pytest.mark.skipif(GRHINO is None, reason="GRhino's gtp-rhino is not installed (grhino)")
def test_grhino_plays_emilia():
    with SimpleEngine.popen_gtp([GRHINO]) as black, SimpleEngine.popen_gtp([EMILIA]) as white:
        assert "GRhino" in black.name
        moves, position = play_out(black, white, Limit(time=1))
        with pytest.raises(ValueError):
            black.play(moves, Limit(depth=1))  # GTP has no depth limit
    assert gone(black) and gone(white)


@pytest.mark.parametrize("protocol", ["gtp", "nboard"])
def test_an_engine_killed_mid_game_raises_terminated(protocol):
    engine = getattr(SimpleEngine, f"popen_{protocol}")([EMILIA], timeout=2.0)
    engine.play("f5", Limit(depth=2))
    os.kill(engine._process.pid, signal.SIGKILL)
    started = time.monotonic()
    with pytest.raises(EngineTerminatedError):
        engine.play("f5d6c3", Limit(depth=2))
    assert time.monotonic() - started < 2.0 + 1
    assert gone(engine)


@pytest.mark.parametrize("protocol", ["gtp", "nboard"])
def test_an_engine_that_never_answers_raises_in_time(tmp_path, protocol):
    pid_file = tmp_path / "child"
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        getattr(SimpleEngine, f"popen_{protocol}")(FAKE + ["silent", str(pid_file)], timeout=1.5)
    assert time.monotonic() - started < 1.5 + 1
    time.sleep(0.2)
    assert not alive(int(pid_file.read_text()))


def alive(pid):
    """Whether process `pid` runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_an_engine_silent_mid_game_raises_in_time(tmp_path):
    engine = SimpleEngine.popen_gtp(FAKE + ["silent", str(tmp_path / "child"), "after-hello"])
    engine.timeout = 1.0
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        engine.play("f5", Limit(time=0.5))
    assert time.monotonic() - started < 0.5 + 1.0 + 1
    assert gone(engine)


@pytest.mark.parametrize("how", ["timeout", "close"])
def test_a_silent_engine_and_its_child_end_with_it(tmp_path, how):
    pid_file = tmp_path / "child"
    started = time.monotonic()
    if how == "timeout":
        with pytest.raises(EngineTimeoutError):
            SimpleEngine.popen_gtp(FAKE + ["silent", str(pid_file)], timeout=1.0)
        assert time.monotonic() - started < 1.0 + 1
    else:
        engine = SimpleEngine.popen_gtp(FAKE + ["silent", str(pid_file), "after-hello"])
        engine.close()
        assert gone(engine)
    time.sleep(0.2)
    assert not alive(int(pid_file.read_text()))


@pytest.mark.parametrize("protocol", ["gtp", "nboard"])
def test_an_engine_that_answers_garbage_raises(protocol):
    started = time.monotonic()
    with pytest.raises(EngineError) as error:
        engine = getattr(SimpleEngine, f"popen_{protocol}")(FAKE + ["garbage"], timeout=1.5)
        engine.play("f5", Limit(depth=2))
    assert time.monotonic() - started < 1.5 + 1
    assert "not an engine" in str(error.value) or isinstance(error.value, EngineTimeoutError)


def test_analyse_over_gtp_gives_the_in_process_values():
    import emilia

    game = "f5d6c3d3c4"
    with SimpleEngine.popen_gtp([EMILIA, "--book", "off", "--threads", "1"]) as engine:
        every = engine.analyse(game, Limit(depth=5))
        best = engine.analyse(game, Limit(depth=5), multipv=2)
        with pytest.raises(ValueError):
            engine.analyse(game, Limit(black_clock=10, white_clock=10))
    board = emilia.Board.from_transcript(game)
    local = emilia.Engine(threads=1, book=False).analyse(board, Limit(depth=5))
    assert [(r.move, r.score, r.depth) for r in every] == [
        (r.move, r.score, r.depth) for r in local
    ]
    assert sorted(r.move for r in every) == sorted(board.legal_moves())
    assert [r.move for r in best] == [r.move for r in every[:2]]
    assert all(r.pv == [r.move] and r.book is False and r.exact is False for r in every)


def test_analyse_over_nboard():
    position = _Position(8)
    for move in ("f5", "d6", "c3", "d3", "c4"):
        position.play(move)
    with SimpleEngine.popen_nboard([EMILIA, "--threads", "1"]) as engine:
        booked = engine.analyse("f5d6c3d3c4", Limit(depth=4), multipv=3)
        timed = engine.analyse("f5d6c3d3c4f4", Limit(time=0.3))
        with pytest.raises(ValueError):
            engine.analyse("f5", Limit(nodes=1000))
    assert len(booked) == 3 and all(r.book for r in booked)
    assert [r.score for r in booked] == sorted((r.score for r in booked), reverse=True)
    assert len({r.move for r in booked}) == 3 and {r.move for r in booked} <= set(position.moves())
    position.play("f4")
    assert timed and {r.move for r in timed} <= set(position.moves())
    with SimpleEngine.popen_nboard([EMILIA, "--book", "off", "--threads", "1"]) as engine:
        searched = engine.analyse("f5d6c3d3c4", Limit(depth=4))
    assert sorted(r.move for r in searched) == sorted(_Position_after("f5d6c3d3c4").moves())
    assert all(r.depth == 4 and not r.book for r in searched)


def _Position_after(transcript):
    position = _Position(8)
    for i in range(0, len(transcript), 2):
        position.play(transcript[i : i + 2])
    return position
