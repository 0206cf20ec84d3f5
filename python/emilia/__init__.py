"""Emilia's Python package: Othello boards of side 6, 8, 10 and 12 and Emilia's engine
in-process (``emilia.Board``, ``emilia.Engine``), and ``emilia.engine``, a client for any
Othello engine that speaks GTP or NBoard over pipes. Both take a ``Limit`` and give a
``PlayResult``.

The pipe client is plain Python: it imports without the compiled module, which the
in-process names are loaded from on first use.
"""

from .engine import Limit, PlayResult

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Engine",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBoardError",
    "Limit",
    "LimitError",
    "OptionError",
    "PlayResult",
]

_COMPILED = {
    "Board",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBoardError",
    "LimitError",
    "OptionError",
}


def __getattr__(name):
    # Each name is loaded once, then kept in the module, where the next look-up finds it
    # without this call (``emilia.Board(8)`` in a loop).
    if name in _COMPILED:
        from . import _emilia

        value = getattr(_emilia, name)
    elif name == "Engine":
        from .inprocess import Engine

        value = Engine
    else:
        raise AttributeError(f"module 'emilia' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
