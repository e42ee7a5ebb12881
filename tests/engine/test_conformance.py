"""The conformance suite: every registered game (the fixture `claim` included) passes it.

Random playthroughs through `Match.submit` (JSON round trip, clone, record replay, turn numbers,
chance nodes), junk / non-canonical / out-of-turn moves and bad seats refused with nothing
changed, stale move indexes refused, declared take-backs restoring the exact earlier state,
every AI level playing legal moves, and every message code in all five catalogs.
"""

from __future__ import annotations

import json
import random

import pytest

from pygame_core.ai import choose_move, self_play
from pygame_core.match import Match
from pygame_core.protocol import CHANCE, MAX_MOVE_CHARS, TERMINAL, IllegalMove, check_notation
from pygame_core.record import Record
from pygame_core.registry import entries, get_entry
from pygame_core.rng import DiceRoller
from support import LANGS, load_catalog

NAMES = list(entries())
SEEDS = 3


def test_every_game_package_registers():
    from pygame_core.registry import broken

    assert broken() == {}, "game packages that failed to register"

# Codes raised while running this suite, per game: checked against the catalogs at the end.
SEEN_CODES: dict[str, set[str]] = {name: set() for name in NAMES}


def player_counts(name: str) -> list[int]:
    rules = get_entry(name).rules
    return list(range(rules.min_players, rules.max_players + 1))


def random_match(name: str, players: int, seed: int, check=None) -> Match:
    """A whole random game; `check(match)` runs at every position before each move."""
    rng = random.Random(seed)
    roller = DiceRoller(seed)
    match = Match.new(name, {"players": players, "start": seed % players})
    steps = 0
    while not match.state.is_terminal():
        assert steps < 20_000, "the game does not end"
        if check:
            check(match, rng)
        state = match.state
        if state.is_chance():
            seat, move = CHANCE, roller.roll(state)
        else:
            seat = rng.choice(state.current_players())
            move = rng.choice(state.legal_moves(seat))
        match.submit(seat, move, match.index)
        steps += 1
    if check:
        check(match, rng)
    return match


def check_position(match: Match, rng: random.Random) -> None:
    state = match.state
    data = state.to_json()
    text = json.dumps(data)
    assert json.loads(text) == data, "to_json is plain JSON"
    assert state.game.state_from_json(json.loads(text)).to_json() == data, "from_json(to_json()) round trip"
    current = state.current_players()
    assert len(set(current)) == len(current)
    turn = state.turn_number()
    assert isinstance(turn, int) and turn >= getattr(match, "_last_turn", 0), "turn numbers never decrease"
    match._last_turn = turn
    if not current:
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert state.legal_moves() == [] and state.chance() == ()
        return
    if current == [CHANCE]:
        sides = state.chance()
        assert sides and all(isinstance(s, int) and s >= 2 for s in sides), "a chance node names its dice"
        assert state.legal_moves() == []
        assert state.roller() is None or 0 <= state.roller() < state.num_players
        product = 1
        for s in sides:
            product *= s
        if product <= 1296:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            for move, _ in outcomes[:3]:
                check_notation(move)
        return
    assert CHANCE not in current
    for seat in range(state.num_players):
        moves = state.legal_moves(seat)
        if seat not in current:
            assert moves == [], "only current seats have moves"
            continue
        assert moves, "a current seat always has a legal move"
        assert len(set(moves)) == len(moves)
        for move in moves:
            assert check_notation(move) == move, f"{move!r} is listed but not canonical"
            # "roll" is the dice's word: a chance move, and a guest's request to throw in an
            # online room (pygame_core/rooms). A seat's move never starts with it.
            assert move.split(" ")[0] != "roll", f"{move!r}: a seat's move may not start with 'roll'"
    if rng.random() < 0.1:  # a clone is independent of its original
        clone = state.clone()
        assert clone == state
        seat = current[0]
        clone.apply(state.legal_moves(seat)[0], seat)
        assert state.to_json() == data


@pytest.mark.parametrize("name", NAMES)
def test_random_playthroughs(name):
    for players in player_counts(name):
        for seed in range(SEEDS):
            match = random_match(name, players, seed, check_position)
            state = match.state
            places = state.ranking()
            assert min(places) == 1 and len(places) == players
            scores = state.scores()
            winners = state.winners()
            for a in range(players):
                assert (places[a] == 1) >= (a in winners)
                for b in range(players):
                    if not winners and scores[a] > scores[b]:
                        assert places[a] < places[b]
            replayed = Record.loads(match.record.dumps()).replay()
            assert replayed.to_json() == state.to_json()


def variants(move: str) -> list[object]:
    """Spellings of a legal move that must be refused, and other junk."""
    out: list[object] = [" " + move, move + " ", move.replace(" ", "  ", 1), move.replace(" ", "\t", 1),
                         move.upper(), move + "\n", move + " x", "x" * (MAX_MOVE_CHARS + 1), "", " ",
                         "nonsense", "roll", "roll 0", "roll 99", "roll 01", "undo 9-9", None, 5, ["x"]]
    return [v for v in out if v != move]


CURRENT = object()


def expect_refused(match: Match, seat, move, *, index=CURRENT) -> None:
    before, moves = match.state.to_json(), list(match.record.moves)
    with pytest.raises(IllegalMove) as err:
        match.submit(seat, move, match.index if index is CURRENT else index)
    assert err.value.code and str(err.value)
    SEEN_CODES[match.record.game].add(err.value.code)
    assert match.state.to_json() == before, f"{move!r} by {seat!r} changed the state"
    assert match.record.moves == moves


@pytest.mark.parametrize("name", NAMES)
def test_junk_out_of_turn_and_bad_seats_change_nothing(name):
    rules = get_entry(name).rules

    def attack(match, rng):
        state = match.state
        if state.is_terminal():
            expect_refused(match, 0, "roll 1")
            return
        if rng.random() > 0.3:
            return
        current = state.current_players()
        if current == [CHANCE]:
            chance = DiceRoller(1).roll(state)
            for junk in variants(chance):
                expect_refused(match, CHANCE, junk)
            for seat in range(state.num_players):
                expect_refused(match, seat, chance)  # a seat cannot roll the dice itself
            return
        seat = current[0]
        move = state.legal_moves(seat)[0]
        for junk in variants(move):
            expect_refused(match, seat, junk)
        expect_refused(match, CHANCE, move)
        expect_refused(match, CHANCE, "roll " + " ".join(["1"] * 5))
        for other in range(state.num_players):
            if other not in current:
                expect_refused(match, other, move)
        for bad_seat in (True, float(seat), str(seat), None, state.num_players, -3):
            expect_refused(match, bad_seat, move)

    for players in (rules.min_players, rules.max_players):
        random_match(name, players, 11, attack)


@pytest.mark.parametrize("name", NAMES)
def test_stale_index_is_refused(name):
    rules = get_entry(name).rules

    def stale(match, rng):
        state = match.state
        if state.is_terminal() or rng.random() > 0.2:
            return
        seat = state.current_players()[0]
        move = DiceRoller(2).roll(state) if seat == CHANCE else state.legal_moves(seat)[0]
        for index in (match.index - 1, match.index + 1, str(match.index), float(match.index), None):
            expect_refused(match, seat, move, index=index)

    random_match(name, rules.min_players, 5, stale)


@pytest.mark.parametrize("name", NAMES)
def test_take_backs_are_declared_and_exact(name):
    rules = get_entry(name).rules
    found = []

    def take_backs(match, rng):
        for seat in range(match.state.num_players):
            positions = match.takeback_positions(seat)
            for at in positions:
                assert match.record.moves[at][0] == seat
                assert all(p != CHANCE for p, _ in match.record.moves[at:]), "dice are never taken back"
            n = len(match.record.moves)
            probes = {n - 1, n - 2, n - 3, rng.randrange(n + 1) - 1, n, -1} if n else {0, -1}
            for at in sorted(probes - set(positions)):
                trial = Match(Record(name, match.record.options, list(match.record.moves)), match.state.clone())
                expect_refused_take_back(trial, seat, at)
            if positions:
                at = rng.choice(positions)
                trial = Match(Record(name, match.record.options, list(match.record.moves)), match.state.clone())
                trial.take_back(seat, at, trial.index)
                expected = Record(name, match.record.options, match.record.moves[:at] + match.record.moves[at + 1:])
                assert trial.state.to_json() == expected.replay().to_json()
                assert trial.index == match.index - 1
                found.append(at)

    for players in player_counts(name):
        random_match(name, players, 3, take_backs)
    print(f"{name}: {len(found)} take-backs checked")


def expect_refused_take_back(match: Match, seat: int, at: int) -> None:
    before = match.state.to_json()
    with pytest.raises(IllegalMove) as err:
        match.take_back(seat, at, match.index)
    assert err.value.code == "error.cannot_take_back"
    assert match.state.to_json() == before


def test_the_fixture_game_exercises_take_backs_and_simultaneous_seats():
    """The suite's take-back and simultaneous-seat checks are not vacuous: `claim` has both."""
    match = Match.new("claim", {"players": 3})
    match.submit(CHANCE, "roll 4", 0)
    assert match.state.current_players() == [0, 1, 2]
    match.submit(1, "pick a1", 1)
    match.submit(0, "pick b2", 2)
    assert match.state.current_players() == [2]
    assert match.takeback_positions(1) == [1] and match.takeback_positions(0) == [2]
    match.take_back(1, 1, 3)  # not the last move: the rest is replayed
    assert match.state.current_players() == [1, 2] and match.record.moves[-1] == (0, "pick b2")
    with pytest.raises(IllegalMove):
        match.take_back(1, 1, 2)  # now the move at 1 is seat 0's
    match.submit(2, "pick b2", 2)
    match.submit(1, "pick a1", 3)  # the last pick resolves the round: final
    assert match.state.scores() == [0, 4, 0] and match.takeback_positions(1) == []


@pytest.mark.parametrize("name", NAMES)
def test_every_ai_level_plays_legal_moves(name):
    entry = get_entry(name)
    players = entry.rules.min_players
    # The quickest variant the game offers (the smallest of each numeric option, e.g. a 3×3
    # board): a whole game per level, the strongest searches included, in seconds.
    quick = {key: min(spec["choices"]) for key, spec in (entry.rules.option_schema or {}).items()
             if spec.get("choices") and all(type(c) is int for c in spec["choices"])}
    for level in entry.ai_levels:
        record, state = self_play(name, [level] * players, seed=f"conformance:{level}", options=quick)
        assert state.is_terminal()
        assert Record.loads(record.dumps()).replay().to_json() == state.to_json()
    with pytest.raises(IllegalMove):  # a seat that is not to move cannot be asked
        choose_move(Match.new(name, {"players": players}).state, CHANCE)


@pytest.mark.parametrize("name", NAMES)
def test_options_are_checked(name):
    rules = get_entry(name).rules
    for options in ({"players": rules.min_players - 1}, {"players": rules.max_players + 1}, {"players": "2"},
                    {"players": True}, {"players": rules.min_players, "start": rules.min_players},
                    {"players": rules.min_players, "surprise": 1}, {}, [], None):
        with pytest.raises(IllegalMove):
            rules.new_state(options)


@pytest.mark.parametrize("name", NAMES)
def test_catalogs_name_everything_in_five_languages(name):
    """Title, blurb, rules, AI levels, prompts and every code this suite provoked, in every language."""
    entry = get_entry(name)
    codes = set(SEEN_CODES[name]) | {f"{name}.title", f"{name}.blurb", f"{name}.rules.1"}
    for players in player_counts(name):
        match = random_match(name, players, 1, lambda m, r: codes.add(m.state.prompt()[0]))
    codes.add(match.state.prompt()[0])
    for lang in LANGS:
        messages = load_catalog(lang, name)
        missing = sorted(code for code in codes if code not in messages)
        assert missing == [], (lang, missing)
        for level in entry.ai_levels:
            assert f"{name}.level.{level}" in messages or f"ai.level.{level}" in messages, (lang, level)
        for label in entry.rules.seat_labels:
            assert label in messages, (lang, label)
