"""A table of seats playing game after game: turn rotation, the running record, standings, saves.

The front end keeps exactly one Table per running game; it is saved after every move as JSON
(`to_json`) and resumed with `Table.from_json`, which replays and checks the whole record.
"""

from __future__ import annotations

import json
import random

from .protocol import CHANCE, IllegalMove, State
from .ranking import Standings
from .record import Record, RecordError
from .registry import get_game

SAVE_FORMAT = "dicehall-save"
SAVE_VERSION = 1


class SaveError(ValueError):
    """A save that cannot be resumed; `code` is a message-catalog key."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Table:
    """Seats (name, symbol, AI level or None for a person), the current game and the standings."""

    def __init__(self, game: str, seats: list[dict], extra_options: dict | None = None) -> None:
        game_class = get_game(game)
        game_class.check_options({"players": len(seats)})
        self.game = game
        self.seats = [
            {"name": str(s["name"]), "symbol": str(s["symbol"]), "ai": s.get("ai") or None} for s in seats
        ]
        self.extra_options = dict(extra_options or {})
        self.standings = Standings(len(seats))
        self.start_seats: list[int] = []  # start seat of every game played at this table
        self.record: Record | None = None
        self.state: State | None = None
        self.counted = False  # whether the current game's result is in the standings

    @classmethod
    def from_record(cls, record: Record, seats: list[dict]) -> "Table":
        """A table continuing an imported game record (a finished one counts in the standings)."""
        extras = {k: v for k, v in record.options.items() if k not in ("players", "start")}
        table = cls(record.game, seats, extras)
        if len(seats) != record.options.get("players"):
            raise ValueError("seats do not match the record")
        table.record = record
        table.state = record.replay()
        table.start_seats = [record.options.get("start", 0)]
        if table.state.is_terminal():
            table.standings.add_game(table.state.ranking())
            table.counted = True
        return table

    # --- games -----------------------------------------------------------------------
    def new_game(self, rng: random.Random) -> State:
        """Start the next game: a random start seat the first time, then the next seat on."""
        n = len(self.seats)
        start = rng.randrange(n) if not self.start_seats else (self.start_seats[-1] + 1) % n
        self.start_seats.append(start)
        options = {"players": n, "start": start, **self.extra_options}
        self.record = Record(self.game, options)
        self.state = self.record.new_state()
        self.counted = False
        return self.state

    def play(self, move: str, player: int | None = None) -> None:
        """Apply a move to the running game and record it (IllegalMove changes nothing)."""
        if self.state is None:
            raise IllegalMove("error.no_game", "No game is running.")
        mover = self.state._mover(player)
        self.state.apply(move, mover)
        self.record.moves.append((mover, move))
        if self.state.is_terminal() and not self.counted:
            self.standings.add_game(self.state.ranking())
            self.counted = True

    def undo(self) -> None:
        """Take back the last move (replaying the record without it)."""
        if not self.record or not self.record.moves or self.counted:
            raise IllegalMove("error.nothing_to_undo", "There is nothing to undo.")
        self.record.moves.pop()
        self.state = self.record.replay()

    def last_moves(self, seat: int | None = None) -> list[tuple[int, str]]:
        """Moves of the last completed stretch by one seat (with their dice), for 'last move'."""
        moves = self.record.moves if self.record else []
        out: list[tuple[int, str]] = []
        owner = None
        for player, move in reversed(moves):
            if player != CHANCE:
                if owner is None:
                    owner = player
                elif player != owner:
                    break
            out.append((player, move))
        return list(reversed(out))

    def is_ai_turn(self) -> bool:
        state = self.state
        if state is None or state.is_terminal() or state.is_chance():
            return False
        return all(self.seats[p]["ai"] for p in state.current_players())

    # --- saves -----------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "seats": [dict(s) for s in self.seats],
            "extra_options": dict(self.extra_options),
            "standings": self.standings.to_json(),
            "start_seats": list(self.start_seats),
            "record": self.record.to_json() if self.record else None,
            "counted": self.counted,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data) -> "Table":
        """Resume a saved table, replaying its record; SaveError explains what is wrong."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("save.corrupt", "The saved game is damaged.")
        if data.get("version") != SAVE_VERSION:
            raise SaveError("save.version", "The saved game comes from another version of Dice Hall.")
        try:
            table = cls(data["game"], data["seats"], data.get("extra_options"))
            table.standings = Standings.from_json(data["standings"])
            if len(table.standings.points) != len(table.seats):
                raise ValueError("standings do not match the seats")
            table.start_seats = [int(s) for s in data["start_seats"]]
            table.counted = bool(data.get("counted"))
            if data.get("record") is not None:
                table.record = Record.from_json(data["record"])
                if table.record.game != table.game or table.record.options.get("players") != len(table.seats):
                    raise ValueError("record does not match the table")
                table.state = table.record.replay()
        except RecordError as err:
            raise SaveError("save.corrupt", f"The saved game is damaged: {err}") from err
        except (KeyError, TypeError, ValueError, IllegalMove) as err:
            raise SaveError("save.corrupt", f"The saved game is damaged: {err}") from err
        return table

    @classmethod
    def loads(cls, text: str) -> "Table":
        try:
            data = json.loads(text)
        except (ValueError, TypeError):
            raise SaveError("save.corrupt", "The saved game is damaged.") from None
        return cls.from_json(data)
