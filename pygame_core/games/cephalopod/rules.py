"""Cephalopod (Mark Steere): the rules engine. Contract: shared/rules/cephalopod.md.

Notation (the wire format; `legal_moves` lists exactly these spellings)
--------------------------------------------------------------------
Squares are named like chess squares: file letter `a`.. from the left, rank number `1`.. from
the bottom (`a1` is the bottom-left corner; `e5` the top-right one on 5×5).

    c3              place a die on c3; nothing can be captured there, it shows 1
    c3x b3 c2       place on c3 capturing the dice on b3 and c2; it shows their pip total

A capturing move is the placed square with `x`, a space, then the captured squares separated by
single spaces, in file-then-rank order (`a2 < b1 < b3 < c2`, i.e. the sorted names), so every
move has exactly one spelling. Two capturing sets on one square are two different moves.

Rulings where the rules file is silent
--------------------------------------
- Seats: seat 0 is White, seat 1 is Black (`seat_labels`); the colour is the seat's role for the
  whole game. The `start` option (the app's start-player rotation) says which colour moves
  first; White by default.
- Captured dice may be of either colour, the mover's own included (rules §3: "the dice of either
  colour"); a capture is compulsory only on the chosen square (§3).
- Score = the number of the seat's dice on the board (`scores()`). At the end the larger count
  wins; an equal count (possible on 4×4) is a draw: both seats share first place. The board
  size is an option: 3, 4 or 5 (default 5, the standard game).
- A full board ends the game at once; there is no pass (a move always exists before that: an
  empty square takes a die, capturing if it must).
- No take-backs: a move is final once made (the view's capture picker lets a player change
  their mind before confirming, so nothing pending ever reaches the engine).

The state keeps its move history (`history`, like python-chess's move stack) so a view can mark
the last move and step through the game; `to_json` carries it and `from_json` replays it.
"""

from __future__ import annotations

from typing import ClassVar

from ...protocol import Game, IllegalMove, State
from .core import CAPTURES, TOTALS, Geometry, Position, geometry

SIZES = [3, 4, 5]
DEFAULT_SIZE = 5
SEATS = ("cephalopod.colour.white", "cephalopod.colour.black")


def parse_move(geo: Geometry, move: str) -> tuple[int, tuple[int, ...]]:
    """(placed square, captured squares as written) of a move's text; IllegalMove for junk.

    Does not check legality; `CephalopodState.internal_move` does."""
    head, *rest = move.split(" ")
    capturing = head.endswith("x")
    name = head[:-1] if capturing else head
    if name not in geo.index:
        raise IllegalMove("cephalopod.no_square", f"There is no square {name} on this board.", square=name[:8])
    if capturing != bool(rest):
        raise IllegalMove("error.bad_move", f"'{move}' is not a Cephalopod move.", move=move[:40])
    captured = []
    for other in rest:
        if other not in geo.index:
            raise IllegalMove("cephalopod.no_square", f"There is no square {other} on this board.", square=other[:8])
        captured.append(geo.index[other])
    return geo.index[name], tuple(captured)


class CephalopodState(State):
    game: ClassVar[type[Game]]

    def __init__(self, options: dict) -> None:
        super().__init__(options)
        self.size: int = options["size"]
        self.geo = geometry(self.size)
        self.cells: list[int] = [0] * self.geo.n  # see core.py: 0 empty, else value | seat << 3
        self.to_move: int = options["start"]
        self.history: list[str] = []  # the moves played, in notation
        # A position set up by `state_from_board` (tests, examples): its cells and side to move;
        # None for a game from the empty board.
        self.setup: tuple[tuple[int, ...], int] | None = None

    @property
    def plies(self) -> int:
        return len(self.history)

    # --- the fast core's view of this position ---------------------------------------------
    def position(self) -> Position:
        """A search position (make/unmake, capture keys) for this state."""
        return Position(self.geo, self.cells, self.to_move)

    def keys(self) -> list[int]:
        geo, cells = self.geo, self.cells
        return [geo.key_of(cells, s) for s in range(geo.n)]

    def internal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        keys = self.keys()
        return [s << 4 | m for s in range(self.geo.n) for m in CAPTURES[keys[s]]]

    def internal_move(self, move: str) -> int:
        """The internal move for a legal move's text; IllegalMove saying what is wrong otherwise."""
        geo = self.geo
        s, captured = parse_move(geo, move)
        name = geo.names[s]
        if self.cells[s]:
            raise IllegalMove("cephalopod.occupied", f"{name} already holds a die.", square=name)
        key = geo.key_of(self.cells, s)
        options = CAPTURES[key]
        if not captured:
            if options != [0]:
                raise IllegalMove("cephalopod.must_capture", f"A die on {name} must capture.", square=name)
            return s << 4
        around = geo.neighbours[s]
        mask = 0
        for t in captured:
            if t not in around:
                raise IllegalMove("cephalopod.not_adjacent", f"{geo.names[t]} is not next to {name}.",
                                  square=geo.names[t], target=name)
            if not self.cells[t]:
                raise IllegalMove("cephalopod.no_die", f"There is no die on {geo.names[t]}.", square=geo.names[t])
            mask |= 1 << around.index(t)
        if len(captured) < 2 or bin(mask).count("1") != len(captured):
            raise IllegalMove("cephalopod.too_few", "A capture takes at least two different dice.")
        if mask not in options:
            total = TOTALS[key][mask]
            raise IllegalMove("cephalopod.too_many_pips", f"Those dice show {total} pips; at most 6 can be captured.",
                              total=total)
        canonical = geo.move_name(s << 4 | mask)
        if canonical != move:
            raise IllegalMove("cephalopod.spelling", f"Write that move as '{canonical}'.", move=canonical)
        return s << 4 | mask

    # --- protocol -----------------------------------------------------------------------
    def current_players(self) -> list[int]:
        return [] if all(self.cells) else [self.to_move]

    def turn_number(self) -> int:
        return self.plies

    def legal_moves(self, player: int | None = None) -> list[str]:
        if self.is_terminal() or (player is not None and player != self.to_move):
            return []
        name = self.geo.move_name
        return [name(m) for m in self.internal_moves()]

    def is_legal(self, move: str, player: int) -> bool:
        if player != self.to_move or self.is_terminal():
            return False
        try:
            self.internal_move(move)
        except (IllegalMove, ValueError):
            return False
        return True

    def _apply(self, move: str, player: int) -> None:
        if player != self.to_move:
            raise IllegalMove("error.not_your_turn", "It is not your turn.")
        self.play(self.internal_move(move))

    def play(self, move: int) -> None:
        """Play an internal move known to be legal."""
        geo, cells = self.geo, self.cells
        s, mask = move >> 4, move & 15
        value = 1
        if mask:
            value = 0
            for t in geo.subsets[s][mask]:
                value += cells[t] & 7
                cells[t] = 0
        cells[s] = value | self.to_move << 3
        self.to_move = 1 - self.to_move
        self.history.append(geo.move_name(move))

    def after(self, count: int) -> "CephalopodState":
        """The position after the first `count` moves of this game's history."""
        state = self.start_position()
        for move in self.history[:count]:
            state.play(state.internal_move(move))
        return state

    def start_position(self) -> "CephalopodState":
        """The position this game started from (the empty board, or its setup)."""
        state = CephalopodState(self.options)
        if self.setup is not None:
            state.cells, state.to_move = list(self.setup[0]), self.setup[1]
            state.setup = self.setup
        return state

    def scores(self) -> list[int]:
        counts = [0, 0]
        for code in self.cells:
            if code:
                counts[code >> 3] += 1
        return counts

    def prompt(self) -> tuple[str, dict]:
        if self.is_terminal():
            return ("prompt.game_over", {})
        return ("cephalopod.prompt.place", {})

    # --- reading the board ------------------------------------------------------------------
    def die(self, square: int) -> tuple[int, int] | None:
        """(owner seat, pip value) of the die on `square`, or None."""
        code = self.cells[square]
        return (code >> 3, code & 7) if code else None

    def capture_sets(self, square: int) -> list[tuple[tuple[int, ...], int]]:
        """The capturing sets of an empty square: (captured squares, pip total) each, in move order."""
        key = self.geo.key_of(self.cells, square)
        return [(self.geo.subsets[square][m], TOTALS[key][m]) for m in CAPTURES[key] if m]

    # --- data ----------------------------------------------------------------------------------
    def to_json(self) -> dict:
        def board(cells):
            return {"values": [code & 7 for code in cells], "owners": [code >> 3 if code else -1 for code in cells]}

        setup = None
        if self.setup is not None:
            setup = {**board(self.setup[0]), "to_move": self.setup[1]}
        return {"game": "cephalopod", "options": dict(self.options), "setup": setup, "moves": list(self.history),
                **board(self.cells), "to_move": self.to_move}

    @classmethod
    def from_json(cls, data: dict) -> "CephalopodState":
        """The state of `to_json`: its moves are replayed (from the setup, if any) and must give the
        board and side to move it states."""
        try:
            if data["game"] != "cephalopod":
                raise ValueError("not a Cephalopod state")
            state = cls(Cephalopod.check_options(data["options"]))
            n = state.geo.n
            if data["setup"] is not None:
                setup = data["setup"]
                if setup["to_move"] not in (0, 1) or type(setup["to_move"]) is not int:
                    raise ValueError("bad setup")
                state.setup = (tuple(_cells(setup["values"], setup["owners"], n)), setup["to_move"])
                state.cells, state.to_move = list(state.setup[0]), state.setup[1]
            moves = data["moves"]
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise ValueError("bad move list")
            for move in moves:
                if state.is_terminal():
                    raise ValueError("moves after the end of the game")
                state.play(state.internal_move(move))
            if state.cells != _cells(data["values"], data["owners"], n) or state.to_move != data["to_move"]:
                raise ValueError("the moves do not give this board")
        except (KeyError, TypeError, AttributeError, IllegalMove) as err:
            raise ValueError(f"malformed Cephalopod state: {err}") from err
        return state

    def clone(self) -> "CephalopodState":
        other = CephalopodState.__new__(CephalopodState)
        other.options = dict(self.options)
        other.num_players = self.num_players
        other.size, other.geo = self.size, self.geo
        other.cells = self.cells[:]
        other.to_move = self.to_move
        other.history = self.history[:]
        other.setup = self.setup  # never mutated: shared
        return other


class Cephalopod(Game):
    name = "cephalopod"
    title = "Cephalopod"
    min_players = 2
    max_players = 2
    has_chance = False
    option_schema = {"size": {"choices": SIZES, "default": DEFAULT_SIZE}}
    seat_labels = SEATS
    state_class = CephalopodState


CephalopodState.game = Cephalopod


def _cells(values: list, owners: list, n: int) -> list[int]:
    """Cells from JSON's parallel `values` / `owners` lists; ValueError if they are not a board."""
    if not (isinstance(values, list) and isinstance(owners, list) and len(values) == len(owners) == n):
        raise ValueError("the board does not fit the size")
    cells = []
    for v, o in zip(values, owners):
        if type(v) is not int or type(o) is not int or not 0 <= v <= 6 or o not in (-1, 0, 1) or (v == 0) != (o == -1):
            raise ValueError("bad square")
        cells.append(v | o << 3 if v else 0)
    return cells


def state_from_board(rows: list[str], to_move: int = 0, size: int | None = None) -> CephalopodState:
    """A position written as text rows, top rank first: `.` empty, `w1`..`w6` / `b1`..`b6` dice
    (letters W/B = seats 0/1), separated by spaces, e.g. ["w1 . b2", ". . .", "w6 . ."].
    For tests, examples and setups; the state is checked like any other."""
    size = size or len(rows)
    state = Cephalopod.new_state({"players": 2, "size": size, "start": to_move})
    grid = [row.split() for row in rows]
    if len(grid) != size or any(len(r) != size for r in grid):
        raise ValueError("the rows do not make a square board of that size")
    for r, row in enumerate(grid):
        rank = size - 1 - r
        for c, token in enumerate(row):
            if token == ".":
                continue
            if len(token) != 2 or token[0] not in "wb" or token[1] not in "123456":
                raise ValueError(f"bad square {token!r}")
            state.cells[rank * size + c] = int(token[1]) | ("wb".index(token[0])) << 3
    state.setup = (tuple(state.cells), to_move)
    return state
