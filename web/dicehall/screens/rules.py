"""A game's rules page: its catalog's `<game>.rules.1…` paragraphs (`## ` a heading, `- ` a list),
with the view's table (`rules_table`) after the paragraph it names."""

from __future__ import annotations

from ..dom import button, esc


def render(app, game: str) -> str:
    t, view = app.t, app.view(game)
    out = [f'<section class="screen rules" aria-labelledby="rules-h"><h1 id="rules-h">'
           f'{esc(t("rules.heading", game=t(f"{game}.title")))}</h1>']
    i = 1
    while app.catalog.has(f"{game}.rules.{i}"):
        text = t(f"{game}.rules.{i}")
        if text.startswith("## "):
            out.append(f"<h2>{esc(text[3:])}</h2>")
        elif text.startswith("- "):
            items = (line[2:] if line.startswith("- ") else line for line in text.split("\n"))
            out.append("<ul>" + "".join(f"<li>{esc(item)}</li>" for item in items) + "</ul>")
        else:
            out.append(f"<p>{esc(text)}</p>")
        if i == view.rules_table_after:
            out.append(view.rules_table(t))
        i += 1
    out.append('<div class="actionbar">' + button(esc(t("nav.back")), action="go", arg=app.back_target(),
                                                  cls="btn primary big", testid="rules-back") + "</div></section>")
    return "".join(out)
