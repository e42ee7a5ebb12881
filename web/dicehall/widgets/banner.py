"""The turn banner: whose turn and what to do now, and the last completed turn ("last move")."""

from __future__ import annotations

from ..dom import esc
from .seats import seat_label


def prompt_line(seats: list[dict], seat: int | None, text: str, *, thinking: bool) -> str:
    spinner = ' <span class="spinner" aria-hidden="true"></span>' if thinking else ""
    who = f'{seat_label(seats, seat)}<span aria-hidden="true">:</span> ' if seat is not None else ""
    seat_attr = "" if seat is None else f' data-seat="{seat}"'  # whose turn or step it says
    return f'<p class="prompt" data-testid="prompt"{seat_attr}>{who}<span>{esc(text)}</span>{spinner}</p>'


def last_turn(seats: list[dict], seat: int, label: str, body_html: str) -> str:
    if not body_html:
        return ""
    return (f'<div class="lastmove" data-testid="last-move"><span class="lm-label">{esc(label)}</span> '
            f'<span>{seat_label(seats, seat)}:</span> {body_html}</div>')


def game_log(seats: list[dict], title: str, entries: list[tuple[int | None, str]]) -> str:
    """The game so far, one line per completed turn, newest first; folded away until opened."""
    items = "".join(f'<li>{seat_label(seats, seat) + ": " if seat is not None else ""}{body}</li>'
                    for seat, body in reversed(entries) if body)
    if not items:
        return ""
    return (f'<details class="log" data-testid="log"><summary>{esc(title)}</summary>'
            f'<ol class="log-list" reversed>{items}</ol></details>')
