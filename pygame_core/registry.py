"""The games Dice Hall knows: every package under `pygame_core/games/` that declares `GAME`.

A game registers itself by being a package `pygame_core/games/<id>/` whose `__init__` defines
`GAME = GameEntry(...)`: its rules plus what the platform may ask of it (AI levels, hints,
review, lazily loaded data, CLI commands). Nothing else names a game; adding one edits no
shared file. Discovery runs on first use; `add_games_dir()` adds another folder of game
packages (the tests' fixture game registers that way).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Callable

from . import games as _games_pkg
from .protocol import AIFunction, Game


@dataclass(frozen=True)
class Asset:
    """A data file a game needs lazily (shipped as `dist/data/<game>/<file>`, not in app.zip).

    `load(bytes)` installs it (e.g. a solver table); it raises ValueError on bad data. On CPython
    the game finds the same file in its package's `data/` folder by itself.
    """

    file: str
    load: Callable[[bytes], Any]


@dataclass(frozen=True)
class GameEntry:
    """One game package as the platform sees it."""

    rules: type[Game]
    # AI levels, weakest first: name -> fn(state, seat, rng) -> move.
    ai_levels: dict[str, AIFunction]
    # "The computer's choice" (auto-fill, the strongest play) and the level a new AI seat gets.
    default_level: str
    setup_level: str
    assets: dict[str, Asset] = field(default_factory=dict)
    # advise(state, seat) -> [{"move", "value"}, ...] best first; None when the game has no advisor.
    advise: Callable | None = None
    # review(record) -> per-seat grading (see docs/ARCHITECTURE.md); None when the game has none.
    review: Callable | None = None
    # Extra CLI subcommands: name -> (add_arguments(parser), run(args) -> dict).
    cli_commands: dict[str, tuple[Callable, Callable]] = field(default_factory=dict)
    # Levels kept for measuring (benchmarks, the CLI, the tests), never offered to players.
    measuring_levels: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def player_levels(self) -> list[str]:
        """The levels a player may choose for a computer seat, weakest first."""
        return [level for level in self.ai_levels if level not in self.measuring_levels]

    def __post_init__(self) -> None:
        for level in (self.default_level, self.setup_level, *self.measuring_levels):
            if level not in self.ai_levels:
                raise ValueError(f"{self.rules.name}: unknown AI level {level!r}")
        if self.setup_level in self.measuring_levels:
            raise ValueError(f"{self.rules.name}: the set-up level {self.setup_level!r} is for measuring only")


_ENTRIES: dict[str, GameEntry] = {}
_BROKEN: dict[str, str] = {}  # game package -> why it could not be registered
_scanned: list[str] = []


def _discover() -> None:
    for path in list(_games_pkg.__path__):
        if path in _scanned:
            continue
        _scanned.append(path)
        for info in sorted(pkgutil.iter_modules([path]), key=lambda i: i.name):
            if not info.ispkg:
                continue
            # One broken game package must not take the others (or the app) down with it: it is
            # left out and listed in `broken()`, which the tests require to be empty.
            try:
                module = importlib.import_module(f"{_games_pkg.__name__}.{info.name}")
                entry = getattr(module, "GAME", None)
                if not isinstance(entry, GameEntry):
                    raise TypeError("the package defines no GAME = GameEntry(...)")
                if entry.name != info.name:
                    raise ValueError(f"the package declares the game {entry.name!r}")
            except Exception as err:  # noqa: BLE001 - reported, not hidden
                _BROKEN[info.name] = f"{type(err).__name__}: {err}"
                continue
            _ENTRIES[entry.name] = entry


def add_games_dir(path: str) -> None:
    """Also discover game packages in `path` (as if they were under pygame_core/games/)."""
    if path not in _games_pkg.__path__:
        _games_pkg.__path__.append(path)
    _discover()


def entries() -> dict[str, GameEntry]:
    """Every registered game package, by id (sorted)."""
    _discover()
    return dict(sorted(_ENTRIES.items()))


def get_entry(name: str) -> GameEntry:
    """The game package called `name`; KeyError with the known names otherwise."""
    known = entries()
    try:
        return known[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {name!r}; known: {', '.join(known)}") from None


def get_game(name: str) -> type[Game]:
    """The rules of the game called `name`."""
    return get_entry(name).rules


def broken() -> dict[str, str]:
    """Game packages that could not be registered, with the reason (empty when all is well)."""
    _discover()
    return dict(_BROKEN)


def names() -> list[str]:
    """Ids of every registered game, sorted."""
    return list(entries())


def warm() -> None:
    """Discover every game and make each one's opening state once (its fewest players, default
    options). The boot snapshot's maker calls this: a restored app then finds the registry filled
    and each game's fixed tables made (one game's board geometry was ~25 ms of a return visit's
    start on an emulated phone, the discovery ~30 ms). A game that cannot open so is left for its
    first real use."""
    for entry in entries().values():
        try:
            entry.rules.new_state({"players": entry.rules.min_players})
        except Exception:  # noqa: BLE001 - only a head start; the conformance test opens every game
            continue
