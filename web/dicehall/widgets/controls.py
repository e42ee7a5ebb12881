"""The action bar (one primary action, thumb's reach) and the auto-play countdown."""

from __future__ import annotations

from ..dom import button, esc


def action_bar(*buttons_html: str, above: str = "", share: bool = False) -> str:
    """The bar at the bottom with the moment's actions; `above` (e.g. the countdown) sits on it.
    `share`: the buttons take equal parts of the row, wrapping rather than cutting a word."""
    top = f'<div class="actionbar-top">{above}</div>' if above else ""
    row = "actionbar-row share-row" if share else "actionbar-row"
    return (f'<div class="actionbar" data-testid="actionbar">{top}<div class="{row}">'
            + "".join(buttons_html) + "</div></div>")


def countdown(text: str, stop_label: str, what: str = "") -> str:
    """"The computer chooses for you in 3 s: <what>", with a button that stops it (action
    `stop-countdown`); meant for the action bar, where the player's eyes and thumb are."""
    target = f'<span class="countdown-what" data-testid="countdown-what">{esc(what)}</span>' if what else ""
    return (f'<div class="countdown" role="status" data-testid="countdown"><span class="countdown-text">'
            f'<span id="countdown">{esc(text)}</span>{target}</span>'
            + button(esc(stop_label), action="stop-countdown", cls="btn small", testid="stop-countdown") + "</div>")
