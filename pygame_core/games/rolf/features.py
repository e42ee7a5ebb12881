"""What a position promises each seat over the next throw: the numbers the AI's evaluation is
built from.

For one seat: the points every square would bring it (groups it would join, the diagonal bonus,
the corner bonus), the points a steal would cost the square's owner, and from those, over the 56
throws of three dice, the expected best gain of its next throw and the chance that its next throw
wins at once (100 points or the full diagonal). Placements within a throw are scored one by one
(the bonus of two candidates that touch each other is ignored): fast enough to run at every leaf
of the search.
"""

from __future__ import annotations

from .board import (
    CORNER_BONUS,
    CORNERS,
    DIAGONAL,
    DIAGONAL_BONUS,
    NEIGHBOURS,
    OFF_DIAGONAL,
    SQUARES,
    WIN_TOTAL,
    component,
    diagonal_square,
    groups,
    triangle,
)
from .rules import OUTCOMES, POOLS, throw_shape

DIAGONAL_INDICES = [diagonal_square(v) for v in range(1, 7)]
OFF_INDICES = [i for i in range(SQUARES) if OFF_DIAGONAL >> i & 1]
IS_DIAGONAL = [bool(DIAGONAL >> i & 1) for i in range(SQUARES)]

# Per distinct throw: (probability, shape, candidate squares, the x–x square or -1).
THROWS = []
for _dice, _p in OUTCOMES:
    _shape = throw_shape(_dice)
    _mask = POOLS[_dice][0][0] if _shape != "triple" else POOLS[_dice][1][0]
    _cands = [i for i in range(SQUARES) if _mask >> i & 1]
    _x = _cands[0] if _shape == "triple" else next((i for i in _cands if IS_DIAGONAL[i]), -1)
    THROWS.append((_p, _shape, [i for i in _cands if i != _x] if _shape == "pair" else _cands, _x))
PAIR_PROBABILITY = sum(p for p, shape, _, _ in THROWS if shape != "different")

NONE = -1.0  # "not a legal square for this seat" in the gain tables


def square_gains(owners: list[int], seat: int, corner: bool) -> list[float]:
    """Points `seat` would gain by taking each square (NONE for its own squares)."""
    own = owners[seat]
    parts = [(g, g.bit_count()) for g in groups(own)]
    out = [NONE] * SQUARES
    corners_missing = (CORNERS & ~own) if not corner else 0
    for i in range(SQUARES):
        bit = 1 << i
        if own & bit:
            continue
        near = NEIGHBOURS[i]
        size, before = 1, 0
        for g, n in parts:
            if g & near:
                size += n
                before += triangle(n)
        gain = triangle(size) - before
        if IS_DIAGONAL[i]:
            gain += DIAGONAL_BONUS
        if corners_missing == bit:
            gain += CORNER_BONUS
        out[i] = gain
    return out


def steal_losses(owners: list[int], seat: int) -> list[float]:
    """For each square of another seat: the group points its owner loses if `seat` steals it."""
    out = [0.0] * SQUARES
    for other, mask in enumerate(owners):
        if other == seat or not mask:
            continue
        for g in groups(mask):
            n = g.bit_count()
            whole = triangle(n)
            rest = g
            while rest:
                low = rest & -rest
                rest ^= low
                left = g & ~low
                # the pieces the group falls into without this square
                pieces, remaining = 0, left
                near = NEIGHBOURS[low.bit_length() - 1] & left
                if near & (near - 1) == 0:  # one neighbour or none: the group just shrinks
                    pieces = triangle(n - 1)
                else:
                    while remaining:
                        piece = component(remaining, remaining & -remaining)
                        pieces += triangle(piece.bit_count())
                        remaining &= ~piece
                out[low.bit_length() - 1] = whole - pieces
    return out


def outlook(owners: list[int], seat: int, corner: bool, total: int) -> tuple[float, float, float]:
    """(expected best own gain of the seat's next throw, the same counting the points its steals
    take from their victims, the chance that throw wins at once) — one pass over the 56 throws."""
    gains = square_gains(owners, seat, corner)
    damage = steal_losses(owners, seat)
    value = [g + d if g >= 0 else NONE for g, d in zip(gains, damage)]
    need = WIN_TOTAL - total
    diag_left = 6 - (owners[seat] & DIAGONAL).bit_count()
    off_g = sorted((gains[i] for i in OFF_INDICES if gains[i] >= 0), reverse=True)
    off_v = sorted((value[i] for i in OFF_INDICES if value[i] >= 0), reverse=True)
    top3_g, top3_v = sum(off_g[:3]), sum(off_v[:3])
    eg = ev = win = 0.0
    for p, shape, cands, x in THROWS:
        if shape == "different":
            g1 = g2 = v1 = v2 = 0.0
            for i in cands:
                g = gains[i]
                if g < 0:
                    continue
                if g > g1:
                    g1, g2 = g, g1
                elif g > g2:
                    g2 = g
                v = value[i]
                if v > v1:
                    v1, v2 = v, v1
                elif v > v2:
                    v2 = v
            best_g, best_v, diag_win = g1 + g2, v1 + v2, False
        else:
            if shape == "pair":
                best_g = best_v = 0.0
                for i in cands:
                    if gains[i] >= 0:
                        best_g += gains[i]
                        best_v += value[i]
            else:
                best_g, best_v = top3_g, top3_v
            diag_win = False
            if gains[x] >= 0:
                best_g += gains[x]
                best_v += value[x]
                diag_win = diag_left == 1
        eg += p * best_g
        ev += p * best_v
        if diag_win or best_g >= need:
            win += p
    return eg, ev, win
