"""The post-game review, generic over a game's `review(record)` (see docs/ARCHITECTURE.md):
per seat the points given away against the game's best play, the costliest decisions, and the
value curve over the game, under a label of how sure the grades are (exact, estimate or partly
exact, each mistake then tagged). The same section on the results screen and beside a replay
(`reviewing.py` computes it in the AI worker); beside a replay each mistake shows its move."""

from __future__ import annotations

from ..dom import button, esc
from .plot import line_plot
from .seats import seat_label, symbol_html

# How sure a review's grades are -> its label; a mixed review tags each mistake (TAGS).
CERTAINTIES = {"exact": "review.certainty.exact", "estimate": "review.certainty.estimate", "mixed": "review.certainty.mixed"}
TAGS = {True: "review.tag.exact", False: "review.tag.estimate"}


def certainty(result: dict) -> str | None:
    """How sure the grades are: the result's "certainty", else from every decision's "exact"
    (None when the review does not say)."""
    said = result.get("certainty")
    if said in CERTAINTIES:
        return said
    flags = [d.get("exact") for seat in result["seats"] for d in seat["decisions"]]
    if not flags or any(not isinstance(flag, bool) for flag in flags):
        return None
    return "exact" if all(flags) else "estimate" if not any(flags) else "mixed"


def certainty_label(t, result: dict) -> str:
    kind = certainty(result)
    if kind is None:
        return ""
    return f'<p class="review-certainty" data-testid="review-certainty" data-certainty="{kind}">{esc(t(CERTAINTIES[kind]))}</p>'


def mistake_words(t, d: dict, *, describe, value, when, detail, tag: bool) -> str:
    """One graded decision in words: where, what was chosen, what was better and what it cost
    (with its "exact"/"estimate" tag when the review mixes them)."""
    sure = ""
    if tag and isinstance(d.get("exact"), bool):
        kind = "exact" if d["exact"] else "estimate"
        sure = f' <span class="review-tag" data-testid="review-tag" data-certainty="{kind}">{esc(t(TAGS[d["exact"]]))}</span>'
    return (f'<span class="when">{esc(when(d))}</span> <span class="dice-text" dir="ltr">{esc(detail(d))}</span>'
            f'<span class="chose">{esc(t("review.chose", move=describe(d["move"]), expected=value(d, "value")))}</span>'
            f'<span class="better">{esc(t("review.better", move=describe(d["best"]), expected=value(d, "best_value")))}</span>'
            f'<strong class="lost">{esc(t("review.lost", loss=value(d, "loss")))}</strong>{sure}')


def review_section(t, seats: list[dict], result: dict | None, *, status: str, is_open: bool, chosen: int | None,
                   describe, fmt, when, detail, texts: dict, value=None, note: str = "", show_moves: bool = False,
                   at: int | None = None, extra: str = "") -> str:
    """`status`: "ready" (`result` given), "loading" (the worker computes it) or "unavailable"
    (it cannot be computed now: said, with Retry); `texts`: the game's intro, loss_help and plot
    title; `value(decision, field)` shows a decision's value, best value or loss (the view's
    `review_value`; default `fmt` of the number); `note`: words under the intro (why the review is
    here); `show_moves`: each mistake gets a button showing its move (beside a replay, at `at`);
    `extra`: controls under the label (the results screen's way to the replay)."""
    value = value or (lambda d, field: fmt(d[field]))
    head = f'<section class="review card" aria-labelledby="rev-h" data-testid="review"><h2 id="rev-h">{esc(t("review.heading"))}</h2>'
    intro = f'<p class="muted">{esc(texts["intro"])}</p>' + (f'<p class="muted small" data-testid="review-note">{esc(note)}</p>' if note else "")
    if not is_open:
        return head + intro + button(esc(t("review.open")), action="review-open", cls="btn", testid="review-open") + "</section>"
    if status == "unavailable" or (status == "ready" and result is None):
        return (head + intro + f'<p class="notice" role="status" data-testid="review-unavailable">{esc(t("review.unavailable"))}</p>'
                + button(esc(t("review.retry")), action="review-retry", cls="btn", testid="review-retry") + "</section>")
    if result is None:
        return head + intro + f'<p class="muted" role="status" data-testid="review-loading">{esc(t("review.loading"))}</p></section>'
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
                     last_label=lambda values: f"{fmt(values[0])} → {fmt(values[-1])}",
                     tick=lambda v: t.number(v, 0 if v == int(v) else 1))
    tag = certainty(result) == "mixed"
    mistakes = []
    for s in shown:
        e = graded[s]
        name = seats[s]["name"]
        if not e["mistakes"]:
            mistakes.append(f'<p data-testid="review-none-{s}">{symbol_html(seats[s]["symbol"])} <bdi>{esc(t("review.none", name=name))}</bdi></p>')
            continue
        items = []
        for d in e["mistakes"][: 5 if chosen is not None else 3]:
            words = mistake_words(t, d, describe=describe, value=value, when=when, detail=detail, tag=tag)
            show = ""
            if show_moves:
                show = button(esc(t("review.show_move")), action="review-show", arg=d["index"], cls="btn small review-show",
                              testid=f'review-show-{d["index"]}', aria_current="step" if at == d["index"] else None)
            items.append(f'<li data-testid="review-mistake" data-seat="{s}" data-index="{d["index"]}" data-loss="{d["loss"]:.4f}">'
                         f'{words}{show}</li>')
        mistakes.append(f'<h3>{seat_label(seats, s)}</h3><p class="muted small">{esc(t("review.mistakes"))}</p>'
                        f'<ol class="mistakes">{"".join(items)}</ol>')
    return head + intro + certainty_label(t, result) + extra + picker + summary + plot + "".join(mistakes) + "</section>"
