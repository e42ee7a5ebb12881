"""RollCraft T8's small pictures: bonuses and saved actions as inline SVG icons in the dice's own
glyph language (a coloured question box, a die with an 8 for T8, a lock, arrows), each with its
accessible name from the catalog (`rollcraft.bonus.<code>`, `rollcraft.action.<name>`), so the
sheet shows no words like "? yellow" that a narrow column would break."""

from __future__ import annotations

from ...dom import esc


def word(t, kind: str, name) -> str:
    """The catalog name of a game thing: `rollcraft.<kind>.<name>` (die, zone, bonus, action, move,
    letter)."""
    key = "rollcraft." + kind + "." + str(name)
    return t(key)

# The zones' colours, as on the dice (style.css .rc-d-*): a picture, never the only clue (the name).
COLOUR = {"grey": "#9aa0a6", "yellow": "#f6d32d", "blue": "#62a0ea", "green": "#57e389", "pink": "#f49ac1",
          "white": "#ffffff", "black": "#111111"}
HEXAGON = "12,1 22,6.5 22,17.5 12,23 2,17.5 2,6.5"  # the d8's face on the dice (view.render_dice)
STROKE = 'fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"'

# Saved actions and runes: one line drawing each, in the text's colour (dark theme too).
ACTION_PATHS = {
    "reroll": f'<path d="M19.5 12a7.5 7.5 0 1 1-2.2-5.3" {STROKE}/><path d="M19.5 3.5v4.5H15" {STROKE}/>',
    "return": f'<path d="M9 15 4 10l5-5" {STROKE}/><path d="M4 10h10a6 6 0 0 1 0 12h-3" {STROKE}/>',
    "plusOne": (f'<circle cx="12" cy="12" r="10" {STROKE}/>'
                '<text x="12" y="12.5" text-anchor="middle" dominant-baseline="central" font-size="11" '
                'font-weight="800" fill="currentColor">+1</text>'),
    "lock": ('<rect x="4.5" y="10.5" width="15" height="11" rx="2" fill="currentColor"/>'
             f'<path d="M8 10.5V7a4 4 0 0 1 8 0v3.5" {STROKE}/>'),
    "rune": f'<path d="M8 2.5v19M8 3.5l8 5-8 5M8 13.5l8 8" {STROKE}/>',
}


def body_of(code: str) -> str | None:
    """The drawing of a bonus code (`question:yellow`, `t8:blue`, `question:black`, `reroll`,
    `return`, `plusOne`, `lock`, `rune`), or None for a code without a picture."""
    kind, _, zone = code.partition(":")
    if kind == "question" and zone in COLOUR:
        ink = "#fff" if zone == "black" else "#111"
        return (f'<rect x="2" y="2" width="20" height="20" rx="5" fill="{COLOUR[zone]}" stroke="#1b2430" stroke-width="1.5"/>'
                f'<text x="12" y="12.5" text-anchor="middle" dominant-baseline="central" font-size="16" font-weight="800" '
                f'fill="{ink}">?</text>')
    if kind == "t8" and zone in COLOUR:
        return (f'<polygon points="{HEXAGON}" fill="{COLOUR[zone]}" stroke="#1b2430" stroke-width="1.5"/>'
                '<text x="12" y="12.5" text-anchor="middle" dominant-baseline="central" font-size="13" font-weight="800" '
                'fill="#111">8</text>')
    return ACTION_PATHS.get(code)


def svg(body: str, name: str, cls: str = "", data: str = "") -> str:
    """An icon with its accessible name (role img): read out where the picture is shown."""
    extra = f' data-icon="{esc(data)}"' if data else ""
    return (f'<svg class="rc-ic{" " + cls if cls else ""}" viewBox="0 0 24 24" role="img" aria-label="{esc(name)}" '
            f'focusable="false"{extra}>{body}</svg>')


def bonus_icon(t, code: str | None, cls: str = "") -> str:
    """The picture of a bonus code with its catalog name; "" for none."""
    if not code:
        return ""
    body = body_of(code)
    if body is None:  # (a code the board adds later: its name)
        return f'<span class="rc-ic-word">{esc(word(t, "bonus", code))}</span>'
    return svg(body, word(t, "bonus", code), cls, code)


def action_icon(t, name: str, cls: str = "") -> str:
    """A saved action (`reroll`, `return`, `plusOne`, `lock`) by its stock name."""
    return svg(ACTION_PATHS[name], word(t, "action", name), cls, name)


def rune_icon(t, cls: str = "") -> str:
    return svg(ACTION_PATHS["rune"], t("rollcraft.runes"), cls, "rune")


def decorative(code: str, cls: str = "") -> str:
    """The same picture without a name, beside words that already say it (aria-hidden)."""
    body = body_of(code) or ""
    return f'<svg class="rc-ic{" " + cls if cls else ""}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{body}</svg>'
