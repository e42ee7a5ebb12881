"""The games Dice Hall knows, by name."""

from __future__ import annotations

from .games.penta import Penta
from .protocol import Game

GAMES: dict[str, type[Game]] = {game.name: game for game in (Penta,)}


def get_game(name: str) -> type[Game]:
    """The game called `name`; KeyError with the known names otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
