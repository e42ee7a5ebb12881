"""The printed board of RollCraft T8, read from data (`board_1_0.BOARD_JSON`, rules section 14).

`Board` turns the JSON into flat tuples the engine and the AI index directly. Nothing about the
board's numbers or bonus symbols is written anywhere else in the code: a board 1.1 is a new data
module and an entry in `BOARDS`.
"""

from __future__ import annotations

import json

from . import board_1_0

ZONES = ("grey", "yellow", "blue", "green", "pink")
DICE = ("grey", "yellow", "blue", "green", "pink", "white")
GREY, YELLOW, BLUE, GREEN, PINK, WHITE = range(6)
ACTIONS = ("reroll", "return", "plusOne", "lock")
BONUS_KINDS = ACTIONS + ("rune",)  # gained at once, no choice
CHOICE_PREFIXES = ("question:", "t8:")  # a placement the player makes (or declines)


def _check_bonus(code):
    if code is None:
        return None
    if code in BONUS_KINDS or code == "question:black":
        return code
    kind, _, zone = code.partition(":")
    if kind in ("question", "t8") and zone in ZONES:
        return code
    raise ValueError(f"unknown bonus code {code!r}")


class Board:
    """One board version: every printed number and bonus of the five zones and the round track."""

    def __init__(self, data: dict) -> None:
        self.version = str(data["boardVersion"])
        dice = data["dice"]
        if list(dice["colors"]) != list(DICE):
            raise ValueError("the engine knows the dice grey, yellow, blue, green, pink, white")
        self.faces = int(dice["faces"])
        self.rounds = {int(k): int(v) for k, v in data["roundsByPlayerCount"].items()}
        self.round_benefits = tuple(_check_bonus(b) for b in data["roundBenefits"])
        self.regular_rolls = int(data["regularRollsPerActiveTurn"])
        solo = data["soloPassive"]
        self.solo_rolled = int(solo["diceRolled"])
        self.solo_platter = int(solo["lowestToPlatter"])
        if self.solo_rolled != len(DICE):
            raise ValueError("the solo passive roll uses all six dice")
        zones = data["zones"]

        grey = zones["grey"]
        self.grey_boxes = int(grey["boxesPerColumn"])
        columns = sorted(grey["columns"], key=lambda c: c["value"])
        if [c["value"] for c in columns] != list(range(1, self.faces + 1)):
            raise ValueError("grey needs one column per face value")
        self.grey_points = tuple(int(c["points"]) for c in columns)
        self.grey_bonus = tuple(_check_bonus(c["bonus"]) for c in columns)

        yellow = zones["yellow"]
        self.yellow_rows = int(yellow["rows"])
        self.yellow_cols = int(yellow["cols"])
        boxes = yellow["boxes"]
        self.yellow_ids = tuple(b["id"] for b in boxes)
        self.yellow_value = tuple(int(b["value"]) for b in boxes)
        self.yellow_row = tuple(int(b["row"]) - 1 for b in boxes)
        self.yellow_col = tuple(int(b["col"]) - 1 for b in boxes)
        self.yellow_row_bonus = tuple(_check_bonus(b) for b in yellow["rowBonuses"])
        self.yellow_col_bonus = tuple(_check_bonus(b) for b in yellow["colBonuses"])
        self.yellow_points = tuple(int(p) for p in yellow["pointsByCompletedBoxes"])
        if len(self.yellow_points) != len(boxes) + 1:
            raise ValueError("yellow points need one entry per number of completed boxes")
        self.yellow_row_members = tuple(tuple(i for i, r in enumerate(self.yellow_row) if r == row)
                                        for row in range(self.yellow_rows))
        self.yellow_col_members = tuple(tuple(i for i, c in enumerate(self.yellow_col) if c == col)
                                        for col in range(self.yellow_cols))
        self.yellow_index = {name: i for i, name in enumerate(self.yellow_ids)}
        self.yellow_by_value = tuple(tuple(i for i, v in enumerate(self.yellow_value) if v == value)
                                     for value in range(self.faces + 1))

        blue = zones["blue"]
        self.blue_min = int(blue["sumMin"])
        self.blue_max = int(blue["sumMax"])
        self.blue_points = tuple(int(b["points"]) for b in blue["boxes"])
        self.blue_bonus = tuple(_check_bonus(b["bonus"]) for b in blue["boxes"])

        green = zones["green"]["boxes"]
        self.green_mult = tuple(int(b["multiplier"]) for b in green)
        self.green_bonus = tuple(_check_bonus(b["bonus"]) for b in green)
        self.green_first = tuple(b["position"] == "first" for b in green)
        for i in range(0, len(green), 2):
            if not self.green_first[i] or self.green_first[i + 1]:
                raise ValueError("green boxes must come in pairs (first, second)")

        pink = zones["pink"]["boxes"]
        self.pink_threshold = tuple(0 if b["threshold"] is None else int(b["threshold"]) for b in pink)
        self.pink_bonus = tuple(_check_bonus(b["bonus"]) for b in pink)

    # sizes
    @property
    def blue_size(self) -> int:
        return len(self.blue_points)

    @property
    def green_size(self) -> int:
        return len(self.green_mult)

    @property
    def pink_size(self) -> int:
        return len(self.pink_threshold)


def load(text: str) -> Board:
    return Board(json.loads(text))


BOARDS = {"1.0": load(board_1_0.BOARD_JSON)}
BOARD = BOARDS["1.0"]
