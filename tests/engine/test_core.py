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


def play_out(table, seed=1):
    roller, rng = DiceRoller(seed), random.Random(seed)
    while not table.state.is_terminal():
        state = table.state
        table.play(roller.roll(state) if state.is_chance() else rng.choice(state.legal_moves()))


def test_table_rotates_start_and_counts_standings():
    table = Table("penta", seats(3))
    table.new_game(random.Random(4))
    first = table.state.options["start"]
    play_out(table)
    assert table.standings.games == 1 and sum(table.standings.points) == sum(placement_points(table.state.ranking()))
    table.new_game(random.Random(99))
    assert table.state.options["start"] == (first + 1) % 3
    assert table.start_seats == [first, (first + 1) % 3]


def test_table_save_round_trip_mid_game_and_undo():
    table = Table("penta", seats(2))
    table.new_game(random.Random(1))
    roller = DiceRoller(5)
    table.play(roller.roll(table.state))
    table.play("keep")
    table.play(roller.roll(table.state))
    resumed = Table.loads(table.dumps())
    assert resumed.state.to_json() == table.state.to_json()
    assert resumed.to_json() == table.to_json()
    before = table.state.to_json()
    with pytest.raises(IllegalMove):
        table.play("score nowhere")
    assert table.state.to_json() == before and len(table.record.moves) == 3
    table.undo()
    assert len(table.record.moves) == 2 and table.state.is_chance()


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
    table.play("roll 1 2 3 4 5")
    data = table.to_json()
    data["record"]["moves"].append([0, "score chance"])
    data["record"]["moves"].append([0, "score chance"])
    with pytest.raises(SaveError):
        Table.from_json(data)


def test_record_errors():
    for text, code in [
        ("nope", "record.not_json"),
        ("{}", "record.not_a_record"),
        ('{"format": "dicehall-record", "version": 2}', "record.version"),
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
    assert out["moves_per_second"] > 0
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
    table.play("roll 6 6 6 6 6")
    half = Table.from_record(Record.loads(table.record.dumps()), seats(2))
    assert half.state.to_json() == table.state.to_json() and half.standings.games == 0
    half.play("score penta")
    play_out(table, 4)
    done = Table.from_record(Record.loads(table.record.dumps()), seats(2))
    assert done.counted and done.standings.games == 1
    with pytest.raises(ValueError):
        Table.from_record(Record.loads(table.record.dumps()), seats(3))
