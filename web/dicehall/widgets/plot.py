"""One SVG line plot (results: score per turn; review: expected total per turn)."""

from __future__ import annotations

from ..dom import esc
from .seats import seat_class, seat_label

DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 0"]
TICK_CHARS = 5  # what the y axis's margin holds


def scale(values: list[float], zero_based: bool) -> tuple[float, float]:
    """The y range: from 0 (scores), or the values' range widened to whole tens (expectations)."""
    if not values:
        return 0, 1
    if zero_based:
        return 0, max(max(values), 1)
    low = min(values) // 10 * 10
    high = -(-max(values) // 10) * 10
    return low, high if high > low else low + 10


def geometry(series: dict[int, list[float]], width: int, height: int, pad: int, zero_based: bool):
    """Pixel points per seat on a shared scale: (points {seat: [(x, y)]}, low, high, steps)."""
    values = [v for s in series.values() for v in s]
    low, high = scale(values, zero_based)
    steps = max((len(s) for s in series.values()), default=1) - 1 or 1
    points = {seat: [(pad + (width - 2 * pad) * i / steps, height - pad - (height - 2 * pad) * (v - low) / (high - low))
                     for i, v in enumerate(s)] for seat, s in series.items()}
    return points, low, high, steps


def fmt_tick(value: float) -> str:
    return f"{value:g}"


def line_plot(series: dict[int, list[float]], seats: list[dict], *, title: str, steps_text,
              testid: str = "plot", zero_based: bool = True, fmt=fmt_tick, last_label=None, tick=fmt_tick) -> str:
    """One line per seat, drawn in the seat's colour with its own dash pattern and symbol marks.

    `steps_text(n)` words the x axis ("Rounds: 13"); `last_label(values)` the legend entry (else
    `fmt` of the last value). The y axis says `fmt` of its values where each fits the 30 px
    margin (TICK_CHARS), else `tick` of them, bare numbers (a review's "+10.0 dice" there was
    cut to "0 dice"): the title says the unit.
    """
    w, h, pad = 320, 190, 34
    points, low, high, steps = geometry(series, w, h, pad, zero_based)
    lines, legend = [], []
    for seat, pts in points.items():
        symbol = seats[seat]["symbol"]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        values = ",".join(f"{v:.4f}" for v in series[seat])
        marks = "".join(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" class="mark">{esc(symbol)}</text>'
                        for k, (x, y) in enumerate(pts) if k % 3 == 0 or k == len(pts) - 1)
        lines.append(f'<g class="{seat_class(symbol)}"><polyline points="{path}" fill="none" stroke="currentColor" stroke-width="2" '
                     f'stroke-dasharray="{DASHES[seat % 5]}" data-testid="{testid}-curve-{seat}" data-values="{values}"/>{marks}</g>')
        shown = last_label(series[seat]) if last_label else fmt(series[seat][-1])
        legend.append(f'<li>{seat_label(seats, seat)}: <span dir="ltr">{esc(shown)}</span></li>')
    ymid = h - pad - (h - 2 * pad) / 2
    ticks = [fmt(high), fmt((low + high) / 2), fmt(low)]
    if any(len(text) > TICK_CHARS for text in ticks):
        ticks = [tick(high), tick((low + high) / 2), tick(low)]
    axis = (f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" class="axis"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" class="axis"/>'
            f'<line x1="{pad}" y1="{ymid:.1f}" x2="{w - pad}" y2="{ymid:.1f}" class="grid"/>'
            f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end" class="tick">{esc(ticks[0])}</text>'
            f'<text x="{pad - 4}" y="{ymid + 4:.1f}" text-anchor="end" class="tick">{esc(ticks[1])}</text>'
            f'<text x="{pad - 4}" y="{h - pad + 4}" text-anchor="end" class="tick">{esc(ticks[2])}</text>'
            f'<text x="{pad}" y="{h - 12}" text-anchor="middle" class="tick">0</text>'
            f'<text x="{w - pad}" y="{h - 12}" text-anchor="middle" class="tick">{steps}</text>')
    return (f'<figure class="plot" data-testid="{testid}"><svg viewBox="0 0 {w} {h}" role="img" aria-label="{esc(title)}" dir="ltr">'
            f'{axis}{"".join(lines)}</svg><figcaption>{esc(title)} ({esc(steps_text(steps))})'
            f'<ul class="legend">{"".join(legend)}</ul></figcaption></figure>')
