"""A client for Othello engines that speak GTP or NBoard, in the standard library only.

    from emilia.engine import Limit, SimpleEngine

    with SimpleEngine.popen_gtp(["emilia"]) as engine:
        result = engine.play("f5d6", Limit(depth=6))   # the game so far: a transcript
        print(result.move, result.score, result.depth)

The names follow python-chess's ``chess.engine`` where they fit. The client keeps the game
itself (with its own rules, so that it sends the passes an engine expects and checks every
move it gets back), waits for each answer at most the search's time bound plus ``timeout``
seconds, and ends the engine's process group on ``close()``, on leaving a ``with`` block,
and on any failure: a dead engine raises EngineTerminatedError, a silent one
EngineTimeoutError, one that answers what is not its protocol EngineError.
"""

import dataclasses
import os
import queue
import signal
import subprocess
import threading
import time

__all__ = [
    "EngineError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Limit",
    "PlayResult",
    "SimpleEngine",
]


class EngineError(RuntimeError):
    """The engine refused a command or answered what its protocol does not allow."""


class EngineTerminatedError(EngineError):
    """The engine's process exited."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine gave no answer within the search's time bound plus the margin."""


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


class SimpleEngine:
    """An engine process and a session with it; start one with popen_gtp or popen_nboard.

    ``timeout`` is the margin, in seconds, that every answer may take past the time bound
    of its search (past nothing for commands that do not search).
    """

    def __init__(self, command, protocol, timeout=10.0, stderr=subprocess.DEVNULL):
        if isinstance(command, str):
            command = command.split()
        self.command, self.protocol, self.timeout = list(command), protocol, timeout
        self._process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            bufsize=1,
            start_new_session=True,  # its own process group, ended with its children
        )
        self._lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._sent, self._size, self.name = None, None, None
        try:
            if protocol == "gtp":
                self.name = self._gtp("name")
                self._commands = set(self._gtp("list_commands").split())
            elif protocol == "nboard":
                self._send("nboard 2")
                self._ping()
                self._send("set depth 60")  # NBoard's level; each `play` sets its own
        except BaseException:
            self.kill()
            raise

    @classmethod
    def popen_gtp(cls, command, timeout=10.0, **kwargs):
        """Starts an engine that speaks GTP (``emilia``, ``edax -gtp``, ``gtp-rhino``)."""
        return cls(command, "gtp", timeout, **kwargs)

    @classmethod
    def popen_nboard(cls, command, timeout=10.0, **kwargs):
        """Starts an engine that speaks NBoard (``emilia``, ``edax -nboard``, NTest)."""
        return cls(command, "nboard", timeout, **kwargs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_process", None) is not None and self._process.poll() is None:
            self.kill()

    # The process and its lines.

    def _read(self):
        with self._process.stdout:
            try:
                for line in self._process.stdout:
                    self._lines.put(line.rstrip("\r\n"))
            except (OSError, ValueError, UnicodeDecodeError):
                pass
        self._lines.put(None)

    def _send(self, line):
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError):
            status = self.kill()
            raise EngineTerminatedError(f"{self.command[0]} has exited (status {status})") from None

    def _line(self, deadline, waiting_for, soft=False):
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            if soft:
                return None
            self.kill()
            raise EngineTimeoutError(
                f"{self.command[0]} gave no answer to {waiting_for!r} in time"
            ) from None
        if line is None:
            status = self.kill()
            raise EngineTerminatedError(
                f"{self.command[0]} exited (status {status}) before answering {waiting_for!r}"
            )
        return line

    def _garbage(self, what, line):
        self.kill()
        raise EngineError(f"{self.command[0]} answered {what} with {line!r}")

    def kill(self):
        """Ends the engine's process group at once; returns the exit status."""
        process = self._process
        try:  # the group, even when its leader has exited: its children may not have
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            if process.poll() is None:
                process.kill()
        try:
            process.stdin.close()
        except OSError:
            pass
        return process.wait()

    def close(self):
        """Asks the engine to quit, waits a second at most, then ends what is left of its
        process group; returns the exit status."""
        if self._process.poll() is None:
            try:
                self._process.stdin.write("quit\n")
                self._process.stdin.close()
            except (OSError, ValueError):
                pass
            try:
                self._process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        return self.kill()

    # GTP.

    def _gtp(self, command, bound=0.0):
        self._send(command)
        deadline = time.monotonic() + bound + self.timeout
        reply = []
        while True:
            line = self._line(deadline, command)
            if not line.strip():
                if reply:
                    break
                continue
            reply.append(line)
        head = reply[0]
        if head[:1] not in ("=", "?"):
            self._garbage(repr(command), head)
        text = "\n".join([head[1:].strip()] + reply[1:])
        if head[0] == "?":
            raise EngineError(f"{self.command[0]} refused {command!r}: {text}")
        return text

    def _gtp_sync(self, moves, size):
        """Brings the engine's game to `moves`, sending only what it lacks."""
        sent = self._sent if self._size == size else None
        if sent is None or moves[: len(sent)] != sent:
            self._sent = None
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

    def _play_gtp(self, moves, position, limit):
        color = position.to_move
        is_emilia = self._is_emilia()
        command = f"genmove {color}"
        if limit.depth is not None or limit.nodes is not None:
            if not is_emilia:
                raise ValueError(f"{self.name or self.command[0]} takes no depth or node limit")
            if limit.depth is not None:
                command += f" depth {int(limit.depth)}"
            if limit.nodes is not None:
                command += f" nodes {int(limit.nodes)}"
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
            fields = self._gtp("last_search").split()
            report = dict(zip(fields[::2], fields[1::2]))
            result.update(
                score=float(report["score"]),
                depth=int(report["depth"]),
                nodes=int(report["nodes"]),
                exact=report["exact"] == "true",
                book=report["book"] == "true",
            )
        return PlayResult(**result)

    def _check(self, move, position, command):
        legal = position.moves() or ["pass"]
        if move not in legal:
            self._garbage(command, f"{move} (legal: {' '.join(legal)})")

    # NBoard.

    def _ping(self):
        self._ping_number = getattr(self, "_ping_number", 0) + 1
        self._send(f"ping {self._ping_number}")
        deadline = time.monotonic() + self.timeout
        while self._line(deadline, "ping").split() != ["pong", str(self._ping_number)]:
            pass

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
        self._send(f"set depth {int(limit.depth) if limit.depth else 60}")
        self._send(
            f"set game (;GM[Othello]PC[emilia.engine]{clocks}"
            f"TY[{size}]BO[{size} {squares} *]{plies};)"
        )

    def _play_nboard(self, moves, position, limit):
        if limit.nodes is not None:
            raise ValueError("NBoard has no node limit")
        color = position.to_move
        self._send_nboard_game(moves, position, limit)
        started = time.monotonic()
        self._send("go")
        bound = limit.time_bound(color)
        deadline = started + (bound or 0.0) + self.timeout
        stop_at = started + limit.time if limit.time is not None else None
        result = {"nodes": None}
        while True:
            if stop_at is not None and time.monotonic() >= stop_at:
                self._ping_number = getattr(self, "_ping_number", 0) + 1
                self._send(f"ping {self._ping_number}")  # ends the search with its best move
                stop_at = None
            if stop_at is None:
                line = self._line(deadline, "go")
            else:
                line = self._line(min(deadline, stop_at), "go", soft=True)
                if line is None:
                    continue
            words = line.split()
            if not words:
                continue
            if words[0] == "search" and len(words) >= 5:
                result.update(pv=_split_pv(words[1]), score=float(words[2]), depth=words[4])
            elif words[0] == "book" and len(words) >= 3:
                result.update(book=True, score=float(words[2]))
            elif words[0] == "nodestats" and len(words) >= 2:
                result["nodes"] = int(words[1])
            elif words[0] == "===":
                break
            elif words[0] not in ("status", "set", "pong", "nodestats"):
                self._garbage("go", line)
        seconds = time.monotonic() - started
        fields = words[1].split("/") if len(words) > 1 else [""]
        move = fields[0].lower()
        move = "pass" if move == "pa" else move
        self._check(move, position, "go")
        if len(fields) > 1 and fields[1]:
            result["score"] = float(fields[1])
        depth = result.pop("depth", None)
        exact = None
        if depth is not None:
            exact = depth == "100%"
            digits = depth.split("@")[0].rstrip("%")
            depth = None if exact or not digits.isdigit() else int(digits)
        result.setdefault("book", False)
        return PlayResult(move=move, depth=depth, exact=exact, seconds=seconds, **result)

    # Both.

    def play(self, board, limit, size=8):
        """The engine's move in a game from the standard start position.

        ``board`` is the game so far: a transcript (``"f5d6c3"``, passes implicit), a list
        of moves, or an object with ``size`` and ``transcript()``. Raises ValueError if the
        game is not legal or is over.
        """
        moves, position = _read_game(board, getattr(board, "size", size))
        if position.is_game_over():
            raise ValueError("the game is over")
        if self.protocol == "gtp":
            self._gtp_sync(moves, position.size)
            return self._play_gtp(moves, position, limit)
        return self._play_nboard(moves, position, limit)

    def analyse(self, board, limit, multipv=None, size=8):
        """The value of every legal move (or of the best ``multipv``), best first, as
        ``PlayResult``s whose ``pv`` is the move, through the protocol's ``hint N``: Emilia
        over GTP (``depth``, ``time``, ``nodes``) and NBoard engines (``depth`` as the
        level; ``time`` ends the analysis with a ``ping``). The game is as for ``play``.
        A limit or command the engine cannot take is a ValueError."""
        moves, position = _read_game(board, getattr(board, "size", size))
        if position.is_game_over():
            raise ValueError("the game is over")
        if limit.clock("black") is not None or limit.clock("white") is not None:
            raise ValueError("analyse takes a time, depth or node limit, not a game clock")
        count = multipv if multipv is not None else max(1, len(position.moves()))
        if count < 1:
            raise ValueError(f"multipv {count}: expected at least 1")
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
        self._gtp_sync(moves, position.size)
        command = f"hint {int(count)}"
        if limit.depth is not None:
            command += f" depth {int(limit.depth)}"
        if limit.time is not None:
            command += f" movetime {max(1, round(limit.time * 1000))}"
        if limit.nodes is not None:
            command += f" nodes {int(limit.nodes)}"
        scores = []
        for line in self._gtp(command, limit.time or 0.0).splitlines():
            words = line.split()
            try:
                exact = "exact" in words
                depth = None if exact else int(words[words.index("depth") + 1])
                scores.append((words[0].lower(), float(words[1]), depth, exact, "book" in words))
            except (ValueError, IndexError):
                self._garbage(repr(command), line)
        return scores

    def _hint_nboard(self, moves, position, limit, count):
        if limit.nodes is not None:
            raise ValueError("NBoard has no node limit")
        if limit.depth is None and limit.time is None:
            raise ValueError("analyse over NBoard takes a depth or a time")
        self._send_nboard_game(moves, position, limit)
        started = time.monotonic()
        self._send(f"hint {int(count)}")
        deadline = started + (limit.time or 0.0) + self.timeout
        stop_at = started + limit.time if limit.time is not None else None
        block = []  # the moves of the deepest depth so far: each depth lists them again
        while True:
            if stop_at is not None and time.monotonic() >= stop_at:
                self._ping_number = getattr(self, "_ping_number", 0) + 1
                self._send(f"ping {self._ping_number}")  # ends the analysis
                stop_at = None
            line = self._line(deadline if stop_at is None else min(deadline, stop_at), "hint", True)
            if line is None:
                if stop_at is None:
                    self._line(deadline, "hint")  # raises the timeout
                continue
            words = line.split()
            if words == ["status"]:
                break
            if words and words[0] in ("search", "book") and len(words) >= 5:
                move = _split_pv(words[1])[0]
                if any(move == entry[0] for entry in block):
                    block = []
                depth = words[4]
                exact = depth == "100%"
                digits = depth.split("@")[0].rstrip("%")
                depth = None if exact or not digits.isdigit() else int(digits)
                try:
                    block.append((move, float(words[2]), depth, exact, words[0] == "book"))
                except ValueError:
                    self._garbage("hint", line)
            elif words and words[0] not in ("status", "set", "pong", "nodestats"):
                self._garbage("hint", line)
        return block


def _split_pv(text):
    text, moves = text.lower(), []
    while text:
        end = 3 if len(text) > 2 and text[2].isdigit() else 2
        moves.append("pass" if text[:2] == "pa" else text[:end])
        text = text[end:]
    return moves
