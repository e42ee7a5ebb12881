"""One game, one writer: the relation between a tab's table and the saved one."""

import random

from dicehall.savesync import relation
from pygame_core.table import Table


def table_with(*moves):
    table = Table("penta", [{"name": "A", "symbol": "●", "ai": None}, {"name": "B", "symbol": "▲", "ai": None}])
    table.new_game(random.Random(1))
    for move in moves:
        table.submit(table.state.current_player(), move, table.match.index)
    return table


def test_relations():
    table = table_with("roll 1 2 3 4 5")
    saved = table.dumps()
    assert relation(None, table) == "none"
    assert relation(saved, table) == "same"
    behind = Table.loads(saved)
    table.submit(table.state.current_player(), "score chance", 1)
    assert relation(saved, table) == "ahead"  # this tab moved on: it writes
    assert relation(table.dumps(), behind) == "behind"  # the other tab's save is longer: take it
    behind.submit(behind.state.current_player(), "score ones", 1)
    assert relation(table.dumps(), behind) == "diverged"  # both moved on differently: never overwrite
    assert relation(table_with().dumps(), table) == "other"  # a new table started elsewhere
    assert relation("{not json", table) == "ahead"  # a broken save is replaced
    table.new_game(random.Random(2))  # play again: the next game extends the table's history
    assert relation(saved, table) == "ahead" and relation(table.dumps(), Table.loads(saved)) == "behind"
