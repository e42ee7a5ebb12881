"""Geek Out! Masters against its rules (shared/rules/geek-out-masters.md), rule by rule, with the
contract's worked examples (§14) and rulings (§13); then invariants over random games and the
exact solver (Bellman consistency of the shipped table, hand-computed values, advice)."""

from __future__ import annotations

import json
import random

import pytest

from pygame_core.ai import self_play
from pygame_core.match import Match
from pygame_core.protocol import CHANCE, IllegalMove
from pygame_core.record import Record
from pygame_core.rng import DiceRoller
from pygame_core.games.geekout import solver
from pygame_core.games.geekout.rules import (
    DRAGON, FACE_OF, FORTYTWO, HEART, HERO, MEEPLE, SHIP, GeekOut, roll_outcomes, triangle,
)

ROLL = {"meeple": 1, "hero": 2, "heart": 3, "42": 4, "dragon": 5, "ship": 6}


def roll(*faces: str) -> str:
    return "roll " + " ".join(str(v) for v in sorted(ROLL[f] for f in faces))


def position(active: list[str], inactive: int = 3, used: int | None = None, scored: int = 0, players: int = 1):
    """A state in the middle of a turn: these active faces (the rest of the ten dice used)."""
    state = GeekOut.new_state({"players": players})
    state.active = [0] * 6
    for face in active:
        state.active[FACE_OF[face] - 1] += 1
    state.inactive, state.scored = inactive, scored
    state.used = 10 - len(active) - inactive - scored if used is None else used
    assert len(active) + state.inactive + state.used + state.scored == 10
    state.pending, state.phase = 0, "act"
    return state


def play(state, *moves: str):
    for move in moves:
        state.apply(move, CHANCE if move.startswith("roll") else state.current_player())
    return state


def faces(state) -> dict:
    return {name: state.active[face - 1] for name, face in FACE_OF.items() if state.active[face - 1]}


def refused(state, move: str, code: str) -> None:
    before = state.to_json()
    with pytest.raises(IllegalMove) as err:
        state.apply(move, state.current_player())
    assert err.value.code == code
    assert state.to_json() == before


# --- §2 components, §3 zones, §5 start of a turn ------------------------------------------------
def test_flip_turns_each_face_into_its_opposite():  # §2.3, §8.4
    pairs = {"dragon": "hero", "hero": "dragon", "heart": "42", "42": "heart", "meeple": "ship", "ship": "meeple"}
    for target, result in pairs.items():
        state = position(["hero", target, "heart"])  # the Heart keeps the phase going
        play(state, f"hero {target}")
        expected = {"heart": 1}
        expected[result] = expected.get(result, 0) + 1
        assert faces(state) == expected, target


def test_a_turn_starts_with_seven_dice_thrown_and_three_inactive():  # §5.1, §5.2
    state = GeekOut.new_state({"players": 2, "start": 1})
    assert state.current_players() == [CHANCE] and state.chance() == (6,) * 7 and state.roller() == 1
    assert state.inactive == 3 and state.used == 0 and state.scored == 0
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 792 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
    play(state, roll("dragon", "hero", "42", "42", "heart", "meeple", "ship"))
    assert state.current_players() == [1] and state.phase == "act"


def test_throws_are_spelled_in_ascending_order_only():
    state = GeekOut.new_state({"players": 1})
    with pytest.raises(IllegalMove):
        state.apply("roll 6 5 4 3 2 1 1", CHANCE)
    state.apply("roll 1 1 2 3 4 5 6", CHANCE)


# --- §7 resolving actions, §9 availability ------------------------------------------------------
def test_every_available_action_is_listed_by_face_and_target():  # §7.2, §9.1
    state = position(["meeple", "ship", "42", "dragon"])
    assert state.legal_moves() == ["meeple 42", "meeple dragon", "meeple ship", "ship meeple", "ship 42", "ship dragon"]


def test_actions_on_42s_are_mandatory():  # §9.1, Q7, Q8
    state = position(["ship", "42", "42"], inactive=0)
    assert state.legal_moves() == ["ship 42"]
    play(state, "ship 42")
    assert faces(state) == {} and state.phase == "decide" and state.scored == 1 and state.inactive == 1


def test_cannot_stop_in_the_middle_of_a_phase():  # §7.1, §11.6
    state = position(["meeple", "dragon"], scored=2)
    refused(state, "stop", "geekout.mid_phase")
    refused(state, "continue", "geekout.mid_phase")
    refused(state, "dragon", "geekout.no_action")
    refused(state, "hero dragon", "geekout.no_such_die")
    refused(state, "meeple 42", "geekout.no_target")
    refused(state, "meeple", "geekout.choose_target")
    refused(state, "heart", "geekout.no_such_die")


def test_an_action_moves_the_acting_die_to_used_and_a_meeple_rerolls_its_target():  # §7.3, §8.1, Q3
    state = position(["meeple", "dragon", "42"], used=0, inactive=7)
    play(state, "meeple dragon")
    assert state.chance() == (6,) and state.roller() == 0 and state.used == 1
    play(state, roll("ship"))  # the new face must be resolved (§7.4)
    assert faces(state) == {"ship": 1, "42": 1} and state.legal_moves() == ["ship 42"]


def test_heart_brings_back_a_rolled_inactive_die_or_does_nothing():  # §8.3, §9.2, Q9
    state = position(["heart", "42"], inactive=2, used=0, scored=6)
    play(state, "heart")
    assert state.inactive == 1 and state.used == 1 and state.chance() == (6,)
    play(state, roll("42"))
    assert state.phase == "decide" and state.scored == 8
    empty = position(["heart", "42", "dragon", "hero"], inactive=0)
    play(empty, "heart")
    assert empty.phase == "act" and empty.chance() == () and empty.used == 7 and faces(empty) == {"42": 1, "dragon": 1, "hero": 1}


def test_dragons_in_mid_phase_are_harmless_and_bust_at_exhaustion():  # §10, Q11
    state = position(["hero", "dragon", "dragon", "42"])
    play(state, "hero dragon")  # the flipped Dragon is a Superhero: an action is still available
    assert state.phase == "act" and faces(state) == {"hero": 1, "dragon": 1, "42": 1}
    play(state, "hero 42")  # forced choice between Dragon and 42: flipping the 42 leaves the Dragon
    assert state.phase == "act" and faces(state) == {"dragon": 1, "heart": 1}
    play(state, "heart")
    assert state.phase == "roll"
    play(state, roll("dragon"))
    assert state.turn == 1 and state.pad == [[0]] and state.last["result"] == "bust"


# --- §14 worked examples ------------------------------------------------------------------------
def test_example_1_an_ordinary_turn():
    state = GeekOut.new_state({"players": 1})
    play(state, roll("dragon", "hero", "42", "42", "heart", "meeple", "ship"))
    play(state, "hero dragon")
    assert faces(state) == {"hero": 1, "42": 2, "heart": 1, "meeple": 1, "ship": 1} and state.used == 1
    play(state, "ship hero")
    assert faces(state) == {"42": 2, "heart": 1, "meeple": 1} and state.inactive == 4 and state.used == 2
    play(state, "heart", roll("dragon"))
    assert faces(state) == {"42": 2, "meeple": 1, "dragon": 1} and state.inactive == 3 and state.used == 3
    play(state, "meeple dragon", roll("42"))
    assert state.phase == "decide" and state.scored == 3 and state.used == 4 and state.inactive == 3
    assert state.legal_moves() == ["stop", "continue"]
    play(state, "continue")
    assert state.chance() == (6,) * 4 and state.phases == 2
    play(state, roll("dragon", "dragon", "ship", "42"))
    play(state, "ship dragon")
    assert state.turn == 1 and state.pad == [[0]] and state.last["result"] == "bust" and state.last["scored"] == 3


def test_example_2_the_order_of_actions_matters():
    first = position(["ship", "heart"], inactive=0)
    play(first, "heart")  # no effect; the lone Spaceship self-destructs (§8.2)
    assert first.pad == [[0]] and first.last["result"] == "self_destruct"
    second = position(["ship", "heart"], inactive=0, scored=2)
    play(second, "ship heart")
    assert second.phase == "decide" and second.inactive == 1 and second.legal_moves() == ["stop", "continue"]
    play(second, "continue")
    assert second.chance() == (6,) * 7 and second.used == 0 and second.inactive == 1 and second.scored == 2


def test_example_3_forced_actions_on_42s():
    state = position(["hero", "42", "42"], inactive=1)
    assert state.legal_moves() == ["hero 42"]
    play(state, "hero 42")
    assert faces(state) == {"42": 1, "heart": 1}
    play(state, "heart", roll("meeple"))
    assert faces(state) == {"42": 1, "meeple": 1} and state.legal_moves() == ["meeple 42"]
    play(state, "meeple 42", roll("dragon"))
    assert state.pad == [[0]] and state.last["result"] == "bust"


def test_example_4_superheroes_alone_bust():  # Q1
    state = position(["hero", "hero"])
    assert state.legal_moves() == ["hero hero"]
    play(state, "hero hero")
    assert state.pad == [[0]] and state.last["result"] == "bust"


def test_example_5_scores_accumulate_across_phases():  # §11.4, Q4
    state = position(["42", "42", "42", "meeple"], inactive=3, used=3)
    play(state, "meeple 42", roll("42"))
    assert state.phase == "decide" and state.scored == 3
    play(state, "continue")
    assert state.pending == 4 and state.scored == 3 and state.inactive == 3  # Q5: only used dice
    play(state, roll("42", "42", "hero", "heart"))
    play(state, "hero heart")  # the Heart becomes a 42
    assert state.phase == "decide" and state.scored == 6
    play(state, "stop")
    assert state.pad == [[21]]
    # Five 42s: T(5) = 15, never T(3) + T(2).
    state = position(["42", "42", "ship", "dragon"], inactive=3, used=0, scored=3)
    play(state, "ship dragon", "stop")
    assert state.pad == [[15]]


def test_example_6_a_lone_meeple_moves_to_used():  # §9.3, Q10
    state = position(["meeple", "42"], inactive=0)
    play(state, "meeple 42", roll("meeple"))
    assert state.legal_moves() == ["meeple"]
    play(state, "meeple")
    assert state.phase == "decide" and state.used == 10 and state.scored == 0


def test_lone_superhero_moves_to_used():
    state = position(["hero"], inactive=0)
    assert state.legal_moves() == ["hero"]
    play(state, "hero")
    assert state.phase == "decide"


def test_q6_a_spaceship_may_send_away_the_last_other_die():
    state = position(["ship", "dragon"], inactive=0)
    play(state, "ship dragon")
    assert state.phase == "decide" and state.inactive == 1 and state.used == 9


def test_q12_seven_42s_score_28_and_must_stop():  # §11.3
    state = GeekOut.new_state({"players": 1})
    play(state, roll(*["42"] * 7))
    assert state.phase == "decide" and state.scored == 7 and state.legal_moves() == ["stop"]
    refused(state, "continue", "geekout.nothing_used")
    refused(state, "heart", "geekout.must_decide")
    play(state, "stop")
    assert state.pad == [[28]] and state.last["result"] == "stop"


# --- §4 game structure, §12 scoring ------------------------------------------------------------
def test_triangular_scores():
    assert [triangle(n) for n in range(11)] == [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55]


def test_five_rounds_seats_in_order_and_ties_share_the_win():
    state = GeekOut.new_state({"players": 3, "start": 2})
    seats = []
    for _ in range(15):
        seats.append(state.seat)
        assert state.roller() == state.seat
        play(state, roll(*["42"] * 7), "stop")
    assert seats == [2, 0, 1] * 5 and state.is_terminal() and state.round() == 5
    assert state.scores() == [140, 140, 140] and state.ranking() == [1, 1, 1]
    assert state.turn_number() == 15 and state.legal_moves() == [] and state.chance() == ()


def test_zones_always_hold_ten_dice_and_records_replay():  # §3.1, determinism
    for seed in range(6):
        record, state = self_play("geekout", ["random"] * (1 + seed % 4), seed=seed)
        assert Record.loads(record.dumps()).replay().to_json() == state.to_json()
        replay = GeekOut.new_state(record.options)
        for seat, move in record.moves:
            replay.apply(move, seat)
            if replay.phase != "over":
                assert sum(replay.active) + replay.inactive + replay.used + replay.scored + replay.pending == 10
        assert all(len(turns) == 5 for turns in replay.pad)


def test_json_round_trip_and_malformed_states():
    state = position(["meeple", "dragon", "42"], scored=2)
    data = json.loads(json.dumps(state.to_json()))
    assert GeekOut.state_from_json(data).to_json() == data
    for key, bad in (("used", 9), ("phase", "dance"), ("active", [0, 0, 0, 1, 1]), ("scored", -1), ("turn", 3)):
        with pytest.raises(ValueError):
            GeekOut.state_from_json({**data, key: bad})


def test_roll_outcomes_are_multinomial():
    for k in range(1, 5):
        outcomes = dict(roll_outcomes(k))
        assert abs(sum(outcomes.values()) - 1) < 1e-12
    assert roll_outcomes(2)[1] == ((1, 2), 2 / 36)


# --- the exact solver ----------------------------------------------------------------------------
def test_hand_computed_continue_value_with_one_die_left():
    # Nine 42s scored, one used die: 42 banks ten (55); heart/meeple/hero alone move it to used
    # (a decision again, worth max(45, C)); dragon and lone ship bust. C = 55/6 + 3/6 * 45.
    policy = solver.get_policy()
    assert policy.continue_value(0, 9) == pytest.approx(55 / 6 + 22.5, abs=1e-12)
    assert policy.decision(0, 9) == 45


def test_shipped_table_is_the_fixed_point_of_the_bellman_equations():
    """Every continue value is the expected value of its throw, and every position's value is its
    best action's (or its exhaustion's) value: the shipped numbers solve the equations."""
    from pygame_core.games.geekout.rules import action_moves, busts, exhausted

    policy = solver.get_policy()
    for (i, n), value in policy.cont.items():
        assert policy.throw_value(10 - i - n, i, n) == pytest.approx(value, abs=1e-9), (i, n)
    for active, i, n in solver.positions():
        u = 10 - sum(active) - i - n
        if exhausted(active):
            expected = 0.0 if busts(active) else policy.decision(i, n + active[FORTYTWO - 1])
        else:
            expected = max(policy.after(active, i, u, n, m) for m in action_moves(active))
        assert policy.value(active, i, u, n) == pytest.approx(expected, abs=1e-9), (active, i, n)
    assert policy.fresh_turn() == pytest.approx(19.0566, abs=5e-5)


def test_a_search_from_the_continue_values_gives_the_shipped_position_values():
    shipped = solver.get_policy()
    search = solver.Policy(dict(shipped.cont))
    for active, i, n in random.Random(3).sample(list(solver.positions()), 40):
        u = 10 - sum(active) - i - n
        assert shipped.value(active, i, u, n) == pytest.approx(search.value(active, i, u, n), abs=1e-9)


def test_tabled_bust_risks_and_turn_points_match_their_searches():
    policy = solver.get_policy()
    for key in [(4, 4), (0, 8), (2, 5), (1, 6)]:  # small throws: quick to search
        assert policy.risk[key] == pytest.approx(solver.continue_risk(policy, *key), abs=1e-12)
    assert policy.risk[(0, 9)] == pytest.approx(2 / 6)  # one die: a Dragon or a lone Spaceship
    dist = policy.turn_points
    assert sum(dist.values()) == pytest.approx(1, abs=1e-12)
    assert sum(points * p for points, p in dist.items()) == pytest.approx(policy.fresh_turn(), abs=1e-9)


def test_positions_are_ranked_one_to_one():
    assert [solver.rank(a, i, n) for a, i, n in solver.positions()] == list(range(solver.POSITIONS))
    assert solver.POSITIONS == 43758


def test_damaged_table_is_refused():
    data = solver.table_path().read_bytes()
    damaged = bytearray(data)
    damaged[-3] ^= 1
    for bad in (bytes(damaged), data[:-8], b"junk"):
        with pytest.raises(solver.TableError):
            solver.load_table(bad)
    solver.load_table(data)


def test_advice_knows_the_order_matters():  # example 2
    state = position(["ship", "heart"], inactive=0, scored=3)
    advice = solver.advise(state, 0)
    assert advice[0]["move"] == "ship heart" and advice[-1] == {"move": "heart", "value": 0.0}
    assert advice[0]["value"] >= triangle(3)
    decide = play(position(["ship", "heart"], inactive=0, scored=3), "ship heart")
    values = {a["move"]: a["value"] for a in solver.advise(decide, 0)}
    assert values["stop"] == 6 and "continue" in values
    assert 0 < solver.bust_chance(decide) < 1


def test_optimal_beats_the_easier_levels():
    seats = {}
    for level in ("easy", "medium", "optimal"):
        total = 0
        for seed in range(8):
            _, state = self_play("geekout", [level], seed=f"lv:{seed}")
            total += state.scores()[0]
        seats[level] = total
    assert seats["easy"] < seats["medium"] < seats["optimal"]


# --- the Perfect level (win probability in the last turn) ---------------------------------------
def test_win_share_counts_ties_as_shared_victories():
    from pygame_core.games.geekout import winprob

    assert winprob.win_share(50, [(40, False)]) == 1.0
    assert winprob.win_share(40, [(40, False)]) == 0.5
    assert winprob.win_share(40, [(40, False), (40, False)]) == pytest.approx(1 / 3)
    assert winprob.win_share(30, [(40, False), (20, False)]) == 0.0
    dist = winprob.turn_points()  # the expected-points policy's turn: an exact distribution
    assert sum(dist.values()) == pytest.approx(1, abs=1e-12)
    assert sum(points * p for points, p in dist.items()) == pytest.approx(solver.get_policy().fresh_turn(), abs=1e-9)
    # Against one player still to play: ahead by 10, I win unless they score more than 10 (tie: half).
    expected = sum(p for pts, p in dist.items() if pts < 10) + sum(p for pts, p in dist.items() if pts == 10) / 2
    assert winprob.win_share(50, [(40, True)]) == pytest.approx(expected)


def test_perfect_plays_the_expected_points_policy_until_its_last_turn():
    from pygame_core.games.geekout import ai, winprob

    state = GeekOut.new_state({"players": 2})
    play(state, roll("meeple", "meeple", "hero", "dragon", "42", "42", "heart"))
    assert not winprob.last_turn(state, 0)
    assert ai.perfect(state, 0, random.Random(1)) == solver.best_move(state)
    # Last round, the result already decided (far ahead, the other has played): take the points.
    state = GeekOut.new_state({"players": 2})
    state.pad, state.turn = [[55] * 4, [0] * 5], 9
    state.seat = 0
    play(state, roll("meeple", "meeple", "hero", "dragon", "42", "42", "heart"))
    assert winprob.last_turn(state, 0) and winprob.win_policy(state, 0) is None
    assert ai.perfect(state, 0, random.Random(1)) == solver.best_move(state)


def test_perfect_stops_once_the_win_is_safe_where_expected_points_would_go_on():
    from pygame_core.games.geekout import ai

    # Bo has finished 10 ahead of Ann; Ann's last turn has banked five 42s (15 points) with
    # seven dice used: stopping wins for sure, while expected points say continue.
    state = GeekOut.new_state({"players": 2})
    state.pad, state.turn, state.seat = [[10] * 4, [10] * 5], 9, 0
    state.active, state.inactive, state.used, state.scored = [0] * 6, 0, 5, 5
    state.pending, state.phase = 0, "decide"
    assert solver.best_move(state) == "continue"
    assert ai.perfect(state, 0, random.Random(1)) == "stop"


def test_the_fixed_point_iteration_solves_a_small_contraction_exactly():
    from pygame_core.games.geekout.winprob import fixed_point

    # x = max(A x + b, floor): piecewise linear and monotone like the continue values.
    a = [[0.3, 0.2, 0.0], [0.1, 0.4, 0.1], [0.0, 0.25, 0.5]]
    b = [1.0, -2.0, 0.5]
    floor = [0.0, 0.0, 0.0]
    calls = []

    def step(x):
        calls.append(x)
        return [max(sum(aij * xj for aij, xj in zip(row, x)) + bi, f) for row, bi, f in zip(a, b, floor)]

    x = fixed_point(step, [0.0, 0.0, 0.0], 1e-13)
    assert max(abs(u - v) for u, v in zip(step(x), x)) < 1e-12
    assert x[1] == 0.0 and x[0] == pytest.approx(1 / 0.7, abs=1e-12)  # the floor binds on x1
    assert len(calls) < 12  # plain iteration needs about 40 steps for this tolerance


def test_the_perfect_solver_reproduces_the_shipped_policy_with_expected_points_as_utility():
    # The solver Pyodide uses (plain Python), and numpy's where CPython has it, must give the
    # shipped expected-points values when what the end is worth is the points themselves.
    from pygame_core.games.geekout import winprob
    from pygame_core.games.geekout.rules import triangle

    graph = winprob.graph()
    shipped = solver.get_policy()
    stop = [float(triangle(n)) for n in range(11)]
    solvers = [graph.solve_plain]
    try:
        import numpy  # noqa: F401
        solvers.append(graph.solve_numpy)
    except ImportError:
        pass
    for solve in solvers:
        policy = solve(stop, 0.0)
        assert max(abs(policy.cont[key] - shipped.cont[key]) for key in shipped.cont) < 1e-9
        assert max(abs(a - b) for a, b in zip(policy.values, shipped.values)) < 1e-9
