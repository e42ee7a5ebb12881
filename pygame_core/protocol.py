"""The State protocol every Dice Hall game implements.

A game is a deterministic state machine. Moves are strings in the game's notation: the
notation *is* the move, so records, saves and network messages are plain JSON. Dice are
explicit chance events: at a chance node `current_players()` is `[CHANCE]`, `chance()` says
which dice to roll, and the table (a seeded RNG, a test, a peer) supplies the outcome as a
move made by `CHANCE`.

A game implements `_apply` (and the queries below); the public `apply` is a template that
checks everything that is the same for every game first, so a game cannot forget it:
the seat is an `int` among `current_players()`, the move is a string in canonical form
(single spaces, printable ASCII, at most MAX_MOVE_CHARS) and, for a seat, one of the moves
`legal_moves(seat)` lists — anything else raises `IllegalMove` and leaves the state unchanged.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any, Callable, ClassVar

CHANCE = -1
"""The pseudo-player who makes chance moves (dice outcomes)."""

TERMINAL = -2
"""What `current_player()` returns once the game is over."""

MAX_MOVE_CHARS = 200
"""No game's notation needs more; longer strings are refused before any parsing."""


class IllegalMove(ValueError):
    """A move that the rules do not allow; the state is left unchanged.

    `code` is a message-catalog key and `params` fill its placeholders, so the front end can
    explain the error in the player's language; `str(err)` is the English sentence.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def _short(move: object) -> str:
    text = str(move) if isinstance(move, str) else repr(move)
    return text if len(text) <= 40 else text[:39] + "…"


def check_notation(move: object) -> str:
    """`move` if it is a string in canonical form, else IllegalMove('error.bad_move')."""
    if (
        not isinstance(move, str)
        or not 0 < len(move) <= MAX_MOVE_CHARS
        or not move.isascii()
        or not move.isprintable()
        or "  " in move
        or move != move.strip(" ")
    ):
        raise IllegalMove("error.bad_move", f"{_short(move)!r} is not a move.", move=_short(move))
    return move


def split_move(move: str) -> tuple[str, list[str]]:
    """A canonical move's verb and arguments."""
    word, *args = move.split(" ")
    return word, args


def check_seat(player: object) -> int:
    """A seat number must be a plain int (not a bool, float or string)."""
    if type(player) is not int:
        raise IllegalMove("error.bad_seat", f"{_short(player)!r} is not a seat.")
    return player


class Game:
    """A game's rules: its name, player range, options and how to make or load a state.

    Everything else a game package offers (AI levels, hints, review, lazily loaded data, CLI
    commands) is declared next to the rules in its `GameEntry` (see `registry.py`).
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    has_chance: ClassVar[bool] = True
    # Extra options beyond `players` and `start`: name -> {"choices": [...], "default": value}.
    option_schema: ClassVar[dict[str, dict]] = {}
    # Catalog keys naming fixed seat roles (e.g. two colours); empty when seats are just players.
    seat_labels: ClassVar[tuple[str, ...]] = ()
    state_class: ClassVar[type["State"]]

    @classmethod
    def check_options(cls, options: object) -> dict:
        """Return normalised options or raise IllegalMove for bad ones."""
        if not isinstance(options, dict):
            raise IllegalMove("error.bad_options", "The game options are not valid.")
        options = dict(options)
        players = options.get("players")
        if type(players) is not int or not cls.min_players <= players <= cls.max_players:
            raise IllegalMove(
                "error.players_range",
                f"{cls.title} is for {cls.min_players}–{cls.max_players} players.",
                min=cls.min_players,
                max=cls.max_players,
            )
        start = options.setdefault("start", 0)
        if type(start) is not int or not 0 <= start < players:
            raise IllegalMove("error.bad_options", "The game options are not valid.")
        for key, spec in cls.option_schema.items():
            value = options.setdefault(key, spec["default"])
            if value not in spec["choices"] or type(value) is not type(spec["default"]):
                raise IllegalMove("error.bad_options", "The game options are not valid.")
        unknown = set(options) - {"players", "start"} - set(cls.option_schema)
        if unknown:
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

    @classmethod
    def auto_move_due(cls, state: "State", seat: int) -> bool:
        """Whether the rules let the app choose for an idle person now (an auto-fill rule)."""
        return False

    @classmethod
    def legacy_move(cls, move: str) -> str:
        """The canonical spelling of a move read from a record of an older format version."""
        return move


class State:
    """One position of a game. Subclasses hold plain data only (lists, dicts, ints, strs).

    A subclass implements: `current_players`, `legal_moves`, `_apply`, `scores`, `turn_number`,
    `to_json`/`from_json`, and for games with dice `chance` (and `chance_move`/`_check_chance`
    when its notation is not the default `roll 3 5 1`). Optional: `roller`, `chance_outcomes`,
    `can_take_back`, `winners`, `prompt`, `is_legal`, `clone`.
    """

    game: ClassVar[type[Game]]

    def __init__(self, options: dict) -> None:
        self.options = dict(options)
        self.num_players: int = options["players"]

    # --- who moves -------------------------------------------------------------------
    def current_players(self) -> list[int]:
        """Seats that may move now: `[CHANCE]` at a chance node, `[]` when terminal.

        Several seats mean a simultaneous choice: each of them moves once, in any order.
        """
        raise NotImplementedError

    def current_player(self) -> int:
        """The first of `current_players()` (CHANCE or a seat); TERMINAL when the game is over."""
        players = self.current_players()
        return players[0] if players else TERMINAL

    def is_chance(self) -> bool:
        return self.current_players() == [CHANCE]

    def is_terminal(self) -> bool:
        return not self.current_players()

    def turn_number(self) -> int:
        """Completed turns so far (never decreases); moves made at one value form one turn."""
        raise NotImplementedError

    # --- chance ----------------------------------------------------------------------
    def chance(self) -> tuple[int, ...]:
        """The dice to roll now, as the number of sides of each; () if not a chance node."""
        return ()

    def roller(self) -> int | None:
        """At a chance node: the seat who throws these dice (a person taps Roll), or None."""
        return None

    def chance_move(self, values: list[int]) -> str:
        """The notation of the chance move for these rolled values (1-based faces)."""
        return "roll " + " ".join(str(v) for v in values)

    def chance_values(self, move: str) -> list[int]:
        """The rolled values of a chance move in the default notation; IllegalMove if wrong."""
        sides = self.chance()
        word, args = split_move(move)
        if (
            word != "roll"
            or len(args) != len(sides)
            or not all(a.isdigit() and a[0] != "0" and int(a) <= s for a, s in zip(args, sides))
        ):
            raise IllegalMove("error.bad_roll", f"Expected {len(sides)} die values.", move=_short(move))
        return [int(a) for a in args]

    def _check_chance(self, move: str) -> None:
        """Refuse a chance move that is not exactly `chance_move(values)` for legal values."""
        if self.chance_move(self.chance_values(move)) != move:
            raise IllegalMove("error.bad_roll", "That is not a valid roll of the dice.", move=_short(move))

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """Every chance move at this node with its probability (for expectimax search).

        The default enumerates the dice in order; games override it with a smaller
        equivalent set when the order of the dice does not matter.
        """
        sides = self.chance()
        if not sides:
            return []
        prob = 1.0
        for s in sides:
            prob /= s
        return [(self.chance_move(list(v)), prob) for v in itertools.product(*(range(1, s + 1) for s in sides))]

    # --- moves -----------------------------------------------------------------------
    def legal_moves(self, player: int | None = None) -> list[str]:
        """Every legal move for `player` (default: the first current seat), in canonical notation.

        Empty at chance nodes (outcomes come from `chance()` / `chance_outcomes()`).
        """
        raise NotImplementedError

    def is_legal(self, move: str, player: int) -> bool:
        """Whether `legal_moves(player)` lists `move`; games may answer faster."""
        return move in self.legal_moves(player)

    def apply(self, move: str, player: int | None = None) -> None:
        """Play `move` for `player` (default: the first current one); IllegalMove leaves no trace."""
        mover = self._mover(player)
        check_notation(move)
        if mover == CHANCE:
            self._check_chance(move)
        elif not self.is_legal(move, mover):
            self._explain(move, mover)
        self._apply(move, mover)

    def _apply(self, move: str, player: int) -> None:
        """Play a move already known to be legal (games implement this)."""
        raise NotImplementedError

    def _explain(self, move: str, player: int) -> None:
        """Raise the game's own reason for refusing `move` (a dry run on a copy), else a generic one."""
        try:
            self.clone()._apply(move, player)
        except IllegalMove:
            raise
        except Exception:  # junk a game's parser did not foresee: still just an illegal move
            pass
        raise IllegalMove("error.bad_move", f"'{_short(move)}' is not a legal move here.", move=_short(move))

    def _mover(self, player: int | None) -> int:
        """Resolve and check the seat making a move."""
        current = self.current_players()
        if not current:
            raise IllegalMove("error.game_over", "The game is over.")
        if player is None:
            return current[0]
        if check_seat(player) not in current:
            raise IllegalMove("error.not_your_turn", "It is not your turn.")
        return player

    def can_take_back(self, move: str, player: int) -> bool:
        """Whether `player` may now take back `move`, made since the last chance move.

        The rules declare take-backs (choosing a square again before confirming, a pending choice); the
        platform removes the move from the record and replays. Dice are never taken back.
        """
        return False

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
        """An independent copy; games override it with a cheaper one (search AIs clone a lot)."""
        return copy.deepcopy(self)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_json() == self.to_json()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()!r}>"


AIFunction = Callable[[State, int, Any], str]
"""An AI level: (state, seat, random.Random) -> a legal move for that seat."""
