"""The hint panel: the advisor's best moves in words, the best one with an Apply button."""

from __future__ import annotations

from ..dom import attrs, button, esc

HINT_OPTIONS = 4


def hint_panel(t, hint: dict | None, *, describe, fmt, heading: str, explain: str) -> str:
    """`hint`: None (not asked), {"state": "loading" | "unavailable"} or {"state": "ready",
    "options": [{"move", "value"}, ...] best first}. `describe(move)` words a move, `fmt(value)`
    its value."""
    body = ""
    if hint is not None:
        if hint["state"] != "ready":
            key = "advisor.unavailable" if hint["state"] == "unavailable" else "advisor.loading"
            body = f'<p class="muted">{esc(t(key))}</p>'
        else:
            items = []
            for i, option in enumerate(hint["options"][:HINT_OPTIONS]):
                text = t("advisor.option", move=describe(option["move"]), expected=fmt(option["value"]))
                value = f'{option["value"]:.4f}'
                items.append(f'<li{attrs(cls="best" if i == 0 else None, data_move=option["move"], data_expected=value, data_testid=f"hint-option-{i}")}>'
                             f'{esc(text)}</li>')
            apply = button(esc(t("advisor.apply")), action="hint-apply", cls="btn small", testid="hint-apply")
            body = (f'<p class="hint-head">{esc(heading)}</p><ol class="hint-list">{"".join(items)}</ol>'
                    f'<div class="row">{apply}</div><p class="muted small">{esc(explain)}</p>')
    return (f'<div class="hint" data-testid="hint-panel">'
            + button(esc(t("advisor.button")), action="hint", cls="btn small", testid="hint",
                     aria_expanded="true" if hint else "false", aria_controls="hint-body")
            + f'<div id="hint-body" role="status" aria-live="polite">{body}</div></div>')
