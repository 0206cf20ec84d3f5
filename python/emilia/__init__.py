"""Emilia's Python package: Othello boards of side 6, 8, 10 and 12 and Emilia's engine
in-process (``emilia.Board``, ``emilia.Engine``), and ``emilia.engine``, a client for any
Othello engine that speaks GTP or NBoard over pipes. Both take a ``Limit`` and give a
``PlayResult``."""

from ._emilia import Board, GameOverError, IllegalMoveError, InvalidBoardError, OptionError
from .engine import Limit, PlayResult
from .inprocess import Engine

__version__ = "0.1.0"

__all__ = [
    "Board",
    "Engine",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBoardError",
    "Limit",
    "OptionError",
    "PlayResult",
]
