"""Penta: Yahtzee with the forced joker (rules: shared/rules/penta.md).

Notation (one move per string, canonical spelling only):
  roll 3 5 1        chance: the values of the dice being rolled, in position order; the seat
                    whose round it is throws them (`roller()`)
  keep 3 5 5        keep dice showing these values, in ascending order (their leftmost
                    matching dice), and roll the others; "keep" alone rolls all five
  score fours       write the dice into a box (names in BOXES)

A turn is one seat's round (`turn_number()` counts written boxes). Nothing can be taken back:
a keep is followed by its roll at once, and a written box is final.

Rulings where the contract is silent:
- Keeping all five dice is not a roll and is refused (it would only burn a roll).
- Kept dice stay in place; rolled values fill the other positions left to right.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import ClassVar

from ...protocol import CHANCE, Game, IllegalMove, State, split_move

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
    "penta",
)
BOXES = UPPER + LOWER
JOKER_LOWER = LOWER[:-1]
UPPER_BONUS_THRESHOLD = 63
UPPER_BONUS = 35
PENTA_BONUS = 100
ROUNDS = 13
ROLLS_PER_ROUND = 3


def is_penta(dice: tuple[int, ...] | list[int]) -> bool:
    """Five equal dice."""
    return len(set(dice)) == 1


def box_scores(dice: tuple[int, ...] | list[int], joker: bool = False) -> dict[str, int]:
    """Points the five `dice` make in every box; `joker` applies the forced-joker values."""
    return dict(_scores(tuple(sorted(dice)), joker))


def box_score(box: str, dice: tuple[int, ...] | list[int], joker: bool = False) -> int:
    """Points the five `dice` make in `box` (KeyError for a name not in BOXES)."""
    return _scores(tuple(sorted(dice)), joker)[box]


@cache
def _scores(dice: tuple[int, ...], joker: bool) -> dict[str, int]:
    """All thirteen boxes from one count of the faces, per sorted throw (252 × 2 at most): the
    solver scores every roll at import, and the AIs and views ask box by box. Never mutated."""
    counts = Counter(dice)
    total = sum(dice)
    top = max(counts.values())
    faces = set(dice)
    scores = {box: face * counts[face] for face, box in enumerate(UPPER, 1)}
    scores["three_kind"] = total if top >= 3 else 0
    scores["four_kind"] = total if top >= 4 else 0
    scores["full_house"] = 25 if joker or sorted(counts.values()) == [2, 3] else 0
    runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
    scores["small_straight"] = 30 if joker or any(run <= faces for run in runs) else 0
    scores["large_straight"] = 40 if joker or faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    scores["chance"] = total
    scores["penta"] = 50 if top == 5 else 0
    return scores


def joker_applies(card: dict, dice) -> bool:
    """A new Penta while the Penta box holds 50: the forced joker and the +100 bonus."""
    return is_penta(dice) and card["penta"] == 50


def allowed_boxes(card: dict, dice) -> list[str]:
    """Free boxes the dice may be written into (the forced joker narrows them)."""
    free = [box for box in BOXES if card[box] is None]
    if not joker_applies(card, dice):
        return free
    own_upper = UPPER[dice[0] - 1]
    if card[own_upper] is None:
        return [own_upper]
    lower = [box for box in JOKER_LOWER if card[box] is None]
    return lower or free


def write_score(card: dict, box: str, dice) -> tuple[int, int]:
    """Points for writing `dice` into `box` on `card`, and the Penta bonus earned."""
    joker = joker_applies(card, dice)
    # The joker's fixed values apply to the lower boxes; a non-matching upper box scores 0.
    points = box_score(box, dice, joker=joker and box in JOKER_LOWER)
    return points, PENTA_BONUS if joker else 0


def upper_total(card: dict) -> int:
    return sum(card[box] or 0 for box in UPPER)


def card_total(card: dict, bonuses: int) -> int:
    """TOTAL: boxes + upper bonus + Penta bonuses."""
    boxes = sum(value or 0 for value in card.values())
    bonus = UPPER_BONUS if upper_total(card) >= UPPER_BONUS_THRESHOLD else 0
    return boxes + bonus + bonuses * PENTA_BONUS


def empty_card() -> dict:
    return {box: None for box in BOXES}


def keep_positions(dice: list[int], values: list[int]) -> list[int] | None:
    """Positions of the leftmost dice showing `values`; None if the dice don't show them."""
    taken: list[int] = []
    for value in values:
        for pos, die in enumerate(dice):
            if die == value and pos not in taken:
                taken.append(pos)
                break
        else:
            return None
    return sorted(taken)


def distinct_keeps(dice: list[int]) -> list[tuple[int, ...]]:
    """Every distinct multiset of dice that can be kept (not all five), sorted."""
    counts = Counter(dice)
    keeps = [()]
    for face in sorted(counts):
        keeps = [k + (face,) * n for k in keeps for n in range(counts[face] + 1)]
    return sorted((k for k in keeps if len(k) < 5), key=lambda k: (len(k), k))


class PentaState(State):
    """A Penta table: every seat's score card, the dice and the roll count."""

    game: ClassVar[type[Game]]

    def __init__(self, options: dict) -> None:
        super().__init__(options)
        self.start: int = options.get("start", 0)
        self.turn = 0  # rounds played by everybody together; seat = (start + turn) % n
        self.dice = [0] * 5  # 0 = not rolled yet this round
        self.rolls = 0
        self.rolling: list[int] | None = list(range(5))  # positions awaiting a chance move
        self.cards = [empty_card() for _ in range(self.num_players)]
        self.bonuses = [0] * self.num_players  # Penta bonuses earned (each +100)

    # --- who moves -------------------------------------------------------------------
    def seat(self) -> int:
        return (self.start + self.turn) % self.num_players

    def round(self) -> int:
        """0-based round number of the current turn."""
        return self.turn // self.num_players

    def current_players(self) -> list[int]:
        if self.turn >= ROUNDS * self.num_players:
            return []
        return [CHANCE] if self.rolling is not None else [self.seat()]

    def turn_number(self) -> int:
        return self.turn

    # --- chance ----------------------------------------------------------------------
    def chance(self) -> tuple[int, ...]:
        return (6,) * len(self.rolling) if self.rolling is not None else ()

    def roller(self) -> int | None:
        return self.seat() if self.rolling is not None else None

    # --- moves -----------------------------------------------------------------------
    def legal_moves(self, player: int | None = None) -> list[str]:
        current = self.current_players()
        if not current or (player is not None and player not in current):
            return []
        if current == [CHANCE]:
            return []  # chance outcomes come from chance()/chance_move()
        moves = []
        if self.rolls < ROLLS_PER_ROUND:
            moves += ["keep " + " ".join(map(str, k)) if k else "keep" for k in distinct_keeps(self.dice)]
        card = self.cards[self.seat()]
        moves += ["score " + box for box in allowed_boxes(card, self.dice)]
        return moves

    def _apply(self, move: str, player: int) -> None:
        word, args = split_move(move)
        if player == CHANCE:
            for pos, value in zip(self.rolling, self.chance_values(move)):
                self.dice[pos] = value
            self.rolling = None
            self.rolls += 1
        elif word == "keep":
            self.rolling = self._parse_keep(args)
        elif word == "score" and len(args) == 1:
            self._score(args[0])
        else:
            raise IllegalMove("error.bad_move", f"'{move}' is not a Penta move.", move=move)

    def _parse_keep(self, args: list[str]) -> list[int]:
        if self.rolls >= ROLLS_PER_ROUND:
            raise IllegalMove("penta.no_rolls_left", "No rolls left: pick a box.")
        if not all(a in "123456" and len(a) == 1 for a in args):
            raise IllegalMove("error.bad_move", "Keep takes die values from 1 to 6.", move="keep " + " ".join(args))
        if len(args) >= 5:
            raise IllegalMove("penta.keep_all", "Release at least one die to roll again.")
        kept = keep_positions(self.dice, [int(a) for a in args])
        if kept is None:
            raise IllegalMove("penta.keep_missing", "You can only keep dice that are on the table.")
        return [pos for pos in range(5) if pos not in kept]

    def _score(self, box: str) -> None:
        seat = self.seat()
        card = self.cards[seat]
        if box not in BOXES:
            raise IllegalMove("penta.unknown_box", f"There is no box called '{box}'.", box=box)
        if card[box] is not None:
            raise IllegalMove("penta.box_used", "That box is already filled.", box=box)
        if box not in allowed_boxes(card, self.dice):
            raise IllegalMove(
                "penta.joker_forced",
                "A second Penta must go in its upper box, else a lower box (joker rule).",
                box=box,
            )
        points, bonus = write_score(card, box, self.dice)
        card[box] = points
        self.bonuses[seat] += bonus // PENTA_BONUS
        self.turn += 1
        self.dice = [0] * 5
        self.rolls = 0
        self.rolling = list(range(5)) if self.turn < ROUNDS * self.num_players else None

    # --- outcome ---------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [card_total(card, b) for card, b in zip(self.cards, self.bonuses)]

    def prompt(self) -> tuple[str, dict]:
        if self.is_terminal():
            return ("prompt.game_over", {})
        if self.is_chance():
            return ("penta.prompt.rolling", {})
        card = self.cards[self.seat()]
        if not any(write_score(card, b, self.dice)[0] for b in allowed_boxes(card, self.dice)):
            return ("penta.prompt.sacrifice", {})
        if self.rolls < ROLLS_PER_ROUND:
            return ("penta.prompt.keep_or_score", {"rolls_left": ROLLS_PER_ROUND - self.rolls})
        return ("penta.prompt.pick_box", {})

    # --- data ------------------------------------------------------------------------
    def clone(self) -> "PentaState":
        other = PentaState.__new__(PentaState)
        other.options = dict(self.options)
        other.num_players = self.num_players
        other.start = self.start
        other.turn = self.turn
        other.dice = list(self.dice)
        other.rolls = self.rolls
        other.rolling = None if self.rolling is None else list(self.rolling)
        other.cards = [dict(card) for card in self.cards]
        other.bonuses = list(self.bonuses)
        return other

    def to_json(self) -> dict:
        return {
            "game": "penta",
            "options": dict(self.options),
            "turn": self.turn,
            "dice": list(self.dice),
            "rolls": self.rolls,
            "rolling": None if self.rolling is None else list(self.rolling),
            "cards": [dict(card) for card in self.cards],
            "bonuses": list(self.bonuses),
        }

    @classmethod
    def from_json(cls, data: dict) -> "PentaState":
        try:
            if data["game"] != "penta":
                raise ValueError("not a Penta state")
            state = cls(Penta.check_options(data["options"]))
            n = state.num_players
            state.turn = _int(data["turn"], 0, ROUNDS * n)
            state.dice = [_int(d, 0, 6) for d in data["dice"]]
            state.rolls = _int(data["rolls"], 0, ROLLS_PER_ROUND)
            rolling = data["rolling"]
            state.rolling = None if rolling is None else sorted({_int(p, 0, 4) for p in rolling})
            cards = data["cards"]
            if len(cards) != n or len(state.dice) != 5 or len(data["bonuses"]) != n:
                raise ValueError("wrong number of cards or dice")
            state.cards = []
            for card in cards:
                if set(card) != set(BOXES):
                    raise ValueError("bad score card")
                state.cards.append({box: None if card[box] is None else _int(card[box], 0, 50) for box in BOXES})
            state.bonuses = [_int(b, 0, ROUNDS) for b in data["bonuses"]]
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"malformed Penta state: {err}") from err
        return state


def _int(value, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{value!r} is not an integer in {low}..{high}")
    return value


class Penta(Game):
    """Penta: 13 rounds of Yahtzee-style scoring with the forced joker."""

    name = "penta"
    title = "Penta"
    min_players = 1
    max_players = 5
    state_class = PentaState

    @classmethod
    def auto_move_due(cls, state: "PentaState", seat: int) -> bool:
        """Rules 2: after the last roll the app writes the computer's choice for an idle player."""
        return not state.is_terminal() and not state.is_chance() and state.rolls >= ROLLS_PER_ROUND

    @classmethod
    def legacy_move(cls, move: str) -> str:
        """Records of format 1 wrote keeps in display order ("keep 5 3 5"): sort the values."""
        word, *args = str(move).split()
        if word == "keep":
            return " ".join(["keep", *sorted(args)])
        return " ".join([word, *args])


PentaState.game = Penta
