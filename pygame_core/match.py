"""One game being played: its record and current state, and the single door every move enters by.

`Match.submit(seat, move, index)` takes every move — a person's click, an AI seat, a chance
outcome from the seeded roller, later a peer in an online room. `index` is the number of moves
the mover saw when choosing (`match.index`); a move made on an older position (a second tab, a
late network message, a double tap) is refused with nothing changed.

Take-backs are declared by the rules (`State.can_take_back`): `take_back(seat, at, index)`
removes that seat's move at record position `at`, provided no dice were rolled since, and
replays the rest. Dice are never taken back.
"""

from __future__ import annotations

from .protocol import CHANCE, IllegalMove, State, check_seat
from .record import Record, RecordError


class Match:
    def __init__(self, record: Record, state: State | None = None) -> None:
        self.record = record
        self.state = state if state is not None else record.replay()
        # The state before each move, kept once `turns()` was asked for (the views' last-turn
        # banner and log ask on every render): each new move adds one clone instead of a
        # replay of the whole record per render. Read-only for everybody.
        self._befores: list[State] | None = None

    @classmethod
    def new(cls, game: str, options: dict) -> "Match":
        from .registry import get_game

        return cls(Record(game, get_game(game).check_options(options)))

    @property
    def index(self) -> int:
        """How many moves have been made: the index the next move is made on."""
        return len(self.record.moves)

    def _check_index(self, index: object) -> None:
        if type(index) is not int or index != self.index:
            raise IllegalMove("error.stale_move", "The game has moved on since that choice.")

    def submit(self, seat: int, move: str, index: int) -> None:
        """Play `move` for `seat` on the position with `index` moves; IllegalMove changes nothing."""
        self._check_index(index)
        before = self.state.clone() if self._befores is not None else None
        self.state.apply(move, check_seat(seat))
        self.record.moves.append((seat, move))
        if before is not None:
            self._befores.append(before)

    # --- take-backs ------------------------------------------------------------------
    def takeback_positions(self, seat: int) -> list[int]:
        """Record positions of `seat`'s moves that it may take back now (since the last roll)."""
        out = []
        for at in range(len(self.record.moves) - 1, -1, -1):
            player, move = self.record.moves[at]
            if player == CHANCE:
                break
            if player == seat and self.state.can_take_back(move, seat):
                out.append(at)
        return sorted(out)

    def take_back(self, seat: int, at: int, index: int) -> None:
        """Remove `seat`'s move at record position `at` and replay the rest (IllegalMove if not allowed)."""
        self._check_index(index)
        check_seat(seat)
        if type(at) is not int or at not in self.takeback_positions(seat):
            raise IllegalMove("error.cannot_take_back", "That move cannot be taken back.")
        moves = self.record.moves[:at] + self.record.moves[at + 1 :]
        candidate = Record(self.record.game, self.record.options, moves)
        try:
            state = candidate.replay()
        except RecordError:  # a later move depended on it
            raise IllegalMove("error.cannot_take_back", "That move cannot be taken back.") from None
        self.record.moves = moves
        self.state = state
        self._befores = None  # rebuilt from the shorter record when next asked for

    # --- turns -------------------------------------------------------------------------
    def turns(self) -> list[list[tuple[int, str, State]]]:
        """The moves grouped by turn: [(seat, move, state before it), ...] per turn number."""
        if self._befores is None or len(self._befores) != len(self.record.moves):
            self._befores = [before for _, _, before in self.record.states()]
        out: list[list] = []
        number = None
        for (seat, move), before in zip(self.record.moves, self._befores):
            if before.turn_number() != number:
                number = before.turn_number()
                out.append([])
            out[-1].append((seat, move, before))
        return out

    def last_turn(self) -> list[tuple[int, str, State]]:
        """The moves of the last completed turn (empty before the first one ends)."""
        current = self.state.turn_number()
        for turn in reversed(self.turns()):
            if turn and turn[0][2].turn_number() < current:
                return turn
        return []
