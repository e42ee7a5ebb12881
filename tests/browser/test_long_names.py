"""Issue 28, item 7: long names never break the layout. Every seat is given a 40-character name
with no break in it (wide Latin letters, Arabic letters, an emoji among Cyrillic ones), stored
where names come from (the running table, the parked tables, the remembered set-ups, the hosted
room's guests and chat, an imported record's table); the app caps each at 24 characters, and on a
360x740 phone, in each of the five languages, every screen a name appears on stays inside the
viewport: Home (an unfinished and four parked games), each game's set-up, rules and play screen,
the room panel under the host's table, the hand-over card between two people, Results with
people's bests, History and Settings.

"Inside" is measured two ways: the document is no wider than the viewport (which misses a
right-to-left page spilling leftwards), and no element drawn on the page has a box sticking out
right or left. An element inside a box that clips or scrolls sideways (a scrolling seat bar, a
wide table's scroller, an SVG) is that box's business: the box itself is measured.

One page: the languages are chosen in Settings and the games taken up from Home, as a person
would (a boot per language and game would take minutes). (Where Chromium has no emoji font, as
on the test machine, the emoji is drawn as a missing-glyph box of about the same width.)"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from dicehall_browser import catalog, no_raw_text, open_app, saved_table, tid
from support import LANGS

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.registry import entries, get_entry
from pygame_core.rooms.host import Guest, RoomHost, digest
from pygame_core.table import MAX_NAME, Table

pytestmark = [pytest.mark.browser, pytest.mark.shared_profile]  # (one browser, one test after another: conftest.SharedProfile)

FAST = {"animations": False, "autofill": False}
SYMBOLS = "●▲■◆★"
# Five names of 40 characters, none with a break opportunity a browser would take on its own.
NAMES = (
    "W" * 40,
    "ضشصثق" * 8,  # Arabic letters: one joined word, drawn right to left
    "Ш" * 20 + "🎲" + "Ж" * 19,  # an emoji inside (kept by the 24-character cap)
    "MW" * 20,
    "Ю" * 40,
)
CAPPED = tuple(name[:MAX_NAME] for name in NAMES)  # what the app keeps (pygame_core.table.MAX_NAME)
GAMES = sorted((g for g in entries() if g != "claim"), key=lambda g: g != "cephalopod")  # two people first
ROOM_GUESTS = ("Ж" * 40, "W" * 40)  # watchers in the hosted room (capped by RoomHost.from_json)
CHAT = "m" * 120  # one unbroken word in the room's chat

SPILL_JS = """() => {
  const width = document.documentElement.clientWidth;
  const clipper = el => {  // the nearest box from `el` up that clips or scrolls sideways, if any
    for (let p = el; p && p !== document.body; p = p.parentElement)
      if (getComputedStyle(p).overflowX !== 'visible') return p;
    return null;
  };
  const what = el => el.tagName.toLowerCase() + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '')
    + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ').join('.') : '');
  const out = [];
  const check = (r, el, text) => {
    if ((r.width || r.height) && (r.right > width + 1 || r.left < -1))
      out.push([what(el), Math.round(r.left), Math.round(r.right), text.trim().slice(0, 40)]);
  };
  for (const el of document.querySelectorAll('body *'))  // boxes
    if (el.getClientRects().length && !clipper(el.parentElement))
      check(el.getBoundingClientRect(), el, el.textContent || '');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {  // words (a line may spill its box)
    if (!node.textContent.trim() || !node.parentElement.getClientRects().length || clipper(node.parentElement)) continue;
    range.selectNodeContents(node);
    check(range.getBoundingClientRect(), node.parentElement, node.textContent);
  }
  // A box that scrolls sideways with a name in it: the name pushed the rest out of view. (The
  // seat bar scrolls by design, its names cut short with an ellipsis.)
  const scrollers = [...document.querySelectorAll('body *')].filter(el => el.getClientRects().length
    && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1
    && el.querySelector('bdi') && !el.matches('.chips'))
    .map(el => [what(el), el.clientWidth, el.scrollWidth, el.textContent.trim().slice(0, 40)]);
  return {scroll: document.documentElement.scrollWidth, width, spill: out.slice(0, 8), scrollers};
}"""


SPILLS: list = []  # every screen that did not fit, asserted at the end (one run shows them all)


def fits(page, where) -> None:
    """Nothing on the page wider than the phone, to either side. (DICEHALL_SHOTS=/dir saves a
    full-page screenshot of each screen measured, to look at.)"""
    folder = os.environ.get("DICEHALL_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / ("-".join(map(str, where)).replace("/", "") + ".png")), full_page=True)
    box = page.evaluate(SPILL_JS)
    assert box["width"] == 360, where
    if box["scroll"] > box["width"] or box["spill"] or box["scrollers"]:
        SPILLS.append((where, box))


def shows_capped(page, where) -> None:
    """Names are on screen, capped: none longer than MAX_NAME."""
    text = page.inner_text("#app")
    assert any(name in text for name in CAPPED), (where, text[:300])
    longer = [name for name in NAMES if name[:MAX_NAME + 1] in text]
    assert not longer, (where, longer)


def long_named(table: Table, rest: list[str]) -> str:
    """The table's save with every seat's name 40 characters long (as a tampered or an older
    save might hold them: Table itself caps names it is given): the widest (W…) for the seat
    to act, whose name the screen shows most; `rest` for the others, in order."""
    acting = table.state.current_players()[0]
    others = iter(rest)
    for i, seat in enumerate(table.seats):
        seat["name"] = NAMES[0] if i == acting else next(others)
    return table.dumps()


def played(game: str, seats: int, part: float = 1.0) -> Table:
    """A table of people (capped names) with `part` of a game the computer played: 1 is the
    whole game; less stops halfway where a person decides, with the dice thrown."""
    level = "random" if game == "cephalopod" else list(get_entry(game).ai_levels)[1]  # quick (the layout's case)
    record, _ = self_play(game, [level] * seats, 5)
    table = Table(game, [{"name": CAPPED[i], "symbol": SYMBOLS[i], "ai": None} for i in range(seats)])
    table.match = Match.new(game, record.options)
    table.start_seats = [record.options.get("start", 0)]
    moves = record.moves[:int(len(record.moves) * part)]
    for seat, move in moves:
        table.submit(seat, move, table.match.index)
    while part < 1 and table.state.is_chance():
        seat, move = record.moves[table.match.index]
        table.submit(seat, move, table.match.index)
    return table


def history() -> list[dict]:
    """Two finished games of each game (people's bests and the recent list), capped names."""
    from dicehall.shelf import history_entry

    out = []
    for k, game in enumerate(GAMES):
        rules = get_entry(game).rules
        table = played(game, max(rules.min_players, min(3, rules.max_players)))
        for j in range(2):
            out.append({**history_entry(table, when=1_800_000_000 + 100 * k + j), "id": f"{game}:{j}"})
    return out


def setups() -> dict:
    """Each game's remembered set-up: its most seats, 40-character names (check_setup caps them)."""
    return {game: {"seats": [{"name": NAMES[i], "symbol": SYMBOLS[i], "ai": None}
                             for i in range(get_entry(game).rules.max_players)], "options": {}}
            for game in GAMES}


def hosted_room(table: Table) -> str:
    """The host's room over `table` (a direct room: no meeting server), with two watching guests
    of long names and a chat line by each."""
    room = RoomHost(table, time.time(), CAPPED[0])
    for k, name in enumerate(ROOM_GUESTS):
        guest = Guest(f"guest{k}" + "x" * 20, name[:MAX_NAME], digest(f"secret{k}"))
        room.guests[guest.guest_id] = guest
    data = room.to_json()
    for k, guest in enumerate(data["guests"]):
        guest["name"] = ROOM_GUESTS[k]  # stored long: the room's loader caps it
    data["chat"] = [{"id": k, "who": ROOM_GUESTS[k], "seat": None, "text": CHAT, "at": time.time()} for k in range(2)]
    data["chat_count"] = 2
    data["direct"] = True
    return json.dumps(data, ensure_ascii=False)


def choose_language(page, lang: str) -> None:
    page.evaluate("() => { location.hash = '#/settings'; }")
    page.wait_for_selector(tid("set-lang"))
    page.select_option(tid("set-lang"), lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")
    fits(page, ("settings", lang))


def visit(page, hash_: str, selector: str, where) -> None:
    page.evaluate("h => { location.hash = h; }", hash_)
    page.wait_for_selector(selector)
    fits(page, where)


def shared_screens(page, game: str, lang: str) -> None:
    """The screens besides the play screen: Home's unfinished games, the game's set-up (its
    remembered long names) and rules, History."""
    visit(page, "#/home", tid("continue"), ("home", lang))
    shows_capped(page, ("home", lang))
    visit(page, f"#/setup/{game}", tid("start-game"), ("setup", game, lang))
    assert page.input_value(tid("seat-0-name")) == CAPPED[0], game  # a remembered 40-letter name, capped
    visit(page, f"#/rules/{game}", "#rules-h", ("rules", game, lang))
    visit(page, "#/history", tid("history-list"), ("history", lang))
    shows_capped(page, ("history", lang))


def on_play(page, game: str, lang: str, selector: str | None = None, screen: str = "play") -> None:
    page.evaluate("() => { location.hash = '#/play'; }")
    title = catalog(lang, game)[f"{game}.title"]
    if selector is None:
        page.wait_for_function("title => document.getElementById('play-h')?.textContent === title", arg=title)
    else:
        page.wait_for_selector(selector)
    spilled = len(SPILLS)
    fits(page, (screen, game, lang))
    shows_capped(page, ("play", game, lang))
    if len(SPILLS) == spilled:  # (its check of the width would stop the run: SPILLS has this one)
        no_raw_text(page, game)  # and no button's words spill out of it


def one_placement(page) -> None:
    """Cephalopod: the person to act places a die where it captures nothing (one tap); the
    other person is next."""
    state = saved_table(page).state
    square = next(move for move in state.legal_moves() if " " not in move)
    page.click(tid(f"place-{square}"))
    page.wait_for_selector(tid("handover"))


def test_forty_character_names_fit_every_screen_in_every_language(site, page, tmp_path):
    page.set_viewport_size({"width": 360, "height": 740})
    SPILLS.clear()
    first, *others = GAMES
    tables = {game: played(game, get_entry(game).rules.max_players, .5) for game in GAMES}
    # The first game's other person, next after one move (the hand-over card), wide too; the
    # other games' seats take the Arabic, emoji and Cyrillic names in turn.
    saves = {game: long_named(tables[game], [NAMES[3]] if game == first else (NAMES[1:] * 2)[k:k + 4])
             for k, game in enumerate(GAMES)}
    started = time.monotonic()
    open_app(page, site, {**FAST, "lang": LANGS[0]}, saves[first])
    page.evaluate("""([parked, setups, hist, room]) => { localStorage.setItem('dicehall.parked', parked);
        localStorage.setItem('dicehall.setups', setups); localStorage.setItem('dicehall.history', hist);
        localStorage.setItem('dicehall.room', room); }""",
                  [json.dumps({game: saves[game] for game in others}, ensure_ascii=False),
                   json.dumps(setups(), ensure_ascii=False), json.dumps(history(), ensure_ascii=False),
                   hosted_room(Table.loads(saves[first]))])
    page.reload()  # the stored set-ups, history and room are read at boot
    page.wait_for_selector(tid("room-people"))
    assert sorted(seat["name"] for seat in saved_table(page).seats) == sorted([CAPPED[0], CAPPED[3]])

    # The first game, hosted in a room: the play screen with the room panel (guests' names
    # and chat), then the hand-over card once a person has moved.
    for lang in LANGS:
        choose_language(page, lang)
        on_play(page, first, lang, tid("room-people"), "play with the room")
        people = page.inner_text(tid("room-people"))
        assert all(name[:MAX_NAME] in people and name[:MAX_NAME + 1] not in people for name in ROOM_GUESTS), people
        shared_screens(page, first, lang)
    page.evaluate("() => { location.hash = '#/play'; }")
    page.click(tid("room-close"))
    page.wait_for_selector(tid("room-people"), state="detached")
    one_placement(page)
    for lang in LANGS:
        choose_language(page, lang)
        on_play(page, first, lang, tid("handover"), "hand-over")
    page.click(tid("handover-ok"))

    # Every other game, taken up from Home where it was parked.
    for game in others:
        page.evaluate("() => { location.hash = '#/home'; }")
        page.click(tid(f"continue-{game}"))
        page.wait_for_selector(tid("play"))
        for lang in LANGS:
            choose_language(page, lang)
            on_play(page, game, lang)
            shared_screens(page, game, lang)

    # Results with people's bests: a finished game of five imported from a file whose table
    # names each seat with 40 characters (Table.from_export caps them).
    table = played("penta", 5)
    export = table.export()
    for i, seat in enumerate(export["table"]["seats"]):
        seat["name"] = NAMES[i]
    path = tmp_path / "long-names.json"
    path.write_text(json.dumps(export, ensure_ascii=False), encoding="utf-8")
    page.evaluate("() => { location.hash = '#/home'; }")
    page.set_input_files(tid("import-file"), str(path))
    page.click(tid("import-confirm"))
    page.wait_for_selector(tid("results-bests"))
    page.click(tid("review-open"))  # the review names each seat: its picker, table and mistakes
    page.wait_for_selector(tid("review-plot"), timeout=30000)
    for lang in LANGS:
        choose_language(page, lang)
        visit(page, "#/play", tid("review-plot"), ("results", lang))
        shows_capped(page, ("results", lang))
        assert all(name in page.inner_text(tid("results-table")) for name in CAPPED)
        visit(page, "#/history", tid("history-list"), ("history after the game", lang))
    assert not SPILLS, "\n".join(map(repr, SPILLS))
    print(f"\nlong names: every screen in {len(LANGS)} languages in {time.monotonic() - started:.1f} s")
