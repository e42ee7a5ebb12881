"""One player's score sheet: the five zones, the stock of saved actions, runes, pending bonuses.

Placements (rules section 8) and bonuses (section 10) live here; the turn structure is in
`rules.py`. A sheet is plain lists and ints, so copying one is cheap (search AIs copy a lot).
"""

from __future__ import annotations

from .board import ACTIONS, BOARD, Board, ZONES

STOCK_INDEX = {name: i for i, name in enumerate(ACTIONS)}
REROLL, RETURN, PLUS, LOCK = range(4)


class Sheet:
    __slots__ = ("board", "grey", "yellow", "blue", "green", "pink", "stock", "runes", "pending")

    def __init__(self, board: Board = BOARD) -> None:
        self.board = board
        self.grey = [0] * board.faces  # marks per column (value = index + 1)
        self.yellow = [0] * len(board.yellow_ids)  # markers per box: 0, 1 or 2
        self.blue: list[int] = []  # sums written, left to right
        self.green: list[int] = []  # numbers written (value × multiplier)
        self.pink: list[int] = []  # values written
        self.stock = [0, 0, 0, 0]  # Re-roll, Return, +1, Lock
        self.runes = 0
        self.pending: list[str] = []  # question / T8 bonuses earned and not yet resolved

    def copy(self) -> "Sheet":
        other = Sheet.__new__(Sheet)
        other.board = self.board
        other.grey = self.grey[:]
        other.yellow = self.yellow[:]
        other.blue = self.blue[:]
        other.green = self.green[:]
        other.pink = self.pink[:]
        other.stock = self.stock[:]
        other.runes = self.runes
        other.pending = self.pending[:]
        return other

    # --- what fits --------------------------------------------------------------------------
    def grey_ok(self, value: int) -> bool:
        return 1 <= value <= self.board.faces and self.grey[value - 1] < self.board.grey_boxes

    def yellow_boxes(self, value: int | None = None) -> list[int]:
        """Boxes with an empty marker (showing `value`, or any value)."""
        boxes = range(len(self.yellow)) if value is None else self.board.yellow_by_value[value]
        return [i for i in boxes if self.yellow[i] < 2]

    def blue_ok(self, total: int) -> bool:
        b = self.board
        if len(self.blue) >= b.blue_size or not b.blue_min <= total <= b.blue_max:
            return False
        return not self.blue or total <= self.blue[-1]

    def green_ok(self) -> bool:
        return len(self.green) < self.board.green_size

    def pink_ok(self) -> bool:
        return len(self.pink) < self.board.pink_size

    def zone_open(self, zone: str) -> bool:
        """Whether any placement at all is possible in `zone` (a question bonus there is not lost)."""
        if zone == "grey":
            return any(c < self.board.grey_boxes for c in self.grey)
        if zone == "yellow":
            return any(m < 2 for m in self.yellow)
        if zone == "blue":
            return len(self.blue) < self.board.blue_size and (not self.blue or self.blue[-1] >= self.board.blue_min)
        if zone == "green":
            return self.green_ok()
        return self.pink_ok()

    def bonus_possible(self, code: str) -> bool:
        kind, _, zone = code.partition(":")
        if zone == "black":
            return any(self.zone_open(z) for z in ZONES)
        if kind == "t8" and zone == "blue":
            return self.blue_ok(self.t8_blue_value())
        return self.zone_open(zone)

    def t8_blue_value(self) -> int:
        return self.blue[-1] if self.blue else self.board.blue_max

    def t8_green_value(self) -> int:
        return self.board.faces if self.board.green_first[len(self.green)] else 1

    # --- placements (known legal) -------------------------------------------------------------
    def mark_grey(self, value: int) -> None:
        self.grey[value - 1] += 1
        if self.grey[value - 1] == self.board.grey_boxes:
            self.earn(self.board.grey_bonus[value - 1])

    def extra_grey(self, value: int) -> bool:
        """An extra grey mark (R8.1.4); False when the column is full and the mark is lost."""
        if not self.grey_ok(value):
            return False
        self.mark_grey(value)
        return True

    def mark_yellow(self, box: int) -> None:
        b = self.board
        self.yellow[box] += 1
        if self.yellow[box] == 1:  # a line bonus needs the first marker in every box (R8.2.6)
            row, col = b.yellow_row[box], b.yellow_col[box]
            if all(self.yellow[i] for i in b.yellow_row_members[row]):
                self.earn(b.yellow_row_bonus[row])
            if all(self.yellow[i] for i in b.yellow_col_members[col]):
                self.earn(b.yellow_col_bonus[col])

    def write_blue(self, total: int) -> None:
        self.blue.append(total)
        self.earn(self.board.blue_bonus[len(self.blue) - 1])

    def write_green(self, value: int) -> None:
        box = len(self.green)
        self.green.append(value * self.board.green_mult[box])
        self.earn(self.board.green_bonus[box])

    def write_pink(self, value: int) -> None:
        box = len(self.pink)
        self.pink.append(value)
        if value >= self.board.pink_threshold[box]:
            self.earn(self.board.pink_bonus[box])

    def earn(self, code: str | None) -> None:
        """A bonus symbol earned (R10): actions and runes at once, placements queued."""
        if code is None:
            return
        if code == "rune":
            self.runes += 1
        elif code in STOCK_INDEX:
            self.stock[STOCK_INDEX[code]] += 1
        elif self.bonus_possible(code):
            self.pending.append(code)
        # else: a question / T8 bonus whose zone allows no placement is lost (R10.7)

    def prune(self) -> None:
        """Drop pending bonuses that became impossible (R10.7), e.g. the zone filled meanwhile."""
        if self.pending:
            self.pending = [code for code in self.pending if self.bonus_possible(code)]

    # --- scores (R12) -------------------------------------------------------------------------
    def zone_scores(self) -> list[int]:
        b = self.board
        grey = sum(p for p, c in zip(b.grey_points, self.grey) if c == b.grey_boxes)
        yellow = b.yellow_points[sum(1 for m in self.yellow if m == 2)]
        blue = b.blue_points[len(self.blue) - 1] if self.blue else 0
        green = sum(self.green[i] - self.green[i + 1] for i in range(0, len(self.green) - 1, 2))
        pink = sum(self.pink)
        return [grey, yellow, blue, green, pink]

    def rune_points(self) -> int:
        return self.runes * min(self.zone_scores())

    def total(self) -> int:
        zones = self.zone_scores()
        return sum(zones) + self.runes * min(zones)

    # --- data -------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"grey": self.grey[:], "yellow": self.yellow[:], "blue": self.blue[:], "green": self.green[:],
                "pink": self.pink[:], "stock": dict(zip(ACTIONS, self.stock)), "runes": self.runes,
                "pending": self.pending[:]}

    @classmethod
    def from_json(cls, data: dict, board: Board = BOARD) -> "Sheet":
        sheet = cls(board)
        sheet.grey = [_int(v, 0, board.grey_boxes) for v in data["grey"]]
        sheet.yellow = [_int(v, 0, 2) for v in data["yellow"]]
        sheet.blue = [_int(v, board.blue_min, board.blue_max) for v in data["blue"]]
        sheet.green = [_int(v, 1, board.faces * max(board.green_mult)) for v in data["green"]]
        sheet.pink = [_int(v, 1, board.faces) for v in data["pink"]]
        sheet.stock = [_int(data["stock"][name], 0, 10**6) for name in ACTIONS]
        sheet.runes = _int(data["runes"], 0, 10**6)
        sheet.pending = [str(code) for code in data["pending"]]
        if (len(sheet.grey) != board.faces or len(sheet.yellow) != len(board.yellow_ids)
                or len(sheet.blue) > board.blue_size or len(sheet.green) > board.green_size
                or len(sheet.pink) > board.pink_size or set(data["stock"]) != set(ACTIONS)
                or any(a < b for a, b in zip(sheet.blue, sheet.blue[1:]))):
            raise ValueError("bad RollCraft sheet")
        return sheet


def _int(value, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{value!r} is not an integer in {low}..{high}")
    return value
