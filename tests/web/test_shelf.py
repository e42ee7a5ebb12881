"""What the app keeps besides the running game: parked games, remembered set-ups, history, bests."""

import random

from dicehall import shelf
from pygame_core.ai import self_play
from pygame_core.registry import get_entry
from pygame_core.table import Table

SYMBOLS = ("●", "▲", "■", "◆", "★")


def seats(*names, ai=None):
    return [{"name": n, "symbol": SYMBOLS[i], "ai": ai if i else None} for i, n in enumerate(names)]


def finished_table(game="penta", names=("Ada", "Bo"), seed=1, ai=None):
    record, _ = self_play(game, [get_entry(game).setup_level] * len(names), seed=seed)
    table = Table(game, seats(*names, ai=ai))
    table.new_game(random.Random(seed))
    for seat, move in record.moves:
        table.submit(seat, move, table.match.index)
    assert table.state.is_terminal()
    return table


def test_parked_games_keep_only_unfinished_loadable_tables_of_known_games():
    running = Table("penta", seats("Ada", "Bo"))
    running.new_game(random.Random(1))
    done = finished_table()
    kept = shelf.check_parked({"penta": running.dumps(), "rolf": done.dumps(), "nosuch": running.dumps(),
                               "cephalopod": "{broken", "claim": 7})
    assert kept == {"penta": running.dumps()}  # a finished one, another game's table, junk: dropped
    assert shelf.check_parked([running.dumps()]) == {} and shelf.check_parked(None) == {}
    assert shelf.check_parked({"penta": "x" * (shelf.MAX_PARKED_CHARS + 1)}) == {}


def test_a_remembered_setup_is_used_only_when_every_seat_is_sound():
    good = [{"name": "Ada", "symbol": "▲", "ai": None}, {"name": "Computer", "symbol": "●", "ai": "greedy"}]

    def seats_of(game, seats):
        found = shelf.check_setup(game, {game: {"seats": seats}}, SYMBOLS)
        return None if found is None else found["seats"]

    assert seats_of("penta", good) == good
    assert shelf.check_setup("penta", {"penta": good}, SYMBOLS)["seats"] == good  # stored before options were
    assert seats_of("penta", [{**good[0], "name": " Ada  "}, good[1]])[0]["name"] == "Ada"
    assert seats_of("penta", [good[0], {**good[1], "ai": "godlike"}]) is None  # unknown level
    assert seats_of("penta", [good[0], {**good[1], "ai": ["greedy"]}]) is None
    assert seats_of("penta", [good[0], {**good[1], "symbol": "▲"}]) is None  # symbol twice
    assert seats_of("penta", [good[0], {**good[1], "name": "  "}]) is None
    assert seats_of("penta", good * 3) is None  # more seats than the game has
    assert seats_of("nosuch", good) is None and shelf.check_setup("penta", "x", SYMBOLS) is None
    assert shelf.check_setup("penta", {"penta": "x"}, SYMBOLS) is None
    long = seats_of("penta", [{**good[0], "name": "N" * 500}, good[1]])
    assert len(long[0]["name"]) == 24  # capped in the model, not only in the input
    stored = shelf.remember_setup({"rolf": []}, "penta", good)
    assert stored["penta"] == {"seats": good, "options": {}} and stored["rolf"] == []
    assert shelf.remember_setup("junk", "penta", good) == {"penta": {"seats": good, "options": {}}}


def test_remembered_options_fall_back_to_their_defaults_one_by_one():
    two = [{"name": "Ada", "symbol": "▲", "ai": None}, {"name": "Bo", "symbol": "●", "ai": "hard"}]
    stored = shelf.remember_setup({}, "cephalopod", two, {"size": 4})
    assert shelf.check_setup("cephalopod", stored, SYMBOLS) == {"seats": two, "options": {"size": 4}}
    for junk in ({"size": 6}, {"size": "4"}, {"size": 4.0}, {"size": True}, {"size": [4]}, "4", None):
        assert shelf.check_options("cephalopod", junk) == {"size": 5}, junk
    assert shelf.check_options("cephalopod", {"size": 3, "extra": 1}) == {"size": 3}


def test_a_level_kept_for_measuring_is_never_offered_nor_remembered():
    entry = get_entry("cephalopod")
    assert "flatmc" in entry.ai_levels and "flatmc" not in entry.player_levels
    seats = [{"name": "Ada", "symbol": "▲", "ai": None}, {"name": "MC", "symbol": "●", "ai": "flatmc"}]
    assert shelf.check_setup("cephalopod", {"cephalopod": {"seats": seats}}, SYMBOLS) is None


def test_history_adds_each_finished_game_once_and_bests_count_people_only():
    first = finished_table(names=("Ada", "Bo"), seed=1, ai="greedy")
    entry = shelf.history_entry(first, when=1000)
    assert entry["seats"][0] == {"name": "Ada", "ai": None, "score": first.state.scores()[0],
                                 "place": first.state.ranking()[0]}
    history = shelf.add_to_history([], entry)
    assert shelf.add_to_history(history, shelf.history_entry(first, when=2000)) is None  # saved again: once
    second = finished_table(names=("Ada", "Cy"), seed=2)
    history = shelf.add_to_history(history, shelf.history_entry(second, when=3000))
    assert len(history) == 2 and shelf.check_history(history) == history
    bests = shelf.personal_bests(history, "penta")
    ada = max(first.state.scores()[0], second.state.scores()[0])
    assert {b["name"] for b in bests} == {"Ada", "Cy"}  # Bo was the computer
    assert next(b for b in bests if b["name"] == "Ada") == {
        "name": "Ada", "score": ada, "games": 2, "ended": 1000 if first.state.scores()[0] >= ada else 3000}
    assert [b["score"] for b in bests] == sorted((b["score"] for b in bests), reverse=True)
    assert shelf.personal_bests(history, "rolf") == []


def test_a_tampered_history_loses_only_its_unsound_entries():
    good = shelf.history_entry(finished_table(), when=5)
    bad = [{**good, "game": "nosuch"}, {**good, "ended": "yesterday"}, {**good, "seats": "x"},
           {**good, "seats": [{"name": "N" * 1001, "ai": None, "score": 1, "place": 1}]},
           {**good, "seats": [{"name": "A", "ai": None, "score": "1", "place": 1}]}, 7, None,
           # issue 28: a list where the game's id goes (it raised), scores too large to show or
           # infinite, a place or a date that is no count
           {**good, "game": []}, {**good, "game": {"a": 1}},
           {**good, "seats": [{"name": "A", "ai": None, "score": int("9" * 400), "place": 1}]},
           {**good, "seats": [{"name": "A", "ai": None, "score": float("inf"), "place": 1}]},
           {**good, "seats": [{"name": "A", "ai": None, "score": float("nan"), "place": 1}]},
           {**good, "seats": [{"name": "A", "ai": None, "score": 1, "place": True}]},
           {**good, "seats": [{"name": "A", "ai": None, "score": 1, "place": 0}]},
           {**good, "ended": 10**400}, {**good, "ended": -1}]
    assert shelf.check_history(bad + [good]) == [good]
    assert shelf.check_history({"a": 1}) == []
    # A long name is shown capped (the game stays in History and the bests), never refused.
    long = {**good, "seats": [{**good["seats"][0], "name": "N" * 99}, *good["seats"][1:]]}
    assert shelf.check_history([long])[0]["seats"][0]["name"] == "N" * 24
    many = [{**good, "id": f"t:{i}"} for i in range(shelf.MAX_HISTORY + 5)]
    kept = shelf.check_history(many)
    assert len(kept) == shelf.MAX_HISTORY and kept[-1]["id"] == many[-1]["id"]  # the oldest go first
