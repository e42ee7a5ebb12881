"""The action bar (one primary action, thumb's reach) and the auto-play countdown."""

from __future__ import annotations

from ..dom import button, esc


def action_bar(*buttons_html: str) -> str:
    return '<div class="actionbar" data-testid="actionbar">' + "".join(buttons_html) + "</div>"


def countdown(text: str, stop_label: str) -> str:
    """"The computer chooses in 3 s" with a button that stops it (action `stop-countdown`)."""
    return (f'<div class="countdown" role="status" data-testid="countdown"><span id="countdown">{esc(text)}</span> '
            + button(esc(stop_label), action="stop-countdown", cls="btn small", testid="stop-countdown") + "</div>")
