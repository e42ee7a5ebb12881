"""What the app keeps besides the running game: the other games' unfinished tables, the last
set-up of each game (names remembered), and the history of finished games with personal bests.

Pure Python over plain data (the shell reads and writes the storage keys): everything read back
from storage is checked against the schemas here (pygame_core.schema, through store.Store.load),
and anything unsound is left out and set aside, never trusted (a tampered key must not stop the
app, nor cost a sound game).

Storage keys (see store.py): PARKED `{game: table text}` — one unfinished game per game other
than the running one; SETUPS `{game: {"seats": [seat, …], "options": {…}}}`; HISTORY `[entry, …]`, newest last.
"""

from __future__ import annotations

import time

from pygame_core.registry import entries
from pygame_core.schema import OMIT, Any, Check, Field, Fields, Int, Invalid, ListOf, MapOf, Maybe, Number, Text, Via
from pygame_core.table import MAX_NAME, SaveError, Table

MAX_HISTORY = 100  # finished games kept; the oldest go first
MAX_PARKED_CHARS = 400_000  # a parked table text (a 5-player record is ~10 KB)


def _known_game(game: str) -> bool:
    return game in entries()  # (asked when read: a game may be registered after import)


GAME_ID = Text(40, test=_known_game)


# --- unfinished games, one per game ---------------------------------------------------------------
def _loaded(text) -> tuple[str, Table]:
    text = Text(MAX_PARKED_CHARS).check(text)
    try:
        return text, Table.loads(text)
    except SaveError as err:
        raise ValueError(str(err)) from None


# A parked table that does not load is set aside; one another tab finished meanwhile is just gone.
# (The schema's values are (text, table): each table is replayed once.)
PARKED_SCHEMA = MapOf(GAME_ID, Via(_loaded, "a saved game"), 40, salvage=True)


def parked_unfinished(checked: dict) -> dict[str, str]:
    """Of parked tables PARKED_SCHEMA accepted, the unfinished ones, by game."""
    return {game: text for game, (text, table) in checked.items()
            if table.game == game and table.state is not None and not table.state.is_terminal()}


def check_parked(data) -> dict[str, str]:
    """The parked tables that still load and are unfinished, by game (unsound ones left out)."""
    try:
        return parked_unfinished(PARKED_SCHEMA.check(data))
    except Invalid:
        return {}


def unfinished(table: Table | None) -> bool:
    return table is not None and table.state is not None and not table.state.is_terminal()


# --- remembered set-ups ---------------------------------------------------------------------------------
SETUP_SEAT = Fields({"name": Text(1000), "symbol": Text(8), "ai": Field(Maybe(Text(40)), optional=True)})
SETUP = Fields({"seats": ListOf(SETUP_SEAT, 8, 1), "options": Field(MapOf(Text(40), Any(), 20), optional=True,
                                                                       default={})})


def _setup(value) -> dict:
    return SETUP.check({"seats": value} if type(value) is list else value)  # (before options: the seats alone)


# Each game's set-up on its own: an unsound one is left out (and set aside); that game's set-up
# screen then offers its default seats.
SETUPS_SCHEMA = MapOf(GAME_ID, Via(_setup, "a set-up"), 40, salvage=True)


def check_setup(game: str, setups, symbols: tuple[str, ...]) -> dict | None:
    """The remembered set-up of `game` in the stored set-ups, `{"seats", "options"}`, if every seat
    is sound (name, known symbol, a level offered to players); else None (the default is used).
    Options that no longer fit the game fall back to their defaults. (Versions before options
    stored the seats alone: `{game: [seat, …]}`.)"""
    known = entries()
    try:
        remembered = SETUPS_SCHEMA.check(setups).get(game)
    except Invalid:
        return None
    if game not in known or remembered is None:
        return None
    entry, seats = known[game], remembered["seats"]
    if not entry.rules.min_players <= len(seats) <= entry.rules.max_players:
        return None
    out, used = [], set()
    for seat in seats:
        name, symbol, level = seat["name"], seat["symbol"], seat.get("ai")
        # A symbol or a level the game no longer offers is not tampering: the default set-up.
        if not name.strip() or symbol not in symbols or symbol in used \
                or (level is not None and level not in entry.player_levels):
            return None
        used.add(symbol)
        out.append({"name": name.strip()[:MAX_NAME], "symbol": symbol, "ai": level})
    return {"seats": out, "options": check_options(game, remembered.get("options"))}


def check_options(game: str, options) -> dict:
    """A game's options from storage or a file: each one the game knows, at a value it offers,
    else its default."""
    schema = entries()[game].rules.option_schema
    given = options if isinstance(options, dict) else {}
    out = {}
    for name, spec in schema.items():
        value = given.get(name)
        ok = type(value) is type(spec["default"]) and any(value == c for c in spec["choices"])
        out[name] = value if ok else spec["default"]
    return out


def remember_setup(setups, game: str, seats: list[dict], options: dict | None = None) -> dict:
    """The set-ups to store after `seats` started a game of `game` with `options`."""
    kept = dict(setups) if isinstance(setups, dict) else {}
    kept[game] = {"seats": [{"name": s["name"], "symbol": s["symbol"], "ai": s["ai"]} for s in seats],
                  "options": dict(options or {})}
    return kept


# --- finished games and personal bests ------------------------------------------------------------
def history_entry(table: Table, when: float | None = None) -> dict:
    """One finished game: who sat where, their scores and places (a person's name, or a level)."""
    state = table.state
    scores, places = state.scores(), state.ranking()
    return {
        "id": f"{table.table_id}:{len(table.start_seats)}",
        "game": table.game,
        "ended": int(when if when is not None else time.time()),
        "options": dict(table.extra_options),
        "seats": [{"name": seat["name"], "ai": seat["ai"], "score": scores[i], "place": places[i]}
                  for i, seat in enumerate(table.seats)],
    }


MAX_SCORE = 10**9  # any game's score is far below; a larger (or an infinite) one is tampering
MAX_TIME = 2**53  # seconds: JavaScript's exact integers


def _options_check(item: dict) -> str | None:
    if "options" in item and check_options(item["game"], item["options"]) != item["options"]:
        return "options the game does not offer"
    return None


HISTORY_SEAT = Fields({"name": Text(1000, cut=MAX_NAME), "ai": Maybe(Text(40)), "score": Number(-MAX_SCORE, MAX_SCORE),
                       "place": Int(1, 8)})
HISTORY_ENTRY = Check(Fields({
    "id": Text(80), "game": GAME_ID, "ended": Int(0, MAX_TIME),
    "options": Field(MapOf(Text(40), Any(), 20), optional=True, default=OMIT),
    "seats": ListOf(HISTORY_SEAT, 8, 1),
}), _options_check)
# Each finished game on its own: an unsound entry is left out (and set aside), the others kept.
HISTORY_SCHEMA = ListOf(HISTORY_ENTRY, MAX_HISTORY, salvage=True)


def check_history(data) -> list[dict]:
    """The sound entries of a stored history (unsound ones are dropped), oldest first."""
    try:
        return HISTORY_SCHEMA.check(data)
    except Invalid:
        return []


def add_to_history(history: list[dict], entry: dict) -> list[dict] | None:
    """The history with `entry` added, or None when that game is in it already."""
    if any(item["id"] == entry["id"] for item in history):
        return None
    return (history + [entry])[-MAX_HISTORY:]


def personal_bests(history: list[dict], game: str) -> list[dict]:
    """Each person's best score in `game` (computer seats are not persons), best first:
    `{"name", "score", "ended", "games"}`; ties keep the earlier game."""
    best: dict[str, dict] = {}
    for item in history:
        if item["game"] != game:
            continue
        for seat in item["seats"]:
            if seat["ai"] is not None:
                continue
            mine = best.setdefault(seat["name"], {"name": seat["name"], "score": seat["score"],
                                                  "ended": item["ended"], "games": 0})
            mine["games"] += 1
            if seat["score"] > mine["score"]:
                mine["score"], mine["ended"] = seat["score"], item["ended"]
    return sorted(best.values(), key=lambda b: (-b["score"], b["ended"], b["name"]))
