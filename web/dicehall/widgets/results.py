"""The results of a finished game: places, totals and the game's own columns, and the score plot."""

from __future__ import annotations

from ..dom import attrs, esc
from .plot import line_plot
from .seats import name_html, seat_label


def progression(match, round_of=None) -> list[list[int]]:
    """Per seat: 0 at the start, then every seat's score after each completed turn (a steal or
    any other change in another player's turn shows where it happened). With `round_of(state)` (the
    round a position is in, from 0) one point per round instead: the scores at the end of each
    round's last turn, the last round counted even when the game ended in its middle."""
    series = [[0] for _ in range(match.state.num_players)]
    last_round = None
    for turn in match.turns():
        end = turn[-1][2].clone()
        end.apply(turn[-1][1], turn[-1][0])
        if end.turn_number() == turn[0][2].turn_number() and not end.is_terminal():
            continue  # the turn is still going on
        number = None if round_of is None else round_of(turn[0][2])
        for seat, score in enumerate(end.scores()):
            if number is not None and number == last_round:
                series[seat][-1] = score  # a later turn of the same round
            else:
                series[seat].append(score)
        last_round = number
    return series


def results_table(t, seats: list[dict], state, heads: list[str], breakdown) -> str:
    places = state.ranking()
    scores = state.scores()
    order = sorted(range(len(places)), key=lambda s: (places[s], s))
    rows = []
    for seat in order:
        cells = "".join(f'<td class="num">{esc(v)}</td>' for v in breakdown(state, seat))
        rows.append(f'<tr data-testid="result-row-{seat}"><td class="num">{places[seat]}</td><th scope="row">{seat_label(seats, seat)}</th>'
                    f'{cells}<td class="num total" data-testid="result-total-{seat}">{scores[seat]}</td></tr>')
    # Four parts or more (a game's parts of a score, its rounds or its zones) leave 35-45 px a column
    # at 360 px: on a phone (app.css) Place's heading and every part's longer than "R1" then read
    # upwards, so a column is as narrow as its numbers and the names keep their words (with five
    # seats they broke mid-word: "Christ/offer").
    many = len(heads) >= 4

    def heading(text: str, cls: str = "", up: bool = False) -> str:
        classes = " ".join(c for c in (cls, "up" if up else "") if c)
        inner = f"<span>{esc(text)}</span>" if up else esc(text)  # the span turns, the cell's borders stay
        return f'<th{attrs(scope="col", cls=classes or None)}>{inner}</th>'

    head = "".join(heading(h, "num", many and len(h) > 3) for h in heads)
    # the winners are announced above the table, once (render_results: "results.winners")
    return (f'<div class="scroll" tabindex="0" '
            f'aria-labelledby="res-h"><table class="results-table{" many" if many else ""}" data-testid="results-table">'
            f'<caption class="sr-only">{esc(t("results.heading"))}</caption><thead><tr>{heading(t("results.place"), up=many)}'
            f'{heading(t("results.player"))}{head}{heading(t("results.total"), "num")}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def score_plot(t, seats: list[dict], match, round_of) -> str:
    """Every seat's score after each round (`round_of`: the view's), counted as the review and the
    end reason count."""
    series = progression(match, round_of)
    return line_plot(dict(enumerate(series)), seats, title=t("results.plot"),
                     steps_text=lambda n: t("results.rounds", n=n), testid="plot")


def standings_table(t, seats: list[dict], standings) -> str:
    rows = "".join(
        f'<tr data-testid="standing-{seat}"><th scope="row">{seat_label(seats, seat)}</th><td class="num">{standings.points[seat]}</td>'
        f'<td class="num">{standings.wins[seat]}</td></tr>' for seat in standings.order())
    return (f'<section class="standings" aria-labelledby="stand-h"><h2 id="stand-h">{esc(t("standings.heading"))}</h2>'
            f'<p class="muted">{esc(t("standings.games", n=standings.games))}</p><table data-testid="standings"><thead><tr>'
            f'<th scope="col">{esc(t("results.player"))}</th><th scope="col" class="num">{esc(t("standings.points"))}</th>'
            f'<th scope="col" class="num">{esc(t("standings.wins"))}</th></tr></thead><tbody>{rows}</tbody></table></section>')


__all__ = ["name_html", "progression", "results_table", "score_plot", "standings_table"]
