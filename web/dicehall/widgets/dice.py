"""Dice drawn in SVG: d6 pips, numerals for other dice (d8), custom faces, held dice with a lock."""

from __future__ import annotations

from ..dom import attrs, esc

PIPS = {
    1: [(50, 50)],
    2: [(27, 27), (73, 73)],
    3: [(27, 27), (50, 50), (73, 73)],
    4: [(27, 27), (73, 27), (27, 73), (73, 73)],
    5: [(27, 27), (73, 27), (50, 50), (27, 73), (73, 73)],
    6: [(27, 27), (73, 27), (27, 50), (73, 50), (27, 73), (73, 73)],
}

LOCK_SVG = ('<svg viewBox="0 0 20 20" focusable="false"><rect x="4" y="9" width="12" height="9" rx="2" fill="currentColor"/>'
            '<path d="M6.5 9V6.5a3.5 3.5 0 0 1 7 0V9" fill="none" stroke="currentColor" stroke-width="2.2"/></svg>')


def face_svg(value: int, sides: int = 6, custom: str | None = None) -> str:
    """A die face: pips on a d6, the numeral on other dice, `custom` SVG content if given; a
    dashed outline when not rolled yet (value 0)."""
    if custom is not None:
        inner = custom
    elif sides == 6:
        inner = "".join(f'<circle cx="{x}" cy="{y}" r="9" class="pip"/>' for x, y in PIPS.get(value, []))
    else:
        inner = (f'<text x="50" y="52" text-anchor="middle" dominant-baseline="central" class="numeral">{value}</text>'
                 if value else "")
    blank = ' stroke-dasharray="8 6"' if not value else ""
    shape = ('<rect x="4" y="4" width="92" height="92" rx="18" class="face"' if sides == 6 else
             '<polygon points="50,3 95,28 95,72 50,97 5,72 5,28" class="face"')
    return (f'<svg class="die-svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
            f'{shape}{blank}/>{inner}</svg>')


def mini_dice(values: list[int], sides: int = 6) -> str:
    """Small read-only dice (last move, logs), left to right in every language."""
    return ('<span class="minis" dir="ltr">'
            + "".join(f'<span class="mini">{face_svg(v, sides)}</span>' for v in values) + "</span>")


def dice_tray(dice: list[dict], *, label: str, enabled: bool, animations: bool, columns: int | None = None,
              first: int = 0) -> str:
    """A row of dice as toggle buttons (action `toggle`, arg = slot, counted from `first`).

    Each die: {"value", "sides" (6), "held", "label" (accessible name), "rolled" (animate),
    "face" (custom SVG or None)}.
    """
    out = []
    for slot, die in enumerate(dice, first):
        held = bool(die.get("held"))
        cls = "die" + (" held" if held else "") + (" roll" if animations and die.get("rolled") and not held else "")
        lock = f'<span class="lock" aria-hidden="true">{LOCK_SVG}</span>' if held else ""
        out.append(
            f'<button type="button"{attrs(cls=cls, data_action="toggle", data_arg=slot, data_testid=f"die-{slot}", data_value=die["value"], aria_pressed="true" if held else "false", aria_label=die["label"], disabled=not enabled)}>'
            f'{face_svg(die["value"], die.get("sides", 6), die.get("face"))}{lock}</button>')
    style = f' style="--dice-columns:{columns or len(dice)}"'
    return f'<div class="dice" dir="ltr" role="group" aria-label="{esc(label)}"{style}>{"".join(out)}</div>'


def dice_zones(zones: list[dict], *, animations: bool) -> str:
    """Dice in named zones (e.g. active, used, inactive, scored), each a labelled group.

    zone: {"name" (CSS/testid suffix), "label", "dice": [die dicts as in `dice_tray`],
    "enabled": bool}. Dice are numbered across zones so `toggle` args stay unique.
    """
    out, offset = [], 0
    for zone in zones:
        tray = dice_tray(zone["dice"], label=zone["label"], enabled=zone.get("enabled", False), animations=animations,
                         columns=max(len(zone["dice"]), 1), first=offset)
        offset += len(zone["dice"])
        out.append(f'<section class="zone zone-{esc(zone["name"])}" data-testid="zone-{esc(zone["name"])}">'
                   f'<h3 class="zone-label">{esc(zone["label"])} <span class="num">({len(zone["dice"])})</span></h3>{tray}</section>')
    return '<div class="zones">' + "".join(out) + "</div>"
