"""Helpers shared by the test folders (engine, front end, browser): paths, catalogs, the fixture."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "web"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

FIXTURES = ROOT / "tests" / "fixtures"
def register_fixture_game() -> None:
    """Make the fixture game `claim` known, the way a real game is: a folder the registry searches."""
    from pygame_core import registry

    registry.add_games_dir(str(FIXTURES / "pygame_core" / "games"))
    import dicehall.games as views  # its view package, found by game id like any other

    path = str(FIXTURES / "web" / "dicehall" / "games")
    if path not in views.__path__:
        views.__path__.append(path)


LANGS = ["en", "nb", "sv", "pl", "ar"]


def game_web_dir(name: str) -> Path:
    """A game's view package: web/dicehall/games/<id>/ (or the fixture tree's)."""
    for root in (ROOT, FIXTURES):
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
