"""Seat symbols and colours (never colour alone: every seat also has a symbol), and the seat bar."""

from __future__ import annotations

from ..dom import attrs, esc

SYMBOLS = ["●", "▲", "■", "◆", "★"]


def seat_class(symbol: str) -> str:
    """The CSS colour class of a seat symbol (`seat-0` … `seat-4`)."""
    return f"seat-{SYMBOLS.index(symbol)}" if symbol in SYMBOLS else "seat-0"


def symbol_html(symbol: str) -> str:
    return f'<span class="sym {seat_class(symbol)}" aria-hidden="true">{esc(symbol)}</span>'


def name_html(name: str) -> str:
    """A player's name, isolated so right-to-left text in a name cannot reorder what follows."""
    return f'<bdi class="pname">{esc(name)}</bdi>'


def seat_label(seats: list[dict], seat: int) -> str:
    info = seats[seat]
    return f"{symbol_html(info['symbol'])} {name_html(info['name'])}"


def seat_bar(seats: list[dict], totals: list, *, current: list[int], flash: set, animations: bool,
             viewing: int | None = None, label: str = "") -> str:
    """One chip per seat: symbol, name, total; the current seat(s) marked. Tapping a chip asks to
    see that seat's card (action `view-seat`) when the view shows one card at a time."""
    chips = []
    for seat, info in enumerate(seats):
        cur = seat in current
        cls = "chip" + (" current" if cur else "") + (" viewing" if viewing == seat else "")
        flashing = " flash" if seat in flash and animations else ""
        chips.append(
            f'<li><button type="button"{attrs(cls=cls, data_action="view-seat", data_arg=seat, data_testid=f"player-{seat}", aria_current="true" if cur else None, aria_pressed="true" if viewing == seat else "false")}>'
            f'{symbol_html(info["symbol"])} {name_html(info["name"])}'
            f'<span class="num chip-total{flashing}" data-testid="player-total-{seat}">{esc(totals[seat])}</span></button></li>')
    return f'<ul class="chips" aria-label="{esc(label)}">{"".join(chips)}</ul>'
