"""Geek Out! Masters: a computer's action shown before it is made (issue 29, item 3).

While a computer's move is on show (`ctx.step`, at the chosen pace) the prompt says it in words
("Superhero flips: Dragon") and the active dice mark which die acts (`acting`, raised and ringed)
and on which die (`target`, dashed), the same marks a person's own two-tap choice gets.
"""

from __future__ import annotations

from pygame_core.games.geekout.rules import FACE_OF


def step_slots(ctx, faces: list[int]) -> tuple[int | None, int | None]:
    """(slot of the acting die, slot of its target) of the computer's move on show, else (None, None).

    Dice of a face are alike: the first die of the acting face acts, and the target is the first
    other die of the target face (a Superhero flipping a Superhero flips another one)."""
    if ctx.step is None:
        return None, None
    word, _, rest = str(ctx.step[1]).partition(" ")
    actor_face = FACE_OF.get(word)
    if actor_face is None or actor_face not in faces:
        return None, None
    actor = faces.index(actor_face)
    target_face = FACE_OF.get(rest) if rest else None
    target = next((k for k, f in enumerate(faces) if f == target_face and k != actor), None)
    return actor, target
