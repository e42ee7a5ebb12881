"""RollCraft T8's review on the results screen under the fake page, in all five languages: each
seat's points lost (Hard's estimate of the expected final score), the curve, and the costliest
decisions placed in words — the round, the roll or phase, the dice by colour and value, the bonus
by name — with both moves as the log says them (a die's colour and where it went, "empty choice",
"re-rolled"), and no catalog key or placeholder shown raw. The grading itself:
tests/engine/test_rollcraft_review.py."""

from __future__ import annotations

import re

import pytest
from dicehall.games.rollcraft import VIEW as ROLLCRAFT
from dicehall.i18n import Catalog
from fakehost import run
from fakepage import FakePage
from support import LANGS, load_catalog

from pygame_core.ai import self_play
from pygame_core.games.rollcraft.review import review
from pygame_core.table import Table

SEATS = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None}]
FAST = {"animations": False, "autofill": False}


def catalog(lang: str) -> Catalog:
    cat = Catalog(lang, load_catalog(lang), load_catalog("en"))
    cat.add("rollcraft", load_catalog(lang, "rollcraft"), load_catalog("en", "rollcraft"))
    return cat


@pytest.fixture(scope="module")
def game():
    # A whole two-seat game of easy against medium: both seats make costly choices of dice,
    # Returns and Locks before a roll among them.
    record, _ = self_play("rollcraft", ["easy", "medium"], seed="view30")
    return record, review(record)


def li_text(el) -> str:
    return " ".join(el.text().split())


@pytest.mark.parametrize("lang", LANGS)
def test_the_results_review_of_a_finished_rollcraft_game(game, lang):
    record, want = game
    t = catalog(lang)

    async def steps():
        page = FakePage(settings=FAST, lang=lang, languages=(lang,))
        page.browser.items["dicehall.table"] = Table.from_record(record, [dict(s) for s in SEATS]).dumps()
        page.location = "#/play"
        await page.boot()
        assert page.screen == "results", (page.screen, page.toasts)
        assert t("rollcraft.review.intro") in page.text("review")
        await page.tap("review-open")
        section = page.text("review")
        assert t("rollcraft.review.loss_help") in section and t("rollcraft.review.plot") in section
        for s, entry in enumerate(want["seats"]):
            assert float(page.find(f"review-loss-{s}").get("data-loss")) == pytest.approx(entry["total_loss"], abs=1e-3)
            assert page.text(f"review-loss-{s}") == t.number(entry["total_loss"], 1)
            values = page.find(f"review-plot-curve-{s}").get("data-values").split(",")
            assert [float(v) for v in values] == pytest.approx(entry["curve"], abs=1e-3)
            assert len(values) == 7  # the start and each of the six rounds, as the score plot
        shown = [el for el in page.find("review").walk() if el.testid == "review-mistake"]
        expected = [(s, m) for s, entry in enumerate(want["seats"]) for m in entry["mistakes"][:3]]
        assert [(int(el.get("data-seat")), int(el.get("data-index"))) for el in shown] == [(s, m["index"]) for s, m in expected]
        assert len(shown) == 6
        for el, (_, m) in zip(shown, expected):
            text = li_text(el)
            when = ROLLCRAFT.review_when(t, m)
            assert when in text and str(m["round"]) in when
            for colour, value in m.get("dice", []):  # each die the player saw, by its colour's word
                assert f"{t('rollcraft.die.' + colour)} {value}" in when
            assert ROLLCRAFT.describe_move(t, m["move"]) in text and ROLLCRAFT.describe_move(t, m["best"]) in text
            assert t.number(m["value"], 1) in text and t.number(m["best_value"], 1) in text
            assert t("review.lost", loss=t.number(m["loss"], 1)) in text
            # words, not the engine's notation: no "take grey none", no "Y4" without its zone
            assert m["move"] not in text and m["best"] not in text
        html = page.html
        assert not re.search(r"rollcraft\.(review|move|die|bonus|zone)\.", html)
        assert "{" not in page.text("review") and "review." not in page.text("review")
        assert not page.errors

    run(steps)


def test_the_words_of_each_kind_of_decision():
    """The sentence placing each kind of graded decision, in English and in Arabic (its own comma)."""
    en, ar = catalog("en"), catalog("ar")
    choose = {"kind": "choose", "round": 4, "roll": 1, "dice": [["grey", 8], ["white", 3]]}
    assert ROLLCRAFT.review_when(en, choose) == "Round 4, roll 1 (grey 8, white 3):"
    assert ROLLCRAFT.review_when(ar, choose) == "الجولة 4، الرمية 1 (الرمادي 8، الأبيض 3):"
    assert ROLLCRAFT.review_when(en, {"kind": "prepare", "round": 2, "roll": 3, "dice": [["pink", 6]]}) == \
        "Round 2, before roll 3 (pink 6):"
    assert ROLLCRAFT.review_when(en, {"kind": "passive", "round": 5, "dice": [["blue", 2], ["green", 1]]}) == \
        "Round 5, passive choice (blue 2, green 1):"
    assert ROLLCRAFT.review_when(en, {"kind": "plus", "round": 6, "dice": []}) == "Round 6, +1 window:"
    assert ROLLCRAFT.review_when(en, {"kind": "bonus", "round": 3, "bonus": "question:yellow"}) == \
        "Round 3, yellow question mark:"
    assert ROLLCRAFT.describe_move(en, "take grey none") == "grey → empty choice"
    assert ROLLCRAFT.review_detail({"kind": "plus", "round": 6}) == ""  # the dice are in the words above
