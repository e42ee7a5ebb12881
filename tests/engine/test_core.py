"""Shared mechanisms: ranking, tournament points, records, table saves, CLI."""

import json
import random

import pytest

from pygame_core.__main__ import main
from pygame_core.ranking import Standings, competition_places, placement_points
from pygame_core.record import Record, RecordError
from pygame_core.rng import DiceRoller
from pygame_core.table import SaveError, Table
from pygame_core.protocol import IllegalMove
from pygame_core.registry import get_entry


def test_competition_places_share_ties():
    assert competition_places([10, 20, 20, 5]) == [3, 1, 1, 4]
    assert competition_places([7, 7]) == [1, 1]
    assert competition_places([50, 99, 10], winners=[0]) == [1, 2, 3]


def test_placement_points_share_the_shared_place():
    assert placement_points([1, 2, 3, 4]) == [4, 3, 2, 1]
    assert placement_points([1, 1]) == [2, 2]
    assert placement_points([3, 1, 1, 4]) == [2, 4, 4, 1]


def test_standings_accumulate():
    standings = Standings(3)
    standings.add_game([1, 2, 3])
    standings.add_game([2, 1, 1])
    assert standings.points == [5, 5, 4] and standings.wins == [1, 1, 1] and standings.games == 2
    assert Standings.from_json(json.loads(json.dumps(standings.to_json()))).to_json() == standings.to_json()


def seats(n):
    return [{"name": f"P{i}", "symbol": "●▲■◆★"[i], "ai": "beginner" if i else None} for i in range(n)]


def play(table, *moves):
    """Submit moves for whoever is to move (CHANCE or the first current seat)."""
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)


def play_out(table, seed=1):
    roller, rng = DiceRoller(seed), random.Random(seed)
    while not table.state.is_terminal():
        state = table.state
        play(table, roller.roll(state) if state.is_chance() else rng.choice(state.legal_moves()))


def test_table_rotates_start_and_counts_standings():
    table = Table("penta", seats(3))
    table.new_game(random.Random(4))
    first = table.state.options["start"]
    play_out(table)
    assert table.standings.games == 1 and sum(table.standings.points) == sum(placement_points(table.state.ranking()))
    table.new_game(random.Random(99))
    assert table.state.options["start"] == (first + 1) % 3
    assert table.start_seats == [first, (first + 1) % 3]


def test_table_save_round_trip_mid_game_and_no_take_backs_in_penta():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    roller = DiceRoller(5)
    play(table, roller.roll(table.state), "keep")
    play(table, roller.roll(table.state))
    resumed = Table.loads(table.dumps())
    assert resumed.state.to_json() == table.state.to_json()
    assert resumed.to_json() == table.to_json()
    before = table.state.to_json()
    with pytest.raises(IllegalMove):
        play(table, "score nowhere")
    assert table.state.to_json() == before and len(table.record.moves) == 3
    seat = table.state.current_player()
    with pytest.raises(IllegalMove) as err:  # Penta declares no take-backs: the keep and its roll stay
        table.take_back(seat, 1, table.match.index)
    assert err.value.code == "error.cannot_take_back" and len(table.record.moves) == 3


def test_stale_move_is_refused_by_the_table():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    table.submit(-1, "roll 1 2 3 4 5", 0)
    seat = table.state.current_player()
    before = table.dumps()
    for index in (0, 2, "1", 1.0, True):
        with pytest.raises(IllegalMove) as err:
            table.submit(seat, "score chance", index)
        assert err.value.code == "error.stale_move"
    assert table.dumps() == before
    table.submit(seat, "score chance", 1)
    assert table.state.cards[seat]["chance"] == 15


def test_unknown_ai_level_or_long_name_in_a_save():
    table = Table("penta", seats(2))
    data = table.to_json()
    data["seats"][1]["ai"] = "godlike"
    mended = Table.from_json(data)  # the game is kept: the level becomes the usual one, with a note
    assert mended.seats[1]["ai"] == get_entry("penta").setup_level and mended.notes == ["save.level_mapped"]
    with pytest.raises(ValueError):
        Table("penta", data["seats"])  # a new table is never set up with an unknown level
    data["seats"][1]["ai"] = None
    data["seats"][0]["name"] = "x" * 10_000
    assert Table.from_json(data).seats[0]["name"] == "x" * 24


def test_saves_keep_the_table_id_and_options_once():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    data = table.to_json()
    assert "extra_options" not in data and data["record"]["options"]["players"] == 2
    assert Table.loads(table.dumps()).table_id == table.table_id != Table("penta", seats(2)).table_id


def test_history_tells_behind_from_diverged():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    play(table, "roll 1 2 3 4 5")
    behind = Table.loads(table.dumps())
    play(table, "score chance")
    ahead_id, starts, ahead = table.history()
    behind_id, old_starts, old = behind.history()
    assert ahead_id == behind_id and starts == old_starts and ahead[: len(old)] == old and len(ahead) == len(old) + 1
    play(behind, "score ones")  # the stale copy moves on its own: the histories diverge
    assert behind.history()[2][: len(old)] == old and behind.history()[2] != ahead


def test_export_carries_the_table_and_import_rebuilds_it():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    play_out(table, 2)
    table.new_game(random.Random(2))
    play(table, "roll 6 6 6 6 6")
    data = json.loads(json.dumps(table.export()))
    again = Table.from_export(data, lambda n: seats(n))
    assert again.seats == table.seats and again.standings.to_json() == table.standings.to_json()
    assert again.state.to_json() == table.state.to_json() and again.start_seats == table.start_seats
    data["table"]["seats"][1]["ai"] = "godlike"  # a bad table part: the record still imports
    fallback = Table.from_export(data, lambda n: [{"name": f"N{i}", "symbol": "●▲"[i], "ai": None} for i in range(n)])
    assert [s["name"] for s in fallback.seats] == ["N0", "N1"] and fallback.standings.games == 0


def test_numbers_no_count_can_hold_make_a_save_damaged_and_an_export_keep_its_record():
    """Issue 28: 1e999 (JSON's way to Infinity), NaN, 1.5, true or a huge number where a count
    goes: a save is damaged (SaveError, never OverflowError); an export keeps its record."""
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    play_out(table, 2)
    saved = json.loads(table.dumps())
    for where, value in (("points", [1e999, 0]), ("points", [float("nan"), 0]), ("points", [1.5, 0]),
                         ("wins", [True, 0]), ("games", 10**40)):
        bad = {**saved, "standings": {**saved["standings"], where: value}}
        with pytest.raises(SaveError):
            Table.loads(json.dumps(bad))
    for start in ([1e999], [2], [-1], [0.5]):
        with pytest.raises(SaveError):
            Table.loads(json.dumps({**saved, "start_seats": start}))
    data = json.loads(json.dumps(table.export()))
    data["table"]["start_seats"] = [float("inf")]
    defaults = lambda n: [{"name": f"N{i}", "symbol": "●▲"[i], "ai": None} for i in range(n)]  # noqa: E731
    again = Table.from_export(json.loads(json.dumps(data)), defaults)  # "Infinity" in the file
    assert again.record.moves == table.record.moves and [s["name"] for s in again.seats] == ["N0", "N1"]


def test_crafted_files_are_refused_before_parsing():
    for text, code in [("[" * 6000 + "]" * 6000, "record.not_a_record"), (" " * 2_000_001, "record.too_big")]:
        with pytest.raises(RecordError) as err:
            Record.loads(text)
        assert err.value.code == code
    with pytest.raises(SaveError):
        Table.loads('{"a":' * 5000 + "1" + "}" * 5000)
    record = Record("penta", {"players": 1, "start": 0}, [(-1, "roll " + "1 " * 500_000)])
    with pytest.raises(RecordError) as err:
        Record.loads(record.dumps())
    # Refused by its shape (pygame_core.schema) before any replay, said as the move it is, shortly.
    assert err.value.code == "record.illegal_move" and len(err.value.params["move"]) <= 40


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{not json",
        "[]",
        '{"format": "dicehall-save", "version": 99}',
        '{"format": "dicehall-save", "version": 1, "game": "chess"}',
    ],
)
def test_corrupt_saves_raise_save_error(text):
    with pytest.raises(SaveError) as err:
        Table.loads(text)
    assert err.value.code in ("save.corrupt", "save.version")


def test_tampered_save_moves_are_caught():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    play(table, "roll 1 2 3 4 5")
    data = table.to_json()
    data["record"]["moves"].append([0, "score chance"])
    data["record"]["moves"].append([0, "score chance"])
    with pytest.raises(SaveError):
        Table.from_json(data)


def test_record_errors():
    for text, code in [
        ("nope", "record.not_json"),
        ("{}", "record.not_a_record"),
        ('{"format": "dicehall-record", "version": 3}', "record.version"),
        ('{"format": "dicehall-record", "version": 1, "game": "go", "options": {}, "moves": []}', "record.unknown_game"),
        ('{"format": "dicehall-record", "version": 1, "game": "penta", "options": {"players": 1}, "moves": [[0, "x"]]}', "record.illegal_move"),
        ('{"format": "dicehall-record", "version": 1, "game": "penta", "options": {"players": 9}, "moves": []}', "record.corrupt"),
        ('{"format": "dicehall-record", "version": 1, "game": "penta", "options": {"players": 1}, "moves": [0]}', "record.corrupt"),
    ]:
        with pytest.raises(RecordError) as err:
            Record.loads(text)
        assert err.value.code == code, text


def test_cli_simulate_and_replay(tmp_path, capsys):
    assert main(["simulate", "penta", "--players", "2", "--games", "4", "--seed", "1", "--ai", "beginner"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and len(out["mean_scores"]) == 2 and abs(sum(out["win_shares"]) - 1) < 1e-9
    assert out["moves_per_second"] > 0 and out["ai"] == ["beginner", "beginner"]
    # one level per seat: win shares per seat and per level
    assert main(["simulate", "claim", "--players", "3", "--games", "30", "--seed", "1", "--ai", "centre,random,random"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ai"] == ["centre", "random", "random"] and abs(sum(out["win_shares"]) - 1) < 1e-9
    assert set(out["win_shares_by_level"]) == {"centre", "random"}
    for bad in (["--ai", "centre,random"], ["--ai", "nosuch"]):
        assert main(["simulate", "claim", "--players", "3", "--games", "1", *bad]) == 2
    table = Table("penta", seats(1))
    table.new_game(random.Random(2))
    play_out(table, 3)
    path = tmp_path / "game.json"
    path.write_text(table.record.dumps(), encoding="utf-8")
    assert main(["replay", "penta", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == table.state.scores() and out["terminal"] is True
    path.write_text("garbage", encoding="utf-8")
    assert main(["replay", "penta", str(path)]) == 2


def test_table_from_imported_record_continues_and_counts_finished_games():
    table = Table("penta", seats(2))
    table.new_game(random.Random(3))
    play(table, "roll 6 6 6 6 6")
    half = Table.from_record(Record.loads(table.record.dumps()), seats(2))
    assert half.state.to_json() == table.state.to_json() and half.standings.games == 0
    play(half, "score penta")
    play_out(table, 4)
    done = Table.from_record(Record.loads(table.record.dumps()), seats(2))
    assert done.counted and done.standings.games == 1
    with pytest.raises(ValueError):
        Table.from_record(Record.loads(table.record.dumps()), seats(3))


def test_records_of_format_1_are_read_with_their_legacy_spelling():
    """Format 1 let Penta keeps name their values in display order; they are read as canonical."""
    old = {"format": "dicehall-record", "version": 1, "game": "penta", "options": {"players": 1, "start": 0},
           "moves": [[-1, "roll 5 3 5 1 2"], [0, "keep 5 3 5"], [-1, "roll 6 6"]]}
    record = Record.from_json(old)
    assert record.moves[1] == (0, "keep 3 5 5")
    assert record.replay().dice == [5, 3, 5, 6, 6]
    with pytest.raises(RecordError):  # the current format is strict
        Record.from_json({**old, "version": 2})


def test_match_refuses_and_explains():
    from pygame_core.match import Match

    match = Match.new("penta", {"players": 1})
    with pytest.raises(IllegalMove) as err:
        match.submit(0, "keep", 0)
    assert err.value.code == "error.not_your_turn"
    match.submit(-1, "roll 1 2 3 4 5", 0)
    with pytest.raises(IllegalMove) as err:
        match.submit(0, "keep 6", 1)
    assert err.value.code == "penta.keep_missing"  # the game's own reason, not a generic one
    with pytest.raises(IllegalMove) as err:
        match.submit(0, "keep 2 1", 1)  # listed only as "keep 1 2"
    assert err.value.code == "error.bad_move"
    assert match.index == 1


def test_turns_kept_move_by_move_equal_a_fresh_replay_and_follow_take_backs():
    from pygame_core.ai import self_play
    from pygame_core.match import Match
    from pygame_core.record import Record

    record, _ = self_play("claim", ["random", "random"], seed=7)
    match = Match(Record(record.game, record.options))
    seen = []
    for seat, move in record.moves:
        match.submit(seat, move, match.index)
        seen.append([[(s, m, b.to_json()) for s, m, b in turn] for turn in match.turns()])
    fresh = Match(Record(record.game, record.options, list(record.moves)))
    assert seen[-1] == [[(s, m, b.to_json()) for s, m, b in turn] for turn in fresh.turns()]
    assert sum(len(turn) for turn in match.turns()) == len(record.moves)
