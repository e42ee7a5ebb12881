"""The shared widgets on their own: what a game gets to draw with (pure HTML from plain data)."""

from __future__ import annotations

import re

from dicehall.widgets.board import board_grid
from dicehall.widgets.dice import dice_tray, dice_zones, face_svg
from dicehall.widgets.plot import geometry, line_plot
from dicehall.widgets.scorecard import score_table
from dicehall.widgets.seats import seat_bar

SEATS = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "\u202eBo", "symbol": "▲", "ai": "x"}]


def test_dice_faces_pips_numerals_custom_and_blank():
    assert face_svg(5).count('class="pip"') == 5 and "polygon" not in face_svg(5)
    d8 = face_svg(7, sides=8)
    assert ">7</text>" in d8 and "polygon" in d8 and 'class="pip"' not in d8
    assert "<path d=" in face_svg(3, custom='<path d="M0 0"/>')
    assert "stroke-dasharray" in face_svg(0) and 'class="pip"' not in face_svg(0)


def test_dice_tray_holds_are_not_colour_alone():
    html = dice_tray([{"value": 4, "held": True, "label": "Die 1: 4, held"}, {"value": 2, "label": "Die 2: 2"}],
                     label="Dice", enabled=True, animations=True)
    assert html.count('aria-pressed="true"') == 1 and html.count('class="lock"') == 1  # a lock glyph too
    assert 'data-testid="die-1"' in html and "disabled" not in html


def test_zones_number_dice_across_zones():
    html = dice_zones([{"name": "active", "label": "Active", "dice": [{"value": 1, "label": "a"}] * 3, "enabled": True},
                       {"name": "used", "label": "Used", "dice": [{"value": 2, "label": "b"}] * 2}], animations=False)
    assert re.findall(r'data-testid="die-(\d+)"', html) == ["0", "1", "2", "3", "4"]
    assert 'data-testid="zone-used"' in html and "(2)" in html


def test_board_has_coordinates_and_only_legal_squares_are_buttons():
    html = board_grid(3, 3, lambda r, c: {"label": f"{r}-{c}", "action": "pick", "arg": f"{r}{c}",
                                          "enabled": (r, c) != (1, 1), "testid": f"sq-{r}{c}"}, label="Board",
                      row_names=["3", "2", "1"], col_names=["a", "b", "c"])
    assert html.count("<button") == 8 and 'data-testid="sq-11"' in html
    assert [m for m in re.findall(r'coord (?:row|col)" aria-hidden="true">(\w)', html)] == ["a", "b", "c", "3", "2", "1"]
    assert 'dir="ltr"' in html  # a board does not mirror in Arabic


def test_seat_bar_and_score_card_isolate_names():
    bar = seat_bar(SEATS, [10, 20], current=[1], flash={1}, animations=True, viewing=0, label="Players")
    assert bar.count("<bdi") == 2 and 'aria-current="true"' in bar and "flash" in bar
    card = score_table(SEATS, [{"label": "Row", "cells": [{"html": "1"}, {"html": "2"}]}], current=1, focus=0,
                       caption="Card", corner="Box")
    assert 'class="other focus"' in card and 'class="cur"' in card  # phones show the focused seat's column


def test_one_plot_for_scores_and_expectations():
    points, low, high, steps = geometry({0: [0, 10, 30], 1: [0, 20, 25]}, 320, 190, 34, zero_based=True)
    assert (low, high, steps) == (0, 30, 2)
    _, low, high, _ = geometry({0: [254.5, 200.0]}, 320, 190, 34, zero_based=False)
    assert (low, high) == (200, 260)
    svg = line_plot({0: [0, 5], 1: [0, 7]}, SEATS, title="Score", steps_text=lambda n: f"Rounds: {n}")
    assert svg.count("<polyline") == 2 and "Rounds: 1" in svg and 'data-values="0.0000,7.0000"' in svg
    # the y axis says the unit where it fits its margin, else bare numbers (the title has the unit)
    ticks = lambda svg: re.findall(r'text-anchor="end" class="tick">([^<]*)<', svg)  # noqa: E731
    short = line_plot({0: [0, 40]}, SEATS, title="Chance", steps_text=str, zero_based=False, fmt=lambda v: f"{v:g} %")
    assert ticks(short) == ["40 %", "20 %", "0 %"]
    wide = line_plot({0: [-3.5, 9]}, SEATS, title="Dice", steps_text=str, zero_based=False, fmt=lambda v: f"{v:+.1f} dice",
                     tick=lambda v: f"{v:g}")
    assert ticks(wide) == ["10", "0", "-10"] and "+9.0 dice" in wide  # (the legend keeps the unit)
