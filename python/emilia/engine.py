"""A client for Othello engines that speak GTP or NBoard, in the standard library only.

    from emilia.engine import Limit, SimpleEngine

    with SimpleEngine.popen_gtp(["emilia"]) as engine:
        result = engine.play("f5d6", Limit(depth=6))   # the game so far: a transcript
        print(result.move, result.score, result.depth)

The names follow python-chess's ``chess.engine`` where they fit. The client keeps the game
itself (with its own rules, so that it sends the passes an engine expects and checks every
move it gets back), and three rules, which python/README.md states in full: every value is
checked where it enters, before anything is sent (LimitError, EngineOptionError,
ValueError); every wait has a deadline that nothing the engine writes can postpone (the
search's time bound plus ``timeout``, then EngineTimeoutError); and the client never falls
out of step with its engine: it reads every answer whole or ends the engine's process
group (EngineTerminatedError, EngineProtocolError, and any exception while an answer is
awaited), after which every command raises EngineTerminatedError.
"""

import dataclasses
import functools
import math
import numbers
import os
import re
import selectors
import signal
import subprocess
import time

__all__ = [
    "EngineError",
    "EngineOptionError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Limit",
    "LimitError",
    "PlayResult",
    "SimpleEngine",
]

_MAX_SECONDS = 1e7  # a time, clock, increment or timeout (about 115 days)
_MAX_NODES = 2**64 - 1
_MAX_LINE = 1 << 16  # bytes of one line from the engine
_MAX_REPLY = 1 << 20  # bytes of one answer (a GTP reply, the lines before a pong)
_MAX_COMMAND = 16384  # bytes of one line sent, as Emilia reads at most
_NBOARD_SET_BY_CLIENT = ("depth", "game", "myname")  # `set` names play and analyse send


class LimitError(ValueError):
    """A search bound the client will not send (a ``Limit`` field, ``multipv`` or a
    ``timeout``): not a number, out of range, or one the protocol or engine cannot take.
    Raised before anything is sent; the session goes on."""


class EngineError(RuntimeError):
    """The engine refused a command or answered what its protocol does not allow."""


class EngineTerminatedError(EngineError):
    """The engine's process exited, or the client ended it after a failure."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine gave no answer within the search's time bound plus the margin."""


class EngineProtocolError(EngineError):
    """The engine answered what its protocol does not allow or what cannot be read (the
    message quotes the line); the client has ended it."""


class EngineOptionError(EngineError, ValueError):
    """An option the engine does not have or refused, or one the client will not send (a
    name with spaces, a value with line breaks, a name the client sets itself); the
    session goes on."""


@dataclasses.dataclass(frozen=True)
class Limit:
    """What bounds a search: the first bound reached ends it.

    ``time`` is this move's time in seconds; ``white_clock``/``black_clock`` the time left on
    a game clock in seconds and ``white_inc``/``black_inc`` its increment a move; ``depth``
    in plies, ``nodes`` a node count (engines that take them: Emilia over GTP).
    """

    time: float = None
    depth: int = None
    nodes: int = None
    white_clock: float = None
    black_clock: float = None
    white_inc: float = None
    black_inc: float = None

    def clock(self, color):
        return self.black_clock if color == "black" else self.white_clock

    def increment(self, color):
        return self.black_inc if color == "black" else self.white_inc

    def time_bound(self, color):
        """The longest the search may take by this limit, in seconds; None if unbounded."""
        bounds = [t for t in (self.time, self.clock(color)) if t is not None]
        return min(bounds) if bounds else None


@dataclasses.dataclass(frozen=True)
class PlayResult:
    """The engine's move (``"f5"``, ``"pass"``) and what it says of its search: the score in
    discs for the mover, depth, nodes, principal variation, whether the score is exact,
    whether the move came from a book, and the seconds the command took. What the engine
    does not report is None."""

    move: str
    score: float = None
    depth: int = None
    nodes: int = None
    pv: list = None
    exact: bool = None
    book: bool = None
    seconds: float = None

    @classmethod
    def of_move(cls, move, score, depth, exact, book, nodes=None, seconds=None):
        """One move's value in an analysis (``analyse``): its ``pv`` is the move alone."""
        return cls(move, score, depth, nodes, [move], exact, book, seconds)


_DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


class _Position:
    """The rules, enough to follow a game: cells hold "black", "white" or None."""

    def __init__(self, size):
        if size not in (6, 8, 10, 12):
            raise ValueError(f"board size {size}: expected 6, 8, 10 or 12")
        self.size = size
        self.cells = [None] * (size * size)
        half = size // 2
        for row, col, color in ((half - 1, half - 1, "white"), (half - 1, half, "black")):
            self.cells[row * size + col] = color
            self.cells[(size - 1 - row) * size + (size - 1 - col)] = color
        self.to_move = "black"

    def _flips(self, index, color):
        size, row, col = self.size, index // self.size, index % self.size
        other = "white" if color == "black" else "black"
        flips = []
        for dr, dc in _DIRECTIONS:
            line, r, c = [], row + dr, col + dc
            while 0 <= r < size and 0 <= c < size and self.cells[r * size + c] == other:
                line.append(r * size + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < size and 0 <= c < size and self.cells[r * size + c] == color:
                flips += line
        return flips

    def moves(self, color=None):
        color = color or self.to_move
        return [
            self.name(index)
            for index in range(self.size * self.size)
            if self.cells[index] is None and self._flips(index, color)
        ]

    def name(self, index):
        return "abcdefghijkl"[index % self.size] + str(index // self.size + 1)

    def index(self, move):
        move = move.strip().lower()
        col, row = "abcdefghijkl".find(move[:1]), move[1:]
        if col < 0 or col >= self.size or not row.isdigit() or not 1 <= int(row) <= self.size:
            raise ValueError(f"{move!r} is not a square of the {self.size}x{self.size} board")
        return (int(row) - 1) * self.size + col

    def is_game_over(self):
        return not self.moves("black") and not self.moves("white")

    def play(self, move):
        """Plays a move (a square or "pass") for the side to move."""
        other = "white" if self.to_move == "black" else "black"
        if move.lower() in ("pass", "pa", "ps", "--"):
            if self.moves():
                raise ValueError(f"{self.to_move} passed with a legal move")
        else:
            index = self.index(move)
            flips = self.cells[index] is None and self._flips(index, self.to_move)
            if not flips:
                raise ValueError(f"illegal move {move} for {self.to_move}")
            for square in flips + [index]:
                self.cells[square] = self.to_move
        self.to_move = other

    def count(self, color):
        return self.cells.count(color)


def _read_game(board, size):
    """The moves of a game (passes made explicit) and the position they reach."""
    if isinstance(board, str):
        text = board.replace(" ", "")
        moves = []
        while text:
            if text[:2].lower() in ("pa", "ps", "--"):
                moves.append("pass")
                text = text[2:] if text[:4].lower() != "pass" else text[4:]
                continue
            end = 2 if len(text) < 3 or not text[2].isdigit() else 3
            moves.append(text[:end])
            text = text[end:]
    elif hasattr(board, "transcript") and hasattr(board, "size"):
        return _read_game(board.transcript(), board.size)
    else:
        moves = list(board)
    position, played = _Position(size), []
    for number, move in enumerate(moves, 1):
        if move.lower() != "pass" and not position.moves():
            position.play("pass")
            played.append("pass")
        try:
            position.play(move)
        except ValueError as error:
            raise ValueError(f"move {number} of the game: {error}") from None
        played.append(move.lower() if move.lower() != "pass" else "pass")
    if not position.is_game_over() and not position.moves():
        position.play("pass")
        played.append("pass")
    return played, position


def _seconds(what, value, positive=False):
    """A time from the user, in seconds: a finite number, at least 0 (more than 0 if
    ``positive``) and at most _MAX_SECONDS."""
    try:
        seconds = None if isinstance(value, bool) else float(value)
    except (TypeError, ValueError, OverflowError):
        seconds = None
    if seconds is None or not isinstance(value, numbers.Real):
        raise LimitError(f"{what} {value!r}: expected a number of seconds")
    if not (math.isfinite(seconds) and (seconds > 0 or not positive and seconds == 0)):
        least = "more than 0" if positive else "at least 0"
        raise LimitError(f"{what} {value!r}: expected a finite number of seconds, {least}")
    if seconds > _MAX_SECONDS:
        raise LimitError(f"{what} {value!r}: at most {_MAX_SECONDS:.0f} seconds")
    return seconds


def _whole(what, value, most):
    """A count from the user: a whole number from 1 to ``most``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise LimitError(f"{what} {value!r}: expected a whole number")
    if not 1 <= int(value) <= most:
        raise LimitError(f"{what} {value!r}: expected 1 to {most}")
    return int(value)


def _checked(limit, protocol):
    """``limit`` with every value checked and made a plain number."""
    if not isinstance(limit, Limit):
        raise TypeError(f"limit {limit!r}: expected an emilia.engine.Limit")
    seconds = {"time": True, "white_clock": False, "black_clock": False}
    seconds.update(white_inc=False, black_inc=False)
    values = {
        name: None if getattr(limit, name) is None else _seconds(name, getattr(limit, name), p)
        for name, p in seconds.items()
    }
    # NBoard's depth is its level, 1 to 60.
    depth_most = 60 if protocol == "nboard" else 2**32 - 1
    if limit.depth is not None:
        values["depth"] = _whole("depth", limit.depth, depth_most)
    if limit.nodes is not None:
        values["nodes"] = _whole("nodes", limit.nodes, _MAX_NODES)
    return Limit(**values)


def _command_line(line):
    """A command line from the user, checked: one line of text that gets an answer."""
    if not isinstance(line, str):
        raise TypeError(f"command {line!r}: expected a str")
    if not line.strip() or line.lstrip().startswith("#"):
        raise ValueError(f"command {line!r}: empty or a comment, which gets no answer")
    if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in line):
        raise ValueError(f"command {line!r}: one line without control characters expected")
    if len(line.encode()) > _MAX_COMMAND:
        raise ValueError(f"command of {len(line.encode())} bytes: at most {_MAX_COMMAND}")
    return line.strip()


def _option(name, value, protocol):
    """An option's name and value as the protocol sends them, checked."""
    if not isinstance(name, str) or not name or any(c.isspace() or ord(c) < 32 for c in name):
        raise EngineOptionError(f"option name {name!r}: expected a word")
    if protocol == "nboard" and name.lower() in _NBOARD_SET_BY_CLIENT:
        raise EngineOptionError(f"option {name!r}: over NBoard the client sets it itself")
    if isinstance(value, bool):
        text = "on" if value else "off"
    elif isinstance(value, (str, numbers.Number)):
        text = str(value).strip()
    else:
        raise EngineOptionError(f"option {name} {value!r}: expected text, a number or a bool")
    if not text or any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in text):
        raise EngineOptionError(f"option {name} {value!r}: expected one line of text")
    if len(f"setoption {name} {text}".encode()) > _MAX_COMMAND:
        raise EngineOptionError(f"option {name}: a value of at most {_MAX_COMMAND} bytes")
    return name, text


def _keeping_step(method):
    """Runs a public command so that any exception raised while an answer is awaited (a
    failure, Ctrl-C) ends the engine: the client could not tell which later line answers
    what."""

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except BaseException as error:
            if self._awaiting is not None and self._status is None:
                what = type(error).__name__
                self._ended = f"ended by the client on {what} awaiting {self._awaiting!r}"
                self.kill()
            raise

    return run


class SimpleEngine:
    """An engine process and a session with it; start one with popen_gtp or popen_nboard.

    ``timeout`` is the margin, in seconds, that every answer may take past the time bound
    of its search (past nothing for commands that do not search). ``name`` is what the
    engine calls itself: GTP's ``name``, NBoard's ``set myname`` (Emilia adds its level
    there, ``Emilia10``); None if it says nothing.
    """

    def __init__(self, command, protocol, timeout=10.0, stderr=subprocess.DEVNULL):
        if isinstance(command, str):
            command = command.split()
        if protocol not in ("gtp", "nboard"):
            raise ValueError(f"protocol {protocol!r}: expected 'gtp' or 'nboard'")
        if not command:
            raise ValueError("command []: expected the engine's program and arguments")
        self.command, self.protocol, self.timeout = list(command), protocol, timeout
        self.name, self._commands, self._ping_number = None, set(), 0
        self._sent, self._size = None, None  # the game the engine has (GTP)
        self._awaiting = None  # the command whose answer is being read
        self._status = None  # the exit status, once the client has ended the process
        self._ended = None  # why the engine takes no more commands
        self._buffer, self._eof = bytearray(), False
        self._process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,  # its own process group, ended with its children
        )
        os.set_blocking(self._process.stdin.fileno(), False)
        self._readable = selectors.DefaultSelector()
        self._readable.register(self._process.stdout, selectors.EVENT_READ)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self._process.stdin, selectors.EVENT_WRITE)
        try:
            if protocol == "gtp":
                self.name = self._gtp("name")
                self._commands = set(self._gtp("list_commands").split())
            else:
                self._send("nboard 2")
                self._send("set depth 60")  # NBoard's level; each `play` sets its own
                for line in self._ping():
                    words = line.split(maxsplit=2)
                    if words[:2] == ["set", "myname"] and len(words) == 3 and not self.name:
                        self.name = words[2]  # the answer to `nboard 2`
        except BaseException:
            self.kill()
            raise

    @classmethod
    def popen_gtp(cls, command, timeout=10.0, **kwargs):
        """Starts an engine that speaks GTP (``emilia``, ``edax -gtp``,
        ``/usr/games/gtp-rhino``)."""
        return cls(command, "gtp", timeout, **kwargs)

    @classmethod
    def popen_nboard(cls, command, timeout=10.0, **kwargs):
        """Starts an engine that speaks NBoard (``emilia``, ``edax -nboard``, NTest)."""
        return cls(command, "nboard", timeout, **kwargs)

    @property
    def timeout(self):
        """The margin past a search's time bound that an answer may take, in seconds."""
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        self._timeout = _seconds("timeout", value, positive=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_process", None) is not None and self._status is None:
            self.kill()

    # The process and its lines.

    def _usable(self):
        if self._status is not None:
            raise EngineTerminatedError(f"{self.command[0]} no longer runs: {self._ended}")

    def _fail(self, error, message):
        """Ends the engine and raises ``error``."""
        self._ended = message
        self.kill()
        raise error(message)

    def _exit_seen(self, when):
        """Raises EngineTerminatedError for an engine found to have exited."""
        self._ended = "exited"
        status = self.kill()  # collects it: its status is known only then
        self._ended = f"{self.command[0]} exited (status {status}) {when}"
        raise EngineTerminatedError(self._ended)

    def _too_long(self, command):
        message = f"{self.command[0]} answered {command!r} with more than {_MAX_REPLY} bytes"
        self._fail(EngineProtocolError, message)

    def _garbage(self, what, line):
        self._fail(EngineProtocolError, f"{self.command[0]} answered {what} with {line!r}")

    def _send(self, line):
        """Writes a line, waiting at most ``timeout`` for the engine to take it."""
        self._usable()
        data = (line + "\n").encode()
        deadline = time.monotonic() + self._timeout
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail(EngineTimeoutError, f"{self.command[0]} did not read {line!r} in time")
            try:
                if self._writable.select(min(remaining, 60.0)):
                    data = data[os.write(self._process.stdin.fileno(), data) :]
            except BlockingIOError:
                continue
            except OSError:
                self._exit_seen(f"before reading {line!r}")

    def _line(self, deadline, waiting_for, soft=False):
        """The next line from the engine, by ``deadline``, which no output postpones; with
        ``soft``, None when the deadline passes."""
        while True:
            end = self._buffer.find(b"\n", 0, _MAX_LINE + 1)
            if end < 0 and len(self._buffer) > _MAX_LINE:
                self._fail(
                    EngineProtocolError,
                    f"{self.command[0]} answered {waiting_for!r} with a line of more than "
                    f"{_MAX_LINE} bytes, starting {bytes(self._buffer[:40])!r}",
                )
            if time.monotonic() >= deadline:
                if soft:
                    return None
                self._fail(
                    EngineTimeoutError,
                    f"{self.command[0]} gave no answer to {waiting_for!r} in time",
                )
            if end >= 0 or self._eof and self._buffer:
                end = end if end >= 0 else len(self._buffer)
                raw = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                try:
                    return raw.decode("utf-8").rstrip("\r")
                except UnicodeDecodeError:
                    self._fail(
                        EngineProtocolError,
                        f"{self.command[0]} answered {waiting_for!r} with a line that is not "
                        f"UTF-8: {raw[:80]!r}",
                    )
            if self._eof:
                self._exit_seen(f"before answering {waiting_for!r}")
            if self._readable.select(min(deadline - time.monotonic(), 60.0)):
                try:
                    chunk = os.read(self._process.stdout.fileno(), 1 << 16)
                except OSError:
                    chunk = b""
                self._buffer += chunk
                self._eof = not chunk

    def _exited(self):
        """Whether the engine's process has exited, without collecting it: until kill()
        collects it, its pid, which is its group's id, cannot go to another process."""
        if self._process.returncode is not None:
            return True
        if not hasattr(os, "waitid"):
            return self._process.poll() is not None
        try:
            flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
            return os.waitid(os.P_PID, self._process.pid, flags) is not None
        except ChildProcessError:
            return True

    def kill(self):
        """Ends the engine's process group at once; returns the exit status. Once ended,
        it returns the same status and signals nothing."""
        if self._status is not None:
            return self._status
        process = self._process
        try:  # the group, even when its leader has exited: its children may not have
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            if process.poll() is None:
                process.kill()
        for stream in (process.stdin, process.stdout, self._readable, self._writable):
            try:
                stream.close()
            except OSError:
                pass
        self._status = process.wait()
        if self._ended is None:
            self._ended = f"ended (status {self._status})"
        return self._status

    def close(self):
        """Asks the engine to quit, waits a second at most, then ends what is left of its
        process group; returns the exit status. Again, it returns the same status."""
        if self._status is None and not self._exited():
            try:
                os.write(self._process.stdin.fileno(), b"quit\n")
            except OSError:
                pass
            deadline = time.monotonic() + 1.0
            while not self._exited() and time.monotonic() < deadline:
                time.sleep(0.01)
        self._ended = self._ended or "closed"
        return self.kill()

    def quit(self):
        """Sends ``quit`` (GTP's answer is read) and waits ``timeout`` seconds at most for
        the engine to exit, then ends what is left of its process group and returns the
        exit status (EngineTimeoutError, the engine ended, if it did not exit). Again, or
        after ``close()``, it returns the same status."""
        if self._status is not None:
            return self._status
        deadline = time.monotonic() + self._timeout
        try:
            if self.protocol == "gtp":
                self._gtp("quit")
            else:
                self._send("quit")
        except EngineTerminatedError:
            pass  # it left without answering
        except EngineError:
            if self._status is not None:
                raise  # a wrong answer or none: ended, and said so
            # refused: it is ended below
        while not self._exited():
            if time.monotonic() >= deadline:
                self._fail(EngineTimeoutError, f"{self.command[0]} did not exit after quit")
            time.sleep(0.01)
        self._ended = "it quit"
        return self.kill()

    # GTP.

    def _gtp_reply(self, command, deadline):
        """Sends a GTP command and reads its reply whole: whether it was ``=`` (else
        ``?``) and its text, without the command's id."""
        self._awaiting = command
        self._send(command)
        reply, size = [], 0
        while True:
            line = self._line(deadline, command)
            if not line.strip():
                if reply:
                    break
                continue
            if not reply and line[:1] not in ("=", "?"):
                self._garbage(repr(command), line)
            size += len(line) + 1
            if size > _MAX_REPLY:
                self._too_long(command)
            reply.append(line)
        self._awaiting = None
        head, ident = reply[0], re.match(r"\d+", command)
        text = head[1:]
        if ident and text.startswith(ident.group()):
            text = text[len(ident.group()) :]
        return head[0] == "=", "\n".join([text.strip()] + reply[1:])

    def _gtp(self, command, bound=0.0):
        """A GTP command's answer; EngineError with the engine's message for a ``?``."""
        accepted, text = self._gtp_reply(command, time.monotonic() + bound + self._timeout)
        if not accepted:
            raise EngineError(f"{self.command[0]} refused {command!r}: {text}")
        return text

    def _gtp_sync(self, moves, size):
        """Brings the engine's game to `moves`, sending only what it lacks."""
        sent = self._sent if self._size == size else None
        self._sent = None  # unknown until every command below is answered
        if sent is None or moves[: len(sent)] != sent:
            self._gtp(f"boardsize {size}")
            self._gtp("clear_board")
            sent = []
        color = "black" if len(sent) % 2 == 0 else "white"
        for move in moves[len(sent) :]:
            if move != "pass":  # left implicit, as Quarry does: not every engine reads one
                self._gtp(f"play {color} {move}")
            color = "white" if color == "black" else "black"
        self._sent, self._size = list(moves), size

    def _is_emilia(self):
        return self.protocol == "gtp" and "last_search" in self._commands

    def _gtp_limit_check(self, limit):
        if (limit.depth is not None or limit.nodes is not None) and not self._is_emilia():
            raise LimitError(f"{self.name or self.command[0]} takes no depth or node limit")

    def _play_gtp(self, moves, position, limit):
        color = position.to_move
        is_emilia = self._is_emilia()
        command = f"genmove {color}"
        if limit.depth is not None:
            command += f" depth {limit.depth}"
        if limit.nodes is not None:
            command += f" nodes {limit.nodes}"
        if limit.time is not None:
            if is_emilia:
                command += f" movetime {max(1, round(limit.time * 1000))}"
            else:
                # GTP's times are whole seconds.
                self._gtp(f"time_settings 0 {max(1, int(limit.time))} 1")
        elif limit.clock(color) is not None:
            self._gtp("time_settings 36000 0 0")
            if limit.increment(color) and "time_increment" in self._commands:
                self._gtp(f"time_increment {limit.increment(color):.3f}")
            clock = limit.clock(color)
            self._gtp(
                f"time_left {color} {clock:.3f} 0"
                if is_emilia
                else f"time_left {color} {max(1, int(clock))} 0"
            )
        started = time.monotonic()
        move = self._gtp(command, limit.time_bound(color) or 0.0).lower()
        seconds = time.monotonic() - started
        self._check(move, position, "genmove")
        self._sent.append(move)
        result = {"move": move, "seconds": seconds, "pv": [move]}
        if is_emilia and move != "pass":
            text = self._gtp("last_search")
            fields = text.split()
            report = dict(zip(fields[::2], fields[1::2], strict=False))
            try:
                result.update(
                    score=_number(report["score"]),
                    depth=int(report["depth"]),
                    nodes=int(report["nodes"]),
                    exact=_flag(report["exact"]),
                    book=_flag(report["book"]),
                )
            except (KeyError, ValueError):
                self._garbage("'last_search'", text)
        return PlayResult(**result)

    def _check(self, move, position, command):
        legal = position.moves() or ["pass"]
        if move not in legal:
            self._garbage(command, f"{move} (legal: {' '.join(legal)})")

    # NBoard.

    def _ping(self, deadline=None):
        """Sends ``ping N`` and reads up to its ``pong N``; the lines before it."""
        self._ping_number += 1
        ping = f"ping {self._ping_number}"
        self._awaiting = ping
        self._send(ping)
        deadline = time.monotonic() + self._timeout if deadline is None else deadline
        lines, size = [], 0
        while True:
            line = self._line(deadline, ping)
            if line.split() == ["pong", str(self._ping_number)]:
                self._awaiting = None
                return lines
            size += len(line) + 1
            if size > _MAX_REPLY:
                self._too_long(ping)
            lines.append(line)

    def _send_nboard_game(self, moves, position, limit):
        """Sends the level and the game (with its clocks) to an NBoard engine."""
        size = position.size
        start = _Position(size)
        squares = "".join({"black": "*", "white": "O", None: "-"}[c] for c in start.cells)
        clocks = ""
        for tag, side in (("TB", "black"), ("TW", "white")):
            if limit.clock(side) is not None:
                clocks += f"{tag}[{limit.clock(side):.3f}/{limit.increment(side) or 0:.3f}]"
        plies, side = "", "black"
        for move in moves:
            plies += (
                f"{'B' if side == 'black' else 'W'}[{'PA' if move == 'pass' else move.upper()}]"
            )
            side = "white" if side == "black" else "black"
        self._send(f"set depth {limit.depth or 60}")
        self._send(
            f"set game (;GM[Othello]PC[emilia.engine]{clocks}"
            f"TY[{size}]BO[{size} {squares} *]{plies};)"
        )

    def _nboard_search(self, command, deadline, stop_at, is_end):
        """Sends ``go`` or ``hint N`` and yields the split lines of the answer up to the one
        ``is_end`` accepts, which ends it; at ``stop_at`` a ``ping`` ends the search with
        what it has (its ``pong`` is read too). Blank lines and ``status``/``set`` lines
        are skipped."""
        self._awaiting = command
        self._send(command)
        ping = None
        if stop_at is not None:
            stop_at = min(stop_at, deadline)  # then the ping's answer is awaited no longer
        while True:
            if stop_at is not None and time.monotonic() >= stop_at:
                self._ping_number += 1
                ping, stop_at = self._ping_number, None
                self._send(f"ping {ping}")
            if stop_at is None:
                line = self._line(deadline, command)
            else:
                line = self._line(min(deadline, stop_at), command, soft=True)
                if line is None:
                    continue  # the stop time
            words = line.split()
            if ping is not None and words == ["pong", str(ping)]:
                ping = None  # answered before the search's end: nothing left to read
            elif is_end(words):
                break
            elif words and words[0] not in ("status", "set", "pong"):
                yield words, line
        yield words, line
        if ping is not None:
            while self._line(deadline, f"ping {ping}").split() != ["pong", str(ping)]:
                pass
        self._awaiting = None

    def _play_nboard(self, moves, position, limit):
        color = position.to_move
        self._send_nboard_game(moves, position, limit)
        started = time.monotonic()
        deadline = started + (limit.time_bound(color) or 0.0) + self._timeout
        stop_at = started + limit.time if limit.time is not None else None
        result, search = {"nodes": None, "book": False}, None
        for words, line in self._nboard_search("go", deadline, stop_at, _is_move_line):
            try:
                if words[0] == "search":
                    search = (_pv(words[1]), _number(words[2]), _depth(words[4]))
                elif words[0] == "book":
                    result.update(book=True, score=_number(words[2]))
                elif words[0] == "nodestats":
                    result["nodes"] = int(words[1])
                elif words[0] == "===":
                    move, score = _move_line(words)
                else:
                    raise ValueError(line)
            except (ValueError, IndexError):
                self._garbage("go", line)
        seconds = time.monotonic() - started
        self._check(move, position, "go")
        if search is not None:
            pv, result["score"], (result["depth"], result["exact"]) = search
            result["pv"] = pv
        if score is not None:
            result["score"] = score
        return PlayResult(move=move, seconds=seconds, **result)

    # Both.

    @_keeping_step
    def play(self, board, limit, size=8):
        """The engine's move in a game from the standard start position.

        ``board`` is the game so far: a transcript (``"f5d6c3"``, passes implicit), a list
        of moves, or an object with ``size`` and ``transcript()``. Raises ValueError if the
        game is not legal or is over, LimitError for a limit the client will not send.
        """
        moves, position = _read_game(board, getattr(board, "size", size))
        if position.is_game_over():
            raise ValueError("the game is over")
        limit = _checked(limit, self.protocol)
        if self.protocol == "gtp":
            self._gtp_limit_check(limit)
            self._gtp_sync(moves, position.size)
            return self._play_gtp(moves, position, limit)
        if limit.nodes is not None:
            raise LimitError("NBoard has no node limit")
        return self._play_nboard(moves, position, limit)

    @_keeping_step
    def analyse(self, board, limit, multipv=None, size=8):
        """The value of every legal move (or of the best ``multipv``), best first, as
        ``PlayResult``s whose ``pv`` is the move, through the protocol's ``hint N``: Emilia
        over GTP (``depth``, ``time``, ``nodes``) and NBoard engines (``depth`` as the
        level; ``time`` ends the analysis with a ``ping``). The game is as for ``play``.
        A limit the engine cannot take is a LimitError, a command it lacks a ValueError."""
        moves, position = _read_game(board, getattr(board, "size", size))
        if position.is_game_over():
            raise ValueError("the game is over")
        limit = _checked(limit, self.protocol)
        if limit.clock("black") is not None or limit.clock("white") is not None:
            raise LimitError("analyse takes a time, depth or node limit, not a game clock")
        if multipv is not None:
            multipv = _whole("multipv", multipv, 2**31 - 1)
        count = multipv if multipv is not None else max(1, len(position.moves()))
        started = time.monotonic()
        if self.protocol == "gtp":
            scores = self._hint_gtp(moves, position, limit, count)
        else:
            scores = self._hint_nboard(moves, position, limit, count)
        seconds = time.monotonic() - started
        legal = position.moves() or ["pass"]
        for move, *_ in scores:
            if move not in legal:
                self._garbage("hint", f"{move} (legal: {' '.join(legal)})")
        return [PlayResult.of_move(*entry, seconds=seconds) for entry in scores[:count]]

    def _hint_gtp(self, moves, position, limit, count):
        if "hint" not in self._commands:
            raise ValueError(f"{self.name or self.command[0]} has no hint command")
        self._gtp_limit_check(limit)
        self._gtp_sync(moves, position.size)
        command = f"hint {count}"
        if limit.depth is not None:
            command += f" depth {limit.depth}"
        if limit.time is not None:
            command += f" movetime {max(1, round(limit.time * 1000))}"
        if limit.nodes is not None:
            command += f" nodes {limit.nodes}"
        scores = []
        for line in self._gtp(command, limit.time or 0.0).splitlines():
            words = line.split()
            try:
                exact = "exact" in words
                depth = None if exact else int(words[words.index("depth") + 1])
                score = _number(words[1])
                scores.append((words[0].lower(), score, depth, exact, "book" in words))
            except (ValueError, IndexError):
                self._garbage(repr(command), line)
        return scores

    def _hint_nboard(self, moves, position, limit, count):
        if limit.nodes is not None:
            raise LimitError("NBoard has no node limit")
        if limit.depth is None and limit.time is None:
            raise LimitError("analyse over NBoard takes a depth or a time")
        self._send_nboard_game(moves, position, limit)
        started = time.monotonic()
        deadline = started + (limit.time or 0.0) + self._timeout
        stop_at = started + limit.time if limit.time is not None else None
        block = []  # the moves of the deepest depth so far: each depth lists them again
        for words, line in self._nboard_search(
            f"hint {count}", deadline, stop_at, lambda words: words == ["status"]
        ):
            if words == ["status"]:
                continue  # the end (the generator reads on to the ping's pong)
            try:
                if words[0] not in ("search", "book"):
                    raise ValueError(line)
                move = _pv(words[1])[0]
                if any(move == entry[0] for entry in block):
                    block = []
                depth, exact = _depth(words[4])
                block.append((move, _number(words[2]), depth, exact, words[0] == "book"))
            except (ValueError, IndexError):
                self._garbage("hint", line)
        return block

    @_keeping_step
    def send_command(self, line, timeout=None):
        """Sends one command line as it is and returns the engine's answer, waiting at
        most ``timeout`` seconds (the engine's ``timeout`` if None).

        Over GTP the answer is the text after ``=`` (lines joined with newlines, the id
        left out); a ``?`` raises EngineError with the engine's message, and the session
        goes on. Over NBoard it is the lines up to the one that ends the command's answer:
        ``===`` for ``go``, the bare ``status`` for ``hint`` and ``analyze``, ``learned``
        for ``learn``, ``pong N`` for ``ping N``; for any other command, the lines the
        engine writes before it answers a ``ping`` sent after it. ``quit`` is ``quit()``.
        The command may change the engine's game, so the next ``play`` or ``analyse``
        sends the whole game again.
        """
        line = _command_line(line)
        wait = self._timeout if timeout is None else _seconds("timeout", timeout, True)
        words = line.lower().split()
        word = words[1] if self.protocol == "gtp" and words[0].isdigit() and words[1:] else words[0]
        if word == "quit":
            self.quit()
            return ""
        self._usable()
        self._sent = None
        deadline = time.monotonic() + wait
        if self.protocol == "gtp":
            accepted, text = self._gtp_reply(line, deadline)
            if not accepted:
                raise EngineError(f"{self.command[0]} refused {line!r}: {text}")
            return text
        ends = {
            "go": _is_move_line,
            "hint": lambda words: words == ["status"],
            "analyze": lambda words: words == ["status"],
            "learn": lambda words: words == ["learned"],
            "ping": lambda answer: answer == ["pong"] + words[1:2],
        }
        if word not in ends:
            self._awaiting = line
            self._send(line)
            return "\n".join(self._ping(deadline))
        self._awaiting = line
        self._send(line)
        lines, size = [], 0
        while True:
            answer = self._line(deadline, line)
            size += len(answer) + 1
            if size > _MAX_REPLY:
                self._too_long(line)
            lines.append(answer)
            if ends[word](answer.split()):
                self._awaiting = None
                return "\n".join(lines)

    @_keeping_step
    def configure(self, options=None, /, **more):
        """Sets engine options: ``configure(threads=1, hash=128)`` or ``configure({"hash":
        128})``; True and False are sent as on and off. Over GTP as ``setoption NAME
        VALUE`` (Emilia's command; an engine without it raises EngineOptionError), over
        NBoard as ``set NAME VALUE`` and a ``ping``: a ``status`` line before the ``pong``
        is the engine refusing the value, as Emilia does (NBoard engines ignore names they
        do not have; ``depth`` and ``game`` are the client's own there). Every option is
        checked before the first is sent; one the client will not send or the engine
        refuses raises EngineOptionError naming it (those before it are set), and the
        session goes on."""
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options {options!r}: expected a dict")
        settings = [_option(n, v, self.protocol) for n, v in {**(options or {}), **more}.items()]
        if self.protocol == "gtp" and "setoption" not in self._commands:
            raise EngineOptionError(
                f"{self.name or self.command[0]} has no setoption command (GTP has no standard one)"
            )
        for name, value in settings:
            if self.protocol == "gtp":
                command = f"setoption {name} {value}"
                deadline = time.monotonic() + self._timeout
                accepted, text = self._gtp_reply(command, deadline)
                complaint = None if accepted else text
            else:
                self._awaiting = f"set {name} {value}"
                self._send(f"set {name} {value}")
                status = [line for line in self._ping() if line.split()[:1] == ["status"]]
                complaint = status[0][len("status") :].strip() if status else None
            if complaint:
                raise EngineOptionError(
                    f"{self.command[0]} refused option {name} {value!r}: {complaint}"
                )


def _is_move_line(words):
    return words[:1] == ["==="]


def _move_line(words):
    """The move and score of NBoard's ``=== F5/0.52/1.30``; ValueError if unreadable."""
    fields = words[1].split("/")
    move = fields[0].lower()
    move = "pass" if move == "pa" else move
    if len(fields) > 2 and fields[2]:
        _number(fields[2])
    return move, _number(fields[1]) if len(fields) > 1 and fields[1] else None


def _number(text):
    """A finite number written by the engine; ValueError if it is none."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(text)
    return number


def _flag(text):
    if text not in ("true", "false"):
        raise ValueError(text)
    return text == "true"


def _depth(text):
    """NBoard's depth field: ``22``, ``100%`` (exact) or ``24@95%`` (a selective search to
    the end) as (depth, exact); ValueError if unreadable."""
    match = re.fullmatch(r"(\d+)(@\d+(\.\d+)?%|%)?", text)
    if not match:
        raise ValueError(text)
    if text == "100%":
        return None, True
    return int(match.group(1)), False


def _pv(text):
    """The moves of an NBoard principal variation (``F5D6PA``); ValueError if unreadable."""
    text = text.lower()
    if not re.fullmatch(r"([a-l](1[0-2]|[1-9])|pa)+", text):
        raise ValueError(text)
    moves = re.findall(r"[a-l](?:1[0-2]|[1-9])|pa", text)
    return ["pass" if move == "pa" else move for move in moves]
