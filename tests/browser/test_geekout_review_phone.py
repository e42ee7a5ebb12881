"""Geek Out! Masters' review on a 360x740 phone: a finished 3-player game's results, the review
opened and computed (in the AI worker), its mistakes in words — the round, the phase, the dice
named face by face, the chance to win of a last turn — with no word broken mid-word or spilling
out of its box, nothing wider than the phone, no raw key, axe clean. English, Arabic and Polish
(the longest words) on one boot: the language is changed in Settings and the review drawn again.

DICEHALL_SHOTS=/dir saves a screenshot of the review section in each language."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from dicehall_browser import (
    axe_violations,
    catalog,
    no_raw_text,
    open_app,
    outside_the_viewport,
    tap,
    tid,
    words_whole,
)

from pygame_core.ai import self_play
from pygame_core.table import Table

pytestmark = pytest.mark.browser

FAST = {"animations": False, "autofill": False}
SEATS = [{"name": n, "symbol": s, "ai": None} for n, s in (("Christoffer", "●"), ("Annabelle", "▲"), ("Dag", "■"))]
LANGS = ("en", "ar", "pl")


def open_review(page) -> None:
    page.wait_for_selector(tid("review-open"))
    tap(page, tid("review-open"))
    page.wait_for_selector(tid("review-mistake"), timeout=120_000)  # computed in the worker


def test_the_review_on_a_phone_in_three_languages(site, page):
    page.set_viewport_size({"width": 360, "height": 740})
    # medium, optimal, easy (the engine test's fixed game): Christoffer's costliest decision is
    # in his last turn (chance to win), Annabelle made none, Dag three in turn points.
    record, _ = self_play("geekout", ["medium", "optimal", "easy"], seed="view1")
    open_app(page, site, {**FAST, "lang": LANGS[0]}, Table.from_record(record, SEATS).dumps())
    page.wait_for_selector(tid("review"))
    for lang in LANGS:
        if lang != LANGS[0]:
            page.evaluate("() => { location.hash = '#/settings'; }")
            page.select_option(tid("set-lang"), lang)
            page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
            page.evaluate("() => { location.hash = '#/play'; }")
            page.wait_for_selector(tid("review"))
        if not page.locator(tid("review-mistake")).count():
            open_review(page)
        words = catalog(lang, "geekout")
        text = page.inner_text(tid("review"))
        assert words["geekout.review.loss_help"] in text
        mistakes = page.locator(tid("review-mistake"))
        assert mistakes.count() == 6  # three each for Christoffer and Dag
        first = " ".join(mistakes.nth(0).inner_text().split())
        assert words["geekout.review.last"].replace("{n}", "5") in first  # the last turn, in chance to win
        no_raw_text(page, "geekout")
        words_whole(page, tid("review"), where=lang)
        assert outside_the_viewport(page, f'{tid("review")} *') == [], lang
        assert axe_violations(page) == [], lang
        shots = os.environ.get("DICEHALL_SHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.locator(tid("review")).screenshot(path=str(Path(shots) / f"geekout-review-{lang}.png"))
