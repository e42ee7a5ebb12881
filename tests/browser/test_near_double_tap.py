"""One move per physical tap in Chromium (issue 28, item 5): a near double click — two mouse
clicks 100 ms and 16 px apart — on Penta's Roll makes one roll; a click on a die 100 ms after
a click on Roll holds nothing; taps at a person's pace act. Each click has detail 1 (Chromium
counts a double click only on nearly the same spot), so only the time rule stops them.

The rule's cases (slow drawing, a tap handed over late, keys) run under CPython on the fake page:
tests/web/test_taps.py.
"""

from __future__ import annotations

import random
import time

import pytest

from dicehall_browser import REACT_MS, open_app, saved_table, tap, tid
from pygame_core.table import Table

pytestmark = pytest.mark.browser

SETTINGS = {"animations": False, "autofill": False, "pace": "fast"}
# Every click as the app's listener gets it: its own time, detail and target, and the time its
# handling ended (a window listener runs after the app's, which is on the document).
RECORD_CLICKS_JS = """() => {
  window.__clicks = [];
  document.addEventListener('click', e => {
    const el = e.target.closest && e.target.closest('[data-action]');
    window.__clicks.push({at: e.timeStamp, detail: e.detail, x: e.clientX, action: el && el.dataset.action,
                          arg: el && el.dataset.arg, disabled: !!(el && el.disabled), handed: performance.now()});
  }, true);
  window.addEventListener('click', () => { window.__clicks.at(-1).done = performance.now(); });
}"""


def rolls(page) -> int:
    return int(page.get_attribute(".penta-board", "data-rolls"))


def near_double_click(page, selector: str, second: str | None = None, apart_ms: int = 100) -> list[dict]:
    """Two mouse clicks, the second `apart_ms` after the first, 16 px apart: on `selector`'s middle
    -8 px and +8 px (or the second on the middle of `second`). Real input through Chromium's
    input pipeline (DevTools' Input.dispatchMouseEvent), each with the time a finger would give
    it (pressed, released 30 ms later), so a busy test machine cannot spread them apart: the
    page gets them as they come, with their own times. Returns what the page recorded."""
    def middle(sel: str) -> tuple[float, float]:
        box = page.locator(sel).bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.evaluate("window.__clicks = []")
    x, y = middle(selector)
    spots = [(x - 8, y), (x + 8, y)] if second is None else [(x, y), middle(second)]
    cdp = page.context.new_cdp_session(page)
    start = time.time()
    for k, (cx, cy) in enumerate(spots):
        for kind, after_s in (("mousePressed", 0), ("mouseReleased", 0.03)):
            cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": cx, "y": cy, "button": "left", "clickCount": 1,
                                                  "timestamp": start + k * apart_ms / 1000 + after_s})
    cdp.detach()
    page.wait_for_timeout(REACT_MS + 200)  # whatever the clicks do is done
    return page.evaluate("window.__clicks")


def test_a_near_double_click_on_roll_rolls_once_and_a_quick_tap_on_a_die_holds_nothing(site, page):
    table = Table("penta", [{"name": "Ann", "symbol": "●", "ai": None}])
    table.new_game(random.Random(4))
    open_app(page, site, SETTINGS, table=table.dumps())
    page.wait_for_selector(f"{tid('roll')}:enabled")
    page.evaluate(RECORD_CLICKS_JS)

    clicks = near_double_click(page, tid("roll"))
    first, second = clicks
    print(f"near double click on Roll: {second['x'] - first['x']:.0f} px apart, detail {first['detail']} and "
          f"{second['detail']}, {second['at'] - first['at']:.0f} ms apart; the first handled in "
          f"{first['done'] - first['handed']:.0f} ms, the second handed over "
          f"{second['handed'] - second['at']:.0f} ms after it happened, {second['at'] - first['done']:.0f} ms "
          f"after the first's draw")
    # What makes this a test of the time rule: both clicks reached the app on an enabled Roll,
    # neither counted as a double click, and the second came 100 ms after the first.
    assert [c["action"] for c in clicks] == ["roll", "roll"] and not any(c["disabled"] for c in clicks)
    assert [c["detail"] for c in clicks] == [1, 1] and second["x"] - first["x"] == 16
    assert second["at"] - first["at"] == pytest.approx(100, abs=2)
    assert rolls(page) == 1 and len(saved_table(page).record.moves) == 1  # one roll

    clicks = near_double_click(page, tid("roll"), second=tid("die-0"))  # Roll, then a die at once
    assert [c["action"] for c in clicks] == ["roll", "toggle"] and not any(c["disabled"] for c in clicks)
    assert clicks[1]["at"] - clicks[0]["at"] == pytest.approx(100, abs=2)
    assert rolls(page) == 2
    assert page.get_attribute(tid("die-0"), "aria-pressed") != "true"  # the quick tap held nothing

    tap(page, tid("die-0"))  # at a person's pace every tap acts
    assert page.get_attribute(tid("die-0"), "aria-pressed") == "true"
    tap(page, tid("roll"))
    page.wait_for_function("() => document.querySelector('.penta-board').dataset.rolls === '3'")
    moves = saved_table(page).record.moves
    # the throws, each after Roll's keep: nothing kept, then the held die kept
    assert [m.split(" ")[0] for _, m in moves] == ["roll", "keep", "roll", "keep", "roll"]
    assert moves[1][1] == "keep" and moves[3][1] != "keep"
