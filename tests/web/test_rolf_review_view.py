"""Rolf's review on the results screen under the fake page, in all five languages: the losses in
percentage points of chance to win, the costliest choices of squares with their round, throw,
dice and both choices in words, the chance-to-win curve — all from the game's `review`, and no
catalog key shown raw."""

from __future__ import annotations

import pytest
from dicehall.games.rolf import VIEW as ROLF
from dicehall.i18n import Catalog
from fakehost import run
from fakepage import FakePage
from support import load_catalog

from pygame_core.ai import self_play
from pygame_core.games.rolf.review import review
from pygame_core.table import Table

SEATS = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None}]
FAST = {"animations": False, "autofill": False}


def catalog(lang: str) -> Catalog:
    cat = Catalog(lang, load_catalog(lang), load_catalog("en"))
    cat.add("rolf", load_catalog(lang, "rolf"), load_catalog("en", "rolf"))
    return cat


@pytest.fixture(scope="module")
def game():
    # A short game (47 moves): random at seat 0 makes three costly choices, medium at seat 1 one.
    record, _ = self_play("rolf", ["random", "medium"], seed="view35")
    return record, review(record)


def li_text(el) -> str:
    return " ".join(el.text().split())


@pytest.mark.parametrize("lang", ["en", "nb", "sv", "pl", "ar"])
def test_the_results_review_of_a_finished_rolf_game(game, lang):
    record, want = game
    t = catalog(lang)

    async def steps():
        page = FakePage(settings=FAST, lang=lang, languages=(lang,))
        page.browser.items["dicehall.table"] = Table.from_record(record, [dict(s) for s in SEATS]).dumps()
        page.location = "#/play"
        await page.boot()
        assert page.screen == "results", (page.screen, page.toasts)
        assert t("rolf.review.intro") in page.text("review")
        await page.tap("review-open")
        section = page.text("review")
        assert t("rolf.review.loss_help") in section and t("rolf.review.plot") in section
        for s, entry in enumerate(want["seats"]):
            assert float(page.find(f"review-loss-{s}").get("data-loss")) == pytest.approx(entry["total_loss"], abs=1e-3)
            assert page.text(f"review-loss-{s}") == t.number(entry["total_loss"], 1)
            values = page.find(f"review-plot-curve-{s}").get("data-values").split(",")
            assert [float(v) for v in values] == pytest.approx(entry["curve"], abs=1e-3)
        # the curve's scale: chances from 0 % to 100 % (the winner's last point), ticks in the same unit
        ticks = [" ".join(el.text().split()) for el in page.find("review-plot").walk() if el.get("class") == "tick"]
        assert [t("rolf.hint.value", percent=p) for p in ("100", "50", "0")] == ticks[:3]
        shown = [el for el in page.find("review").walk() if el.testid == "review-mistake"]
        expected = [(s, m) for s, entry in enumerate(want["seats"]) for m in entry["mistakes"][:3]]
        assert [(int(el.get("data-seat")), int(el.get("data-index"))) for el in shown] == [(s, m["index"]) for s, m in expected]
        assert len(shown) == 4  # Ann's three, Bo's one
        for el, (_, m) in zip(shown, expected):
            text = li_text(el)
            # where, the dice, both choices of squares in words with their chance to win, the loss
            assert t("rolf.review.when", round=m["round"], throw=m["throw"]) in text
            assert " ".join(str(v) for v in m["dice"]) in text
            squares = "\u2066" + ", ".join(rolf_squares(m["move"])) + "\u2069"  # isolated left to right
            assert t("rolf.move.take", square=squares) in text
            assert t("rolf.hint.value", percent=str(round(m["value"]))) in text
            assert t("rolf.hint.value", percent=str(round(m["best_value"]))) in text
            assert t.number(m["loss"], 1) in text
        html = page.html
        assert "rolf.review" not in html and "rolf.move" not in html and "rolf.hint" not in html
        assert "review." not in page.text("review")  # no shared key shown raw either
        assert not page.errors

    run(steps)


def rolf_squares(move: str) -> list[str]:
    """`take 3-5 5-3` as players write squares: 3–5, 5–3."""
    return [name.replace("-", "–") for name in move.split()[1:]]


def test_the_english_words_of_the_costliest_choice(game):
    _, want = game
    worst = want["seats"][0]["mistakes"][0]
    t = catalog("en")
    assert ROLF.review_when(t, worst) == f"Round {worst['round']}, throw {worst['throw']}:"
    assert ROLF.review_detail(worst) == " ".join(str(v) for v in worst["dice"])
    a, b = rolf_squares(worst["move"])
    assert ROLF.describe_move(t, worst["move"]) == f"Take \u2066{a}, {b}\u2069"
    assert ROLF.review_value(t, worst, "value") == f"{round(worst['value'])} %"
    assert ROLF.review_value(t, worst, "loss") == f"{worst['loss']:.1f}"
    assert ROLF.describe_move(t, "take 3-5") == "Take \u20663–5\u2069"  # a single take, isolated the same way
    assert ROLF.describe_move(t, "take 3-5 9-9") == "take 3-5 9-9"  # not squares: left as it is
