"""Fixture games added to a build from outside the project's game folders (no shared file
changed): `claim` is listed, set up, played by clicks with a simultaneous choice and a take-back
on the board widget, and resumed after a reload; `pig`, built from a folder outside the project
tree, is listed and played by clicks."""

from __future__ import annotations

import json

import pytest

from dicehall_browser import (catalog, no_raw_text, open_app, saved_table, start_game, take_the_phone, tap, tid,
                              wait_ready)

pytestmark = pytest.mark.browser


def test_a_game_added_without_shared_edits_plays_by_clicks(fixture_site, page):
    open_app(page, fixture_site, {"animations": False, "lang": "nb"})
    text = catalog("nb", "claim")
    assert text["claim.title"] in page.inner_text('[data-game="claim"]')
    start_game(page, "claim", ["person", "person"])
    no_raw_text(page, "claim")
    tap(page, tid("roll"))
    take_the_phone(page)
    page.wait_for_selector(f'{tid("square-a1")}:enabled')
    first = int(page.get_attribute(tid("play"), "data-seat"))
    tap(page, tid("square-a1"))  # the first person picks; the other one is asked to take the phone
    page.wait_for_selector(tid("handover-ok"))
    tap(page, tid("handover-ok"))
    page.wait_for_selector(tid(f"take-back-{first}"))
    assert int(page.get_attribute(tid("play"), "data-seat")) == 1 - first
    tap(page, tid(f"take-back-{first}"))  # choose again: the pick is taken back
    page.wait_for_selector(tid("handover-ok"))  # ... and the first person chooses again
    assert saved_table(page).state.picks == {}
    tap(page, tid("handover-ok"))
    tap(page, tid("square-b2"))
    tap(page, tid("handover-ok"))
    tap(page, tid("square-c3"))  # the second pick resolves the round
    take_the_phone(page)  # the next round's roller may be the other person
    page.wait_for_selector(f'{tid("last-move")}')
    state = saved_table(page).state
    assert state.round == 1 and sorted(state.owner) == ["b2", "c3"] and sum(state.points) > 0
    page.reload()
    wait_ready(page)
    assert saved_table(page).state.to_json() == state.to_json()
    names = [seat["name"] for seat in saved_table(page).seats]
    for square in ("b2", "c3"):  # the board shows who owns what after the reload
        label = page.get_attribute(tid(f"square-{square}"), "aria-label")
        assert label == text["claim.square"].replace("{square}", square) + ", " + names[state.owner[square]]
    tap(page, tid("roll"))
    take_the_phone(page)
    page.wait_for_selector(f'{tid("square-a1")}:enabled')
    no_raw_text(page, "claim")
    tap(page, tid("nav-home"))  # a sixth game, from a folder outside the project tree
    assert catalog("nb", "claim")["claim.title"] in page.inner_text('[data-game="claim"]')
    assert page.locator('[data-game="pig"] h3').inner_text().strip()
    start_game(page, "pig", ["person", "person"])
    no_raw_text(page)
    tap(page, tid("roll"))
    for _ in range(20):  # throws until a 1 ends the turn or Hold is offered
        take_the_phone(page)
        if page.locator(f'{tid("hold")}:enabled').count():
            tap(page, tid("hold"))
            break
        tap(page, tid("roll"))
    take_the_phone(page)
    saved = json.loads(page.evaluate("localStorage.getItem('dicehall.table')"))  # (this process knows no pig)
    moves = [move for _, move in saved["record"]["moves"]]
    assert saved["game"] == "pig" and ("hold" in moves or "roll 1" in moves)
