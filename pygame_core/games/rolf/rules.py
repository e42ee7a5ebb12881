"""Rolf The Dice (Kaste-Rolf): throw three dice, claim squares of a 6×6 board, build groups and
steal squares. The contract is `shared/rules/rolf-the-dice.md`; section numbers below refer to it.

Notation (one move per string, canonical spelling only):
  roll 3 3 5    chance: the three dice of a throw, in ascending order (the order of the dice
                does not matter, so only the sorted spelling is accepted); `roller()` is the
                seat whose turn it is, who taps "Throw"
  take 3-5      claim square row 3, column 5 (row first, both 1..6) for this throw: an empty
                square becomes the player's, an opponent's square is stolen (sections 3, 4)
  next          confirm the throw; the turn passes on ("Next player")
  extra         confirm the throw; the same player throws again ("Confirm · extra throw")
Exactly one of `next` / `extra` is legal once the throw's placements are made, so the record
says which way the turn went.

A turn (`turn_number()`) is one player's throws up to their `next` (or a skipped throw that
passes the turn on). Take-backs (section 4, "choosing again"): while the throw is not confirmed,
a `take` that was a real choice — its pool of candidates had more legal squares than placements
when the dice fell — may be taken back; the platform replays the record without it, which gives
a stolen square back to its previous owner exactly as it was.

Rulings where the contract is silent or leaves room:
- Candidates form *pools*: three different dice give one pool (six squares, two placements);
  a pair one pool (its three squares, all legal ones taken); three of a kind two pools (every
  off-diagonal square with three placements, and `x–x` with one if it is not already the
  player's). The placement counts are fixed when the dice fall: `min(placements, legal squares)`
  per pool (section 3). Placing in a pool uses up one of its placements.
- A throw with no legal square at all (section 3) is skipped by the chance move itself: the turn
  passes on, or the earned extra throw follows at once as a new chance node; `skipped` stays set
  (with the dice) until the next throw so everybody is told "no more squares to choose". Three of a
  kind can never be skipped: while the game runs some off-diagonal square is empty.
- Only a take that was a real choice can be chosen again: two of up to six squares of three
  different dice, the free squares of three of a kind. A pair's squares and the `x–x` of three of
  a kind are all mandatory, so taking one back could only change the order: those takes are final
  (the take-back is refused).
- The end bonus (+10, section 8) belongs to the placement that fills the last empty off-diagonal
  square, so it counts toward the 100 of a direct win made by that placement. Only the player
  making a placement can reach 100 (a steal only lowers the others), so at most one seat ever
  has a direct win.
- The corner bonus is earned after a placement of the player who then owns all four corners;
  once earned it is never lost (section 6), but a take-back before confirming replays the throw,
  so a corner that is taken back earns nothing.
- The last throw's squares (`chosen`) and dice stay in the state until the next throw: the view
  highlights them for everybody ("last move").
"""

from __future__ import annotations

from typing import ClassVar

from ...protocol import CHANCE, Game, IllegalMove, State, split_move
from .board import (
    CORNER_BONUS,
    CORNERS,
    DIAGONAL,
    DIAGONAL_BONUS,
    END_BONUS,
    FULL,
    INDEX,
    NAMES,
    OFF_DIAGONAL,
    SIZE,
    WIN_TOTAL,
    diagonal_square,
    group_points,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 5
FREE_CHOICES = 3  # three of a kind: free placements off the diagonal
DIFFERENT_PLACEMENTS = 2  # three different dice


# --- throws -----------------------------------------------------------------------------------
def throw_shape(dice: tuple[int, ...]) -> str:
    """'different', 'pair' or 'triple' for three sorted dice."""
    kinds = len(set(dice))
    return "different" if kinds == 3 else "pair" if kinds == 2 else "triple"


def matching_value(dice: tuple[int, ...]) -> int | None:
    """The value `x` of a pair `x,x,y` or of three of a kind (its diagonal square is `x–x`)."""
    a, b, c = dice
    if a == b or a == c:
        return a
    if b == c:
        return b
    return None


def candidate_pools(dice: tuple[int, ...]) -> list[tuple[int, int]]:
    """The throw's candidate pools as (mask of squares, placements) before own squares are
    excluded; placements -1 means "every legal square" (a pair)."""
    a, b, c = dice
    shape = throw_shape(dice)
    if shape == "different":
        mask = 0
        for r, col in ((a, b), (b, a), (a, c), (c, a), (b, c), (c, b)):
            mask |= 1 << ((r - 1) * SIZE + col - 1)
        return [(mask, DIFFERENT_PLACEMENTS)]
    x = matching_value(dice)
    diag = 1 << diagonal_square(x)
    if shape == "pair":
        y = c if a == b else a
        return [(diag | 1 << ((x - 1) * SIZE + y - 1) | 1 << ((y - 1) * SIZE + x - 1), -1)]
    return [(OFF_DIAGONAL, FREE_CHOICES), (diag, 1)]


def _outcomes() -> list[tuple[tuple[int, int, int], float]]:
    counts: dict[tuple[int, int, int], int] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                key = tuple(sorted((a, b, c)))
                counts[key] = counts.get(key, 0) + 1
    return [(dice, n / 216) for dice, n in sorted(counts.items())]


OUTCOMES = _outcomes()  # the 56 distinct throws of three dice with their probabilities
POOLS = {dice: candidate_pools(dice) for dice, _ in OUTCOMES}


# --- the state ------------------------------------------------------------------------------
class RolfState(State):
    """A Rolf table: who owns which square, the throw in progress and the bonuses.

    `owners[s]` is seat `s`'s squares as a bit mask; `points[s]` its group points (kept up to
    date after every placement). A throw in progress has `pools`: [mask, placements left,
    whether it was a real choice] per pool.
    """

    game: ClassVar[type[Game]]

    def __init__(self, options: dict) -> None:
        super().__init__(options)
        n = self.num_players
        self.seat: int = options.get("start", 0)
        self.turn = 0  # completed turns
        self.throw = 0  # throws made in this turn before the current one (0 = first throw)
        self.rolling = True  # waiting for the dice
        self.dice: tuple[int, ...] = ()  # the last throw, sorted (shown until the next one)
        self.pools: list[list] = []  # [mask, placements left, real choice] of the current throw
        self.extra = False  # whether the current throw earns an extra throw
        self.chosen: list[int] = []  # squares taken in the current/last throw, in order
        self.skipped = False  # the last throw had no legal square (section 3)
        self.owners = [0] * n
        self.points = [0] * n  # group points
        self.corner = [False] * n  # corner bonus earned (permanent)
        self.end_seat: int | None = None  # who took the last empty off-diagonal square
        self.winner: int | None = None  # direct win (section 7)
        self.over = False

    # --- who moves -------------------------------------------------------------------
    def current_players(self) -> list[int]:
        if self.over:
            return []
        return [CHANCE] if self.rolling else [self.seat]

    def turn_number(self) -> int:
        return self.turn

    def chance(self) -> tuple[int, ...]:
        return (6, 6, 6) if self.rolling and not self.over else ()

    def roller(self) -> int | None:
        return self.seat if self.rolling and not self.over else None

    def chance_move(self, values: list[int]) -> str:
        return "roll " + " ".join(str(v) for v in sorted(values))

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """The 56 distinct throws (ascending dice) with their probabilities."""
        if not self.chance():
            return []
        return [("roll %d %d %d" % dice, p) for dice, p in OUTCOMES]

    # --- queries ---------------------------------------------------------------------
    def owner_of(self, index: int) -> int | None:
        bit = 1 << index
        for seat, mask in enumerate(self.owners):
            if mask & bit:
                return seat
        return None

    def occupied(self) -> int:
        mask = 0
        for own in self.owners:
            mask |= own
        return mask

    def placements_left(self) -> int:
        return sum(p[1] for p in self.pools) if not self.rolling else 0

    def legal_mask(self) -> int:
        """Squares the current seat may take now (0 unless placing)."""
        if self.over or self.rolling:
            return 0
        own = self.owners[self.seat]
        mask = 0
        for pool_mask, left, _ in self.pools:
            if left:
                mask |= pool_mask & ~own
        return mask

    def confirm_move(self) -> str:
        return "extra" if self.extra else "next"

    def legal_moves(self, player: int | None = None) -> list[str]:
        if self.over or self.rolling or (player is not None and player != self.seat):
            return []
        if not self.placements_left():
            return [self.confirm_move()]
        mask = self.legal_mask()
        return ["take " + NAMES[i] for i in range(36) if mask >> i & 1]

    def is_legal(self, move: str, player: int) -> bool:
        if self.over or self.rolling or player != self.seat:
            return False
        if not self.placements_left():
            return move == self.confirm_move()
        if not move.startswith("take "):
            return False
        index = INDEX.get(move[5:])
        return index is not None and bool(self.legal_mask() >> index & 1)

    # --- scores ----------------------------------------------------------------------
    def total(self, seat: int) -> int:
        return (self.points[seat] + DIAGONAL_BONUS * (self.owners[seat] & DIAGONAL).bit_count()
                + (CORNER_BONUS if self.corner[seat] else 0) + (END_BONUS if self.end_seat == seat else 0))

    def breakdown(self, seat: int) -> dict[str, int]:
        """The four parts of a seat's total (results table, score card)."""
        return {
            "group": self.points[seat],
            "diagonal": DIAGONAL_BONUS * (self.owners[seat] & DIAGONAL).bit_count(),
            "corners": CORNER_BONUS if self.corner[seat] else 0,
            "end": END_BONUS if self.end_seat == seat else 0,
        }

    def scores(self) -> list[int]:
        return [self.total(s) for s in range(self.num_players)]

    def winners(self) -> list[int]:
        return [self.winner] if self.winner is not None else []

    # --- moves -----------------------------------------------------------------------
    def _apply(self, move: str, player: int) -> None:
        if player == CHANCE:
            self._throw(tuple(sorted(self.chance_values(move))))
            return
        word, args = split_move(move)
        if word == "take" and len(args) == 1:
            self.place(self._parse_take(args[0]))
        elif word in ("next", "extra") and not args:
            self._check_confirm(word)
            self.confirm()
        else:
            raise IllegalMove("error.bad_move", f"'{move}' is not a Rolf move.", move=move)

    def _parse_take(self, text: str) -> int:
        index = INDEX.get(text)
        if index is None:
            raise IllegalMove("rolf.no_square", f"There is no square {text} (row-column, 1 to 6).", square=text)
        if not self.placements_left():
            raise IllegalMove("rolf.confirm_first", "Every placement of this throw is made: confirm it.")
        if self.owners[self.seat] >> index & 1:
            raise IllegalMove("rolf.own_square", f"{text} is already yours.", square=text)
        if not self.legal_mask() >> index & 1:
            open_diag = [m for m, left, _ in self.pools if left and m & DIAGONAL and m.bit_count() == 1]
            if open_diag and not (open_diag[0] >> index & 1) and not (DIAGONAL >> index & 1):
                square = NAMES[open_diag[0].bit_length() - 1]
                raise IllegalMove("rolf.take_diagonal", f"Your free squares are placed: take {square}.", square=square)
            raise IllegalMove("rolf.not_candidate", f"{text} is not one of this throw's squares.", square=text)
        return index

    def _check_confirm(self, word: str) -> None:
        left = self.placements_left()
        if left:
            raise IllegalMove("rolf.placements_left", f"Make your placements first ({left} left).", n=left)
        if word != self.confirm_move():
            if self.extra:
                raise IllegalMove("rolf.extra_earned", "This throw earns an extra throw: confirm with an extra throw.")
            raise IllegalMove("rolf.no_extra", "This throw earns no extra throw: the turn passes on.")

    def _throw(self, dice: tuple[int, ...]) -> None:
        """The chance move: set up the throw's pools and its extra throw (sections 3 and 5)."""
        own = self.owners[self.seat]
        self.dice = dice
        self.chosen = []
        self.rolling = False
        pools = []
        for mask, placements in POOLS[dice]:
            legal = (mask & ~own).bit_count()
            need = legal if placements < 0 else min(placements, legal)
            pools.append([mask, need, legal > need])
        self.pools = pools
        x = matching_value(dice)
        # A pair or three of a kind: always on the first throw of a turn, later only if x–x was
        # not the player's when the dice fell (section 5).
        self.extra = x is not None and (self.throw == 0 or not own >> diagonal_square(x) & 1)
        self.skipped = not self.placements_left()
        if self.skipped:
            self.confirm()  # "no more squares to choose": the turn or the extra throw goes on

    def place(self, index: int) -> None:
        """The current seat takes square `index` (known legal): steal, regroup, bonuses, end."""
        seat = self.seat
        bit = 1 << index
        for pool in self.pools:
            if pool[1] and pool[0] & bit:
                pool[1] -= 1
                break
        for victim, mask in enumerate(self.owners):
            if mask & bit:
                self.owners[victim] = mask & ~bit
                self.points[victim] = group_points(mask & ~bit)
                break
        own = self.owners[seat] | bit
        self.owners[seat] = own
        self.points[seat] = group_points(own)
        self.chosen.append(index)
        if not self.corner[seat] and own & CORNERS == CORNERS:
            self.corner[seat] = True
        if bit & OFF_DIAGONAL and self.occupied() & OFF_DIAGONAL == OFF_DIAGONAL:
            self.end_seat = seat  # the last empty off-diagonal square: the game ends (section 8)
            self.over = True
        if own & DIAGONAL == DIAGONAL or self.total(seat) >= WIN_TOTAL:
            self.winner = seat  # a direct win: any placements left lapse (section 7)
            self.over = True
        if self.over:
            self.pools = [[m, 0, c] for m, _, c in self.pools]

    def confirm(self) -> None:
        """Lock the throw: the same seat throws again, or the turn passes on."""
        self.pools = []
        self.rolling = True
        if self.extra:
            self.throw += 1
        else:
            self.seat = (self.seat + 1) % self.num_players
            self.turn += 1
            self.throw = 0
        self.extra = False

    def can_take_back(self, move: str, player: int) -> bool:
        """A `take` of this unconfirmed throw that was a real choice (section 4)."""
        if self.over or self.rolling or player != self.seat or not move.startswith("take "):
            return False
        index = INDEX.get(move[5:])
        if index is None or index not in self.chosen:
            return False
        bit = 1 << index
        return any(mask & bit and choice for mask, _, choice in self.pools)

    # --- UI helpers --------------------------------------------------------------------
    def diagonal_pending(self) -> int | None:
        """Three of a kind whose `x–x` is still to be taken: that square, else None."""
        if self.rolling or throw_shape(self.dice) != "triple":
            return None
        mask, left, _ = self.pools[1]
        return mask.bit_length() - 1 if left else None

    def prompt(self) -> tuple[str, dict]:
        if self.over:
            return ("prompt.game_over", {})
        if self.rolling:
            if self.throw == 0:
                return ("rolf.prompt.throw", {})
            if self.skipped:
                return ("rolf.prompt.skipped_extra", {})
            return ("rolf.prompt.extra_throw", {})
        left = self.placements_left()
        if left:
            diag = self.diagonal_pending()
            if diag is not None and left > 1:
                return ("rolf.prompt.place_triple", {"n": left - 1, "square": NAMES[diag]})
            return ("rolf.prompt.place", {"n": left})
        if self.extra:
            return ("rolf.prompt.confirm_extra", {})
        return ("rolf.prompt.confirm_next", {})

    # --- data ------------------------------------------------------------------------
    def clone(self) -> "RolfState":
        other = RolfState.__new__(RolfState)
        other.options = self.options
        other.num_players = self.num_players
        other.seat = self.seat
        other.turn = self.turn
        other.throw = self.throw
        other.rolling = self.rolling
        other.dice = self.dice
        other.pools = [list(p) for p in self.pools]
        other.extra = self.extra
        other.chosen = list(self.chosen)
        other.skipped = self.skipped
        other.owners = list(self.owners)
        other.points = list(self.points)
        other.corner = list(self.corner)
        other.end_seat = self.end_seat
        other.winner = self.winner
        other.over = self.over
        return other

    def board_rows(self) -> list[str]:
        """The board as six strings, one per row: '.' empty, else the owner's seat number."""
        cells = ["."] * 36
        for seat, mask in enumerate(self.owners):
            for i in range(36):
                if mask >> i & 1:
                    cells[i] = str(seat)
        return ["".join(cells[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]

    def to_json(self) -> dict:
        return {
            "game": "rolf",
            "options": dict(self.options),
            "seat": self.seat,
            "turn": self.turn,
            "throw": self.throw,
            "rolling": self.rolling,
            "dice": list(self.dice),
            "pools": [list(p) for p in self.pools],
            "extra": self.extra,
            "chosen": [NAMES[i] for i in self.chosen],
            "skipped": self.skipped,
            "board": self.board_rows(),
            "corner": list(self.corner),
            "end_seat": self.end_seat,
            "winner": self.winner,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: dict) -> "RolfState":
        try:
            if data["game"] != "rolf":
                raise ValueError("not a Rolf state")
            state = cls(Rolf.check_options(data["options"]))
            n = state.num_players
            state.seat = _int(data["seat"], 0, n - 1)
            state.turn = _int(data["turn"], 0, 10**9)
            state.throw = _int(data["throw"], 0, 10**9)
            state.rolling = _bool(data["rolling"])
            dice = [_int(d, 1, 6) for d in data["dice"]]
            if dice != sorted(dice) or len(dice) not in (0, 3):
                raise ValueError("bad dice")
            state.dice = tuple(dice)
            state.pools = []
            for mask, left, choice in data["pools"]:
                state.pools.append([_int(mask, 1, FULL), _int(left, 0, 4), _bool(choice)])
            if state.rolling == bool(state.pools) or (state.pools and not state.dice):
                raise ValueError("pools do not fit the phase")
            state.extra = _bool(data["extra"])
            state.chosen = [INDEX[sq] for sq in data["chosen"]]
            state.skipped = _bool(data["skipped"])
            rows = data["board"]
            if len(rows) != SIZE or any(not isinstance(r, str) or len(r) != SIZE for r in rows):
                raise ValueError("bad board")
            owners = [0] * n
            for i, cell in enumerate("".join(rows)):
                if cell != ".":
                    owners[_int(int(cell), 0, n - 1)] |= 1 << i
            state.owners = owners
            state.points = [group_points(m) for m in owners]
            state.corner = [_bool(c) for c in data["corner"]]
            if len(state.corner) != n:
                raise ValueError("bad corner bonuses")
            end, winner = data["end_seat"], data["winner"]
            state.end_seat = None if end is None else _int(end, 0, n - 1)
            state.winner = None if winner is None else _int(winner, 0, n - 1)
            state.over = _bool(data["over"])
            if state.to_json() != data:
                raise ValueError("not a canonical Rolf state")
        except (KeyError, TypeError, AttributeError, IllegalMove) as err:
            raise ValueError(f"malformed Rolf state: {err}") from err
        return state


def _int(value, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{value!r} is not an integer in {low}..{high}")
    return value


def _bool(value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not true or false")
    return value


class Rolf(Game):
    """Rolf The Dice: 2–5 players, three dice, a 6×6 board."""

    name = "rolf"
    title = "Rolf The Dice"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_class = RolfState


RolfState.game = Rolf
