"""Penta AI levels: beginner, greedy and optimal (the exact strategy of `solver`)."""

from __future__ import annotations

import random
from collections import Counter

from .rules import BOXES, UPPER, allowed_boxes, distinct_keeps, write_score

# Rough value of a box when used up now (what a good player expects to get there later):
# sacrificing a box that usually scores well costs more than one that rarely does.
BOX_EXPECTATION = {
    "ones": 2.1, "twos": 5.3, "threes": 8.6, "fours": 12.2, "fives": 15.7, "sixes": 19.2,
    "three_kind": 21.7, "four_kind": 13.1, "full_house": 22.6, "small_straight": 29.5,
    "large_straight": 32.7, "chance": 22.0, "penta": 16.9,
}


def box_gain(card: dict, box: str, dice) -> float:
    """Points now, minus what the box is usually worth, plus upper-bonus progress."""
    points, bonus = write_score(card, box, dice)
    gain = points + bonus - BOX_EXPECTATION[box]
    if box in UPPER:
        face = UPPER.index(box) + 1
        gain += 1.2 * (points - 3 * face)  # par for the 63 bonus is three of each face
    return gain


def greedy_box(card: dict, dice) -> str:
    """The box with the best immediate gain."""
    return max(allowed_boxes(card, dice), key=lambda box: (box_gain(card, box, dice), -BOXES.index(box)))


def _keep_value(card: dict, keep: tuple[int, ...], samples: list[list[int]]) -> float:
    total = 0.0
    for extra in samples:
        dice = list(keep) + extra[: 5 - len(keep)]
        total += max(box_gain(card, box, dice) for box in allowed_boxes(card, dice))
    return total / len(samples)


def beginner(state, seat: int, rng: random.Random) -> str:
    """Keeps the most common face and scores the box that pays most right now."""
    card = state.cards[seat]
    dice = state.dice
    if state.rolls < 3:
        face, count = max(Counter(dice).items(), key=lambda fc: (fc[1], fc[0]))
        if count < 5 and not any(write_score(card, b, dice)[0] >= 25 for b in allowed_boxes(card, dice)):
            return "keep " + " ".join([str(face)] * count)
    return "score " + max(allowed_boxes(card, dice), key=lambda b: (write_score(card, b, dice)[0], -BOXES.index(b)))


def greedy(state, seat: int, rng: random.Random) -> str:
    """One-step Monte Carlo look-ahead over keeps (common random numbers), then the best box now."""
    card = state.cards[seat]
    dice = state.dice
    if state.rolls < 3:
        samples = [[rng.randint(1, 6) for _ in range(5)] for _ in range(60)]
        stop_value = max(box_gain(card, b, dice) for b in allowed_boxes(card, dice))
        best_keep, best_value = None, stop_value
        for keep in distinct_keeps(dice):
            value = _keep_value(card, keep, samples)
            if value > best_value + 0.5:
                best_keep, best_value = keep, value
        if best_keep is not None:
            return "keep " + " ".join(map(str, best_keep)) if best_keep else "keep"
    return "score " + greedy_box(card, dice)


def optimal(state, seat: int, rng: random.Random) -> str:
    """The exact optimal solitaire strategy (`solver`).

    Needs the value table: on CPython it is found in the package's data/ folder; in the browser
    the platform fetches the game's asset and calls `solver.load_table(bytes)`. Until the table
    is loaded (or if it cannot be), this level plays like "greedy" instead of failing.
    """
    from . import solver

    if not solver.available():
        return greedy(state, seat, rng)
    return solver.best_move(state)
