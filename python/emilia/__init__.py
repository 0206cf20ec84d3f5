"""Emilia's Python package: ``emilia.engine`` drives any Othello engine that speaks GTP or
NBoard over pipes."""

__version__ = "0.1.0"
