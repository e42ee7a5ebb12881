"""The computer's turns narrated (issue 29, item 3), through the play controller under CPython.

Every screen drawn during a computer's turn is kept: a move on show before it is played says its
words on the prompt and the view marks it (Geek Out: the acting die and its target; Rolf: the
square about to be taken), each throw of a streak is said (what it allows under the dice), the live region
hears the turn in a few bounded sentences, the tray before a person's throw never passes the
last player's dice off as theirs, and "Thinking…" never shows while a person is to act (every
game, seeded self-play with one person and one computer).
"""

from __future__ import annotations

import random
import re

import pytest
from dicehall.gameview import Move, Roll
from fakehost import FakeHost, run, settle

from pygame_core import ai
from pygame_core.games.geekout.rules import FACE_OF
from pygame_core.games.rolf.board import NAMES
from pygame_core.match import Match
from pygame_core.protocol import CHANCE
from pygame_core.registry import entries
from pygame_core.table import Table

NAMES_SYMBOLS = (("Ann", "●"), ("Bo", "▲"))


def recording_host(game: str, kinds, lang: str = "en", start: int = 0, seed: int = 1, players: int = 2) -> tuple[FakeHost, list]:
    """A table of `game` (seat 0 Ann, seat 1 Bo; kinds None for a person, else an AI level) at the
    slow pace, whose every screen drawn is kept in the returned list."""
    host = FakeHost(lang, {"pace": "slow"}, seed=seed)
    host.open_game(game)
    bodies: list[str] = []
    draw = host.render

    def render() -> None:
        draw()
        bodies.append(host.body)

    host.render = render
    table = Table(game, [{"name": n, "symbol": s, "ai": k} for (n, s), k in zip(NAMES_SYMBOLS, kinds)])
    table.match = Match.new(game, {"players": players, "start": start})
    table.start_seats = [start]
    host.play.load(table)
    return host, bodies


def prompt_of(body: str) -> tuple[str | None, str, bool]:
    """(seat named on the prompt, its words, whether it shows the thinking spinner)."""
    m = re.search(r'<p class="prompt" data-testid="prompt"(?: data-seat="(\d+)")?>(.*?)</p>', body)
    assert m, "no prompt on the play screen"
    words = re.search(r"</span> <span>(.*?)</span>|^<span>(.*?)</span>", m.group(2))
    text = re.sub(r"<[^>]+>", "", (words.group(1) or words.group(2)) if words else m.group(2)).strip()
    return m.group(1), text.replace("&amp;", "&"), 'class="spinner"' in m.group(2)


def index_of(body: str) -> int:
    return int(re.search(r'data-testid="play" data-game="\w+" data-index="(\d+)"', body).group(1))


def test_a_computer_geekout_turn_says_each_action_and_marks_the_acting_die_and_its_target(instant_sleep):
    async def steps():
        host, bodies = recording_host("geekout", (None, "medium"), start=1)
        play, t, view = host.play, host.t, host.play.view
        play.kick()
        await settle(host)
        moves = play.table.record.moves
        first_person = next(i for i, (seat, _) in enumerate(moves) if seat == 0) if any(s == 0 for s, _ in moves) else len(moves)
        shown = {}  # record position -> the body drawn while that move was on show before it was played
        for body in bodies:
            if 'data-testid="play"' in body and re.search(r'class="die gk-die[^"]* acting', body):
                shown.setdefault(index_of(body), body)
        acted = [(at, move) for at, (seat, move) in enumerate(moves[:first_person])
                 if seat == 1 and move.split(" ")[0] in FACE_OF]
        assert len(acted) >= 3, "the computer's first turn made die actions"
        for at, move in acted:
            body = shown.get(at)
            assert body is not None, f"move {at} ({move}) was never shown before it was played"
            seat, words, spinning = prompt_of(body)
            assert (seat, words, spinning) == ("1", view.describe_move(t, move), False)
            actor, _, target = move.partition(" ")
            acting = re.findall(r'class="die gk-die[^"]* acting[^"]*"[^>]*data-face="(\w+)"', body)
            targets = re.findall(r'class="die gk-die[^"]* target[^"]*"[^>]*data-face="(\w+)"', body)
            assert acting == [actor], move
            assert targets == ([target] if target else []), move
        # The live region: a few bounded sentences for the whole turn, the prompt after them whole.
        said = [text for text, error in host.said if not error]
        assert 1 <= len(said) <= 3 and all(len(text) <= 240 for text in said)
        assert said[-1].endswith(t("geekout.prompt.roll", n=7)) or "Ann" in said[-1]

    run(steps)


def rolf_streak_seed() -> int:
    """A seed whose computer (seat 1, starting) throws a streak: an extra throw in its first turn."""
    for seed in range(1, 200):
        host, _ = recording_host("rolf", (None, "hard"), start=1, seed=seed)
        rng = random.Random(seed)
        state = host.play.table.state.clone()
        throws = 0
        while state.turn_number() == 0 and not state.is_terminal():
            if state.is_chance():
                move = host.play.roller.roll(state)
                throws += 1
            else:
                move = ai.choose_move(state, 1, "hard", rng)
            state.apply(move, CHANCE if state.is_chance() else 1)
        if throws >= 2:
            return seed
    raise AssertionError("no streak in 200 seeds")


def test_a_computer_rolf_streak_says_each_throw_and_marks_each_square_before_taking_it(instant_sleep):
    async def steps():
        seed = rolf_streak_seed()
        host, bodies = recording_host("rolf", (None, "hard"), start=1, seed=seed)
        play, t, view = host.play, host.t, host.play.view
        play.kick()
        await settle(host)
        moves = play.table.record.moves
        end = next(i for i, (seat, move) in enumerate(moves) if seat == 1 and move == "next")
        throws = [(at, move) for at, (seat, move) in enumerate(moves[:end]) if seat == CHANCE]
        takes = [(at, move) for at, (seat, move) in enumerate(moves[:end]) if move.startswith("take ")]
        assert len(throws) >= 2 and takes
        prompts = {}
        for body in bodies:
            if 'data-testid="play"' in body:
                prompts.setdefault(index_of(body), []).append(body)
        for at, move in throws:  # after the throw, while the computer thinks on it: its words
            said = [(prompt_of(b), b) for b in prompts[at + 1]]
            skipped = t("rolf.narrate.skipped", dice=move[5:])
            # (an extra throw follows its confirmation at once: "Confirm · extra throw · Throw 2 3 6")
            assert any(p[0] == "1" and p[1].endswith(view.describe_move(t, move)) and 'data-testid="shape"' in b
                       or p[0] == "1" and p[1].endswith(skipped) for p, b in said), (move, [p for p, _ in said])
        for at, move in takes:  # before the take: its words, the square marked for it alone
            body = next(b for b in prompts[at] if re.search(r'class="square[^"]*\bstep\b', b))
            assert prompt_of(body)[:2] == ("1", view.describe_move(t, move))
            marked = re.findall(r'class="square[^"]*\bstep\b[^"]*"[^>]*data-testid="sq-([\d-]+)"', body)
            assert marked == [move[5:]], marked
        # Ann's throw comes next: the tray holds Bo's last dice, labelled as Bo's last throw, with
        # no "Three different: two placements" (not Ann's to place); the board keeps Bo's squares.
        body = host.body
        assert play.table.state.is_chance() and play.acting_seat() == 0
        assert 'data-testid="previous-throw" data-seat="1"' in body
        assert t("rolf.previous_throw", name="Bo") in body and 'data-testid="shape"' not in body
        state = play.table.state
        for square in state.chosen:
            assert re.search(r'class="[^"]*\blast\b[^"]*"[^>]*data-testid="sq-' + NAMES[square], body) or \
                re.search(r'data-testid="sq-' + NAMES[square] + r'"[^>]*class="[^"]*\blast\b', body)
        await_tap = play.propose(Roll(0), play.table.match.index)
        assert await_tap and 'data-testid="previous-throw"' not in host.body and 'data-testid="shape"' in host.body

    run(steps)


def person_move(play, rng) -> None:
    """The person at this screen acts (a random legal choice, or the throw)."""
    state = play.table.state
    seat = play.acting_seat()
    if state.is_chance():
        play.propose(Roll(seat), play.table.match.index)
    else:
        play.propose(Move(seat, ai.choose_move(state.clone(), seat, "random", rng)), play.table.match.index)


@pytest.mark.parametrize("game", [g for g in entries()])
def test_thinking_never_shows_while_a_person_is_to_act(game, instant_sleep):
    """One person (seat 0) against the computer, seeded self-play: no screen offers the person a
    choice with the spinner up, and a spinner always names a computer seat on the prompt (the
    round benefits and passive choices of RollCraft list the person first among the seats)."""
    async def steps():
        for seed in (1, 2):
            host, bodies = recording_host(game, (None, "random"), seed=seed, start=seed % 2)
            play = host.play
            rng = random.Random(seed)
            play.kick()
            for _ in range(400):
                await settle(host)
                state = play.table.state
                if state.is_terminal():
                    break
                if play.acting_seat() == 0:
                    person_move(play, rng)
            both = 0  # screens of RollCraft's choices made by both at once, the computer thinking
            for body in bodies:
                if 'data-testid="play"' not in body:
                    continue
                seat, words, spinning = prompt_of(body)
                both += spinning and bool(re.search(r'data-phase="(benefit|passive)"', body))
                acting = re.search(r'data-testid="play" data-game="\w+" data-index="\d+" data-seat="(\d*)"', body).group(1)
                if acting:
                    assert not spinning and seat == acting, (game, words)
                if spinning:
                    assert seat == "1" and not acting, (game, seat, words)
            if game == "rollcraft":
                assert both, "the self-play reached choices made by both at once"

    run(steps)


def test_the_tray_before_a_persons_throw_is_never_the_last_players_dice(instant_sleep):
    """Penta, Geek Out and RollCraft clear the dice for a new turn; Rolf labels them (above)."""
    async def steps():
        for game in ("penta", "geekout", "rollcraft"):
            host, _ = recording_host(game, (None, "random"), start=1)
            play = host.play
            play.kick()
            await settle(host)
            rng = random.Random(1)
            while not play.table.state.is_chance():  # RollCraft: the person's passive choices first
                assert play.acting_seat() == 0
                person_move(play, rng)
                await settle(host)
            state, body = play.table.state, host.body
            assert play.acting_seat() == 0 and state.roller() == 0 and any(s == 1 for s, _ in play.table.record.moves), game
            if game == "geekout":
                assert 'data-testid="zone-active" data-count="0"' in body
            else:
                values = re.findall(r'data-testid="die-\w+"[^>]*data-value="(\d+)"', body)
                assert values and set(values) == {"0"}, (game, values)

    run(steps)


def test_a_room_guests_steps_are_said_on_the_prompt_while_the_table_waits_for_them(instant_sleep):
    """Bo plays on another phone (a guest of the room this table hosts): each of his steps is said
    on the prompt, in words, until he makes the next; then Ann's own prompt comes back."""
    async def steps():
        host, _ = recording_host("rolf", (None, None), start=1)
        play, t = host.play, host.t
        play.remote = {1}
        host.render()
        play.kick()
        await settle(host)
        assert prompt_of(host.body)[:2] == ("1", t("play.remote_short"))
        play.submit(CHANCE, "roll 1 2 5", play.table.match.index)
        assert prompt_of(host.body) == ("1", t("rolf.move.roll", dice="1 2 5"), False)
        assert t("rolf.shape.different") in host.body  # what the throw allows, under the dice
        play.submit(1, "take 1-2", play.table.match.index)
        assert prompt_of(host.body) == ("1", t("rolf.move.take", square="\u20661–2\u2069"), False)
        play.submit(1, "take 2-5", play.table.match.index)
        play.submit(1, "next", play.table.match.index)
        await settle(host)
        assert play.acting_seat() == 0 and prompt_of(host.body)[:2] == ("0", t("rolf.prompt.throw"))

    run(steps)


def test_a_computer_penta_box_is_shown_with_its_points_before_it_is_written(instant_sleep):
    async def steps():
        host, bodies = recording_host("penta", (None, "greedy"), start=1)
        play, t, view = host.play, host.t, host.play.view
        play.kick()
        await settle(host)
        at, move = next((at, m) for at, (s, m) in enumerate(play.table.record.moves) if s == 1 and m.startswith("score "))
        box = move[len("score "):]
        body = next(b for b in bodies if 'data-testid="play"' in b and index_of(b) == at and 'step"' in b)
        assert prompt_of(body) == ("1", view.describe_move(t, move), False)
        cell = re.search(r'<td class="[^"]*\blast step\b[^"]*" data-testid="cell-1-' + box + r'">(\d+)</td>', body)
        assert cell, box
        assert int(cell.group(1)) == play.table.state.cards[1][box]  # the points it then wrote

    run(steps)
