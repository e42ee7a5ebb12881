"""Home: the unfinished games to go on with, every registered game with its player count, History
and importing a record."""

from __future__ import annotations

from pygame_core.registry import entries
from pygame_core.table import SaveError, Table

from ..dom import button, esc
from .. import shelf


def render(app) -> str:
    t, play = app.t, app.play
    out = [f'<section class="screen home" aria-labelledby="home-h"><h1 id="home-h">{esc(t("home.heading"))}</h1>'
           f'<p class="lead">{esc(t("home.tagline"))}</p>']
    if app.offline_note:
        out.append(f'<p class="card note" role="status" data-testid="offline-ready">{esc(t("offline.ready"))}</p>')
    if shelf.unfinished(play.table):
        out.append(_continue(app, play.table.game, play.table.seats, button(
            esc(t("home.continue")), action="go", arg="#/play", cls="btn primary", testid="continue"), ""))
    for game, text in app.life.parked().items():  # the other games' unfinished tables
        try:
            seats = Table.loads(text).seats
        except SaveError:
            continue
        out.append(_continue(app, game, seats, button(esc(t("home.continue")), action="continue-game", arg=game,
                                                      cls="btn", testid=f"continue-{game}"), " parked"))
    out.append(f'<h2>{esc(t("home.pick"))}</h2><ul class="games">')
    for name, entry in entries().items():
        rules = entry.rules
        players = t("home.players_n", n=rules.min_players) if rules.min_players == rules.max_players \
            else t("home.players", min=rules.min_players, max=rules.max_players)
        out.append(
            f'<li class="card game" data-game="{esc(name)}"><h3>{esc(t(f"{name}.title"))}</h3>'
            f'<p>{esc(t(f"{name}.blurb"))}</p><p class="meta">{esc(players)}</p><div class="row">'
            + button(esc(t("home.new_game")), action="new-setup", arg=name, cls="btn primary", testid=f"new-{name}")
            + button(esc(t("nav.rules")), action="go", arg=f"#/rules/{name}", cls="btn", testid=f"rules-{name}")
            + "</div></li>")
    out.append("</ul>")
    out.append('<div class="row">' + button(esc(t("history.button")), action="go", arg="#/history", cls="btn",
                                            testid="nav-history")
               + button(esc(t("rooms.button")), action="go", arg="#/rooms", cls="btn", testid="nav-rooms")
               + button(esc(t("home.play_online")), action="room-lobby-open", cls="btn", testid="play-online")  # roomlobby.py
               + "</div>")
    out.append(f'<div class="card"><h2>{esc(t("import.heading"))}</h2><p>{esc(t("import.help"))}</p>'
               f'<label class="btn file"><input type="file" accept=".json,application/json" data-action="import" '
               f'data-testid="import-file"> {esc(t("import.button"))}</label></div></section>')
    return "".join(out)


def _continue(app, game: str, seats: list[dict], go_on: str, cls: str) -> str:
    t = app.t
    names = ", ".join(s["name"] for s in seats)
    return (f'<div class="card continue{cls}"><p><bdi>{esc(t("home.saved", game=t(f"{game}.title"), players=names))}'
            f"</bdi></p>{go_on}</div>")


def new_setup(app, game) -> None:
    """A new game of `game`: its set-up afresh (the remembered one, or the default)."""
    app.setup = None
    app.go(f"#/setup/{game}")


ACTIONS = {
    "new-setup": new_setup,
    "continue-game": lambda app, arg: app.life.unpark(str(arg)),
}
