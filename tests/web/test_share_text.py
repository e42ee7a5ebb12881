"""The shared result (Share on Results) is plain text (issue 29, item 7): no invisible bidi
isolation marks (U+2066-U+2069) nor other bidi controls, even from a name that carried one, while
the screen still isolates every name in the DOM (<bdi>). The real shell on a fake page."""

from __future__ import annotations

import pytest

from fakehost import run
from fakepage import FakePage
from pygame_core.ai import self_play

pytestmark = pytest.mark.usefixtures("instant_sleep")

BIDI_CONTROLS = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("share", ["shared", "unavailable"])
def test_the_shared_result_carries_no_bidi_marks(lang, share):
    async def steps():
        record, _ = self_play("penta", ["greedy", "greedy"], seed=4)
        page = FakePage(lang=lang, settings={"offline_noted": True})
        await page.boot()
        await page.choose_file(record.dumps())
        assert page.screen == "results"
        table = page.table()
        page.share_answer = share  # the share sheet, else the clipboard
        await page.tap("share-result")
        text = page.shared[-1] if share == "shared" else page.copied[-1]
        assert not set(text) & BIDI_CONTROLS, repr(text)
        scores = table.state.scores()
        assert all(f"{table.seats[s]['name']} {scores[s]}" in text for s in range(2)), text
        # on the screen the names stay isolated, by the DOM
        winners = page.find("winners")
        assert any(el.tag == "bdi" for el in winners.walk())
        assert not page.errors
    run(steps)


def test_a_name_s_own_bidi_override_does_not_travel():
    async def steps():
        record, _ = self_play("penta", ["greedy", "greedy"], seed=4)
        page = FakePage(lang="en", settings={"offline_noted": True})
        await page.boot()
        await page.choose_file(record.dumps())
        page.shell.play.table.seats[0]["name"] = "\u202eAnn"  # as if typed with an override
        page.share_answer = "shared"
        await page.tap("share-result")
        assert "Ann" in page.shared[-1] and not set(page.shared[-1]) & BIDI_CONTROLS
    run(steps)
