"""RollCraft T8's review in words (the generic review widget draws it; the grading is
`pygame_core.games.rollcraft.review`): where each graded decision was made — the round, the roll
and the dice the player was looking at (the roll group, the silver platter), the +1 window or the
bonus being placed — with the dice and bonuses named in the catalog's words, as the log does."""

from __future__ import annotations

from .icons import word


def dice_words(t, dice: list) -> str:
    """The dice as "grey 8, yellow 7, …": each colour's catalog word and its value (Arabic's own comma)."""
    return t("rollcraft.review.dice_sep").join(f"{word(t, 'die', colour)} {value}" for colour, value in dice)


def review_when(t, decision: dict) -> str:
    """The sentence that places a decision, by its kind, e.g. "Round 4, roll 1 (grey 8, yellow 7, …):"
    (each key written out here, so the catalog test sees it used)."""
    kind, n = decision.get("kind"), decision["round"]
    if kind == "choose":
        return t("rollcraft.review.when.choose", round=n, roll=decision["roll"], dice=dice_words(t, decision["dice"]))
    if kind == "prepare":
        return t("rollcraft.review.when.prepare", round=n, roll=decision["roll"], dice=dice_words(t, decision["dice"]))
    if kind == "passive":
        return t("rollcraft.review.when.passive", round=n, dice=dice_words(t, decision["dice"]))
    if kind == "plus":
        return t("rollcraft.review.when.plus", round=n)
    if kind == "bonus":
        return t("rollcraft.review.when.bonus", round=n, bonus=word(t, "bonus", decision["bonus"]))
    return t("rollcraft.review.when.round", round=n)
