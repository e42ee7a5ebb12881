"""The State protocol every Dice Hall game implements.

A game is a deterministic state machine. Moves are strings in the game's notation: the
notation *is* the move, so records, saves and network messages are plain JSON. Dice are
explicit chance events: at a chance node `current_players()` is `[CHANCE]`, `chance()` says
which dice to roll, and the table (a seeded RNG, a test, a peer) supplies the outcome as a
move made by `CHANCE`.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

CHANCE = -1
"""The pseudo-player who makes chance moves (dice outcomes)."""


class IllegalMove(ValueError):
    """A move that the rules do not allow; the state is left unchanged.

    `code` is a message-catalog key and `params` fill its placeholders, so the front end can
    explain the error in the player's language; `str(err)` is the English sentence.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def split_move(move: object) -> tuple[str, list[str]]:
    """Split a move's notation into its verb and arguments; IllegalMove if it has none."""
    if not isinstance(move, str) or not move.split():
        raise IllegalMove("error.bad_move", f"{move!r} is not a move.", move=str(move))
    word, *args = move.split()
    return word, args


class Game:
    """A game definition: its name, player range and how to make or load a state."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    state_class: ClassVar[type["State"]]

    @classmethod
    def check_options(cls, options: dict) -> dict:
        """Return normalised options or raise IllegalMove for bad ones."""
        options = dict(options)
        players = options.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or not (
            cls.min_players <= players <= cls.max_players
        ):
            raise IllegalMove(
                "error.players_range",
                f"{cls.title} is for {cls.min_players}–{cls.max_players} players.",
                min=cls.min_players,
                max=cls.max_players,
            )
        start = options.setdefault("start", 0)
        if not isinstance(start, int) or isinstance(start, bool) or not 0 <= start < players:
            raise IllegalMove("error.bad_options", "The game options are not valid.")
        return options

    @classmethod
    def new_state(cls, options: dict) -> "State":
        """A fresh game for these options (`players`, optional `start` seat, game extras)."""
        return cls.state_class(cls.check_options(options))

    @classmethod
    def state_from_json(cls, data: dict) -> "State":
        """Rebuild a state from `State.to_json()`; raises ValueError on malformed data."""
        return cls.state_class.from_json(data)


class State:
    """One position of a game. Subclasses hold plain data only (lists, dicts, ints, strs)."""

    game: ClassVar[type[Game]]

    def __init__(self, options: dict) -> None:
        self.options = dict(options)
        self.num_players: int = options["players"]

    # --- who moves -------------------------------------------------------------------
    def current_players(self) -> list[int]:
        """Seats that may move now: `[CHANCE]` at a chance node, `[]` when terminal."""
        raise NotImplementedError

    def current_player(self) -> int:
        """The first of `current_players()` (CHANCE or a seat); -2 when terminal."""
        players = self.current_players()
        return players[0] if players else -2

    def is_chance(self) -> bool:
        return self.current_players() == [CHANCE]

    def is_terminal(self) -> bool:
        return not self.current_players()

    # --- chance ----------------------------------------------------------------------
    def chance(self) -> tuple[int, ...]:
        """The dice to roll now, as the number of sides of each; () if not a chance node."""
        return ()

    def chance_move(self, values: list[int]) -> str:
        """The notation of the chance move for these rolled values (1-based faces)."""
        raise NotImplementedError

    # --- moves -----------------------------------------------------------------------
    def legal_moves(self, player: int | None = None) -> list[str]:
        """Every legal move for `player` (default: the current player), in notation."""
        raise NotImplementedError

    def apply(self, move: str, player: int | None = None) -> None:
        """Play `move` for `player` (default: the current one); IllegalMove leaves no trace."""
        raise NotImplementedError

    def _mover(self, player: int | None) -> int:
        """Resolve and check the seat making a move."""
        current = self.current_players()
        if not current:
            raise IllegalMove("error.game_over", "The game is over.")
        if player is None:
            return current[0]
        if player not in current:
            raise IllegalMove("error.not_your_turn", "It is not your turn.")
        return player

    # --- outcome ---------------------------------------------------------------------
    def scores(self) -> list[int]:
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats that won outright by a rule (direct win); [] if decided by score alone."""
        return []

    def ranking(self) -> list[int]:
        """Place of each seat (1 = first; ties share a place, standard competition)."""
        from .ranking import competition_places

        return competition_places(self.scores(), self.winners())

    # --- UI helpers --------------------------------------------------------------------
    def prompt(self) -> tuple[str, dict]:
        """Message key and params saying what the current player must do now."""
        return ("prompt.your_move", {})

    # --- data ------------------------------------------------------------------------
    def to_json(self) -> dict:
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: dict) -> "State":
        raise NotImplementedError

    def clone(self) -> "State":
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_json() == self.to_json()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()!r}>"
