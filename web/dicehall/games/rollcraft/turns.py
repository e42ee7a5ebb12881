"""RollCraft T8's completed turns in the "last move" banner and the game log: the dice as small
coloured chips, bonuses and saved actions as the sheet's icons (each named for a screen reader),
not words like "? yellow: Yellow Y3" or "rolled on". The plain words stay in `describe_move`
(hints, review, narration)."""

from __future__ import annotations

from pygame_core.games.rollcraft.board import DICE, ZONES

from ...dom import esc
from .icons import (
    ACTION_PATHS,
    COLOUR,
    HEXAGON,
    STROKE,
    bonus_icon,
    decorative,
    svg,
    word,
)

# Roll on: a d8 face in motion (the regular roll 2/3 of an active turn).
THROW = (f'<polygon points="{HEXAGON}" transform="translate(3 2) scale(.8)" fill="none" stroke="currentColor" stroke-width="2.4"/>'
         f'<path d="M2 5h4M1 10h4M2 15h3" {STROKE}/>')


def die_chip(t, colour: str) -> str:
    """A die by its colour and its letter in this language, named by its colour for a screen reader."""
    return (f'<span class="rc-chip" role="img" aria-label="{esc(word(t, "die", colour))}" '
            f'style="--chip:{COLOUR[colour]}">{esc(word(t, "letter", colour))}</span>')


def fill(t, key: str, **html) -> str:
    """A catalog sentence with HTML put in for its placeholders (the sentence itself escaped)."""
    marks = {name: f"\x00{i}\x00" for i, name in enumerate(html)}
    text = esc(t(key, **marks))
    for i, name in enumerate(html):
        text = text.replace(f"\x00{i}\x00", html[name])
    return text


def bonus_code(verb: str, parts: list[str]) -> str:
    return "question:black" if verb == "black" else verb + ":" + parts[1]


def move_html(view, t, move: str) -> str:
    parts = move.split(" ")
    verb = parts[0]
    if verb in ("take", "plus") and len(parts) == 3 and parts[1] in DICE:
        key = "rollcraft.move.take" if verb == "take" else "rollcraft.move.plus"
        return fill(t, key, die=die_chip(t, parts[1]), target=esc(view.target_text(t, parts[2])))
    if verb in ("question", "t8", "black") and len(parts) >= 2 and parts[1] in ZONES:
        target = word(t, "zone", parts[1]) + (" " + parts[2] if len(parts) > 2 else "")
        return fill(t, "rollcraft.move.bonus", bonus=bonus_icon(t, bonus_code(verb, parts)), target=esc(target))
    if verb == "decline" and len(parts) >= 2:
        code = "question:black" if parts[1:] == ["black"] else ":".join(parts[1:])
        return fill(t, "rollcraft.move.decline", bonus=bonus_icon(t, code))
    if verb in ("lock", "return") and len(parts) == 2 and parts[1] in DICE:
        return decorative(verb) + fill(t, "rollcraft.move." + verb, die=die_chip(t, parts[1]))
    if verb == "throw":
        return svg(THROW, word(t, "move", "throw"), "rc-ic-log", "throw")
    if verb == "reroll":
        return svg(ACTION_PATHS["reroll"], word(t, "move", "reroll"), "rc-ic-log", "reroll")
    return esc(view.describe_move(t, move))


def turn_html(view, ctx, turn: list) -> str:
    """One completed turn ([(seat, move, state before)]), its seats' moves in order."""
    t = ctx.t
    items = [move_html(view, t, move) for seat, move, _ in turn if seat >= 0]
    return '<span class="rc-turn">' + '<span class="rc-sep">, </span>'.join(
        f'<span class="rc-step">{item}</span>' for item in items) + "</span>"
