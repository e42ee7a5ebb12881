"""What the app keeps besides the running game: the other games' unfinished tables, the last
set-up of each game (names remembered), and the history of finished games with personal bests.

Pure Python over plain data (the shell reads and writes the storage keys): everything read back
from storage is checked here, and anything unsound is dropped, never trusted (a tampered key must
not stop the app).

Storage keys (see store.py): PARKED `{game: table text}` — one unfinished game per game other
than the running one; SETUPS `{game: {"seats": [seat, …], "options": {…}}}`; HISTORY `[entry, …]`, newest last.
"""

from __future__ import annotations

import time

from pygame_core.registry import entries
from pygame_core.table import MAX_NAME, SaveError, Table

MAX_HISTORY = 100  # finished games kept; the oldest go first
MAX_PARKED_CHARS = 400_000  # a parked table text (a 5-player record is ~10 KB)


# --- unfinished games, one per game ---------------------------------------------------------------
def check_parked(data) -> dict[str, str]:
    """The parked tables that still load and are unfinished, by game."""
    if not isinstance(data, dict):
        return {}
    known = entries()
    kept = {}
    for game, text in data.items():
        if game not in known or not isinstance(text, str) or len(text) > MAX_PARKED_CHARS:
            continue
        try:
            table = Table.loads(text)
        except SaveError:
            continue
        if table.game == game and table.state is not None and not table.state.is_terminal():
            kept[game] = text
    return kept


def unfinished(table: Table | None) -> bool:
    return table is not None and table.state is not None and not table.state.is_terminal()


# --- remembered set-ups ---------------------------------------------------------------------------------
def check_setup(game: str, setups, symbols: tuple[str, ...]) -> dict | None:
    """The remembered set-up of `game` in the stored set-ups, `{"seats", "options"}`, if every seat
    is sound (name, known symbol, a level offered to players); else None (the default is used).
    Options that no longer fit the game fall back to their defaults. (Versions before options
    stored the seats alone: `{game: [seat, …]}`.)"""
    known = entries()
    if game not in known or not isinstance(setups, dict):
        return None
    remembered = setups.get(game)
    if isinstance(remembered, list):
        remembered = {"seats": remembered}
    if not isinstance(remembered, dict) or not isinstance(remembered.get("seats"), list):
        return None
    entry, seats = known[game], remembered["seats"]
    if not entry.rules.min_players <= len(seats) <= entry.rules.max_players:
        return None
    out, used = [], set()
    for seat in seats:
        if not isinstance(seat, dict):
            return None
        name, symbol, level = seat.get("name"), seat.get("symbol"), seat.get("ai")
        if not isinstance(name, str) or not name.strip() or not isinstance(symbol, str) or symbol not in symbols \
                or symbol in used:
            return None
        if level is not None and (not isinstance(level, str) or level not in entry.player_levels):
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


def _number(value, low, high, kinds=(int, float)) -> bool:
    """A JSON number of these kinds (never a bool) within [low, high]: NaN and the infinities
    fail the comparison, and a huge int is compared as an int (no float overflow)."""
    return type(value) in kinds and low <= value <= high


def _sound_entry(item) -> bool:
    if not isinstance(item, dict) or not isinstance(item.get("game"), str) or item["game"] not in entries():
        return False
    if not isinstance(item.get("id"), str) or len(item["id"]) > 80 or not _number(item.get("ended"), 0, MAX_TIME, (int,)):
        return False
    if "options" in item and check_options(item["game"], item["options"]) != item["options"]:
        return False
    seats = item.get("seats")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 8:
        return False
    for seat in seats:
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str) or len(seat["name"]) > MAX_NAME:
            return False
        if not (seat.get("ai") is None or isinstance(seat.get("ai"), str)):
            return False
        if not _number(seat.get("score"), -MAX_SCORE, MAX_SCORE) or not _number(seat.get("place"), 1, 8, (int,)):
            return False
    return True


def check_history(data) -> list[dict]:
    """The sound entries of a stored history (unsound ones are dropped), oldest first."""
    if not isinstance(data, list):
        return []
    return [item for item in data if _sound_entry(item)][-MAX_HISTORY:]


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
