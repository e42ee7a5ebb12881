"""Cephalopod's view under CPython: placing, the capture picker (one die at a time, live preview,
forced capture explained, confirm/cancel), the last move marked, history stepping, saved UI
state checked, hints applied, and every state drawn in five languages without a raw key."""

from __future__ import annotations

import json
import random
import re

import pytest

from dicehall.gameview import Move, PlayContext, Ui
from dicehall.games.cephalopod import VIEW
from dicehall.i18n import Catalog
from fakehost import FakeHost
from pygame_core.games.cephalopod.rules import state_from_board
from pygame_core.table import Table
from support import LANGS, load_catalog

SEATS = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None}]
TAG = re.compile(r"<[^>]+>")
KEYS = {k for k in load_catalog("en", "cephalopod") if "." in k} | set(load_catalog("en"))


def catalog(lang: str = "en") -> Catalog:
    cat = Catalog(lang, load_catalog(lang), load_catalog("en"))
    cat.add("cephalopod", load_catalog(lang, "cephalopod"), load_catalog("en", "cephalopod"))
    return cat


def context(state, ui=None, seat=0, lang="en") -> PlayContext:
    cat = catalog(lang)
    ctx = PlayContext(t=cat.t, lang=lang, game="cephalopod", seats=SEATS, state=state, index=state.plies,
                      ui=VIEW.check_ui(ui or {}, state), seat=seat)
    ctx.platform = {k: "" for k in ("seats", "prompt", "last", "countdown", "hint", "tools")}
    return ctx


def act(state, ui, action, arg=None, seat=0):
    """A click; returns the proposals and the UI after any Ui proposal."""
    out = VIEW.on_action(context(state, ui, seat), action, arg)
    new = dict(VIEW.check_ui(ui, state))
    for p in out if isinstance(out, list) else [out]:
        if isinstance(p, Ui):
            new.update(p.changes)
    return out, new


def visible(html: str) -> str:
    return TAG.sub(" ", html)


def no_raw(html: str) -> None:
    text = visible(html)
    assert "{" not in text and "}" not in text, text[:300]
    words = set(re.findall(r"[a-z_]+(?:\.[a-z_0-9]+)+", text))
    assert not (words & KEYS), words & KEYS


def square_html(html: str, name: str) -> str:
    """One board square's element (test id sq-, place- or pick-<name>), to the next square's."""
    found = [html.find(f'data-testid="{kind}-{name}"') for kind in ("sq", "place", "pick")]
    own = max(found)
    assert own >= 0, name
    start = max(html.rfind("<button", 0, own), html.rfind("<span", 0, own))
    following = [i for i in (min([i for i in (html.find(f'data-testid="{k}-', own + 1) for k in ("sq", "place", "pick")) if i != -1],
                                 default=-1), html.find('class="coord row"', own),
                             html.find("</div>", own)) if i != -1]
    return html[start:min(following)]


# b2 touches a2=1 (White), c2=1 (Black), b3=1 (White): four capturing sets, values 2, 2, 2, 3
CHOICE = [".  w1 .", "w1 .  b1", ".  .  ."]
# b2 touches a2=5, c2=1, b3=1: {a2,c2}=6, {a2,b3}=6, {c2,b3}=2; the three together (7) not
PARTIAL = [".  w1 .", "w5 .  b1", ".  .  ."]
# b2 touches only a2=2 and c2=3: a single, forced capture
FORCED = [".  .  .", "b2 .  w3", ".  .  ."]


def test_a_square_without_capture_places_at_once():
    state = state_from_board(CHOICE)
    out, ui = act(state, {}, "place", "a1")
    assert out == Move(0, "a1") and ui["at"] is None


def test_picking_captured_dice_one_by_one_with_a_live_preview():
    state = state_from_board(CHOICE)
    out, ui = act(state, {}, "place", "b2")
    assert isinstance(out, Ui) and ui["at"] == "b2" and ui["picked"] == []
    html = VIEW.render(context(state, ui))
    assert 'data-testid="capture-picker"' in html and 'data-complete="0"' in html
    assert re.search(r'data-testid="confirm-capture"[^>]*disabled', html)
    assert VIEW.prompt(context(state, ui)) == catalog().t("cephalopod.prompt.pick")
    for name in ("a2", "b3", "c2"):  # every neighbour in some set is offered
        assert square_html(html, name).startswith("<button") and 'data-action="pick"' in square_html(html, name)
    assert square_html(html, "a1").startswith("<span")  # other squares wait while picking
    _, ui = act(state, ui, "pick", "c2")
    html = VIEW.render(context(state, ui))
    assert 'data-value="1" data-complete="0"' in html  # one die is not a capture yet
    _, ui = act(state, ui, "pick", "a2")
    assert ui["picked"] == ["a2", "c2"]
    html = VIEW.render(context(state, ui))
    assert 'data-value="2" data-complete="1"' in html
    assert "a2 (White 1), c2 (Black 1)" in visible(html)  # what will be removed
    assert ">2</span>" in square_html(html, "b2")  # the new die's value on the board
    out, _ = act(state, ui, "confirm")
    assert out == Move(0, "b2x a2 c2") and out.move in state.legal_moves()
    _, ui = act(state, ui, "pick", "b3")
    out, _ = act(state, ui, "confirm")
    assert out == Move(0, "b2x a2 b3 c2")
    _, ui = act(state, ui, "cancel")
    assert ui["at"] is None and ui["picked"] == []


def test_only_dice_that_can_complete_a_capture_are_offered():
    state = state_from_board(PARTIAL)
    _, ui = act(state, {}, "place", "b2")
    _, ui = act(state, ui, "pick", "a2")
    _, ui = act(state, ui, "pick", "c2")
    html = VIEW.render(context(state, ui))
    assert square_html(html, "b3").startswith("<span"), "5+1+1 = 7: b3 cannot join"
    out, same = act(state, ui, "pick", "b3")
    assert out is None and same["picked"] == ["a2", "c2"]
    assert act(state, ui, "confirm")[0] == Move(0, "b2x a2 c2")
    out, _ = act(state, {"at": "b2", "picked": ["a2"]}, "confirm")
    assert out is None  # not a complete set: nothing is played


def test_a_forced_capture_is_preselected_and_explained():
    state = state_from_board(FORCED, to_move=1)
    _, ui = act(state, {}, "place", "b2", seat=1)
    assert ui["picked"] == ["a2", "c2"]
    html = VIEW.render(context(state, ui, seat=1))
    t = catalog().t
    assert t("cephalopod.capture.forced", square="b2") in visible(html)
    assert t("cephalopod.capture.only") in visible(html)
    assert 'data-value="5" data-complete="1"' in html
    assert act(state, ui, "confirm", seat=1)[0] == Move(1, "b2x a2 c2")


def test_hot_squares_are_marked_and_nobody_can_act_for_the_computer():
    state = state_from_board(CHOICE)
    html = VIEW.render(context(state))
    assert 'class="square hot"' in square_html(html, "b2") and "×" in square_html(html, "b2")
    assert "White die showing 1" in square_html(html, "a2") and "Black die showing 1" in square_html(html, "c2")
    assert "Ann" in square_html(html, "a2") and "Bo" in square_html(html, "c2")
    assert ">1</span>" in square_html(html, "a2") and "●" in square_html(html, "a2")  # symbol and value
    watching = VIEW.render(context(state, seat=None))
    assert "data-action=\"place\"" not in watching
    assert VIEW.on_action(context(state, seat=None), "place", "a1") is None


# --- through the controller ------------------------------------------------------------------------
def host_with(moves: list[str], size: int = 3, seats=SEATS) -> FakeHost:
    host = FakeHost("en")
    host.open_game("cephalopod")
    table = Table("cephalopod", seats, {"size": size})
    table.new_game(random.Random(1))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    host.play.load(table)
    host.play.save()
    return host


def test_a_capture_through_the_controller_marks_the_last_move_and_survives_a_reload():
    host = host_with(["a2", "c2", "b3"])
    play = host.play
    seat = play.acting_seat()
    play.handle("place", "b2", 3)
    play.handle("pick", "a2", 3)
    table_text, ui_text = host.saved
    saved = json.loads(ui_text)
    assert saved["at"] == "b2" and saved["picked"] == ["a2"] and saved["moves"] == 3
    # a reload: the pending choice comes back
    again = FakeHost("en")
    again.open_game("cephalopod")
    again.play.load(Table.loads(table_text), json.loads(ui_text))
    assert again.play.ui["at"] == "b2" and again.play.ui["picked"] == ["a2"]
    play.handle("pick", "b3", 3)
    assert play.take_focus() == "confirm-capture"  # a complete capture: Enter confirms it
    play.handle("confirm", None, 3)
    assert play.table.record.moves[-1] == (seat, "b2x a2 b3") and play.ui["at"] is None
    host.render()
    if 'data-testid="handover"' in host.body:  # two people at one screen: the other takes it
        play.handle("handover-ok", None, 4)
        host.render()
    assert "class=\"square last die" in host.body  # the placed die is marked
    assert 'class="square gone"' in square_html(host.body, "a2")  # an emptied square too
    assert "captured a2, b3: the new die shows 2" in visible(host.body)


def test_history_steps_through_earlier_positions():
    host = host_with(["a2", "c2", "b3", "b2x a2 b3"])
    play = host.play
    host.render()
    assert 'data-step="4"' in host.body and re.search(r'data-testid="history-forward"[^>]*disabled', host.body)
    play.handle("history-back", None, 4)
    assert play.ui["step"] == 3
    host.render()
    assert 'data-step="3"' in host.body and "data-action=\"place\"" not in host.body  # looking only
    assert "die showing 1" in square_html(host.body, "a2")  # captured later, still there at move 3
    assert 'class="square last die' in square_html(host.body, "b3")  # the 3rd move, b3, marked
    play.handle("history-first", None, 4)
    host.render()
    assert 'data-step="0"' in host.body and "die" not in square_html(host.body, "a2")
    play.handle("history-forward", None, 4)
    assert play.ui["step"] == 1
    play.handle("history-live", None, 4)
    assert play.ui["step"] is None and play.table.match.index == 4
    # a move clears the history view
    play.handle("history-back", None, 4)
    play.handle("history-live", None, 4)
    play.handle("place", "a1", 4)
    assert play.table.match.index == 5 and play.ui["step"] is None
    keys = VIEW.shortcuts(context(play.table.state))
    assert keys["Enter"] == ("confirm", None) and keys["Escape"] == ("cancel", None)
    assert keys["ArrowLeft"] == ("history-back", None) and keys["End"] == ("history-live", None)


def test_saved_ui_is_checked_against_the_position():
    state = state_from_board(CHOICE)
    for bad in ("x", 5, None, {"at": "a1"}, {"at": "z9", "picked": []}, {"at": "a2", "picked": []},
                {"at": "b2", "picked": ["a1"]}, {"at": "b2", "picked": "a2"}, {"step": 9}, {"step": "1"}):
        assert VIEW.check_ui(bad, state) == {"at": None, "picked": [], "step": None}, bad
    assert VIEW.check_ui({"at": "b2", "picked": ["c2", "a2", "c2"]}, state)["picked"] == ["a2", "c2"]


def test_hint_apply_marks_a_capture_and_plays_a_placement():
    state = state_from_board(CHOICE)
    ctx = context(state)
    assert VIEW.apply_hint(ctx, "b2x a2 b3") == Ui({"at": "b2", "picked": ["a2", "b3"], "step": None})
    assert VIEW.apply_hint(ctx, "a1") == Move(0, "a1")


@pytest.mark.parametrize("lang", LANGS)
def test_every_state_in_five_languages(lang):
    state = state_from_board(PARTIAL)
    for ui in ({}, {"at": "b2", "picked": []}, {"at": "b2", "picked": ["a2"]}, {"at": "b2", "picked": ["a2", "c2"]}):
        html = VIEW.render(context(state, ui, lang=lang))
        no_raw(html)
        assert 'class="boardgrid" dir="ltr"' in html  # the board never mirrors
    host = host_with(["a2", "c2", "b3", "b2x a2 b3", "a1"])
    host.lang = lang
    host.catalog = catalog(lang)
    host.play.handle("history-back", None, 5)
    host.render()
    no_raw(host.body)
    words = visible(host.body)
    assert catalog(lang).t("cephalopod.history.viewing") in words
    t = catalog(lang).t
    assert VIEW.describe_move(t, "b2x a2 b3") == t("cephalopod.move.capture", square="b2", captured="a2, b3")
    assert t("cephalopod.value", value="+1.5") in VIEW.format_value(t, 1.5)


def test_the_finished_game_can_be_stepped_through_for_the_results_screen():
    """`results_extra` (for the results-screen hook proposed to the platform): the final board
    and the history bar; stepping back shows earlier positions, with no seat to act."""
    host = host_with(["a1"])
    rng = random.Random(4)
    state = host.play.table.state
    while not state.is_terminal():
        host.play.table.submit(state.current_player(), rng.choice(state.legal_moves()), host.play.table.match.index)
        state = host.play.table.state
    ctx = context(state, seat=None)
    html = VIEW.results_extra(ctx)
    no_raw(html)
    assert f'data-step="{state.plies}"' in html and "data-action=\"place\"" not in html
    out, ui = act(state, {}, "history-first", seat=None)
    assert isinstance(out, Ui) and ui["step"] == 0
    first = VIEW.results_extra(context(state, ui, seat=None))
    assert 'data-step="0"' in first and 'class="square die' not in first  # the empty board
    _, ui = act(state, ui, "history-forward", seat=None)
    assert 'class="square last die' in square_html(VIEW.results_extra(context(state, ui, seat=None)), "a1")
