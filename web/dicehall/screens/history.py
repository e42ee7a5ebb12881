"""History: each game's personal bests (people, not the computer) and the finished games, newest
first, with their options."""

from __future__ import annotations

from pygame_core.registry import entries

from .. import replay, shelf
from ..dom import button, esc
from . import replay as replay_screen
from .setup import options_text

RECENT = 20  # finished games listed (History keeps shelf.MAX_HISTORY for the bests)


def render(app) -> str:
    """History, or (#/replay/…) a finished game replayed (screens/replay.py)."""
    if app.route()[0] == "replay":
        return replay_screen.render(app)
    return render_history(app)


def render_history(app) -> str:
    t = app.t
    history = app.life.history()
    replayable = replay.kept_ids(app.store) if history else set()
    out = [f'<section class="screen history" aria-labelledby="history-h"><h1 id="history-h">{esc(t("history.heading"))}</h1>']
    if not history:
        out.append(f'<p data-testid="history-empty">{esc(t("history.empty"))}</p>')
    for game in entries():
        bests = shelf.personal_bests(history, game)
        if not bests:
            continue
        out.append(f'<h2>{esc(t(f"{game}.title"))}</h2><table class="bests" data-testid="bests-{esc(game)}"><thead><tr>'
                   f'<th scope="col">{esc(t("history.name"))}</th><th scope="col">{esc(t("history.best"))}</th>'
                   f'<th scope="col">{esc(t("history.games"))}</th></tr></thead><tbody>')
        for best in bests[:10]:
            out.append(f'<tr><td><bdi>{esc(best["name"])}</bdi></td><td class="num">{esc(t.number(best["score"]))}</td>'
                       f'<td class="num">{esc(t.number(best["games"]))}</td></tr>')
        out.append("</tbody></table>")
    if history:
        out.append(f'<h2>{esc(t("history.recent"))}</h2><ol class="recent" data-testid="history-list">')
        for item in reversed(history[-RECENT:]):
            order = sorted(item["seats"], key=lambda seat: seat["place"])
            line = ", ".join(t("share.place", place=seat["place"], name=seat["name"], score=t.number(seat["score"]))
                             for seat in order)
            game = item["game"]
            options = options_text(t, game, item.get("options"))
            out.append(f'<li><strong>{esc(t(f"{game}.title"))}</strong> · {esc(app.page.date_text(item["ended"], app.lang))}'
                       + (f' · <span data-testid="history-options">{esc(options)}</span>' if options else "")
                       + f'<br><bdi>{esc(line)}</bdi>' + replay_button(app, item, replayable) + '</li>')
        out.append("</ol>")
    out.append("</section>")
    return "".join(out)


def replay_button(app, item: dict, replayable: set) -> str:
    """"Replay" for a game whose record is kept (the last replay.MAX_REPLAYS), named for a
    screen reader by the game and its date."""
    if item["id"] not in replayable:
        return ""
    t = app.t
    name = t("replay.open_named", game=t(f'{item["game"]}.title'), date=app.page.date_text(item["ended"], app.lang))
    return " " + button(esc(t("replay.open")), action="go", arg=f'#/replay/{item["id"]}/0', cls="btn small",
                        testid=f'replay-{item["id"]}', aria_label=name)
