"""Issue 29, item 7 at 360x740 in Chromium: Home shows all five games at once (every game's "New
game" button inside the viewport without scrolling, touch targets at least 44 px, nothing wider
than the screen), in English, Polish and Arabic; Settings' "Advanced" fold opens from the
keyboard; Cephalopod draws its seats' symbols in the pieces' ink, not in red and blue (ruling in
web/dicehall/games/cephalopod/view.py). axe finds no serious violation on Home or on Settings
with the fold open."""

from __future__ import annotations

import pytest
from dicehall_browser import axe_violations, catalog, no_raw_text, open_app, tid

from support import mid_game_table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

PHONE = {"width": 360, "height": 740}
GAMES = ("penta", "rolf", "geekout", "rollcraft", "cephalopod")
FAST = {"animations": False, "autofill": False, "offline_noted": True}

RECTS_JS = """ids => ids.map(id => {
  const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
  return [id, Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom), Math.round(r.height)];
})"""


@pytest.mark.parametrize("lang", ["en", "pl", "ar"])
def test_every_game_can_be_started_from_home_without_scrolling(site, page, lang):
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "lang": lang})
    page.wait_for_selector(tid("new-cephalopod"))
    games = page.evaluate("() => [...document.querySelectorAll('.games [data-game]')].map(li => li.dataset.game)")
    assert sorted(games) == sorted(GAMES)
    rects = page.evaluate(RECTS_JS, [f"new-{g}" for g in games] + [f"rules-{g}" for g in games])
    assert page.evaluate("scrollY") == 0
    for testid, left, top, right, bottom, height in rects:
        assert 0 <= left and right <= PHONE["width"], (lang, testid, left, right)
        assert 0 <= top and bottom <= PHONE["height"], (lang, testid, top, bottom)  # in view, unscrolled
        assert height >= 44, (lang, testid, height)
    # each game's title is in view too, and the words are whole (no raw key, nothing spilling)
    titles = page.evaluate("""() => [...document.querySelectorAll('.games h3')]
        .map(h => [h.textContent, Math.round(h.getBoundingClientRect().bottom), h.scrollWidth - h.clientWidth])""")
    assert len(titles) == 5
    assert all(bottom <= PHONE["height"] and spill <= 0 for _, bottom, spill in titles), titles
    no_raw_text(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert axe_violations(page) == [], lang


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_advanced_fold_opens_from_the_keyboard(site, page, lang):
    page.set_viewport_size(PHONE)
    open_app(page, site, {**FAST, "lang": lang})
    page.evaluate("() => { location.hash = '#/settings'; }")
    page.wait_for_selector(tid("settings-advanced"))
    assert not page.is_visible(tid("set-room-server"))  # folded
    summary = page.locator(tid("settings-advanced-summary"))
    assert summary.inner_text().strip() == catalog(lang)["settings.advanced"]
    assert summary.bounding_box()["height"] >= 44
    # the native open/closed triangle shows: the summary stays a list item
    assert page.evaluate("s => getComputedStyle(s).display", summary.element_handle()) == "list-item"
    summary.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(tid("set-room-server"), state="visible")
    assert page.is_visible(tid("set-room-ice"))
    page.keyboard.press("Space")  # and closes again
    page.wait_for_selector(tid("set-room-server"), state="hidden")
    page.keyboard.press("Space")
    page.wait_for_selector(tid("set-room-server"), state="visible")
    no_raw_text(page)
    assert axe_violations(page) == [], lang


def test_cephalopod_symbols_are_drawn_in_the_pieces_ink(site, page):
    page.set_viewport_size(PHONE)
    table = mid_game_table("cephalopod")
    table.seats[0]["symbol"], table.seats[1]["symbol"] = "▲", "●"  # blue and red elsewhere in the app
    open_app(page, site, {**FAST, "lang": "en"}, table=table.dumps())
    page.wait_for_selector(tid("colour-1"))
    seen = page.evaluate("""() => {
      const colour = el => getComputedStyle(el).color;
      const seatColours = [0, 1, 2, 3, 4].map(i => {
        const probe = document.createElement('span'); probe.className = 'seat-' + i; document.body.append(probe);
        const c = colour(probe); probe.remove(); return c; });
      const play = document.querySelector('[data-game="cephalopod"]');
      const syms = [...play.querySelectorAll('.sym')].map(s => [colour(s), colour(s.parentElement)]);
      const dice = [...play.querySelectorAll('.square.die')].map(d => [d.classList.contains('white') ? 'white' : 'black',
        colour(d.querySelector('.sym')), colour(d), getComputedStyle(d).backgroundColor]);
      const pieces = [0, 1].map(s => {
        const p = document.querySelector(`[data-testid="colour-${s}"] .ceph-piece`);
        return [p.textContent, getComputedStyle(p).backgroundColor, colour(p)]; });
      return {seatColours, syms, dice, pieces};
    }""")
    seat_colours = set(seen["seatColours"])
    assert seen["syms"], "no symbol on the play screen"
    for sym, parent in seen["syms"]:  # chips, banners, board: the ink of what holds them
        assert sym == parent and sym not in seat_colours, (sym, parent)
    backgrounds = {piece: bg for piece, _, _, bg in seen["dice"]}
    assert set(backgrounds) == {"white", "black"} and backgrounds["white"] != backgrounds["black"]
    for piece, sym, ink, _bg in seen["dice"]:
        assert sym == ink, (piece, sym, ink)
    (white_symbol, white_bg, _), (black_symbol, black_bg, _) = seen["pieces"]
    assert (white_symbol, black_symbol) == ("▲", "●")
    assert (white_bg, black_bg) == (backgrounds["white"], backgrounds["black"])  # the legend's pieces are the board's
    legend = page.inner_text(tid("colour-0")) + " " + page.inner_text(tid("colour-1"))
    assert "White" in legend and "Black" in legend


def test_cephalopod_results_draw_symbols_and_curves_in_ink(site, page):
    """The results screen too (its table, plot, legend and standings were red and blue)."""
    from pygame_core.ai import self_play
    from pygame_core.match import Match
    from pygame_core.table import Table

    page.set_viewport_size(PHONE)
    record, _ = self_play("cephalopod", ["easy", "easy"], 3)
    table = Table("cephalopod", [{"name": "Ann", "symbol": "▲", "ai": None}, {"name": "Bo", "symbol": "●", "ai": None}])
    table.match = Match.new("cephalopod", record.options)
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    open_app(page, site, {**FAST, "lang": "en"}, table=table.dumps())
    page.wait_for_selector(tid("results"))
    seen = page.evaluate("""() => {
      const colour = el => getComputedStyle(el).color;
      const seatColours = [0, 1, 2, 3, 4].map(i => {
        const probe = document.createElement('span'); probe.className = 'seat-' + i; document.body.append(probe);
        const c = colour(probe); probe.remove(); return c; });
      const results = document.querySelector('[data-testid="results"]');
      return {seatColours, syms: [...results.querySelectorAll('.sym')].map(colour),
              curves: [...results.querySelectorAll('.plot g[class^="seat-"]')].map(colour)};
    }""")
    assert seen["syms"] and seen["curves"]
    assert not set(seen["syms"] + seen["curves"]) & set(seen["seatColours"]), seen
