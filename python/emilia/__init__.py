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
    if name in _COMPILED:
        from . import _emilia

        return getattr(_emilia, name)
    if name == "Engine":
        from .inprocess import Engine

        return Engine
    raise AttributeError(f"module 'emilia' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
