"""Cephalopod's fast core: board geometry, capture tables and a make/unmake position.

Everything here is ints and lists so that search (perft, the AI levels) is cheap in CPython and
under Pyodide; the string notation (`rules.py`) is only the wire format.

Squares
-------
A board of size N has N*N squares, index `i = row * N + col` with row 0 = rank 1 (the bottom
row, as on a chess board) and col 0 = file `a`. `Geometry(N).names[i]` is the square's name
(`a1` … `e5`).

Cells
-----
`cells[i]` is 0 for an empty square, else `value | seat << 3` (value 1..6 in the low 3 bits,
the owner's seat 0/1 above), so `code & 7` is the pip value and `code >> 3` the owner.

Capture keys
------------
Every square lists its orthogonal neighbours in a fixed order (at most 4: "positions" 0..3).
The *key* of an empty square is `sum(value(neighbour p) * 7**p)` — the pip values around it in
base 7 — and `CAPTURES[key]` lists the capturing sets there as bit masks over the neighbour
positions (at least two dice, pip total 6 or less), or `[0]` (a plain placement) when there is
none. An occupied square's key has `OCCUPIED` added, and `CAPTURES[k >= OCCUPIED]` is `[]`, so
"the moves of square s" is always just `CAPTURES[keys[s]]` and the whole move list is one
comprehension. `Position` keeps the keys up to date incrementally on every make/unmake.

Moves
-----
Internally a move is the int `square << 4 | mask` (`mask` = 0 for a plain placement);
`Geometry.subsets[square][mask]` are the captured squares, already in notation order.
"""

from __future__ import annotations

import random

OCCUPIED = 7 ** 4
"""Added to the key of a square that holds a die: no move can be made there."""

MAX_SUM = 6
"""A capturing set's pip total is at most this (and a die never shows more)."""


def _capture_table() -> tuple[list[list[int]], list[list[int]]]:
    """`CAPTURES[key]`: capturing masks (or [0]); `TOTALS[key][mask]`: the pip total of `mask`.

    Built at import (the main thread imports every game on boot), so it avoids per-mask lists:
    a mask's total is its total without its lowest bit plus that position's value."""
    lowest = [(mask & -mask).bit_length() - 1 for mask in range(16)]
    several = [mask for mask in range(16) if mask & (mask - 1)]  # two positions or more
    captures: list[list[int]] = []
    totals: list[list[int]] = []
    for key in range(OCCUPIED):
        values = (key % 7, key // 7 % 7, key // 49 % 7, key // 343)
        empty = (values[0] == 0) | (values[1] == 0) << 1 | (values[2] == 0) << 2 | (values[3] == 0) << 3
        sums = [0] * 16
        for mask in range(1, 16):
            sums[mask] = sums[mask & (mask - 1)] + values[lowest[mask]]
        masks = [mask for mask in several if not mask & empty and sums[mask] <= MAX_SUM]
        captures.append(masks or [0])
        totals.append(sums)
    nothing: list[int] = []  # shared by every occupied key (never mutated)
    captures.extend([nothing] * OCCUPIED)
    return captures, totals


CAPTURES, TOTALS = _capture_table()
# UNION[key]: the neighbour positions that belong to at least one capturing set (0: none).
UNION = [0] * (2 * OCCUPIED)
for _key in range(OCCUPIED):
    for _mask in CAPTURES[_key]:
        UNION[_key] |= _mask


class Geometry:
    """The fixed tables of one board size (built once per size: `geometry(size)`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        n = self.n = size * size
        self.names = [chr(ord("a") + i % size) + str(i // size + 1) for i in range(n)]
        self.index = {name: i for i, name in enumerate(self.names)}
        # Neighbour order of every square: down, left, right, up (any fixed order works).
        self.neighbours: list[tuple[int, ...]] = []
        for i in range(n):
            r, c = divmod(i, size)
            around = []
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    around.append(rr * size + cc)
            self.neighbours.append(tuple(around))
        # links[t]: (square s next to t, 7**position of t among s's neighbours): a die of value
        # v arriving on t adds v * weight to the key of s.
        self.links: list[tuple[tuple[int, int], ...]] = [
            tuple((s, 7 ** self.neighbours[s].index(t)) for s in self.neighbours[t]) for t in range(n)]
        # subsets[s][mask]: the captured squares in notation order (file, then rank: a2 < b1 < b3).
        order = sorted(range(n), key=lambda i: (i % size, i // size))
        rank = {sq: k for k, sq in enumerate(order)}
        self.subsets: list[list[tuple[int, ...]]] = []
        for s in range(n):
            around = self.neighbours[s]
            table = []
            for mask in range(16):
                chosen = [around[p] for p in range(len(around)) if mask >> p & 1]
                table.append(tuple(sorted(chosen, key=rank.__getitem__)))
            self.subsets.append(table)
        # expose[s][union]: the bitboard of s's neighbours at those positions (dice a capture on s
        # would take).
        self.expose = [[sum(1 << self.neighbours[s][p] for p in range(len(self.neighbours[s])) if u >> p & 1)
                        for u in range(16)] for s in range(n)]
        # Zobrist keys: one per (square, cell code) and one for "seat 1 to move".
        rng = random.Random(f"cephalopod-zobrist-{size}")
        self.zobrist = [[0 if code & 7 == 0 or code & 7 == 7 else rng.getrandbits(63) for code in range(16)]
                        for _ in range(n)]
        self.z_side = rng.getrandbits(63)

    def key_of(self, cells: list[int], s: int) -> int:
        """The capture key of square `s` computed from scratch (see the module text)."""
        key = OCCUPIED if cells[s] else 0
        weight = 1
        for t in self.neighbours[s]:
            key += (cells[t] & 7) * weight
            weight *= 7
        return key

    def move_name(self, move: int) -> str:
        """The notation of an internal move: `c3`, or `c3x b3 c2` (captured squares in order)."""
        s, mask = move >> 4, move & 15
        if not mask:
            return self.names[s]
        return self.names[s] + "x " + " ".join(self.names[t] for t in self.subsets[s][mask])


_GEOMETRIES: dict[int, Geometry] = {}


def geometry(size: int) -> Geometry:
    geo = _GEOMETRIES.get(size)
    if geo is None:
        geo = _GEOMETRIES[size] = Geometry(size)
    return geo


class Position:
    """A position for search: cells, capture keys, dice counts, Zobrist key, make/unmake.

    `push(move)` / `pop()` play and take back internal moves (ints); `moves()` lists them.
    Terminal when every square is filled (`filled == n`).
    """

    __slots__ = ("geo", "cells", "keys", "side", "counts", "bits", "sixes", "filled", "zkey", "stack")

    def __init__(self, geo: Geometry, cells: list[int] | None = None, side: int = 0) -> None:
        self.geo = geo
        self.cells = list(cells) if cells is not None else [0] * geo.n
        self.side = side
        self.stack: list[tuple] = []
        self.refresh()

    def refresh(self) -> None:
        """Recompute keys, counts and the Zobrist key from `cells` and `side`."""
        geo, cells = self.geo, self.cells
        self.keys = [geo.key_of(cells, s) for s in range(geo.n)]
        self.counts = [sum(1 for c in cells if c and c >> 3 == seat) for seat in (0, 1)]
        # bits[seat]: bitboard of that seat's dice; sixes: bitboard of dice showing 6 (a 6 is never
        # captured: a capturing set has two or more dice totalling 6 or less)
        self.bits = [sum(1 << s for s, c in enumerate(cells) if c and c >> 3 == seat) for seat in (0, 1)]
        self.sixes = sum(1 << s for s, c in enumerate(cells) if c & 7 == 6)
        self.filled = sum(1 for c in cells if c)
        z = geo.z_side if self.side else 0
        for s, code in enumerate(cells):
            if code:
                z ^= geo.zobrist[s][code]
        self.zkey = z

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.geo = self.geo
        other.cells = self.cells[:]
        other.keys = self.keys[:]
        other.side = self.side
        other.counts = self.counts[:]
        other.bits = self.bits[:]
        other.sixes = self.sixes
        other.filled = self.filled
        other.zkey = self.zkey
        other.stack = []
        return other

    def is_terminal(self) -> bool:
        return self.filled == self.geo.n

    def moves(self) -> list[int]:
        """Every legal move (ints), by square then capture mask; [] when the board is full."""
        caps, keys = CAPTURES, self.keys
        return [s << 4 | m for s in range(self.geo.n) for m in caps[keys[s]]]

    def count_moves(self) -> int:
        """len(self.moves()) without building the list (perft's bulk counting)."""
        caps = CAPTURES
        return sum(len(caps[k]) for k in self.keys)

    def push(self, move: int) -> None:
        geo, cells, keys = self.geo, self.cells, self.keys
        zob = geo.zobrist
        s, mask = move >> 4, move & 15
        z = self.zkey
        side = self.side
        removed: tuple[int, ...] = ()
        if mask:
            links = geo.links
            captured = geo.subsets[s][mask]
            removed = tuple(cells[t] for t in captured)
            value = 0
            counts, bits = self.counts, self.bits
            for t, code in zip(captured, removed):
                v = code & 7
                value += v
                cells[t] = 0
                keys[t] -= OCCUPIED
                for u, w in links[t]:
                    keys[u] -= v * w
                z ^= zob[t][code]
                counts[code >> 3] -= 1
                bits[code >> 3] ^= 1 << t
            self.filled -= len(captured)
            if value == 6:
                self.sixes |= 1 << s
        else:
            value = 1
        code = value | side << 3
        cells[s] = code
        keys[s] += OCCUPIED
        for u, w in geo.links[s]:
            keys[u] += value * w
        self.counts[side] += 1
        self.bits[side] |= 1 << s
        self.filled += 1
        self.stack.append((move, removed, self.zkey))
        self.zkey = z ^ zob[s][code] ^ geo.z_side
        self.side = 1 - side

    def pop(self) -> int:
        move, removed, z = self.stack.pop()
        geo, cells, keys = self.geo, self.cells, self.keys
        s, mask = move >> 4, move & 15
        side = 1 - self.side
        self.side = side
        value = cells[s] & 7
        cells[s] = 0
        keys[s] -= OCCUPIED
        links = geo.links
        for u, w in links[s]:
            keys[u] -= value * w
        counts, bits = self.counts, self.bits
        counts[side] -= 1
        bits[side] ^= 1 << s
        self.filled -= 1
        if mask:
            if value == 6:
                self.sixes ^= 1 << s
            for t, code in zip(geo.subsets[s][mask], removed):
                v = code & 7
                cells[t] = code
                keys[t] += OCCUPIED
                for u, w in links[t]:
                    keys[u] += v * w
                counts[code >> 3] += 1
                bits[code >> 3] |= 1 << t
            self.filled += len(removed)
        self.zkey = z
        return move

    def value_after(self, move: int) -> int:
        """The pip value the placed die would show."""
        s, mask = move >> 4, move & 15
        return TOTALS[self.keys[s]][mask] if mask else 1
