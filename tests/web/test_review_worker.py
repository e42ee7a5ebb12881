"""The review of a finished game computed in the AI worker (issue 30, items 2 and 3), the whole app
on the fake page: "reviewing…" until the worker answers, then the review drawn once; kept per
record (drawing again, picking a seat or opening the same game's replay asks nothing more); the
worker unable to answer said in words, with Retry, and nothing computed on the main thread; the
label of how sure the grades are in five languages (and each mistake tagged when a review mixes
exact and estimated grades); the review beside a replay from History, each mistake a button that
shows the board before it; from the results screen, a mistake opens that same replay view."""

from __future__ import annotations

import asyncio

import pytest
from dicehall import reviewing
from dicehall.i18n import Catalog
from dicehall.screens import replay as replay_screen
from dicehall.widgets import review as review_widget
from fakehost import run
from fakepage import FakePage
from support import LANGS, load_catalog
from test_replay import finished, open_from_history

from pygame_core.games.penta import solver

pytestmark = pytest.mark.usefixtures("instant_sleep")


async def settle_a_little(page: FakePage, rounds: int = 50) -> None:
    """Let the app's tasks run a while without waiting for them all (a held review never ends)."""
    for _ in range(rounds):
        while page.events:
            page.events.pop(0)()
        await asyncio.sleep(0)


def mistakes(page: FakePage) -> list:
    return [el for el in page.app.walk() if el.testid == "review-mistake"]


def test_loading_until_the_worker_answers_then_the_review_once_and_kept():
    async def steps():
        page = FakePage(lang="en", seed=5)
        await page.boot()
        record = await finished(page, "penta")
        page.review_gate = asyncio.Event()
        page.click("review-open")
        await settle_a_little(page)
        assert page.has("review-loading") and not page.has("review-table")
        assert page.text("review-loading").strip() == load_catalog("en")["review.loading"]
        assert page.reviews_asked == ["penta"]
        draws = page.draws
        page.review_gate.set()
        await page.idle()
        assert page.draws == draws + 1  # the answer drawn once
        assert not page.has("review-loading")
        want = solver.review(record)
        for s, seat in enumerate(want["seats"]):
            assert float(page.find(f"review-loss-{s}").get("data-loss")) == pytest.approx(seat["total_loss"], abs=1e-3)
        # Drawing again (a seat picked, everyone again, another screen and back) asks nothing more.
        await page.tap("review-seat-1")
        await page.tap("review-seat-all")
        await page.tap("nav-settings")
        page.go("#/play", False)
        await page.idle()
        assert page.has("review-table")
        assert page.reviews_asked == ["penta"]
        assert not page.errors

    run(steps)


def test_the_worker_unable_to_answer_is_said_in_words_with_retry():
    async def steps():
        page = FakePage(lang="pl", seed=6)
        await page.boot()
        await finished(page, "penta")
        page.worker_down = True
        await page.tap("review-open")
        assert page.text("review-unavailable").strip() == load_catalog("pl")["review.unavailable"]
        assert not page.has("review-table") and not page.has("review-loading")
        await page.tap("nav-settings")  # drawn again: said again, not asked again
        page.go("#/play", False)
        await page.idle()
        assert page.has("review-unavailable") and page.reviews_asked == ["penta"]
        page.worker_down = False
        await page.tap("review-retry")
        assert page.has("review-table") and not page.has("review-unavailable")
        assert page.reviews_asked == ["penta", "penta"]
        assert not page.errors

    run(steps)


CERTAIN = {"exact": True, "estimate": False}


def crafted(kind: str) -> dict:
    """A two-seat review whose decisions are all exact, none, or one of each."""
    flags = {"exact": (True, True), "estimate": (False, False), "mixed": (True, False)}[kind]
    seats = []
    for s, flag in enumerate(flags):
        d = {"index": 2 + s, "move": "a", "value": 10.0, "best": "b", "best_value": 12.5, "loss": 2.5, "exact": flag}
        seats.append({"seat": s, "total_loss": 2.5, "mean_loss": 2.5, "score": 10, "curve": [0.0, 10.0],
                      "decisions": [d], "mistakes": [d]})
    return {"complete": True, "certainty": kind, "seats": seats}


@pytest.mark.parametrize("lang", LANGS)
def test_the_certainty_label_and_the_tags_of_a_mixed_review_in_every_language(lang):
    from fakepage import parse
    words = load_catalog(lang)
    t = Catalog(lang, words)
    seats = [{"name": "Ann", "symbol": "●"}, {"name": "Bo", "symbol": "▲"}]
    for kind in ("exact", "estimate", "mixed"):
        for given in (kind, None):  # said by the review, or worked out from each decision
            result = crafted(kind)
            if given is None:
                del result["certainty"]
            html = review_widget.review_section(
                t, seats, result, status="ready", is_open=True, chosen=None, describe=str, fmt=lambda v: f"{v:.1f}",
                when=lambda d: "", detail=lambda d: "", texts={"intro": "i", "loss_help": "h", "plot": "p"})
            root = parse(html)
            label = next(el for el in root.walk() if el.testid == "review-certainty")
            assert label.get("data-certainty") == kind
            assert label.text().strip() == words[f"review.certainty.{kind}"]
            tags = [el for el in root.walk() if el.testid == "review-tag"]
            if kind == "mixed":  # each mistake says how sure its grade is
                assert [el.get("data-certainty") for el in tags] == ["exact", "estimate"]
                assert [el.text().strip() for el in tags] == [words["review.tag.exact"], words["review.tag.estimate"]]
            else:
                assert tags == []


def test_a_review_that_does_not_say_how_sure_it_is_has_no_label():
    result = crafted("exact")
    del result["certainty"]
    for seat in result["seats"]:
        del seat["decisions"][0]["exact"]
    assert review_widget.certainty(result) is None


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_review_beside_a_replay_and_a_mistake_showing_its_move(lang):
    """From History: the replay's review (asked of the worker), each mistake a button; its move
    shown is the position before it (the record replayed to it), from the top of the screen, and
    the mistake is said under the position."""
    async def steps():
        page = FakePage(lang=lang, seed=7)
        await page.boot()
        record = await finished(page, "penta")
        entry_id = await open_from_history(page)
        assert page.has("review-open") and not page.has("review-table")
        await page.tap("review-open")
        assert page.has("review-table") and page.reviews_asked == ["penta"]
        want = solver.review(record)
        listed = mistakes(page)
        assert listed, "a greedy game of Penta gives some points away"
        first = listed[0]
        index = int(first.get("data-index"))
        assert index == want["seats"][int(first.get("data-seat"))]["mistakes"][0]["index"]
        moment = page.shell.moment
        await page.tap(f"review-show-{index}")
        assert page.location == f"#/replay/{entry_id}/{index}"
        ctx = replay_screen.DRAWN[page.shell]
        assert ctx.index == index
        assert ctx.state.to_json() == record.replay(index).to_json()  # the board before the mistake
        assert page.shell.moment != moment  # a new moment: drawn from the top, the board in view
        here = page.find("review-here")
        assert here.get("data-seat") == first.get("data-seat")
        assert page.find(f"review-show-{index}").get("aria-current") == "step"
        await page.tap("replay-next")  # stepping on keeps the review open, and asks nothing more
        assert page.has("review-table") and not page.has("review-here")
        assert page.reviews_asked == ["penta"]
        assert not page.errors

    run(steps)


def test_from_the_results_a_mistake_opens_the_same_replay_view_without_asking_again():
    async def steps():
        page = FakePage(lang="en", seed=9)
        await page.boot()
        record = await finished(page, "penta")
        await page.tap("review-open")
        assert not page.has("review-note")  # History keeps this game: no word of why not
        index = int(mistakes(page)[0].get("data-index"))
        await page.tap(f"review-show-{index}")
        assert page.screen == "replay" and page.location.endswith(f"/{index}")
        assert page.has("review-table") and page.has("review-here")
        assert replay_screen.DRAWN[page.shell].state.to_json() == record.replay(index).to_json()
        assert page.reviews_asked == ["penta"]  # the same game: the review the results had
        page.go("#/play", False)  # back to the results: the whole review beside the replay, from its start
        await page.idle()
        await page.tap("review-in-replay")
        assert page.screen == "replay" and page.location.endswith("/0") and page.has("review-table")
        assert page.reviews_asked == ["penta"]
        assert not page.errors

    run(steps)


def test_a_game_history_does_not_keep_is_reviewed_on_the_results_screen_and_says_why():
    async def steps():
        page = FakePage(lang="sv", seed=10)
        await page.boot()
        await finished(page, "penta")
        page.browser.items.pop("dicehall.replays")  # (as a guest's game, or one over the cap)
        await page.tap("review-open")
        assert page.has("review-table")
        assert page.text("review-note").strip() == load_catalog("sv")["review.not_kept"]
        assert not [el for el in page.app.walk() if (el.testid or "").startswith("review-show-")]
        assert not page.has("review-in-replay")
        assert not page.errors

    run(steps)


def test_the_reviews_are_kept_per_record_and_a_take_back_is_another_record():
    from pygame_core.ai import self_play

    class App:  # what reviewing.Reviews needs of the shell
        shown = "results"
        renders = 0

        def __init__(self):
            self.page = FakePage()
            self.tasks = []

        def later(self, coro):
            task = asyncio.ensure_future(coro)
            self.tasks.append(task)
            return task

        def render(self):
            self.renders += 1

        def log_error(self, text):
            raise AssertionError(text)

    async def steps():
        app = App()
        reviews = reviewing.of(app)
        record = self_play("penta", ["greedy", "greedy"], seed=3)[0]
        assert reviews.get(record) == ("loading", None)
        assert reviews.get(record) == ("loading", None)  # asked once
        await asyncio.gather(*app.tasks)
        assert reviews.get(record)[0] == "ready" and app.renders == 1 and app.page.reviews_asked == ["penta"]
        same = type(record).from_json(record.to_json())  # the same game, another object
        assert reviews.get(same)[0] == "ready"
        record.moves.pop()  # taken back: another record
        assert reviews.get(record) == ("loading", None)
        await asyncio.gather(*app.tasks)
        assert app.page.reviews_asked == ["penta", "penta"]

    run(steps)
