"""The computer's turns narrated on a 360×740 phone (issue 29, item 3), at the slow pace, in
English, Polish and Arabic: a computer's Geek Out action shows its words on the prompt with the acting
die and its target marked; a computer's Rolf throw is said and each square it takes is marked
before it is taken; then, before the person throws, the tray says whose last
throw its dice are (no "Three different: two placements") while the board keeps that throw's
squares marked. axe finds no serious violation; nothing spills. The same steps, move by move and
in every game, are checked under CPython (tests/web/test_narration.py).

Screenshots: /tmp/shots/narration/<game>-<step>-<lang>.png
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from dicehall_browser import axe_violations, catalog, no_raw_text, open_app, tid

from pygame_core.table import Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

PHONE = {"width": 360, "height": 740}
SLOW = {"animations": False, "autofill": False, "pace": "slow"}
SHOTS = Path("/tmp/shots/narration")
MOVE_KEYS = {"meeple": "geekout.move.meeple", "hero": "geekout.move.hero", "ship": "geekout.move.ship"}
FACE_KEYS = {"meeple": "geekout.face.meeple", "hero": "geekout.face.hero", "heart": "geekout.face.heart",
             "42": "geekout.face.42", "dragon": "geekout.face.dragon", "ship": "geekout.face.ship"}


def computer_first(game: str, level: str) -> str:
    """A new table of `game` where the computer (Bo, seat 1) starts and Ann (a person) follows."""
    table = Table(game, [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": level}])
    table.start_seats = [0]  # the next game starts with the next seat: Bo
    table.new_game(random.Random(3))
    assert table.state.current_players() == [-1] and table.state.roller() == 1
    return table.dumps()


def plain(text: str | None) -> str:
    """Words without the isolation marks the catalog may put around a name (U+2068, U+2069)."""
    return (text or "").replace("\u2068", "").replace("\u2069", "").strip()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def snapshot_when(page, js: str, timeout: float = 90000) -> dict:
    """The first page state (as `js` returns it, null while not there yet) seen, polling often:
    a computer's step stays up for the slow pace (1.2 s), so it is caught while it shows."""
    return page.wait_for_function(js, polling=40, timeout=timeout).json_value()


GEEKOUT_STEP_JS = """() => {
  const acting = document.querySelector('.gk-die.acting');
  if (!acting) return null;
  const prompt = document.querySelector('[data-testid=prompt]');
  return {seat: prompt.dataset.seat, words: prompt.querySelector(':scope > span:not(.sym):not([aria-hidden])').textContent.trim(),
          spinner: !!prompt.querySelector('.spinner'), actor: acting.dataset.face,
          targets: [...document.querySelectorAll('.gk-die.target')].map(d => d.dataset.face)};
}"""


@pytest.mark.parametrize("lang", ["en", "pl", "ar"])
def test_a_computer_geekout_action_is_said_and_its_dice_marked(site, page, lang):
    t = {**catalog(lang), **catalog(lang, "geekout")}
    page.set_viewport_size(PHONE)
    open_app(page, site, {**SLOW, "lang": lang}, computer_first("geekout", "easy"))
    step = snapshot_when(page, GEEKOUT_STEP_JS)
    shot(page, f"geekout-step-{lang}")
    actor, targets = step["actor"], step["targets"]
    if actor in MOVE_KEYS and targets:
        assert len(targets) == 1, step
        expected = t[MOVE_KEYS[actor]].format(target=t[FACE_KEYS[targets[0]]])
    elif actor == "heart":
        expected, targets = t["geekout.move.heart"], targets or []
        assert targets == [], step
    else:
        expected = t["geekout.move.alone"].format(face=t[FACE_KEYS[actor]])
    assert step["seat"] == "1" and step["words"] == expected and not step["spinner"], (step, expected)
    # The acting die stands out (raised, ringed) and its target is dashed: not colour alone.
    looks = page.evaluate("""() => { const a = document.querySelector('.gk-die.acting'), t = document.querySelector('.gk-die.target');
        return {ring: a ? getComputedStyle(a).outlineStyle : 'gone', dash: t ? getComputedStyle(t).borderTopStyle : 'none'}; }""")
    assert looks["ring"] in ("solid", "gone") and looks["dash"] in ("dashed", "none"), looks
    # The person's turn comes: the prompt is theirs, no spinner, nothing of the computer's left marked.
    page.wait_for_selector('[data-testid=play][data-seat="0"]', timeout=180000)
    prompt = page.locator(tid("prompt"))
    assert prompt.get_attribute("data-seat") == "0" and prompt.locator(".spinner").count() == 0
    assert page.locator(".gk-die.acting, .gk-die.target").count() == 0
    assert page.locator(tid("zone-active")).get_attribute("data-count") == "0"  # no dice passed off as Ann's
    shot(page, f"geekout-person-{lang}")
    no_raw_text(page, "geekout")
    assert axe_violations(page) == []


ROLF_THROW_JS = """(prefix) => {
  const prompt = document.querySelector('[data-testid=prompt]');
  const words = prompt && prompt.querySelector(':scope > span:not(.sym):not([aria-hidden])');
  if (!words || prompt.dataset.seat !== '1' || !words.textContent.includes(prefix)) return null;
  return {words: words.textContent.trim(), dice: [...document.querySelectorAll('.rolf-board .dice .die')].map(d => d.dataset.value)};
}"""
ROLF_TAKE_JS = """() => {
  const sq = document.querySelector('.rolf-board .square.step');
  if (!sq) return null;
  const prompt = document.querySelector('[data-testid=prompt]');
  return {square: sq.dataset.testid, count: document.querySelectorAll('.rolf-board .square.step').length, seat: prompt.dataset.seat,
          words: prompt.querySelector(':scope > span:not(.sym):not([aria-hidden])').textContent.trim(),
          outline: getComputedStyle(sq).outlineStyle};
}"""


@pytest.mark.parametrize("lang", ["en", "pl", "ar"])
def test_a_computer_rolf_throw_and_take_are_said_and_the_tray_is_labelled_before_the_persons_throw(site, page, lang):
    t = {**catalog(lang), **catalog(lang, "rolf")}
    page.set_viewport_size(PHONE)
    open_app(page, site, {**SLOW, "lang": lang}, computer_first("rolf", "greedy"))
    prefix = t["rolf.move.roll"].split("{dice}")[0]
    throw = snapshot_when(page, f"() => ({ROLF_THROW_JS})({prefix!r})")
    shot(page, f"rolf-throw-{lang}")
    dice = " ".join(sorted(throw["dice"]))
    assert throw["words"] in (t["rolf.move.roll"].format(dice=dice), t["rolf.narrate.skipped"].format(dice=dice)), throw
    take = snapshot_when(page, ROLF_TAKE_JS)
    shot(page, f"rolf-take-{lang}")
    square = take["square"].removeprefix("sq-")
    r, c = square.split("-")
    assert take["count"] == 1 and take["seat"] == "1" and take["outline"] == "solid", take
    assert take["words"] == t["rolf.move.take"].format(square=f"\u2066{r}–{c}\u2069"), take  # (isolated left to right)
    # Ann's throw: the tray holds Bo's dice labelled as Bo's last throw, without the shape line;
    # the board keeps the squares of that throw marked; the prompt is Ann's, no spinner.
    page.wait_for_selector('[data-testid=play][data-seat="0"], #app[data-screen="results"]', timeout=180000)
    if page.locator('#app[data-screen="results"]').count():
        # Bo's dice ran on, pair after pair, to the game's end before Ann ever threw: the page's
        # dice vary from run to run, and a clean-clone CI run met it (3-5-5 first; the shell on a
        # fake page, tests/web, ends Bo's first turn so for 1 seed in 150). The throw and the take
        # were said as checked above; there is no tray before a person's throw to check.
        assert page.locator(tid("play")).count() == 0
        return
    label = page.locator(tid("previous-throw"))
    assert label.is_visible() and plain(label.inner_text()) == t["rolf.previous_throw"].format(name="Bo")
    assert label.get_attribute("data-seat") == "1" and page.locator(tid("shape")).count() == 0
    assert plain(page.locator(".rolf-board .dice").get_attribute("aria-label")) == t["rolf.previous_throw"].format(name="Bo")
    # Bo's dice vary from run to run: a last throw with no legal square is skipped, marks nothing
    # and says so on the board (CI once met it).
    skipped = page.locator(tid("skipped")).count() == 1
    assert (page.locator(".rolf-board .square.last").count() == 0) == skipped
    assert page.locator(tid("prompt")).locator(".spinner").count() == 0
    box = page.locator(tid("roll")).bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] + 0.5  # Ann's Throw in view without scrolling
    shot(page, f"rolf-person-{lang}")
    no_raw_text(page, "rolf")
    assert axe_violations(page) == []
