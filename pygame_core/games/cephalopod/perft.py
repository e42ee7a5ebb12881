"""Move-path counts ("perft", as chess engines prove their move generators) and the CLI command.

    python -m pygame_core perft cephalopod DEPTH [--size N] [--divide] [--no-bulk]

prints one JSON object: the number of move sequences of exactly DEPTH moves from the empty board
(White to move), the time and the nodes per second. As in chess, a game that ends before DEPTH
moves contributes nothing at that depth. From the empty 5×5 board: 25, 600, 13 800, 304 840,
6 505 928, 135 329 616 (depths 1–6; the deeper ones are cross-checked in the tests against a
second, deliberately simple implementation).

`final_hash_sum` is the CodinGame "Spring Challenge 2025" quantity (3×3, colourless): the sum,
over every path of at most DEPTH moves that stops early only when the board is full, of the
final board read as a 9-digit number (top row first), modulo 2**30.
"""

from __future__ import annotations

import time

from .core import Position, geometry

MOD = 1 << 30


def perft(position: Position, depth: int, bulk: bool = True) -> int:
    """The number of move sequences of exactly `depth` moves from `position` (left unchanged).

    `bulk`: count the last ply's moves without making them (the result is the same)."""
    if depth == 0:
        return 1
    if bulk and depth == 1:
        return position.count_moves()
    total = 0
    push, pop = position.push, position.pop
    for move in position.moves():
        push(move)
        total += perft(position, depth - 1, bulk)
        pop()
    return total


def perft_hashed(position: Position, depth: int, table: dict | None = None) -> int:
    """`perft` with a transposition table keyed by the Zobrist key and the depth left.

    Positions reached by different move orders are counted once: this makes deep counts cheap
    and, compared with plain `perft`, checks that `push`/`pop` keep the Zobrist key exact (a
    wrong key merges different positions and the counts differ)."""
    table = {} if table is None else table
    push, pop = position.push, position.pop

    def walk(left: int) -> int:
        if left == 1:
            return position.count_moves()
        key = position.zkey * 64 + left
        found = table.get(key)
        if found is not None:
            return found
        total = 0
        for move in position.moves():
            push(move)
            total += walk(left - 1)
            pop()
        table[key] = total
        return total

    return walk(depth) if depth else 1


def divide(position: Position, depth: int) -> dict[str, int]:
    """perft(depth - 1) below each legal move, by move name (to find where two counts differ)."""
    out = {}
    for move in position.moves():
        position.push(move)
        out[position.geo.move_name(move)] = perft(position, depth - 1)
        position.pop()
    return out


def board_hash(position: Position) -> int:
    """The board as a decimal number, top rank first, pip values only (CodinGame's hash)."""
    size, cells = position.geo.size, position.cells
    value = 0
    for rank in range(size - 1, -1, -1):
        for col in range(size):
            value = value * 10 + (cells[rank * size + col] & 7)
    return value


def final_hash_sum(position: Position, depth: int) -> int:
    """CodinGame's sum of final-board hashes over all paths of at most `depth` moves, mod 2**30.

    Memoised on (pip values, depth left): the colours of the dice never change which moves
    exist, so positions that differ only in colour have the same sum."""
    memo: dict[tuple[int, int], int] = {}
    push, pop = position.push, position.pop

    def walk(left: int) -> int:
        board = board_hash(position)
        if left == 0 or position.is_terminal():
            return board % MOD
        key = (board, left)
        found = memo.get(key)
        if found is not None:
            return found
        total = 0
        for move in position.moves():
            push(move)
            total += walk(left - 1)
            pop()
        total %= MOD
        memo[key] = total
        return total

    return walk(depth)


def position_from_hash(board: int, size: int = 3) -> Position:
    """A position from CodinGame's decimal board (colours do not matter: all White)."""
    n = size * size
    digits = [int(ch) for ch in str(board).rjust(n, "0")]
    cells = [0] * n
    for k, v in enumerate(digits):
        if v:
            rank, col = size - 1 - k // size, k % size
            cells[rank * size + col] = v
    return Position(geometry(size), cells, 0)


# --- command line (declared in GAME.cli_commands, run by pygame_core/__main__.py) -------------------
def _perft_arguments(parser) -> None:
    parser.add_argument("depth", type=int, help="number of moves (plies)")
    parser.add_argument("--size", type=int, choices=[3, 4, 5], default=5, help="board size (default 5)")
    parser.add_argument("--divide", action="store_true", help="also count below each first move")
    parser.add_argument("--no-bulk", action="store_true", help="make every last-ply move instead of counting them")
    parser.add_argument("--hash", action="store_true", help="count transpositions once (Zobrist table): deep counts")


def _perft_run(args) -> dict:
    if args.depth < 0:
        raise ValueError("the depth must be 0 or more")
    position = Position(geometry(args.size))
    started = time.perf_counter()
    if args.hash:
        table: dict = {}
        nodes = perft_hashed(position, args.depth, table)
    else:
        nodes = perft(position, args.depth, bulk=not args.no_bulk)
    seconds = time.perf_counter() - started
    result = {
        "game": "cephalopod",
        "size": args.size,
        "depth": args.depth,
        "nodes": nodes,
        "seconds": round(seconds, 3),
        "nodes_per_second": round(nodes / seconds) if seconds > 0 else None,
        "bulk": not args.no_bulk,
        "hashed": args.hash,
    }
    if args.hash:
        result["table_entries"] = len(table)
    if args.divide:
        result["divide"] = divide(position, args.depth) if args.depth else {}
    return result


CLI_COMMANDS = {"perft": (_perft_arguments, _perft_run)}
