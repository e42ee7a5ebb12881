"""A table of seats playing game after game: turn rotation, the running match, standings, saves.

The front end keeps exactly one Table per running game; it is saved after every move as JSON
(`to_json`) and resumed with `Table.from_json`, which replays and checks the whole record.
Every move goes through `Table.submit` (the running `Match`'s single door, plus standings).
"""

from __future__ import annotations

import random
import secrets

from . import safejson
from .match import Match
from .protocol import IllegalMove, State
from .ranking import MAX_SEATS, STANDINGS_SCHEMA, Standings
from .record import Record, RecordError
from .registry import get_entry
from .schema import OMIT, Any, Choice, Field, Fields, Int, ListOf, MapOf, Maybe, Text

SAVE_FORMAT = "dicehall-save"
SAVE_VERSION = 1
MAX_NAME = 24  # characters of a seat name, enforced here and not only in the setup form


OPTIONS_SCHEMA = MapOf(Text(40), Any(), 20)  # the game's own rules check the values
# (A long name is mended, capped to MAX_NAME by clean_seat, not refused.)
SEAT_SCHEMA = Fields({"name": Text(20_000), "symbol": Text(16), "ai": Field(Maybe(Text(40)), optional=True)})
# A save's shape, checked before any field is used; the record is checked (and replayed) by Record.
SAVE_SCHEMA = Fields({
    "game": Text(40),
    "table_id": Field(Any(), optional=True),  # (kept only when it is a sound id)
    "seats": ListOf(SEAT_SCHEMA, MAX_SEATS, 1),
    "standings": STANDINGS_SCHEMA,
    "start_seats": ListOf(Int(0, MAX_SEATS - 1), 1_000_000),
    "record": Maybe(MapOf(Text(40), Any(), 20)),
    "counted": Field(Choice(True, False), fallback=True, default=False),
    "extra_options": Field(Maybe(OPTIONS_SCHEMA), optional=True, default=OMIT),
})


# The table part of an exported record (Table.export): used when sound, else default seats.
EXPORT_TABLE_SCHEMA = Fields({"seats": ListOf(SEAT_SCHEMA, MAX_SEATS, 1), "standings": STANDINGS_SCHEMA,
                              "start_seats": ListOf(Int(0, MAX_SEATS - 1), 1_000_000)})


class SaveError(ValueError):
    """A save that cannot be resumed; `code` is a message-catalog key."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def clean_seat(game: str, seat: dict, notes: list[str] | None = None) -> dict:
    """A seat as the table keeps it; ValueError for a seat that cannot be played.

    With `notes`, an AI level this version does not know (a save from another version, or a
    tampered one) becomes the game's setup level and "save.level_mapped" is noted, instead of
    refusing the whole table.
    """
    if not isinstance(seat, dict):
        raise ValueError("a seat must be an object")
    name, symbol, level = seat.get("name"), seat.get("symbol"), seat.get("ai") or None
    if not isinstance(name, str) or not isinstance(symbol, str) or not name.strip():
        raise ValueError("a seat needs a name and a symbol")
    entry = get_entry(game)
    if level is not None and level not in entry.ai_levels:
        if notes is None:
            raise ValueError(f"unknown AI level {level!r}")
        notes.append("save.level_mapped")
        level = entry.setup_level
    return {"name": name.strip()[:MAX_NAME], "symbol": symbol[:4], "ai": level}


class Table:
    """Seats (name, symbol, AI level or None for a person), the current match and the standings."""

    def __init__(self, game: str, seats: list[dict], extra_options: dict | None = None,
                 notes: list[str] | None = None) -> None:
        rules = get_entry(game).rules
        if not isinstance(seats, list):
            raise ValueError("seats must be a list")
        rules.check_options({"players": len(seats), **(extra_options or {})})
        self.game = game
        self.notes: list[str] = [] if notes is None else notes  # what loading had to mend (catalog keys)
        self.seats = [clean_seat(game, s, notes) for s in seats]
        self.extra_options = dict(extra_options or {})
        self.standings = Standings(len(seats))
        self.start_seats: list[int] = []  # start seat of every game played at this table
        self.match: Match | None = None
        self.counted = False  # whether the current game's result is in the standings
        # Identity of this table across saves: another tab's save of the same table can be told
        # apart from a different table (see `history`).
        self.table_id = secrets.token_hex(8)

    @property
    def state(self) -> State | None:
        return self.match.state if self.match else None

    @property
    def record(self) -> Record | None:
        return self.match.record if self.match else None

    @classmethod
    def from_record(cls, record: Record, seats: list[dict]) -> "Table":
        """A table continuing an imported game record (a finished one counts in the standings)."""
        extras = {k: v for k, v in record.options.items() if k not in ("players", "start")}
        if len(seats) != record.options.get("players"):
            raise ValueError("seats do not match the record")
        table = cls(record.game, seats, extras)
        table.match = Match(record)
        table.start_seats = [record.options.get("start", 0)]
        table._count_if_over()
        return table

    @classmethod
    def from_export(cls, data: dict, default_seats) -> "Table":
        """A table from an exported record file (`export()`): its own seats and standings when
        the file carries them and they are sound, else `default_seats(n)` and fresh standings.
        RecordError if the record itself is bad."""
        record = Record.from_json(data)
        n = record.options["players"]
        try:
            info = EXPORT_TABLE_SCHEMA.check(data.get("table"))
            if len(info["seats"]) != n or len(info["standings"]["points"]) != n:
                raise ValueError("the table does not match the record")
            table = cls.from_record(record, [clean_seat(record.game, s) for s in info["seats"]])
            standings = Standings.from_json(info["standings"])
            if not table.counted or standings.games >= 1:  # the finished game is already in them
                table.standings = standings
            if any(s >= n for s in info["start_seats"]):
                raise ValueError("a start seat the table does not have")
            table.start_seats = info["start_seats"][-100:] or table.start_seats
        except ValueError:  # (schema.Invalid too) the record alone: default seats
            table = cls.from_record(record, default_seats(n))
        return table

    def export(self) -> dict:
        """The game record, carrying its table (seats, standings, start seats) for a later import."""
        data = self.record.to_json()
        data["table"] = {"seats": [dict(s) for s in self.seats], "standings": self.standings.to_json(),
                         "start_seats": list(self.start_seats)}
        return data

    def history(self) -> tuple[str, list[int], list[list]]:
        """(table id, start seat of every game so far, the current game's moves): what tells two
        copies of this table apart (see dicehall/savesync.py)."""
        moves = [list(m) for m in self.record.moves] if self.record else []
        return self.table_id, list(self.start_seats), moves

    # --- games -----------------------------------------------------------------------
    def new_game(self, rng: random.Random) -> State:
        """Start the next game: a random start seat the first time, then the next seat on."""
        n = len(self.seats)
        start = rng.randrange(n) if not self.start_seats else (self.start_seats[-1] + 1) % n
        self.start_seats.append(start)
        self.match = Match.new(self.game, {"players": n, "start": start, **self.extra_options})
        self.counted = False
        return self.match.state

    def submit(self, seat: int, move: str, index: int) -> None:
        """Every move of the running game enters here (see `Match.submit`)."""
        if self.match is None:
            raise IllegalMove("error.no_game", "No game is running.")
        self.match.submit(seat, move, index)
        self._count_if_over()

    def take_back(self, seat: int, at: int, index: int) -> None:
        """Take back a move the rules allow (see `Match.take_back`)."""
        if self.match is None or self.counted:
            raise IllegalMove("error.cannot_take_back", "That move cannot be taken back.")
        self.match.take_back(seat, at, index)

    def _count_if_over(self) -> None:
        if self.match.state.is_terminal() and not self.counted:
            self.standings.add_game(self.match.state.ranking())
            self.counted = True

    def ai_seats(self) -> list[int]:
        return [seat for seat, info in enumerate(self.seats) if info["ai"]]

    # --- saves -----------------------------------------------------------------------
    def to_json(self) -> dict:
        data = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "table_id": self.table_id,
            "seats": [dict(s) for s in self.seats],
            "standings": self.standings.to_json(),
            "start_seats": list(self.start_seats),
            "record": self.record.to_json() if self.record else None,
            "counted": self.counted,
        }
        if self.record is None:  # else they are in the record's options
            data["extra_options"] = dict(self.extra_options)
        return data

    def dumps(self) -> str:
        import json

        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data) -> "Table":
        """Resume a saved table, replaying its record; SaveError explains what is wrong."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("save.corrupt", "The saved game is damaged.")
        if data.get("version") != SAVE_VERSION:
            raise SaveError("save.version", "The saved game comes from another version of Dice Hall.")
        try:
            data = SAVE_SCHEMA.check(data)
            record = data.get("record")
            extras = data.get("extra_options")
            if extras is None and isinstance(record, dict) and isinstance(record.get("options"), dict):
                extras = {k: v for k, v in record["options"].items() if k not in ("players", "start")}
            table = cls(data["game"], data["seats"], extras, notes=[])
            table_id = data.get("table_id")
            if isinstance(table_id, str) and 0 < len(table_id) <= 64:
                table.table_id = table_id
            table.standings = Standings.from_json(data["standings"])
            if len(table.standings.points) != len(table.seats):
                raise ValueError("standings do not match the seats")
            table.start_seats = [safejson.exact_int(s, 0, len(table.seats) - 1) for s in data["start_seats"]]
            table.counted = data["counted"]
            if data.get("record") is not None:
                record = Record.from_json(data["record"])
                if record.game != table.game or record.options.get("players") != len(table.seats):
                    raise ValueError("record does not match the table")
                table.match = Match(record)
        except RecordError as err:
            raise SaveError("save.corrupt", f"The saved game is damaged: {err}") from err
        except (KeyError, TypeError, ValueError, IllegalMove, AttributeError, OverflowError) as err:
            raise SaveError("save.corrupt", f"The saved game is damaged: {err}") from err
        return table

    @classmethod
    def loads(cls, text: str) -> "Table":
        try:
            data = safejson.loads(text)
        except (ValueError, TypeError, RecursionError):
            raise SaveError("save.corrupt", "The saved game is damaged.") from None
        return cls.from_json(data)
