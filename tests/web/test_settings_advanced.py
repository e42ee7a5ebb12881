"""Settings folds the rooms' meeting server and STUN/TURN fields under "Advanced" (issue 29, item 7):
a native <details> whose summary is its first child (so a tap, Enter or Space opens it), closed
while both fields are empty, open when one holds a value, its summary in every language. The real
shell on a fake page; what the fold looks like at 360 px is tests/browser/test_home_compact.py's."""

from __future__ import annotations

import pytest

from fakehost import run
from fakepage import FakePage
from support import LANGS, load_catalog

pytestmark = pytest.mark.usefixtures("instant_sleep")


def fold(page: FakePage):
    return page.find("settings-advanced")


@pytest.mark.parametrize("lang", LANGS)
def test_the_rooms_servers_are_folded_under_advanced_in_every_language(lang):
    async def steps():
        page = FakePage(lang=lang, settings={"offline_noted": True})
        await page.boot()
        await page.tap("nav-settings")
        details = fold(page)
        assert details.tag == "details" and "open" not in details.attrs  # folded while unused
        summary = details.children[0]
        assert summary.tag == "summary" and summary.testid == "settings-advanced-summary"
        assert " ".join(summary.text().split()) == load_catalog(lang)["settings.advanced"]
        inside = {el.testid for el in details.walk() if el.testid}
        assert {"set-room-server", "set-room-ice"} <= inside
        # nothing else of Settings is folded away with them
        assert page.has("set-lang") and "set-lang" not in inside and "set-pace" not in inside
        assert not page.errors
    run(steps)


def test_the_fold_is_drawn_open_when_a_server_is_set():
    async def steps():
        page = FakePage(lang="en", settings={"offline_noted": True})
        await page.boot()
        await page.tap("nav-settings")
        await page.type("set-room-ice", "stun:stun.example.org:3478")
        page.shell.render()  # any redraw (a language switch, a toast's end) keeps it open now
        assert "open" in fold(page).attrs
        assert fold(page).testid == "settings-advanced"
        assert page.find("set-room-ice").get("value") == "stun:stun.example.org:3478"
        page = page.reload()  # and after a reload
        page.location = "#/settings"
        await page.boot()
        assert "open" in fold(page).attrs
        assert not page.errors
    run(steps)


def test_the_fold_stays_as_the_person_left_it_through_redraws():
    """Opened while both fields are empty, it stayed open only until the next redraw (a toast's
    end, a language switch) and closed under the person's thumb; closed with a value set, it
    opened again. Now a redraw keeps what the person chose on this visit."""
    async def steps():
        page = FakePage(lang="en", settings={"offline_noted": True})
        await page.boot()
        await page.tap("nav-settings")
        assert "open" not in fold(page).attrs
        await page.tap("settings-advanced-summary")
        assert "open" in fold(page).attrs
        page.shell.render()
        assert "open" in fold(page).attrs  # still open, though both fields are empty
        await page.type("set-room-ice", "stun:stun.example.org:3478")
        await page.tap("settings-advanced-summary")
        page.shell.render()
        assert "open" not in fold(page).attrs  # closed by the person, though a field holds a value
        assert not page.errors
    run(steps)
