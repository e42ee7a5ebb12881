"""A guest let into a room, or back in it, after a game's dice were revealed still checks them
(issue 31, item 3: a guest who follows a new host as its game ends must not skip the check
silently): once the game is over the room's snapshot carries the revealed seed."""

from __future__ import annotations

import random

from test_rooms import act, admit, room

from pygame_core.rooms import fairdice


def test_a_guest_let_in_after_the_reveal_checks_the_dice_and_a_forged_seed_is_caught():
    host, hub, _clock = room()
    bo, _ = admit(host, hub, "Bo")
    rng = random.Random(3)
    while not host.table.state.is_terminal():
        act(host, hub, {}, rng)
    assert bo.dice_check == "ok"  # (told by the reveal)
    cy, _ = admit(host, hub, "Cy")  # after the reveal: the room itself carries the seed
    assert cy.dice_check == "ok"
    host.dice.seed = fairdice.new_seed()  # a host that shows another seed later is caught
    di, _ = admit(host, hub, "Di")
    assert di.dice_check == "the revealed seed does not match the commitment"


def test_no_seed_is_shown_before_the_game_is_over():
    host, hub, _clock = room()
    bo, _ = admit(host, hub, "Bo")
    act(host, hub, {}, random.Random(1))
    assert "seed" not in host.snapshot(bo.guest_id)["dice"] and bo.dice_check is None
