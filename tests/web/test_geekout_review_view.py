"""Geek Out! Masters' review on the results screen under the fake page, in all five languages:
the points lost per seat (expected turn points), the costliest decisions with their round, phase
and dice in words, graded in turn points or — in a player's last turn — in chance to win, the
expected-final-total curve; all from the game's `review`, and no catalog key shown raw."""

from __future__ import annotations

import pytest
from dicehall.games.geekout import VIEW as GEEKOUT
from dicehall.i18n import Catalog
from fakehost import run
from fakepage import FakePage
from support import load_catalog

from pygame_core.ai import self_play
from pygame_core.games.geekout.review import review
from pygame_core.table import Table

SEATS = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None},
         {"name": "Cy", "symbol": "■", "ai": None}]
FAST = {"animations": False, "autofill": False}


def catalog(lang: str) -> Catalog:
    cat = Catalog(lang, load_catalog(lang), load_catalog("en"))
    cat.add("geekout", load_catalog(lang, "geekout"), load_catalog("en", "geekout"))
    return cat


@pytest.fixture(scope="module")
def game():
    # Three players (504 moves): medium at seat 0 (its costliest decision is in its last turn,
    # graded in chance to win while Cy still had his: an estimate; then two in turn points),
    # optimal at seat 1 (no mistake), easy at seat 2 (three in turn points).
    record, _ = self_play("geekout", ["medium", "optimal", "easy"], seed="view1")
    return record, review(record)


def li_text(el) -> str:
    return " ".join(el.text().split())


def test_the_fixed_game_has_both_units_among_the_shown_mistakes(game):
    _, want = game
    ann = want["seats"][0]["mistakes"][:3]
    assert [m.get("unit") for m in ann] == ["win", None, None] and ann[0]["exact"] is False
    assert want["seats"][1]["mistakes"] == [] and len(want["seats"][2]["mistakes"]) >= 3


@pytest.mark.parametrize("lang", ["en", "nb", "sv", "pl", "ar"])
def test_the_results_review_of_a_finished_geekout_game(game, lang):
    record, want = game
    t = catalog(lang)

    async def steps():
        page = FakePage(settings=FAST, lang=lang, languages=(lang,))
        page.browser.items["dicehall.table"] = Table.from_record(record, [dict(s) for s in SEATS]).dumps()
        page.location = "#/play"
        await page.boot()
        assert page.screen == "results", (page.screen, page.toasts)
        assert t("geekout.review.intro") in page.text("review")
        await page.tap("review-open")
        await page.idle()
        section = page.text("review")
        assert t("geekout.review.loss_help") in section and t("geekout.review.plot") in section
        for s, entry in enumerate(want["seats"]):
            assert float(page.find(f"review-loss-{s}").get("data-loss")) == pytest.approx(entry["total_loss"], abs=1e-3)
            assert page.text(f"review-loss-{s}") == t.number(entry["total_loss"], 1)
            values = page.find(f"review-plot-curve-{s}").get("data-values").split(",")
            assert [float(v) for v in values] == pytest.approx(entry["curve"], abs=1e-3)
        shown = [el for el in page.find("review").walk() if el.testid == "review-mistake"]
        expected = [(s, m) for s, entry in enumerate(want["seats"]) for m in entry["mistakes"][:3]]
        assert [(int(el.get("data-seat")), int(el.get("data-index"))) for el in shown] == [(s, m["index"]) for s, m in expected]
        assert len(shown) == 6  # Ann's three, Cy's three; Bo (optimal) has none
        assert page.find("review-none-1") is not None
        for el, (_, m) in zip(shown, expected):
            text = li_text(el)
            assert " ".join(GEEKOUT.review_when(t, m).split()) in text  # round, phase, dice or banked 42s
            assert " ".join(t("review.chose", move=GEEKOUT.describe_move(t, m["move"]),
                              expected=GEEKOUT.review_value(t, m, "value")).split()) in text
            assert " ".join(t("review.better", move=GEEKOUT.describe_move(t, m["best"]),
                              expected=GEEKOUT.review_value(t, m, "best_value")).split()) in text
            if m.get("unit") == "win":  # the chance to win, in per cent, marked as the last turn
                assert t("geekout.review.win", percent=t.number(100 * m["value"], 1)) in text
                assert t("geekout.review.last", n=5) in text
            else:
                assert t.number(m["value"], 2) in text and t.number(m["best_value"], 2) in text
        html = page.html
        assert "geekout.review" not in html and "geekout.move" not in html and "geekout.face" not in html
        assert "geekout." not in section and "review." not in section  # no key shown raw
        assert "{" not in section
        assert not page.errors

    run(steps)


def test_the_english_words_of_a_decision(game):
    _, want = game
    t = catalog("en")
    ann = want["seats"][0]["mistakes"]
    win = ann[0]
    assert GEEKOUT.review_value(t, win, "value") == f"{100 * win['value']:.1f} % chance to win"
    assert GEEKOUT.review_value(t, win, "loss") == f"{100 * win['loss']:.1f} %"
    points = ann[1]
    assert GEEKOUT.review_value(t, points, "value") == f"{points['value']:.2f}"
    assert GEEKOUT.review_value(t, points, "loss") == f"{points['loss']:.2f}"
    act = {"round": 2, "phase": 3, "kind": "act", "active": [1, 0, 0, 2, 1, 0], "scored": 0}
    assert GEEKOUT.review_when(t, act) == "Round 2, phase 3, dice: Meeple, 42, 42, Dragon:"
    decide = {"round": 5, "phase": 1, "kind": "decide", "active": [0] * 6, "scored": 4, "unit": "win"}
    assert GEEKOUT.review_when(t, decide) == "Round 5 (last turn), phase 1, 4 × 42 banked:"
