"""The 6×6 board of Rolf The Dice as bitboards: one int per seat, bit `i` = square `i`.

Square `i` is row `i // 6 + 1`, column `i % 6 + 1` (the rules' `r–c`, row first); the notation
spells it `r-c` in ASCII. Groups are found by flood fill on bit masks (a few shifts per step),
so scoring a seat costs microseconds and search AIs can afford it on every node.
"""

from __future__ import annotations

SIZE = 6
SQUARES = SIZE * SIZE
FULL = (1 << SQUARES) - 1

# Column masks: a shift by one column must not wrap into the next row.
COL_FIRST = sum(1 << (r * SIZE) for r in range(SIZE))
COL_LAST = COL_FIRST << (SIZE - 1)
NOT_FIRST = FULL & ~COL_FIRST
NOT_LAST = FULL & ~COL_LAST

DIAGONAL = sum(1 << (k * (SIZE + 1)) for k in range(SIZE))  # 1–1, 2–2, … 6–6
OFF_DIAGONAL = FULL & ~DIAGONAL  # the 30 squares whose filling ends the game
CORNER_SQUARES = (0, SIZE - 1, SQUARES - SIZE, SQUARES - 1)  # 1–1, 1–6, 6–1, 6–6
CORNERS = sum(1 << i for i in CORNER_SQUARES)

DIAGONAL_BONUS = 5
CORNER_BONUS = 20
END_BONUS = 10
WIN_TOTAL = 100


def square(row: int, col: int) -> int:
    """Index of square `row–col` (both 1..6)."""
    return (row - 1) * SIZE + (col - 1)


def diagonal_square(value: int) -> int:
    """Index of `value–value`."""
    return square(value, value)


def row_col(index: int) -> tuple[int, int]:
    return index // SIZE + 1, index % SIZE + 1


def name(index: int) -> str:
    """The notation of a square: `3-5` (row 3, column 5)."""
    return "%d-%d" % row_col(index)


NAMES = [name(i) for i in range(SQUARES)]
INDEX = {n: i for i, n in enumerate(NAMES)}


def spread(mask: int) -> int:
    """`mask` plus every square sharing a side with one of its squares."""
    return (mask | (mask << SIZE) | (mask >> SIZE) | ((mask << 1) & NOT_FIRST) | ((mask >> 1) & NOT_LAST)) & FULL


NEIGHBOURS = [spread(1 << i) & ~(1 << i) for i in range(SQUARES)]


def triangle(n: int) -> int:
    """Points of a group of `n` squares: 1 + 2 + … + n."""
    return n * (n + 1) // 2


def component(mask: int, seed: int) -> int:
    """The side-connected group of `mask` containing the bits of `seed` (flood fill)."""
    group = seed & mask
    while True:
        grown = spread(group) & mask
        if grown == group:
            return group
        group = grown


def groups(mask: int) -> list[int]:
    """The side-connected groups of `mask`, each as a mask, lowest square first."""
    out = []
    while mask:
        group = component(mask, mask & -mask)
        out.append(group)
        mask &= ~group
    return out


def group_points(mask: int) -> int:
    """The sum of the triangular numbers of the group sizes (rules 6)."""
    points = 0
    while mask:
        group = component(mask, mask & -mask)
        points += triangle(group.bit_count())
        mask &= ~group
    return points


def squares_of(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def gain_of_adding(mask: int, index: int) -> int:
    """Group points `mask` gains when square `index` joins it (the groups it touches merge)."""
    touching = NEIGHBOURS[index] & mask
    size, before = 1, 0
    while touching:  # each group the square touches, once
        group = component(mask, touching & -touching)
        count = group.bit_count()
        size += count
        before += triangle(count)
        touching &= ~group
    return triangle(size) - before


def loss_of_removing(mask: int, index: int) -> int:
    """Group points `mask` loses when square `index` (one of its own) leaves it."""
    bit = 1 << index
    group = component(mask, bit)
    return triangle(group.bit_count()) - group_points(group & ~bit)
