"""Helpers shared by the test folders (engine, front end, browser): paths, catalogs, game trees.

Games come from trees that mirror the project root (`pygame_core/games/<id>/`,
`web/dicehall/games/<id>/`): the project itself, the tests' fixture tree (the game `claim`,
always known), and any folder named in the environment variable DICEHALL_EXTRA_GAMES (several
separated by the path separator). An extra tree is registered exactly like a real game package
would be, so every suite that walks the registry — conformance, catalogs, the shell — takes its
games in with no edit to any shared file (tests/test_outside_game.py does so with a sixth game).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "web"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

FIXTURES = ROOT / "tests" / "fixtures"
EXTRA_ROOTS = [Path(p) for p in os.environ.get("DICEHALL_EXTRA_GAMES", "").split(os.pathsep) if p]
GAME_ROOTS = [ROOT, FIXTURES, *EXTRA_ROOTS]  # the project first
LANGS = ["en", "nb", "sv", "pl", "ar"]


def register_game_tree(root: Path) -> None:
    """Make the games of a tree mirroring the project root known, the way a real game is: a
    folder the registry searches, and its view packages found by game id like any other."""
    from pygame_core import registry

    registry.add_games_dir(str(root / "pygame_core" / "games"))
    import dicehall.games as views

    path = str(root / "web" / "dicehall" / "games")
    if path not in views.__path__:
        views.__path__.append(path)


def register_fixture_game() -> None:
    """The fixture game `claim`, and the games of DICEHALL_EXTRA_GAMES."""
    for root in GAME_ROOTS[1:]:
        register_game_tree(root)


def game_web_dir(name: str) -> Path:
    """A game's view package: web/dicehall/games/<id>/ of the first tree that has it."""
    for root in GAME_ROOTS:
        path = root / "web" / "dicehall" / "games" / name
        if path.is_dir():
            return path
    raise FileNotFoundError(f"no view package for {name}")


def load_catalog(lang: str, game: str | None = None) -> dict:
    """The shared catalog of `lang`, plus a game's own when `game` is given."""
    messages = json.loads((ROOT / "web" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    if game is not None:
        messages.update(json.loads((game_web_dir(game) / "i18n" / f"{lang}.json").read_text(encoding="utf-8")))
    return messages


def mid_game_table(game: str, persons: int = 2):
    """A table of people halfway through a game the computer played (a fixed position, the same
    in the browser's tests and the CPython ones)."""
    import random

    from pygame_core.ai import self_play
    from pygame_core.registry import get_entry
    from pygame_core.table import Table

    rules = get_entry(game).rules
    n = max(rules.min_players, min(persons, rules.max_players))
    record, _ = self_play(game, [get_entry(game).setup_level] * n, seed=5)
    seats = [{"name": f"Ana {i}" if i else "Ибн Ольга", "symbol": "●▲■◆★"[i], "ai": None} for i in range(n)]
    table = Table(game, seats)
    table.new_game(random.Random(1))
    half = len(record.moves) // 2
    for seat, move in record.moves[:half]:
        table.submit(seat, move, table.match.index)
    while table.state.is_chance():  # stop where a person decides, with the dice thrown
        seat, move = record.moves[table.match.index]
        table.submit(seat, move, table.match.index)
    return table
