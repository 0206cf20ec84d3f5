"""The pipe client against Emilia's binary in both protocols, against GRhino, and against
engines that die, stay silent or answer garbage."""

import math
import os
import shutil
import signal
import sys
import threading
import time

import pytest

from emilia.engine import (
    EngineError,
    EngineOptionError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    LimitError,
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


# The client's rules: a deadline no output postpones, values checked before anything is
# sent, never out of step with the engine.


def outcome_within(seconds, call):
    """What ``call()`` raised (None if it returned), asserting that it came back within
    ``seconds``: it runs on a thread, so that a client that waits for ever fails the test
    instead of holding it."""
    outcome = []

    def run():
        try:
            call()
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    return outcome[0]


def popen(protocol):
    return getattr(SimpleEngine, f"popen_{protocol}")


@pytest.mark.parametrize(
    "protocol, reply", [("gtp", "FLOOD"), ("nboard", "FLOOD"), ("nboard", "STATUS")]
)
def test_an_engine_flooding_what_is_no_answer_raises_in_time(protocol, reply):
    command = "genmove" if protocol == "gtp" else "go"
    engine = popen(protocol)(FAKE + [protocol, f"{command}={reply}"], timeout=1.0)
    try:
        error = outcome_within(0.5 + 1.0 + 2, lambda: engine.play("", Limit(time=0.5)))
        assert isinstance(error, EngineTimeoutError), error
        assert gone(engine)
    finally:
        engine.kill()


@pytest.mark.parametrize("reply, what", [("ENDLESS", "line of more than"), ("LINES", "bytes")])
def test_an_endless_line_or_reply_is_a_protocol_error_at_once(reply, what):
    engine = SimpleEngine.popen_gtp(FAKE + ["gtp", f"genmove={reply}"], timeout=30)
    try:
        error = outcome_within(5, lambda: engine.play("", Limit(time=1)))
        assert isinstance(error, EngineProtocolError) and what in str(error), error
        assert gone(engine)
    finally:
        engine.kill()


REFUSED_LIMITS = [
    ("nboard", Limit(time=math.inf), "inf"),
    ("gtp", Limit(time=9.2e9), "9200000000.0"),
    ("gtp", Limit(time=1e300), "1e+300"),
    ("gtp", Limit(time=math.nan), "nan"),
    ("nboard", Limit(time=math.nan), "nan"),
    ("gtp", Limit(time=-1), "-1"),
    ("nboard", Limit(time=0), "time 0"),
    ("gtp", Limit(black_clock=math.inf), "inf"),
    ("nboard", Limit(black_clock=-0.5), "-0.5"),
    ("gtp", Limit(black_clock=10, black_inc=1e18), "1e+18"),
    ("gtp", Limit(depth=0), "depth 0"),
    ("gtp", Limit(depth=2.5), "2.5"),
    ("nboard", Limit(depth=61), "61"),
    ("gtp", Limit(nodes=2**64), str(2**64)),
    ("gtp", Limit(time="1"), "'1'"),
    ("nboard", Limit(nodes=1000), "node"),
]


@pytest.mark.parametrize("protocol, limit, named", REFUSED_LIMITS)
def test_a_limit_out_of_range_is_refused_before_anything_is_sent(protocol, limit, named):
    with popen(protocol)([EMILIA, "--book", "off", "--threads", "1"], timeout=5) as engine:
        engine.play("c4", Limit(depth=1))
        error = outcome_within(1, lambda: engine.play("c4c5", limit))
        assert isinstance(error, LimitError) and named in str(error), error
        # In step: the next answer is this position's, as a fresh engine's.
        after = engine.play("c4c5b6", Limit(depth=4)).move
    with popen(protocol)([EMILIA, "--book", "off", "--threads", "1"]) as fresh:
        assert after == fresh.play("c4c5b6", Limit(depth=4)).move


def test_a_timeout_out_of_range_is_refused():
    for timeout in (math.inf, math.nan, 0, -1, 1e300, "10"):
        with pytest.raises(LimitError, match="timeout"):
            SimpleEngine.popen_gtp([EMILIA], timeout=timeout)
    with SimpleEngine.popen_gtp([EMILIA]) as engine:
        with pytest.raises(LimitError, match="inf"):
            engine.timeout = math.inf
        assert engine.timeout == 10.0
        with pytest.raises(LimitError, match="multipv 0"):
            engine.analyse("f5", Limit(depth=2), multipv=0)
        with pytest.raises(LimitError, match="timeout"):
            engine.send_command("name", timeout=math.inf)
        assert engine.play("f5", Limit(depth=2)).move in _position("f5").moves()


def test_an_exception_while_an_answer_is_awaited_ends_the_engine():
    def interrupt(*_):
        raise KeyboardInterrupt

    with SimpleEngine.popen_gtp([EMILIA, "--book", "off", "--threads", "1"]) as engine:
        previous = signal.signal(signal.SIGALRM, interrupt)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            with pytest.raises(KeyboardInterrupt):
                engine.play("f5d6", Limit(time=3))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        assert gone(engine)
        # Never an answer meant for another command: the engine is gone, and says why.
        with pytest.raises(EngineTerminatedError, match="KeyboardInterrupt"):
            engine.play("c4c5b6", Limit(depth=4))


NBOARD_GARBAGE = [
    "search F5 abc 0 10\\n=== F5",
    "nodestats xyz\\n=== F5",
    "=== F5/x",
    "search F5 1.0 0 deep\\n=== F5",
    "search Z9 1.0 0 4\\n=== F5",
    "=== F5/1.0/soon",
    "=== J9",
]


@pytest.mark.parametrize("reply", NBOARD_GARBAGE)
def test_an_unreadable_nboard_answer_is_a_protocol_error_naming_it(reply):
    engine = SimpleEngine.popen_nboard(FAKE + ["nboard", f"go={reply}"], timeout=5)
    with pytest.raises(EngineProtocolError) as error:
        engine.play("", Limit(depth=2))
    first = reply.split("\\n")[0]
    assert repr(first)[1:-1] in str(error.value) or "j9" in str(error.value)
    assert gone(engine)
    with pytest.raises(EngineTerminatedError):
        engine.play("", Limit(depth=2))


@pytest.mark.parametrize(
    "replies, named",
    [
        (["genmove== f5", "last_search== depth x score y"], "depth x score y"),
        (["genmove== f5", "last_search== depth 4 score 1 nodes 9 exact maybe book false"], "maybe"),
        (["last_search==", "hint== f5 nan depth 4"], None),
    ],
)
def test_an_unreadable_gtp_report_is_a_protocol_error_naming_it(replies, named):
    engine = SimpleEngine.popen_gtp(FAKE + ["gtp"] + replies, timeout=5)
    with pytest.raises(EngineProtocolError) as error:
        if named is None:
            engine.analyse("", Limit(depth=2))
        else:
            engine.play("", Limit(depth=2))
    assert (named or "nan") in str(error.value)
    assert gone(engine)


def test_an_answer_that_is_not_utf8_is_reported_as_such():
    engine = SimpleEngine.popen_gtp(FAKE + ["gtp", "genmove== \\xff\\xfe"], timeout=5)
    with pytest.raises(EngineProtocolError, match="not UTF-8") as error:
        engine.play("", Limit(time=1))
    assert "exited" not in str(error.value)
    assert gone(engine)


def test_close_and_quit_end_the_engine_once(monkeypatch):
    signalled, killpg = [], os.killpg

    def recording_killpg(group, number):
        signalled.append(group)
        killpg(group, number)

    monkeypatch.setattr(os, "killpg", recording_killpg)
    engine = SimpleEngine.popen_gtp([EMILIA])
    assert engine.close() == 0 and engine.close() == 0 and engine.quit() == 0
    assert signalled == [engine._process.pid]
    for protocol in ("gtp", "nboard"):
        engine = popen(protocol)([EMILIA])
        signalled.clear()
        assert engine.quit() == 0 and engine.quit() == 0 and engine.close() == 0
        assert gone(engine) and len(signalled) == 1
        with pytest.raises(EngineTerminatedError, match="quit"):
            engine.play("f5", Limit(depth=1))


def test_quit_ends_an_engine_that_stays_in_time(tmp_path):
    engine = SimpleEngine.popen_gtp(FAKE + ["silent", str(tmp_path / "child"), "after-hello"])
    engine.timeout = 1.0
    started = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        engine.quit()
    assert time.monotonic() - started < 1.0 + 1
    assert gone(engine)


def test_a_raw_command_over_gtp():
    with SimpleEngine.popen_gtp([EMILIA, "--book", "off", "--threads", "1"]) as engine:
        assert engine.send_command("name") == engine.name == "Emilia"
        assert engine.send_command("7 protocol_version") == "2"
        assert len(engine.send_command("showboard").splitlines()) >= 9
        with pytest.raises(EngineError, match="did you mean 'genmove'"):
            engine.send_command("genmov black")
        engine.send_command("play black f5")  # the engine's game moves on, not the client's
        assert engine.play("", Limit(depth=2)).move in _position("").moves()
        for bad in ("name\nquit", "", "# a comment", "x" * 20000):
            with pytest.raises(ValueError):
                engine.send_command(bad)
        assert engine.send_command("quit") == ""
        assert gone(engine)


def test_a_raw_command_over_nboard():
    with SimpleEngine.popen_nboard([EMILIA, "--threads", "1"]) as engine:
        assert engine.name == "Emilia10"
        assert engine.send_command("set depth 3") == "set myname Emilia3"
        assert engine.send_command("ping 42") == "pong 42"
        assert engine.send_command("go").splitlines()[-1].startswith("=== ")
        assert engine.send_command("hint 2").splitlines()[-1] == "status"
        assert engine.send_command("learn") == "learned"
        assert engine.send_command("set contempt 0") == ""
        assert engine.play("f5", Limit(depth=2)).move in _position("f5").moves()


def test_configure_over_gtp():
    with SimpleEngine.popen_gtp([EMILIA, "--threads", "1"]) as engine:
        engine.configure(probcut=0, book=False)
        engine.configure({"seed": 7})
        options = engine.send_command("setoption").splitlines()
        assert {"probcut 0", "book off", "seed 7"} <= {" ".join(o.split()[:2]) for o in options}
        with pytest.raises(EngineOptionError, match="colour"):
            engine.configure(colour="blue")
        with pytest.raises(EngineOptionError, match="500"):
            engine.configure(probcut=500)
        for name, value in (("book", "off\nquit"), ("two words", 1), ("hash", None)):
            with pytest.raises(EngineOptionError):
                engine.configure({name: value})
        assert not engine.play("", Limit(depth=2)).book
    with SimpleEngine.popen_gtp(FAKE + ["gtp"]) as fake:
        with pytest.raises(EngineOptionError, match="setoption"):
            fake.configure(hash=1)


def test_configure_over_nboard():
    with SimpleEngine.popen_nboard([EMILIA, "--threads", "1"]) as engine:
        assert engine.play("", Limit(depth=2)).book
        engine.configure(book=False)
        assert not engine.play("", Limit(depth=2)).book
        with pytest.raises(EngineOptionError, match="500"):
            engine.configure(probcut=500)
        with pytest.raises(EngineOptionError, match="depth"):
            engine.configure(depth=5)
        assert engine.play("f5", Limit(depth=2)).move in _position("f5").moves()


def test_a_clock_shorter_than_the_move_time_bounds_the_wait():
    engine = SimpleEngine.popen_nboard(FAKE + ["nboard"], timeout=0.5)  # `go` unanswered
    error = outcome_within(0.5 + 0.5 + 2, lambda: engine.play("", Limit(time=30, black_clock=0.5)))
    assert isinstance(error, EngineTimeoutError), error
    assert gone(engine)
