"""Dice Hall game engines: pure Python, no browser imports."""

__version__ = "0.1.0"
