"""Results: the winners, the table of places and points (with the view's columns), the score plot,
the review where the game has one (reviewing.py: a mistake's button opens the game's replay at
it), the standings, people's bests and what to do next. Drawn from the play controller's table
(the game is over)."""

from __future__ import annotations

from .. import reviewing
from ..dom import button, esc
from ..gameview import PlayContext
from ..widgets import controls, results as results_widget
from .setup import options_text


def render(app) -> str:
    play = app.play
    t, table, view = app.t, play.table, play.view
    places = table.state.ranking()
    winners = [table.seats[s]["name"] for s in range(len(table.seats)) if places[s] == 1]
    options = options_text(t, table.game, table.extra_options)
    out = [f'<section class="screen results" aria-labelledby="res-h" data-testid="results" data-game="{esc(table.game)}"><h1 id="res-h">{esc(t("results.heading"))}</h1>',
           f'<p class="meta" data-testid="results-options">{esc(options)}</p>' if options else "",
           f'<p class="celebrate win" data-testid="winners"><span><bdi>{esc(t("results.winners", n=len(winners), names=", ".join(winners)))}</bdi></span></p>',
           end_reason(t, view, table),
           results_widget.results_table(t, table.seats, table.state, view.breakdown_heads(t), view.breakdown),
           final_picture(app, view, table),
           results_widget.score_plot(t, table.seats, table.match, view.round_of)]
    out.append(reviewing.results_section(app))
    out.append(results_widget.standings_table(t, table.seats, table.standings))
    bests = app.bests(table.game)[:3]
    if bests:  # people's best scores in this game, this one included once it is saved
        out.append(f'<div class="card bests" data-testid="results-bests"><h2>{esc(t("history.bests"))}</h2><ol>'
                   + "".join(f'<li><bdi>{esc(b["name"])}</bdi> {esc(t.number(b["score"]))}</li>' for b in bests)
                   + "</ol></div>")
    # At someone else's table (a guest of their room) the host starts the next game.
    mine = play.outbox is None
    out.append(controls.action_bar(
        button(esc(t("results.again")), action="again", cls="btn primary", testid="play-again") if mine else "",
        button(esc(t("results.new_table")), action="new-table", cls="btn", testid="new-table") if mine else "",
        button(esc(t("results.export")), action="export", cls="btn", testid="export-record"),
        button(esc(t("results.share")), action="share", cls="btn", testid="share-result"), share=True))
    out.append("</section>")
    return "".join(out)


def end_reason(t, view, table) -> str:
    """Why the game ended, in the view's words (the engine's facts); nothing if the view has none."""
    text = view.end_reason(t, table.state, table.seats)
    return f'<p class="end-reason" data-testid="end-reason"><bdi>{esc(text)}</bdi></p>' if text else ""


def final_picture(app, view, table) -> str:
    """The final board or sheets, drawn by the view as in play on the final position with nobody to
    act (no square or box can be chosen)."""
    ctx = PlayContext(t=app.t, lang=app.lang, game=table.game, seats=table.seats, state=table.state,
                      index=table.match.index, ui={}, seat=None, animations=False, settings=app.settings)
    picture = view.final_picture(ctx)
    if not picture:
        return ""
    return (f'<section class="card final-picture" aria-labelledby="final-h" data-testid="final-picture" data-game="{esc(table.game)}">'
            f'<h2 id="final-h">{esc(app.t("results.final"))}</h2>{picture}</section>')


ACTIONS = {
    "again": lambda app, arg: app.life.again(),
    "new-table": lambda app, arg: app.life.new_table(),
    "review-show": reviewing.show_in_replay,
}
