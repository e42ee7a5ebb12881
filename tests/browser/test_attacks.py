"""Attacking the app where only a browser can tell (issue 7, item 9): game data missing or
damaged on the server (network, service worker, sha256 checks of the data files) never costs the
offline shell. Items 1–8 (two tabs, full storage, tampered keys, crafted record files, double
taps, unknown AI levels, hostile names, huge error messages) run under CPython on the real shell:
tests/web/test_app_attacks.py; the parts of them only a browser shows (a long name on a phone, the
toast's size) are in tests/browser/test_shell.py."""

from __future__ import annotations

import pytest
from dicehall_browser import tid, wait_ready, wait_sw_controlled

pytestmark = pytest.mark.browser


# 9 -----------------------------------------------------------------------------------------
def test_missing_or_damaged_game_data_never_costs_the_offline_shell(make_site, context, page):
    site = make_site()
    values = site.dist / "data" / "penta" / "values.bin"
    kept = values.read_bytes()
    values.unlink()  # the server lost the file: the shell must still install and work offline
    page.goto(site.index)
    wait_ready(page)
    wait_sw_controlled(page)
    page.click(tid("new-penta"))
    page.wait_for_selector(tid("start-game"))
    page.click(tid("start-game"))
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
    context.set_offline(True)
    page.reload()
    wait_ready(page)
    page.wait_for_selector(tid("scorecard"))  # the game resumes offline
    context.set_offline(False)
    values.write_bytes(kept[: len(kept) // 2])  # a truncated copy: refused, not loaded
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
    nan = bytearray(kept)
    nan[32:] = b"\x00\x00\xc0\x7f" * ((len(kept) - 32) // 4)  # NaN everywhere, right size and header
    values.write_bytes(bytes(nan))
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'failed'", timeout=30000)
    values.write_bytes(kept)  # the good file again: it loads
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => document.documentElement.dataset.assetPenta === 'loaded'", timeout=30000)
    assert "Dice Hall needs JavaScript" in page.evaluate("document.querySelector('noscript').textContent")


# Issue 28: stored values no count or field can hold -----------------------------------------
POISONS = {  # the reproductions, each beside a sound unfinished game
    "dicehall.history": '[{"game":[],"id":"a","ended":1,"seats":[]}]',
    "dicehall.settings": '{"lang": [], "animations": false, "autofill": false}',
    "dicehall.parked": None,  # a sound parked Rolf table whose standings hold 1e999 (parked_with_infinity)
    "dicehall.room": '{"format":"dicehall-room","version":1,"chat_count":1e999}',
    "dicehall.setups": '{"penta": [{"name": "A", "symbol": "●", "ai": []}]}',
}


def parked_with_infinity() -> str:
    import json

    from support import mid_game_table

    save = json.loads(mid_game_table("rolf").dumps())
    save["standings"]["points"][0] = "__INF__"
    return json.dumps({"rolf": json.dumps(save).replace('"__INF__"', "1e999")})


@pytest.mark.shared_profile  # (one browser, one test after another: conftest.SharedProfile)
@pytest.mark.parametrize("key", list(POISONS))
def test_a_poisoned_key_beside_a_sound_game_never_stops_the_app_nor_costs_the_game(site, page, key):
    """The app starts, no traceback is painted, the sound game resumes (never offered for
    discard), and Home, a set-up and History still open."""
    from support import mid_game_table

    table = mid_game_table("penta")
    poison = POISONS[key] if POISONS[key] is not None else parked_with_infinity()
    page.goto(site.url + "sw-register.js")  # same origin, no boot: storage first
    page.evaluate("""([t, k, v]) => { localStorage.clear(); localStorage.setItem('dicehall.table', t);
        localStorage.setItem(k, v); }""", [table.dumps(), key, poison])
    page.goto(site.index)
    wait_ready(page)
    page.wait_for_selector(tid("play"))  # the sound game, resumed
    assert not page.locator(tid("save-error")).count() and not page.locator(tid("discard-save")).count()
    for step, shows in (("nav-home", "continue"), ("new-penta", "start-game"), ("nav-home", "nav-history"),
                        ("nav-history", "history-h")):
        page.click(tid(step))
        page.wait_for_selector(f'{tid(shows)}, #{shows}', timeout=30000)
        assert "Traceback" not in page.inner_text("body"), step
