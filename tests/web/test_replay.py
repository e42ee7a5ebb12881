"""Replays of finished games from History (issue 30, item 1), the whole app on the fake page: each
game played to its end by the computer with seeded dice, opened from History, and at every move
the position the screen drew is the record replayed to that move (the state compared, not the
HTML), for every game over several seeds; stepping, the scrub bar, each turn's jump, the keys
(mirrored right to left), nothing on a replay able to change a game, what is kept and its bounds,
and a damaged or missing record refused in words."""

from __future__ import annotations

import json

import pytest
from dicehall import replay, store
from dicehall.screens import history as history_screen
from dicehall.screens import replay as replay_screen
from fakehost import run
from fakepage import Browser, FakePage
from support import load_catalog
from test_app_shell import set_up

from pygame_core.ai import self_play
from pygame_core.record import Record
from pygame_core.registry import get_entry
from pygame_core.table import Table

pytestmark = pytest.mark.usefixtures("instant_sleep")

GAMES = ["penta", "rolf", "geekout", "rollcraft", "cephalopod"]
SEEDS = [3, 8, 21]


async def finished(page: FakePage, game: str, players: int = 2) -> Record:
    """A game of `game` played to its end by the computer (its weakest level, the page's seeded
    dice); its record as the table holds it."""
    entry = get_entry(game)
    players = min(max(players, entry.rules.min_players), entry.rules.max_players)
    await set_up(page, game, [f"ai:{entry.player_levels[0]}"] * players)
    await page.tap("start-game")
    assert page.screen == "results"
    return Record.from_json(page.table().record.to_json())


async def open_from_history(page: FakePage) -> str:
    """History, then the newest game's Replay button; its history id."""
    await page.tap("nav-home")
    await page.tap("nav-history")
    assert page.screen == "history"
    newest = page.shell.life.history()[-1]["id"]
    await page.tap(f"replay-{newest}")
    assert page.screen == "replay" and page.location == f"#/replay/{newest}/0", page.location
    return newest


def shown(page: FakePage):
    """The context the replay screen was drawn from last, checked against what the page shows."""
    ctx = replay_screen.DRAWN[page.shell]
    screen = page.find("replay")
    assert int(screen.get("data-at")) == ctx.index
    assert page.find("replay-scrub").get("value") == str(ctx.index)
    assert ctx.seat is None  # nobody can act in a replay
    return ctx


def board_is_inert(page: FakePage) -> None:
    board = page.find("replay-board")
    for el in board.walk():
        assert el.get("data-action") is None, el
        if el.tag in ("button", "input", "select"):
            assert el.disabled, el


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", GAMES)
def test_every_move_shows_the_record_replayed_to_it(game, seed):
    """Stepped with Next from the start to the end, then back with Previous: at each move the
    state drawn equals the record (as the finished table held it) replayed to that move."""
    async def steps():
        page = FakePage(lang="en", seed=seed)
        await page.boot()
        record = await finished(page, game, players=2 + seed % 2)
        table_text = page.browser.items.get(store.TABLE)
        await open_from_history(page)
        n = len(record.moves)
        assert page.find("replay").get("data-moves") == str(n)
        expected = [record.new_state()]
        for seat, move in record.moves:
            state = expected[-1].clone()
            state.apply(move, seat)
            expected.append(state)
        for i in range(n + 1):
            ctx = shown(page)
            assert ctx.index == i and ctx.state.to_json() == expected[i].to_json(), (game, seed, i)
            assert page.text("replay-position") == f"Move {i} of {n}"
            if i < n:
                await page.tap("replay-next")
        assert not page.enabled("replay-next") and not page.enabled("replay-last")
        board_is_inert(page)
        for i in range(n - 1, max(-1, n - 40), -1):  # and back
            await page.tap("replay-previous")
            assert shown(page).state.to_json() == expected[i].to_json()
        await page.tap("replay-first")
        assert shown(page).index == 0 and not page.enabled("replay-previous")
        assert page.browser.items.get(store.TABLE) == table_text  # a replay changed no game
        assert not page.errors and not page.toasts

    run(steps)


@pytest.mark.parametrize("game", GAMES)
def test_the_scrub_bar_and_each_turn_jump_to_their_move(game):
    async def steps():
        page = FakePage(lang="en", seed=5)
        await page.boot()
        record = await finished(page, game)
        # the results screen's score plot (one point a round), which the replay's last move repeats
        results_plot = [page.find(f"plot-curve-{seat}").get("data-values") for seat in range(2)]
        await open_from_history(page)
        n = len(record.moves)
        scrub = page.find("replay-scrub")
        assert (scrub.get("type"), scrub.get("min"), scrub.get("max"), scrub.get("step")) == ("range", "0", str(n), "1")
        assert scrub.get("aria-label") == "Move in the game"
        for target in (n // 2, 1, n, 0, n // 3, 7):
            page.shell.change("replay-at", str(target))  # what the page reports when the bar is let go
            await page.idle()
            assert shown(page).state.to_json() == record.replay(target).to_json()
            assert page.find("replay-scrub").get("aria-valuetext") == f"Move {target} of {n}"
        for junk in ("-5", str(n + 50), "abc", ""):  # clamped, never an error
            page.shell.change("replay-at", junk)
            await page.idle()
            assert 0 <= shown(page).index <= n
        # The game in words, one line per turn (the view's describe_turn); each jumps to the end
        # of its turn and the line of the turn shown is marked as the current step.
        replayed = replay_screen._OPEN[page.shell][1]
        turns = page.find("replay-turns")
        lines = [el for el in turns.walk() if el.tag == "li"]
        assert len(lines) == len(replayed.turns) + 1
        assert any(line.text().strip() for line in lines[1:])
        for k in (0, len(replayed.turns) // 2, len(replayed.turns) - 1):
            await page.tap(f"replay-turn-{k}")
            start, moves = replayed.turns[k]
            assert shown(page).index == start + len(moves)
            assert shown(page).state.to_json() == record.replay(start + len(moves)).to_json()
            assert page.find(f"replay-turn-{k}").get("aria-current") == "step"
            assert [el.testid for el in page.find("replay-turns").walk() if el.get("aria-current")] == [f"replay-turn-{k}"]
        await page.tap("replay-turn-start")
        assert shown(page).index == 0
        # the score of every seat over time: one curve per seat, 0 then one point per round done,
        # at the end the results screen's plot point for point (both count rounds)
        await page.tap("replay-last")
        ctx = shown(page)
        for seat, score in enumerate(ctx.state.scores()):
            values = [float(v) for v in page.find(f"replay-plot-curve-{seat}").get("data-values").split(",")]
            assert values[0] == 0 and values[-1] == pytest.approx(score)
            assert page.find(f"replay-plot-curve-{seat}").get("data-values") == results_plot[seat]
        assert not page.errors

    run(steps)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_keys_step_a_move_jump_a_turn_and_to_either_end(lang):
    """→/← a move (mirrored in Arabic, read right to left), Page Down/Up a turn, Home/End; a key
    with a modifier is the browser's; each step is said for a screen reader."""
    async def steps():
        page = FakePage(lang=lang, seed=4)
        await page.boot()
        record = await finished(page, "penta")
        await open_from_history(page)
        n = len(record.moves)
        forward, back = ("ArrowLeft", "ArrowRight") if lang == "ar" else ("ArrowRight", "ArrowLeft")
        await page.press(forward)
        await page.press(forward)
        assert shown(page).index == 2 and page.location.endswith("/2")
        assert load_catalog(lang)["replay.position"].split("{")[0] in page.spoken[-1]
        await page.press(back)
        assert shown(page).index == 1
        await page.press("End")
        assert shown(page).index == n and shown(page).state.is_terminal()
        await page.press("Home")
        assert shown(page).index == 0
        replayed = replay_screen._OPEN[page.shell][1]
        ends = [start + len(moves) for start, moves in replayed.turns]
        await page.press("PageDown")
        assert shown(page).index == ends[0]
        await page.press("PageDown")
        assert shown(page).index == ends[1]
        await page.press("PageUp")
        assert shown(page).index == ends[0]
        assert page.shell.key("ArrowRight", None, "BODY", True) is False  # Alt+→ is the browser's Forward
        # The controls are buttons with names; on the scrub bar the keys are taken (not moved twice).
        for testid in ("replay-first", "replay-previous", "replay-next", "replay-last"):
            el = page.find(testid)
            assert el.tag == "button" and el.get("aria-label") and el.get("title")
        assert page.shell.key(forward, "replay-at", "INPUT") is True
        await page.idle()
        assert shown(page).index == ends[0] + 1
        assert not page.errors

    run(steps)


def test_a_damaged_or_missing_record_is_refused_in_words():
    async def steps():
        browser = Browser()
        page = FakePage(browser, lang="en", seed=6)
        await page.boot()
        await finished(page, "rolf")
        await page.tap("nav-home")
        kept = json.loads(browser.items[store.REPLAYS])
        entry_id = kept[-1]["id"]
        moves = kept[-1]["record"]["moves"]
        moves[5][1] = "take 9 9 9 9"  # a move the rules refuse
        browser.items[store.REPLAYS] = json.dumps(kept)
        page = page.reload()
        await page.boot()
        await page.tap("nav-home")
        await page.tap("nav-history")
        await page.tap(f"replay-{entry_id}")
        words = page.text("replay-refused")
        assert words.startswith("This game cannot be replayed:") and "Move 6 (take 9 9 9 9)" in words, words
        assert page.find("replay-refused").get("role") == "alert" and not page.has("replay-board")
        await page.tap("replay-back")
        assert page.screen == "history"
        # A record whose seats do not match its players, and one no longer kept
        kept[-1]["record"]["moves"] = json.loads(browser.items[store.REPLAYS])[-1]["record"]["moves"][:5]
        kept[-1]["seats"] = kept[-1]["seats"][:1]
        browser.items[store.REPLAYS] = json.dumps(kept)
        page = page.reload()
        await page.boot()
        page.shell.go(f"#/replay/{entry_id}/3")
        await page.idle()
        assert "This game cannot be replayed:" in page.text("replay-refused")
        page.shell.go("#/replay/0123456789abcdef:9/0")
        await page.idle()
        assert page.text("replay-refused") == \
            "This game is no longer kept for replay: the last 20 finished games are kept."
        # A kept list that is not sound in shape is set aside (said once), History still opens
        browser.items[store.REPLAYS] = json.dumps([{"id": "x/y", "seats": [], "record": 5}])
        page = page.reload()
        await page.boot()
        await page.tap("nav-home")
        await page.tap("nav-history")
        assert page.screen == "history" and not any(t.startswith("replay-") for t in page.testids())
        assert store.REPLAYS in page.shell.store.aside()
        assert not page.errors

    run(steps)


def seated(game: str, seed: int, players: int = 2) -> Table:
    record, _ = self_play(game, [get_entry(game).player_levels[0]] * players, seed)
    return Table.from_record(record, [{"name": f"P{i}", "symbol": "●▲■◆★"[i], "ai": None} for i in range(players)])


def test_the_last_twenty_games_are_kept_and_no_more_than_the_cap():
    """History lists 20 games, so the records of those 20 are kept: the oldest goes first, and
    all together stay under the cap (a record over its own cap is not kept)."""
    assert replay.MAX_REPLAYS == history_screen.RECENT
    backend: dict = {}

    class Backend:
        get, set, remove = backend.get, backend.__setitem__, lambda key: backend.pop(key, None)
    kept = store.Store(Backend())
    for k in range(25):
        assert replay.keep(kept, f"{k:016x}:1", seated("cephalopod", k))
    ids = [entry["id"] for entry in replay.kept(kept)]
    assert ids == [f"{k:016x}:1" for k in range(5, 25)]
    assert len(backend[store.REPLAYS]) <= replay.MAX_TOTAL_CHARS
    assert replay.keep(kept, "x/y:1", seated("penta", 1)) is False  # not an id the app writes
    big = seated("penta", 2)
    big.seats[0]["name"] = "N"  # (names are capped; a record over the cap is made long by its moves)
    big.record.moves = big.record.moves * 400
    assert replay.keep(kept, "feedfeedfeedfeed:1", big) is False
    assert "feedfeedfeedfeed:1" not in replay.kept_ids(kept)
    # and the total cap: the oldest go until the rest fit
    for k in range(20):
        long = seated("rollcraft", k, players=4)
        assert replay.keep(kept, f"{k:016x}:2", long)
    assert len(backend[store.REPLAYS]) <= replay.MAX_TOTAL_CHARS
    assert replay.kept(kept)[-1]["id"] == f"{19:016x}:2"


def test_history_offers_a_replay_only_for_kept_games_named_for_a_screen_reader():
    async def steps():
        page = FakePage(lang="pl", seed=2)
        await page.boot()
        await finished(page, "geekout")
        await page.tap("nav-home")
        await page.tap("nav-history")
        entry = page.shell.life.history()[-1]
        button = page.find(f"replay-{entry['id']}")
        words = load_catalog("pl")
        title = load_catalog("pl", "geekout")["geekout.title"]
        assert button.tag == "button" and button.inner_text() == words["replay.open"]
        assert title in button.get("aria-label")
        # an older game (from before records were kept) has no button
        page.browser.items[store.REPLAYS] = "[]"
        page = page.reload()
        await page.boot()
        await page.tap("nav-home")
        await page.tap("nav-history")
        assert not page.has(f"replay-{entry['id']}") and page.has("history-list")

    run(steps)
