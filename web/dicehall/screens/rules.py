"""A game's rules page: its catalog's `<game>.rules.1…` paragraphs (`## ` a heading, `- ` a list
whose lines without `- ` after the last item are a paragraph of their own, after the list), with
the view's figures (`rules_figures`: the dice, a points table) after the paragraphs they name."""

from __future__ import annotations

from ..dom import button, esc


def paragraph(text: str) -> str:
    if text.startswith("## "):
        return f"<h2>{esc(text[3:])}</h2>"
    if not text.startswith("- "):
        return f"<p>{esc(text)}</p>"
    items: list[str] = []
    tail: list[str] = []  # text after the list: a closing remark, not one more bullet
    for line in text.split("\n"):
        if line.startswith("- ") and not tail:
            items.append(line[2:])
        else:
            tail.append(line)
    return ("<ul>" + "".join(f"<li>{esc(item)}</li>" for item in items) + "</ul>"
            + "".join(f"<p>{esc(line)}</p>" for line in tail))


def render(app, game: str) -> str:
    t, view = app.t, app.view(game)
    figures = view.rules_figures(t)
    out = [f'<section class="screen rules" aria-labelledby="rules-h"><h1 id="rules-h">'
           f'{esc(t("rules.heading", game=t(f"{game}.title")))}</h1>']
    i = 1
    while app.catalog.has(f"{game}.rules.{i}"):
        out.append(paragraph(t(f"{game}.rules.{i}")))
        out.append(figures.get(i, ""))
        i += 1
    out.append('<div class="actionbar">' + button(esc(t("nav.back")), action="go", arg=app.back_target(),
                                                  cls="btn primary big", testid="rules-back") + "</div></section>")
    return "".join(out)
