"""A guided first turn: a few coach marks, one at a time, each a small box beside the element it
points at (the dice, a zone…), with Next / Got it; Escape closes it. Shown once per phone: the
guides seen are remembered in the settings (`guides_seen`, checked by screens/settings.py).

A game offers its guide through `GameView.guide(ctx)` (none by default); the play controller
decides whether it shows (playscreen.py) and draws it with `coach_mark`. A step names its target
by data-testid only, so a game's markup needs nothing for it: the box carries a small style rule
that makes the target its anchor (CSS anchor positioning, app.css `.guide`): below the target, or
above it when there is more room there, never over it; without anchor positioning the box sits
above the action bar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..dom import button, esc

# A guide's id and a target's data-testid go into a style rule and a stored list: plain words only.
NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,39}\Z", re.IGNORECASE)
MAX_SEEN = 32  # guides remembered (the stored list is capped; a game has one or two)


@dataclass(frozen=True)
class Step:
    target: str  # data-testid of the element the box points at
    text: str  # catalog key of what it says
    # Point at the element around the target instead (its parent: a list of saved actions, known
    # by its first item's data-testid), for a group that has no data-testid of its own.
    around: bool = False

    def selector(self) -> str:
        if not NAME.match(self.target):
            raise ValueError(f"not a data-testid a guide can point at: {self.target!r}")
        own = f'[data-testid="{self.target}"]'
        return f":has(> {own})" if self.around else own


@dataclass(frozen=True)
class Guide:
    id: str  # remembered in `guides_seen` once dismissed (or shown, for a one-time line)
    steps: tuple[Step, ...]
    # A one-time line (a countdown explained, say): remembered as soon as it shows, and kept on screen only
    # while the position it was shown on lasts. Otherwise remembered when closed or finished.
    once: bool = False


def seen(settings: dict) -> list[str]:
    got = settings.get("guides_seen")
    return [g for g in got if isinstance(g, str)] if isinstance(got, (list, tuple)) else []


def with_seen(settings: dict, guide_id: str) -> list[str]:
    """The stored list with `guide_id` added (the newest kept when it is full)."""
    ids = [g for g in seen(settings) if g != guide_id] + [guide_id]
    return ids[-MAX_SEEN:]


def coach_mark(t, guide: Guide, step: int) -> str:
    """The box for `step` of `guide`: a non-modal dialog, its target outlined and used as its anchor."""
    at = guide.steps[step]
    target = at.selector()
    last = step == len(guide.steps) - 1
    total = len(guide.steps)
    heading = t("guide.heading") if total == 1 else t("guide.step", n=step + 1, total=total)
    buttons = ([button(esc(t("guide.done")), action="guide-done", cls="btn small primary", testid="guide-done")] if last else
               [button(esc(t("guide.skip")), action="guide-done", cls="btn small secondary", testid="guide-skip"),
                button(esc(t("guide.next")), action="guide-next", cls="btn small primary", testid="guide-next")])
    return (f'<style>#app {target} {{ anchor-name: --dh-guide; outline: 3px solid var(--focus); outline-offset: 2px; }}</style>'
            f'<section class="guide" role="dialog" aria-modal="false" aria-labelledby="guide-h" aria-describedby="guide-text" '
            f'data-testid="guide" data-guide="{esc(guide.id)}" data-step="{step + 1}" data-target="{esc(at.target)}">'
            f'<h2 id="guide-h" class="guide-h">{esc(heading)}</h2>'
            f'<p id="guide-text">{esc(t(at.text))}</p>'
            f'<div class="row guide-row">{"".join(buttons)}</div></section>')
