"""Cephalopod's move generator proven the way chess engines prove theirs: perft counts.

- From the empty 5×5 board the counts the issue gives (25, 600, 13 800, 304 840), through the
  `python -m pygame_core perft cephalopod` command.
- Deeper counts and the 3×3 and 4×4 boards against `SimplePerft`, a second, deliberately simple
  implementation written from the rules text alone (boards as tuples, capturing sets from
  itertools.combinations, no shared code with the engine; memoised because a position's count
  depends only on the pip values, not on the colours).
- The fast engine's transposition-table perft (`perft_hashed`) against the same counts: a wrong
  incremental Zobrist key would merge different positions and change them.
- The public CodinGame "Spring Challenge 2025" test cases (3×3, sum of final-board hashes).
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from itertools import combinations

import pytest

from pygame_core.__main__ import main
from pygame_core.games.cephalopod.core import Position, geometry
from pygame_core.games.cephalopod.perft import divide, final_hash_sum, perft, perft_hashed, position_from_hash

# Under Pyodide (3–5× slower) the deepest cross-checks are one ply shallower.
SLOW = sys.platform == "emscripten"


class SimplePerft:
    """Perft straight from the rules: a capturing set is any 2+ orthogonal neighbours with at most
    6 pips; with one the die shows their total and they leave, with none it shows 1."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.count = lru_cache(maxsize=None)(self._count)

    def children(self, board: tuple[int, ...]) -> list[tuple[int, ...]]:
        size = self.size
        out = []
        for r in range(size):
            for c in range(size):
                if board[r * size + c]:
                    continue
                around = [rr * size + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= rr < size and 0 <= cc < size and board[rr * size + cc]]
                sets = [chosen for k in range(2, len(around) + 1) for chosen in combinations(around, k)
                        if sum(board[i] for i in chosen) <= 6]
                for chosen in sets or [()]:
                    child = list(board)
                    for i in chosen:
                        child[i] = 0
                    child[r * size + c] = sum(board[i] for i in chosen) if chosen else 1
                    out.append(tuple(child))
        return out

    def _count(self, board: tuple[int, ...], depth: int) -> int:
        if depth == 0:
            return 1
        return sum(self.count(child, depth - 1) for child in self.children(board))

    def perft(self, depth: int) -> int:
        return self.count((0,) * (self.size * self.size), depth)


def empty(size: int) -> Position:
    return Position(geometry(size))


def cli(*args: str, capsys) -> dict:
    assert main(["perft", "cephalopod", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("depth,count", [(1, 25), (2, 600), (3, 13_800), (4, 304_840)])
def test_issue_counts_on_five_by_five_through_the_cli(depth, count, capsys):
    result = cli(str(depth), capsys=capsys)
    assert result["nodes"] == count and result["size"] == 5 and result["depth"] == depth
    assert SimplePerft(5).perft(depth) == count


def test_cli_options(capsys):
    assert cli("3", "--size", "3", "--no-bulk", capsys=capsys)["nodes"] == SimplePerft(3).perft(3)
    assert cli("5", "--size", "4", "--hash", capsys=capsys)["nodes"] == SimplePerft(4).perft(5)
    result = cli("2", "--size", "3", "--divide", capsys=capsys)
    assert sum(result["divide"].values()) == result["nodes"] == 72 and len(result["divide"]) == 9
    assert cli("0", capsys=capsys)["nodes"] == 1
    with pytest.raises(SystemExit):  # sizes 3-5 only (argparse refuses the rest)
        main(["perft", "cephalopod", "3", "--size", "6"])
    assert main(["perft", "cephalopod", "-1"]) == 2
    capsys.readouterr()


def test_bulk_counting_changes_nothing():
    for size, depth in ((3, 6), (4, 4), (5, 3)):
        assert perft(empty(size), depth, bulk=True) == perft(empty(size), depth, bulk=False)


def test_divide_sums_to_perft():
    parts = divide(empty(4), 4)
    assert len(parts) == 16 and sum(parts.values()) == perft(empty(4), 4)


@pytest.mark.parametrize("size,depths", [(3, range(1, 8)), (4, range(1, 6)), (5, range(1, 6))])
def test_engine_matches_the_simple_implementation(size, depths):
    simple = SimplePerft(size)
    for depth in depths:
        if SLOW and size == 5 and depth == 5:
            continue  # the hashed check below covers it
        assert perft(empty(size), depth) == simple.perft(depth), (size, depth)


@pytest.mark.parametrize("size,depth", [(3, 10), (4, 7), (5, 6)])
def test_deep_counts_with_the_transposition_table(size, depth):
    if SLOW:
        depth -= 1
    position = empty(size)
    assert perft_hashed(position, depth) == SimplePerft(size).perft(depth)
    assert position.stack == [] and position.filled == 0  # left as found


def test_known_deep_value():
    # 5×5 depth 5 and 6 (the benchmark's depth), as the simple implementation counts them
    simple = SimplePerft(5)
    assert simple.perft(5) == 6_505_928
    if not SLOW:
        assert simple.perft(6) == 135_329_616


# CodinGame Spring Challenge 2025 ("Cephalopod", 3×3): depth, start board, expected sum of the
# final boards' hashes mod 2**30 (the puzzle's published validator tests 1–9; tests 10–12 take
# 5–8 s each here and run in bench/cephalopod_perft.py --codingame).
CODINGAME = [
    (20, 60222161, 322444322),
    (20, 506450064, 951223336),
    (1, 555005555, 36379286),
    (1, 616101616, 264239762),
    (8, 606000615, 76092874),
    (24, 300362102, 661168294),
    (36, 604202400, 350917228),
    (32, 54105, 999653138),
    (40, 4024134, 521112022),
]


@pytest.mark.parametrize("depth,board,expected", CODINGAME)
def test_codingame_spring_challenge_2025_vectors(depth, board, expected):
    position = position_from_hash(board)
    assert final_hash_sum(position, depth) == expected
    assert position.stack == []


def test_codingame_depth_one_from_the_empty_board():
    # nine boards, each with a single 1: 100000000 + 10000000 + ... + 1
    assert final_hash_sum(position_from_hash(0), 1) == 111_111_111
