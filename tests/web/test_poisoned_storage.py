"""Nothing stored can stop the app (issue 28): for every key a player's phone holds — settings,
remembered set-ups, the running table and its view state, parked tables, History, the hosted
room and the room joined — each field of a sound value (and the value itself) is replaced by each
poison (a list, an object, a long string, 1e999, -1e999, NaN, a 400-digit number, true, null,
1.5, 40 levels of nesting). Every time the app starts and draws with no traceback; the sound game
beside the poison resumes and is never condemned; what its check refused is set aside, said, and
offered in Settings; and Home, a set-up and History still open without an error.
A CPython test (the whole shell on tests/web/fakepage.py); the browser's own part (PyScript
painting a traceback) is tests/browser/test_poisoned_keys.py (the poisons: tests/poisons.py)."""

from __future__ import annotations

import json

import pytest
from dicehall.rooms import MemoryTransport
from fakehost import run
from fakepage import Browser, FakePage
from poisons import POISONS, paths, poisoned, sound_values
from test_catalogs import SHARED

pytestmark = pytest.mark.usefixtures("instant_sleep")

SOUND = sound_values()
EN = SHARED["en"]


@pytest.mark.parametrize("key", list(SOUND))
def test_no_stored_value_stops_the_app(key):
    failures, set_aside = [], []
    for path in paths(SOUND[key]):
        for poison in POISONS:
            browser = Browser()
            for other, value in SOUND.items():
                browser.items[other] = json.dumps(value)
            browser.items[key] = json.dumps(poisoned(SOUND[key], path, poison))  # NaN, Infinity: JS's JSON would refuse them; a tampered key need not
            # (a guest's room is read on its join link: the page reloaded there)
            page = FakePage(browser, strict=False, hash_="#/join/dice-abcdefghijklmnop" if key == "dicehall.guest" else "#/play")
            try:
                run(lambda: page.boot(transport=MemoryTransport()))  # (the hosted room opens on it)
                assert page.ready and page.screen and "Traceback" not in page.html
                if key != "dicehall.table":  # the sound game beside the poison resumes, never condemned
                    assert page.screen in (("join", "play") if key == "dicehall.guest" else ("play",)), page.screen
                    assert page.shell.life.broken_save is None and page.table().game == "penta"
                for testid in ("nav-home", "new-penta", "nav-home", "nav-history"):
                    if page.has(testid):
                        page.click(testid)
                        run(page.idle)
                        assert "Traceback" not in page.html and not page.errors, (testid, page.errors[:1])
                assert page.screen in ("home", "history", "broken"), page.screen
                aside = page.shell.store.aside()
                assert set(aside) <= {key}, set(aside)  # only the poisoned value is set aside
                if aside:  # said, in words, and offered for Export in Settings
                    set_aside.append(key)
                    assert any(EN["aside.said"].split("{what}")[0] in toast for toast in page.toasts), page.toasts
                    if page.has("nav-settings"):
                        page.click("nav-settings")
                        run(page.idle)
                        assert page.has("set-aside") and page.has("aside-export")
            except Exception as err:  # noqa: BLE001 - every case is reported, not only the first
                failures.append((path, repr(poison)[:24], f"{type(err).__name__}: {str(err)[:120]}"))
            finally:
                page.close()
    assert not failures, failures[:10]
    # Every key but the table (its own screen, with Export) has poisons its check sets aside.
    assert set_aside or key == "dicehall.table"
