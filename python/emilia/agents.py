"""An agent for course simulators that load ``step(board, player, opponent) -> (row,
column)`` players, with Emilia's engine in-process behind it.

    from emilia.agents import EmiliaAgent

    agent = EmiliaAgent(seconds=1.5)              # the engine is set up here, untimed
    row, column = agent.step(board, player=1, opponent=2)

The board is any sequence of rows of 0 (empty), 1 (Black, who moves first) and 2 (White),
numpy arrays included; ``board[0][0]`` is a1 and ``(row, column)`` indexes the same way.

This agent is a sparring partner and a way to make data (games, positions, scores) for
your own agent: course rules often forbid imports in graded code, so it is not something to
hand in.
"""

import time
import warnings

from . import Board, Engine, Limit, LimitError

__all__ = ["EmiliaAgent"]

_DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


class EmiliaAgent:
    """Plays each move in ``seconds`` (default 1.5: a margin under a simulator's 2 s),
    setting the position from the board it is handed (it does not replay moves, so it
    follows any simulator, passes included). The board's cells may be integers, whole
    floats (numpy's default arrays) or bools. On any error it falls back to a legal move
    found by its own scan of the board, and warns (``RuntimeWarning``) saying why.
    ``engine_options`` go to ``emilia.Engine``."""

    def __init__(self, seconds=1.5, **engine_options):
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise LimitError(f"seconds {seconds!r}: expected a number of seconds")
        if not 0 < seconds <= 1e9:
            raise LimitError(f"seconds {seconds!r}: expected more than 0, at most 1e9")
        self.name = "Emilia"
        self.seconds = seconds
        engine_options.setdefault("hash", 64)
        self.engine = Engine(**engine_options)
        self.last = None  # the last PlayResult, for data making
        # One search before the first timed step, so that nothing is first loaded then.
        self.engine.play(Board(6), Limit(depth=1))

    def step(self, board, player, opponent):
        """The move for ``player`` (1 Black, 2 White) as ``(row, column)``; None if it has
        no legal move (simulators skip such a player instead)."""
        started = time.monotonic()
        try:
            position = Board.from_array(board, player)
            result = self.engine.play(position, Limit(time=self.seconds))
            self.last = result
            if result.move == "pass":
                return None
            return int(result.move[1:]) - 1, "abcdefghijkl".index(result.move[0])
        except Exception as error:  # the simulator must get a move, whatever went wrong
            self.last = None
            warnings.warn(
                f"EmiliaAgent: {type(error).__name__}: {error}; playing the first legal move "
                "of its own scan instead",
                RuntimeWarning,
                stacklevel=2,
            )
            return _any_legal_move(board, player, opponent)
        finally:
            self.seconds_used = time.monotonic() - started


def _any_legal_move(board, player, opponent):
    """The first legal move for ``player`` by a plain scan of the board, or None."""
    rows = [list(row) for row in board]
    size = len(rows)
    for r in range(size):
        for c in range(size):
            if rows[r][c] != 0:
                continue
            for dr, dc in _DIRECTIONS:
                rr, cc, seen = r + dr, c + dc, False
                while 0 <= rr < size and 0 <= cc < size and rows[rr][cc] == opponent:
                    rr, cc, seen = rr + dr, cc + dc, True
                if seen and 0 <= rr < size and 0 <= cc < size and rows[rr][cc] == player:
                    return r, c
    return None
