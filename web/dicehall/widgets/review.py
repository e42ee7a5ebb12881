"""The post-game review, generic over a game's `review(record)` (see docs/ARCHITECTURE.md):
per seat the points given away against the game's best play, the costliest decisions, and the
value curve over the game."""

from __future__ import annotations

from ..dom import button, esc
from .plot import line_plot
from .seats import seat_label, symbol_html


def review_section(t, seats: list[dict], result: dict | None, *, status: str, is_open: bool, chosen: int | None,
                   describe, fmt, when, detail, texts: dict) -> str:
    """`status`: the game data's load state; `texts`: the game's intro, loss_help and plot title."""
    head = f'<section class="review card" aria-labelledby="rev-h" data-testid="review"><h2 id="rev-h">{esc(t("review.heading"))}</h2>'
    intro = f'<p class="muted">{esc(texts["intro"])}</p>'
    if not is_open:
        return head + intro + button(esc(t("review.open")), action="review-open", cls="btn", testid="review-open") + "</section>"
    if result is None:
        key = "advisor.unavailable" if status == "failed" else "advisor.loading"
        return head + f'<p class="muted" role="status" data-testid="review-loading">{esc(t(key))}</p></section>'
    graded = result["seats"]
    n = len(graded)
    chosen = chosen if chosen is not None and 0 <= chosen < n else None
    shown = list(range(n)) if chosen is None else [chosen]
    picker = ""
    if n > 1:
        picker = (f'<div class="row review-pick" role="group" aria-label="{esc(t("review.show"))}">'
                  + button(esc(t("review.all")), action="review-seat", arg="all", cls="btn small", testid="review-seat-all",
                           aria_pressed="true" if chosen is None else "false")
                  + "".join(button(seat_label(seats, s), action="review-seat", arg=s, cls="btn small", testid=f"review-seat-{s}",
                                   aria_pressed="true" if chosen == s else "false") for s in range(n))
                  + "</div>")
    rows = []
    for s in shown:
        e = graded[s]
        rows.append(f'<tr data-testid="review-row-{s}"><th scope="row">{seat_label(seats, s)}</th>'
                    f'<td class="num" data-testid="review-loss-{s}" data-loss="{e["total_loss"]:.4f}">{esc(t.number(e["total_loss"], 1))}</td>'
                    f'<td class="num" data-testid="review-mean-{s}">{esc(t.number(e["mean_loss"], 2))}</td>'
                    f'<td class="num">{esc(e["score"])}</td></tr>')
    summary = (f'<div class="scroll" tabindex="0" aria-labelledby="rev-h"><table class="review-table" data-testid="review-table">'
               f'<caption class="sr-only">{esc(t("review.heading"))}</caption><thead><tr><th scope="col">{esc(t("results.player"))}</th>'
               f'<th scope="col" class="num">{esc(t("review.loss"))}</th><th scope="col" class="num">{esc(t("review.mean"))}</th>'
               f'<th scope="col" class="num">{esc(t("results.total"))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
               f'<p class="muted small">{esc(texts["loss_help"])}</p>')
    plot = line_plot({s: graded[s]["curve"] for s in shown}, seats, title=texts["plot"], zero_based=False,
                     steps_text=lambda k: t("results.rounds", n=k), testid="review-plot", fmt=fmt,
                     last_label=lambda values: f"{fmt(values[0])} → {fmt(values[-1])}")
    mistakes = []
    for s in shown:
        e = graded[s]
        name = seats[s]["name"]
        if not e["mistakes"]:
            mistakes.append(f'<p data-testid="review-none-{s}">{symbol_html(seats[s]["symbol"])} <bdi>{esc(t("review.none", name=name))}</bdi></p>')
            continue
        items = []
        for d in e["mistakes"][: 5 if chosen is not None else 3]:
            items.append(
                f'<li data-testid="review-mistake" data-seat="{s}" data-index="{d["index"]}" data-loss="{d["loss"]:.4f}">'
                f'<span class="when">{esc(when(d))}</span> <span class="dice-text" dir="ltr">{esc(detail(d))}</span>'
                f'<span class="chose">{esc(t("review.chose", move=describe(d["move"]), expected=fmt(d["value"])))}</span>'
                f'<span class="better">{esc(t("review.better", move=describe(d["best"]), expected=fmt(d["best_value"])))}</span>'
                f'<strong class="lost">{esc(t("review.lost", loss=fmt(d["loss"])))}</strong></li>')
        mistakes.append(f'<h3>{seat_label(seats, s)}</h3><p class="muted small">{esc(t("review.mistakes"))}</p>'
                        f'<ol class="mistakes">{"".join(items)}</ol>')
    return head + intro + picker + summary + plot + "".join(mistakes) + "</section>"
