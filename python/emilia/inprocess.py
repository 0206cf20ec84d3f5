"""Emilia's engine in this process: ``emilia.Engine`` over the compiled module.

    import emilia

    board = emilia.Board(8)
    engine = emilia.Engine(threads=1, hash=64, book=False)
    result = engine.play(board, emilia.Limit(time=0.5))
    board.play(result.move)

Searches run without the GIL, so other Python threads go on meanwhile, ``stop()`` from any
thread ends the search under way at once with the best move found so far, and Ctrl-C ends
it too (raising KeyboardInterrupt). The games are those the pipe client takes, the results
its ``PlayResult``, the bounds its ``Limit``.
"""

from ._emilia import Board, EngineCore
from .engine import Limit, PlayResult

__all__ = ["Engine"]


class Engine:
    """Emilia's engine, in-process, keeping its tables between moves and games.

    ``threads``: search threads (None: every core); ``hash``: MiB of search tables;
    ``book``: True for the built-in opening book (8x8), False for none, or a book file's
    path; ``eval``: ``"pattern"`` (trained weights on 8x8, classic elsewhere), ``"classic"``
    or ``"squares"``. Bad values raise OptionError; each option takes what the protocols'
    ``setoption`` of its name takes.
    """

    def __init__(self, threads=None, hash=64, book=True, eval="pattern"):
        if book is True:
            book = "builtin"
        elif book is False or book is None:
            book = "off"
        elif not isinstance(book, str):
            book = str(book)  # a path
        self._core = EngineCore(threads=threads, hash=hash, book=book, eval=str(eval))

    def configure(self, **options):
        """Sets options by their protocol names (``probcut=0``, ``seed=7``,
        ``book_randomness=2``), as ``setoption`` does; raises OptionError."""
        for name, value in options.items():
            if isinstance(value, bool):
                value = "on" if value else "off"
            self._core.set_option(name, str(value))

    def option(self, name):
        """An option's value as the protocols show it; None for an unknown name."""
        return self._core.option(name)

    def play(self, board, limit=None, size=8):
        """The move to play in ``board`` within ``limit`` (a ``Limit``; the mover's clock is
        the one used; no limit: one second), as a ``PlayResult``. ``board`` is an
        ``emilia.Board`` or, as the pipe client takes games, a transcript (``"f5d6"``), a
        list of moves or an object with ``size`` and ``transcript()``, from the start
        position of side ``size``. Raises GameOverError when neither side can move."""
        board = _board(board, size)
        return PlayResult(**self._core.search(board, **_bounds(limit, board.turn)))

    def analyse(self, board, limit=None, multipv=None, size=8):
        """The value of every legal move of ``board`` (or of the best ``multipv``), best
        first, as ``PlayResult``s whose ``pv`` is the move; ``nodes`` and ``seconds`` are the
        whole analysis'. A clock in ``limit`` is not used: give ``time``, ``depth`` or
        ``nodes``. The game is as for ``play``."""
        board = _board(board, size)
        count = multipv if multipv is not None else max(1, len(board.legal_moves()))
        bounds = _bounds(limit, board.turn)
        bounds.pop("clock", None)
        bounds.pop("increment", None)
        scores, nodes, seconds = self._core.hint(board, count, **bounds)
        return [PlayResult.of_move(*entry, nodes=nodes, seconds=seconds) for entry in scores]

    def solve(self, board, limit=None, size=8):
        """The exact result of ``board`` (score: the mover's final disc margin with best
        play), searched to the end of the game unless the ``time`` or ``nodes`` of
        ``limit`` cut it short (then ``exact`` is False). The game is as for ``play``."""
        board = _board(board, size)
        bounds = _bounds(limit, board.turn)
        fields = self._core.solve(board, time=bounds.get("time"), nodes=bounds.get("nodes"))
        return PlayResult(**fields)

    def stop(self):
        """Ends the search under way (from any thread): it returns at once with its best
        move so far. Does nothing when no search runs."""
        self._core.stop()


def _bounds(limit, color):
    if limit is None:
        return {}
    if not isinstance(limit, Limit):
        raise TypeError(f"limit {limit!r}: expected an emilia.Limit")
    bounds = {
        "depth": limit.depth,
        "time": limit.time,
        "nodes": limit.nodes,
        "clock": limit.clock(color),
        "increment": limit.increment(color),
    }
    return {name: value for name, value in bounds.items() if value is not None}


def _board(game, size):
    """An ``emilia.Board`` of a game given as the pipe client takes games: a transcript, any
    iterable of moves, or an object with ``size`` and ``transcript()`` (and, read by the
    same reader, a board string or a GGF game)."""
    if isinstance(game, Board):
        return game
    if hasattr(game, "transcript") and hasattr(game, "size"):
        return Board.from_transcript(game.transcript(), game.size)
    if isinstance(game, str):
        return Board.from_transcript(game, size)
    try:
        moves = iter(game)
    except TypeError:
        raise TypeError(
            f"game {game!r}: expected an emilia.Board, a transcript or a list of moves"
        ) from None
    return Board.from_transcript(moves, size)
