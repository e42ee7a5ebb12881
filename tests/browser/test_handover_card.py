"""The hand-over card only where it helps (issue 29, item 5), at 360×740 in English and Arabic: two
people on one phone get the card between their turns; a reload while it shows brings it back
(never the next person's choice); it stands alone, without the "Play online" block; and with the
Settings switch off, the next person's turn shows at once.

The rest (the stored setting, one person against the computer, an older save) is checked under
CPython on the fake page: tests/web/test_handover.py."""

from __future__ import annotations

import random

import pytest

from dicehall_browser import axe_violations, no_raw_text, open_app, tap, tid, wait_ready
from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

PHONE = {"width": 360, "height": 740}


def two_people() -> str:
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None}])
    table.new_game(random.Random(1))
    return table.dumps()


def play_a_round(page) -> None:
    """The person on the screen rolls, takes Chance and confirms."""
    tap(page, tid("roll"))
    page.wait_for_selector(f'{tid("box-chance")}:enabled')
    tap(page, tid("box-chance"))
    tap(page, tid("confirm"))


def card_alone(page, name: str) -> None:
    """The hand-over card for `name`, whole on the phone's screen, and nothing else of the table."""
    page.wait_for_selector(tid("handover-ok"))
    assert name in page.inner_text(tid("handover"))
    assert page.locator(tid("play")).count() == 0 and page.locator(tid("roll")).count() == 0
    assert page.locator(tid("room-panel")).count() == 0  # no "Play online" block under it
    ok = page.locator(tid("handover-ok")).bounding_box()
    assert ok["y"] >= 0 and ok["y"] + ok["height"] <= PHONE["height"] + 0.5
    assert page.evaluate("document.documentElement.scrollHeight") <= PHONE["height"] + 1  # nothing to scroll to


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_card_survives_a_reload_stands_alone_and_goes_with_the_setting_off(site, page, lang):
    page.set_viewport_size(PHONE)
    open_app(page, site, {"animations": False, "autofill": False, "lang": lang}, two_people())
    page.wait_for_selector(tid("room-panel"))  # the table has its "Play online" block, as before
    play_a_round(page)
    card_alone(page, "Bo")
    no_raw_text(page, "penta")
    if lang == "en":
        assert axe_violations(page) == []

    page.reload()
    wait_ready(page)
    card_alone(page, "Bo")  # the card again, not Bo's board

    tap(page, tid("handover-ok"))
    page.wait_for_selector('[data-testid="play"][data-seat="1"]')  # Bo's turn
    assert page.locator(tid("room-panel")).count() == 1  # back under the table

    # Off in Settings: Ann's turn comes straight after Bo's.
    tap(page, tid("nav-settings"))
    page.wait_for_selector(tid("set-handover"))
    assert page.is_checked(tid("set-handover"))  # on by default
    page.uncheck(tid("set-handover"))
    tap(page, tid("settings-back"))
    page.wait_for_selector(f'{tid("roll")}:enabled')
    play_a_round(page)
    page.wait_for_selector('[data-testid="play"][data-seat="0"]')  # Ann's turn, straight away
    assert page.locator(tid("handover")).count() == 0 and page.is_enabled(tid("roll"))
    assert page.evaluate("JSON.parse(localStorage.getItem('dicehall.settings')).handover") is False
