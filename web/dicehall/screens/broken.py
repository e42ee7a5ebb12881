"""The saved game could not be read: say so in words, offer to discard it or to export its text.
Nothing is overwritten until the player chooses."""

from __future__ import annotations

from ..dom import button, esc


def render(app) -> str:
    t = app.t
    return (f'<section class="screen broken" role="alert" data-testid="save-error"><h1>{esc(t("save.heading"))}</h1>'
            f'<p>{esc(t("save.unreadable"))}</p><p class="muted">{esc(app.life.broken_reason)}</p><div class="row">'
            + button(esc(t("save.discard")), action="discard-save", cls="btn primary", testid="discard-save")
            + button(esc(t("save.export")), action="export-save", cls="btn", testid="export-save")
            + "</div></section>")


ACTIONS = {
    "discard-save": lambda app, arg: app.life.discard_broken(),
    "export-save": lambda app, arg: app.page.download("dicehall-save.txt", app.life.broken_save or ""),
}
