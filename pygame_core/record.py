"""Game records: options plus every move (dice included), replaying to the identical state."""

from __future__ import annotations

import json
import re

from . import safejson
from .protocol import CHANCE, IllegalMove, State
from .registry import get_game
from .schema import Any, Fields, Int, Invalid, ListOf, MapOf, Text, Tuple

FORMAT = "dicehall-record"
VERSION = 2
# Version 1 accepted moves in any spelling the engine could parse (e.g. dice values in any
# order); reading one, each move passes through the game's `legacy_move` first.
READABLE_VERSIONS = (1, 2)


# A record's options and moves, in shape (pygame_core.schema); the game's rules check the options
# and every move on replay. A move is [seat, text] (CHANCE, -1, for the dice).
BODY_SCHEMA = Fields({"options": MapOf(Text(40), Any(), 20),
                      "moves": ListOf(Tuple(Int(CHANCE, 63), Text(400)), 1_000_000)})


class RecordError(ValueError):
    """A record file that cannot be read or replayed; `code` is a message-catalog key."""

    def __init__(self, code: str, message: str, **params) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class Record:
    """A game's options and move list; `replay()` rebuilds its state."""

    def __init__(self, game: str, options: dict, moves: list[tuple[int, str]] | None = None) -> None:
        self.game = game
        self.options = dict(options)
        self.moves: list[tuple[int, str]] = list(moves or [])

    def new_state(self) -> State:
        return get_game(self.game).new_state(self.options)

    def replay(self, upto: int | None = None) -> State:
        """The state after the first `upto` moves (all by default)."""
        state = self.new_state()
        for index, (player, move) in enumerate(self.moves[:upto]):
            try:
                state.apply(move, player)
            except IllegalMove as err:
                shown = move if len(move) <= 40 else move[:39] + "…"  # a crafted move can be megabytes
                raise RecordError(
                    "record.illegal_move", f"Move {index + 1} ({shown}) is not legal: {err}", index=index + 1, move=shown
                ) from err
        return state

    def states(self):
        """(seat, move, state before the move) for every move, replaying once."""
        state = self.new_state()
        for player, move in self.moves:
            before = state.clone()
            state.apply(move, player)
            yield player, move, before

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": dict(self.options),
            "moves": [[player, move] for player, move in self.moves],
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data) -> "Record":
        """Parse and check a record (every move is replayed); RecordError explains problems."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError("record.not_a_record", "This file is not a Dice Hall game record.")
        version = data.get("version")
        if type(version) is not int or version not in READABLE_VERSIONS:
            raise RecordError("record.version", "This record comes from another version of Dice Hall.")
        try:
            game = get_game(data["game"])
        except (KeyError, TypeError):
            raise RecordError("record.unknown_game", "This record is for a game Dice Hall does not know.") from None
        try:
            body = BODY_SCHEMA.check(data)
        except Invalid as err:
            at = re.fullmatch(r"\$\.moves\[(\d+)\]\[1\]", err.path)  # a move's text (not the entry's shape)
            if at is None:
                raise RecordError("record.corrupt", f"This game record is damaged: {err}") from None
            # A move the file cannot hold: said as the move it is, like a move the game refuses.
            index = int(at.group(1))
            move = str(data["moves"][index][1])
            shown = move if len(move) <= 40 else move[:39] + "…"
            raise RecordError("record.illegal_move", f"Move {index + 1} ({shown}) is not legal: {err.reason}",
                              index=index + 1, move=shown) from None
        parsed = [(seat, move if version == VERSION else game.legacy_move(move)) for seat, move in body["moves"]]
        record = cls(game.name, body["options"], parsed)
        try:
            record.replay()
        except IllegalMove as err:  # bad options
            raise RecordError("record.corrupt", f"This game record is damaged: {err}") from err
        return record

    @classmethod
    def loads(cls, text: str) -> "Record":
        return cls.from_json(parse(text))


def parse(text: str):
    """The JSON of a record file, bounded in size and depth before parsing (RecordError if not)."""
    try:
        return safejson.loads(text)
    except safejson.TooLarge as err:
        if err.reason == "too_big":
            raise RecordError("record.too_big", "This file is too big to be a Dice Hall game record.") from None
        raise RecordError("record.not_a_record", "This file is not a Dice Hall game record.") from None
    except (ValueError, TypeError, RecursionError):
        raise RecordError("record.not_json", "This file is not a Dice Hall game record.") from None


__all__ = ["CHANCE", "Record", "RecordError"]
