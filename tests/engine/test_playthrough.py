"""Generic random playthroughs for every game: invariants, JSON round trips, record replay."""

import json
import random

import pytest

from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.record import Record
from pygame_core.registry import GAMES
from pygame_core.rng import DiceRoller


def random_playthrough(game, players, seed):
    rng = random.Random(seed)
    roller = DiceRoller(seed)
    record = Record(game.name, {"players": players, "start": seed % players})
    state = record.new_state()
    steps = 0
    while not state.is_terminal():
        assert steps < 10_000
        movers = state.current_players()
        assert movers, "a live state has someone to move"
        if state.is_chance():
            assert state.chance(), "a chance node names its dice"
            move, player = roller.roll(state), CHANCE
        else:
            player = rng.choice(movers)
            legal = state.legal_moves(player)
            assert legal, "a live seat always has a legal move"
            assert len(set(legal)) == len(legal)
            move = rng.choice(legal)
        state.apply(move, player)
        record.moves.append((player, move))
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        assert game.state_from_json(json.loads(json.dumps(data))).to_json() == data
        steps += 1
    return record, state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_playthroughs(name):
    game = GAMES[name]
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(3):
            record, state = random_playthrough(game, players, seed)
            assert state.legal_moves() == []
            places = state.ranking()
            assert min(places) == 1 and len(places) == players
            scores = state.scores()
            for a in range(players):
                for b in range(players):
                    if scores[a] > scores[b] and not state.winners():
                        assert places[a] < places[b]
            replayed = Record.loads(record.dumps()).replay()
            assert replayed.to_json() == state.to_json()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_illegal_moves_leave_state_unchanged(name):
    game = GAMES[name]
    rng = random.Random(7)
    roller = DiceRoller(7)
    state = game.new_state({"players": game.min_players})
    for _ in range(60):
        if state.is_terminal():
            break
        before = state.to_json()
        for junk in ["", "nonsense", "roll", "roll 9 9 9 9 9 9", "score", "keep 0", "undo 9-9"]:
            try:
                state.clone().apply(junk)
            except IllegalMove as err:
                assert err.code and str(err)
            except Exception as err:  # pragma: no cover - the failure message matters
                pytest.fail(f"{junk!r} raised {type(err).__name__}, not IllegalMove: {err}")
            try:
                state.apply(junk)
            except IllegalMove:
                assert state.to_json() == before
        state.apply(roller.roll(state) if state.is_chance() else rng.choice(state.legal_moves()))
