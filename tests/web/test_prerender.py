"""The screens the build draws for a first visit (dicehall/prerender.py, painted by web/early.js
before Python) are exactly what the shell draws for a new player at the same address, in every
language and for every registered game; and every control early.js keeps a tap or a value for
can be found again on the shell's screen."""

from __future__ import annotations

import asyncio
import json

import pytest
from dicehall import prerender
from fakehost import run
from fakepage import FakePage, catalogs, parse
from support import LANGS

from pygame_core.registry import entries

pytestmark = pytest.mark.usefixtures("instant_sleep")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """dist/i18n/ as the build writes it (catalogs only: all the drawing needs)."""
    dist = tmp_path_factory.mktemp("prerender")
    for rel, data in catalogs().items():
        path = dist / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return dist


@pytest.mark.parametrize("lang", LANGS)
def test_the_build_draws_what_the_shell_draws_for_a_new_player(built, lang):
    drawn = asyncio.run(prerender.screens(built, lang))
    assert set(drawn["screens"]) == {"#/home", *(f"#/{kind}/{game}" for game in entries() for kind in ("setup", "rules"))}
    assert drawn["dir"] == ("rtl" if lang == "ar" else "ltr") and drawn["title"]
    assert set(drawn["boot"]) == set(prerender.BOOT_KEYS)
    for route, screen in drawn["screens"].items():
        page = FakePage(hash_=route, languages=(lang,))
        run(page.boot)
        assert (page.screen, page.html) == (screen["screen"], screen["html"]), route
        page.close()


def test_every_control_a_tap_is_kept_for_has_a_testid(built):
    """early.js finds a kept tap's control again by its data-testid (a bare data-action may match
    another control), so every control it would keep a tap for has one."""
    drawn = asyncio.run(prerender.screens(built, "en"))
    for route, screen in drawn["screens"].items():
        for el in parse(screen["html"]).walk():
            if el.get("data-action") or el.get("data-field"):
                assert el.testid, (route, el)


@pytest.mark.parametrize("game", sorted(entries()))
def test_a_start_kept_before_python_is_done_before_the_first_screen_which_is_the_new_table(game):
    """Start tapped on the build's set-up before Python (web/early.js keeps it): the shell takes
    it before its first screen and starts the game, so it draws once, the table, never the
    set-up; the address is the table's, changed quietly (no second draw for it)."""
    page = FakePage(hash_=f"#/setup/{game}")
    page.kept_taps = ["start-game"]
    run(page.boot)
    assert page.kept_taps == [] and page.draws == 1 and page.screen == "play"
    assert page.location == "#/play" and page.shell.play.table.game == game
    assert json.loads(page.browser.items["dicehall.table"])["game"] == game  # saved as a started game
    assert not page.errors
    page.close()


@pytest.mark.parametrize("kept", [["seats-3", "start-game"], ["start-game", "start-game"], ["rules-back"]])
def test_anything_else_kept_before_python_is_handed_over_on_the_set_up_the_shell_draws(kept):
    """More than that Start (a seat count before it, say), or another tap: the shell draws the
    set-up first and the page hands over what it kept (early.js handOff), as before."""
    page = FakePage(hash_="#/setup/rolf")
    page.kept_taps = list(kept)
    run(page.boot)
    assert page.kept_taps == kept and page.screen == "setup" and not page.shell.play.running
    page.close()
